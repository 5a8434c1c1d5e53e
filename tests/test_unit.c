/* Unit tests of the pure parts: binomial tail, inference on synthetic and
   simulated curves, TLB separation, bad input, the simulator's shortcut. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "../tools/cachesim.h"
#include "../tools/replay_text.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the number of levels found, or the negative servet_result */
static int infer_or(const double *b, const double *l, int n, double page, servet_cache_level *lv, int max, double *next) {
    int k = 0;
    servet_result r = servet_infer_caches(b, l, n, page, lv, max, &k, next);
    return r == SERVET_OK ? k : (int)r;
}

static uint64_t rng_state = 12345;
static double noise(double sigma) { /* deterministic Gaussian-ish noise */
    double s = 0;
    int i;
    for (i = 0; i < 12; i++) s += (double)(servet__rng_next(&rng_state) >> 11) * (1.0 / 9007199254740992.0);
    return 1.0 + sigma * (s - 6.0);
}

/* a staircase curve: latencies lat[i] up to sizes cap[i] (sharp steps) */
static int staircase(double *b, double *l, const double *cap, const double *lat, int nlev, double sigma) {
    int n = 0, k, j;
    for (k = 0; k < 4 * 16; k++) {
        double s = 4096.0 * pow(2.0, k / 4.0);
        s = ceil(s / 64) * 64;
        b[n] = s;
        l[n] = lat[nlev];
        for (j = 0; j < nlev; j++) if (s <= cap[j]) { l[n] = lat[j]; break; }
        l[n] *= noise(sigma);
        n++;
    }
    return n;
}

static void test_binomial(void) {
    double v;
    CHECK(fabs(servet_binomial_tail(10, 0.5, 2) - 968.0 / 1024.0) < 1e-12, "B(10,.5) P(X>2)");
    CHECK(fabs(servet_binomial_tail(5, 0.1, 0) - (1 - pow(0.9, 5))) < 1e-12, "B(5,.1) P(X>0)");
    CHECK(servet_binomial_tail(10, 0.3, 10) == 0.0, "P(X>n) = 0");
    CHECK(servet_binomial_tail(10, 1.0, 3) == 1.0, "p = 1");
    CHECK(servet_binomial_tail(10, 0.0, 0) == 0.0, "p = 0");
    /* n large, p small: Poisson(10) upper tail P(X>10) = 0.41696 */
    v = servet_binomial_tail(1e6, 1e-5, 10);
    CHECK(fabs(v - 0.41696) < 1e-3, "Poisson limit %g", v);
    /* deep tail underflow path: mean 2000, k = 10 -> 1 */
    v = servet_binomial_tail(1e6, 2e-3, 10);
    CHECK(v == 1.0, "huge mean %g", v);
    /* exact small case by enumeration: B(20, 0.3) P(X > 7) */
    {
        double s = 0, c = 1;
        int x;
        for (x = 0; x <= 20; x++) {
            if (x > 7) s += c * pow(0.3, x) * pow(0.7, 20 - x);
            c = c * (20 - x) / (x + 1);
        }
        CHECK(fabs(servet_binomial_tail(20, 0.3, 7) - s) < 1e-12, "enumeration %g vs %g", servet_binomial_tail(20, 0.3, 7), s);
    }
    CHECK(isnan(servet_binomial_tail(-1, 0.5, 1)), "n < 0 -> NaN");
    CHECK(isnan(servet_binomial_tail(10, 1.5, 1)), "p > 1 -> NaN");
    CHECK(isnan(servet_binomial_tail(10, NAN, 1)), "p NaN -> NaN");
    CHECK(isnan(servet_binomial_tail(10, 0.5, -1)), "k < 0 -> NaN");
}

/* The random-replacement model of the cache fit (>>infer): the per-set root
   against a straightforward replay of a cyclic walk over X lines in one
   k-way set with a random victim per miss, and the binomial expectation
   against the sum over the occupancy written out. */
static double replay_random_set(int X, int k, unsigned long long seed) {
    int cached[64], ncached = 0, i, t, misses = 0, counted = 0;
    for (t = 0; t < 400000; t++) {
        int line = t % X, hit = 0;
        for (i = 0; i < ncached; i++) hit |= cached[i] == line;
        if (hit) { if (t >= 50 * X) counted++; continue; }
        if (t >= 50 * X) { misses++; counted++; }
        if (ncached < k) cached[ncached++] = line;
        else {
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
            cached[seed % (unsigned long long)k] = line;
        }
    }
    return (double)misses / (double)counted;
}
static void test_random_model(void) {
    int ks[] = {4, 8, 16}, i, X;
    for (i = 0; i < 3; i++) {
        int k = ks[i];
        CHECK(servet__rand_root((double)k, k) == 0.0, "k = %d: a set of k lines never misses", k);
        /* exactly one line out: the victim is uniform over the k ahead */
        CHECK(fabs(servet__rand_root((double)k + 1.0, k) - 2.0 / (k + 1.0)) < 0.02, "k = %d, X = k+1: %.4f vs 2/(k+1)",
              k, servet__rand_root((double)k + 1.0, k));
        for (X = k + 1; X <= 3 * k; X += k / 4 > 0 ? k / 4 : 1) {
            double r = replay_random_set(X, k, 0x9e3779b97f4a7c15ull + (unsigned long long)X), m = servet__rand_root((double)X, k);
            CHECK(fabs(r - m) < 0.03, "k = %d X = %d: model %.3f, replay %.3f", k, X, m, r);
        }
    }
    {
        /* B(n, p) occupancy summed by hand: 64 pages over a 16 KiB 2-way
           cache of 4 KiB units (p = 0.5), X = Y + 1, Y ~ B(63, 0.5) */
        double tab[16], sum = 0.0, c = 1.0, v;
        int y, k = 2;
        for (X = k + 1; X <= 4 * k; X++) tab[X - k - 1] = servet__rand_root((double)X, k);
        for (y = 0; y <= 63; y++) {
            double Xd = y + 1.0, f = Xd <= k ? 0.0 : Xd <= 4 * k ? tab[y - k] : 1.0 - pow(0.5, Xd - 0.5);
            sum += c * pow(0.5, 63) * f;
            c = c * (63 - y) / (y + 1);
        }
        v = servet__mr_binomial_rand(64 * 4096.0, 16384.0, k, 4096.0, tab);
        CHECK(fabs(v - sum) < 1e-9, "binomial expectation %.12f vs by hand %.12f", v, sum);
        CHECK(servet__mr_binomial_rand(4096.0, 16384.0, k, 4096.0, tab) == 0.0, "one page never misses");
        CHECK(servet__mr_binomial_rand(4096.0, 1024.0, k, 4096.0, tab) < 0.0, "a unit larger than a way: no model");
        /* monotone in the walk's size */
        for (v = 0.0, y = 1; y <= 8; y++) {
            double m = servet__mr_binomial_rand(y * 8192.0, 16384.0, k, 4096.0, tab);
            CHECK(m >= v - 1e-12, "miss rate grows with the walk (%d: %.4f < %.4f)", y, m, v);
            v = m;
        }
    }
}

