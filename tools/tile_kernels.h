/* The servet_tile_desc of the three kernels of examples/ (blocked
   transpose, radius-2 stencil, blocked matmul with packed blocks), as
   their examples build it: one description for make bench-tile
   (tools/bench_tile.c) and make tile-replay (tools/tile_replay.c), so the
   replay decides exactly what the bench measured. Include after servet.h. */
#ifndef SERVET_TILE_KERNELS_H
#define SERVET_TILE_KERNELS_H
#include <stdlib.h>
#include <string.h>

enum { TRANSPOSE, STENCIL, MATMUL };

/* TILE_KERNEL_VECTOR=N: the kernels built vectorised (make
   bench-tile-vector: -O3), the stencil's and the matmul's innermost loops in
   N lanes (desc.vector, step 6d); 0 when unset */
static int tile_kernel_vector(void) {
    const char *v = getenv("TILE_KERNEL_VECTOR");
    return v ? atoi(v) : 0;
}

/* n x n (transpose, stencil: its interior n - 4); matmul: m rows of C,
   n x n B, ld the leading dimension of the arrays that are not packed */
static void tile_kernel_describe(int kernel, long n, long m, long ld, servet_tile_desc *td) {
    memset(td, 0, sizeof *td);
    td->elem_bytes = 8;
    td->square = 1;
    /* the transpose's loop stays scalar (its stores are strided: gcc -O3
       -fopt-info-vec reports no vector loop) */
    if (kernel != TRANSPOSE) td->vector = tile_kernel_vector();
    if (kernel == TRANSPOSE) {
        td->nloops = 2;
        td->loops[0].name = "i"; td->loops[0].extent = n;
        td->loops[1].name = "j"; td->loops[1].extent = n;
        td->narrays = 2;
        td->arrays[0].name = "A"; td->arrays[0].nloops = 2; td->arrays[0].loops[0] = 0; td->arrays[0].loops[1] = 1; td->arrays[0].ld = ld;
        td->arrays[1].name = "B"; td->arrays[1].nloops = 2; td->arrays[1].loops[0] = 1; td->arrays[1].loops[1] = 0; td->arrays[1].ld = ld;
    } else if (kernel == STENCIL) {
        td->nloops = 2;
        td->loops[0].name = "i"; td->loops[0].extent = n - 4;
        td->loops[1].name = "j"; td->loops[1].extent = n - 4;
        td->narrays = 2;
        td->arrays[0].name = "IN"; td->arrays[0].nloops = 2; td->arrays[0].loops[0] = 0; td->arrays[0].loops[1] = 1;
        td->arrays[0].halo = 2; td->arrays[0].ld = ld;
        td->arrays[1].name = "OUT"; td->arrays[1].nloops = 2; td->arrays[1].loops[0] = 0; td->arrays[1].loops[1] = 1;
        td->arrays[1].streamed = 1; td->arrays[1].ld = ld;
    } else {
        td->nloops = 3;
        td->loops[0].name = "i"; td->loops[0].extent = m;
        td->loops[1].name = "k"; td->loops[1].extent = n;
        td->loops[2].name = "j"; td->loops[2].extent = n;
        td->narrays = 3;
        td->arrays[0].name = "A"; td->arrays[0].nloops = 2; td->arrays[0].loops[0] = 0; td->arrays[0].loops[1] = 1; td->arrays[0].packed = 1;
        td->arrays[1].name = "B"; td->arrays[1].nloops = 2; td->arrays[1].loops[0] = 1; td->arrays[1].loops[1] = 2; td->arrays[1].packed = 1;
        td->arrays[2].name = "C"; td->arrays[2].nloops = 2; td->arrays[2].loops[0] = 0; td->arrays[2].loops[1] = 2; td->arrays[2].ld = ld;
    }
}
#endif
