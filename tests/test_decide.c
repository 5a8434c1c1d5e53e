/* The decisions on machines this one is not (hwloc synthetic topologies):
   thread placement now; tile size, rank mapping and aggregation as they land. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include "helpers.h"
#include "../tools/recorded_profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void drop(servet_profile *p) {
    servet__clear_measured(p);
    free(p);
}
/* logical PU index of an OS index */
static int logical(const servet_profile *p, int os) {
    int i;
    for (i = 0; i < p->npus; i++) if (p->pus[i].os_index == os) return i;
    return -1;
}

/* SPREAD over two NUMA nodes of 300 PUs: every prefix of the thread list is
   balanced. The old pre-filter compared the count vectors with memcmp, byte
   by byte: 255 threads on one node looked more than 256 on the other
   (little-endian), and thread 512 went to the fuller node. */
static void test_spread_counts_past_255(void) {
    servet_profile *p = synthetic("numa:2 core:300 pu:1");
    int *pus = (int *)malloc(600 * sizeof(int)), t, n[2] = {0, 0}, ok = 1, worst = 0, *seen;
    CHECK(p->npus == 600, "600 PUs (%d)", p->npus);
    CHECK(servet_choose_placement(p, 600, SERVET_PLACE_SPREAD, pus) == SERVET_OK, "spread 600");
    seen = (int *)calloc(600, sizeof(int));
    for (t = 0; t < 600; t++) {
        int i = logical(p, pus[t]), d;
        if (i < 0) { ok = 0; break; }
        seen[i]++;
        n[p->pus[i].numa]++;
        d = abs(n[0] - n[1]);
        if (d > worst) worst = d;
    }
    CHECK(ok && worst <= 1, "every prefix balanced over the 2 nodes (worst difference %d)", worst);
    for (t = 0, ok = 1; t < 600; t++) if (seen[t] != 1) ok = 0;
    CHECK(ok, "600 threads on 600 PUs: each PU once");
    free(seen);
    free(pus);
    drop(p);
}

/* COMPACT: one last-level group core by core, then the SMT siblings, then
   the next group; deterministic. */
static void test_compact_order(void) {
    servet_profile *p = synthetic("pack:2 l3:1 l2:4 core:1 pu:2");
    int pus[32], again[32], t, ok = 1;
    CHECK(servet_choose_placement(p, 16, SERVET_PLACE_COMPACT, pus) == SERVET_OK, "compact 16");
    for (t = 0; t < 4; t++) {
        int a = logical(p, pus[t]), j;
        if (p->pus[a].package != p->pus[logical(p, pus[0])].package) ok = 0;
        for (j = 0; j < t; j++) if (p->pus[logical(p, pus[j])].core == p->pus[a].core) ok = 0;
    }
    CHECK(ok, "threads 0-3: four cores of one package (%d %d %d %d)", pus[0], pus[1], pus[2], pus[3]);
    for (t = 4, ok = 1; t < 8; t++) {
        int a = logical(p, pus[t]), j, sib = 0;
        for (j = 0; j < 4; j++) if (p->pus[logical(p, pus[j])].core == p->pus[a].core) sib = 1;
        if (!sib) ok = 0;
    }
    CHECK(ok, "threads 4-7: their SMT siblings");
    CHECK(p->pus[logical(p, pus[8])].package != p->pus[logical(p, pus[0])].package, "thread 8: the other package");
    servet_choose_placement(p, 16, SERVET_PLACE_COMPACT, again);
    CHECK(memcmp(pus, again, sizeof pus[0] * 16) == 0, "deterministic");
    CHECK(servet_choose_placement(p, 20, SERVET_PLACE_COMPACT, pus) == SERVET_OK && pus[16] == pus[0],
          "more threads than PUs wrap around");
    drop(p);
    /* 4096 PUs: one sort, not an insertion sort with a scan per comparison */
    p = synthetic("pack:4 l3:1 core:512 pu:2");
    {
        int *many = (int *)malloc(4096 * sizeof(int)), *seen = (int *)calloc(4096, sizeof(int));
        CHECK(servet_choose_placement(p, 4096, SERVET_PLACE_COMPACT, many) == SERVET_OK, "compact 4096");
        for (t = 0, ok = 1; t < 4096; t++) {
            int a = logical(p, many[t]);
            if (a < 0 || seen[a]++) ok = 0;
            if (t < 512 && a >= 0 && (p->pus[a].package != p->pus[logical(p, many[0])].package)) ok = 0;
        }
        CHECK(ok, "4096 PUs each once, the first 512 threads in one package");
        free(many);
        free(seen);
    }
    drop(p);
}

static void test_placement_bad_input(void) {
    servet_profile *p = synthetic("pack:1 core:4 pu:1");
    int pus[8];
    CHECK(servet_choose_placement(NULL, 4, SERVET_PLACE_SPREAD, pus) == SERVET_ERROR_INVALID_ARGUMENT, "NULL profile");
    CHECK(servet_choose_placement(p, 4, SERVET_PLACE_SPREAD, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL output");
    CHECK(servet_choose_placement(p, -1, SERVET_PLACE_SPREAD, pus) == SERVET_ERROR_INVALID_ARGUMENT, "negative count");
    CHECK(servet_choose_placement(p, 4, (servet_placement_policy)9, pus) == SERVET_ERROR_INVALID_ARGUMENT, "bad policy");
    CHECK(servet_choose_placement(p, 0, SERVET_PLACE_COMPACT, pus) == SERVET_OK, "zero threads");
    drop(p);
}

/* ---- tile size ---- */
/* A Zen-5-like machine as the cache probe would leave it: L1d 48 KiB 12-way,
   L2 1 MiB 16-way private, L3 32 MiB 16-way shared by both PUs. */
static servet_profile *two_core_profile(int measured) {
    servet_profile *p = synthetic("pack:1 l3:1(size=33554432) l2:2(size=1048576) l1d:1(size=49152) core:1 pu:1");
    const double size[3] = {49152, 1048576, 33554432}, lat[3] = {1.0, 3.4, 12.0};
    int i;
    for (i = 0; i < p->ncacheobjs; i++) {
        p->cacheobjs[i].line = 64;
        p->cacheobjs[i].ways = p->cacheobjs[i].level == 1 ? 12 : 16;
    }
    if (measured) {
        p->sections |= SERVET_PROBE_CACHE;
        p->nlevels = 3;
        for (i = 0; i < 3; i++) {
            p->levels[i].size_bytes = p->levels[i].estimate_bytes = size[i];
            p->levels[i].latency = lat[i];
            p->levels[i].method = SERVET_METHOD_STEP;
        }
        p->mem_latency_ns = 90.0;
    }
    return p;
}
/* usable capacity off the curve (issue 14): where the latency has gone 5% of
   the way to the next level's, interpolated over log size; one noisy point
   does not end a plateau; capped at the size; no curve, no figure */
static void test_usable_capacity(void) {
    servet_profile *p = two_core_profile(1);
    servet_cache_info c;
    /* (bytes, ns): L1 1.0 to 48 KiB, L2 3.4 with a spike at 600 KiB, crossing 3.83 ns between
       832 and 896 KiB (3.7 -> 3.96: halfway), L3 12 ns to the end of the curve */
    static const double pts[][2] = {{16384, 1.0},   {32768, 1.0},   {49152, 1.0},   {65536, 3.4},   {131072, 3.4},
                                    {262144, 3.4},  {524288, 3.4},  {614400, 4.5},  {655360, 3.45}, {786432, 3.5},
                                    {851968, 3.7},  {917504, 3.96}, {1048576, 5.0}, {2097152, 12.0}, {4194304, 12.0},
                                    {8388608, 12.0}, {16777216, 12.0}};
    int i, n = (int)(sizeof pts / sizeof pts[0]);
    CHECK(servet_cache_get(p, 2, &c) == SERVET_OK && c.usable_bytes == 0, "no curve: no usable figure (%llu)",
          (unsigned long long)c.usable_bytes);
    p->curve = (servet_curve *)calloc(1, sizeof *p->curve);
    p->curve->n = n;
    p->curve->page_bytes = 4096;
    for (i = 0; i < n; i++) { p->curve->bytes[i] = pts[i][0]; p->curve->ns[i] = pts[i][1]; }
    servet_cache_get(p, 2, &c);
    CHECK(fabs((double)c.usable_bytes - sqrt(851968.0 * 917504.0)) < 2.0, "L2 usable %llu, expected %.0f (halfway in log size)",
          (unsigned long long)c.usable_bytes, sqrt(851968.0 * 917504.0));
    servet_cache_get(p, 1, &c);
    CHECK(c.usable_bytes == 49152, "L1 usable %llu: the last point of its plateau", (unsigned long long)c.usable_bytes);
    servet_cache_get(p, 3, &c);
    CHECK(c.usable_bytes == 33554432, "L3: the curve ends on its plateau, no miss seen: the size (%llu)",
          (unsigned long long)c.usable_bytes);
    p->curve->ns[11] = 3.6; /* L2's crossing now past its size: capped at 1 MiB */
    p->curve->ns[12] = 3.8;
    servet_cache_get(p, 2, &c);
    CHECK(c.usable_bytes == 1048576, "L2 usable capped at its size (%llu)", (unsigned long long)c.usable_bytes);
    drop(p);
}
static void array2(servet_tile_array *A, const char *name, int l0, int l1) {
    memset(A, 0, sizeof *A);
    A->name = name;
    A->nloops = 2;
    A->loops[0] = l0;
    A->loops[1] = l1;
}
static void loops(servet_tile_desc *d, int n, int64_t extent) {
    static const char *names[] = {"i", "j", "k"};
    int l;
    memset(d, 0, sizeof *d);
    d->nloops = n;
    for (l = 0; l < n; l++) { d->loops[l].name = names[l]; d->loops[l].extent = extent; }
    d->elem_bytes = 8;
}
static void tile_model(servet__tmodel *M, const servet_tile_desc *d);
/* an unpacked matmul over n^3: loops i, j, k with A i,k, B k,j, C i,j
   (inner_k: the loops as listed, k innermost), or i, k, j (loops 0, 1, 2 are
   i, k, j: A i,k, B k,j, C i,j) */
static void matmul_desc(servet_tile_desc *q, int64_t n, int inner_k) {
    loops(q, 3, n);
    q->narrays = 3;
    array2(&q->arrays[0], "A", 0, inner_k ? 2 : 1);
    array2(&q->arrays[1], "B", inner_k ? 2 : 1, inner_k ? 1 : 2);
    array2(&q->arrays[2], "C", 0, inner_k ? 1 : 2);
}
/* C = A B^T over n^3 (attention scores Q K^T): loops i, j, k with A i,k,
   B j,k and C i,j; the k sum is C's element */
static void nt_desc(servet_tile_desc *q, int64_t n, int elem) {
    loops(q, 3, n);
    q->narrays = 3;
    array2(&q->arrays[0], "A", 0, 2);
    array2(&q->arrays[1], "B", 1, 2);
    array2(&q->arrays[2], "C", 0, 1);
    q->elem_bytes = elem;
}
/* a transpose B = A^T over n^2: loops i, j with A i,j and B j,i */
static void transpose_desc(servet_tile_desc *q, int64_t n) {
    loops(q, 2, n);
    q->narrays = 2;
    array2(&q->arrays[0], "A", 0, 1);
    array2(&q->arrays[1], "B", 1, 0);
}
/* a 3D transpose B[k][j][i] = A[i][j][k] over n^3: loops i, j, k with A
   i,j,k and B k,j,i */
static void transpose3d_desc(servet_tile_desc *q, int64_t n) {
    int l;
    loops(q, 3, n);
    q->narrays = 2;
    for (l = 0; l < 2; l++) {
        q->arrays[l].nloops = 3;
        q->arrays[l].loops[0] = l ? 2 : 0; q->arrays[l].loops[1] = 1; q->arrays[l].loops[2] = l ? 0 : 2;
    }
    q->arrays[0].name = "A"; q->arrays[1].name = "B";
}
/* a 3D star stencil over n^3: loops i, j, k; IN over i,j,k read with a halo
   of `halo`, OUT over i,j,k written once (streamed) */
static void stencil3d_desc(servet_tile_desc *q, int64_t n, int halo) {
    loops(q, 3, n);
    q->narrays = 2;
    q->arrays[0].name = "IN"; q->arrays[0].nloops = 3;
    q->arrays[0].loops[0] = 0; q->arrays[0].loops[1] = 1; q->arrays[0].loops[2] = 2;
    q->arrays[0].halo = halo;
    q->arrays[1] = q->arrays[0];
    q->arrays[1].name = "OUT"; q->arrays[1].halo = 0; q->arrays[1].streamed = 1;
}
/* the model's working set of one tile, by hand */
static double tile_ws(const servet_profile *p, const servet_tile_desc *d, const int64_t *T) {
    servet__tmodel M;
    double cover[SERVET_TILE_MAX_LOOPS], ws = 0.0;
    int a, l;
    tile_model(&M, d);
    for (l = 0; l < d->nloops; l++) cover[l] = (double)T[l];
    for (a = 0; a < d->narrays; a++)
        if (!d->arrays[a].streamed) ws += servet__tile_lines(&M, a, cover, NULL, NULL) * 64.0;
    (void)p;
    return ws;
}

static void test_tile_working_sets(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc d;
    int64_t T[3] = {64, 64, 64};
    /* matmul i,j,k: A over i,k, B over k,j, C over i,j: 3 T^2 elements */
    loops(&d, 3, 1024);
    d.narrays = 3;
    array2(&d.arrays[0], "A", 0, 2);
    array2(&d.arrays[1], "B", 2, 1);
    array2(&d.arrays[2], "C", 0, 1);
    CHECK(tile_ws(p, &d, T) == 3.0 * 64 * 64 * 8, "matmul 64^3: 3 x 64 x 64 x 8 bytes (%g)", tile_ws(p, &d, T));
    T[0] = 32; T[1] = 16; T[2] = 128;
    CHECK(tile_ws(p, &d, T) == (32.0 * 128 + 128.0 * 16 + 32.0 * 16) * 8, "matmul 32x16x128: A 32x128 + B 128x16 + C 32x16 (%g)",
          tile_ws(p, &d, T));
    /* a transpose: A over i,j, B over j,i: 2 T^2 */
    transpose_desc(&d, 4096);
    T[0] = T[1] = 96;
    CHECK(tile_ws(p, &d, T) == 2.0 * 96 * 96 * 8, "transpose 96: 2 x 96 x 96 x 8 (%g)", tile_ws(p, &d, T));
    /* rows of 12 doubles (96 bytes): the tiles start at multiples of 96 bytes
       and the rows 32 KiB apart, so a row starts at 0 or 32 of a line and
       meets 2 lines either way (until 2026-11-25 counted as 3: any start) */
    T[0] = T[1] = 12;
    CHECK(tile_ws(p, &d, T) == 2.0 * 12 * 2 * 64, "transpose 12: 12 rows x 2 lines each array (%g)", tile_ws(p, &d, T));
    /* 20 doubles (160 bytes): starts at 0 and 32 -> 3 lines each (0..159, 32..191) */
    T[0] = T[1] = 20;
    CHECK(tile_ws(p, &d, T) == 2.0 * 20 * 3 * 64, "transpose 20: 20 rows x 3 lines each array (%g)", tile_ws(p, &d, T));
    /* 10 doubles (80 bytes): starts at 0, 16, 32, 48 -> 2, 2, 2, 2 lines */
    T[0] = T[1] = 10;
    CHECK(tile_ws(p, &d, T) == 2.0 * 10 * 2 * 64, "transpose 10: 10 rows x 2 lines each array (%g)", tile_ws(p, &d, T));
    /* star stencil radius 2 over i,j: IN reads T rows of T+4 elements, 544
       bytes starting on any element (where the loop starts is not said): 9
       lines from offsets 0-32, 10 from 40-56, 9.375 on average; plus 4 halo
       rows of T elements, 512 bytes: 8 lines from offset 0, 9 from the 7
       others, 8.875; OUT streamed. A box reads 68 rows of 544 bytes */
    d.narrays = 2;
    array2(&d.arrays[0], "IN", 0, 1);
    d.arrays[0].halo = 2;
    array2(&d.arrays[1], "OUT", 0, 1);
    d.arrays[1].streamed = 1;
    T[0] = T[1] = 64;
    CHECK(tile_ws(p, &d, T) == (64.0 * 9.375 + 4.0 * 8.875) * 64, "stencil 64, halo 2 star: 64 x 9.375 + 4 x 8.875 lines, OUT streamed (%g)",
          tile_ws(p, &d, T));
    /* a 3D 7-point stencil (radius 1) over i,j,k, one row of 64 along k: a
       star reads the row with its halo, 66 elements (528 bytes from any
       element: 9 lines from 7 offsets, 10 from the last: 9.125), and the 4
       rows around it, 64 elements each (8.875): 44.625 lines (the box the
       model counted until 2026-11-27: 9 rows of 66, 82.125) */
    stencil3d_desc(&d, 1024, 1);
    T[0] = T[1] = 1; T[2] = 64;
    CHECK(tile_ws(p, &d, T) == 44.625 * 64, "3D star, a row of 64: 1 row of 66 + 4 of 64, 44.625 lines (%g)", tile_ws(p, &d, T));
    {
        /* the reported working set (servet_tile.working_set_bytes): what
           the level keeps of the tile. A 2000^3 matmul (loops i, k, j; A
           i,k, B k,j, C i,j, rows 16000 bytes apart) at 72^3 on the 48 KiB
           12-way L1: B's 72 x 72 block, 648 lines over 64 sets, some a
           line over 12, is reused across i and mostly kept: 41.5 KiB and
           C's row, under 48 KiB (until 2026-12-06 only what the sets keep
           whole was reported: C's and B's rows, 1216 bytes, while the
           reason said the tile's reuse stays in L1) */
        servet__tmodel M;
        double win = -1.0;
        int64_t T3[3] = {72, 72, 72};
        matmul_desc(&d, 2000, 0);
        tile_model(&M, &d);
        servet__tile_traffic(&M, &M.c[0], T3, &win, NULL, NULL, NULL, NULL);
        CHECK(win >= 72.0 * 72 * 8 && win <= M.c[0].usable, "matmul 2000^3 at 72^3: L1 keeps most of B's block (%.0f in [41472, 49152])",
              win);
        /* a 4096^2 transpose at 64 x 64: B's 64 rows all in one set of 12
           ways, 5/6 of them lost: not kept, not reported */
        transpose_desc(&d, 4096);
        T3[0] = T3[1] = 64;
        tile_model(&M, &d);
        servet__tile_traffic(&M, &M.c[0], T3, &win, NULL, NULL, NULL, NULL);
        CHECK(win < 64.0 * 64, "transpose 4096^2 at 64 x 64: B's piled rows are not reported as kept (%.0f < 4096)", win);
    }
    drop(p);
}

/* the set arithmetic by hand: a transpose with a power-of-two leading
   dimension on a 48 KiB 12-way L1 (64 sets, virtually indexed) and on a
   1 MiB L2 seen through its page offsets (64 "sets" of usable/4 KiB lines) */
static servet__tscratch tile_scratch; /* the set count's buffers (servet_choose_tile allocates its own) */
static void tile_model(servet__tmodel *M, const servet_tile_desc *d) {
    int a, dd;
    memset(M, 0, sizeof *M);
    M->scratch = &tile_scratch;
    M->d = d; M->n = d->nloops; M->elem = d->elem_bytes; M->line = 64; M->only = -1;
    M->window = servet__tile_window_of(d); /* as servet_choose_tile builds it */
    M->mem_share = 1.0; /* every last-level miss from memory, as a nest past the last level (step 6h) */
    for (a = 0; a < d->narrays; a++) {
        const servet_tile_array *A = &d->arrays[a];
        double st = (double)d->elem_bytes;
        M->haloed[a] = servet__tile_haloed(A); /* as servet_choose_tile resolves them */
        for (dd = 0; dd < A->nloops; dd++) {
            M->halo[a][dd] = servet__tile_halo(A, dd);
            M->dim[a][dd] = d->loops[A->loops[dd]].extent + 2 * M->halo[a][dd];
        }
        if (A->ld) M->dim[a][A->nloops - 1] = A->ld;
        for (dd = A->nloops - 1; dd >= 0; dd--) { M->stride[a][dd] = st; st *= (double)M->dim[a][dd]; }
    }
    M->nc = M->ncache = 1;
    M->c[0].level = 1; M->c[0].ways = 12; M->c[0].line = 64; M->c[0].sets = 64; M->c[0].deterministic = 1;
    M->c[0].sharers = 1; M->c[0].size = M->c[0].usable = 49152.0; M->c[0].miss_ns = 3.0;
}
/* the fullest L1 set over loop 0 at one iteration of it (1 x 12, the
   12-way L1), the loop's tile making `run` iterations (step 4's sweep) */
static double set_load_1x12(const servet__tmodel *M, double run) {
    double cover[SERVET_TILE_MAX_LOOPS] = {1.0, 12.0};
    return servet__tile_set_load(M, &M->c[0], cover, 12, 0, run, NULL, NULL);
}
static void test_tile_sets(void) {
    servet_tile_desc d;
    servet__tmodel M;
    servet__tcache P;
    double cover[SERVET_TILE_MAX_LOOPS], ld16[SERVET_TILE_MAX_ARRAYS], cf16[SERVET_TILE_MAX_ARRAYS];
    double ld13[SERVET_TILE_MAX_ARRAYS], cf13[SERVET_TILE_MAX_ARRAYS], ld12[SERVET_TILE_MAX_ARRAYS], cf12[SERVET_TILE_MAX_ARRAYS];
    int64_t T[2], caps[8];
    int swept[8];
    int n;
    transpose_desc(&d, 4096);
    tile_model(&M, &d);
    /* a 12 x 12 tile: A's 12 rows all start in one set (32 KiB apart), 3
       lines each (96 bytes off a line); so do B's, at another column: each
       order is its own group, 12 lines in its fullest set; the other adds
       floor(36 / 64) = 0 */
    cover[0] = cover[1] = 12.0;
    CHECK(servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, NULL, NULL) == 12.0, "transpose 12 x 12, ld 4096: 12 lines in the fullest L1 set (%g)",
          servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, NULL, NULL));
    cover[0] = cover[1] = 16.0;
    CHECK(servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, NULL, NULL) == 16.0, "16 x 16: 16 lines, over the 12 ways (%g)",
          servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, NULL, NULL));
    /* the same arrays in one loop order (a copy A -> B) share the origin: 24 */
    array2(&d.arrays[1], "B", 0, 1);
    cover[0] = cover[1] = 12.0;
    CHECK(servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, NULL, NULL) == 24.0, "a copy, 12 x 12: both arrays' rows in one set, 24 (%g)",
          servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, NULL, NULL));
    array2(&d.arrays[1], "B", 1, 0);
    {
        /* a plain matmul i,j,k (no packing), n = 1024: B[k][j] and C[i][j]
           run along j with rows 8 KiB apart, a multiple of the 4 KiB way, so
           their rows start in the same sets whatever k and i: at 12 x 12 x 12
           each puts its 12 rows (2 lines each) in sets 0 and 1, 24 lines
           where the ways are 12 (counted 12 until 2026-11-27: B's group
           alone); A along k is elsewhere, floor(24 / 64) = 0. With n = 1000
           (8000 B rows: no multiple of the way) B's rows spread, one line
           a set, and C is apart again: 1 */
        servet_tile_desc q;
        servet__tmodel Q;
        double cv[SERVET_TILE_MAX_LOOPS];
        matmul_desc(&q, 1024, 1);
        tile_model(&Q, &q);
        cv[0] = cv[1] = cv[2] = 12.0;
        CHECK(servet__tile_set_load(&Q, &Q.c[0], cv, 12, -1, 0.0, NULL, NULL) == 24.0, "matmul 1024, 12^3: B's and C's rows in one set, 24 (%g)",
              servet__tile_set_load(&Q, &Q.c[0], cv, 12, -1, 0.0, NULL, NULL));
        matmul_desc(&q, 1000, 1);
        tile_model(&Q, &q);
        CHECK(servet__tile_set_load(&Q, &Q.c[0], cv, 12, -1, 0.0, NULL, NULL) == 1.0, "matmul 1000, 12^3: rows spread, 1 (%g)",
              servet__tile_set_load(&Q, &Q.c[0], cv, 12, -1, 0.0, NULL, NULL));
    }
    {
        /* the loops i,k,j (A i,k; B k,j; C i,j; n = 1000): over i the tile
           keeps B's k x j block while A's and C's rows move with i, so their
           next lines need a way in B's fullest set too, one each at least.
           B's 80 rows of 72 (9 lines, rows 125 lines = -3 sets apart) put 12
           lines in their fullest set: 12 + 1 + 1 = 14 for an iteration of i;
           12 seen from no loop (A's 10 and C's 9 lines: floor(x / 64) = 0).
           64 rows: 9 + 2 = 11. A packed B (one contiguous block, ceil(720 /
           64) = 12 a set) keeps the old count: measured, a packed block in
           43 of L1's 48 KiB runs fine */
        servet_tile_desc q;
        servet__tmodel Q;
        double cv[SERVET_TILE_MAX_LOOPS];
        matmul_desc(&q, 1000, 0);
        tile_model(&Q, &q);
        cv[0] = 1.0; cv[1] = 80.0; cv[2] = 72.0;
        CHECK(servet__tile_set_load(&Q, &Q.c[0], cv, 12, 0, 0.0, NULL, NULL) == 14.0, "i,k,j 1000, B 80 x 72 over i: 12 + 1 + 1 lines (%g)",
              servet__tile_set_load(&Q, &Q.c[0], cv, 12, 0, 0.0, NULL, NULL));
        CHECK(servet__tile_set_load(&Q, &Q.c[0], cv, 12, -1, 0.0, NULL, NULL) == 12.0, "... from no loop: 12 (%g)",
              servet__tile_set_load(&Q, &Q.c[0], cv, 12, -1, 0.0, NULL, NULL));
        cv[1] = 64.0;
        CHECK(servet__tile_set_load(&Q, &Q.c[0], cv, 12, 0, 0.0, NULL, NULL) == 11.0, "... B 64 x 72 over i: 9 + 2 (%g)",
              servet__tile_set_load(&Q, &Q.c[0], cv, 12, 0, 0.0, NULL, NULL));
        q.arrays[1].packed = 1;
        tile_model(&Q, &q);
        cv[1] = 80.0;
        CHECK(servet__tile_set_load(&Q, &Q.c[0], cv, 12, 0, 0.0, NULL, NULL) == 12.0, "... B packed: 12, as before (%g)",
              servet__tile_set_load(&Q, &Q.c[0], cv, 12, 0, 0.0, NULL, NULL));
    }
    /* a column of B walked untiled, seen by a physically indexed 1 MiB L2:
       4096 rows at one page offset, where 1 MiB / 4 KiB = 256 lines fit;
       A's one row (512 lines) adds 512 / 64 = 8 to every page offset */
    P = M.c[0];
    P.sets = 4096 / 64;
    cover[0] = 1.0; cover[1] = 4096.0;
    CHECK(servet__tile_set_load(&M, &P, cover, 256, -1, 0.0, NULL, NULL) == 4096.0 + 8.0, "an untiled column of B: 4096 + 8 lines at one page offset (%g)",
          servet__tile_set_load(&M, &P, cover, 256, -1, 0.0, NULL, NULL));
    /* the set caps: 12 ways x 1 set the rows start in (ld 4096), for A and B; and for B two ways less, where A's
       rows (one set) meet B's column walking the sets along i (step 4) */
    n = servet__tile_set_caps(&M, caps, swept, 8);
    CHECK(n == 3 && caps[0] == 12 && caps[1] == 12 && !swept[0] && !swept[1] && caps[2] == 10 && swept[2],
          "set caps of a 4096-double ld on a 12-way L1: 12, 12 and B's 10 (%d: %lld %lld %lld)", n,
          (long long)(n > 0 ? caps[0] : 0), (long long)(n > 1 ? caps[1] : 0), (long long)(n > 2 ? caps[2] : 0));
    d.arrays[0].ld = d.arrays[1].ld = 4000; /* 32000 bytes: rows start in 16 sets */
    tile_model(&M, &d);
    n = servet__tile_set_caps(&M, caps, swept, 8);
    /* (no cap a way less: step 4's sweep takes rows in one set, the case measured) */
    CHECK(n == 2 && caps[0] == 12 * 16 && !swept[0] && !swept[1], "ld 4000: rows start in 16 sets, cap 192 (%lld)",
          (long long)(n > 0 ? caps[0] : 0));
    /* step 4's sweep: AoS -> SoA, OUT[f][i] = IN[i][f] over 4M x 16 doubles. OUT's lines stay over 8 i's, its
       rows 32 MB apart in one set; IN moves 128 bytes an i, 2 lines a piece, through every set: one of its lines
       comes to OUT's set at a time and needs a way there. 12 of OUT's rows + 1 = 13 over the i tile's 4096
       iterations; not over 16 (IN moves 1920 bytes against OUT's line, under the 4 KiB of the sets) */
    loops(&d, 2, 4194304);
    d.loops[1].extent = 16;
    d.narrays = 2;
    array2(&d.arrays[0], "IN", 0, 1);
    array2(&d.arrays[1], "OUT", 1, 0);
    tile_model(&M, &d);
    CHECK(set_load_1x12(&M, 4096.0) == 13.0, "AoS 4M x 16, f 12: OUT's 12 rows + a line of IN sweeping past, 13 (%g)",
          set_load_1x12(&M, 4096.0));
    CHECK(set_load_1x12(&M, 16.0) == 12.0, "... over an i tile of 16: IN does not pass the set, 12 (%g)", set_load_1x12(&M, 16.0));
    n = servet__tile_set_caps(&M, caps, swept, 8);
    CHECK(n == 3 && caps[0] == 12 * 32 && !swept[0] && caps[1] == 12 && !swept[1] && caps[2] == 11 && swept[2],
          "AoS 4M x 16: IN's cap 384 (32 sets), OUT's 12 and a way less for IN's sweep, 11 (%d: %lld %lld %lld)", n,
          (long long)(n > 0 ? caps[0] : 0), (long long)(n > 1 ? caps[1] : 0), (long long)(n > 2 ? caps[2] : 0));
    /* a transpose's A at ld 4096 returns to its one set every i: no sweep past B's column, but B's column meets
       it as it walks the sets along i: in 1 of 64 iterations (A's piece, 12 doubles, 2 lines: 2 of 64) the set
       holds B's 12 lines and 2 of A's (this iteration's and the last one's), and loses B's 12 */
    transpose_desc(&d, 4096);
    tile_model(&M, &d);
    {
        int nover = -1;
        double ex = -1.0, f;
        cover[0] = 1.0; cover[1] = 12.0;
        f = servet__tile_set_load_walked(&M, &M.c[0], cover, 12, 0, 512.0, &nover, &ex);
        CHECK(f == 14.0 && nover == 1 && fabs(ex - 2.0 / 64.0) < 1e-12,
              "transpose 4096, i tile 512: B's column 12 + A's 2 where they meet, one set, 2 / 64 of the iterations (%g %d %g)",
              f, nover, ex);
        cover[1] = 10.0;
        f = servet__tile_set_load_walked(&M, &M.c[0], cover, 12, 0, 512.0, &nover, &ex);
        CHECK(f <= 12.0 && nover == 0 && ex == 0.0, "... a column of 10: with A's 2 it fits, no set over (%g %d %g)", f, nover, ex);
        cover[1] = 12.0;
        d.arrays[0].ld = 4160; /* A's rows 33280 bytes apart, 512 modulo the 4 KiB: 8 sets, 16 over a piece of 2 lines */
        tile_model(&M, &d);
        f = servet__tile_set_load_walked(&M, &M.c[0], cover, 12, 0, 512.0, &nover, &ex);
        CHECK(f == 14.0 && fabs(ex - 16.0 / 64.0) < 1e-12, "... A at ld 4160 (8 sets): 16 / 64 of the iterations (%g %g)", f, ex);
        d.arrays[0].ld = 4100; /* 32800 bytes: A's rows spread over every set: a sweep (a line), no meeting */
        tile_model(&M, &d);
        f = servet__tile_set_load_walked(&M, &M.c[0], cover, 12, 0, 512.0, &nover, &ex);
        CHECK(f == 13.0, "... A at ld 4100 (rows over every set): B's 12 and the sweep's line, 13 (%g %g)", f, ex);
        transpose_desc(&d, 4096);
        tile_model(&M, &d);
    }
    n = servet__tile_set_caps(&M, caps, swept, 8);
    CHECK(n == 3 && !swept[0] && !swept[1] && caps[2] == 10 && swept[2], "transpose 4096: no cap a way less; B's two less, 10 (%d)", n);
    {
        /* B's rows in two sets: A 512 x 8192 floats (rows 32 KiB apart, one set), B 8192 x 512 (rows 2 KiB
           apart: 12 rows a set, cap 24); its column meets A's set too: cap 20, two ways less in each set */
        servet_tile_desc q;
        int nover = -1;
        double ex = -1.0, f;
        transpose_desc(&q, 512);
        q.loops[1].extent = 8192;
        q.elem_bytes = 4;
        tile_model(&M, &q);
        n = servet__tile_set_caps(&M, caps, swept, 8);
        CHECK(n == 3 && caps[0] == 12 && caps[1] == 24 && caps[2] == 20 && swept[2],
              "transpose 512 x 8192 floats: caps 12 (A), 24 (B, 2 sets) and B's 20 (%d: %lld %lld %lld)", n,
              (long long)(n > 0 ? caps[0] : 0), (long long)(n > 1 ? caps[1] : 0), (long long)(n > 2 ? caps[2] : 0));
        cover[0] = 1.0; cover[1] = 24.0;
        f = servet__tile_set_load_walked(&M, &M.c[0], cover, 12, 0, 512.0, &nover, &ex);
        CHECK(f == 14.0 && nover == 1 && fabs(ex - 2.0 / 64.0) < 1e-12,
              "... B's column of 24, 12 a set, + A's 2 where they meet (A's piece 96 bytes, 2 lines: 2 / 64) (%g %d %g)", f, nover, ex);
        /* a sweep and a meeting at once: B = A^T + C over 4096^2 doubles, C at ld 4104 (rows 64 bytes on a set
           apart: its lines sweep past B's column), A at 4096 (one set: it meets it); B's caps 12, 11 and 10,
           each from the full cap */
        transpose_desc(&q, 4096);
        q.narrays = 3;
        array2(&q.arrays[2], "C", 0, 1);
        q.arrays[2].ld = 4104;
        tile_model(&M, &q);
        n = servet__tile_set_caps(&M, caps, swept, 8);
        {
            int i, found = 0;
            for (i = 0; i + 2 < n; i++)
                found |= caps[i] == 12 && !swept[i] && caps[i + 1] == 11 && swept[i + 1] && caps[i + 2] == 10 && swept[i + 2];
            CHECK(found, "B = A^T + C, C swept and A met: B's caps 12, 11, 10 (%d caps: %lld %lld %lld %lld)", n,
                  (long long)(n > 0 ? caps[0] : 0), (long long)(n > 1 ? caps[1] : 0), (long long)(n > 2 ? caps[2] : 0), (long long)(n > 3 ? caps[3] : 0));
        }
        tile_model(&M, &d);
    }
    d.arrays[0].ld = d.arrays[1].ld = 4000;
    tile_model(&M, &d);
    /* how many sets overflow (the cost's step 6: one set's misses queue,
       many sets' overlap): one i of a 256-tall tile puts B's 256 rows in 16
       sets, 16 lines each over 12 ways: 16 overfull sets; A's row of 32
       lines adds floor(32 / 64) = 0 to each */
    {
        int nover = -1;
        double f;
        cover[0] = 1.0; cover[1] = 256.0;
        f = servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, &nover, NULL);
        CHECK(f == 16.0 && nover == 16, "ld 4000, a column of 256: 16 lines in the fullest set, 16 sets over 12 ways (%g, %d)", f, nover);
        d.arrays[0].ld = d.arrays[1].ld = 4096;
        tile_model(&M, &d);
        cover[0] = 1.0; cover[1] = 16.0;
        f = servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, &nover, NULL);
        CHECK(f == 16.0 && nover == 1, "ld 4096, a column of 16: every row in one set, 1 set over 12 ways (%g, %d)", f, nover);
        cover[1] = 12.0;
        f = servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, &nover, NULL);
        CHECK(f == 12.0 && nover == 0, "ld 4096, a column of 12: fits, no set over (%g, %d)", f, nover);
    }
    /* conflict misses: none at 12, more for 16 rows than for 13 (the share
       1 - 12/X of what LRU would lose), never more than every access */
    d.arrays[0].ld = d.arrays[1].ld = 0;
    tile_model(&M, &d);
    T[0] = T[1] = 12;
    servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, ld12, cf12, NULL);
    T[0] = T[1] = 13;
    servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, ld13, cf13, NULL);
    T[0] = T[1] = 16;
    servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, ld16, cf16, NULL);
    CHECK(cf12[1] == 0.0 && cf13[1] > 0.0 && cf16[1] > cf13[1] && ld16[1] <= 4096.0 * 4096.0,
          "B's conflict misses: 0 at 12 rows, %g at 13, %g at 16 (of %g loads)", cf13[1], cf16[1], ld16[1]);
    CHECK(cf16[1] <= 0.25 * 4096.0 * 4096.0 + 1.0, "16 rows over 12 ways lose at most a quarter of the accesses (%g)", cf16[1]);
    /* the runs a prefetcher sees (step 6), by hand, on the 48 KiB L1 alone.
       Tile 8: A's 8 rows continue from tile to tile along j, a run per 4 KiB
       page (4096 rows x 8 pages); B's strip - all 4096 rows, swept by the
       tile loop jj - is visited afresh by every tile column ii (512 x 4096).
       Tile 80 of a 4000 x 4000 in a 1 MiB level: the tile is kept, an ii
       iteration (80 whole rows of A, 2.56 MB in a row: 625 pages) is not, so
       they come back 50 times (31250); B as before, 50 strips x 4000 rows */
    {
        double rn[SERVET_TILE_MAX_ARRAYS], lr[SERVET_TILE_MAX_ARRAYS], cr[SERVET_TILE_MAX_ARRAYS];
        d.arrays[0].ld = d.arrays[1].ld = 0;
        tile_model(&M, &d);
        T[0] = T[1] = 8;
        servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, lr, cr, rn);
        CHECK(rn[0] == 4096.0 * 8.0 && rn[1] == 512.0 * 4096.0, "transpose 4096, tile 8: runs of A %g (32768), of B %g (2097152)",
              rn[0], rn[1]);
        transpose_desc(&d, 4000);
        tile_model(&M, &d);
        M.c[0].size = M.c[0].usable = 1048576.0; /* a level the 80 x 80 tile fits */
        M.c[0].sets = 1024; M.c[0].ways = 16;
        T[0] = T[1] = 80;
        servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, lr, cr, rn);
        CHECK(rn[0] == 31250.0 && rn[1] == 200000.0, "transpose 4000, tile 80: runs of A %g (31250), of B %g (200000)", rn[0], rn[1]);
        CHECK(rn[1] <= lr[1] - cr[1], "no more runs than lines (%g of %g)", rn[1], lr[1]);
        transpose_desc(&d, 4096);
    }
    /* a TLB level with a measured curve (step 5): past the usable reach the
       pages of an iteration miss by the share the curve has risen between
       there and twice the reach, not all or nothing. A transpose's strip of
       B at tile 12 spans 4096 pages (16 MiB + A's 96 pages): on a curve
       flat to 8 MiB, 16 ns at 16 MiB and 56 ns from 24 MiB (reach 12 MiB,
       usable 10.8: 11.2 ns there, 56 at 24) a tenth to a third of B's pages
       miss per strip; without the curve, all. Under the usable reach
       nothing misses, however the curve rises there (a dependent walk's
       slower hits): a 2000 transpose's strip, 2000 pages (7.8 MiB), on a
       curve rising from 6 ns at 4 MiB to 9 at 8 counts what it counts
       without the curve (read from half the reach, it counted walks) */
    {
        static servet_curve tc;
        double lb[SERVET_TILE_MAX_ARRAYS], cb[SERVET_TILE_MAX_ARRAYS], lc[SERVET_TILE_MAX_ARRAYS], frac;
        const double cb_bytes[5] = {1048576.0, 8388608.0, 16777216.0, 25165824.0, 67108864.0}, cb_ns[5] = {6, 6, 16, 56, 56};
        int q;
        memset(&tc, 0, sizeof tc);
        tc.n = 5;
        tc.page_bytes = 4096;
        for (q = 0; q < 5; q++) { tc.bytes[q] = cb_bytes[q]; tc.ns[q] = cb_ns[q]; }
        d.arrays[0].ld = d.arrays[1].ld = 0;
        tile_model(&M, &d);
        T[0] = T[1] = 12;
        servet__tile_tlb_level(&M.c[0], 1, 12.0 * 1048576.0, NULL, 1); /* the TLB servet_choose_tile builds */
        M.c[0].tlb_sets = 1; /* the curve alone: B's rows 8 pages apart would crowd its sets (test_tile_tlb_crowding) */
        servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, lb, cb, NULL);
        servet__tile_tlb_level(&M.c[0], 1, 12.0 * 1048576.0, &tc, 1);
        M.c[0].tlb_sets = 1;
        CHECK(M.c[0].tlb_curve == &tc, "the TLB reads its curve (it rises past the usable reach)");
        servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, lc, cb, NULL);
        frac = (lc[1] - 4096.0 * 8.0) / (lb[1] - 4096.0 * 8.0); /* beyond B's compulsory pages */
        CHECK(lb[1] >= 4096.0 * 4096.0 / 12.0 && frac > 0.1 && frac < 0.35,
              "TLB pages of B at tile 12: %g without the curve (a page per row per strip), %.2f of that with it", lb[1], frac);
        {
            const double gb[6] = {1048576.0, 4194304.0, 8388608.0, 16777216.0, 25165824.0, 67108864.0},
                         gn[6] = {6, 6, 9, 16, 56, 56};
            for (q = 0; q < 6; q++) { tc.bytes[q] = gb[q]; tc.ns[q] = gn[q]; }
            tc.n = 6;
            transpose_desc(&d, 2000);
            tile_model(&M, &d);
            servet__tile_tlb_level(&M.c[0], 1, 12.0 * 1048576.0, NULL, 1);
            servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, lb, cb, NULL);
            servet__tile_tlb_level(&M.c[0], 1, 12.0 * 1048576.0, &tc, 1);
            servet__tile_traffic(&M, &M.c[0], T, NULL, NULL, lc, cb, NULL);
            CHECK(servet__curve_at(&tc, 2000.0 * 4096.0) > servet__curve_at(&tc, 0.5 * M.c[0].size) && lc[1] == lb[1],
                  "TLB pages of B at tile 12, n 2000 (strip under the usable reach, the curve rising there): %g with the "
                  "curve, %g without",
                  lc[1], lb[1]);
            transpose_desc(&d, 4096);
        }
    }
}

