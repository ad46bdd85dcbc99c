/* Describing controls: defaults, mode names, and the checks a control
 * passes before it runs (so the frame path never meets a bad one). */
#include "control_internal.h"
#include "../base/require.h"

#include <math.h>
#include <string.h>

static const char *const mode_names[RUNE_CONTROL_MODE_COUNT] = {"override", "offset",   "two_bone", "aim",
                                                               "chain",    "position", "rotation", "transform"};

const char *rune_control_mode_name(rune_control_mode mode)
{
    return (unsigned)mode < RUNE_CONTROL_MODE_COUNT ? mode_names[mode] : NULL;
}

int rune_control_mode_from_name(const char *name)
{
    for (int i = 0; name && i < RUNE_CONTROL_MODE_COUNT; i++)
        if (strcmp(mode_names[i], name) == 0)
            return i;
    return name && strcmp(name, "look_at") == 0 ? RUNE_CONTROL_AIM : -1;
}

rune_control rune_control_defaults(rune_control_mode mode)
{
    rune_control c = {0};
    c.mode = mode;
    c.xform = rune_xform_identity();
    c.weight = 1.0f;
    c.target_r = rune_q_identity();
    c.pole = rune_v3(0.0f, 1.0f, 0.0f);
    c.root = -1;
    c.soften = 1.0f;
    c.forward = rune_v3(0.0f, 0.0f, 1.0f);
    c.up = rune_v3(0.0f, 1.0f, 0.0f);
    c.limit = -1.0f;
    c.iterations = 16;
    c.tolerance = 1e-4f;
    return c;
}

static bool vec_ok(rune_vec3 v) { return rune_in_range(v.x) && rune_in_range(v.y) && rune_in_range(v.z); }
static bool quat_ok(rune_quat q)
{
    float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w) && n > 1e-12f;
}

static rune_status bad(rune_error *err, const char *field, const char *why)
{
    return rune_fail(err, RUNE_E_INVALID, "%s: %s", field, why);
}

/* The length of the bone from j's parent to j at rest, in double: a bone
 * of 1e-30 squares to 0 in float. */
static double rest_length(const rune_rig *rig, size_t j)
{
    rune_vec3 t = rune_rig_frame(rig, j).t;
    int32_t p = rune_rig_parent(rig, j);
    rune_vec3 s = p >= 0 ? rune_rig_frame_scale(rig, (size_t)p) : rune_v3(1, 1, 1);
    double x = (double)t.x * s.x, y = (double)t.y * s.y, z = (double)t.z * s.z;
    return sqrt(x * x + y * y + z * z);
}

/* The solvers (src/ik) treat a bone shorter than 1e-12 (1 + the chain's
 * length) as having no direction: such a chain is refused when set, with
 * its length, rather than silently left alone every frame. */
static rune_status check_bone(double bone, double chain, const rune_rig *rig, size_t j, rune_error *err)
{
    char a[128];
    if (bone > 1e-12 * (1.0 + chain))
        return RUNE_OK;
    if (bone == 0.0)
        return rune_fail(err, RUNE_E_INVALID, "joint: the chain to %s has a bone of zero length at rest",
                         rune_rig_joint_name(rig, j, a, sizeof a));
    return rune_fail(err, RUNE_E_INVALID,
                     "joint: the chain to %s has a bone of length %g at rest, shorter than the %g the solvers can turn",
                     rune_rig_joint_name(rig, j, a, sizeof a), bone, 1e-12 * (1.0 + chain));
}

static rune_status check_chain(const rune_rig *rig, const rune_control *c, rune_error *err)
{
    char a[128], b[128];
    size_t j = (size_t)c->joint;
    bool two_bone = c->mode == RUNE_CONTROL_TWO_BONE || (c->mode != RUNE_CONTROL_CHAIN && c->root < 0);
    if (two_bone) {
        int32_t p = rune_rig_parent(rig, j), g = p >= 0 ? rune_rig_parent(rig, (size_t)p) : -1;
        if (g < 0)
            return rune_fail(err, RUNE_E_INVALID, "joint: %s has no grandparent (a two-bone chain needs one)",
                             rune_rig_joint_name(rig, j, a, sizeof a));
        double lower = rest_length(rig, j), upper = rest_length(rig, (size_t)p);
        rune_status st = check_bone(upper, upper + lower, rig, j, err);
        return st ? st : check_bone(lower, upper + lower, rig, j, err);
    }
    if (c->root < 0 || (size_t)c->root >= rune_rig_joint_count(rig))
        return bad(err, "root", c->mode == RUNE_CONTROL_CHAIN ? "missing or outside the rig (a chain needs one)"
                                                               : "outside the rig");
    size_t count = 1;
    double length = 0.0;
    int32_t k = (int32_t)j;
    while (k >= 0 && k != c->root) {
        length += rest_length(rig, (size_t)k);
        k = rune_rig_parent(rig, (size_t)k);
        count++;
    }
    if (k < 0 || c->root == c->joint)
        return rune_fail(err, RUNE_E_INVALID, "root: %s is not an ancestor of %s",
                         rune_rig_joint_name(rig, (size_t)c->root, a, sizeof a), rune_rig_joint_name(rig, j, b, sizeof b));
    if (count > RUNE_IK_MAX_CHAIN)
        return rune_fail(err, RUNE_E_INVALID, "root: the chain from %s has %zu joints (at most %d)",
                         rune_rig_joint_name(rig, (size_t)c->root, a, sizeof a), count, RUNE_IK_MAX_CHAIN);
    if (length == 0.0)
        return rune_fail(err, RUNE_E_INVALID, "root: the chain from %s has zero length at rest",
                         rune_rig_joint_name(rig, (size_t)c->root, a, sizeof a));
    if (!(length > 1e-12)) /* the chain solver's least length */
        return rune_fail(err, RUNE_E_INVALID,
                         "root: the chain from %s has length %g at rest, shorter than the 1e-12 the solver can turn",
                         rune_rig_joint_name(rig, (size_t)c->root, a, sizeof a), length);
    return RUNE_OK;
}

