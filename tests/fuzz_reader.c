/* libFuzzer target for the cache-file reader and the tuning-file reader (make fuzz). Built with
   FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, so CRC mismatches do not stop
   the parser and the fuzzer reaches every section's bounded reader. After a
   successful parse it does what a user does with a profile: accessors, JSON,
   the inference from the stored curves, a placement decision.
   Without libFuzzer (replay mode, make test) main() feeds it every file
   named on the command line or found in the directories given. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_FINGERPRINT "servet-fuzz-fingerprint\ncpu=fuzz\n"
static int accepted;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    servet_profile *p = (servet_profile *)calloc(1, sizeof *p);
    const char *why = "";
    if (!p) return 0;
    if (servet__parse(p, data, size, FUZZ_FINGERPRINT, &why) == SERVET_OK) {
        servet_machine_info m;
        accepted++;
        servet_cache_info c;
        servet_memory_info mi;
        int i, pus[64];
        size_t n = servet_json(p, NULL, 0);
        char *js = (char *)malloc(n + 1);
        if (js) { servet_json(p, js, n + 1); free(js); }
        servet_machine_get(p, &m);
        for (i = 1; i <= servet_cache_count(p); i++) {
            int np, g;
            servet_cache_get(p, i, &c);
            for (g = 0; g < servet_cache_shared_group_count(p, i); g++) servet_cache_shared_group_get(p, i, g, pus, 64, &np);
            for (g = 0; g < servet_cache_reported_group_count(p, i); g++)
                servet_cache_reported_group_get(p, i, g, pus, 64, &np);
            for (g = 0; g < servet_cache_pair_count(p, i); g++) servet_cache_pair_get(p, i, g, NULL, NULL, NULL, NULL);
        }
        servet_memory_get(p, &mi);
        for (i = 1; i <= servet_memory_level_count(p); i++) {
            servet_memory_level_info li;
            int np, g;
            servet_memory_level_get(p, i, &li);
            for (g = 0; g < servet_memory_group_count(p, i); g++) servet_memory_group_get(p, i, g, pus, 64, &np);
        }
        for (i = 0; i < servet_tlb_count(p); i++) { double x; servet_tlb_get(p, i, &x); }
        servet_choose_placement(p, 8, SERVET_PLACE_SPREAD, pus);
        servet_choose_placement(p, 8, SERVET_PLACE_COMPACT, pus);
        servet__infer_profile_caches(p);
        { /* a .comm file: every accessor, every pair's layer and cost */
            servet_comm_info ci;
            servet_comm_layer_info L;
            int a, b, k;
            double x, y, z, u;
            char hn[64];
            if (servet_comm_get(p, &ci) == SERVET_OK) {
                for (i = 0; i < servet_comm_layer_count(p); i++) {
                    servet_comm_layer_get(p, i, &L);
                    for (k = 0; servet_comm_curve_get(p, i, k, &x, &y, &z) == SERVET_OK; k++) {}
                    for (k = 0; servet_comm_scaling_get(p, i, k, &a, &y) == SERVET_OK; k++) {}
                    for (k = 0; servet_comm_aggregation_get(p, i, k, &x, &a, &y, &u) == SERVET_OK; k++) {}
                }
                for (k = 0; servet_comm_pair_get(p, k, &a, &b, &x, &i) == SERVET_OK; k++) {}
                for (a = 0; a < ci.ranks && a < 64; a++) {
                    int node, layer;
                    double t;
                    servet_comm_node_of(p, a, &node, hn, sizeof hn);
                    for (b = 0; b < ci.ranks && b < 64; b++) {
                        servet_comm_layer_of(p, a, b, &layer);
                        servet_comm_time(p, a, b, 1000.0 * (a + 1), &t);
                    }
                }
            }
        }
    }
    servet__clear_measured(p);
    free(p);
    { /* the same bytes as a tuning file (servet_tune's reader) */
        servet__ctx ctx;
        servet__tunefile tf;
        memset(&ctx, 0, sizeof ctx);
        memset(&tf, 0, sizeof tf);
        tf.ctx = &ctx;
        if (servet__parse_image(data, size, FUZZ_FINGERPRINT, &why, servet__tune_section, &tf) == SERVET_OK) {
            servet_tune_desc d;
            int32_t i;
            accepted++;
            memset(&d, 0, sizeof d);
            for (i = 0; i < tf.n; i++) {
                d.key = tf.recs[i].key;
                d.nparams = tf.recs[i].nparams;
                if (d.nparams > 0) d.params[0].name = tf.recs[i].names[0];
                (void)servet__tune_find(&tf, &d);
            }
        }
        servet__free(&ctx, tf.recs);
    }
    return 0;
}

#ifndef SERVET_FUZZ_LIBFUZZER
static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    unsigned char *buf;
    long n;
    if (!f) return 0;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (unsigned char *)malloc((size_t)(n > 0 ? n : 1));
    if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    fclose(f);
    return 1;
}
int main(int argc, char **argv) {
    int i, files = 0;
    for (i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        if (!d) { files += run_file(argv[i]); continue; }
        while ((e = readdir(d)) != NULL) {
            char path[4096];
            if (e->d_name[0] == '.') continue;
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            files += run_file(path);
        }
        closedir(d);
    }
    printf("replayed %d files without a crash, %d accepted by the parser\n", files, accepted);
    /* the valid seeds must parse, or the fuzzer explores nothing but rejection */
    printf("%d passed, %d failed\n", (files > 0) + (accepted >= 2), (files == 0) + (accepted < 2));
    return files > 0 && accepted >= 2 ? 0 : 1;
}
#endif
