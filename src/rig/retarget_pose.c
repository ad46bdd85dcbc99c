/* The retarget pose of a humanoid rig: its rest pose with the profile's
 * bones turned, parents first, each by the shortest arc, onto one stance
 * -- the spine and neck straight up, the legs straight down, the feet
 * as they are at rest (flat on the floor, for a rig standing on it), the
 * clavicles and arms straight out sideways -- in the rig's
 * own frame (up, left, forward). Two rigs in this stance differ by their
 * proportions and their bones' rest conventions only, so a source joint's
 * rotation away from its retarget pose is what its target joint does,
 * whatever stance each rig was modelled in (an A-pose character, a T-pose
 * mocap skeleton with splayed legs). Unreal's IK Retargeter (retarget pose
 * auto-align) and Godot's silhouette fixer make the same move. */
#include "retarget_internal.h"
#include "rig_internal.h"
#include "../base/alloc.h"

#include <math.h>

static rune_vec3 position(const rune_mat4 *m) { return rune_v3(m->m[12], m->m[13], m->m[14]); }

/* Model rotations of a posed rig (parents first; scale left out). */
static void model_rotations(const rune_rig *rig, const rune_pose *pose, rune_quat *rot)
{
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++) {
        int32_t p = rune_rig_parent(rig, j);
        rune_quat local = rune_q_mul(rune_rig_frame(rig, j).r, rune_pose_r(pose, j));
        rot[j] = rune_q_normalize(p >= 0 ? rune_q_mul(rot[p], local) : local);
    }
}

/* The shortest arc from the direction of a to that of b (identity when
 * either is zero; half a turn about `axis` when they are opposite). */
static rune_quat arc(rune_vec3 a, rune_vec3 b, rune_vec3 axis)
{
    float la = sqrtf(rune_v3_dot(a, a)), lb = sqrtf(rune_v3_dot(b, b));
    if (!(la > 0.0f) || !(lb > 0.0f))
        return rune_q_identity();
    float w = la * lb + rune_v3_dot(a, b);
    if (w <= 1e-6f * la * lb)
        return rune_q(axis.x, axis.y, axis.z, 0.0f);
    rune_vec3 c = rune_v3_cross(a, b);
    return rune_q_normalize(rune_q(c.x, c.y, c.z, w));
}

/* Turns joint j (by its pose) so that the bone to `child` points along
 * `dir`, the rest of the rig following. */
static void align(const rune_rig *rig, rune_pose *pose, rune_mat4 *mats, rune_quat *rot, int32_t j, int32_t child,
                  rune_vec3 dir, rune_vec3 axis)
{
    if (j < 0 || child < 0)
        return;
    rune_rig_model_matrices(rig, pose, mats);
    model_rotations(rig, pose, rot);
    rune_quat turned = rune_q_normalize(rune_q_mul(arc(rune_v3_sub(position(&mats[child]), position(&mats[j])), dir, axis),
                                                   rot[j]));
    /* model = parent * frame.r * local  =>  local = (parent * frame.r)^-1 * model */
    int32_t p = rune_rig_parent(rig, (size_t)j);
    rune_quat above = rune_q_mul(p >= 0 ? rot[p] : rune_q_identity(), rune_rig_frame(rig, (size_t)j).r);
    rune_pose_set_r(pose, (size_t)j, rune_q_normalize(rune_q_mul(rune_q_conjugate(above), turned)));
}

/* Turns joint j (by its pose) back to its model rotation `rot` (at rest). */
static void keep(const rune_rig *rig, rune_pose *pose, rune_quat *rot, int32_t j, rune_quat rest)
{
    if (j < 0)
        return;
    model_rotations(rig, pose, rot);
    int32_t p = rune_rig_parent(rig, (size_t)j);
    rune_quat above = rune_q_mul(p >= 0 ? rot[p] : rune_q_identity(), rune_rig_frame(rig, (size_t)j).r);
    rune_pose_set_r(pose, (size_t)j, rune_q_normalize(rune_q_mul(rune_q_conjugate(above), rest)));
}

float rune__retarget_sole(const rune_rig *rig, const rune_mat4 *mats, int32_t foot, rune_vec3 up, float reach)
{
    rune_vec3 ankle = position(&mats[foot]);
    float low = rune_v3_dot(ankle, up);
    for (size_t j = (size_t)foot + 1; j < rune_rig_joint_count(rig); j++) {
        int32_t k = rune_rig_parent(rig, j);
        while (k > foot)
            k = rune_rig_parent(rig, (size_t)k);
        rune_vec3 d = rune_v3_sub(position(&mats[j]), ankle);
        if (k == foot && rune_v3_dot(d, d) <= reach * reach)
            low = fminf(low, rune_v3_dot(position(&mats[j]), up));
    }
    return low;
}

