/* servet_tune: the search on synthetic cost functions with noise (a known
   optimum, a plateau, an invalid region, a callback that always fails), the
   tuning file (cached answers, force, damage, concurrent tuners of different
   keys) and bad input. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include "helpers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct cost {
    double opt;      /* the optimum (log-scale bowl) */
    double noise;    /* relative, uniform */
    double invalid;  /* values above this are invalid (0: none) */
    double plateau;  /* > 0: flat between opt/plateau and opt*plateau */
    int calls;
    uint64_t rng;
} cost;
static double fcost(void *user, const int64_t *x) {
    cost *c = (cost *)user;
    double v = (double)x[0], d = log2(v / c->opt), u;
    c->calls++;
    if (c->invalid > 0 && v > c->invalid) return -1.0;
    if (c->plateau > 0 && fabs(d) <= log2(c->plateau)) d = 0.0;
    c->rng = c->rng * 6364136223846793005ull + 1442695040888963407ull;
    u = (double)(c->rng >> 11) / 9007199254740992.0;
    return (1.0 + d * d) * (1.0 + c->noise * (2.0 * u - 1.0));
}
static double fcost2(void *user, const int64_t *x) { /* two parameters: bowl at (96, 24) */
    cost *c = (cost *)user;
    double a = log2((double)x[0] / 96.0), b = log2((double)x[1] / 24.0);
    c->calls++;
    return 1.0 + a * a + 0.5 * b * b;
}
/* a valley along a product (a rank-k update's B block tk x tj in L1, 4096
   elements; bench_data/tile_outside_rankk_update_zen5_2026-11-27.txt): a
   block over 4096 overflows L1, one under it loses reuse, and a smaller tk
   is a little better along the valley floor (8 x 512 the best). From
   16 x 256 every single move leaves the floor */
static double product_valley(void *user, const int64_t *x) {
    double blk = (double)x[0] * (double)x[1];
    ((cost *)user)->calls++;
    return 1.0 + (blk > 4096.0 ? 0.3 + 0.1 * log2(blk / 4096.0) : 0.2 * log2(4096.0 / blk)) +
           0.05 * log2((double)x[0] / 8.0);
}
/* a tile that pays only when every loop is cut to a cache's scale (C = A +
   B^T at 2000^2, -O3, aligned arrays, on the Zen 5 VM: 128 x 128 in 0.8-0.85
   of untiled's time, 512 x 512 no faster than untiled; bench_data/tile_
   outside_turns_codegen_zen5_2026-12-04.txt, tune_diagonal_zen5_2026-12-04
   .txt), made sharp: untiled 1.0, strips (one loop cut) 1.3, blocks of 256
   and more 1.1, below them a bowl at (64, 64). From untiled no single or
   opposite-pair move helps, nor every loop divided by 4 */
static double cut_both(void *user, const int64_t *x) {
    double a = log2((double)x[0] / 64.0), b = log2((double)x[1] / 64.0);
    ((cost *)user)->calls++;
    if (x[0] >= 512 && x[1] >= 512) return 1.0;
    if (x[0] >= 512 || x[1] >= 512) return 1.3;
    if (x[0] >= 256 || x[1] >= 256) return 1.1;
    return 0.6 + 0.02 * (a * a + b * b);
}
static double always_fails(void *user, const int64_t *x) {
    (void)x;
    ((cost *)user)->calls++;
    return -1.0;
}
/* the seed is the best point, but its runs during the search (the first 3:
   the default repeats, and a measured point is not run again) fall in a slow
   spell (1.5x): every other point costs 1% more per step of 8 away from it */
static double seed_spell(void *user, const int64_t *x) {
    cost *c = (cost *)user;
    c->calls++;
    if (x[0] == 72) return ++c->rng <= 3 ? 1.5 : 0.99;
    return 1.0 + 0.01 * fabs((double)x[0] - 72.0) / 8.0;
}
/* every run fails after the first `invalid` (as runs killed at the
   budget): the final re-measurement of the contenders fails for all */
static double dies_late(void *user, const int64_t *x) {
    cost *c = (cost *)user;
    c->calls++;
    if ((double)c->calls > c->invalid) return -1.0;
    return 1.0 + fabs(log2((double)x[0] / 96.0));
}
/* a far, narrow optimum (a Zen 5 VM's stencil, 2026-11): tile 8 the best,
   every tile from 16 to 512 worse than untiled (the seed, 4092) */
static double far_narrow(void *user, const int64_t *x) {
    cost *c = (cost *)user;
    c->calls++;
    return x[0] == 8 ? 0.9 : x[0] == 4092 ? 1.0 : 1.3 + 0.2 * log2((double)x[0] / 16.0) / 5.0;
}
/* a narrow optimum next to the seed (the lent Intel Xeon's 512^3 matmul,
   bench_data/tile_run37: 64 the best, 56 and 72-80 at 0.67-0.78 of it, the
   rest 0.71-0.88): factor-4 moves from the seed, 80, step over it; the
   model prices 64 within 1% of 80 (servet_tile.alternatives) */
