/* tune_replay: servet_tune's search replayed on measured landscapes (issue 18).
       tools/tune_replay LANDSCAPES [TRIALS] [SEED]
   LANDSCAPES: one line per kernel and size, as tools/tune_replay.py writes
   them from bench_data/tile_run*.json: "run kernel n seed_tile npoints" and
   then npoints triples "tile rate spread" (the sweep's median rate of each
   tile and the spread (max - min) / median of its runs), then "|" and the
   model's near-ties for that seed (servet_tile.alternatives; none on older
   files). Each trial runs
   servet_tune as make bench-tune does (the sweep's tiles as the value list,
   the model's tile as the seed and its near-ties as more_seeds, 9 points =
   15% of the sweep's 65, 4 repeats)
   with a callback that returns 1 / rate(tile) times a noise draw: normal,
   sigma = spread / 2.3 (the expected range of 5 normal draws is 2.3 sigma),
   and in one run out of 20 a slow spell of 1.3x, as this project's VMs show.
   Reported per landscape and in all: how often the tuned tile's rate is
   within 2% (and 5%) of the landscape's best, the mean ratio, the mean
   number of points. The landscape is itself a noisy measurement, so the
   figures compare searches with each other; the machine's own verdict is
   make bench-tune. No file is read or written (force, no_save).
   TR_REPEATS and TR_POINTS in the environment change the repeats and the
   points (4 and 9), TR_ALTS the most near-ties passed (1, as make
   bench-tune passes). TR_SPELL="ENTER,LENGTH,FACTOR" adds busy spells that
   last: before each run the host turns busy with probability ENTER and a
   busy host quiet again with 1 / LENGTH, every run on a busy host FACTOR x
   slower (this project's VMs: minutes of 1.2-1.6x, e.g. 0.01,30,1.4) - the
   noise that hits every point alike for a while, which the independent
   draws above do not have. make tune-replay pools bench_data's sweeps and
   runs it (no spells). */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 96
typedef struct land {
    char run[64], kernel[32];
    long n, seed;
    int np, nalt;
    int64_t alt[8];
    int64_t tile[MAXP];
    double rate[MAXP], spread[MAXP], best;
} land;
typedef struct noisy {
    const land *L;
    uint64_t rng;
    int busy;                         /* a spell now (TR_SPELL) */
    double enter, leave, factor;      /* its odds a run, and its slowdown (0: no spells) */
} noisy;

