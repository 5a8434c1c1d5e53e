/* servet - the command around servet.h: probe, show, json, plot, simulate.
   Thin: it parses arguments and calls the public API. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include "cachesim.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the fields of a --array (usage text and errors say them alike) */
#define SERVET_CLI_ARRAY_FIELDS "[:halo=R|RxRx..][:stream][:packed][:reduce[=LANES]][:out|:in][:ld=N][:dims=NxN..]"
static const char *usage_text =
    "usage: servet COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  probe [--only LIST] [--force] [--quick] [--max-size BYTES]\n"
    "                      run the probes and write the cache file\n"
    "  show                human-readable tables (probes first if nothing is cached)\n"
    "  json                the profile as JSON (probes first if nothing is cached)\n"
    "  plot DIR            write SVG charts of the measured curves into DIR\n"
    "  path                print the cache file path of this machine\n"
    "  apex [--memory WORDS] [--alpha LIST] [--block LIST] [--threads N] [--accesses N] [--mpi]\n"
    "                      run an Apex-Map surface now (not cached) and print it; --mpi\n"
    "                      (MPI build, under mpirun): ranks, remote blocks via MPI_Get\n"
    "  tile --loop NAME=N[:untiled] [--loop ...]\n"
    "       --array NAME:LOOP,LOOP" SERVET_CLI_ARRAY_FIELDS "\n"
    "       [--array ...] --elem BYTES [--level N|auto] [--threads T] [--square] [--multiple M]\n"
    "       [--all-levels] [--vector LANES]\n"
    "                      the tile size of a loop nest from the measured caches, as JSON;\n"
    "                      loops outer to inner, an array's loops slowest dimension first\n"
    "                      (row-major: the last is contiguous), ld= its row stride in elements,\n"
    "                      halo=R a stencil's radius along every dimension, halo=RxRx.. one per\n"
    "                      dimension, slowest first (a 2D stencil on each plane of a 3D array: 0x2x2),\n"
    "                      dims= the extent each dimension is allocated with (0: its loop's),\n"
    "                      reduce: the innermost loop sums into one element of it in a register\n"
    "                      (C in an i,j,k matmul: a chain of adds as long as the innermost tile),\n"
    "                      reduce=N: the compiled sum keeps N lanes (a vectorised sum: gcc's\n"
    "                      -O3 -ffast-math keeps one vector, 8 doubles with AVX-512, 4 with AVX2;\n"
    "                      clang unrolls it by 4: 32, 16): chains of tile / N,\n"
    "                      out: the nest only writes it, in: it reads it (unsaid: the last\n"
    "                      array is taken as the output, B of --array A:i,j --array B:j,i);\n"
    "                      a loop :untiled is one the kernel does not tile (its tile: its extent);\n"
    "                      --vector LANES: the compiler vectorises the innermost loop (gcc -O3,\n"
    "                      clang -O2: 8 doubles or 16 floats with AVX-512, 4 / 8 with AVX2; not\n"
    "                      used with a reduce array, whose reduce=N says its lanes; the compiler\n"
    "                      says them: gcc -fopt-info-vec \"using 64 byte vectors\" = 8 doubles,\n"
    "                      clang -Rpass=loop-vectorize \"vectorization width: N\");\n"
    "                      --all-levels: also \"levels\", nested tiles, one per cache level, each\n"
    "                      inside the next (for a code tiled at two or three levels);\n"
    "                      its \"tune\": the servet tune command that refines the tile on the\n"
    "                      real kernel (the tile and its alternatives as seeds): put the\n"
    "                      program in place of PROGRAM ARGS\n"
    "  tune --key K --param NAME=LO:HI[:STEP]|NAME=V1,V2,.. [--param ...] [--seed NAME=V ...]\n"
    "       [--budget SECONDS] [--evals N] [--repeats R] [--time-regex RE] [--force] -- COMMAND ARGS\n"
    "                      search the parameters of COMMAND ({NAME} in ARGS is replaced), timing\n"
    "                      the process or reading RE's first group (no group: the first number\n"
    "                      in its match) from its output, stdout and stderr (the first match,\n"
    "                      line by line: ^ and $ anchor at a line's ends); a parameter no\n"
    "                      {NAME} of ARGS names is warned of; the best is kept per machine and key\n"
    "                      (servet-<hash>.tune) and printed as JSON;\n"
    "                      --seed NAME=V again for a NAME already given starts another seed\n"
    "                      point (servet tile's \"alternatives\": the model's near-ties); a seed\n"
    "                      runs at the nearest point of its --param (outside the range: an error)\n"
    "  map (--costs FILE | --tree ARITY:COST,..) (--traffic FILE | --traffic-sparse FILE)\n"
    "      [--rankfile FILE --hosts HOSTFILE]\n"
    "                      the MPI rank -> process slot mapping of a traffic matrix, as JSON;\n"
    "                      without --costs/--tree the costs come from the cached profile\n"
    "  aggr --bytes S --messages N [--layer L | --ranks A,B] [--senders K] [--peers P]\n"
    "       [--ranks-per-node R] [--max-buffer B] [--max-wait S] [--interval S] [--pack-rate B/S]\n"
    "       [--no-leader] [--comm FILE]\n"
    "                      how many of N messages of S bytes to a peer to pack into one send,\n"
    "                      and whether to route through node leaders, as JSON; under mpirun\n"
    "                      (MPI build) from the job's comm results, else from a .comm file\n"
    "  simulate SPEC [--coloring on|off] [--noise X] [--hash-last] [--seed N] [--curve]\n"
    "                      run the cache probe's sweep and inference on a simulated\n"
    "                      hierarchy; prints {\"caches\":[{\"level\":1,\"size_bytes\":N},...]}\n"
    "                      SPEC: a file, a level a line ('#' comments; sizes take K/M/G):\n"
    "                        level=1 size=48K ways=12 [line=64] [lat=4] [hash=on]\n"
    "                                [repl=lru|plru|nru|random|srrip] [incl=nine|inclusive|exclusive]\n"
    "                        level=2 ...   page=4096 backing=4096 memory=200 seed=N walk=64\n"
    "\n"
    "options for probe/show/json/plot:\n"
    "  --only LIST         comma-separated probes: topology,cache,shared,memory,mbsp,apex,comm\n"
    "                      (probe: all node probes; show/json/plot: whatever is cached).\n"
    "                      comm: MPI layers, MPI build under a launcher with >= 2 ranks:\n"
    "                        mpirun -np N bin/servet probe --only comm\n"
    "  --all-pairs         shared/memory/comm: measure every PU / rank pair, not one per relation\n"
    "  --force             re-run the probes even if cached\n"
    "  --no-probe          fail instead of probing when nothing is cached\n"
    "  --quick             fewer repetitions (tests); less robust\n"
    "  --cache-dir DIR     cache directory (default $SERVET_CACHE_DIR, $XDG_CACHE_HOME/servet,\n"
    "                      $HOME/.cache/servet)\n"
    "  -v, --verbose       log progress details on stderr\n"
    "  -h, --help          this text;  --version  the version\n";

static int die_usage(const char *msg, const char *arg) {
    fprintf(stderr, "servet: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "run 'servet --help' for usage\n");
    return 2;
}

/* `servet CMD -h`: CMD's block of the usage text (its lines up to the next
   command's), then where the rest is; 1 if some argument before a "--"
   asked for it */
static int help_asked(const char *cmd, int argc, char **argv) {
    const char *p = usage_text, *start = NULL, *end = NULL;
    size_t n = strlen(cmd);
    int i, asked = 0;
    for (i = 0; i < argc && strcmp(argv[i], "--"); i++) asked |= !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help");
    if (!asked) return 0;
    for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        int command_line = p[0] == ' ' && p[1] == ' ' && p[2] != ' ' && p[2] != '\n';
        if (start && (command_line || *p == '\n')) { end = p; break; }
        if (!start && command_line && !strncmp(p + 2, cmd, n) && (p[2 + n] == ' ' || p[2 + n] == '\n')) start = p;
    }
    if (start) printf("usage: servet %.*s", (int)((end ? end : p) - start - 2), start + 2);
    printf("('servet --help' lists every command)\n");
    return 1;
}

static void log_stderr(void *user, servet_log_level level, const char *msg) {
    (void)user;
    fprintf(stderr, "servet: %s: %s\n",
            level == SERVET_LOG_ERROR ? "error" : level == SERVET_LOG_WARN ? "warning" : "info", msg);
}

/* On a terminal only (main sets it when stderr is one): which probe, how
   far, and the time left from the rate so far. */
static double mono(void);
static void progress_tty(void *user, const char *probe, double f) {
    static char current[32];
    static double start;
    double now = mono();
    (void)user;
    if (strncmp(current, probe, sizeof current - 1) != 0) {
        snprintf(current, sizeof current, "%s", probe);
        start = now;
    }
    if (f >= 1.0) fprintf(stderr, "\rservet: probing %-9s 100%%  done in %.1f s          \n", probe, now - start);
    else if (f > 0.02 && now - start > 0.5)
        fprintf(stderr, "\rservet: probing %-9s %3.0f%%  about %.0f s left   ", probe, 100.0 * f,
                (now - start) * (1.0 - f) / f + 0.5);
    else fprintf(stderr, "\rservet: probing %-9s %3.0f%%                    ", probe, 100.0 * f);
    fflush(stderr);
}

static void human_bytes(double b, char *out, size_t cap) {
    if (b >= 1073741824.0) snprintf(out, cap, "%.4g GiB", b / 1073741824.0);
    else if (b >= 1048576.0) snprintf(out, cap, "%.4g MiB", b / 1048576.0);
    else if (b >= 1024.0) snprintf(out, cap, "%.4g KiB", b / 1024.0);
    else snprintf(out, cap, "%.0f B", b);
}

static const char *method_name(servet_cache_method m) {
    switch (m) {
    case SERVET_METHOD_STEP: return "step";
    case SERVET_METHOD_BINOMIAL_PAGE: return "binomial/page";
    case SERVET_METHOD_BINOMIAL_LINE: return "binomial/line";
    case SERVET_METHOD_COLORED: return "colored";
    default: return "-";
    }
}

/* ---- show: 100 columns at most. Tokens are appended to a line and the
   line wraps, indented, before it would pass the right edge. ---- */
#define SHOW_COLUMNS 100
static int show_col;
static const char *show_indent = "";
static void wrap_start(const char *head, const char *indent) {
    show_col = printf("%s", head);
    show_indent = indent;
}
static void wrap_put(const char *tok) {
    int n = (int)strlen(tok);
    if (show_col + 1 + n > SHOW_COLUMNS && show_col > (int)strlen(show_indent)) show_col = printf("\n%s", show_indent) - 1;
    show_col += printf(" %s", tok);
}
static void wrap_end(void) { printf("\n"); show_col = 0; }

/* a PU list as ranges, the way hwloc and taskset write cpusets: {0-3,8,10-11} */
static void pu_ranges(const int *pus, int n, char *out, size_t cap) {
    int i = 0;
    size_t len = 0;
    out[0] = 0;
    len += (size_t)snprintf(out + len, cap - len, "{");
    while (i < n && len < cap) {
        int j = i;
        while (j + 1 < n && pus[j + 1] == pus[j] + 1) j++;
        if (j > i) len += (size_t)snprintf(out + len, cap - len, "%s%d-%d", i ? "," : "", pus[i], pus[j]);
        else len += (size_t)snprintf(out + len, cap - len, "%s%d", i ? "," : "", pus[i]);
        i = j + 1;
    }
    if (len < cap) snprintf(out + len, cap - len, "}");
}
typedef servet_result (*group_getter)(const servet_profile *, int, int, int *, int, int *);
static int group_sort_cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
/* every group of a level; a level of singletons only reads "private, one per PU" */
static void print_groups(const char *head, group_getter get, const servet_profile *p, int level) {
    static int pus[4096];
    int g, np, largest = 0, count = 0;
    char tok[256];
    for (g = 0; get(p, level, g, pus, 0, &np) == SERVET_OK; g++) {
        if (np > largest) largest = np;
        count++;
    }
    wrap_start(head, "        ");
    if (count == 0) wrap_put("(none)");
    else if (largest == 1) {
        snprintf(tok, sizeof tok, "private (%d PU%s, one group each)", count, count == 1 ? "" : "s");
        wrap_put(tok);
    } else {
        for (g = 0; get(p, level, g, pus, 4096, &np) == SERVET_OK; g++) {
            int m = np < 4096 ? np : 4096;
            qsort(pus, (size_t)m, sizeof pus[0], group_sort_cmp);
            pu_ranges(pus, m, tok, sizeof tok);
            wrap_put(tok);
        }
    }
    wrap_end();
}
/* "private" or "N PUs" (the largest group), measured when the shared probe ran */
static void sharing_summary(const servet_profile *p, int level, int measured, char *out, size_t cap) {
    int g, np, largest = 0;
    group_getter get = measured ? servet_cache_shared_group_get : servet_cache_reported_group_get;
    for (g = 0; get(p, level, g, NULL, 0, &np) == SERVET_OK; g++) if (np > largest) largest = np;
    if (largest == 0) snprintf(out, cap, "-");
    else if (largest == 1) snprintf(out, cap, "private%s", measured ? "" : " (OS)");
    else snprintf(out, cap, "%d PUs%s", largest, measured ? "" : " (OS)");
}

static void print_pair_ratios(const servet_profile *p, int levels) {
    int level, i, a, b;
    double r, thr;
    char head[64], tok[96];
    for (level = 1; level <= levels; level++) {
        if (servet_cache_pair_get(p, level, 0, NULL, NULL, NULL, &thr) != SERVET_OK) continue;
        snprintf(head, sizeof head, "    L%d pairs (threshold %.2f):", level, thr);
        wrap_start(head, "        ");
        for (i = 0; servet_cache_pair_get(p, level, i, &a, &b, &r, NULL) == SERVET_OK; i++) {
            snprintf(tok, sizeof tok, "%d-%d %.2f%s", a, b, r, r > thr ? " (shared)" : r > 1.15 ? " (contends)" : "");
            wrap_put(tok);
        }
        wrap_end();
    }
}
static void print_memory_pairs(const servet_profile *p, double ref) {
    int i, a, b;
    double bw;
    char tok[96];
    wrap_start("    pairs:", "        ");
    for (i = 0; servet_memory_pair_get(p, i, &a, &b, &bw) == SERVET_OK; i++) {
        snprintf(tok, sizeof tok, "%d-%d %.2f GB/s (%.0f%%)", a, b, bw / 1e9, 100 * bw / ref);
        wrap_put(tok);
    }
    wrap_end();
}

static void show_comm(const servet_profile *p) {
    servet_comm_info ci;
    servet_comm_layer_info L;
    int l, i, a, b, layer, k;
    double x, y, z, w;
    char s1[32], hn[64];
    if (servet_comm_get(p, &ci) != SERVET_OK) return;
    human_bytes(ci.message_bytes, s1, sizeof s1);
    printf("\nMPI communication: %d ranks on %d node%s, %d layer%s (%s, %.1f s; key %016llx)\n", ci.ranks, ci.nodes,
           ci.nodes == 1 ? "" : "s", servet_comm_layer_count(p), servet_comm_layer_count(p) == 1 ? "" : "s", ci.from_file ? "read from the .comm file" : "measured now",
           ci.probe_seconds, (unsigned long long)ci.key);
    printf("  ranks:");
    for (i = 0; i < ci.ranks; i++) {
        int node;
        servet_comm_node_of(p, i, &node, hn, sizeof hn);
        printf(" %d@%s", i, hn);
    }
    printf("\n  Fig. 7 message %s (and 8 B); noise %.1f%% -> layers are %.0f%% apart; %d pairs measured, %d contradiction%s\n", s1,
           100 * ci.noise, 100 * ci.tolerance, servet_comm_pair_count(p), ci.contradictions, ci.contradictions == 1 ? "" : "s");
    for (l = 0; servet_comm_layer_get(p, l, &L) == SERVET_OK; l++) {
        printf("  layer %d: %.2f us (%.2f..%.2f), %s, representative %d-%d, pairs", l, L.latency_s * 1e6,
               L.latency_range_s[0] * 1e6, L.latency_range_s[1] * 1e6,
               L.intra_node == 1 ? "intra-node" : L.intra_node == 0 ? "inter-node" : "mixed", L.representative[0],
               L.representative[1]);
        for (i = 0; servet_comm_pair_get(p, i, &a, &b, &x, &layer) == SERVET_OK; i++)
            if (layer == l) printf(" %d-%d", a, b);
        printf("\n    curve (one-way):");
        for (i = 0; servet_comm_curve_get(p, l, i, &x, &y, &z) == SERVET_OK; i++)
            if (i % 4 == 0 || i == servet_comm_curve_count(p, l) - 1) {
                human_bytes(x, s1, sizeof s1);
                printf(" %s %.2f us %.0f MB/s;", s1, y * 1e6, z / 1e6);
            }
        printf("\n    concurrent pairs:");
        for (i = 0; servet_comm_scaling_get(p, l, i, &k, &y) == SERVET_OK; i++) printf(" %d: %.2f us;", k, y * 1e6);
        printf("\n    %s messages vs one of N*S:", "N");
        for (i = 0; servet_comm_aggregation_get(p, l, i, &x, &k, &y, &w) == SERVET_OK; i++) {
            human_bytes(x, s1, sizeof s1);
            printf(" %dx%s %.1f us vs %.1f us;", k, s1, y * 1e6, w * 1e6);
        }
        printf("\n");
    }
}

