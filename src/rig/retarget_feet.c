/* Feet held where the source's are planted, for clips retargeted between
 * humanoids (docs/semantics.md, "Retargeting"). Rotations alone carry a
 * foot where the source's goes only when both legs have the source's
 * proportions; a planted source foot then slides on the target's floor.
 * Unreal's IK Retargeter (foot IK goals) and Unity's humanoid (foot IK)
 * hold it: the contacts are read from the source -- an ankle near its
 * standing height and nearly still -- and two-bone IK on the target's leg
 * puts its ankle where the source's is held (scaled into the target's
 * frame), the foot keeping the rotation the mapping gave it. Load-time
 * code: the bake runs it once per key time. */
#include "retarget_internal.h"
#include "rune/ik.h"
#include "../base/alloc.h"

#include <math.h>
#include <stdlib.h>

static rune_vec3 position(const rune_mat4 *m) { return rune_v3(m->m[12], m->m[13], m->m[14]); }

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

/* The speed of a side's ankle at key i (central differences). */
static float speed(const float *times, const rune_vec3 *ankles, size_t count, size_t i, int side)
{
    size_t a = i ? i - 1 : i, b = i + 1 < count ? i + 1 : i;
    float dt = times[b] - times[a];
    rune_vec3 d = rune_v3_sub(ankles[2 * b + side], ankles[2 * a + side]);
    return dt > 0.0f ? sqrtf(rune_v3_dot(d, d)) / dt : 0.0f;
}

rune_status rune__retarget_contacts(const rune_retarget *rt, const float *times, const rune_vec3 *ankles,
                                    size_t count, const rune_allocator *alloc, float *level, float *hold)
{
    const retarget_humanoid *h = &rt->hum;
    float legs = h->source_legs, still = RETARGET_PLANT_SPEED * legs, near = RETARGET_PLANT_HEIGHT * legs;
    /* the level: the still ankles' median height (a foot held in the air
     * or a jump's top is still for a moment; a planted foot for longer) */
    float *heights = rune__calloc(alloc, 2 * count, sizeof *heights);
    if (!heights)
        return RUNE_E_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        for (int side = 0; side < 2; side++)
            if (speed(times, ankles, count, i, side) < still)
                heights[n++] = rune_v3_dot(ankles[2 * i + side], h->source.up);
    qsort(heights, n, sizeof *heights, cmp_float);
    if (n && h->calibrate)
        *level = heights[n / 2];
    rune__free(alloc, heights, 2 * count, sizeof *heights);
    for (int side = 0; side < 2; side++) {
        /* planted: 1, else 0 */
        for (size_t i = 0; i < count; i++) {
            bool low = rune_v3_dot(ankles[2 * i + side], h->source.up) <= *level + near;
            hold[2 * i + side] = low && speed(times, ankles, count, i, side) < still ? 1.0f : 0.0f;
        }
        /* ramps: the weight falls linearly with the time to the nearest
         * planted key, one pass each way */
        float last = -INFINITY;
        for (size_t i = 0; i < count; i++) {
            if (hold[2 * i + side] == 1.0f)
                last = times[i];
            hold[2 * i + side] = fmaxf(0.0f, 1.0f - (times[i] - last) / RETARGET_PLANT_RAMP);
        }
        last = INFINITY;
        for (size_t i = count; i-- > 0;) {
            if (hold[2 * i + side] == 1.0f)
                last = times[i];
            hold[2 * i + side] = fmaxf(hold[2 * i + side], 1.0f - (last - times[i]) / RETARGET_PLANT_RAMP);
        }
    }
    return RUNE_OK;
}

/* The target's pose from its model rotations and the top's translation,
 * and its model matrices. */
static void target_matrices(const rune_retarget *rt, const rune_rig *target, const rune_mat4 *source_mats,
                            float level, float lift, const rune_quat *tm, rune_pose *pose, rune_mat4 *mats)
{
    for (size_t t = 0; t < rt->nt; t++) {
        int32_t p = rune_rig_parent(target, t);
        rune_quat above = rune_q_mul(p >= 0 ? tm[p] : rune_q_identity(), rune_rig_frame(target, t).r);
        rune_pose_set_r(pose, t, rune_q_normalize(rune_q_mul(rune_q_conjugate(above), tm[t])));
    }
    rune_pose_set_t(pose, (size_t)rt->top, rune__retarget_top(rt, target, source_mats, level, lift));
    rune_rig_model_matrices(target, pose, mats);
}

