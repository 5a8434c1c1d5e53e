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
   sim_replay_report() (below) replays the same walk through real tag stores and
   is used by the tests to confirm the shortcut.

   REPLACEMENT, INCLUSION, BACKING (issue 14): true LRU is what the shortcut
   above knows; real caches replace otherwise and keep part of an overfull
   set of a cyclic walk. Per level repl=plru (tree pseudo-LRU over the ways
   rounded up to a power of two), nru (one used bit per way, cleared when
   all are set), random, srrip (2-bit re-reference prediction, insertion at
   "long", Jaleel et al. 2010), and incl=inclusive (an eviction here
   invalidates the levels above) or exclusive (a victim cache: filled only
   by the evictions of the level above, a hit moves the line up). Any of
   them, or a non-LRU level anywhere, switches to sim_replay: a tag store
   replayed over the walk (two passes to warm, one timed), on a sample of
   the sets - exact per set for levels indexed by address bits, since every
   line of a sampled set, and every line its upper-level set shares it
   with, has the same address residue modulo the sets' common divisor G;
   a hashed level gets its set count scaled by the sampled share instead
   (hashing spreads lines evenly, so a set sees the same load).
   backing=4096: the physical placement granularity (a VM backing the
   guest's huge pages with 4 KiB host pages), whatever page the walk asked
   for: page= is what the probe believes, backing= what the hardware sees.

   LINE SIZES: the walk visits every line of level 1 (walk=: a shorter
   stride, as the real probe's 64 B on a machine of 128 B lines). A deeper
   level may have longer lines (line=, at least
   the line above it: Pentium 4's and Itanium 2's 128 B L2 lines under 64 B
   L1 lines); its tags are its own lines, so it holds two or more of the
   walk's lines each, sees each of its lines that often a cycle, at random
   distances, and is replayed (no longer all-or-nothing per set). The
   sample then takes whole lines of the longest size.

   SPEC FORMAT (text, one item per line, '#' comments):
       level=1 size=49152 ways=12 [line=64] [hash=on] [lat=4]
               [repl=lru|plru|nru|random|srrip] [incl=nine|inclusive|exclusive]
       level=2 size=2097152 ways=16
       page=4096   backing=4096   coloring=on|off   seed=N   noise=0.02   memory=200   walk=64
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

enum { SIM_LRU = 0, SIM_PLRU, SIM_NRU, SIM_RANDOM, SIM_SRRIP };
enum { SIM_NINE = 0, SIM_INCLUSIVE, SIM_EXCLUSIVE };

typedef struct sim_level {
    double size;
    int ways, line, hash;
    double lat;
    int repl, incl;
} sim_level;

typedef struct sim_spec {
    int nlevels;
    sim_level lv[SIM_MAX_LEVELS];
    double page, noise, mem_lat;
    double backing; /* physical placement granularity; 0: the page */
    double walk_max; /* the second walk's levels end here (the real probe: 4 MiB); 0: every level */
    int coloring;
    int walk; /* the walk's stride in bytes (walk=; 0 in the text: level 1's line) */
    uint64_t seed;
} sim_spec;

typedef struct sim_state {
    const sim_spec *spec;
    uint64_t noise_rng;
    uint32_t *counts;
    size_t counts_cap;
    unsigned char *reach;
    size_t reach_cap;
    long evaluations;
    struct sim_rstore *replay; /* the replay's tag stores (non-LRU hierarchies, the second walk) */
    double irm_bytes, irm_value; /* the second walk's last exact point */
    int irm_replica;
    struct sim_memo_entry *memo; /* every exact point of the cyclic walk so far (open addressing) */
    size_t memo_n, memo_cap;
} sim_state;
typedef struct sim_memo_entry { double bytes, value; int replica, used; } sim_memo_entry;

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

SIM_UNUSED static int sim_pow2(double v) { return v >= 1.0 && v <= 1e15 && v == floor(v) && ((uint64_t)v & ((uint64_t)v - 1)) == 0; }

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
            else if (!strcmp(k, "repl")) {
                static const char *const names[] = {"lru", "plru", "nru", "random", "srrip"};
                int q;
                for (q = 0; q < 5 && strcmp(v, names[q]); q++) {}
                if (q == 5) goto bad;
                lv.repl = q;
            } else if (!strcmp(k, "incl")) {
                if (!strcmp(v, "nine")) lv.incl = SIM_NINE;
                else if (!strcmp(v, "inclusive")) lv.incl = SIM_INCLUSIVE;
                else if (!strcmp(v, "exclusive")) lv.incl = SIM_EXCLUSIVE;
                else goto bad;
            }
            else if (!strcmp(k, "backing")) { if (!sim_parse_size(v, &sp->backing)) goto bad; }
            else if (!strcmp(k, "walk_max")) { if (!sim_parse_size(v, &sp->walk_max)) goto bad; }
            else if (!strcmp(k, "walk")) sp->walk = atoi(v);
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
    /* sizes of address bits: a page, a backing page or a line that is not a
       power of two is no machine's, and the placement arithmetic assumes it */
    for (i = 0; i < sp->nlevels; i++)
        if (!sim_pow2((double)sp->lv[i].line)) {
            snprintf(err, errcap, "level %d: line must be a power of two", i + 1);
            return 0;
        }
    /* a level's line is at least the line above it (Pentium 4 and Itanium 2:
       64 B L1 lines, 128 B L2 lines); the walk visits every line of level 1 */
    for (i = 1; i < sp->nlevels; i++)
        if (sp->lv[i].line < sp->lv[i - 1].line) {
            snprintf(err, errcap, "level %d: line %d is smaller than level %d's (%d)", i + 1, sp->lv[i].line, i,
                     sp->lv[i - 1].line);
            return 0;
        }
    if (sp->walk == 0) sp->walk = sp->lv[0].line;
    if (sp->walk < 8 || !sim_pow2((double)sp->walk) || sp->walk > sp->lv[0].line) {
        snprintf(err, errcap, "walk must be a power of two from 8 to level 1's line (%d)", sp->lv[0].line);
        return 0;
    }
    if (!(sp->page >= 64) || !sim_pow2(sp->page)) { snprintf(err, errcap, "page must be a power of two >= 64"); return 0; }
    if (sp->page < sp->lv[sp->nlevels - 1].line || (sp->backing != 0 && sp->backing < sp->lv[sp->nlevels - 1].line)) {
        snprintf(err, errcap, "page and backing must hold at least one line of every level");
        return 0;
    }
    if (sp->backing != 0 && (!(sp->backing >= 64) || !sim_pow2(sp->backing))) {
        snprintf(err, errcap, "backing must be a power of two >= 64");
        return 0;
    }
    if (sp->lv[0].incl == SIM_EXCLUSIVE) { snprintf(err, errcap, "level 1 cannot be exclusive (of what?)"); return 0; }
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

/* the physical placement unit (bytes): the backing where it is finer than the page */
SIM_UNUSED static double sim_placement_unit(const sim_spec *sp) {
    return sp->backing > 0 && sp->backing < sp->page ? sp->backing : sp->page;
}
SIM_UNUSED static uint64_t sim_frame_seed(const sim_spec *sp, int replica) {
    return (sp->seed + (uint64_t)replica * (uint64_t)1000003) * (uint64_t)0x51ED27;
}
/* physical line address of virtual line vl in buffer `replica` (each
   replica is an independent mapping, as a fresh mmap in the real probe) */
SIM_UNUSED static uint64_t sim_phys_line(const sim_spec *sp, uint64_t vl, int line, int replica) {
    uint64_t lines_per_page, vpage, frame;
    if (sp->coloring) return vl;
    lines_per_page = (uint64_t)(sim_placement_unit(sp) / line);
    if (lines_per_page == 0) lines_per_page = 1;
    vpage = vl / lines_per_page;
    frame = sim_mix(sim_frame_seed(sp, replica) ^ (vpage * (uint64_t)0x9E3779B1)) >> 28;
    return frame * lines_per_page + vl % lines_per_page;
}

SIM_UNUSED static void sim_init(sim_state *st, const sim_spec *sp) {
    memset(st, 0, sizeof *st);
    st->spec = sp;
    st->noise_rng = sp->seed * 7919u + 17u;
    st->irm_bytes = -1;
}
SIM_UNUSED static void sim_rstore_free(struct sim_rstore *r);
SIM_UNUSED static void sim_free(sim_state *st) {
    free(st->memo);
    free(st->counts);
    free(st->reach);
    if (st->replay) { sim_rstore_free(st->replay); free(st->replay); }
    memset(st, 0, sizeof *st);
}

/* ---- the tag-store replay (non-LRU policies, inclusion) ---- */
typedef struct sim_rlevel {
    int ways, pw, hashed;      /* pw: ways rounded up to a power of two (plru) */
    int lsh, rsh;              /* log2 of its line / the walk's stride, of the largest line / its line */
    uint64_t sets, nsim;       /* the level's sets; the sets simulated */
    uint64_t *tag;             /* virtual line + 1 per way; 0: empty */
    uint64_t *meta;            /* lru stamp, nru bit, srrip rrpv */
    uint64_t *plru;            /* tree bits per set */
    uint32_t *epoch;           /* a set whose epoch is not the replay's is empty (cleared when touched) */
    uint64_t cap, clock;       /* sets allocated */
} sim_rlevel;
/* tag stores kept from one replay to the next (allocation and clearing of
   a 32 MiB level's store cost more than replaying a small walk) */
typedef struct sim_rstore {
    sim_rlevel lv[SIM_MAX_LEVELS];
    uint32_t epoch;
} sim_rstore;
SIM_UNUSED static void sim_rstore_free(sim_rstore *r) {
    int l;
    for (l = 0; l < SIM_MAX_LEVELS; l++) {
        free(r->lv[l].tag); free(r->lv[l].meta); free(r->lv[l].plru); free(r->lv[l].epoch);
    }
    memset(r, 0, sizeof *r);
}
typedef struct sim_replay_ctx {
    const sim_spec *sp;
    sim_rlevel *lv;
    uint64_t G, m, step, rng;  /* residues mod G sampled: 0, step, 2 step, .. (m of them) */
    int gshift, sshift;        /* log2 of G and step when both are powers of two (else -1) */
    int xsh;                   /* log2 of the largest line / the walk's stride: residues are the largest lines' */
    uint64_t memo_v, memo_a;   /* the last line translated (v + 1; 0: none) and its physical line */
    uint64_t frame_seed;       /* sim_phys_line's per-replica part of the hash; */
    int lpp_shift;             /* log2 of its lines per placement unit (-1: not a power of two) */
    uint32_t epoch;
    int replica, line;
} sim_replay_ctx;

SIM_UNUSED static uint64_t sim_r_addr(sim_replay_ctx *c, int l, uint64_t v) {
    if (l == 0) return v;
    if (v + 1 != c->memo_v) { /* one hash per access, not one per level and fill */
        if (c->lpp_shift >= 0 && !c->sp->coloring) { /* sim_phys_line without its divisions: the same value */
            uint64_t frame = sim_mix(c->frame_seed ^ ((v >> c->lpp_shift) * (uint64_t)0x9E3779B1)) >> 28;
            c->memo_a = (frame << c->lpp_shift) | (v & (((uint64_t)1 << c->lpp_shift) - 1));
        } else {
            c->memo_a = sim_phys_line(c->sp, v, c->line, c->replica);
        }
        c->memo_v = v + 1;
    }
    return c->memo_a;
}
/* the simulated set of line v at level l */
SIM_UNUSED static uint64_t sim_r_set(sim_replay_ctx *c, int l, uint64_t v) {
    sim_rlevel *L = &c->lv[l];
    uint64_t a = sim_r_addr(c, l, v) >> L->lsh, s, low = ((uint64_t)1 << L->rsh) - 1; /* a: the level's line */
    if (L->hashed) s = sim_mix(a) % L->nsim;
    else if (c->gshift >= 0 && !(L->sets & (L->sets - 1))) { /* powers of two: no divisions (the replay's hot spot) */
        uint64_t r = a & (L->sets - 1), u = r >> L->rsh;
        s = (((u >> c->gshift) * c->m + ((u & (c->G - 1)) >> c->sshift)) << L->rsh) | (r & low);
    } else {
        uint64_t r = a % L->sets, u = r >> L->rsh;
        s = (((u / c->G) * c->m + (u % c->G) / c->step) << L->rsh) | (r & low);
    }
    if (L->epoch[s] != c->epoch) { /* first touch in this replay: empty */
        memset(L->tag + s * (uint64_t)L->ways, 0, (size_t)L->ways * sizeof(uint64_t));
        memset(L->meta + s * (uint64_t)L->ways, 0, (size_t)L->ways * sizeof(uint64_t));
        L->plru[s] = 0;
        L->epoch[s] = c->epoch;
    }
    return s;
}
SIM_UNUSED static int sim_r_find(const sim_rlevel *L, uint64_t set, uint64_t v) {
    const uint64_t *t = L->tag + set * (uint64_t)L->ways;
    int w;
    for (w = 0; w < L->ways; w++) if (t[w] == v + 1) return w;
    return -1;
}
/* a hit or a fill of way w: the policy's bookkeeping */
SIM_UNUSED static void sim_r_touch(sim_replay_ctx *c, int l, uint64_t set, int w, int fill) {
    sim_rlevel *L = &c->lv[l];
    uint64_t *m = L->meta + set * (uint64_t)L->ways;
    int q;
    switch (c->sp->lv[l].repl) {
    case SIM_LRU: m[w] = ++L->clock; break;
    case SIM_PLRU: { /* every node on the way's path points away from it */
        uint64_t node = 1, *bits = &L->plru[set];
        int lo = 0, hi = L->pw;
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2, right = w >= mid;
            if (right) *bits &= ~((uint64_t)1 << node), lo = mid;
            else *bits |= (uint64_t)1 << node, hi = mid;
            node = 2 * node + (uint64_t)right;
        }
        break;
    }
    case SIM_NRU: {
        const uint64_t *t = L->tag + set * (uint64_t)L->ways;
        int all = 1;
        m[w] = 1;
        for (q = 0; q < L->ways && all; q++) all = !t[q] || m[q];
        if (all) for (q = 0; q < L->ways; q++) if (q != w) m[q] = 0;
        break;
    }
    case SIM_SRRIP: m[w] = fill ? 2 : 0; break;
    default: break;
    }
}
SIM_UNUSED static int sim_r_victim(sim_replay_ctx *c, int l, uint64_t set) {
    sim_rlevel *L = &c->lv[l];
    const uint64_t *t = L->tag + set * (uint64_t)L->ways;
    uint64_t *m = L->meta + set * (uint64_t)L->ways;
    int w, v = 0;
    for (w = 0; w < L->ways; w++) if (!t[w]) return w;
    switch (c->sp->lv[l].repl) {
    case SIM_PLRU: {
        uint64_t node = 1, bits = L->plru[set];
        int lo = 0, hi = L->pw;
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2, right = (int)((bits >> node) & 1);
            if (!right && lo >= L->ways) right = 1;      /* no real way on that side */
            if (right && mid >= L->ways) right = 0;
            if (right) lo = mid; else hi = mid;
            node = 2 * node + (uint64_t)right;
        }
        return lo;
    }
    case SIM_NRU:
        for (w = 0; w < L->ways; w++) if (!m[w]) return w;
        return 0;
    case SIM_RANDOM:
        c->rng = sim_mix(c->rng);
        return (int)(c->rng % (uint64_t)L->ways);
    case SIM_SRRIP: { /* the first way at "distant" (3), after ageing all
                         until one is: in one pass, ageing by 3 - the oldest */
        uint64_t mx = m[0];
        for (w = 1; w < L->ways; w++) if (m[w] > mx) mx = m[w], v = w;
        if (mx < 3) for (w = 0; w < L->ways; w++) m[w] += 3 - mx;
        return v;
    }
    default: /* LRU */
        for (w = 1; w < L->ways; w++) if (m[w] < m[v]) v = w;
        return v;
    }
}
SIM_UNUSED static void sim_r_drop(sim_replay_ctx *c, int l, uint64_t v) {
    sim_rlevel *L = &c->lv[l];
    uint64_t set = sim_r_set(c, l, v);
    int w = sim_r_find(L, set, v >> L->lsh);
    if (w >= 0) L->tag[set * (uint64_t)L->ways + (uint64_t)w] = 0;
}
/* put the line holding v (a line of the walk) into level l; what it evicts
   goes where the hierarchy says. Tags are the level's own (virtual) lines:
   a level of longer lines holds the walk's lines in pairs, fours... */
