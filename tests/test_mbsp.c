/* MultiBSP and Apex-Map: the least-squares fit, the power-law start
   address generator, the MultiBSP tree on synthetic topologies. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static void test_fit(void) {
    double x[17], y[17], g, L, r2;
    int i;
    uint64_t s = 5;
    for (i = 0; i < 17; i++) { x[i] = 16.0 * i; y[i] = 105.3 * x[i] + 498.2; }
    CHECK(servet_fit_line(x, y, 17, &g, &L, &r2) == SERVET_OK, "fit");
    CHECK(fabs(g - 105.3) < 1e-9 && fabs(L - 498.2) < 1e-7 && fabs(r2 - 1.0) < 1e-12, "exact line: g %g L %g r2 %g", g, L, r2);
    /* jolly's level 3 (Table 1) with 5% noise: recovered within a few percent */
    for (i = 0; i < 17; i++) {
        double u = (double)(servet__rng_next(&s) >> 11) / 9007199254740992.0;
        y[i] = (1315.9 * x[i] + 16184.4) * (1.0 + 0.1 * (u - 0.5));
    }
    CHECK(servet_fit_line(x, y, 17, &g, &L, &r2) == SERVET_OK, "noisy fit");
    CHECK(fabs(g / 1315.9 - 1) < 0.05 && r2 > 0.98 && r2 < 1.0, "noisy: g %g L %g r2 %g", g, L, r2);
    CHECK(servet_fit_line(x, y, 1, &g, &L, &r2) == SERVET_ERROR_INVALID_ARGUMENT, "one point");
    for (i = 0; i < 17; i++) x[i] = 3.0;
    CHECK(servet_fit_line(x, y, 17, &g, &L, &r2) == SERVET_ERROR_BAD_DATA, "all x equal");
    x[0] = NAN;
    CHECK(servet_fit_line(x, y, 17, &g, &L, &r2) == SERVET_ERROR_BAD_DATA, "NaN");
    CHECK(servet_fit_line(NULL, y, 17, &g, &L, &r2) == SERVET_ERROR_INVALID_ARGUMENT, "NULL");
}

/* Kolmogorov-Smirnov distance of generated starts against F(x) = (x/R)^alpha */
static void test_power_law(void) {
    static const double alphas[] = {1.0, 0.5, 0.1, 0.01};
    int a, i;
    for (a = 0; a < 4; a++) {
        enum { N = 20000 };
        static double v[N];
        double R = 1e6, d = 0.0, al = alphas[a];
        uint64_t st = 1234 + (uint64_t)a;
        for (i = 0; i < N; i++) v[i] = servet_apex_start(&st, al, R);
        servet__quantile(v, N, 0.5); /* sorts */
        /* starts are floor()ed, a discrete law: P(X < x) = (x/R)^alpha and
           P(X <= x) = ((x+1)/R)^alpha; compare the empirical CDF on both
           sides of every distinct value */
        for (i = 0; i < N; i++) {
            int j = i;
            double below, upto, Fb, Fu;
            while (j + 1 < N && v[j + 1] == v[i]) j++;
            below = (double)i / N;
            upto = (double)(j + 1) / N;
            Fb = pow(v[i] / R, al);
            Fu = pow((v[i] + 1.0) / R, al);
            if (Fu > 1) Fu = 1;
            if (fabs(below - Fb) > d) d = fabs(below - Fb);
            if (fabs(upto - Fu) > d) d = fabs(upto - Fu);
            i = j;
        }
        /* KS critical value at 1%: 1.63/sqrt(N) = 0.0115 */
        CHECK(d < 0.0115, "alpha %g: KS distance %.4f", al, d);
        CHECK(v[0] >= 0 && v[N - 1] < R, "range");
    }
    {
        uint64_t st = 1;
        double below = 0;
        for (i = 0; i < 10000; i++) below += servet_apex_start(&st, 0.001, 1e6) < 1.0;
        /* P(X < 1) = (1/R)^alpha = 0.986 */
        CHECK(fabs(below / 10000 - pow(1e-6, 0.001)) < 0.01, "alpha 0.001 concentrates: %.3f", below / 10000);
        CHECK(isnan(servet_apex_start(&st, 0.0, 10)), "alpha 0 -> NaN");
        CHECK(isnan(servet_apex_start(NULL, 0.5, 10)), "NULL state -> NaN");
    }
}

static servet_profile *synthetic(const char *desc) {
    hwloc_topology_t t;
    servet_profile *p = (servet_profile *)calloc(1, sizeof *p);
    if (hwloc_topology_init(&t) || hwloc_topology_set_synthetic(t, desc) || hwloc_topology_load(t)) exit(2);
    if (servet__topo_extract(p, t) != SERVET_OK) exit(2);
    p->memory_bytes = 64ull << 30;
    hwloc_topology_destroy(t);
    return p;
}

static int tree(servet_profile *p, int *pi, double *mem) {
    int32_t *part = (int32_t *)calloc(8 * (size_t)p->npus, sizeof(int32_t));
    int n = servet__mbsp_tree(p, part, mem, 8), l, i;
    for (l = 0; l < n; l++) { /* p_l = components of level l-1 inside component 0 of level l */
        int seen[4096], ns = 0, q;
        for (i = 0; i < p->npus; i++) {
            int key = l ? part[(size_t)(l - 1) * (size_t)p->npus + (size_t)i] : i, known = 0;
            if (part[(size_t)l * (size_t)p->npus + (size_t)i] != part[(size_t)l * (size_t)p->npus]) continue;
            for (q = 0; q < ns; q++) if (seen[q] == key) known = 1;
            if (!known) seen[ns++] = key;
        }
        pi[l] = ns;
    }
    free(part);
    return n;
}

static void test_tree(void) {
    int pi[8], n;
    double mem[8];
    /* dell32 (Eq. 1): 4 Magny-Cours packages, 2 dies each with 4 cores sharing
       a 5 MB L3 and a NUMA node: M = [<4, 5 MB>, <8, 64 GB>] */
    servet_profile *p = synthetic("pack:4 numa:2 l3:1 l2:4 l1:1 core:1 pu:1");
    n = tree(p, pi, mem);
    CHECK(n == 2 && pi[0] == 4 && pi[1] == 8, "dell32: %d levels, p = %d, %d", n, pi[0], n > 1 ? pi[1] : 0);
    servet_close(p);
    /* jolly (Eq. 2): Interlagos, L2 shared by 2 cores, L3 by 4 L2s, 8 dies:
       M = [<2, 2 MB>, <4, 6 MB>, <8, 128 GB>] */
    p = synthetic("pack:4 l3:2 l2:4 l1:2 core:1 pu:1");
    n = tree(p, pi, mem);
    CHECK(n == 3 && pi[0] == 2 && pi[1] == 4 && pi[2] == 8, "jolly: %d levels, p = %d, %d, %d", n, pi[0], pi[1], pi[2]);
    servet_close(p);
    /* a 2-PU VM with a shared L3 and one NUMA node: one level, p = 2 */
    p = synthetic("pack:1 l3:1 l2:2 core:1 pu:1");
    n = tree(p, pi, mem);
    CHECK(n == 1 && pi[0] == 2, "2-PU VM: %d levels, p = %d", n, pi[0]);
    servet_close(p);
}

int main(void) {
    test_fit();
    test_power_law();
    test_tree();
    TEST_SUMMARY();
}
