/* make bench-accuracy: every SPEC in a directory through the cache probe's
   sweep + inference on the simulator, with 2% noise, in three settings:
   4 KiB pages without colouring, with page colouring, and with a hashed last
   level. Prints true vs detected per level and the overall rate; writes JSON.
       bench_accuracy [DIR [OUT.json [SEED [POLICIES [VARIANTS]]]]]
   POLICIES (a comma list of lru,plru,nru,random,srrip) replaces the three
   settings by one per policy (every level replaced so) and VARIANT (a comma
   list, default 4k): 4k (4 KiB pages), backing (2 MiB pages the probe
   believes, placed per 4 KiB: a VM), exclusive (the last level a victim
   cache of the one above), hashed (the last level hashed) - issue 14.
   BENCH_ACCURACY_ONLY=spec,spec (names without .spec): those hierarchies
   alone, each with the seeds it has in the whole directory's run. */
#define _GNU_SOURCE 1
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "cachesim.h"
#include "bench_cpu.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* the comma list names s (its first n characters) */
static int in_list(const char *list, const char *s, size_t n) {
    const char *w;
    for (w = list; *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ','))
        if (strcspn(w, ",") == n && !strncmp(w, s, n)) return 1;
    return 0;
}

static void human(double b, char *o, size_t n) {
    if (b >= 1048576) snprintf(o, n, "%.4gM", b / 1048576);
    else snprintf(o, n, "%.4gK", b / 1024);
}

