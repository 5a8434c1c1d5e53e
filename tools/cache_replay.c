/* cache_replay: the cache inference, again, on curves a probe recorded.

   bench_data/cache_probe_runs*.json keep every run's three curves (the
   cyclic walk, the TLB walk, the walk of independent references); this
   reads them back (tools/cache_replay.py turns the JSON into the text
   below) and runs servet__infer_curves on them, as the probe does - the
   cyclic inference, the TLB reaches, the second walk's refit - so that a
   change to the inference can be checked on every recorded run in seconds,
   without probing. The OS confirmation is left out, and so are victim
   levels unless an `excl` line says which they are (the records keep no
   inclusion flags; without them a victim level is fitted as one filled by
   its own misses): it prints the raw estimates (estimate_bytes), less the
   level above for a victim level, and their ranges.

   CACHE_REPLAY_TLB=1 also prints the TLB reaches at the end of each line.
   CACHE_REPLAY_MARK=BYTES applies the cyclic sweep's final mark
   (servet__sweep_mark, the probe: 4 MiB) to each recorded curve first, as
   if the probe had marked it so (records before 2026-11-28 had the mark
   against the successor alone); CACHE_REPLAY_MARK_OVER=X its margin over
   the lowest larger point (the probe's: 1.5).

   Input, one run after another:
     excl F1 F2 ...               optional, before the runs it applies to: per
                                  level from L1, 1 = a victim cache (as
                                  servet_infer_exclusive takes it)
     os S1 S2 ...                 optional, before a run (for it alone): the
                                  sizes the OS reported per level from L1, in
                                  bytes, which the second walk's referee reads
                                  (servet__irm_referee); 0 = not reported
     ways W1 W2 ...               optional, before the runs it applies to: the
                                  OS's associativity per level from L1 (the
                                  TLB walk's lines, servet__tlb_lines_ns;
                                  unsaid: 8; read by replay_text.h)
     run NAME
     c|t|i PAGE_BYTES            starts the cyclic, TLB or independent curve
     BYTES NS SPREAD             a point of the curve started last
     end                          infers the run and prints one line
*/
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "replay_text.h"

static int excl[SERVET__MAX_LEVELS], nexcl, nos, print_tlb;
static double os_size[SERVET__MAX_LEVELS];
static double mark_beyond = -1.0, mark_over = SERVET__SWEEP_WIDE_OVER; /* mark_beyond < 0: the curve as recorded */

static void infer_run(const replay_run *r) {
    servet_cache_level lv[SERVET__MAX_LEVELS];
    double next, reach[SERVET__MAX_TLB];
    const servet_curve *cv = &r->cv, *tlb = &r->tlb, *irm = &r->irm;
    const char *name = r->name;
    int n, ntlb, k;
    static servet_profile os; /* the OS's word on inclusion, sizes and ways, as the probe has it */
    static servet__cacheobj obj[SERVET__MAX_LEVELS];
    const servet_profile *said = replay_os(r, excl, nexcl, os_size, nos, &os, obj);
    memset(lv, 0, sizeof lv);
    if (mark_beyond >= 0.0) { /* CACHE_REPLAY_MARK: the sweep's final mark, again, on the recorded curve */
        static servet_curve marked;
        marked = *cv;
        servet__sweep_mark(&marked, SERVET__SWEEP_OVER, mark_beyond, mark_over);
        cv = &marked;
    }
    n = servet__infer_curves(cv, tlb->n > 0 ? tlb : NULL, irm->n > 0 ? irm : NULL, said, lv, &next,
                             reach, &ntlb);
    nos = 0; /* an os line is for one run */
    if (n > 0 && n == nexcl) servet_infer_exclusive(lv, n, excl);
    if (n < 1) {
        printf("%s no levels\n", name);
        return;
    }
    printf("%s", name);
    for (k = 0; k < n; k++)
        printf("  L%d %.0fK [%.0fK %.0fK] %s", k + 1, lv[k].estimate_bytes / 1024.0, lv[k].range_lo_bytes / 1024.0,
               lv[k].range_hi_bytes / 1024.0, servet__method_name(lv[k].method));
    if (print_tlb) { /* CACHE_REPLAY_TLB=1: the TLB reaches too */
        printf("  tlb");
        for (k = 0; k < ntlb; k++) printf(" %.0fK", reach[k] / 1024.0);
    }
    printf("\n");
    fflush(stdout);
}

int main(void) {
    static replay_run r;
    char line[256];
    print_tlb = getenv("CACHE_REPLAY_TLB") && atoi(getenv("CACHE_REPLAY_TLB"));
    if (getenv("CACHE_REPLAY_MARK")) mark_beyond = atof(getenv("CACHE_REPLAY_MARK"));
    if (getenv("CACHE_REPLAY_MARK_OVER")) mark_over = atof(getenv("CACHE_REPLAY_MARK_OVER"));
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "excl", 4) == 0) {
            char *c = line + 4, *e;
            for (nexcl = 0; nexcl < SERVET__MAX_LEVELS; nexcl++) {
                long v = strtol(c, &e, 10);
                if (e == c) break;
                excl[nexcl] = v != 0;
                c = e;
            }
        } else if (strncmp(line, "os ", 3) == 0) {
            char *c = line + 3, *e;
            for (nos = 0; nos < SERVET__MAX_LEVELS; nos++) {
                double v = strtod(c, &e);
                if (e == c) break;
                os_size[nos] = v > 0.0 && v < 1e15 ? v : 0.0;
                c = e;
            }
        } else if (replay_line(&r, line)) {
            infer_run(&r);
        }
    }
    return 0;
}
