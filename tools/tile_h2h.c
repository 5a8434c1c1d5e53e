/* A few tiles of one bench-tile kernel timed side by side, many rounds, on
   one pinned PU: what a noisy host's sweep cannot tell apart (issue 11: on
   the lent Xeon the sweep's per-tile spread reached 0.3-0.8). Each round
   runs every tile once, in an order shuffled per round; a kernel under 20 ms
   is repeated to 20 ms per measurement. Prints per tile the median time,
   the rate, and the median over rounds of (the tile's time / the round's
   fastest of the list), so drift that hits a whole round cancels.
   servet's own tile (from the cached profile, probing if there is none) is
   added to the list. A transpose's or a stencil's TILE may be TIxTJ (the
   outer loop's and the inner loop's; a transpose's inner loop writes TJ
   rows of B for every row of A it reads).
       bin/tile_h2h transpose|stencil|matmul N [ROUNDS] [PU] [TILE...]
   matmul: 128 rows of C when N > 512, else N (as make bench-tile's cases);
   ld = N. PU -1: no pinning. TILE_PLACE=malloc: the arrays where plain
   malloc puts them, not moved apart in the L1 utag (tools/tile_run.h). */
#define _GNU_SOURCE
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#define TILE_EXAMPLE_NO_MAIN
#define TILE_EXAMPLE_NO_SERVET
#include "../examples/tile_transpose.c"
#include "../examples/tile_stencil.c"
#include "../examples/tile_matmul.c"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tile_kernels.h"
#include "tile_run.h"

#define H2H_MAX_TILES 40
#define H2H_MAX_ROUNDS 101

static int h2h_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double h2h_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, h2h_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int kernel;
static long n, m, ld;
static tile_arrays arr;
static int inner = 1;
static double run_once(long t, long tj) {
    double t0 = tile_now_s();
    int k;
    for (k = 0; k < inner; k++) tile_kernel_run(kernel, n, m, ld, &arr, t, tj);
    return (tile_now_s() - t0) / inner;
}

