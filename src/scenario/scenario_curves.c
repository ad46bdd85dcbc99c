/* A scenario keyframe's float curve keys: "curves": {"name": value} or
 * {"name": {"value": v, "weight": w, "mask_weight": m, "easing": ...,
 * "direction": ..., "in_tangent": a, "out_tangent": b}} (docs/scenario.md;
 * either tangent makes the interval to the key a Hermite spline). */
#include "json_read.h"
#include "scenario_internal.h"
#include "rune/clip.h"

#include <stdio.h>

static rune_status load_key(json_t *v, const char *path, rune_curve_key_desc *d, rune_error *err)
{
    if (json_is_number(v))
        return jr_number(v, path, &d->value, err);
    if (!json_is_object(v))
        return rune_fail(err, RUNE_E_INVALID, "%s: expected a number or an object", path);
    rune_status st;
    if ((st = jr_float(v, "value", path, true, 0.0f, &d->value, err)) ||
        (st = jr_float(v, "weight", path, false, 1.0f, &d->weight, err)) ||
        (st = jr_float(v, "mask_weight", path, false, 0.0f, &d->mask_weight, err)) ||
        (st = jr_float(v, "in_tangent", path, false, 0.0f, &d->in_tangent, err)) ||
        (st = jr_float(v, "out_tangent", path, false, 0.0f, &d->out_tangent, err)))
        return st;
    d->spline = json_object_get(v, "in_tangent") || json_object_get(v, "out_tangent");
    return jr_easing(v, path, &d->easing, &d->direction, err);
}

rune_status rune__scenario_load_curve_keys(json_t *kf, const char *path, rune__arena *arena, rune_keyframe_desc *out,
                                           rune_error *err)
{
    json_t *curves = json_object_get(kf, "curves");
    out->curves = NULL, out->curve_count = 0;
    if (!curves)
        return RUNE_OK;
    char cpath[JR_PATH_MAX];
    jr_join(cpath, path, "curves");
    if (!json_is_object(curves))
        return rune_fail(err, RUNE_E_INVALID, "%s: expected an object of curve names", cpath);
    size_t n = json_object_size(curves);
    rune_curve_key_desc *d = rune__arena_array(arena, n ? n : 1, sizeof *d);
    if (!d)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    const char *name;
    json_t *v;
    size_t i = 0;
    json_object_foreach(curves, name, v) {
        char kpath[JR_PATH_MAX];
        jr_join(kpath, cpath, name);
        if (!name[0])
            return rune_fail(err, RUNE_E_INVALID, "%s: a curve needs a name", kpath);
        d[i] = (rune_curve_key_desc){rune__arena_strdup(arena, name), 0.0f, 1.0f, 0.0f, RUNE_EASE_LINEAR,
                                     RUNE_EASE_IN, false, 0.0f, 0.0f};
        rune_status st = d[i].name ? load_key(v, kpath, &d[i], err) : rune_fail(err, RUNE_E_NOMEM, "out of memory");
        if (st)
            return st;
        i++;
    }
    out->curves = d, out->curve_count = n;
    return RUNE_OK;
}
