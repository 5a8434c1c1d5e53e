/* A 2D star stencil of radius 2 (PRK's "star" stencil: 9 points), one sweep
   OUT = S(IN) over the interior of an n x n double grid with leading
   dimension ld, tiled T x T over both dimensions; T from servet when "auto":

       examples/tile_stencil N [T|auto] [LD]

   The servet description: loops i, j over the interior (n - 4 each), IN over
   i,j with a halo of 2 (a tile of T reads T + 4), OUT over i,j streamed
   (written once), both with leading dimension ld. Not tiling is a possible
   answer: when five rows of the grid fit a cache, the tile is the full extent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TILE_EXAMPLE_NO_SERVET
#include "../servet.h"
#endif

#define STENCIL_R 2
static void stencil_tiled(const double *in, double *out, long n, long ld, long ti, long tj) {
    /* PRK weights: 1/(2 r R) for the points at distance r on each arm */
    const double w1 = 1.0 / (2.0 * 1 * STENCIL_R), w2 = 1.0 / (2.0 * 2 * STENCIL_R);
    long ii, jj, i, j, lo = STENCIL_R, hi = n - STENCIL_R;
    for (ii = lo; ii < hi; ii += ti)
        for (jj = lo; jj < hi; jj += tj) {
            long ie = ii + ti < hi ? ii + ti : hi, je = jj + tj < hi ? jj + tj : hi;
            for (i = ii; i < ie; i++) {
                const double *c = in + i * ld;
                double *o = out + i * ld;
                for (j = jj; j < je; j++)
                    o[j] += w1 * (c[j + 1] - c[j - 1] + c[j + ld] - c[j - ld]) +
                            w2 * (c[j + 2] - c[j - 2] + c[j + 2 * ld] - c[j - 2 * ld]);
            }
        }
}

#ifndef TILE_EXAMPLE_NO_MAIN
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 4096, ld = argc > 3 ? atol(argv[3]) : 0, t = 0, i, j, r;
    double *in, *out, best = 1e30, sum = 0.0;
    if (n < 2 * STENCIL_R + 1) { fprintf(stderr, "usage: %s N [T|auto] [LD]\n", argv[0]); return 2; }
    if (ld < n) ld = n;
    if (argc > 2 && strcmp(argv[2], "auto")) t = atol(argv[2]);
    if (t <= 0) {
        servet_profile *prof = NULL;
        servet_desc d = {0};
        servet_tile_desc td;
        servet_tile tile;
        memset(&td, 0, sizeof td);
        d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE | SERVET_PROBE_MEMORY;
        if (servet_open(&prof, &d) != SERVET_OK) { fprintf(stderr, "servet_open failed\n"); return 1; }
        td.nloops = 2;
        td.loops[0].name = "i"; td.loops[0].extent = n - 2 * STENCIL_R;
        td.loops[1].name = "j"; td.loops[1].extent = n - 2 * STENCIL_R;
        td.narrays = 2;
        td.arrays[0].name = "IN"; td.arrays[0].nloops = 2; td.arrays[0].loops[0] = 0; td.arrays[0].loops[1] = 1;
        td.arrays[0].halo = STENCIL_R; td.arrays[0].ld = ld;
        td.arrays[1].name = "OUT"; td.arrays[1].nloops = 2; td.arrays[1].loops[0] = 0; td.arrays[1].loops[1] = 1;
        td.arrays[1].streamed = 1; td.arrays[1].ld = ld;
        td.elem_bytes = sizeof(double);
        td.square = 1;
        if (servet_choose_tile(prof, &td, &tile) != SERVET_OK) { fprintf(stderr, "servet_choose_tile failed\n"); return 1; }
        t = (long)tile.tile[0];
        printf("servet: tile %ld%s (L%d: %s)\n", t, tile.untiled ? " (untiled)" : "", tile.level, tile.reason);
        servet_close(prof);
    }
    in = (double *)malloc((size_t)(n * ld) * sizeof *in);
    /* OUT's block a page larger than the grid: two n x n grids malloc'd
       one after the other lie 2^27 + 4 KiB apart at n = ld = 4096 (glibc
       maps the second just below the first), where on AMD Zen IN's and
       OUT's lines share the L1's way tag and evict each other (1.7x;
       servet_choose_tile warns); 2^27 + 8 KiB does not keep the tag */
    out = (double *)malloc((size_t)(n * ld) * sizeof *out + 4096);
    if (!in || !out) { fprintf(stderr, "out of memory\n"); return 1; }
    for (i = 0; i < n; i++)
        for (j = 0; j < ld; j++) { in[i * ld + j] = (double)(i + j); out[i * ld + j] = 0.0; }
    for (r = 0; r < 5; r++) {
        double t0 = now(), dt;
        stencil_tiled(in, out, n, ld, t, t);
        dt = now() - t0;
        if (dt < best) best = dt;
    }
    /* in = i + j: every arm sums to 2 per unit of r, weights 1/(2rR): 2 x (1/4 x 2 + 1/8 x 4) = 2 per sweep */
    for (i = STENCIL_R; i < n - STENCIL_R; i++) sum += out[i * ld + n / 2];
    if (sum / (double)(n - 2 * STENCIL_R) < 5 * 2.0 - 1e-9 || sum / (double)(n - 2 * STENCIL_R) > 5 * 2.0 + 1e-9) {
        fprintf(stderr, "wrong result (%g)\n", sum / (double)(n - 2 * STENCIL_R));
        return 1;
    }
    printf("stencil n=%ld ld=%ld tile %ld: %.3f ms, %.2f GFlop/s\n", n, ld, t, best * 1e3,
           17.0 * (double)(n - 4) * (double)(n - 4) / best / 1e9);
    free(in);
    free(out);
    return 0;
}
#endif
