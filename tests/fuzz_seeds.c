/* Writes the fuzz seed corpus: a complete synthetic profile (topology of
   16 PUs, cache levels and curves, sharing, memory levels and scaling) with
   the fuzz fingerprint, and damaged copies of it. Deterministic. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_FINGERPRINT "servet-fuzz-fingerprint\ncpu=fuzz\n"
static servet__ctx ctx0;

static void put(const char *dir, const char *name, const unsigned char *d, size_t n) {
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    fwrite(d, 1, n, f);
    fclose(f);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "tests/fuzz/seeds";
    hwloc_topology_t t;
    servet_profile *p = (servet_profile *)calloc(1, sizeof *p);
    servet__wbuf w;
    unsigned char *bad;
    int i, lv;
    hwloc_topology_init(&t);
    hwloc_topology_set_synthetic(t, "pack:2 l3:1 l2:2 core:2 pu:2");
    hwloc_topology_load(t);
    servet__topo_extract(p, t);
    hwloc_topology_destroy(t);
    strcpy(p->cpu_model, "fuzz");
    strcpy(p->hostname, "fuzz");
    p->sections = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE | SERVET_PROBE_SHARED | SERVET_PROBE_MEMORY;
    p->ghz = 3.0;
    p->huge_pages = 1;
    p->curve = (servet_curve *)calloc(1, sizeof *p->curve);
    p->curve->page_bytes = 2097152;
    for (i = 0; i < 40; i++) {
        double b = 4096.0 * pow(2.0, i / 4.0);
        p->curve->bytes[i] = ceil(b / 64) * 64;
        p->curve->ns[i] = b <= 32768 ? 1.2 : b <= 1048576 ? 4.0 : b <= 8388608 ? 30.0 : 100.0;
        p->curve->spread[i] = 0.01;
    }
    p->curve->n = 40;
    p->curve_tlb = (servet_curve *)calloc(1, sizeof *p->curve_tlb);
    *p->curve_tlb = *p->curve;
    servet__infer_profile_caches(p);
    p->nshare = p->nlevels;
    p->share = (servet__share *)calloc((size_t)p->nshare, sizeof *p->share);
    for (lv = 0; lv < p->nshare; lv++) {
        servet__share *S = &p->share[lv];
        S->level = lv + 1;
        S->array_bytes = p->levels[lv].size_bytes * 2 / 3;
        S->ref_ns = p->levels[lv].latency;
        S->threshold = 1.8;
        S->npairs = 3;
        S->pairs = (servet__pairres *)calloc(3, sizeof *S->pairs);
        for (i = 0; i < 3; i++) {
            S->pairs[i].a = 0; S->pairs[i].b = 1 + 4 * i; S->pairs[i].cls = i; S->pairs[i].flags = 1;
            S->pairs[i].value = i == lv ? 3.0 : 1.0;
        }
        S->group_of = (int32_t *)calloc((size_t)p->npus, sizeof(int32_t));
        for (i = 0; i < p->npus; i++) S->group_of[i] = lv == 0 ? -1 : (i / (lv == 1 ? 4 : 8)) * (lv == 1 ? 4 : 8);
    }
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 10e9;
    p->memory->tolerance = 0.06;
    p->memory->npairs = 2;
    p->memory->pairs = (servet__pairres *)calloc(2, sizeof(servet__pairres));
    p->memory->pairs[0].a = 0; p->memory->pairs[0].b = 1; p->memory->pairs[0].value = 6e9; p->memory->pairs[0].flags = 1;
    p->memory->pairs[1].a = 0; p->memory->pairs[1].b = 8; p->memory->pairs[1].value = 10e9; p->memory->pairs[1].flags = 1;
    p->memory->nlevels = 1;
    p->memory->levels[0].bandwidth = 6e9;
    p->memory->levels[0].ratio = 0.6;
    p->memory->levels[0].group_of = (int32_t *)calloc((size_t)p->npus, sizeof(int32_t));
    for (i = 0; i < p->npus; i++) p->memory->levels[0].group_of[i] = (i / 8) * 8;
    p->memory->levels[0].nscale = 3;
    for (i = 0; i < 3; i++) { p->memory->levels[0].scale_pus[i] = i; p->memory->levels[0].scale_bw[i] = 10e9 * (i + 1) * 0.7; }
    p->sections |= SERVET_PROBE_MBSP | SERVET_PROBE_APEX;
    p->nmbsp = 2;
    p->mbsp = (servet__mbsplevel *)calloc(2, sizeof *p->mbsp);
    for (lv = 0; lv < 2; lv++) {
        servet__mbsplevel *M = &p->mbsp[lv];
        M->p = lv ? 2 : 4; M->components = lv ? 1 : 2; M->pus_per_component = lv ? 16 : 4;
        M->m_bytes = lv ? 64e9 : 8e6; M->g = 40 + lv; M->L = 1900 * (lv + 1); M->r2 = 0.99; M->rate = 1e10;
        M->g_min = M->g; M->g_max = M->g + 1; M->L_min = M->L; M->L_max = M->L + 10;
        M->nh = 3;
        for (i = 0; i < 3; i++) { M->h[i] = 16.0 * i; M->t_flops[i] = M->g * M->h[i] + M->L; }
    }
    p->napex = 4;
    p->apex_words = 1048576;
    p->apex = (servet__apexpt *)calloc(4, sizeof *p->apex);
    for (i = 0; i < 4; i++) { p->apex[i].alpha = i < 2 ? 0.01 : 1; p->apex[i].block = i % 2 ? 64 : 1; p->apex[i].ns_per_word = 1 + i; p->apex[i].bandwidth = 1e9 * (4 - i); }
    if (servet__serialize(p, FUZZ_FINGERPRINT, &w) != SERVET_OK) return 1;
    put(dir, "valid-full.prof", w.d, w.len);
    put(dir, "truncated-half.prof", w.d, w.len / 2);
    put(dir, "header-only.prof", w.d, 56);
    bad = (unsigned char *)malloc(w.len);
    memcpy(bad, w.d, w.len);
    bad[w.len / 3] ^= 0x10;
    put(dir, "bitflip.prof", bad, w.len);
    memcpy(bad, w.d, w.len);
    memset(bad + 120, 0xff, 16); /* a section header's length field */
    put(dir, "huge-length.prof", bad, w.len);
    {   /* topology only */
        servet__wbuf w2;
        p->sections = SERVET_PROBE_TOPOLOGY;
        servet__serialize(p, FUZZ_FINGERPRINT, &w2);
        put(dir, "valid-topology.prof", w2.d, w2.len);
        free(w2.d);
    }
    {   /* a .comm file: 2 nodes x 2 ranks, every pair measured, 2 layers */
        servet__wbuf w3;
        servet_profile q;
        servet__comm *m = (servet__comm *)calloc(1, sizeof *m);
        int a, b, k, n = 0, L, s;
        m->nranks = 4; m->nnodes = 2; m->msg_bytes = 49152; m->key = 42;
        m->ranks = (servet__commrank *)calloc(4, sizeof *m->ranks);
        m->node_names = (char (*)[64])calloc(2, 64);
        strcpy(m->node_names[0], "node0");
        strcpy(m->node_names[1], "node1");
        for (a = 0; a < 4; a++) {
            m->ranks[a].node = a / 2; m->ranks[a].pu = a % 2; m->ranks[a].depth = 3; m->ranks[a].numa = 0;
            for (k = 0; k < SERVET__COMM_SIG; k++) m->ranks[a].anc[k] = k < 3 ? (k == 2 ? a % 2 : 0) : -1;
        }
        m->pairs = (servet__commpair *)calloc(6, sizeof *m->pairs);
        for (a = 0; a < 4; a++)
            for (b = a + 1; b < 4; b++, n++) {
                servet__commpair *c = &m->pairs[n];
                c->a = a; c->b = b; c->cls = servet__comm_class(m, a, b);
                c->flags = n < 2 ? SERVET__PAIR_REP : SERVET__PAIR_SAMPLE;
                c->small = a / 2 == b / 2 ? 1e-6 : 5e-6; c->latency = 3 * c->small; c->spread = c->small_spread = 0.05;
            }
        m->npairs = n;
        m->pairs[1].flags = SERVET__PAIR_REP; /* 0-2, the other-node class */
        servet__comm_tolerance(&ctx0, m);
        servet__comm_layers(&ctx0, m);
        for (L = 0; L < m->nlayers; L++) {
            servet__commlayer *Y = &m->layers[L];
            Y->ncurve = SERVET__COMM_CURVE;
            for (s = 0; s < Y->ncurve; s++) {
                Y->curve_bytes[s] = (double)(1 << s);
                Y->curve_s[s] = 1e-6 * (L + 1) + Y->curve_bytes[s] / 1e9;
                if (s >= 8) Y->xcurve_s[s] = 2.0 * Y->curve_s[s];
            }
            Y->nscale = 1; Y->scale_k[0] = 1; Y->scale_s[0] = 2e-6;
            Y->nagg = 1; Y->agg_bytes[0] = 8; Y->agg_n[0] = 32; Y->agg_many[0] = 4e-5; Y->agg_one[0] = 2e-6;
            Y->agg_pack[0] = 1e-7;
        }
        servet__comm_holder(&q, p, m);
        if (servet__serialize(&q, FUZZ_FINGERPRINT, &w3) != SERVET_OK) return 1;
        put(dir, "valid-comm.prof", w3.d, w3.len);
        free(w3.d);
        servet__comm_free(&ctx0, m);
    }
    { /* a tuning file (servet_tune): two records, the same fingerprint */
        servet__tunefile tf;
        servet__tunerec recs[2];
        char path[4096];
        memset(&tf, 0, sizeof tf);
        memset(recs, 0, sizeof recs);
        tf.ctx = &ctx0;
        tf.n = 2;
        tf.recs = recs;
        strcpy(recs[0].key, "transpose n=4096 double");
        recs[0].nparams = 1;
        strcpy(recs[0].names[0], "tile");
        recs[0].best[0] = 16;
        recs[0].best_s = 0.048; recs[0].seed_s = 0.058; recs[0].spread = 0.01;
        recs[0].evaluations = 4; recs[0].runs = 40; recs[0].when = 1795000000u;
        strcpy(recs[1].key, "stencil");
        recs[1].nparams = 2;
        strcpy(recs[1].names[0], "ti"); strcpy(recs[1].names[1], "tj");
        recs[1].best[0] = 4092; recs[1].best[1] = -1;
        recs[1].best_s = 0.035; recs[1].evaluations = 2; recs[1].runs = 21;
        snprintf(path, sizeof path, "%s/valid-tune.prof", dir);
        if (servet__tune_write(&tf, dir, path, FUZZ_FINGERPRINT) != SERVET_OK) return 1;
    }
    free(bad);
    free(w.d);
    printf("seeds written to %s\n", dir);
    return 0;
}
