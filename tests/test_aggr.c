/* servet_choose_aggregation on made-up comm layers: the prediction
   arithmetic by hand, the limits, contention, the leader route, bad input. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include <stdlib.h>
#include <string.h>

static servet__ctx ctx;

/* 2 nodes x 4 ranks; ranks 2k, 2k+1 share an L2; every pair measured:
   layer 0 same L2, 1 same package, 2 other node */
static servet__comm *layout(void) {
    servet__comm *m = (servet__comm *)servet__calloc(&ctx, 1, sizeof *m);
    servet__pairres sel[64];
    int i, k, n;
    m->nranks = 8;
    m->nnodes = 2;
    m->msg_bytes = 49152;
    m->ranks = (servet__commrank *)servet__calloc(&ctx, 8, sizeof *m->ranks);
    m->node_names = (char (*)[64])servet__calloc(&ctx, 2, 64);
    snprintf(m->node_names[0], 64, "n0");
    snprintf(m->node_names[1], 64, "n1");
    for (i = 0; i < 8; i++) {
        servet__commrank *x = &m->ranks[i];
        x->node = i / 4;
        x->pu = i % 4;
        x->depth = 4;
        for (k = 0; k < SERVET__COMM_SIG; k++) x->anc[k] = -1;
        x->anc[0] = 0;
        x->anc[1] = 0;
        x->anc[2] = (i % 4) / 2;
        x->anc[3] = i % 4;
    }
    n = servet__select_pairs_by(8, servet__comm_relation, m, NULL, 1, 7, sel, 64, NULL);
    m->pairs = (servet__commpair *)servet__calloc(&ctx, (size_t)n, sizeof *m->pairs);
    m->npairs = n;
    for (i = 0; i < n; i++) {
        servet__commpair *q = &m->pairs[i];
        q->a = sel[i].a;
        q->b = sel[i].b;
        q->cls = sel[i].cls;
        q->flags = sel[i].flags;
        if (q->cls == SERVET__COMM_CLASS_OTHER_NODE) { q->small = 100e-6; q->latency = 150e-6; }
        else if ((q->cls & 255) >= 2) { q->small = 0.3e-6; q->latency = 2e-6; }
        else { q->small = 0.5e-6; q->latency = 3e-6; }
        q->spread = q->small_spread = 0.02;
    }
    servet__comm_tolerance(&ctx, m);
    servet__comm_layers(&ctx, m);
    return m;
}

/* t(s) = lat + s / bw at every power of two; the exchange test consistent
   with one(s) = 2 t(s) and g(s) = gf t(s) */
static double T(double lat, double bw, double s) { return lat + s / bw; }
static void set_layer(servet__commlayer *Y, double lat, double bw, double gf) {
    static const int sizes[] = {8, 64, 512, 4096, 32768};
    int s;
    Y->ncurve = SERVET__COMM_CURVE;
    for (s = 0; s < Y->ncurve; s++) {
        Y->curve_bytes[s] = (double)(1 << s);
        Y->curve_s[s] = T(lat, bw, Y->curve_bytes[s]);
    }
    Y->nscale = 1;
    Y->scale_k[0] = 1;
    Y->scale_s[0] = 2e-6;
    Y->nagg = 5;
    for (s = 0; s < 5; s++) {
        double S = sizes[s];
        Y->agg_bytes[s] = S;
        Y->agg_n[s] = 32;
        Y->agg_one[s] = 2.0 * T(lat, bw, 32.0 * S);
        Y->agg_many[s] = 2.0 * T(lat, bw, S) + 31.0 * gf * T(lat, bw, S);
    }
}

static servet_profile *profile(servet__comm **out_m) {
    servet_profile *p = NULL;
    servet_desc d;
    servet__comm *m = layout();
    memset(&d, 0, sizeof d);
    d.probes = SERVET_PROBE_TOPOLOGY;
    d.no_save = 1;
    d.cache_dir = "/nonexistent-servet-test";
    if (servet_open(&p, &d) != SERVET_OK) return NULL;
    set_layer(&m->layers[0], 1e-6, 1e9, 0.5);
    set_layer(&m->layers[1], 1.5e-6, 1e9, 0.5);
    set_layer(&m->layers[2], 100e-6, 1e8, 2.0); /* messages in flight between nodes do not overlap */
    p->comm = m;
    p->sections |= SERVET_PROBE_COMM;
    *out_m = m;
    return p;
}

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

