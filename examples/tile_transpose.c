/* A blocked out-of-place transpose, B = A^T, of an n x n double matrix with
   leading dimension ld (elements between rows), tiled T x T; the tile comes
   from servet when T is "auto":

       examples/tile_transpose N [T|auto] [LD]

   prints the tile, the time of one transpose (best of 5) and GB/s (bytes read
   + written). The servet call is the whole integration:

       servet_tile_desc td = {0};
       td.nloops = 2;  loops i (rows of A), j (columns of A), extent n
       td.narrays = 2; A over i,j, B over j,i (B's rows are A's columns), ld each
       servet_choose_tile(prof, &td, &tile);   tile.tile[0] x tile.tile[1]
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TILE_EXAMPLE_NO_SERVET
#include "../servet.h"
#endif

static void transpose_tiled(const double *A, double *B, long n, long ld, long ti, long tj) {
    long ii, jj, i, j;
    for (ii = 0; ii < n; ii += ti)
        for (jj = 0; jj < n; jj += tj) {
            long ie = ii + ti < n ? ii + ti : n, je = jj + tj < n ? jj + tj : n;
            for (i = ii; i < ie; i++)
                for (j = jj; j < je; j++) B[j * ld + i] = A[i * ld + j];
        }
}

#ifndef TILE_EXAMPLE_NO_MAIN
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 4096, ld = argc > 3 ? atol(argv[3]) : 0, t = 0, i, r;
    double *A, *B, best = 1e30;
    if (n < 1) { fprintf(stderr, "usage: %s N [T|auto] [LD]\n", argv[0]); return 2; }
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
        td.loops[0].name = "i"; td.loops[0].extent = n;
        td.loops[1].name = "j"; td.loops[1].extent = n;
        td.narrays = 2;
        td.arrays[0].name = "A"; td.arrays[0].nloops = 2; td.arrays[0].loops[0] = 0; td.arrays[0].loops[1] = 1; td.arrays[0].ld = ld;
        td.arrays[1].name = "B"; td.arrays[1].nloops = 2; td.arrays[1].loops[0] = 1; td.arrays[1].loops[1] = 0; td.arrays[1].ld = ld;
        td.elem_bytes = sizeof(double);
        td.square = 1;
        if (servet_choose_tile(prof, &td, &tile) != SERVET_OK) { fprintf(stderr, "servet_choose_tile failed\n"); return 1; }
        t = (long)tile.tile[0];
        printf("servet: tile %ld (L%d: %s)\n", t, tile.level, tile.reason);
        for (i = 0; i < tile.nwarnings; i++) printf("servet: warning: %s\n", tile.warnings[i]);
        servet_close(prof);
    }
    A = (double *)malloc((size_t)(n * ld) * sizeof *A);
    B = (double *)malloc((size_t)(n * ld) * sizeof *B);
    if (!A || !B) { fprintf(stderr, "out of memory\n"); return 1; }
    for (i = 0; i < n * ld; i++) { A[i] = (double)i; B[i] = 0.0; }
    for (r = 0; r < 5; r++) {
        double t0 = now(), dt;
        transpose_tiled(A, B, n, ld, t, t);
        dt = now() - t0;
        if (dt < best) best = dt;
    }
    for (i = 0; i < n; i += n / 7 + 1)
        if (B[((i * 3) % n) * ld + i] != A[i * ld + (i * 3) % n]) { fprintf(stderr, "wrong result\n"); return 1; }
    printf("transpose n=%ld ld=%ld tile %ld: %.3f ms, %.2f GB/s\n", n, ld, t, best * 1e3, 2.0 * 8.0 * n * n / best / 1e9);
    free(A);
    free(B);
    return 0;
}
#endif
