/* The arrays of the three kernels of examples/ and one run of each, as
   make bench-tile (tools/bench_tile.c) and tools/tile_h2h.c time them: one
   setup, so the side-by-side check times what the sweep timed. Include
   after servet.h's implementation, examples/tile_transpose.c, tile_stencil.c
   and tile_matmul.c (built with TILE_EXAMPLE_NO_MAIN) and
   tools/tile_kernels.h. */
#ifndef SERVET_TILE_RUN_H
#define SERVET_TILE_RUN_H
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct tile_arrays {
    double *a, *b, *c, *pa, *pb;
    void *raw[5];          /* what malloc returned, for free */
    size_t bytes[5];
    int shift_pages[5];    /* how far each array lies past malloc's address */
} tile_arrays;

/* Where the arrays lie changes a kernel more than any tile on AMD Zen: two
   lines of one L1 set with one utag (a hash of virtual address bits 12-27)
   evict each other, and glibc puts two 128 MiB arrays 2^27 + 4 KiB apart,
   which keeps it on half the pages (servet.h >>decide's limits; the 4096^2
   stencil untiled 47-52 ms instead of 29-34, bench_data/
   tile_stencil_utag_alias_zen4_2026-12-03.txt). The bench measures tiles,
   not that accident: each array is moved by whole pages (its lines keep
   their sets, its page offset stays malloc's) to the first of 0-4 pages
   where it shares the utag with no earlier array on more than 1/16 of its
   pages. With tile_place_malloc set (tile_h2h: TILE_PLACE=malloc) the
   arrays lie where plain malloc puts them, to show the accident. */
static int tile_place_malloc;
/* the share of the pages of q's first `bytes` whose utag p keeps at the same
   offset (servet.h's servet__utag_shared; the same L1 set: p - q a multiple
   of 4 KiB, as malloc's large blocks all start 16 bytes into a page) */
static double tile_utag_shared(const void *p, const void *q, size_t bytes) {
    if ((((size_t)p ^ (size_t)q) & 4095u) != 0) return 0.0;
    return servet__utag_shared((uint64_t)(size_t)q, (double)bytes, (uint64_t)(size_t)p - (uint64_t)(size_t)q);
}
static double *tile_array_place(tile_arrays *x, int k, size_t bytes, int zero) {
    int s, best = 0, j;
    double best_share = 2.0;
    size_t slack = tile_place_malloc ? 0 : 4 * 4096;
    char *raw = (char *)(zero ? calloc(bytes + slack, 1) : malloc(bytes + slack));
    x->raw[k] = raw;
    if (!raw) return NULL;
    for (s = 0; s <= (tile_place_malloc ? 0 : 4); s++) {
        double share = 0.0;
        for (j = 0; j < k; j++) { /* the arrays placed before this one */
            double sh = tile_utag_shared(raw + (size_t)s * 4096, (char *)x->raw[j] + (size_t)x->shift_pages[j] * 4096,
                                         bytes < x->bytes[j] ? bytes : x->bytes[j]);
            if (sh > share) share = sh;
        }
        if (share < best_share) { best_share = share; best = s; }
        if (share <= 1.0 / 16) break;
    }
    x->shift_pages[k] = best;
    x->bytes[k] = bytes;
    return (double *)(raw + (size_t)best * 4096);
}
static int tile_arrays_alloc(int kernel, long n, long m, long ld, tile_arrays *x) {
    long i;
    memset(x, 0, sizeof *x);
    if (kernel == MATMUL) {
        x->a = tile_array_place(x, 0, (size_t)(m * ld) * 8, 0);
        x->b = x->a ? tile_array_place(x, 1, (size_t)(n * ld) * 8, 0) : NULL;
        x->c = x->b ? tile_array_place(x, 2, (size_t)(m * ld) * 8, 1) : NULL;
        x->pa = x->c ? tile_array_place(x, 3, (size_t)n * (size_t)n * 8, 0) : NULL;
        x->pb = x->pa ? tile_array_place(x, 4, (size_t)n * (size_t)n * 8, 0) : NULL;
        if (!x->pb) return 1;
        for (i = 0; i < m * ld; i++) x->a[i] = 1.0;
        for (i = 0; i < n * ld; i++) x->b[i] = 0.5;
    } else {
        x->a = tile_array_place(x, 0, (size_t)(n * ld) * 8, 0);
        x->b = x->a ? tile_array_place(x, 1, (size_t)(n * ld) * 8, 0) : NULL;
        if (!x->b) return 1;
        for (i = 0; i < n * ld; i++) { x->a[i] = (double)(i % 1000); x->b[i] = 0.0; }
    }
    return 0;
}
static void tile_arrays_free(tile_arrays *x) {
    int k;
    for (k = 0; k < 5; k++) free(x->raw[k]);
    memset(x, 0, sizeof *x);
}
/* one run with a ti x tj tile (matmul: square ti) */
static void tile_kernel_run(int kernel, long n, long m, long ld, tile_arrays *x, long ti, long tj) {
    if (kernel == TRANSPOSE) transpose_tiled(x->a, x->b, n, ld, ti, tj);
    else if (kernel == STENCIL) stencil_tiled(x->a, x->b, n, ld, ti, tj);
    else matmul_tiled(x->a, x->b, x->c, m, n, ld, ti, x->pa, x->pb);
}
/* work per run: bytes moved (transpose), flops (stencil, matmul) */
static double tile_kernel_work(int kernel, long n, long m) {
    if (kernel == TRANSPOSE) return 16.0 * (double)n * (double)n;
    if (kernel == STENCIL) return 17.0 * (double)(n - 4) * (double)(n - 4);
    return 2.0 * (double)m * (double)n * (double)n;
}
/* seconds on the monotonic clock (the benches' one clock: bench_tile, tile_h2h, the gauge below) */
static double tile_now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
/* The host's state beside each case: a dependent random walk over a
   buffer the size of the last level the probe measured, one line a step,
   ns a step (make bench-tile's host_llc_chase_ns: before the sweep and
   after the check, tune.json: after its check; tile_h2h: before and
   after its rounds). Why: on the Zen 5 VM the 1000^2 transpose's best
   tile follows the share of the host's L3 the other tenants leave, which
   changes within minutes - in one process, 8000 rounds, a 4 MiB walk at
   55-70 ns a step (part of the L3 ours) had tile 16 the best in 85% of
   rounds and the model's 88 at 0.87 of it, and at 100-136 ns (next to
   none) 88 the best and 16 at 0.92 (bench_data/
   tile_transpose1000_host_l3_zen5_2026-12-05.txt). The walk moves with
   the state (over 1500 rounds its time and the round's 88/16 correlated
   at -0.5, at the last level's size as at 4 or 8 MiB): a hint of which
   state a measurement ran in, not a verdict; the profile's L3 and
   memory latencies are the scale (caches, memory_latency_ns). */