/* the set count by convolution against a row-by-row count, on random
   3-D arrays whose rows are whole lines apart */
/* the lines a row meets, summed over its possible starts in a line
   (servet__ceil_sum, by bisection) against the sum term by term: random
   lengths (whole and fractional bytes, a mean tile), lines and steps */
static void test_ceil_sum(void) {
    uint64_t z = 4242;
    int trial, bad = 0;
    for (trial = 0; trial < 2000; trial++) {
        uint64_t line, g, o;
        double b, want = 0.0, got;
#define RNG() (z = z * 6364136223846793005ull + 1442695040888963407ull, z >> 33)
        line = (uint64_t)1 << (4 + RNG() % 4); /* 16 to 128 */
        g = (uint64_t)1 << (RNG() % 8);
        if (g > line) g = line;
        b = (double)(RNG() % 5000);
        if (RNG() % 2) b += (double)(RNG() % 1000) / 1000.0;
#undef RNG
        for (o = 0; o < line; o += g) want += ceil(((double)o + b) / (double)line);
        got = servet__ceil_sum(b, line, g);
        if (got != want) bad++;
    }
    CHECK(bad == 0, "sum of a row's lines over its starts by bisection = term by term: %d of 2000 differ", bad);
}
/* the rows' start sets by residues (servet__row_starts) and by the
   incremental walk (servet__row_starts_walk) against each row's offset
   computed afresh: random strides (any multiple of the element), spans,
   dimensions and prefixes of the rows, 64-set and 256-set levels */
static void test_row_starts_by_residues(void) {
    uint64_t z = 777;
    int trial, bad = 0, used = 0, bad_walk = 0;
    for (trial = 0; trial < 400; trial++) {
        double stride[4];
        int span[4], idx[4] = {0, 0, 0, 0}, nd, d, s, sets = trial % 2 ? 64 : 256, line = 64;
        float got[256], want[256], walked[256];
        uint64_t total = 1, nrows, r;
#define RNG() (z = z * 6364136223846793005ull + 1442695040888963407ull, z >> 33)
        nd = 1 + (int)(RNG() % 4);
        for (d = 0; d < nd; d++) {
            int elem = 1 << (3 + RNG() % 5); /* 8 to 128 bytes: most shapes within the residues */
            stride[d] = (double)(elem * (1 + (int64_t)(RNG() % 100000)));
            span[d] = 1 + (int)(RNG() % (nd == 1 ? 3000 : nd == 2 ? 300 : 40));
            total *= (uint64_t)span[d];
        }
        nrows = RNG() % 3 ? total : 1 + RNG() % total; /* the whole block, or its first rows */
#undef RNG
        memset(got, 0, sizeof got);
        memset(want, 0, sizeof want);
        for (r = 0; r < nrows; r++) {
            uint64_t off = 0;
            for (d = 0; d < nd; d++) off += (uint64_t)idx[d] * (uint64_t)stride[d];
            want[(off / (uint64_t)line) % (uint64_t)sets] += 1.0f;
            for (d = nd - 1; d >= 0; d--) {
                if (++idx[d] < span[d]) break;
                idx[d] = 0;
            }
        }
        memset(walked, 0, sizeof walked);
        servet__row_starts_walk(stride, span, nd, nrows, line, sets, walked);
        for (s = 0; s < sets; s++) if (walked[s] != want[s]) { bad_walk++; break; }
        if (!servet__row_starts(stride, span, nd, nrows, line, sets, 1, got, &tile_scratch)) continue; /* over the residues: walked */
        used++;
        for (s = 0; s < sets; s++) if (got[s] != want[s]) { bad++; break; }
    }
    CHECK(bad == 0 && used >= 200, "rows' start sets by residues = row by row: %d of %d shapes differ", bad, used);
    CHECK(bad_walk == 0, "rows' start sets by the incremental walk = row by row: %d of 400 shapes differ", bad_walk);
}
static void test_tile_set_convolution(void) {
    servet_tile_desc d;
    servet__tmodel M;
    uint64_t z = 12345;
    int trial, bad = 0, done = 0;
    for (trial = 0; trial < 200; trial++) {
        double cover[SERVET_TILE_MAX_LOOPS], rows, lpr, cnt[64], want = 0.0, got;
        int64_t ext[3];
        int l, i0, i1, s;
        for (l = 0; l < 3; l++) { z = z * 6364136223846793005ull + 1442695040888963407ull; ext[l] = 8 + (int64_t)((z >> 33) % 300); }
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        memset(&d, 0, sizeof d);
        d.nloops = 3;
        for (l = 0; l < 3; l++) { d.loops[l].name = "x"; d.loops[l].extent = ext[l]; }
        d.elem_bytes = 8;
        d.narrays = 1;
        d.arrays[0].nloops = 3; d.arrays[0].loops[0] = 0; d.arrays[0].loops[1] = 1; d.arrays[0].loops[2] = 2;
        d.arrays[0].ld = (ext[2] + 7) / 8 * 8 + 8 * (int64_t)((z >> 40) % 5); /* rows whole lines apart */
        tile_model(&M, &d);
        for (l = 0; l < 3; l++) {
            cover[l] = (double)(1 + (int64_t)((z >> (8 * l)) % 40));
            if (cover[l] > (double)ext[l]) cover[l] = (double)ext[l];
        }
        servet__tile_lines(&M, 0, cover, &rows, &lpr);
        memset(cnt, 0, sizeof cnt);
        for (i0 = 0; i0 < (int)cover[0]; i0++)
            for (i1 = 0; i1 < (int)cover[1]; i1++) {
                uint64_t off = (uint64_t)i0 * (uint64_t)M.stride[0][0] + (uint64_t)i1 * (uint64_t)M.stride[0][1];
                long st = (long)((off / 64) % 64), k;
                for (k = 0; k < (long)lpr; k++) cnt[(st + k) % 64] += 1.0;
            }
        for (s = 0; s < 64; s++) if (cnt[s] > want) want = cnt[s];
        got = servet__tile_set_load(&M, &M.c[0], cover, 0, -1, 0.0, NULL, NULL);
        if (got != want) bad++;
        done++;
    }
    CHECK(bad == 0, "set counts by convolution = row by row in %d of %d random 3-D arrays", done - bad, done);
}

/* the search (step 5) reaches what a coarse grid finds: no tile of the
   octaves 8 .. N in every loop is cheaper than its answer. An unpacked
   i,k,j matmul at 1000^3 (B's k x j block fits L1 along a hyperbola) is
   where the descent one loop at a time stopped short (1000 x 80 x 72,
   where 1000 x 8 x 512 was cheaper to the model too); and a plain i,j,k
   one, and a transpose, beside it */
static void test_tile_search_reaches_grid(void) {
    static const int64_t oct[] = {8, 16, 32, 64, 128, 256, 512, 0};
    servet_tile_desc q;
    servet__tmodel Q;
    int kind;
    for (kind = 0; kind < 3; kind++) {
        int64_t T[SERVET_TILE_MAX_LOOPS], G[SERVET_TILE_MAX_LOOPS], n = kind == 2 ? 4000 : 1000;
        double found, grid = 1e300;
        int a0, a1, a2, nl = kind == 2 ? 2 : 3;
        if (kind < 2) matmul_desc(&q, n, kind); /* i,k,j; i,j,k */
        else transpose_desc(&q, n);
        tile_model(&Q, &q);
        found = servet__tile_search(&Q, T, NULL, NULL);
        for (a0 = 0; a0 < 8; a0++)
            for (a1 = 0; a1 < 8; a1++)
                for (a2 = 0; a2 < (nl == 3 ? 8 : 1); a2++) {
                    double c;
                    G[0] = oct[a0] ? oct[a0] : n;
                    G[1] = oct[a1] ? oct[a1] : n;
                    G[2] = oct[a2] ? oct[a2] : n;
                    c = servet__tile_cost(&Q, G);
                    if (c < grid) grid = c;
                }
        CHECK(found <= grid * (1.0 + 1e-9), "%s: the search's %lld x %lld x %lld costs %.4g, the octave grid's best %.4g",
              kind == 0 ? "matmul i,k,j 1000" : kind == 1 ? "matmul i,j,k 1000" : "transpose 4000 (x 1)", (long long)T[0],
              (long long)T[1], (long long)(nl == 3 ? T[2] : 1), found, grid);
    }
}
/* a 3-level Zen-5-like model: L1 as the profile gives it, L2 1 MiB (640 KiB
   usable), L3 13.5 MiB, both physically indexed; memory 130 ns, 2 ns a line */
