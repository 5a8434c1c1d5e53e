/* Minimal test harness: CHECK counts, the runner sums "N passed, N failed". */
#ifndef SERVET_TEST_HARNESS_H
#define SERVET_TEST_HARNESS_H
#include <stdio.h>
static int t_passed, t_failed;
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) t_passed++;                                              \
        else {                                                             \
            t_failed++;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
        }                                                                  \
    } while (0)
#define TEST_SUMMARY()                                                     \
    do {                                                                   \
        printf("%d passed, %d failed\n", t_passed, t_failed);              \
        return t_failed ? 1 : 0;                                           \
    } while (0)
#endif
