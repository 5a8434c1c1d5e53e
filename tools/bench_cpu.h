/* The CPU a bench ran on, for bench_data: hwloc's model name plus the
   vendor's family and model numbers from /proc/cpuinfo (a VM may call a Zen 4
   and a Zen 5 both "AMD EPYC"). Shared by the C benches (bench_tile,
   bench_comm, bench_accuracy; inline: each uses one of the two); the Python
   ones read /proc/cpuinfo the same way. */
#ifndef SERVET_BENCH_CPU_H
#define SERVET_BENCH_CPU_H
#include <stdio.h>
#include <string.h>

static inline void cpu_name(const char *model, char *out, size_t cap) {
    char line[256], vendor[64] = "?", fam[16] = "?", mod[16] = "?";
    FILE *c = fopen("/proc/cpuinfo", "r");
    while (c && fgets(line, sizeof line, c)) {
        char *v = strchr(line, ':');
        if (!v) continue;
        v += 2;
        v[strcspn(v, "\n")] = 0;
        if (!strncmp(line, "vendor_id", 9) && vendor[0] == '?') snprintf(vendor, sizeof vendor, "%s", v);
        else if (!strncmp(line, "cpu family", 10) && fam[0] == '?') snprintf(fam, sizeof fam, "%s", v);
        else if (!strncmp(line, "model\t", 6) && mod[0] == '?') snprintf(mod, sizeof mod, "%s", v);
    }
    if (c) fclose(c);
    snprintf(out, cap, "%s (%s family %s model %s)", model, vendor, fam, mod);
}
/* the same, with the model name from /proc/cpuinfo too (a bench that opens
   no profile: bench_accuracy, whose hierarchies are simulated) */
static inline void cpu_name_proc(char *out, size_t cap) {
    char line[256], model[128] = "unknown";
    FILE *c = fopen("/proc/cpuinfo", "r");
    while (c && fgets(line, sizeof line, c)) {
        char *v = strchr(line, ':');
        if (!v || strncmp(line, "model name", 10)) continue;
        v += 2;
        v[strcspn(v, "\n")] = 0;
        snprintf(model, sizeof model, "%s", v);
        break;
    }
    if (c) fclose(c);
    cpu_name(model, out, cap);
}

#endif