rune_status rune__retarget_pose(const rune_rig *rig, const rune_humanoid *h, const rune_allocator *alloc,
                                retarget_stance *out, rune_error *err)
{
    size_t n = rune_rig_joint_count(rig);
    rune_pose pose;
    rune_mat4 *mats = rune__calloc(alloc, n ? n : 1, sizeof *mats);
    if (!mats || rune_pose_init(&pose, n, alloc, err)) {
        rune__free(alloc, mats, n ? n : 1, sizeof *mats);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory finding a retarget pose");
    }
    const int32_t *b = h->bone;
    rune_vec3 up = h->up, down = rune_v3_scale(h->up, -1.0f), left = h->left, right = rune_v3_scale(h->left, -1.0f);
    /* rest: the floor the rig stands on */
    rune_rig_model_matrices(rig, &pose, mats);
    model_rotations(rig, &pose, out->rot);
    rune_quat rest_feet[2] = {out->rot[b[HB_FOOT_L]], out->rot[b[HB_FOOT_R]]};
    float rest_hips = rune_v3_dot(position(&mats[b[HB_HIPS]]), up);
    rune_vec3 leg = rune_v3_sub(position(&mats[b[HB_HIPS]]), position(&mats[b[HB_FOOT_L]]));
    out->foot_reach = RETARGET_FOOT_REACH * sqrtf(rune_v3_dot(leg, leg));
    float rest_sole = fminf(rune__retarget_sole(rig, mats, b[HB_FOOT_L], up, out->foot_reach),
                            rune__retarget_sole(rig, mats, b[HB_FOOT_R], up, out->foot_reach));
    float rest_ankles =
        0.5f * (rune_v3_dot(position(&mats[b[HB_FOOT_L]]), up) + rune_v3_dot(position(&mats[b[HB_FOOT_R]]), up));
    out->rest_hips = position(&mats[b[HB_HIPS]]);
    /* the stance, parents first: spine, neck, then each limb */
    for (size_t i = 0; i < h->spine_count; i++)
        align(rig, &pose, mats, out->rot, h->spine[i], i + 1 < h->spine_count ? h->spine[i + 1] : b[HB_CHEST], up,
              left);
    align(rig, &pose, mats, out->rot, b[HB_CHEST], b[HB_NECK], up, left);
    align(rig, &pose, mats, out->rot, b[HB_NECK], b[HB_HEAD], up, left);
    for (int side = 0; side < 2; side++) {
        rune_vec3 out_dir = side ? right : left;
        align(rig, &pose, mats, out->rot, b[HB_THIGH_L + side], b[HB_SHIN_L + side], down, h->forward);
        align(rig, &pose, mats, out->rot, b[HB_SHIN_L + side], b[HB_FOOT_L + side], down, h->forward);
        keep(rig, &pose, out->rot, b[HB_FOOT_L + side], rest_feet[side]);
        align(rig, &pose, mats, out->rot, b[HB_CLAVICLE_L + side], b[HB_UPPER_ARM_L + side], out_dir, h->forward);
        align(rig, &pose, mats, out->rot, b[HB_UPPER_ARM_L + side], b[HB_FOREARM_L + side], out_dir, h->forward);
        align(rig, &pose, mats, out->rot, b[HB_FOREARM_L + side], b[HB_HAND_L + side], out_dir, h->forward);
    }
    rune_rig_model_matrices(rig, &pose, mats);
    model_rotations(rig, &pose, out->rot);
    float ankles = 0.5f * (rune_v3_dot(position(&mats[b[HB_FOOT_L]]), up) + rune_v3_dot(position(&mats[b[HB_FOOT_R]]), up));
    out->legs = rune_v3_dot(position(&mats[b[HB_HIPS]]), up) - ankles;
    /* a rig standing at rest stands on its feet; a motion-capture
     * skeleton (its hips at the origin at rest, the motion carrying their
     * height) on the plane through the origin */
    out->standing = rest_hips > 0.5f * out->legs;
    out->floor = out->standing ? rest_sole : 0.0f;
    out->level = out->floor + rest_ankles - rest_sole;
    rune_pose_release(&pose);
    rune__free(alloc, mats, n ? n : 1, sizeof *mats);
    return RUNE_OK;
}
