/* The solver controls on a pose (docs/semantics.md, "Procedural
 * controls"): gather the model frames along the effector's path, run the
 * solver (rune/ik.h), and write each moved joint's new model rotation back
 * as a local rotation blended by the control's weight. Translations are
 * never written, so bone lengths never change. */
#include "control_internal.h"
#include "mix_internal.h"

#include <math.h>

static rune_quat parent_rotation(const ctl_scratch *s, size_t i)
{
    return i ? s->frames[i - 1].r : rune_q_identity();
}

/* Whether a position or transform control runs the two-bone solver. */
static bool two_bone_chain(const rune_rig *rig, const rune_control *c)
{
    if (c->mode == RUNE_CONTROL_TWO_BONE)
        return true;
    if (c->mode == RUNE_CONTROL_CHAIN)
        return false;
    int32_t parent = rune_rig_parent(rig, (size_t)c->joint);
    return c->root < 0 || (parent >= 0 && c->root == rune_rig_parent(rig, (size_t)parent));
}

static bool wants_rotation(const rune_control *c)
{
    return c->mode == RUNE_CONTROL_TRANSFORM || (c->has_target_r && c->mode != RUNE_CONTROL_POSITION);
}

static void solve_two_bone(const rune_rig *rig, const rune_control *c, ctl_scratch *s, size_t n, rune_pose *pose,
                           float w)
{
    const ctl_frame *fr = &s->frames[n - 3], *fm = &s->frames[n - 2], *fe = &s->frames[n - 1];
    rune_ik_two_bone_job job = {fr->p, fm->p, fe->p, fm->r, c->target, c->pole, c->has_pole, c->soften, c->twist};
    rune_ik_two_bone_result res;
    rune_ik_two_bone(&job, &res);
    rune_quat root = rune_q_normalize(rune_q_mul(res.root_delta, fr->r));
    rune_quat mid = rune_q_normalize(rune_q_mul(res.root_delta, rune_q_mul(res.mid_delta, fm->r)));
    rune__control_turn(rig, pose, (size_t)s->path[n - 3], parent_rotation(s, n - 3), root, w);
    rune__control_turn(rig, pose, (size_t)s->path[n - 2], root, mid, w);
    if (wants_rotation(c))
        rune__control_turn(rig, pose, (size_t)s->path[n - 1], mid, c->target_r, w);
}

static void solve_chain(const rune_rig *rig, const rune_control *c, ctl_scratch *s, size_t n, rune_pose *pose,
                        float w)
{
    size_t first = 0;
    while (first < n && s->path[first] != c->root)
        first++;
    size_t m = n - first;
    if (m < 2 || m > RUNE_IK_MAX_CHAIN)
        return; /* checked when set; a rig changed since keeps the pose */
    float length = 0.0f;
    for (size_t i = 0; i < m; i++) {
        s->before[i] = s->after[i] = s->frames[first + i].p;
        if (i)
            length += sqrtf(rune_v3_dot(rune_v3_sub(s->before[i], s->before[i - 1]),
                                        rune_v3_sub(s->before[i], s->before[i - 1])));
    }
    rune_ik_chain_job job = {s->after, m, c->target, c->iterations, c->tolerance * length};
    rune_ik_chain_result res;
    rune_ik_chain(&job, &res);
    rune_ik_chain_rotations(s->before, s->after, m, s->turn);
    rune_quat parent = parent_rotation(s, first);
    for (size_t i = 0; i + 1 < m; i++) {
        rune_quat model = rune_q_normalize(rune_q_mul(s->turn[i], s->frames[first + i].r));
        rune__control_turn(rig, pose, (size_t)s->path[first + i], parent, model, w);
        parent = model;
    }
    if (wants_rotation(c))
        rune__control_turn(rig, pose, (size_t)s->path[n - 1], parent, c->target_r, w);
}

/* The uniform scale of a frame: its linear part's first column's length
 * (1 on an unscaled path). */
static float frame_scale(const ctl_scratch *s, const ctl_frame *f)
{
    return s->scaled ? sqrtf(f->a[0] * f->a[0] + f->a[1] * f->a[1] + f->a[2] * f->a[2]) : 1.0f;
}

