/* Fault injection: allocator failure at every allocation site, a full disk
   while the cache file is written, SIGKILL while it is written, hwloc
   failing. Prints a table: fault, runs, outcome. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include "helpers.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char root[256];
static char table[8192];
static void row(const char *fault, int runs, const char *outcome) {
    char line[512];
    snprintf(line, sizeof line, "| %-50s | %5d | %s\n", fault, runs, outcome);
    strncat(table, line, sizeof table - strlen(table) - 1);
}

static int warnings, rejected;
static void logger(void *u, servet_log_level lv, const char *msg) {
    (void)u;
    if (lv <= SERVET_LOG_WARN) warnings++;
    if (strstr(msg, "rejected")) rejected++;
}

/* ---- allocator that fails the n-th allocation ---- */
static long a_count, f_count, fail_at;
static void *f_alloc(void *u, size_t n) {
    (void)u;
    if (++a_count == fail_at) return NULL;
    return malloc(n);
}
static void f_free(void *u, void *p) { (void)u; if (p) f_count++; free(p); }

static servet_desc base_desc(const char *dir) { return topology_desc(dir, logger); }

static void test_alloc_failures(void) {
    char dir[300];
    servet_desc d;
    servet_profile *p = NULL;
    long k;
    int phase;
    snprintf(dir, sizeof dir, "%s/alloc", root);
    for (phase = 0; phase < 2; phase++) { /* 0: cold (probe + save), 1: warm (read) */
        long sites;
        int ok = 0, oom = 0, other = 0, leaks = 0;
        char sub[320], out[256];
        snprintf(sub, sizeof sub, "%s%d", dir, phase);
        d = base_desc(sub);
        d.allocator.alloc = f_alloc;
        d.allocator.free = f_free;
        if (phase == 1) { fail_at = -1; servet_open(&p, &d); servet_close(p); }
        /* count the allocation sites of a successful open */
        fail_at = -1; a_count = f_count = 0;
        d.force = phase == 0;
        CHECK(servet_open(&p, &d) == SERVET_OK, "reference open");
        servet_close(p);
        sites = a_count;
        for (k = 1; k <= sites; k++) {
            servet_result r;
            a_count = f_count = 0;
            fail_at = k;
            p = NULL;
            r = servet_open(&p, &d);
            if (r == SERVET_OK) { ok++; servet_close(p); }
            else if (r == SERVET_ERROR_OUT_OF_MEMORY) { oom++; CHECK(p == NULL, "no profile on failure"); }
            else other++;
            if (a_count - (a_count >= fail_at ? 1 : 0) != f_count) leaks++;
        }
        CHECK(other == 0, "%d failures gave another error than OUT_OF_MEMORY", other);
        CHECK(leaks == 0, "%d runs leaked", leaks);
        CHECK(oom > 0, "allocation failures were reported: %d", oom);
        snprintf(out, sizeof out, "%d SERVET_ERROR_OUT_OF_MEMORY, %d OK (a failed save only warns), %d leaks", oom, ok, leaks);
        row(phase == 0 ? "allocator fails at allocation k (cold: probe+save)" : "allocator fails at allocation k (warm: read)",
            (int)sites, out);
    }
    fail_at = -1;
}

/* ---- a full disk while writing ---- */
static int count_tmp(const char *dir) {
    char cmd[400];
    FILE *f;
    int n = 0;
    snprintf(cmd, sizeof cmd, "ls -a '%s' 2>/dev/null | grep -c '\\.tmp\\.'", dir);
    f = popen(cmd, "r");
    if (f) { if (fscanf(f, "%d", &n) != 1) n = 0; pclose(f); }
    return n;
}

static void test_full_disk(void) {
    char dir[300], path[4400], fill[400];
    servet_desc d;
    servet_profile *p = NULL;
    unsigned char *before, *after;
    size_t nb = 0, na = 0;
    int mounted = 0, runs = 0, intact = 0;
    const char *how;
    snprintf(dir, sizeof dir, "%s/disk", root);
    mkdir(dir, 0700);
    d = base_desc(dir);
    /* a small tmpfs as the disk (root); otherwise a file-size limit (EFBIG) */
    if (mount("tmpfs", dir, "tmpfs", 0, "size=64k,mode=0700") == 0) mounted = 1;
    CHECK(servet_open(&p, &d) == SERVET_OK, "old file written");
    servet_close(p);
    servet_cache_path(&d, path, sizeof path);
    before = slurp(path, &nb);
    if (mounted) {
        /* fill the disk to the last few hundred bytes */
        FILE *f;
        snprintf(fill, sizeof fill, "%s/filler", dir);
        f = fopen(fill, "wb");
        if (f) {
            char blk[256];
            memset(blk, 'x', sizeof blk);
            while (fwrite(blk, 1, sizeof blk, f) == sizeof blk && fflush(f) == 0) {}
            fclose(f);
        }
        how = "ENOSPC (64 KiB tmpfs, filled)";
    } else {
        struct rlimit rl;
        signal(SIGXFSZ, SIG_IGN);
        rl.rlim_cur = rl.rlim_max = 512;
        setrlimit(RLIMIT_FSIZE, &rl);
        how = "EFBIG (RLIMIT_FSIZE 512 B; no root for tmpfs)";
    }
    for (runs = 0; runs < 10; runs++) {
        d.force = 1;
        warnings = 0;
        CHECK(servet_open(&p, &d) == SERVET_OK, "profile still returned when the disk is full");
        servet_close(p);
        CHECK(warnings > 0, "the failed save is logged");
        after = slurp(path, &na);
        if (before && after && na == nb && memcmp(before, after, nb) == 0) intact++;
        free(after);
        CHECK(count_tmp(dir) == 0, "no temp file left behind");
    }
    CHECK(intact == runs, "old file intact in %d of %d runs", intact, runs);
    {
        char out[200];
        snprintf(out, sizeof out, "%s: profile returned, warning logged, old file intact %d/%d, no temp file", how,
                 intact, runs);
        row("disk full while writing", runs, out);
    }
    if (mounted) umount(dir);
    else {
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = RLIM_INFINITY;
        setrlimit(RLIMIT_FSIZE, &rl);
    }
    free(before);
}

