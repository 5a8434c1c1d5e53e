/* The cache file: round trip, every truncation, 1,000 random bit flips,
   wrong magic/version/byte order, directory in place of the file, an
   unwritable directory, a symlink, the allocator hook, section merging. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include "helpers.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];
static int warnings;
static char last_warning[1024];

static void logger(void *user, servet_log_level lv, const char *msg) {
    (void)user;
    if (lv <= SERVET_LOG_WARN) {
        warnings++;
        snprintf(last_warning, sizeof last_warning, "%s", msg);
    }
}

static servet_desc desc_for(const char *dir) { return topology_desc(dir, logger); }

static void spit(const char *path, const unsigned char *d, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(2); }
    fwrite(d, 1, n, f);
    fclose(f);
}

/* open with no_probe: OK means the file was accepted */
static servet_result open_cached(const char *dir, servet_profile **p) {
    servet_desc d = desc_for(dir);
    d.no_probe = 1;
    return servet_open(p, &d);
}

static void test_round_trip_and_damage(void) {
    char dir[300], path[4300];
    servet_desc d;
    servet_profile *p = NULL, *q = NULL;
    servet_machine_info m;
    unsigned char *good, *bad;
    size_t n, i;
    int accepted, flips;
    char *j1, *j2;
    uint64_t rng = 42;
    snprintf(dir, sizeof dir, "%s/rt", root);
    d = desc_for(dir);
    CHECK(servet_open(&p, &d) == SERVET_OK, "first open probes");
    servet_machine_get(p, &m);
    CHECK(!m.from_file && m.pus >= 1 && m.cores >= 1, "probed: pus %d", m.pus);
    CHECK(servet_open(&q, &d) == SERVET_OK, "second open");
    servet_machine_get(q, &m);
    CHECK(m.from_file, "second open reads the file");
    j1 = normalized_json(p);
    j2 = normalized_json(q);
    CHECK(strcmp(j1, j2) == 0, "round trip gives the same profile");
    free(j1); free(j2);
    servet_close(p);
    servet_close(q);
    servet_cache_path(&d, path, sizeof path);
    {
        struct stat st;
        CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "file mode 0600");
        CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700, "directory mode 0700");
    }
    good = slurp(path, &n);
    CHECK(good && n > 64, "file read back (%zu bytes)", n);
    if (!good) return;

    /* every truncation length is rejected, never a crash */
    accepted = 0;
    for (i = 0; i < n; i++) {
        spit(path, good, i);
        if (open_cached(dir, &p) == SERVET_OK) { accepted++; servet_close(p); }
    }
    CHECK(accepted == 0, "%d of %zu truncations accepted", accepted, n);

    /* 1,000 random single-bit flips are all rejected */
    bad = (unsigned char *)malloc(n);
    accepted = 0;
    for (flips = 0; flips < 1000; flips++) {
        size_t bit = (size_t)(servet__rng_next(&rng) % (n * 8));
        memcpy(bad, good, n);
        bad[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        spit(path, bad, n);
        if (open_cached(dir, &p) == SERVET_OK) { accepted++; servet_close(p); }
    }
    CHECK(accepted == 0, "%d of 1000 bit flips accepted", accepted);

    /* a defect that keeps every CRC right: wrong magic, version, byte order */
    {
        struct { int off; uint32_t val; const char *what; } cases[] = {
            {8, SERVET_FORMAT_VERSION + 1u, "next format version"}, {12, 0x04030201u, "swapped byte-order mark"}};
        int c;
        for (c = 0; c < 2; c++) {
            uint32_t crc;
            memcpy(bad, good, n);
            memcpy(bad + cases[c].off, &cases[c].val, 4);
            crc = servet__crc32(0, bad, 44);
            crc = servet__crc32(crc, bad + 48, 8);
            { uint32_t fl; memcpy(&fl, bad + 20, 4); crc = servet__crc32(crc, bad + 56, fl); }
            memcpy(bad + 44, &crc, 4);
            spit(path, bad, n);
            warnings = 0;
            CHECK(open_cached(dir, &p) == SERVET_ERROR_NOT_CACHED, "%s rejected", cases[c].what);
            CHECK(warnings > 0, "%s logged", cases[c].what);
        }
        memcpy(bad, good, n);
        memcpy(bad, "NOTSERVT", 8);
        spit(path, bad, n);
        CHECK(open_cached(dir, &p) == SERVET_ERROR_NOT_CACHED, "wrong magic rejected");
        /* a foreign fingerprint: another machine's file under our name */
        memcpy(bad, good, n);
        bad[56 + 25] ^= 1; /* inside the fingerprint text, CRC fixed up */
        {
            uint32_t crc = servet__crc32(0, bad, 44), fl;
            crc = servet__crc32(crc, bad + 48, 8);
            memcpy(&fl, bad + 20, 4);
            crc = servet__crc32(crc, bad + 56, fl);
            memcpy(bad + 44, &crc, 4);
        }
        spit(path, bad, n);
        CHECK(open_cached(dir, &p) == SERVET_ERROR_NOT_CACHED, "foreign fingerprint rejected");
    }
    /* a damaged file is replaced by a good one on the next probing open */
    spit(path, good, n / 2);
    d = desc_for(dir);
    CHECK(servet_open(&p, &d) == SERVET_OK, "re-probe after damage");
    servet_close(p);
    CHECK(open_cached(dir, &p) == SERVET_OK, "file rewritten and valid");
    servet_close(p);
    free(bad);
    free(good);
}

