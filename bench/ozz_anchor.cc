// The ozz-animation anchor of `rune bench` (bench/ozz_anchor.h): ozz's
// runtime jobs run on the inputs of rune's rows, timed by the same timer
// in the same process, each checked against rune's own result. Built only
// with -DRUNE_OZZ_DIR (an ozz source checkout, compiled here as it ships;
// nothing of ozz is in rune's tree).
#include "ozz_anchor.h"

#include "ozz/animation/runtime/ik_aim_job.h"
#include "ozz/animation/runtime/ik_two_bone_job.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/simd_quaternion.h"

#include <cmath>
#include <vector>

// ozz keeps __m128 in std::vector here; the attribute it loses does not
// matter to storage
#pragma GCC diagnostic ignored "-Wignored-attributes"

namespace om = ozz::math;

namespace {

om::SimdFloat4 point(rune_vec3 v) { return om::simd_float4::Load(v.x, v.y, v.z, 1.0f); }
om::SimdFloat4 vector(rune_vec3 v) { return om::simd_float4::Load(v.x, v.y, v.z, 0.0f); }
om::SimdFloat4 quat(rune_quat q) { return om::simd_float4::Load(q.x, q.y, q.z, q.w); }
rune_vec3 back(om::SimdFloat4 v)
{
    float f[4];
    om::StorePtrU(v, f);
    return rune_v3(f[0], f[1], f[2]);
}
rune_quat back_q(om::SimdFloat4 v)
{
    float f[4];
    om::StorePtrU(v, f);
    return rune_q(f[0], f[1], f[2], f[3]);
}
om::Float4x4 joint(rune_vec3 at, rune_quat r)
{
    return om::Float4x4::Translation(point(at)) * om::Float4x4::FromQuaternion(quat(r));
}
float distance(rune_vec3 a, rune_vec3 b)
{
    rune_vec3 d = rune_v3_sub(a, b);
    return std::sqrt(rune_v3_dot(d, d));
}

struct two_bone_ctx {
    std::vector<om::Float4x4> start, mid, end;
    std::vector<om::SimdFloat4> target, pole;
    size_t next = 0;
    float sink = 0.0f;
};

void two_bone_run(void *p)
{
    auto *c = static_cast<two_bone_ctx *>(p);
    size_t i = c->next++ % c->start.size();
    om::SimdQuaternion qs, qm;
    ozz::animation::IKTwoBoneJob job;
    job.target = c->target[i];
    job.pole_vector = c->pole[i];
    job.start_joint = &c->start[i];
    job.mid_joint = &c->mid[i];
    job.end_joint = &c->end[i];
    job.start_joint_correction = &qs;
    job.mid_joint_correction = &qm;
    job.Run();
    c->sink += om::GetX(qs.xyzw) + om::GetX(qm.xyzw);
}

struct aim_ctx {
    std::vector<om::Float4x4> joint;
    std::vector<om::SimdFloat4> target, forward, up, offset, pole;
    size_t next = 0;
    float sink = 0.0f;
};

void aim_run(void *p)
{
    auto *c = static_cast<aim_ctx *>(p);
    size_t i = c->next++ % c->joint.size();
    om::SimdQuaternion q;
    ozz::animation::IKAimJob job;
    job.target = c->target[i];
    job.forward = c->forward[i];
    job.up = c->up[i];
    job.offset = c->offset[i];
    job.pole_vector = c->pole[i];
    job.joint = &c->joint[i];
    job.joint_correction = &q;
    job.Run();
    c->sink += om::GetX(q.xyzw);
}

om::Float4x4 rotation(om::SimdQuaternion q) { return om::Float4x4::FromQuaternion(q.xyzw); }

} // namespace

extern "C" const char *bench_ozz_name(void)
{
#if defined(OZZ_SIMD_AVX2) && defined(OZZ_SIMD_FMA)
    return "ozz-animation (AVX2 + FMA)";
#elif defined(OZZ_SIMD_AVX)
    return "ozz-animation (AVX)";
#elif defined(OZZ_SIMD_SSE2)
    return "ozz-animation (SSE2)";
#else
    return "ozz-animation (scalar reference)";
#endif
}