static void three_level_model(servet__tmodel *Q, const servet_tile_desc *q) {
    int c;
    tile_model(Q, q);
    Q->nc = Q->ncache = 3;
    for (c = 1; c < 3; c++) {
        Q->c[c] = Q->c[0];
        Q->c[c].level = c + 1; Q->c[c].ways = 16; Q->c[c].deterministic = 0;
    }
    Q->c[1].size = 1048576.0; Q->c[1].usable = 655360.0; Q->c[1].miss_ns = 8.0;
    Q->c[2].size = Q->c[2].usable = 14155776.0; Q->c[2].miss_ns = 120.0;
    Q->mem_line_ns = 2.0; Q->mem_ns = 130.0; Q->restart_ns = 3.0;
}
/* not tiling is an answer: a tiled answer costs, to the model, less than
   untiled by the margin (SERVET__TILE_MARGIN), as the squares' rule and the
   later starts of the search ask; the first descent, from an untiled
   square, took any tile a hair cheaper (a 7-point 3D Jacobi sweep at 320^3
   went to 112 x 8 x 320, 2% under untiled; it ran 0.90-0.95 of untiled on
   the Zen 3 VM). 3D stencils of radius 1 and 2 at 64^3 .. 512^3, 2D
   stencils, transposes, i,k,j matmuls, on the three-level model and on it
   with the L3 a quarter as large */
static void test_tile_untiled_by_margin(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    int kind, l3, bad = 0, tiled = 0, untiled = 0;
    int64_t n;
    for (l3 = 0; l3 < 2; l3++)
        for (kind = 0; kind < 5; kind++)
            for (n = 64; n <= 512; n += 16) {
                int64_t T[SERVET_TILE_MAX_LOOPS], W[SERVET_TILE_MAX_LOOPS];
                double found, whole;
                int l, is_whole = 1;
                if (kind < 2) stencil3d_desc(&q, n, kind + 1); /* 3D star of radius 1 or 2 */
                else if (kind == 2) { /* 2D star of radius 2, 8 n x 8 n */
                    loops(&q, 2, 8 * n);
                    q.narrays = 2;
                    array2(&q.arrays[0], "IN", 0, 1); q.arrays[0].halo = 2;
                    array2(&q.arrays[1], "OUT", 0, 1); q.arrays[1].streamed = 1;
                } else if (kind == 3) transpose_desc(&q, 8 * n);
                else matmul_desc(&q, 2 * n, 0);
                three_level_model(&Q, &q);
                if (l3) Q.c[2].size = Q.c[2].usable = Q.c[2].size / 4.0;
                found = servet__tile_search(&Q, T, NULL, NULL);
                for (l = 0; l < q.nloops; l++) {
                    W[l] = q.loops[l].extent;
                    is_whole &= T[l] >= W[l];
                }
                whole = servet__tile_cost(&Q, W);
                if (is_whole) { untiled++; continue; }
                tiled++;
                if (!(found * (1.0 + SERVET__TILE_MARGIN) < whole)) {
                    if (bad++ < 3)
                        CHECK(0, "kind %d n %lld (L3 / %d): the tile %lld x %lld x %lld costs %.4g, untiled %.4g: within the margin",
                              kind, (long long)n, l3 ? 4 : 1, (long long)T[0], (long long)T[1],
                              (long long)(q.nloops > 2 ? T[2] : 1), found, whole);
                }
            }
    CHECK(bad == 0 && tiled > 0 && untiled > 0, "a tiled answer beats untiled by the margin: %d of %d tiled answers do not "
          "(%d untiled)", bad, tiled, untiled);
}
/* the runs a level restarts (step 6): a run continues where the previous
   tile stopped only while the level under the last (L2, where the
   streamer puts what it fetched past the run's end) still holds what the
   nest touched in between. A 4000 x 4000 transpose in strips of 2000 x 96:
   3 MB between two visits of a row of A, over a 640 KiB L2, so each of
   A's 4000 rows restarts at each of its 42 tiles (168 k runs); with an L2
   as large as the L3 they continue, a few runs a row (its 4 KiB pages).
   Before 2026-11-27 the last level's capacity decided: 2000 x 96 priced
   as cheap as a square of 128, measured 0.89 of it */
static void test_tile_runs_held_by_l2(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    int64_t T[2] = {2000, 96};
    double per[SERVET_TILE_MAX_ARRAYS], runs[SERVET_TILE_MAX_ARRAYS], cut, whole;
    transpose_desc(&q, 4000);
    three_level_model(&Q, &q);
    servet__tile_traffic(&Q, &Q.c[2], T, NULL, NULL, per, NULL, runs);
    cut = runs[0];
    Q.c[1].usable = Q.c[2].usable;
    servet__tile_traffic(&Q, &Q.c[2], T, NULL, NULL, per, NULL, runs);
    whole = runs[0];
    CHECK(cut >= 4000.0 * 42.0 && whole <= 4000.0 * 9.0,
          "transpose 4000 in 2000 x 96 strips: A's runs restart at each tile over a 640 KiB L2 (%.0f >= 168000), "
          "continue with an L2 holding the strip (%.0f <= 36000)", cut, whole);
}
/* a row piece of at most 3 lines among more rows than a prefetcher
   follows (servet__tile_short_pieces) restarts at every visit, its lines
   demand misses, as many in flight as the window's iterations span (2 of
   bytes): on the Zen 4 VM a 1-byte 8000^2 transpose ran 2688 x 64 (the
   old pick, A's rows taken to continue) at 80-90 ms, 2048 x 256 at 50,
   512 x 512 at 47. Only where the window spans at most 4 lines (elements
   of 2 bytes or less): doubles and floats keep their strips (a 3D doubles
   transpose at 512^3 ran 512 x 1 x 8 1.5x faster than the 16 x 1 x 8 the
   rule gave it); pieces of half a line or less, a new line every few
   tiles for all their rows at once, are not short (1408 x 8 at 4096^2:
   15 ms, the fastest tried). On the three-level model. */
static void test_tile_short_pieces(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    double per[SERVET_TILE_MAX_ARRAYS], runs[SERVET_TILE_MAX_ARRAYS];
    int64_t strip[2] = {2688, 64}, wide[2] = {2048, 512}, sub[2] = {1408, 8}, T[2], n;
    int e;
    transpose_desc(&q, 8000);
    q.elem_bytes = 1;
    three_level_model(&Q, &q);
    servet__tile_traffic(&Q, &Q.c[2], strip, NULL, NULL, per, NULL, runs);
    CHECK(runs[0] >= 0.9 * 8000.0 * 125.0, "byte transpose 8000 at 2688 x 64: each of A's one-line pieces restarts "
          "(%.0f runs, >= %.0f)", runs[0], 0.9 * 8000.0 * 125.0);
    servet__tile_traffic(&Q, &Q.c[2], wide, NULL, NULL, per, NULL, runs);
    CHECK(runs[0] <= 8000.0 * 16.0, "byte transpose 8000 at 2048 x 512: A's rows continue (%.0f runs)", runs[0]);
    for (e = 1; e <= 2; e++)
        for (n = 5000; n <= 8000; n += 3000) {
            transpose_desc(&q, n);
            q.elem_bytes = e;
            three_level_model(&Q, &q);
            servet__tile_search(&Q, T, NULL, NULL);
            CHECK(T[1] * e >= 256, "%d-byte transpose %lld: A's pieces %lld elements, 4 lines or more", e, (long long)n,
                  (long long)T[1]);
        }
    for (e = 4; e <= 8; e += 4) { /* the window spans 8 and 16 lines: the rule is off */
        int64_t one[2] = {2688, 0};
        one[1] = 64 / e;
        transpose_desc(&q, 8000);
        q.elem_bytes = e;
        three_level_model(&Q, &q);
        servet__tile_traffic(&Q, &Q.c[2], one, NULL, NULL, per, NULL, runs);
        CHECK(runs[0] <= 8000.0 * 64.0, "%d-byte transpose 8000 at 2688 x %lld: A's rows continue (%.0f runs)", e,
              (long long)one[1], runs[0]);
    }
    transpose_desc(&q, 4096);
    q.elem_bytes = 1;
    three_level_model(&Q, &q);
    servet__tile_traffic(&Q, &Q.c[2], sub, NULL, NULL, per, NULL, runs);
    CHECK(runs[0] <= 4096.0 * 16.0, "byte transpose 4096 at 1408 x 8: pieces of 8 bytes are not short (%.0f runs)",
          runs[0]);
}
/* a sum kept in a register (desc: reduce) is a chain of dependent adds as
   long as the innermost loops that do not index the array; its latency
   takes the work's place in the core when the chains outrun the overlap
   (SERVET__TILE_CHAIN_NS, WINDOW). On three_level_model. */
static void test_tile_reduce_chain(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    int64_t T1[3] = {1000, 1000, 16}, T2[3] = {1000, 32, 88}, T3[3] = {1000, 32, 16};
    double short_chain, long_chain, plain_short, plain_long;
    matmul_desc(&q, 1000, 1); /* i,j,k: C[i][j] += A[i][k] B[k][j] */
    q.arrays[2].reduce = 1;
    three_level_model(&Q, &q);
    CHECK(servet__tile_chain(&Q, T1) == 16.0 && servet__tile_chain(&Q, T2) == 88.0,
          "i,j,k matmul: C's chain is the k tile (%g, %g)", servet__tile_chain(&Q, T1), servet__tile_chain(&Q, T2));
    short_chain = servet__tile_cost_priced(&Q, T1);
    long_chain = servet__tile_cost_priced(&Q, T2);
    q.arrays[2].reduce = 0;
    three_level_model(&Q, &q);
    CHECK(servet__tile_chain(&Q, T1) == 0.0, "no reduce: no chain");
    plain_short = servet__tile_cost_priced(&Q, T1);
    plain_long = servet__tile_cost_priced(&Q, T2);
    /* 10^9 adds: 16-long chains overlap (0.5 x 16/48 ns an add), 88-long
       ones hardly (0.5 x 88/120): 167 against 367 ms of the core */
    CHECK(long_chain > short_chain && long_chain >= plain_long + 1e8,
          "the 88-long chains cost the core (%.3g ns, without reduce %.3g; 16-long: %.3g, without %.3g)", long_chain,
          plain_long, short_chain, plain_short);
    /* reduce on an array the innermost loop indexes: no chain (B over k,j) */
    plain_short = servet__tile_cost_priced(&Q, T3);
    q.arrays[1].reduce = 1;
    three_level_model(&Q, &q);
    CHECK(servet__tile_chain(&Q, T3) == 0.0 && servet__tile_cost_priced(&Q, T3) == plain_short,
          "reduce on B (indexed by k): ignored (%g)", servet__tile_chain(&Q, T3));
    /* the decision: a k tile whose chains overlap, and the reason says so */
    {
        servet_profile *p = two_core_profile(1);
        servet_tile t;
        int l;
        q.arrays[1].reduce = 0;
        q.arrays[2].reduce = 1;
        CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[2] <= 64 && strstr(t.reason, "the sum into C: chains of"),
              "i,j,k matmul 1000, C reduced: k tile %lld (<= 64: chains that overlap), reason \"%s\"", (long long)t.tile[2],
              t.reason);
        for (l = 0; l < t.nwarnings; l++) CHECK(!strstr(t.warnings[l], "mark it reduce"), "told: no hint (%s)", t.warnings[l]);
        q.arrays[2].reduce = 0; /* not told: the warning asks */
        {
            int asks = 0, work = 0;
            CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK, "not told: decided");
            for (l = 0; l < t.nwarnings; l++) {
                asks |= strstr(t.warnings[l], "C is not indexed by the innermost loop k") && strstr(t.warnings[l], "mark it reduce");
                work |= strstr(t.warnings[l], "the loop's work, 0.125 ns an iteration") != NULL;
            }
            CHECK(asks, "not told: a warning asks whether C is a sum (%d warnings)", t.nwarnings);
            /* 10^9 iterations at 0.125 ns against the prediction: core-bound, and it says so */
            CHECK(work && 0.125 * 1e9 >= 0.6 * t.predicted_ns,
                  "a matmul the work bounds: the warning says the compiled loop decides (%.3g ns predicted)", t.predicted_ns);
        }
        q.arrays[2].reduce = 1;
        drop(p);
    }
    /* y[i] += A[i][j] x[j] over loops i, j, k with y over i: the chain runs over j and k */
    q.arrays[1].reduce = 0;
    array2(&q.arrays[2], "Y", 0, 0);
    q.arrays[2].nloops = 1;
    q.arrays[2].reduce = 1;
    three_level_model(&Q, &q);
    CHECK(servet__tile_chain(&Q, T3) == 32.0 * 16.0, "a chain over the two inner loops: %g (512)", servet__tile_chain(&Q, T3));
}
/* a strip-mined column sum, S[j] += A[i][j] with j outside and i inside (in
   the desc: loop 0 outside, loop 1 inside, A over 1,0, S over 0): the
   innermost loop walks no array along its rows, so a run is the loop's start
   alone (SERVET__TILE_LOOP_RUN_NS), and the chain into S holds the window,
   so the core's time adds to the memory's (>>decide step 6b). On the Zen 5
   VM (bench_data/tune_outside_colsum_zen5_2026-12-05.txt) strips of 4-8
   rows ran best at 2000^2-8000^2, 16 at 0.7-0.8 of them. */
static void colsum_desc(servet_tile_desc *q, int64_t n) {
    loops(q, 2, n);
    q->narrays = 2;
    array2(&q->arrays[0], "A", 1, 0);
    memset(&q->arrays[1], 0, sizeof q->arrays[1]);
    q->arrays[1].name = "S";
    q->arrays[1].nloops = 1;
    q->arrays[1].loops[0] = 0;
    q->arrays[1].reduce = 1;
}
static void test_tile_column_sum(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    servet_profile *p = two_core_profile(1);
    servet_tile t;
    int64_t T8[2] = {2000, 8}, T16[2] = {2000, 16};
    double loose, held;
    colsum_desc(&q, 2000);
    CHECK(servet__tile_run_ns(&q) == SERVET__TILE_LOOP_RUN_NS, "column sum: a run is the loop's start (%g ns)",
          servet__tile_run_ns(&q));
    transpose_desc(&q, 2000);
    CHECK(servet__tile_run_ns(&q) == SERVET__TILE_RUN_NS, "transpose: a run restarts A's row (%g ns)", servet__tile_run_ns(&q));
    q.vector = 8;
    CHECK(servet__tile_run_ns(&q) == SERVET__TILE_VECTOR_RUN_NS, "vectorised: a vector loop's run (%g ns)",
          servet__tile_run_ns(&q));
    colsum_desc(&q, 2000);
    three_level_model(&Q, &q);
    CHECK(servet__tile_chain_holds(&Q, T8) && servet__tile_chain(&Q, T16) == 16.0, "column sum: chains of the strip's rows");
    held = servet__tile_cost_priced(&Q, T16);
    q.arrays[1].reduce = 0;
    three_level_model(&Q, &q);
    loose = servet__tile_cost_priced(&Q, T16);
    /* 4 M adds in chains of 16 (0.5 x 16 / 48 ns each: 0.67 ms) and the memory's 32 MB, added */
    CHECK(held >= loose + 0.5e6, "the chain holds the window: %.4g ns, chain-free %.4g", held, loose);
    q.arrays[1].reduce = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[0] == 2000 && t.tile[1] <= 8,
          "column sum 2000^2, S reduced: strips of 8 rows or fewer (%lld x %lld)", (long long)t.tile[0], (long long)t.tile[1]);
    drop(p);
}
/* a 2D stencil over n^2: IN (halo) read, OUT written, both over i,j */
static void stencil2d_desc(servet_tile_desc *q, int64_t n, int halo, const char *in, const char *out) {
    loops(q, 2, n);
    q->narrays = 2;
    array2(&q->arrays[0], in, 0, 1);
    array2(&q->arrays[1], out, 0, 1);
    q->arrays[0].halo = halo;
}
/* a halo's loads shorten the core's window (servet__tile_window_of): a
   radius-4 3D star stencil (25 loads and a store a point) keeps 128 x 2 / 26
   of its iterations there, and its pieces that cut a row restart at every
   visit (servet__tile_short_pieces). Measured on the Zen 5 VM (bench_data/
   tile_outside_stencil3d_r4_zen5_2026-12-05.txt, -O2): the old model cut k
   to 32 at 256^3 (48 x 8 x 32, 0.51 of keeping k whole), each start of the k
   loop ~170 ns */
static void test_tile_halo_window(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    servet_profile *p = two_core_profile(1);
    servet_tile t;
    int64_t Tcut[3] = {48, 8, 32}, Twhole[3] = {48, 8, 256};
    double cut, whole, cut_before, whole_before;
    int a, l;
    transpose_desc(&q, 1000);
    CHECK(servet__tile_window_of(&q) == SERVET__TILE_WINDOW, "no halo: the whole window (%g)", servet__tile_window_of(&q));
    stencil3d_desc(&q, 256, 4);
    CHECK(fabs(servet__tile_window_of(&q) - SERVET__TILE_WINDOW * 2.0 / 26.0) < 1e-9,
          "radius 4 in 3D: 2 / 26 of the window (%g)", servet__tile_window_of(&q));
    q.vector = 8;
    CHECK(fabs(servet__tile_window_of(&q) - SERVET__TILE_WINDOW * 16.0 / 26.0) < 1e-9,
          "vectorised by 8: 8x the elements (%g)", servet__tile_window_of(&q));
    q.vector = 64;
    CHECK(servet__tile_window_of(&q) == SERVET__TILE_WINDOW, "never more than the window (%g)", servet__tile_window_of(&q));
    /* the kernel as measured: arrays (n + 8)^3, OUT written */
    stencil3d_desc(&q, 256, 4);
    q.arrays[1].streamed = 0;
    q.arrays[1].output = 1;
    for (a = 0; a < 2; a++)
        for (l = 0; l < 3; l++) q.arrays[a].dims[l] = 264;
    three_level_model(&Q, &q);
    Q.window = SERVET__TILE_WINDOW; /* as before: the pieces continue */
    cut_before = servet__tile_cost_priced(&Q, Tcut);
    whole_before = servet__tile_cost_priced(&Q, Twhole);
    Q.window = servet__tile_window_of(&q);
    cut = servet__tile_cost_priced(&Q, Tcut);
    whole = servet__tile_cost_priced(&Q, Twhole);
    /* 524288 starts of k at 48 x 8 x 32 (256^2 x 8), each a restart out of memory: at least a tenth of memory's
       latency more each (measured: 1.3x it) */
    CHECK(cut >= cut_before + 524288.0 * 0.1 * Q.mem_ns, "k cut to 32: its restarts priced (%.4g ns, were %.4g)", cut,
          cut_before);
    CHECK(fabs(whole - whole_before) <= 1e-6 * whole, "k whole: its rows stream on, the cost unchanged (%.4g, %.4g)", whole,
          whole_before);
    CHECK(whole < cut, "k whole cheaper than k cut to 32 (%.4g, %.4g)", whole, cut);
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[2] == 256,
          "radius-4 stencil 256^3, scalar: k whole (%lld x %lld x %lld)", (long long)t.tile[0], (long long)t.tile[1],
          (long long)t.tile[2]);
    /* a radius-2 2D stencil stays untiled: its whole rows stream on */
    stencil2d_desc(&q, 4000, 2, "IN", "OUT");
    q.arrays[1].streamed = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.untiled, "radius-2 stencil 4000^2: untiled (%lld x %lld)",
          (long long)t.tile[0], (long long)t.tile[1]);
    drop(p);
}
/* step 0, one nest one answer (servet__tile_canon): a loop of extent 1 is
   no loop, and an innermost loop over an element's parts (a 4D permutation
   B[a][c][b][d] = A[a][b][c][d], d whole and contiguous) is the element.
   Measured on the Zen 5 VM (bench_data/
   tile_outside_tensor_permute_zen5_2026-12-05.txt): described with d as a
   loop, a 1024^2 permutation of 4-double blocks got 256 x 64, 0.26 of the
   256 x 12 its 32-byte description gets (the best measured) */
static void permute_desc(servet_tile_desc *q, int64_t outer, int64_t n, int64_t parts) {
    static const char *names[] = {"a", "b", "c", "d"};
    int l, a;
    memset(q, 0, sizeof *q);
    q->nloops = 4;
    for (l = 0; l < 4; l++) { q->loops[l].name = names[l]; q->loops[l].extent = l == 0 ? outer : l == 3 ? parts : n; }
    q->loops[0].untiled = q->loops[3].untiled = 1;
    q->elem_bytes = 8;
    q->narrays = 2;
    for (a = 0; a < 2; a++) {
        q->arrays[a].nloops = 4;
        q->arrays[a].loops[0] = 0; q->arrays[a].loops[1] = a ? 2 : 1; q->arrays[a].loops[2] = a ? 1 : 2; q->arrays[a].loops[3] = 3;
    }
    q->arrays[0].name = "A"; q->arrays[1].name = "B";
}
/* a tile's charge for its turns at the shares 1, 0.5 and 0 from memory:
   its cost at a rows-in-turn ratio of 2 less its cost at 1 (step 6c, 6h) */
static void turns_charge(servet__tmodel *Q, const int64_t *T, double *charge) {
    static const double shares[3] = {1.0, 0.5, 0.0};
    int k;
    for (k = 0; k < 3; k++) {
        double plain;
        Q->mem_share = shares[k];
        Q->mem_interleave = 1.0;
        plain = servet__tile_cost(Q, T);
        Q->mem_interleave = 2.0;
        charge[k] = servet__tile_cost(Q, T) - plain;
    }
}
/* step 6h: a nest run again finds in the last level what it left there,
   and lines the level serves are not memory's rows in turn (step 6c's
   figure is memory's): the share of the nest's footprint past the level's
   usable capacity reaches memory, all of it from the level's size. On the
   Zen 5 VM (L3 measured 13.4 MiB, usable 9.1) double transposes of 400^2-
   800^2 ran untiled, the model's pick, at 0.65-0.96 of 48-88 side by side
   (bench_data/tile_l3_resident_transpose_zen5_2026-12-07.txt) */
static void test_tile_warm_last_level(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    servet_profile *p = two_core_profile(1); /* L3 32 MiB */
    servet_tile t;
    int64_t T[2];
    double charge[3];
    /* the price: a tile's turns' charge (its cost at a ratio of 2 less at 1)
       scales with the share; none at 0 (the share's other terms, step 6h's
       demand misses, are test_tile_warm_restarts') */
    transpose_desc(&q, 800);
    three_level_model(&Q, &q);
    Q.seq_untiled[0] = 1;
    T[0] = T[1] = 64;
    turns_charge(&Q, T, charge);
    CHECK(charge[0] > charge[1] && charge[1] > 0.0 && charge[2] == 0.0,
          "64 x 64: the turns' charge scales with the share from memory (%.4g at 1, %.4g at 0.5, %.4g at 0)",
          charge[0], charge[1], charge[2]);
    T[0] = T[1] = 800;
    turns_charge(&Q, T, charge);
    CHECK(charge[0] == 0.0 && charge[1] == 0.0 && charge[2] == 0.0, "untiled: no turns of its own, at any share");
    Q.mem_share = 1.0;
    /* the decision: a profile with the memory probe's figures (copy 35 GB/s,
       reads in turn at half of it) */
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 35e9;
    p->memory->interleave = 35e9 / 2.0;
    transpose_desc(&q, 600); /* the model of every call from memory took it untiled */
    q.square = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[0] >= 32 && t.tile[0] <= 256,
          "600^2 doubles (5.8 MB) inside the 32 MiB L3: a tile (%lld), not untiled", (long long)t.tile[0]);
    transpose_desc(&q, 4000); /* 256 MB: memory's, as before */
    q.square = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled, "4000^2 past the L3: tiled (%lld)",
          (long long)t.tile[0]);
    free(p->memory);
    p->memory = NULL;
    drop(p);
}
/* step 6h, the demand misses: a nest whose footprint the last level holds
   gets its run restarts there, at the level's latency, and its lines from
   the level above's price, not memory's: where the nest is warm (share 0)
   a tile of short row pieces (16 x 16: two lines a run) sheds more than
   the untiled nest, whose runs are whole rows. On the Xeon f6m167 guest
   (L3 40.9 ns, memory 138.5) the 1000^2 double transpose (16 MB in a 28
   MiB L3) was priced untiled and ran 0.45-0.51 of 16 side by side */
static void test_tile_warm_restarts(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    servet_profile *p = two_core_profile(1); /* L3 32 MiB, memory 90 ns */
    servet_tile t;
    int64_t T[2];
    double tile_cold, tile_warm, whole_cold, whole_warm;
    transpose_desc(&q, 1000);
    three_level_model(&Q, &q);
    T[0] = T[1] = 16;
    tile_cold = servet__tile_cost(&Q, T);
    Q.mem_share = 0.0;
    tile_warm = servet__tile_cost(&Q, T);
    T[0] = T[1] = 1000;
    whole_warm = servet__tile_cost(&Q, T);
    Q.mem_share = 1.0;
    whole_cold = servet__tile_cost(&Q, T);
    CHECK(tile_warm < tile_cold && whole_warm <= whole_cold && tile_cold - tile_warm > whole_cold - whole_warm,
          "16 x 16 sheds more when warm (%.4g -> %.4g) than untiled (%.4g -> %.4g)", tile_cold, tile_warm, whole_cold,
          whole_warm);
    /* the decision, on the memory probe's copy alone (no rows-in-turn
       figure: step 6c's turns play no part) */
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 14e9;
    p->mem_latency_ns = 140.0;
    p->levels[2].latency = 40.0;
    transpose_desc(&q, 1000);
    q.square = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled,
          "1000^2 doubles (16 MB) in the 32 MiB L3 at 40 ns, memory at 140: tiled (%lld)", (long long)t.tile[0]);
    free(p->memory);
    p->memory = NULL;
    drop(p);
}
/* step 5, stores across pages: the memory probe's store walk (a store to
   each of P rows in turn, each in a page of its own) kept its pace over
   32-40 rows on the Xeon f6m167 guest and cost 0.13-0.14 ns a store more
   past 48-56; the nest's output walked across rows more than half a page
   apart pays it (the 1000^2 double transpose: 500 x 16 .. 1000 x 16 ran
   1.25-1.65x faster than x 48; rows 2000 bytes apart showed no step) */