static void test_bad_input(void) {
    double b[4] = {1024, 2048, 4096, 8192}, l[4] = {1, 1, 2, 2};
    servet_cache_level lv[4];
    double bb[4], ll[4];
    int nk;
    CHECK(servet_infer_caches(b, l, 4, 4096, lv, 4, NULL, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL nlevels");
    CHECK(servet_infer_caches(b, l, 0, 4096, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "n = 0");
    CHECK(servet_infer_caches(NULL, l, 4, 4096, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "NULL sizes");
    memcpy(bb, b, sizeof b); bb[2] = 1500;
    CHECK(servet_infer_caches(bb, l, 4, 4096, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "not increasing");
    memcpy(bb, b, sizeof b); bb[1] = 1024;
    CHECK(servet_infer_caches(bb, l, 4, 4096, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "equal sizes");
    memcpy(ll, l, sizeof l); ll[1] = NAN;
    CHECK(servet_infer_caches(b, ll, 4, 4096, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "NaN latency");
    memcpy(ll, l, sizeof l); ll[3] = -2;
    CHECK(servet_infer_caches(b, ll, 4, 4096, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "negative latency");
    memcpy(bb, b, sizeof b); bb[0] = -1;
    CHECK(servet_infer_caches(bb, l, 4, 4096, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "negative size");
    memcpy(ll, l, sizeof l); ll[2] = INFINITY;
    CHECK(servet_infer_caches(b, ll, 4, 4096, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "Inf latency");
    CHECK(servet_infer_caches(b, l, 4, NAN, lv, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "NaN page");
    CHECK(servet_infer_caches(b, l, 4, 4096, NULL, 4, &nk, NULL) == SERVET_ERROR_BAD_DATA, "NULL output");
    CHECK(servet_infer_caches(b, l, 4, 4096, lv, 0, &nk, NULL) == SERVET_OK && nk == 0, "max 0 levels -> 0");
}

static void test_synthetic(void) {
    double b[128], l[128], next = 0;
    servet_cache_level lv[8];
    int n, k;
    /* flat: no level */
    {
        const double cap[1] = {0}, lat[1] = {3.0};
        n = staircase(b, l, cap, lat, 0, 0.0);
        k = infer_or(b, l, n, 4096, lv, 8, &next);
        CHECK(k == 0, "flat curve gives %d levels", k);
    }
    /* one sharp level, exact and noisy (2%) */
    {
        const double cap[1] = {48 * 1024.0}, lat[2] = {1.2, 4.0};
        double sigma;
        for (sigma = 0.0; sigma <= 0.021; sigma += 0.02) {
            n = staircase(b, l, cap, lat, 1, sigma);
            k = infer_or(b, l, n, 4096, lv, 8, &next);
            CHECK(k == 1, "single level, noise %.2f: %d levels", sigma, k);
            /* the coarse grid brackets 48K between 45.25K and 53.8K */
            CHECK(k >= 1 && lv[0].size_bytes >= 45 * 1024.0 && lv[0].size_bytes <= 48 * 1024.0 &&
                      lv[0].method == SERVET_METHOD_STEP,
                  "size %.0f method %d", k >= 1 ? lv[0].size_bytes : 0, k >= 1 ? (int)lv[0].method : -1);
            CHECK(k >= 1 && fabs(lv[0].latency / 1.2 - 1) < 0.05, "L1 latency %g", k >= 1 ? lv[0].latency : 0);
            CHECK(fabs(next / 4.0 - 1) < 0.05, "memory latency %g", next);
        }
    }
    /* three sharp levels with non-power-of-two sizes, fine sampling */
    {
        const double cap[3] = {48 * 1024.0, 1.25 * 1048576.0, 27.5 * 1048576.0}, lat[4] = {1, 4, 15, 80};
        int j;
        n = 0;
        for (j = 0; j < 128; j++) {
            double s = 8192.0 * pow(2.0, j / 8.0);
            int q;
            s = floor(s / 64) * 64;
            if (s > 256.0 * 1048576.0) break;
            b[n] = s;
            l[n] = lat[3];
            for (q = 0; q < 3; q++) if (s <= cap[q]) { l[n] = lat[q]; break; }
            n++;
        }
        k = infer_or(b, l, n, 4096, lv, 8, &next);
        CHECK(k == 3, "three levels: %d", k);
        for (j = 0; j < 3 && j < k; j++)
            CHECK(lv[j].size_bytes <= cap[j] && lv[j].size_bytes >= cap[j] / pow(2.0, 1.0 / 8.0),
                  "level %d: %.0f vs %.0f", j + 1, lv[j].size_bytes, cap[j]);
    }
}

static void test_tlb(void) {
    /* main curve: L1 48K, L2 2M, memory; plus a TLB penalty from 8 MiB on
       (page walks) that the one-line-per-page curve shows too */
    servet_curve *h = (servet_curve *)calloc(1, sizeof *h), *tl = (servet_curve *)calloc(1, sizeof *tl);
    double reach[4];
    int i, k;
    const double cap[2] = {48 * 1024.0, 2 * 1048576.0}, lat[3] = {1.2, 4, 40};
    h->n = staircase(h->bytes, h->ns, cap, lat, 2, 0.0);
    for (i = 0; i < h->n; i++) if (h->bytes[i] > 8 * 1048576.0) h->ns[i] += 12.0;
    tl->n = 0;
    for (i = 0; i < h->n; i++) {
        double s = h->bytes[i], lines = s / 64.0, c = lines <= cap[0] ? 1.2 : (lines <= cap[1] ? 4 : 40);
        if (s < 8192) continue;
        tl->bytes[tl->n] = s;
        tl->ns[tl->n] = c + (s > 8 * 1048576.0 ? 12.0 : 0.0);
        tl->n++;
    }
    k = servet__infer_tlb(h, tl, NULL, 0, NULL, 0.0, reach, 4);
    CHECK(k == 1, "one TLB step: %d", k);
    CHECK(k >= 1 && reach[0] >= 6.7 * 1048576.0 && reach[0] <= 8 * 1048576.0, "TLB reach %.0f", k >= 1 ? reach[0] : 0);
    free(h);
    free(tl);
}

/* The TLB walk's own lines overflow L1 long before they fill it (one random
   line a page: each in the set of its offset). Its curve here is a Monte
   Carlo of that placement, not the model servet__infer_tlb uses: per size,
   one random offset per page, a line misses L1 when its set holds more
   lines than the ways (LRU, cyclic), plus TLB steps at 256 KiB and
   12 MiB. The lines' modelled cost is what fails without
   servet__tlb_lines_ns (the cyclic curve at their footprint stays at L1);
   this synthetic overflow is too short-lived to read as a third TLB either
   way - the recorded probes of test_tlb_walk_probes are the ones that did
   (a Zen 4 VM's: 256 KiB, 1.31 MiB, 14.25 MiB). */
static void test_tlb_walk_lines(void) {
    servet_curve *h = (servet_curve *)calloc(1, sizeof *h), *tl = (servet_curve *)calloc(1, sizeof *tl);
    servet_cache_level lv[3];
    double reach[4], next = 0.0, lines_ns[2];
    const double cap[2] = {32 * 1024.0, 1048576.0}, lat[3] = {1.1, 3.8, 100.0};
    int i, k, nl, ways[3] = {8, 8, 0};
    unsigned seed = 12345u;
    h->n = staircase(h->bytes, h->ns, cap, lat, 2, 0.0);
    h->page_bytes = 2097152.0;
    memset(lv, 0, sizeof lv);
    nl = infer_or(h->bytes, h->ns, h->n, 2097152.0, lv, 3, &next);
    CHECK(nl == 2, "two levels from the staircase: %d", nl);
    tl->n = 0;
    for (i = 0; i < h->n; i++) {
        double s = h->bytes[i], sum = 0.0;
        int pages = (int)(s / 4096.0), set[64] = {0}, *off, p;
        if (s < 8192 || s > 64.0 * 1048576.0) continue;
        off = (int *)malloc((size_t)pages * sizeof *off);
        for (p = 0; p < pages; p++) {
            seed = seed * 1103515245u + 12345u;
            off[p] = (int)((seed >> 16) % 64u);
            set[off[p]]++;
        }
        for (p = 0; p < pages; p++) sum += set[off[p]] > 8 ? lat[1] : lat[0]; /* 16384 lines fit L2 */
        free(off);
        tl->bytes[tl->n] = s;
        tl->ns[tl->n] = sum / pages + (s > 256 * 1024.0 ? 1.9 : 0.0) + (s > 12.0 * 1048576.0 ? 10.0 : 0.0);
        tl->n++;
    }
    tl->page_bytes = 4096.0;
    /* the model of its lines: L1's latency while they fit, about half of them out at 2 MiB (512 lines, 8 a set) */
    lines_ns[0] = servet__tlb_lines_ns(h, lv, nl, ways, next, 256 * 1024.0);
    lines_ns[1] = servet__tlb_lines_ns(h, lv, nl, ways, next, 2.0 * 1048576.0);
    CHECK(fabs(lines_ns[0] - 1.1) < 0.05 && lines_ns[1] > 2.0 && lines_ns[1] < 3.3, "the walk's lines: %.2f, %.2f ns",
          lines_ns[0], lines_ns[1]);
    k = servet__infer_tlb(h, tl, lv, nl, ways, next, reach, 4);
    CHECK(k == 2, "two TLB steps, not the L1 overflow as a third: %d (%.0f K, %.0f K, %.0f K)", k,
          k > 0 ? reach[0] / 1024 : 0, k > 1 ? reach[1] / 1024 : 0, k > 2 ? reach[2] / 1024 : 0);
    CHECK(k >= 2 && reach[0] >= 200 * 1024.0 && reach[0] <= 320 * 1024.0 && reach[1] >= 10.0 * 1048576.0 &&
              reach[1] <= 14.0 * 1048576.0,
          "reaches %.0f K, %.0f K", k > 0 ? reach[0] / 1024 : 0, k > 1 ? reach[1] / 1024 : 0);
    free(h);
    free(tl);
}

static void test_simulator(void) {
    sim_spec sp;
    char err[256];
    const char *spec = "level=1 size=8K ways=4 line=64 lat=4\nlevel=2 size=64K ways=8 lat=12\n"
                       "level=3 size=256K ways=8 lat=40 hash=on\npage=4096\nseed=3\nmemory=200\n";
    double sizes[] = {4096, 8192, 12288, 65536, 98304, 200000, 300000, 1048576};
    int i;
    CHECK(sim_parse_spec(spec, &sp, err, sizeof err), "spec parses: %s", err);
    CHECK(sp.nlevels == 3 && sp.lv[2].hash == 1 && sp.lv[1].size == 65536, "spec content");
    for (i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++) {
        sim_state st;
        double a, t;
        sim_init(&st, &sp);
        a = sim_exact(&st, sizes[i], 0);
        {
            double sum = 0;
            uint64_t n = 0;
            sim_replay_report(&sp, sizes[i], 0, 0, 0, 99 + (uint64_t)i, &sum, &n);
            t = n ? sum / (double)n : -1.0;
        }
        sim_free(&st);
        CHECK(fabs(a - t) < 1e-9 * t, "steady state %.0f: analytic %.6f trace %.6f", sizes[i], a, t);
    }
    CHECK(!sim_parse_spec("level=2 size=1K ways=1\n", &sp, err, sizeof err), "levels out of order rejected");
    CHECK(!sim_parse_spec("level=1 size=1000 ways=3\n", &sp, err, sizeof err), "size not multiple of ways*line");
    CHECK(!sim_parse_spec("level=1 size=1K ways=1\nfoo=bar\n", &sp, err, sizeof err), "unknown key rejected");
    CHECK(!sim_parse_spec("", &sp, err, sizeof err), "empty spec rejected");
}

/* A straightforward tag store for one level, written apart from cachesim's
   replay: per set an array of lines and what each policy keeps, the walk in
   the same key order. Misses of the timed (third) pass. */
typedef struct ref_order { uint64_t key, v; } ref_order;
static int ref_order_cmp(const void *a, const void *b) {
    uint64_t x = ((const ref_order *)a)->key, y = ((const ref_order *)b)->key;
    return x < y ? -1 : x > y;
}
static long ref_misses(int repl, int sets, int ways, uint64_t nl, uint64_t order) {
    uint64_t line[64][16] = {{0}}, age[64][16] = {{0}}, clock = 0, i;
    int tree[64][16] = {{0}}, pass, w, v;
    long misses = 0;
    ref_order *ord = (ref_order *)malloc(nl * sizeof *ord);
    for (i = 0; i < nl; i++) { ord[i].v = i; ord[i].key = sim_mix(order ^ (i * 0x9E3779B97F4A7C15ull)); }
    qsort(ord, (size_t)nl, sizeof *ord, ref_order_cmp);
    for (pass = 0; pass < 3; pass++)
        for (i = 0; i < nl; i++) {
            uint64_t x = ord[i].v + 1;
            int s = (int)(ord[i].v % (uint64_t)sets), hit = -1;
            for (w = 0; w < ways; w++) if (line[s][w] == x) hit = w;
            if (hit < 0) {
                if (pass == 2) misses++;
                for (w = 0; w < ways && line[s][w]; w++) {}
                if (w == ways) { /* the victim */
                    if (repl == SIM_LRU) { for (v = 0, w = 1; w < ways; w++) if (age[s][w] < age[s][v]) v = w; w = v; }
                    else if (repl == SIM_NRU) { for (w = 0; w < ways && age[s][w]; w++) {} if (w == ways) w = 0; }
                    else if (repl == SIM_SRRIP) {
                        for (;;) {
                            for (w = 0; w < ways && age[s][w] < 3; w++) {}
                            if (w < ways) break;
                            for (v = 0; v < ways; v++) age[s][v]++;
                        }
                    } else { /* plru, ways a power of two: node k's children 2k, 2k+1; 0 = go left */
                        int node = 1;
                        while (node < ways) node = 2 * node + tree[s][node];
                        w = node - ways;
                    }
                }
                line[s][w] = x;
                hit = w;
                if (repl == SIM_SRRIP) age[s][w] = 2;
            } else if (repl == SIM_SRRIP) {
                age[s][hit] = 0;
            }
            if (repl == SIM_LRU) age[s][hit] = ++clock;
            if (repl == SIM_NRU) {
                int all = 1;
                age[s][hit] = 1;
                for (v = 0; v < ways; v++) all = all && (!line[s][v] || age[s][v]);
                if (all) for (v = 0; v < ways; v++) if (v != hit) age[s][v] = 0;
            }
            if (repl == SIM_PLRU) { /* point every node on the path away from the way */
                int node = hit + ways;
                while (node > 1) { tree[s][node / 2] = (node % 2 == 0); node /= 2; }
            }
        }
    free(ord);
    return misses;
}

/* the replay's average cycles an access of a walk over `bytes` of the hierarchy `spec`
   (every line, order 3); *n: the lines timed; -1 if the spec does not parse */
static double replay_avg(const char *spec, double bytes, uint64_t *n) {
    sim_spec sp;
    char err[256];
    double sum = 0;
    *n = 0;
    if (!sim_parse_spec(spec, &sp, err, sizeof err)) return -1.0;
    sim_replay_report(&sp, bytes, 0, 0, 0, 3, &sum, n);
    return *n ? sum / (double)*n : -1.0;
}

/* set sampling is exact per set: the replay of `spec` over 300000 B on the residues a
   multiple of G/div costs, on the lines it reports, what the full replay's same lines cost;
   G must be `want_g` */
static void check_sampled_replay(const char *spec, uint64_t want_g, uint64_t div, const char *what) {
    sim_spec sp;
    char err[256];
    double full = 0, part = 0;
    uint64_t nf = 0, np = 0, G;
    CHECK(sim_parse_spec(spec, &sp, err, sizeof err), "%s", err);
    G = sim_sample_modulus(&sp);
    CHECK(G == want_g, "%s: G = %llu, expected %llu", what, (unsigned long long)G, (unsigned long long)want_g);
    if (G % div) return;
    sim_replay_report(&sp, 300000, 1, G, G / div, 21, &full, &nf);
    sim_replay_report(&sp, 300000, 1, G / div, G / div, 21, &part, &np);
    CHECK(nf == np && np > 0 && fabs(full - part) < 1e-6 * full, "%s: sampled %.1f over %llu lines, full %.1f over %llu",
          what, part, (unsigned long long)np, full, (unsigned long long)nf);
}

static void test_sim_policies(void) {
    static const char *const names[] = {"lru", "plru", "nru", "random", "srrip"};
    sim_spec sp;
    char err[256], text[512];
    int r;
    /* every deterministic policy against the reference: one level, 16 sets x 8 ways (8 KiB),
       walks below, at and above the capacity */
    for (r = 0; r < 5; r++) {
        double sizes[] = {6144, 8192, 9216, 12288, 20480};
        int i;
        if (r == SIM_RANDOM) continue;
        snprintf(text, sizeof text, "level=1 size=8K ways=8 lat=4 repl=%s\nmemory=100\ncoloring=on\n", names[r]);
        CHECK(sim_parse_spec(text, &sp, err, sizeof err) && sp.lv[0].repl == r, "%s parses: %s", names[r], err);
        for (i = 0; i < 5; i++) {
            double sum = 0;
            uint64_t n = 0, nl = (uint64_t)(sizes[i] / 64);
            long ref = ref_misses(r, 16, 8, nl, 77 + (uint64_t)i), got;
            CHECK(sim_replay_report(&sp, sizes[i], 0, 0, 0, 77 + (uint64_t)i, &sum, &n), "%s replay runs", names[r]);
            got = n ? (long)((sum - 4.0 * (double)n) / 96.0 + 0.5) : -1;
            CHECK(n == nl && got == ref, "%s, %.0f B: %ld misses, the reference %ld", names[r], sizes[i], got, ref);
        }
    }
    /* what the LRU shortcut cannot show: a cyclic walk one line over a set's ways misses
       every time under LRU and SRRIP (scan-resistant, not thrash-resistant: Jaleel et al.
       2010), and keeps part of the set under tree-PLRU, NRU and random replacement */
    for (r = 0; r < 5; r++) {
        double sum = 0;
        uint64_t n = 0;
        snprintf(text, sizeof text, "level=1 size=8K ways=8 lat=4 repl=%s\nmemory=100\ncoloring=on\nseed=3\n", names[r]);
        CHECK(sim_parse_spec(text, &sp, err, sizeof err), "%s", err);
        sim_replay_report(&sp, 9216, 0, 0, 0, 5, &sum, &n); /* 9 lines a set */
        printf("  %s: 9 lines cycling through 8 ways: %.1f cycles an access (4 a hit, 100 a miss)\n", names[r], n ? sum / n : 0.0);
        CHECK(n > 0 && (r == SIM_LRU || r == SIM_SRRIP ? sum / n > 99.9 : sum / n < 90.0), "%s, 9 lines in 8 ways: %.1f cycles an access",
              names[r], n ? sum / n : 0.0);
    }
    /* the LRU replay agrees with the exact steady state (non-inclusive, three levels, 4 KiB pages) */
    {
        const char *spec3 = "level=1 size=8K ways=4 lat=4\nlevel=2 size=64K ways=8 lat=12\nlevel=3 size=256K ways=8 lat=40\nseed=3\nmemory=200\n";
        double sizes[] = {12288, 98304, 200000, 400000};
        int i;
        CHECK(sim_parse_spec(spec3, &sp, err, sizeof err), "%s", err);
        for (i = 0; i < 4; i++) {
            sim_state st;
            double sum = 0, a;
            uint64_t n = 0;
            sim_init(&st, &sp);
            a = sim_exact(&st, sizes[i], 0);
            sim_free(&st);
            sim_replay_report(&sp, sizes[i], 0, 0, 0, 11, &sum, &n);
            CHECK(n > 0 && fabs(sum / n - a) < 1e-9 * a, "LRU replay %.0f B: %.6f, exact %.6f", sizes[i], n ? sum / n : 0, a);
        }
    }
    /* set sampling is exact per set: the sampled replay's lines cost what the same lines cost in
       the full replay, for every deterministic policy, inclusive and exclusive levels included */
    for (r = 0; r < 5; r++) {
        int incl;
        if (r == SIM_RANDOM) continue;
        for (incl = 0; incl < 3; incl++) {
            char what[64];
            snprintf(text, sizeof text,
                     "level=1 size=8K ways=4 lat=4 repl=%s\nlevel=2 size=64K ways=8 lat=12 repl=%s incl=%s\n"
                     "level=3 size=256K ways=16 lat=40 repl=%s\nseed=9\nmemory=200\n",
                     names[r], names[r], incl == 0 ? "nine" : incl == 1 ? "inclusive" : "exclusive", names[r]);
            snprintf(what, sizeof what, "%s incl %d (8 KiB 4-way: G = 32 sets)", names[r], incl);
            check_sampled_replay(text, 32, 8, what);
        }
    }
    /* inclusion, each against a non-inclusive level of the same sizes: an
       exclusive level adds its capacity (12 KiB cycles through a 4 KiB L1
       and an 8 KiB victim L2: every access an L2 hit, where a non-inclusive
       8 KiB L2 misses them all); an inclusive level's conflicts evict from
       the level above (a walk that fits a 4 KiB L1 hits there every time
       unless a hashed, direct-mapped inclusive L2 throws its lines out) */
    {
        static const struct {
            const char *spec, *what;
            double bytes, lines, lo, hi; /* cycles an access within [lo, hi] */
        } inc[] = {
            {"level=1 size=4K ways=4 lat=4\nlevel=2 size=8K ways=8 lat=12 incl=exclusive\ncoloring=on\nmemory=100\n",
             "exclusive (12: all L2 hits)", 12288, 192, 12.0, 12.0},
            {"level=1 size=4K ways=4 lat=4\nlevel=2 size=8K ways=8 lat=12 incl=nine\ncoloring=on\nmemory=100\n",
             "non-inclusive (100: all missed)", 12288, 192, 100.0, 100.0},
            {"level=1 size=4K ways=4 lat=4\nlevel=2 size=8K ways=1 lat=12 hash=on incl=nine\nmemory=100\n",
             "non-inclusive (4: all L1 hits)", 4096, 64, 4.0, 4.0},
            {"level=1 size=4K ways=4 lat=4\nlevel=2 size=8K ways=1 lat=12 hash=on incl=inclusive\nmemory=100\n",
             "inclusive (over 4.5: back-invalidations miss in L1)", 4096, 64, 4.5 + 2e-9, 1e300},
        };
        int q;
        for (q = 0; q < (int)(sizeof inc / sizeof inc[0]); q++) {
            uint64_t n;
            double a = replay_avg(inc[q].spec, inc[q].bytes, &n);
            CHECK(a != -1.0, "the spec parses and replays");
            CHECK((double)n == inc[q].lines && a >= inc[q].lo - 1e-9 && a <= inc[q].hi + 1e-9, "%s: %.3f cycles an access", inc[q].what, a);
        }
    }
    /* backing: 2 MiB pages the walk asked for, placed per 4 KiB */
    {
        sim_spec a, b;
        CHECK(sim_parse_spec("level=1 size=32K ways=8\nlevel=2 size=1M ways=16\npage=2M\n", &a, err, sizeof err), "%s", err);
        CHECK(sim_parse_spec("level=1 size=32K ways=8\nlevel=2 size=1M ways=16\npage=2M\nbacking=4K\n", &b, err, sizeof err), "%s", err);
        CHECK(sim_phys_line(&a, 64, 64, 0) == sim_phys_line(&a, 0, 64, 0) + 64, "2 MiB pages: 4 KiB neighbours stay neighbours");
        CHECK(sim_phys_line(&b, 64, 64, 0) != sim_phys_line(&b, 0, 64, 0) + 64 && sim_phys_line(&b, 63, 64, 0) == sim_phys_line(&b, 0, 64, 0) + 63,
              "backing 4 KiB: placed per 4 KiB (%llu, %llu)", (unsigned long long)sim_phys_line(&b, 0, 64, 0),
              (unsigned long long)sim_phys_line(&b, 64, 64, 0));
        CHECK(sim_sample_modulus(&b) == 64, "G with 4 KiB backing: %llu", (unsigned long long)sim_sample_modulus(&b));
    }
    CHECK(!sim_parse_spec("level=1 size=1K ways=1 repl=fifo\n", &sp, err, sizeof err), "unknown policy rejected");
    CHECK(!sim_parse_spec("level=1 size=1K ways=1 incl=mostly\n", &sp, err, sizeof err), "unknown inclusion rejected");
    CHECK(!sim_parse_spec("level=1 size=1K ways=1 incl=exclusive\n", &sp, err, sizeof err), "an exclusive L1 rejected");
    CHECK(!sim_parse_spec("level=1 size=1K ways=1\nbacking=16\n", &sp, err, sizeof err), "a backing below a line rejected");
}

/* Levels of longer lines than level 1's (Pentium 4, Itanium 2: 64 B L1
   lines, 128 B L2 and L3 lines), issue 14: a straightforward two-level LRU
   tag store written apart from cachesim's replay (the walk of 64 B lines in
   the same key order, an L2 line holding two of them), then the sampled
   replay against the full one, then the capacity an L2 of 128 B lines has
   (until 2026-11-28 the simulator counted each 64 B line as a line of its
   own there: a 1 MiB L2 of 128 B lines held 512 KiB of the walk). */
static double ref_two_level(uint64_t nl, int sets1, int ways1, int sets2, int ways2, int shift2, uint64_t order) {
    uint64_t *t1 = (uint64_t *)calloc((size_t)sets1 * (size_t)ways1, sizeof *t1), *a1 = (uint64_t *)calloc((size_t)sets1 * (size_t)ways1, sizeof *a1);
    uint64_t *t2 = (uint64_t *)calloc((size_t)sets2 * (size_t)ways2, sizeof *t2), *a2 = (uint64_t *)calloc((size_t)sets2 * (size_t)ways2, sizeof *a2);
    uint64_t clock = 0, i;
    double sum = 0.0;
    int pass, w, v;
    ref_order *ord = (ref_order *)malloc(nl * sizeof *ord);
    for (i = 0; i < nl; i++) { ord[i].v = i; ord[i].key = sim_mix(order ^ (i * 0x9E3779B97F4A7C15ull)); }
    qsort(ord, (size_t)nl, sizeof *ord, ref_order_cmp);
    for (pass = 0; pass < 3; pass++)
        for (i = 0; i < nl; i++) {
            uint64_t x1 = ord[i].v, x2 = ord[i].v >> shift2;
            uint64_t *s1 = t1 + (x1 % (uint64_t)sets1) * (uint64_t)ways1, *g1 = a1 + (x1 % (uint64_t)sets1) * (uint64_t)ways1;
            uint64_t *s2 = t2 + (x2 % (uint64_t)sets2) * (uint64_t)ways2, *g2 = a2 + (x2 % (uint64_t)sets2) * (uint64_t)ways2;
            int h1 = -1, h2 = -1;
            double lat;
            for (w = 0; w < ways1; w++) if (s1[w] == x1 + 1) h1 = w;
            if (h1 >= 0) { g1[h1] = ++clock; lat = 4.0; }
            else {
                for (w = 0; w < ways2; w++) if (s2[w] == x2 + 1) h2 = w;
                lat = h2 >= 0 ? 12.0 : 100.0;
                if (h2 < 0) { /* fill L2: an empty way or the least recently used */
                    for (v = 0, w = 0; w < ways2; w++) { if (!s2[w]) { v = w; break; } if (g2[w] < g2[v]) v = w; }
                    s2[v] = x2 + 1;
                    h2 = v;
                }
                g2[h2] = ++clock;
                for (v = 0, w = 0; w < ways1; w++) { if (!s1[w]) { v = w; break; } if (g1[w] < g1[v]) v = w; }
                s1[v] = x1 + 1;
                g1[v] = ++clock;
            }
            if (pass == 2) sum += lat;
        }
    free(ord); free(t1); free(a1); free(t2); free(a2);
    return sum / (double)nl;
}
/* the walk's order (sim_order_sort): the radix sort orders as qsort does (distinct keys: qsort need not be stable) */
static void test_sim_order_sort(void) {
    size_t n = 5000, i, same = 0;
    sim_order_key *a = (sim_order_key *)malloc(n * sizeof *a), *b = (sim_order_key *)malloc(n * sizeof *b);
    for (i = 0; i < n; i++) {
        a[i].v = i;
        a[i].key = sim_mix(77 ^ (i * 0x9E3779B97F4A7C15ull));
        if (i % 3 == 0) a[i].key = (a[i].key >> 40) << 13 | i; /* small keys too (zero high bytes), still distinct */
        b[i] = a[i];
    }
    qsort(b, n, sizeof *b, sim_order_cmp);
    sim_order_sort(a, n);
    for (i = 0; i < n; i++) same += a[i].key == b[i].key && a[i].v == b[i].v;
    CHECK(same == n, "radix order as qsort's: %zu of %zu in place", same, n);
    free(a);
    free(b);
}

/* the simulator's shortcuts are the same numbers: sim_measure's memo of exact points
   (the sweep measures points again) and the replay's physical line by shifts */
static void test_sim_memo_and_phys(void) {
    sim_spec sp;
    sim_state st, fresh;
    char err[256];
    double sizes[] = {24576, 98304, 262144, 98304, 24576, 786432, 262144}, a, b;
    int i, r, same = 0, total = 0, backing, ok = 1;
    CHECK(sim_parse_spec("level=1 size=16K ways=4 lat=4 repl=plru\nlevel=2 size=256K ways=8 lat=12 repl=srrip\n"
                         "backing=4096\nseed=5\nmemory=150\n", &sp, err, sizeof err), "%s", err);
    sim_init(&st, &sp);
    for (i = 0; i < 7; i++)
        for (r = 0; r < 3; r++) {
            double m = sim_measure(&st, sizes[i], r); /* noise 0: the exact point */
            sim_init(&fresh, &sp);
            a = sim_exact(&fresh, sizes[i], r);
            sim_free(&fresh);
            same += memcmp(&m, &a, sizeof m) == 0;
            total++;
        }
    CHECK(same == total, "sim_measure (memo) equals a fresh sim_exact bit for bit: %d of %d", same, total);
    CHECK(st.memo_n == 12 && sim_memo_get(&st, 262144, 2, &b) && !sim_memo_get(&st, 262144, 3, &b),
          "12 distinct points kept, looked up by size and replica (%zu)", st.memo_n);
    for (i = 0; i < 3000; i++) sim_memo_put(&st, 4096.0 * (i + 1) + 0.5, i % 7, (double)i); /* grows, keeps all */
    for (i = 0; i < 3000 && ok; i++) ok = sim_memo_get(&st, 4096.0 * (i + 1) + 0.5, i % 7, &b) && b == (double)i;
    CHECK(ok && st.memo_n == 3012, "after growth every point found with its value (%zu kept)", st.memo_n);
    sim_free(&st);
    for (backing = 0; backing < 3; backing++) { /* 2 MiB pages on 4 KiB backing, 4 KiB pages, 128 B lines */
        sim_replay_ctx c;
        sim_rstore store;
        uint64_t m = 1, v, bad = 0;
        const char *spec = backing == 0 ? "level=1 size=16K ways=4\nlevel=2 size=256K ways=8 repl=nru\npage=2M\nbacking=4096\n"
                         : backing == 1 ? "level=1 size=16K ways=4\nlevel=2 size=256K ways=8 repl=nru\n"
                                        : "level=1 size=16K ways=4 line=128\nlevel=2 size=256K ways=8 line=128 repl=nru\n";
        if (!sim_parse_spec(spec, &sp, err, sizeof err)) { CHECK(0, "%s", err); continue; }
        memset(&store, 0, sizeof store);
        CHECK(sim_replay_setup(&c, &store, &sp, 3, &m), "replay set up");
        for (v = 0; v < 100000; v += 7) {
            c.memo_v = 0;
            bad += sim_r_addr(&c, 1, v) != sim_phys_line(&sp, v, c.line, 3);
        }
        CHECK(bad == 0 && c.lpp_shift == (backing == 2 ? 5 : 6),
              "replay's physical lines as sim_phys_line's (%s): %llu differ", backing == 0 ? "backing" : backing == 1 ? "4 KiB" : "128 B lines",
              (unsigned long long)bad);
        sim_rstore_free(&store);
    }
}

static void test_sim_line_sizes(void) {
    sim_spec sp;
    char err[256], text[512];
    double sizes[] = {3072, 8192, 12288, 20480, 40960};
    int i, incl;
    /* one 4 KiB L1 (64 B lines, 16 sets x 4) over a 16 KiB L2 of 128 B lines (16 sets x 8),
       physical = virtual: the replay against the reference, access by access summed */
    CHECK(sim_parse_spec("level=1 size=4K ways=4 lat=4\nlevel=2 size=16K ways=8 line=128 lat=12\ncoloring=on\nmemory=100\n",
                         &sp, err, sizeof err), "%s", err);
    CHECK(sim_needs_replay(&sp), "a level of longer lines is replayed");
    for (i = 0; i < 5; i++) {
        double sum = 0, ref = ref_two_level((uint64_t)(sizes[i] / 64), 16, 4, 16, 8, 1, 31 + (uint64_t)i);
        uint64_t n = 0;
        CHECK(sim_replay_report(&sp, sizes[i], 0, 0, 0, 31 + (uint64_t)i, &sum, &n), "the replay runs");
        CHECK(n == (uint64_t)(sizes[i] / 64) && fabs(sum / (double)n - ref) < 1e-9 * ref,
              "128 B L2 lines, %.0f B: %.6f cycles an access, the reference %.6f", sizes[i], n ? sum / (double)n : 0.0, ref);
    }
    /* set sampling stays exact per set with longer lines below (4 KiB pages, an L3 of 256 B lines) */
    for (incl = 0; incl < 3; incl++) {
        char what[64];
        snprintf(text, sizeof text,
                 "level=1 size=8K ways=4 lat=4 repl=plru\nlevel=2 size=64K ways=8 line=128 lat=12 repl=srrip incl=%s\n"
                 "level=3 size=256K ways=16 line=256 lat=40 repl=nru\nseed=9\nmemory=200\n",
                 incl == 0 ? "nine" : incl == 1 ? "inclusive" : "exclusive");
        snprintf(what, sizeof what, "longer lines, incl %d (2 KiB a way: G = 8 lines of 256 B)", incl);
        check_sampled_replay(text, 8, 4, what);
    }
    /* the capacity: 1 MiB of the walk fits a 1 MiB L2 of 128 B lines (every access an L1 or L2 hit) */
    {
        double sum = 0;
        uint64_t n = 0;
        CHECK(sim_parse_spec("level=1 size=16K ways=8 lat=4\nlevel=2 size=1M ways=8 line=128 lat=12\ncoloring=on\nmemory=100\n",
                             &sp, err, sizeof err), "%s", err);
        sim_replay_report(&sp, 1048576, 0, 0, 0, 3, &sum, &n);
        CHECK(n > 0 && sum / (double)n <= 12.0 + 1e-9, "1 MiB through a 1 MiB L2 of 128 B lines: %.2f cycles an access (12: L2 hits)",
              n ? sum / (double)n : 0.0);
    }
    CHECK(!sim_parse_spec("level=1 size=4K ways=4 line=128\nlevel=2 size=16K ways=8 line=64\n", &sp, err, sizeof err),
          "a level of shorter lines than the level above rejected");
    CHECK(!sim_parse_spec("level=1 size=4K ways=4\nlevel=2 size=64K ways=8 line=8192\n", &sp, err, sizeof err),
          "a line longer than the page rejected");
}

static void test_sim_detect(void) {
    /* non-power-of-two sizes through the full sweep + inference */
    const char *specs[] = {
        "level=1 size=48K ways=12\nlevel=2 size=1280K ways=20\nlevel=3 size=27.5M ways=11 hash=on\nnoise=0.02\nseed=5\n",
        "level=1 size=32K ways=8\nlevel=2 size=3M ways=12\nlevel=3 size=12M ways=16\nnoise=0.02\nseed=7\n",
    };
    const double truth[2][3] = {{48 * 1024.0, 1280 * 1024.0, 27.5 * 1048576.0}, {32768, 3145728, 12582912}};
    int s, i;
    for (s = 0; s < 2; s++) {
        sim_spec sp;
        char err[256];
        servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
        servet_cache_level lv[8];
        int k;
        CHECK(sim_parse_spec(specs[s], &sp, err, sizeof err), "%s", err);
        k = sim_detect(&sp, c, lv, 8);
        CHECK(k == 3, "spec %d: %d levels", s, k);
        for (i = 0; i < 3 && i < k; i++)
            CHECK(fabs(lv[i].size_bytes / truth[s][i] - 1) <= 0.05, "spec %d level %d: %.0f vs %.0f", s, i + 1,
                  lv[i].size_bytes, truth[s][i]);
        free(c);
    }
}

/* The second look (>>probe-cache item 8): a burst of interference that lasts
   over the points just below the L1 step leaves a monotone curve with the
   step moved down (and unrefined: the peak moved); measuring the points
   around each step again, later, on the refinement grid, puts it back. */
typedef struct burst_fake {
    double l1, l2, mem;      /* capacities of a 2-level staircase */
    double burst_lo, burst_hi, burst_factor;
    double max_bytes; /* the buffers end there: a larger size fails, as in the real chase */
    int burst_on;
    long burst_calls; /* a burst that lasts this many more calls in the window */
    long calls, calls_above_8m;
} burst_fake;
static double burst_measure(void *user, double bytes, int replica) {
    burst_fake *f = (burst_fake *)user;
    double t = bytes <= f->l1 ? 1.3 : bytes <= f->l2 ? 4.0 : bytes <= f->mem ? 12.0 : 80.0;
    (void)replica;
    if (f->max_bytes > 0.0 && bytes > f->max_bytes) return 0.0;
    f->calls++;
    if (bytes > 8.0 * 1048576.0) f->calls_above_8m++;
    if (bytes > f->burst_lo && bytes <= f->burst_hi) {
        if (f->burst_on) t *= f->burst_factor;
        else if (f->burst_calls > 0) { f->burst_calls--; t *= f->burst_factor; }
    }
    return t * noise(0.01);
}
static void test_second_look(void) {
    burst_fake f;
    servet_sweep_desc d;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
    servet_cache_level lv[8];
    double next, reported[3] = {49152.0, 1310720.0, 20.0 * 1048576.0};
    int k, k2, lowered, pass;
    memset(&f, 0, sizeof f);
    f.l1 = 49152.0; f.l2 = 1310720.0; f.mem = 20.0 * 1048576.0;
    f.burst_lo = 38912.0; f.burst_hi = 49152.0;
    f.burst_factor = 2.9; /* just under the L2 time: a monotone curve */
    memset(&d, 0, sizeof d);
    d.min_bytes = 4096; d.max_bytes = 64.0 * 1048576.0; d.line_bytes = 64; d.page_bytes = 2097152.0;
    d.repeats = 3;
    f.max_bytes = d.max_bytes;
    for (pass = 0; pass < 2; pass++) { /* with and without an OS figure */
        f.burst_on = 1;
        CHECK(servet_sweep(burst_measure, &f, &d, c) == SERVET_OK, "sweep");
        k = servet__infer(c->bytes, c->ns, c->spread, c->n, c->page_bytes, lv, 8, &next, log(1.3));
        CHECK(k >= 2 && lv[0].size_bytes <= 40960.0, "pass %d: the burst moves L1 down (%.0f, %d levels)", pass,
              k > 0 ? lv[0].size_bytes : 0.0, k);
        f.burst_on = 0;
        f.calls_above_8m = 0;
        lowered = servet__recheck_steps(burst_measure, &f, &d, c, lv, k > 0 ? k : 0, reported, pass ? 0 : 3, 0.0);
        CHECK(lowered > 0, "pass %d: second look lowered or added %d points", pass, lowered);
        CHECK(f.calls_above_8m == 0, "pass %d: the 20 MiB level, agreeing, was not walked again (%ld calls)", pass,
              f.calls_above_8m);
        k2 = servet__infer(c->bytes, c->ns, c->spread, c->n, c->page_bytes, lv, 8, &next, log(1.3));
        if (pass == 0)
            CHECK(k2 >= 1 && fabs(lv[0].size_bytes / 49152.0 - 1.0) < 0.03, "L1 after a look with the OS figure %.0f",
                  k2 > 0 ? lv[0].size_bytes : 0.0);
        else /* one look reaches 1.35x above the step: it moves up */
            CHECK(k2 >= 1 && lv[0].size_bytes > 40960.0, "L1 after a look without an OS figure %.0f",
                  k2 > 0 ? lv[0].size_bytes : 0.0);
        CHECK(servet__recheck_steps(burst_measure, &f, &d, c, lv, k2, reported, 3, 0.0) >= 0 &&
                  servet__infer(c->bytes, c->ns, c->spread, c->n, c->page_bytes, lv, 8, &next, log(1.3)) >= 1 &&
                  fabs(lv[0].size_bytes / 49152.0 - 1.0) < 0.03,
              "pass %d: another look at a clean curve leaves L1 at %.0f", pass, lv[0].size_bytes);
    }
    /* the whole second look: a burst that lasts into the first look (its
       first 24 measurements in the burst window stay slow: 8 of its 11
       points) is outlived by the extra L1 rounds, with or without an OS L1
       figure to aim at */
    for (pass = 0; pass < 2; pass++) {
        double first = 0.0;
        int rounds = 0;
        f.burst_on = 1;
        CHECK(servet_sweep(burst_measure, &f, &d, c) == SERVET_OK, "sweep");
        f.burst_on = 0;
        f.burst_calls = 24;
        lowered = servet__second_look(burst_measure, &f, &d, c, reported, 3, pass ? 0.0 : 49152.0, 0.0, &first, &rounds);
        k = servet__infer(c->bytes, c->ns, c->spread, c->n, c->page_bytes, lv, 8, &next, log(1.3));
        CHECK(first > 0.0 && first <= 40960.0, "second_look pass %d: first L1 estimate %.0f", pass, first);
        CHECK(lowered > 0 && rounds >= 2 && rounds <= 3 && k >= 1 && fabs(lv[0].size_bytes / 49152.0 - 1.0) < 0.03,
              "second_look %s the OS figure: %d rounds, %d lowered or added, L1 %.0f", pass ? "without" : "with",
              rounds, lowered, k > 0 ? lv[0].size_bytes : 0.0);
        f.burst_calls = 0;
    }
    /* a large level the OS contradicts is walked again */
    {
        servet_cache_level big;
        memset(&big, 0, sizeof big);
        big.size_bytes = big.estimate_bytes = big.range_lo_bytes = big.range_hi_bytes = 16.0 * 1048576.0;
        f.calls_above_8m = 0;
        CHECK(servet__recheck_steps(burst_measure, &f, &d, c, &big, 1, reported, 3, 0.0) >= 0 && f.calls_above_8m > 0,
              "a disagreeing 16 vs 20 MiB level is re-measured (%ld calls)", f.calls_above_8m);
        /* past its deadline a look starts no measurement */
        {
            long calls = f.calls;
            CHECK(servet__recheck_steps(burst_measure, &f, &d, c, &big, 1, reported, 3, servet__now() - 1.0) == 0 &&
                      f.calls == calls,
                  "a look past its deadline measures nothing (%ld calls)", f.calls - calls);
        }
        /* a step near the end of the sweep: the look stops where the buffers end */
        {
            double at_end[1] = {64.0 * 1048576.0};
            big.size_bytes = big.estimate_bytes = big.range_lo_bytes = big.range_hi_bytes = 56.0 * 1048576.0;
            CHECK(servet__recheck_steps(burst_measure, &f, &d, c, &big, 1, at_end, 1, 0.0) >= 0,
                  "a look at a step by the sweep's end stays within max_bytes");
        }
    }
    free(c);
}

/* A retentive L1 (a Zen 3 VM, 2026-11-25: L1d 32 KiB 8-way): the cyclic
   walk's miss rate rises from 32 KiB to 0.79 of the way at 38 KiB and 0.84
   at 39 KiB. The sweep's grid has 38.1 KiB, then 45.3 KiB (1.41x): no
   sharp step, and the probabilistic fit reads the L1 low. The second look
   reaches 1.35x above the step, as far as the step test looks, and the
   step comes out at 32 KiB. */
static double ramp_measure(void *user, double bytes, int replica) {
    static const double kb[] = {32, 33, 34, 35, 36, 37, 38, 39, 40, 42}, mr[] = {0, .17, .23, .29, .64, .69, .79, .84, .91, 1};
    double k = bytes / 1024.0, m = 1.0, t;
    int i;
    (void)user; (void)replica;
    if (k <= 32.0) m = 0.0;
    for (i = 0; i + 1 < 10 && k > 32.0; i++)
        if (k <= kb[i + 1]) { m = mr[i] + (mr[i + 1] - mr[i]) * (k - kb[i]) / (kb[i + 1] - kb[i]); break; }
    t = bytes <= 45.0 * 1024.0 ? 1.24 + m * (3.65 - 1.24) : bytes <= 524288.0 ? 3.65 : bytes <= 8.0 * 1048576.0 ? 15.0 : 100.0;
    return t * noise(0.003);
}
static void test_second_look_ramp(void) {
    servet_sweep_desc d;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
    servet_cache_level lv[8];
    double next, reported[3] = {32768.0, 524288.0, 8.0 * 1048576.0}, first = 0.0;
    int k, rounds = 0, lowered;
    memset(&d, 0, sizeof d);
    d.min_bytes = 4096; d.max_bytes = 64.0 * 1048576.0; d.line_bytes = 64; d.page_bytes = 2097152.0;
    d.repeats = 3;
    CHECK(servet_sweep(ramp_measure, NULL, &d, c) == SERVET_OK, "ramp sweep");
    k = servet__infer(c->bytes, c->ns, c->spread, c->n, c->page_bytes, lv, 8, &next, log(1.3));
    CHECK(k >= 1 && lv[0].method != SERVET_METHOD_STEP,
          "the sweep alone leaves the ramp without a step (L1 %.0f, method %d): the case this test is about", k > 0 ? lv[0].size_bytes : 0.0,
          k > 0 ? (int)lv[0].method : -1);
    lowered = servet__second_look(ramp_measure, NULL, &d, c, reported, 3, 32768.0, 0.0, &first, &rounds);
    k = servet__infer(c->bytes, c->ns, c->spread, c->n, c->page_bytes, lv, 8, &next, log(1.3));
    CHECK(lowered > 0 && k >= 1 && lv[0].method == SERVET_METHOD_STEP && fabs(lv[0].size_bytes / 32768.0 - 1.0) < 0.03,
          "after the second look: L1 %.0f by method %d (%d points added, %d rounds)", k > 0 ? lv[0].size_bytes : 0.0,
          k > 0 ? (int)lv[0].method : -1, lowered, rounds);
    free(c);
}

/* The second walk's consistency pass (>>probe-cache item 9): a slow spell
   of the host lasts over several of its points. The walk measures them in
   a random order (servet_sweep_irm), so the spell lifts points scattered
   over the window, each then above a larger one, and the pass measures
   them again. The fake's spell is in time: the 4th to the 12th point the
   walk starts, until it comes back to a size it measured (the pass). */
typedef struct spell_fake {
    double seen[64]; /* the sizes started, in the walk's order */
    int nseen;
    int over;        /* the spell is over (a size measured again: the pass) */
    int spelled;     /* points the spell lifted */
} spell_fake;
static double spell_measure(void *user, double bytes, int replica) {
    spell_fake *f = (spell_fake *)user;
    double t = 4.0 + 10.0 * (bytes > 524288.0 ? 1.0 - 524288.0 / bytes : 0.0) + 0.2 * log2(bytes / 131072.0);
    int k, known = 0;
    (void)replica;
    for (k = 0; k < f->nseen && !known; k++) known = f->seen[k] == bytes;
    if (known && f->seen[f->nseen - 1] != bytes) f->over = 1;
    if (!known && f->nseen < 64) {
        f->seen[f->nseen++] = bytes;
        if (!f->over && f->nseen >= 4 && f->nseen <= 12) f->spelled++;
    }
    if (!f->over && f->nseen >= 4 && f->nseen <= 12) t *= 1.6;
    return t * noise(0.002);
}
static void test_irm_consistency(void) {
    spell_fake f;
    servet_sweep_desc d;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
    servet_cache_level lv[2];
    int i, j, bad = 0, ascending = 1, sorted = 1;
    memset(&f, 0, sizeof f);
    memset(&d, 0, sizeof d);
    memset(lv, 0, sizeof lv);
    d.line_bytes = 64;
    lv[0].size_bytes = lv[0].estimate_bytes = 524288.0;
    lv[0].range_lo_bytes = 507904.0; lv[0].range_hi_bytes = 540672.0;
    lv[0].method = SERVET_METHOD_BINOMIAL_LINE;
    lv[1].size_bytes = lv[1].estimate_bytes = lv[1].range_lo_bytes = lv[1].range_hi_bytes = 8.0 * 1048576.0;
    lv[1].method = SERVET_METHOD_STEP;
    CHECK(servet_sweep_irm(spell_measure, &f, &d, lv, 2, c) == SERVET_OK && c->n >= 10, "second walk: %d points", c->n);
    for (i = 0; i + 1 < f.nseen; i++) ascending &= f.seen[i] < f.seen[i + 1];
    CHECK(!ascending && f.nseen == c->n, "the walk started its %d points in a random order, each once", f.nseen);
    for (i = 0; i < c->n; i++) {
        if (i + 1 < c->n) sorted &= c->bytes[i] < c->bytes[i + 1];
        for (j = i + 1; j < c->n; j++) bad += c->ns[i] > c->ns[j] * 1.03;
    }
    CHECK(sorted, "the curve is by size");
    CHECK(f.spelled >= 4 && bad == 0, "a slow spell over %d points: %d pairs still out of order after the pass", f.spelled,
          bad);
    free(c);
}

/* The second walk in passes (desc.passes, servet__sweep_irm_passes): a
   stranger on the SMT sibling slows the walk in spells that last longer
   than a point's placements. The fake: runs of 40 measurements, a third
   of them (drawn by a hash of the run) 1.5x slow; each placement 5% from
   the next. In one visit a spell lifts whole points; in passes each
   placement keeps its lowest, and the points are within 1% of the truth. */
typedef struct passes_fake {
    long calls;
} passes_fake;
static double passes_truth(double bytes, int replica) {
    return (4.0 + 10.0 * (bytes > 524288.0 ? 1.0 - 524288.0 / bytes : 0.0)) * (1.0 + 0.05 * (double)(replica % 3));
}
static double passes_measure(void *user, double bytes, int replica) {
    passes_fake *f = (passes_fake *)user;
    uint64_t run = (uint64_t)(f->calls++ / 40) * 0x9E3779B97F4A7C15ull;
    double t = passes_truth(bytes, replica);
    run ^= run >> 29;
    if (run % 3 == 0) t *= 1.5;
    return t * noise(0.002);
}
/* the passes tests' walk: 12 placements a point, a 512 KiB L2 fitted
   binomial under an 8 MiB step */
static void passes_setup(servet_sweep_desc *d, servet_cache_level *lv, int passes) {
    memset(d, 0, sizeof *d);
    memset(lv, 0, 2 * sizeof *lv);
    d->line_bytes = 64;
    d->replicas = 12;
    d->replica_bytes = 64.0 * 1048576.0;
    d->passes = passes;
    lv[0].size_bytes = lv[0].estimate_bytes = 524288.0;
    lv[0].range_lo_bytes = 507904.0; lv[0].range_hi_bytes = 540672.0;
    lv[0].method = SERVET_METHOD_BINOMIAL_LINE;
    lv[1].size_bytes = lv[1].estimate_bytes = lv[1].range_lo_bytes = lv[1].range_hi_bytes = 8.0 * 1048576.0;
    lv[1].method = SERVET_METHOD_STEP;
}
/* the truth of a point: the mean over its 12 placements */
static double passes_truth_mean(double bytes) {
    double truth = 0.0;
    int q;
    for (q = 0; q < 12; q++) truth += passes_truth(bytes, q) / 12.0;
    return truth;
}
static double irm_passes_worst(int passes, long *calls) {
    passes_fake f;
    servet_sweep_desc d;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
    servet_cache_level lv[2];
    double worst = 0.0;
    int i;
    memset(&f, 0, sizeof f);
    passes_setup(&d, lv, passes);
    CHECK(servet_sweep_irm(passes_measure, &f, &d, lv, 2, c) == SERVET_OK && c->n >= 10, "second walk (passes %d): %d points",
          passes, c->n);
    for (i = 0; i < c->n; i++) {
        double e = fabs(c->ns[i] / passes_truth_mean(c->bytes[i]) - 1.0);
        if (e > worst) worst = e;
        if (i > 0) CHECK(c->bytes[i] > c->bytes[i - 1], "passes %d: the curve is by size", passes);
    }
    *calls = f.calls;
    free(c);
    return worst;
}
/* The passes' own consistency pass: one point (near 400 KiB) slow on both
   passes' visits of every placement - a spell on it each time -, clean
   after; its two lowest agree, so no third pass visits it, but it stands
   over larger points, so its placements are visited once more and it comes
   within 1% of the truth, at 12 visits (a placement each), not the
   2 x 2 x 12 of measuring it and its neighbour again. */
typedef struct spelled_fake {
    double target;
    int visits[64];
    long calls;
} spelled_fake;
static double spelled_measure(void *user, double bytes, int replica) {
    spelled_fake *f = (spelled_fake *)user;
    double t = passes_truth(bytes, replica);
    f->calls++;
    if (bytes == f->target && f->visits[replica]++ < 2) t *= 1.3;
    return t * noise(0.002);
}
static void test_irm_passes_fix(void) {
    spelled_fake f;
    servet_sweep_desc d;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c), *probe = (servet_curve *)calloc(1, sizeof *probe);
    servet_cache_level lv[2];
    int i, found = 0;
    long calls_before;
    memset(&f, 0, sizeof f);
    passes_setup(&d, lv, 2);
    /* the walk's sizes, from a clean run: the one nearest 400 KiB gets the spell */
    f.target = -1.0;
    CHECK(servet_sweep_irm(spelled_measure, &f, &d, lv, 2, probe) == SERVET_OK && probe->n >= 10, "second walk: %d points",
          probe->n);
    for (i = 0; i < probe->n; i++)
        if (f.target < 0.0 || fabs(probe->bytes[i] - 409600.0) < fabs(f.target - 409600.0)) f.target = probe->bytes[i];
    calls_before = f.calls;
    f.calls = 0;
    CHECK(servet_sweep_irm(spelled_measure, &f, &d, lv, 2, c) == SERVET_OK && c->n == probe->n, "second walk again: %d points",
          c->n);
    for (i = 0; i < c->n; i++) {
        double truth = passes_truth_mean(c->bytes[i]);
        if (c->bytes[i] != f.target) continue;
        found = 1;
        CHECK(fabs(c->ns[i] / truth - 1.0) < 0.01, "a point slow on all its passes' visits: %.1f%% off after the consistency pass",
              100.0 * (c->ns[i] / truth - 1.0));
    }
    CHECK(found && f.target > 300000.0 && f.target < 500000.0, "the spelled point (%.0f B) is on the walk", f.target);
    CHECK(f.calls - calls_before >= 12 && f.calls <= calls_before + 12, "the consistency pass: %ld visits more than a clean walk's %ld", f.calls - calls_before,
          calls_before);
    free(c);
    free(probe);
}
static void test_irm_passes(void) {
    long one = 0, two = 0;
    double w1 = irm_passes_worst(0, &one), w2 = irm_passes_worst(2, &two);
    CHECK(w1 > 0.05, "one visit a placement: spells lift a point by %.1f%% (the fake bites)", 100.0 * w1);
    CHECK(w2 < 0.01, "in passes: every point within 1%% of the truth (worst %.2f%%)", 100.0 * w2);
    CHECK(two < 3 * one, "passes cost %ld measurements, one visit with its repetitions %ld", two, one);
    test_irm_passes_fix();
}

/* An L1 shared with a busy SMT sibling for the whole probe
   (servet__l1_ramp_end): the cyclic walk misses from 36 KiB, throughout only
   past the 48 KiB of the hardware (a Zen 5 VM, 2026-12-01). The ramp's end
   confirms the OS's figure; it does not for an L1 that really is smaller,
   LRU (40 KiB: misses throughout from 44 KiB) or random (36 KiB: a smooth
   ramp that still climbs past 1.35x the OS's figure; 30 KiB: an estimate
   under 0.7x the OS's), nor without an OS figure. */
static double l1_miss_rate(double kb, int kind) {
    if (kind == 0) /* 48 KiB, a sibling: misses from 36 KiB, throughout from 51 */
        return kb <= 36.0 ? 0.0 : kb < 51.0 ? 0.75 * (kb - 36.0) / 14.0 : 1.0;
    if (kind == 1) /* 40 KiB LRU, a sibling: misses from 35 KiB, throughout from 44 */
        return kb <= 35.0 ? 0.0 : kb < 44.0 ? 0.75 * (kb - 35.0) / 9.0 : 1.0;
    {   /* 36 KiB (kind 2) or 30 KiB (kind 3), random replacement: a line survives a cycle with
           h = exp(-a(1-h)), a = W/C */
        double a = kb / (kind == 2 ? 36.0 : 30.0), h = 0.0;
        int it;
        if (a <= 1.0) return 0.0;
        for (it = 0; it < 500; it++) h = exp(-a * (1.0 - h)); /* the fixed point below 1 */
        return 1.0 - h;
    }
}
/* coarse points (4 a octave) with 1 KiB steps from 24 to 80 KiB, an L2 to 1 MiB whose
   plateau climbs from 64 KiB on (3.8 to 4.56 ns: a victim L2's, its median well over the
   plateau's start, which the ramp's end is read against) */
static int l1_curve(double *b, double *l, double *sp, int kind) {
    int n = 0, q;
    double w;
    for (q = 0; (w = 4096.0 * pow(2.0, q / 4.0)) <= 16.0 * 1048576.0; q++) {
        if (w >= 24576.0 && w <= 81920.0) continue;
        b[n++] = floor(w / 64.0) * 64.0;
        if (w < 24576.0 && 4096.0 * pow(2.0, (q + 1) / 4.0) > 24576.0)
            for (w = 24576.0; w <= 81920.0; w += 1024.0) b[n++] = w;
    }
    for (q = 0; q < n; q++) {
        l[q] = b[q] > 1048576.0 ? 100.0 : 1.1 + l1_miss_rate(b[q] / 1024.0, kind) * (3.8 - 1.1);
        if (b[q] > 65536.0 && b[q] <= 1048576.0) l[q] *= 1.0 + 0.05 * log2(b[q] / 65536.0);
        sp[q] = 0.01;
    }
    return n;
}
static void test_l1_ramp_end(void) {
    servet_curve *cv = (servet_curve *)calloc(1, sizeof *cv);
    servet_cache_level lv[8];
    double next = 0.0;
    int kind, k;
    for (kind = 0; kind < 4; kind++) {
        cv->n = l1_curve(cv->bytes, cv->ns, cv->spread, kind);
        cv->page_bytes = 2097152.0;
        k = servet__infer(cv->bytes, cv->ns, cv->spread, cv->n, cv->page_bytes, lv, 8, &next, log(1.3));
        CHECK(k >= 2 && lv[0].estimate_bytes >= 0.6 * 49152.0 && lv[0].estimate_bytes < 49152.0 &&
                  lv[0].range_hi_bytes < 49152.0,
              "curve %d: the fit reads %.0f KiB, range to %.0f, under the OS's 48 (the case at hand)", kind,
              k > 0 ? lv[0].estimate_bytes / 1024.0 : 0.0, k > 0 ? lv[0].range_hi_bytes / 1024.0 : 0.0);
        if (k < 2) continue;
        if (kind == 0)
            CHECK(servet__l1_ramp_end(cv, 49152.0, lv, k) == 1 && lv[0].range_hi_bytes >= 49152.0 &&
                      lv[0].range_hi_bytes <= 53248.0,
                  "a sibling's smeared ramp that ends past 48 KiB holds it: range to %.0f KiB", lv[0].range_hi_bytes / 1024.0);
        else
            CHECK(servet__l1_ramp_end(cv, 49152.0, lv, k) == 0 && lv[0].range_hi_bytes < 49152.0,
                  "curve %d (%s): no confirmation of 48 KiB (range to %.0f KiB)", kind,
                  kind == 1 ? "a 40 KiB LRU L1" : kind == 2 ? "a 36 KiB random L1" : "a 30 KiB random L1",
                  lv[0].range_hi_bytes / 1024.0);
        if (kind == 0) { /* the same curve: an OS figure over 1/0.7x the estimate, or none */
            k = servet__infer(cv->bytes, cv->ns, cv->spread, cv->n, cv->page_bytes, lv, 8, &next, log(1.3));
            CHECK(servet__l1_ramp_end(cv, lv[0].estimate_bytes / 0.69, lv, k) == 0, "an OS figure over 1/0.7x the estimate");
            CHECK(servet__l1_ramp_end(cv, 0.0, lv, k) == 0 && servet__l1_ramp_end(NULL, 49152.0, lv, k) == 0,
                  "no OS figure, no curve: nothing");
        }
    }
    free(cv);
}

/* A level the probe lost (servet__cache_lost_level): the figures of the Zen 5
   VM's probe of 2026-12-07 that read no step at the OS's 1 MiB L2 and named
   the L3's 3.3 MiB step L2, with no L3; one of 2026-12-01 that read it at 2.3
   MiB; and the profiles it must leave alone, the lent Xeon's among them (L2
   at 2.4x the OS's 2 MiB with no L3, at an L2's latency). */
static char lost_said[512];
static void lost_log(void *user, servet_log_level level, const char *msg) {
    (void)user;
    if (level == SERVET_LOG_WARN) snprintf(lost_said, sizeof lost_said, "%s", msg);
}
static void test_lost_level(void) {
    static servet_profile p;
    static servet__cacheobj obj[3];
    obj[0].level = 1; obj[0].size = 49152;
    obj[1].level = 2; obj[1].size = 1048576;
    obj[2].level = 3; obj[2].size = 508u << 20;
    p.cacheobjs = obj;
    p.ncacheobjs = 3;
    p.nlevels = 2;
    p.levels[0].size_bytes = 49152.0;
    p.levels[0].latency = 1.17;
    p.levels[1].size_bytes = 3473408.0;
    p.levels[1].latency = 17.41;
    CHECK(servet__cache_lost_level(&p) == 2, "3.3 MiB at 17 ns for the OS's 1 MiB L2, no L3: L2 lost (%d)", servet__cache_lost_level(&p));
    lost_said[0] = 0;
    p.ctx.log = lost_log;
    p.ctx.level = SERVET_LOG_WARN;
    CHECK(servet__cache_lost_warn(&p, 0) == 2 && strstr(lost_said, "L2 measured 3.31 MiB at 17.4 ns, 3.3x the OS's 1 MiB") &&
              strstr(lost_said, "2 levels where the OS lists 3") && strstr(lost_said, "--force") &&
              !strncmp(lost_said, "cache probe: ", 13),
          "the probe says so: %s", lost_said);
    lost_said[0] = 0;
    CHECK(servet__cache_lost_warn(&p, 1) == 2 && !strncmp(lost_said, "cache file: L2 measured 3.31 MiB", 32),
          "and so does an open that reads it from the file: %s", lost_said);
    p.ctx.log = NULL;
    p.levels[1].size_bytes = 2304.0 * 1024.0;
    p.levels[1].latency = 16.2;
    p.levels[0].latency = 1.1;
    CHECK(servet__cache_lost_level(&p) == 2, "2.3 MiB at 16 ns (2026-12-01): lost too");
    p.levels[1].size_bytes = 1048576.0;
    p.levels[1].latency = 3.9;
    CHECK(servet__cache_lost_level(&p) == 0, "the L2 as the OS says, the L3 unmeasured: nothing lost");
    p.levels[1].size_bytes = 1.9 * 1048576.0;
    p.levels[1].latency = 16.2;
    CHECK(servet__cache_lost_level(&p) == 0, "1.9x the OS's size: under the bar");
    obj[0].size = 49152; obj[1].size = 2u << 20; obj[2].size = 105u << 20;
    p.levels[0].latency = 1.9;
    p.levels[1].size_bytes = 4992.0 * 1024.0;
    p.levels[1].latency = 6.0;
    CHECK(servet__cache_lost_level(&p) == 0, "the Xeon's 4.9 MiB L2 at 6 ns (3.2x L1's): an L2's latency, not lost");
    obj[1].size = 1048576;
    p.levels[0].latency = 1.17;
    p.levels[1].size_bytes = 3473408.0;
    p.levels[1].latency = 17.41;
    p.nlevels = 3;
    p.levels[2].size_bytes = 7.7 * 1048576.0;
    p.levels[2].latency = 15.8;
    CHECK(servet__cache_lost_level(&p) == 0, "every level the OS lists measured: not a lost one");
    p.nlevels = 2;
    p.ncacheobjs = 2;
    CHECK(servet__cache_lost_level(&p) == 0, "the OS lists no more levels than were measured");
    p.ncacheobjs = 0;
    CHECK(servet__cache_lost_level(&p) == 0, "no OS word: nothing to say");
    p.ncacheobjs = 3;
    p.levels[0].latency = 0.0;
    CHECK(servet__cache_lost_level(&p) == 0, "no latency above: nothing to compare");
    p.levels[0].latency = 1.17;
    p.nlevels = 1;
    CHECK(servet__cache_lost_level(&p) == 0, "an L1 alone: the check starts past it");
    CHECK(servet__cache_lost_level(NULL) == 0, "NULL: 0");
}

/* A step the OS contradicts is walked (servet__irm_referee): a spell over
   the cyclic points under a 512 KiB L2 read a step at 362 KiB; the L2 gets
   a second-walk window that spans the OS's figure. Levels it leaves alone:
   the L1, a step within 5% of the OS, a level the OS reports over 4 MiB,
   one the OS does not report, a fitted (non-step) level. And where the
   walk has no points in that window, servet__infer_curves returns the
   cyclic fit as it was. */
static void test_irm_referee(void) {
    static servet_profile os;
    static servet__cacheobj obj[3];
    servet_cache_level lv[5], keep[5];
    double lo = 0.0, hi = 0.0, b[80], l[80], cap[3] = {32768.0, 370752.0, 8.0 * 1048576.0}, lat[4] = {1.2, 4.0, 14.0, 100.0};
    servet_curve *cv = (servet_curve *)calloc(1, sizeof *cv), *irm = (servet_curve *)calloc(1, sizeof *irm);
    servet_cache_level a[SERVET__MAX_LEVELS], z[SERVET__MAX_LEVELS];
    double next, reach[SERVET__MAX_TLB];
    int flag[5], i, n, na, nz, ntlb, same = 1;
    obj[0].level = 1; obj[0].size = 32768; obj[0].inclusive = -1;
    obj[1].level = 2; obj[1].size = 524288; obj[1].inclusive = -1;
    obj[2].level = 3; obj[2].size = 32u << 20; obj[2].inclusive = -1;
    os.cacheobjs = obj;
    os.ncacheobjs = 3;
    memset(lv, 0, sizeof lv);
    for (i = 0; i < 5; i++) lv[i].method = SERVET_METHOD_STEP;
    lv[0].estimate_bytes = 30720.0;                     /* the L1: never */
    lv[1].estimate_bytes = 370752.0;                    /* 362 KiB for 512: walked */
    lv[1].range_lo_bytes = 370752.0; lv[1].range_hi_bytes = 499712.0;
    lv[2].estimate_bytes = 3.0 * 1048576.0;             /* the OS says 32 MiB: a VM's share */
    lv[3].estimate_bytes = 3.5 * 1048576.0;             /* not reported */
    lv[4].estimate_bytes = 4.5 * 1048576.0;
    memcpy(keep, lv, sizeof lv);
    CHECK(servet__irm_referee(&os, lv, 5, flag) == 1 && flag[1] && !flag[0] && !flag[2] && !flag[3] && !flag[4],
          "one level marked, the L2 (flags %d %d %d %d %d)", flag[0], flag[1], flag[2], flag[3], flag[4]);
    CHECK(lv[1].method != SERVET_METHOD_STEP && lv[1].range_lo_bytes == 370752.0 && lv[1].range_hi_bytes == 524288.0,
          "the L2's range takes in the OS's 512 KiB: %.0f-%.0f KiB", lv[1].range_lo_bytes / 1024.0, lv[1].range_hi_bytes / 1024.0);
    CHECK(servet__irm_window(lv, 5, 1, &lo, &hi) && lo <= 0.6 * 370752.0 && hi >= 1.3 * 524288.0,
          "its window spans both: %.0f-%.0f KiB", lo / 1024.0, hi / 1024.0);
    CHECK(!memcmp(&lv[0], &keep[0], sizeof lv[0]) && !memcmp(&lv[2], &keep[2], 3 * sizeof lv[0]), "the others as they were");
    memcpy(lv, keep, sizeof lv);
    obj[1].size = 360448; /* 352 KiB: within 5% of the step */
    CHECK(servet__irm_referee(&os, lv, 5, NULL) == 0, "a step within 5%% of the OS is not walked");
    lv[1].method = SERVET_METHOD_BINOMIAL_LINE;
    obj[1].size = 524288;
    CHECK(servet__irm_referee(&os, lv, 5, NULL) == 0, "a fitted level is walked anyway, not marked");
    CHECK(servet__irm_referee(NULL, keep, 5, NULL) == 0, "no OS word, no referee");
    /* the revert: a cyclic staircase with the step at 362 KiB, a second walk
       with points only under the L1's window */
    n = staircase(b, l, cap, lat, 3, 0.0);
    for (i = 0; i < n && i < SERVET_CURVE_MAX; i++) {
        cv->bytes[i] = b[i]; cv->ns[i] = l[i]; cv->spread[i] = 0.0;
    }
    cv->n = i;
    cv->page_bytes = 2097152.0;
    for (i = 0; i < 8; i++) {
        irm->bytes[i] = 8192.0 * (i + 1);
        irm->ns[i] = 1.2 + 2.8 * (irm->bytes[i] > 32768.0 ? 1.0 - 32768.0 / irm->bytes[i] : 0.0);
    }
    irm->n = 8;
    irm->page_bytes = 4096.0;
    na = servet__infer_curves(cv, NULL, irm, &os, a, &next, reach, &ntlb);
    nz = servet__infer_curves(cv, NULL, irm, NULL, z, &next, reach, &ntlb);
    for (i = 0; i < na && i < nz; i++) same &= !memcmp(&a[i], &z[i], sizeof a[i]);
    CHECK(na == nz && na >= 2 && same, "no walk in the window: the cyclic fit as it was (%d and %d levels, L2 %.0f KiB %s)", na, nz,
          na >= 2 ? a[1].estimate_bytes / 1024.0 : 0.0, na >= 2 ? servet__method_name(a[1].method) : "-");
    free(cv);
    free(irm);
}

/* The cyclic sweep's consistency pass up to 4 MiB (desc.fix_beyond_bytes,
   servet__sweep_fix_by): a spell of the host lifted the 14 refined points
   from 1472 to 1888 KiB, 3x, between clean points on both sides (the lent
   Xeon, 2026-11-28). Checked against its successor each, two rounds bring
   back the last two; against the lowest larger point up to 4 MiB, every
   one. The fake measures the truth (the spell is over); the curve is the
   one the sweep left. */
static double spell_over_truth(double bytes) { return bytes <= 2097152.0 ? 6.0 : 30.0 + 5.0 * log2(bytes / 2097152.0); }
static double spell_over_measure(void *user, double bytes, int replica) {
    (void)replica;
    ++*(long *)user;
    return spell_over_truth(bytes);
}
static int spell_over_left(double beyond, long *calls) {
    servet_sweep_desc d;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
    int i, left = 0;
    memset(&d, 0, sizeof d);
    d.line_bytes = 64;
    d.fix_beyond_bytes = beyond;
    for (i = 0; i < 64; i++) {
        c->bytes[i] = 1024.0 * (1024.0 + 32.0 * i); /* 1024 .. 3040 KiB */
        c->ns[i] = spell_over_truth(c->bytes[i]);
        if (c->bytes[i] >= 1472.0 * 1024.0 && c->bytes[i] <= 1888.0 * 1024.0) c->ns[i] *= 3.0;
    }
    c->n = 64;
    *calls = 0;
    CHECK(servet__sweep_fix(spell_over_measure, calls, &d, 3, 0.0, c) == SERVET_OK, "consistency pass (beyond %.0f)", beyond);
    for (i = 0; i < c->n; i++) left += c->ns[i] > 1.01 * spell_over_truth(c->bytes[i]);
    free(c);
    return left;
}
static void test_sweep_fix_beyond(void) {
    long calls0 = 0, calls1 = 0;
    int succ = spell_over_left(0.0, &calls0), beyond = spell_over_left(4.0 * 1048576.0, &calls1);
    CHECK(succ >= 10, "against the successor: %d of 14 lifted points left (the case this is about)", succ);
    CHECK(beyond == 0, "against the lowest larger point up to 4 MiB: %d left", beyond);
    /* each lifted point and, once a round, the point it is over */
    CHECK(calls1 <= 2 * (14 + 1) * 3, "%ld measurements (3 repetitions a point)", calls1);
}

/* The sweep's final mark (servet__sweep_mark) against the lowest larger
   point up to `beyond`, as the re-measure checks: a busy neighbour lifted
   the cyclic points from 22.5 to 32.2 KiB, rising 1.69 -> 3.49 ns, each
   below its successor, and the spell lasted through their re-measures (a
   Zen 3 VM, 2026-11-28; the fit read L1 27 KiB, L2 204 KiB). Against the
   successor only the last of them is marked; against the lowest larger
   point (1.5x it), every one that far over it, and no clean point. */
static int mark_lifted(double bytes) { return bytes >= 23.0 * 1024.0 && bytes <= 32.0 * 1024.0; }
static double mark_truth(double bytes) { return bytes <= 32768.0 ? 1.25 : 1.25 + 3.0 * (1.0 - 32768.0 / bytes); }
static double mark_read(double bytes) {
    return mark_lifted(bytes) ? 1.69 + 0.18 * (bytes / 1024.0 - 23.0) : mark_truth(bytes);
}
static double mark_measure(void *user, double bytes, int replica) {
    (void)user;
    (void)replica;
    return mark_read(bytes); /* the spell lasts through the re-measures */
}
static void mark_count(double beyond, int *lifted_marked, int *clean_marked) {
    servet_sweep_desc d;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
    int i;
    memset(&d, 0, sizeof d);
    d.line_bytes = 64;
    d.fix_beyond_bytes = beyond;
    for (i = 0; i < 49; i++) {
        c->bytes[i] = 1024.0 * (16 + i); /* 16 .. 64 KiB */
        c->ns[i] = mark_read(c->bytes[i]);
        c->spread[i] = 0.01;
    }
    c->n = 49;
    CHECK(servet__sweep_fix(mark_measure, NULL, &d, 3, 0.0, c) == SERVET_OK, "consistency pass (beyond %.0f)", beyond);
    *lifted_marked = *clean_marked = 0;
    for (i = 0; i < c->n; i++) {
        if (mark_lifted(c->bytes[i])) *lifted_marked += c->spread[i] >= 0.5;
        else *clean_marked += c->spread[i] >= 0.5;
    }
    free(c);
}
static void test_sweep_mark_beyond(void) {
    int lm0, cm0, lm1, cm1, want = 1, i; /* want: the last by its successor, the others 1.5x over 33 KiB's */
    mark_count(0.0, &lm0, &cm0);
    mark_count(4.0 * 1048576.0, &lm1, &cm1);
    CHECK(lm0 == 1 && cm0 == 0, "against the successor: %d of 10 lifted points marked, %d clean ones (the case this is about)", lm0, cm0);
    for (i = 23; i < 32; i++) want += mark_read(1024.0 * i) > 1.5 * mark_truth(33.0 * 1024.0);
    CHECK(want >= 8 && lm1 == want && cm1 == 0,
          "against the lowest larger point up to 4 MiB: %d of 10 lifted points marked (%d are 1.5x over it), %d clean ones",
          lm1, want, cm1);
}

/* The binomial model split into its theta-free parts (servet__mr_binomial_prep,
   shared by the fit's thetas) gives bit for bit what the formula computed
   afresh for each theta gave: the reference below is the code before. */
static double ref_mr_binomial(double bytes, double cs, int k, double u, double theta) {
    double nu = bytes / u, p = (double)k * u / cs, tail, inv, t, n, r;
    int y;
    if (p > 1.0) return -1.0;
    if (nu < 1.0) return 0.0;
    if (p >= 1.0) return nu > (double)k ? 1.0 - theta * (double)k / nu : 0.0;
    n = nu - 1.0;
    tail = servet_binomial_tail(n, p, k - 1);
    if (theta <= 0.0 || tail <= 0.0) return tail;
    inv = (1.0 - exp(nu * log1p(-p))) / (nu * p);
    r = p / (1.0 - p);
    t = exp(n * log1p(-p));
    for (y = 0; y < k && (double)y <= n; y++) {
        inv -= t / (double)(y + 1);
        t *= (n - (double)y) / (double)(y + 1) * r;
    }
    if (inv < 0.0) inv = 0.0;
    t = tail - theta * (double)k * inv;
    return t < 0.0 ? 0.0 : t;
}
static double unit01(uint64_t *rng) { return (double)(servet__rng_next(rng) >> 11) / 9007199254740992.0; }
static void test_mr_binomial_parts(void) {
    static const double units[] = {64.0, 4096.0, 2097152.0}, thetas[] = {0.0, 0.5, 1.0};
    uint64_t rng = 12345;
    int c, differ = 0, cases = 0;
    for (c = 0; c < 20000; c++) {
        double bytes = 4096.0 * pow(2.0, 14.0 * unit01(&rng)), cs = 4096.0 * pow(2.0, 14.0 * unit01(&rng));
        int k = servet__fit_ways[servet__rng_next(&rng) % SERVET__FIT_NWAYS], t;
        double u = units[servet__rng_next(&rng) % 3];
        servet__mrb o;
        if (c % 4 == 0) bytes = floor(bytes / 64.0) * 64.0; /* the grid's sizes too */
        servet__mr_binomial_prep(bytes, cs, k, u, 1, &o);
        for (t = 0; t < 3; t++) {
            double a = ref_mr_binomial(bytes, cs, k, u, thetas[t]), b = servet__mr_binomial_at(&o, k, thetas[t]),
                   b2 = servet__mr_binomial(bytes, cs, k, u, thetas[t]);
            differ += memcmp(&a, &b, sizeof a) != 0 || memcmp(&a, &b2, sizeof a) != 0;
            cases++;
        }
    }
    CHECK(differ == 0, "binomial model in parts: %d of %d values differ from the formula's", differ, cases);
}

/* A level under another within 3x of it (no calibration point between),
   whose window ends under 1.5x the fit (no joint fit): the refit's cost is
   the cyclic curve's reading of the next level's latency, and a VM's small
   share of a host's L3 reads it high (the lent Xeon, 2026-11-28: 50 ns for
   about 34). The walk here is the k/X model of a 2 MiB 16-way level at a
   28 ns miss cost; the cyclic fit said 2016 KiB, range 1920-2176. At 44
   ns the refit reads the level far larger; servet_infer_caches_irm keeps
   the cyclic fit and widens its range to the refit's. */
static double kx_miss_rate(double bytes, double size, int ways) { /* lines a set ~ Poisson: 1 - E[min(X,k)]/mean */
    double lam = bytes / size * ways, p = exp(-lam), held = 0.0;
    int x;
    for (x = 0; x < 400; x++) {
        held += p * (x < ways ? x : ways);
        p *= lam / (x + 1);
    }
    return 1.0 - held / lam;
}
/* a noise-free cyclic curve of three levels (staircase) at 2 MiB pages */
static void staircase_curve(servet_curve *cv, const double *cap, const double *lat) {
    double b[80], l[80];
    int i, n = staircase(b, l, cap, lat, 3, 0.0);
    for (i = 0; i < n; i++) { cv->bytes[i] = b[i]; cv->ns[i] = l[i]; cv->spread[i] = 0.0; }
    cv->n = n;
    cv->page_bytes = 2097152.0;
}
/* a level as the cyclic inference leaves it: size, range, method, latency */
static void level_as(servet_cache_level *L, double size, double lo, double hi, servet_cache_method m, double lat) {
    L->size_bytes = L->estimate_bytes = size;
    L->range_lo_bytes = lo;
    L->range_hi_bytes = hi;
    L->method = m;
    L->latency = lat;
}
static void test_irm_uncalibrated(void) {
    servet_curve *cv = (servet_curve *)calloc(1, sizeof *cv), *irm = (servet_curve *)calloc(1, sizeof *irm);
    servet_cache_level lv[3], keep[3], fit[3];
    double cap[3] = {48.0 * 1024, 2048.0 * 1024, 5.0 * 1048576.0}, lat[4] = {1.8, 6.0, 50.0, 120.0};
    double lo = 0.0, hi = 0.0;
    int i;
    staircase_curve(cv, cap, lat);
    memset(lv, 0, sizeof lv);
    level_as(&lv[0], 48.0 * 1024, 48.0 * 1024, 48.0 * 1024, SERVET_METHOD_STEP, 1.8);
    level_as(&lv[1], 2016.0 * 1024, 1920.0 * 1024, 2176.0 * 1024, SERVET_METHOD_COLORED, 6.0);
    level_as(&lv[2], 8064.0 * 1024, 5632.0 * 1024, 8960.0 * 1024, SERVET_METHOD_BINOMIAL_LINE, 50.0);
    CHECK(servet__irm_window(lv, 3, 1, &lo, &hi) && hi < 1.5 * 2048.0 * 1024, "the L2's window ends at %.0f KiB", hi / 1024);
    for (i = 0; i < 40; i++) {
        double s = floor(lo * pow(2.0, i / 8.0) / 4096.0) * 4096.0;
        if (s > hi * 1.001) break;
        irm->bytes[i] = s;
        irm->ns[i] = 6.0 + servet__irm_above(lv, 1, s, NULL, NULL, 0) + 28.0 * kx_miss_rate(s, 2048.0 * 1024, 16);
        irm->spread[i] = 0.0;
    }
    irm->n = i;
    irm->page_bytes = 4096.0;
    memcpy(keep, lv, sizeof lv);
    memcpy(fit, lv, sizeof lv);
    CHECK(servet_infer_caches_irm(cv, irm, fit, 3, 120.0, NULL, NULL, 0, NULL) == SERVET_OK, "refit");
    CHECK(fit[1].estimate_bytes == keep[1].estimate_bytes && fit[1].method == keep[1].method,
          "the uncalibrated refit does not replace the cyclic fit: %.0f KiB %s", fit[1].estimate_bytes / 1024,
          servet__method_name(fit[1].method));
    CHECK(fit[1].range_lo_bytes <= keep[1].range_lo_bytes && fit[1].range_hi_bytes > 1.15 * 2048.0 * 1024,
          "its range takes in the refit's: %.0f-%.0f KiB", fit[1].range_lo_bytes / 1024, fit[1].range_hi_bytes / 1024);
    CHECK(!memcmp(&fit[0], &keep[0], sizeof fit[0]), "the L1 as it was");
    free(cv);
    free(irm);
}

/* The range's paired test (servet__irm_range_test) on a clean walk: the
   k/X model of a 512 KiB 8-way L2 at a 9.7 ns miss cost, calibration
   points at 3x and 4x, the cyclic curve reading the same cost. With no
   noise every other size's residuals exceed the fit's at every point, so
   the range stays within one step of the grid (16 KiB) either side: the
   test widens a range by the points' scatter, not by a fixed share. */
static void test_irm_range_clean(void) {
    servet_curve *cv = (servet_curve *)calloc(1, sizeof *cv), *irm = (servet_curve *)calloc(1, sizeof *irm);
    servet_cache_level lv[3];
    double cap[3] = {32.0 * 1024, 512.0 * 1024, 8.0 * 1048576.0}, lat[4] = {1.2, 4.3, 14.0, 110.0};
    double lo = 0.0, hi = 0.0, cal[2], s;
    int i, n, ncal, c;
    staircase_curve(cv, cap, lat);
    memset(lv, 0, sizeof lv);
    level_as(&lv[0], 32.0 * 1024, 32.0 * 1024, 32.0 * 1024, SERVET_METHOD_STEP, 1.2);
    level_as(&lv[1], 512.0 * 1024, 496.0 * 1024, 528.0 * 1024, SERVET_METHOD_BINOMIAL_LINE, 4.3);
    level_as(&lv[2], 8.0 * 1048576.0, 8.0 * 1048576.0, 8.0 * 1048576.0, SERVET_METHOD_STEP, 14.0);
    CHECK(servet__irm_window(lv, 3, 1, &lo, &hi), "the L2 has a window");
    ncal = servet__irm_calibration(lv, 3, 1, hi, cal);
    CHECK(ncal >= 1, "the L2 has calibration points (%d)", ncal);
    for (n = 0, s = lo; s <= hi * 1.001 && n < 40; s *= pow(2.0, 1.0 / 8.0)) irm->bytes[n++] = floor(s / 4096.0) * 4096.0;
    for (c = 0; c < ncal; c++) irm->bytes[n++] = cal[c]; /* the walk's points, then where the cost is read */
    for (i = 0; i < n; i++) {
        irm->ns[i] = 4.3 + servet__irm_above(lv, 1, irm->bytes[i], NULL, NULL, 0) +
                     9.7 * kx_miss_rate(irm->bytes[i], 512.0 * 1024, 8);
        irm->spread[i] = 0.0;
    }
    irm->n = n;
    irm->page_bytes = 4096.0;
    CHECK(servet_infer_caches_irm(cv, irm, lv, 3, 110.0, NULL, NULL, 0, NULL) == SERVET_OK, "refit");
    CHECK(fabs(lv[1].estimate_bytes / (512.0 * 1024) - 1.0) <= 0.04 && lv[1].range_lo_bytes >= 496.0 * 1024 &&
              lv[1].range_hi_bytes <= 528.0 * 1024 && lv[1].range_lo_bytes <= 512.0 * 1024 &&
              lv[1].range_hi_bytes >= 512.0 * 1024,
          "clean walk: the L2 %.0f KiB, range %.0f-%.0f KiB (want 512 inside 496-528)", lv[1].estimate_bytes / 1024,
          lv[1].range_lo_bytes / 1024, lv[1].range_hi_bytes / 1024);
    free(cv);
    free(irm);
}

/* A cyclic-curve shape of the lent Xeon (family 6 model 207, 2 MiB L2,
   2026-11-26) the inference read wrong before 2026-11-27: a VM's share of
   the L3 right above the L2, 40 ns from just past 2 MiB to 4 MiB, 0.75
   octave of plateau bounded by steps on both sides, was no run of plateau
   points, and the 2.5x rule merged the two: one level at 3.9 MiB. */
static void test_infer_vm_l3_share(void) {
    double b[200], l[200];
    servet_cache_level lv[8];
    int n, k, seed;
    for (seed = 0; seed < 5; seed++) {
        const double cap[3] = {48 * 1024.0, 2048 * 1024.0, 4096 * 1024.0}, lat[4] = {1.8, 6.0, 40.0, 120.0};
        rng_state = 12345 + (uint64_t)seed;
        n = staircase(b, l, cap, lat, 3, 0.02);
        k = infer_or(b, l, n, 2097152.0, lv, 8, NULL);
        CHECK(k == 3, "L3 share 2x the L2, seed %d: %d levels (want 3)", seed, k);
        if (k == 3)
            CHECK(fabs(lv[1].size_bytes / cap[1] - 1.0) <= 0.05 && fabs(lv[2].size_bytes / cap[2] - 1.0) <= 0.05,
                  "L3 share, seed %d: L2 %.0f KiB, L3 %.0f KiB (want 2048, 4096)", seed, lv[1].size_bytes / 1024,
                  lv[2].size_bytes / 1024);
    }
}

/* The last level's calibration point (servet__irm_calibration): its
   second walk goes on to 3 times its range, uncapped (no next level), so
   that its miss cost is read on two points past 2.5x its fit and not on
   the cyclic curve's plateau (a retentive policy still hits there). The
   sizes are those spell_fake records (its spell lifts times only). */
static void test_irm_last_level_calibration(void) {
    spell_fake f;
    servet_sweep_desc d;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
    servet_cache_level lv[2];
    double top = 0.0;
    int i;
    memset(&f, 0, sizeof f);
    memset(&d, 0, sizeof d);
    memset(lv, 0, sizeof lv);
    d.line_bytes = 64;
    lv[0].size_bytes = lv[0].estimate_bytes = lv[0].range_lo_bytes = lv[0].range_hi_bytes = 524288.0;
    lv[0].method = SERVET_METHOD_BINOMIAL_LINE;
    lv[1].size_bytes = lv[1].estimate_bytes = 8.0 * 1048576.0;
    lv[1].range_lo_bytes = 7.5 * 1048576.0; lv[1].range_hi_bytes = 8.5 * 1048576.0;
    lv[1].method = SERVET_METHOD_BINOMIAL_LINE;
    CHECK(servet_sweep_irm(spell_measure, &f, &d, lv, 2, c) == SERVET_OK && c->n >= 10, "second walk: %d points", c->n);
    for (i = 0; i < f.nseen; i++)
        if (f.seen[i] > top) top = f.seen[i];
    CHECK(fabs(top - floor(3.0 * 8.5 * 1048576.0 / 4096.0) * 4096.0) < 1.0,
          "the last level's walk ends at 3x its range (25.5 MiB): %.0f KiB", top / 1024.0);
    free(c);
}

/* end to end through the probe's sweep and inference on a simulated
   hierarchy: n levels found, each within 5% of truth[] */
static void detect_within(const char *spec, const double *truth, int n, const char *what) {
    sim_spec sp;
    servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
    servet_cache_level lv[8];
    char err[256];
    int k, i;
    CHECK(sim_parse_spec(spec, &sp, err, sizeof err), "%s", err);
    k = sim_detect(&sp, c, lv, 8);
    CHECK(k == n, "%s: %d levels", what, k);
    for (i = 0; i < n && i < k; i++)
        CHECK(fabs(lv[i].size_bytes / truth[i] - 1) <= 0.05, "%s, level %d: %.0f vs %.0f", what, i + 1, lv[i].size_bytes,
              truth[i]);
    free(c);
}

/* The exact chain of one victim set (servet__victim_set's comment): X
   lines, W ways, (v here, m in memory, the rest up above), rates in
   accesses times S: up -> here r each (to memory instead when the set is
   full), here -> up 1 each, memory -> up 1 each. Gauss-Seidel to the
   stationary law; returns E[m] / X. */
static double victim_chain(int X, int W, double r) {
    static double p[40][96];
    double em = 0.0;
    int v, m, it;
    for (v = 0; v <= W; v++) for (m = 0; m <= X; m++) p[v][m] = v + m <= X ? 1.0 : 0.0;
    for (it = 0; it < 20000; it++) {
        double diff = 0.0, tot = 0.0;
        for (v = 0; v <= W && v <= X; v++)
            for (m = 0; m + v <= X; m++) {
                int a = X - v - m;
                double out = a * r + v + m, in = 0.0, nv;
                if (v > 0) in += (a + 1) * r * p[v - 1][m];           /* a victim arrives */
                if (v == W && m > 0) in += (a + 1) * r * p[W][m - 1]; /* ... at a full set */
                if (v < W && v + 1 + m <= X) in += (v + 1) * p[v + 1][m]; /* a hit here */
                if (m + 1 + v <= X) in += (m + 1) * p[v][m + 1];       /* a miss to memory */
                nv = out > 0.0 ? in / out : p[v][m];
                diff += fabs(nv - p[v][m]);
                p[v][m] = nv;
                tot += nv;
            }
        for (v = 0; v <= W && v <= X; v++) for (m = 0; m + v <= X; m++) p[v][m] /= tot;
        if (diff < 1e-11 * tot) break;
    }
    for (v = 0; v <= W && v <= X; v++) for (m = 0; m + v <= X; m++) em += m * p[v][m];
    return em / X;
}

/* A victim (exclusive) level under independent references: its sets are
   not full (the victims refilling a set land elsewhere than the hits that
   empty it), so the k/X model of the sum reads it small. The mean field
   against the exact chain, the model against a tag-store replay, and end
   to end a random-replacement Tiger Lake with its L3 a victim cache (the
   k/X fit read 11.25 MiB for 12, 6.25% low). */
static void test_irm_victim(sim_rstore *store) {
    static const int W[3] = {8, 12, 16};
    static const double rr[4] = {0.5, 2.0, 8.0, 40.0};
    const double A = 262144.0, C = 2097152.0, at[4] = {0.84, 1.0, 1.3, 2.0};
    servet__victim V;
    sim_spec sp;
    char err[256];
    int w, ri, X, i, q, ik;
    for (w = 0; w < 3; w++)
        for (ri = 0; ri < 4; ri++)
            for (X = W[w] - 2; X <= 3 * W[w]; X += W[w] / 2) {
                double exact = victim_chain(X, W[w], rr[ri]), mf = servet__victim_set(X, W[w], rr[ri]);
                CHECK(fabs(exact - mf) < 0.003, "victim set, W %d, r %.1f, X %d: mean field %.4f, chain %.4f", W[w], rr[ri],
                      X, mf, exact);
            }
    memset(&V, 0, sizeof V);
    V.above = A;
    for (ik = 0; servet__fit_ways[ik] != 16; ik++) {}
    CHECK(sim_parse_spec("level=1 size=256K ways=8 lat=1 repl=random\nlevel=2 size=2M ways=16 lat=1 repl=random "
                         "incl=exclusive\nmemory=1001\n", &sp, err, sizeof err), "%s", err);
    for (i = 0; i < 4; i++) {
        double S = floor((A + C) * at[i] / 4096.0) * 4096.0, lat = 0.0, mr, model, sum;
        for (q = 0; q < 8; q++) lat += sim_irm(store, &sp, S, q) / 8.0;
        mr = (lat - 1.0) / 1000.0; /* every hit costs 1, memory 1001 */
        model = servet__mr_victim(&V, -1, S, C, ik, 4096.0, 0);
        sum = servet__mr_binomial(S, A + C, 16, 4096.0, 1.0);
        CHECK(fabs(mr - model) < 0.01, "victim L2 at %.2fx: replay %.4f, its model %.4f", at[i], mr, model);
        if (i < 2) CHECK(mr - sum > 0.01, "victim L2 at %.2fx: replay %.4f, the k/X model of the sum %.4f", at[i], mr, sum);
    }
    {
        const double truth[3] = {49152, 1310720, 12582912};
        detect_within("level=1 size=48K ways=12 repl=random\nlevel=2 size=1.25M ways=20 repl=random\n"
                      "level=3 size=12M ways=12 repl=random incl=exclusive\npage=4096\ncoloring=off\n"
                      "noise=0.02\nseed=1126\n", truth, 3, "victim L3, random");
    }
}

/* The second walk (>>probe-cache item 9): independent references give a set
   of X > k lines k/X hits whatever the policy, so the simulated walk's L2
   miss rate is the theta = 1 binomial model for every policy; the refit on
   it places a random-replacement L2 that the cyclic walk misreads; the
   curve goes through the file and bad input is refused. */
/* The range of a calibrated level holds what the calibration cannot tell
   apart (servet_infer_caches_irm): on two probes a Zen 3 VM recorded
   (tests/data/zen3_l2_probes.txt), the L2 read 544 and 560 KiB as the loop
   of size and cost climbed, with fit ranges of 528-544 and 544-560 KiB that
   left the true 512 KiB out; on a third (2026-11-29), 544 KiB with a range
   of 528-544 KiB at a cost 7% over the cyclic curve's reading, where the
   window fits 504-512 KiB as well (servet__irm_range_test). Each must now
   hold it, and stay a range (under a quarter of the estimate wide) around
   the estimate. */
/* one file of recorded probes: every L2 range holds the true size (l2 bytes)
   and the estimate, and is under a quarter of it wide */
/* Each probe recorded in tests/data/FILE (tools/cache_replay.c's format)
   through the inference of a profile, handed to check(); returns how many,
   -1 (and a failed check) when the file cannot be opened */
typedef void (*replay_check_fn)(const char *name, const servet_cache_level *lv, int n, const double *reach, int ntlb,
                                const void *arg);
static int replay_probes(const char *file, replay_check_fn check, const void *arg) {
    static replay_run r;
    static servet_profile os; /* the OS's ways, where the file gives them (a `ways` line) */
    static servet__cacheobj obj[SERVET__MAX_LEVELS];
    char line[256], path[256];
    int runs = 0;
    FILE *f;
    snprintf(path, sizeof path, "tests/data/%s", file);
    f = fopen(path, "r");
    if (!f) { snprintf(path, sizeof path, "data/%s", file); f = fopen(path, "r"); }
    CHECK(f != NULL, "tests/data/%s: cannot open (run from the repository root)", file);
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        servet_cache_level lv[SERVET__MAX_LEVELS];
        double next, reach[SERVET__MAX_TLB];
        int n, ntlb;
        if (line[0] == '#' || !replay_line(&r, line)) continue;
        memset(lv, 0, sizeof lv);
        n = servet__infer_curves(&r.cv, &r.tlb, &r.irm, replay_os(&r, NULL, 0, NULL, 0, &os, obj), lv, &next, reach, &ntlb);
        runs++;
        check(r.name, lv, n, reach, ntlb, arg);
    }
    fclose(f);
    return runs;
}

static void irm_range_check(const char *name, const servet_cache_level *lv, int n, const double *reach, int ntlb,
                            const void *arg) {
    double l2 = *(const double *)arg;
    (void)reach;
    (void)ntlb;
    CHECK(n >= 2, "%s: %d levels", name, n);
    if (n < 2) return;
    CHECK(lv[1].range_lo_bytes <= l2 && lv[1].range_hi_bytes >= l2,
          "%s: the L2's range %.0f-%.0f KiB holds its %.0f KiB (estimate %.0f KiB)", name,
          lv[1].range_lo_bytes / 1024, lv[1].range_hi_bytes / 1024, l2 / 1024, lv[1].estimate_bytes / 1024);
    CHECK(lv[1].range_lo_bytes <= lv[1].estimate_bytes && lv[1].range_hi_bytes >= lv[1].estimate_bytes &&
          lv[1].range_hi_bytes - lv[1].range_lo_bytes < 0.25 * lv[1].estimate_bytes,
          "%s: the L2's range %.0f-%.0f KiB around its estimate %.0f KiB, under a quarter of it wide", name,
          lv[1].range_lo_bytes / 1024, lv[1].range_hi_bytes / 1024, lv[1].estimate_bytes / 1024);
}
static void irm_range_file(const char *file, double l2, int expect) {
    int runs = replay_probes(file, irm_range_check, &l2);
    if (runs >= 0) CHECK(runs == expect, "tests/data/%s: %d probes, %d expected", file, runs, expect);
}

/* Recorded probes (tests/data/tlb_walk_probes.txt) whose TLB walk read a
   middle reach that is its own lines overflowing L1 (servet__tlb_lines_ns):
   each reads two reaches now, the first TLB's and the second's (L1's ways
   as the OS says them: the file's `ways` lines). */
static void tlb_walk_check(const char *name, const servet_cache_level *lv, int n, const double *reach, int ntlb,
                           const void *arg) {
    int zen5 = strncmp(name, "zen5", 4) == 0;
    double first = zen5 ? 340 * 1024.0 : 220 * 1024.0, second = zen5 ? 12.0 * 1048576.0 : 6.0 * 1048576.0;
    (void)lv;
    (void)arg;
    CHECK(n >= 2 && ntlb == 2, "%s: %d levels, %d TLB reaches (%.0f K, %.0f K, %.0f K), two expected", name, n, ntlb,
          ntlb > 0 ? reach[0] / 1024 : 0, ntlb > 1 ? reach[1] / 1024 : 0, ntlb > 2 ? reach[2] / 1024 : 0);
    CHECK(ntlb >= 2 && reach[0] >= first && reach[0] <= 400 * 1024.0 && reach[1] >= second &&
              reach[1] <= 32.0 * 1048576.0,
          "%s: reaches %.0f K, %.0f K", name, ntlb > 0 ? reach[0] / 1024 : 0, ntlb > 1 ? reach[1] / 1024 : 0);
}
static void test_tlb_walk_probes(void) {
    int runs = replay_probes("tlb_walk_probes.txt", tlb_walk_check, NULL);
    if (runs >= 0) CHECK(runs == 3, "tests/data/tlb_walk_probes.txt: %d probes, 3 expected", runs);
}

/* recorded real probes whose L2 estimate is off by 6%, and whose data fit the
   true size as well (the Zen 5 pair: a joint fit within 10% of the best) */
static void test_irm_range(void) {
    irm_range_file("zen3_l2_probes.txt", 524288.0, 3);
    irm_range_file("zen5_l2_probes.txt", 1048576.0, 2);
}

/* Recorded real probes of a VM's share of the L3 right over a 2 MiB L2
   (tests/data/xeon_l3_share_probes.txt), whose plateau between the two is
   too noisy to make a run: the valley split cut the transition, and the
   2.5x merge rule made one level of 4.3-6.75 MiB of them until the valley's
   stretch was asked the strong-plateau question (servet__valley_plateau).
   Three levels; the L2's range holds the 2 MiB or its estimate lies within
   5% (and within 20% in any case); the share between 4 and 6 MiB (the curves step to memory at 4.8). */
static void valley_plateau_check(const char *name, const servet_cache_level *lv, int n, const double *reach, int ntlb,
                                 const void *arg) {
    (void)reach;
    (void)ntlb;
    (void)arg;
    CHECK(n == 3, "%s: %d levels (want L1, L2 and the L3's share)", name, n);
    if (n != 3) return;
    CHECK(((lv[1].range_lo_bytes <= 2097152.0 && lv[1].range_hi_bytes >= 2097152.0) ||
           fabs(lv[1].estimate_bytes / 2097152.0 - 1.0) <= 0.05) &&
              fabs(lv[1].estimate_bytes / 2097152.0 - 1.0) <= 0.2,
          "%s: L2 %.0f KiB, range %.0f-%.0f KiB (want 2048 inside or the estimate within 5%%, and within 20%%)", name,
          lv[1].estimate_bytes / 1024, lv[1].range_lo_bytes / 1024, lv[1].range_hi_bytes / 1024);
    CHECK(lv[2].size_bytes >= 4.0 * 1048576.0 && lv[2].size_bytes <= 6.0 * 1048576.0,
          "%s: the L3's share %.0f KiB (want 4-6 MiB)", name, lv[2].size_bytes / 1024);
}
static void test_infer_valley_plateau(void) {
    int runs = replay_probes("xeon_l3_share_probes.txt", valley_plateau_check, NULL);
    if (runs >= 0) CHECK(runs == 2, "tests/data/xeon_l3_share_probes.txt: %d probes, 2 expected", runs);
}

static void test_irm(void) {
    static const char *const names[] = {"lru", "plru", "nru", "random", "srrip"};
    static const double sizes[] = {262144, 524288, 1048576};
    sim_rstore store;
    char err[256], text[512];
    int r, i, q;
    memset(&store, 0, sizeof store);
    for (r = 0; r < 5; r++) {
        sim_spec sp;
        snprintf(text, sizeof text, "level=1 size=32K ways=8 lat=4 repl=%s\nlevel=2 size=512K ways=8 lat=14 repl=%s\nmemory=200\n",
                 names[r], names[r]);
        CHECK(sim_parse_spec(text, &sp, err, sizeof err), "%s", err);
        for (i = 0; i < 3; i++) {
            double lat = 0.0, l1, mr, model = servet__mr_binomial(sizes[i], 524288.0, 8, 4096.0, 1.0);
            for (q = 0; q < 16; q++) lat += sim_irm(&store, &sp, sizes[i], q) / 16.0;
            l1 = 4.0 + 10.0 * (1.0 - 32768.0 / sizes[i]); /* the L1 keeps 32 KiB / S of the lines */
            mr = (lat - l1) / 186.0;
            CHECK(fabs(mr - model) < 0.015, "%s, %.0f KiB: L2 misses %.4f of the accesses, the k/X model %.4f", names[r],
                  sizes[i] / 1024, mr, model);
        }
    }
    sim_rstore_free(&store);
    {   /* end to end: a random-replacement L2 and L3 (the cyclic fit alone read 1.75 MiB for a 1.25 MiB L2) */
        const double truth[3] = {32768, 1310720, 16777216};
        detect_within("level=1 size=32K ways=8\nlevel=2 size=1280K ways=20 repl=random\n"
                      "level=3 size=16M ways=16 repl=random\nnoise=0.02\nseed=11\n", truth, 3, "random replacement");
    }
    for (r = 1; r <= 3; r += 2) {
        /* end to end: Dunnington's 3 MiB L2 and 12 MiB L3 under tree-PLRU and
           random replacement: no plateau between them, a shallow valley of
           the slope (split at half its peaks, not a third: one level read
           at 11-12.75 MiB), and the L2's window ends at half the L3 with no
           point to read a miss's cost (fitted with the size: the L3's
           latency read on the curve put the L2 at 2.6-2.75 MiB) */
        const double truth[3] = {32768, 3145728, 12582912};
        char what[64];
        snprintf(text, sizeof text, "level=1 size=32K ways=8 repl=%s\nlevel=2 size=3M ways=12 repl=%s\n"
                 "level=3 size=12M ways=16 repl=%s\nnoise=0.02\nseed=1000\n", names[r], names[r], names[r]);
        snprintf(what, sizeof what, "Dunnington, %s", names[r]);
        detect_within(text, truth, 3, what);
    }
    {   /* end to end: a POWER10-like core (2 MiB 8-way L2, 8 MiB L3: 4x) under
           random replacement: the slope's valley between the two ramps is
           half their peak without noise, so the split at half took it in
           some page placements and not others (seed 2: one level at 7.5
           MiB); split at 0.6 of the peaks. Three levels on every seed; each
           within 10%: the L2 reads up to two grid steps high on some seeds
           (2176-2240 KiB; within 5% on 25-26 of 40 seeds, and one seed's
           answer moves whenever the simulator's noise is redrawn - the
           refinement grid above 4 MiB did, 2026-11-29; make
           bench-accuracy-policies counts the 5%). Seeds 1-4 (seed 2 the
           one the split at half failed): 8 took 14 s of make test's ten
           minutes at -O2 and 30 more under ASan (2026-12-06); the bench
           runs 40 */
        const double truth[3] = {49152, 2097152, 8388608};
        int seed, i, k;
        for (seed = 1; seed <= 4; seed++) {
            char spec[256], err[256];
            sim_spec sp;
            servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
            servet_cache_level lv[8];
            snprintf(spec, sizeof spec, "level=1 size=48K ways=12 repl=random\nlevel=2 size=2M ways=8 repl=random\n"
                     "level=3 size=8M ways=16 repl=random\nnoise=0.02\nseed=%d\n", seed);
            CHECK(sim_parse_spec(spec, &sp, err, sizeof err), "%s", err);
            k = sim_detect(&sp, c, lv, 8);
            CHECK(k == 3, "POWER10-like, random, seed %d: %d levels", seed, k);
            for (i = 0; i < 3 && i < k; i++)
                CHECK(fabs(lv[i].size_bytes / truth[i] - 1) <= 0.10, "POWER10-like, random, seed %d, level %d: %.0f vs %.0f",
                      seed, i + 1, lv[i].size_bytes, truth[i]);
            free(c);
        }
    }
    {   /* end to end: a random 8-way L1 over a random 4-way L2, 4 KiB placement:
           the 4-way L2 misses well under half its size, where the L1's miss
           cost is calibrated (12 cycles for 10: the L1 read 36 KiB), so the
           joint cost-and-size fit is taken for it. The L1 within 5%; the
           4-way L2 itself reads 1-6% large (within 10%); no timing noise, as
           servet simulate by default. Seed 1 read the L1 at 36 KiB before
           (seeds 2 and 3, 33 and 32 KiB, pass either way: not run, 7 s each) */
        const double truth[3] = {32768, 262144, 2097152};
        for (q = 1; q <= 1; q++) {
            sim_spec sp;
            servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
            servet_cache_level lv[8];
            int k;
            snprintf(text, sizeof text, "level=1 size=32K ways=8 repl=random\nlevel=2 size=256K ways=4 repl=random\n"
                     "level=3 size=2M ways=16 repl=random\nbacking=4096\nseed=%d\n", q);
            CHECK(sim_parse_spec(text, &sp, err, sizeof err), "%s", err);
            k = sim_detect(&sp, c, lv, 8);
            CHECK(k == 3, "random L1 over a random 4-way L2, seed %d: %d levels", q, k);
            for (i = 0; i < 3 && i < k; i++)
                CHECK(fabs(lv[i].size_bytes / truth[i] - 1) <= (i == 0 ? 0.05 : 0.10), "random L1 over a random 4-way L2, "
                      "seed %d, level %d: %.0f vs %.0f", q, i + 1, lv[i].size_bytes, truth[i]);
            free(c);
        }
    }
    test_irm_victim(&store);
    sim_rstore_free(&store);
    {   /* bad input */
        servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
        servet_cache_level lv[2];
        double reach = 262144.0;
        memset(lv, 0, sizeof lv);
        CHECK(servet_infer_caches_irm(NULL, NULL, lv, 1, 10.0, NULL, NULL, 0, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL curve");
        CHECK(servet_infer_caches_irm(NULL, c, NULL, 1, 10.0, NULL, NULL, 0, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL levels");
        CHECK(servet_infer_caches_irm(NULL, c, lv, 1, 10.0, &reach, NULL, 1, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "a TLB reach without its cost");
        CHECK(servet_infer_caches_irm(NULL, c, lv, 1, 10.0, NULL, NULL, 0, NULL) == SERVET_OK, "an empty curve changes nothing");
        c->n = 3;
        c->bytes[0] = 4096; c->bytes[1] = 8192; c->bytes[2] = 16384;
        c->ns[0] = 1; c->ns[1] = NAN; c->ns[2] = 2;
        CHECK(servet_infer_caches_irm(NULL, c, lv, 1, 10.0, NULL, NULL, 0, NULL) == SERVET_ERROR_BAD_DATA, "NaN in the curve");
        CHECK(servet_sweep_irm(NULL, NULL, NULL, lv, 1, c) == SERVET_ERROR_INVALID_ARGUMENT, "no measure function");
        free(c);
    }
    {   /* the file: the curve comes back; a cache section written without it (before 2026-11) still reads */
        servet_profile *p = (servet_profile *)calloc(1, sizeof *p), *q = (servet_profile *)calloc(1, sizeof *q),
                       *o = (servet_profile *)calloc(1, sizeof *o);
        servet__wbuf w;
        const char *why = "";
        const servet_curve *got = NULL;
        hwloc_topology_t t;
        hwloc_topology_init(&t);
        hwloc_topology_set_synthetic(t, "pack:1 core:2 pu:1");
        hwloc_topology_load(t);
        servet__topo_extract(p, t);
        hwloc_topology_destroy(t);
        p->sections = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE;
        p->curve = (servet_curve *)calloc(1, sizeof *p->curve);
        p->curve_irm = (servet_curve *)calloc(1, sizeof *p->curve_irm);
        for (i = 0; i < 40; i++) {
            double b = ceil(4096.0 * pow(2.0, i / 4.0) / 64) * 64;
            p->curve->bytes[i] = b;
            p->curve->ns[i] = b <= 32768 ? 1.2 : b <= 1048576 ? 4.0 : 30.0;
            p->curve_irm->bytes[i] = b * 4096;
            p->curve_irm->ns[i] = 5.0 + i;
        }
        p->curve->n = p->curve_irm->n = 40;
        servet__infer_profile_caches(p);
        CHECK(servet__serialize(p, "fp", &w) == SERVET_OK, "serialize with the second walk");
        CHECK(servet__parse(q, w.d, w.len, "fp", &why) == SERVET_OK, "parse: %s", why);
        CHECK(servet_cache_irm_curve_get(q, &got) == SERVET_OK && got->n == 40 && got->ns[39] == 44.0,
              "the second walk's curve round-trips");
        free(w.d);
        servet__free(&p->ctx, p->curve_irm);
        p->curve_irm = NULL;
        CHECK(servet__serialize(p, "fp", &w) == SERVET_OK, "serialize without it");
        CHECK(servet__parse(o, w.d, w.len, "fp", &why) == SERVET_OK, "a section without it parses: %s", why);
        CHECK(servet_cache_irm_curve_get(o, &got) == SERVET_ERROR_NOT_FOUND, "and has no second walk");
        free(w.d);
        servet_close(p);
        servet_close(q);
        servet_close(o);
    }
}

/* p's topology section written into w, then read from it into q through r */
static void topology_round_trip(servet_profile *p, servet_profile *q, servet__wbuf *w, servet__rbuf *r) {
    memset(w, 0, sizeof *w);
    w->ctx = &p->ctx;
    servet__write_topology(w, p);
    memset(r, 0, sizeof *r);
    r->d = w->d;
    r->len = w->len;
    servet__read_topology(r, q);
}

/* Exclusive (victim) levels: the measured step is the level's size plus the
   level above's; the OS says which levels are not inclusive. */
static void test_exclusive(void) {
    servet_cache_level lv[3];
    int ex[3] = {1, 0, 1}, i;
    memset(lv, 0, sizeof lv);
    lv[0].size_bytes = lv[0].estimate_bytes = 65536;
    lv[0].range_lo_bytes = 60 * 1024.0; lv[0].range_hi_bytes = 66 * 1024.0;
    lv[1].size_bytes = lv[1].estimate_bytes = 576 * 1024.0; /* not exclusive: stays */
    lv[1].range_lo_bytes = 560 * 1024.0; lv[1].range_hi_bytes = 600 * 1024.0;
    lv[2].size_bytes = lv[2].estimate_bytes = 9437184.0;    /* 8 MiB victim under the 1 MiB... read as 576 KiB */
    lv[2].range_lo_bytes = 9000 * 1024.0; lv[2].range_hi_bytes = 9800 * 1024.0;
    CHECK(servet_infer_exclusive(lv, 3, ex) == SERVET_OK, "infer_exclusive");
    CHECK(lv[0].size_bytes == 65536 && lv[1].size_bytes == 576 * 1024.0, "an L1 flag and a non-exclusive level change nothing");
    CHECK(lv[2].size_bytes == 9437184.0 - 576 * 1024.0 && lv[2].estimate_bytes == lv[2].size_bytes,
          "the victim level is its step less the level above: %.0f", lv[2].size_bytes);
    CHECK(lv[2].range_lo_bytes == (9000 - 600) * 1024.0 && lv[2].range_hi_bytes == (9800 - 560) * 1024.0,
          "its range less the level above's, widened by it: [%.0f, %.0f]", lv[2].range_lo_bytes, lv[2].range_hi_bytes);
    {   /* levels largest first: two victim levels in a row each lose the sum above them */
        servet_cache_level v[3];
        int all[3] = {0, 1, 1};
        memset(v, 0, sizeof v);
        v[0].size_bytes = 64; v[1].size_bytes = 64 + 512; v[2].size_bytes = 64 + 512 + 4096;
        CHECK(servet_infer_exclusive(v, 3, all) == SERVET_OK && v[1].size_bytes == 512 && v[2].size_bytes == 4096,
              "a chain of victim levels: %.0f %.0f", v[1].size_bytes, v[2].size_bytes);
        v[0].size_bytes = 1000; v[1].size_bytes = 1800;
        CHECK(servet_infer_exclusive(v, 2, all) == SERVET_OK && v[1].size_bytes == 1800,
              "a step under twice the level above is not taken for a sum");
    }
    CHECK(servet_infer_exclusive(NULL, 2, ex) == SERVET_ERROR_INVALID_ARGUMENT, "NULL levels");
    CHECK(servet_infer_exclusive(lv, 2, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL flags");
    CHECK(servet_infer_exclusive(NULL, 0, NULL) == SERVET_OK, "no levels");
    CHECK(servet_infer_exclusive(lv, -1, ex) == SERVET_ERROR_INVALID_ARGUMENT, "a negative count");
    {   /* end to end: the simulator's machine says the L2 is a victim cache (AMD K8's) */
        sim_spec sp;
        char err[256];
        servet_curve *c = (servet_curve *)calloc(1, sizeof *c);
        servet_cache_level got[8];
        int k;
        CHECK(sim_parse_spec("level=1 size=64K ways=2\nlevel=2 size=512K ways=16 incl=exclusive\nnoise=0.02\nseed=3\n", &sp,
                             err, sizeof err), "%s", err);
        k = sim_detect(&sp, c, got, 8);
        CHECK(k == 2, "exclusive L2: %d levels", k);
        CHECK(k == 2 && fabs(got[1].size_bytes / 524288.0 - 1) <= 0.05, "exclusive L2: %.0f (its step is at 576 KiB)",
              k == 2 ? got[1].size_bytes : 0.0);
        free(c);
    }
    {   /* the profile: the OS's inclusion flags round-trip, a topology section
           written before them reads as "not said", and an exclusive L3 is
           sized as its step less the L2 (usable: both) */
        servet_profile *p = (servet_profile *)calloc(1, sizeof *p), *q = (servet_profile *)calloc(1, sizeof *q);
        servet__wbuf w;
        servet__rbuf r;
        servet_cache_info ci;
        const char *why = "";
        hwloc_topology_t t;
        hwloc_topology_init(&t);
        hwloc_topology_set_synthetic(t, "pack:1 l3:1(size=4MB) l2:2(size=512KB) l1d:1(size=32KB) core:1 pu:1");
        hwloc_topology_load(t);
        servet__topo_extract(p, t);
        hwloc_topology_destroy(t);
        CHECK(p->ncacheobjs == 5, "synthetic: %d caches", p->ncacheobjs);
        for (i = 0; i < p->ncacheobjs; i++) {
            CHECK(p->cacheobjs[i].inclusive == -1, "a synthetic topology says nothing of inclusion");
            p->cacheobjs[i].inclusive = p->cacheobjs[i].level == 3 ? 0 : 1;
        }
        p->sections = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE;
        p->curve = (servet_curve *)calloc(1, sizeof *p->curve);
        for (i = 0; i < 48; i++) { /* steps at 32 KiB, 512 KiB and 4.5 MiB */
            double b = ceil(4096.0 * pow(2.0, i / 4.0) / 64) * 64;
            p->curve->bytes[i] = b;
            p->curve->ns[i] = b <= 32768 ? 1.2 : b <= 524288 ? 4.0 : b <= 4718592 ? 12.0 : 80.0;
        }
        for (i = 0; i < 48; i++) p->curve->spread[i] = 0.01;
        p->curve->n = 48;
        p->curve->page_bytes = 2097152.0;
        servet__infer_profile_caches(p);
        CHECK(p->nlevels == 3, "three levels: %d", p->nlevels);
        CHECK(servet_cache_get(p, 3, &ci) == SERVET_OK && ci.exclusive == 1, "L3 is exclusive");
        CHECK(ci.size_bytes > 0 && fabs((double)ci.size_bytes / 4194304.0 - 1) <= 0.05,
              "the L3 step at 4.5 MiB less the L2: %llu", (unsigned long long)ci.size_bytes);
        CHECK(servet_cache_get(p, 2, &ci) == SERVET_OK && ci.exclusive == 0, "L2 is not");
        topology_round_trip(p, q, &w, &r);
        CHECK(!r.bad && r.pos == r.len && q->ncacheobjs == 5, "the topology round-trips");
        for (i = 0; i < q->ncacheobjs; i++)
            CHECK(q->cacheobjs[i].inclusive == (q->cacheobjs[i].level == 3 ? 0 : 1), "cache %d's inclusion round-trips", i);
        servet__free_topology(q);
        memset(&r, 0, sizeof r);
        r.d = w.d;
        r.len = w.len - 4 - 4 * (size_t)p->ncacheobjs; /* as written before 2026-11 */
        servet__read_topology(&r, q);
        CHECK(!r.bad && r.pos == r.len, "a topology section without the flags parses");
        for (i = 0; i < q->ncacheobjs; i++) CHECK(q->cacheobjs[i].inclusive == -1, "and says nothing of inclusion");
        servet__free_topology(q);
        memcpy(w.d + w.len - 4, &(int32_t){3}, 4);
        memset(&r, 0, sizeof r);
        r.d = w.d;
        r.len = w.len;
        servet__read_topology(&r, q);
        CHECK(r.bad, "an inclusion flag of 3 rejects the section");
        free(w.d);
        (void)why;
        servet_close(p);
        servet_close(q);
    }
    {   /* cpuid calls Intel's L2 not inclusive, but every L1 miss fills it: it
           is not a victim cache, and its step is its size (a 256 KiB L2 taken
           for one would read 224 KiB under a 32 KiB L1); Intel's L3 since
           Skylake-SP and any other vendor's non-inclusive level are */
        static const char *vendors[2] = {"GenuineIntel", "AuthenticAMD"};
        int v;
        for (v = 0; v < 2; v++) {
            servet_profile *p = (servet_profile *)calloc(1, sizeof *p), *q = (servet_profile *)calloc(1, sizeof *q);
            servet__wbuf w;
            servet__rbuf r;
            servet_cache_info ci;
            hwloc_topology_t t;
            hwloc_obj_t o;
            int intel = v == 0, d;
            hwloc_topology_init(&t);
            hwloc_topology_set_synthetic(t, "pack:1 l3:1(size=30MB) l2:2(size=256KB) l1d:1(size=32KB) core:1 pu:1");
            hwloc_topology_load(t);
            hwloc_obj_add_info(hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0), "CPUVendor", vendors[v]);
            for (d = 0; d < hwloc_topology_get_depth(t); d++) {
                unsigned k;
                if (!hwloc_obj_type_is_dcache(hwloc_get_depth_type(t, d))) continue;
                for (k = 0; k < hwloc_get_nbobjs_by_depth(t, d); k++) {
                    o = hwloc_get_obj_by_depth(t, d, k);
                    hwloc_obj_add_info(o, "Inclusive", o->attr->cache.depth == 1 ? "1" : "0");
                }
            }
            servet__topo_extract(p, t);
            hwloc_topology_destroy(t);
            for (i = 0; i < p->ncacheobjs; i++)
                CHECK(p->cacheobjs[i].inclusive == (p->cacheobjs[i].level == 1 ? 1 : p->cacheobjs[i].level == 2 && intel ? 2 : 0),
                      "%s L%d: inclusion %d", vendors[v], p->cacheobjs[i].level, p->cacheobjs[i].inclusive);
            p->sections = SERVET_PROBE_TOPOLOGY;
            CHECK(servet_cache_get(p, 2, &ci) == SERVET_OK && ci.exclusive == !intel, "%s L2: exclusive %d",
                  vendors[v], ci.exclusive);
            CHECK(servet_cache_get(p, 3, &ci) == SERVET_OK && ci.exclusive == 1, "%s L3: a victim cache", vendors[v]);
            topology_round_trip(p, q, &w, &r);
            CHECK(!r.bad && q->ncacheobjs == p->ncacheobjs, "%s: the topology round-trips", vendors[v]);
            for (i = 0; !r.bad && i < q->ncacheobjs; i++)
                CHECK(q->cacheobjs[i].inclusive == p->cacheobjs[i].inclusive, "%s: cache %d's inclusion %d round-trips",
                      vendors[v], i, q->cacheobjs[i].inclusive);
            if (intel) { /* a measured L2 step at 256 KiB under 32 KiB: the L2's size is its step */
                servet_cache_level lv[3];
                int ex[3];
                memset(lv, 0, sizeof lv);
                lv[0].size_bytes = lv[0].estimate_bytes = 32768;
                lv[1].size_bytes = lv[1].estimate_bytes = 262144;
                lv[2].size_bytes = lv[2].estimate_bytes = 30.0 * 1048576 + 262144;
                for (i = 0; i < 3; i++) ex[i] = servet__level_exclusive(p, 3, i + 1);
                servet_infer_exclusive(lv, 3, ex);
                CHECK(lv[1].size_bytes == 262144 && lv[2].size_bytes == 30.0 * 1048576, "Intel: L2 %.0f KiB, L3 %.0f KiB",
                      lv[1].size_bytes / 1024, lv[2].size_bytes / 1024);
            }
            free(w.d);
            servet_close(p);
            servet_close(q);
        }
    }
}

static void test_misc(void) {
    unsigned bits = 0;
    int r;
    CHECK(servet_probes_parse("cache", &bits) == SERVET_OK && bits == SERVET_PROBE_CACHE, "parse cache");
    CHECK(servet_probes_parse("all", &bits) == SERVET_OK && bits == SERVET_PROBE_NODE, "parse all");
    CHECK(servet_probes_parse("cache,bogus", &bits) == SERVET_ERROR_INVALID_ARGUMENT, "bogus rejected");
    CHECK(servet_probes_parse("", &bits) == SERVET_ERROR_INVALID_ARGUMENT, "empty rejected");
    CHECK(servet_probes_parse(",", &bits) == SERVET_ERROR_INVALID_ARGUMENT, "lone comma rejected");
    for (r = 0; r >= -10; r--)
        CHECK(strcmp(servet_result_string((servet_result)r), "unknown error") != 0, "string for %d", r);
    CHECK(servet_open(NULL, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL out");
    {
        servet_desc d;
        servet_profile *p = NULL;
        memset(&d, 0, sizeof d);
        d.probes = 0x80;
        CHECK(servet_open(&p, &d) == SERVET_ERROR_INVALID_ARGUMENT && p == NULL, "unknown probe bit");
    }
    CHECK(servet__crc32(0, "123456789", 9) == 0xCBF43926u, "CRC32 check value");
}

/* servet__buf_map faults a 4 KiB-page buffer in a scattered order (AMD's
   TLB coalesces consecutive frames): the order must visit every page once */
static void test_scatter_step(void) {
    static const size_t nps[] = {0, 1, 2, 3, 4, 6, 9, 15, 16, 96, 1000, 1024, 4095, 16384, 12288};
    static unsigned char seen[16384];
    size_t i, k;
    for (i = 0; i < sizeof nps / sizeof nps[0]; i++) {
        size_t np = nps[i], step = servet__scatter_step(np), pg = 0, missed = 0, far = 1;
        memset(seen, 0, sizeof seen);
        for (k = 0; k < np; k++) {
            seen[pg]++;
            pg = (pg + step) % np;
        }
        for (k = 0; k < np; k++) missed += seen[k] != 1;
        if (np >= 16) far = step >= np / 4 && step <= np - np / 4; /* neighbours in time lie far apart */
        CHECK(missed == 0 && far, "scatter step %zu over %zu pages: %zu pages not visited once", step, np, missed);
    }
}

/* The second walk's placements (servet__irm_place): np distinct pages of the
   pool, the same ones when a size and replica come back, others for another
   replica; and the consistency passes' budget (servet__fix_deadline): none
   unless the desc asks, a share of the time so far otherwise. */
static void test_irm_place(void) {
    servet__chase ch;
    servet_sweep_desc d;
    uint32_t first[128], pool;
    int i, j, same = 1, dup = 0, out = 0, moved = 0;
    double now;
    if (!servet__chase_init(&ch, 8u << 20, 0, 8u << 20)) { CHECK(0, "chase_init failed"); return; }
    pool = (uint32_t)(ch.buf[0].cap / 4096u);
    servet__irm_place(&ch, 128, 524288.0, 3);
    memcpy(first, ch.perm, sizeof first);
    for (i = 0; i < 128; i++) {
        out += first[i] >= pool;
        for (j = 0; j < i; j++) dup += first[i] == first[j];
    }
    CHECK(out == 0 && dup == 0, "placement: %d pages outside the pool of %u, %d repeated", out, pool, dup);
    servet__irm_place(&ch, 128, 524288.0, 3);
    for (i = 0; i < 128; i++) same &= ch.perm[i] == first[i];
    CHECK(same, "placement: the same size and replica draw the same pages");
    servet__irm_place(&ch, 128, 524288.0, 4);
    for (i = 0; i < 128; i++) moved += ch.perm[i] != first[i];
    CHECK(moved > 64, "placement: another replica draws other pages (%d of 128 differ)", moved);
    servet__chase_free(&ch);
    memset(&d, 0, sizeof d);
    now = servet__now();
    CHECK(servet__fix_deadline(&d, now - 10.0) == 0.0 && servet__fix_deadline(NULL, now) == 0.0,
          "fix_share 0: no deadline");
    d.fix_share = 0.15;
    CHECK(servet__fix_deadline(&d, now - 10.0) >= now + 1.5, "fix_share 0.15 after 10 s: at least 1.5 s more");
    CHECK(servet__fix_deadline(&d, servet__now()) >= now + 0.3, "fix_share: at least 0.3 s");
}

/* The walk's stride (servet__chase_set_line): level 1's line. A build over
   S bytes at 128 B visits S/128 elements, each at a multiple of 128, every
   one once a cycle; the second walk's line order is a permutation of the
   page's 32 lines; a stride that is no power of two in [32, 512] is 64. */
static void test_chase_stride(void) {
    servet__chase ch;
    static const int lines[] = {128, 256, 32, 64};
    int q;
    if (!servet__chase_init(&ch, 4u << 20, 0, 0)) { CHECK(0, "chase_init failed"); return; }
    servet__chase_set_line(&ch, 100);
    CHECK(ch.line == 64 && ch.line_shift == 6, "a stride of 100 B is refused: %d", ch.line);
    servet__chase_set_line(&ch, 1024);
    CHECK(ch.line == 64, "a stride of 1 KiB is refused: %d", ch.line);
    for (q = 0; q < 4; q++) {
        double bytes = 262144.0;
        size_t n = (size_t)bytes / (size_t)lines[q], k, bad = 0, steps = 0;
        unsigned char *seen = (unsigned char *)calloc(n, 1), *base;
        servet__buf *b;
        void **p0, **p;
        int lpp = 4096 / lines[q], perm_ok = 1, i, j;
        servet__chase_set_line(&ch, lines[q]);
        CHECK(ch.line == lines[q] && (1 << ch.line_shift) == lines[q], "stride %d set", lines[q]);
        CHECK(servet__chase_measure(&ch, bytes, 0) > 0.0, "stride %d: the walk runs", lines[q]);
        b = servet__chase_buffer(&ch, bytes, 0);
        base = b->base;
        p0 = p = (void **)b->pos;
        do { /* one cycle from where the walk stopped */
            size_t off = (size_t)((unsigned char *)p - base);
            if (off % (size_t)lines[q] || off / (size_t)lines[q] >= n || seen[off / (size_t)lines[q]]++) bad++;
            p = (void **)*p;
            steps++;
        } while (p != p0 && steps <= n);
        for (k = 0; k < n; k++) bad += seen[k] != 1;
        CHECK(bad == 0 && steps == n, "stride %d over %.0f B: a cycle of %zu elements (%zu expected), %zu off", lines[q], bytes,
              steps, n, bad);
        for (i = 0; i < lpp; i++) { /* the second walk's order: each line of the page once, then its first 8 again */
            int c = 0;
            for (j = 0; j < lpp; j++) c += ch.irm_perm[j] == i;
            perm_ok &= c == 1;
        }
        for (i = 0; i < 8; i++) perm_ok &= ch.irm_perm[lpp + i] == ch.irm_perm[i % lpp];
        CHECK(perm_ok, "stride %d: the second walk's order is a permutation of the page's %d lines", lines[q], lpp);
        CHECK(servet__irm_measure(&ch, 65536.0, 0) > 0.0, "stride %d: the second walk runs", lines[q]);
        free(seen);
    }
    servet__chase_free(&ch);
}

int main(void) {
    test_binomial();
    test_random_model();
    test_bad_input();
    test_synthetic();
    test_tlb();
    test_tlb_walk_lines();
    test_tlb_walk_probes();
    test_simulator();
    test_sim_policies();
    test_sim_line_sizes();
    test_sim_order_sort();
    test_sim_memo_and_phys();
    test_sim_detect();
    test_second_look();
    test_second_look_ramp();
    test_irm_consistency();
    test_irm_passes();
    test_irm_referee();
    test_lost_level();
    test_l1_ramp_end();
    test_sweep_fix_beyond();
    test_sweep_mark_beyond();
    test_mr_binomial_parts();
    test_irm_uncalibrated();
    test_irm_last_level_calibration();
    test_infer_vm_l3_share();
    test_scatter_step();
    test_irm_place();
    test_chase_stride();
    test_irm();
    test_irm_range();
    test_irm_range_clean();
    test_infer_valley_plateau();
    test_exclusive();
    test_misc();
    TEST_SUMMARY();
}
