/* Is the warm-up enough? After a build (cyclic) or a placement's warm-up (independent walk),
   time 6 repetitions back to back; if the warm-up left the caches short of their steady
   state, the first repetition is slower than the later ones. Median over placements of
   rep_k / mean(rep_5, rep_6). The cache probe's warm-ups (issue 14): bin/warm_check [PLACEMENTS],
   pinned (taskset -c 0); bench_data/cache_probe_warmup_2026-11-28.txt. */
#define SERVET_IMPLEMENTATION
#include "servet.h"
#include <stdio.h>
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double med(double *v, int n) { qsort(v, (size_t)n, sizeof *v, cmpd); return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]); }
int main(int argc, char **argv) {
    static const double kib[] = {256, 384, 448, 512, 576, 640, 768, 1024, 1536, 2048, 3072};
    int ns = (int)(sizeof kib / sizeof *kib), NP = argc > 1 ? atoi(argv[1]) : 64, mode, i, p, k;
    servet__chase ch;
    if (NP < 2 || NP > 256) { fprintf(stderr, "usage: warm_check [PLACEMENTS 2-256]\n"); return 2; }
    if (!servet__chase_init(&ch, (size_t)64 << 20, 1, (size_t)32 << 20)) return 1;
    for (mode = 0; mode < 2; mode++) {
        printf("%s\n", mode == 0 ? "cyclic (build + warm, then 6 timed walks)" : "independent (placement + warm, then 6 timed walks)");
        printf("   KiB   rep1/late  rep2/late  rep3/late  rep4/late   late ns\n");
        for (i = 0; i < ns; i++) {
            double r[4][256], late[256], b = kib[i] * 1024.0;
            for (p = 0; p < NP; p++) {
                double t[6];
                int q = mode == 0 ? (p % 8) : p; /* the cyclic build: alternate sizes force a rebuild */
                if (mode == 0) {
                    servet__buf *bb = servet__chase_buffer(&ch, b, q);
                    bb->built = 0.0;
                    for (k = 0; k < 6; k++) t[k] = servet__chase_measure(&ch, b, q);
                } else {
                    ch.irm_last_bytes = 0.0;
                    for (k = 0; k < 6; k++) t[k] = servet__irm_measure(&ch, b, q);
                }
                late[p] = 0.5 * (t[4] + t[5]);
                for (k = 0; k < 4; k++) r[k][p] = t[k] / late[p];
            }
            printf("%6.0f", kib[i]);
            for (k = 0; k < 4; k++) printf("   %8.4f", med(r[k], NP));
            printf("   %7.2f\n", med(late, NP));
            fflush(stdout);
        }
    }
    servet__chase_free(&ch);
    return 0;
}