/* ... into `set` (its set, where the access just missed: neither found again) */
static void sim_r_fill_missed(sim_replay_ctx *c, int l, uint64_t v, uint64_t set);
SIM_UNUSED static void sim_r_fill(sim_replay_ctx *c, int l, uint64_t v) {
    sim_rlevel *L = &c->lv[l];
    uint64_t set = sim_r_set(c, l, v);
    int w = sim_r_find(L, set, v >> L->lsh);
    if (w >= 0) { sim_r_touch(c, l, set, w, 0); return; }
    sim_r_fill_missed(c, l, v, set);
}
SIM_UNUSED static void sim_r_fill_missed(sim_replay_ctx *c, int l, uint64_t v, uint64_t set) {
    sim_rlevel *L = &c->lv[l];
    uint64_t old, k;
    int w = sim_r_victim(c, l, set), q;
    old = L->tag[set * (uint64_t)L->ways + (uint64_t)w];
    L->tag[set * (uint64_t)L->ways + (uint64_t)w] = (v >> L->lsh) + 1;
    sim_r_touch(c, l, set, w, 1);
    if (!old) return;
    old = (old - 1) << L->lsh; /* the evicted line's first line of the walk */
    if (c->sp->lv[l].incl == SIM_INCLUSIVE) /* every line above inside it */
        for (q = 0; q < l; q++)
            for (k = 0; k < ((uint64_t)1 << (L->lsh - c->lv[q].lsh)); k++) sim_r_drop(c, q, old + (k << c->lv[q].lsh));
    if (l + 1 < c->sp->nlevels && c->sp->lv[l + 1].incl == SIM_EXCLUSIVE) sim_r_fill(c, l + 1, old);
}
/* one access: its latency */
SIM_UNUSED static double sim_r_access(sim_replay_ctx *c, uint64_t v) {
    const sim_spec *sp = c->sp;
    int l, h = sp->nlevels;
    double lat = sp->mem_lat;
    uint64_t sets[SIM_MAX_LEVELS];
    for (l = 0; l < sp->nlevels; l++) {
        uint64_t set = sets[l] = sim_r_set(c, l, v);
        int w = sim_r_find(&c->lv[l], set, v >> c->lv[l].lsh);
        if (w >= 0) {
            h = l;
            lat = sp->lv[l].lat;
            if (sp->lv[l].incl == SIM_EXCLUSIVE) c->lv[l].tag[set * (uint64_t)c->lv[l].ways + (uint64_t)w] = 0; /* moves up */
            else sim_r_touch(c, l, set, w, 0);
            break;
        }
    }
    /* the data comes back up: filled where it missed, deepest first (a fill
       below evicts other lines and drops them above, never brings v above:
       the sets looked up stay right, and v still missing from them) */
    for (l = h - 1; l >= 0; l--)
        if (sp->lv[l].incl != SIM_EXCLUSIVE) sim_r_fill_missed(c, l, v, sets[l]);
    return lat;
}
typedef struct sim_order_key { uint64_t key, v; } sim_order_key;
SIM_UNUSED static int sim_order_cmp(const void *a, const void *b) {
    uint64_t x = ((const sim_order_key *)a)->key, y = ((const sim_order_key *)b)->key;
    return x < y ? -1 : x > y;
}
/* the walk's order: ascending keys, stable (as glibc's merge sort), by an
   LSD radix sort of 8 passes of 8 bits (qsort was 9% of a replayed
   simulation); qsort where the buffer cannot be had */
