/* The communication probe over real MPI ranks (run under mpirun; make test
   runs it with 2 ranks on this node, tests/cluster/run_tests.sh with 4 ranks
   on 2 emulated nodes). Rank 0 prints the checks and "N passed, N failed".
     --cache-dir DIR  --force  --all-pairs  --quick
     --expect-layers N           exactly N layers
     --expect-from-file 0|1      the results were measured now / read
     --max-inter-bw B            the inter-node curve at 4 MiB stays <= 1.2 B
                                 bytes/s (a tbf rate limit) and intra-node
                                 layers run above 4 B
     --json FILE                 rank 0 writes the profile's JSON there */
#define _GNU_SOURCE 1 /* mpi.h may pull in libc headers before servet.h can ask for POSIX */
#include <mpi.h>
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include "helpers.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void log_stderr(void *user, servet_log_level level, const char *msg) {
    (void)user;
    (void)level;
    fprintf(stderr, "servet: %s\n", msg);
}

static uint64_t comm_json_hash(const servet_profile *p) {
    size_t n = servet_json(p, NULL, 0);
    char *s = (char *)malloc(n + 1), *a, *b;
    uint64_t h = 1469598103934665603ull;
    if (!s) return 0;
    servet_json(p, s, n + 1);
    a = strstr(s, "\"comm\":");
    b = a ? strstr(a, ",\"tlb\":") : NULL;
    for (; a && a < b; a++) h = (h ^ (unsigned char)*a) * 1099511628211ull;
    free(s);
    return h;
}

