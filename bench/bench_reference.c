/* The scalar reference of the benchmark: what a straightforward
 * implementation of the same sampling and mixing does. */
#include "bench.h"
#include "play/play_internal.h"

void bench_ref_sample(const rune_binding *b, float t, rune_pose *out) { rune_binding_sample(b, t, out); }

void bench_ref_sample_mix(const bench_ref_input *in, size_t n, rune_pose *scratch, rune_pose *out)
{
    for (size_t i = 0; i < n; i++) {
        const rune_clip *c = rune_binding_clip(in[i].binding);
        float t = rune_wrap_time(in[i].time, rune_clip_length(c));
        bench_ref_sample(in[i].binding, t, &scratch[i]);
    }
    rune_pose_reset(out);
    for (int rank = 0; rank < RUNE_PRIORITY_COUNT; rank++)
        for (size_t j = 0; j < out->count; j++) {
            float sum = 0.0f;
            rune_vec3 at = {0, 0, 0};
            rune_quat aq = {0, 0, 0, 0};
            for (size_t i = 0; i < n; i++) {
                if (in[i].priority != rank)
                    continue;
                float s = in[i].weight * scratch[i].coverage[j];
                s = s < 0.0f ? 0.0f : (s > 1.0f ? 1.0f : s);
                if (s <= 0.0f)
                    continue;
                rune_quat q = rune_pose_r(&scratch[i], j);
                if (rune_q_dot(aq, q) < 0.0f)
                    q = rune_q_negate(q);
                aq = rune_q(aq.x + s * q.x, aq.y + s * q.y, aq.z + s * q.z, aq.w + s * q.w);
                at = rune_v3_add(at, rune_v3_scale(rune_pose_t(&scratch[i], j), s));
                sum += s;
            }
            if (sum <= 0.0f)
                continue;
            float c = sum > 1.0f ? 1.0f : sum;
            rune_pose_set_t(out, j, rune_v3_lerp(rune_pose_t(out, j), rune_v3_scale(at, 1.0f / sum), c));
            rune_pose_set_r(out, j, rune_q_slerp(rune_pose_r(out, j), rune_q_normalize(aq), c));
            out->coverage[j] += c * (1.0f - out->coverage[j]);
        }
}

void bench_ref_mean(const rune_pose *const *poses, const float *weights, size_t n, rune_pose *out)
{
    for (size_t j = 0; j < out->count; j++) {
        rune_vec3 t = {0, 0, 0};
        rune_quat q = {0, 0, 0, 0};
        for (size_t i = 0; i < n; i++) {
            rune_quat r = rune_pose_r(poses[i], j);
            if (rune_q_dot(q, r) < 0.0f)
                r = rune_q_negate(r);
            q = rune_q(q.x + weights[i] * r.x, q.y + weights[i] * r.y, q.z + weights[i] * r.z, q.w + weights[i] * r.w);
            t = rune_v3_add(t, rune_v3_scale(rune_pose_t(poses[i], j), weights[i]));
        }
        rune_pose_set(out, j, t, rune_q_normalize(q), 1.0f);
    }
}

void bench_ref_model_matrices(const rune_rig *rig, const rune_pose *pose, rune_mat4 *out)
{
    const int32_t *parent = rune_rig_parents(rig);
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++) {
        rune_xform local = rune_xform_mul(rune_rig_frame(rig, j), rune_pose_xform(pose, j));
        rune_mat4 m = rune_mat4_from_xform(local);
        out[j] = parent[j] < 0 ? m : rune_mat4_mul(&out[parent[j]], &m);
    }
}

void bench_ref_model_xforms(const rune_rig *rig, const rune_pose *pose, rune_xform *out)
{
    const int32_t *parent = rune_rig_parents(rig);
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++) {
        rune_xform local = rune_xform_mul(rune_rig_frame(rig, j), rune_pose_xform(pose, j));
        out[j] = parent[j] < 0 ? local : rune_xform_mul(out[parent[j]], local);
    }
}