SIM_UNUSED static void sim_order_sort(sim_order_key *o, size_t n) {
    sim_order_key *t = n > 256 ? (sim_order_key *)malloc(n * sizeof *t) : NULL, *src = o, *dst = t, *x;
    int pass;
    size_t i;
    if (!t) { qsort(o, n, sizeof *o, sim_order_cmp); return; }
    for (pass = 0; pass < 8; pass++) {
        size_t count[257] = {0};
        int sh = 8 * pass;
        for (i = 0; i < n; i++) count[((src[i].key >> sh) & 255u) + 1]++;
        for (i = 1; i < 257; i++) count[i] += count[i - 1];
        for (i = 0; i < n; i++) dst[count[(src[i].key >> sh) & 255u]++] = src[i];
        x = src; src = dst; dst = x;
    }
    /* 8 passes: the sorted keys are back in o */
    free(t);
}
/* The largest G dividing the largest lines per placement unit and, for
   every level indexed by address bits, its set count in largest lines
   (a way's bytes / the largest line): sets of those levels hold lines of
   one residue of their largest line modulo G (virtual and physical alike).
   With one line size, the lines per unit and the set counts. */
SIM_UNUSED static int sim_largest_line(const sim_spec *sp) { return sp->lv[sp->nlevels - 1].line; }
SIM_UNUSED static uint64_t sim_sample_modulus(const sim_spec *sp) {
    uint64_t g = 0;
    int l, line = sim_largest_line(sp);
    if (!sp->coloring) {
        g = (uint64_t)(sim_placement_unit(sp) / line);
    }
    for (l = 0; l < sp->nlevels; l++) {
        double way = sp->lv[l].size / (double)sp->lv[l].ways;
        uint64_t sets = (uint64_t)(way / line + 0.5), a, b;
        if (sp->lv[l].hash) continue;
        if (fmod(way, (double)line) != 0.0) return 1; /* a way shorter than the longest line: no sampling */
        if (g == 0) { g = sets; continue; }
        for (a = g, b = sets; b; ) { uint64_t t = a % b; a = b; b = t; }
        g = a;
    }
    return g ? g : 1;
}
/* Replay the walk over `bytes` (in the order of the keys sim_mix(order ^ v))
   through tag stores: two passes to warm, the third timed, on the lines whose
   residue modulo G = sim_sample_modulus() is a multiple of G/m (m must
   divide G; m = G: every line). *sum: the latency of the timed pass over
   the lines whose residue is a multiple of G/report (report divides m: a
   part of the replayed lines, for the tests), *count: how many. 0 on
   allocation failure. */