static double near_narrow(void *user, const int64_t *x) {
    cost *c = (cost *)user;
    double rate;
    c->calls++;
    if (x[0] == 64) c->rng++; /* how often 64 ran */
    rate = x[0] == 64 ? 1.0 : x[0] == 48 || x[0] == 40 ? 0.98 : x[0] == 56 ? 0.67 : x[0] == 72 ? 0.78 : x[0] == 80 ? 0.71
         : x[0] < 40 ? 0.70 + 0.2 * (double)x[0] / 40.0 : 0.80 + 0.08 * log2((double)x[0] / 88.0) / log2(512.0 / 88.0);
    return 1.0 / rate;
}
/* two contenders at the end, the seed (64) and 72, `invalid` apart (the
   seed's runs 1.0 and 1.0 + plateau alternating: its spread, the noise);
   every other point 1.5 and up. opt counts 72's runs */
static double two_contenders(void *user, const int64_t *x) {
    cost *c = (cost *)user;
    c->calls++;
    if (x[0] == 64) return (c->rng++ & 1) ? 1.0 + c->plateau : 1.0;
    if (x[0] == 72) {
        c->opt++;
        return 1.0 + c->invalid;
    }
    return 1.5 + 0.001 * fabs((double)x[0] - 64.0);
}
/* the same, and 72's 8th run (its 6th fresh one, round 5 of the end,
   where 72 runs first) takes 1.3 s: past a 1 s budget's end (+25%) */
static double two_contenders_cut(void *user, const int64_t *x) {
    double t = two_contenders(user, x);
    if (x[0] == 72 && ((cost *)user)->opt == 8.0) usleep(1300000);
    return t;
}
/* the seed (64, 1.0) and 72 (1.1): the seed's 2 search runs fall in a slow
   spell (1.5), 72's in a fast one (0.55); the end's rounds alternate 1x and
   1.6x, alike for both in a round. 72's figure (the lower of its fresh runs'
   median, 1.43, and all runs', 1.1) beats the seed's (1.3); 72 is slower in
   every round */
static double fast_spell(void *user, const int64_t *x) {
    cost *c = (cost *)user;
    int n = c->calls++;
    if (n < 4) return x[0] == 64 ? 1.5 : 0.55; /* the search: 64 twice, then 72 twice */
    return (x[0] == 64 ? 1.0 : 1.1) * (((n - 4) / 2) % 2 ? 1.6 : 1.0);
}
/* two parameters on grids of 8 from 8, 16 points of 1 run, not saved: the
   searches' step tests (2b, 2d) */
static void desc2(servet_tune_desc *d, const char *dir, const char *key, const char *n0, int64_t hi0, const char *n1,
                  int64_t hi1, int64_t *seed) {
    memset(d, 0, sizeof *d);
    d->key = key;
    d->nparams = 2;
    d->params[0].name = n0;
    d->params[1].name = n1;
    d->params[0].lo = d->params[1].lo = 8;
    d->params[0].hi = hi0;
    d->params[1].hi = hi1;
    d->params[0].step = d->params[1].step = 8;
    d->seed = seed;
    d->max_evaluations = 16;
    d->repeats = 1;
    d->no_save = 1;
    d->cache_dir = dir;
}
static void desc1(servet_tune_desc *d, const char *dir, const char *key, int64_t *seed) {
    memset(d, 0, sizeof *d);
    d->key = key;
    d->nparams = 1;
    d->params[0].name = "tile";
    d->params[0].lo = 8;
    d->params[0].hi = 512;
    d->params[0].step = 8;
    d->seed = seed;
    d->budget_seconds = 30;
    d->cache_dir = dir;
}