static double uniform(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(uint64_t *s) {
    double u = uniform(s), v = uniform(s);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}
static double run_point(void *user, const int64_t *x) {
    noisy *z = (noisy *)user;
    int i;
    for (i = 0; i < z->L->np; i++)
        if (z->L->tile[i] == x[0]) {
            double t = (1.0 / z->L->rate[i]) * (1.0 + z->L->spread[i] / 2.3 * gauss(&z->rng));
            if (uniform(&z->rng) < 0.05) t *= 1.3;
            if (z->factor > 0.0) {
                z->busy = z->busy ? !(uniform(&z->rng) < z->leave) : uniform(&z->rng) < z->enter;
                if (z->busy) t *= z->factor;
            }
            return t > 0 ? t : 1e-9;
        }
    return -1.0;
}
static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    static land Ls[512];
    int nl = 0, trials = argc > 2 ? atoi(argv[2]) : 200, i, t;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    int maxalt = getenv("TR_ALTS") ? atoi(getenv("TR_ALTS")) : 1;
    if (maxalt < 0) maxalt = 0;
    long tot = 0, in2 = 0, in5 = 0;
    double sum_ratio = 0, sum_pts = 0, sum_runs = 0;
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!f || trials < 1) {
        fprintf(stderr, "usage: tune_replay LANDSCAPES [TRIALS] [SEED]\n");
        return 2;
    }
    while (nl < 512) {
        land *L = &Ls[nl];
        int ch;
        do ch = fgetc(f);
        while (ch == '\n' || ch == '\r' || ch == ' ' || ch == '\t');
        if (ch == '#') { /* a comment line: the CPU model of the group below */
            while ((ch = fgetc(f)) != EOF && ch != '\n') {}
            continue;
        }
        if (ch != EOF) ungetc(ch, f);
        if (fscanf(f, "%63s %31s %ld %ld %d", L->run, L->kernel, &L->n, &L->seed, &L->np) != 5) break;
        if (L->np < 1 || L->np > MAXP) return 1;
        L->best = 0;
        for (i = 0; i < L->np; i++) {
            long tl;
            if (fscanf(f, "%ld %lf %lf", &tl, &L->rate[i], &L->spread[i]) != 3) return 1;
            L->tile[i] = tl;
            if (L->rate[i] > L->best) L->best = L->rate[i];
        }
        L->nalt = 0;
        {
            int ch;
            while ((ch = fgetc(f)) == ' ' || ch == '\t') {}
            if (ch == '|') {
                long a;
                for (;;) {
                    while ((ch = fgetc(f)) == ' ' || ch == '\t') {}
                    if (ch == '\n' || ch == EOF) break;
                    ungetc(ch, f);
                    if (fscanf(f, "%ld", &a) != 1) return 1;
                    if (L->nalt < 8) L->alt[L->nalt++] = a;
                }
            } else if (ch != EOF) {
                ungetc(ch, f);
            }
        }
        nl++;
    }
    fclose(f);
    for (i = 0; i < nl; i++) {
        land *L = &Ls[i];
        int64_t grid[MAXP], seedv[1], best[1];
        long k2 = 0, k5 = 0;
        double sr = 0, sp = 0, sn = 0;
        memcpy(grid, L->tile, sizeof grid);
        qsort(grid, (size_t)L->np, sizeof grid[0], cmp_i64);
        for (t = 0; t < trials; t++) {
            servet_tune_desc d;
            servet_tune_info info;
            noisy z;
            double r = 0;
            int q;
            memset(&d, 0, sizeof d);
            d.key = "replay";
            d.nparams = 1;
            d.params[0].name = "tile";
            d.params[0].values = grid;
            d.params[0].nvalues = L->np;
            seedv[0] = L->seed;
            d.seed = seedv;
            d.more_seeds = L->alt;
            d.nmore_seeds = L->nalt < maxalt ? L->nalt : maxalt;
            d.max_evaluations = (int)(0.15 * 65);
            d.repeats = getenv("TR_REPEATS") ? atoi(getenv("TR_REPEATS")) : 4;
            if (getenv("TR_POINTS")) d.max_evaluations = atoi(getenv("TR_POINTS"));
            d.budget_seconds = 600;
            d.force = 1;
            d.no_save = 1;
            d.cache_dir = "/nonexistent/servet-tune-replay";
            memset(&z, 0, sizeof z);
            if (getenv("TR_SPELL")) {
                double len = 0;
                if (sscanf(getenv("TR_SPELL"), "%lf,%lf,%lf", &z.enter, &len, &z.factor) != 3 || len < 1) return 2;
                z.leave = 1.0 / len;
            }
            z.L = L;
            z.rng = seed * 0x9E3779B97F4A7C15ull + (uint64_t)(i * 1000003 + t) * 2654435761ull + 1;
            if (servet_tune(NULL, &d, run_point, &z, best, &info) != SERVET_OK) return 1;
            for (q = 0; q < L->np; q++)
                if (L->tile[q] == best[0]) r = L->rate[q] / L->best;
            k2 += r >= 0.98;
            k5 += r >= 0.95;
            sr += r;
            sp += info.evaluations;
            sn += info.runs;
        }
        printf("%-12s %-9s %5ld seed %4ld: within 2%% %5.1f%%, 5%% %5.1f%%, mean ratio %.3f, points %.1f, runs %.1f\n", L->run,
               L->kernel, L->n, L->seed, 100.0 * k2 / trials, 100.0 * k5 / trials, sr / trials, sp / trials, sn / trials);
        tot += trials;
        in2 += k2;
        in5 += k5;
        sum_ratio += sr;
        sum_pts += sp;
        sum_runs += sn;
    }
    printf("ALL %d landscapes x %d trials: within 2%% %.1f%%, within 5%% %.1f%%, mean ratio %.4f, mean points %.2f, mean runs %.1f\n",
           nl, trials, 100.0 * in2 / tot, 100.0 * in5 / tot, sum_ratio / tot, sum_pts / tot, sum_runs / tot);
    return 0;
}