/* the replay's context: tag stores sized for the
   sampled sets (m residues of G), emptied; 0 on allocation failure */
SIM_UNUSED static int sim_replay_setup(sim_replay_ctx *cp, sim_rstore *store, const sim_spec *sp, int replica,
                                       uint64_t *mp) {
    sim_replay_ctx c;
    uint64_t m = *mp;
    int l, ok = 1;
    memset(&c, 0, sizeof c);
    c.lv = store->lv;
    if (++store->epoch == 0) { /* wrapped: every epoch stamp is stale or ambiguous */
        for (l = 0; l < SIM_MAX_LEVELS; l++) if (store->lv[l].epoch) memset(store->lv[l].epoch, 0, store->lv[l].cap * sizeof(uint32_t));
        store->epoch = 1;
    }
    c.epoch = store->epoch;
    c.sp = sp;
    c.line = sp->walk;
    c.replica = replica;
    c.G = sim_sample_modulus(sp);
    if (m < 1 || m > c.G || c.G % m) m = c.G;
    c.m = m;
    c.step = c.G / m;
    c.gshift = c.sshift = -1;
    if (!(c.G & (c.G - 1)) && !(c.step & (c.step - 1))) {
        for (c.gshift = 0; ((uint64_t)1 << c.gshift) < c.G; c.gshift++) {}
        for (c.sshift = 0; ((uint64_t)1 << c.sshift) < c.step; c.sshift++) {}
    }
    c.rng = sp->seed * 31u + (uint64_t)replica;
    c.frame_seed = sim_frame_seed(sp, replica);
    { /* sim_phys_line's lines per placement unit, as a shift where it is a power of two */
        uint64_t lpp = (uint64_t)(sim_placement_unit(sp) / c.line);
        if (lpp == 0) lpp = 1;
        c.lpp_shift = -1;
        if (!(lpp & (lpp - 1))) for (c.lpp_shift = 0; ((uint64_t)1 << c.lpp_shift) < lpp; c.lpp_shift++) {}
    }
    for (c.xsh = 0; (c.line << c.xsh) < sim_largest_line(sp); c.xsh++) {}
    for (l = 0; l < sp->nlevels; l++) {
        sim_rlevel *L = &c.lv[l];
        L->ways = sp->lv[l].ways;
        for (L->lsh = 0; (c.line << L->lsh) < sp->lv[l].line; L->lsh++) {}
        L->rsh = c.xsh - L->lsh;
        for (L->pw = 1; L->pw < L->ways; L->pw *= 2) {}
        L->sets = (uint64_t)(sp->lv[l].size / ((double)L->ways * sp->lv[l].line) + 0.5);
        if (L->sets < 1) L->sets = 1;
        L->hashed = sp->lv[l].hash;
        L->nsim = L->hashed ? (uint64_t)((double)L->sets * (double)m / (double)c.G + 0.5)
                   : c.G == 1 ? L->sets /* no sampling (G = 1: every set) */
                              : (((L->sets >> L->rsh) / c.G) * m) << L->rsh;
        if (L->nsim < 1) L->nsim = 1;
        if (L->pw > 64) { ok = 0; break; }
        if (L->cap < L->nsim || !L->tag) { /* grown to the largest sample asked for, kept */
            free(L->tag); free(L->meta); free(L->plru); free(L->epoch);
            L->tag = (uint64_t *)malloc(L->nsim * (uint64_t)L->ways * sizeof(uint64_t));
            L->meta = (uint64_t *)malloc(L->nsim * (uint64_t)L->ways * sizeof(uint64_t));
            L->plru = (uint64_t *)malloc(L->nsim * sizeof(uint64_t));
            L->epoch = (uint32_t *)calloc(L->nsim, sizeof(uint32_t));
            L->cap = L->tag && L->meta && L->plru && L->epoch ? L->nsim : 0;
            if (!L->cap) { ok = 0; break; }
        }
        L->clock = 0;
    }
    *cp = c;
    *mp = m;
    return ok;
}
/* is line v (of the walk) in the sample: its largest line's residue a multiple of step */
SIM_UNUSED static int sim_r_sampled(const sim_replay_ctx *c, uint64_t v, uint64_t step) {
    return ((v >> c->xsh) % c->G) % step == 0;
}
SIM_UNUSED static int sim_replay_store(sim_rstore *store, const sim_spec *sp, double bytes, int replica, uint64_t m,
                                       uint64_t report, uint64_t order, double *sum, uint64_t *count) {
    sim_replay_ctx c;
    uint64_t nl, i, n = 0, rstep, counted = 0;
    sim_order_key *ord;
    int pass, ok = sim_replay_setup(&c, store, sp, replica, &m);
    if (report < 1 || report > m || m % report) report = m;
    rstep = c.G / report;
    nl = (uint64_t)(bytes / c.line);
    if (nl < 1) nl = 1;
    ord = ok ? (sim_order_key *)malloc((((nl >> c.xsh) / c.step + 2) << c.xsh) * sizeof *ord) : NULL;
    if (ord) {
        for (i = 0; i < nl; i++)
            if (sim_r_sampled(&c, i, c.step)) { ord[n].v = i; ord[n].key = sim_mix(order ^ (i * 0x9E3779B97F4A7C15ull)); n++; }
        sim_order_sort(ord, (size_t)n);
        *sum = 0;
        for (pass = 0; pass < 3; pass++)
            for (i = 0; i < n; i++) {
                double lat = sim_r_access(&c, ord[i].v);
                if (pass == 2 && sim_r_sampled(&c, ord[i].v, rstep)) *sum += lat, counted++;
            }
        *count = counted;
    } else {
        ok = 0;
    }
    free(ord);
    return ok;
}
SIM_UNUSED static int sim_replay_report(const sim_spec *sp, double bytes, int replica, uint64_t m, uint64_t report,
                                        uint64_t order, double *sum, uint64_t *count) {
    sim_rstore store;
    int ok;
    memset(&store, 0, sizeof store);
    ok = sim_replay_store(&store, sp, bytes, replica, m, report, order, sum, count);
    sim_rstore_free(&store);
    return ok;
}
/* does this hierarchy need the replay (anything but non-inclusive LRU with
   one line size: a level of longer lines sees each of its lines two or more
   times a cycle, at random distances, and is no longer all-or-nothing)? */
