#define _GNU_SOURCE 1
/* make bench: warm servet_open (a cache hit) vs one hwloc topology load,
   measured side by side, interleaved, in one run. Writes JSON. */
#include "../servet.h"
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double q(double *v, int n, double f) { return v[(int)(f * (n - 1) + 0.5)]; }

int main(int argc, char **argv) {
    enum { N = 200 };
    static double t_open[N], t_hw[N];
    char dir[256];
    servet_desc d;
    servet_profile *p = NULL;
    servet_machine_info m;
    int i;
    FILE *f;
    snprintf(dir, sizeof dir, "/tmp/servet-bench-%ld", (long)getpid());
    memset(&d, 0, sizeof d);
    d.cache_dir = dir;
    d.quick = 1;
    d.cache_max_bytes = 8u << 20; /* the file's content does not matter here, its reading does */
    if (servet_open(&p, &d) != SERVET_OK) { fprintf(stderr, "bench: cannot prepare the cache\n"); return 1; }
    servet_machine_get(p, &m);
    servet_close(p);
    for (i = 0; i < N; i++) {
        hwloc_topology_t t;
        double t0 = now();
        if (servet_open(&p, &d) != SERVET_OK) return 1;
        t_open[i] = now() - t0;
        servet_machine_get(p, &m);
        if (!m.from_file) { fprintf(stderr, "bench: open %d was not a cache hit\n", i); return 1; }
        servet_close(p);
        t0 = now();
        hwloc_topology_init(&t);
        hwloc_topology_load(t);
        hwloc_topology_destroy(t);
        t_hw[i] = now() - t0;
    }
    qsort(t_open, N, sizeof(double), cmp);
    qsort(t_hw, N, sizeof(double), cmp);
    printf("warm servet_open:           median %8.1f us  (min %.1f, p90 %.1f), %d calls\n", 1e6 * q(t_open, N, 0.5),
           1e6 * t_open[0], 1e6 * q(t_open, N, 0.9), N);
    printf("hwloc init/load/destroy:    median %8.1f us  (min %.1f, p90 %.1f), %d cycles\n", 1e6 * q(t_hw, N, 0.5),
           1e6 * t_hw[0], 1e6 * q(t_hw, N, 0.9), N);
    printf("ratio (open / hwloc load):  %.4f   (goal <= 0.1)\n", q(t_open, N, 0.5) / q(t_hw, N, 0.5));
    if (argc > 1 && (f = fopen(argv[1], "w"))) {
        time_t tt = time(NULL);
        char date[32];
        strftime(date, sizeof date, "%Y-%m-%d", gmtime(&tt));
        fprintf(f,
                "{\"benchmark\":\"warm servet_open vs hwloc_topology_init/load/destroy\",\"date\":\"%s\","
                "\"machine\":\"%s, %d PUs\",\"calls\":%d,"
                "\"servet_open_us\":{\"median\":%.2f,\"min\":%.2f,\"p90\":%.2f},"
                "\"hwloc_load_us\":{\"median\":%.2f,\"min\":%.2f,\"p90\":%.2f},"
                "\"ratio_median\":%.5f,\"goal\":0.1}\n",
                date, m.cpu_model, m.pus, N, 1e6 * q(t_open, N, 0.5), 1e6 * t_open[0], 1e6 * q(t_open, N, 0.9),
                1e6 * q(t_hw, N, 0.5), 1e6 * t_hw[0], 1e6 * q(t_hw, N, 0.9), q(t_open, N, 0.5) / q(t_hw, N, 0.5));
        fclose(f);
        printf("wrote %s\n", argv[1]);
    }
    {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0) return 1;
    }
    return 0;
}