static void show(const servet_profile *p, const servet_desc *d) {
    servet_machine_info m;
    char path[4200], a[32], b[32];
    int i, n, lost;
    servet_machine_get(p, &m);
    servet_cache_path(d, path, sizeof path);
    human_bytes((double)m.memory_bytes, a, sizeof a);
    printf("machine     %s on %s\n            %d PUs, %d cores, %d package%s, %d NUMA node%s, %s\n", m.cpu_model,
           m.hostname, m.pus, m.cores, m.packages, m.packages == 1 ? "" : "s", m.numa_nodes,
           m.numa_nodes == 1 ? "" : "s", a);
    printf("cache file  %s (%s)\n", path[0] ? path : "(none)", m.from_file ? "read from the file" : "probed now");
    {
        /* every probe that ran in this profile, by its slot (the bit's index) */
        const char *sep = "probe time  ";
        int slot;
        for (slot = 1; servet_probe_name(1u << slot); slot++)
            if ((m.probes & (1u << slot)) && m.probe_seconds[slot] > 0) {
                printf("%s%s %.1f s", sep, servet_probe_name(1u << slot), m.probe_seconds[slot]);
                sep = ", ";
            }
        if (sep[0] == ',') printf("\n");
    }

    /* 100 columns at most; the details of a level on the line below it */
    printf("\n%-6s %-10s %-19s %-10s %-4s %-4s %-13s %s\n", "level", "measured", "hit latency", "OS says", "ways",
           "line", "shared by", "method");
    n = servet_cache_count(p);
    lost = servet__cache_lost_level(p);
    for (i = 0; i < n; i++) {
        servet_cache_info c;
        char lat[32], note[128] = "", shared[32];
        servet_cache_get(p, i + 1, &c);
        if (c.size_bytes) human_bytes((double)c.size_bytes, a, sizeof a);
        else snprintf(a, sizeof a, "-");
        if (c.reported_size_bytes) human_bytes((double)c.reported_size_bytes, b, sizeof b);
        else snprintf(b, sizeof b, "-");
        if (c.size_bytes && c.latency_cycles > 0) snprintf(lat, sizeof lat, "%.2f ns %5.1f cyc", c.latency_ns, c.latency_cycles);
        else if (c.size_bytes) snprintf(lat, sizeof lat, "%.2f ns", c.latency_ns);
        else snprintf(lat, sizeof lat, "-");
        sharing_summary(p, i + 1, (m.probes & SERVET_PROBE_SHARED) != 0, shared, sizeof shared);
        if (c.size_bytes && c.reported_size_bytes) {
            double r = (double)c.size_bytes / (double)c.reported_size_bytes;
            if (c.size_bytes != c.reported_size_bytes)
                snprintf(note, sizeof note, "DISAGREES with the OS: measured is %.1f%% of reported", 100.0 * r);
            else if (c.estimate_bytes != c.size_bytes)
                snprintf(note, sizeof note, "confirms the OS figure (estimate %.4g KiB)", (double)c.estimate_bytes / 1024.0);
        } else if (c.size_bytes && !c.reported_size_bytes) {
            snprintf(note, sizeof note, "not reported by the OS");
        } else if (!c.size_bytes && (m.probes & SERVET_PROBE_CACHE)) {
            snprintf(note, sizeof note, "no step measured");
        }
        printf("L%-5d %-10s %-19s %-10s %-4d %-4d %-13s %s\n", c.level, a, lat, b, c.reported_ways, c.line_bytes,
               shared, method_name(c.method));
        if (note[0]) printf("%-6s %s\n", "", note);
        if (lost == i + 1) /* the probe's warning (servet.h servet__cache_lost_level), kept in sight */
            printf("%-6s at the next level's latency, with a level fewer than the OS lists: the step at the\n"
                   "%-6s OS's size was likely missed (servet probe --only cache --force on a quiet machine)\n", "", "");
        if (c.size_bytes && c.range_bytes[1] > c.range_bytes[0]) {
            char lo[32], hi[32];
            human_bytes((double)c.range_bytes[0], lo, sizeof lo);
            human_bytes((double)c.range_bytes[1], hi, sizeof hi);
            printf("%-6s the data fit any size in [%s, %s] as well\n", "", lo, hi);
        }
        if (c.exclusive && c.size_bytes)
            printf("%-6s a victim cache (the OS: not inclusive of L%d): the size is the measured step less L%d's\n", "",
                   c.level - 1, c.level - 1);
        if (c.usable_bytes) {
            char u[32];
            human_bytes((double)c.usable_bytes, u, sizeof u);
            printf("%-6s usable %s: the largest walk it served with <= 5%% of accesses missing\n", "", u);
        }
    }
    if (m.probes & SERVET_PROBE_CACHE) {
        printf("%-6s %-10s %.2f ns\n", "memory", "", m.memory_latency_ns);
        if (servet_tlb_count(p)) {
            printf("TLB reach steps (a walk of one line per 4 KiB page):");
            for (i = 0; i < servet_tlb_count(p); i++) {
                double reach = 0.0;
                servet_tlb_get(p, i, &reach);
                human_bytes(reach, a, sizeof a);
                printf(" %s", a);
            }
            printf("\n");
        }
    }
    if (m.probes & SERVET_PROBE_SHARED) {
        printf("\nshared caches: the groups of PUs that share one instance of a level\n");
        for (i = 0; i < n; i++) {
            char head[32];
            snprintf(head, sizeof head, "  L%-2d measured:", i + 1);
            print_groups(head, servet_cache_shared_group_get, p, i + 1);
            print_groups("      OS says: ", servet_cache_reported_group_get, p, i + 1);
        }
        print_pair_ratios(p, n);
    }
    if (m.probes & SERVET_PROBE_MEMORY) {
        servet_memory_info mi;
        int lv;
        servet_memory_get(p, &mi);
        printf("\nmemory: one PU copies at %.2f GB/s (tolerance %.0f%%, %d pairs measured)\n",
               mi.ref_bandwidth_bytes_per_s / 1e9, 100 * mi.tolerance, servet_memory_pair_count(p));
        if (mi.interleaved_read_bytes_per_s > 0)
            printf("  its reads as 8 rows in turn move %.2f GB/s (the tile model's step 6c)\n",
                   mi.interleaved_read_bytes_per_s / 1e9);
        if (mi.strided_store_pages > 0 && mi.strided_store_miss_ns > 0)
            printf("  its stores to rows in turn, each in a page of its own, keep their pace over %.0f rows;\n"
                   "  past them a store costs %.2f ns more (the tile model's step 5)\n",
                   mi.strided_store_pages, mi.strided_store_miss_ns);
        else if (mi.strided_store_pages > 0)
            printf("  its stores to rows in turn, each in a page of its own, keep their pace over %.0f rows or more\n",
                   mi.strided_store_pages);
        if (servet_memory_level_count(p) == 0) printf("  no pair slows another down\n");
        for (lv = 1; lv <= servet_memory_level_count(p); lv++) {
            servet_memory_level_info li;
            servet_memory_level_get(p, lv, &li);
            printf("  overhead level %d: %.2f GB/s per PU in a pair (%.0f%% of alone)\n", lv,
                   li.bandwidth_bytes_per_s / 1e9, 100 * li.ratio);
            print_groups("    groups", servet_memory_group_get, p, lv);
        }
        print_memory_pairs(p, mi.ref_bandwidth_bytes_per_s);
    }
    if (m.probes & SERVET_PROBE_MBSP) {
        servet_mbsp_level ml;
        printf("\nMultiBSP: M = [");
        for (i = 1; i <= servet_mbsp_count(p); i++) {
            servet_mbsp_get(p, i, &ml);
            human_bytes(ml.m_bytes, a, sizeof a);
            printf("%s<p=%d, m=%s, g=%.1f, L=%.0f>", i > 1 ? ", " : "", ml.p, a, ml.g, ml.L);
        }
        printf("]  (g flops/word, L flops)\n");
        for (i = 1; i <= servet_mbsp_count(p); i++) {
            servet_mbsp_get(p, i, &ml);
            printf("  level %d: %d component%s of %d PUs, R^2 %.3f, g %.1f..%.1f, L %.0f..%.0f, r %.2f GFlop/s/PU\n",
                   i, ml.components, ml.components == 1 ? "" : "s", ml.pus_per_component, ml.r2, ml.g_range[0],
                   ml.g_range[1], ml.L_range[0], ml.L_range[1], ml.flops_per_s / 1e9);
        }
        if (servet_mbsp_count(p) == 0) printf("  (no PUs share memory below the machine: one level, nothing to measure)\n");
    }
    if (m.probes & SERVET_PROBE_APEX) {
        servet_apex_point ap;
        double last_alpha = -1;
        printf("\nApex-Map (GB/s, all threads; rows alpha, columns L words)\n");
        {
            int k;
            double first_alpha = 0;
            printf("  %-12s", "L words");
            for (k = 0; k < servet_apex_count(p); k++) {
                servet_apex_get(p, k, &ap);
                if (k == 0) first_alpha = ap.alpha;
                if (ap.alpha != first_alpha) break;
                printf(" %8d", ap.block_words);
            }
            printf("\n");
        }
        for (i = 0; i < servet_apex_count(p); i++) {
            servet_apex_get(p, i, &ap);
            if (ap.alpha != last_alpha) {
                printf("%s  alpha %-6g", i ? "\n" : "", ap.alpha);
                last_alpha = ap.alpha;
            }
            printf(" %8.2f", ap.bandwidth_bytes_per_s / 1e9);
        }
        printf("\n");
    }
    show_comm(p);
}

/* ---- plot: one SVG per probe with a curve or a surface. Every chart has
   its axes (class 'axis': lines, ticks, titles with units) and a legend
   (class 'legend') inside the picture; tests/check_svg.py checks both. ---- */
typedef struct chart_series {
    const char *name, *color;
    const double *x, *y;
    int n, dashed, no_points;
} chart_series;
typedef struct chart {
    const char *title, *xlabel, *ylabel;
    int xlog2;           /* x in bytes-like powers of two, labelled 1K, 1M.. */
    int xinteger;        /* linear x ticks on whole numbers (counts of PUs) */
    int ylog;            /* y on a log10 scale */
    double w, h;
    const double *marks; /* vertical dashed marks at these x, labelled */
    const char *const *mark_labels;
    int nmarks;
    const char *mark_name; /* the marks' legend entry */
} chart;

static void svg_begin(FILE *f, double w, double h) {
    fprintf(f, "<?xml version='1.0' encoding='UTF-8'?>\n<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
               "viewBox='0 0 %.0f %.0f' font-family='DejaVu Sans, Arial, sans-serif' font-size='11'>\n"
               "<rect width='100%%' height='100%%' fill='white'/>\n", w, h, w, h);
}
static void svg_end(FILE *f) { fprintf(f, "</svg>\n"); }
static void xml_text(FILE *f, const char *t) {
    for (; *t; t++) {
        if (*t == '<') fputs("&lt;", f);
        else if (*t == '>') fputs("&gt;", f);
        else if (*t == '&') fputs("&amp;", f);
        else fputc(*t, f);
    }
}
/* a title in one or two lines, each within `width` pixels (0.6 em, 7.8 px,
   per 13 px character, as tests/check_svg.py counts): split at the space
   nearest the middle */
static int svg_title(FILE *f, double x, double y, double width, const char *t) {
    size_t n = strlen(t), cut = 0, i;
    if ((double)n * 7.8 <= width) {
        fprintf(f, "<text x='%.0f' y='%.0f' font-size='13' font-weight='bold'>", x, y);
        xml_text(f, t);
        fprintf(f, "</text>\n");
        return 1;
    }
    for (i = 0; i < n; i++)
        if (t[i] == ' ' && (cut == 0 || labs((long)i - (long)n / 2) < labs((long)cut - (long)n / 2))) cut = i;
    {
        char first[512];
        snprintf(first, sizeof first, "%.*s", (int)cut, t);
        fprintf(f, "<text x='%.0f' y='%.0f' font-size='13' font-weight='bold'>", x, y);
        xml_text(f, first);
        fprintf(f, "</text>\n<text x='%.0f' y='%.0f' font-size='13' font-weight='bold'>", x, y + 16);
        xml_text(f, t + cut + 1);
        fprintf(f, "</text>\n");
    }
    return 2;
}
static void bytes_label(double b, char *out, size_t cap) {
    if (b >= 1073741824.0) snprintf(out, cap, "%gG", b / 1073741824.0);
    else if (b >= 1048576.0) snprintf(out, cap, "%gM", b / 1048576.0);
    else if (b >= 1024.0) snprintf(out, cap, "%gK", b / 1024.0);
    else snprintf(out, cap, "%g", b);
}
/* 1, 2 or 5 times a power of ten, the nearest above `raw` */
static double nice_step(double raw) {
    double p = pow(10.0, floor(log10(raw > 0 ? raw : 1.0))), m = raw / p;
    return (m <= 1.0 ? 1.0 : m <= 2.0 ? 2.0 : m <= 5.0 ? 5.0 : 10.0) * p;
}
/* One chart at (ox, oy): title, axes with ticks and titles, the series as
   lines with points, the marks, a legend in the top left of the plot. */