SIM_UNUSED static int sim_needs_replay(const sim_spec *sp) {
    int l;
    for (l = 0; l < sp->nlevels; l++)
        if (sp->lv[l].repl != SIM_LRU || sp->lv[l].incl != SIM_NINE || sp->lv[l].line != sp->walk) return 1;
    return 0;
}
/* the replay's sample: about 2^14 lines, whole residues */
#define SIM_REPLAY_LINES 16384.0
SIM_UNUSED static double sim_replay(sim_rstore *store, const sim_spec *sp, double bytes, int replica) {
    uint64_t G = sim_sample_modulus(sp), m = G, n;
    double lines = bytes / sp->walk, sum;
    while (m > 1 && (double)m / (double)G * lines > SIM_REPLAY_LINES && m % 2 == 0) m /= 2;
    if (!sim_replay_store(store, sp, bytes, replica, m, m, sp->seed * 0x2545F4914F6CDD1Dull + (uint64_t)replica, &sum, &n) || !n)
        return -1;
    return sum / (double)n;
}

/* The probe's second walk (servet_sweep_irm, >>probe-cache item 9): chunks
   of 8 distinct lines of a random 4 KiB page (a fixed random order of the
   page's lines from a random start), every access independent of the past,
   replayed through the tag stores on the sampled residues (about 2^13
   lines; a chunk's lines of other residues touch no sampled set and are
   skipped). Every sampled line is touched once in order, then warm until
   each was accessed about 3 times at random, then
   the mean latency of 4 times as many (at least 2^15: a miss rate to
   within 0.003). No LRU shortcut exists for it: any hierarchy is replayed. */