static void solve_aim(const rune_rig *rig, const rune_control *c, ctl_scratch *s, size_t n, rune_pose *pose, float w)
{
    const ctl_frame *f = &s->frames[n - 1];
    rune_ik_aim_job job = {f->p,      f->r,     frame_scale(s, f),
                           c->forward, c->up,   c->offset,
                           c->target,  c->has_pole ? c->pole : rune_v3(0.0f, 1.0f, 0.0f), c->limit};
    rune_ik_aim_result res;
    rune_ik_aim(&job, &res);
    rune__control_turn(rig, pose, (size_t)s->path[n - 1], parent_rotation(s, n - 1),
                       rune_q_normalize(rune_q_mul(res.delta, f->r)), w);
}

void rune__control_solve(const rune_rig *rig, const rune_control *c, ctl_scratch *s, rune_pose *pose)
{
    float w = rune_clamp01(c->weight);
    if (w <= 0.0f || c->joint < 0 || (size_t)c->joint >= pose->count)
        return;
    size_t n = rune__control_path(rig, pose, c->joint, s);
    switch (c->mode) {
    case RUNE_CONTROL_AIM:
        solve_aim(rig, c, s, n, pose, w);
        break;
    case RUNE_CONTROL_ROTATION:
        rune__control_turn(rig, pose, (size_t)c->joint, parent_rotation(s, n - 1), c->target_r, w);
        break;
    case RUNE_CONTROL_TWO_BONE:
    case RUNE_CONTROL_CHAIN:
    case RUNE_CONTROL_POSITION:
    case RUNE_CONTROL_TRANSFORM:
        if (two_bone_chain(rig, c)) {
            if (n >= 3)
                solve_two_bone(rig, c, s, n, pose, w);
        } else {
            solve_chain(rig, c, s, n, pose, w);
        }
        break;
    default:
        break;
    }
}

/* Lengths and angles of the measure in double: a chain of 1e18 offsets
 * puts its effector 2e19 from a goal, whose square overflows a float. */
static double length_of(rune_vec3 a)
{
    return sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z);
}

static float angle_between(rune_vec3 a, rune_vec3 b)
{
    double la = length_of(a), lb = length_of(b);
    if (!(la > 0.0) || !(lb > 0.0))
        return 0.0f;
    double ax = a.x / la, ay = a.y / la, az = a.z / la, bx = b.x / lb, by = b.y / lb, bz = b.z / lb;
    double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    return (float)atan2(sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz);
}

void rune_control_measure(const rune_rig *rig, const rune_pose *pose, const rune_control *c, void *scratch,
                          rune_control_state *out)
{
    *out = (rune_control_state){c->target, c->target_r, rune_v3(0, 0, 0), c->pole, c->has_pole, 0.0f};
    if (c->mode == RUNE_CONTROL_AIM) {
        out->pole = c->has_pole ? c->pole : rune_v3(0.0f, 1.0f, 0.0f);
        out->has_pole = true;
    }
    if (!rig || !scratch || c->joint < 0 || (size_t)c->joint >= pose->count || c->mode < RUNE_CONTROL_TWO_BONE)
        return;
    ctl_scratch s = rune__control_scratch(rig, scratch);
    size_t n = rune__control_path(rig, pose, c->joint, &s);
    const ctl_frame *f = &s.frames[n - 1];
    out->effector = f->p;
    if (c->mode == RUNE_CONTROL_AIM) {
        /* the aimed ray: from the offset point along forward */
        rune_vec3 o = c->offset;
        rune_vec3 from = rune_v3_add(f->p, s.scaled ? rune_v3(f->a[0] * o.x + f->a[3] * o.y + f->a[6] * o.z,
                                                              f->a[1] * o.x + f->a[4] * o.y + f->a[7] * o.z,
                                                              f->a[2] * o.x + f->a[5] * o.y + f->a[8] * o.z)
                                                    : rune_q_rotate(f->r, o));
        out->error = angle_between(rune_q_rotate(f->r, c->forward), rune_v3_sub(c->target, from));
    } else if (c->mode == RUNE_CONTROL_ROTATION) {
        float d = fabsf(rune_q_dot(rune_q_normalize(f->r), rune_q_normalize(c->target_r)));
        out->error = 2.0f * acosf(d < 1.0f ? d : 1.0f);
    } else {
        double dx = (double)f->p.x - c->target.x, dy = (double)f->p.y - c->target.y,
               dz = (double)f->p.z - c->target.z;
        out->error = (float)sqrt(dx * dx + dy * dy + dz * dz);
    }
}
