/* A blocked matrix multiply, C += A B, that copies its blocks into
   contiguous buffers (as BLAS does), for an m x n band of C (m rows) with
   n x n B, all with leading dimension ld; the T x T x T tile from servet
   when "auto":

       examples/tile_matmul M N [T|auto] [LD]

   Loop order i, k, j (outer to inner) for the tiles and inside them, so the
   innermost loop runs along rows of B and C. The servet description: loops
   i (m), k (n), j (n); A over i,k and B over k,j, both packed (the kernel
   reads the copies, whatever ld is); C over i,j with leading dimension ld. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TILE_EXAMPLE_NO_SERVET
#include "../servet.h"
#endif

/* C[m x n] += A[m x n] B[n x n]; blocks copied into pa (T x T) and pb (T x T).
   Not static, so that it is compiled on its own: gcc 12 -O2 inlined the
   static kernel, called once, into main and kept the inner loop's bound on
   the stack (a store and a load an iteration): 3.5 GFlop/s at tile 72 on
   the Zen 5 VM where the same loop alone runs 6.5, and the tiles ranked
   otherwise (bench_data/tile_outside_vector_zen5_2026-12-04.txt). */
void matmul_tiled(const double *A, const double *B, double *C, long m, long n, long ld, long t, double *pa,
                         double *pb) {
    long ii, kk, jj, i, k, j;
    for (ii = 0; ii < m; ii += t) {
        long ie = ii + t < m ? ii + t : m;
        for (kk = 0; kk < n; kk += t) {
            long ke = kk + t < n ? kk + t : n, kb = ke - kk;
            for (i = ii; i < ie; i++) memcpy(pa + (i - ii) * kb, A + i * ld + kk, (size_t)kb * sizeof *pa);
            for (jj = 0; jj < n; jj += t) {
                long je = jj + t < n ? jj + t : n, jb = je - jj;
                for (k = kk; k < ke; k++) memcpy(pb + (k - kk) * jb, B + k * ld + jj, (size_t)jb * sizeof *pb);
                for (i = ii; i < ie; i++) {
                    double *c = C + i * ld + jj;
                    const double *a = pa + (i - ii) * kb;
                    for (k = 0; k < kb; k++) {
                        const double aik = a[k], *b = pb + k * jb;
                        for (j = 0; j < jb; j++) c[j] += aik * b[j];
                    }
                }
            }
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
    long m = argc > 1 ? atol(argv[1]) : 256, n = argc > 2 ? atol(argv[2]) : 2048, ld = argc > 4 ? atol(argv[4]) : 0;
    long t = 0, i, r;
    double *A, *B, *C, *pa, *pb, best = 1e30;
    if (m < 1 || n < 1) { fprintf(stderr, "usage: %s M N [T|auto] [LD]\n", argv[0]); return 2; }
    if (ld < n) ld = n;
    if (argc > 3 && strcmp(argv[3], "auto")) t = atol(argv[3]);
    if (t <= 0) {
        servet_profile *prof = NULL;
        servet_desc d = {0};
        servet_tile_desc td;
        servet_tile tile;
        memset(&td, 0, sizeof td);
        d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE | SERVET_PROBE_MEMORY;
        if (servet_open(&prof, &d) != SERVET_OK) { fprintf(stderr, "servet_open failed\n"); return 1; }
        td.nloops = 3;
        td.loops[0].name = "i"; td.loops[0].extent = m;
        td.loops[1].name = "k"; td.loops[1].extent = n;
        td.loops[2].name = "j"; td.loops[2].extent = n;
        td.narrays = 3;
        td.arrays[0].name = "A"; td.arrays[0].nloops = 2; td.arrays[0].loops[0] = 0; td.arrays[0].loops[1] = 1; td.arrays[0].packed = 1;
        td.arrays[1].name = "B"; td.arrays[1].nloops = 2; td.arrays[1].loops[0] = 1; td.arrays[1].loops[1] = 2; td.arrays[1].packed = 1;
        td.arrays[2].name = "C"; td.arrays[2].nloops = 2; td.arrays[2].loops[0] = 0; td.arrays[2].loops[1] = 2; td.arrays[2].ld = ld;
        td.elem_bytes = sizeof(double);
        td.square = 1;
        /* built so that the j loop is vectorised (gcc -O3, clang -O2), say its
           lanes: td.vector = 8 (doubles in AVX-512); on the Zen 5 VM its answer,
           256, ran 0.94-1.00 of the best where the scalar one, 72-80, ran
           0.57-0.68 (bench_data/tile_outside_vector_zen5_2026-12-04.txt) */
        if (servet_choose_tile(prof, &td, &tile) != SERVET_OK) { fprintf(stderr, "servet_choose_tile failed\n"); return 1; }
        t = (long)tile.tile[0];
        printf("servet: tile %ld (L%d: %s)\n", t, tile.level, tile.reason);
        servet_close(prof);
    }
    A = (double *)malloc((size_t)(m * ld) * sizeof *A);
    B = (double *)malloc((size_t)(n * ld) * sizeof *B);
    C = (double *)calloc((size_t)(m * ld), sizeof *C);
    pa = (double *)malloc((size_t)(t * t) * sizeof *pa);
    pb = (double *)malloc((size_t)(t * t) * sizeof *pb);
    if (!A || !B || !C || !pa || !pb) { fprintf(stderr, "out of memory\n"); return 1; }
    for (i = 0; i < m * ld; i++) A[i] = 1.0;
    for (i = 0; i < n * ld; i++) B[i] = 0.5;
    for (r = 0; r < 3; r++) {
        double t0 = now(), dt;
        matmul_tiled(A, B, C, m, n, ld, t, pa, pb);
        dt = now() - t0;
        if (dt < best) best = dt;
    }
    if (C[(m - 1) * ld + n - 1] != 3 * 0.5 * (double)n) { fprintf(stderr, "wrong result\n"); return 1; }
    printf("matmul %ldx%ldx%ld ld=%ld tile %ld: %.3f ms, %.2f GFlop/s\n", m, n, n, ld, t, best * 1e3,
           2.0 * (double)m * (double)n * (double)n / best / 1e9);
    free(A); free(B); free(C); free(pa); free(pb);
    return 0;
}
#endif
