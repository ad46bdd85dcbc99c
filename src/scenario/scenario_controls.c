/* The `control` command of a scenario (docs/scenario.md): per-joint
 * overrides and offsets, and the solver controls (two_bone, aim, chain,
 * position, rotation, transform) with their goals and settings, every
 * number checked where it stands in the document. */
#include "scenario_internal.h"
#include "json_read.h"

#include <math.h>
#include <string.h>

static rune_status bad(rune_error *err, const char *path, const char *key, const char *why)
{
    char p[JR_PATH_MAX];
    return rune_fail(err, RUNE_E_INVALID, "%s: %s", jr_join(p, path, key), why);
}

/* [x, y, z] within RUNE_MAX_MAGNITUDE; *given says whether it was there. */
static rune_status point(json_t *c, const char *key, const char *path, rune_vec3 def, rune_vec3 *out, bool *given,
                         rune_error *err)
{
    rune_status st = jr_vec3(c, key, path, def, out, err);
    if (st)
        return st;
    if (given)
        *given = json_object_get(c, key) != NULL;
    if (!rune_in_range(out->x) || !rune_in_range(out->y) || !rune_in_range(out->z)) {
        char p[JR_PATH_MAX];
        return rune_fail(err, RUNE_E_INVALID, "%s: beyond %g", jr_join(p, path, key), (double)RUNE_MAX_MAGNITUDE);
    }
    return RUNE_OK;
}

/* A number in [lo, hi]; `def` when absent. */
static rune_status number(json_t *c, const char *key, const char *path, float def, float lo, float hi, float *out,
                          rune_error *err)
{
    rune_status st = jr_float(c, key, path, false, def, out, err);
    if (st)
        return st;
    if (!(*out >= lo && *out <= hi)) {
        char why[64];
        snprintf(why, sizeof why, "%g is outside %g..%g", (double)*out, (double)lo, (double)hi);
        return bad(err, path, key, why);
    }
    return RUNE_OK;
}

/* The type: "type" (any mode), or "mode" as before (override, offset). */
static rune_status control_type(json_t *c, const char *path, rune__arena *arena, rune_control_mode *out,
                                rune_error *err)
{
    const char *type, *mode;
    rune_status st;
    if ((st = jr_string(c, "type", path, false, NULL, arena, &type, err)) ||
        (st = jr_string(c, "mode", path, false, NULL, arena, &mode, err)))
        return st;
    int m = RUNE_CONTROL_OVERRIDE;
    char p[JR_PATH_MAX];
    if (mode) {
        m = rune_control_mode_from_name(mode);
        if (m != RUNE_CONTROL_OVERRIDE && m != RUNE_CONTROL_OFFSET)
            return rune_fail(err, RUNE_E_INVALID, "%s: unknown mode \"%s\" (override or offset)",
                             jr_join(p, path, "mode"), mode);
    }
    if (type) {
        int t = rune_control_mode_from_name(type);
        if (t < 0)
            return rune_fail(err, RUNE_E_INVALID,
                             "%s: unknown type \"%s\" (override, offset, two_bone, aim, chain, position, rotation "
                             "or transform)",
                             jr_join(p, path, "type"), type);
        if (mode && t != m)
            return bad(err, path, "mode", "disagrees with \"type\"");
        m = t;
    }
    *out = (rune_control_mode)m;
    return RUNE_OK;
}

/* What the solver types read. */
static rune_status load_solver(json_t *c, const char *path, rune__arena *arena, rune_command *d, rune_error *err)
{
    rune_control *k = &d->control;
    rune_status st;
    bool needs_target = k->mode != RUNE_CONTROL_ROTATION;
    bool needs_r = k->mode == RUNE_CONTROL_ROTATION || k->mode == RUNE_CONTROL_TRANSFORM;
    if (needs_target && !json_object_get(c, "target"))
        return bad(err, path, "target", "missing (a model-space point [x, y, z])");
    if (needs_r && !json_object_get(c, "target_r"))
        return bad(err, path, "target_r", "missing (a model-space rotation [x, y, z, w])");
    if (k->mode == RUNE_CONTROL_CHAIN && !json_object_get(c, "root"))
        return bad(err, path, "root", "missing (a chain runs from an ancestor \"parent/part\")");
    long long iterations;
    if ((st = point(c, "target", path, rune_v3(0, 0, 0), &k->target, NULL, err)) ||
        (st = jr_quat(c, "target_r", path, &k->target_r, err)) ||
        (st = point(c, "pole", path, k->pole, &k->pole, &k->has_pole, err)) ||
        (st = point(c, "forward", path, k->forward, &k->forward, NULL, err)) ||
        (st = point(c, "up", path, k->up, &k->up, NULL, err)) ||
        (st = point(c, "offset", path, k->offset, &k->offset, NULL, err)) ||
        (st = number(c, "soften", path, k->soften, 0.0f, 1.0f, &k->soften, err)) ||
        (st = number(c, "twist", path, 0.0f, -1e6f, 1e6f, &k->twist, err)) ||
        (st = number(c, "tolerance", path, k->tolerance, 1e-9f, 0.5f, &k->tolerance, err)) ||
        (st = number(c, "smooth_time", path, 0.0f, 0.0f, 1e6f, &k->smooth_time, err)) ||
        (st = jr_int(c, "iterations", path, false, 16, 1, 1000, &iterations, err)) ||
        (st = jr_string(c, "root", path, false, NULL, arena, &d->root, err)))
        return st;
    if (json_object_get(c, "limit") && (st = number(c, "limit", path, 0.0f, 0.0f, 1e6f, &k->limit, err)))
        return st;
    k->iterations = (uint32_t)iterations;
    k->has_target_r = json_object_get(c, "target_r") != NULL;
    return RUNE_OK; /* the geometry is rune_control_check's, before the first frame */
}

rune_status rune__scenario_load_control(json_t *c, const char *path, rune__arena *arena, rune_command *d,
                                        rune_error *err)
{
    rune_status st;
    long long pr;
    if ((st = jr_bool(c, "remove", path, false, &d->remove, err)))
        return st;
    if (d->remove)
        return RUNE_OK;
    rune_control_mode mode = RUNE_CONTROL_OFFSET; /* set by control_type (gcc -O3 cannot tell) */
    if ((st = control_type(c, path, arena, &mode, err)))
        return st;
    d->control = rune_control_defaults(mode);
    d->control.joint = d->control.root = -1;
    if ((st = jr_string(c, "joint", path, true, NULL, arena, &d->joint, err)) ||
        (st = jr_int(c, "priority", path, false, 0, -1000000, 1000000, &pr, err)) ||
        (st = point(c, "t", path, rune_v3(0, 0, 0), &d->xform.t, NULL, err)) ||
        (st = jr_quat(c, "r", path, &d->xform.r, err)) ||
        (st = jr_float(c, "weight", path, false, 1.0f, &d->weight, err)))
        return st;
    d->priority = (int)pr;
    d->mode = mode;
    d->has_t = json_object_get(c, "t") != NULL;
    d->has_r = json_object_get(c, "r") != NULL;
    rune_control *k = &d->control;
    k->priority = d->priority;
    k->xform = d->xform;
    k->weight = d->weight;
    k->drive_t = d->has_t;
    k->drive_r = d->has_r;
    return mode > RUNE_CONTROL_OFFSET ? load_solver(c, path, arena, d, err) : RUNE_OK;
}
