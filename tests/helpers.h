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

/* xorshift64 (Marsaglia): the random tests' generator, a fixed seed each */
SERVET_TEST_UNUSED static uint64_t xorshift64(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

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
   and a read of the same profile (from_file); malloc'ed */
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

/* a profile of a machine this one is not: an hwloc synthetic topology */
SERVET_TEST_UNUSED static servet_profile *synthetic(const char *desc) {
    hwloc_topology_t t;
    servet_profile *p = (servet_profile *)calloc(1, sizeof *p);
    if (hwloc_topology_init(&t) || hwloc_topology_set_synthetic(t, desc) || hwloc_topology_load(t)) {
        fprintf(stderr, "synthetic topology '%s' failed\n", desc);
        exit(2);
    }
    if (servet__topo_extract(p, t) != SERVET_OK) exit(2);
    p->sections = SERVET_PROBE_TOPOLOGY;
    hwloc_topology_destroy(t);
    return p;
}

/* value-returning shorthands over the result-returning comm API, for checks */
SERVET_TEST_UNUSED static double comm_time_or(const servet_profile *p, int a, int b, double bytes) {
    double s = -1.0;
    return servet_comm_time(p, a, b, bytes, &s) == SERVET_OK ? s : -1.0;
}
SERVET_TEST_UNUSED static int comm_layer_or(const servet_profile *p, int a, int b) {
    int l = -1;
    servet_result r = servet_comm_layer_of(p, a, b, &l);
    return r == SERVET_OK ? l : (int)r;
}

#endif