static void test_directory_and_symlink(void) {
    char dir[300], path[4300], target[400];
    servet_desc d;
    servet_profile *p = NULL;
    servet_machine_info m;
    unsigned char *before, *after;
    size_t nb, na;
    /* a directory where the file should be */
    snprintf(dir, sizeof dir, "%s/dirfile", root);
    d = desc_for(dir);
    servet_cache_path(&d, path, sizeof path);
    mkdir(dir, 0700);
    mkdir(path, 0700);
    warnings = 0;
    CHECK(servet_open(&p, &d) == SERVET_OK, "directory in place of file: profile still returned");
    servet_machine_get(p, &m);
    CHECK(!m.from_file && m.pus >= 1 && warnings > 0, "probed, warned (%s)", last_warning);
    servet_close(p);

    /* unwritable directory: a regular file as a path component */
    snprintf(dir, sizeof dir, "%s/plainfile", root);
    spit(dir, (const unsigned char *)"x", 1);
    snprintf(dir, sizeof dir, "%s/plainfile/sub", root);
    d = desc_for(dir);
    warnings = 0;
    CHECK(servet_open(&p, &d) == SERVET_OK, "unwritable directory: profile still returned");
    servet_machine_get(p, &m);
    CHECK(m.pus >= 1 && warnings > 0, "and a warning (%s)", last_warning);
    servet_close(p);

    /* a symlink in place of the file is refused and its target untouched */
    snprintf(dir, sizeof dir, "%s/link", root);
    d = desc_for(dir);
    CHECK(servet_open(&p, &d) == SERVET_OK, "make a valid file");
    servet_close(p);
    servet_cache_path(&d, path, sizeof path);
    snprintf(target, sizeof target, "%s/target.prof", root);
    rename(path, target);
    CHECK(symlink(target, path) == 0, "symlink created");
    before = slurp(target, &nb);
    warnings = 0;
    CHECK(open_cached(dir, &p) == SERVET_ERROR_NOT_CACHED, "symlink refused");
    CHECK(warnings > 0 && strstr(last_warning, "symlink") != NULL, "symlink warning: %s", last_warning);
    CHECK(servet_open(&p, &d) == SERVET_OK, "probing open still works");
    servet_close(p);
    after = slurp(target, &na);
    CHECK(before && after && nb == na && memcmp(before, after, nb) == 0, "symlink target unchanged");
    free(before);
    free(after);
}

static long n_alloc, n_free;
static void *count_alloc(void *u, size_t n) { (void)u; n_alloc++; return malloc(n); }
static void count_free(void *u, void *ptr) { (void)u; if (ptr) n_free++; free(ptr); }

static void test_allocator_and_flags(void) {
    char dir[300];
    servet_desc d;
    servet_profile *p = NULL;
    servet_machine_info m;
    snprintf(dir, sizeof dir, "%s/alloc", root);
    d = desc_for(dir);
    d.allocator.alloc = count_alloc;
    d.allocator.free = count_free;
    CHECK(servet_open(&p, &d) == SERVET_OK, "open with allocator");
    servet_close(p);
    CHECK(servet_open(&p, &d) == SERVET_OK, "warm open with allocator");
    servet_close(p);
    CHECK(n_alloc > 0 && n_alloc == n_free, "every allocation freed: %ld allocs, %ld frees", n_alloc, n_free);
    d.allocator.free = NULL;
    CHECK(servet_open(&p, &d) == SERVET_ERROR_INVALID_ARGUMENT, "alloc without free rejected");

    snprintf(dir, sizeof dir, "%s/empty", root);
    d = desc_for(dir);
    d.no_probe = 1;
    CHECK(servet_open(&p, &d) == SERVET_ERROR_NOT_CACHED && p == NULL, "no_probe on an empty dir");
    d.no_probe = 0;
    d.no_save = 1;
    CHECK(servet_open(&p, &d) == SERVET_OK, "no_save probes");
    servet_close(p);
    d.no_save = 0;
    d.no_probe = 1;
    CHECK(servet_open(&p, &d) == SERVET_ERROR_NOT_CACHED, "no_save wrote nothing");
    d.no_probe = 0;
    CHECK(servet_open(&p, &d) == SERVET_OK, "probe");
    servet_close(p);
    d.force = 1;
    CHECK(servet_open(&p, &d) == SERVET_OK, "force");
    servet_machine_get(p, &m);
    CHECK(!m.from_file, "force re-probes");
    servet_close(p);
}

