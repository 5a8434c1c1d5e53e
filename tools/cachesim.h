/* cachesim.h - multi-level set-associative LRU cache simulator for servet's
   cache probe. Header-only, used by bin/servet (simulate), the accuracy bench
   and the tests. Include after servet.h (needs servet_sweep/servet_curve).

   WHAT IT SIMULATES
   The probe's access pattern exactly: every line of an array of S bytes,
   visited in one random cyclic order, over and over. The array is virtually
   contiguous; each virtual page (4 KiB, or 2 MiB with page=2097152) is backed
   by a random physical frame (fixed per seed, so a larger array extends a
   smaller one as in the real probe's single mapping). Level 1 is indexed by
   virtual address, deeper levels by physical address unless coloring=on
   (then physical = virtual: perfect page colouring). hash=on indexes a level
   by a mixing hash of the physical line address (sliced last-level caches).

   HOW (exact steady state, not a trace): under true LRU a cyclic reference
   stream is all-or-nothing per set: a set that receives X <= K distinct lines
   of the cycle hits on every one of them after the first pass, a set with
   X > K misses on every access (each line's reuse distance in the set is
   X-1 >= K). A non-inclusive level sees only the lines that missed above it,
   still in cyclic order. So the per-line outcome is computed level by level
   from set occupancy counts: O(lines x levels) per size, no passes.
   sim_trace_check() replays the same walk through a real LRU tag store and is
   used by the tests to confirm the shortcut.

   SPEC FORMAT (text, one item per line, '#' comments):
       level=1 size=49152 ways=12 line=64 [hash=on] [lat=4]
       level=2 size=2097152 ways=16
       page=4096   coloring=on|off   seed=N   noise=0.02   memory=200
   Sizes accept K/M/G suffixes (binary). lat/memory are cycles (defaults
   4, 14, 42, 80... and 200).
*/
#ifndef SERVET_CACHESIM_H
#define SERVET_CACHESIM_H

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_MAX_LEVELS 8
#if defined(__GNUC__) || defined(__clang__)
#define SIM_UNUSED __attribute__((unused))
#else
#define SIM_UNUSED
#endif

typedef struct sim_level {
    double size;
    int ways, line, hash;
    double lat;
} sim_level;

typedef struct sim_spec {
    int nlevels;
    sim_level lv[SIM_MAX_LEVELS];
    double page, noise, mem_lat;
    int coloring;
    uint64_t seed;
} sim_spec;

typedef struct sim_state {
    const sim_spec *spec;
    uint64_t noise_rng;
    double last_bytes, last_value;
    int last_replica;
    uint32_t *counts;
    size_t counts_cap;
    unsigned char *reach;
    size_t reach_cap;
    long evaluations;
} sim_state;

SIM_UNUSED static uint64_t sim_mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

SIM_UNUSED static int sim_parse_size(const char *s, double *out) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v > 0)) return 0;
    if (*end == 'K' || *end == 'k') v *= 1024.0, end++;
    else if (*end == 'M' || *end == 'm') v *= 1048576.0, end++;
    else if (*end == 'G' || *end == 'g') v *= 1073741824.0, end++;
    if (*end == 'i' && end[1] == 'B') end += 2;
    else if (*end == 'B') end++;
    if (*end && !isspace((unsigned char)*end)) return 0;
    *out = v;
    return 1;
}