SIM_UNUSED static double sim_irm(sim_rstore *store, const sim_spec *sp, double bytes, int replica) {
    uint64_t G = sim_sample_modulus(sp), m = G, lp, np, nsampled, done = 0, want, warm, rng, perm[512];
    double lines = bytes / sp->walk, sum = 0.0;
    sim_replay_ctx c;
    int j, fast;
    unsigned short pick[512][8];
    unsigned char npick[512];
    while (m > 1 && (double)m / (double)G * lines > SIM_REPLAY_LINES / 2 && m % 2 == 0) m /= 2;
    if (!sim_replay_setup(&c, store, sp, replica, &m)) return -1;
    lp = (uint64_t)(4096 / c.line);
    if (lp < 8) lp = 8;
    if (lp > 512) lp = 512;
    np = (uint64_t)(bytes / ((double)lp * c.line));
    if (np < 1) return -1;
    nsampled = (uint64_t)(lines * (double)m / (double)G) + 1;
    warm = 3 * nsampled > 8192 ? 3 * nsampled : 8192;
    want = 4 * nsampled > 32768 ? 4 * nsampled : 32768;
    rng = sim_mix(sp->seed * 0x9E3779B97F4A7C15ull ^ (uint64_t)replica * 0x2545F4914F6CDD1Dull ^ (uint64_t)bytes);
    for (j = 0; j < (int)lp; j++) perm[j] = (uint64_t)j;
    for (j = (int)lp - 1; j > 0; j--) {
        uint64_t k, t;
        rng = sim_mix(rng);
        k = rng % (uint64_t)(j + 1);
        t = perm[j]; perm[j] = perm[k]; perm[k] = t;
    }
    /* when G divides a page's lines, a line's residue is its offset's: the
       sampled lines of the chunk from each start, once (no divisions per access) */
    fast = lp % (c.G << c.xsh) == 0;
    for (j = 0; fast && j < (int)lp; j++) {
        int q;
        npick[j] = 0;
        for (q = 0; q < 8; q++) {
            uint64_t o = perm[((uint64_t)j + (uint64_t)q) % lp];
            if (sim_r_sampled(&c, o, c.step)) pick[j][npick[j]++] = (unsigned short)o;
        }
    }
    { /* every sampled line once first: a line the random warm-up missed would
         cost a miss to memory in the timed part (e^-3 of them: 5%) */
        uint64_t u, k, nl = (uint64_t)lines;
        for (u = 0; (u << c.xsh) < nl; u += c.step) /* step divides G: these are the sampled lines */
            for (k = 0; k < ((uint64_t)1 << c.xsh) && (u << c.xsh) + k < nl; k++) sim_r_access(&c, (u << c.xsh) + k);
    }
    while (done < warm + want) {
        uint64_t page, start;
        rng = sim_mix(rng);
        page = (uint64_t)(((rng >> 32) * np) >> 32);
        start = (rng & 0xffffu) % lp;
        if (fast) {
            for (j = 0; j < npick[start]; j++) {
                double lat = sim_r_access(&c, page * lp + pick[start][j]);
                if (done >= warm) sum += lat;
                done++;
            }
            continue;
        }
        for (j = 0; j < 8; j++) {
            uint64_t v = page * lp + perm[(start + (uint64_t)j) % lp];
            double lat;
            if (!sim_r_sampled(&c, v, c.step)) continue;
            lat = sim_r_access(&c, v);
            if (done >= warm) sum += lat;
            done++;
        }
    }
    return sum / (double)want;
}

