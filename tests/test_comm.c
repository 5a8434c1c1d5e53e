/* The communication probe's logic without MPI: relation classes, the
   noise-derived similarity and Fig. 7 layering on made-up latencies, the
   .comm file round trip, the accessors and curve interpolation, and what
   the non-MPI build answers. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include "helpers.h"
#include <stdlib.h>
#include <string.h>

static servet__ctx ctx;

/* A layout: `nodes` nodes of 4 ranks, ranks 2k and 2k+1 of a node share an
   L2 (depth 2), all ranks of a node share the package (depth 1). */
static servet__comm *layout(int nodes) {
    servet__comm *m = (servet__comm *)servet__calloc(&ctx, 1, sizeof *m);
    int i, k;
    m->nranks = 4 * nodes;
    m->nnodes = nodes;
    m->msg_bytes = 49152;
    m->ranks = (servet__commrank *)servet__calloc(&ctx, (size_t)m->nranks, sizeof *m->ranks);
    m->node_names = (char (*)[64])servet__calloc(&ctx, (size_t)nodes, 64);
    for (i = 0; i < nodes; i++) snprintf(m->node_names[i], 64, "node%d", i);
    for (i = 0; i < m->nranks; i++) {
        servet__commrank *x = &m->ranks[i];
        x->node = i / 4;
        x->pu = i % 4;
        x->depth = 4;
        x->numa = 0;
        for (k = 0; k < SERVET__COMM_SIG; k++) x->anc[k] = -1;
        x->anc[0] = 0;          /* machine */
        x->anc[1] = 0;          /* package */
        x->anc[2] = (i % 4) / 2; /* L2 */
        x->anc[3] = i % 4;      /* core */
    }
    return m;
}

/* cost model: same L2 0.3 us / 2 us, same package 0.5 / 3, other node 5 / 15;
   `jitter` multiplies pair i's costs by 1 + jitter * (i % 3 - 1) */
static void measure(servet__comm *m, int all_pairs, double jitter, double spread) {
    servet__pairres sel[4096];
    int n, i;
    n = servet__select_pairs_by(m->nranks, servet__comm_relation, m, NULL, all_pairs, 7, sel, 4096, NULL);
    m->pairs = (servet__commpair *)servet__calloc(&ctx, (size_t)n, sizeof *m->pairs);
    m->npairs = n;
    for (i = 0; i < n; i++) {
        servet__commpair *q = &m->pairs[i];
        int32_t cls = sel[i].cls;
        double f = 1.0 + jitter * (double)(i % 3 - 1);
        q->a = sel[i].a;
        q->b = sel[i].b;
        q->cls = cls;
        q->flags = sel[i].flags;
        if (cls == SERVET__COMM_CLASS_OTHER_NODE) { q->small = 5e-6; q->latency = 15e-6; }
        else if ((cls & 255) >= 2) { q->small = 0.3e-6; q->latency = 2e-6; }
        else { q->small = 0.5e-6; q->latency = 3e-6; }
        q->small *= f;
        q->latency *= f;
        q->spread = q->small_spread = spread;
    }
}

static int layer_of_kind(const servet__comm *m, int a, int b) { /* 0 L2, 1 package, 2 other node */
    int32_t c = servet__comm_class(m, a, b);
    return c == SERVET__COMM_CLASS_OTHER_NODE ? 2 : (c & 255) >= 2 ? 0 : 1;
}

static void test_classes(void) {
    servet__comm *m = layout(2);
    CHECK(servet__comm_class(m, 0, 4) == SERVET__COMM_CLASS_OTHER_NODE, "other node");
    CHECK((servet__comm_class(m, 0, 1) & 255) == 2, "same L2 -> depth 2: %d", servet__comm_class(m, 0, 1));
    CHECK((servet__comm_class(m, 0, 2) & 255) == 1, "same package -> depth 1");
    CHECK(servet__comm_class(m, 0, 1) & 256, "same NUMA flag");
    m->ranks[1].pu = -1;
    CHECK(servet__comm_class(m, 0, 1) == SERVET__COMM_CLASS_UNBOUND, "unbound rank");
    servet__comm_free(&ctx, m);
}