int main(int argc, char **argv) {
    static double times[H2H_MAX_TILES][H2H_MAX_ROUNDS], ratios[H2H_MAX_TILES][H2H_MAX_ROUNDS];
    long tiles[H2H_MAX_TILES], tiles_j[H2H_MAX_TILES], i, servet_t = 0;
    int nt = 0, rounds, pu, r, k, si = -1;
    double work, llc_bytes = 0.0, walk_before, walk_after;
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    servet_profile *prof = NULL;
    servet_desc d;
    servet_tile_desc td;
    servet_tile res;
    if (argc < 3) {
        fprintf(stderr, "usage: %s transpose|stencil|matmul N [ROUNDS] [PU] [TILE...]\n", argv[0]);
        return 2;
    }
    kernel = !strcmp(argv[1], "transpose") ? TRANSPOSE : !strcmp(argv[1], "stencil") ? STENCIL
           : !strcmp(argv[1], "matmul") ? MATMUL : -1;
    n = atol(argv[2]);
    if (kernel < 0 || n < 16 || n > 16384) { fprintf(stderr, "tile_h2h: bad kernel or N\n"); return 2; }
    m = kernel == MATMUL && n > 512 ? 128 : n;
    ld = n;
    rounds = argc > 3 ? atoi(argv[3]) : 25;
    if (rounds < 1 || rounds > H2H_MAX_ROUNDS) rounds = 25;
    pu = argc > 4 ? atoi(argv[4]) : -1;
    for (k = 5; k < argc && nt < H2H_MAX_TILES - 1; k++) {
        char *x;
        long t = strtol(argv[k], &x, 10), tj = *x == 'x' && kernel != MATMUL ? atol(x + 1) : t;
        if (t > 0 && tj > 0) { tiles[nt] = t; tiles_j[nt++] = tj; }
    }
    if (pu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(pu, &set);
        if (sched_setaffinity(0, sizeof set, &set)) { perror("tile_h2h: sched_setaffinity"); return 1; }
    }
    memset(&d, 0, sizeof d);
    d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE | SERVET_PROBE_MEMORY;
    if (servet_open(&prof, &d) == SERVET_OK) {
        tile_kernel_describe(kernel, n, m, ld, &td);
        if (servet_choose_tile(prof, &td, &res) == SERVET_OK) servet_t = (long)res.tile[kernel == MATMUL ? 2 : 0];
        {
            servet_cache_info last;
            int nl = servet_cache_count(prof);
            if (nl > 0 && servet_cache_get(prof, nl, &last) == SERVET_OK) llc_bytes = (double)last.size_bytes;
        }
        servet_close(prof);
    }
    if (servet_t > 0) {
        for (i = 0; i < nt; i++) if (tiles[i] == servet_t && tiles_j[i] == servet_t) si = (int)i;
        if (si < 0) { si = nt; tiles[nt] = servet_t; tiles_j[nt++] = servet_t; }
    }
    if (nt == 0) { fprintf(stderr, "tile_h2h: no tiles\n"); return 2; }
    tile_place_malloc = getenv("TILE_PLACE") && !strcmp(getenv("TILE_PLACE"), "malloc");
    tile_gauge_init(llc_bytes); /* the host's state, before and after the rounds (tools/tile_run.h) */
    walk_before = tile_gauge_ns();
    if (tile_arrays_alloc(kernel, n, m, ld, &arr)) { fprintf(stderr, "tile_h2h: out of memory\n"); return 1; }
    work = tile_kernel_work(kernel, n, m);
    run_once(64, 64);
    {
        double t1 = run_once(64, 64);
        inner = t1 > 0 && t1 < 0.02 ? (int)(0.02 / t1) + 1 : 1;
    }
    for (r = 0; r < rounds; r++) {
        int order[H2H_MAX_TILES], x;
        double fastest = 1e30;
        for (k = 0; k < nt; k++) order[k] = k;
        for (k = nt - 1; k > 0; k--) {
            int j, tmp;
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
            j = (int)(rng % (uint64_t)(k + 1));
            tmp = order[k]; order[k] = order[j]; order[j] = tmp;
        }
        for (k = 0; k < nt; k++) {
            x = order[k];
            times[x][r] = run_once(tiles[x], tiles_j[x]);
            if (times[x][r] < fastest) fastest = times[x][r];
        }
        for (k = 0; k < nt; k++) ratios[k][r] = fastest / times[k][r];
    }
    walk_after = tile_gauge_ns();
    printf("# %s n=%ld m=%ld ld=%ld, %d rounds, pinned to PU %d, %d runs per measurement; servet's tile %ld\n",
           argv[1], n, m, ld, rounds, pu, inner, servet_t);
    printf("# arrays %s; pages past malloc's address: %d %d %d %d %d; the second array lies %+ld bytes from the first\n",
           tile_place_malloc ? "where malloc put them (TILE_PLACE=malloc)" : "placed apart in AMD Zen's L1 utag",
           arr.shift_pages[0], arr.shift_pages[1], arr.shift_pages[2], arr.shift_pages[3], arr.shift_pages[4],
           (long)((char *)arr.b - (char *)arr.a));
    printf("# the host: a walk over %.0f bytes (the last level measured) at %.1f ns a step before the rounds, %.1f after\n",
           (double)tile_gauge_lines * 64.0, walk_before, walk_after);
    printf("#    tile  median_ms  rate(%s)  rel_median  rel_min  rel_max\n", kernel == TRANSPOSE ? "GB/s" : "GFlop/s");
    for (k = 0; k < nt; k++) {
        double med = h2h_median(times[k], rounds), rel = h2h_median(ratios[k], rounds);
        char name[48];
        if (tiles_j[k] == tiles[k]) snprintf(name, sizeof name, "%ld", tiles[k]);
        else snprintf(name, sizeof name, "%ldx%ld", tiles[k], tiles_j[k]);
        printf("%9s %10.3f %9.3f %10.3f %8.3f %8.3f%s\n", name, med * 1e3, work / med / 1e9, rel, ratios[k][0],
               ratios[k][rounds - 1], k == si ? "  servet" : "");
    }
    tile_arrays_free(&arr);
    tile_gauge_free();
    return 0;
}