static void svg_chart(FILE *f, double ox, double oy, const chart *c, const chart_series *s, int ns) {
    const double W = c->w, H = c->h, L = 72, R = 20, B = 46;
    double T, xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
    int i, k, lines;
    fprintf(f, "<g transform='translate(%.0f,%.0f)'>\n", ox, oy);
    lines = svg_title(f, 10, 18, W - 20, c->title);
    T = lines == 1 ? 32 : 48;
    for (k = 0; k < ns; k++)
        for (i = 0; i < s[k].n; i++) {
            double xv = c->xlog2 ? log2(s[k].x[i]) : s[k].x[i], yv = c->ylog ? log10(s[k].y[i]) : s[k].y[i];
            if (!(s[k].y[i] > 0) && c->ylog) continue;
            if (xv < xmin) xmin = xv;
            if (xv > xmax) xmax = xv;
            if (yv < ymin) ymin = yv;
            if (yv > ymax) ymax = yv;
        }
    if (xmin > xmax) { xmin = 0; xmax = 1; }
    if (ymin > ymax) { ymin = 0; ymax = 1; }
    if (!c->ylog && ymin > 0 && ymin < 0.5 * ymax) ymin = 0; /* linear: from 0 when it is near */
    if (ymax <= ymin) ymax = ymin + 1;
    if (xmax <= xmin) xmax = xmin + 1;
    {
        double pad = (ymax - ymin) * 0.05;
        ymax += pad;
        if (c->ylog || ymin > 0) ymin -= pad;
    }
#define PX(v) (L + ((v) - xmin) / (xmax - xmin) * (W - L - R))
#define PY(v) (H - B - ((v) - ymin) / (ymax - ymin) * (H - T - B))
    fprintf(f, "<g class='axis'>\n<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' stroke='black'/>"
               "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' stroke='black'/>\n",
            L, H - B, W - R, H - B, L, T, L, H - B);
    if (c->xlog2) {
        int step = (int)(xmax - xmin) > 12 ? 2 : 1;
        for (i = (int)ceil(xmin); i <= (int)floor(xmax); i++) {
            char lab[32];
            fprintf(f, "<line x1='%.1f' y1='%.0f' x2='%.1f' y2='%.0f' stroke='#e4e4e4'/>", PX(i), T, PX(i), H - B);
            if (i % step == 0) {
                bytes_label(pow(2.0, i), lab, sizeof lab);
                fprintf(f, "<text x='%.1f' y='%.0f' text-anchor='middle'>%s</text>\n", PX(i), H - B + 14, lab);
            }
        }
    } else {
        double step = nice_step((xmax - xmin) / 5.0), v;
        if (c->xinteger && step < 1.0) step = 1.0;
        for (v = ceil(xmin / step - 1e-9) * step; v <= xmax + 1e-9 * step; v += step)
            fprintf(f, "<line x1='%.1f' y1='%.0f' x2='%.1f' y2='%.0f' stroke='#e4e4e4'/><text x='%.1f' y='%.0f' "
                       "text-anchor='middle'>%g</text>\n", PX(v), T, PX(v), H - B, PX(v), H - B + 14, fabs(v) < 1e-12 ? 0.0 : v);
    }
    if (c->ylog) { /* 1-2-5 ticks per decade, or decades alone when there are many */
        int d0 = (int)floor(ymin), d1 = (int)ceil(ymax), dd, m, count = 0;
        static const double mant[3] = {1, 2, 5};
        int every = d1 - d0 > 3 ? 3 : 1;
        for (dd = d0; dd <= d1; dd++)
            for (m = 0; m < 3; m += every) {
                double v = log10(mant[m]) + dd;
                if (v < ymin || v > ymax) continue;
                fprintf(f, "<line x1='%.0f' y1='%.1f' x2='%.0f' y2='%.1f' stroke='#e4e4e4'/><text x='%.0f' y='%.1f' "
                           "text-anchor='end'>%g</text>\n", L, PY(v), W - R, PY(v), L - 4, PY(v) + 4, pow(10, v));
                count++;
            }
        if (count < 2)
            for (i = 0; i <= 4; i++) {
                double v = ymin + (ymax - ymin) * i / 4.0;
                fprintf(f, "<text x='%.0f' y='%.1f' text-anchor='end'>%.3g</text>\n", L - 4, PY(v) + 4, pow(10, v));
            }
    } else {
        double step = nice_step((ymax - ymin) / 5.0), v;
        for (v = ceil(ymin / step - 1e-9) * step; v <= ymax + 1e-9 * step; v += step)
            fprintf(f, "<line x1='%.0f' y1='%.1f' x2='%.0f' y2='%.1f' stroke='#e4e4e4'/><text x='%.0f' y='%.1f' "
                       "text-anchor='end'>%g</text>\n", L, PY(v), W - R, PY(v), L - 4, PY(v) + 4, fabs(v) < 1e-12 ? 0.0 : v);
    }
    fprintf(f, "<text x='%.0f' y='%.0f' text-anchor='middle'>", (W + L - R) / 2, H - 10);
    xml_text(f, c->xlabel);
    fprintf(f, "</text>\n<text x='14' y='%.0f' text-anchor='middle' transform='rotate(-90 14 %.0f)'>", (T + H - B) / 2,
            (T + H - B) / 2);
    xml_text(f, c->ylabel);
    fprintf(f, "</text>\n</g>\n");
    for (i = 0; i < c->nmarks; i++) {
        double xv = c->xlog2 ? log2(c->marks[i]) : c->marks[i];
        if (xv < xmin || xv > xmax) continue;
        const char *lab = c->mark_labels ? c->mark_labels[i] : "";
        /* the label right of its line, or left of it where it would pass the edge */
        int left = PX(xv) + 3 + 6.6 * (double)strlen(lab) > W - 2;
        fprintf(f, "<line x1='%.1f' y1='%.0f' x2='%.1f' y2='%.0f' stroke='#d62728' stroke-dasharray='4 3'/>"
                   "<text x='%.1f' y='%.0f' fill='#d62728'%s>",
                PX(xv), T, PX(xv), H - B, left ? PX(xv) - 3 : PX(xv) + 3, H - B - 6 - 12 * (i % 3),
                left ? " text-anchor='end'" : "");
        xml_text(f, lab);
        fprintf(f, "</text>\n");
    }
    for (k = 0; k < ns; k++) {
        fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='1.6'%s points='", s[k].color,
                s[k].dashed ? " stroke-dasharray='6 4'" : "");
        for (i = 0; i < s[k].n; i++) {
            if (c->ylog && !(s[k].y[i] > 0)) continue;
            fprintf(f, "%.1f,%.1f ", PX(c->xlog2 ? log2(s[k].x[i]) : s[k].x[i]), PY(c->ylog ? log10(s[k].y[i]) : s[k].y[i]));
        }
        fprintf(f, "'/>\n");
        if (!s[k].no_points)
            for (i = 0; i < s[k].n; i++) {
                if (c->ylog && !(s[k].y[i] > 0)) continue;
                fprintf(f, "<circle cx='%.1f' cy='%.1f' r='2.2' fill='%s'/>", PX(c->xlog2 ? log2(s[k].x[i]) : s[k].x[i]),
                        PY(c->ylog ? log10(s[k].y[i]) : s[k].y[i]), s[k].color);
            }
        fprintf(f, "\n");
    }
    /* legend: a white box in the top left of the plot area */
    {
        int rows = ns + (c->nmarks > 0 && c->mark_name ? 1 : 0), r = 0;
        size_t widest = 0;
        for (k = 0; k < ns; k++) if (strlen(s[k].name) > widest) widest = strlen(s[k].name);
        if (c->nmarks > 0 && c->mark_name && strlen(c->mark_name) > widest) widest = strlen(c->mark_name);
        fprintf(f, "<g class='legend'><rect x='%.0f' y='%.0f' width='%.0f' height='%d' fill='white' fill-opacity='0.85' "
                   "stroke='#999'/>\n", L + 8, T + 6, 34 + 6.2 * (double)widest, 6 + 15 * rows);
        for (k = 0; k < ns; k++, r++) {
            fprintf(f, "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' stroke='%s' stroke-width='2'%s/><text x='%.0f' y='%.0f'>",
                    L + 14, T + 17 + 15 * r, L + 34, T + 17 + 15 * r, s[k].color, s[k].dashed ? " stroke-dasharray='6 4'" : "",
                    L + 40, T + 21 + 15 * r);
            xml_text(f, s[k].name);
            fprintf(f, "</text>\n");
        }
        if (c->nmarks > 0 && c->mark_name) {
            fprintf(f, "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' stroke='#d62728' stroke-dasharray='4 3'/><text x='%.0f' "
                       "y='%.0f'>", L + 14, T + 17 + 15 * r, L + 34, T + 17 + 15 * r, L + 40, T + 21 + 15 * r);
            xml_text(f, c->mark_name);
            fprintf(f, "</text>\n");
        }
        fprintf(f, "</g>\n");
    }
    fprintf(f, "</g>\n");
#undef PX
#undef PY
}
/* a colour scale for the heatmaps: blue (low) .. red (high), log scale */
static void heat_rgb(double t, int *r, int *g, int *b) {
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    *r = (int)(40 + 215 * t);
    *g = (int)(90 + 90 * (1 - fabs(2 * t - 1)));
    *b = (int)(40 + 215 * (1 - t));
}
static void heat_legend(FILE *f, double x, double y, double lo, double hi, const char *unit) {
    int i, r, g, b;
    fprintf(f, "<g class='legend'><text x='%.0f' y='%.0f'>", x, y - 4);
    xml_text(f, unit);
    fprintf(f, " (log colour scale)</text>\n");
    for (i = 0; i < 20; i++) {
        heat_rgb(i / 19.0, &r, &g, &b);
        fprintf(f, "<rect x='%.0f' y='%.0f' width='10' height='12' fill='rgb(%d,%d,%d)'/>", x + 10 * i, y, r, g, b);
    }
    fprintf(f, "\n<text x='%.0f' y='%.0f'>%.3g</text><text x='%.0f' y='%.0f' text-anchor='end'>%.3g</text></g>\n", x, y + 26,
            lo, x + 200, y + 26, hi);
}
/* one palette for every chart's series */
static const char *const colors[8] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf"};
static FILE *plot_open(const char *dir, const char *name, char *path, size_t cap) {
    FILE *f;
    snprintf(path, cap, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (!f) fprintf(stderr, "servet: cannot write %s: %s\n", path, strerror(errno));
    return f;
}
static void plot_done(FILE *f, const char *path) {
    fclose(f);
    printf("wrote %s\n", path);
}
/* DIR/name: a picture holding one chart */
static int plot_single(const char *dir, const char *name, const chart *ch, const chart_series *s, int ns) {
    char path[4096];
    FILE *f = plot_open(dir, name, path, sizeof path);
    if (!f) return 1;
    svg_begin(f, ch->w, ch->h);
    svg_chart(f, 0, 0, ch, s, ns);
    svg_end(f);
    plot_done(f, path);
    return 0;
}

/* comm_heatmap.svg: latency of every measured rank pair (grey: not
   measured, layer from its relation class); comm_curves.svg: one-way time
   and bandwidth of each layer's representative pair (Fig. 10c/d). */
static int plot_comm(const servet_profile *p, const char *dir) {
    servet_comm_info ci;
    servet_comm_layer_info L;
    char path[4096], title[200];
    FILE *f;
    int i, a, b, layer, l, n, cell, nl, side;
    static double x[8][64], y[8][64], z[8][64];
    chart_series ts[8], bs[8];
    static char names[8][96];
    double lat, lo = 1e300, hi = 0;
    if (servet_comm_get(p, &ci) != SERVET_OK) return 0;
    for (i = 0; servet_comm_pair_get(p, i, &a, &b, &lat, &layer) == SERVET_OK; i++) {
        if (lat < lo) lo = lat;
        if (lat > hi) hi = lat;
    }
    cell = ci.ranks <= 32 ? 24 : ci.ranks <= 128 ? 6 : 2;
    side = 70 + cell * ci.ranks;
    if (!(f = plot_open(dir, "comm_heatmap.svg", path, sizeof path))) return 1;
    svg_begin(f, side + 20 > 560 ? side + 20 : 560, side + 76);
    snprintf(title, sizeof title, "MPI: one-way time of a %.0f-byte message between ranks (row, column)", ci.message_bytes);
    svg_title(f, 10, 18, (side + 20 > 560 ? side + 20 : 560) - 20, title);
    for (a = 0; a < ci.ranks; a++)
        for (b = 0; b < ci.ranks; b++) {
            double v = -1;
            int k, la, lb;
            if (a == b) continue;
            for (k = 0; servet_comm_pair_get(p, k, &la, &lb, &lat, &layer) == SERVET_OK; k++)
                if ((la == a && lb == b) || (la == b && lb == a)) v = lat;
            if (v > 0) {
                int r, g, bl;
                heat_rgb(hi > lo ? (log(v) - log(lo)) / (log(hi) - log(lo)) : 0.5, &r, &g, &bl);
                fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='rgb(%d,%d,%d)'><title>%d-%d %.2f us</title></rect>\n",
                        60 + cell * b, 60 + cell * a, cell, cell, r, g, bl, a, b, v * 1e6);
            } else {
                fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='#ccc'/>", 60 + cell * b, 60 + cell * a, cell, cell);
                if (cell >= 20)
                    fprintf(f, "<text x='%d' y='%d' text-anchor='middle' fill='#555'>L%d</text>", 60 + cell * b + cell / 2,
                            60 + cell * a + cell / 2 + 4, servet_comm_layer_of(p, a, b, &layer) == SERVET_OK ? layer : -1);
                fprintf(f, "\n");
            }
        }
    fprintf(f, "<g class='axis'><text x='%d' y='50' text-anchor='middle'>rank (column)</text>"
               "<text x='14' y='%d' text-anchor='middle' transform='rotate(-90 14 %d)'>rank (row)</text>\n",
            60 + cell * ci.ranks / 2, 60 + cell * ci.ranks / 2, 60 + cell * ci.ranks / 2);
    if (cell >= 20)
        for (a = 0; a < ci.ranks; a++)
            fprintf(f, "<text x='55' y='%d' text-anchor='end'>%d</text><text x='%d' y='%d' text-anchor='middle'>%d</text>\n",
                    60 + cell * a + cell / 2 + 4, a, 60 + cell * a + cell / 2, 60 + cell * ci.ranks + 14, a);
    fprintf(f, "</g>\n");
    heat_legend(f, 60, side + 20, lo * 1e6, hi * 1e6, "one-way time (us)");
    fprintf(f, "<text x='60' y='%d' fill='#555'>grey: pair not measured, Lk: the layer of its relation class</text>\n",
            side + 62);
    svg_end(f);
    plot_done(f, path);

    nl = servet_comm_layer_count(p) < 8 ? servet_comm_layer_count(p) : 8;
    for (l = 0; l < nl && servet_comm_layer_get(p, l, &L) == SERVET_OK; l++) {
        for (n = 0; n < 64 && servet_comm_curve_get(p, l, n, &x[l][n], &y[l][n], &z[l][n]) == SERVET_OK; n++) {
            y[l][n] *= 1e6;
            z[l][n] /= 1e6;
        }
        snprintf(names[l], sizeof names[l], "layer %d, %s, ranks %d-%d", l,
                 L.intra_node == 1 ? "intra-node" : L.intra_node == 0 ? "inter-node" : "mixed", L.representative[0],
                 L.representative[1]);
        ts[l].name = bs[l].name = names[l];
        ts[l].color = bs[l].color = colors[l];
        ts[l].x = bs[l].x = x[l];
        ts[l].y = y[l];
        bs[l].y = z[l];
        ts[l].n = bs[l].n = n;
        ts[l].dashed = bs[l].dashed = 0;
        ts[l].no_points = bs[l].no_points = 0;
    }
    if (nl > 0) {
        chart c;
        memset(&c, 0, sizeof c);
        c.w = 760;
        c.h = 330;
        c.xlog2 = 1;
        c.ylog = 1;
        c.xlabel = "message size (bytes)";
        if (!(f = plot_open(dir, "comm_curves.svg", path, sizeof path))) return 1;
        svg_begin(f, 760, 660);
        c.title = "MPI ping-pong per layer: one-way time (Servet Fig. 10c)";
        c.ylabel = "one-way time (us)";
        svg_chart(f, 0, 0, &c, ts, nl);
        c.title = "MPI ping-pong per layer: bandwidth (Servet Fig. 10d)";
        c.ylabel = "bandwidth (MB/s)";
        svg_chart(f, 0, 330, &c, bs, nl);
        svg_end(f);
        plot_done(f, path);
    }
    return 0;
}

/* cache_curve.svg: the mcalibrator curve with the TLB walk, the second
   (independent-reference) walk and the detected levels, and its gradient
   (Servet Fig. 2) */
static int plot_cache(const servet_profile *p, const char *dir) {
    static double x[SERVET_CURVE_MAX], y[SERVET_CURVE_MAX], g[SERVET_CURVE_MAX], tx[SERVET_CURVE_MAX], ty[SERVET_CURVE_MAX];
    static double ix[SERVET_CURVE_MAX], iy[SERVET_CURVE_MAX];
    static double marks[32];
    static char labels[32][48];
    const char *mark_labels[32];
    const servet_curve *c, *ct = NULL, *ci = NULL;
    chart_series s[3];
    chart ch;
    char path[4096], sz[32];
    FILE *f;
    int i, nm = 0, n, ns = 1;
    double one = 1.0;
    if (servet_cache_curve_get(p, &c) != SERVET_OK) return 0;
    for (i = 0; i < servet_cache_count(p) && nm < 16; i++) {
        servet_cache_info ci;
        servet_cache_get(p, i + 1, &ci);
        if (!ci.size_bytes) continue;
        human_bytes((double)ci.size_bytes, sz, sizeof sz);
        snprintf(labels[nm], sizeof labels[nm], "L%d %s", ci.level, sz);
        marks[nm++] = (double)ci.size_bytes;
    }
    for (i = 0; i < servet_tlb_count(p) && nm < 32; i++) {
        double reach = 0;
        servet_tlb_get(p, i, &reach);
        human_bytes(reach, sz, sizeof sz);
        snprintf(labels[nm], sizeof labels[nm], "TLB%d %s", i + 1, sz);
        marks[nm++] = reach;
    }
    for (i = 0; i < nm; i++) mark_labels[i] = labels[i];
    n = c->n;
    for (i = 0; i < n; i++) { x[i] = c->bytes[i]; y[i] = c->ns[i]; }
    for (i = 0; i + 1 < n; i++) g[i] = y[i + 1] / y[i];
    memset(s, 0, sizeof s);
    s[0].name = "random walk, one access per line (ns)";
    s[0].color = "#1f77b4";
    s[0].x = x;
    s[0].y = y;
    s[0].n = n;
    if (servet_tlb_curve_get(p, &ct) == SERVET_OK && ct->n > 1) {
        for (i = 0; i < ct->n; i++) { tx[i] = ct->bytes[i]; ty[i] = ct->ns[i]; }
        s[1].name = "TLB walk, one line per 4 KiB page (ns)";
        s[1].color = "#ff7f0e";
        s[1].x = tx;
        s[1].y = ty;
        s[1].n = ct->n;
        s[1].dashed = 1;
        ns = 2;
    }
    if (servet_cache_irm_curve_get(p, &ci) == SERVET_OK && ci->n > 1) {
        for (i = 0; i < ci->n; i++) { ix[i] = ci->bytes[i]; iy[i] = ci->ns[i]; }
        s[ns].name = "second walk, independent random lines (ns)";
        s[ns].color = "#2ca02c";
        s[ns].x = ix;
        s[ns].y = iy;
        s[ns].n = ci->n;
        ns++;
    }
    memset(&ch, 0, sizeof ch);
    ch.w = 760;
    ch.h = 340;
    ch.xlog2 = 1;
    ch.ylog = 1;
    ch.title = "Cache probe: time per access vs array size (mcalibrator, Servet Fig. 2a)";
    ch.xlabel = "array size (bytes)";
    ch.ylabel = "time per access (ns)";
    ch.marks = marks;
    ch.mark_labels = mark_labels;
    ch.nmarks = nm;
    ch.mark_name = "detected cache levels and TLB reaches";
    if (!(f = plot_open(dir, "cache_curve.svg", path, sizeof path))) return 1;
    svg_begin(f, 760, 680);
    svg_chart(f, 0, 0, &ch, s, ns);
    if (n > 1) {
        chart_series gs[2];
        double gx[2], gy[2];
        memset(gs, 0, sizeof gs);
        gs[0].name = "C[k+1] / C[k]";
        gs[0].color = "#1f77b4";
        gs[0].x = x;
        gs[0].y = g;
        gs[0].n = n - 1;
        gx[0] = x[0];
        gx[1] = x[n - 2];
        gy[0] = gy[1] = one;
        gs[1].name = "1 (flat)";
        gs[1].color = "#999999";
        gs[1].x = gx;
        gs[1].y = gy;
        gs[1].n = 2;
        gs[1].dashed = 1;
        gs[1].no_points = 1;
        ch.title = "Cache probe: gradient of the curve (Servet Fig. 2b); steps are levels";
        ch.ylabel = "gradient";
        ch.ylog = 0;
        svg_chart(f, 0, 340, &ch, gs, 2);
    }
    svg_end(f);
    plot_done(f, path);
    return 0;
}