/* Parse a spec text. Returns 1 on success, 0 with a message in err. */
SIM_UNUSED static int sim_parse_spec(const char *text, sim_spec *sp, char *err, size_t errcap) {
    static const double deflat[SIM_MAX_LEVELS] = {4, 14, 42, 80, 120, 160, 200, 240};
    const char *line = text;
    int lineno = 0, i;
    memset(sp, 0, sizeof *sp);
    sp->page = 4096;
    sp->mem_lat = 0;
    sp->seed = 1;
    while (*line) {
        char buf[512], *tok, *save = NULL;
        size_t n = strcspn(line, "\n");
        sim_level lv;
        int is_level = 0, level = 0;
        lineno++;
        if (n >= sizeof buf) { snprintf(err, errcap, "line %d too long", lineno); return 0; }
        memcpy(buf, line, n);
        buf[n] = 0;
        line += n + (line[n] == '\n');
        if (strchr(buf, '#')) *strchr(buf, '#') = 0;
        memset(&lv, 0, sizeof lv);
        lv.line = 64;
        for (tok = strtok_r(buf, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
            char *eq = strchr(tok, '=');
            const char *k = tok, *v;
            if (!eq) { snprintf(err, errcap, "line %d: '%s' is not key=value", lineno, tok); return 0; }
            *eq = 0;
            v = eq + 1;
            if (!strcmp(k, "level")) { level = atoi(v); is_level = 1; }
            else if (!strcmp(k, "size")) { if (!sim_parse_size(v, &lv.size)) goto bad; }
            else if (!strcmp(k, "ways")) lv.ways = atoi(v);
            else if (!strcmp(k, "line")) lv.line = atoi(v);
            else if (!strcmp(k, "hash")) lv.hash = !strcmp(v, "on");
            else if (!strcmp(k, "lat")) lv.lat = atof(v);
            else if (!strcmp(k, "page")) { if (!sim_parse_size(v, &sp->page)) goto bad; }
            else if (!strcmp(k, "coloring")) sp->coloring = !strcmp(v, "on");
            else if (!strcmp(k, "seed")) sp->seed = strtoull(v, NULL, 10);
            else if (!strcmp(k, "noise")) sp->noise = atof(v);
            else if (!strcmp(k, "memory")) sp->mem_lat = atof(v);
            else if (!strcmp(k, "name")) {}
            else { snprintf(err, errcap, "line %d: unknown key '%s'", lineno, k); return 0; }
            continue;
        bad:
            snprintf(err, errcap, "line %d: bad value '%s' for %s", lineno, v, k);
            return 0;
        }
        if (is_level) {
            if (level != sp->nlevels + 1 || level > SIM_MAX_LEVELS) {
                snprintf(err, errcap, "line %d: levels must be 1,2,3... in order", lineno);
                return 0;
            }
            if (!(lv.size > 0) || lv.ways < 1 || lv.line < 8 || fmod(lv.size, (double)lv.ways * lv.line) != 0) {
                snprintf(err, errcap, "line %d: level %d needs size, ways, line with size a multiple of ways*line",
                         lineno, level);
                return 0;
            }
            if (lv.lat <= 0) lv.lat = deflat[level - 1];
            sp->lv[sp->nlevels++] = lv;
        }
    }
    if (sp->nlevels == 0) { snprintf(err, errcap, "no level= lines"); return 0; }
    for (i = 1; i < sp->nlevels; i++)
        if (sp->lv[i].lat <= sp->lv[i - 1].lat) sp->lv[i].lat = sp->lv[i - 1].lat * 3.0;
    if (sp->mem_lat <= 0) sp->mem_lat = sp->lv[sp->nlevels - 1].lat * 2.5 > 200 ? sp->lv[sp->nlevels - 1].lat * 2.5 : 200;
    if (!(sp->page >= 64)) { snprintf(err, errcap, "page must be >= 64"); return 0; }
    if (sp->noise < 0 || sp->noise > 0.5) { snprintf(err, errcap, "noise must be in [0, 0.5]"); return 0; }
    return 1;
}

SIM_UNUSED static int sim_load_spec(const char *path, sim_spec *sp, char *err, size_t errcap) {
    FILE *f = fopen(path, "rb");
    char text[16384];
    size_t n;
    if (!f) { snprintf(err, errcap, "cannot open %.200s", path); return 0; }
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    return sim_parse_spec(text, sp, err, errcap);
}

/* physical line address of virtual line vl in buffer `replica` (each
   replica is an independent mapping, as a fresh mmap in the real probe) */
SIM_UNUSED static uint64_t sim_phys_line(const sim_spec *sp, uint64_t vl, int line, int replica) {
    uint64_t lines_per_page, vpage, frame;
    if (sp->coloring) return vl;
    lines_per_page = (uint64_t)(sp->page / line);
    if (lines_per_page == 0) lines_per_page = 1;
    vpage = vl / lines_per_page;
    frame = sim_mix((sp->seed + (uint64_t)replica * (uint64_t)1000003) * (uint64_t)0x51ED27 ^ (vpage * (uint64_t)0x9E3779B1)) >> 28;
    return frame * lines_per_page + vl % lines_per_page;
}

SIM_UNUSED static void sim_init(sim_state *st, const sim_spec *sp) {
    memset(st, 0, sizeof *st);
    st->spec = sp;
    st->noise_rng = sp->seed * 7919u + 17u;
    st->last_bytes = -1;
}
SIM_UNUSED static void sim_free(sim_state *st) {
    free(st->counts);
    free(st->reach);
    memset(st, 0, sizeof *st);
}

/* Exact steady-state cycles per access of the cyclic walk over `bytes`. */
SIM_UNUSED static double sim_exact(sim_state *st, double bytes, int replica) {
    const sim_spec *sp = st->spec;
    int line = sp->lv[0].line, l;
    uint64_t nl = (uint64_t)(bytes / line), i, remaining;
    double total = 0;
    if (nl < 1) nl = 1;
    if (st->reach_cap < nl) {
        free(st->reach);
        st->reach = (unsigned char *)malloc(nl);
        st->reach_cap = st->reach ? nl : 0;
        if (!st->reach) return -1;
    }
    memset(st->reach, 1, nl);
    remaining = nl;
    for (l = 0; l < sp->nlevels && remaining; l++) {
        const sim_level *L = &sp->lv[l];
        uint64_t sets = (uint64_t)(L->size / ((double)L->ways * L->line) + 0.5), hits = 0;
        if (sets < 1) sets = 1;
        if (st->counts_cap < sets) {
            free(st->counts);
            st->counts = (uint32_t *)malloc(sets * sizeof(uint32_t));
            st->counts_cap = st->counts ? sets : 0;
            if (!st->counts) return -1;
        }
        memset(st->counts, 0, sets * sizeof(uint32_t));
        for (i = 0; i < nl; i++) {
            uint64_t a;
            if (!st->reach[i]) continue;
            a = l == 0 ? i : sim_phys_line(sp, i, line, replica);
            st->counts[(L->hash ? sim_mix(a) : a) % sets]++;
        }
        for (i = 0; i < nl; i++) {
            uint64_t a;
            if (!st->reach[i]) continue;
            a = l == 0 ? i : sim_phys_line(sp, i, line, replica);
            if (st->counts[(L->hash ? sim_mix(a) : a) % sets] <= (uint32_t)L->ways) {
                st->reach[i] = 0;
                hits++;
            }
        }
        total += (double)hits * L->lat;
        remaining -= hits;
    }
    total += (double)remaining * sp->mem_lat;
    st->evaluations++;
    return total / (double)nl;
}

/* servet_measure_fn: one noisy repetition */
SIM_UNUSED static double sim_measure(void *user, double bytes, int replica) {
    sim_state *st = (sim_state *)user;
    double u, v, g;
    if (bytes != st->last_bytes || replica != st->last_replica) {
        st->last_value = sim_exact(st, bytes, replica);
        st->last_bytes = bytes;
        st->last_replica = replica;
    }
    if (st->spec->noise <= 0) return st->last_value;
    do {
        st->noise_rng = sim_mix(st->noise_rng);
        u = (double)(st->noise_rng >> 11) * (1.0 / 9007199254740992.0);
    } while (u <= 1e-300);
    st->noise_rng = sim_mix(st->noise_rng);
    v = (double)(st->noise_rng >> 11) * (1.0 / 9007199254740992.0);
    g = sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
    g = 1.0 + st->spec->noise * g;
    return st->last_value * (g > 0.05 ? g : 0.05);
}

/* The sweep + inference the real probe uses, on a simulated machine. */
SIM_UNUSED static int sim_detect(const sim_spec *sp, servet_curve *curve, servet_cache_level *levels, int max) {
    sim_state st;
    servet_sweep_desc d;
    double maxb = sp->lv[sp->nlevels - 1].size * 4.0;
    int k;
    sim_init(&st, sp);
    memset(&d, 0, sizeof d);
    d.min_bytes = 4096;
    d.max_bytes = maxb < 32.0 * 1048576.0 ? 32.0 * 1048576.0 : maxb;
    d.line_bytes = sp->lv[0].line;
    d.page_bytes = sp->page;
    d.repeats = 5;
    d.replicas = 32; /* as the real probe */
    d.replica_bytes = 32.0 * 1048576.0;
    if (servet_sweep(sim_measure, &st, &d, curve) != SERVET_OK) { sim_free(&st); return -1; }
    sim_free(&st);
    if (servet_infer_caches(curve->bytes, curve->ns, curve->n, sp->page, levels, max, &k, NULL) != SERVET_OK) return -1;
    return k;
}

/* Real LRU tag store replay of the cyclic walk (for tests, small sizes):
   returns the average latency of the third pass. */
SIM_UNUSED static double sim_trace_check(const sim_spec *sp, double bytes, uint64_t order_seed) {
    int line = sp->lv[0].line, l, pass;
    uint64_t nl = (uint64_t)(bytes / line), i, j, *order, *tags[SIM_MAX_LEVELS], *stamp[SIM_MAX_LEVELS], clock = 0;
    uint64_t sets[SIM_MAX_LEVELS], rng = order_seed;
    double total = 0;
    order = (uint64_t *)malloc(nl * sizeof *order);
    for (i = 0; i < nl; i++) order[i] = i;
    for (i = nl - 1; i > 0; i--) { /* random order, as the probe */
        rng = sim_mix(rng);
        j = rng % (i + 1);
        { uint64_t t = order[i]; order[i] = order[j]; order[j] = t; }
    }
    for (l = 0; l < sp->nlevels; l++) {
        sets[l] = (uint64_t)(sp->lv[l].size / ((double)sp->lv[l].ways * sp->lv[l].line) + 0.5);
        tags[l] = (uint64_t *)calloc(sets[l] * (uint64_t)sp->lv[l].ways, sizeof(uint64_t));
        stamp[l] = (uint64_t *)calloc(sets[l] * (uint64_t)sp->lv[l].ways, sizeof(uint64_t));
    }
    for (pass = 0; pass < 3; pass++) {
        for (i = 0; i < nl; i++) {
            uint64_t v = order[i], a = 0;
            double lat = sp->mem_lat;
            for (l = 0; l < sp->nlevels; l++) {
                uint64_t s, *t, *st, w, victim = 0;
                int ways = sp->lv[l].ways, hit = 0;
                a = l == 0 ? v : sim_phys_line(sp, v, line, 0);
                s = (sp->lv[l].hash ? sim_mix(a) : a) % sets[l];
                t = tags[l] + s * (uint64_t)ways;
                st = stamp[l] + s * (uint64_t)ways;
                for (w = 0; w < (uint64_t)ways; w++)
                    if (st[w] && t[w] == a + 1) { hit = 1; st[w] = ++clock; break; }
                if (hit) { lat = sp->lv[l].lat; break; }
                for (w = 1; w < (uint64_t)ways; w++) if (st[w] < st[victim]) victim = w;
                t[victim] = a + 1; /* fill on miss (non-inclusive) */
                st[victim] = ++clock;
            }
            if (pass == 2) total += lat;
        }
    }
    for (l = 0; l < sp->nlevels; l++) { free(tags[l]); free(stamp[l]); }
    free(order);
    return total / (double)nl;
}

#endif