static void test_search(const char *root) {
    char dir[300];
    servet_tune_desc d;
    servet_tune_info info;
    cost c;
    int64_t best[2], seed = 32, seed2[2] = {16, 256};
    snprintf(dir, sizeof dir, "%s/search", root);
    /* a known optimum with 2% noise, seeded off by 3x */
    memset(&c, 0, sizeof c);
    c.opt = 96; c.noise = 0.02; c.rng = 1;
    desc1(&d, dir, "bowl", &seed);
    d.no_save = 1;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, &info) == SERVET_OK, "bowl tuned");
    {   /* a search that left the seed on a slow spell comes back to it: the seed is
           measured again with the contenders, their runs interleaved, and the
           median of these fresh runs counts (all of the seed's runs: 1.245) */
        cost s1;
        int64_t sd = 72, b1[1];
        servet_tune_desc d1;
        memset(&s1, 0, sizeof s1);
        desc1(&d1, dir, "spell", &sd);
        d1.no_save = 1;
        CHECK(servet_tune(NULL, &d1, seed_spell, &s1, b1, NULL) == SERVET_OK && b1[0] == 72,
              "the seed after a slow spell: %lld", (long long)b1[0]);
    }
    CHECK(best[0] >= 80 && best[0] <= 112, "optimum 96 found within a grid step or two: %lld", (long long)best[0]);
    CHECK(info.evaluations <= 20 && info.evaluations >= 3 && info.runs == c.calls, "%d points, %d runs (%d calls)",
          info.evaluations, info.runs, c.calls);
    CHECK(info.best_seconds <= info.seed_seconds && info.seed_seconds > 1.5, "better than the seed: %.3f < %.3f",
          info.best_seconds, info.seed_seconds);
    /* seeded at the optimum: few points */
    memset(&c, 0, sizeof c);
    c.opt = 96; c.noise = 0.02; c.rng = 2;
    seed = 96;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, &info) == SERVET_OK && best[0] >= 88 && best[0] <= 104,
          "seeded at the optimum: stays (%lld)", (long long)best[0]);
    /* the factors 4, 2, 1.41 and single steps, each way: 9 points, and a
       move or two taken on the 2% noise (12 is under a fifth of a 65-point grid) */
    CHECK(info.evaluations <= 12, "in %d points", info.evaluations);
    /* a plateau: any point on it is fine */
    memset(&c, 0, sizeof c);
    c.opt = 128; c.plateau = 2.0; c.noise = 0.01; c.rng = 3;
    seed = 16;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, &info) == SERVET_OK && best[0] >= 64 && best[0] <= 256,
          "reaches the plateau [64, 256]: %lld", (long long)best[0]);
    /* an invalid region above 300 with the optimum at 400: the best valid point */
    memset(&c, 0, sizeof c);
    c.opt = 400; c.invalid = 300; c.rng = 4;
    seed = 64;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, &info) == SERVET_OK && best[0] <= 300 && best[0] >= 256,
          "never an invalid point, the best valid one: %lld", (long long)best[0]);
    /* an invalid seed */
    seed = 504;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, &info) == SERVET_OK && best[0] <= 300, "from an invalid seed: %lld",
          (long long)best[0]);
    /* a callback that always fails */
    memset(&c, 0, sizeof c);
    CHECK(servet_tune(NULL, &d, always_fails, &c, best, &info) == SERVET_ERROR_PROBE_FAILED && c.calls >= 1,
          "every point invalid: an error (%d calls)", c.calls);
    /* two parameters, one a list */
    {
        static const int64_t list[] = {4, 8, 12, 16, 24, 32, 48, 64, 128, 256};
        memset(&c, 0, sizeof c);
        d.nparams = 2;
        d.params[1].name = "unroll";
        d.params[1].values = list;
        d.params[1].nvalues = 10;
        d.seed = seed2;
        CHECK(servet_tune(NULL, &d, fcost2, &c, best, &info) == SERVET_OK && best[0] >= 80 && best[0] <= 112 &&
                  best[1] >= 16 && best[1] <= 32,
              "2 parameters: (%lld, %lld) for (96, 24)", (long long)best[0], (long long)best[1]);
    }
    /* no single move helps, a pair moved the opposite ways does (step 2b) */
    {
        int64_t sd[2] = {16, 256}, b2[2];
        servet_tune_desc d2;
        memset(&c, 0, sizeof c);
        desc2(&d2, dir, "valley", "tk", 64, "tj", 4096, sd);
        CHECK(servet_tune(NULL, &d2, product_valley, &c, b2, &info) == SERVET_OK && b2[0] == 8 && b2[1] == 512,
              "a valley along tk x tj: (%lld, %lld) for (8, 512) in %d points", (long long)b2[0], (long long)b2[1],
              info.evaluations);
    }
    /* neither: every parameter moved the same way does (step 2d) */
    {
        int64_t sd[2] = {1024, 1024}, b2[2];
        servet_tune_desc d2;
        memset(&c, 0, sizeof c);
        desc2(&d2, dir, "cut both", "ti", 1024, "tj", 1024, sd);
        CHECK(servet_tune(NULL, &d2, cut_both, &c, b2, &info) == SERVET_OK && cut_both(&c, b2) < 0.7,
              "untiled, strips worse, squares better: (%lld, %lld), %.3f, in %d points", (long long)b2[0],
              (long long)b2[1], cut_both(&c, b2), info.evaluations);
    }
    /* converged with points left: the farthest unmeasured value is tried,
       so a far optimum that no local move reaches is found (bench-tune's
       grid: multiples of 8 to 512 and untiled; its 9 points) */
    {
        static int64_t grid[65];
        int64_t sd = 4092, b1[1];
        servet_tune_desc d1;
        int g;
        for (g = 0; g < 64; g++) grid[g] = 8 * (g + 1);
        grid[64] = 4092;
        memset(&c, 0, sizeof c);
        desc1(&d1, dir, "far", &sd);
        d1.params[0].values = grid;
        d1.params[0].nvalues = 65;
        d1.max_evaluations = 9;
        d1.no_save = 1;
        CHECK(servet_tune(NULL, &d1, far_narrow, &c, b1, &info) == SERVET_OK && b1[0] == 8 && info.evaluations <= 9,
              "a far optimum, no local move reaches it: %lld in %d points", (long long)b1[0], info.evaluations);
    }
    /* more seeds (the model's near-ties): measured after the seed, the search
       starts from the best of them */
    {
        int64_t sd = 80, more[2] = {80, 64}, b1[1];
        servet_tune_desc d1;
        memset(&c, 0, sizeof c);
        desc1(&d1, dir, "near", &sd);
        d1.max_evaluations = 9;
        d1.repeats = 3;
        d1.no_save = 1;
        d1.more_seeds = more + 1;
        d1.nmore_seeds = 1;
        CHECK(servet_tune(NULL, &d1, near_narrow, &c, b1, &info) == SERVET_OK && b1[0] == 64 && info.evaluations <= 9,
              "a narrow optimum next to the seed, given as a near-tie: %lld in %d points", (long long)b1[0],
              info.evaluations);
        /* a more-seed that is the seed is not a new point */
        memset(&c, 0, sizeof c);
        d1.more_seeds = more;
        d1.nmore_seeds = 2;
        d1.max_evaluations = 2;
        CHECK(servet_tune(NULL, &d1, near_narrow, &c, b1, &info) == SERVET_OK && info.evaluations == 2 && c.rng > 0 &&
                  b1[0] == 64,
              "the seed given again costs no point: %d points, 64 ran %llu times, best %lld", info.evaluations,
              (unsigned long long)c.rng, (long long)b1[0]);
        d1.nmore_seeds = -1;
        CHECK(servet_tune(NULL, &d1, near_narrow, &c, b1, &info) == SERVET_ERROR_INVALID_ARGUMENT, "nmore_seeds < 0");
        d1.nmore_seeds = 1;
        d1.more_seeds = NULL;
        CHECK(servet_tune(NULL, &d1, near_narrow, &c, b1, &info) == SERVET_ERROR_INVALID_ARGUMENT,
              "nmore_seeds without more_seeds");
    }
    {
        /* every run fails after the first `invalid` calls (servet tune's runner
           kills the runs past the budget), the final re-measurement's too; the
           answer is the search's best, 128, with its time:
           - two points measured (32, 128): not a point read from outside the
             search (2026-11-26: tj 12884901891);
           - five (32, 128, 512, 256, 64): the two contenders' (the seed and
             128) re-runs fail, and the answer is still 128 - not 64, the best
             of the points not re-measured (until 2026-12-05 a failed re-run
             dropped its point: servet tune tuned an 8000^2 column sum to a
             point 35% slower than its seed) */
        static const struct { int calls, points; const char *key; } late[] = {{6, 2, "dies late"}, {15, 5, "dies later"}};
        int li;
        for (li = 0; li < 2; li++) {
            memset(&c, 0, sizeof c);
            c.invalid = late[li].calls;
            seed = 32;
            desc1(&d, dir, late[li].key, &seed);
            d.no_save = 1;
            CHECK(servet_tune(NULL, &d, dies_late, &c, best, &info) == SERVET_OK && best[0] == 128 &&
                      fabs(info.best_seconds - (1.0 + log2(128.0 / 96.0))) < 1e-9 && info.evaluations >= late[li].points,
                  "runs failing after %d points: best %lld in %.3f s (%d points)", late[li].points, (long long)best[0],
                  info.best_seconds, info.evaluations);
        }
    }
    /* the budget in points is a hard limit */
    memset(&c, 0, sizeof c);
    c.opt = 96; c.rng = 5;
    desc1(&d, dir, "bowl", &seed);
    seed = 8;
    d.no_save = 1;
    d.max_evaluations = 4;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, &info) == SERVET_OK && info.evaluations <= 4, "4 points at most: %d",
          info.evaluations);
    {
        /* the end's rounds: 2 x repeats (4 here), more - to 16 - while the two
           best are within the noise of each other (at least 2%): 72 runs its
           2 search runs and 4 or 16 fresh ones */
        int64_t sd = 64, b1[1];
        servet_tune_desc d1;
        desc1(&d1, dir, "two contenders", &sd);
        d1.repeats = 2;
        d1.no_save = 1;
        memset(&c, 0, sizeof c);
        c.invalid = 0.005; /* 72 half a percent behind: close */
        CHECK(servet_tune(NULL, &d1, two_contenders, &c, b1, &info) == SERVET_OK && b1[0] == 64 && c.opt == 18.0,
              "contenders 0.5%% apart: 64 (got %lld), 72 ran %.0f times (18: 2 + 16)", (long long)b1[0], c.opt);
        memset(&c, 0, sizeof c);
        c.invalid = 0.015; /* 1.5% behind, the seed's runs alike (noise 1%): a contender, and within 2% */
        c.plateau = 0.0;
        CHECK(servet_tune(NULL, &d1, two_contenders, &c, b1, &info) == SERVET_OK && b1[0] == 64 && c.opt == 18.0,
              "contenders 1.5%% apart, noise 1%%: within 2%%, 72 ran %.0f times (18)", c.opt);
        memset(&c, 0, sizeof c);
        c.invalid = 0.15; /* 15% behind, the seed's runs 8% apart (noise 0.077: within twice it, a contender; not
                             within it of the seed's median 1.04, so not close) */
        c.plateau = 0.08;
        CHECK(servet_tune(NULL, &d1, two_contenders, &c, b1, &info) == SERVET_OK && b1[0] == 64 && c.opt == 6.0,
              "contenders 15%% apart, noise 8%%: 72 ran %.0f times (6: 2 + 4), best %lld", c.opt, (long long)b1[0]);
        /* paired: 72 slower than the seed in every round is out, though its
           figure is lower (before 2026-12-02: 72) */
        {
            static int64_t two[2] = {64, 72};
            servet_tune_desc d2 = d1;
            d2.params[0].values = two;
            d2.params[0].nvalues = 2;
            memset(&c, 0, sizeof c);
            CHECK(servet_tune(NULL, &d2, fast_spell, &c, b1, &info) == SERVET_OK && b1[0] == 64 && c.calls == 12,
                  "a contender whose search runs fell in a fast spell, slower in every round: 64 (got %lld, %d runs: 12)",
                  (long long)b1[0], c.calls);
        }
        /* the budget ends inside a round, after 72 ran and before 64 did:
           the rounds both completed decide (before 2026-12-02 the one that
           ran last won: 72) */
        memset(&c, 0, sizeof c);
        c.invalid = 0.005;
        d1.budget_seconds = 1.0;
        CHECK(servet_tune(NULL, &d1, two_contenders_cut, &c, b1, &info) == SERVET_OK && b1[0] == 64 && c.opt == 8.0,
              "a budget that cuts a round: 64 (got %lld), 72 ran %.0f times (8)", (long long)b1[0], c.opt);
    }
}