static long *tile_gauge_next; /* line i's successor, one long a line (the rest of the line unused) */
static long tile_gauge_lines;
static void tile_gauge_init(double bytes) {
    long i, *order;
    uint64_t s = 0x2545f4914f6cdd1dull;
    tile_gauge_lines = (long)(bytes / 64.0);
    if (tile_gauge_lines < 16384) tile_gauge_lines = 16384; /* 1 MiB at least */
    tile_gauge_next = (long *)malloc((size_t)tile_gauge_lines * 64);
    order = (long *)malloc((size_t)tile_gauge_lines * sizeof *order);
    if (!tile_gauge_next || !order) { free(tile_gauge_next); free(order); tile_gauge_next = NULL; return; }
    for (i = 0; i < tile_gauge_lines; i++) order[i] = i;
    for (i = tile_gauge_lines - 1; i > 0; i--) { /* a random cycle through every line */
        long j, tmp;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        j = (long)(s % (uint64_t)(i + 1));
        tmp = order[i]; order[i] = order[j]; order[j] = tmp;
    }
    for (i = 0; i < tile_gauge_lines; i++) tile_gauge_next[order[i] * 8] = order[(i + 1) % tile_gauge_lines] * 8;
    free(order);
}
static double tile_gauge_ns(void) {
    long p = 0, k, steps = 150000;
    volatile long sink;
    double t0;
    if (!tile_gauge_next) return 0.0;
    for (k = 0; k < tile_gauge_lines; k++) p = tile_gauge_next[p]; /* one lap: the walk's lines where the host lets them stay */
    t0 = tile_now_s();
    for (k = 0; k < steps; k++) p = tile_gauge_next[p];
    sink = p;
    (void)sink;
    return (tile_now_s() - t0) / (double)steps * 1e9;
}
static void tile_gauge_free(void) {
    free(tile_gauge_next);
    tile_gauge_next = NULL;
}

#endif
