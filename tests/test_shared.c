/* Shared caches, memory contention, pair selection and placement on
   machines this one is not: hwloc synthetic topologies with oracle
   measurements (the paper's Dunnington and Finis Terrae). */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include "helpers.h"

#include <stdlib.h>
#include <string.h>

static unsigned char *all_allowed(const servet_profile *p) {
    unsigned char *a = (unsigned char *)malloc((size_t)p->npus);
    memset(a, 1, (size_t)p->npus);
    return a;
}
static int anc(const servet_profile *p, int pu, int depth) { return p->anc[(size_t)pu * (size_t)p->ndepth + (size_t)depth]; }

/* ---- oracles ---- */
static int oracle_calls;
/* Dunnington-like "pack:4 l3:1 l2:3 core:2 pu:1": depth 1 package, 2 L3, 3 L2 */
static int share_depth;           /* the level's sharing depth in the tree */
static int swap_a = -1, swap_b = -1; /* a pair the OS misreports */
static double dunnington_ratio(void *u, const servet_profile *p, int a, int b, int i, int n) {
    int shared = anc(p, a, share_depth) == anc(p, b, share_depth);
    (void)u; (void)i; (void)n;
    oracle_calls++;
    if ((a == swap_a && b == swap_b) || (a == swap_b && b == swap_a)) shared = !shared;
    return shared ? 3.0 : 1.02;
}
/* Finis Terrae "group:2 group:2 pack:2 core:2 pu:1": same bus (depth 2)
   45% of the reference, same cell (depth 1) 75%, other cell 100%. */
static double finis_bw(void *u, const servet_profile *p, int a, int b, int i, int n) {
    (void)u; (void)i; (void)n;
    oracle_calls++;
    if (anc(p, a, 2) == anc(p, b, 2)) return 990e6;   /* 2200 MB/s * 0.45 */
    if (anc(p, a, 1) == anc(p, b, 1)) return 1650e6;  /* * 0.75 */
    return 2200e6;
}

static int group_list(const servet_profile *p, const int32_t *g, char *out, size_t cap) {
    int k, n = 0, i;
    out[0] = 0;
    for (k = 0;; k++) {
        int pus[256], m = 0;
        char tmp[64];
        if (servet__group_get(p, g, k, pus, 256, &m) != SERVET_OK) break;
        strncat(out, "{", cap - strlen(out) - 1);
        for (i = 0; i < m; i++) {
            snprintf(tmp, sizeof tmp, "%s%d", i ? "," : "", pus[i]);
            strncat(out, tmp, cap - strlen(out) - 1);
        }
        strncat(out, "}", cap - strlen(out) - 1);
        n++;
    }
    return n;
}

static void test_dunnington_sharing(void) {
    servet_profile *p = synthetic("pack:4 l3:1 l2:3 core:2 pu:1");
    unsigned char *al = all_allowed(p);
    servet__share S;
    char buf[4096];
    int ng, i;
    CHECK(p->npus == 24, "24 PUs");
    /* L2: shared by the two cores under one L2 object (depth 3) */
    memset(&S, 0, sizeof S);
    S.level = 2;
    S.threshold = 1.7;
    share_depth = 3;
    oracle_calls = 0;
    CHECK(servet__share_level(p, al, 0, 7, dunnington_ratio, NULL, &S) == SERVET_OK, "L2 study");
    CHECK(oracle_calls == S.npairs && S.npairs <= 6, "pairs measured: %d (Servet: 276)", S.npairs);
    ng = group_list(p, S.group_of, buf, sizeof buf);
    CHECK(ng == 12 && strncmp(buf, "{0,1}{2,3}{4,5}", 15) == 0, "L2 groups: %s", buf);
    CHECK(S.ncontra == 0, "no contradiction");
    free(S.pairs); free(S.group_of);
    /* L3: shared by the package (depth 1) */
    memset(&S, 0, sizeof S);
    S.threshold = 1.7;
    share_depth = 1;
    CHECK(servet__share_level(p, al, 0, 7, dunnington_ratio, NULL, &S) == SERVET_OK, "L3 study");
    ng = group_list(p, S.group_of, buf, sizeof buf);
    CHECK(ng == 4 && strncmp(buf, "{0,1,2,3,4,5}{6,7,8,9,10,11}", 28) == 0, "L3 groups: %s", buf);
    free(S.pairs); free(S.group_of);
    /* the OS misreports one pair: all-pairs finds it, and it changes the groups */
    memset(&S, 0, sizeof S);
    S.threshold = 1.7;
    share_depth = 3;
    swap_a = 0; swap_b = 12;
    CHECK(servet__share_level(p, al, 1, 7, dunnington_ratio, NULL, &S) == SERVET_OK, "all-pairs study");
    CHECK(S.npairs == 276, "all pairs: %d", S.npairs);
    CHECK(S.ncontra == 1, "one contradiction: %d", S.ncontra);
    for (i = 0; i < S.npairs; i++)
        if (S.pairs[i].flags & SERVET__PAIR_CONTRA)
            CHECK(S.pairs[i].a == 0 && S.pairs[i].b == 12, "the contradiction is 0-12 (%d-%d)", S.pairs[i].a, S.pairs[i].b);
    ng = group_list(p, S.group_of, buf, sizeof buf);
    CHECK(strncmp(buf, "{0,1,12,13}", 11) == 0, "0 and 12 joined by measurement: %s", buf);
    swap_a = swap_b = -1;
    free(S.pairs); free(S.group_of);
    free(al);
    servet_close(p);
}

