/* MultiBSP inner product (MBSPDiscover paper, Alg. 1.3 and Sec. 4.3),
   predicted from the measured MultiBSP parameters and compared with the
   measured time, for vector sizes 2^10 ... 2^24.

   The tree comes from servet_mbsp_get(): level i has p_i components of level
   i-1. One thread per PU (hwloc logical order, which follows the tree);
   each computes the dot product of its slice, then the partial sums are
   combined level by level: in each component of level i the first thread
   waits at that component's barrier and adds its p_i children's sums.

   Prediction (MultiBSP cost, in flops, divided by the DAXPY rate r):
       T = 2n/T_threads + sum_i (g_i * p_i + L_i)
   which, like the paper's, charges the vectors nothing for coming from
   memory. servet also has the memory probe, so a second prediction adds
   the time to stream each thread's 16 n / T_threads bytes at the copy
   bandwidth one PU gets when all PUs of its memory group copy at once.

   Usage: mbsp_inner_product [out.json]   (probes mbsp/memory once if needed)
   Build: cc -O2 -I.. mbsp_inner_product.c -o mbsp_inner_product -lhwloc -lm -pthread */
#define _GNU_SOURCE 1
#define SERVET_IMPLEMENTATION
#include "servet.h"

#include <hwloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXT 256
#define MAXL 8

typedef struct {
    volatile int count, sense;
    int n;
} barrier_t;

static void barrier_wait(barrier_t *b, int *local) {
    *local = !*local;
    if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
        __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&b->sense, *local, __ATOMIC_RELEASE);
    } else
        while (__atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) != *local) {}
}

static int nthreads, nlevels, span[MAXL + 1]; /* span[i]: threads per component of level i */
static barrier_t all, comp[MAXL][MAXT]; /* spin barriers inside the timed region */
static pthread_barrier_t ctl;             /* workers + main, outside it */
static double *x, *y, partial[MAXL + 1][MAXT];
static long n_current;
static int reps_current;
static double elapsed[MAXT];
static hwloc_topology_t topo;
static int pu_os[MAXT];

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *worker(void *arg) {
    int t = (int)(long)arg, sense = 0, csense[MAXL] = {0}, l, r;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_only(set, (unsigned)pu_os[t]);
    hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(set);
    for (;;) {
        long lo, hi, i;
        double t0, s;
        pthread_barrier_wait(&ctl); /* a new size (or the end) */
        if (n_current < 0) break;
        lo = n_current * t / nthreads;
        hi = n_current * (t + 1) / nthreads;
        barrier_wait(&all, &sense);
        t0 = now();
        for (r = 0; r < reps_current; r++) {
            s = 0.0;
            for (i = lo; i < hi; i++) s += x[i] * y[i]; /* level 0: sequential */
            partial[0][t] = s;
            for (l = 1; l <= nlevels; l++) { /* sync, then the component's first thread combines */
                int c = t / span[l];
                barrier_wait(&comp[l - 1][c], &csense[l - 1]);
                if (t % span[l] == 0) {
                    int k;
                    s = 0.0;
                    for (k = 0; k < span[l]; k += span[l - 1]) s += partial[l - 1][t + k];
                    partial[l][t] = s;
                }
            }
            barrier_wait(&all, &sense);
        }
        elapsed[t] = (now() - t0) / reps_current;
        pthread_barrier_wait(&ctl);
    }
    return NULL;
}

