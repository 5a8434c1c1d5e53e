/* The arrays of the three kernels of examples/ and one run of each, as
   make bench-tile (tools/bench_tile.c) and tools/tile_h2h.c time them: one
   setup, so the side-by-side check times what the sweep timed. Include
   after examples/tile_transpose.c, tile_stencil.c and tile_matmul.c (built
   with TILE_EXAMPLE_NO_MAIN) and tools/tile_kernels.h. */
#ifndef SERVET_TILE_RUN_H
#define SERVET_TILE_RUN_H
#include <stdlib.h>
#include <string.h>

typedef struct tile_arrays {
    double *a, *b, *c, *pa, *pb;
} tile_arrays;

/* n x n (transpose, stencil) or m rows of C with n x n B (matmul), leading
   dimension ld; 0 on success */
static int tile_arrays_alloc(int kernel, long n, long m, long ld, tile_arrays *x) {
    long i;
    memset(x, 0, sizeof *x);
    if (kernel == MATMUL) {
        x->a = (double *)malloc((size_t)(m * ld) * 8);
        x->b = (double *)malloc((size_t)(n * ld) * 8);
        x->c = (double *)calloc((size_t)(m * ld), 8);
        x->pa = (double *)malloc((size_t)n * (size_t)n * 8);
        x->pb = (double *)malloc((size_t)n * (size_t)n * 8);
        if (!x->a || !x->b || !x->c || !x->pa || !x->pb) return 1;
        for (i = 0; i < m * ld; i++) x->a[i] = 1.0;
        for (i = 0; i < n * ld; i++) x->b[i] = 0.5;
    } else {
        x->a = (double *)malloc((size_t)(n * ld) * 8);
        x->b = (double *)malloc((size_t)(n * ld) * 8);
        if (!x->a || !x->b) return 1;
        for (i = 0; i < n * ld; i++) { x->a[i] = (double)(i % 1000); x->b[i] = 0.0; }
    }
    return 0;
}
static void tile_arrays_free(tile_arrays *x) {
    free(x->a); free(x->b); free(x->c); free(x->pa); free(x->pb);
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
#endif