static void test_tile_store_walk(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    servet_profile *p = two_core_profile(1);
    servet_tile plain, walked;
    int64_t T[3];
    transpose_desc(&q, 1000);
    tile_model(&Q, &q);
    T[0] = 64; T[1] = 48;
    CHECK(servet__tile_store_walk(&Q, T, 1) == 48.0 && servet__tile_store_walk(&Q, T, 0) == 1.0,
          "64 x 48: B (the output, rows 8000 bytes apart) walked over 48 pages; A read, no walk");
    q.arrays[1].output = -1; /* said an input: A the output, walked along its rows */
    tile_model(&Q, &q);
    CHECK(servet__tile_store_walk(&Q, T, 1) == 1.0 && servet__tile_store_walk(&Q, T, 0) == 1.0,
          "B marked an input: no store walk");
    transpose_desc(&q, 250); /* rows 2000 bytes apart: two to a page */
    tile_model(&Q, &q);
    T[0] = T[1] = 250;
    CHECK(servet__tile_store_walk(&Q, T, 1) == 1.0, "250^2: B's rows half a page apart: no walk");
    stencil2d_desc(&q, 1000, 2, "IN", "OUT");
    tile_model(&Q, &q);
    T[0] = T[1] = 64;
    CHECK(servet__tile_store_walk(&Q, T, 1) == 1.0, "a stencil's OUT, stored along its rows: no walk");
    transpose3d_desc(&q, 320); /* B[k][j][i]: k walks planes 800 KiB apart, j rows 2560 bytes apart */
    tile_model(&Q, &q);
    T[0] = 320; T[1] = 4; T[2] = 8;
    CHECK(servet__tile_store_walk(&Q, T, 1) == 32.0, "320^3 3D transpose, 320 x 4 x 8: B's 8 planes x 4 rows");
    transpose3d_desc(&q, 160); /* j's rows 1280 bytes apart: the walk ends at k */
    tile_model(&Q, &q);
    CHECK(servet__tile_store_walk(&Q, T, 1) == 8.0, "160^3: B's 8 planes, its rows shared pages");
    /* the decision: the figure moves a transpose under it, and nothing
       where no output is walked */
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 14e9;
    transpose_desc(&q, 1000);
    q.square = 1;
    CHECK(servet_choose_tile(p, &q, &plain) == SERVET_OK, "1000^2 without the store walk");
    p->memory->store_pages = 32.0;
    p->memory->store_miss_ns = 0.14;
    CHECK(servet_choose_tile(p, &q, &walked) == SERVET_OK && !walked.untiled && walked.tile[0] <= 32 &&
              plain.tile[0] > 32,
          "1000^2 doubles: %lld without the walk, %lld with it (32 rows at pace)", (long long)plain.tile[0],
          (long long)walked.tile[0]);
    p->memory->store_pages = 0.0;
    p->memory->store_miss_ns = 0.0;
    stencil2d_desc(&q, 4000, 2, "IN", "OUT");
    q.square = 1;
    CHECK(servet_choose_tile(p, &q, &plain) == SERVET_OK, "4000^2 stencil without the store walk");
    p->memory->store_pages = 32.0;
    p->memory->store_miss_ns = 0.14;
    CHECK(servet_choose_tile(p, &q, &walked) == SERVET_OK && walked.tile[0] == plain.tile[0] &&
              walked.predicted_ns == plain.predicted_ns,
          "the stencil (OUT along its rows): the same tile and price with the walk (%lld)", (long long)walked.tile[0]);
    free(p->memory);
    p->memory = NULL;
    drop(p);
}
/* step 6e: a column walk of elements a line or more long whose rows crowd
   one set of L1 keeps no more misses in flight than its ways: B = A^T of
   64-byte elements at 512^2 (rows 32 KiB apart, one set) ran untiled at
   0.31 of 128 x 8 on the Zen 5 VM, which the model took; rows spread over
   the sets (ld 513) stream untiled as fast as any tile */
static void test_tile_crowded_walk(void) {
    servet_tile_desc q;
    servet_profile *p = two_core_profile(1);
    servet_tile t;
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 35e9;
    p->memory->interleave = 35e9 / 2.0;
    transpose_desc(&q, 512);
    q.elem_bytes = 64;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] < 12,
          "64-byte elements, B's rows in one set: a tile under L1's 12 ways across B's rows (%lld x %lld)",
          (long long)t.tile[0], (long long)t.tile[1]);
    q.elem_bytes = 128;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] < 12,
          "128-byte elements: the same (%lld x %lld)", (long long)t.tile[0], (long long)t.tile[1]);
    q.elem_bytes = 64;
    q.arrays[1].dims[1] = 513;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && (t.untiled || t.tile[1] >= 12),
          "B's rows padded to 513 elements (every set): no cap, more rows than the ways (%lld x %lld)",
          (long long)t.tile[0], (long long)t.tile[1]);
    free(p->memory);
    p->memory = NULL;
    drop(p);
}
/* A profile as a machine's probe left it: tests/data/zen5_vm_2026-12-05.prof
   is the cache file of the Zen 5 KVM VM of 2026-12-05 (session 79; L1 48
   KiB, L2 1 MiB, L3 3.45 MiB measured, TLB steps, memory probe), read as
   tools/tile_replay.c reads a run's (tools/recorded_profile.h), against
   the fingerprint it carries. NULL where it cannot be read (a format the
   file predates: record anew) */
static servet_profile *recorded_profile(const char *file) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/%s", file);
    return recorded_profile_read(path, NULL);
}
/* On the recorded Zen 5 VM profile (where the synthetic one cannot show
   them): the search - where the squares choose no tile, a tile that must
   cut two loops at once is reached from the smallest square (AoS -> SoA,
   OUT[f][i] = IN[i][f] over 4M x 16 doubles, OUT's 16 rows 32 MB apart in
   one L1 set: untiled thrashes it, i alone cannot help, f alone reads IN
   twice; the synthetic profile's search finds it from its squares'
   valleys) - and step 6e over the window's rows (the 3D transpose) */
static void test_tile_on_recorded_profile(void) {
    servet_tile_desc q;
    servet_profile *p = recorded_profile("zen5_vm_2026-12-05.prof");
    servet_tile t;
    CHECK(p != NULL, "tests/data/zen5_vm_2026-12-05.prof: read as a cache file (run from the repository root)");
    if (!p) return;
    loops(&q, 2, 4194304);
    q.loops[1].extent = 16;
    q.narrays = 2;
    array2(&q.arrays[0], "IN", 0, 1);
    array2(&q.arrays[1], "OUT", 1, 0);
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[0] < 4194304 && t.tile[1] < 16,
          "AoS -> SoA 4M x 16, OUT's rows in one set: both loops cut (%lld x %lld)", (long long)t.tile[0],
          (long long)t.tile[1]);
    /* step 6f: 8 fields a pass read one of IN's two lines a row, every other line, no stream (the kernel ran
       92 ms at 4096 x 8, 57-60 at 4096 x 12); the search reaches 12 from the set cap's square */
    CHECK(t.tile[1] > 8 && t.tile[1] <= 12,
          "AoS -> SoA 4M x 16: an f tile past one of IN's two lines a row, within the 12 ways (%lld x %lld)",
          (long long)t.tile[0], (long long)t.tile[1]);
    /* the sets count a full tile, not the mean over a remainder: at F 24 a tile of 16 is 16 + 8 fields, a mean
       of 12, yet its full tiles put 16 of OUT's rows in the 12 ways (2048 x 16 ran 0.41-0.52 of the best, 2048 x
       12 0.71-1.00) */
    q.loops[1].extent = 24;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] <= 12,
          "AoS -> SoA 4M x 24: f tiles within the 12 ways, full tiles counted (%lld x %lld)", (long long)t.tile[0],
          (long long)t.tile[1]);
    /* a gapped piece restarts on one demand miss, not the stream's two: with two, F 40's four passes of 12 (2 of
       IN's 5 lines each) cost more than three of 16 over the ways (2048 x 16 ran 0.50-0.53 of the best, 12 0.83-0.87) */
    q.loops[0].extent = 2097152;
    q.loops[1].extent = 40;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] <= 12,
          "AoS -> SoA 2M x 40: f tiles within the 12 ways (%lld x %lld)", (long long)t.tile[0], (long long)t.tile[1]);
    /* step 4's sweep: IN's lines pass OUT's set one at a time, and a full set of 12 rows loses one of them each
       time (over 48 lines at F 16-48, 12 ran a median 0.90 of the best of 10-12, 11 0.97) */
    CHECK(t.tile[1] <= 11, "AoS -> SoA 2M x 40: a way left for IN's lines (%lld x %lld)", (long long)t.tile[0],
          (long long)t.tile[1]);
    q.loops[1].extent = 44;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] <= 11,
          "AoS -> SoA 2M x 44 (12 + 12 + 12 + 8, a mean of 11): a way left in the full tiles (%lld x %lld)",
          (long long)t.tile[0], (long long)t.tile[1]);
    q.loops[0].extent = 4194304;
    q.loops[1].extent = 16;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] > 8 && t.tile[1] <= 11,
          "AoS -> SoA 4M x 16: a way left for IN's lines (%lld x %lld)", (long long)t.tile[0], (long long)t.tile[1]);
    q.arrays[1].dims[1] = 4194312;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[1] == 16,
          "OUT's rows spread (ld 4194312): f whole (%lld x %lld)", (long long)t.tile[0], (long long)t.tile[1]);
    /* step 6e on the same profile: 64-byte elements down B's column, rows in one set */
    transpose_desc(&q, 512);
    q.elem_bytes = 64;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] < 12,
          "recorded profile, 64-byte transpose 512^2: under the 12 ways (%lld x %lld)", (long long)t.tile[0],
          (long long)t.tile[1]);
    /* and its 3D form: B's j rows (4 KiB apart at 64^3) pile into the set of its k planes, within the window */
    transpose3d_desc(&q, 64);
    q.elem_bytes = 64;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] * t.tile[2] < 12,
          "recorded profile, 64-byte 3D transpose 64^3: j x k rows under the 12 ways (%lld x %lld x %lld)",
          (long long)t.tile[0], (long long)t.tile[1], (long long)t.tile[2]);
    drop(p);
}
/* A loop contiguous only in a 1-D array of the innermost loop alone (y2 of
   mvt's x2[i] += A[j][i] y2[j]) is not held to whole lines: the tile keeps
   that vector while the other loops run (servet__tile_contiguous_in) */
static void test_tile_kept_vector_lines(void) {
    servet_tile_desc q;
    colsum_desc(&q, 4000); /* x2[i] += A[j][i]: the column sum's nest, and y2[j] with it */
    q.narrays = 3;
    array2(&q.arrays[2], "y2", 1, 1); q.arrays[2].nloops = 1;
    CHECK(!servet__tile_contiguous_in(&q, 1), "mvt: j contiguous only in the kept vector y2: no whole lines asked");
    CHECK(servet__tile_contiguous_in(&q, 0), "mvt: i contiguous in A, which the innermost loop touches: whole lines");
    q.arrays[0].loops[0] = 0;
    q.arrays[0].loops[1] = 1;
    CHECK(servet__tile_contiguous_in(&q, 1), "y = A x (A[i][j]): j contiguous in A, walked by j: whole lines");
    q.nloops = 1;
    q.narrays = 1;
    q.arrays[0] = q.arrays[2];
    q.arrays[0].loops[0] = 0;
    CHECK(servet__tile_contiguous_in(&q, 0), "a nest of one loop over a vector: whole lines (nothing else keeps it)");
}
static void test_tile_one_nest(void) {
    servet_tile_desc q, f;
    servet_profile *p = two_core_profile(1);
    servet_tile t2, t4;
    int from[SERVET_TILE_MAX_LOOPS], parts, l;
    for (parts = 1; parts <= 4; parts *= 2) {
        transpose_desc(&q, 1024);
        q.elem_bytes = 8 * parts;
        CHECK(servet_choose_tile(p, &q, &t2) == SERVET_OK, "2D, elements of %d bytes", 8 * parts);
        permute_desc(&q, 1, 1024, parts);
        CHECK(servet__tile_canon(&q, &f, from) && f.nloops == 2 && f.elem_bytes == 8 * parts && from[0] == 1 && from[1] == 2 &&
                  f.arrays[0].nloops == 2 && f.arrays[1].loops[0] == 1 && f.arrays[1].loops[1] == 0,
              "a of 1 dropped, d of %d folded: b, c over %d-byte elements (%d loops, %d bytes)", parts, 8 * parts, f.nloops,
              f.elem_bytes);
        CHECK(servet_choose_tile(p, &q, &t4) == SERVET_OK && t4.tile[0] == 1 && t4.tile[1] == t2.tile[0] &&
                  t4.tile[2] == t2.tile[1] && t4.tile[3] == parts,
              "4D with d of %d: the 2D tile %lld x %lld (got %lld x %lld x %lld x %lld)", parts, (long long)t2.tile[0],
              (long long)t2.tile[1], (long long)t4.tile[0], (long long)t4.tile[1], (long long)t4.tile[2],
              (long long)t4.tile[3]);
    }
    /* not folded (d stays the last loop, the element 8 bytes; the batch loop a of 2 may go): d padded (B's rows of 4
       parts allocated 5 apart), d tiled and longer than a line, a halo along d, a sum along it; not dropped: an array
       over the extent-1 loop alone */
    permute_desc(&q, 2, 512, 4);
    q.arrays[1].dims[3] = 5;
    CHECK(!servet__tile_canon(&q, &f, from) || (f.elem_bytes == 8 && from[f.nloops - 1] == 3), "d padded in B: not folded");
    permute_desc(&q, 2, 512, 16);
    q.loops[3].untiled = 0;
    CHECK(!servet__tile_canon(&q, &f, from) || (f.elem_bytes == 8 && from[f.nloops - 1] == 3), "d of 16 doubles, tileable: not folded");
    q.loops[3].untiled = 1;
    q.arrays[0].halo = 1;
    CHECK(!servet__tile_canon(&q, &f, from) || (f.elem_bytes == 8 && from[f.nloops - 1] == 3), "a halo along d: not folded");
    q.arrays[0].halo = 0;
    q.arrays[1].reduce = 1;
    CHECK(!servet__tile_canon(&q, &f, from) || (f.elem_bytes == 8 && from[f.nloops - 1] == 3), "a sum along d: not folded");
    transpose_desc(&q, 64);
    q.loops[0].extent = 1;
    q.narrays = 3;
    memset(&q.arrays[2], 0, sizeof q.arrays[2]);
    q.arrays[2].nloops = 1;
    q.arrays[2].loops[0] = 0;
    CHECK(!servet__tile_canon(&q, &f, from), "an array over the extent-1 loop alone: kept");
    /* (c) time steps: an outer untiled loop no array indexes repeats the nest (a 2D 5-point sweep of 2000^2: the
       2n-loop nest ran its 10 steps inside each tile, as a temporal blocking, and took 2 x 1000) */
    {
        servet_tile_desc s2, s3;
        stencil2d_desc(&s2, 2000, 1, "U", "V");
        s2.arrays[1].output = 1;
        s3 = s2;
        s3.nloops = 3;
        s3.loops[0].name = "t"; s3.loops[0].extent = 10; s3.loops[0].untiled = 1;
        for (l = 1; l < 3; l++) s3.loops[l] = s2.loops[l - 1];
        for (l = 0; l < 2; l++) { s3.arrays[l].loops[0] = 1; s3.arrays[l].loops[1] = 2; }
        CHECK(servet__tile_canon(&s3, &f, from) && f.nloops == 2 && from[0] == 1 && from[1] == 2 && f.arrays[0].loops[0] == 0 &&
                  f.arrays[1].loops[1] == 1,
              "time loop dropped: i, j over U and V (%d loops)", f.nloops);
        CHECK(servet_choose_tile(p, &s2, &t2) == SERVET_OK && servet_choose_tile(p, &s3, &t4) == SERVET_OK && t4.tile[0] == 10 &&
                  t4.tile[1] == t2.tile[0] && t4.tile[2] == t2.tile[1],
              "10 sweeps get one sweep's tile %lld x %lld (got %lld x %lld x %lld)", (long long)t2.tile[0],
              (long long)t2.tile[1], (long long)t4.tile[0], (long long)t4.tile[1], (long long)t4.tile[2]);
        s3.loops[0].untiled = 0;
        CHECK(!servet__tile_canon(&s3, &f, from), "a time loop the kernel tiles (temporal blocking): kept");
        {
            int w, said = 0;
            CHECK(servet_choose_tile(p, &s3, &t4) == SERVET_OK, "a tileable time loop: decided");
            for (w = 0; w < t4.nwarnings; w++) said |= strstr(t4.warnings[w], "t indexes no array") != NULL;
            CHECK(said, "a tileable time loop: the warning asks whether it is time steps (%d warnings)", t4.nwarnings);
        }
        s3.loops[0].untiled = 1;
        s3.arrays[1].nloops = 3;
        s3.arrays[1].loops[0] = 0; s3.arrays[1].loops[1] = 1; s3.arrays[1].loops[2] = 2;
        CHECK(!servet__tile_canon(&s3, &f, from), "an untiled outer loop an array is indexed by: kept");
    }
    /* (c) a batch: an outer untiled loop over problems that share no line (every array, a slice apart) */
    {
        servet_tile_desc b3;
        transpose_desc(&q, 2048);
        CHECK(servet_choose_tile(p, &q, &t2) == SERVET_OK, "one 2048^2 transpose");
        memset(&b3, 0, sizeof b3);
        b3.nloops = 3;
        b3.elem_bytes = 8;
        b3.loops[0].name = "a"; b3.loops[0].extent = 4; b3.loops[0].untiled = 1;
        b3.loops[1] = q.loops[0];
        b3.loops[2] = q.loops[1];
        b3.narrays = 2;
        for (l = 0; l < 2; l++) {
            b3.arrays[l].nloops = 3;
            b3.arrays[l].loops[0] = 0; b3.arrays[l].loops[1] = l ? 2 : 1; b3.arrays[l].loops[2] = l ? 1 : 2;
        }
        CHECK(servet__tile_canon(&b3, &f, from) && f.nloops == 2 && from[0] == 1 && f.arrays[1].loops[0] == 1,
              "a batch of 4 transposes: the batch loop dropped (%d loops)", f.nloops);
        CHECK(servet_choose_tile(p, &b3, &t4) == SERVET_OK && t4.tile[0] == 4 && t4.tile[1] == t2.tile[0] &&
                  t4.tile[2] == t2.tile[1],
              "4 transposes get one's tile %lld x %lld (got %lld x %lld x %lld)", (long long)t2.tile[0], (long long)t2.tile[1],
              (long long)t4.tile[0], (long long)t4.tile[1], (long long)t4.tile[2]);
        b3.arrays[0].halo = 1;
        CHECK(!servet__tile_canon(&b3, &f, from), "a halo shares lines between the slices: kept");
        b3.arrays[0].halo = 0;
        transpose3d_desc(&b3, 64);
        b3.loops[0].untiled = 1;
        CHECK(!servet__tile_canon(&b3, &f, from), "i of B[k][j][i] = A[i][j][k] is B's contiguous loop: kept");
    }
    /* the tiles of loops the canonical nest lacks are their extents, in alternatives and levels too */
    permute_desc(&q, 1, 2048, 2);
    q.all_levels = 1;
    CHECK(servet_choose_tile(p, &q, &t4) == SERVET_OK && t4.nlevels > 0, "4D, every level");
    for (l = 0; l < t4.nlevels; l++)
        CHECK(t4.levels[l].tile[0] == 1 && t4.levels[l].tile[3] == 2 && t4.levels[l].tile[1] > 0 && t4.levels[l].tile[2] > 0,
              "level %d: a 1, d 2 (%lld, %lld)", t4.levels[l].level, (long long)t4.levels[l].tile[0], (long long)t4.levels[l].tile[3]);
    for (l = 0; l < t4.nalternatives; l++)
        CHECK(t4.alternatives[l][0] == 1 && t4.alternatives[l][3] == 2, "alternative %d: a 1, d 2", l);
    drop(p);
}
/* a vectorised sum (reduce = its lanes: gcc -O3 -ffast-math keeps one vector
   of 8 doubles with AVX-512) is that many chains of the innermost tile /
   lanes, side by side; their share adds to the work (SERVET__TILE_CHAIN_NS
   a lane); more lanes, longer k tiles. C = A B^T, 1024^3 (B over j,k). */
static void test_tile_reduce_lanes(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    int64_t T[3] = {64, 8, 128}, Tshort[3] = {64, 8, 4};
    double plain, one, eight, expected = 1024.0 * 1024.0 * 1024.0 / 8.0 * SERVET__TILE_CHAIN_NS * 16.0 / (16.0 + SERVET__TILE_CHAIN_WINDOW);
    int lanes;
    nt_desc(&q, 1024, 8);
    q.arrays[2].reduce = 8;
    three_level_model(&Q, &q);
    CHECK(servet__tile_chain_of(&Q, T, &lanes, NULL) == 16.0 && lanes == 8 && servet__tile_chain(&Q, Tshort) == 1.0,
          "8 lanes: chains of 128 / 8 = %g adds (lanes %d), and of 1 where the k tile (4) is under the lanes: %g",
          servet__tile_chain(&Q, T), lanes, servet__tile_chain(&Q, Tshort));
    CHECK(!servet__tile_chain_holds(&Q, T), "a vectorised sum's chains do not hold the window");
    eight = servet__tile_cost_priced(&Q, T);
    q.arrays[2].reduce = 0;
    three_level_model(&Q, &q);
    plain = servet__tile_cost_priced(&Q, T);
    q.arrays[2].reduce = 1;
    three_level_model(&Q, &q);
    one = servet__tile_cost_priced(&Q, T);
    CHECK(servet__tile_chain_holds(&Q, T), "one lane: the chain holds the window");
    /* 2^30 / 8 chain steps at 0.5 ns x 16 / 48: 22.4 ms over the chain-free price, and under one lane's */
    CHECK(eight - plain >= 0.99 * expected && eight - plain <= 1.5 * expected && eight < one,
          "8 lanes add %.4g ns to the chain-free price (expected %.4g at least); one lane: %.4g over it", eight - plain,
          expected, one - plain);
    {
        servet_profile *p = two_core_profile(1);
        servet_tile t1, t8, t32;
        q.arrays[2].reduce = 1;
        CHECK(servet_choose_tile(p, &q, &t1) == SERVET_OK, "one lane: decided");
        q.arrays[2].reduce = 8;
        CHECK(servet_choose_tile(p, &q, &t8) == SERVET_OK && strstr(t8.reason, "the sum into C: 8 lanes, chains of"),
              "8 lanes: decided, the reason says so (\"%s\")", t8.reason);
        q.arrays[2].reduce = 32;
        CHECK(servet_choose_tile(p, &q, &t32) == SERVET_OK, "32 lanes: decided");
        CHECK(t1.tile[2] <= t8.tile[2] && t8.tile[2] <= t32.tile[2] && t8.tile[2] / 8 <= 64,
              "more lanes, k tiles as long or longer: %lld (1 lane), %lld (8), %lld (32)", (long long)t1.tile[2],
              (long long)t8.tile[2], (long long)t32.tile[2]);
        drop(p);
    }
}
/* a vectorised innermost loop (desc: vector, >>decide step 6d): the work an
   iteration over the lanes, a run at SERVET__TILE_VECTOR_RUN_NS. The packed
   matmul of examples/ (128 x 2000 x 2000) built with gcc -O3 ran 72 at 0.64
   and 256 at 0.98 of the best measured (288), -O2 72 at 0.98: told its
   lanes the tile is longer and the prediction lower; with a reduce array
   the lanes are the reduce's and vector is not used */
static void test_tile_vector(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc q;
    servet__tmodel Q;
    servet_tile scalar, vec, told, untold;
    int64_t T[3] = {128, 72, 72};
    double plain, eight;
    loops(&q, 3, 2000);
    q.loops[0].extent = 128;
    q.narrays = 3;
    array2(&q.arrays[0], "A", 0, 1); q.arrays[0].packed = 1;
    array2(&q.arrays[1], "B", 1, 2); q.arrays[1].packed = 1;
    array2(&q.arrays[2], "C", 0, 2);
    q.square = 1;
    three_level_model(&Q, &q);
    plain = servet__tile_cost_priced(&Q, T);
    q.vector = 8;
    three_level_model(&Q, &q);
    eight = servet__tile_cost_priced(&Q, T);
    /* 128 x 2000 x 2000 points at 0.125 ns: 64 ms of work, 56 ms saved at 8
       lanes; 128 x 2000 x 28 runs at 8 - 2 ns more: 43 ms dearer */
    CHECK(eight != plain && servet__tile_work_ns(&q) == SERVET__TILE_WORK_NS / 8.0 &&
              servet__tile_run_ns(&q) == SERVET__TILE_VECTOR_RUN_NS,
          "8 lanes: the work %.4g ns an iteration, a run %.3g ns; the price moves (%.4g -> %.4g ns)",
          servet__tile_work_ns(&q), servet__tile_run_ns(&q), plain, eight);
    q.vector = 0;
    CHECK(servet_choose_tile(p, &q, &scalar) == SERVET_OK, "scalar: decided");
    q.vector = 8;
    CHECK(servet_choose_tile(p, &q, &vec) == SERVET_OK && strstr(vec.reason, "the innermost loop vectorised, 8 lanes"),
          "8 lanes: decided, the reason says so (\"%s\")", vec.reason);
    CHECK(vec.tile[2] > scalar.tile[2] && vec.predicted_ns < scalar.predicted_ns,
          "8 lanes: longer rows (%lld against %lld), predicted faster (%.4g against %.4g ns)",
          (long long)vec.tile[2], (long long)scalar.tile[2], vec.predicted_ns, scalar.predicted_ns);
    q.vector = 1;
    CHECK(servet_choose_tile(p, &q, &vec) == SERVET_OK && vec.tile[2] == scalar.tile[2] &&
              vec.predicted_ns == scalar.predicted_ns && !strstr(vec.reason, "vectorised"),
          "1 lane: the scalar answer (%lld, %.4g ns)", (long long)vec.tile[2], vec.predicted_ns);
    /* a reduce says its own lanes: vector is not used */
    nt_desc(&q, 1024, 8);
    q.arrays[2].reduce = 8;
    CHECK(servet_choose_tile(p, &q, &untold) == SERVET_OK, "C = A B^T, reduce=8: decided");
    q.vector = 8;
    CHECK(servet_choose_tile(p, &q, &told) == SERVET_OK && servet__tile_vector(&q) == 1 &&
              told.predicted_ns == untold.predicted_ns && !memcmp(told.tile, untold.tile, sizeof told.tile) &&
              !strstr(told.reason, "vectorised"),
          "reduce=8 and vector 8: the reduce's answer (%.4g against %.4g ns)", told.predicted_ns, untold.predicted_ns);
    drop(p);
}
/* a sum kept in a register is touched once a run of the innermost loop:
   its contiguous loop gets tiles under a line (C = A B^T in floats: 112 x
   8 x 256 ran 0.042 s, 112 x 16 x 256 0.048, 16 of B's rows in 16 sets of
   the 12-way L1), and an array that moves under a tenth of L1's lines
   pays no margin for split lines (SERVET__TILE_SPLIT_SHARE) */