/* How far the hips must rise for the body to clear the floor. */
static float body_lift(const rune_retarget *rt, const rune_mat4 *mats)
{
    const retarget_humanoid *h = &rt->hum;
    float low = INFINITY;
    for (size_t t = 0; t < rt->nt; t++)
        if (h->body[t])
            low = fminf(low, rune_v3_dot(position(&mats[t]), h->target.up));
    return low < h->target_floor ? h->target_floor - low : 0.0f;
}

void rune__retarget_ground(const rune_retarget *rt, const rune_rig *target, const rune_mat4 *source_mats,
                           float level, const float hold[2], rune_quat *tm, rune_pose *pose, rune_mat4 *mats,
                           float *lift)
{
    const retarget_humanoid *h = &rt->hum;
    rune_vec3 up = h->target.up;
    *lift = 0.0f;
    if (!h->target_standing && !(hold[0] > 0.0f) && !(hold[1] > 0.0f))
        return;
    target_matrices(rt, target, source_mats, level, 0.0f, tm, pose, mats);
    if (h->target_standing && (*lift = body_lift(rt, mats)) > 0.0f)
        target_matrices(rt, target, source_mats, level, *lift, tm, pose, mats);
    /* the body's forward now: the hips' turn from their retarget pose */
    int32_t hips = h->target.bone[HB_HIPS];
    rune_vec3 forward = rune_q_rotate(rune_q_mul(tm[hips], rune_q_conjugate(h->target_hips_pose)), h->target.forward);
    bool moved = false;
    for (int side = 0; side < 2; side++) {
        int32_t thigh = h->target.bone[HB_THIGH_L + side], shin = h->target.bone[HB_SHIN_L + side],
                foot = h->target.bone[HB_FOOT_L + side], from = h->source.bone[HB_FOOT_L + side];
        if (rt->source_of[foot] != from || rt->source_of[thigh] < 0 || rt->source_of[shin] < 0)
            continue;
        rune_vec3 root = position(&mats[thigh]), mid = position(&mats[shin]), end = position(&mats[foot]);
        rune_vec3 goal = end;
        if (hold[side] > 0.0f) {
            rune_vec3 held = rune__retarget_point(rt, position(&source_mats[from]), level);
            goal = rune_v3_add(end, rune_v3_scale(rune_v3_sub(held, end), hold[side]));
        }
        /* toes not through the floor: the foot keeps its rotation, so its
         * lowest point stays where it is from the ankle */
        float sole = rune__retarget_sole(target, mats, foot, up, h->target_foot_reach) - rune_v3_dot(end, up);
        float below = h->target_floor - (rune_v3_dot(goal, up) + sole);
        if (h->target_standing && below > 0.0f)
            goal = rune_v3_add(goal, rune_v3_scale(up, below));
        /* a foot where it should be (to rounding) is left alone: the
         * solver's own rounding would twist the leg */
        rune_vec3 miss = rune_v3_sub(goal, end), reach = rune_v3_sub(end, root), bend = rune_v3_sub(mid, root);
        float rr = rune_v3_dot(reach, reach);
        if (rune_v3_dot(miss, miss) <= 1e-8f * rr)
            continue;
        /* the knee keeps bending the way it bends; a straight leg bends forward */
        rune_vec3 off = rr > 0.0f ? rune_v3_sub(bend, rune_v3_scale(reach, rune_v3_dot(bend, reach) / rr)) : bend;
        float thigh_len = sqrtf(rune_v3_dot(bend, bend));
        if (rune_v3_dot(off, off) < 1e-6f * thigh_len * thigh_len)
            off = rune_v3_scale(forward, thigh_len);
        rune_ik_two_bone_job job = {root, mid, end, tm[shin], goal, rune_v3_add(mid, off), true, 1.0f, 0.0f};
        rune_ik_two_bone_result r;
        rune_ik_two_bone(&job, &r);
        tm[thigh] = rune_q_normalize(rune_q_mul(r.root_delta, tm[thigh]));
        tm[shin] = rune_q_normalize(rune_q_mul(r.root_delta, rune_q_mul(r.mid_delta, tm[shin])));
        moved = true;
    }
    /* joints of no source joint follow their parents */
    for (size_t t = 0; moved && t < rt->nt; t++) {
        int32_t p = rune_rig_parent(target, t);
        if (rt->source_of[t] < 0)
            tm[t] = rune_q_normalize(rune_q_mul(p >= 0 ? tm[p] : rune_q_identity(), rune_rig_frame(target, t).r));
    }
}
