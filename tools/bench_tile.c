/* make bench-tile: servet's tile against an exhaustive sweep of the tile,
   on the real kernels of examples/ (blocked transpose, radius-2 stencil,
   blocked matmul with packed blocks), each at three problem sizes: arrays
   that fit the last level, far beyond with a power-of-two leading dimension,
   far beyond without. Every multiple of 8 from 8 to 512, plus untiled, plus
   servet's tile if it is none of those; each run once per round, the order
   shuffled every round (drift hits every tile alike), median over the rounds.
   Writes JSON: per case the best tile and its rate, servet's tile and its
   rate, ratio = servet's rate / the best tile's rate, the two re-timed side
   by side after the sweep (15-75 alternating rounds, side_by_side, the
   median of their ratios and its 95% interval: the best of 66 noisy medians
   is biased high), sweep_ratio = the same from the sweep's medians, tiles 32
   and 64 and untiled, the sweep's wall time, servet's decision time, and
   the machine.
   With TUNE.json (make bench-tune): after each sweep, servet_tune searches
   the same grid, seeded with servet's tile and its first near-tie
   (servet_tile.alternatives), with at most 15% of the sweep's
   points; then the tuned tile, the sweep's best and the seed are timed
   again side by side (15-75 rounds, medians of the rounds' ratios; a tile that
   is two of them is timed once a round), and the warm lookup
   (the answer read back from the tuning file) is timed.
       bin/bench_tile OUT.json [ROUNDS] [CASE-FILTER] [TUNE.json]             */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#ifndef BENCH_TILE_BUILD
#define BENCH_TILE_BUILD "built outside the Makefile: flags not recorded" /* make passes its BENCH_KERNEL_CFLAGS */
#endif
#define TILE_EXAMPLE_NO_MAIN
#define TILE_EXAMPLE_NO_SERVET
#include "../examples/tile_transpose.c"
#include "../examples/tile_stencil.c"
#include "../examples/tile_matmul.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench_cpu.h"
#include "tile_kernels.h"
#include "tile_run.h"

typedef struct bcase {
    int kernel;
    const char *label;
    long m, n, ld; /* matmul: m rows of C; others: n x n, m unused */
} bcase;
static const bcase cases[] = {
    {TRANSPOSE, "fits the last level", 0, 1000, 1000},
    {TRANSPOSE, "far beyond, power-of-two ld", 0, 4096, 4096},
    {TRANSPOSE, "far beyond, other ld", 0, 4000, 4000},
    {STENCIL, "fits the last level", 0, 1000, 1000},
    {STENCIL, "far beyond, power-of-two ld", 0, 4096, 4096},
    {STENCIL, "far beyond, other ld", 0, 4000, 4000},
    {MATMUL, "fits the last level", 512, 512, 512},
    {MATMUL, "far beyond, power-of-two ld", 128, 2048, 2048},
    {MATMUL, "far beyond, other ld", 128, 2000, 2000},
};
static const char *kname[] = {"transpose", "stencil", "matmul"};

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

/* the servet description of each kernel, as its example builds it */
static void describe(const bcase *c, servet_tile_desc *td) { tile_kernel_describe(c->kernel, c->n, c->m, c->ld, td); }

typedef tile_arrays arrays;
typedef struct tune_ctx {
    const bcase *c;
    arrays *x;
} tune_ctx;
static double run_once(const bcase *c, arrays *x, long t);
static double tune_run(void *user, const int64_t *params) {
    tune_ctx *tc = (tune_ctx *)user;
    return run_once(tc->c, tc->x, (long)params[0]);
}
/* one measurement: the kernel `inner` times in a row (short kernels are
   repeated to about 20 ms, so that a timer tick or an interrupt is not the
   result), the time of one */
