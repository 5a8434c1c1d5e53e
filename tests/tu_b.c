#include "../servet.h"
#include <math.h>
int tu_b_check(void) {
    unsigned bits = 0;
    return servet_probes_parse("topology,cache", &bits) == SERVET_OK &&
           bits == (SERVET_PROBE_TOPOLOGY | SERVET_PROBE_CACHE) &&
           fabs(servet_binomial_tail(10, 0.5, 2) - 968.0 / 1024.0) < 1e-12;
}
