/* Typed, validated reads from jansson values. Messages name the JSON path
 * so a user can find the offending value: "clips[0].keyframes[2].time:
 * expected a number". */
#include "json_read.h"
#include "rune/clip.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

const char *jr_join(char *buf, const char *path, const char *key)
{
    snprintf(buf, JR_PATH_MAX, "%s%s%s", path, path[0] ? "." : "", key);
    return buf;
}

static rune_status bad(rune_error *err, const char *path, const char *key, const char *what)
{
    char p[JR_PATH_MAX];
    return rune_fail(err, RUNE_E_INVALID, "%s: %s", jr_join(p, path, key), what);
}

rune_status jr_number(json_t *v, const char *where, float *out, rune_error *err)
{
    const char *why = NULL;
    if (!json_is_number(v))
        why = "expected a number";
    else if (!isfinite(json_number_value(v)))
        why = "not a finite number";
    else if (fabs(json_number_value(v)) > FLT_MAX)
        why = "number out of float range";
    if (why)
        return rune_fail(err, RUNE_E_INVALID, "%s: %s", where, why);
    *out = (float)json_number_value(v);
    return RUNE_OK;
}

rune_status jr_float(json_t *obj, const char *key, const char *path, bool required, float def, float *out,
                     rune_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        *out = def;
        return required ? bad(err, path, key, "missing") : RUNE_OK;
    }
    char p[JR_PATH_MAX];
    return jr_number(v, jr_join(p, path, key), out, err);
}

rune_status jr_int(json_t *obj, const char *key, const char *path, bool required, long long def, long long lo,
                   long long hi, long long *out, rune_error *err)
{
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v)
        return required ? bad(err, path, key, "missing") : RUNE_OK;
    if (!json_is_integer(v))
        return bad(err, path, key, "expected an integer");
    long long x = json_integer_value(v);
    if (x < lo || x > hi) {
        char p[JR_PATH_MAX];
        return rune_fail(err, RUNE_E_INVALID, "%s: %lld is outside %lld..%lld", jr_join(p, path, key), x, lo, hi);
    }
    *out = x;
    return RUNE_OK;
}

rune_status jr_bool(json_t *obj, const char *key, const char *path, bool def, bool *out, rune_error *err)
{
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v)
        return RUNE_OK;
    if (!json_is_boolean(v))
        return bad(err, path, key, "expected true or false");
    *out = json_is_true(v);
    return RUNE_OK;
}

rune_status jr_string(json_t *obj, const char *key, const char *path, bool required, const char *def,
                      rune__arena *arena, const char **out, rune_error *err)
{
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v)
        return required ? bad(err, path, key, "missing") : RUNE_OK;
    if (!json_is_string(v))
        return bad(err, path, key, "expected a string");
    if (strlen(json_string_value(v)) != json_string_length(v))
        return bad(err, path, key, "string contains a NUL character");
    *out = rune__arena_strdup(arena, json_string_value(v));
    if (!*out)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    return RUNE_OK;
}

static rune_status read_floats(json_t *obj, const char *key, const char *path, float *dst, size_t n,
                               bool *present, rune_error *err)
{
    json_t *v = json_object_get(obj, key);
    *present = v != NULL;
    if (!v)
        return RUNE_OK;
    char p[JR_PATH_MAX];
    if (!json_is_array(v) || json_array_size(v) != n) {
        char what[48];
        snprintf(what, sizeof what, "expected an array of %zu numbers", n);
        return bad(err, path, key, what);
    }
    for (size_t i = 0; i < n; i++) {
        char where[JR_PATH_MAX + 24];
        snprintf(where, sizeof where, "%s[%zu]", jr_join(p, path, key), i);
        rune_status st = jr_number(json_array_get(v, i), where, &dst[i], err);
        if (st)
            return st;
    }
    return RUNE_OK;
}

rune_status jr_vec3(json_t *obj, const char *key, const char *path, rune_vec3 def, rune_vec3 *out,
                    rune_error *err)
{
    float f[3];
    bool present;
    rune_status st = read_floats(obj, key, path, f, 3, &present, err);
    *out = present && !st ? rune_v3(f[0], f[1], f[2]) : def;
    return st;
}

rune_status jr_vec2(json_t *obj, const char *key, const char *path, rune_vec2 *out, rune_error *err)
{
    float f[2];
    bool present;
    rune_status st = read_floats(obj, key, path, f, 2, &present, err);
    if (!st && !present)
        return bad(err, path, key, "missing");
    out->x = f[0];
    out->y = f[1];
    return st;
}

rune_status jr_quat(json_t *obj, const char *key, const char *path, rune_quat *out, rune_error *err)
{
    float f[4];
    bool present;
    *out = rune_q_identity();
    rune_status st = read_floats(obj, key, path, f, 4, &present, err);
    if (st || !present)
        return st;
    rune_quat q = rune_q(f[0], f[1], f[2], f[3]);
    double n2 = (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
    if (!(n2 > 1e-12))
        return bad(err, path, key, "zero-length quaternion");
    *out = rune_q_unit(q); /* unit to float precision: kept as written (docs/format.md) */
    return RUNE_OK;
}

rune_status jr_array(json_t *obj, const char *key, const char *path, bool required, json_t **out,
                     rune_error *err)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v)
        return required ? bad(err, path, key, "missing") : RUNE_OK;
    if (!json_is_array(v))
        return bad(err, path, key, "expected an array");
    *out = v;
    return RUNE_OK;
}