static void test_tile_reduce_split_lines(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    int64_t half[3] = {112, 8, 256}, whole[3] = {112, 16, 256};
    double without;
    nt_desc(&q, 1024, 4);
    three_level_model(&Q, &q);
    /* C's rows run along j, but k, the innermost loop, keeps one element
       of them a run, summed in a register or not: no contiguous loop (until
       2026-12-06 only a register sum's was not) */
    CHECK(!servet__tile_contiguous(&Q, 1) && servet__tile_contiguous(&Q, 2),
          "C = A B^T, C not reduced: j is no contiguous loop, k (A's, B's rows) is");
    {
        /* an i,k,j matmul's A[i][k]: one element a run of j, so k gets tiles
           under a line; B's and C's rows, walked by j, keep j's */
        servet_tile_desc m;
        servet__tmodel R;
        matmul_desc(&m, 2048, 0);
        m.elem_bytes = 4;
        three_level_model(&R, &m);
        CHECK(!servet__tile_contiguous(&R, 1) && servet__tile_contiguous(&R, 2),
              "i,k,j matmul: k (A's rows, one element a run of j) no contiguous loop, j (B's, C's) one");
        /* on the recorded Zen 5 profile, vectorised (zmm): k under a line,
           B's k rows 8 KiB apart in one L1 set (measured there: 256 x 8 x
           688 0.382 s, the best of 125 tiles; 256 x 16 x 688 0.457) */
        {
            servet_profile *rec = recorded_profile("zen5_vm_2026-12-05.prof");
            servet_tile t;
            m.vector = 16;
            if (rec) {
                CHECK(servet_choose_tile(rec, &m, &t) == SERVET_OK && t.tile[1] < 16,
                      "recorded profile, i,k,j floats 2048^3 vectorised: k under 16 (%lld x %lld x %lld)", (long long)t.tile[0],
                      (long long)t.tile[1], (long long)t.tile[2]);
                drop(rec);
            }
        }
    }
    q.arrays[2].reduce = 16;
    three_level_model(&Q, &q);
    CHECK(!servet__tile_contiguous(&Q, 1) && servet__tile_contiguous(&Q, 2),
          "C a sum in a register: j is no contiguous loop, k (A's, B's rows) still is");
    without = servet__tile_cost_priced(&Q, half);
    CHECK(without < servet__tile_cost_priced(&Q, whole),
          "floats, 8 of j (half a line of C): cheaper than 16 (%.4g against %.4g ns)", without,
          servet__tile_cost_priced(&Q, whole));
    /* the decision reaches it: a j tile under a line of C (16 floats) */
    {
        servet_profile *p = two_core_profile(1);
        servet_tile t;
        CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[1] < 16,
              "C = A B^T floats 1024, C reduced in 16 lanes: %lld x %lld x %lld (j under a line)", (long long)t.tile[0],
              (long long)t.tile[1], (long long)t.tile[2]);
        drop(p);
    }
}
/* the reduce hint asks about the array the nest writes, not an input the
   innermost loop leaves in a register: A of an i,k,j matmul, a
   convolution's IN (its kx counted as halo) */
static int hint_names(const servet_tile *t, const char *name) {
    char head[64];
    int l, named = 0;
    snprintf(head, sizeof head, "%s is not indexed by the innermost loop", name);
    for (l = 0; l < t->nwarnings; l++) named |= strstr(t->warnings[l], head) && strstr(t->warnings[l], "mark it reduce");
    return named;
}
static void test_tile_reduce_hint_names_output(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc q;
    servet_tile t;
    /* i,k,j: C is indexed by j; A is the input kept in a register */
    matmul_desc(&q, 1000, 0);
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !hint_names(&t, "A") && !hint_names(&t, "C"),
          "i,k,j matmul, nothing marked: no reduce hint (%d warnings)", t.nwarnings);
    q.arrays[2].output = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !hint_names(&t, "A"), "i,k,j matmul, C marked: A not named");
    /* i,j,k: the last listed, C, is the sum - asked with or without the mark */
    matmul_desc(&q, 1000, 1);
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && hint_names(&t, "C") && !hint_names(&t, "A"),
          "i,j,k matmul, nothing marked: C named, A not");
    /* OUT[y][x] += IN[y+ky][x+kx] * W[ky][kx], loops y, x, ky, kx, OUT marked */
    memset(&q, 0, sizeof q);
    q.nloops = 4;
    q.loops[0].name = "y"; q.loops[0].extent = 2048;
    q.loops[1].name = "x"; q.loops[1].extent = 2048;
    q.loops[2].name = "ky"; q.loops[2].extent = 5;
    q.loops[3].name = "kx"; q.loops[3].extent = 5;
    q.elem_bytes = 4;
    q.narrays = 3;
    array2(&q.arrays[0], "IN", 0, 1);
    q.arrays[0].halo = 2;
    array2(&q.arrays[1], "W", 2, 3);
    array2(&q.arrays[2], "OUT", 0, 1);
    q.arrays[2].output = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && hint_names(&t, "OUT") && !hint_names(&t, "IN"),
          "convolution: OUT named, IN not (%d warnings)", t.nwarnings);
    /* marked an input: never named, even last */
    q.arrays[2].output = -1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !hint_names(&t, "OUT") && !hint_names(&t, "IN"),
          "convolution, OUT marked an input: nothing named");
    /* C = A B^T at 1024^3: A's, B's and C's rows in one L1 set and the
       TLB's fill four warnings; the hint comes first (it moves the answer
       by up to 1.5x, step 6b) */
    nt_desc(&q, 1024, 8);
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.nwarnings == SERVET_TILE_MAX_WARNINGS && hint_names(&t, "C"),
          "C = A B^T 1024, the list full (%d warnings): C still named", t.nwarnings);
    drop(p);
}
/* in a chain-bound nest the chain holds the core's window: a row cut by
   the tile pays its first miss out of memory whole (SERVET__TILE_CHAIN_
   EXPOSED), and a row walked whole is one stream across its pages. On the
   Zen 5 VM y = A x at 16000^2 (y reduced) ran 0.148 s untiled, 0.243 at
   1456 x 504, 0.280 at 2344 x 96, 0.41 at 2344 x 24; priced as overlapped
   restarts, 1456 x 504 looked 3% cheaper than untiled */
static void test_tile_reduce_rows_whole(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    static const int64_t tiles[][2] = {{1456, 504}, {2344, 96}, {2344, 24}, {512, 128}};
    int64_t U[2] = {16000, 16000};
    double whole;
    int t;
    loops(&q, 2, 16000);
    q.narrays = 3;
    array2(&q.arrays[0], "A", 0, 1);
    array2(&q.arrays[1], "X", 1, 1); q.arrays[1].nloops = 1;
    array2(&q.arrays[2], "Y", 0, 0); q.arrays[2].nloops = 1; q.arrays[2].reduce = 1;
    three_level_model(&Q, &q);
    whole = servet__tile_cost_priced(&Q, U);
    for (t = 0; t < 4; t++) {
        double c = servet__tile_cost_priced(&Q, tiles[t]);
        CHECK(c > whole * 1.1, "y = A x 16000, y reduced: %lld x %lld costs %.3g, more than untiled (%.3g) by 10%%",
              (long long)tiles[t][0], (long long)tiles[t][1], c, whole);
    }
}
/* the last TLB's sets (>>decide step 5): pages whose rows repeat at a
   power-of-two multiple of 4 KiB fall into a share of its sets. On the Zen 5
   VM a walk over pages 8 apart missed past 512 of them where one over
   consecutive pages held 4096 (bench_data/tlb_sets_zen5_2026-12-01.txt) */
static void test_tile_tlb_crowding(void) {
    servet_tile_desc d;
    servet__tmodel M;
    servet__tcache C;
    double cover[SERVET_TILE_MAX_LOOPS] = {512, 12}, stride = -1, piece = -1, pages;
    double crowded[SERVET_TILE_MAX_ARRAYS], plain[SERVET_TILE_MAX_ARRAYS];
    int64_t T[2];
    transpose_desc(&d, 4096);
    tile_model(&M, &d);
    /* A over 512 rows x 12: 512 pieces of 96 bytes, rows 8 pages apart */
    pages = servet__tile_pages(&M, 0, cover, &stride, &piece);
    CHECK(fabs(pages - 512.0 * (1.0 + 88.0 / 4096.0)) < 1e-9 && stride == 8.0 && fabs(piece - (1.0 + 88.0 / 4096.0)) < 1e-9,
          "4096 transpose, A over 512 x 12: %.5g pages (523), pieces 8 pages apart (%g), %.4g pages each (1.021)", pages, stride, piece);
    /* whole rows are one piece: no stride */
    cover[1] = 4096;
    servet__tile_pages(&M, 0, cover, &stride, &piece);
    CHECK(stride == 0.0, "A over 512 whole rows: one piece, no stride (%g)", stride);
    /* the transpose 4000: rows 32000 bytes apart, not whole pages */
    transpose_desc(&d, 4000);
    tile_model(&M, &d);
    cover[1] = 12;
    servet__tile_pages(&M, 0, cover, &stride, &piece);
    CHECK(stride == 0.0, "4000 transpose: rows 32000 bytes apart, no page stride (%g)", stride);
    /* the crowding: 16 ways taken, 256 sets for a reach of 4096 pages */
    servet__tile_tlb_level(&C, 1, 4096.0 * 4096.0, NULL, 1);
    CHECK(C.tlb_sets == 256, "a 16 MiB reach: 256 sets of 16 (%d)", C.tlb_sets);
    CHECK(servet__tile_tlb_crowding(&C, 8.0, 1.02) == 8.0, "8 pages apart, one-page pieces: 8 entries a page (%g)",
          servet__tile_tlb_crowding(&C, 8.0, 1.02));
    CHECK(servet__tile_tlb_crowding(&C, 8.0, 2.0) == 4.0, "two-page pieces: 4 (%g)", servet__tile_tlb_crowding(&C, 8.0, 2.0));
    CHECK(servet__tile_tlb_crowding(&C, 24.0, 1.0) == 8.0, "24 pages apart: gcd 8 (%g)", servet__tile_tlb_crowding(&C, 24.0, 1.0));
    CHECK(servet__tile_tlb_crowding(&C, 7.0, 1.0) == 1.0, "7 pages apart: every set (%g)", servet__tile_tlb_crowding(&C, 7.0, 1.0));
    CHECK(servet__tile_tlb_crowding(&C, 1024.0, 1.0) == 256.0, "1024 pages apart: one set (%g)", servet__tile_tlb_crowding(&C, 1024.0, 1.0));
    CHECK(servet__tile_tlb_crowding(&C, 8.0, 9.0) == 1.0, "pieces longer than the stride's share: every set (%g)",
          servet__tile_tlb_crowding(&C, 8.0, 9.0));
    C.tlb_walk = 0;
    CHECK(servet__tile_tlb_crowding(&C, 8.0, 1.0) == 1.0, "the first TLB (fully associative here): not crowded (%g)",
          servet__tile_tlb_crowding(&C, 8.0, 1.0));
    /* in the traffic: a 4096 transpose tiled 1024 x 12 keeps A's 1024 pages
       between tile columns only without the crowding (1024 x 8 > 3686
       usable); 256 x 12 keeps them either way */
    transpose_desc(&d, 4096);
    tile_model(&M, &d);
    servet__tile_tlb_level(&M.c[1], 1, 4096.0 * 4096.0, NULL, 1);
    M.nc = 2;
    T[0] = 1024; T[1] = 12;
    servet__tile_traffic(&M, &M.c[1], T, NULL, NULL, crowded, NULL, NULL);
    C = M.c[1];
    C.tlb_sets = 1;
    servet__tile_traffic(&M, &C, T, NULL, NULL, plain, NULL, NULL);
    CHECK(crowded[0] > 10.0 * plain[0], "1024 x 12: A's pages walked again each tile column (%.4g walks, %.4g without the sets)",
          crowded[0], plain[0]);
    T[0] = 256;
    servet__tile_traffic(&M, &M.c[1], T, NULL, NULL, crowded, NULL, NULL);
    servet__tile_traffic(&M, &C, T, NULL, NULL, plain, NULL, NULL);
    CHECK(fabs(crowded[0] - plain[0]) < 1e-6 * plain[0], "256 x 12: A's 256 x 8 entries fit (%.4g walks, %.4g without the sets)",
          crowded[0], plain[0]);
    /* a crowded footprint keeps 0.75 of the reach, not the 0.9 of consecutive
       pages (SERVET__TILE_TLB_CROWDED): A's 448 x 8 entries and B's 12 x 8
       (3680) fit 0.9 x 4096 pages but not 0.75 x 4096 (3072) */
    T[0] = 448;
    servet__tile_traffic(&M, &M.c[1], T, NULL, NULL, crowded, NULL, NULL);
    servet__tile_traffic(&M, &C, T, NULL, NULL, plain, NULL, NULL);
    CHECK(crowded[0] > 10.0 * plain[0], "448 x 12: A's 448 x 8 entries over 0.75 of the reach (%.4g walks, %.4g without the sets)",
          crowded[0], plain[0]);
    T[0] = 368; /* 368 x 8 + 12 x 8 = 3040 */
    servet__tile_traffic(&M, &M.c[1], T, NULL, NULL, crowded, NULL, NULL);
    servet__tile_traffic(&M, &C, T, NULL, NULL, plain, NULL, NULL);
    CHECK(fabs(crowded[0] - plain[0]) < 1e-6 * plain[0], "368 x 12: A's 368 x 8 entries under it (%.4g walks, %.4g without the sets)",
          crowded[0], plain[0]);
}
/* a physically indexed level's page-offset "sets" (>>decide step 4): the
   lines it loses at one offset queue, at the whole step, only for an array
   the innermost loop walks across its rows - a transpose's B, one line a
   row - and come back through the prefetchers, overlapped, for one walked
   along them: B's rows of an i,k,j matmul's 256^3 tile, 16 KiB apart, all
   at one offset of the L2 (on the Zen 5 VM the --square 2048^3 pick went
   128^3 -> 232^3, 1252 -> 1143 ms; 256^3 1156) */
static void test_tile_offset_conflicts_along_rows(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    double ld[SERVET_TILE_MAX_ARRAYS], cf[SERVET_TILE_MAX_ARRAYS];
    int64_t T[3] = {256, 256, 256};
    matmul_desc(&q, 2048, 0);
    three_level_model(&Q, &q);
    servet__tile_traffic(&Q, &Q.c[1], T, NULL, NULL, ld, cf, NULL);
    CHECK(ld[1] > 256.0 * 2048.0 / 8.0 * 1.01, "i,k,j matmul 2048, 256^3: B's lines out of the L2 (%.4g) more than its compulsory %.4g: its offset overflows",
          ld[1], 256.0 * 2048.0 / 8.0);
    CHECK(cf[0] == 0.0 && cf[1] == 0.0 && cf[2] == 0.0, "i,k,j matmul 2048, 256^3: no queued conflicts at the L2 (A %.4g, B %.4g, C %.4g): j walks B and C along their rows, A not at all",
          cf[0], cf[1], cf[2]);
    transpose_desc(&q, 4096);
    three_level_model(&Q, &q);
    T[0] = T[1] = 216;
    servet__tile_traffic(&Q, &Q.c[1], T, NULL, NULL, ld, cf, NULL);
    CHECK(cf[1] > 0.0, "transpose 4096, 216 x 216: B, walked across its rows by j, queues its L2 conflicts (%.4g)", cf[1]);
    CHECK(cf[0] == 0.0, "transpose 4096, 216 x 216: A, walked along its rows, queues none at the L2 (%.4g)", cf[0]);
    /* the share lost is the binomial's on the real sets an offset reaches
       (16 of 16 ways here), not 1 - usable / lines: 0.58 M of B's 2.7 M
       L2 lines, where the linear share made it 3.8 M of 5.9 M */
    CHECK(cf[1] < 0.4 * ld[1], "transpose 4096, 216 x 216: B's L2 conflicts %.4g, under 40%% of its %.4g lines (the binomial share)",
          cf[1], ld[1]);
}

/* overlap is never whole (SERVET__TILE_OVERLAP_LEAK): an i,k,j matmul whose
   core's time would hide C's traffic from memory keeps C's rows of the i
   tile (TI x n, reused over every k tile) in the last level. On the Zen 5
   VM at 2048^3 (L3 read 9.2 MiB, 5.4 MiB usable: TI <= 327): 688 x 8 x 512
   ran 1566 ms, 512 1351, 384 1224, 256 1144, 128 1118, all priced within
   0.4% without the leak; with it the model takes 296. Here: the three-level
   model (L3 13.5 MiB: TI <= 864 at 2048) */
static void test_tile_overlap_leak(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    int64_t T[3], n;
    for (n = 2048; n <= 4096; n *= 2) { /* C past the L3: 32 and 128 MiB */
        int64_t kept[3] = {0, 8, 512}, past[3] = {0, 8, 512};
        double c_kept, c_past;
        matmul_desc(&q, n, 0);
        three_level_model(&Q, &q);
        kept[0] = (int64_t)(0.8 * Q.c[2].usable / (8.0 * (double)n)) / 8 * 8;
        past[0] = (int64_t)(1.6 * Q.c[2].usable / (8.0 * (double)n)) / 8 * 8;
        if (past[0] > n) past[0] = n;
        c_kept = servet__tile_cost(&Q, kept);
        c_past = servet__tile_cost(&Q, past);
        CHECK(c_kept < c_past, "i,k,j matmul %lld: %lld x 8 x 512 (C's rows kept in L3) cheaper than %lld x 8 x 512 (%.5g, %.5g)",
              (long long)n, (long long)kept[0], (long long)past[0], c_kept, c_past);
        servet__tile_search(&Q, T, NULL, NULL);
        CHECK((double)T[0] * (double)n * 8.0 <= Q.c[2].usable,
              "i,k,j matmul %lld: %lld x %lld x %lld keeps C's rows in L3 (%.0f bytes, %.0f usable)", (long long)n,
              (long long)T[0], (long long)T[1], (long long)T[2], (double)T[0] * (double)n * 8.0, Q.c[2].usable);
    }
}
/* what a 96-entry first TLB (its misses lookups in the next) adds to the
   price of t x t on the three-level model, copy / reads in turn at ratio;
   A read as one stream untiled unless the desc makes it the output, as
   servet_choose_tile marks it (step 5, step 6c) */
/* what a first TLB of `entries` pages (no curve) adds to the price of T on
   the model Q (of three levels, c[3] free) */
static double tlb_level_adds(servet__tmodel *Q, double entries, const int64_t *T) {
    double without = servet__tile_cost(Q, T);
    servet__tile_tlb_level(&Q->c[3], 0, entries * 4096.0, NULL, 0);
    Q->nc = 4;
    return servet__tile_cost(Q, T) - without;
}
static double first_tlb_adds(const servet_tile_desc *q, double ratio, int64_t t) {
    servet__tmodel Q;
    int64_t T[2];
    T[0] = T[1] = t;
    three_level_model(&Q, q);
    Q.seq_untiled[0] = q->arrays[0].output <= 0;
    Q.mem_interleave = ratio;
    return tlb_level_adds(&Q, 96.0, T);
}
/* step 6c with a halo: a stencil's halo rows come out of a cache, so the
   untiled nest reads IN from memory as one stream (its block's rows, whole
   and adjacent); a tile that cuts IN's rows reads them in turn, at the
   probe's figure whatever the piece's length; a tile of whole rows reads
   pieces of them in turn, at the figure up to 16 KiB, none from 64 KiB.
   Measured on the Zen 5 VM (bench_data/tile_outside_stencil2d_wide_zen5_
   2026-12-04.txt): a radius-2 stencil over 600 x 60000 doubles ran 41-43 ms
   untiled, 62-65 at the 600 x 504 the model took before (0.66), 45 at 600
   x 12000 (pieces of 96 KiB: 0.92); 3D 7-point sweeps 192^3-384^3 ran best
   at tiles of whole k rows, 40-64 rows of each plane (99-136 KiB pieces) */
static void test_tile_halo_reads_in_turn(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    servet__tgeom G;
    servet_profile *p = two_core_profile(1);
    servet_tile t;
    int64_t T[3];
    double piece = 0.0;
    int cut = 0;
    loops(&q, 2, 600);
    q.loops[1].extent = 60000;
    q.narrays = 2;
    array2(&q.arrays[0], "A", 0, 1);
    q.arrays[0].halo = 2;
    array2(&q.arrays[1], "B", 0, 1);
    q.arrays[1].streamed = 1;
    three_level_model(&Q, &q);
    T[0] = 600; T[1] = 60000;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(servet__tile_interleaved(&Q, &G, 0, 1, NULL, NULL) && !servet__tile_interleaved(&Q, &G, 0, 0, NULL, NULL),
          "untiled 600 x 60000 stencil: A's five rows a point in turn, its block's rows one stream");
    T[1] = 504;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(servet__tile_interleaved(&Q, &G, 0, 0, &piece, &cut) && cut && piece == 504.0 * 8.0,
          "600 x 504: A's rows cut, pieces of 504 doubles: the mean tile, 500, and the halo (%g bytes, cut %d)", piece,
          cut);
    T[0] = 8; T[1] = 60000;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(!servet__tile_interleaved(&Q, &G, 0, 0, &piece, &cut), "8 x 60000: bands of whole rows, one stream");
    Q.mem_interleave = 2.0;
    CHECK(servet__tile_turn_factor(&Q, 4096.0, 1) == 2.0 && servet__tile_turn_factor(&Q, 1 << 20, 1) == 2.0 &&
              servet__tile_turn_factor(&Q, 8192.0, 0) == 2.0 && servet__tile_turn_factor(&Q, 65536.0, 0) == 1.0 &&
              servet__tile_turn_factor(&Q, 1 << 20, 0) == 1.0 &&
              fabs(servet__tile_turn_factor(&Q, 32768.0, 0) - 1.5) < 1e-9,
          "the figure: whole on a cut row, on whole rows up to 16 KiB, half at 32 KiB, none from 64 KiB");
    /* the decision, on a profile with the memory probe: reads in turn at half the copy */
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 35e9;
    p->memory->interleave = 35e9 / 2.0;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.untiled,
          "600 x 60000 radius-2 stencil, rows 480 KB: untiled (%lld x %lld)", (long long)t.tile[0], (long long)t.tile[1]);
    p->memory->interleave = 0.0; /* a profile without the figure: as before, a tile along the rows */
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && !t.untiled && t.tile[1] < 60000,
          "without the reads-in-turn figure: a tile that cuts the rows (%lld x %lld)", (long long)t.tile[0],
          (long long)t.tile[1]);
    p->memory->interleave = 35e9 / 2.0;
    /* the output's stores in turn: a rank-1 update A += x y^T, A the
       output (last), read and written row by row untiled. On the Zen 5 VM
       at 200 x 400000 doubles, 200 x 2048 (A's rows cut in 16 KiB pieces)
       ran 0.64 of untiled; on this profile (a 32 MiB L3) the same turn comes
       at 200 x 1000000, which the model tiled 200 x 2432 with A exempt */
    {
        servet_tile_desc r;
        loops(&r, 2, 200);
        r.loops[1].extent = 1000000;
        r.narrays = 3;
        array2(&r.arrays[0], "x", 0, 0); r.arrays[0].nloops = 1;
        array2(&r.arrays[1], "y", 1, 1); r.arrays[1].nloops = 1;
        array2(&r.arrays[2], "A", 0, 1);
        CHECK(servet_choose_tile(p, &r, &t) == SERVET_OK && t.untiled,
              "rank-1 update 200 x 1000000: untiled, A's rows not cut (%lld x %lld)", (long long)t.tile[0],
              (long long)t.tile[1]);
    }
    /* a 3D sweep: tiles keep k's rows whole */
    stencil3d_desc(&q, 256, 1);
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[2] == 256,
          "256^3 7-point sweep: k's rows whole (%lld x %lld x %lld)", (long long)t.tile[0], (long long)t.tile[1],
          (long long)t.tile[2]);
    (void)T[2];
    free(p->memory);
    p->memory = NULL;
    drop(p);
}
/* step 6c: reads a tile cuts from one sequential stream into rows in turn
   cost copy / the memory probe's interleaved-read bandwidth more; the
   untiled nest's own interleaving (a transpose's column-walked side) and
   the output's are not priced. Measured on the Zen 5 VM (copy 35 GB/s):
   B = A^T of complex doubles (16 bytes), 2000^2, ran best untiled (6.7-7.3
   ms), 252 x 252 9.5-10.1 */
