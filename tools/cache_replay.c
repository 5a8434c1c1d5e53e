/* cache_replay: the cache inference, again, on curves a probe recorded.

   bench_data/cache_probe_runs*.json keep every run's three curves (the
   cyclic walk, the TLB walk, the walk of independent references); this
   reads them back (tools/cache_replay.py turns the JSON into the text
   below) and runs servet__infer_curves on them, as the probe does - the
   cyclic inference, the TLB reaches, the second walk's refit - so that a
   change to the inference can be checked on every recorded run in seconds,
   without probing. Exclusive levels and the OS confirmation are left out
   (the records keep no inclusion flags, so a victim level is fitted as
   one filled by its own misses): it prints the raw estimates
   (estimate_bytes) and their ranges.

   Input, one run after another:
     run NAME
     c|t|i PAGE_BYTES            starts the cyclic, TLB or independent curve
     BYTES NS SPREAD             a point of the curve started last
     end                          infers the run and prints one line
*/
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <string.h>

static void infer_run(const char *name, const servet_curve *cv, const servet_curve *tlb, const servet_curve *irm) {
    servet_cache_level lv[SERVET__MAX_LEVELS];
    double next, reach[SERVET__MAX_TLB];
    int n, ntlb, k;
    memset(lv, 0, sizeof lv);
    n = servet__infer_curves(cv, tlb->n > 0 ? tlb : NULL, irm->n > 0 ? irm : NULL, NULL, lv, &next, reach, &ntlb);
    if (n < 1) {
        printf("%s no levels\n", name);
        return;
    }
    printf("%s", name);
    for (k = 0; k < n; k++)
        printf("  L%d %.0fK [%.0fK %.0fK] %s", k + 1, lv[k].estimate_bytes / 1024.0, lv[k].range_lo_bytes / 1024.0,
               lv[k].range_hi_bytes / 1024.0, servet__method_name(lv[k].method));
    printf("\n");
    fflush(stdout);
}

int main(void) {
    static servet_curve cv, tlb, irm;
    servet_curve *cur = NULL;
    char line[256], name[128] = "";
    while (fgets(line, sizeof line, stdin)) {
        double b, ns, sp, page;
        char kind;
        if (sscanf(line, "run %127s", name) == 1) {
            memset(&cv, 0, sizeof cv);
            memset(&tlb, 0, sizeof tlb);
            memset(&irm, 0, sizeof irm);
            cur = NULL;
        } else if (sscanf(line, "%c %lf", &kind, &page) == 2 && (kind == 'c' || kind == 't' || kind == 'i')) {
            cur = kind == 'c' ? &cv : kind == 't' ? &tlb : &irm;
            cur->page_bytes = page;
        } else if (strncmp(line, "end", 3) == 0) {
            infer_run(name, &cv, &tlb, &irm);
        } else if (cur && sscanf(line, "%lf %lf %lf", &b, &ns, &sp) == 3 && cur->n < SERVET_CURVE_MAX) {
            cur->bytes[cur->n] = b;
            cur->ns[cur->n] = ns;
            cur->spread[cur->n++] = sp;
        }
    }
    return 0;
}