static void test_env_dir(void) {
    char dir[300], path[4300];
    snprintf(dir, sizeof dir, "%s/envdir", root);
    setenv("SERVET_CACHE_DIR", dir, 1);
    servet_cache_path(NULL, path, sizeof path);
    CHECK(strncmp(path, dir, strlen(dir)) == 0 && strstr(path, "/servet-") != NULL, "SERVET_CACHE_DIR: %s", path);
    unsetenv("SERVET_CACHE_DIR");
    setenv("XDG_CACHE_HOME", root, 1);
    servet_cache_path(NULL, path, sizeof path);
    snprintf(dir, sizeof dir, "%s/servet/servet-", root);
    CHECK(strncmp(path, dir, strlen(dir)) == 0, "XDG_CACHE_HOME: %s", path);
    unsetenv("XDG_CACHE_HOME");
}

/* sections merge: a topology-only file gains a cache section and keeps it */
static void test_merge(void) {
    char dir[300];
    servet_desc d;
    servet_profile *p = NULL;
    servet_machine_info m;
    servet_cache_info c;
    snprintf(dir, sizeof dir, "%s/merge", root);
    d = desc_for(dir);
    CHECK(servet_open(&p, &d) == SERVET_OK, "topology only");
    servet_close(p);
    d.probes = SERVET_PROBE_CACHE;
    d.quick = 1;
    d.cache_max_bytes = 4u << 20;
    CHECK(servet_open(&p, &d) == SERVET_OK, "add the cache probe (quick, 4 MiB)");
    servet_machine_get(p, &m);
    CHECK(!m.from_file && (m.probes & SERVET_PROBE_CACHE), "cache section present");
    CHECK(servet_cache_get(p, 1, &c) == SERVET_OK && c.size_bytes > 0 && c.latency_ns > 0, "L1 measured: %llu bytes",
          (unsigned long long)c.size_bytes);
    servet_close(p);
    d.probes = SERVET_PROBE_TOPOLOGY;
    d.no_probe = 1;
    CHECK(servet_open(&p, &d) == SERVET_OK, "reopen for topology");
    servet_machine_get(p, &m);
    CHECK(m.from_file && (m.probes & SERVET_PROBE_CACHE), "cache section kept in the file");
    servet_close(p);
}

/* The memory section's interleaved-read bandwidth (2026-12-02) and its
   store walk's two figures (2026-12-08) are its last fields, in that
   order: a section written before them (without those 8 or 24 bytes)
   still reads, as "not measured"; a negative value is refused */
static void test_memory_interleave_field(void) {
    servet_profile *p = synthetic("pack:1 core:1 pu:1"), *q = synthetic("pack:1 core:1 pu:1");
    servet__wbuf w;
    servet__rbuf r;
    double bad = -1.0;
    int k;
    memset(&w, 0, sizeof w);
    w.ctx = &p->ctx;
    p->memory = (servet__memory *)calloc(1, sizeof *p->memory);
    p->memory->ref_bw = 35e9;
    p->memory->tolerance = 0.1;
    p->memory->interleave = 21e9;
    p->memory->store_pages = 32.0;
    p->memory->store_miss_ns = 0.14;
    servet__write_memory(&w, p);
    CHECK(!w.oom && w.len >= 24, "memory section written (%zu bytes)", w.len);
    r.d = w.d; r.len = w.len; r.pos = 0; r.bad = 0;
    servet__read_memory(&r, q);
    CHECK(!r.bad && r.pos == r.len && q->memory && q->memory->interleave == 21e9 && q->memory->ref_bw == 35e9 &&
              q->memory->store_pages == 32.0 && q->memory->store_miss_ns == 0.14,
          "read back: 21 GB/s, stores at pace over 32 rows, 0.14 ns past them");
    servet__free_memory(q);
    r.d = w.d; r.len = w.len - 16; r.pos = 0; r.bad = 0; /* as written before the store walk */
    servet__read_memory(&r, q);
    CHECK(!r.bad && r.pos == r.len && q->memory && q->memory->interleave == 21e9 && q->memory->store_pages == 0.0 &&
              q->memory->store_miss_ns == 0.0,
          "without the store walk: read, the walk not measured");
    servet__free_memory(q);
    r.d = w.d; r.len = w.len - 24; r.pos = 0; r.bad = 0; /* as written before the interleaved reads */
    servet__read_memory(&r, q);
    CHECK(!r.bad && r.pos == r.len && q->memory && q->memory->interleave == 0.0 && q->memory->store_pages == 0.0,
          "without the fields: read, not measured");
    servet__free_memory(q);
    for (k = 0; k < 3; k++) { /* each of the three fields negative */
        unsigned char keep[8];
        size_t at = w.len - 24 + 8 * (size_t)k;
        memcpy(keep, w.d + at, 8);
        memcpy(w.d + at, &bad, 8);
        r.d = w.d; r.len = w.len; r.pos = 0; r.bad = 0;
        servet__read_memory(&r, q);
        CHECK(r.bad, "field %d of the three last at -1: refused", k);
        servet__free_memory(q);
        memcpy(w.d + at, keep, 8);
    }
    servet__free(&p->ctx, w.d);
    free(p->memory);
    p->memory = NULL;
    servet_close(p);
    servet_close(q);
}