static void test_tile_interleaved_reads(void) {
    servet_tile_desc q;
    servet__tmodel Q;
    servet__tgeom G;
    servet_profile *p = two_core_profile(1);
    servet_tile t0, t1, t2;
    int64_t T[2];
    double c_plain, c_priced;
    transpose_desc(&q, 2000);
    q.elem_bytes = 16;
    three_level_model(&Q, &q);
    T[0] = T[1] = 2000;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(!servet__tile_interleaved(&Q, &G, 0, 0, NULL, NULL) && servet__tile_interleaved(&Q, &G, 1, 0, NULL, NULL),
          "untiled transpose: A read as one stream, B's column walk in turn");
    T[0] = T[1] = 64;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(servet__tile_interleaved(&Q, &G, 0, 0, NULL, NULL), "64 x 64: A's 64 rows in turn");
    T[0] = 4; T[1] = 2000;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(!servet__tile_interleaved(&Q, &G, 0, 0, NULL, NULL), "4 x 2000: A's whole rows, adjacent: one stream");
    T[0] = 2000; T[1] = 64;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(servet__tile_interleaved(&Q, &G, 0, 0, NULL, NULL), "2000 x 64: A's rows cut, in turn");
    q.arrays[0].ld = 2008; /* whole rows, not adjacent: 8 elements between them */
    three_level_model(&Q, &q);
    T[0] = 4; T[1] = 2000;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(servet__tile_interleaved(&Q, &G, 0, 0, NULL, NULL), "4 x 2000, A's ld 2008: rows apart, in turn");
    q.arrays[0].ld = 0;
    q.arrays[0].packed = 1;
    three_level_model(&Q, &q);
    T[0] = T[1] = 64;
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(!servet__tile_interleaved(&Q, &G, 0, 0, NULL, NULL), "a packed array is read from its copy: never in turn");
    q.arrays[0].packed = 0;
    /* the price: a tile that cuts A pays the ratio on A's lines out of memory */
    three_level_model(&Q, &q);
    Q.seq_untiled[0] = 1;
    Q.mem_interleave = 1.0;
    T[0] = T[1] = 64;
    c_plain = servet__tile_cost(&Q, T);
    Q.mem_interleave = 1.9;
    c_priced = servet__tile_cost(&Q, T);
    CHECK(c_priced > c_plain, "64 x 64 dearer at a ratio of 1.9 (%.4g > %.4g)", c_priced, c_plain);
    T[0] = T[1] = 2000;
    Q.mem_interleave = 1.0;
    c_plain = servet__tile_cost(&Q, T);
    Q.mem_interleave = 1.9;
    CHECK(servet__tile_cost(&Q, T) == c_plain, "untiled: the same at any ratio");
    /* the first TLB's misses (lookups in the next): under the memory's
       stream at a ratio of 1, added to it in full from 2 (step 5). A double
       2000^2 transpose: 336 x 336 writes 336 rows of B an iteration, past a
       96-entry first TLB; 72 x 72 does not. What the TLB adds to a tile's
       price, at ratios 1, 1.5 and 2 */
    {
        double added[3], added72[3], added_out[2];
        int r;
        q.elem_bytes = 8;
        for (r = 0; r < 3; r++) {
            added[r] = first_tlb_adds(&q, 1.0 + 0.5 * r, 336);
            added72[r] = first_tlb_adds(&q, 1.0 + 0.5 * r, 72);
        }
        q.arrays[0].output = 1; /* A the output: no reads in turn, nothing exposed */
        added_out[0] = first_tlb_adds(&q, 1.0, 336);
        added_out[1] = first_tlb_adds(&q, 2.0, 336);
        q.arrays[0].output = 0;
        CHECK(added[1] > added[0] && added[2] > added[1] && added[2] > 2.0e5,
              "336 x 336: the first TLB adds more as the ratio rises (%.4g, %.4g, %.4g ns at 1, 1.5, 2)", added[0], added[1],
              added[2]);
        CHECK(added72[2] < 0.25 * added[2],
              "72 x 72, B's rows under the first TLB: it adds a fraction of 336's at 2 (%.4g; %.4g at 1)", added72[2],
              added72[0]);
        CHECK(added_out[0] == added_out[1] && added_out[0] < added[2],
              "A the output (no reads in turn): the same at 1 and 2 (%.4g, %.4g), under the stream", added_out[0],
              added_out[1]);
        q.elem_bytes = 16;
        three_level_model(&Q, &q);
    }
    /* the decision on a profile with the memory probe */
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 35e9;
    p->memory->interleave = 0.0; /* a file from before the figure: as before */
    CHECK(servet_choose_tile(p, &q, &t0) == SERVET_OK, "complex 2000^2 transpose, no ratio: decided");
    p->memory->interleave = 35e9 / 1.88; /* copy / in turn: 1.88 */
    /* this profile is not the VM's (a 32 MiB L3, the TLBs' defaults): the
       pick need not be untiled (the VM's own profile picks it), but at 1.88
       the first TLB's misses add (step 5): fewer of B's rows written in
       turn. Until 2026-12-04 it read A in longer rows instead (500 x 252 ->
       200 x 84 on the VM's profile); measured there (Zen 5 VM, medians of
       15): untiled 6.93 ms, 400 x 52 8.06, 200 x 84 8.31, 500 x 252 9.72 */
    CHECK(servet_choose_tile(p, &q, &t1) == SERVET_OK && t1.tile[1] < t0.tile[1],
          "complex 2000^2 transpose at 1.88: fewer of B's rows in turn (%lld x %lld; without the ratio %lld x %lld)",
          (long long)t1.tile[0], (long long)t1.tile[1], (long long)t0.tile[0], (long long)t0.tile[1]);
    /* reads in turn as fast as the copy: nothing to charge, the pick without it */
    p->memory->interleave = 35e9;
    CHECK(servet_choose_tile(p, &q, &t2) == SERVET_OK && t2.tile[0] == t0.tile[0] && t2.tile[1] == t0.tile[1],
          "reads in turn at the copy's bandwidth: priced as without the figure (%lld x %lld)", (long long)t2.tile[0],
          (long long)t2.tile[1]);
    p->memory->interleave = 35e9 / 1.88;
    /* A marked as the output (and B read): since 2026-12-04 the output's
       stores in turn are priced as reads (whole lines lose as much), so
       A's cuts cost the same and the pick is the ratio's; until then it was
       the pick without the ratio */
    q.arrays[0].output = 1;
    CHECK(servet_choose_tile(p, &q, &t2) == SERVET_OK && t2.tile[0] == t1.tile[0] && t2.tile[1] == t1.tile[1],
          "A:out: its cuts priced as its reads were (%lld x %lld)", (long long)t2.tile[0], (long long)t2.tile[1]);
    /* B marked as read (no output): A pays again */
    q.arrays[0].output = 0;
    q.arrays[1].output = -1;
    CHECK(servet_choose_tile(p, &q, &t2) == SERVET_OK && t2.tile[0] == t1.tile[0] && t2.tile[1] == t1.tile[1],
          "B:in, A unsaid: A's cuts priced (%lld x %lld)", (long long)t2.tile[0], (long long)t2.tile[1]);
    free(p->memory);
    p->memory = NULL;
    drop(p);
}
/* a loop along which no array's rows run (j in B[k][j][i] = A[i][j][k])
   has no line to keep whole: its candidates go under a line (1, 2, 4),
   unless the desc asks for a multiple. On the Zen 5 VM at 256^3: 256 x 1
   x 8 ran 0.030 s, the line-multiple pick 256 x 8 x 8 0.068 */
static void test_tile_subline_loop(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc q;
    servet_tile t;
    transpose3d_desc(&q, 256);
    {
        servet__tmodel Q;
        int64_t T[3];
        three_level_model(&Q, &q);
        servet__tile_search(&Q, T, NULL, NULL);
        CHECK(T[1] < 8 && T[0] % 8 == 0 && T[2] % 8 == 0,
              "3D transpose 256: j, along no array's rows, under a line (%lld x %lld x %lld); i and k line multiples",
              (long long)T[0], (long long)T[1], (long long)T[2]);
    }
    {
        /* the pages of a 3D footprint, each dimension at its own stride: B's
           200 rows over k (n^2 x 8 = 512 KiB apart) at one j and one i are
           200 pages (until 2026-11-27: 1 + 199 x 2 KiB / 4 KiB = 100.5, the
           j stride taken for every row); 8 rows over j (2 KiB apart) at each
           of 8 k: 8 pieces of 1 + (7 x 2048 + 8 - 8) / 4096 pages */
        servet__tmodel Q;
        double cover[3] = {1, 1, 200}, pages;
        tile_model(&Q, &q);
        pages = servet__tile_pages(&Q, 1, cover, NULL, NULL);
        CHECK(fabs(pages - 200.0) < 1e-9, "3D transpose 256, B over 200 k at one j: %.4g pages (200)", pages);
        cover[1] = 8; cover[2] = 8;
        pages = servet__tile_pages(&Q, 1, cover, NULL, NULL);
        CHECK(fabs(pages - 8.0 * (1.0 + 7.0 * 2048.0 / 4096.0)) < 1e-9, "B over 8 k x 8 j: %.4g pages (36)", pages);
    }
    {
        /* rows piled in a few L1 sets (servet__tile_traffic: over the
           capacity, the sets still count; in fewer sets than misses in
           flight, conflicts are not overlapped). 160^3: B's k rows 200 KB
           apart, all in one set of the 12-way L1, its j rows in 16: the old
           model took 160 x 24 x 80 (1920 rows, 22 ms on the Zen 5 VM; 8 x 8:
           4 ms). 128^3: the j rows in 4 sets, 8 x 8 puts 16 lines in each
           (5.8 ms; 4 x 8: 2.1) */
        servet__tmodel Q;
        int64_t T[3];
        int n;
        for (n = 128; n <= 160; n += 32) {
            double per_set;
            transpose3d_desc(&q, n);
            three_level_model(&Q, &q);
            servet__tile_search(&Q, T, NULL, NULL);
            /* B's lines a set: its k rows share one set, its j rows spread
               over 4 (128) or 16 (160). At 160 only the k rows are checked:
               the model takes 160 x 32 x 8, 16 lines in each of 16 sets, as
               overlapped (6.1 ms measured, 8 x 8 3.9) - still open */
            per_set = (double)T[2] * (n == 128 ? ceil((double)T[1] / 4.0) : 1.0);
            CHECK(per_set <= 12.0, "3D transpose %d: %lld x %lld x %lld puts %.0f of B's lines in a 12-way L1 set", n,
                  (long long)T[0], (long long)T[1], (long long)T[2], per_set);
        }
        transpose3d_desc(&q, 256);
    }
    q.multiple = 8;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[1] % 8 == 0 && t.tile[0] % 8 == 0 && t.tile[2] % 8 == 0,
          "... with --multiple 8, j a multiple of 8 (%lld)", (long long)t.tile[1]);
    drop(p);
}
/* the tables of priced tiles (freed before it returns) change no answer:
   with an allocator that refuses them, every tile is priced anew, and the
   tile, the levels, the prediction and the alternatives are the same; one
   that refuses everything, the set count's buffers too, gets out of
   memory; with one that counts, every allocation is freed */
static int memo_allocs, memo_frees;
static void *refuse_alloc(void *user, size_t n) { (void)user; (void)n; return NULL; }
/* the table (about 1.9 MiB) refused, the set count's buffers (120 KiB) given */
static void *refuse_big_alloc(void *user, size_t n) { (void)user; return n > 1048576 ? NULL : malloc(n); }
static void *count_alloc(void *user, size_t n) { (void)user; memo_allocs++; return malloc(n); }
static void count_free(void *user, void *ptr) { (void)user; if (ptr) memo_frees++; free(ptr); }
static void test_tile_memo_same_answer(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc q;
    servet_tile a, b;
    int kind, same = 1, l;
    for (kind = 0; kind < 2; kind++) {
        if (kind == 0) matmul_desc(&q, 1000, 0); /* matmul i,k,j */
        else stencil3d_desc(&q, 640, 2); /* a 3D stencil: IN over i,j,k with a halo, OUT streamed */
        q.all_levels = 1;
        memo_allocs = memo_frees = 0;
        p->ctx.al.alloc = count_alloc; p->ctx.al.free = count_free;
        CHECK(servet_choose_tile(p, &q, &a) == SERVET_OK, "decided with the table");
        CHECK(memo_allocs >= 1 && memo_allocs == memo_frees, "the table is allocated and freed (%d, %d)", memo_allocs, memo_frees);
        p->ctx.al.alloc = refuse_alloc; p->ctx.al.free = NULL;
        CHECK(servet_choose_tile(p, &q, &b) == SERVET_ERROR_OUT_OF_MEMORY, "no buffers for the set count: out of memory");
        p->ctx.al.alloc = refuse_big_alloc; p->ctx.al.free = NULL;
        CHECK(servet_choose_tile(p, &q, &b) == SERVET_OK, "decided without the table (the allocator refuses it)");
        p->ctx.al.alloc = NULL;
        for (l = 0; l < q.nloops; l++) same &= a.tile[l] == b.tile[l];
        same &= a.predicted_ns == b.predicted_ns && a.nlevels == b.nlevels && a.nalternatives == b.nalternatives;
        for (l = 0; l < a.nlevels && l < b.nlevels; l++) same &= !memcmp(a.levels[l].tile, b.levels[l].tile, sizeof a.levels[l].tile);
        CHECK(same, "%s: the same tile %lld x %lld x %lld, prediction and levels with and without the table",
              kind ? "3D stencil 640" : "matmul i,k,j 1000", (long long)a.tile[0], (long long)a.tile[1], (long long)a.tile[2]);
    }
    drop(p);
}
/* a decision over 3D arrays in a thread with a 96 KiB stack (musl gives a
   thread 128): the set count's buffers and the search's candidates are on
   the heap (until 2026-11-27 the stack took 160 KiB, and this crashed) */
typedef struct small_stack_job {
    servet_profile *p;
    servet_tile_desc d;
    servet_tile t;
    servet_result r;
} small_stack_job;
static void *small_stack_run(void *arg) {
    small_stack_job *job = (small_stack_job *)arg;
    job->r = servet_choose_tile(job->p, &job->d, &job->t);
    return NULL;
}
static void test_tile_small_stack(void) {
    small_stack_job job;
    pthread_attr_t attr;
    pthread_t th;
    int started;
    memset(&job, 0, sizeof job);
    job.p = two_core_profile(1);
    transpose3d_desc(&job.d, 333);
    job.d.loops[1].extent = 257;
    job.d.loops[2].extent = 190;
    job.d.all_levels = 1;
    job.r = SERVET_ERROR_INVALID_ARGUMENT;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 96 * 1024);
    started = pthread_create(&th, &attr, small_stack_run, &job) == 0;
    if (started) pthread_join(th, NULL);
    pthread_attr_destroy(&attr);
    CHECK(started && job.r == SERVET_OK && job.t.tile[0] >= 1,
          "3D transpose 333 x 257 x 190 decided on a 96 KiB thread stack (%d, %lld x %lld x %lld)", (int)job.r,
          (long long)job.t.tile[0], (long long)job.t.tile[1], (long long)job.t.tile[2]);
    drop(job.p);
}
static servet_result choose(const servet_profile *p, servet_tile_desc *d, servet_tile *t) {
    servet_result r = servet_choose_tile(p, d, t);
    return r;
}

/* two arrays indexed alike where glibc's malloc would put them a distance
   apart that keeps AMD Zen's L1 utag (the 4096^2 stencil's IN and OUT,
   128 MiB each: 2^27 + 4 KiB): warned on an AMD profile only, and only at
   sizes whose distance keeps the hash (the distances measured in
   bench_data/tile_stencil_utag_alias_zen4_2026-12-03.txt) */
/* the first of t's warnings that says `text`, or NULL */
static const char *warning_with(const servet_tile *t, const char *text) {
    int l;
    for (l = 0; l < t->nwarnings; l++)
        if (strstr(t->warnings[l], text)) return t->warnings[l];
    return NULL;
}
static int utag_warned(const servet_tile *t) { return warning_with(t, "AMD Zen's L1 way tag") != NULL; }
static void test_tile_utag_warning(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc d;
    servet_tile t;
    const char *hit;
    CHECK(servet__zen_utag(UINT64_C(0x7f0000000000)) == servet__zen_utag(UINT64_C(0x7f0010000000)) &&
          servet__zen_utag(UINT64_C(0x7f0000000000)) != servet__zen_utag(UINT64_C(0x7f0010001000)) &&
          servet__zen_utag(UINT64_C(0x7f0000000000)) == servet__zen_utag(UINT64_C(0x7f0008001000)) &&
          servet__zen_utag(UINT64_C(0x7f0000000000)) != servet__zen_utag(UINT64_C(0x7f0008002000)),
          "the utag: 2^28 and 2^27 + 4 KiB keep it, 2^28 + 4 KiB and 2^27 + 8 KiB do not (as measured)");
    loops(&d, 2, 4092);
    d.narrays = 2;
    array2(&d.arrays[0], "IN", 0, 1); d.arrays[0].halo = 2;
    array2(&d.arrays[1], "OUT", 0, 1); d.arrays[1].streamed = 1; d.arrays[1].ld = 4096;
    d.square = 1;
    snprintf(p->cpu_model, sizeof p->cpu_model, "AMD EPYC 9654");
    CHECK(choose(p, &d, &t) == SERVET_OK && utag_warned(&t), "AMD, 4096^2 stencil: IN and OUT warned (%d warnings)",
          t.nwarnings);
    hit = warning_with(&t, "way tag"); /* one pair: one such warning */
    CHECK(hit && strstr(hit, "IN, OUT") && strstr(hit, "134221824 B apart") && strstr(hit, "50%") && strstr(hit, "second 4 KiB larger"),
          "the warning names both, glibc's distance 2^27 + 4 KiB, half the pages, the second 4 KiB larger (%s)", hit ? hit : "none");
    snprintf(p->cpu_model, sizeof p->cpu_model, "Intel(R) Xeon(R) Platinum 8480+");
    CHECK(choose(p, &d, &t) == SERVET_OK && !utag_warned(&t), "Intel: no utag warning");
    snprintf(p->cpu_model, sizeof p->cpu_model, "AMD EPYC 9654");
    d.loops[0].extent = d.loops[1].extent = 3996; d.arrays[1].ld = 4000;
    CHECK(choose(p, &d, &t) == SERVET_OK && !utag_warned(&t), "AMD, 4000^2 (122 MiB: its distance changes the utag): none");
    d.loops[0].extent = d.loops[1].extent = 8188; d.arrays[1].ld = 8192;
    CHECK(choose(p, &d, &t) == SERVET_OK && !utag_warned(&t), "AMD, 8192^2 (2^29 + 4 KiB apart): none");
    transpose_desc(&d, 4096);
    CHECK(choose(p, &d, &t) == SERVET_OK && !utag_warned(&t), "AMD, a 4096^2 transpose (A i,j and B j,i: not alike): none");
    drop(p);
}

/* a last level measured under half the OS's size (a VM's shared L3): a nest
   whose arrays, or whose untiled reuse, lie between the two is warned */
static const char *llc_warning(const servet_tile *t) { return warning_with(t, "shared with other tenants"); }
static void test_tile_shared_llc_warning(void) {
    servet_profile *p = two_core_profile(1), *os = two_core_profile(0);
    servet_tile_desc d;
    servet_tile t;
    const char *w = NULL;
    transpose_desc(&d, 1000); /* two arrays of 8 MB */
    CHECK(choose(p, &d, &t) == SERVET_OK && !llc_warning(&t), "L3 measured at the OS's 32 MiB: no warning");
    CHECK(choose(os, &d, &t) == SERVET_OK && !llc_warning(&t), "no cache probe (the OS's sizes): no warning");
    p->levels[2].size_bytes = p->levels[2].estimate_bytes = 3 * 1048576; /* 3 of 32 MiB, as the Zen 4 VM's */
    CHECK(choose(p, &d, &t) == SERVET_OK && (w = llc_warning(&t)) != NULL && strstr(w, "L3 measured 3.0 MiB") &&
              strstr(w, "the OS says 32") && strstr(w, "the nest's arrays, 15.3 MiB") && strstr(w, "servet tune"),
          "1000^2 transpose, L3 3 of 32 MiB: its 16 MB of arrays warned (%s)", w ? w : "none");
    transpose_desc(&d, 4000); /* 256 MB: past the OS's size too; its reuse fits L2 */
    CHECK(choose(p, &d, &t) == SERVET_OK && !llc_warning(&t), "4000^2 transpose: no warning (%s)",
          llc_warning(&t) ? llc_warning(&t) : "");
    transpose_desc(&d, 300); /* 1.4 MB: within the measured L3 */
    CHECK(choose(p, &d, &t) == SERVET_OK && !llc_warning(&t), "300^2 transpose: no warning");
    stencil3d_desc(&d, 400, 1); /* 1 GB; untiled, three planes of 1.28 MB reused */
    CHECK(choose(p, &d, &t) == SERVET_OK && (w = llc_warning(&t)) != NULL && strstr(w, "what the untiled nest reuses"),
          "400^3 7-point sweep: the untiled nest's reuse, its planes, warned (%s)", w ? w : "none");
    CHECK(strlen(w ? w : "") < sizeof t.warnings[0] - 1, "the warning fits its buffer whole (%u chars)",
          (unsigned)strlen(w ? w : ""));
    stencil3d_desc(&d, 200, 1); /* planes of 320 KB: the reuse fits the measured L3 */
    CHECK(choose(p, &d, &t) == SERVET_OK && !llc_warning(&t), "200^3 sweep: no warning (%s)",
          llc_warning(&t) ? llc_warning(&t) : "");
    drop(p);
    drop(os);
}

/* rows in turn faster than one stream (>>decide step 6c, its last
   paragraph): not credited, warned of where the nest streams an array past
   the last level. The Xeon guest of 2026-12-07: copy 13.9 GB/s, 8 rows in
   turn 23.5; a radius-2 stencil at 4000^2 ran 1.6x faster at tiles 8-16
   than untiled, the model's pick */
static const char *turn_warning(const servet_tile *t) { return warning_with(t, "rows in turn"); }
static void test_tile_fast_turns_warning(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc d;
    servet_tile t, plain;
    const char *w = NULL;
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 13.9e9;
    p->memory->interleave = 13.9e9; /* as fast as the copy: the reference */
    stencil2d_desc(&d, 4000, 2, "IN", "OUT");
    d.square = 1;
    CHECK(choose(p, &d, &plain) == SERVET_OK && !turn_warning(&plain), "4000^2 stencil, rows in turn at the copy's rate: no warning");
    p->memory->interleave = 23.5e9;
    CHECK(choose(p, &d, &t) == SERVET_OK && (w = turn_warning(&t)) != NULL && strstr(w, "1.7x") && strstr(w, "23.5 against 13.9") &&
              strstr(w, "of IN") && strstr(w, "servet tune"),
          "rows in turn 1.7x the copy: warned (%s)", w ? w : "none");
    CHECK(strlen(w ? w : "") < sizeof t.warnings[0] - 1, "the warning fits its buffer whole (%u chars)", (unsigned)strlen(w ? w : ""));
    CHECK(t.tile[0] == plain.tile[0] && t.tile[1] == plain.tile[1] && t.predicted_ns == plain.predicted_ns,
          "not credited: the same tile and price (%lld, %.4g ns) as at the copy's rate (%lld, %.4g ns)", (long long)t.tile[0],
          t.predicted_ns, (long long)plain.tile[0], plain.predicted_ns);
    p->memory->interleave = 1.2 * 13.9e9; /* under SERVET__TILE_TURN_FAST */
    CHECK(choose(p, &d, &t) == SERVET_OK && !turn_warning(&t), "1.2x the copy: no warning");
    p->memory->interleave = 23.5e9;
    transpose_desc(&d, 300); /* 1.4 MB: the L3 holds it, nothing streams from memory */
    CHECK(choose(p, &d, &t) == SERVET_OK && !turn_warning(&t), "300^2 transpose inside the L3: no warning");
    free(p->memory);
    p->memory = NULL;
    stencil2d_desc(&d, 4000, 2, "IN", "OUT");
    CHECK(choose(p, &d, &t) == SERVET_OK && !turn_warning(&t), "no memory probe: no warning");
    drop(p);
}

