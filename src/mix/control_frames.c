/* Model frames along one joint's path, computed from the pose the way the
 * rig's model matrices are (local = frame * pose, with the rest scale),
 * so a solver sees the positions an engine will skin with; and the write
 * of a solved model rotation back into a joint's local rotation. */
#include "control_internal.h"
#include "mix_internal.h"

#include <stdint.h>

ctl_scratch rune__control_scratch(const rune_rig *rig, void *bytes)
{
    size_t n = rune_rig_joint_count(rig);
    ctl_scratch s;
    char *p = bytes;
    s.frames = (ctl_frame *)p;
    p += n * sizeof(ctl_frame);
    s.before = (rune_vec3 *)p;
    p += RUNE_IK_MAX_CHAIN * sizeof(rune_vec3);
    s.after = (rune_vec3 *)p;
    p += RUNE_IK_MAX_CHAIN * sizeof(rune_vec3);
    s.turn = (rune_quat *)p;
    p += RUNE_IK_MAX_CHAIN * sizeof(rune_quat);
    s.path = (int32_t *)p;
    return s;
}

size_t rune_controls_scratch_bytes(const rune_rig *rig)
{
    size_t n = rune_rig_joint_count(rig);
    return n * (sizeof(ctl_frame) + sizeof(int32_t)) + RUNE_IK_MAX_CHAIN * (2 * sizeof(rune_vec3) + sizeof(rune_quat));
}

/* Column-major 3x3 of a unit quaternion. */
static void rotation_matrix(rune_quat q, float m[9])
{
    float x = q.x, y = q.y, z = q.z, w = q.w;
    m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y + z * w), m[2] = 2 * (x * z - y * w);
    m[3] = 2 * (x * y - z * w), m[4] = 1 - 2 * (x * x + z * z), m[5] = 2 * (y * z + x * w);
    m[6] = 2 * (x * z + y * w), m[7] = 2 * (y * z - x * w), m[8] = 1 - 2 * (x * x + y * y);
}

static rune_vec3 apply3(const float a[9], rune_vec3 v)
{
    return rune_v3(a[0] * v.x + a[3] * v.y + a[6] * v.z, a[1] * v.x + a[4] * v.y + a[7] * v.z,
                   a[2] * v.x + a[5] * v.y + a[8] * v.z);
}

size_t rune__control_path(const rune_rig *rig, const rune_pose *pose, int32_t joint, ctl_scratch *s)
{
    size_t n = 0;
    for (int32_t j = joint; j >= 0; j = rune_rig_parent(rig, (size_t)j))
        s->path[n++] = j;
    for (size_t i = 0; i < n / 2; i++) { /* top root first */
        int32_t t = s->path[i];
        s->path[i] = s->path[n - 1 - i];
        s->path[n - 1 - i] = t;
    }
    const rune_xform *frames = rune_rig_frames(rig);
    bool scaled = rune_rig_scaled(rig) || pose->scaled;
    for (size_t i = 0; i < n; i++) {
        size_t j = (size_t)s->path[i];
        rune_xform f = frames[j];
        ctl_frame *out = &s->frames[i];
        const ctl_frame *up = i ? &s->frames[i - 1] : NULL;
        if (!scaled) { /* rigid all the way: rotations carry the positions */
            rune_vec3 t = rune_v3_add(f.t, rune_q_rotate(f.r, rune_pose_t(pose, j)));
            rune_quat r = rune_q_mul(f.r, rune_pose_r(pose, j));
            out->p = up ? rune_v3_add(up->p, rune_q_rotate(up->r, t)) : t;
            out->r = rune_q_normalize(up ? rune_q_mul(up->r, r) : r);
            out->a[0] = 0.0f; /* unused: scale 1 */
            continue;
        }
        rune_vec3 sc = rune_rig_frame_scale(rig, j), ps = rune_pose_s(pose, j), pt = rune_pose_t(pose, j);
        rune_vec3 t = rune_v3_add(f.t, rune_q_rotate(f.r, rune_v3(sc.x * pt.x, sc.y * pt.y, sc.z * pt.z)));
        rune_quat r = rune_q_normalize(rune_q_mul(f.r, rune_pose_r(pose, j)));
        float lin[9];
        rotation_matrix(r, lin);
        float s3[3] = {sc.x * ps.x, sc.y * ps.y, sc.z * ps.z};
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++)
                lin[c * 3 + k] *= s3[c];
        /* every element clamped as the rig's model matrices are: scales
         * of 1e18 down a chain would otherwise reach infinity, then NaN */
        rune_vec3 p = up ? rune_v3_add(up->p, apply3(up->a, t)) : t;
        out->p = rune_v3(rune_clamp_magnitude(p.x), rune_clamp_magnitude(p.y), rune_clamp_magnitude(p.z));
        out->r = up ? rune_q_normalize(rune_q_mul(up->r, r)) : r;
        for (int c = 0; c < 3; c++) {
            rune_vec3 col = rune_v3(lin[c * 3], lin[c * 3 + 1], lin[c * 3 + 2]);
            col = up ? apply3(up->a, col) : col;
            out->a[c * 3] = rune_clamp_magnitude(col.x), out->a[c * 3 + 1] = rune_clamp_magnitude(col.y),
            out->a[c * 3 + 2] = rune_clamp_magnitude(col.z);
        }
    }
    s->scaled = scaled;
    return n;
}

void rune__control_turn(const rune_rig *rig, rune_pose *pose, size_t j, rune_quat parent, rune_quat model, float w)
{
    /* model = parent * frame.r * local  =>  local = (parent * frame.r)^-1 * model */
    rune_quat above = rune_q_mul(parent, rune_rig_frames(rig)[j].r);
    rune_quat solved = rune_q_normalize(rune_q_mul(rune_q_conjugate(above), model));
    rune_quat input = rune_pose_r(pose, j);
    rune_quat r = w >= 1.0f ? solved : rune_q_slerp(input, solved, w);
    if (rune_q_dot(r, input) < 0.0f) /* the input's hemisphere, as a mix would leave it */
        r = rune_q_negate(r);
    rune_pose_set_r(pose, j, r);
    pose->coverage[j] += w * (1.0f - pose->coverage[j]);
}