int main(int argc, char **argv) {
    const char *dirname = argc > 1 ? argv[1] : "bench_data/hierarchies";
    const char *out = argc > 2 ? argv[2] : NULL;
    typedef struct setting { char name[64]; int repl, coloring, hash_last, excl_last; double page, backing; } setting;
    setting cfg[32];
    int ncfg = 0;
    char cfgname[32][64];
    double noise = 0.02;
    uint64_t seed_base = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000u;
    DIR *dir = opendir(dirname);
    struct dirent *e;
    char *names[256];
    int nn = 0, i, c, right[32] = {0}, total[32] = {0}, extra[32] = {0};
    FILE *jf = out ? fopen(out, "w") : NULL;
    const char *only = getenv("BENCH_ACCURACY_ONLY");
    double t0 = servet__now();
    if (!dir) { fprintf(stderr, "bench_accuracy: cannot open %s\n", dirname); return 1; }
    memset(cfg, 0, sizeof cfg);
    if (argc > 4) {
        static const char *const pol[] = {"lru", "plru", "nru", "random", "srrip"};
        const char *variants = argc > 5 ? argv[5] : "4k";
        int q;
        for (q = 0; q < 5; q++) {
            const char *v;
            if (!in_list(argv[4], pol[q], strlen(pol[q]))) continue;
            for (v = variants; *v && ncfg < 32; v += strcspn(v, ",") + (v[strcspn(v, ",")] == ',')) {
                setting *t = &cfg[ncfg];
                size_t n = strcspn(v, ",");
                t->repl = q;
                t->page = 4096;
                if (n == 2 && !strncmp(v, "4k", 2)) snprintf(t->name, sizeof t->name, "%s, 4K pages", pol[q]);
                else if (n == 7 && !strncmp(v, "backing", 7)) { t->page = 2097152; t->backing = 4096; snprintf(t->name, sizeof t->name, "%s, 2M pages on 4K", pol[q]); }
                else if (n == 9 && !strncmp(v, "exclusive", 9)) { t->excl_last = 1; snprintf(t->name, sizeof t->name, "%s, exclusive last", pol[q]); }
                else if (n == 6 && !strncmp(v, "hashed", 6)) { t->hash_last = 1; snprintf(t->name, sizeof t->name, "%s, hashed last", pol[q]); }
                else { fprintf(stderr, "bench_accuracy: unknown variant %.*s\n", (int)n, v); return 2; }
                ncfg++;
            }
        }
        if (!ncfg) { fprintf(stderr, "bench_accuracy: no policy in %s\n", argv[4]); return 2; }
    } else {
        snprintf(cfg[0].name, sizeof cfg[0].name, "4K pages, no colouring");
        snprintf(cfg[1].name, sizeof cfg[1].name, "page colouring");
        snprintf(cfg[2].name, sizeof cfg[2].name, "hashed last level");
        cfg[1].coloring = cfg[2].hash_last = 1;
        cfg[0].page = cfg[1].page = cfg[2].page = 0; /* the spec's */
        ncfg = 3;
    }
    for (c = 0; c < ncfg; c++) memcpy(cfgname[c], cfg[c].name, sizeof cfgname[c]);
    while ((e = readdir(dir)) && nn < 256) {
        size_t l = strlen(e->d_name);
        if (l > 5 && !strcmp(e->d_name + l - 5, ".spec")) names[nn++] = strdup(e->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)nn, sizeof *names, cmpstr);
    if (jf) {
        char cpu[384];
        cpu_name_proc(cpu, sizeof cpu);
        fprintf(jf, "{\"benchmark\":\"cache probe inference on simulated hierarchies\",\"simulated_on\":\"%s\",\"noise\":%.3f,\"results\":[",
                cpu, noise);
    }
    printf("%-26s %-24s %-40s %-40s %s\n", "hierarchy", "setting", "true", "detected", "right");
    for (i = 0; i < nn; i++) {
        char path[1024], err[256];
        sim_spec base;
        /* BENCH_ACCURACY_ONLY=a,b: those specs alone, each with the seeds it
           has in the whole directory (to rerun a few cases of a long run) */
        if (only && !in_list(only, names[i], strlen(names[i]) - 5)) continue;
        snprintf(path, sizeof path, "%s/%s", dirname, names[i]);
        if (!sim_load_spec(path, &base, err, sizeof err)) { fprintf(stderr, "%s: %s\n", path, err); return 1; }
        for (c = 0; c < ncfg; c++) {
            sim_spec sp = base;
            servet_curve *cv = (servet_curve *)calloc(1, sizeof *cv);
            servet_cache_level lv[SIM_MAX_LEVELS];
            char ts[256] = "", ds[256] = "", h[32];
            int k, j, ok = 0;
            sp.noise = noise;
            sp.seed = seed_base + (uint64_t)i * 7u + (uint64_t)c;
            sp.coloring = cfg[c].coloring;
            if (cfg[c].hash_last) sp.lv[sp.nlevels - 1].hash = 1;
            if (cfg[c].excl_last && sp.nlevels > 1) sp.lv[sp.nlevels - 1].incl = SIM_EXCLUSIVE;
            if (cfg[c].page > 0) sp.page = cfg[c].page;
            sp.backing = cfg[c].backing;
            if (argc > 4) for (j = 0; j < sp.nlevels; j++) sp.lv[j].repl = cfg[c].repl;
            k = sim_detect(&sp, cv, lv, SIM_MAX_LEVELS);
            for (j = 0; j < sp.nlevels; j++) {
                human(sp.lv[j].size, h, sizeof h);
                strcat(ts, h); strcat(ts, " ");
                /* within 5%, the bound included: 28.5 MiB for 30 MiB is 0.95 exactly,
                   and 1 - 28.5/30 rounds to 0.050000000000000044 */
                if (j < k && fabs(lv[j].size_bytes / sp.lv[j].size - 1.0) <= 0.05 + 1e-12) ok++;
            }
            for (j = 0; j < k; j++) { human(lv[j].size_bytes, h, sizeof h); strcat(ds, h); strcat(ds, " "); }
            right[c] += ok;
            total[c] += sp.nlevels;
            if (k > sp.nlevels) extra[c] += k - sp.nlevels;
            printf("%-26.*s %-24s %-40s %-40s %d/%d%s\n", (int)strlen(names[i]) - 5, names[i], cfgname[c], ts, ds, ok,
                   sp.nlevels, k > sp.nlevels ? " (+extra)" : "");
            if (jf) {
                fprintf(jf, "%s{\"spec\":\"%s\",\"setting\":\"%s\",\"true\":[", (i || c) ? "," : "", names[i], cfgname[c]);
                for (j = 0; j < sp.nlevels; j++) fprintf(jf, "%s%.0f", j ? "," : "", sp.lv[j].size);
                fprintf(jf, "],\"detected\":[");
                for (j = 0; j < k; j++) fprintf(jf, "%s%.0f", j ? "," : "", lv[j].size_bytes);
                fprintf(jf, "],\"right\":%d,\"points\":%d}", ok, cv->n);
            }
            free(cv);
        }
    }
    printf("\n");
    {
        int R = 0, T = 0;
        for (c = 0; c < ncfg; c++) {
            printf("%-24s %d/%d levels right (%.1f%%), %d extra levels\n", cfgname[c], right[c], total[c],
                   100.0 * right[c] / total[c], extra[c]);
            R += right[c];
            T += total[c];
        }
        printf("overall: %d/%d = %.1f%%  (Servet 2010: 140/147 = 95%%)   %.0f s\n", R, T, 100.0 * R / T, servet__now() - t0);
        if (jf) {
            fprintf(jf, "],\"summary\":{");
            for (c = 0; c < ncfg; c++) fprintf(jf, "\"%s\":{\"right\":%d,\"total\":%d,\"extra\":%d},", cfgname[c], right[c], total[c], extra[c]);
            fprintf(jf, "\"overall_rate\":%.4f}}\n", (double)R / T);
            fclose(jf);
        }
    }
    for (i = 0; i < nn; i++) free(names[i]);
    return 0;
}
