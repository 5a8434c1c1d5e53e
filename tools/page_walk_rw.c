/* Stores and loads that each touch a different 4 KiB page, over P pages in a
   cycle: the time per access against P, for stores and for loads apart.
   A first-level TLB shows as a step at its entry count. The cache probe's
   TLB walk loads; a core whose stores translate through a smaller TLB of
   their own (a transpose's writes run down a column: one page per store)
   is seen only by the store walk. Each page is touched at a different line
   (page p at line p mod 64) so that the lines spread over the L1's sets;
   the pages are mapped with MADV_NOHUGEPAGE. Pinned to one PU.
       bin/page_walk_rw [PU] [ROUNDS]
   Prints per P the median over rounds of the ns per store and per load. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PW_MAX_PAGES 512
#define PW_ACCESSES (1L << 22)

static double pw_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static int pw_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* P pages, the addresses in a table; 8 independent accesses per step so
   that throughput, not one access's latency, is what is timed */
static double walk(double **addr, int pages, int store) {
    long steps = PW_ACCESSES / pages, s;
    int p;
    double t0;
    uint64_t sum = 0; /* integer adds: a 1-cycle chain, not the FP adder's 4 */
    t0 = pw_now();
    if (store) {
        for (s = 0; s < steps; s++)
            for (p = 0; p < pages; p++) *(volatile double *)addr[p] = (double)s;
    } else {
        for (s = 0; s < steps; s++)
            for (p = 0; p < pages; p++) sum += *(volatile uint64_t *)addr[p];
    }
    t0 = pw_now() - t0;
    if (sum == 1) printf("!");
    return t0 / ((double)steps * pages) * 1e9;
}

int main(int argc, char **argv) {
    static const int sizes[] = {4, 8, 12, 14, 16, 18, 20, 24, 28, 32, 40, 48, 64, 80, 96, 128, 192, 256, 384, 512};
    int pu = argc > 1 ? atoi(argv[1]) : -1, rounds = argc > 2 ? atoi(argv[2]) : 7, i, r, k;
    size_t bytes = (size_t)PW_MAX_PAGES * 4096;
    char *mem;
    double *addr[PW_MAX_PAGES];
    if (rounds < 1 || rounds > 51) rounds = 7;
    if (pu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(pu, &set);
        if (sched_setaffinity(0, sizeof set, &set)) { perror("page_walk_rw: sched_setaffinity"); return 1; }
    }
    mem = (char *)mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) { perror("page_walk_rw: mmap"); return 1; }
#ifdef MADV_NOHUGEPAGE
    madvise(mem, bytes, MADV_NOHUGEPAGE);
#endif
    memset(mem, 1, bytes);
    for (i = 0; i < PW_MAX_PAGES; i++) addr[i] = (double *)(mem + (size_t)i * 4096 + (size_t)(i % 64) * 64);
    printf("# pages  store_ns  load_ns   (median of %d rounds, %ld accesses each, PU %d)\n", rounds, PW_ACCESSES, pu);
    for (k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
        double st[51], ld[51];
        for (r = 0; r < rounds; r++) {
            st[r] = walk(addr, sizes[k], 1);
            ld[r] = walk(addr, sizes[k], 0);
        }
        qsort(st, (size_t)rounds, sizeof st[0], pw_cmp);
        qsort(ld, (size_t)rounds, sizeof ld[0], pw_cmp);
        printf("%6d %9.3f %8.3f\n", sizes[k], st[rounds / 2], ld[rounds / 2]);
    }
    munmap(mem, bytes);
    return 0;
}
