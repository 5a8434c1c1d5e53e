/* make bench-accuracy: every SPEC in a directory through the cache probe's
   sweep + inference on the simulator, with 2% noise, in three settings:
   4 KiB pages without colouring, with page colouring, and with a hashed last
   level. Prints true vs detected per level and the overall rate; writes JSON. */
#define _GNU_SOURCE 1
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "cachesim.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void human(double b, char *o, size_t n) {
    if (b >= 1048576) snprintf(o, n, "%.4gM", b / 1048576);
    else snprintf(o, n, "%.4gK", b / 1024);
}

int main(int argc, char **argv) {
    const char *dirname = argc > 1 ? argv[1] : "bench_data/hierarchies";
    const char *out = argc > 2 ? argv[2] : NULL;
    const char *cfgname[3] = {"4K pages, no colouring", "page colouring", "hashed last level"};
    double noise = 0.02;
    uint64_t seed_base = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000u;
    DIR *dir = opendir(dirname);
    struct dirent *e;
    char *names[256];
    int nn = 0, i, c, right[3] = {0}, total[3] = {0}, extra[3] = {0};
    FILE *jf = out ? fopen(out, "w") : NULL;
    double t0 = servet__now();
    if (!dir) { fprintf(stderr, "bench_accuracy: cannot open %s\n", dirname); return 1; }
    while ((e = readdir(dir)) && nn < 256) {
        size_t l = strlen(e->d_name);
        if (l > 5 && !strcmp(e->d_name + l - 5, ".spec")) names[nn++] = strdup(e->d_name);
    }
    closedir(dir);
    qsort(names, (size_t)nn, sizeof *names, cmpstr);
    if (jf) fprintf(jf, "{\"benchmark\":\"cache probe inference on simulated hierarchies\",\"noise\":%.3f,\"results\":[", noise);
    printf("%-26s %-24s %-40s %-40s %s\n", "hierarchy", "setting", "true", "detected", "right");
    for (i = 0; i < nn; i++) {
        char path[1024], err[256];
        sim_spec base;
        snprintf(path, sizeof path, "%s/%s", dirname, names[i]);
        if (!sim_load_spec(path, &base, err, sizeof err)) { fprintf(stderr, "%s: %s\n", path, err); return 1; }
        for (c = 0; c < 3; c++) {
            sim_spec sp = base;
            servet_curve *cv = (servet_curve *)calloc(1, sizeof *cv);
            servet_cache_level lv[SIM_MAX_LEVELS];
            char ts[256] = "", ds[256] = "", h[32];
            int k, j, ok = 0;
            sp.noise = noise;
            sp.seed = seed_base + (uint64_t)i * 7u + (uint64_t)c;
            sp.coloring = c == 1;
            if (c == 2) sp.lv[sp.nlevels - 1].hash = 1;
            k = sim_detect(&sp, cv, lv, SIM_MAX_LEVELS);
            for (j = 0; j < sp.nlevels; j++) {
                human(sp.lv[j].size, h, sizeof h);
                strcat(ts, h); strcat(ts, " ");
                if (j < k && fabs(lv[j].size_bytes / sp.lv[j].size - 1.0) <= 0.05) ok++;
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
    for (c = 0; c < 3; c++)
        printf("%-24s %d/%d levels right (%.1f%%), %d extra levels\n", cfgname[c], right[c], total[c],
               100.0 * right[c] / total[c], extra[c]);
    printf("overall: %d/%d = %.1f%%  (Servet 2010: 140/147 = 95%%)   %.0f s\n", right[0] + right[1] + right[2],
           total[0] + total[1] + total[2], 100.0 * (right[0] + right[1] + right[2]) / (total[0] + total[1] + total[2]),
           servet__now() - t0);
    if (jf) {
        fprintf(jf, "],\"summary\":{");
        for (c = 0; c < 3; c++) fprintf(jf, "\"%s\":{\"right\":%d,\"total\":%d,\"extra\":%d},", cfgname[c], right[c], total[c], extra[c]);
        fprintf(jf, "\"overall_rate\":%.4f}}\n", (double)(right[0] + right[1] + right[2]) / (total[0] + total[1] + total[2]));
        fclose(jf);
    }
    for (i = 0; i < nn; i++) free(names[i]);
    return 0;
}