extern "C" bench_anchor bench_ozz_two_bone(const bench_plan *p, const rune_ik_two_bone_job *jobs, size_t n)
{
    two_bone_ctx c;
    for (size_t i = 0; i < n; i++) {
        const rune_ik_two_bone_job &j = jobs[i];
        c.start.push_back(joint(j.root, rune_q_identity()));
        c.mid.push_back(joint(j.mid, j.mid_rotation));
        c.end.push_back(joint(j.end, j.mid_rotation));
        c.target.push_back(point(j.target));
        /* ozz's pole is a direction from the start joint; rune's a point */
        c.pole.push_back(vector(j.has_pole ? rune_v3_sub(j.pole, j.root) : rune_v3(0, 1, 0)));
    }
    bench_timing t = bench_measure(two_bone_run, &c, p->samples, p->sample_s, false);
    bench_anchor a = {1e9 * t.median, 0, 0};
    for (size_t i = 0; i < n; i++) {
        const rune_ik_two_bone_job &j = jobs[i];
        float len = distance(j.mid, j.root) + distance(j.end, j.mid), d = distance(j.target, j.root);
        if (!j.has_pole || d > 0.99f * len || d < std::fabs(distance(j.mid, j.root) - distance(j.end, j.mid)) * 1.01f)
            continue; /* reachable targets only: out of reach, the two fall short differently */
        om::SimdQuaternion qs, qm;
        ozz::animation::IKTwoBoneJob job;
        job.target = c.target[i];
        job.pole_vector = c.pole[i];
        job.start_joint = &c.start[i];
        job.mid_joint = &c.mid[i];
        job.end_joint = &c.end[i];
        job.start_joint_correction = &qs;
        job.mid_joint_correction = &qm;
        job.Run();
        /* the corrections multiply the joints' local rotations */
        om::Float4x4 start2 = c.start[i] * rotation(qs);
        om::Float4x4 mid2 = start2 * om::Invert(c.start[i]) * c.mid[i] * rotation(qm);
        om::Float4x4 end2 = mid2 * om::Invert(c.mid[i]) * c.end[i];
        rune_ik_two_bone_result r;
        rune_ik_two_bone(&j, &r);
        a.checked++;
        a.agree += distance(back(end2.cols[3]), r.end) <= 1e-4f * len;
    }
    return a;
}

extern "C" bench_anchor bench_ozz_aim(const bench_plan *p, const rune_ik_aim_job *jobs, size_t n)
{
    aim_ctx c;
    for (size_t i = 0; i < n; i++) {
        const rune_ik_aim_job &j = jobs[i];
        c.joint.push_back(joint(j.position, j.rotation));
        c.target.push_back(point(j.target));
        c.forward.push_back(vector(j.forward));
        c.up.push_back(vector(j.up));
        c.offset.push_back(point(j.offset));
        c.pole.push_back(vector(j.pole));
    }
    bench_timing t = bench_measure(aim_run, &c, p->samples, p->sample_s, false);
    bench_anchor a = {1e9 * t.median, 0, 0};
    for (size_t i = 0; i < n; i++) {
        om::SimdQuaternion q;
        ozz::animation::IKAimJob job;
        job.target = c.target[i];
        job.forward = c.forward[i];
        job.up = c.up[i];
        job.offset = c.offset[i];
        job.pole_vector = c.pole[i];
        job.joint = &c.joint[i];
        job.joint_correction = &q;
        job.Run();
        /* ozz's correction is local (rotation * q); rune's model (delta * rotation) */
        rune_ik_aim_result r;
        rune_ik_aim(&jobs[i], &r);
        rune_quat ozz_r = rune_q_mul(jobs[i].rotation, back_q(q.xyzw));
        rune_quat rune_r = rune_q_mul(r.delta, jobs[i].rotation);
        a.checked++;
        a.agree += std::fabs(rune_q_dot(ozz_r, rune_r)) >= 1.0f - 1e-4f;
    }
    return a;
}