static void test_layers(void) {
    int all, a, b, i, wrong;
    for (all = 0; all <= 1; all++) {
        double jit;
        for (jit = 0.0; jit <= 0.1; jit += 0.1) { /* class dispersion 2*jit */
            servet__comm *m = layout(2);
            int nl;
            measure(m, all, jit, 0.03);
            servet__comm_tolerance(&ctx, m);
            nl = servet__comm_layers(&ctx, m);
            CHECK(nl == 3, "all_pairs %d jitter %.1f: %d layers (tolerance %.2f/%.2f)", all, jit, nl, m->tolerance,
                  m->small_tolerance);
            CHECK(m->contradictions == 0, "no contradictions: %d", m->contradictions);
            if (jit > 0) CHECK(m->tolerance > 0.3, "class dispersion counted as noise: %.2f", m->tolerance);
            else CHECK(m->tolerance == 0.10, "floor: %.3f", m->tolerance);
            for (i = 0, wrong = 0; i < m->npairs; i++)
                if (m->pairs[i].layer != layer_of_kind(m, m->pairs[i].a, m->pairs[i].b)) wrong++;
            CHECK(wrong == 0, "%d measured pairs in the wrong layer", wrong);
            /* classes: unmeasured pairs get their class's layer */
            for (a = 0, wrong = 0; a < m->nranks; a++)
                for (b = a + 1; b < m->nranks; b++) {
                    int32_t c = servet__comm_class(m, a, b), k, got = -1;
                    for (k = 0; k < m->nclass; k++) if (m->class_key[k] == c) got = m->class_layer[k];
                    if (got != layer_of_kind(m, a, b)) wrong++;
                }
            CHECK(wrong == 0, "%d pairs in the wrong layer by class", wrong);
            CHECK(m->layers[0].intra == 1 && m->layers[2].intra == 0, "intra flags");
            CHECK(fabs(m->layers[2].latency - 15e-6) <= 15e-6 * jit + 1e-12, "layer 2 latency %g", m->layers[2].latency);
            servet__comm_free(&ctx, m);
        }
    }
    { /* two costs: same Fig. 7 time, 8-byte latency 4x apart -> two layers */
        servet__comm *m = layout(2);
        measure(m, 1, 0.0, 0.02);
        for (i = 0; i < m->npairs; i++) m->pairs[i].latency = 10e-6;
        servet__comm_tolerance(&ctx, m);
        CHECK(servet__comm_layers(&ctx, m) == 3, "the 8-byte cost separates what the Fig. 7 message does not");
        servet__comm_free(&ctx, m);
    }
    { /* a pair whose relation class says "same package" but that measures
         like "other node" (a misreported topology): a contradiction,
         flagged and kept in the layer it measures like */
        servet__comm *m = layout(2);
        int odd = -1;
        measure(m, 1, 0.0, 0.02);
        for (i = 0; i < m->npairs; i++)
            if (!(m->pairs[i].flags & SERVET__PAIR_REP) && layer_of_kind(m, m->pairs[i].a, m->pairs[i].b) == 1) odd = i;
        m->pairs[odd].small = 5e-6;
        m->pairs[odd].latency = 15e-6;
        servet__comm_tolerance(&ctx, m);
        CHECK(servet__comm_layers(&ctx, m) == 3, "still 3 layers (tolerance %.2f)", m->tolerance);
        CHECK(m->contradictions == 1 && (m->pairs[odd].flags & SERVET__PAIR_CONTRA) && m->pairs[odd].layer == 2,
              "contradiction: %d, layer %d", m->contradictions, m->pairs[odd].layer);
        servet__comm_free(&ctx, m);
    }
    { /* measured noise sets the tolerance: 30% round spread -> 60% */
        servet__comm *m = layout(1);
        measure(m, 1, 0.0, 0.30);
        servet__comm_tolerance(&ctx, m);
        CHECK(fabs(m->tolerance - 0.60) < 1e-9 && fabs(m->small_tolerance - 0.60) < 1e-9, "tolerance %g", m->tolerance);
        servet__comm_free(&ctx, m);
    }
}

static void fill_curves(servet__comm *m) {
    int L, s;
    for (L = 0; L < m->nlayers; L++) {
        servet__commlayer *Y = &m->layers[L];
        Y->ncurve = SERVET__COMM_CURVE;
        for (s = 0; s < Y->ncurve; s++) {
            Y->curve_bytes[s] = (double)(1 << s);
            Y->curve_s[s] = (1.0 + L) * 1e-6 + Y->curve_bytes[s] / 1e9; /* 1 us + 1 GB/s */
        }
        Y->nscale = 2;
        Y->scale_k[0] = 1; Y->scale_s[0] = 2e-6;
        Y->scale_k[1] = 2; Y->scale_s[1] = 3e-6;
        Y->nagg = 1;
        Y->agg_bytes[0] = 8; Y->agg_n[0] = 32; Y->agg_many[0] = 40e-6; Y->agg_one[0] = 2e-6;
    }
}

