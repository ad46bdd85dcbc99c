/* Retarget map files (map_file.h). */
#include "map_file.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void map_file_release(map_file *m)
{
    free(m->pairs);
    json_decref(m->doc);
    memset(m, 0, sizeof *m);
}

rune_status map_file_read(const char *path, map_file *out, rune_error *err)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return rune_fail(err, RUNE_E_IO, "%s: cannot read the map: %s", path, strerror(errno));
    json_error_t je;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!doc)
        return rune_fail(err, RUNE_E_PARSE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return rune_fail(err, RUNE_E_INVALID,
                         "%s: expected an object {\"source joint\": \"target joint\" or null, ...}", path);
    }
    size_t n = json_object_size(doc);
    out->pairs = calloc(n ? n : 1, sizeof *out->pairs);
    out->doc = doc;
    if (!out->pairs) {
        map_file_release(out);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory reading %s", path);
    }
    const char *key;
    json_t *value;
    json_object_foreach(doc, key, value) {
        if (!json_is_string(value) && !json_is_null(value)) {
            map_file_release(out);
            return rune_fail(err, RUNE_E_INVALID, "%s: \"%s\": expected a target joint name, or null to leave it out",
                             path, key);
        }
        out->pairs[out->count++] = (rune_retarget_pair){key, json_is_string(value) ? json_string_value(value) : NULL};
    }
    return RUNE_OK;
}
