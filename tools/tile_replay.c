/* make tile-replay: servet_choose_tile replayed on the machines that
   make bench-tile measured (bench_data/tile_run*.json), without running a
   kernel: each run file records the measured caches (size, ways, latency),
   the OS's sizes, the TLB reaches, the memory copy bandwidth and (since
   2026-12-02) the interleaved reads' bandwidth of step 6c; a profile
   is rebuilt from them (an hwloc synthetic topology: one package, an L3
   over two cores with private L1 and L2) and the tile decided on it, for
   every kernel and size the run swept. tools/tile_replay.py reads the
   sweeps and scores the tiles against them. A rebuilt profile is not the
   probed one: no TLB curve (the walk's default steps, 2 and 20 ns), the
   memory latency given on the command line when the run did not record
   it. It tells whether a change to the model helps on the other machines
   the project has measured, in seconds; the machine's verdict is still
   make bench-tile.
       bin/tile_replay [--alternatives] < LINES
   LINE: "@kernel n m ld FILE" - the profile the run recorded (since
   2026-12-03, its cache file: exactly what the run decided on; FILE runs
   to the end of the line, spaces and all) - or
   L1 L2 L3 (measured bytes) L1 L2 L3 (OS bytes) ways x 3, latency
   ns x 3, memory latency ns, copy bytes/s (0: none), TLB reach bytes x 2
   (0: none), interleaved reads bytes/s (0: not recorded), kernel
   (transpose|stencil|matmul), n, m, ld. Prints the first loop's square
   tile per line (-1: the decision failed); with
   --alternatives the kernel's own loop's tile (matmul's j) and then
   servet_tile.alternatives, the model's near-ties. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tile_kernels.h"
#include "recorded_profile.h"

static servet_profile *rebuilt(const double *size, const double *os, const double *ways, const double *lat, double mem,
                               double bw, double tlb0, double tlb1, double interleave) {
    char desc[256];
    hwloc_topology_t t;
    servet_profile *p = (servet_profile *)calloc(1, sizeof *p);
    int i;
    if (!p) return NULL;
    snprintf(desc, sizeof desc, "pack:1 l3:1(size=%.0f) l2:2(size=%.0f) l1d:1(size=%.0f) core:1 pu:1", os[2], os[1], os[0]);
    if (hwloc_topology_init(&t) || hwloc_topology_set_synthetic(t, desc) || hwloc_topology_load(t)) return NULL;
    if (servet__topo_extract(p, t) != SERVET_OK) return NULL;
    hwloc_topology_destroy(t);
    p->sections = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE;
    for (i = 0; i < p->ncacheobjs; i++) {
        p->cacheobjs[i].line = 64;
        if (p->cacheobjs[i].level >= 1 && p->cacheobjs[i].level <= 3) p->cacheobjs[i].ways = (int)ways[p->cacheobjs[i].level - 1];
    }
    p->nlevels = 3;
    for (i = 0; i < 3; i++) {
        p->levels[i].size_bytes = p->levels[i].estimate_bytes = size[i];
        p->levels[i].latency = lat[i];
        p->levels[i].method = SERVET_METHOD_STEP;
    }
    p->mem_latency_ns = mem;
    if (bw > 0.0) {
        p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
        if (p->memory) {
            p->memory->ref_bw = bw;
            p->memory->interleave = interleave;
        }
    }
    if (tlb0 > 0.0 && tlb1 > 0.0) {
        p->ntlb = 2;
        p->tlb_bytes[0] = tlb0;
        p->tlb_bytes[1] = tlb1;
    }
    return p;
}

/* the profile a run recorded (its cache file, written out by
   tools/tile_record.py), read against the fingerprint it carries; a file
   that fails the parser's checks says why */
static servet_profile *recorded(const char *path) {
    const char *why = "";
    servet_profile *p = recorded_profile_read(path, &why);
    if (!p && why[0]) fprintf(stderr, "tile_replay: %s: %s\n", path, why);
    return p;
}

int main(int argc, char **argv) {
    double size[3], os[3], ways[3], lat[3], mem, bw, tlb0, tlb1, il;
    int alternatives = argc > 1 && !strcmp(argv[1], "--alternatives");
    char k[32], line[8192], path[4096];
    long n, m, ld;
    while (fgets(line, sizeof line, stdin)) {
        servet_profile *p;
        if (line[0] == '@') {
            int at = 0;
            size_t plen;
            if (sscanf(line + 1, "%31s %ld %ld %ld %n", k, &n, &m, &ld, &at) != 4 || !at) break;
            plen = strcspn(line + 1 + at, "\r\n");
            if (plen == 0 || plen >= sizeof path) break;
            memcpy(path, line + 1 + at, plen);
            path[plen] = 0;
            p = recorded(path);
        } else {
            if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %31s %ld %ld %ld", &size[0],
                       &size[1], &size[2], &os[0], &os[1], &os[2], &ways[0], &ways[1], &ways[2], &lat[0], &lat[1], &lat[2], &mem,
                       &bw, &tlb0, &tlb1, &il, k, &n, &m, &ld) != 21)
                break;
            p = rebuilt(size, os, ways, lat, mem, bw, tlb0, tlb1, il);
        }
        servet_tile_desc d;
        servet_tile t;
        if (!p || n < 8 || (strcmp(k, "transpose") && strcmp(k, "stencil") && strcmp(k, "matmul"))) {
            printf("-1\n");
            continue;
        }
        tile_kernel_describe(!strcmp(k, "transpose") ? TRANSPOSE : !strcmp(k, "stencil") ? STENCIL : MATMUL, n, m, ld, &d);
        if (alternatives) { /* the kernel's own loop (matmul's j, the bench's tile), then the near-ties */
            int j, l = !strcmp(k, "matmul") ? 2 : 0;
            if (servet_choose_tile(p, &d, &t) != SERVET_OK) printf("-1\n");
            else {
                printf("%lld", (long long)t.tile[l]);
                for (j = 0; j < t.nalternatives; j++) printf(" %lld", (long long)t.alternatives[j][l]);
                printf("\n");
            }
        } else
            /* the bench's tile: matmul's j (its i is clipped to m rows) */
            printf("%lld\n", servet_choose_tile(p, &d, &t) == SERVET_OK ? (long long)t.tile[!strcmp(k, "matmul") ? 2 : 0] : -1LL);
        fflush(stdout);
    }
    return 0;
}