/* memory.svg: aggregate copy bandwidth as the first group of each overhead
   level fills (Servet Fig. 9b), against perfect scaling of one PU alone;
   with no overhead level, the measured pairs (2 PUs) against it. */
static int plot_memory(const servet_profile *p, const char *dir) {
    static double x[9][64], y[9][64];
    static char names[9][80];
    chart_series s[9];
    chart ch;
    servet_memory_info mi;
    int lv, i, ns = 0, maxk = 2, pu, a, b;
    double bw;
    if (servet_memory_get(p, &mi) != SERVET_OK) return 0;
    memset(s, 0, sizeof s);
    for (lv = 1; lv <= servet_memory_level_count(p) && ns < 8; lv++) {
        int n = 0;
        for (i = 0; servet_memory_scaling_get(p, lv, i, &pu, &bw) == SERVET_OK && i < 64; i++) {
            x[ns][n] = i + 1;
            y[ns][n++] = bw / 1e9;
        }
        if (n == 0) continue;
        if (n > maxk) maxk = n;
        snprintf(names[ns], sizeof names[ns], "overhead level %d: its first group filling", lv);
        s[ns].name = names[ns];
        s[ns].color = colors[ns % 8];
        s[ns].x = x[ns];
        s[ns].y = y[ns];
        s[ns].n = n;
        ns++;
    }
    if (ns == 0) { /* no level: each measured pair, as 2 PUs copying at once */
        int n = 0;
        x[0][n] = 1;
        y[0][n++] = mi.ref_bandwidth_bytes_per_s / 1e9;
        for (i = 0; servet_memory_pair_get(p, i, &a, &b, &bw) == SERVET_OK && n < 64; i++) {
            x[0][n] = 2;
            y[0][n++] = 2 * bw / 1e9;
        }
        s[0].name = "1 PU alone, then each measured pair (sum of both)";
        s[0].color = colors[0];
        s[0].x = x[0];
        s[0].y = y[0];
        s[0].n = n;
        ns = 1;
    }
    for (i = 0; i < maxk; i++) {
        x[8][i] = i + 1;
        y[8][i] = (i + 1) * mi.ref_bandwidth_bytes_per_s / 1e9;
    }
    s[ns].name = "perfect scaling of one PU alone";
    s[ns].color = "#999999";
    s[ns].x = x[8];
    s[ns].y = y[8];
    s[ns].n = maxk;
    s[ns].dashed = 1;
    s[ns].no_points = 1;
    ns++;
    memset(&ch, 0, sizeof ch);
    ch.w = 760;
    ch.h = 340;
    ch.title = "Memory probe: aggregate copy bandwidth as PUs copy at once (Servet Fig. 9b)";
    ch.xlabel = "PUs copying at once";
    ch.xinteger = 1;
    ch.ylabel = "aggregate bandwidth (GB/s)";
    return plot_single(dir, "memory.svg", &ch, s, ns);
}

/* mbsp.svg: per level the measured h-relations T(h) and the fitted line
   g h + L (MBSPDiscover) */
static int plot_mbsp(const servet_profile *p, const char *dir) {
    static double x[16][32], y[16][32], fx[16][2], fy[16][2];
    static char names[16][96];
    chart_series s[16];
    chart ch;
    int lv, i, ns = 0;
    if (servet_mbsp_count(p) == 0) return 0;
    memset(s, 0, sizeof s);
    for (lv = 1; lv <= servet_mbsp_count(p) && ns + 2 <= 16; lv++) {
        servet_mbsp_level m;
        int n = 0;
        double hmax = 0;
        servet_mbsp_get(p, lv, &m);
        for (i = 0; i < 32 && servet_mbsp_hrel_get(p, lv, i, &x[ns][n], &y[ns][n]) == SERVET_OK; i++) {
            if (x[ns][n] > hmax) hmax = x[ns][n];
            n++;
        }
        if (n == 0) continue;
        snprintf(names[ns], sizeof names[ns], "level %d: measured T(h)", lv);
        s[ns].name = names[ns];
        s[ns].color = colors[lv % 8];
        s[ns].x = x[ns];
        s[ns].y = y[ns];
        s[ns].n = n;
        s[ns].dashed = 0;
        ns++;
        fx[ns][0] = 0;
        fx[ns][1] = hmax;
        fy[ns][0] = m.L;
        fy[ns][1] = m.g * hmax + m.L;
        snprintf(names[ns], sizeof names[ns], "level %d fit: g %.1f flops/word, L %.0f flops, R^2 %.3f", lv, m.g, m.L, m.r2);
        s[ns].name = names[ns];
        s[ns].color = colors[lv % 8];
        s[ns].x = fx[ns];
        s[ns].y = fy[ns];
        s[ns].n = 2;
        s[ns].dashed = 1;
        s[ns].no_points = 1;
        ns++;
    }
    if (ns == 0) return 0;
    memset(&ch, 0, sizeof ch);
    ch.w = 760;
    ch.h = 360;
    ch.title = "MultiBSP probe: h-relation time T(h) = g h + L per level (MBSPDiscover)";
    ch.xlabel = "h (words each PU sends and receives)";
    ch.ylabel = "T(h) (flops)";
    return plot_single(dir, "mbsp.svg", &ch, s, ns);
}

/* apexmap.svg: the Apex-Map surface as a heatmap (rows alpha, columns L) */
static int plot_apex(const servet_profile *p, const char *dir) {
    double lo = 1e300, hi = 0, alphas[64];
    int blocks[64], na = 0, nb = 0, k, q, w, h;
    servet_apex_point ap;
    char path[4096];
    FILE *f;
    if (servet_apex_count(p) == 0) return 0;
    for (k = 0; k < servet_apex_count(p); k++) {
        int seen = 0;
        servet_apex_get(p, k, &ap);
        if (ap.bandwidth_bytes_per_s < lo) lo = ap.bandwidth_bytes_per_s;
        if (ap.bandwidth_bytes_per_s > hi) hi = ap.bandwidth_bytes_per_s;
        for (q = 0; q < na; q++) if (alphas[q] == ap.alpha) seen = 1;
        if (!seen && na < 64) alphas[na++] = ap.alpha;
        seen = 0;
        for (q = 0; q < nb; q++) if (blocks[q] == ap.block_words) seen = 1;
        if (!seen && nb < 64) blocks[nb++] = ap.block_words;
    }
    w = 130 + 70 * nb > 560 ? 130 + 70 * nb : 560;
    h = 150 + 40 * na;
    if (!(f = plot_open(dir, "apexmap.svg", path, sizeof path))) return 1;
    svg_begin(f, w, h);
    svg_title(f, 10, 18, w - 20, "Apex-Map: aggregate bandwidth (GB/s) by temporal locality alpha and spatial locality L");
    for (k = 0; k < servet_apex_count(p); k++) {
        int row = 0, col = 0, r, g, b;
        double tt;
        servet_apex_get(p, k, &ap);
        for (q = 0; q < na; q++) if (alphas[q] == ap.alpha) row = q;
        for (q = 0; q < nb; q++) if (blocks[q] == ap.block_words) col = q;
        tt = hi > lo ? (log(ap.bandwidth_bytes_per_s) - log(lo)) / (log(hi) - log(lo)) : 0.5;
        heat_rgb(tt, &r, &g, &b);
        fprintf(f, "<rect x='%d' y='%d' width='70' height='40' fill='rgb(%d,%d,%d)' stroke='white'/>"
                   "<text x='%d' y='%d' text-anchor='middle' fill='white'>%.2f</text>\n",
                110 + 70 * col, 60 + 40 * row, r, g, b, 145 + 70 * col, 85 + 40 * row, ap.bandwidth_bytes_per_s / 1e9);
    }
    fprintf(f, "<g class='axis'>\n");
    for (q = 0; q < na; q++) fprintf(f, "<text x='104' y='%d' text-anchor='end'>%g</text>\n", 85 + 40 * q, alphas[q]);
    for (q = 0; q < nb; q++) fprintf(f, "<text x='%d' y='%d' text-anchor='middle'>%d</text>\n", 145 + 70 * q, 74 + 40 * na, blocks[q]);
    fprintf(f, "<text x='%d' y='%d' text-anchor='middle'>L: block length (words, spatial locality)</text>\n"
               "<text x='30' y='%d' text-anchor='middle' transform='rotate(-90 30 %d)'>alpha (temporal locality; small = reuse)</text>\n</g>\n",
            110 + 35 * nb, 92 + 40 * na, 60 + 20 * na, 60 + 20 * na);
    heat_legend(f, 110, 112 + 40 * na, lo / 1e9, hi / 1e9, "aggregate bandwidth, GB/s");
    svg_end(f);
    plot_done(f, path);
    return 0;
}

static int plot(const servet_profile *p, const char *dir) {
    servet_machine_info m;
    int rc = 0;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "servet: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    servet_machine_get(p, &m);
    if (!(m.probes & (SERVET_PROBE_CACHE | SERVET_PROBE_MEMORY | SERVET_PROBE_MBSP | SERVET_PROBE_APEX)) &&
        servet_comm_layer_count(p) == 0) {
        fprintf(stderr, "servet: the profile has no curve to draw; run 'servet probe' first\n");
        return 1;
    }
    rc |= plot_cache(p, dir);
    rc |= plot_memory(p, dir);
    rc |= plot_mbsp(p, dir);
    rc |= plot_apex(p, dir);
    rc |= plot_comm(p, dir);
    return rc;
}

static int cmd_simulate(int argc, char **argv) {
    sim_spec sp;
    char err[256];
    servet_curve *curve;
    servet_cache_level lv[SIM_MAX_LEVELS];
    const char *spec = NULL;
    int i, k, print_curve = 0, hash_last = 0;
    const char *coloring = NULL, *noise = NULL, *seed = NULL;
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--coloring") && i + 1 < argc) coloring = argv[++i];
        else if (!strcmp(argv[i], "--noise") && i + 1 < argc) noise = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = argv[++i];
        else if (!strcmp(argv[i], "--hash-last")) hash_last = 1;
        else if (!strcmp(argv[i], "--curve")) print_curve = 1;
        else if (argv[i][0] == '-') return die_usage("unknown option for simulate", argv[i]);
        else if (!spec) spec = argv[i];
        else return die_usage("simulate takes one SPEC file", argv[i]);
    }
    if (!spec) return die_usage("simulate needs a SPEC file", NULL);
    /* usage errors first (exit 2), then the file (exit 1) */
    if (coloring && strcmp(coloring, "on") && strcmp(coloring, "off")) return die_usage("--coloring takes on or off", coloring);
    if (noise) {
        char *end;
        double v = strtod(noise, &end);
        if (*end || !(v >= 0 && v <= 0.5)) return die_usage("--noise takes a number in [0,0.5]", noise);
    }
    if (!sim_load_spec(spec, &sp, err, sizeof err)) {
        fprintf(stderr, "servet: %s: %s\n", spec, err);
        return 1;
    }
    if (coloring) sp.coloring = !strcmp(coloring, "on");
    if (noise) sp.noise = strtod(noise, NULL);
    if (seed) sp.seed = strtoull(seed, NULL, 10);
    if (hash_last) sp.lv[sp.nlevels - 1].hash = 1;
    curve = (servet_curve *)calloc(1, sizeof *curve);
    if (!curve) return 1;
    k = sim_detect(&sp, curve, lv, SIM_MAX_LEVELS);
    if (k < 0) {
        fprintf(stderr, "servet: simulation failed\n");
        free(curve);
        return 1;
    }
    printf("{\"caches\":[");
    for (i = 0; i < k; i++)
        printf("%s{\"level\":%d,\"size_bytes\":%.0f,\"method\":\"%s\"}", i ? "," : "", i + 1, lv[i].size_bytes,
               method_name(lv[i].method));
    printf("]");
    if (print_curve) {
        printf(",\"curve\":[");
        for (i = 0; i < curve->n; i++) printf("%s[%.0f,%.4g]", i ? "," : "", curve->bytes[i], curve->ns[i]);
        printf("]");
    }
    printf("}\n");
    free(curve);
    return 0;
}

/* comma-separated numbers -> array; 0 on a bad item */
static int parse_list(const char *s, double *out, int max) {
    int n = 0;
    while (*s && n < max) {
        char *end;
        double v = strtod(s, &end);
        if (end == s || !(v > 0)) return 0;
        out[n++] = v;
        s = end;
        if (*s == ',') s++;
        else if (*s) return 0;
    }
    return *s ? 0 : n;
}

static int cmd_apex(int argc, char **argv) {
    servet_apex_desc d;
    servet_apex_point pts[1024];
    double al[64], bl[64];
    int blocks[64], i, n = 0, mpi = 0, rank = 0;
    servet_result r;
    memset(&d, 0, sizeof d);
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if (!strcmp(a, "--mpi")) { mpi = 1; continue; }
        if (i + 1 >= argc) return die_usage("option needs a value", a);
        if (!strcmp(a, "--memory")) {
            d.memory_words = strtod(argv[++i], &end);
            if (*end || !(d.memory_words >= 65536)) return die_usage("--memory takes a word count >= 65536", argv[i]);
        } else if (!strcmp(a, "--alpha")) {
            d.nalpha = parse_list(argv[++i], al, 64);
            if (!d.nalpha) return die_usage("--alpha takes numbers in (0,1], comma-separated", argv[i]);
            for (int k = 0; k < d.nalpha; k++) if (al[k] > 1) return die_usage("--alpha values must be <= 1", argv[i]);
            d.alphas = al;
        } else if (!strcmp(a, "--block")) {
            d.nblock = parse_list(argv[++i], bl, 64);
            if (!d.nblock) return die_usage("--block takes word counts, comma-separated", argv[i]);
            for (int k = 0; k < d.nblock; k++) blocks[k] = (int)bl[k];
            d.blocks = blocks;
        } else if (!strcmp(a, "--threads")) {
            d.threads = atoi(argv[++i]);
            if (d.threads < 1) return die_usage("--threads takes a positive count", argv[i]);
        } else if (!strcmp(a, "--accesses")) {
            d.accesses = strtod(argv[++i], &end);
            if (*end || !(d.accesses >= 1024)) return die_usage("--accesses takes a count >= 1024", argv[i]);
        } else return die_usage("unknown option for apex", a);
    }
    if (mpi) {
#ifdef SERVET_USE_MPI
        int size;
        MPI_Init(NULL, NULL);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        r = servet_apex_mpi(&d, pts, 1024, &n, NULL);
        MPI_Finalize();
        if (rank == 0 && r == SERVET_OK) printf("Apex-Map over %d MPI ranks\n", size);
#else
        r = servet_apex_mpi(&d, pts, 1024, &n, NULL);
        fprintf(stderr, "servet: apex --mpi: %s; build servet with MPI (make does when mpicc is found) and run it under mpirun\n",
                servet_result_string(r));
        return 1;
#endif
    } else {
        r = servet_apex(&d, pts, 1024, &n);
    }
    if (r != SERVET_OK) { fprintf(stderr, "servet: apex: %s\n", servet_result_string(r)); return 1; }
    if (rank != 0) return 0;
    printf("%8s %8s %12s %14s\n", "alpha", "L words", "ns/word", "GB/s (all)");
    for (i = 0; i < n; i++)
        printf("%8g %8d %12.3f %14.3f\n", pts[i].alpha, pts[i].block_words, pts[i].ns_per_word, pts[i].bandwidth_bytes_per_s / 1e9);
    return 0;
}

/* ---- tile: the tile-size decision for a loop nest described on the command line ---- */
static void json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned char)*s);
        else putchar(*s);
    }
    putchar('"');
}
static int parse_i64(const char *s, int64_t lo, int64_t *out) {
    char *end;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo) return 0;
    *out = (int64_t)v;
    return 1;
}
/* {"name": value, ...}: a tile per loop, a tuned point per parameter */
static void print_values_json(const char *const *names, const int64_t *v, int n) {
    int k;
    printf("{");
    for (k = 0; k < n; k++) {
        printf("%s", k ? ", " : "");
        json_string(names[k]);
        printf(": %lld", (long long)v[k]);
    }
    printf("}");
}
static void print_tile_json(const servet_tile_desc *d, const int64_t *tile) {
    const char *names[SERVET_TILE_MAX_LOOPS];
    int l;
    for (l = 0; l < d->nloops; l++) names[l] = d->loops[l].name;
    print_values_json(names, tile, d->nloops);
}
/* "tune": the `servet tune` command that refines this answer on the real
   kernel, less the program: the tiled loops as parameters (multiples of
   --multiple, else of a line's elements, up to the extent - from 1 by 1 for a
   loop no array the innermost loop walks is contiguous in (servet.h's
   servet__tile_contiguous_in, the tile search's test: it offers such a loop
   1, 2 and 4), unless --multiple; --square: one, T,
   over the largest loop), the tile as the seed and the alternatives as more
   seeds, the key the desc. null where a loop's name could not be a
   parameter's ({NAME} in a command) */