static void test_file(const char *root) {
    char dir[300], path[400];
    servet_tune_desc d;
    servet_tune_info info;
    cost c;
    int64_t best[1], best2[1], seed = 32;
    int i, ok;
    snprintf(dir, sizeof dir, "%s/file", root);
    memset(&c, 0, sizeof c);
    c.opt = 96; c.rng = 7;
    desc1(&d, dir, "transpose n=4096 double", &seed);
    CHECK(servet_tune(NULL, &d, fcost, &c, best, &info) == SERVET_OK && !info.from_cache, "tuned and saved");
    c.calls = 0;
    CHECK(servet_tune(NULL, &d, fcost, &c, best2, &info) == SERVET_OK && info.from_cache && c.calls == 0 &&
              best2[0] == best[0],
          "the second call reads the file, runs nothing (%d calls)", c.calls);
    d.force = 1;
    CHECK(servet_tune(NULL, &d, fcost, &c, best2, &info) == SERVET_OK && !info.from_cache && c.calls > 0, "force re-tunes");
    d.force = 0;
    /* a different key does not see it */
    d.key = "transpose n=4000 double";
    c.calls = 0;
    CHECK(servet_tune(NULL, &d, fcost, &c, best2, &info) == SERVET_OK && !info.from_cache, "another key is tuned");
    /* damage: every byte flipped in turn (a sample) is ignored and the file rewritten */
    {
        FILE *fh;
        unsigned char buf[65536];
        size_t n, pos;
        int rejected = 0, tries = 0;
        snprintf(path, sizeof path, "%s/servet-%016llx.tune", dir, (unsigned long long)0);
        /* find the file: the only .tune in dir */
        {
            char cmd[512];
            FILE *pp;
            snprintf(cmd, sizeof cmd, "ls %s/*.tune", dir);
            pp = popen(cmd, "r");
            if (pp && fgets(path, sizeof path, pp)) path[strcspn(path, "\n")] = 0;
            if (pp) pclose(pp);
        }
        fh = fopen(path, "rb");
        n = fh ? fread(buf, 1, sizeof buf, fh) : 0;
        if (fh) fclose(fh);
        CHECK(n > 64, "tuning file %s: %zu bytes", path, n);
        for (pos = 0; pos < n; pos += (n / 97) + 1) {
            FILE *w = fopen(path, "wb");
            buf[pos] ^= 0x5a;
            fwrite(buf, 1, n, w);
            fclose(w);
            buf[pos] ^= 0x5a;
            c.calls = 0;
            d.key = "transpose n=4096 double";
            servet_tune(NULL, &d, fcost, &c, best2, &info);
            tries++;
            if (!info.from_cache && c.calls > 0) rejected++;
        }
        CHECK(rejected == tries, "a flipped byte anywhere: the file ignored, tuned again (%d of %d)", rejected, tries);
        c.calls = 0;
        CHECK(servet_tune(NULL, &d, fcost, &c, best2, &info) == SERVET_OK && info.from_cache, "and rewritten valid");
        /* truncated */
        {
            FILE *w = fopen(path, "wb");
            fwrite(buf, 1, n / 2, w);
            fclose(w);
        }
        c.calls = 0;
        CHECK(servet_tune(NULL, &d, fcost, &c, best2, &info) == SERVET_OK && !info.from_cache, "truncated: ignored");
    }
    /* 8 processes tune 8 keys at once: every key is in the file afterwards */
    {
        pid_t pids[8];
        for (i = 0; i < 8; i++) {
            pids[i] = fork();
            if (pids[i] == 0) {
                char key[64];
                cost cc;
                memset(&cc, 0, sizeof cc);
                cc.opt = 16.0 * (i + 1); cc.rng = (uint64_t)i + 11;
                snprintf(key, sizeof key, "concurrent key %d", i);
                d.key = key;
                _exit(servet_tune(NULL, &d, fcost, &cc, best2, &info) == SERVET_OK ? 0 : 1);
            }
        }
        for (i = 0, ok = 1; i < 8; i++) {
            int st = 0;
            waitpid(pids[i], &st, 0);
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) ok = 0;
        }
        CHECK(ok, "8 concurrent tuners finished");
        for (i = 0, ok = 1; i < 8; i++) {
            char key[64];
            snprintf(key, sizeof key, "concurrent key %d", i);
            d.key = key;
            c.calls = 0;
            if (servet_tune(NULL, &d, fcost, &c, best2, &info) != SERVET_OK || !info.from_cache) ok = 0;
        }
        CHECK(ok, "all 8 keys merged into one file");
    }
}