int main(int argc, char **argv) {
    servet_desc d;
    servet_profile *prof = NULL;
    servet_mbsp_level lv[MAXL];
    servet_memory_info mi;
    pthread_t th[MAXT];
    double pred_extra = 0.0, rate, bw_per_pu;
    int i, l;
    FILE *out = argc > 1 ? fopen(argv[1], "w") : NULL;
    memset(&d, 0, sizeof d);
    d.probes = SERVET_PROBE_MBSP | SERVET_PROBE_MEMORY;
    if (servet_open(&prof, &d) != SERVET_OK) { fprintf(stderr, "servet_open failed\n"); return 1; }
    nlevels = servet_mbsp_count(prof);
    if (nlevels < 1) { fprintf(stderr, "no MultiBSP level on this machine (no PUs share memory)\n"); return 1; }
    span[0] = 1;
    for (l = 0; l < nlevels && l < MAXL; l++) {
        servet_mbsp_get(prof, l + 1, &lv[l]);
        span[l + 1] = span[l] * lv[l].p;
        pred_extra += lv[l].g * lv[l].p + lv[l].L; /* the reduction superstep of each level */
    }
    nthreads = span[nlevels];
    if (nthreads > MAXT) { fprintf(stderr, "too many threads\n"); return 1; }
    rate = lv[0].flops_per_s;
    servet_memory_get(prof, &mi);
    {   /* the mildest overhead level: what a PU gets with every other one busy */
        servet_memory_level_info li;
        int nl = servet_memory_level_count(prof);
        bw_per_pu = nl > 0 && servet_memory_level_get(prof, nl, &li) == SERVET_OK ? li.bandwidth_bytes_per_s
                                                                                  : mi.ref_bandwidth_bytes_per_s;
    }
    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
    for (i = 0; i < nthreads; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
        pu_os[i] = o ? (int)o->os_index : 0;
    }
    all.n = nthreads;
    pthread_barrier_init(&ctl, NULL, (unsigned)nthreads + 1);
    for (l = 1; l <= nlevels; l++)
        for (i = 0; i < nthreads / span[l]; i++) comp[l - 1][i].n = span[l];
    x = (double *)malloc(sizeof(double) << 24);
    y = (double *)malloc(sizeof(double) << 24);
    for (i = 0; i < 1 << 24; i++) { x[i] = 1.0 / (i + 1); y[i] = 1.0; }
    for (i = 0; i < nthreads; i++) pthread_create(&th[i], NULL, worker, (void *)(long)i);
    printf("M = [");
    for (l = 0; l < nlevels; l++) printf("%s<p=%d, g=%.1f, L=%.0f>", l ? ", " : "", lv[l].p, lv[l].g, lv[l].L);
    printf("], r = %.2f GFlop/s per PU, %d threads, %.2f GB/s per PU streaming\n", rate / 1e9, nthreads, bw_per_pu / 1e9);
    printf("%10s %14s %14s %8s %14s %8s\n", "n", "measured s", "MultiBSP s", "ratio", "+memory s", "ratio");
    if (out) fprintf(out, "{\"benchmark\":\"MultiBSP inner product, measured vs predicted\",\"threads\":%d,\"rate_flops_per_s\":%.4g,"
                          "\"levels\":%d,\"rows\":[", nthreads, rate, nlevels);
    for (l = 10; l <= 24; l++) {
        long n = 1L << l;
        double meas = 0, pred, pred_mem;
        n_current = n;
        reps_current = n < (1 << 16) ? 2000 : n < (1 << 20) ? 50 : 5;
        pthread_barrier_wait(&ctl); /* publish the size */
        pthread_barrier_wait(&ctl); /* runs finished */
        for (i = 0; i < nthreads; i++) if (elapsed[i] > meas) meas = elapsed[i];
        pred = (2.0 * (double)n / nthreads + pred_extra) / rate;
        pred_mem = pred + 16.0 * (double)n / nthreads / bw_per_pu;
        printf("%10ld %14.3e %14.3e %8.2f %14.3e %8.2f\n", n, meas, pred, meas / pred, pred_mem, meas / pred_mem);
        if (out)
            fprintf(out, "%s{\"n\":%ld,\"measured_s\":%.4e,\"predicted_s\":%.4e,\"ratio\":%.3f,\"predicted_with_memory_s\":%.4e,"
                         "\"ratio_with_memory\":%.3f}", l > 10 ? "," : "", n, meas, pred, meas / pred, pred_mem, meas / pred_mem);
    }
    n_current = -1;
    pthread_barrier_wait(&ctl);
    for (i = 0; i < nthreads; i++) pthread_join(th[i], NULL);
    if (out) { fprintf(out, "]}\n"); fclose(out); printf("wrote %s\n", argv[1]); }
    hwloc_topology_destroy(topo);
    servet_close(prof);
    free(x);
    free(y);
    return 0;
}
