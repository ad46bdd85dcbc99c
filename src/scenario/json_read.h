/* Typed reads from jansson values with JSON-path error messages. Every
 * reader takes the path of the containing object and names the key. */
#ifndef RUNE_SRC_SCENARIO_JSON_READ_H
#define RUNE_SRC_SCENARIO_JSON_READ_H

#include <jansson.h>

#include "rune/base.h"
#include "rune/math.h"
#include "rune/play.h"
#include "../base/arena.h"

/** Maximum length of a JSON path in messages. */
#define JR_PATH_MAX 160

/** Reads a finite number that fits a float; `def` when absent (or error
 * when `required`). */
rune_status jr_float(json_t *obj, const char *key, const char *path, bool required, float def, float *out,
                     rune_error *err);
/** Reads `v` itself as a finite number that fits a float (`where`: its
 * full path). */
rune_status jr_number(json_t *v, const char *where, float *out, rune_error *err);
/** Reads an integer in [lo, hi]. */
rune_status jr_int(json_t *obj, const char *key, const char *path, bool required, long long def, long long lo,
                   long long hi, long long *out, rune_error *err);
rune_status jr_bool(json_t *obj, const char *key, const char *path, bool def, bool *out, rune_error *err);
/** Reads a string copied into the arena; `def` (may be NULL) when absent. */
rune_status jr_string(json_t *obj, const char *key, const char *path, bool required, const char *def,
                      rune__arena *arena, const char **out, rune_error *err);
/** Reads [x, y, z]; `def` when absent. */
rune_status jr_vec3(json_t *obj, const char *key, const char *path, rune_vec3 def, rune_vec3 *out,
                    rune_error *err);
/** Reads [x, y]; required. */
rune_status jr_vec2(json_t *obj, const char *key, const char *path, rune_vec2 *out, rune_error *err);
/** Reads [x, y, z, w]; identity when absent. Zero-length is rejected;
 * other lengths are normalized. */
rune_status jr_quat(json_t *obj, const char *key, const char *path, rune_quat *out, rune_error *err);
/** Reads an array member: NULL (and OK) when absent and not required. */
rune_status jr_array(json_t *obj, const char *key, const char *path, bool required, json_t **out,
                     rune_error *err);
/** Requires `v` to be an object. */
rune_status jr_object(json_t *v, const char *path, rune_error *err);
/** Reads {"t": [...], "r": [...]} at key (identity when absent). */
rune_status jr_xform(json_t *obj, const char *key, const char *path, rune_xform *out, rune_error *err);

/** Reads "priority": a rank name ("core" .. "action4") or an integer 0..6;
 * RUNE_PRIORITY_CORE when absent. */
rune_status jr_priority(json_t *obj, const char *path, int *out, rune_error *err);

/** Reads a parameter value: true/false, or a number that fits a float;
 * for bool parameters (`is_bool`) only true, false, 0 and 1. `def` when
 * absent and not required. */
rune_status jr_param_value(json_t *obj, const char *key, const char *path, bool required, bool is_bool, float def,
                           float *out, rune_error *err);

/* "blend" of obj: "crossfade" (also when absent) or "inertialize". */
rune_status jr_blend(json_t *obj, const char *path, rune_blend_mode *out, rune_error *err);
/** Reads an optional name at `key` mapped by `from_name` (negative:
 * unknown, "unknown WHAT NAME"); `def` when absent. */
rune_status jr_name(json_t *obj, const char *key, const char *path, const char *what, int (*from_name)(const char *),
                    int def, int *out, rune_error *err);
/** Reads "easing" and "direction" (linear, in when absent). */
rune_status jr_easing(json_t *obj, const char *path, rune_easing_style *style, rune_easing_dir *dir,
                      rune_error *err);

/** Writes "path.key" (or "key" when path is empty) into buf. */
const char *jr_join(char *buf, const char *path, const char *key);

#endif
