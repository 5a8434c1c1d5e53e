/* The decisions on machines this one is not (hwloc synthetic topologies):
   thread placement now; tile size, rank mapping and aggregation as they land. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static servet_profile *synthetic(const char *desc) {
    hwloc_topology_t t;
    servet_profile *p = (servet_profile *)calloc(1, sizeof *p);
    if (hwloc_topology_init(&t) || hwloc_topology_set_synthetic(t, desc) || hwloc_topology_load(t)) {
        fprintf(stderr, "synthetic topology '%s' failed\n", desc);
        exit(2);
    }
    if (servet__topo_extract(p, t) != SERVET_OK) exit(2);
    p->sections = SERVET_PROBE_TOPOLOGY;
    hwloc_topology_destroy(t);
    return p;
}
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

int main(void) {
    test_spread_counts_past_255();
    test_compact_order();
    test_placement_bad_input();
    TEST_SUMMARY();
}