static void test_tile_decisions(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc d;
    servet_tile t, t2;
    int i, any;
    /* matmul 2048^3 with packed A and B: a tile that fits L2's usable capacity, bigger than L1 */
    loops(&d, 3, 2048);
    d.narrays = 3;
    array2(&d.arrays[0], "A", 0, 1); d.arrays[0].packed = 1;
    array2(&d.arrays[1], "B", 1, 2); d.arrays[1].packed = 1;
    array2(&d.arrays[2], "C", 0, 2);
    d.square = 1;
    CHECK(choose(p, &d, &t) == SERVET_OK, "matmul decided");
    CHECK(t.tile[0] == t.tile[1] && t.tile[1] == t.tile[2] && t.tile[0] % 8 == 0, "square, a multiple of a line: %lld",
          (long long)t.tile[0]);
    CHECK(t.working_set_bytes <= t.capacity_bytes && t.level >= 1 && !t.untiled, "fits its level: %.0f <= %.0f (L%d)",
          t.working_set_bytes, t.capacity_bytes, t.level);
    CHECK(t.capacity_bytes < 1048576.0 && (t.level != 2 || t.capacity_bytes > 0.5 * 1048576.0),
          "L2's usable capacity below its size under random 4 KiB placement (%.0f)", t.capacity_bytes);
    /* the near-ties: square, none the tile, each >= 10% from the tile and from the others */
    {
        int a, b, ok = t.nalternatives >= 1 && t.nalternatives <= SERVET_TILE_MAX_ALTERNATIVES;
        for (a = 0; a < t.nalternatives && ok; a++) {
            double r = (double)t.alternatives[a][0] / (double)t.tile[0];
            ok = t.alternatives[a][0] == t.alternatives[a][1] && t.alternatives[a][1] == t.alternatives[a][2] &&
                 (r >= 1.1 || r <= 1.0 / 1.1);
            for (b = 0; b < a && ok; b++) {
                r = (double)t.alternatives[a][0] / (double)t.alternatives[b][0];
                ok = r >= 1.1 || r <= 1.0 / 1.1;
            }
        }
        CHECK(ok, "matmul: %d near-ties, square, 10%% apart (%lld: %lld %lld %lld %lld)", t.nalternatives,
              (long long)t.tile[0], (long long)t.alternatives[0][0], (long long)t.alternatives[1][0],
              (long long)t.alternatives[2][0], (long long)t.alternatives[3][0]);
    }
    /* two threads on the shared L3 only: private levels keep their capacity */
    d.level = 3;
    choose(p, &d, &t);
    d.threads = 2;
    choose(p, &d, &t2);
    CHECK(t.level == 3 && fabs(t2.capacity_bytes * 2.0 - t.capacity_bytes) < 1.0, "2 threads sharing L3: half of it each (%.0f, %.0f)",
          t.capacity_bytes, t2.capacity_bytes);
    d.level = 2;
    choose(p, &d, &t);
    d.threads = 1;
    choose(p, &d, &t2);
    CHECK(t.capacity_bytes == t2.capacity_bytes, "a private L2 is not divided by threads");
    d.level = 0;
    /* transpose with a power-of-two leading dimension: rows collide in L1's sets; warned, with the padding */
    transpose_desc(&d, 4096);
    d.square = 1;
    CHECK(choose(p, &d, &t) == SERVET_OK, "transpose decided");
    for (i = 0, any = 0; i < t.nwarnings; i++) if (strstr(t.warnings[i], "4104")) any = 1;
    CHECK(any, "the warning names the padded leading dimension 4104 (%d warnings)", t.nwarnings);
    CHECK(t.tile[0] <= 12, "a 4096-double ld: no tile taller than L1's 12 ways (%lld)", (long long)t.tile[0]);
    for (i = 0, any = 0; i < t.nwarnings; i++) if (strstr(t.warnings[i], "taller than 12 rows")) any = 1;
    CHECK(any, "ld 4096: the warning's limit is the 12 ways x the 1 set the rows start in");
    /* ld 4000: rows 32000 B apart start in 16 of the 64 sets, so the limit
       is 12 x 16 = 192 rows (the warning said 12 until 2026-11-27) */
    d.loops[0].extent = d.loops[1].extent = 4000;
    choose(p, &d, &t2);
    for (i = 0, any = 0; i < t2.nwarnings; i++) if (strstr(t2.warnings[i], "16 of the 64 sets") && strstr(t2.warnings[i], "taller than 192 rows")) any = 1;
    CHECK(any, "ld 4000: rows in 16 of the 64 sets, a tile taller than 192 rows thrashes (%d warnings: %s)", t2.nwarnings,
          t2.nwarnings > 0 ? t2.warnings[0] : "");
    d.loops[0].extent = d.loops[1].extent = 4096;
    /* the last TLB's sets (>>decide step 5): rows 32 KiB apart crowd an
       eighth of them, warned with the same padding; rows 32000 B apart not */
    for (i = 0, any = 0; i < t.nwarnings; i++)
        any |= strstr(t.warnings[i], "B: rows 32768 bytes apart fall in 1/8 of the last TLB's sets") &&
               strstr(t.warnings[i], "4104 elements");
    CHECK(any, "ld 4096: B's rows crowd 1/8 of the last TLB's sets, padded to 4104 (%d warnings: %s)", t.nwarnings,
          t.nwarnings > 0 ? t.warnings[t.nwarnings - 1] : "");
    {
        /* the count it gives is the crowded share the traffic holds a tile
           to (SERVET__TILE_TLB_CROWDED of the reach), not the 0.9 of
           consecutive pages */
        double reach = 2048.0 * 4096.0; /* the model's default without a TLB probe */
        char want[64];
        int nt = servet_tlb_count(p);
        if (nt > 0) servet_tlb_get(p, nt - 1, &reach);
        snprintf(want, sizeof want, "more than %.0f of them", reach * SERVET__TILE_TLB_CROWDED / 4096.0 / 8.0);
        const char *w = warning_with(&t, "last TLB's sets"); /* A's and B's give one count */
        CHECK(w && strstr(w, want), "ld 4096: the TLB warning's count is the crowded share, \"%s\" (%s)", want, w ? w : "none");
    }
    for (i = 0, any = 0; i < t2.nwarnings; i++) any |= strstr(t2.warnings[i], "TLB") != NULL;
    CHECK(!any, "ld 4000: no TLB warning (%d warnings)", t2.nwarnings);
    {
        /* a 3D array's planes: at 160^3 B[k][j][i]'s k planes are 204800 B
           = 50 x 4 KiB apart, all in one L1 set (the rows, 1280 B apart, in
           16): warned, the j dimension allocated as 161 spreads them (on the
           Zen 5 VM: untiled 27 -> 5.5 ms, 160 x 24 x 80 23 -> 6.7); at 161^3
           nothing to say */
        servet_tile_desc q;
        int n;
        for (n = 160; n <= 161; n++) {
            transpose3d_desc(&q, n);
            CHECK(choose(p, &q, &t2) == SERVET_OK, "3D transpose %d decided", n);
            for (i = 0, any = 0; i < t2.nwarnings; i++)
                any |= strstr(t2.warnings[i], "B: its k planes, 204800 bytes apart, start in 1 of the 64 sets") &&
                       strstr(t2.warnings[i], "its j dimension allocated as 161 (not 160)");
            if (n == 160) CHECK(any, "160^3: B's k planes in one set, j allocated as 161 (%d warnings: %s)", t2.nwarnings,
                                t2.nwarnings > 0 ? t2.warnings[t2.nwarnings - 1] : "");
            else {
                for (i = 0, any = 0; i < t2.nwarnings; i++) any |= strstr(t2.warnings[i], "planes") != NULL;
                CHECK(!any, "161^3: no planes warning (%d warnings)", t2.nwarnings);
            }
        }
        /* the padded array described (dims): 160 x 161 x 160, no planes
           warning; a dimension allocated under its loop's extent is refused */
        transpose3d_desc(&q, 160);
        q.arrays[0].dims[1] = q.arrays[1].dims[1] = 161;
        CHECK(choose(p, &q, &t2) == SERVET_OK, "3D transpose 160^3, j allocated as 161: decided");
        for (i = 0, any = 0; i < t2.nwarnings; i++) any |= strstr(t2.warnings[i], "planes") != NULL;
        CHECK(!any, "j allocated as 161: no planes warning (%d warnings)", t2.nwarnings);
        q.arrays[1].dims[1] = 150;
        CHECK(choose(p, &q, &t2) == SERVET_ERROR_INVALID_ARGUMENT, "a dimension allocated under its extent: invalid");
        q.arrays[1].dims[1] = -1;
        CHECK(choose(p, &q, &t2) == SERVET_ERROR_INVALID_ARGUMENT, "a negative dimension: invalid");
    }
    /* with the memory probe's copy bandwidth: 12, the set cap, whatever the
       L3 reads (a VM's share of it moves from probe to probe). Step 6's two
       rules make it: a run of B of one line (tile 8) pays two demand lines
       as one of two does, and B's lines piled in one L1 set cost a refill
       and a write-back. Without them: 56 here, and 8 on a Zen 5 VM's
       profiles whose L3 read under 10 MiB (side by side there: 0.74 of 12) */
    {
        static const double l3[3] = {4194304.0, 7340032.0, 16777216.0};
        int k, all12 = 1;
        long long got[3];
        p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
        p->memory->ref_bw = 40e9;
        p->mem_latency_ns = 130.0;
        for (k = 0; k < 3; k++) {
            p->levels[2].size_bytes = p->levels[2].estimate_bytes = l3[k];
            choose(p, &d, &t2);
            got[k] = (long long)t2.tile[0];
            all12 &= t2.tile[0] == 12 && t2.tile[1] == 12;
        }
        CHECK(all12, "4096 transpose, 40 GB/s, L3 read 4 / 7 / 16 MiB: 12 each (%lld %lld %lld)", got[0], got[1], got[2]);
        free(p->memory);
        p->memory = NULL;
        p->mem_latency_ns = 90.0;
        p->levels[2].size_bytes = p->levels[2].estimate_bytes = 33554432.0;
    }
    d.arrays[0].ld = d.arrays[1].ld = 4104;
    choose(p, &d, &t2);
    for (i = 0, any = 0; i < t2.nwarnings; i++) if (strstr(t2.warnings[i], "sets")) any = 1;
    CHECK(!any && t2.tile[0] > 12, "padded to 4104: no warning, taller tiles (%lld)", (long long)t2.tile[0]);
    for (i = 0, any = 0; i < t2.nwarnings; i++) if (strstr(t2.warnings[i], "the loop's work")) any = 1;
    CHECK(!any && 0.125 * 4096.0 * 4096.0 < 0.6 * t2.predicted_ns,
          "a transpose the memory bounds: no word on the loop's work (%.3g ns predicted)", t2.predicted_ns);
    /* the set cap is a candidate only where no multiple is asked: with
       multiple 8 the power-of-two transpose stays at a multiple of 8, 8 or
       16 (16 rows overfill 12 ways by a third and lose a quarter of the
       lines: measured here, 16 beats 8 by 20%), never 24 or more */
    d.arrays[0].ld = d.arrays[1].ld = 0;
    d.multiple = 8;
    choose(p, &d, &t2);
    CHECK(t2.tile[0] % 8 == 0 && t2.tile[0] <= 16, "multiple 8: %lld, a multiple of 8, 8 or 16", (long long)t2.tile[0]);
    d.multiple = 0;
    /* an 8-way 32 KiB L1 (a Xeon's): the cap is 8 */
    {
        int k;
        for (k = 0; k < p->ncacheobjs; k++)
            if (p->cacheobjs[k].level == 1) p->cacheobjs[k].ways = 8;
        p->levels[0].size_bytes = p->levels[0].estimate_bytes = 32768;
        choose(p, &d, &t2);
        CHECK(t2.tile[0] <= 8, "an 8-way L1: no tile taller than 8 rows (%lld)", (long long)t2.tile[0]);
        for (k = 0; k < p->ncacheobjs; k++)
            if (p->cacheobjs[k].level == 1) p->cacheobjs[k].ways = 12;
        /* an L1 the probe read 15% small (41 KiB of 48 KiB, 12-way: 53.4
           "sets"): still 64 sets, rows 32 KiB apart still in one of them */
        p->levels[0].size_bytes = p->levels[0].estimate_bytes = 41984;
        choose(p, &d, &t2);
        CHECK(t2.tile[0] <= 12, "an L1 read at 41 KiB: the sets stay a power of two, no tile over 12 rows (%lld)",
              (long long)t2.tile[0]);
        p->levels[0].size_bytes = p->levels[0].estimate_bytes = 49152;
    }
    /* a radius-2 stencil whose rows fit: no tile */
    loops(&d, 2, 996);
    d.narrays = 2;
    array2(&d.arrays[0], "IN", 0, 1); d.arrays[0].halo = 2; d.arrays[0].ld = 1000;
    array2(&d.arrays[1], "OUT", 0, 1); d.arrays[1].streamed = 1; d.arrays[1].ld = 1000;
    d.square = 1;
    CHECK(choose(p, &d, &t) == SERVET_OK && t.untiled && t.tile[0] == 996 && t.tile[1] == 996,
          "5 rows of 8 KB fit: untiled (%lld)", (long long)t.tile[0]);
    CHECK(strstr(t.reason, "no tile") != NULL, "and says why: %s", t.reason);
    CHECK(strstr(t.reason, "already fits") != NULL, "the reuse fits a level: %s", t.reason);
    /* a halo far wider than every cache: no tile, and the reason must not
       claim that the reuse fits a level (it said so until 2026-11-27) */
    d.arrays[0].halo = 100000; d.arrays[0].ld = 0; d.arrays[1].ld = 0;
    CHECK(choose(p, &d, &t) == SERVET_OK && t.untiled, "a halo of 100000: untiled (%lld)", (long long)t.tile[0]);
    CHECK(strstr(t.reason, "no level holds") != NULL && strstr(t.reason, "already fits") == NULL,
          "a halo of 100000: no level holds the reuse: %s", t.reason);
    d.arrays[0].halo = 0;
    /* every tile a multiple of 16 */
    loops(&d, 3, 1000);
    d.narrays = 3;
    array2(&d.arrays[0], "A", 0, 1); array2(&d.arrays[1], "B", 1, 2); array2(&d.arrays[2], "C", 0, 2);
    d.multiple = 16;
    choose(p, &d, &t);
    for (i = 0, any = 0; i < 3; i++) if (t.tile[i] % 16 && t.tile[i] != 1000) any = 1;
    CHECK(!any, "multiples of 16 (or the extent): %lld %lld %lld", (long long)t.tile[0], (long long)t.tile[1], (long long)t.tile[2]);
    /* tiles cut their loop evenly: the model prices N / ceil(N / T) per
       tile, so a tile of 504 of 512 is priced as two of 256 and must be
       given as 256 (the kernel would run 504 and 8) */
    {
        static const int64_t ext[] = {512, 1000, 4000, 2000};
        int e, l, uneven = 0, tiled = 0;
        for (e = 0; e < 4; e++) {
            for (i = 0; i < 3; i++) {
                servet_tile_desc q;
                if (i < 2) {
                    loops(&q, 2, ext[e]);
                    q.narrays = 2;
                    array2(&q.arrays[0], "A", 0, 1);
                    array2(&q.arrays[1], "B", i == 0 ? 1 : 0, i == 0 ? 0 : 1);
                    if (i == 1) { q.arrays[0].halo = 2; q.arrays[1].streamed = 1; }
                } else {
                    /* a 3-D stencil of radius 1 */
                    loops(&q, 3, ext[e] / 4);
                    q.narrays = 2;
                    for (l = 0; l < 2; l++) {
                        memset(&q.arrays[l], 0, sizeof q.arrays[l]);
                        q.arrays[l].name = l ? "OUT" : "IN";
                        q.arrays[l].nloops = 3;
                        q.arrays[l].loops[0] = 0; q.arrays[l].loops[1] = 1; q.arrays[l].loops[2] = 2;
                    }
                    q.arrays[0].halo = 1;
                    q.arrays[1].streamed = 1;
                }
                if (choose(p, &q, &t) != SERVET_OK) { uneven++; continue; }
                for (l = 0; l < q.nloops; l++) {
                    int64_t N = q.loops[l].extent, T = t.tile[l], nt;
                    if (T >= N || T % 8) continue;
                    tiled++;
                    nt = (N + T - 1) / T;
                    if (T != ((N + nt - 1) / nt + 7) / 8 * 8) uneven++;
                }
            }
        }
        CHECK(uneven == 0 && tiled > 0, "tiles cut their loops evenly: %d uneven of %d tiled loops", uneven, tiled);
    }
    /* nested tiles per level when asked; a smaller level never gets a larger working set */
    d.multiple = 0;
    d.all_levels = 1;
    choose(p, &d, &t);
    CHECK(t.nlevels == 3 && t.levels[0].level == 1 && t.levels[0].working_set_bytes <= t.levels[0].capacity_bytes,
          "per-level tiles: L1 %lld fits (%.0f <= %.0f)", (long long)t.levels[0].tile[0], t.levels[0].working_set_bytes,
          t.levels[0].capacity_bytes);
    CHECK(t.levels[0].working_set_bytes <= t.levels[1].working_set_bytes, "L1's tile no larger than L2's");
    {
        /* the levels' tiles nest, loop by loop: an i,k,j matmul at 2048^3,
           doubles and floats, square and not. Until 2026-12-06 each level
           was searched over the whole nest: floats not square got L1 352 x
           8 x 1024 and L2 352 x 16 x 2048 in L3's 256 x 16 x 2048 here (on
           the Zen 5 VM's profile, doubles square: L1 1024, L2 256, L3 512) */
        servet_tile_desc mm;
        servet_tile tm;
        int sq, c, l, nested;
        for (sq = 0; sq < 4; sq++) {
            nested = 1;
            matmul_desc(&mm, 2048, 0);
            if (sq & 2) mm.elem_bytes = 4;
            mm.square = sq & 1;
            mm.all_levels = 1;
            CHECK(choose(p, &mm, &tm) == SERVET_OK && tm.nlevels == 3, "matmul 2048^3 %s%s, every level", sq & 2 ? "floats" : "doubles",
                  sq & 1 ? " square" : "");
            for (c = 0; c + 1 < tm.nlevels; c++)
                for (l = 0; l < 3; l++) nested &= tm.levels[c].tile[l] <= tm.levels[c + 1].tile[l];
            CHECK(nested, "matmul 2048^3 %s%s: L1 %lld,%lld,%lld in L2 %lld,%lld,%lld in L3 %lld,%lld,%lld",
                  sq & 2 ? "floats" : "doubles", sq & 1 ? " square" : "",
                  (long long)tm.levels[0].tile[0], (long long)tm.levels[0].tile[1], (long long)tm.levels[0].tile[2],
                  (long long)tm.levels[1].tile[0], (long long)tm.levels[1].tile[1], (long long)tm.levels[1].tile[2],
                  (long long)tm.levels[2].tile[0], (long long)tm.levels[2].tile[1], (long long)tm.levels[2].tile[2]);
        }
    }
    /* deterministic: the same decision twice */
    choose(p, &d, &t2);
    CHECK(memcmp(t.tile, t2.tile, sizeof t.tile) == 0, "deterministic");
    drop(p);
    /* no cache probe: the OS's sizes, and the result says so */
    p = two_core_profile(0);
    transpose_desc(&d, 4096);
    CHECK(choose(p, &d, &t) == SERVET_OK && t.capacity_from_os, "OS sizes used");
    for (i = 0, any = 0; i < t.nwarnings; i++) if (strstr(t.warnings[i], "OS-reported")) any = 1;
    CHECK(any, "warned: no measured sizes");
    drop(p);
}

static void test_tile_bad_input(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc d;
    servet_tile t;
    loops(&d, 2, 100);
    d.narrays = 1;
    array2(&d.arrays[0], "A", 0, 1);
    CHECK(servet_choose_tile(NULL, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "NULL profile");
    CHECK(servet_choose_tile(p, NULL, &t) == SERVET_ERROR_INVALID_ARGUMENT, "NULL desc");
    CHECK(servet_choose_tile(p, &d, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL result");
    d.nloops = 0;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "no loops");
    d.nloops = 2;
    d.elem_bytes = 0;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "zero element size");
    d.elem_bytes = 8;
    d.arrays[0].loops[1] = 5;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "an array over an unknown loop");
    d.arrays[0].loops[1] = 0;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "an array over one loop twice");
    d.arrays[0].loops[1] = 1;
    d.narrays = 0;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "no arrays");
    d.narrays = 1;
    d.loops[1].extent = 0;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "zero extent");
    d.loops[1].extent = 100;
    d.level = 7;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "a level the machine lacks");
    d.level = 0;
    d.arrays[0].ld = 50;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "ld below the row length");
    d.arrays[0].ld = 0;
    d.arrays[0].halo = -1;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "negative halo");
    d.arrays[0].halo = 0;
    d.arrays[0].reduce = -1;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "negative reduce (lanes)");
    d.arrays[0].reduce = SERVET_TILE_MAX_LANES + 1;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "reduce past SERVET_TILE_MAX_LANES");
    d.arrays[0].reduce = 0;
    d.vector = -1;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "negative vector");
    d.vector = SERVET_TILE_MAX_LANES + 1;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_ERROR_INVALID_ARGUMENT, "vector past SERVET_TILE_MAX_LANES");
    d.vector = 0;
    CHECK(servet_choose_tile(p, &d, &t) == SERVET_OK, "and the repaired desc is fine");
    drop(p);
}

/* a loop the kernel does not tile (servet_tile_loop.untiled): its tile is
   its extent, the other loops are still fitted (C += A A^T tiled over i, j
   with the sum over p whole: the block of A's rows over j is what a tile
   keeps); square gives the one size to the tiled loops only, the near-ties
   keep the loop whole too; every loop untiled is the untiled answer, said
   so in the reason; and a transpose with its outer loop whole still cuts
   the inner one */
static void test_tile_untiled_loops(void) {
    servet_profile *p = two_core_profile(1);
    servet_tile_desc q;
    servet_tile t, told, big;
    int l, sq;
    /* syrk: loops i, j, p; A as rows i (Ai: i,p) and as rows j (Aj: j,p); C i,j */
    loops(&q, 3, 2000);
    q.loops[2].extent = 256;
    q.narrays = 3;
    array2(&q.arrays[0], "Ai", 0, 2); q.arrays[0].output = -1;
    array2(&q.arrays[1], "Aj", 1, 2); q.arrays[1].output = -1;
    array2(&q.arrays[2], "C", 0, 1);
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK, "syrk, p told: decided");
    q.loops[2].untiled = 1;
    for (sq = 0; sq < 2; sq++) {
        q.square = sq;
        CHECK(servet_choose_tile(p, &q, &told) == SERVET_OK, "syrk, p untiled (square %d): decided", sq);
        CHECK(told.tile[2] == 256, "syrk, square %d: the untiled loop p keeps its extent (%lld)", sq, (long long)told.tile[2]);
        CHECK(told.tile[0] < 2000 && told.tile[1] < 2000, "syrk, square %d: i and j are still tiled (%lld x %lld)", sq,
              (long long)told.tile[0], (long long)told.tile[1]);
        if (sq) CHECK(told.tile[0] == told.tile[1], "syrk, square: one size for i and j (%lld, %lld)", (long long)told.tile[0],
                      (long long)told.tile[1]);
        for (l = 0; l < told.nalternatives; l++)
            CHECK(told.alternatives[l][2] == 256, "syrk, square %d: near-tie %d keeps p whole too", sq, l);
    }
    /* the p the kernel keeps whole is 4x longer: whole, and what the tile
       keeps fits the capacity it was fitted into */
    q.loops[2].extent = 1024;
    CHECK(servet_choose_tile(p, &q, &big) == SERVET_OK && big.tile[2] == 1024 && big.tile[0] < 2000 &&
              big.working_set_bytes <= big.capacity_bytes,
          "syrk, square, p = 1024 whole: %lld x %lld, %.0f of %.0f bytes", (long long)big.tile[0], (long long)big.tile[1],
          big.working_set_bytes, big.capacity_bytes);
    /* every loop untiled: the untiled answer */
    for (l = 0; l < 3; l++) q.loops[l].untiled = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.untiled && t.tile[0] == 2000 && t.tile[1] == 2000 &&
              t.tile[2] == 1024 && strstr(t.reason, "keeps every loop untiled") != NULL,
          "every loop untiled: the full extents, said so (%s)", t.reason);
    /* a transpose at 4096^2 with i (the outer loop) untiled: the strips of
       j are still cut (B's rows written as a few streams along i, A's
       column strip a line a row); with j untiled instead, the answer is
       whatever the model prices, but j stays whole */
    transpose_desc(&q, 4096);
    q.loops[0].untiled = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[0] == 4096 && t.tile[1] < 4096,
          "transpose 4096, i untiled: %lld x %lld", (long long)t.tile[0], (long long)t.tile[1]);
    q.loops[0].untiled = 0;
    q.loops[1].untiled = 1;
    CHECK(servet_choose_tile(p, &q, &t) == SERVET_OK && t.tile[1] == 4096, "transpose 4096, j untiled: %lld x %lld",
          (long long)t.tile[0], (long long)t.tile[1]);
    drop(p);
}

/* Random descs (a fixed seed): whatever a script passes `servet tile`, the
   answer is SERVET_OK or SERVET_ERROR_INVALID_ARGUMENT (no crash: the
   sanitizer pass of make test runs this too), and an answer keeps its
   promises - every tile in [1, extent], a multiple of desc.multiple unless
   the whole extent, one size for every loop under square (clipped to each
   extent), the near-ties and the per-level tiles in range too, and the same
   desc decided twice gives the same tile. On this synthetic machine it
   found a square answer that was not one size (servet__tile_search's even
   cut); some 100000 such descs on the Zen 4 VM's own profile, up to 8
   loops, found nothing more. Kept small here (up to 4 loops and 4 arrays: an
   8-loop nest takes up to ~1 s a decision) */
static uint64_t rand_state = 0x9e3779b97f4a7c15ull;
static uint64_t rand_next(void) { return xorshift64(&rand_state); }
static int64_t rand_extent(void) {
    switch (rand_next() % 5) {
    case 0: return 1 + (int64_t)(rand_next() % 16);
    case 1: return 1 + (int64_t)(rand_next() % 1000);
    case 2: return 1 + (int64_t)(rand_next() % 20000);
    case 3: return (int64_t)1 << (rand_next() % 20);
    default: return 1 + (int64_t)(rand_next() % 300);
    }
}
/* a halo per dimension (desc: halo_dim): the same radius on every
   dimension is the uniform halo's answer; a 2D stencil on each plane of a
   3D array ({0, R, R}) counts what the 2D stencil counts on a plane, where
   the uniform halo counts planes it does not read; bad radii are refused.
   Measured (bench_data/tile_outside_halo_dim_zen5_2026-12-05.txt): a radius-2
   star on each of 64 planes of 1024^2 floats, told halo 2 along c too, took
   64 x 16 x 1024 (0.97-0.98 of untiled); told 0x2x2, untiled (the best) */