static void test_finis_terrae_memory(void) {
    servet_profile *p = synthetic("group:2 group:2 pack:2 core:2 pu:1");
    unsigned char *al = all_allowed(p);
    servet__memory *M = (servet__memory *)calloc(1, sizeof *M);
    char buf[4096];
    int ng, all;
    CHECK(p->npus == 16, "16 cores");
    for (all = 0; all <= 1; all++) {
        memset(M, 0, sizeof *M);
        M->ref_bw = 2200e6;
        M->tolerance = 0.06;
        oracle_calls = 0;
        CHECK(servet__memory_study(p, al, all, finis_bw, NULL, M) == SERVET_OK, "memory study");
        CHECK(M->nlevels == 2, "two overhead levels: %d", M->nlevels);
        CHECK(fabs(M->levels[0].ratio - 0.45) < 0.01 && fabs(M->levels[1].ratio - 0.75) < 0.01, "45%% and 75%%: %.2f %.2f",
              M->levels[0].ratio, M->levels[1].ratio);
        ng = group_list(p, M->levels[0].group_of, buf, sizeof buf);
        CHECK(ng == 4 && strcmp(buf, "{0,1,2,3}{4,5,6,7}{8,9,10,11}{12,13,14,15}") == 0, "bus groups: %s", buf);
        ng = group_list(p, M->levels[1].group_of, buf, sizeof buf);
        CHECK(ng == 2 && strcmp(buf, "{0,1,2,3,4,5,6,7}{8,9,10,11,12,13,14,15}") == 0, "cell groups: %s", buf);
        if (!all) CHECK(M->npairs <= 8, "pairs measured %d (Servet: 120)", M->npairs);
        else CHECK(M->npairs == 120, "all pairs %d", M->npairs);
        CHECK(M->ncontra == 0, "no contradiction (%d)", M->ncontra);
        /* placement: 4 bandwidth-bound threads, one per bus, both cells */
        p->memory = M;
        {
            int pus[16], i, j, ok = 1;
            servet_result n = servet_choose_placement(p, 4, SERVET_PLACE_SPREAD, pus);
            CHECK(n == SERVET_OK, "placement of 4 threads");
            for (i = 0; i < 4; i++)
                for (j = i + 1; j < 4; j++) if (pus[i] / 4 == pus[j] / 4) ok = 0;
            CHECK(ok, "one thread per bus: %d %d %d %d", pus[0], pus[1], pus[2], pus[3]);
            n = servet_choose_placement(p, 2, SERVET_PLACE_SPREAD, pus);
            CHECK(pus[0] / 8 != pus[1] / 8, "2 threads: different cells (%d %d)", pus[0], pus[1]);
        }
        p->memory = NULL;
        free(M->pairs);
        free(M->levels[0].group_of);
        free(M->levels[1].group_of);
    }
    free(M);
    free(al);
    servet_close(p);
}

static void test_memory_levels_noise(void) {
    /* Fig. 6 grouping with measurement noise: 3 true levels + no-overhead pairs */
    double bw[12] = {0.44, 0.46, 0.45, 0.74, 0.76, 0.75, 0.99, 1.01, 0.98, 0.60, 0.61, 0.59}, lb[8];
    int label[12], n, i;
    for (i = 0; i < 12; i++) bw[i] *= 1000.0;
    n = servet__memory_levels(bw, 12, 1000.0, 0.06, label, lb, 8);
    CHECK(n == 3, "three overhead levels: %d", n);
    CHECK(fabs(lb[0] - 450) < 5 && fabs(lb[1] - 600) < 5 && fabs(lb[2] - 750) < 5, "levels %.0f %.0f %.0f", lb[0], lb[1], lb[2]);
    CHECK(label[6] == 0 && label[7] == 0 && label[8] == 0, "no overhead pairs unlabelled");
}

