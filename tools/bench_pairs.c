/* make bench (part): pairs the shared-cache and memory probes measure on
   hwloc synthetic topologies, next to Servet's all-pairs count. Counting
   only: no measurement. */
#define _GNU_SOURCE 1
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    static const char *topo[][2] = {{"pack:4 l3:1 l2:3 core:2 pu:1", "24 PUs, Dunnington-like (L2 shared by 2 cores)"},
                                    {"pack:2 l3:1 l2:16 core:1 pu:2", "64 PUs, 2 packages, SMT2"},
                                    {"pack:2 numa:2 l3:1 l2:16 core:1 pu:2", "128 PUs, 2 packages x 2 NUMA, SMT2"}};
    FILE *f = argc > 1 ? fopen(argv[1], "w") : NULL;
    int k;
    if (f) fprintf(f, "{\"benchmark\":\"pairs measured per probe level\",\"topologies\":[");
    printf("%-40s %6s %8s %10s %14s %16s\n", "synthetic topology", "PUs", "classes", "measured", "Servet (all)", "levels x pairs");
    for (k = 0; k < 3; k++) {
        hwloc_topology_t t;
        servet_profile *p = (servet_profile *)calloc(1, sizeof *p);
        unsigned char al[4096];
        servet__pairres *pr = (servet__pairres *)calloc(16384, sizeof *pr);
        int nc, n, all, levels;
        hwloc_topology_init(&t);
        if (hwloc_topology_set_synthetic(t, topo[k][0]) || hwloc_topology_load(t) || servet__topo_extract(p, t)) return 1;
        memset(al, 1, sizeof al);
        n = servet__select_pairs(p, al, 0, 1, pr, 16384, &nc);
        all = p->npus * (p->npus - 1) / 2;
        levels = servet__reported_levels(p) + 1; /* each cache level, plus memory */
        printf("%-40s %6d %8d %10d %14d %9d x %d\n", topo[k][1], p->npus, nc, n, all, levels, all);
        printf("%-40s %6s %8s %10d %14d   (all levels)\n", "", "", "", n * levels, all * levels);
        if (f)
            fprintf(f, "%s{\"topology\":\"%s\",\"pus\":%d,\"classes\":%d,\"pairs_per_level\":%d,\"servet_pairs_per_level\":%d,"
                       "\"levels\":%d}", k ? "," : "", topo[k][0], p->npus, nc, n, all, levels);
        hwloc_topology_destroy(t);
        servet_close(p);
        free(pr);
    }
    if (f) { fprintf(f, "]}\n"); fclose(f); printf("wrote %s\n", argv[1]); }
    return 0;
}