static void print_tune_hint(const servet_tile_desc *td, const servet_tile *res, int line, int argc, char **argv) {
    char cmd[4096], *key;
    const char *pname[SERVET_TILE_MAX_LOOPS];
    size_t len = 0, kl = 0, cap = 32;
    int l, i, k, np = 0, idx[SERVET_TILE_MAX_LOOPS], from[SERVET_TILE_MAX_LOOPS], in_c[SERVET_TILE_MAX_LOOPS];
    int64_t m;
    /* the nest as the model priced it (>>decide step 0): a loop of extent 1
       or one folded into the element is no parameter */
    servet_tile_desc canon;
    const servet_tile_desc *cd = td;
    for (l = 0; l < SERVET_TILE_MAX_LOOPS; l++) in_c[l] = l;
    if (servet__tile_canon(td, &canon, from)) {
        cd = &canon;
        for (l = 0; l < SERVET_TILE_MAX_LOOPS; l++) in_c[l] = -1;
        for (l = 0; l < canon.nloops; l++) in_c[from[l]] = l;
    }
    m = td->multiple > 0 ? td->multiple : (line / cd->elem_bytes > 0 ? line / cd->elem_bytes : 1);
#define SERVET_CLI_APPEND(...) \
    do { int w_ = snprintf(cmd + len, sizeof cmd - len, __VA_ARGS__); if (w_ > 0) len += (size_t)w_; if (len >= sizeof cmd) len = sizeof cmd - 1; } while (0)
    for (l = 0; l < td->nloops; l++) {
        const char *c;
        if (td->loops[l].untiled || in_c[l] < 0) continue;
        for (c = td->loops[l].name; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '_') { printf("null"); return; }
        if (!td->square) { pname[np] = td->loops[l].name; idx[np++] = l; }
        else if (np == 0 || td->loops[l].extent > td->loops[idx[0]].extent) { pname[0] = "T"; idx[0] = l; np = 1; }
    }
    if (np == 0) { printf("null"); return; } /* every loop kept whole by the desc: nothing to tune */
    /* the key: the desc as given (--no-probe and the like left out), all of
       it hashed (a desc repeats options without bound); past 200 bytes, cut
       with its hash */
    for (i = 0; i < argc; i++) cap += strlen(argv[i]) + 1;
    if (!(key = (char *)malloc(cap))) { printf("null"); return; }
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--no-probe") || !strcmp(a, "--all-levels") || !strcmp(a, "-v") || !strcmp(a, "--verbose")) continue;
        if (!strcmp(a, "--cache-dir")) { i++; continue; }
        for (k = 0; a[k]; k++) key[kl++] = a[k] == '\'' ? '"' : a[k]; /* inside '' */
        key[kl++] = ' ';
    }
    kl = kl > 0 ? kl - 1 : 0;
    if (kl > 200) kl = 200 + (size_t)snprintf(key + 200, 20, " #%016llx", (unsigned long long)servet__fnv1a(key, kl));
    key[kl] = 0;
    SERVET_CLI_APPEND("servet tune --key 'tile %s'", key);
    free(key);
    for (i = 0; i < np; i++) {
        /* a step every seed lies on (a set cap of 12, the extent 4092 under multiples of 8: 4) */
        int64_t e = td->loops[idx[i]].extent, st = m < e ? m : e;
        for (k = -1; k < res->nalternatives; k++)
            st = (int64_t)servet__gcd_u64((uint64_t)st, (uint64_t)(k < 0 ? res->tile : res->alternatives[k])[idx[i]]);
        /* a loop that is no array's contiguous dimension: the model's tiles
           of 1, 2 and 4 too (>>decide, the search), so the range starts at
           1 - from 2 (the gcd of a seed of 2 and 8) a 256^3 3D transpose
           B[k][j][i] = A[i][j][k] could never reach its best j = 1 */
        if (!td->multiple && !td->square && !servet__tile_contiguous_in(cd, in_c[idx[i]])) st = 1;
        SERVET_CLI_APPEND(" --param %s=%lld:%lld:%lld", pname[i], (long long)st, (long long)e, (long long)st);
    }
    for (k = -1; k < res->nalternatives; k++)
        for (i = 0; i < np; i++)
            SERVET_CLI_APPEND(" --seed %s=%lld", pname[i], (long long)(k < 0 ? res->tile : res->alternatives[k])[idx[i]]);
    SERVET_CLI_APPEND(" -- PROGRAM ARGS");
    for (i = 0; i < np; i++) SERVET_CLI_APPEND(" {%s}", pname[i]);
#undef SERVET_CLI_APPEND
    json_string(cmd);
}
/* "NxNx..": up to SERVET_TILE_MAX_LOOPS numbers from 0 to max, into out; how many, 0 on a bad one (s is cut at its x's) */
static int parse_x_list(char *s, int64_t max, int64_t *out) {
    int n = 0;
    for (;;) {
        char *x = strchr(s, 'x');
        int64_t v;
        if (x) *x = '\0';
        if (n >= SERVET_TILE_MAX_LOOPS || !parse_i64(s, 0, &v) || v > max) return 0;
        out[n++] = v;
        if (!x) return n;
        s = x + 1;
    }
}
static int cmd_tile(int argc, char **argv) {
    servet_tile_desc td;
    servet_tile res;
    servet_desc d;
    servet_profile *p = NULL;
    servet_result r;
    static char names[SERVET_TILE_MAX_LOOPS][64], anames[SERVET_TILE_MAX_ARRAYS][64];
    const char *arrays[SERVET_TILE_MAX_ARRAYS];
    int i, k, all_levels = 0, narr = 0, verbose = 0, dims_given[SERVET_TILE_MAX_ARRAYS] = {0},
        halo_given[SERVET_TILE_MAX_ARRAYS] = {0}, line = 64;
    memset(&td, 0, sizeof td);
    memset(&d, 0, sizeof d);
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        int takes = !strcmp(a, "--loop") || !strcmp(a, "--array") || !strcmp(a, "--elem") || !strcmp(a, "--level") ||
                    !strcmp(a, "--threads") || !strcmp(a, "--multiple") || !strcmp(a, "--cache-dir") ||
                    !strcmp(a, "--vector");
        if (takes && i + 1 >= argc) return die_usage("option needs a value", a);
        if (!strcmp(a, "--loop")) {
            /* NAME=EXTENT[:untiled] */
            const char *v = argv[++i], *eq = strchr(v, '='), *colon = eq ? strchr(eq, ':') : NULL;
            size_t numlen = eq ? (colon ? (size_t)(colon - eq) : strlen(eq)) - 1 : 0;
            char num[32];
            int64_t n;
            if (td.nloops >= SERVET_TILE_MAX_LOOPS) return die_usage("too many loops (at most 8)", v);
            if (colon && strcmp(colon, ":untiled") != 0)
                return die_usage("--loop takes NAME=EXTENT[:untiled] (untiled: the kernel keeps that loop whole)", v);
            if (!eq || eq == v || (size_t)(eq - v) >= sizeof names[0] || numlen >= sizeof num)
                return die_usage("--loop takes NAME=EXTENT with EXTENT from 1 to 2^40", v);
            memcpy(num, eq + 1, numlen);
            num[numlen] = 0;
            if (!parse_i64(num, 1, &n)) return die_usage("--loop takes NAME=EXTENT with EXTENT from 1 to 2^40", v);
            if (n > SERVET_TILE_MAX_EXTENT) return die_usage("--loop: an extent of at most 2^40", v);
            memcpy(names[td.nloops], v, (size_t)(eq - v));
            names[td.nloops][eq - v] = 0;
            for (k = 0; k < td.nloops; k++)
                if (!strcmp(names[k], names[td.nloops])) return die_usage("a loop is named twice", v);
            td.loops[td.nloops].name = names[td.nloops];
            td.loops[td.nloops].extent = n;
            td.loops[td.nloops].untiled = colon != NULL;
            td.nloops++;
        } else if (!strcmp(a, "--array")) {
            if (narr >= SERVET_TILE_MAX_ARRAYS) return die_usage("too many arrays (at most 16)", argv[i + 1]);
            arrays[narr++] = argv[++i];
        } else if (!strcmp(a, "--elem")) {
            int64_t v;
            if (!parse_i64(argv[++i], 1, &v) || v > 4096) return die_usage("--elem takes a byte count in 1..4096", argv[i]);
            td.elem_bytes = (int)v;
        } else if (!strcmp(a, "--level")) {
            int64_t v;
            if (!strcmp(argv[++i], "auto")) td.level = 0;
            else if (!parse_i64(argv[i], 1, &v) || v > 8) return die_usage("--level takes 1..8 or auto", argv[i]);
            else td.level = (int)v;
        } else if (!strcmp(a, "--threads")) {
            int64_t v;
            if (!parse_i64(argv[++i], 1, &v) || v > 65536) return die_usage("--threads takes a count from 1 to 65536", argv[i]);
            td.threads = (int)v;
        } else if (!strcmp(a, "--multiple")) {
            int64_t v;
            if (!parse_i64(argv[++i], 1, &v) || v > (1 << 20)) return die_usage("--multiple takes a count from 1 to 2^20", argv[i]);
            td.multiple = (int)v;
        } else if (!strcmp(a, "--vector")) {
            int64_t v;
            if (!parse_i64(argv[++i], 1, &v) || v > SERVET_TILE_MAX_LANES)
                return die_usage("--vector takes the elements the innermost loop does an instruction, 1 to 1024", argv[i]);
            td.vector = (int)v;
        } else if (!strcmp(a, "--square")) td.square = 1;
        else if (!strcmp(a, "--all-levels")) all_levels = td.all_levels = 1;
        else if (!strcmp(a, "--cache-dir")) d.cache_dir = argv[++i];
        else if (!strcmp(a, "--no-probe")) d.no_probe = 1;
        else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) verbose = 1;
        else return die_usage("unknown option for tile", a);
    }
    if (td.nloops == 0) return die_usage("tile needs at least one --loop NAME=EXTENT", NULL);
    if (narr == 0) return die_usage("tile needs at least one --array NAME:LOOP,LOOP" SERVET_CLI_ARRAY_FIELDS, NULL);
    if (td.elem_bytes == 0) return die_usage("tile needs --elem BYTES", NULL);
    /* NAME:l1,l2 and the fields of SERVET_CLI_ARRAY_FIELDS */
    for (k = 0; k < narr; k++) {
        servet_tile_array *A = &td.arrays[k];
        char spec[512], *field, *save = NULL, *lp, *save2 = NULL;
        int f = 0;
        if (strlen(arrays[k]) >= sizeof spec) return die_usage("--array spec too long", arrays[k]);
        strcpy(spec, arrays[k]);
        for (field = strtok_r(spec, ":", &save); field; field = strtok_r(NULL, ":", &save), f++) {
            if (f == 0) {
                if (!field[0] || strlen(field) >= sizeof anames[0]) return die_usage("--array needs a name", arrays[k]);
                strcpy(anames[k], field);
                A->name = anames[k];
            } else if (f == 1) {
                for (lp = strtok_r(field, ",", &save2); lp; lp = strtok_r(NULL, ",", &save2)) {
                    int l, found = -1;
                    for (l = 0; l < td.nloops; l++) if (!strcmp(names[l], lp)) found = l;
                    if (found < 0) return die_usage("--array names a loop no --loop defines", lp);
                    if (A->nloops >= SERVET_TILE_MAX_LOOPS) return die_usage("--array over too many loops", arrays[k]);
                    for (l = 0; l < A->nloops; l++) if (A->loops[l] == found) return die_usage("--array names a loop twice", lp);
                    A->loops[A->nloops++] = found;
                }
            } else if (!strncmp(field, "halo=", 5)) {
                /* R (every dimension), or RxRx..: one per dimension, slowest first */
                int64_t hv[SERVET_TILE_MAX_LOOPS] = {0};
                int nh = parse_x_list(field + 5, SERVET_TILE_MAX_HALO, hv), dd;
                if (nh < 1) return die_usage("halo= takes a radius from 0 to 2^20, or one per dimension, RxRx..", arrays[k]);
                if (nh == 1) A->halo = (int)hv[0];
                else for (dd = 0; dd < nh; dd++) A->halo_dim[dd] = (int)hv[dd];
                halo_given[k] = nh;
            } else if (!strncmp(field, "ld=", 3)) {
                int64_t v;
                if (!parse_i64(field + 3, 1, &v) || v > SERVET_TILE_MAX_EXTENT)
                    return die_usage("ld= takes an element count from 1 to 2^40", field);
                A->ld = v;
            } else if (!strncmp(field, "dims=", 5)) {
                /* NxNx..: one per dimension, slowest first; 0 keeps the loop's extent */
                int nd = parse_x_list(field + 5, SERVET_TILE_MAX_EXTENT, A->dims);
                if (nd < 1) return die_usage("dims= takes an extent from 0 to 2^40 per dimension, NxNx..", arrays[k]);
                dims_given[k] = nd;
            } else if (!strcmp(field, "stream")) A->streamed = 1;
            else if (!strcmp(field, "packed")) A->packed = 1;
            else if (!strcmp(field, "out")) A->output = 1;
            else if (!strcmp(field, "in")) A->output = -1;
            else if (!strcmp(field, "reduce")) A->reduce = 1;
            else if (!strncmp(field, "reduce=", 7)) {
                int64_t v;
                if (!parse_i64(field + 7, 1, &v) || v > SERVET_TILE_MAX_LANES)
                    return die_usage("reduce=N takes the lanes the sum is kept in, 1 to 1024", field);
                A->reduce = (int)v;
            }
            else return die_usage("unknown --array field (halo=R or RxRx.., stream, packed, reduce[=N], out, in, ld=N, dims=NxN..)", field);
        }
        if (A->nloops == 0) return die_usage("--array needs its loops: NAME:LOOP,LOOP", arrays[k]);
        if (dims_given[k] && dims_given[k] != A->nloops)
            return die_usage("dims= needs one extent per dimension of the array", arrays[k]);
        if (halo_given[k] > 1 && halo_given[k] != A->nloops)
            return die_usage("halo=RxRx.. needs one radius per dimension of the array", arrays[k]);
        {
            int dd;
            for (dd = 0; dd < A->nloops; dd++)
                if (A->dims[dd] && A->dims[dd] < td.loops[A->loops[dd]].extent + 2 * servet__tile_halo(A, dd))
                    return die_usage("dims= is smaller than a dimension's loop extent (+ 2 x halo)", arrays[k]);
        }
        if (A->ld && A->ld < td.loops[A->loops[A->nloops - 1]].extent + 2 * servet__tile_halo(A, A->nloops - 1))
            return die_usage("ld= is smaller than the array's last dimension", arrays[k]);
    }
    td.narrays = narr;
    d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE | SERVET_PROBE_MEMORY;
    d.log = log_stderr;
    d.log_level = verbose ? SERVET_LOG_INFO : SERVET_LOG_WARN;
    if (isatty(2)) d.progress = progress_tty;
    r = servet_open(&p, &d);
    if (r != SERVET_OK) {
        fprintf(stderr, "servet: %s\n", servet_result_string(r));
        if (r == SERVET_ERROR_NOT_CACHED) fprintf(stderr, "servet: run 'servet probe' first\n");
        return 1;
    }
    if (td.level > servet_cache_count(p)) { /* the one check the command could not make before opening the profile */
        fprintf(stderr, "servet: tile: --level %d: the profile has %d cache level%s (servet show lists them)\n", td.level,
                servet_cache_count(p), servet_cache_count(p) == 1 ? "" : "s");
        servet_close(p);
        return 1;
    }
    r = servet_choose_tile(p, &td, &res);
    {
        servet_cache_info ci;
        if (servet_cache_get(p, 1, &ci) == SERVET_OK && ci.line_bytes > 0) line = ci.line_bytes;
    }
    servet_close(p);
    if (r != SERVET_OK) { fprintf(stderr, "servet: tile: %s\n", servet_result_string(r)); return 1; }
    printf("{\"level\": %d, \"tile\": ", res.level);
    print_tile_json(&td, res.tile);
    printf(", \"untiled\": %s, \"working_set_bytes\": %.0f, \"capacity_bytes\": %.0f, \"capacity_from_os\": %s,\n"
           " \"predicted_ns\": %.6g, \"decision_seconds\": %.3g,\n \"reason\": ",
           res.untiled ? "true" : "false", res.working_set_bytes, res.capacity_bytes,
           res.capacity_from_os ? "true" : "false", res.predicted_ns, res.decision_seconds);
    json_string(res.reason);
    printf(",\n \"warnings\": [");
    for (k = 0; k < res.nwarnings; k++) {
        printf("%s", k ? ", " : "");
        json_string(res.warnings[k]);
    }
    printf("],\n \"alternatives\": [");
    for (k = 0; k < res.nalternatives; k++) {
        printf("%s", k ? ", " : "");
        print_tile_json(&td, res.alternatives[k]);
    }
    printf("],\n \"tune\": ");
    print_tune_hint(&td, &res, line, argc, argv);
    if (all_levels) {
        printf(",\n \"levels\": [");
        for (k = 0; k < res.nlevels; k++) {
            printf("%s{\"level\": %d, \"tile\": ", k ? ", " : "", res.levels[k].level);
            print_tile_json(&td, res.levels[k].tile);
            printf(", \"working_set_bytes\": %.0f, \"capacity_bytes\": %.0f}", res.levels[k].working_set_bytes,
                   res.levels[k].capacity_bytes);
        }
        printf("]");
    }
    printf("}\n");
    return 0;
}

