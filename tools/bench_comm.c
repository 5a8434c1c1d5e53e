/* bench_comm: the comm probe's per-layer curve against an OSU-style
   ping-pong, side by side in one job (issues 5 and 17). Run under mpirun:
       mpirun -np N bin/bench_comm OUT.json [ROUNDS]
   Each round: servet_open_mpi (comm probe forced, its own cache dir) and
   then, on each layer's representative pair (this round's: a layer is
   followed across rounds through round 0's representative, since layer
   numbers and representatives may change between probe runs), the
   reference: osu_latency's loop as its source has it, written here
   independently of the probe's code - its own send and receive buffers
   (page-aligned, allocated once, filled with 'a' and 'b' before each size
   as OSU's set_buffer does), an MPI_Barrier of the pair before each size,
   100 warm-up and 10000 timed iterations up to 8 KiB, 10 and 1000 above,
   one-way = elapsed / (2 x iterations). A third column, "packed": the
   same loop with the send buffer rewritten (memset) before each send, as a
   code that packs right before sending, the memset's own time subtracted
   (the finding in servet.h >>probe-comm). Ranks not in the pair wait
   asleep (MPI_Ibarrier + sleeps, as the probe's idle ranks): on the
   emulated cluster 4 ranks share 2 vCPUs and a spinning idle rank would
   slow the pair. The reference runs twice a round, before the probe and
   after it (see main). Reported per size: the median over rounds of the
   probe's curve, the median over the reference's 2 x ROUNDS runs, and the
   ratio the verdict reads: the median over rounds of each round's curve
   divided by the reference runs on either side of it (the 2-vCPU VM
   changes state for minutes at a time, 8 B at 0.13 or 0.38 us for both
   methods: the medians of two sets of samples can fall on different
   states, a round's own ratio cannot); all samples are in the JSON. */
#define _GNU_SOURCE 1 /* mpi.h may pull in libc headers before servet.h can ask for POSIX */
#include <mpi.h>
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_cpu.h"

#define SIZES 23
#define MAXR 15
#define MAXL 8
#define OSU_LARGE 8192 /* OSU's LARGE_MESSAGE_SIZE */

/* osu_latency's inner loop on the pair communicator (rank 0 of it sends first).
   packed: memset the send buffer before each send. */
