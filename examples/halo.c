/* halo: a 2D Jacobi halo exchange (issue 12's proof on the emulated cluster).
   PX x PY ranks, each holding an N x N block, exchange one row or column of N
   doubles with each of their up to 4 grid neighbours per iteration, then
   update their block.

       mpirun -np P examples/halo [--n N] [--width W] [--iters K] [--scatter] [--reorder] [--profile]

   --width    halo depth: W rows or columns per neighbour (N x W doubles per
              message; a deep halo trades messages for redundant work)

   --scatter  starts with a bad placement: grid position = a permutation of
              the MPI rank that puts grid neighbours on different nodes when
              the job fills the nodes in rank order (as a careless rankfile
              would), the effect of a scattered start without a rankfile
   --reorder  describes the traffic (the grid neighbours, N x 8 bytes each
              way per iteration) to servet_mpi_reorder and runs on the
              communicator it returns: the same logical grid, placed anew
   --profile  prices the mapping with the job's measured comm layers
              (servet_open_mpi: the cached .comm file, or the comm probe
              now): servet_mpi_reorder gets the profile, and the modelled
              cost is the sum over ranks of servet_comm_time to each
              neighbour; without it, servet's price without a profile
              (another node 10, the same node 1 per byte)
   Prints on rank 0 one JSON line: the median and minimum seconds per
   iteration over the timed iterations, and the mapping's modelled cost at
   the start and after reordering. */
#define _GNU_SOURCE 1
#include <mpi.h>
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* grid position of an MPI rank: identity, or a checkerboard scatter: the
   first half of the ranks take the "white" cells, the second half the
   "black" ones, so that with the job's nodes filled in rank order every grid
   edge crosses nodes */
static int position_of(int rank, int px, int py, int scatter) {
    int cell, k = 0, color;
    if (!scatter) return rank;
    for (color = 0; color < 2; color++)
        for (cell = 0; cell < px * py; cell++)
            if ((cell / py + cell % py) % 2 == color && k++ == rank) return cell;
    return rank;
}

/* the MPI ranks (in a communicator numbered like the grid's ranks) of the up
   to 4 grid neighbours of `rank`; their count */
static int neighbours_of(int rank, int size, int px, int py, int scatter, int *nb) {
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    int *rank_of_pos = (int *)malloc((size_t)size * sizeof(int)), r, d, pos, gx, gy, nnb = 0;
    if (!rank_of_pos) MPI_Abort(MPI_COMM_WORLD, 1);
    for (r = 0; r < size; r++) rank_of_pos[position_of(r, px, py, scatter)] = r;
    pos = position_of(rank, px, py, scatter);
    gx = pos / py;
    gy = pos % py;
    for (d = 0; d < 4; d++) {
        int x = gx + dx[d], y = gy + dy[d];
        if (x < 0 || x >= px || y < 0 || y >= py) continue;
        nb[nnb++] = rank_of_pos[x * py + y];
    }
    free(rank_of_pos);
    return nnb;
}
/* the modelled cost of the placement over comm: servet's price without a
   profile (another node 10, the same node 1 per byte), summed over ranks */
static double placement_cost(MPI_Comm comm, const char *name, const int *nb, int nnb, double bytes) {
    int size, rank, k;
    char *names;
    double mine = 0.0, total = 0.0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    names = (char *)calloc((size_t)size, MPI_MAX_PROCESSOR_NAME);
    if (!names) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Allgather((void *)name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, comm);
    for (k = 0; k < nnb; k++)
        mine += bytes * (strcmp(names + (size_t)rank * MPI_MAX_PROCESSOR_NAME, names + (size_t)nb[k] * MPI_MAX_PROCESSOR_NAME) ? 10 : 1);
    MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
    free(names);
    return total;
}

/* the modelled cost priced by a comm profile: sum over ranks of the one-way
   time of each neighbour message, between the processes (world ranks, the
   profile's numbering) that hold the two ranks of comm */
static double profile_cost(const servet_profile *p, MPI_Comm comm, const int *nb, int nnb, double bytes) {
    MPI_Group g, world;
    int me, k, wme, wnb[4];
    double mine = 0.0, total = 0.0, t;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_translate_ranks(g, 1, &me, world, &wme);
    MPI_Group_translate_ranks(g, nnb, (int *)nb, world, wnb);
    for (k = 0; k < nnb; k++)
        if (servet_comm_time(p, wme, wnb[k], bytes, &t) == SERVET_OK) mine += t;
    MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Group_free(&g);
    MPI_Group_free(&world);
    return total;
}