/* ---- tune: an empirical search over a command's parameters ---- */
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
typedef struct tune_cmd {
    char **argv;                 /* the command, {NAME} placeholders in it */
    int argc;
    const servet_tune_desc *td;
    regex_t re;
    int use_re;
    double deadline;             /* the budget's end and its grace (SERVET__TUNE_GRACE): a run past it is killed */
    int failures, timeouts;
    /* why runs failed, for the message when none succeeded */
    int exited, last_status, signalled, last_signal, nomatch, notime;
    char nomatch_out[160];       /* the start of the last output the regex did not match */
    char notime_text[64];        /* what it matched, the last time that was no time (negative, nan, no number) */
} tune_cmd;
/* the start of src in dst (cap bytes) as one line for a message: newlines
   and quotes become spaces */
static void one_line(char *dst, size_t cap, const char *src) {
    size_t k;
    for (k = 0; k + 1 < cap && src[k]; k++) dst[k] = src[k] == '\n' || src[k] == '\r' || src[k] == '"' ? ' ' : src[k];
    dst[k] = 0;
}
static double mono(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
/* arg with every {NAME} replaced by its value */
static char *substitute(const char *arg, const servet_tune_desc *td, const int64_t *x) {
    size_t cap = strlen(arg) + 1 + 32 * (size_t)td->nparams * 4, n = 0;
    char *out = (char *)malloc(cap);
    const char *s = arg;
    if (!out) return NULL;
    while (*s) {
        int k, hit = 0;
        if (*s == '{') {
            for (k = 0; k < td->nparams && !hit; k++) {
                size_t ln = strlen(td->params[k].name);
                if (!strncmp(s + 1, td->params[k].name, ln) && s[1 + ln] == '}') {
                    char v[32];
                    int w = snprintf(v, sizeof v, "%lld", (long long)x[k]);
                    if (n + (size_t)w + 1 > cap) { cap = cap * 2 + (size_t)w; out = (char *)realloc(out, cap); if (!out) return NULL; }
                    memcpy(out + n, v, (size_t)w);
                    n += (size_t)w;
                    s += ln + 2;
                    hit = 1;
                }
            }
        }
        if (hit) continue;
        if (n + 2 > cap) { cap *= 2; out = (char *)realloc(out, cap); if (!out) return NULL; }
        out[n++] = *s++;
    }
    out[n] = 0;
    return out;
}
/* Reads what the command has printed so far into out (cap bytes, got
   used), all of it: a full buffer keeps its last half from a line's start
   and reads on. Before, reading stopped at 64 KiB, the pipe filled, the
   program blocked on its next write and was killed at the budget: a
   verbose program was an invalid point. The time is looked for in the last
   64 KiB of the output (where programs print it, at the end). */
static size_t drain_output(int fd, char *out, size_t cap, size_t got, int *eof) {
    ssize_t k;
    while ((k = read(fd, out + got, cap - 1 - got)) != 0) {
        if (k < 0) return got; /* nothing more for now (EAGAIN), or an error: the wait goes on */
        got += (size_t)k;
        if (got == cap - 1) {
            size_t cut = (cap - 1) / 2;
            while (cut < got && out[cut - 1] != '\n') cut++;
            if (cut == got) cut = (cap - 1) / 2; /* one line longer than half the buffer: cut it */
            memmove(out, out + cut, got - cut);
            got -= cut;
        }
    }
    if (eof) *eof = 1; /* read returned 0: every writer closed it */
    return got;
}
/* The wait for a run: the parent sleeps until the child exits (SIGCHLD,
   through a pipe its handler writes, so that poll() wakes with no race),
   the child prints (the time pipe) or the budget ends. Before
   (2026-12-04), it woke every 0.2 ms to look: under `taskset -c N servet
   tune ...` the child shares its core with those 5000 wake-ups a second,
   and on the Zen 5 VM a C = A + B^T sweep (2000^2 doubles, 120 x 120 tiles)
   timed 5.8-6.7 ms beside it, 4.9-5.3 beside this wait, 4.1-4.4 run alone
   (bench_data/tune_wait_zen5_2026-12-04.txt). */
static int sigchld_pipe[2] = {-1, -1};
static void on_sigchld(int sig) {
    int e = errno;
    ssize_t r = write(sigchld_pipe[1], "c", 1); /* full: a wake-up is already pending */
    (void)r;
    (void)sig;
    errno = e;
}
static int sigchld_wakeups(void) {
    struct sigaction sa;
    int k;
    if (sigchld_pipe[0] >= 0) return 1;
    if (pipe(sigchld_pipe) != 0) return 0;
    for (k = 0; k < 2; k++) {
        fcntl(sigchld_pipe[k], F_SETFL, O_NONBLOCK);
        fcntl(sigchld_pipe[k], F_SETFD, FD_CLOEXEC);
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigchld;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    if (sigaction(SIGCHLD, &sa, NULL) != 0) {
        close(sigchld_pipe[0]);
        close(sigchld_pipe[1]);
        sigchld_pipe[0] = sigchld_pipe[1] = -1;
        return 0;
    }
    return 1;
}
static double run_command(void *user, const int64_t *x) {
    tune_cmd *T = (tune_cmd *)user;
    char **av = (char **)calloc((size_t)T->argc + 1, sizeof *av), out[65536];
    int i, pfd[2] = {-1, -1}, status = 0, done = 0, pipe_done = 0, wake = sigchld_wakeups();
    size_t got = 0;
    double t0, t1 = 0, result = -1.0;
    pid_t pid;
    if (!av) return -1.0;
    for (i = 0; i < T->argc; i++) av[i] = substitute(T->argv[i], T->td, x);
    if (T->use_re && pipe(pfd) != 0) pfd[0] = pfd[1] = -1;
    fflush(stdout);
    t0 = mono();
    pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        /* with a time regex, stdout and stderr both: many programs report
           their time on stderr, and a failing one's message then shows in
           what servet says the last run printed */
        if (pfd[1] >= 0) { dup2(pfd[1], 1); dup2(pfd[1], 2); close(pfd[0]); close(pfd[1]); }
        else { int dn = open("/dev/null", O_WRONLY); if (dn >= 0) dup2(dn, 1); }
        execvp(av[0], av);
        _exit(127);
    }
    if (pfd[1] >= 0) { close(pfd[1]); fcntl(pfd[0], F_SETFL, O_NONBLOCK); }
    while (pid > 0 && !done) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        int eof = 0;
        double now;
        if (pfd[0] >= 0 && !pipe_done) {
            got = drain_output(pfd[0], out, sizeof out, got, &eof);
            if (eof) pipe_done = 1; /* closed (by a child that lives on: poll on it no more) */
        }
        if (w == pid) { t1 = mono(); done = 1; break; }
        now = mono();
        if (now > T->deadline) { /* past the budget: the run is killed, the point invalid */
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            T->timeouts++;
            break;
        }
        if (wake) {
            struct pollfd fds[2];
            double left_ms = ceil((T->deadline - now) * 1e3);
            int nf = 0, ms = left_ms > 1000.0 ? 1000 : left_ms < 1.0 ? 1 : (int)left_ms; /* then look again */
            char drop[64];
            fds[nf].fd = sigchld_pipe[0]; fds[nf].events = POLLIN; fds[nf++].revents = 0;
            if (pfd[0] >= 0 && !pipe_done) { fds[nf].fd = pfd[0]; fds[nf].events = POLLIN; fds[nf++].revents = 0; }
            if (poll(fds, (nfds_t)nf, ms) > 0 && fds[0].revents)
                while (read(sigchld_pipe[0], drop, sizeof drop) > 0) {}
        } else {
            struct timespec ts = {0, 200000}; /* no SIGCHLD pipe: look every 0.2 ms, as before */
            nanosleep(&ts, NULL);
        }
    }
    if (pfd[0] >= 0) {
        got = drain_output(pfd[0], out, sizeof out, got, NULL);
        close(pfd[0]);
    }
    out[got] = 0;
    if (done && WIFEXITED(status) && WEXITSTATUS(status) != 0) { T->exited++; T->last_status = WEXITSTATUS(status); }
    if (done && WIFSIGNALED(status)) { T->signalled++; T->last_signal = WTERMSIG(status); }
    if (done && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        result = t1 - t0;
        if (T->use_re) {
            regmatch_t m[2];
            result = -1.0;
            if (regexec(&T->re, out, 2, m, 0) == 0) {
                /* the time is the regex's first group; without one, the
                   first number in what it matched ('ms [0-9.]+' on "ms 1.5"
                   reads 1.5: before, the whole match was read as a number
                   and every run failed) */
                int g = m[1].rm_so >= 0 ? 1 : 0;
                char num[64], *end, *at;
                size_t ln = (size_t)(m[g].rm_eo - m[g].rm_so);
                if (ln >= sizeof num) ln = sizeof num - 1;
                memcpy(num, out + m[g].rm_so, ln);
                num[ln] = 0;
                at = num;
                if (g == 0) { /* the first digit, with the sign or point just before it */
                    at += strcspn(at, "0123456789");
                    if (at > num && strchr(".-+", at[-1])) at--;
                }
                result = strtod(at, &end);
                if (end == at || !(result >= 0) || !isfinite(result)) {
                    result = -1.0;
                    T->notime++;
                    one_line(T->notime_text, sizeof T->notime_text, num);
                }
            } else { /* kept for the message: no match */
                T->nomatch++;
                one_line(T->nomatch_out, sizeof T->nomatch_out, out);
            }
        }
    }
    if (result < 0) T->failures++;
    for (i = 0; i < T->argc; i++) free(av[i]);
    free(av);
    return result;
}
static void print_point_json(const servet_tune_desc *td, const int64_t *x) {
    const char *names[SERVET_TUNE_MAX_PARAMS];
    int k;
    for (k = 0; k < td->nparams; k++) names[k] = td->params[k].name;
    print_values_json(names, x, td->nparams);
}
/* ---- map: the rank mapping from the shell (issue 12) ---- */
/* whitespace-separated numbers of a file, malloc'ed; count in *n */
static double *read_numbers(const char *path, size_t *n) {
    FILE *f = fopen(path, "r");
    double *v = NULL, x;
    size_t cap = 0;
    int rc;
    *n = 0;
    if (!f) return NULL;
    while ((rc = fscanf(f, "%lf", &x)) == 1) {
        if (*n == cap) {
            double *nv;
            cap = cap ? 2 * cap : 1024;
            nv = (double *)realloc(v, cap * sizeof *v);
            if (!nv) { free(v); fclose(f); return NULL; }
            v = nv;
        }
        v[(*n)++] = x;
    }
    if (rc != EOF) { free(v); v = NULL; *n = 0; } /* a word that is not a number */
    else if (!v) v = (double *)malloc(sizeof *v);
    fclose(f);
    return v;
}
/* --tree 128:50,2:10,64:2 -> levels top-down (arity:link cost) */
static int parse_tree(const char *spec, servet_map_tree *t) {
    const char *p = spec;
    memset(t, 0, sizeof *t);
    while (*p) {
        char *end;
        long a;
        double c;
        if (t->levels == SERVET_MAP_MAX_LEVELS) return 0;
        a = strtol(p, &end, 10);
        if (end == p || *end != ':' || a < 1 || a > 16777216) return 0;
        p = end + 1;
        c = strtod(p, &end);
        if (end == p || !(c >= 0) || c > 1e300) return 0;
        t->arity[t->levels] = (int)a;
        t->link_cost[t->levels++] = c;
        p = end;
        if (*p == ',') p++;
        else if (*p) return 0;
    }
    return t->levels > 0;
}
static int cmd_map(int argc, char **argv) {
    const char *costs_path = NULL, *tree_spec = NULL, *traffic_path = NULL, *sparse_path = NULL, *rankfile = NULL,
               *hostfile = NULL;
    servet_map_tree tree;
    servet_traffic t;
    servet_desc d;
    servet_profile *p = NULL;
    double *costs = NULL, *tr = NULL, cost = 0, ident = 0, t0, secs;
    int *rowptr = NULL, *cols = NULL, *slot = NULL, i, n = 0, rc = 1;
    double *bytes = NULL;
    size_t cnt = 0, k;
    servet_result r;
    memset(&d, 0, sizeof d);
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--costs") && more) costs_path = argv[++i];
        else if (!strcmp(a, "--tree") && more) tree_spec = argv[++i];
        else if (!strcmp(a, "--traffic") && more) traffic_path = argv[++i];
        else if (!strcmp(a, "--traffic-sparse") && more) sparse_path = argv[++i];
        else if (!strcmp(a, "--rankfile") && more) rankfile = argv[++i];
        else if (!strcmp(a, "--hosts") && more) hostfile = argv[++i];
        else if (!strcmp(a, "--cache-dir") && more) d.cache_dir = argv[++i];
        else if (!strcmp(a, "--no-probe")) d.no_probe = 1;
        else return die_usage("map: unknown or incomplete argument", a);
    }
    if (costs_path && tree_spec) return die_usage("map: --costs or --tree, not both", NULL);
    if (!traffic_path == !sparse_path) return die_usage("map: give --traffic FILE or --traffic-sparse FILE", NULL);
    if (!rankfile != !hostfile) return die_usage("map: --rankfile needs --hosts (and --hosts a --rankfile)", NULL);
    if (tree_spec && !parse_tree(tree_spec, &tree))
        return die_usage("map: --tree wants ARITY:COST[,ARITY:COST...] top-down, e.g. 128:50,2:10,64:2", tree_spec);
    /* the traffic */
    if (traffic_path) {
        double root;
        tr = read_numbers(traffic_path, &cnt);
        if (!tr) { fprintf(stderr, "servet: map: cannot read %s as numbers\n", traffic_path); return 1; }
        root = floor(sqrt((double)cnt) + 0.5);
        if (cnt == 0 || root * root != (double)cnt || root > 16384) {
            fprintf(stderr, "servet: map: %s holds %zu numbers, not an n x n matrix (n <= 16384)\n", traffic_path, cnt);
            goto out;
        }
        n = (int)root;
        /* the library's own dense -> CSR conversion (it checks the values) */
        if (servet__traffic_dense(NULL, n, tr, &t, &rowptr, &cols, &bytes) != SERVET_OK) {
            fprintf(stderr, "servet: map: traffic must be finite and >= 0\n");
            goto out;
        }
    } else {
        /* first line n, then "i j bytes" lines */
        FILE *f = fopen(sparse_path, "r");
        long ln = 0, i0, j0;
        double b0;
        int m = 0, cap = 0, *ei = NULL, *ej = NULL, row, *fill;
        double *eb = NULL;
        if (!f) { fprintf(stderr, "servet: map: cannot open %s\n", sparse_path); return 1; }
        if (fscanf(f, "%d", &n) != 1 || n < 1 || n > 16777216) {
            fprintf(stderr, "servet: map: %s: the first number must be n >= 1\n", sparse_path);
            fclose(f);
            return 1;
        }
        for (;;) {
            int got = fscanf(f, "%ld %ld %lf", &i0, &j0, &b0);
            ln++;
            if (got == EOF) break;
            if (got != 3 || i0 < 0 || i0 >= n || j0 < 0 || j0 >= n || !(b0 >= 0) || b0 > 1e300) {
                fprintf(stderr, "servet: map: %s: entry %ld is not 'i j bytes' with 0 <= i, j < %d and bytes >= 0\n",
                        sparse_path, ln, n);
                fclose(f);
                free(ei); free(ej); free(eb);
                return 1;
            }
            if (m == cap) {
                cap = cap ? 2 * cap : 1024;
                ei = (int *)realloc(ei, (size_t)cap * sizeof(int));
                ej = (int *)realloc(ej, (size_t)cap * sizeof(int));
                eb = (double *)realloc(eb, (size_t)cap * sizeof(double));
                if (!ei || !ej || !eb) { fclose(f); return 1; }
            }
            ei[m] = (int)i0; ej[m] = (int)j0; eb[m++] = b0;
        }
        fclose(f);
        rowptr = (int *)calloc((size_t)n + 1, sizeof(int));
        cols = (int *)malloc((size_t)(m ? m : 1) * sizeof(int));
        bytes = (double *)malloc((size_t)(m ? m : 1) * sizeof(double));
        fill = (int *)calloc((size_t)n + 1, sizeof(int));
        if (!rowptr || !cols || !bytes || !fill) { free(ei); free(ej); free(eb); free(fill); goto out; }
        for (k = 0; k < (size_t)m; k++) rowptr[ei[k] + 1]++;
        for (row = 0; row < n; row++) rowptr[row + 1] += rowptr[row];
        for (k = 0; k < (size_t)m; k++) {
            int at = rowptr[ei[k]] + fill[ei[k]]++;
            cols[at] = ej[k];
            bytes[at] = eb[k];
        }
        free(ei); free(ej); free(eb); free(fill);
    }
    t.n = n;
    t.rowptr = rowptr;
    t.cols = cols;
    t.bytes = bytes;
    slot = (int *)malloc((size_t)n * sizeof(int));
    if (!slot) goto out;
    if (costs_path) {
        costs = read_numbers(costs_path, &cnt);
        if (!costs) { fprintf(stderr, "servet: map: cannot read %s as numbers\n", costs_path); goto out; }
        if (cnt != (size_t)n * (size_t)n) {
            fprintf(stderr, "servet: map: %s holds %zu numbers; the traffic has %d ranks, so %d x %d expected\n", costs_path,
                    cnt, n, n, n);
            goto out;
        }
    }
    t0 = mono();
    if (costs) r = servet_map_with_costs(costs, &t, slot);
    else if (tree_spec) r = servet_map_with_tree(&tree, &t, slot);
    else {
        d.probes = SERVET_PROBE_TOPOLOGY;
        r = servet_open(&p, &d);
        if (r == SERVET_OK) r = servet_choose_mapping_sparse(p, &t, slot);
    }
    secs = mono() - t0;
    if (r != SERVET_OK) {
        fprintf(stderr, "servet: map: %s%s\n", servet_result_string(r),
                r != SERVET_ERROR_INVALID_ARGUMENT ? ""
                : tree_spec ? " (the tree's slots must equal the traffic's ranks)"
                : costs ? "" : " (without --costs or --tree the slots are this machine's PUs, or the ranks of a profile "
                               "probed under mpirun: give --tree or --costs for other jobs)");
        goto out;
    }
    if (costs || tree_spec) {
        servet_map_cost(costs, costs ? NULL : &tree, &t, slot, &cost);
        servet_map_cost(costs, costs ? NULL : &tree, &t, NULL, &ident);
    } else {
        /* priced as the decision priced it (the profile's layers or hwloc
           relation: servet__profile_costs, reachable here because this file
           holds the implementation) */
        double *pc = (double *)malloc((size_t)n * (size_t)n * sizeof(double));
        if (!pc || servet__profile_costs(p, &t, pc) != SERVET_OK) { free(pc); goto out; }
        servet_map_cost(pc, NULL, &t, slot, &cost);
        servet_map_cost(pc, NULL, &t, NULL, &ident);
        free(pc);
    }
    printf("{\"ranks\": %d, \"slot_of_rank\": [", n);
    for (i = 0; i < n; i++) printf("%s%d", i ? "," : "", slot[i]);
    printf("], \"cost\": %.17g, \"identity_cost\": %.17g, \"seconds\": %.6f}\n", cost, ident, secs);
    if (rankfile) {
        /* Open MPI rankfile: rank r runs where slot_of_rank[r] was, i.e. on the
           host of that slot, the slots filling the hosts in order */
        size_t nh = 0, cap2 = 0;
        char line[512], **hosts = NULL;
        int *slots_per = NULL;
        FILE *hf = fopen(hostfile, "r"), *rf, *pf;
        char plain[4200];
        if (!hf) { fprintf(stderr, "servet: map: cannot open %s\n", hostfile); goto out; }
        while (fgets(line, sizeof line, hf)) {
            char name[256];
            int sl = 1;
            char *sp;
            if (sscanf(line, "%255s", name) != 1 || name[0] == '#') continue;
            if ((sp = strstr(line, "slots=")) != NULL) sl = atoi(sp + 6);
            if (sl < 1) sl = 1;
            if (nh == cap2) {
                cap2 = cap2 ? 2 * cap2 : 16;
                hosts = (char **)realloc(hosts, cap2 * sizeof *hosts);
                slots_per = (int *)realloc(slots_per, cap2 * sizeof *slots_per);
            }
            hosts[nh] = strdup(name);
            slots_per[nh++] = sl;
        }
        fclose(hf);
        {
            long total = 0;
            for (k = 0; k < nh; k++) total += slots_per[k];
            if (total < n) {
                fprintf(stderr, "servet: map: %s has %ld slots for %d ranks\n", hostfile, total, n);
                for (k = 0; k < nh; k++) free(hosts[k]);
                free(hosts); free(slots_per);
                goto out;
            }
        }
        rf = fopen(rankfile, "w");
        snprintf(plain, sizeof plain, "%s.hosts", rankfile);
        pf = fopen(plain, "w");
        if (!rf || !pf) {
            fprintf(stderr, "servet: map: cannot write %s\n", rf ? plain : rankfile);
            if (rf) fclose(rf);
            if (pf) fclose(pf);
        } else {
            int rk;
            for (rk = 0; rk < n; rk++) {
                int s = slot[rk], h = 0, within = s;
                while (within >= slots_per[h]) within -= slots_per[h++];
                fprintf(rf, "rank %d=%s slot=%d\n", rk, hosts[h], within);
                fprintf(pf, "%s\n", hosts[h]); /* MPICH -f: one line per rank, in rank order */
            }
            fclose(rf);
            fclose(pf);
            fprintf(stderr, "servet: map: wrote %s (mpirun --rankfile) and %s (MPICH: mpiexec -f)\n", rankfile, plain);
        }
        for (k = 0; k < nh; k++) free(hosts[k]);
        free(hosts);
        free(slots_per);
    }
    rc = 0;