static int inner = 1;
static double run_once(const bcase *c, arrays *x, long t) {
    double t0 = tile_now_s();
    int k;
    for (k = 0; k < inner; k++) tile_kernel_run(c->kernel, c->n, c->m, c->ld, x, t, t);
    return (tile_now_s() - t0) / inner;
}
/* work per run: bytes moved (transpose), flops (stencil, matmul) */
static double work(const bcase *c) { return tile_kernel_work(c->kernel, c->n, c->m); }

/* The side-by-side check: tiles cand[0..nc-1] (cand[0] the sweep's best)
   timed in rounds, the order rotating each round; per round the ratio
   t(cand[0]) / t(cand[q]) (q's rate over the best's: drift that hits a whole
   round cancels), and per q the median of those ratios with a
   distribution-free 95% interval (order statistics of the rounds' ratios).
   At least CHECK_MIN rounds; then more, up to CHECK_MAX, while any interval
   is wider than +-1% of its median - the stopping rule looks at the
   interval's width, never at the ratio. Why: 15 fixed rounds left the
   check's own error at 4-8% on this project's noisy VMs (2026-11-29, the
   Zen 3 VM: one run timed the 512 matmul's tile 512 against 360 twice, side
   by side, and read 1.039 and 0.963), as large as the margins the issues
   judge (0.95 of the best, within 2%). The interval is the spread within
   one check; two checks of one pair minutes apart can differ by more, the
   machine having changed in between (the same run, 2026-11-29: the 4000
   transpose's 1000 against 136 read 0.968 [0.956, 0.988] in the tile check
   and 0.920 [0.904, 0.943] in the tune check seconds later). A tile that is
   two of the list is timed once a round and stands for both (a tile
   against itself is 1). Also: each tile's median time (med[q]) and the
   rounds run. */
#define CHECK_MIN 15
#define CHECK_MAX 75
typedef struct check_result {
    double ratio[3], lo[3], hi[3], med[3];
    int rounds;
} check_result;
static void ci95(double *v, int n, double *m, double *lo, double *hi) {
    int j;
    qsort(v, (size_t)n, sizeof v[0], cmp_d);
    *m = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    j = (int)floor(0.5 * ((double)n - 1.96 * sqrt((double)n)));
    if (j < 0) j = 0;
    *lo = v[j];
    *hi = v[n - 1 - j];
}
static void side_by_side(const bcase *c, arrays *x, const long *cand, int nc, check_result *out) {
    static double t[3][CHECK_MAX];
    double v[CHECK_MAX];
    int src[3], q, r;
    memset(out, 0, sizeof *out);
    for (q = 0; q < nc; q++)
        for (src[q] = 0; cand[src[q]] != cand[q]; src[q]++) {}
    for (r = 0; r < CHECK_MAX; r++) {
        int wide = 0;
        for (q = 0; q < nc; q++) {
            int qq = (q + r) % nc;
            if (src[qq] == qq) t[qq][r] = run_once(c, x, cand[qq]);
        }
        for (q = 0; q < nc; q++) t[q][r] = t[src[q]][r];
        out->rounds = r + 1;
        for (q = 0; q < nc; q++) {
            int k;
            for (k = 0; k <= r; k++) v[k] = t[0][k] / t[q][k];
            ci95(v, r + 1, &out->ratio[q], &out->lo[q], &out->hi[q]);
            if (out->hi[q] - out->lo[q] > 0.02 * out->ratio[q]) wide = 1;
        }
        if (r + 1 >= CHECK_MIN && !wide) break;
    }
    for (q = 0; q < nc; q++) {
        double lo, hi;
        memcpy(v, t[q], sizeof(double) * (size_t)out->rounds);
        ci95(v, out->rounds, &out->med[q], &lo, &hi);
    }
}