static void test_pair_counts_and_placement(void) {
    struct { const char *desc; int pus; } t[3] = {{"pack:4 l3:1 l2:3 core:2 pu:1", 24},
                                                  {"pack:2 l3:1 l2:16 core:1 pu:2", 64},
                                                  {"pack:2 numa:2 l3:1 l2:16 core:1 pu:2", 128}};
    int k;
    for (k = 0; k < 3; k++) {
        servet_profile *p = synthetic(t[k].desc);
        unsigned char *al = all_allowed(p);
        servet__pairres *pr = (servet__pairres *)calloc(8192, sizeof *pr);
        int nc, n = servet__select_pairs(p, al, 0, 1, pr, 8192, &nc), i, reps = 0;
        CHECK(p->npus == t[k].pus, "%s: %d PUs", t[k].desc, p->npus);
        for (i = 0; i < n; i++) if (pr[i].flags & SERVET__PAIR_REP) reps++;
        CHECK(reps == nc && n == nc + (nc < 2 ? 2 : nc), "%s: %d classes, %d pairs", t[k].desc, nc, n);
        CHECK(n < t[k].pus * (t[k].pus - 1) / 2 / 10, "far fewer than all pairs: %d", n);
        if (k == 2) {
            /* 128 PUs with SMT: spread 4 threads over the 4 NUMA nodes, no SMT siblings */
            int pus[8], j, ok = 1;
            servet_choose_placement(p, 4, SERVET_PLACE_SPREAD, pus);
            for (i = 0; i < 4; i++)
                for (j = i + 1; j < 4; j++) if (p->pus[pus[i]].numa == p->pus[pus[j]].numa) ok = 0;
            CHECK(ok, "spread: one thread per NUMA node (%d %d %d %d)", pus[0], pus[1], pus[2], pus[3]);
            /* compact 8: all in one L3 group, 8 distinct cores */
            servet_choose_placement(p, 8, SERVET_PLACE_COMPACT, pus);
            ok = 1;
            for (i = 0; i < 8; i++) {
                if (p->pus[pus[i]].package != p->pus[pus[0]].package || p->pus[pus[i]].numa != p->pus[pus[0]].numa) ok = 0;
                for (j = i + 1; j < 8; j++) if (p->pus[pus[i]].core == p->pus[pus[j]].core) ok = 0;
            }
            CHECK(ok, "compact: one L3 group, distinct cores (%d %d %d ...)", pus[0], pus[1], pus[2]);
            CHECK(servet_choose_placement(p, 4, (servet_placement_policy)7, pus) == SERVET_ERROR_INVALID_ARGUMENT,
                  "bad policy rejected");
            CHECK(servet_choose_placement(NULL, 4, SERVET_PLACE_SPREAD, pus) == SERVET_ERROR_INVALID_ARGUMENT, "NULL");
            {
                int *many = (int *)calloc(200, sizeof(int));
                CHECK(servet_choose_placement(p, 200, SERVET_PLACE_SPREAD, many) == SERVET_OK && many[199] >= 0,
                      "more threads than PUs wrap around");
                free(many);
            }
        }
        free(pr);
        free(al);
        servet_close(p);
    }
}

/* One sharing shape (issue 15): every PU in exactly one group, singletons
   included, for measured groups as for the OS's. */
static void test_group_shape_singletons(void) {
    servet_profile *p = synthetic("pack:1 core:4 pu:1");
    int32_t all_alone[4] = {-1, -1, -1, -1}, mixed[4] = {0, 0, -1, -1}, none[4] = {0, 0, 0, 0};
    char buf[256];
    CHECK(p && p->npus == 4, "4 PUs");
    if (!p) return;
    CHECK(servet__group_count(p, all_alone) == 4, "a private level: one group per PU (%d)", servet__group_count(p, all_alone));
    group_list(p, all_alone, buf, sizeof buf);
    CHECK(!strcmp(buf, "{0}{1}{2}{3}"), "private groups listed as singletons: %s", buf);
    CHECK(servet__group_count(p, mixed) == 3, "a pair and two singletons: 3 groups (%d)", servet__group_count(p, mixed));
    group_list(p, mixed, buf, sizeof buf);
    CHECK(!strcmp(buf, "{0,1}{2}{3}"), "mixed groups in order of first PU: %s", buf);
    CHECK(servet__group_count(p, none) == 1, "one group of all PUs");
    group_list(p, none, buf, sizeof buf);
    CHECK(!strcmp(buf, "{0,1,2,3}"), "one shared instance: %s", buf);
    {
        int pus[4], np = -1;
        /* the OS view of the same synthetic machine has the same shape */
        CHECK(servet_cache_reported_group_count(p, 1) == 4 || servet_cache_reported_group_count(p, 1) == 0,
              "reported L1 groups: one per PU or none (%d)", servet_cache_reported_group_count(p, 1));
        CHECK(servet__group_get(p, all_alone, 4, pus, 4, &np) == SERVET_ERROR_NOT_FOUND, "group 4 of 4 not found");
    }
    servet_close(p);
}

int main(void) {
    test_group_shape_singletons();
    test_dunnington_sharing();
    test_finis_terrae_memory();
    test_memory_levels_noise();
    test_pair_counts_and_placement();
    TEST_SUMMARY();
}