int main(int argc, char **argv) {
    int rank, size, n = 1024, width = 1, iters = 60, scatter = 0, reorder = 0, use_profile = 0, px, py, i, it, nb[4], nnb = 0;
    servet_profile *prof = NULL;
    MPI_Comm comm = MPI_COMM_WORLD, newcomm = MPI_COMM_NULL;
    double *a, *b, *sendb, *recvb, *times, model_start = 0, model_now = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--iters") && i + 1 < argc) iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--width") && i + 1 < argc) width = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scatter")) scatter = 1;
        else if (!strcmp(argv[i], "--reorder")) reorder = 1;
        else if (!strcmp(argv[i], "--profile")) use_profile = 1;
        else {
            if (rank == 0) fprintf(stderr, "usage: halo [--n N] [--width W] [--iters K] [--scatter] [--reorder] [--profile]\n");
            MPI_Finalize();
            return 2;
        }
    }
    for (px = 1; px * px < size; px++) {}
    while (size % px) px--;
    py = size / px;
    if (n < 8 || iters < 10 || size < 2 || (scatter && size % 2) || width < 1 || width > n) {
        if (rank == 0) fprintf(stderr, "halo: n >= 8, 1 <= width <= n, iters >= 10, >= 2 ranks (an even count with --scatter)\n");
        MPI_Finalize();
        return 2;
    }
    /* the logical grid's neighbours as MPI ranks; the placement's modelled cost */
    nnb = neighbours_of(rank, size, px, py, scatter, nb);
    {
        char name[MPI_MAX_PROCESSOR_NAME];
        int len = 0;
        memset(name, 0, sizeof name);
        MPI_Get_processor_name(name, &len);
        if (use_profile) {
            servet_desc d;
            servet_result r;
            memset(&d, 0, sizeof d);
            d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_COMM;
            r = servet_open_mpi(&prof, &d, NULL);
            if (r != SERVET_OK) {
                if (rank == 0) fprintf(stderr, "halo: servet_open_mpi: %s\n", servet_result_string(r));
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            model_start = model_now = profile_cost(prof, MPI_COMM_WORLD, nb, nnb, 8.0 * n * width);
        } else
            model_start = model_now = placement_cost(MPI_COMM_WORLD, name, nb, nnb, 8.0 * n * width);
        if (reorder) {
            double bytes[4];
            int k, newrank;
            servet_result r;
            for (k = 0; k < nnb; k++) bytes[k] = 8.0 * n * width * iters;
            r = servet_mpi_reorder(prof, nnb, nb, bytes, NULL, &newcomm);
            if (r != SERVET_OK) {
                if (rank == 0) fprintf(stderr, "halo: servet_mpi_reorder: %s\n", servet_result_string(r));
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            /* logical rank = rank in newcomm: the same grid, the neighbour
               numbers now meaning newcomm ranks */
            comm = newcomm;
            MPI_Comm_rank(comm, &newrank);
            nnb = neighbours_of(newrank, size, px, py, scatter, nb);
            model_now = prof ? profile_cost(prof, comm, nb, nnb, 8.0 * n * width)
                             : placement_cost(comm, name, nb, nnb, 8.0 * n * width);
        }
    }
    a = (double *)calloc((size_t)(n + 2) * (size_t)(n + 2), sizeof(double));
    b = (double *)calloc((size_t)(n + 2) * (size_t)(n + 2), sizeof(double));
    sendb = (double *)malloc(4 * (size_t)n * (size_t)width * sizeof(double));
    recvb = (double *)malloc(4 * (size_t)n * (size_t)width * sizeof(double));
    times = (double *)malloc((size_t)iters * sizeof(double));
    if (!a || !b || !sendb || !recvb || !times) MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < (n + 2) * (n + 2); i++) a[i] = (double)(i % 7);
    for (it = 0; it < iters; it++) {
        MPI_Request req[8];
        int k, x, y;
        double t0;
        MPI_Barrier(comm);
        t0 = MPI_Wtime();
        for (k = 0; k < nnb; k++) {
            size_t m = (size_t)n * (size_t)width, q;
            for (q = 0; q < m; q++) sendb[k * m + q] = a[(1 + q % (size_t)n) * (size_t)(n + 2) + 1 + (q / (size_t)n) % (size_t)n]; /* packed */
            MPI_Irecv(recvb + k * m, (int)m, MPI_DOUBLE, nb[k], 7, comm, &req[2 * k]);
            MPI_Isend(sendb + k * m, (int)m, MPI_DOUBLE, nb[k], 7, comm, &req[2 * k + 1]);
        }
        MPI_Waitall(2 * nnb, req, MPI_STATUSES_IGNORE);
        for (k = 0; k < nnb; k++)
            for (x = 0; x < n; x++) a[(size_t)(1 + x) * (n + 2)] += 1e-9 * recvb[(size_t)k * n * width + x]; /* unpack into the halo */
        for (x = 1; x <= n; x++)
            for (y = 1; y <= n; y++)
                b[(size_t)x * (n + 2) + y] = 0.25 * (a[(size_t)(x - 1) * (n + 2) + y] + a[(size_t)(x + 1) * (n + 2) + y] +
                                                    a[(size_t)x * (n + 2) + y - 1] + a[(size_t)x * (n + 2) + y + 1]);
        { double *t = a; a = b; b = t; }
        times[it] = MPI_Wtime() - t0;
        MPI_Allreduce(MPI_IN_PLACE, &times[it], 1, MPI_DOUBLE, MPI_MAX, comm); /* an iteration lasts as long as its slowest rank */
    }
    if (rank == 0) {
        int warm = iters / 5;
        qsort(times + warm, (size_t)(iters - warm), sizeof(double), cmp_double);
        printf("{\"ranks\": %d, \"grid\": [%d, %d], \"n\": %d, \"width\": %d, \"scatter\": %s, \"reorder\": %s, \"median_s\": %.6g, \"min_s\": %.6g, "
               "\"model_cost_start\": %.6g, \"model_cost\": %.6g, \"priced_by\": \"%s\"}\n",
               size, px, py, n, width, scatter ? "true" : "false", reorder ? "true" : "false", times[warm + (iters - warm) / 2],
               times[warm], model_start, model_now, prof ? "profile" : "nodes");
    }
    if (newcomm != MPI_COMM_NULL) MPI_Comm_free(&newcomm);
    servet_close(prof);
    free(a); free(b); free(sendb); free(recvb); free(times);
    MPI_Finalize();
    return 0;
}
