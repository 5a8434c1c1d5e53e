/* Translation unit with the implementation; tu_b.c only includes the header. */
#define SERVET_IMPLEMENTATION
#include "../servet.h"
#include <stdio.h>
#include <string.h>
int tu_b_check(void);
int main(void) {
    int ok = tu_b_check() && strcmp(servet_result_string(SERVET_OK), "ok") == 0;
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