int main(int argc, char **argv) {
    const char *outpath = argc > 1 ? argv[1] : "bench_data/tile.json", *filter = argc > 3 && argv[3][0] ? argv[3] : NULL;
    const char *tunepath = argc > 4 ? argv[4] : NULL;
    FILE *tf = NULL;
    char tunedir[128], cpu[384];
    int rounds = argc > 2 ? atoi(argv[2]) : 5, ci, first = 1;
    servet_profile *prof = NULL;
    servet_desc d;
    servet_machine_info mi;
    FILE *f;
    if (rounds < 1) rounds = 5;
    memset(&d, 0, sizeof d);
    d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE | SERVET_PROBE_MEMORY;
    if (servet_open(&prof, &d) != SERVET_OK) { fprintf(stderr, "bench_tile: servet_open failed\n"); return 1; }
    servet_machine_get(prof, &mi);
    cpu_name(mi.cpu_model, cpu, sizeof cpu);
    f = fopen(outpath, "w");
    if (!f) { fprintf(stderr, "bench_tile: cannot write %s\n", outpath); return 1; }
    fprintf(f, "{\"benchmark\": \"bench_tile: servet_choose_tile vs an exhaustive tile sweep of the real kernel\",\n");
    /* how the kernels were built and described: make bench-tile-vector
       builds them -O3 and says their lanes (TILE_KERNEL_VECTOR, desc.vector) */
    fprintf(f, " \"kernel_build\": \"%s\", \"kernel_vector\": %d,\n", BENCH_TILE_BUILD, tile_kernel_vector());
    fprintf(f, " \"cpu_model\": \"%s\", \"pus\": %d, \"rounds\": %d, \"statistic\": \"sweep: median over rounds, order shuffled per round; a kernel under 20 ms is repeated to 20 ms per measurement; ratio: servet's tile and the sweep's best re-timed side by side, 15-75 rounds in alternating order (more while the 95%% interval of the median is wider than +-1%%), the median of the rounds' ratios, ratio_ci95 its distribution-free 95%% interval (sweep_ratio: from the sweep's medians); arrays placed so that no two share AMD Zen's L1 utag (array_shift_pages: pages past malloc's address, tools/tile_run.h)\",\n",
            cpu, mi.pus, rounds);
    fprintf(f, " \"caches\": [");
    for (ci = 1; ci <= servet_cache_count(prof); ci++) {
        servet_cache_info c;
        servet_cache_get(prof, ci, &c);
        fprintf(f, "%s{\"level\": %d, \"measured_bytes\": %llu, \"reported_bytes\": %llu, \"ways\": %d, \"latency_ns\": %.2f}",
                ci > 1 ? ", " : "", c.level, (unsigned long long)c.size_bytes, (unsigned long long)c.reported_size_bytes,
                c.reported_ways, c.latency_ns);
    }
    {
        /* what the tile model also reads: TLB reach and memory bandwidth */
        servet_memory_info mem;
        double reach;
        fprintf(f, "],\n \"tlb_reach_bytes\": [");
        for (ci = 0; servet_tlb_get(prof, ci, &reach) == SERVET_OK; ci++) fprintf(f, "%s%.0f", ci ? ", " : "", reach);
        if (servet_memory_get(prof, &mem) != SERVET_OK) memset(&mem, 0, sizeof mem);
        fprintf(f, "], \"memory_copy_bytes_per_s\": %.4g", mem.ref_bandwidth_bytes_per_s);
        fprintf(f, ", \"memory_interleaved_read_bytes_per_s\": %.4g", mem.interleaved_read_bytes_per_s);
        /* the store walk (step 5's stores across pages; since 2026-12-08, in the profile too) */
        fprintf(f, ", \"memory_strided_store_pages\": %.0f, \"memory_strided_store_miss_ns\": %.3g", mem.strided_store_pages,
                mem.strided_store_miss_ns);
        /* the latency past the last level (the model's run restarts, step
           6): make tile-replay used 110 ns for every run before 2026-12-03 */
        fprintf(f, ", \"memory_latency_ns\": %.1f", mi.memory_latency_ns);
    }
    {
        servet_cache_info last;
        int nl = servet_cache_count(prof);
        tile_gauge_init(nl > 0 && servet_cache_get(prof, nl, &last) == SERVET_OK ? (double)last.size_bytes : 0.0);
        fprintf(f, ",\n \"host_gauge\": \"host_llc_chase_ns: a dependent random walk over %.0f bytes (the last level measured), ns a step, before the sweep and after the check (tune.json: after its check): where the host lets this VM keep its L3 share, near the L3's latency; where other tenants take it, near memory_latency_ns\"",
                (double)tile_gauge_lines * 64.0);
    }
    {
        /* the profile itself, the cache file's bytes in hex: make tile-replay
           decides on it exactly as this run did (a record without it is
           rebuilt from the figures above, an approximation) */
        char path[4096];
        FILE *pf;
        int ch;
        if (servet_cache_path(&d, path, sizeof path) < sizeof path && (pf = fopen(path, "rb")) != NULL) {
            fprintf(f, ",\n \"profile_file_hex\": \"");
            while ((ch = fgetc(pf)) != EOF) fprintf(f, "%02x", ch);
            fprintf(f, "\"");
            fclose(pf);
        }
    }
    fprintf(f, ",\n \"cases\": [\n");
    if (tunepath) {
        tf = fopen(tunepath, "w");
        if (!tf) { fprintf(stderr, "bench_tile: cannot write %s\n", tunepath); return 1; }
        snprintf(tunedir, sizeof tunedir, "/tmp/servet-bench-tune-%ld", (long)getpid());
        fprintf(tf, "{\"benchmark\": \"bench_tile: servet_tune seeded by servet_choose_tile vs the exhaustive sweep, same grid\",\n");
        fprintf(tf, " \"cpu_model\": \"%s\", \"pus\": %d, \"sweep_rounds\": %d, \"tune_repeats\": 4,\n"
                    " \"check\": \"tuned, best and seed re-timed side by side, 15-75 rounds in rotating order (more while a ratio's 95%% interval is wider than +-1%%), a tile that is two of them timed once a round; rates from medians, ratios the medians of the rounds' own, *_ci95 their distribution-free 95%% intervals\",\n \"cases\": [\n",
                cpu, mi.pus, rounds);
    }
    for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ci++) {
        const bcase *c = &cases[ci];
        servet_tile_desc td;
        servet_tile res;
        arrays x;
        long tiles[80], nt = 0, t, i, r, extent = c->kernel == STENCIL ? c->n - 4 : c->n, servet_t;
        double times[80][16], med[80], t0 = tile_now_s(), sweep_s, best = 1e30, dec_s = 1e30, h2h;
        check_result chk;
        double gauge_before, gauge_after;
        int bi = 0, si = -1, i32 = -1, i64 = -1, iun = -1, k;
        if (filter && !strstr(kname[c->kernel], filter)) continue;
        describe(c, &td);
        for (k = 0; k < 5; k++) { /* the decision's own time: best of 5 calls */
            if (servet_choose_tile(prof, &td, &res) != SERVET_OK) { fprintf(stderr, "bench_tile: decision failed\n"); return 1; }
            if (res.decision_seconds < dec_s) dec_s = res.decision_seconds;
        }
        servet_t = (long)res.tile[c->kernel == MATMUL ? 2 : 0];
        for (t = 8; t <= 512; t += 8) tiles[nt++] = t;
        tiles[nt++] = c->kernel == MATMUL ? (c->n > c->m ? c->n : c->m) : extent; /* untiled */
        for (i = 0; i < nt; i++) if (tiles[i] == servet_t) si = (int)i;
        if (si < 0) { si = (int)nt; tiles[nt++] = servet_t; }
        gauge_before = tile_gauge_ns();
        if (tile_arrays_alloc(c->kernel, c->n, c->m, c->ld, &x)) return 1;
        inner = 1;
        run_once(c, &x, 64); /* warm-up: pages touched, frequency up */
        {
            double t1 = run_once(c, &x, 64);
            inner = t1 > 0 && t1 < 0.02 ? (int)(0.02 / t1) + 1 : 1;
        }
        for (r = 0; r < rounds && r < 16; r++) {
            long order[80];
            for (i = 0; i < nt; i++) order[i] = i;
            for (i = nt - 1; i > 0; i--) { long j = (long)(next_rand() % (uint64_t)(i + 1)), tmp = order[i]; order[i] = order[j]; order[j] = tmp; }
            for (i = 0; i < nt; i++) times[order[i]][r] = run_once(c, &x, tiles[order[i]]);
        }
        sweep_s = tile_now_s() - t0;
        for (i = 0; i < nt; i++) {
            double v[16];
            memcpy(v, times[i], sizeof(double) * (size_t)(rounds < 16 ? rounds : 16));
            qsort(v, (size_t)(rounds < 16 ? rounds : 16), sizeof v[0], cmp_d);
            med[i] = v[(rounds < 16 ? rounds : 16) / 2];
            if (med[i] < best) { best = med[i]; bi = (int)i; }
            if (tiles[i] == 32) i32 = (int)i;
            if (tiles[i] == 64) i64 = (int)i;
        }
        iun = 64; /* tiles[0..63] are 8..512, tiles[64] untiled */
        /* the sweep's best and servet's tile again, side by side (15-75
           rounds, alternating which runs first, side_by_side), the median of
           the rounds' ratios (drift between rounds cancels). The best of 66
           noisy medians is biased high (the largest of many draws), so the
           ratio the issue asks for is this re-measurement; the sweep's own is
           kept beside it */
        memset(&chk, 0, sizeof chk);
        chk.ratio[1] = chk.lo[1] = chk.hi[1] = 1.0;
        if (tiles[bi] != tiles[si]) { /* the same tile twice (512 is the matmul's extent and a multiple of 8): 1 */
            long pair[2];
            pair[0] = tiles[bi];
            pair[1] = tiles[si];
            side_by_side(c, &x, pair, 2, &chk);
        }
        h2h = chk.ratio[1];
        gauge_after = tile_gauge_ns();
        fprintf(f, "%s  {\"kernel\": \"%s\", \"case\": \"%s\", \"m\": %ld, \"n\": %ld, \"ld\": %ld,\n", first ? "" : ",\n",
                kname[c->kernel], c->label, c->m, c->n, c->ld);
        fprintf(f, "   \"best_tile\": %ld, \"best_rate\": %.4g, \"servet_tile\": %ld, \"servet_rate\": %.4g, \"ratio\": %.4f, \"ratio_ci95\": [%.4f, %.4f], \"check_rounds\": %d, \"sweep_ratio\": %.4f,\n",
                tiles[bi], work(c) / med[bi], tiles[si], work(c) / med[si], h2h, chk.lo[1], chk.hi[1], chk.rounds, med[bi] / med[si]);
        fprintf(f, "   \"servet_level\": %d, \"servet_untiled\": %s, \"servet_reason\": \"%s\",\n", res.level,
                res.untiled ? "true" : "false", res.reason);
        fprintf(f, "   \"rate_tile32\": %.4g, \"rate_tile64\": %.4g, \"rate_untiled\": %.4g, \"rate_unit\": \"%s\",\n",
                work(c) / med[i32], work(c) / med[i64], work(c) / med[iun], c->kernel == TRANSPOSE ? "bytes/s" : "flop/s");
        fprintf(f, "   \"sweep_seconds\": %.1f, \"decision_seconds\": %.3g, \"array_shift_pages\": [%d, %d, %d, %d, %d], \"host_llc_chase_ns\": [%.1f, %.1f],\n   \"sweep\": [",
                sweep_s, dec_s, x.shift_pages[0], x.shift_pages[1], x.shift_pages[2], x.shift_pages[3], x.shift_pages[4],
                gauge_before, gauge_after);
        for (i = 0; i < nt; i++) {
            double lo = 1e30, hi = 0;
            for (r = 0; r < rounds && r < 16; r++) { if (times[i][r] < lo) lo = times[i][r]; if (times[i][r] > hi) hi = times[i][r]; }
            fprintf(f, "%s[%ld, %.4g, %.3f]", i ? ", " : "", tiles[i], work(c) / med[i], med[i] > 0 ? (hi - lo) / med[i] : 0.0);
        }
        fprintf(f, "]}");
        fflush(f);
        if (tf) {
            servet_tune_desc dd;
            servet_tune_info ti, warm;
            tune_ctx tc;
            int64_t grid[80], tbest[1], seedv[1], nearv[1];
            double w0, warm_s = 1e30, tune_gauge;
            check_result tchk;
            long cand[3];
            int q;
            char key[128];
            memset(&dd, 0, sizeof dd);
            /* the sweep's tiles, servet's among them (12 is no multiple of 8:
               a seed off the grid would be snapped to a neighbour), sorted */
            for (i = 0; i < nt; i++) grid[i] = tiles[i];
            qsort(grid, (size_t)nt, sizeof grid[0], cmp_i64);
            snprintf(key, sizeof key, "bench %s m=%ld n=%ld ld=%ld", kname[c->kernel], c->m, c->n, c->ld);
            dd.key = key;
            dd.nparams = 1;
            dd.params[0].name = "tile";
            dd.params[0].values = grid;
            dd.params[0].nvalues = (int)nt;
            seedv[0] = servet_t;
            dd.seed = seedv;
            /* the model's first near-tie as a second seed (one: make
               tune-replay, more cost the search its points) */
            if (res.nalternatives > 0) {
                nearv[0] = res.alternatives[0][c->kernel == MATMUL ? 2 : 0];
                dd.more_seeds = nearv;
                dd.nmore_seeds = 1;
            }
            dd.max_evaluations = (int)(0.15 * 65); /* 15% of the sweep's points */
            /* 4 runs a point; with the contenders' re-runs (2 x 4 each, the
               seed and 3 best) up to 68 runs, 21% of the sweep's 325 (make
               tune-replay: 60 on average). The budget the issue counts is
               points, 9 of the sweep's 65; 3 repeats would keep the runs
               near 15% (44 on average) for 63% within 2% in the replay
               against 65% with 4 (bench_data/tune_landscapes.txt) */
            dd.repeats = 4;
            dd.budget_seconds = 600;
            dd.force = 1;
            dd.cache_dir = tunedir;
            tc.c = c;
            tc.x = &x;
            if (servet_tune(prof, &dd, tune_run, &tc, tbest, &ti) != SERVET_OK) { fprintf(stderr, "bench_tile: tune failed\n"); return 1; }
            dd.force = 0;
            for (q = 0; q < 20; q++) { /* the warm lookup: read back from the file */
                w0 = tile_now_s();
                servet_tune(prof, &dd, tune_run, &tc, tbest, &warm);
                if (tile_now_s() - w0 < warm_s) warm_s = tile_now_s() - w0;
            }
            /* the check (side_by_side): cand[0] the sweep's best, [1] the
               tuned tile, [2] the seed; rates from the medians, the two ratios
               the medians of each round's own (drift cancels). A tile that is
               two of the three (the tuner found the sweep's best, or kept the
               seed) is timed once per round and stands for both: a
               configuration against itself is 1, not the 2-3% that two
               timings of one tile differ by on a noisy VM */
            cand[0] = tiles[bi];
            cand[1] = (long)tbest[0];
            cand[2] = servet_t;
            if (cand[1] == cand[0] && cand[2] == cand[0]) { /* one tile: nothing to compare */
                memset(&tchk, 0, sizeof tchk);
                for (q = 0; q < 3; q++) { tchk.ratio[q] = tchk.lo[q] = tchk.hi[q] = 1.0; tchk.med[q] = med[bi]; }
            } else {
                side_by_side(c, &x, cand, 3, &tchk);
            }
            fprintf(tf, "%s  {\"kernel\": \"%s\", \"case\": \"%s\", \"m\": %ld, \"n\": %ld, \"ld\": %ld,\n", first ? "" : ",\n",
                    kname[c->kernel], c->label, c->m, c->n, c->ld);
            fprintf(tf, "   \"tuned_tile\": %ld, \"best_tile\": %ld, \"seed_tile\": %ld, \"tuned_rate\": %.4g, \"best_rate\": %.4g, \"seed_rate\": %.4g,\n",
                    cand[1], cand[0], cand[2], work(c) / tchk.med[1], work(c) / tchk.med[0], work(c) / tchk.med[2]);
            fprintf(tf, "   \"tuned_vs_best\": %.4f, \"tuned_vs_best_ci95\": [%.4f, %.4f], \"seed_vs_best\": %.4f, \"seed_vs_best_ci95\": [%.4f, %.4f], \"check_rounds\": %d,\n",
                    tchk.ratio[1], tchk.lo[1], tchk.hi[1], tchk.ratio[2], tchk.lo[2], tchk.hi[2], tchk.rounds);
            fprintf(tf, "   \"tune_points\": %d, \"tune_runs\": %d, \"sweep_points\": %ld, \"sweep_runs\": %ld,\n",
                    ti.evaluations, ti.runs, nt, nt * (long)rounds);
            tune_gauge = tile_gauge_ns();
            fprintf(tf, "   \"tune_seconds\": %.2f, \"sweep_seconds\": %.1f, \"warm_lookup_seconds\": %.3g, \"warm_from_cache\": %s, \"host_llc_chase_ns\": %.1f}",
                    ti.tune_seconds, sweep_s, warm_s, warm.from_cache ? "true" : "false", tune_gauge);
            fflush(tf);
            printf("          tune: %ld in %d points (%d runs) vs %ld (%ld runs); tuned/best %.3f [%.3f, %.3f], seed/best %.3f [%.3f, %.3f], %d rounds; warm lookup %.0f us; llc walk %.0f ns\n",
                   cand[1], ti.evaluations, ti.runs, nt, nt * (long)rounds, tchk.ratio[1], tchk.lo[1], tchk.hi[1], tchk.ratio[2],
                   tchk.lo[2], tchk.hi[2], tchk.rounds, warm_s * 1e6, tune_gauge);
        }
        first = 0;
        printf("%-9s %-28s best tile %4ld %8.3g   servet %4ld (L%d) %8.3g   ratio %.3f [%.3f, %.3f] %d rounds (sweep %.3f)   t32 %.3f t64 %.3f untiled %.3f  (%.0f s, decision %.0f us; llc walk %.0f/%.0f ns)\n",
               kname[c->kernel], c->label, tiles[bi], work(c) / med[bi], tiles[si], res.level, work(c) / med[si], h2h, chk.lo[1], chk.hi[1],
               chk.rounds, med[bi] / med[si],
               med[bi] / med[i32], med[bi] / med[i64], med[bi] / med[iun], sweep_s, dec_s * 1e6, gauge_before, gauge_after);
        fflush(stdout);
        tile_arrays_free(&x);
    }
    fprintf(f, "\n ]}\n");
    fclose(f);
    if (tf) {
        char cmd[200];
        fprintf(tf, "\n ]}\n");
        fclose(tf);
        snprintf(cmd, sizeof cmd, "rm -rf %s", tunedir);
        if (system(cmd) != 0) fprintf(stderr, "bench_tile: could not remove %s\n", tunedir);
    }
    tile_gauge_free();
    servet_close(prof);
    return 0;
}
