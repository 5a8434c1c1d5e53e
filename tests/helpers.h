/* Helpers shared by the test programs (include after servet.h). */
#ifndef SERVET_TEST_HELPERS_H
#define SERVET_TEST_HELPERS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define SERVET_TEST_UNUSED __attribute__((unused))
#else
#define SERVET_TEST_UNUSED
#endif

/* the whole file, malloc'ed, length in *n; NULL if it cannot be read */
SERVET_TEST_UNUSED static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    unsigned char *b;
    long sz;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    b = (unsigned char *)malloc((size_t)sz + 1);
    *n = b ? fread(b, 1, (size_t)sz, f) : 0;
    fclose(f);
    return b;
}

/* the profile as JSON without the one field that differs between a probe
   and a read of the same profile (from_cache_file); malloc'ed */
SERVET_TEST_UNUSED static char *normalized_json(const servet_profile *p) {
    size_t n = servet_json(p, NULL, 0);
    char *s = (char *)malloc(n + 1), *f;
    if (!s) return NULL;
    servet_json(p, s, n + 1);
    if ((f = strstr(s, "\"from_file\":"))) {
        char *v = f + 12, *e = strchr(v, ',');
        if (e) memmove(v, e, strlen(e) + 1);
    }
    return s;
}
/* a topology-only desc on `dir` with a logger: fast opens for file tests */
SERVET_TEST_UNUSED static servet_desc topology_desc(const char *dir, servet_log_fn log) {
    servet_desc d;
    memset(&d, 0, sizeof d);
    d.cache_dir = dir;
    d.probes = SERVET_PROBE_TOPOLOGY;
    d.log = log;
    return d;
}
#endif
