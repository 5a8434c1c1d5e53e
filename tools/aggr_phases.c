/* aggr_phases: where the time of one round of a 2-rank exchange goes, with
   and without packing (why examples/aggregate times the writing of the
   messages with the round; see produce() there).
   Each round: write the M messages of S bytes (memset), post the receives
   and the sends (packed: copy the M messages into one buffer, one send),
   wait, unpack. Every phase is timed apart, over 2000 rounds after 100
   untimed ones, 5 times per configuration.

       mpirun -np 2 tools/aggr_phases S M     (prints on rank 0) */
#define _POSIX_C_SOURCE 200112L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *page_buffer(size_t n) {
    void *p = NULL;
    if (posix_memalign(&p, 4096, n ? n : 1) != 0 || !p) MPI_Abort(MPI_COMM_WORLD, 1);
    memset(p, 1, n);
    return (char *)p;
}

int main(int argc, char **argv) {
    int rank, size, S, M, k, rep, it, m;
    const int rounds = 2000, skip = 100;
    char *src, *dst, *spack, *rpack;
    size_t B;
    MPI_Request *q;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || argc != 3 || (S = atoi(argv[1])) < 1 || (M = atoi(argv[2])) < 1 || M > 1024) {
        if (rank == 0) fprintf(stderr, "usage: mpirun -np 2 aggr_phases BYTES MESSAGES (<= 1024)\n");
        MPI_Finalize();
        return 2;
    }
    B = (size_t)S * (size_t)M;
    src = page_buffer(B); dst = page_buffer(B); spack = page_buffer(B); rpack = page_buffer(B);
    q = (MPI_Request *)malloc(2 * (size_t)M * sizeof *q);
    if (!q) MPI_Abort(MPI_COMM_WORLD, 1);
    for (k = 1;; k = M) {
        for (rep = 0; rep < 5; rep++) {
            double write = 0, post = 0, wait = 0, unpack = 0;
            MPI_Barrier(MPI_COMM_WORLD);
            for (it = 0; it < skip + rounds; it++) {
                int n = 0;
                double t0 = MPI_Wtime(), t1, t2, t3, t4;
                memset(src, it & 255, B);
                t1 = MPI_Wtime();
                if (k == 1) {
                    for (m = 0; m < M; m++) MPI_Irecv(dst + (size_t)m * S, S, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD, &q[n++]);
                    for (m = 0; m < M; m++) MPI_Isend(src + (size_t)m * S, S, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD, &q[n++]);
                } else {
                    MPI_Irecv(rpack, (int)B, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD, &q[n++]);
                    for (m = 0; m < M; m++) memcpy(spack + (size_t)m * S, src + (size_t)m * S, (size_t)S);
                    MPI_Isend(spack, (int)B, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD, &q[n++]);
                }
                t2 = MPI_Wtime();
                MPI_Waitall(n, q, MPI_STATUSES_IGNORE);
                t3 = MPI_Wtime();
                if (k > 1)
                    for (m = 0; m < M; m++) memcpy(dst + (size_t)m * S, rpack + (size_t)m * S, (size_t)S);
                t4 = MPI_Wtime();
                if (it >= skip) { write += t1 - t0; post += t2 - t1; wait += t3 - t2; unpack += t4 - t3; }
            }
            if (rank == 0)
                printf("S=%d M=%d pack=%d: write %.2f  post%s %.2f  wait %.2f  unpack %.2f  round %.2f  (exchange alone %.2f) us\n",
                       S, M, k, write / rounds * 1e6, k > 1 ? "+pack" : "", post / rounds * 1e6, wait / rounds * 1e6,
                       unpack / rounds * 1e6, (write + post + wait + unpack) / rounds * 1e6,
                       (post + wait + unpack) / rounds * 1e6);
        }
        if (k == M) break;
    }
    free(q); free(src); free(dst); free(spack); free(rpack);
    MPI_Finalize();
    return 0;
}