/* Exact steady-state cycles per access of the cyclic walk over `bytes`. */
SIM_UNUSED static double sim_exact(sim_state *st, double bytes, int replica) {
    const sim_spec *sp = st->spec;
    int line = sp->walk, l;
    uint64_t nl = (uint64_t)(bytes / line), i, remaining;
    double total = 0;
    if (sim_needs_replay(sp)) {
        st->evaluations++;
        if (!st->replay && !(st->replay = (sim_rstore *)calloc(1, sizeof *st->replay))) return -1;
        return sim_replay(st->replay, sp, bytes, replica);
    }
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

/* one repetition of an exact time: times 1 + noise * N(0,1), at least 0.05 */
SIM_UNUSED static double sim_noisy(sim_state *st, double value) {
    double u, v, g;
    if (st->spec->noise <= 0) return value;
    do {
        st->noise_rng = sim_mix(st->noise_rng);
        u = (double)(st->noise_rng >> 11) * (1.0 / 9007199254740992.0);
    } while (u <= 1e-300);
    st->noise_rng = sim_mix(st->noise_rng);
    v = (double)(st->noise_rng >> 11) * (1.0 / 9007199254740992.0);
    g = sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
    g = 1.0 + st->spec->noise * g;
    return value * (g > 0.05 ? g : 0.05);
}

/* The exact points already computed. The sweep measures a point again
   later (its consistency pass, the second look, the referee), and an exact
   point is a function of (bytes, replica) alone - the LRU count, or a
   replay whose stores are emptied and whose random streams are seeded by
   the spec, the replica and the size - so it is looked up, not replayed
   again: 16-21% of a replayed simulation's time (spr/tgl/icl-like specs,
   2026-11-28), the result bit for bit the same. */
SIM_UNUSED static sim_memo_entry *sim_memo_slot(sim_memo_entry *t, size_t cap, double bytes, int replica) {
    uint64_t b;
    size_t i;
    memcpy(&b, &bytes, sizeof b);
    for (i = (size_t)(sim_mix(b ^ ((uint64_t)(unsigned)replica << 52)) & (cap - 1));
         t[i].used && !(t[i].bytes == bytes && t[i].replica == replica); i = (i + 1) & (cap - 1)) {}
    return &t[i];
}
/* the value of (bytes, replica) if known (1), else 0 */
SIM_UNUSED static int sim_memo_get(const sim_state *st, double bytes, int replica, double *value) {
    const sim_memo_entry *e;
    if (!st->memo_cap) return 0;
    e = sim_memo_slot(st->memo, st->memo_cap, bytes, replica);
    if (!e->used) return 0;
    *value = e->value;
    return 1;
}
/* kept if memory allows (else the point is simply computed again next time) */
SIM_UNUSED static void sim_memo_put(sim_state *st, double bytes, int replica, double value) {
    sim_memo_entry *e;
    if (2 * (st->memo_n + 1) > st->memo_cap) { /* at most half full */
        size_t cap = st->memo_cap ? 2 * st->memo_cap : 1024, i;
        sim_memo_entry *t = (sim_memo_entry *)calloc(cap, sizeof *t);
        if (!t) return;
        for (i = 0; i < st->memo_cap; i++)
            if (st->memo[i].used) *sim_memo_slot(t, cap, st->memo[i].bytes, st->memo[i].replica) = st->memo[i];
        free(st->memo);
        st->memo = t;
        st->memo_cap = cap;
    }
    e = sim_memo_slot(st->memo, st->memo_cap, bytes, replica);
    if (!e->used) st->memo_n++;
    e->bytes = bytes;
    e->replica = replica;
    e->value = value;
    e->used = 1;
}

/* servet_measure_fn: one noisy repetition */
SIM_UNUSED static double sim_measure(void *user, double bytes, int replica) {
    sim_state *st = (sim_state *)user;
    double value;
    if (!sim_memo_get(st, bytes, replica, &value)) {
        value = sim_exact(st, bytes, replica);
        if (value >= 0) sim_memo_put(st, bytes, replica, value);
    }
    return sim_noisy(st, value);
}

/* servet_measure_fn of the second walk: one noisy repetition */
SIM_UNUSED static double sim_measure_irm(void *user, double bytes, int replica) {
    sim_state *st = (sim_state *)user;
    if (bytes != st->irm_bytes || replica != st->irm_replica) {
        if (!st->replay && !(st->replay = (sim_rstore *)calloc(1, sizeof *st->replay))) return -1;
        st->irm_value = sim_irm(st->replay, st->spec, bytes, replica);
        st->irm_bytes = bytes;
        st->irm_replica = replica;
        st->evaluations++;
    }
    return st->irm_value > 0 ? sim_noisy(st, st->irm_value) : st->irm_value;
}

/* The sweep + inference the real probe uses, on a simulated machine. One
   difference: the second walk covers every level here, where the real
   probe walks only the levels up to 4 MiB (>>probe-cache item 9: above,
   each access of a random walk goes to memory, seconds of walk, and those
   levels are shared, hashed or the host's). So the simulated accuracy of a
   level over 4 MiB with a retentive policy is that of the second walk,
   which a real probe of such a level does not make: the cyclic fit sizes
   it there. The spec's walk_max=4M walks as the probe does (2026-11-25,
   26 hierarchies, 4 KiB pages: plru 51 and random 56 of 75 levels within
   5%, against 74 and 71 walking every level: a PLRU or random last level
   over 4 MiB reads 5-40% large; bench_data/cache_accuracy_walk_cap.txt). The exclusive
   flags are the machine's word, as cpuid's. */
SIM_UNUSED static int sim_detect(const sim_spec *sp, servet_curve *curve, servet_cache_level *levels, int max) {
    sim_state st;
    servet_sweep_desc d;
    double maxb = sp->lv[sp->nlevels - 1].size * 4.0, next = 0.0;
    servet_curve *irm;
    int k;
    sim_init(&st, sp);
    memset(&d, 0, sizeof d);
    d.min_bytes = 4096;
    d.max_bytes = maxb < 32.0 * 1048576.0 ? 32.0 * 1048576.0 : maxb;
    d.line_bytes = sp->walk;
    d.page_bytes = sp->page;
    d.repeats = 5;
    d.replicas = sim_needs_replay(sp) ? 16 : 32; /* as the real probe; a replayed hierarchy costs 100x more per point */
    d.replica_bytes = 32.0 * 1048576.0;
    if (servet_sweep(sim_measure, &st, &d, curve) != SERVET_OK) { sim_free(&st); return -1; }
    if (servet_infer_caches(curve->bytes, curve->ns, curve->n, sp->page, levels, max, &k, &next) != SERVET_OK) {
        sim_free(&st);
        return -1;
    }
    /* the second walk around the levels without a sharp step (no TLB here);
       with walk_max, the larger levels are marked steps as the probe marks them */
    servet_cache_method method[SIM_MAX_LEVELS];
    int l, unwalked[SIM_MAX_LEVELS];
    for (l = 0; l < k && l < SIM_MAX_LEVELS; l++) {
        method[l] = levels[l].method;
        unwalked[l] = sp->walk_max > 0 && levels[l].estimate_bytes > sp->walk_max;
        if (unwalked[l]) levels[l].method = SERVET_METHOD_STEP;
    }
    int excl[SIM_MAX_LEVELS] = {0}; /* the machine says which levels are victim caches, as cpuid does */
    if (k == sp->nlevels)
        for (l = 0; l < k; l++) excl[l] = sp->lv[l].incl == SIM_EXCLUSIVE;
    irm = (servet_curve *)calloc(1, sizeof *irm);
    d.replicas = 8; /* placements averaged per point: enough for a replay without timing noise */
    if (!irm || servet_sweep_irm(sim_measure_irm, &st, &d, levels, k, irm) != SERVET_OK ||
        servet_infer_caches_irm(curve, irm, levels, k, next, NULL, NULL, 0, excl) != SERVET_OK) {
        free(irm);
        sim_free(&st);
        return -1;
    }
    free(irm);
    for (l = 0; l < k && l < SIM_MAX_LEVELS; l++) /* a level left unwalked keeps the cyclic fit's label */
        if (unwalked[l]) levels[l].method = method[l];
    if (k == sp->nlevels) servet_infer_exclusive(levels, k, excl);
    sim_free(&st);
    return k;
}

#endif
