/* interference_trace: how steady is a walk that fits this core's caches?
   (issue 14; bench_data/cache_smt_interference_2026-11-28.txt)

   A cyclic pointer chase over a random permutation of the lines of each
   walk, 4 KiB pages, pinned to one PU, timed in samples of --accesses
   loads. With one size the samples run back to back; with several, each
   turn times one sample of every size in order (after one cycle of
   warm-up). Prints "turn seconds size_kib ns_per_access" per sample.
   A walk that fits the L1 or the L2 has one time when nothing else uses
   the core; a VM whose core is shared with another guest's vCPU (the SMT
   sibling) sees that time only between the stranger's spells.

     bin/interference_trace [--seconds S] [--accesses N] [--pu P] SIZE_KIB...
*/
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
/* a cycle through every line of base[0..bytes) in a random order */
static void **build(char *base, size_t bytes) {
    size_t n = bytes / 64, i, *p = (size_t *)malloc(n * sizeof *p);
    void **start;
    if (!p) return NULL;
    for (i = 0; i < n; i++) p[i] = i;
    for (i = n - 1; i > 0; i--) {
        size_t j = (size_t)(rng() % (i + 1)), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    for (i = 0; i < n; i++) *(void **)(base + p[i] * 64) = base + p[(i + 1) % n] * 64;
    start = (void **)(base + p[0] * 64);
    free(p);
    return start;
}

int main(int argc, char **argv) {
    double seconds = 8.0, t0;
    long accesses = 4096;
    int pu = 0, ns = 0, a, k;
    size_t size[16];
    void **pos[16];
    cpu_set_t set;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--seconds") && a + 1 < argc) seconds = atof(argv[++a]);
        else if (!strcmp(argv[a], "--accesses") && a + 1 < argc) accesses = atol(argv[++a]);
        else if (!strcmp(argv[a], "--pu") && a + 1 < argc) pu = atoi(argv[++a]);
        else if (argv[a][0] != '-' && ns < 16) size[ns++] = (size_t)(atof(argv[a]) * 1024.0) / 64 * 64;
        else {
            fprintf(stderr, "usage: %s [--seconds S] [--accesses N] [--pu P] SIZE_KIB...\n", argv[0]);
            return 2;
        }
    }
    if (ns == 0 || accesses < 8 || !(seconds > 0.0)) {
        fprintf(stderr, "usage: %s [--seconds S] [--accesses N] [--pu P] SIZE_KIB...\n", argv[0]);
        return 2;
    }
    accesses -= accesses % 8;
    CPU_ZERO(&set);
    CPU_SET(pu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) perror("sched_setaffinity (not pinned)");
    for (k = 0; k < ns; k++) {
        size_t map = size[k] + 4096;
        char *b = (char *)mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (b == MAP_FAILED || size[k] < 128) {
            fprintf(stderr, "cannot map a walk of %zu bytes\n", size[k]);
            return 1;
        }
        madvise(b, map, MADV_NOHUGEPAGE); /* 4 KiB pages: a random placement, as the probe's second walk has */
        memset(b, 1, map);
        pos[k] = build(b, size[k]);
        if (!pos[k]) return 1;
    }
    t0 = now();
    for (long turn = 0; now() - t0 < seconds; turn++)
        for (k = 0; k < ns; k++) {
            void **p = pos[k];
            size_t i, lines = size[k] / 64;
            double s, e;
            if (ns > 1)
                for (i = 0; i < lines; i++) p = (void **)*(void *volatile *)p; /* the other walks have had the caches */
            s = now();
            for (long j = 0; j < accesses; j += 8) {
                p = (void **)*(void *volatile *)p; p = (void **)*(void *volatile *)p; p = (void **)*(void *volatile *)p; p = (void **)*(void *volatile *)p;
                p = (void **)*(void *volatile *)p; p = (void **)*(void *volatile *)p; p = (void **)*(void *volatile *)p; p = (void **)*(void *volatile *)p;
            }
            e = now();
            pos[k] = p;
            printf("%ld %.4f %.0f %.3f\n", turn, s - t0, (double)size[k] / 1024.0, (e - s) * 1e9 / (double)accesses);
        }
    return 0;
}
