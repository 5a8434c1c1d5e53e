/* N processes open a cold cache at once: exactly one runs the probes (the
   progress callback is the hook that counts it), the others wait on the lock
   and read; every process ends with the same profile and the file is valid. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "harness.h"
#include "helpers.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int probed;
static void on_progress(void *u, const char *probe, double f) { (void)u; (void)probe; (void)f; probed = 1; }

int main(int argc, char **argv) {
    int nproc = argc > 1 ? atoi(argv[1]) : 16, i, probers = 0, readers = 0, failed = 0, same = 1;
    char root[256], out[300];
    char *first = NULL;
    pid_t *pids;
    snprintf(root, sizeof root, "/tmp/servet-test-conc-%ld", (long)getpid());
    mkdir(root, 0700);
    pids = (pid_t *)calloc((size_t)nproc, sizeof *pids);
    for (i = 0; i < nproc; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            servet_desc d;
            servet_profile *p = NULL;
            char *j;
            FILE *f;
            memset(&d, 0, sizeof d);
            d.cache_dir = root;
            d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE;
            d.quick = 1;
            d.cache_max_bytes = 2u << 20; /* a short but real probe */
            d.progress = on_progress;
            if (servet_open(&p, &d) != SERVET_OK) _exit(3);
            j = normalized_json(p);
            snprintf(out, sizeof out, "%s/json.%d", root, i);
            f = fopen(out, "w");
            if (!f) _exit(4);
            fputs(j, f);
            fclose(f);
            servet_close(p);
            _exit(probed ? 10 : 11);
        }
    }
    for (i = 0; i < nproc; i++) {
        int st = 0;
        waitpid(pids[i], &st, 0);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 10) probers++;
        else if (WIFEXITED(st) && WEXITSTATUS(st) == 11) readers++;
        else failed++;
    }
    CHECK(failed == 0, "%d processes failed", failed);
    CHECK(probers == 1, "%d processes probed (expected exactly 1)", probers);
    CHECK(readers == nproc - 1, "%d readers", readers);
    for (i = 0; i < nproc; i++) {
        FILE *f;
        char *buf = (char *)calloc(1, 1 << 20);
        snprintf(out, sizeof out, "%s/json.%d", root, i);
        f = fopen(out, "r");
        if (!f) { same = 0; free(buf); continue; }
        if (fread(buf, 1, (1 << 20) - 1, f) == 0) same = 0;
        fclose(f);
        if (!first) first = buf;
        else { if (strcmp(first, buf) != 0) same = 0; free(buf); }
    }
    CHECK(same, "identical profiles in all %d processes", nproc);
    CHECK(first && strstr(first, "\"cache\"") != NULL, "the cache probe ran");
    {
        servet_desc d;
        servet_profile *p = NULL;
        memset(&d, 0, sizeof d);
        d.cache_dir = root;
        d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE;
        d.no_probe = 1;
        CHECK(servet_open(&p, &d) == SERVET_OK, "the file left behind is valid");
        servet_close(p);
    }
    free(first);
    free(pids);
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd) != 0) fprintf(stderr, "cleanup failed\n");
    }
    TEST_SUMMARY();
}