static void test_file_and_accessors(void) {
    servet__comm *m = layout(2);
    servet_profile owner, q, q2, *p = NULL;
    servet__wbuf w;
    servet_desc d;
    servet_comm_info ci;
    servet_comm_layer_info L;
    const char *why = "";
    double bytes, sec, bw, t;
    int k, n, a, b, layer, ok;
    unsigned char *img;
    measure(m, 0, 0.0, 0.02);
    servet__comm_tolerance(&ctx, m);
    servet__comm_layers(&ctx, m);
    fill_curves(m);
    m->key = 0x1234;
    memset(&owner, 0, sizeof owner);
    owner.ctx = ctx;
    servet__comm_holder(&q, &owner, m);
    CHECK(servet__serialize(&q, "servet-comm test key", &w) == SERVET_OK, "serialize");
    servet__comm_holder(&q2, &owner, NULL);
    CHECK(servet__parse(&q2, w.d, w.len, "servet-comm test key", &why) == SERVET_OK && q2.comm, "parse: %s", why);
    CHECK(servet__parse(&q2, w.d, w.len, "another key", &why) == SERVET_ERROR_CORRUPT, "another layout's file refused");
    /* every truncation is refused, a bit flip anywhere is refused (CRC) */
    for (k = 0, ok = 1; k < (int)w.len; k++) {
        servet_profile t2;
        servet__comm_holder(&t2, &owner, NULL);
        if (servet__parse(&t2, w.d, (size_t)k, "servet-comm test key", &why) == SERVET_OK) ok = 0;
        servet__clear_measured(&t2);
    }
    CHECK(ok, "a truncated .comm file was accepted");
    img = (unsigned char *)malloc(w.len);
    for (k = 0, ok = 1; k < 300; k++) {
        servet_profile t2;
        memcpy(img, w.d, w.len);
        img[(size_t)rand() % w.len] ^= (unsigned char)(1u << (rand() % 8));
        servet__comm_holder(&t2, &owner, NULL);
        if (memcmp(img, w.d, w.len) && servet__parse(&t2, img, w.len, "servet-comm test key", &why) == SERVET_OK) ok = 0;
        servet__clear_measured(&t2);
    }
    CHECK(ok, "a corrupted .comm file was accepted");
    free(img);
    servet__free(&ctx, w.d);

    /* attach to a real (topology-only) profile and use the public accessors */
    memset(&d, 0, sizeof d);
    d.probes = SERVET_PROBE_TOPOLOGY;
    d.no_save = 1;
    d.cache_dir = "/nonexistent-servet-test";
    CHECK(servet_open(&p, &d) == SERVET_OK, "open topology");
    if (!p) return;
    CHECK(servet_comm_get(p, &ci) == SERVET_ERROR_NOT_FOUND, "no comm section yet");
    CHECK(comm_layer_or(p, 0, 1) == SERVET_ERROR_NOT_FOUND && comm_time_or(p, 0, 1, 8) < 0, "no comm: errors");
    p->comm = q2.comm;
    q2.comm = NULL;
    p->sections |= SERVET_PROBE_COMM;
    CHECK(servet_comm_get(p, &ci) == SERVET_OK && ci.ranks == 8 && ci.nodes == 2 && servet_comm_layer_count(p) == 3 && ci.key == 0x1234,
          "servet_comm: %d ranks %d nodes %d layers", ci.ranks, ci.nodes, servet_comm_layer_count(p));
    CHECK(servet_comm_layer_get(p, 2, &L) == SERVET_OK && L.intra_node == 0 && servet_comm_curve_count(p, 2) == 23, "layer 2");
    CHECK(servet_comm_layer_get(p, 3, &L) == SERVET_ERROR_NOT_FOUND, "layer 3 absent");
    CHECK(servet_comm_curve_get(p, 0, 10, &bytes, &sec, &bw) == SERVET_OK && bytes == 1024 && fabs(bw - bytes / sec) < 1e-6,
          "curve point");
    CHECK(servet_comm_curve_get(p, 0, 23, NULL, NULL, NULL) == SERVET_ERROR_NOT_FOUND, "past the curve");
    CHECK(servet_comm_scaling_get(p, 1, 1, &k, &sec) == SERVET_OK && k == 2 && sec == 3e-6, "scaling");
    CHECK(servet_comm_aggregation_get(p, 1, 0, &bytes, &k, &sec, &t) == SERVET_OK && k == 32 && sec > t, "aggregation");
    for (n = 0; servet_comm_pair_get(p, n, &a, &b, &sec, &layer) == SERVET_OK; n++) {}
    CHECK(n == servet_comm_pair_count(p) && n < 28, "sampled pairs %d of 28", n);
    for (a = 0, ok = 1; a < 8; a++)
        for (b = 0; b < 8; b++)
            if (a != b && comm_layer_or(p, a, b) != layer_of_kind(p->comm, a < b ? a : b, a < b ? b : a)) ok = 0;
    CHECK(ok, "servet_comm_pair_layer for every ordered pair");
    CHECK(comm_layer_or(p, 0, 0) < 0 && comm_layer_or(p, 0, 8) < 0 && comm_layer_or(p, -1, 2) < 0,
          "bad ranks");
    /* on a grid point: the curve; between: log-log interpolation; above: extrapolation */
    t = comm_time_or(p, 0, 4, 1024);
    CHECK(fabs(t - (3e-6 + 1024 / 1e9)) < 1e-12, "comm time at 1 KiB: %g", t);
    t = comm_time_or(p, 0, 4, 1536);
    CHECK(t > comm_time_or(p, 0, 4, 1024) && t < comm_time_or(p, 0, 4, 2048), "between grid points");
    CHECK(comm_time_or(p, 0, 4, 8e6) > comm_time_or(p, 0, 4, 4194304), "above 4 MiB");
    CHECK(comm_time_or(p, 0, 4, -1) < 0, "negative bytes");
    /* noise made the curve fall (2 MiB slower than 4 MiB, 16 B slower than
       1 KiB): the prediction still never falls as messages grow, and past
       4 MiB it goes at the 4 MiB bandwidth */
    {
        servet__commlayer *Y = &p->comm->layers[comm_layer_or(p, 0, 4)];
        double prev = 0.0, x;
        Y->curve_s[21] = Y->curve_s[22] * 1.5;
        Y->curve_s[4] = Y->curve_s[10] * 1.2;
        for (x = 1.0, ok = 1; x <= 1e9; x *= 1.3) {
            t = comm_time_or(p, 0, 4, x);
            if (!(t >= prev && t > 0)) ok = 0;
            prev = t;
        }
        CHECK(ok, "servet_comm_time never falls as bytes grow over a noisy curve");
        t = comm_time_or(p, 0, 4, 1e8);
        CHECK(fabs(t / (Y->curve_s[21] * 1e8 / 4194304.0) - 1.0) < 1e-9, "100 MB at the 4 MiB envelope's bandwidth: %g", t);
        CHECK(comm_time_or(p, 0, 4, 1e8) > comm_time_or(p, 0, 4, 1e3), "100 MB costs more than 1 KB");
        fill_curves(p->comm);
    }
    {
        char hn[64];
        int node = -1;
        CHECK(servet_comm_node_of(p, 5, &node, hn, sizeof hn) == SERVET_OK && node == 1 && !strcmp(hn, "node1"),
              "rank 5 on node1");
        CHECK(servet_comm_node_of(p, 8, &node, hn, sizeof hn) == SERVET_ERROR_INVALID_ARGUMENT, "rank 8 absent");
    }
    {
        size_t len = servet_json(p, NULL, 0);
        char *s = (char *)malloc(len + 1);
        servet_json(p, s, len + 1);
        CHECK(strstr(s, "\"comm\":{\"ranks\":8,\"nodes\":2") && strstr(s, "\"layers\":[{\"latency_s\"") &&
                  strstr(s, "\"curve\":[{\"bytes\":1,") && strstr(s, "\"scaling\":{\"concurrent\":[{\"pairs\":1"),
              "json comm");
        free(s);
    }
    servet_close(p);
    servet__clear_measured(&q2);
    servet__comm_free(&ctx, m);
}

static void test_no_mpi(void) {
    servet_profile *p = (servet_profile *)1;
    servet_desc d;
    unsigned bits = 0;
    memset(&d, 0, sizeof d);
    CHECK(servet_open_mpi(&p, &d, NULL) == SERVET_ERROR_NO_MPI && p == NULL, "servet_open_mpi without MPI");
    d.probes = SERVET_PROBE_COMM;
    d.no_save = 1;
    CHECK(servet_open(&p, &d) == SERVET_ERROR_NO_MPI, "servet_open asked for comm without MPI");
    CHECK(servet_probes_parse("comm", &bits) == SERVET_OK && bits == SERVET_PROBE_COMM, "parse comm");
    CHECK(servet_probes_parse("all", &bits) == SERVET_OK && !(bits & SERVET_PROBE_COMM), "all = node probes");
    CHECK(servet_comm_get(NULL, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL");
    CHECK(servet_comm_pair_get(NULL, 0, NULL, NULL, NULL, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL pair");
}

int main(void) {
    memset(&ctx, 0, sizeof ctx);
    srand(5);
    test_classes();
    test_layers();
    test_file_and_accessors();
    test_no_mpi();
    TEST_SUMMARY();
}
