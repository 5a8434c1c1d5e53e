/* The text format of recorded probe curves (tools/cache_replay.py writes it
   from bench_data/cache_probe_runs*.json; tests/data/ keeps some), read one
   line at a time by tools/cache_replay.c and test_unit:
     run NAME                 starts a run
     c|t|i PAGE_BYTES         starts its cyclic, TLB or independent curve
     BYTES NS SPREAD          a point of the curve started last
     end                      the run is complete
     ways W1 W2 ...           the OS's associativity per level from L1, for
                              every later run (records do not keep it)
   Other lines (comments, `excl`, `os`) are left to the caller. Include after
   servet.h (with SERVET_IMPLEMENTATION or not). */
#ifndef SERVET_REPLAY_TEXT_H
#define SERVET_REPLAY_TEXT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct replay_run {
    servet_curve cv, tlb, irm; /* cyclic, TLB, independent references */
    servet_curve *cur;         /* the curve being read (NULL before a c|t|i line) */
    char name[128];
    int ways[8], nways;        /* the last `ways` line's (nways 0: none yet) */
} replay_run;

/* The OS's word on the levels, as a profile's cache objects, from what the
   file and the caller give: per level from L1, the inclusion (excl[k] 1: the
   OS says not inclusive; unsaid: -1), the size and r's `ways`. Returns os,
   or NULL when nothing is said (obj has SERVET__MAX_LEVELS entries). */
static const servet_profile *replay_os(const replay_run *r, const int *excl, int nexcl, const double *size, int nsize,
                                       servet_profile *os, servet__cacheobj *obj) {
    int k, n = nexcl > nsize ? nexcl : nsize;
    if (r->nways > n) n = r->nways;
    if (n > SERVET__MAX_LEVELS) n = SERVET__MAX_LEVELS;
    memset(obj, 0, sizeof obj[0] * SERVET__MAX_LEVELS);
    for (k = 0; k < n; k++) {
        obj[k].level = k + 1;
        obj[k].inclusive = k < nexcl ? (excl[k] ? 0 : 1) : -1;
        obj[k].size = k < nsize ? (uint64_t)size[k] : 0u;
        obj[k].ways = k < r->nways ? r->ways[k] : 0;
    }
    os->cacheobjs = obj;
    os->ncacheobjs = n;
    return n > 0 ? os : NULL;
}

/* reads one line into r; 1 when it ends a run (r holds it), else 0 */
static int replay_line(replay_run *r, const char *line) {
    double b, ns, sp, page;
    char kind;
    if (sscanf(line, "run %127s", r->name) == 1) {
        memset(&r->cv, 0, sizeof r->cv);
        memset(&r->tlb, 0, sizeof r->tlb);
        memset(&r->irm, 0, sizeof r->irm);
        r->cur = NULL;
    } else if (sscanf(line, "%c %lf", &kind, &page) == 2 && (kind == 'c' || kind == 't' || kind == 'i')) {
        r->cur = kind == 'c' ? &r->cv : kind == 't' ? &r->tlb : &r->irm;
        r->cur->page_bytes = page;
    } else if (strncmp(line, "ways ", 5) == 0) {
        const char *c = line + 5;
        char *e;
        for (r->nways = 0; r->nways < 8; r->nways++) {
            long v = strtol(c, &e, 10);
            if (e == c) break;
            r->ways[r->nways] = v > 0 && v < 4096 ? (int)v : 0;
            c = e;
        }
    } else if (strncmp(line, "end", 3) == 0) {
        return 1;
    } else if (r->cur && sscanf(line, "%lf %lf %lf", &b, &ns, &sp) == 3 && r->cur->n < SERVET_CURVE_MAX) {
        r->cur->bytes[r->cur->n] = b;
        r->cur->ns[r->cur->n] = ns;
        r->cur->spread[r->cur->n++] = sp;
    }
    return 0;
}
#endif