int main(void) {
    servet__comm *m = NULL;
    servet_profile *p = profile(&m);
    servet_aggr_desc d;
    servet_aggr a, b;
    double t8, t16, t32;
    CHECK(p != NULL && m->nlayers == 3 && m->layers[0].intra == 1 && m->layers[2].intra == 0, "made-up layers");
    if (!p) TEST_SUMMARY();

    /* by hand: 4 messages of 8 B to one peer, layer 0, packing at 1 GB/s.
       k=1: X(4, 8) = one + 3 g = 2 t(8) + 1.5 t(8); k=2: X(2, 16) = 2.5 t(16)
       + pack 2*4*8/1e9; k=4: X(1, 32) = 2 t(32) + the same packing */
    memset(&d, 0, sizeof d);
    d.message_bytes = 8;
    d.messages = 4;
    d.pack_bytes_per_s = 1e9;
    t8 = T(1e-6, 1e9, 8); t16 = T(1e-6, 1e9, 16); t32 = T(1e-6, 1e9, 32);
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK, "decide");
    CHECK(a.layer == 0 && a.pack == 4 && !a.route_leader, "pack all 4: %g", a.pack);
    CHECK(near(a.separate_s, 3.5 * t8 / 4), "unpacked %g vs %g", a.separate_s, 3.5 * t8 / 4);
    CHECK(near(a.packed_s, (2 * t32 + 64e-9) / 4) && near(a.time_s, a.packed_s), "packed %g vs %g", a.packed_s,
          (2 * t32 + 64e-9) / 4);
    CHECK(a.limited_by == SERVET_AGGR_LIMIT_MESSAGES && near(a.pack_bytes_per_s, 1e9), "limited by the messages");
    (void)t16;
    /* deterministic */
    CHECK(servet_choose_aggregation(p, &d, &b) == SERVET_OK && !memcmp(&a, &b, sizeof a), "same answer twice");

    /* the measured packing when no rate is given: 1 us a message (slow
       enough that packing 4 loses: 2 t(32) + 8 us > 3.5 t(8)) */
    {
        int i;
        for (i = 0; i < 5; i++) m->layers[0].agg_pack[i] = 32 * 1e-6;
        d.pack_bytes_per_s = 0;
        CHECK(servet_choose_aggregation(p, &d, &b) == SERVET_OK && b.pack == 1 && near(b.pack_bytes_per_s, 8 / 1e-6),
              "measured packing, 1 us a message: pack %g at %g B/s", b.pack, b.pack_bytes_per_s);
        for (i = 0; i < 5; i++) m->layers[0].agg_pack[i] = 32 * 1e-9; /* 1 ns: as with the 1 GB/s rate */
        CHECK(servet_choose_aggregation(p, &d, &b) == SERVET_OK && b.pack == 4 && near(b.packed_s, (2 * t32 + 8e-9) / 4),
              "measured packing, 1 ns a message: pack %g, %g", b.pack, b.packed_s);
        for (i = 0; i < 5; i++) m->layers[0].agg_pack[i] = 0;
        d.pack_bytes_per_s = 1e9;
    }
    /* big messages: packing costs more than it saves -> 1 */
    d.message_bytes = 1048576;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.pack == 1 && a.limited_by == SERVET_AGGR_LIMIT_NONE,
          "1 MiB messages stay separate: pack %g", a.pack);
    CHECK(near(a.separate_s, 3.5 * T(1e-6, 1e9, 1048576) / 4), "1 MiB unpacked %g", a.separate_s);

    /* limits: the buffer, the wait */
    d.message_bytes = 8;
    d.messages = 64;
    d.max_buffer_bytes = 16;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.pack == 2 && a.limited_by == SERVET_AGGR_LIMIT_BUFFER,
          "16-byte buffer: pack %g", a.pack);
    d.max_buffer_bytes = 0;
    d.interval_s = 1.0;
    d.max_wait_s = 2.5; /* (k-1) x 1 s + ... <= 2.5 s -> k <= 3 */
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.pack <= 3 && a.pack >= 2 &&
              a.limited_by == SERVET_AGGR_LIMIT_WAIT,
          "wait limit: pack %g limited %d", a.pack, a.limited_by);
    d.max_wait_s = 1e-9; /* nothing fits: one message per send */
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.pack == 1, "an impossible wait: pack %g", a.pack);
    d.interval_s = 0;
    d.max_wait_s = 0;
    /* 100 us a message, 40 ns a byte between nodes: the time per message
       falls well past 8192 per send */
    d.layer = 2;
    d.messages = 1e6;
    d.max_buffer_bytes = 65536;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.pack == 8192 && a.limited_by == SERVET_AGGR_LIMIT_BUFFER,
          "64 KiB buffer: pack %g", a.pack);
    d.max_buffer_bytes = 0; /* 4 MiB: not binding */
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.pack > 8192 && a.pack <= 524288 &&
              a.limited_by == SERVET_AGGR_LIMIT_NONE, "default buffer: pack %g", a.pack);
    d.layer = 0;

    /* contention: 2 pairs at 1.5x the time of one; 4 senders = 2 pairs
       (one() and g() already hold one pair's two senders) -> 1.5x */
    m->layers[0].nscale = 2;
    m->layers[0].scale_k[1] = 2;
    m->layers[0].scale_s[1] = 3e-6;
    memset(&d, 0, sizeof d);
    d.message_bytes = 8;
    d.messages = 4;
    d.pack_bytes_per_s = 1e9;
    d.senders = 2;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && near(a.separate_s, 3.5 * t8 / 4), "one pair: no contention");
    d.senders = 4;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && near(a.separate_s, 1.5 * 3.5 * t8 / 4),
          "contention 1.5x: %g", a.separate_s);
    d.senders = 128; /* held past the last point */
    CHECK(servet_choose_aggregation(p, &d, &b) == SERVET_OK && near(b.separate_s, a.separate_s), "held past 2 pairs");

    /* the pair names the layer; the leader route across nodes: one 8-byte
       message to each of 4 remote peers, 100 us per message between nodes */
    memset(&d, 0, sizeof d);
    d.rank_a = 1;
    d.rank_b = 5;
    d.message_bytes = 8;
    d.messages = 1;
    d.peers = 4;
    d.pack_bytes_per_s = 1e9;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.layer == 2 && a.pack == 1, "other node: layer %d", a.layer);
    CHECK(a.route_leader == 1 && a.leader == 0 && a.leader_s > 0 && a.leader_s * 2.0 <= a.packed_s,
          "leader route: %g vs direct %g, leader %d", a.leader_s, a.packed_s, a.leader);
    CHECK(near(a.separate_s, 8.0 * T(100e-6, 1e8, 8) / 4), "direct to 4 peers: %g", a.separate_s);
    d.rank_a = 6;
    d.rank_b = 2;
    CHECK(servet_choose_aggregation(p, &d, &b) == SERVET_OK && b.leader == 4, "rank 6's leader is 4: %d", b.leader);
    d.no_leader = 1;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && !a.route_leader && a.leader_s == 0, "no_leader");
    d.no_leader = 0;
    d.ranks_per_node = 1;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && !a.route_leader, "one rank per node: no leader");
    d.ranks_per_node = 0;
    d.rank_a = 0;
    d.rank_b = 1; /* intra-node: never a leader */
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.layer == 0 && !a.route_leader && a.leader_s == 0,
          "same L2: layer 0, no leader");
    d.rank_b = 0; /* equal ranks: the layer field */
    d.layer = 2;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_OK && a.layer == 2, "by layer");

    /* the eager limit: a curve that more than doubles for twice the bytes
       (a protocol switch) at 2 KiB -> 4 KiB; a smooth one has none */
    {
        servet__commlayer Y, keep = m->layers[0];
        servet_aggr e1, e2;
        int i;
        Y = keep;
        set_layer(&Y, 1e-6, 1e9, 0.5);
        CHECK(servet__layer_eager_limit(&Y) == 0.0, "smooth curve: no eager limit (%g)", servet__layer_eager_limit(&Y));
        for (i = 12; i < Y.ncurve; i++) Y.curve_s[i] += 3e-6; /* +3 us from 4 KiB on: 1.002 -> 7.1 us */
        CHECK(servet__layer_eager_limit(&Y) == 2048.0, "step at 2 KiB: %g", servet__layer_eager_limit(&Y));
        m->layers[0] = Y;
        memset(&d, 0, sizeof d);
        d.message_bytes = 64;
        d.messages = 256;
        d.pack_bytes_per_s = 1e10;
        d.max_buffer_bytes = 2048; /* eager sends only */
        CHECK(servet_choose_aggregation(p, &d, &e1) == SERVET_OK && e1.pack == 32, "eager only: pack %g", e1.pack);
        d.max_buffer_bytes = 0;
        CHECK(servet_choose_aggregation(p, &d, &e2) == SERVET_OK &&
                  (e2.pack * 64 <= 2048 || e2.packed_s * 1.45 <= e1.packed_s),
              "past the eager limit only 1.45x faster: pack %g, %g vs eager %g", e2.pack, e2.packed_s, e1.packed_s);
        m->layers[0] = keep;
    }
    /* bad input */
    memset(&d, 0, sizeof d);
    d.message_bytes = 8;
    d.messages = 4;
    CHECK(servet_choose_aggregation(NULL, &d, &a) == SERVET_ERROR_INVALID_ARGUMENT, "NULL profile");
    CHECK(servet_choose_aggregation(p, NULL, &a) == SERVET_ERROR_INVALID_ARGUMENT, "NULL desc");
    CHECK(servet_choose_aggregation(p, &d, NULL) == SERVET_ERROR_INVALID_ARGUMENT, "NULL out");
    {
        struct { double bytes, msgs; int peers, rank_a, rank_b, layer; double wait; } bad[] = {
            {0, 4, 0, 0, 0, 0, 0},     {-8, 4, 0, 0, 0, 0, 0},   {NAN, 4, 0, 0, 0, 0, 0}, {INFINITY, 4, 0, 0, 0, 0, 0},
            {8, 0.5, 0, 0, 0, 0, 0},   {8, NAN, 0, 0, 0, 0, 0},  {8, 4, -1, 0, 0, 0, 0},  {8, 4, 0, 0, 8, 0, 0},
            {8, 4, 0, -1, 2, 0, 0},    {8, 4, 0, 0, 0, 3, 0},    {8, 4, 0, 0, 0, -1, 0},  {8, 4, 0, 9, 9, 0, 0},
            {8, 4, 0, 0, 0, 0, -1.0},
        };
        int i, ok = 1;
        for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
            servet_aggr_desc e;
            memset(&e, 0, sizeof e);
            e.message_bytes = bad[i].bytes;
            e.messages = bad[i].msgs;
            e.peers = bad[i].peers;
            e.rank_a = bad[i].rank_a;
            e.rank_b = bad[i].rank_b;
            e.layer = bad[i].layer;
            e.max_wait_s = bad[i].wait;
            if (servet_choose_aggregation(p, &e, &a) != SERVET_ERROR_INVALID_ARGUMENT) {
                ok = 0;
                fprintf(stderr, "bad case %d accepted\n", i);
            }
        }
        CHECK(ok, "every bad desc refused");
    }
    /* no comm section */
    p->comm = NULL;
    p->sections &= ~(unsigned)SERVET_PROBE_COMM;
    CHECK(servet_choose_aggregation(p, &d, &a) == SERVET_ERROR_NOT_FOUND, "no comm section: not found");
    servet_close(p);
    servet__comm_free(&ctx, m);
    TEST_SUMMARY();
}
