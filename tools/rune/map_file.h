/* A retarget map file (rune import --map MAP.json): one JSON object,
 * {"source joint": "target joint", "source joint": null, ...}, the form
 * of a scenario's retargets[].map (docs/scenario.md). */
#ifndef RUNE_TOOLS_MAP_FILE_H
#define RUNE_TOOLS_MAP_FILE_H

#include "rune/rig.h"

typedef struct map_file {
    rune_retarget_pair *pairs; /* the names point into `doc` */
    size_t count;
    void *doc;                 /* the parsed document */
} map_file;

/* Reads `path` into *out; a failure is RUNE_E_IO (unreadable) or
 * RUNE_E_PARSE / RUNE_E_INVALID naming the file, line or key, with
 * nothing held. */
rune_status map_file_read(const char *path, map_file *out, rune_error *err);
void map_file_release(map_file *m);

#endif
