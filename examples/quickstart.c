/* The README's example: open the profile (probing once per machine) and
   print the cache levels, measured beside what the OS reports. */
#include "servet.h"
#include <stdio.h>

int main(void) {
    servet_desc desc = {0};
    servet_profile *prof = NULL;
    servet_result r = servet_open(&prof, &desc);
    if (r != SERVET_OK) { fprintf(stderr, "servet: %s\n", servet_result_string(r)); return 1; }
    for (int level = 1; level <= servet_cache_count(prof); level++) {
        servet_cache_info c;
        if (servet_cache_get(prof, level, &c) == SERVET_OK)
            printf("L%d: %llu bytes measured, %llu reported, %.1f ns\n", c.level,
                   (unsigned long long)c.size_bytes, (unsigned long long)c.reported_size_bytes, c.latency_ns);
    }
    servet_close(prof);
    return 0;
}