out:
    if (p) servet_close(p);
    free(costs); free(tr); free(rowptr); free(cols); free(bytes); free(slot);
    return rc;
}

#define TUNE_MAX_SEED_POINTS 9
static int cmd_tune(int argc, char **argv) {
    servet_tune_desc td;
    servet_tune_info info;
    tune_cmd T;
    static char names[SERVET_TUNE_MAX_PARAMS][64];
    static int64_t lists[SERVET_TUNE_MAX_PARAMS][256];
    /* seed point 0 is the seed; a --seed for a parameter the current point
       has already starts the next point (servet_tune's more_seeds) */
    static int64_t seed[TUNE_MAX_SEED_POINTS][SERVET_TUNE_MAX_PARAMS], more[TUNE_MAX_SEED_POINTS * SERVET_TUNE_MAX_PARAMS];
    int64_t best[SERVET_TUNE_MAX_PARAMS];
    int i, k, have_seed[TUNE_MAX_SEED_POINTS][SERVET_TUNE_MAX_PARAMS], npoints = 1;
    const char *regex = NULL, *seeds[TUNE_MAX_SEED_POINTS * SERVET_TUNE_MAX_PARAMS];
    int nseeds = 0;
    servet_result r;
    memset(&td, 0, sizeof td);
    memset(&T, 0, sizeof T);
    for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
        const char *a = argv[i];
        int takes = !strcmp(a, "--key") || !strcmp(a, "--param") || !strcmp(a, "--seed") || !strcmp(a, "--budget") ||
                    !strcmp(a, "--evals") || !strcmp(a, "--repeats") || !strcmp(a, "--time-regex") || !strcmp(a, "--cache-dir");
        if (takes && i + 1 >= argc) return die_usage("option needs a value", a);
        if (!strcmp(a, "--key")) {
            td.key = argv[++i];
            if (!td.key[0] || strlen(td.key) > SERVET_TUNE_KEY_MAX) return die_usage("--key takes 1..255 bytes", td.key);
        } else if (!strcmp(a, "--param")) {
            const char *v = argv[++i], *eq = strchr(v, '=');
            servet_tune_param *q = &td.params[td.nparams];
            if (td.nparams >= SERVET_TUNE_MAX_PARAMS) return die_usage("too many --param (at most 8)", v);
            if (!eq || eq == v || (size_t)(eq - v) >= sizeof names[0]) return die_usage("--param takes NAME=LO:HI[:STEP] or NAME=V1,V2,...", v);
            memcpy(names[td.nparams], v, (size_t)(eq - v));
            names[td.nparams][eq - v] = 0;
            for (k = 0; k < td.nparams; k++) if (!strcmp(names[k], names[td.nparams])) return die_usage("a parameter is named twice", v);
            q->name = names[td.nparams];
            if (strchr(eq + 1, ',') || !strchr(eq + 1, ':')) {
                char buf[4096], *tok, *save = NULL;
                if (strlen(eq + 1) >= sizeof buf) return die_usage("--param list too long", v);
                strcpy(buf, eq + 1);
                for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                    int64_t x;
                    if (q->nvalues >= 256 || !parse_i64(tok, INT64_MIN + 1, &x)) return die_usage("--param list: integers, at most 256", v);
                    lists[td.nparams][q->nvalues++] = x;
                }
                if (q->nvalues == 0) return die_usage("--param list is empty", v);
                q->values = lists[td.nparams];
            } else {
                char buf[256], *p1, *p2;
                int64_t lo, hi, st = 1;
                if (strlen(eq + 1) >= sizeof buf) return die_usage("--param range too long", v);
                strcpy(buf, eq + 1);
                p1 = strchr(buf, ':');
                *p1++ = 0;
                p2 = strchr(p1, ':');
                if (p2) *p2++ = 0;
                if (!parse_i64(buf, INT64_MIN + 1, &lo) || !parse_i64(p1, INT64_MIN + 1, &hi) || (p2 && !parse_i64(p2, INT64_MIN + 1, &st)))
                    return die_usage("--param takes NAME=LO:HI[:STEP] with integers", v);
                if (hi < lo) return die_usage("--param: an empty range (HI < LO)", v);
                if (st < 1) return die_usage("--param: STEP must be >= 1", v);
                q->lo = lo; q->hi = hi; q->step = st;
            }
            td.nparams++;
        } else if (!strcmp(a, "--seed")) {
            if (nseeds >= TUNE_MAX_SEED_POINTS * SERVET_TUNE_MAX_PARAMS) return die_usage("too many --seed", argv[i + 1]);
            seeds[nseeds++] = argv[++i];
        } else if (!strcmp(a, "--budget")) {
            char *end;
            td.budget_seconds = strtod(argv[++i], &end);
            if (*end || !(td.budget_seconds > 0 && td.budget_seconds < 1e7)) return die_usage("--budget takes seconds > 0", argv[i]);
        } else if (!strcmp(a, "--evals")) {
            int64_t v;
            if (!parse_i64(argv[++i], 1, &v) || v > 100000) return die_usage("--evals takes a positive count", argv[i]);
            td.max_evaluations = (int)v;
        } else if (!strcmp(a, "--repeats")) {
            int64_t v;
            if (!parse_i64(argv[++i], 1, &v) || v > 16) return die_usage("--repeats takes 1..16", argv[i]);
            td.repeats = (int)v;
        } else if (!strcmp(a, "--time-regex")) regex = argv[++i];
        else if (!strcmp(a, "--cache-dir")) td.cache_dir = argv[++i];
        else if (!strcmp(a, "--force")) td.force = 1;
        else if (!strcmp(a, "--no-probe")) continue; /* as the other commands take it: tune never probes */
        else return die_usage("unknown option for tune (the command goes after --)", a);
    }
    if (!td.key) return die_usage("tune needs --key K (the kernel and its problem)", NULL);
    if (td.nparams == 0) return die_usage("tune needs at least one --param NAME=LO:HI[:STEP]", NULL);
    if (i >= argc - 1) return die_usage("tune needs a command after --", NULL);
    memset(have_seed, 0, sizeof have_seed);
    for (k = 0; k < nseeds; k++) {
        const char *eq = strchr(seeds[k], '=');
        int j, found = -1;
        int64_t v;
        for (j = 0; eq && j < td.nparams; j++)
            if (strlen(names[j]) == (size_t)(eq - seeds[k]) && !strncmp(names[j], seeds[k], (size_t)(eq - seeds[k]))) found = j;
        if (found < 0 || !parse_i64(eq + 1, INT64_MIN + 1, &v)) return die_usage("--seed takes NAME=VALUE of a --param", seeds[k]);
        {
            /* a seed outside its parameter's range is a mistake (a tile past
               the problem); one between grid points runs at the nearest,
               which the JSON then names (the search snaps it: servet_tune) */
            const servet_tune_param *q = &td.params[found];
            int64_t lo = q->lo, hi = q->hi;
            if (q->values) {
                int m;
                for (lo = hi = q->values[0], m = 1; m < q->nvalues; m++) {
                    if (q->values[m] < lo) lo = q->values[m];
                    if (q->values[m] > hi) hi = q->values[m];
                }
            }
            if (v < lo || v > hi) return die_usage("--seed: the value is outside its --param's range", seeds[k]);
            v = servet__tune_snap(q, (double)v);
        }
        if (have_seed[npoints - 1][found]) { /* the next point */
            if (npoints >= TUNE_MAX_SEED_POINTS) return die_usage("too many seed points (at most 9)", seeds[k]);
            npoints++;
        }
        seed[npoints - 1][found] = v;
        have_seed[npoints - 1][found] = 1;
    }
    if (nseeds > 0) {
        int q;
        for (k = 0; k < td.nparams; k++)
            if (!have_seed[0][k]) seed[0][k] = td.params[k].values ? td.params[k].values[td.params[k].nvalues / 2]
                                                                   : servet__tune_snap(&td.params[k], (double)(td.params[k].lo + td.params[k].hi) / 2.0);
        for (q = 1; q < npoints; q++) /* a later point takes what it does not name from the seed */
            for (k = 0; k < td.nparams; k++)
                if (!have_seed[q][k]) seed[q][k] = seed[0][k];
        td.seed = seed[0];
        if (npoints > 1) { /* more_seeds: nparams values a point, packed */
            for (q = 1; q < npoints; q++)
                for (k = 0; k < td.nparams; k++) more[(q - 1) * td.nparams + k] = seed[q][k];
            td.more_seeds = more;
            td.nmore_seeds = npoints - 1;
        }
    }
    if (regex) {
        /* REG_NEWLINE: ^ and $ match at each line's ends and . stays on one
           line, so a regex written for the line that prints the time ('t=
           ([0-9.]+)$') matches it; without it, $ met only the end of the
           output, past the program's last newline, and matched nothing */
        if (regcomp(&T.re, regex, REG_EXTENDED | REG_NEWLINE) != 0) return die_usage("--time-regex does not compile", regex);
        T.use_re = 1;
    }
    T.argv = argv + i + 1;
    T.argc = argc - i - 1;
    T.td = &td;
    for (k = 0; k < td.nparams; k++) { /* a parameter the command never reads: a typo, most likely */
        char ph[80];
        int a, used = 0;
        snprintf(ph, sizeof ph, "{%s}", td.params[k].name);
        for (a = 0; a < T.argc && !used; a++) used = strstr(T.argv[a], ph) != NULL;
        if (!used)
            fprintf(stderr, "servet: tune: warning: %s is in no argument of the command, so every value of --param %s "
                            "runs the same command\n", ph, td.params[k].name);
    }
    /* the search stops at the budget, the contenders' re-measurement a
       quarter later (SERVET__TUNE_GRACE): a run still going then is killed */
    T.deadline = mono() + (1.0 + SERVET__TUNE_GRACE) * (td.budget_seconds > 0 ? td.budget_seconds : 60.0);
    r = servet_tune(NULL, &td, run_command, &T, best, &info);
    if (T.use_re) regfree(&T.re);
    if (r != SERVET_OK) {
        fprintf(stderr, "servet: tune: %s%s\n", servet_result_string(r),
                r == SERVET_ERROR_PROBE_FAILED ? " (every run failed, crashed or ran past the budget)" : "");
        if (r == SERVET_ERROR_PROBE_FAILED) { /* why, so that the user can mend the command */
            if (T.exited)
                fprintf(stderr, "servet: tune: %d run%s exited with a non-zero status (the last: %d%s)\n", T.exited,
                        T.exited == 1 ? "" : "s", T.last_status, T.last_status == 127 ? ", the command was not found" : "");
            if (T.signalled)
                fprintf(stderr, "servet: tune: %d run%s killed by a signal (the last: %d, %s)\n", T.signalled,
                        T.signalled == 1 ? " was" : "s were", T.last_signal, strsignal(T.last_signal));
            if (T.nomatch)
                fprintf(stderr, "servet: tune: %d run%s printed nothing --time-regex matched (the last printed: \"%s\")\n",
                        T.nomatch, T.nomatch == 1 ? "" : "s", T.nomatch_out);
            if (T.notime)
                fprintf(stderr, "servet: tune: %d run%s printed a match of --time-regex that is no time, a number >= 0 (the last: \"%s\")\n",
                        T.notime, T.notime == 1 ? "" : "s", T.notime_text);
            if (T.timeouts)
                fprintf(stderr, "servet: tune: %d run%s killed at the end of the budget (--budget SECONDS gives more)\n",
                        T.timeouts, T.timeouts == 1 ? " was" : "s were");
        }
        return 1;
    }
    printf("{\"best\": ");
    print_point_json(&td, best);
    printf(", \"seconds\": %.6g, \"seed\": ", info.best_seconds);
    if (td.seed) print_point_json(&td, td.seed);
    else printf("null");
    printf(", \"more_seeds\": [");
    for (k = 0; k < td.nmore_seeds; k++) {
        printf("%s", k ? ", " : "");
        print_point_json(&td, td.more_seeds + (size_t)k * (size_t)td.nparams);
    }
    printf("]");
    printf(", \"seed_seconds\": %.6g, \"evaluations\": %d, \"runs\": %d, \"spread\": %.4g, \"from_cache\": %s,"
           " \"failed_runs\": %d, \"killed_runs\": %d, \"tune_seconds\": %.3f}\n",
           info.seed_seconds, info.evaluations, info.runs, info.spread, info.from_cache ? "true" : "false", T.failures,
           T.timeouts, info.tune_seconds);
    return 0;
}

/* Started by an MPI launcher? (Open MPI, MPICH/Hydra, PMIx, Slurm's PMI) */
static int launched_by_mpirun(void) {
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS", NULL};
    int i;
    for (i = 0; vars[i]; i++)
        if (getenv(vars[i])) return 1;
    return 0;
}