static void test_tile_halo_dim(void) {
    servet_profile *p = two_core_profile(1), *rec = recorded_profile("zen5_vm_2026-12-05.prof");
    servet_tile_desc q, u, plane;
    servet_tile t1, t2;
    int64_t T[3];
    double ws3, ws2;
    /* {2, 2} on a 2D stencil: the uniform halo's decision, to the tile, the bytes and the price */
    stencil2d_desc(&u, 2000, 2, "IN", "OUT");
    q = u;
    q.arrays[0].halo = 0;
    q.arrays[0].halo_dim[0] = q.arrays[0].halo_dim[1] = 2;
    CHECK(servet_choose_tile(p, &u, &t1) == SERVET_OK && servet_choose_tile(p, &q, &t2) == SERVET_OK &&
              t1.tile[0] == t2.tile[0] && t1.tile[1] == t2.tile[1] && t1.working_set_bytes == t2.working_set_bytes &&
              t1.predicted_ns == t2.predicted_ns,
          "halo_dim {2, 2} = halo 2: %lld x %lld, %g B, %g ns (uniform %lld x %lld, %g B, %g ns)", (long long)t2.tile[0],
          (long long)t2.tile[1], t2.working_set_bytes, t2.predicted_ns, (long long)t1.tile[0], (long long)t1.tile[1],
          t1.working_set_bytes, t1.predicted_ns);
    q.arrays[0].halo = 7; /* unread where any halo_dim is set */
    CHECK(servet_choose_tile(p, &q, &t2) == SERVET_OK && t1.tile[0] == t2.tile[0] && t1.tile[1] == t2.tile[1] &&
              t1.predicted_ns == t2.predicted_ns,
          "halo_dim set: halo unread (%lld x %lld)", (long long)t2.tile[0], (long long)t2.tile[1]);
    /* a 2D star on each plane: c, i, j with {0, 2, 2}; one plane's block is the 2D stencil's */
    stencil3d_desc(&q, 256, 0);
    q.arrays[0].halo_dim[1] = q.arrays[0].halo_dim[2] = 2;
    stencil2d_desc(&plane, 256, 2, "IN", "OUT");
    plane.arrays[1].streamed = 1;
    T[0] = 1; T[1] = 64; T[2] = 64;
    ws3 = tile_ws(p, &q, T);
    ws2 = tile_ws(p, &plane, T + 1);
    CHECK(ws3 == ws2 && ws2 > 0.0, "a tile of one plane, 64 x 64, halo {0, 2, 2}: the 2D stencil's lines (%g = %g bytes)", ws3, ws2);
    q.arrays[0].halo_dim[1] = q.arrays[0].halo_dim[2] = 0;
    q.arrays[0].halo = 2;
    CHECK(tile_ws(p, &q, T) > ws3 + 4.0 * 64 * 64, "the same tile, halo 2 along c too: the rows of 4 more planes, over 16 KiB more (%g)", tile_ws(p, &q, T));
    /* the decision, on the recorded Zen 5 profile: 64 planes of 1024^2 floats */
    if (rec) {
        stencil3d_desc(&q, 1024, 0);
        q.loops[0].extent = 64;
        q.elem_bytes = 4;
        q.arrays[1].streamed = 0; /* OUT written, as the measured kernel and its command line say it */
        q.arrays[0].halo_dim[1] = q.arrays[0].halo_dim[2] = 2;
        CHECK(servet_choose_tile(rec, &q, &t1) == SERVET_OK && t1.untiled,
              "recorded profile, a radius-2 star on each of 64 planes of 1024^2 floats, halo 0x2x2: untiled (%lld x %lld x %lld)",
              (long long)t1.tile[0], (long long)t1.tile[1], (long long)t1.tile[2]);
    }
    /* bad radii */
    stencil2d_desc(&q, 100, 0, "IN", "OUT");
    q.arrays[0].halo_dim[1] = -1;
    CHECK(servet_choose_tile(p, &q, &t1) == SERVET_ERROR_INVALID_ARGUMENT, "a negative halo_dim: invalid");
    q.arrays[0].halo_dim[1] = SERVET_TILE_MAX_HALO + 1;
    CHECK(servet_choose_tile(p, &q, &t1) == SERVET_ERROR_INVALID_ARGUMENT, "a halo_dim over SERVET_TILE_MAX_HALO: invalid");
    q.arrays[0].halo_dim[1] = 0;
    q.arrays[0].halo_dim[2] = 1;
    CHECK(servet_choose_tile(p, &q, &t1) == SERVET_ERROR_INVALID_ARGUMENT, "a halo_dim past the array's dimensions: invalid");
    q.arrays[0].halo_dim[2] = 0;
    q.arrays[0].halo_dim[0] = 3;
    q.arrays[0].dims[0] = 104; /* under 100 + 2 x 3 */
    CHECK(servet_choose_tile(p, &q, &t1) == SERVET_ERROR_INVALID_ARGUMENT, "dims under the extent + 2 x its dimension's halo: invalid");
    q.arrays[0].dims[0] = 106;
    CHECK(servet_choose_tile(p, &q, &t1) == SERVET_OK, "dims of the extent + 2 x its dimension's halo: OK");
    drop(p);
    if (rec) drop(rec);
}
/* >>decide step 6g: the loop around the innermost one starts once per
   point of the loops outside it in the tile, past the tile's first entry;
   by hand: none in a 2D nest, 100 x 10 x 10 - 1000 in a 100^3 i,k,j matmul
   at 10^3, and in a 3x3 convolution whose r, s loops sit outside y, x
   (k, c, r, s, y, x at 64, 64, 3, 3, 112, 112; tile 64 x 16 x 3 x 3 x 2 x
   112) 64 x 64 x 9 x 56 entries less its 4 x 56 tiles. Measured on the
   Zen 5 VM (bench_data/tile_outside_conv_channels_zen5_2026-12-06.txt):
   that convolution at y tiles of 2 ran 0.855 of 64 x 64 x 8 x 112 (the
   grid's best), y tiles of 8-28 within 6% of it; the recorded Zen 5
   profile takes 8 rows or more */
static void conv_rs_desc(servet_tile_desc *q, int64_t ch, int64_t plane) {
    static const char *names[] = {"k", "c", "r", "s", "y", "x"};
    int l;
    memset(q, 0, sizeof *q);
    q->nloops = 6;
    for (l = 0; l < 6; l++) { q->loops[l].name = names[l]; q->loops[l].extent = l < 2 ? ch : l < 4 ? 3 : plane; }
    q->loops[2].untiled = q->loops[3].untiled = 1;
    q->narrays = 3;
    q->arrays[0].name = "IN"; q->arrays[0].nloops = 3; /* IN[c][y + r][x + s] */
    q->arrays[0].loops[0] = 1; q->arrays[0].loops[1] = 4; q->arrays[0].loops[2] = 5;
    q->arrays[0].halo_dim[1] = q->arrays[0].halo_dim[2] = 1;
    q->arrays[1].name = "W"; q->arrays[1].nloops = 4;
    for (l = 0; l < 4; l++) q->arrays[1].loops[l] = l;
    q->arrays[2].name = "OUT"; q->arrays[2].nloops = 3;
    q->arrays[2].loops[0] = 0; q->arrays[2].loops[1] = 4; q->arrays[2].loops[2] = 5;
    q->elem_bytes = 4;
    q->vector = 16;
}
static void test_tile_entries(void) {
    servet_profile *rec = recorded_profile("zen5_vm_2026-12-05.prof");
    servet_tile_desc q;
    servet__tmodel M;
    servet_tile t;
    int64_t T[6];
    double e;
    transpose_desc(&q, 1000);
    tile_model(&M, &q);
    T[0] = T[1] = 8;
    CHECK(servet__tile_entries(&M, T) == 0.0, "a 2D nest: no entries past its tiles (%g)", servet__tile_entries(&M, T));
    matmul_desc(&q, 100, 0);
    tile_model(&M, &q);
    T[0] = T[1] = T[2] = 10;
    e = servet__tile_entries(&M, T);
    CHECK(e == 100.0 * 10 * 10 - 1000.0, "i,k,j matmul 100^3 at 10^3: 100 x 10 x 10 entries of k less 1000 tiles (%g)", e);
    T[0] = T[1] = T[2] = 100;
    CHECK(servet__tile_entries(&M, T) == 99.0, "untiled: k starts once per i, 100 less the one tile (%g)", servet__tile_entries(&M, T));
    conv_rs_desc(&q, 64, 112);
    tile_model(&M, &q);
    T[0] = 64; T[1] = 16; T[2] = T[3] = 3; T[4] = 2; T[5] = 112;
    e = servet__tile_entries(&M, T);
    CHECK(e == 64.0 * 64 * 9 * 56 - 4.0 * 56, "conv, r, s outside y, x: 64 x 64 x 9 x 56 entries of y less 4 x 56 tiles (%g)", e);
    if (rec) {
        CHECK(servet_choose_tile(rec, &q, &t) == SERVET_OK && t.tile[4] >= 8,
              "recorded profile, 3x3 conv over 64 x 64 channels of 112^2 floats, r, s outside y, x: y tile of 8 or more "
              "(%lld x %lld x %lld x %lld x %lld x %lld)",
              (long long)t.tile[0], (long long)t.tile[1], (long long)t.tile[2], (long long)t.tile[3], (long long)t.tile[4],
              (long long)t.tile[5]);
        drop(rec);
    }
}
/* >>decide step 4: where only some sets of a fitting iteration overflow,
   it loses their lines over the ways, not that share of all its lines. A
   k,i,j matmul at 2048^3 doubles (loops k, i, j; A i,k, B k,j, C i,j; every
   row 16 KiB apart, one L1 set), one k at 8 x 512: C's 8 rows and B's row
   put 9 lines in each of the 64 sets, A's column 8 more in one: 17 there, 5
   over the 12 ways, of 8 x 64 + 64 + 8 = 584 lines. The share 1 - 12/17 of
   them all made 128 x 8 x 512 four times its cost; measured (gcc -O3, zmm),
   it runs 0.60-0.62 s against 0.70-0.74 for the 1024 x 16 x 2048 the model
   took (bench_data/tile_outside_set_excess_zen5_2026-12-06.txt) */
static void test_tile_set_excess(void) {
    servet_profile *rec = recorded_profile("zen5_vm_2026-12-05.prof");
    servet_tile_desc q;
    servet__tmodel M;
    servet_tile t;
    double cover[SERVET_TILE_MAX_LOOPS] = {1.0, 8.0, 512.0}, f, excess = -1.0;
    int nover = -1;
    loops(&q, 3, 2048);
    q.loops[0].name = "k"; q.loops[1].name = "i"; q.loops[2].name = "j";
    q.narrays = 3;
    array2(&q.arrays[0], "A", 1, 0);
    array2(&q.arrays[1], "B", 0, 2);
    array2(&q.arrays[2], "C", 1, 2);
    tile_model(&M, &q);
    f = servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, &nover, &excess);
    CHECK(f == 17.0 && nover == 1, "k,i,j 2048, one k of 8 x 512: 17 lines in the fullest set, 1 set over 12 ways (%g, %d)", f, nover);
    CHECK(fabs(excess - 5.0 / 584.0) < 1e-12, "... 5 of its 584 lines over the ways (%g, want %g)", excess, 5.0 / 584.0);
    cover[1] = 16.0;
    f = servet__tile_set_load(&M, &M.c[0], cover, 12, -1, 0.0, &nover, &excess);
    /* 16 x 512: C's 16 rows and B's row 17 in every set, A's column 16
       more in one: 33 there, and 5 over in each of the 63 others, of 1104 */
    CHECK(f == 33.0 && fabs(excess - (21.0 + 63.0 * 5.0) / (16.0 * 64 + 64 + 16)) < 1e-12,
          "... 16 x 512: 33 lines in the fullest set, (21 + 63 x 5) of 1104 over the ways (%g, %g)", f, excess);
    if (rec) {
        q.vector = 8;
        /* the measured grid's best: i 8 (4 ran 7-12% slower), j 256-512 */
        CHECK(servet_choose_tile(rec, &q, &t) == SERVET_OK && t.tile[1] >= 8 && t.tile[1] <= 12 && t.tile[2] <= 512,
              "recorded profile, k,i,j 2048^3 doubles vectorised: C's rows within the 12 ways, 8 or more, j 512 or less "
              "(%lld x %lld x %lld)",
              (long long)t.tile[0], (long long)t.tile[1], (long long)t.tile[2]);
        drop(rec);
    }
}
/* >>decide step 4: a group kept over a loop leaves ways for a mover's lines
   of this iteration and the last (the L1 is LRU to a cyclic walk: the last
   iteration's lines are younger than the kept lines read first). The i,k,j
   matmul at 3000^3 doubles (B's rows 24000 bytes, 375 lines, apart: 55
   sets on), i's iteration at 8 x 600: B's block puts 11 lines in its
   fullest set, C's row of 75 lines 2 in some (3 with the last row's), A's
   line 1: 15 over 12 ways, where the iteration alone (14, this check
   before) left B's 11 beside C's 2 and A's; at 8 x 504 (63 lines a row): 8
   + 2 + 1 = 11. Measured (gcc -O3, zmm): 8 x 600 2.82 s, 8 x 504 2.55
   (bench_data/tile_outside_lru_movers_zen5_2026-12-06.txt) */
static void test_tile_set_movers(void) {
    servet_profile *rec = recorded_profile("zen5_vm_2026-12-05.prof");
    servet_tile_desc q;
    servet__tmodel M;
    servet_tile t;
    double cover[SERVET_TILE_MAX_LOOPS] = {1.0, 8.0, 600.0}, f;
    int nover = -1;
    matmul_desc(&q, 3000, 0);
    tile_model(&M, &q);
    f = servet__tile_set_load(&M, &M.c[0], cover, 12, 0, 88.0, &nover, NULL);
    CHECK(f == 15.0, "i,k,j 3000^3, i's iteration at 8 x 600: B's 11 lines + C's 3 (two rows) + A's 1 = 15 in the fullest "
          "set (%g)", f);
    cover[2] = 504.0;
    f = servet__tile_set_load(&M, &M.c[0], cover, 12, 0, 88.0, &nover, NULL);
    CHECK(f <= 12.0, "... at 8 x 504: 8 + 2 + 1 = 11, within the 12 ways (%g)", f);
    if (rec) {
        q.vector = 8;
        /* B's block within the ways C's two rows leave: k x j/8 lines at most 8 x 63 */
        CHECK(servet_choose_tile(rec, &q, &t) == SERVET_OK && t.tile[1] * t.tile[2] <= 8 * 504,
              "recorded profile, i,k,j 3000^3 doubles vectorised: B's block leaves ways for C's two rows (%lld x %lld x %lld)",
              (long long)t.tile[0], (long long)t.tile[1], (long long)t.tile[2]);
        drop(rec);
    }
}
/* ... on the three-level model of q */
static double tlb_adds(const servet_tile_desc *q, double entries, const int64_t *T) {
    servet__tmodel Q;
    three_level_model(&Q, q);
    return tlb_level_adds(&Q, entries, T);
}
/* >>decide step 5: the first TLB holds a full tile's pages, not the mean's
   over a remainder (as the sets count a full tile, step 4). By hand: C = A
   B^T of floats at 1000^3, 336 x 96 x 16 (j: ten tiles of 96, one of 40, a
   mean of 90.9): one i of the tile walks B's 96 rows 4000 bytes apart, 1 +
   (95 x 4000 + 60) / 4096 pages, where the mean's 90.9 rows span 88.8.
   Measured on the Zen 5 VM (first TLB reach 90.5 pages): j 64-80 ran
   0.262-0.270 s, 96-128 0.288-0.297 (bench_data/tile_outside_conv_
   channels_zen5_2026-12-06.txt); the recorded Zen 5 profile keeps j under
   96 */
static void test_tile_tlb_full_tile(void) {
    servet_profile *rec = recorded_profile("zen5_vm_2026-12-05.prof");
    servet_tile_desc q;
    servet__tmodel Q;
    servet__tgeom G;
    servet_tile t;
    int64_t T[3];
    double want;
    nt_desc(&q, 1000, 4);
    q.arrays[2].reduce = 1;
    three_level_model(&Q, &q);
    servet__tile_tlb_level(&Q.c[3], 0, 96.0 * 4096.0, NULL, 0);
    Q.nc = 4;
    T[0] = 336; T[1] = 96; T[2] = 16;
    servet__tile_geometry(&Q, T, 0, &G);
    want = 1.0 + (95.0 * 4000.0 + 60.0) / 4096.0;
    CHECK(fabs(G.pages_full_in[3][1] - want) < 1e-9 && G.pages_in[3][1] < want - 4.0,
          "C = A B^T 1000^3 floats at 336 x 96 x 16: B's pages over one i, a full tile's %g (want %g), the mean's %g",
          G.pages_full_in[3][1], want, G.pages_in[3][1]);
    T[1] = 100; T[2] = 8; /* ten tiles of 100, 125 of 8: every mean is its tile */
    servet__tile_geometry(&Q, T, 0, &G);
    CHECK(G.pages_full_in[3][1] == G.pages_in[3][1],
          "j 100, k 8 (no remainder): the full tile's pages are the mean's (%g, %g)", G.pages_full_in[3][1],
          G.pages_in[3][1]);
    /* the price: a first TLB of 104 entries (usable 93.6, no curve: all or
       nothing) holds the mean's 90.9 pages an i, not the full tile's 95.8:
       every i of a full tile looks B's 94 rows up again, ~65 M lookups at a
       third of the 2 ns step, ~43 ms; at 80 (12 tiles of 80, one of 40:
       80 pages) it holds them */
    {
        double add96, add80;
        T[1] = 96; T[2] = 16;
        add96 = tlb_adds(&q, 104.0, T);
        T[1] = 80;
        add80 = tlb_adds(&q, 104.0, T);
        CHECK(add96 > 20e6 && add80 < 5e6,
              "C = A B^T at 336 x 96 x 16 past a 104-entry first TLB: its full tiles' lookups, %g ns (> 20 ms); "
              "336 x 80 x 16 %g (< 5 ms)",
              add96, add80);
    }
    if (rec) {
        CHECK(servet_choose_tile(rec, &q, &t) == SERVET_OK && t.tile[1] < 96,
              "recorded profile, C = A B^T 1000^3 floats: j under 96 (%lld x %lld x %lld)", (long long)t.tile[0],
              (long long)t.tile[1], (long long)t.tile[2]);
        drop(rec);
    }
}
static void test_tile_random_descs(void) {
    static const char *names[] = {"i", "j", "k", "l", "m", "n", "o", "q"};
    static const int elems[] = {1, 2, 4, 8, 16, 8, 8, 3}, multiples[] = {1, 2, 4, 8, 16, 3, 7};
    /* three machines: measured caches and memory (step 6c priced), measured
       caches alone, the OS's sizes alone (no cache probe) */
    servet_profile *profiles[3];
    int it, n = 600, ok = 0, invalid = 0, other = 0, broken = 0, which;
    profiles[0] = two_core_profile(1);
    profiles[1] = two_core_profile(1);
    profiles[2] = two_core_profile(0);
    profiles[0]->memory = (servet__memory *)calloc(1, sizeof *profiles[0]->memory);
    if (profiles[0]->memory) {
        profiles[0]->memory->ref_bw = 20e9;
        profiles[0]->memory->interleave = 13e9;
    }
    for (it = 0; it < n; it++) {
        servet_profile *p = profiles[it % 3];
        servet_tile_desc d;
        servet_tile t, again;
        servet_result r;
        int l, a, q;
        memset(&d, 0, sizeof d);
        memset(&again, 0, sizeof again);
        d.nloops = 1 + (int)(rand_next() % 4);
        if (rand_next() % 40 == 0) d.nloops = (int)(rand_next() % 12) - 2; /* out of range */
        for (l = 0; l < d.nloops && l < SERVET_TILE_MAX_LOOPS; l++) {
            d.loops[l].name = names[l];
            d.loops[l].extent = rand_next() % 80 == 0 ? -(int64_t)(rand_next() % 3) : rand_extent();
            d.loops[l].untiled = (it * 7 + l) % 9 == 0; /* not from rand_next: the other draws as before */
        }
        d.narrays = 1 + (int)(rand_next() % 4);
        if (rand_next() % 40 == 0) d.narrays = (int)(rand_next() % 20) - 2;
        for (a = 0; a < d.narrays && a < SERVET_TILE_MAX_ARRAYS; a++) {
            servet_tile_array *A = &d.arrays[a];
            int span = d.nloops > 0 ? (d.nloops < 3 ? d.nloops : 3) : 1;
            A->name = rand_next() % 4 ? "X" : NULL;
            A->nloops = 1 + (int)(rand_next() % (uint64_t)span);
            if (rand_next() % 60 == 0) A->nloops = 9;
            for (q = 0; q < A->nloops && q < SERVET_TILE_MAX_LOOPS; q++)
                A->loops[q] = d.nloops > 0 ? (int)(rand_next() % (uint64_t)d.nloops) : 0;
            if (rand_next() % 80 == 0) A->loops[0] = 7;
            if (rand_next() % 5 == 0) A->halo = (int)(rand_next() % 4);
            if (rand_next() % 7 == 0) /* a radius per dimension; some negative, some past the array's dimensions */
                for (q = 0; q < SERVET_TILE_MAX_LOOPS; q++)
                    if (q < A->nloops || rand_next() % 30 == 0) A->halo_dim[q] = (int)(rand_next() % 4) - (rand_next() % 40 == 0);
            if (rand_next() % 6 == 0) A->streamed = 1;
            if (rand_next() % 5 == 0) A->packed = 1;
            if (rand_next() % 4 == 0) A->output = rand_next() % 2 ? 1 : -1;
            if (rand_next() % 10 == 0) A->reduce = rand_next() % 2 ? 1 : (int)(rand_next() % 1100) - 20; /* lanes, some out of range */
            if (rand_next() % 4 == 0) A->ld = rand_extent();
            if (rand_next() % 8 == 0)
                for (q = 0; q < A->nloops && q < SERVET_TILE_MAX_LOOPS; q++) A->dims[q] = rand_extent();
        }
        d.elem_bytes = rand_next() % 60 == 0 ? 0 : elems[rand_next() % 8];
        if (rand_next() % 4 == 0) d.level = (int)(rand_next() % 5);
        if (rand_next() % 4 == 0) d.threads = (int)(rand_next() % 4);
        if (rand_next() % 2 == 0) d.square = 1;
        d.vector = it % 8 == 3 ? (int)((it * 131) % 1100) - 20 : 0; /* lanes, some out of range; not from rand_next */
        if (rand_next() % 4 == 0) d.multiple = multiples[rand_next() % 7];
        if (rand_next() % 6 == 0) d.all_levels = 1;
        r = servet_choose_tile(p, &d, &t);
        if (r == SERVET_ERROR_INVALID_ARGUMENT) { invalid++; continue; }
        if (r != SERVET_OK) { other++; continue; }
        ok++;
        {
            int bad = t.reason[0] == 0 || t.nwarnings < 0 || t.nwarnings > SERVET_TILE_MAX_WARNINGS ||
                      t.nalternatives < 0 || t.nalternatives > SERVET_TILE_MAX_ALTERNATIVES ||
                      t.nlevels < 0 || t.nlevels > 8;
            int64_t S = 0;
            for (l = 0; l < d.nloops && !bad; l++) {
                int64_t T = t.tile[l], E = d.loops[l].extent;
                bad = T < 1 || T > E || (d.multiple > 0 && T != E && T % d.multiple != 0) || (d.loops[l].untiled && T != E);
                if (T > S && !d.loops[l].untiled) S = T;
                /* near-ties and per-level tiles in range; an untiled loop whole in each */
                for (q = 0; q < t.nalternatives && !bad; q++)
                    bad = t.alternatives[q][l] < 1 || t.alternatives[q][l] > E || (d.loops[l].untiled && t.alternatives[q][l] != E);
                for (q = 0; q < t.nlevels && !bad; q++)
                    bad = t.levels[q].tile[l] < 1 || t.levels[q].tile[l] > E || (d.loops[l].untiled && t.levels[q].tile[l] != E);
            }
            for (l = 0; l < d.nloops && d.square && !bad; l++)
                bad = t.tile[l] != (S < d.loops[l].extent && !d.loops[l].untiled ? S : d.loops[l].extent);
            if (!bad) bad = servet_choose_tile(p, &d, &again) != SERVET_OK || memcmp(again.tile, t.tile, sizeof t.tile) != 0;
            if (bad && broken++ < 3) {
                fprintf(stderr, "  random desc %d (machine %d): a tile out of its promises:", it, it % 3);
                for (l = 0; l < d.nloops; l++) fprintf(stderr, " %s=%lld/%lld", names[l], (long long)t.tile[l], (long long)d.loops[l].extent);
                fprintf(stderr, " multiple %d square %d; near-ties", d.multiple, d.square);
                for (q = 0; q < t.nalternatives; q++)
                    for (l = 0; l < d.nloops; l++) fprintf(stderr, "%s%lld", l ? "," : " ", (long long)t.alternatives[q][l]);
                fprintf(stderr, "; levels");
                for (q = 0; q < t.nlevels; q++)
                    for (l = 0; l < d.nloops; l++) fprintf(stderr, "%s%lld", l ? "," : " ", (long long)t.levels[q].tile[l]);
                fprintf(stderr, "; again");
                for (l = 0; l < d.nloops; l++) fprintf(stderr, " %lld", (long long)again.tile[l]);
                fprintf(stderr, "\n");
            }
        }
    }
    CHECK(other == 0, "%d random descs: every answer OK (%d) or INVALID_ARGUMENT (%d), none else (%d)", n, ok, invalid, other);
    CHECK(ok > n / 5 && invalid > n / 10, "the random descs reach both answers (%d OK, %d invalid)", ok, invalid);
    CHECK(broken == 0, "every OK answer keeps its promises (tiles in range, multiples, square, near-ties, levels, "
          "the same tile twice): %d of %d broke one", broken, ok);
    for (which = 0; which < 3; which++) drop(profiles[which]);
}

int main(void) {
    test_spread_counts_past_255();
    test_compact_order();
    test_placement_bad_input();
    test_usable_capacity();
    test_tile_working_sets();
    test_tile_sets();
    test_tile_set_convolution();
    test_row_starts_by_residues();
    test_ceil_sum();
    test_tile_small_stack();
    test_tile_search_reaches_grid();
    test_tile_runs_held_by_l2();
    test_tile_short_pieces();
    test_tile_utag_warning();
    test_tile_shared_llc_warning();
    test_tile_fast_turns_warning();
    test_tile_untiled_by_margin();
    test_tile_memo_same_answer();
    test_tile_reduce_chain();
    test_tile_reduce_lanes();
    test_tile_column_sum();
    test_tile_halo_window();
    test_tile_one_nest();
    test_tile_crowded_walk();
    test_tile_on_recorded_profile();
    test_tile_kept_vector_lines();
    test_tile_vector();
    test_tile_reduce_split_lines();
    test_tile_reduce_hint_names_output();
    test_tile_reduce_rows_whole();
    test_tile_subline_loop();
    test_tile_tlb_crowding();
    test_tile_overlap_leak();
    test_tile_interleaved_reads();
    test_tile_warm_last_level();
    test_tile_warm_restarts();
    test_tile_store_walk();
    test_tile_halo_reads_in_turn();
    test_tile_offset_conflicts_along_rows();
    test_tile_decisions();
    test_tile_bad_input();
    test_tile_untiled_loops();
    test_tile_halo_dim();
    test_tile_entries();
    test_tile_tlb_full_tile();
    test_tile_set_excess();
    test_tile_set_movers();
    test_tile_random_descs();
    TEST_SUMMARY();
}
