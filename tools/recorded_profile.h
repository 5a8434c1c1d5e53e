/* A cache file read as a profile anywhere: against the fingerprint the file
   carries (the machine it came from, not this one), as servet_open reads it
   against this machine's. tools/tile_replay.c replays the tile decision on
   the files bench-tile runs recorded; tests/test_decide.c decides on the
   one in tests/data/. Include after servet.h with SERVET_IMPLEMENTATION
   (it uses the file reader and parser). */
#ifndef SERVET_RECORDED_PROFILE_H
#define SERVET_RECORDED_PROFILE_H
#include <stdlib.h>
#include <string.h>

/* The profile in the cache file at path, or NULL where it cannot be read or
   fails a check (*why, if given: the parser's reason, "" for a short or
   unreadable file). Free with free() after servet__clear_measured. */
static servet_profile *recorded_profile_read(const char *path, const char **why) {
    servet_profile *p = (servet_profile *)calloc(1, sizeof *p);
    unsigned char *buf = NULL;
    size_t len = 0;
    uint32_t fplen = 0;
    char fp[SERVET__FP_MAX + 1];
    const char *reason = "";
    int ok;
    if (why) *why = "";
    if (!p) return NULL;
    ok = servet__read_file(&p->ctx, path, &buf, &len) == SERVET_OK && len >= SERVET__HEADER;
    if (ok) memcpy(&fplen, buf + 20, 4); /* the fingerprint's length, where servet__parse_image reads it */
    ok = ok && fplen <= SERVET__FP_MAX && fplen <= len - SERVET__HEADER;
    if (ok) {
        memcpy(fp, buf + SERVET__HEADER, fplen);
        fp[fplen] = 0;
        ok = servet__parse(p, buf, len, fp, &reason) == SERVET_OK;
        if (why) *why = reason;
    }
    servet__free(&p->ctx, buf);
    if (!ok) {
        free(p);
        return NULL;
    }
    return p;
}
#endif