/* servet aggr: read a .comm file written by the comm probe (any job layout:
   its own fingerprint string names it) into p. 0 on success. */
static int load_comm_file(servet_profile *p, const char *path) {
    unsigned char *img = NULL;
    size_t n = 0;
    uint32_t fplen;
    char fp[SERVET__FP_MAX + 1];
    const char *why = "unreadable or not a servet file";
    servet_profile q;
    int rc = 1;
    if (servet__read_file(&p->ctx, path, &img, &n) != SERVET_OK || !img) {
        fprintf(stderr, "servet: aggr: cannot read %s (missing, unreadable or not a servet file)\n", path);
        return 1;
    }
    if (n > SERVET__HEADER) {
        memcpy(&fplen, img + 20, 4);
        why = "bad header";
        if (fplen <= SERVET__FP_MAX && fplen <= n - SERVET__HEADER) {
            memcpy(fp, img + SERVET__HEADER, fplen);
            fp[fplen] = 0;
            why = "not a .comm file";
            if (!strncmp(fp, "servet-comm ", 12)) {
                servet__comm_holder(&q, p, NULL);
                if (servet__parse(&q, img, n, fp, &why) == SERVET_OK && q.comm) {
                    servet__free_comm(p);
                    p->comm = q.comm;
                    q.comm = NULL;
                    p->comm->from_file = 1;
                    p->sections |= SERVET_PROBE_COMM;
                    rc = 0;
                }
                servet__clear_measured(&q);
            }
        }
    }
    if (rc) fprintf(stderr, "servet: aggr: %s: %s\n", path, why);
    servet__free(&p->ctx, img);
    return rc;
}
/* the newest servet-*.comm beside this machine's profile; 0 if found */
static int newest_comm_file(const servet_desc *d, char *out, size_t cap) {
    char prof[4200], pat[4300];
    glob_t g;
    size_t k;
    double newest = -1;
    char *slash;
    if (!servet_cache_path(d, prof, sizeof prof)) return 1;
    slash = strrchr(prof, '/');
    if (!slash) return 1;
    *slash = 0;
    snprintf(pat, sizeof pat, "%s/servet-*.comm", prof);
    if (glob(pat, 0, NULL, &g) != 0) return 1;
    for (k = 0; k < g.gl_pathc; k++) {
        struct stat st;
        if (stat(g.gl_pathv[k], &st) == 0 && (double)st.st_mtime > newest) {
            newest = (double)st.st_mtime;
            snprintf(out, cap, "%s", g.gl_pathv[k]);
        }
    }
    globfree(&g);
    return newest < 0;
}
static int parse_num_arg(const char *s, double lo, double *v) {
    char *end;
    double x;
    if (!s || !*s) return 0;
    x = strtod(s, &end);
    if (*end || !(x >= lo) || !isfinite(x)) return 0;
    *v = x;
    return 1;
}
static int cmp_dbl(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}
static void print_aggr(const servet_aggr *a, const servet_aggr_desc *ad, double secs) {
    static const char *lim[] = {"none", "messages", "buffer", "wait"};
    printf("{\"layer\": %d, \"bytes\": %.17g, \"messages\": %.17g, \"pack\": %.17g, \"send_bytes\": %.17g, \"route\": \"%s\","
           " \"leader_rank\": %d, \"predicted_s_per_message\": {\"separate\": %.6g, \"packed\": %.6g, \"leader\": ",
           a->layer, ad->message_bytes, ad->messages, a->pack, a->pack * ad->message_bytes,
           a->route_leader ? "leader" : "direct", a->leader, a->separate_s, a->packed_s);
    if (a->leader_s > 0) printf("%.6g", a->leader_s);
    else printf("null");
    printf(", \"chosen\": %.6g}, \"pack_bytes_per_s\": %.6g, \"limited_by\": \"%s\", \"why\": \"%s\", \"decision_seconds\": %.3g}\n",
           a->time_s, a->pack_bytes_per_s, lim[a->limited_by >= 0 && a->limited_by <= 3 ? a->limited_by : 0], a->why, secs);
}
static int cmd_aggr(int argc, char **argv) {
    servet_aggr_desc ad;
    servet_aggr out;
    servet_desc d;
    servet_profile *p = NULL;
    servet_result r;
    const char *comm_path = NULL;
    char found[4300];
    int i, have_bytes = 0, have_msgs = 0, have_layer = 0, have_ranks = 0, rc = 1, rank = 0, use_mpi = 0;
    double v;
    memset(&ad, 0, sizeof ad);
    memset(&d, 0, sizeof d);
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--bytes")) {
            if (!parse_num_arg(next, 1e-300, &ad.message_bytes)) return die_usage("aggr: --bytes wants a size > 0", next);
            have_bytes = 1; i++;
        } else if (!strcmp(a, "--messages")) {
            if (!parse_num_arg(next, 1, &ad.messages)) return die_usage("aggr: --messages wants a count >= 1", next);
            have_msgs = 1; i++;
        } else if (!strcmp(a, "--layer")) {
            if (!parse_num_arg(next, 0, &v) || v != floor(v) || v > 1e6) return die_usage("aggr: --layer wants a layer index >= 0", next);
            ad.layer = (int)v; have_layer = 1; i++;
        } else if (!strcmp(a, "--ranks")) {
            int x, y, used = 0;
            if (!next || sscanf(next, "%d,%d%n", &x, &y, &used) != 2 || next[used] || x < 0 || y < 0 || x == y)
                return die_usage("aggr: --ranks wants two different ranks A,B", next);
            ad.rank_a = x; ad.rank_b = y; have_ranks = 1; i++;
        } else if (!strcmp(a, "--senders") || !strcmp(a, "--peers") || !strcmp(a, "--ranks-per-node")) {
            if (!parse_num_arg(next, 1, &v) || v != floor(v) || v > 1e8) return die_usage("aggr: wants a whole number >= 1", a);
            if (a[2] == 's') ad.senders = (int)v;
            else if (a[2] == 'p') ad.peers = (int)v;
            else ad.ranks_per_node = (int)v;
            i++;
        } else if (!strcmp(a, "--pack-rate") || !strcmp(a, "--max-buffer") || !strcmp(a, "--max-wait") || !strcmp(a, "--interval")) {
            if (!parse_num_arg(next, 0, &v)) return die_usage("aggr: wants a number >= 0", a);
            if (!strcmp(a, "--pack-rate")) ad.pack_bytes_per_s = v;
            else if (!strcmp(a, "--max-buffer")) ad.max_buffer_bytes = v;
            else if (!strcmp(a, "--max-wait")) ad.max_wait_s = v;
            else ad.interval_s = v;
            i++;
        } else if (!strcmp(a, "--no-leader")) ad.no_leader = 1;
        else if (!strcmp(a, "--comm") && next) comm_path = argv[++i];
        else if (!strcmp(a, "--cache-dir") && next) d.cache_dir = argv[++i];
        else if (!strcmp(a, "--no-probe")) d.no_probe = 1;
        else return die_usage("aggr: unknown or incomplete argument", a);
    }
    if (!have_bytes || !have_msgs) return die_usage("aggr needs --bytes S and --messages N", NULL);
    if (have_layer && have_ranks) return die_usage("aggr: --layer or --ranks, not both", NULL);
    d.log = log_stderr;
    d.log_level = SERVET_LOG_WARN;
    d.probes = SERVET_PROBE_TOPOLOGY;
    if (launched_by_mpirun() && !comm_path) {
#ifdef SERVET_USE_MPI
        int size = 1;
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        use_mpi = size > 1;
        if (!use_mpi) MPI_Finalize();
#endif
    }
    if (use_mpi) {
#ifdef SERVET_USE_MPI
        d.probes = SERVET_PROBE_TOPOLOGY | SERVET_PROBE_COMM;
        r = servet_open_mpi(&p, &d, NULL);
        if (r != SERVET_OK) {
            if (rank == 0) fprintf(stderr, "servet: aggr: %s\n", servet_result_string(r));
            MPI_Finalize();
            return 1;
        }
#endif
    } else {
        /* this machine's profile (whatever is cached; probing if nothing is) plus a .comm file */
        servet_desc any = d;
        any.no_probe = 1;
        any.log = NULL;
        r = servet_open(&p, &any);
        if (r != SERVET_OK && !d.no_probe) r = servet_open(&p, &d);
        if (r != SERVET_OK) { fprintf(stderr, "servet: aggr: %s\n", servet_result_string(r)); return 1; }
        if (!comm_path) {
            if (newest_comm_file(&d, found, sizeof found)) {
                fprintf(stderr, "servet: aggr: no communication results: run 'mpirun -np N bin/servet aggr ...' (MPI build)\n"
                                "servet: aggr: or 'mpirun -np N bin/servet probe --only comm' first, or give --comm FILE\n");
                servet_close(p);
                return 1;
            }
            comm_path = found;
            fprintf(stderr, "servet: aggr: using %s (the newest .comm file; --comm FILE picks another)\n", comm_path);
        }
        if (load_comm_file(p, comm_path)) { servet_close(p); return 1; }
    }
    {
        /* the decision's own time: the median of 21 calls after a first one */
        double t[21], t0;
        int k;
        r = servet_choose_aggregation(p, &ad, &out);
        for (k = 0; k < 21 && r == SERVET_OK; k++) {
            t0 = mono();
            r = servet_choose_aggregation(p, &ad, &out);
            t[k] = mono() - t0;
        }
        if (r == SERVET_OK) qsort(t, 21, sizeof t[0], cmp_dbl);
        v = r == SERVET_OK ? t[10] : 0.0;
    }
    if (rank == 0) {
        if (r == SERVET_OK) { print_aggr(&out, &ad, v); rc = 0; }
        else fprintf(stderr, "servet: aggr: %s%s\n", servet_result_string(r),
                     r == SERVET_ERROR_INVALID_ARGUMENT ? " (a rank or layer out of range for these results?)" : "");
    } else rc = r == SERVET_OK ? 0 : 1;
    servet_close(p);
#ifdef SERVET_USE_MPI
    if (use_mpi) MPI_Finalize();
#endif
    return rc;
}

static int output(const servet_profile *p, const servet_desc *d, const char *cmd, const char *plotdir) {
    if (!strcmp(cmd, "json")) {
        size_t n = servet_json(p, NULL, 0);
        char *buf = (char *)malloc(n + 1);
        if (!buf) return 1;
        servet_json(p, buf, n + 1);
        fputs(buf, stdout);
        free(buf);
        return 0;
    }
    if (!strcmp(cmd, "plot")) return plot(p, plotdir);
    show(p, d);
    return 0;
}

int main(int argc, char **argv) {
    servet_desc d;
    servet_profile *p = NULL;
    servet_result r;
    const char *cmd, *plotdir = NULL;
    int i, verbose = 0, mpi_rank = 0;
    memset(&d, 0, sizeof d);
    (void)mpi_rank;
    if (argc < 2) {
        fputs(usage_text, stderr);
        return 2;
    }
    cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
#ifdef SERVET_USE_MPI
        printf("servet %s (with MPI)\n", SERVET_VERSION_STRING);
#else
        printf("servet %s (without MPI)\n", SERVET_VERSION_STRING);
#endif
        return 0;
    }
    if ((!strcmp(cmd, "simulate") || !strcmp(cmd, "apex") || !strcmp(cmd, "tile") || !strcmp(cmd, "tune") ||
         !strcmp(cmd, "map") || !strcmp(cmd, "aggr")) && help_asked(cmd, argc - 2, argv + 2))
        return 0;
    if (!strcmp(cmd, "simulate")) return cmd_simulate(argc - 2, argv + 2);
    if (!strcmp(cmd, "apex")) return cmd_apex(argc - 2, argv + 2);
    if (!strcmp(cmd, "tile")) return cmd_tile(argc - 2, argv + 2);
    if (!strcmp(cmd, "tune")) return cmd_tune(argc - 2, argv + 2);
    if (!strcmp(cmd, "map")) return cmd_map(argc - 2, argv + 2);
    if (!strcmp(cmd, "aggr")) return cmd_aggr(argc - 2, argv + 2);
    if (strcmp(cmd, "probe") && strcmp(cmd, "show") && strcmp(cmd, "json") && strcmp(cmd, "plot") &&
        strcmp(cmd, "path"))
        return die_usage("unknown command", cmd);
    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--only")) {
            if (i + 1 >= argc) return die_usage("--only needs a list", NULL);
            if (servet_probes_parse(argv[++i], &d.probes) != SERVET_OK)
                return die_usage("unknown or unavailable probe in --only (available: topology,cache,shared,memory,mbsp,apex,comm)", argv[i]);
        } else if (!strcmp(a, "--force")) d.force = 1;
        else if (!strcmp(a, "--all-pairs")) d.all_pairs = 1;
        else if (!strcmp(a, "--no-probe")) d.no_probe = 1;
        else if (!strcmp(a, "--quick")) d.quick = 1;
        else if (!strcmp(a, "--max-size")) {
            char *end;
            double v;
            if (i + 1 >= argc) return die_usage("--max-size needs a byte count", NULL);
            v = strtod(argv[++i], &end);
            if (*end || !(v >= 1048576.0)) return die_usage("--max-size must be a byte count >= 1048576", argv[i]);
            d.cache_max_bytes = (uint64_t)v;
        } else if (!strcmp(a, "--cache-dir")) {
            if (i + 1 >= argc) return die_usage("--cache-dir needs a directory", NULL);
            d.cache_dir = argv[++i];
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) verbose = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) { fputs(usage_text, stdout); return 0; }
        else if (a[0] != '-' && !strcmp(cmd, "plot") && !plotdir) plotdir = a;
        else return die_usage("unknown argument", a);
    }
    if (!strcmp(cmd, "plot") && !plotdir) return die_usage("plot needs a directory", NULL);
    if (!strcmp(cmd, "path")) {
        char path[4200];
        if (!servet_cache_path(&d, path, sizeof path)) {
            fprintf(stderr, "servet: no cache directory: set SERVET_CACHE_DIR or HOME\n");
            return 1;
        }
        printf("%s\n", path);
        return 0;
    }
    d.log = log_stderr;
    d.log_level = verbose ? SERVET_LOG_INFO : SERVET_LOG_WARN;
    if (isatty(2)) d.progress = progress_tty;
    if ((d.probes & SERVET_PROBE_COMM) || launched_by_mpirun()) {
        /* the communication probe: MPI, at least two ranks */
#ifdef SERVET_USE_MPI
        int size = 0, rc;
        if (!launched_by_mpirun()) {
            fprintf(stderr, "servet: the comm probe measures messages between MPI ranks: start this command with an MPI\n"
                            "servet: launcher and at least 2 ranks, e.g.  mpirun -np 4 %s %s --only comm\n", argv[0], cmd);
            return 1;
        }
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        if (size < 2 && (d.probes & SERVET_PROBE_COMM)) {
            fprintf(stderr, "servet: the comm probe needs at least 2 MPI ranks (this job has 1): mpirun -np 2 %s %s --only comm\n",
                    argv[0], cmd);
            MPI_Finalize();
            return 1;
        }
        if (!d.probes) d.probes = (strcmp(cmd, "probe") ? SERVET_PROBE_TOPOLOGY : SERVET_PROBE_NODE) | SERVET_PROBE_COMM;
        if (mpi_rank != 0) d.progress = NULL;
        r = servet_open_mpi(&p, &d, NULL);
        if (r != SERVET_OK) {
            if (mpi_rank == 0) {
                fprintf(stderr, "servet: %s\n", servet_result_string(r));
                if (r == SERVET_ERROR_NOT_CACHED) fprintf(stderr, "servet: run 'mpirun -np N servet probe --only comm' first\n");
            }
            MPI_Finalize();
            return 1;
        }
        rc = mpi_rank == 0 ? output(p, &d, cmd, plotdir) : 0;
        servet_close(p);
        MPI_Finalize();
        return rc;
#else
        if (d.probes & SERVET_PROBE_COMM) {
            fprintf(stderr, "servet: the comm probe needs MPI, and this servet was built without it (SERVET_USE_MPI):\n"
                            "servet: install MPI (tools/deps.sh probe does: Open MPI), rebuild with make (the command\n"
                            "servet: is MPI-enabled whenever mpicc is found) and run\n"
                            "servet:   mpirun -np N bin/servet %s --only comm   (N >= 2)\n", cmd);
            return 1;
        }
#endif
    }
    if (!strcmp(cmd, "probe") && !d.probes) d.probes = SERVET_PROBE_NODE;
    r = SERVET_ERROR_NOT_CACHED;
    if (strcmp(cmd, "probe") && !d.probes && !d.force) {
        /* show/json/plot without --only: whatever is cached, probe only if nothing is */
        servet_desc any = d;
        any.probes = SERVET_PROBE_TOPOLOGY;
        any.no_probe = 1;
        any.log = NULL;
        r = servet_open(&p, &any);
    }
    if (r != SERVET_OK) r = servet_open(&p, &d);
    if (r != SERVET_OK) {
        fprintf(stderr, "servet: %s\n", servet_result_string(r));
        if (r == SERVET_ERROR_NOT_CACHED) fprintf(stderr, "servet: run 'servet probe' first\n");
        return 1;
    }
    i = output(p, &d, cmd, plotdir);
    servet_close(p);
    return i;
}