static void test_bad_input(const char *root) {
    char dir[300], longkey[400];
    servet_tune_desc d;
    cost c;
    int64_t best[1];
    memset(&c, 0, sizeof c);
    snprintf(dir, sizeof dir, "%s/bad", root);
    desc1(&d, dir, "k", NULL);
    CHECK(servet_tune(NULL, NULL, fcost, &c, best, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL desc");
    CHECK(servet_tune(NULL, &d, NULL, &c, best, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL callback");
    CHECK(servet_tune(NULL, &d, fcost, &c, NULL, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL result");
    d.params[0].lo = 100; d.params[0].hi = 10;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "empty range");
    d.params[0].lo = 8; d.params[0].hi = 512; d.params[0].step = 0;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "step 0");
    d.params[0].step = 8;
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = 0;
    d.key = longkey;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "a key longer than the file allows");
    d.key = "";
    CHECK(servet_tune(NULL, &d, fcost, &c, best, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "an empty key");
    d.key = "k";
    d.nparams = 0;
    CHECK(servet_tune(NULL, &d, fcost, &c, best, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "no parameter");
    CHECK(c.calls == 0, "nothing ran on bad input");
}

/* Random descs (a fixed seed) on a synthetic kernel of up to 4 parameters
   (a bowl on a log scale, noise, sometimes invalid points or none valid):
   every answer is OK, INVALID_ARGUMENT (nothing run) or PROBE_FAILED (only
   where the kernel has invalid points), and an OK answer is a valid point on
   every parameter's grid, found in at most max_evaluations points (40 when
   unsaid), every run counted. 20000 such descs ran clean under ASan +
   UBSan on the Zen 4 VM (session 62); 300 here. */
typedef struct rkernel {
    int n, invalid_mod, all_invalid;
    double opt[SERVET_TUNE_MAX_PARAMS], scale[SERVET_TUNE_MAX_PARAMS], noise;
    long calls;
    uint64_t rng;
} rkernel;
static double rk_unif(uint64_t *s) { return (double)(xorshift64(s) >> 11) / 9007199254740992.0; }
static int rk_invalid(const rkernel *k, const int64_t *x) {
    int i;
    for (i = 0; i < k->n && k->invalid_mod; i++)
        if (x[i] % k->invalid_mod == 3) return 1;
    return k->all_invalid;
}
static double rk_run(void *user, const int64_t *x) {
    rkernel *k = (rkernel *)user;
    double c = 1.0;
    int i;
    k->calls++;
    if (rk_invalid(k, x)) return -1.0;
    for (i = 0; i < k->n; i++) {
        double d = log((fabs((double)x[i]) + 1.0) / (k->opt[i] + 1.0));
        c += k->scale[i] * d * d;
    }
    return 1e-3 * c * (1.0 + k->noise * (rk_unif(&k->rng) - 0.5));
}
static int rk_on_grid(const servet_tune_param *q, int64_t v) {
    int i;
    if (q->values) {
        for (i = 0; i < q->nvalues; i++) if (q->values[i] == v) return 1;
        return 0;
    }
    return v >= q->lo && v <= q->hi && (v - q->lo) % q->step == 0;
}
static void test_random_descs(const char *root) {
    static const char *names[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    static int64_t lists[SERVET_TUNE_MAX_PARAMS][24];
    uint64_t s = 0x5eed5eedull;
    char dir[300], key[64];
    int it, n = 300, ok = 0, invalid = 0, failed = 0, other = 0, broken = 0;
    snprintf(dir, sizeof dir, "%s/random", root);
    for (it = 0; it < n; it++) {
        servet_tune_desc d;
        servet_tune_info info;
        rkernel k;
        int64_t best[SERVET_TUNE_MAX_PARAMS], seed[SERVET_TUNE_MAX_PARAMS], more[4 * SERVET_TUNE_MAX_PARAMS];
        servet_result r;
        int i, j;
        memset(&d, 0, sizeof d);
        memset(&k, 0, sizeof k);
        memset(&info, 0, sizeof info);
        k.rng = (uint64_t)it + 1;
        d.nparams = 1 + (int)(xorshift64(&s) % 4);
        if (xorshift64(&s) % 30 == 0) d.nparams = (int)(xorshift64(&s) % 12) - 2; /* out of range */
        k.n = d.nparams > 0 && d.nparams <= SERVET_TUNE_MAX_PARAMS ? d.nparams : 0;
        for (i = 0; i < k.n; i++) {
            servet_tune_param *q = &d.params[i];
            q->name = names[i];
            if (xorshift64(&s) % 3 == 0) {
                int nv = 1 + (int)(xorshift64(&s) % 20);
                if (xorshift64(&s) % 40 == 0) nv = 0;
                for (j = 0; j < nv; j++) lists[i][j] = (int64_t)(xorshift64(&s) % 5000) - 100;
                q->values = lists[i];
                q->nvalues = nv;
            } else {
                q->lo = (int64_t)(xorshift64(&s) % 100) - 20;
                q->hi = q->lo + (int64_t)(xorshift64(&s) % 5000);
                q->step = 1 + (int64_t)(xorshift64(&s) % 64);
                if (xorshift64(&s) % 40 == 0) q->step = 0;
                if (xorshift64(&s) % 40 == 0) q->hi = q->lo - 1;
            }
            k.opt[i] = (double)(xorshift64(&s) % 3000);
            k.scale[i] = 2.0 * rk_unif(&s);
        }
        k.noise = 0.3 * rk_unif(&s);
        if (xorshift64(&s) % 5 == 0) k.invalid_mod = 2 + (int)(xorshift64(&s) % 5);
        if (xorshift64(&s) % 25 == 0) k.all_invalid = 1;
        snprintf(key, sizeof key, "random %d", it);
        d.key = key;
        if (xorshift64(&s) % 2) {
            for (i = 0; i < SERVET_TUNE_MAX_PARAMS; i++) seed[i] = (int64_t)(xorshift64(&s) % 6000) - 500;
            d.seed = seed;
        }
        if (xorshift64(&s) % 3 == 0) {
            d.nmore_seeds = 1 + (int)(xorshift64(&s) % 4);
            for (i = 0; i < 4 * SERVET_TUNE_MAX_PARAMS; i++) more[i] = (int64_t)(xorshift64(&s) % 6000) - 500;
            d.more_seeds = more;
        }
        if (xorshift64(&s) % 2) d.max_evaluations = (int)(xorshift64(&s) % 30);
        if (xorshift64(&s) % 2) d.repeats = (int)(xorshift64(&s) % 6);
        d.budget_seconds = 5.0;
        d.force = 1;
        d.no_save = 1;
        d.cache_dir = dir;
        r = servet_tune(NULL, &d, rk_run, &k, best, &info);
        if (r == SERVET_ERROR_INVALID_ARGUMENT) {
            invalid++;
            if (k.calls != 0) broken++;
        } else if (r == SERVET_ERROR_PROBE_FAILED) {
            failed++;
            if (!k.invalid_mod && !k.all_invalid) broken++;
        } else if (r == SERVET_OK) {
            int bad = info.evaluations < 1 || info.evaluations > (d.max_evaluations > 0 ? d.max_evaluations : 40) ||
                      info.runs != k.calls || rk_invalid(&k, best);
            ok++;
            for (i = 0; i < d.nparams && !bad; i++) bad = !rk_on_grid(&d.params[i], best[i]);
            if (bad && broken++ < 3)
                fprintf(stderr, "  random desc %d: %d points (max %d), %d runs of %ld calls\n", it, info.evaluations,
                        d.max_evaluations, info.runs, k.calls);
        } else
            other++;
    }
    CHECK(other == 0, "%d random descs: every answer OK (%d), INVALID_ARGUMENT (%d) or PROBE_FAILED (%d), none else (%d)",
          n, ok, invalid, failed, other);
    CHECK(ok > n / 2 && invalid > 0 && failed > 0, "the random descs reach all three answers (%d, %d, %d)", ok, invalid,
          failed);
    CHECK(broken == 0, "every answer keeps its promises (OK: a valid point on the grid, points within the budget, every "
          "run counted; invalid: nothing ran; failed: only with invalid points): %d broke one", broken);
}

/* a move's target (>>tune step 2c): the nearest grid value unless one
   within 1.25x has two more factors of two, outward from the target; the
   same on a list and on a range; never the move's own start */
static void test_snap_move(void) {
    int64_t list[64], x;
    servet_tune_param L = {"t", 0, 0, 0, NULL, 0}, R = {"t", 8, 512, 8, NULL, 0}, one = {"t", 1, 100000, 1, NULL, 0};
    int i, bad = 0, tried = 0;
    for (i = 0; i < 64; i++) list[i] = 8 * (64 - i); /* 512 .. 8, not sorted up */
    L.values = list;
    L.nvalues = 64;
    CHECK(servet__tune_snap_move(&L, 72.0 * 2.0) == 128 && servet__tune_snap_move(&R, 72.0 * 2.0) == 128,
          "72 x 2: 128 (7 twos) over the nearest, 144 (4): list %lld, range %lld",
          (long long)servet__tune_snap_move(&L, 144.0), (long long)servet__tune_snap_move(&R, 144.0));
    CHECK(servet__tune_snap_move(&L, 72.0 * 1.41) == 96 && servet__tune_snap_move(&R, 72.0 * 1.41) == 96,
          "72 x 1.41 = 101.5: 96 (5 twos) over 104 (3); 128 lies past 1.25x: %lld, %lld",
          (long long)servet__tune_snap_move(&L, 101.5), (long long)servet__tune_snap_move(&R, 101.5));
    CHECK(servet__tune_snap_move(&L, 200.0) == 192 && servet__tune_snap_move(&L, 300.0) == 256 &&
              servet__tune_snap_move(&L, 512.0) == 512,
          "200: 192 (6 twos; 224's 5 not 2 more); 300: 288 (5) over 296 (3), then 256 (8); 512 stays (%lld %lld %lld)",
          (long long)servet__tune_snap_move(&L, 200.0), (long long)servet__tune_snap_move(&L, 300.0),
          (long long)servet__tune_snap_move(&L, 512.0));
    CHECK(servet__tune_snap_move(&one, 1000.0) == 1024 && servet__tune_snap_move(&one, 0.5) == 1,
          "a step-1 range: 1000 -> 1024 (992 first, then 1024's 10 twos), 0.5 -> 1 (%lld, %lld)",
          (long long)servet__tune_snap_move(&one, 1000.0), (long long)servet__tune_snap_move(&one, 0.5));
    for (x = 8; x <= 512; x += 8) { /* every factor moves off its start where the nearest value does, and the right way */
        double f[3] = {4.0, 2.0, 1.41};
        int k, r;
        for (k = 0; k < 3; k++)
            for (r = 0; r < 2; r++) {
                const servet_tune_param *q = r ? &R : &L;
                int64_t up = servet__tune_snap_move(q, (double)x * f[k]), down = servet__tune_snap_move(q, (double)x / f[k]);
                tried++;
                if (up < x || down > x || (up == x && servet__tune_snap(q, (double)x * f[k]) != x) ||
                    (down == x && servet__tune_snap(q, (double)x / f[k]) != x))
                    bad++;
            }
    }
    CHECK(bad == 0, "moves by 4, 2 and 1.41 from every tile 8..512, list and range: off their start wherever the nearest "
          "value is, the right way (%d of %d not)", bad, tried);
}

int main(void) {
    char root[256];
    snprintf(root, sizeof root, "/tmp/servet-tune-test-%ld", (long)getpid());
    test_snap_move();
    test_search(root);
    test_file(root);
    test_bad_input(root);
    test_random_descs(root);
    {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf %s", root);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
    }
    TEST_SUMMARY();
}