static double osu_pingpong(MPI_Comm pair, int me, char *s_buf, char *r_buf, int bytes, int packed) {
    int loop = bytes > OSU_LARGE ? 1000 : 10000, skip = bytes > OSU_LARGE ? 10 : 100, i;
    double t_start = 0.0, t_end;
    memset(s_buf, 'a', (size_t)bytes);
    memset(r_buf, 'b', (size_t)bytes);
    MPI_Barrier(pair);
    for (i = 0; i < loop + skip; i++) {
        if (i == skip) t_start = MPI_Wtime();
        if (me == 0) {
            if (packed) memset(s_buf, i & 127, (size_t)bytes);
            MPI_Send(s_buf, bytes, MPI_CHAR, 1, 1, pair);
            MPI_Recv(r_buf, bytes, MPI_CHAR, 1, 1, pair, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(r_buf, bytes, MPI_CHAR, 0, 1, pair, MPI_STATUS_IGNORE);
            if (packed) memset(s_buf, i & 127, (size_t)bytes);
            MPI_Send(s_buf, bytes, MPI_CHAR, 0, 1, pair);
        }
    }
    t_end = MPI_Wtime();
    return (t_end - t_start) / (2.0 * loop);
}
/* the memset of `bytes` alone, as often as the packed loop does it on one rank */
static double memset_time(char *s_buf, int bytes) {
    int loop = bytes > OSU_LARGE ? 1000 : 10000, i;
    double t0 = MPI_Wtime();
    for (i = 0; i < loop; i++) memset(s_buf, i & 127, (size_t)bytes);
    return (MPI_Wtime() - t0) / loop;
}

/* the OSU-style reference on each layer's pair (rep), written as sample j
   of pv and kv; the other ranks wait asleep. Its buffers are drawn anew
   each time, page-aligned and touched (OSU's allocate_memory_pt2pt), as a
   fresh osu_latency process would: where the pages land (huge or not)
   moves a 1-4 MiB copy by up to 25%, and the probe draws its own anew each
   round too. */
static void reference(int rank, int nl, int rep[][2], double pv[][SIZES][2 * MAXR], double kv[][SIZES][2 * MAXR], int j) {
    char *s_buf = NULL, *r_buf = NULL;
    int l, s;
    if (posix_memalign((void **)&s_buf, 4096, 4u << 20) || posix_memalign((void **)&r_buf, 4096, 4u << 20))
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(s_buf, 'a', 4u << 20);
    memset(r_buf, 'b', 4u << 20);
    for (l = 0; l < nl; l++) {
        int in = rank == rep[l][0] || rank == rep[l][1];
        double t[2 * SIZES];
        MPI_Comm pair;
        MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank == rep[l][0] ? 0 : 1, &pair);
        servet__mpi_barrier(MPI_COMM_WORLD, in);
        memset(t, 0, sizeof t);
        if (in) {
            int me;
            MPI_Comm_rank(pair, &me);
            for (s = 0; s < SIZES; s++) t[s] = osu_pingpong(pair, me, s_buf, r_buf, 1 << s, 0);
            for (s = 0; s < SIZES; s++) {
                double packed = osu_pingpong(pair, me, s_buf, r_buf, 1 << s, 1), ms = memset_time(s_buf, 1 << s), other;
                /* each one-way message had one memset: subtract the slower rank's */
                MPI_Allreduce(&ms, &other, 1, MPI_DOUBLE, MPI_MAX, pair);
                t[SIZES + s] = packed - other;
            }
            MPI_Comm_free(&pair);
        }
        servet__comm_step_end(MPI_COMM_WORLD, in); /* nobody spins ahead into the next layer's barrier */
        if (rank == rep[l][0] && rank != 0) MPI_Send(t, 2 * SIZES, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
        if (rank == 0 && rep[l][0] != 0) MPI_Recv(t, 2 * SIZES, MPI_DOUBLE, rep[l][0], 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (s = 0; s < SIZES; s++) {
            pv[l][s][j] = t[s];
            kv[l][s][j] = t[SIZES + s];
        }
    }
    free(s_buf);
    free(r_buf);
}

int main(int argc, char **argv) {
    static double sv[MAXL][SIZES][MAXR], pv[MAXL][SIZES][2 * MAXR], kv[MAXL][SIZES][2 * MAXR];
    int rank, size, rounds = argc > 2 ? atoi(argv[2]) : 5, r, l, s, nl = 0, rep[MAXL][2], first[MAXL][2];
    char dir[] = "/tmp/servet-bench-comm-XXXXXX", hosts[MAXL][64], cpu[384] = "unknown";
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
        /* the reference runs twice a round, before the probe (on the last
           round's representatives) and after it: 2 x ROUNDS samples, at two
           places in the round, against the probe's ROUNDS. Why: osu_latency's
           loop is one average of 1-15 ms; on the 2-vCPU VM a slice of steal
           time in it reads a small size 1.3-3x slow (per-round ranges
           0.15-0.5 us at 64 B), and 15 samples left a 64 B or 1 KiB median
           25-35% high in 2 of 6 runs (2026-11-24) */
        if (r > 0) reference(rank, nl, rep, pv, kv, 2 * r - 1);
        servet_comm_layer_info L;
        if (servet_open_mpi(&p, &d, NULL) != SERVET_OK || servet_comm_get(p, &ci) != SERVET_OK) MPI_Abort(MPI_COMM_WORLD, 1);
        if (r == 0) {
            servet_machine_info mi;
            if (servet_machine_get(p, &mi) == SERVET_OK) cpu_name(mi.cpu_model, cpu, sizeof cpu);
        }
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
        reference(rank, nl, rep, pv, kv, 2 * r);
    }
    reference(rank, nl, rep, pv, kv, 2 * rounds - 1);
    if (rank == 0) {
        FILE *f = fopen(argv[1], "w");
        int worst_all = 0;
        if (!f) MPI_Abort(MPI_COMM_WORLD, 1);
        fprintf(f, "{\"what\":\"servet comm-probe curve vs an OSU-style ping-pong (osu_latency's loop: separate send and "
                   "receive buffers, 100/10 warm-up, 10000/1000 iterations), same pairs, same job, %d rounds interleaved, the reference run before and after each round's probe; "
                   "servet_s, osu_s: medians over rounds (the reference's over its 2 x rounds runs); ratio: the median of each "
                   "round's curve over the reference runs on either side of it (the VM's state changes for minutes at a time, "
                   "servet.h >>probe-comm); ratio_of_medians: servet_s / osu_s; one-way seconds; packed_s: the same loop with the send buffer rewritten before "
                   "each send, memset time subtracted\",\n\"cpu_model\":\"%s\",\"ranks\":%d,\"layers\":[\n",
                rounds, cpu, size);
        for (l = 0; l < nl; l++) {
            double worst = 0, ratios[SIZES];
            int within = 0;
            fprintf(f, "%s{\"representative\":[%d,%d],\"host_a\":\"%s\",\"points\":[\n", l ? ",\n" : "", first[l][0], first[l][1], hosts[l]);
            printf("layer %d (ranks %d-%d)\n%10s %12s %12s %8s %8s %12s\n", l, first[l][0], first[l][1], "bytes", "servet us",
                   "osu us", "ratio", "med/med", "packed us");
            for (s = 0; s < SIZES; s++) {
                /* each round's curve against the reference runs on either
                   side of it, before the medians below sort the samples */
                double pr[2 * MAXR], q, qm;
                int np = 0, j;
                fprintf(f, "%s{\"bytes\":%d,\"servet_rounds_s\":[", s ? ",\n" : "", 1 << s);
                for (r = 0; r < rounds; r++) fprintf(f, "%s%.4g", r ? "," : "", sv[l][s][r]);
                fprintf(f, "],\"osu_runs_s\":[");
                for (j = 0; j < 2 * rounds; j++) fprintf(f, "%s%.4g", j ? "," : "", pv[l][s][j]);
                fprintf(f, "],");
                for (r = 0; r < rounds; r++) {
                    if (r > 0 && pv[l][s][2 * r - 1] > 0) pr[np++] = sv[l][s][r] / pv[l][s][2 * r - 1];
                    if (pv[l][s][2 * r] > 0) pr[np++] = sv[l][s][r] / pv[l][s][2 * r];
                }
                q = np ? servet__quantile(pr, np, 0.5) : 0.0;
                double a = servet__quantile(sv[l][s], rounds, 0.5), b = servet__quantile(pv[l][s], 2 * rounds, 0.5);
                qm = a / b;
                double amin = sv[l][s][0], amax = sv[l][s][rounds - 1], bmin = pv[l][s][0], bmax = pv[l][s][2 * rounds - 1];
                double k = servet__quantile(kv[l][s], 2 * rounds, 0.5);
                ratios[s] = q;
                if (fabs(q - 1) > worst) worst = fabs(q - 1);
                if (fabs(q - 1) <= 0.15) within++;
                fprintf(f, "\"servet_s\":%.4g,\"servet_range_s\":[%.4g,%.4g],\"osu_s\":%.4g,\"osu_range_s\":"
                           "[%.4g,%.4g],\"ratio\":%.4f,\"ratio_of_medians\":%.4f,\"packed_s\":%.4g}",
                        a, amin, amax, b, bmin, bmax, q, qm, k);
                printf("%10d %12.3f %12.3f %8.3f %8.3f %12.3f\n", 1 << s, a * 1e6, b * 1e6, q, qm, k * 1e6);
            }
            if (within < SIZES) worst_all = 1;
            fprintf(f, "],\"sizes_within_15pct\":%d,\"sizes\":%d,\"max_abs_deviation\":%.4f,\"median_ratio\":%.4f}", within, SIZES,
                    worst, servet__quantile(ratios, SIZES, 0.5));
            printf("  %d of %d sizes within 15%%, largest deviation %.1f%%, median ratio %.3f\n", within, SIZES, 100 * worst,
                   servet__quantile(ratios, SIZES, 0.5));
        }
        fprintf(f, "],\"all_within_15pct\":%s}\n", worst_all ? "false" : "true");
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