/* A profile whose cache probe lost a level (servet.h servet__cache_lost_level:
   an L3's step named L2, the OS's L3 unmeasured) is kept in the file as
   measured; every open that reads it says so through the logger, not only
   the probe that measured it. The file is this machine's (its fingerprint),
   its OS caches and levels set to the Zen 5 VM's lost probe of 2026-12-07;
   its cache section is the one test_merge probed (read from merge_dir, not
   probed twice). */
static void test_lost_level_on_open(const char *merge_dir) {
    char dir[300], path[4300], fp[SERVET__FP_MAX];
    servet_desc d;
    servet_profile *p = NULL;
    servet_machine_info m;
    d = desc_for(merge_dir);
    d.probes = SERVET_PROBE_CACHE;
    d.no_probe = 1;
    CHECK(servet_open(&p, &d) == SERVET_OK && p, "test_merge's cache section, read from its file");
    if (!p) return;
    snprintf(dir, sizeof dir, "%s/lost", root);
    mkdir(dir, 0700); /* servet__save writes into an existing directory (servet_open makes it) */
    d.cache_dir = dir;
    if (p->ncacheobjs < 3) {
        CHECK(servet__cache_lost_level(p) == 0, "fewer than 3 OS cache objects here (%d): nothing lost to say",
              p->ncacheobjs);
        servet_close(p);
        return;
    }
    p->cacheobjs[0].level = 1; p->cacheobjs[0].size = 49152;
    p->cacheobjs[1].level = 2; p->cacheobjs[1].size = 1048576;
    p->cacheobjs[2].level = 3; p->cacheobjs[2].size = (uint64_t)508 << 20;
    p->ncacheobjs = 3; /* whatever else this machine's OS lists (per-instance objects, an L4) */
    p->nlevels = 2;
    p->levels[0].size_bytes = 49152.0;
    p->levels[0].latency = 1.17;
    p->levels[1].size_bytes = 3473408.0;
    p->levels[1].latency = 17.41;
    CHECK(servet__cache_lost_level(p) == 2, "the crafted profile has L2 lost");
    servet_cache_path(&d, path, sizeof path);
    servet__fingerprint(fp, sizeof fp);
    CHECK(servet__save(p, dir, path, fp) == SERVET_OK, "written to %s", path);
    servet_close(p);
    p = NULL;
    warnings = 0;
    last_warning[0] = 0;
    CHECK(servet_open(&p, &d) == SERVET_OK && p, "read back");
    if (!p) return;
    servet_machine_get(p, &m);
    CHECK(m.from_file, "from the file, no probe");
    CHECK(warnings == 1 && !strncmp(last_warning, "cache file: L2 measured 3.31 MiB", 32) && strstr(last_warning, "--force"),
          "the open says so (%d warnings): %s", warnings, last_warning);
    servet_close(p);
    /* the sizes stay as measured: a decision reads them as the probe left them */
    p = NULL;
    warnings = 0;
    d.log = NULL;
    CHECK(servet_open(&p, &d) == SERVET_OK && p && servet__cache_lost_level(p) == 2 && warnings == 0,
          "without a logger the same profile opens, silently");
    servet_close(p);
}

int main(void) {
    snprintf(root, sizeof root, "/tmp/servet-test-file-%ld", (long)getpid());
    mkdir(root, 0700);
    test_round_trip_and_damage();
    test_directory_and_symlink();
    test_allocator_and_flags();
    test_env_dir();
    test_merge();
    test_memory_interleave_field();
    {
        char merge_dir[300];
        snprintf(merge_dir, sizeof merge_dir, "%s/merge", root); /* test_merge's file, with its cache section */
        test_lost_level_on_open(merge_dir);
    }
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd) != 0) fprintf(stderr, "cleanup failed\n");
    }
    TEST_SUMMARY();
}
