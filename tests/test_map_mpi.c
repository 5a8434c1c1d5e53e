/* servet_mpi_reorder under mpirun (make test: 2 and 4 ranks on one node; the
   emulated cluster: 4 ranks on 2 nodes with --expect-together).
       mpirun -np N tests/test_map_mpi [--expect-together]
   Checks: the new communicator holds every process once (its ranks are a
   permutation); a bad argument on one rank gives INVALID_ARGUMENT on every
   rank and no communicator; with --expect-together, ranks i and i + N/2
   (which talk, while the job started them on different nodes) share a node
   in the new order. Prints "N passed, N failed" on rank 0. */
#define _GNU_SOURCE 1
#include <mpi.h>
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include <math.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size, together = argc > 1 && !strcmp(argv[1], "--expect-together"), peer, newrank = -1, i, all_ok = 1;
    double bytes = 1e6;
    MPI_Comm newcomm = MPI_COMM_NULL;
    servet_result r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* rank i talks to rank i + size/2 (and back) */
    peer = size >= 2 ? (rank + size / 2) % size : rank;
    r = servet_mpi_reorder(NULL, 1, &peer, &bytes, NULL, &newcomm);
    CHECK(r == SERVET_OK, "reorder: %s", servet_result_string(r));
    if (r == SERVET_OK) {
        int nsize = 0, *seen = (int *)calloc((size_t)size, sizeof(int)), *ranks = (int *)malloc((size_t)size * sizeof(int));
        MPI_Comm_size(newcomm, &nsize);
        MPI_Comm_rank(newcomm, &newrank);
        CHECK(nsize == size, "new communicator of %d ranks (%d)", size, nsize);
        MPI_Allgather(&newrank, 1, MPI_INT, ranks, 1, MPI_INT, MPI_COMM_WORLD);
        for (i = 0; i < size; i++) {
            if (ranks[i] < 0 || ranks[i] >= size || seen[ranks[i]]++) all_ok = 0;
        }
        CHECK(all_ok, "new ranks are a permutation");
        if (together) {
            /* the host of every new rank, in new-rank order */
            char name[MPI_MAX_PROCESSOR_NAME], *names = (char *)calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
            int len = 0, same = 1;
            memset(name, 0, sizeof name);
            MPI_Get_processor_name(name, &len);
            MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, newcomm);
            for (i = 0; i < size / 2; i++)
                if (strcmp(names + (size_t)i * MPI_MAX_PROCESSOR_NAME, names + (size_t)(i + size / 2) * MPI_MAX_PROCESSOR_NAME))
                    same = 0;
            CHECK(same, "talking ranks share a node after the reorder");
            free(names);
        }
        free(seen);
        free(ranks);
        MPI_Comm_free(&newcomm);
    }
    /* bad input on the last rank only: every rank gets the error */
    {
        int badpeer = rank == size - 1 ? size + 5 : peer;
        newcomm = MPI_COMM_NULL;
        r = servet_mpi_reorder(NULL, 1, &badpeer, &bytes, NULL, &newcomm);
        CHECK(r == SERVET_ERROR_INVALID_ARGUMENT && newcomm == MPI_COMM_NULL, "a peer out of range on one rank: %s on rank %d",
              servet_result_string(r), rank);
        {
            double nanb = rank == 0 ? NAN : 1.0;
            r = servet_mpi_reorder(NULL, 1, &peer, &nanb, NULL, &newcomm);
            CHECK(r == SERVET_ERROR_INVALID_ARGUMENT, "NaN bytes on rank 0: %s on rank %d", servet_result_string(r), rank);
        }
        r = servet_mpi_reorder(NULL, rank == 0 ? -1 : 1, &peer, &bytes, NULL, &newcomm);
        CHECK(r == SERVET_ERROR_INVALID_ARGUMENT, "negative npeers on rank 0: %s on rank %d", servet_result_string(r), rank);
        r = servet_mpi_reorder(NULL, 0, NULL, NULL, NULL, &newcomm);
        CHECK(r == SERVET_OK, "no traffic at all: %s", servet_result_string(r));
        if (r == SERVET_OK) MPI_Comm_free(&newcomm);
    }
    /* servet_mpi_dist_graph_create_adjacent with reorder: the graph's
       neighbours are the logical ranks' (i + size/2), whoever holds them */
    {
        MPI_Comm g = MPI_COMM_NULL;
        int w = 1000, indeg = 0, outdeg = 0, wgt = 0, src[4], dst[4], sw[4], dw[4], grank = -1, expect = -1;
        r = servet_mpi_dist_graph_create_adjacent(NULL, NULL, 1, &peer, &w, 1, &peer, &w, NULL, 1, &g);
        CHECK(r == SERVET_OK, "dist graph with reorder: %s", servet_result_string(r));
        if (r == SERVET_OK) {
            MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &wgt);
            CHECK(indeg == 1 && outdeg == 1 && wgt, "one weighted neighbour each way (%d, %d, %d)", indeg, outdeg, wgt);
            MPI_Comm_rank(g, &grank);
            expect = size >= 2 ? (grank + size / 2) % size : grank;
            if (indeg == 1 && outdeg == 1) {
                MPI_Dist_graph_neighbors(g, 1, src, sw, 1, dst, dw);
                CHECK(src[0] == expect && dst[0] == expect, "neighbours of graph rank %d: %d/%d, expected %d", grank, src[0], dst[0], expect);
            }
            MPI_Comm_free(&g);
        }
        r = servet_mpi_dist_graph_create_adjacent(NULL, NULL, 1, &peer, &w, 1, &peer, &w, NULL, 0, &g);
        CHECK(r == SERVET_OK, "dist graph without reorder: %s", servet_result_string(r));
        if (r == SERVET_OK) MPI_Comm_free(&g);
    }
    {
        int f = t_failed, sum = 0, fs = 0;
        MPI_Reduce(&t_passed, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&f, &fs, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) printf("%d passed, %d failed\n", sum, fs);
        MPI_Finalize();
        return fs ? 1 : 0;
    }
}