rune_status rune_control_check(const rune_rig *rig, const rune_control *c, rune_error *err)
{
    RUNE_REQUIRE(err, rig, "rig");
    RUNE_REQUIRE(err, c, "control");
    if ((unsigned)c->mode >= RUNE_CONTROL_MODE_COUNT)
        return bad(err, "type", "unknown");
    if (c->joint < 0 || (size_t)c->joint >= rune_rig_joint_count(rig))
        return rune_fail(err, RUNE_E_INVALID, "joint: %d is outside the rig", c->joint);
    if (!isfinite(c->weight))
        return bad(err, "weight", "not finite");
    if (c->mode <= RUNE_CONTROL_OFFSET) {
        if (!vec_ok(c->xform.t) || !quat_ok(c->xform.r))
            return rune_fail(err, RUNE_E_INVALID, "xform: not finite, or a translation beyond %g",
                             (double)RUNE_MAX_MAGNITUDE);
        return RUNE_OK;
    }
    if (!vec_ok(c->target))
        return rune_fail(err, RUNE_E_INVALID, "target: not finite, or beyond %g", (double)RUNE_MAX_MAGNITUDE);
    if ((c->has_target_r || c->mode == RUNE_CONTROL_ROTATION || c->mode == RUNE_CONTROL_TRANSFORM) &&
        !quat_ok(c->target_r))
        return bad(err, "target_r", "not a finite, non-zero quaternion");
    if (!vec_ok(c->pole))
        return rune_fail(err, RUNE_E_INVALID, "pole: not finite, or beyond %g", (double)RUNE_MAX_MAGNITUDE);
    if (!(c->smooth_time >= 0.0f && c->smooth_time <= 1e6f))
        return bad(err, "smooth_time", "outside 0..1e6 seconds");
    switch (c->mode) {
    case RUNE_CONTROL_AIM: {
        if (!vec_ok(c->forward) || !vec_ok(c->up) || !vec_ok(c->offset))
            return bad(err, "forward", "forward, up and offset must be finite");
        /* directions: any length but zero, compared as unit vectors in
         * double (a forward of 1e18 squares past float range) */
        double f[3] = {c->forward.x, c->forward.y, c->forward.z}, u[3] = {c->up.x, c->up.y, c->up.z};
        double fl = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]), ul = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        if (!(fl > 0.0))
            return bad(err, "forward", "zero");
        if (!(ul > 0.0))
            return bad(err, "up", "zero");
        double x = (f[1] * u[2] - f[2] * u[1]) / (fl * ul), y = (f[2] * u[0] - f[0] * u[2]) / (fl * ul),
               z = (f[0] * u[1] - f[1] * u[0]) / (fl * ul);
        if (!(x * x + y * y + z * z > 1e-6))
            return bad(err, "up", "parallel to forward");
        if (!isfinite(c->limit))
            return bad(err, "limit", "not finite");
        return RUNE_OK;
    }
    case RUNE_CONTROL_ROTATION:
        return RUNE_OK;
    default:
        if (!(c->soften >= 0.0f && c->soften <= 1.0f))
            return bad(err, "soften", "outside 0..1");
        if (!isfinite(c->twist) || fabsf(c->twist) > 1e6f)
            return bad(err, "twist", "not finite, or beyond 1e6 radians");
        if (c->iterations < 1 || c->iterations > 1000)
            return bad(err, "iterations", "outside 1..1000");
        if (!(c->tolerance > 0.0f && c->tolerance < 1.0f))
            return bad(err, "tolerance", "outside (0, 1) of the chain's length");
        return check_chain(rig, c, err);
    }
}