rune_status jr_object(json_t *v, const char *path, rune_error *err)
{
    if (json_is_object(v))
        return RUNE_OK;
    return rune_fail(err, RUNE_E_INVALID, "%s: expected an object", path[0] ? path : "document");
}

rune_status jr_xform(json_t *obj, const char *key, const char *path, rune_xform *out, rune_error *err)
{
    *out = rune_xform_identity();
    json_t *v = json_object_get(obj, key);
    if (!v)
        return RUNE_OK;
    char p[JR_PATH_MAX];
    jr_join(p, path, key);
    rune_status st = jr_object(v, p, err);
    if (!st)
        st = jr_vec3(v, "t", p, rune_v3(0, 0, 0), &out->t, err);
    if (!st)
        st = jr_quat(v, "r", p, &out->r, err);
    return st;
}

rune_status jr_priority(json_t *obj, const char *path, int *out, rune_error *err)
{
    json_t *v = json_object_get(obj, "priority");
    *out = RUNE_PRIORITY_CORE;
    if (!v)
        return RUNE_OK;
    char p[JR_PATH_MAX];
    jr_join(p, path, "priority");
    if (json_is_string(v)) {
        int pr = rune_priority_from_name(json_string_value(v));
        if (pr < 0)
            return rune_fail(err, RUNE_E_INVALID, "%s: unknown priority \"%s\"", p, json_string_value(v));
        *out = pr;
        return RUNE_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= RUNE_PRIORITY_COUNT)
        return rune_fail(err, RUNE_E_INVALID, "%s: expected a priority name or 0..%d", p, RUNE_PRIORITY_COUNT - 1);
    *out = (int)json_integer_value(v);
    return RUNE_OK;
}

rune_status jr_param_value(json_t *obj, const char *key, const char *path, bool required, bool is_bool, float def,
                           float *out, rune_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (json_is_boolean(v)) {
        *out = json_is_true(v) ? 1.0f : 0.0f;
        return RUNE_OK;
    }
    rune_status st = jr_float(obj, key, path, required, def, out, err);
    if (!st && v && is_bool && *out != 0.0f && *out != 1.0f) {
        char p[JR_PATH_MAX];
        return rune_fail(err, RUNE_E_INVALID, "%s: %g for a bool parameter (expected true, false, 0 or 1)",
                         jr_join(p, path, key), (double)*out);
    }
    return st;
}

rune_status jr_name(json_t *obj, const char *key, const char *path, const char *what, int (*from_name)(const char *),
                    int def, int *out, rune_error *err)
{
    json_t *v = json_object_get(obj, key);
    *out = def;
    if (!v)
        return RUNE_OK;
    int x = json_is_string(v) ? from_name(json_string_value(v)) : -1;
    if (x >= 0) {
        *out = x;
        return RUNE_OK;
    }
    char p[JR_PATH_MAX];
    bool str = json_is_string(v);
    return rune_fail(err, RUNE_E_INVALID, "%s: unknown %s %s%s%s", jr_join(p, path, key), what, str ? "\"" : "",
                     str ? json_string_value(v) : "(not a string)", str ? "\"" : "");
}

rune_status jr_blend(json_t *obj, const char *path, rune_blend_mode *out, rune_error *err)
{
    json_t *v = json_object_get(obj, "blend");
    *out = RUNE_BLEND_CROSSFADE;
    if (!v)
        return RUNE_OK;
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    if (strcmp(s, "crossfade") == 0 || strcmp(s, "inertialize") == 0) {
        *out = s[0] == 'i' ? RUNE_BLEND_INERTIALIZE : RUNE_BLEND_CROSSFADE;
        return RUNE_OK;
    }
    char p[JR_PATH_MAX];
    return rune_fail(err, RUNE_E_INVALID, "%s: unknown blend %s%s%s (expected \"crossfade\" or \"inertialize\")",
                     jr_join(p, path, "blend"), json_is_string(v) ? "\"" : "",
                     json_is_string(v) ? s : "(not a string)", json_is_string(v) ? "\"" : "");
}

rune_status jr_easing(json_t *obj, const char *path, rune_easing_style *style, rune_easing_dir *dir,
                      rune_error *err)
{
    int s, d;
    rune_status st;
    if ((st = jr_name(obj, "easing", path, "style", rune_easing_style_from_name, RUNE_EASE_LINEAR, &s, err)) ||
        (st = jr_name(obj, "direction", path, "direction", rune_easing_dir_from_name, RUNE_EASE_IN, &d, err)))
        return st;
    *style = (rune_easing_style)s;
    *dir = (rune_easing_dir)d;
    return RUNE_OK;
}