/* ---- SIGKILL while writing ---- */
static void test_sigkill(void) {
    char dir[300];
    servet_desc d;
    servet_profile *p = NULL;
    int i, valid = 0, absent = 0, torn = 0, tmp_left = 0;
    uint64_t rng = 99;
    snprintf(dir, sizeof dir, "%s/kill", root);
    d = base_desc(dir);
    /* a valid file first: whenever a rewrite is killed, the old file or the
       new one must be there (a loaded machine may finish no rewrite at all
       within the kill window, so "some survived" is no test) */
    CHECK(servet_open(&p, &d) == SERVET_OK, "the file before the kills");
    servet_close(p);
    for (i = 0; i < 200; i++) {
        pid_t pid = fork();
        if (pid == 0) { /* rewrite the file as fast as possible until killed */
            servet_desc dc = base_desc(dir);
            dc.force = 1;
            for (;;) {
                servet_profile *q = NULL;
                if (servet_open(&q, &dc) == SERVET_OK) servet_close(q);
            }
        }
        usleep((useconds_t)(servet__rng_next(&rng) % 20000));
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        tmp_left += count_tmp(dir) > 0;
        rejected = 0;
        d.no_probe = 1;
        if (servet_open(&p, &d) == SERVET_OK) { valid++; servet_close(p); }
        else if (rejected) torn++;
        else absent++;
    }
    CHECK(torn == 0, "%d torn files after SIGKILL", torn);
    CHECK(valid == 200 && absent == 0, "the old file or the new one after every kill: %d valid, %d absent", valid, absent);
    /* the next writer removes what killed writers left */
    d.no_probe = 0;
    d.force = 1;
    CHECK(servet_open(&p, &d) == SERVET_OK, "writer after the kills");
    servet_close(p);
    CHECK(count_tmp(dir) == 0, "stale temp files removed by the next writer");
    {
        char out[200];
        snprintf(out, sizeof out, "valid %d, absent %d, torn 0 expected: %d; killed mid-write left a temp file %d times, "
                                  "all removed by the next writer", valid, absent, torn, tmp_left);
        row("SIGKILL at a random time while rewriting", 200, out);
    }
}

/* ---- hwloc failing ---- */
static void test_hwloc_failure(void) {
    char dir[300];
    servet_desc d;
    servet_profile *p = NULL;
    servet_result r;
    snprintf(dir, sizeof dir, "%s/hwloc", root);
    d = base_desc(dir);
    d.no_save = 1;
    /* only the XML component, and a file that is not XML: the load fails */
    {
        FILE *f;
        char bad[320];
        servet_result r2;
        snprintf(bad, sizeof bad, "%s/bad.xml", root);
        f = fopen(bad, "w");
        if (f) { fputs("garbage\n", f); fclose(f); }
        setenv("HWLOC_XMLFILE", bad, 1);
        setenv("HWLOC_COMPONENTS", "xml,stop", 1);
        a_count = f_count = 0;
        fail_at = -1;
        d.allocator.alloc = f_alloc;
        d.allocator.free = f_free;
        r = servet_open(&p, &d);
        CHECK(r == SERVET_ERROR_TOPOLOGY && p == NULL, "hwloc load failure -> %s", servet_result_string(r));
        CHECK(a_count == f_count, "nothing leaked: %ld allocs, %ld frees", a_count, f_count);
        /* no discovery component at all */
        setenv("HWLOC_COMPONENTS", "stop", 1);
        r2 = servet_open(&p, &d);
        CHECK(r2 == SERVET_ERROR_TOPOLOGY && p == NULL, "no component -> %s", servet_result_string(r2));
        /* the warm path needs no hwloc: a cached profile still opens */
        unsetenv("HWLOC_XMLFILE");
        unsetenv("HWLOC_COMPONENTS");
        d.no_save = 0;
        CHECK(servet_open(&p, &d) == SERVET_OK, "cache written with hwloc working");
        servet_close(p);
        setenv("HWLOC_COMPONENTS", "stop", 1);
        d.no_probe = 1;
        r = servet_open(&p, &d);
        CHECK(r == SERVET_OK, "warm open without hwloc: %s", servet_result_string(r));
        if (r == SERVET_OK) servet_close(p);
        {
            char out[240];
            snprintf(out, sizeof out, "unparsable XML -> %s, no component -> %s, no leak; warm open still OK",
                     "SERVET_ERROR_TOPOLOGY", servet_result_string(r2) );
            row("hwloc cannot load a topology", 3, out);
        }
    }
    unsetenv("HWLOC_XMLFILE");
    unsetenv("HWLOC_COMPONENTS");
}

int main(void) {
    snprintf(root, sizeof root, "/tmp/servet-test-faults-%ld", (long)getpid());
    mkdir(root, 0700);
    test_alloc_failures();
    test_full_disk();
    test_sigkill();
    test_hwloc_failure();
    printf("| %-50s | %5s | %s\n|%s|%s|%s\n%s", "fault", "runs", "outcome",
           "----------------------------------------------------", "-------", "--------", table);
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd) != 0) fprintf(stderr, "cleanup failed\n");
    }
    TEST_SUMMARY();
}
