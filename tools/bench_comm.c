/* bench_comm: the comm probe's per-layer curve against a plain ping-pong,
   side by side in one job (issue 5, acceptance 3). Run under mpirun:
       mpirun -np N bin/bench_comm OUT.json [ROUNDS]
   Each round: servet_open_mpi (comm probe forced, its own cache dir) and
   then, on each layer's representative pair (this round's: a layer is
   followed across rounds through round 0's representative, since layer
   numbers and representatives may change between probe runs), the textbook ping-pong
   (MPI_Send/MPI_Recv, warm-up, fixed iteration counts as OSU: 10000 up to 8 KiB,
   1000 up to 1 MiB, 100 above; one-way = elapsed / 2n) for the same sizes.
   Ranks not in the pair wait asleep in both (as the probe's idle ranks
   do), so the two differ only in how the ping-pong is timed. Reported per
   size: the median over rounds of each, and their ratio. */
#define _GNU_SOURCE 1 /* mpi.h may pull in libc headers before servet.h can ask for POSIX */
#include <mpi.h>
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZES 23
#define MAXR 15
#define MAXL 8

static double plain_pingpong(int rank, int a, int b, char *buf, int bytes) {
    int n = bytes <= 8192 ? 10000 : bytes <= 1048576 ? 1000 : 100, w = n / 10 + 1, i; /* OSU-like counts */
    double t0 = 0;
    for (i = 0; i < w + n; i++) {
        if (i == w) t0 = MPI_Wtime();
        if (rank == a) {
            MPI_Send(buf, bytes, MPI_CHAR, b, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_CHAR, b, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, bytes, MPI_CHAR, a, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_CHAR, a, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * n);
}

int main(int argc, char **argv) {
    static double sv[MAXL][SIZES][MAXR], pv[MAXL][SIZES][MAXR];
    int rank, size, rounds = argc > 2 ? atoi(argv[2]) : 5, r, l, s, nl = 0, rep[MAXL][2], first[MAXL][2];
    char dir[] = "/tmp/servet-bench-comm-XXXXXX", *buf, hosts[MAXL][64];
    servet_desc d;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2 || rounds < 1 || rounds > MAXR || size < 2) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np N (>= 2) bench_comm OUT.json [ROUNDS <= %d]\n", MAXR);
        MPI_Finalize();
        return 2;
    }
    if (rank == 0 && !mkdtemp(dir)) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Bcast(dir, (int)sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    memset(&d, 0, sizeof d);
    d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_COMM;
    d.force = 1;
    d.cache_dir = dir;
    for (r = 0; r < rounds; r++) {
        servet_profile *p = NULL;
        servet_comm_info ci;
        servet_comm_layer_info L;
        if (servet_open_mpi(&p, &d, NULL) != SERVET_OK || servet_comm_get(p, &ci) != SERVET_OK) MPI_Abort(MPI_COMM_WORLD, 1);
        if (r == 0) nl = servet_comm_layer_count(p) < MAXL ? servet_comm_layer_count(p) : MAXL;
        for (l = 0; l < nl; l++) {
            /* layers are numbered per probe run, and the numbers can swap
               between runs: follow round 0's layer l through the layer of
               its representative pair, and ping-pong this round's
               representative of that layer */
            int lr = l, node;
            if (r > 0 && servet_comm_layer_of(p, first[l][0], first[l][1], &lr) != SERVET_OK) MPI_Abort(MPI_COMM_WORLD, 1);
            if (servet_comm_layer_get(p, lr, &L) != SERVET_OK) MPI_Abort(MPI_COMM_WORLD, 1);
            if (r == 0) {
                first[l][0] = L.representative[0];
                first[l][1] = L.representative[1];
                servet_comm_node_of(p, L.representative[0], &node, hosts[l], 64);
            }
            rep[l][0] = L.representative[0];
            rep[l][1] = L.representative[1];
            for (s = 0; s < SIZES; s++) {
                double bytes, sec = 0;
                servet_comm_curve_get(p, lr, s, &bytes, &sec, NULL);
                sv[l][s][r] = sec;
            }
        }
        servet_close(p);
        /* a fresh buffer each round, allocated and touched as the probe's
           own (malloc + memset): where its pages land (huge or not) moves a
           shared-memory copy of MiBs by 10-25%, so both sides draw anew */
        buf = (char *)malloc(4u << 20);
        if (!buf) MPI_Abort(MPI_COMM_WORLD, 1);
        memset(buf, 1, 4u << 20);
        /* the plain ping-pong on the same pairs (the first round's), right
           after; the other ranks wait as the probe's idle ranks do (sleeps
           doubling from 20 us to 8 ms), one wait before and one after each
           layer's ping-pong, as in the probe */
        for (l = 0; l < nl; l++) {
            int in = rank == rep[l][0] || rank == rep[l][1];
            double t[SIZES];
            servet__mpi_barrier(MPI_COMM_WORLD, in); /* the probe's own idle wait */
            for (s = 0; s < SIZES; s++) t[s] = in ? plain_pingpong(rank, rep[l][0], rep[l][1], buf, 1 << s) : 0.0;
            servet__comm_step_end(MPI_COMM_WORLD, in); /* nobody spins ahead into the next layer's barrier */
            if (rank == rep[l][0] && rank != 0) MPI_Send(t, SIZES, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
            if (rank == 0 && rep[l][0] != 0) MPI_Recv(t, SIZES, MPI_DOUBLE, rep[l][0], 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (s = 0; s < SIZES; s++) pv[l][s][r] = t[s];
        }
        free(buf);
    }
    if (rank == 0) {
        FILE *f = fopen(argv[1], "w");
        char name[64];
        if (!f) MPI_Abort(MPI_COMM_WORLD, 1);
        gethostname(name, sizeof name);
        fprintf(f, "{\"what\":\"servet comm-probe curve vs plain MPI_Send/MPI_Recv ping-pong, same pairs, same job, %d rounds "
                   "interleaved; medians over rounds; one-way seconds\",\n\"ranks\":%d,\"layers\":[\n", rounds, size);
        for (l = 0; l < nl; l++) {
            double worst = 0, ratios[SIZES];
            int within = 0;
            fprintf(f, "%s{\"representative\":[%d,%d],\"host_a\":\"%s\",\"points\":[\n", l ? ",\n" : "", first[l][0], first[l][1], hosts[l]);
            printf("layer %d (ranks %d-%d)\n%10s %12s %12s %8s\n", l, first[l][0], first[l][1], "bytes", "servet us", "plain us", "ratio");
            for (s = 0; s < SIZES; s++) {
                double a = servet__quantile(sv[l][s], rounds, 0.5), b = servet__quantile(pv[l][s], rounds, 0.5), q = a / b;
                double amin = sv[l][s][0], amax = sv[l][s][rounds - 1], bmin = pv[l][s][0], bmax = pv[l][s][rounds - 1];
                ratios[s] = q;
                if (fabs(q - 1) > worst) worst = fabs(q - 1);
                if (fabs(q - 1) <= 0.10) within++;
                fprintf(f, "%s{\"bytes\":%d,\"servet_s\":%.4g,\"servet_range_s\":[%.4g,%.4g],\"plain_s\":%.4g,\"plain_range_s\":[%.4g,%.4g],\"ratio\":%.4f}",
                        s ? ",\n" : "", 1 << s, a, amin, amax, b, bmin, bmax, q);
                printf("%10d %12.3f %12.3f %8.3f\n", 1 << s, a * 1e6, b * 1e6, q);
            }
            fprintf(f, "],\"sizes_within_10pct\":%d,\"sizes\":%d,\"max_abs_deviation\":%.4f,\"median_ratio\":%.4f}", within, SIZES,
                    worst, servet__quantile(ratios, SIZES, 0.5));
            printf("  %d of %d sizes within 10%%, largest deviation %.1f%%, median ratio %.3f\n", within, SIZES, 100 * worst,
                   servet__quantile(ratios, SIZES, 0.5));
        }
        fprintf(f, "]}\n");
        fclose(f);
        {
            char cmd[128];
            snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
            if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
        }
    }
    MPI_Finalize();
    return 0;
}