int main(int argc, char **argv) {
    servet_desc d;
    servet_profile *p = NULL;
    servet_result r;
    servet_comm_info ci;
    int rank, size, i, a, b, expect_layers = -1, expect_file = -1, nodes = 0, wrong = 0;
    double max_inter_bw = 0.0;
    const char *json = NULL;
    char (*names)[64], me[64] = {0};
    uint64_t h, h0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(&d, 0, sizeof d);
    d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_COMM;
    d.log = log_stderr;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cache-dir") && i + 1 < argc) d.cache_dir = argv[++i];
        else if (!strcmp(argv[i], "--force")) d.force = 1;
        else if (!strcmp(argv[i], "--all-pairs")) d.all_pairs = 1;
        else if (!strcmp(argv[i], "--quick")) d.quick = 1;
        else if (!strcmp(argv[i], "--expect-layers") && i + 1 < argc) expect_layers = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--expect-from-file") && i + 1 < argc) expect_file = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--max-inter-bw") && i + 1 < argc) max_inter_bw = atof(argv[++i]);
        else if (!strcmp(argv[i], "--json") && i + 1 < argc) json = argv[++i];
    }
    /* the nodes, as MPI sees them, independently of the library */
    names = (char (*)[64])calloc((size_t)size, 64);
    gethostname(me, sizeof me - 1);
    MPI_Allgather(me, 64, MPI_CHAR, names, 64, MPI_CHAR, MPI_COMM_WORLD);
    for (i = 0; i < size; i++) {
        int k, seen = 0;
        for (k = 0; k < i; k++) if (!strcmp(names[k], names[i])) seen = 1;
        if (!seen) nodes++;
    }
    r = servet_open_mpi(&p, &d, NULL);
    if (rank != 0) {
        h = r == SERVET_OK ? comm_json_hash(p) : 0;
        MPI_Reduce(&h, &h0, 1, MPI_UINT64_T, MPI_BXOR, 0, MPI_COMM_WORLD);
        MPI_Bcast(&h, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        servet_close(p);
        free(names);
        MPI_Finalize();
        return 0;
    }
    CHECK(r == SERVET_OK, "servet_open_mpi: %s", servet_result_string(r));
    if (r != SERVET_OK) {
        MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    /* every rank got the same results: XOR of the others' hashes vs ours */
    h = comm_json_hash(p);
    {
        uint64_t mine = 0, x;
        MPI_Reduce(&mine, &x, 1, MPI_UINT64_T, MPI_BXOR, 0, MPI_COMM_WORLD);
        MPI_Bcast(&h, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        CHECK(x == ((size - 1) % 2 ? h : 0), "ranks disagree on the communication results");
    }
    CHECK(servet_comm_get(p, &ci) == SERVET_OK, "no comm section");
    CHECK(ci.ranks == size && ci.nodes == nodes, "ranks %d/%d nodes %d/%d", ci.ranks, size, ci.nodes, nodes);
    if (expect_layers >= 0) CHECK(servet_comm_layer_count(p) == expect_layers, "%d layers, expected %d", servet_comm_layer_count(p), expect_layers);
    if (expect_file >= 0) CHECK(ci.from_file == expect_file, "from_file %d, expected %d", ci.from_file, expect_file);
    CHECK(ci.message_bytes >= 1024 && ci.tolerance >= 0.1, "message %g tolerance %g", ci.message_bytes, ci.tolerance);
    /* every pair, measured or not, in a layer of its kind */
    for (a = 0; a < size; a++)
        for (b = a + 1; b < size; b++) {
            servet_comm_layer_info L;
            int layer = comm_layer_or(p, a, b), same = !strcmp(names[a], names[b]);
            if (layer < 0 || servet_comm_layer_get(p, layer, &L) != SERVET_OK || L.intra_node != same) {
                wrong++;
                fprintf(stderr, "pair %d-%d (%s node) in layer %d\n", a, b, same ? "same" : "other", layer);
            }
        }
    CHECK(wrong == 0, "%d pairs in the wrong layer", wrong);
    for (i = 0; i < servet_comm_layer_count(p); i++) {
        servet_comm_layer_info L;
        double x0 = 0, x, y, z, bw4m = 0;
        int k, ok = 1;
        CHECK(servet_comm_layer_get(p, i, &L) == SERVET_OK, "layer %d", i);
        CHECK(servet_comm_curve_count(p, i) == 23 && servet_comm_aggregation_count(p, i) == 5 &&
                  servet_comm_scaling_count(p, i) >= 1,
              "layer %d: %d/%d/%d points", i, servet_comm_curve_count(p, i), servet_comm_aggregation_count(p, i),
              servet_comm_scaling_count(p, i));
        for (k = 0; servet_comm_curve_get(p, i, k, &x, &y, &z) == SERVET_OK; k++) {
            if (!(x > x0 && y > 0 && z > 0)) ok = 0;
            x0 = x;
            bw4m = z;
        }
        CHECK(ok && x0 == 4194304.0, "layer %d curve not 1 B..4 MiB, positive", i);
        for (k = 0; servet_comm_scaling_get(p, i, k, &a, &y) == SERVET_OK; k++)
            CHECK(a >= 1 && y > 0, "layer %d scaling point %d", i, k);
        printf("layer %d: %s, %d pairs, Fig. 7 %.2f us, 8 B %.2f us, 4 MiB %.1f MB/s\n", i,
               L.intra_node == 1 ? "intra-node" : L.intra_node == 0 ? "inter-node" : "mixed", L.pairs, L.latency_s * 1e6,
               L.small_latency_s * 1e6, bw4m / 1e6);
        if (max_inter_bw > 0 && L.intra_node == 0)
            CHECK(bw4m <= 1.2 * max_inter_bw, "inter-node 4 MiB bandwidth %.1f MB/s above the link limit %.1f MB/s", bw4m / 1e6,
                  max_inter_bw / 1e6);
        if (max_inter_bw > 0 && L.intra_node == 1)
            CHECK(bw4m > 4 * max_inter_bw, "intra-node 4 MiB bandwidth %.1f MB/s not above 4x the link limit", bw4m / 1e6);
    }
    CHECK(comm_time_or(p, 0, 1, 1000.0) > 0 && comm_time_or(p, 0, 1, 1e8) > comm_time_or(p, 0, 1, 1e3),
          "servet_comm_time");
    printf("comm probe: %d ranks, %d nodes, %d layers, %d pairs measured, %s in %.2f s (noise %.3f/%.3f)\n", ci.ranks,
           ci.nodes, servet_comm_layer_count(p), servet_comm_pair_count(p), ci.from_file ? "read" : "measured", ci.probe_seconds, ci.noise,
           ci.small_noise);
    if (json) {
        size_t n = servet_json(p, NULL, 0);
        char *s = (char *)malloc(n + 1);
        FILE *f = fopen(json, "w");
        if (s && f) {
            servet_json(p, s, n + 1);
            fputs(s, f);
        }
        if (f) fclose(f);
        free(s);
    }
    servet_close(p);
    free(names);
    MPI_Finalize();
    TEST_SUMMARY();
}
