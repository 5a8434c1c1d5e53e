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
   slow the pair. Reported per size: the median over rounds of each, and
   their ratio. */
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

int main(int argc, char **argv) {
    static double sv[MAXL][SIZES][MAXR], pv[MAXL][SIZES][MAXR], kv[MAXL][SIZES][MAXR];
    int rank, size, rounds = argc > 2 ? atoi(argv[2]) : 5, r, l, s, nl = 0, rep[MAXL][2], first[MAXL][2];
    char dir[] = "/tmp/servet-bench-comm-XXXXXX", *s_buf = NULL, *r_buf = NULL, hosts[MAXL][64], cpu[384] = "unknown";
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
        /* the reference's buffers are drawn at the start of the round, before
           the probe draws its own (see below) */
        if (posix_memalign((void **)&s_buf, 4096, 4u << 20) || posix_memalign((void **)&r_buf, 4096, 4u << 20))
            MPI_Abort(MPI_COMM_WORLD, 1);
        memset(s_buf, 'a', 4u << 20);
        memset(r_buf, 'b', 4u << 20);
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
        /* the OSU-style reference on the same pairs (the first round's),
           right after; the other ranks wait asleep. Its buffers are drawn
           anew each round, page-aligned and touched (OSU's
           allocate_memory_pt2pt), as a fresh osu_latency process would:
           where the pages land (huge or not) moves a 1-4 MiB copy by up to
           25%, and the probe draws its own anew each round too. */
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
                pv[l][s][r] = t[s];
                kv[l][s][r] = t[SIZES + s];
            }
        }
        free(s_buf);
        free(r_buf);
    }
    if (rank == 0) {
        FILE *f = fopen(argv[1], "w");
        int worst_all = 0;
        if (!f) MPI_Abort(MPI_COMM_WORLD, 1);
        fprintf(f, "{\"what\":\"servet comm-probe curve vs an OSU-style ping-pong (osu_latency's loop: separate send and "
                   "receive buffers, 100/10 warm-up, 10000/1000 iterations), same pairs, same job, %d rounds interleaved; "
                   "medians over rounds; one-way seconds; packed_s: the same loop with the send buffer rewritten before "
                   "each send, memset time subtracted\",\n\"cpu_model\":\"%s\",\"ranks\":%d,\"layers\":[\n",
                rounds, cpu, size);
        for (l = 0; l < nl; l++) {
            double worst = 0, ratios[SIZES];
            int within = 0;
            fprintf(f, "%s{\"representative\":[%d,%d],\"host_a\":\"%s\",\"points\":[\n", l ? ",\n" : "", first[l][0], first[l][1], hosts[l]);
            printf("layer %d (ranks %d-%d)\n%10s %12s %12s %8s %12s\n", l, first[l][0], first[l][1], "bytes", "servet us",
                   "osu us", "ratio", "packed us");
            for (s = 0; s < SIZES; s++) {
                double a = servet__quantile(sv[l][s], rounds, 0.5), b = servet__quantile(pv[l][s], rounds, 0.5), q = a / b;
                double amin = sv[l][s][0], amax = sv[l][s][rounds - 1], bmin = pv[l][s][0], bmax = pv[l][s][rounds - 1];
                double k = servet__quantile(kv[l][s], rounds, 0.5);
                ratios[s] = q;
                if (fabs(q - 1) > worst) worst = fabs(q - 1);
                if (fabs(q - 1) <= 0.15) within++;
                fprintf(f, "%s{\"bytes\":%d,\"servet_s\":%.4g,\"servet_range_s\":[%.4g,%.4g],\"osu_s\":%.4g,\"osu_range_s\":"
                           "[%.4g,%.4g],\"ratio\":%.4f,\"packed_s\":%.4g}",
                        s ? ",\n" : "", 1 << s, a, amin, amax, b, bmin, bmax, q, k);
                printf("%10d %12.3f %12.3f %8.3f %12.3f\n", 1 << s, a * 1e6, b * 1e6, q, k * 1e6);
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
