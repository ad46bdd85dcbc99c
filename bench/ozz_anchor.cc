// The ozz-animation anchor of `rune bench` (bench/ozz_anchor.h): ozz's
// runtime jobs run on the inputs of rune's rows, timed by the same timer
// in the same process, each checked against rune's own result. Built only
// with -DRUNE_OZZ_DIR (an ozz source checkout, compiled here as it ships;
// nothing of ozz is in rune's tree).
#include "ozz_anchor.h"
extern "C" {
#include "mix/mix_internal.h" /* rune_mix_mean on the same poses as ozz's BlendingJob */
}

// ozz keeps __m128 in std::vector here; the attribute it loses does not
// matter to storage
#pragma GCC diagnostic ignored "-Wignored-attributes"


#include "ozz/animation/offline/animation_builder.h"
#include "ozz/animation/offline/animation_optimizer.h"
#include "ozz/animation/offline/raw_animation.h"
#include "ozz/animation/offline/raw_skeleton.h"
#include "ozz/animation/offline/skeleton_builder.h"
#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/blending_job.h"
#include "ozz/animation/runtime/ik_aim_job.h"
#include "ozz/animation/runtime/ik_two_bone_job.h"
#include "ozz/animation/runtime/local_to_model_job.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/simd_quaternion.h"
#include "ozz/base/maths/soa_transform.h"
#include "ozz/geometry/runtime/skinning_job.h"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>


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

// ---- the synthetic scene in ozz's form --------------------------------

namespace oa = ozz::animation;
namespace oo = ozz::animation::offline;

// What two results may differ by and still be the same pose: ozz stores
// translations as half floats and rotations as 16-bit components, and
// interpolates rotations by nlerp (rune by slerp), so a component may move
// by a few 1e-4 on this rig (0.9 units tall).
const float SAME = 1e-3f;

bool same_xform(rune_xform a, rune_xform b, float same = SAME)
{
    float sign = rune_q_dot(a.r, b.r) < 0.0f ? -1.0f : 1.0f;
    float d[7] = {a.t.x - b.t.x, a.t.y - b.t.y, a.t.z - b.t.z, a.r.x - sign * b.r.x, a.r.y - sign * b.r.y,
                  a.r.z - sign * b.r.z, a.r.w - sign * b.r.w};
    for (float v : d)
        if (!(std::fabs(v) <= same))
            return false;
    return true;
}

// The bench scene's rig and clips as an ozz skeleton and animations: the
// same joints, and a key at every key time of rune's clips holding rune's
// local transform there (frame times the keyed pose), so both runtimes
// interpolate the same keys.
struct scene {
    const bench_scene *s = nullptr;
    ozz::unique_ptr<oa::Skeleton> skeleton;
    std::vector<ozz::unique_ptr<oa::Animation>> clips;
    std::vector<size_t> rune_joint; // per ozz joint (ozz orders joints its own way)
    size_t joints = 0;
    float length = 0.0f;
};

void add_children(const rune_rig *rig, int32_t parent, oo::RawSkeleton::Joint::Children &out)
{
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++) {
        if (rune_rig_parent(rig, j) != parent)
            continue;
        rune_xform f = rune_rig_frame(rig, j);
        oo::RawSkeleton::Joint joint;
        joint.name = std::to_string(j).c_str();
        joint.transform.translation = om::Float3(f.t.x, f.t.y, f.t.z);
        joint.transform.rotation = om::Quaternion(f.r.x, f.r.y, f.r.z, f.r.w);
        joint.transform.scale = om::Float3(1.0f);
        add_children(rig, (int32_t)j, joint.children);
        out.push_back(std::move(joint));
    }
}

// Clip c of the scene keyed as ozz's raw animation: a key at each of the
// clip's key times (key_hz over the scene's length: bench_scene.c's 30 Hz
// over 2 s by default) holding rune's local transform there.
bool raw_clip(const scene &z, size_t c, oo::RawAnimation &anim, float key_hz = 30.0f)
{
    rune_pose pose;
    if (rune_pose_init(&pose, rune_rig_joint_count(z.s->rig), NULL, NULL))
        return false;
    anim.duration = z.length;
    anim.tracks.resize(z.joints);
    int keys = (int)std::lround(z.length * key_hz);
    for (int k = 0; k <= keys; k++) {
        float t = std::fmin((float)k / key_hz, z.length);
        rune_binding_sample(z.s->bindings[c], t, &pose);
        for (size_t i = 0; i < z.joints; i++) {
            rune_xform x = bench_local_of(z.s->rig, &pose, z.rune_joint[i]);
            anim.tracks[i].translations.push_back({t, om::Float3(x.t.x, x.t.y, x.t.z)});
            anim.tracks[i].rotations.push_back({t, om::Quaternion(x.r.x, x.r.y, x.r.z, x.r.w)});
        }
    }
    rune_pose_release(&pose);
    return true;
}

// false when ozz refuses the rig or a clip; iframe_s > 0: the clips carry
// iframes that often (ozz's setting for random access: a seek decodes
// from the nearest iframe instead of from the start)
bool make_scene(const bench_scene *s, size_t clips, scene &z, float iframe_s = 0.0f)
{
    z.s = s;
    oo::RawSkeleton raw;
    add_children(s->rig, -1, raw.roots);
    z.skeleton = oo::SkeletonBuilder()(raw);
    if (!z.skeleton)
        return false;
    z.joints = (size_t)z.skeleton->num_joints();
    for (size_t i = 0; i < z.joints; i++)
        z.rune_joint.push_back((size_t)std::atoi(z.skeleton->joint_names()[i]));
    z.length = rune_clip_length(rune_binding_clip(s->bindings[0]));
    for (size_t c = 0; c < clips; c++) {
        oo::RawAnimation anim;
        if (!raw_clip(z, c, anim))
            return false;
        oo::AnimationBuilder build;
        build.iframe_interval = iframe_s;
        z.clips.push_back(build(anim));
        if (!z.clips.back())
            return false;
    }
    return true;
}

size_t soa_count(const scene &z) { return (size_t)z.skeleton->num_soa_joints(); }

// A rune pose as ozz's local transforms (frame times pose, exact floats).
std::vector<om::SoaTransform> to_soa(const scene &z, const rune_pose *pose)
{
    std::vector<om::SoaTransform> out(soa_count(z), om::SoaTransform::identity());
    for (size_t b = 0; b < out.size(); b++) {
        float v[10][4] = {{0}, {0}, {0}, {0}, {0}, {0}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};
        for (size_t l = 0; l < 4 && 4 * b + l < z.joints; l++) {
            rune_xform x = bench_local_of(z.s->rig, pose, z.rune_joint[4 * b + l]);
            float f[7] = {x.t.x, x.t.y, x.t.z, x.r.x, x.r.y, x.r.z, x.r.w};
            for (int k = 0; k < 7; k++)
                v[k][l] = f[k];
        }
        om::SimdFloat4 c[10];
        for (int k = 0; k < 10; k++)
            c[k] = om::simd_float4::LoadPtrU(v[k]);
        out[b].translation = {c[0], c[1], c[2]};
        out[b].rotation = {c[3], c[4], c[5], c[6]};
        out[b].scale = {c[7], c[8], c[9]};
    }
    return out;
}

// ozz joint i of a SoA pose as a transform
rune_xform from_soa(const std::vector<om::SoaTransform> &soa, size_t i)
{
    const om::SoaTransform &b = soa[i / 4];
    const om::SimdFloat4 c[7] = {b.translation.x, b.translation.y, b.translation.z, b.rotation.x,
                                 b.rotation.y,    b.rotation.z,    b.rotation.w};
    float f[7];
    for (int k = 0; k < 7; k++) {
        float lanes[4];
        om::StorePtrU(c[k], lanes);
        f[k] = lanes[i % 4];
    }
    return {rune_v3(f[0], f[1], f[2]), rune_q(f[3], f[4], f[5], f[6])};
}

// How many joints of an ozz pose equal rune's (frame times pose).
size_t same_joints(const scene &z, const std::vector<om::SoaTransform> &soa, const rune_pose *pose,
                   float same = SAME)
{
    size_t n = 0;
    for (size_t i = 0; i < z.joints; i++)
        n += same_xform(from_soa(soa, i), bench_local_of(z.s->rig, pose, z.rune_joint[i]), same);
    return n;
}

void sample(const scene &z, size_t clip, float t, oa::SamplingJob::Context &context,
            std::vector<om::SoaTransform> &out)
{
    oa::SamplingJob job;
    job.animation = z.clips[clip].get();
    job.context = &context;
    job.ratio = t / z.length;
    job.output = ozz::make_span(out);
    job.Run();
}

void blend(const scene &z, const std::vector<om::SoaTransform> *poses, const float *weights, size_t n,
           std::vector<om::SoaTransform> &out)
{
    oa::BlendingJob::Layer layers[8];
    for (size_t i = 0; i < n; i++) {
        layers[i].weight = weights[i];
        layers[i].transform = ozz::make_span(poses[i]);
    }
    oa::BlendingJob job;
    job.layers = ozz::span<const oa::BlendingJob::Layer>(layers, n);
    job.rest_pose = z.skeleton->joint_rest_poses();
    job.output = ozz::make_span(out);
    job.Run();
}

void local_to_model(const scene &z, const std::vector<om::SoaTransform> &in, std::vector<om::Float4x4> &out)
{
    oa::LocalToModelJob job;
    job.skeleton = z.skeleton.get();
    job.input = ozz::make_span(in);
    job.output = ozz::make_span(out);
    job.Run();
}

// How many joints' model matrices (rotation columns and position) agree.
size_t same_matrices(const scene &z, const std::vector<om::Float4x4> &ozz_m, const rune_mat4 *rune_m,
                     float same = SAME)
{
    size_t n = 0;
    for (size_t i = 0; i < z.joints; i++) {
        bool ok = true;
        for (int col = 0; col < 4; col++) {
            float f[4];
            om::StorePtrU(ozz_m[i].cols[col], f);
            for (int row = 0; row < 3; row++)
                ok = ok && std::fabs(f[row] - rune_m[z.rune_joint[i]].m[col * 4 + row]) <= same;
        }
        n += ok;
    }
    return n;
}

float wrap(float t, float length) { return t >= length ? std::fmod(t, length) : t; }

// ---- timed work ---------------------------------------------------------

struct sampling_ctx {
    const scene *z;
    oa::SamplingJob::Context context;
    std::vector<om::SoaTransform> out;
    bench_sample_ctx time;
};

void sampling_run(void *p)
{
    auto *c = static_cast<sampling_ctx *>(p);
    sample(*c->z, 0, bench_next_time(&c->time), c->context, c->out);
}

// Times SamplingJob on clip 0 of `z`, forward at 60 Hz or at the random
// times bench_next_time draws for `b`'s clip: ns a joint. `c` keeps the
// sequence going for the checks after it.
double time_sampling(const bench_plan *p, const scene &z, const rune_binding *b, bool random, sampling_ctx &c)
{
    c.z = &z;
    c.context.Resize((int)z.joints);
    c.out.resize(soa_count(z));
    c.time = {b, NULL, {0}, 0.0f, z.length, 1u, random};
    return 1e9 * bench_measure(sampling_run, &c, p->samples, p->sample_s, false).median / (double)z.joints;
}

enum { MIXED = 3 };

struct mix_ctx {
    const scene *z;
    oa::SamplingJob::Context context[MIXED];
    std::vector<om::SoaTransform> local[MIXED], out;
    float t[MIXED], weight[MIXED];
};

// bench_mix.c's work: play i at weight 1 / (i + 1), starting 0.1 s apart
void mix_run(void *p)
{
    auto *c = static_cast<mix_ctx *>(p);
    for (size_t i = 0; i < MIXED; i++) {
        c->t[i] = wrap(c->t[i] + BENCH_DT, c->z->length);
        sample(*c->z, i, c->t[i], c->context[i], c->local[i]);
    }
    blend(*c->z, c->local, c->weight, MIXED, c->out);
}

enum { FINISHED = 4 };

struct pose_ctx {
    const scene *z;
    std::vector<om::SoaTransform> pose[FINISHED], out;
    std::vector<om::Float4x4> model;
    float weight[FINISHED];
};

void blend_finished_run(void *p)
{
    auto *c = static_cast<pose_ctx *>(p);
    blend(*c->z, c->pose, c->weight, FINISHED, c->out);
}

void local_to_model_run(void *p)
{
    auto *c = static_cast<pose_ctx *>(p);
    local_to_model(*c->z, c->pose[1], c->model);
}

// One crowd character: 2 plays at weights 1 and 1/2, blended, matrices
// (bench_crowds.c's clip crowd).
struct crowd_character {
    oa::SamplingJob::Context context[2];
    std::vector<om::SoaTransform> local[2], out;
    std::vector<om::Float4x4> model;
    float t[2];
};

struct crowd_ctx {
    const scene *z;
    std::vector<std::unique_ptr<crowd_character>> chars;
};

const float CROWD_WEIGHTS[2] = {1.0f, 0.5f};

void crowd_character_run(const scene &z, crowd_character &c)
{
    for (size_t i = 0; i < 2; i++) {
        c.t[i] = wrap(c.t[i] + BENCH_DT, z.length);
        sample(z, i, c.t[i], c.context[i], c.local[i]);
    }
    blend(z, c.local, CROWD_WEIGHTS, 2, c.out);
    local_to_model(z, c.out, c.model);
}

void crowd_run(void *p)
{
    auto *c = static_cast<crowd_ctx *>(p);
    for (auto &ch : c->chars)
        crowd_character_run(*c->z, *ch);
}

// rune's result for plays of clips 0.. at times t and weights w: their
// mean, and its model matrices
void rune_mix(const scene &z, const float *t, const float *w, size_t n, rune_pose *scratch, rune_pose *out,
              rune_mat4 *model)
{
    rune_contribution cs[8];
    for (size_t i = 0; i < n; i++) {
        rune_binding_sample(z.s->bindings[i], t[i], &scratch[i]);
        cs[i] = {&scratch[i], w[i], 0, NULL};
    }
    rune_mix_mean(cs, n, RUNE_SIMD_AUTO, out);
    if (model)
        rune_rig_model_matrices(z.s->rig, out, model);
}

struct rune_poses {
    std::vector<rune_pose> pose;
    std::vector<rune_mat4> model;
    explicit rune_poses(const rune_rig *rig, size_t n) : pose(n), model(rune_rig_joint_count(rig))
    {
        for (auto &p : pose)
            rune_pose_init(&p, rune_rig_joint_count(rig), NULL, NULL);
    }
    ~rune_poses()
    {
        for (auto &p : pose)
            rune_pose_release(&p);
    }
};

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
    bench_anchor a = {1e9 * t.median, 0, 0, 0};
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
    bench_anchor a = {1e9 * t.median, 0, 0, 0};
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

// Iframes for the random-time row, as ozz recommends for seeking: on this
// bench's clips they make its random sampling about 4x faster.
constexpr float OZZ_IFRAME_S = 0.1f;

extern "C" bench_anchor bench_ozz_kernel(const bench_plan *p, const bench_scene *s, bench_ozz_work work,
                                         const bench_timed *timed)
{
    bench_anchor a = {-1.0, 0, 0, 0};
    scene z;
    if (!make_scene(s, MIXED, z, work == BENCH_OZZ_RANDOM ? OZZ_IFRAME_S : 0.0f))
        return a;
    size_t soa = soa_count(z);
    rune_poses r(s->rig, FINISHED + 1);
    rune_pose *out = &r.pose[FINISHED];
    if (work == BENCH_OZZ_FORWARD || work == BENCH_OZZ_RANDOM) {
        auto c = std::make_unique<sampling_ctx>();
        a.value = time_sampling(p, z, s->bindings[0], work == BENCH_OZZ_RANDOM, *c);
        a.bytes = (double)z.clips[0]->size();
        for (int k = 0; k < 64; k++) { // 64 more times of the same sequence, against the timed sampler
            sampling_run(c.get());
            if (timed && timed->sample)
                timed->sample(timed->ctx, c->time.t, out);
            else
                rune_binding_sample(s->bindings[0], c->time.t, out);
            a.agree += same_joints(z, c->out, out);
            a.checked += z.joints;
        }
    } else if (work == BENCH_OZZ_SAMPLE3_BLEND) {
        auto c = std::make_unique<mix_ctx>();
        c->z = &z;
        c->out.resize(soa);
        for (size_t i = 0; i < MIXED; i++) {
            c->context[i].Resize((int)z.joints);
            c->local[i].resize(soa);
            c->t[i] = 0.1f * (float)i;
            c->weight[i] = 1.0f / (float)(i + 1);
        }
        a.value = 1e9 * bench_measure(mix_run, c.get(), p->samples, p->sample_s, false).median / (double)z.joints;
        for (int k = 0; k < 16; k++) {
            mix_run(c.get());
            rune_mix(z, c->t, c->weight, MIXED, r.pose.data(), out, NULL);
            a.agree += same_joints(z, c->out, out);
            a.checked += z.joints;
        }
    } else {
        // bench_kernels.c's finished poses: clip l at 0.37 l, equal weights
        auto c = std::make_unique<pose_ctx>();
        c->z = &z;
        c->out.resize(soa);
        c->model.resize(z.joints);
        float t[FINISHED];
        for (size_t l = 0; l < FINISHED; l++) {
            rune_binding_sample(s->bindings[l], 0.37f * (float)l, &r.pose[l]);
            c->pose[l] = to_soa(z, &r.pose[l]);
            c->weight[l] = 1.0f / FINISHED;
            t[l] = 0.37f * (float)l;
        }
        bool blending = work == BENCH_OZZ_BLEND_FINISHED;
        /* both sides compute in floats from the same poses: the same to
         * 1e-5 of the rig's height (rotation entries to 1e-5) */
        float tight = 1e-5f * std::fmax(1.0f, rune_rig_height(s->rig));
        double per = (double)z.joints * (blending ? FINISHED : 1);
        bench_fn fn = blending ? blend_finished_run : local_to_model_run;
        a.value = 1e9 * bench_measure(fn, c.get(), p->samples, p->sample_s, false).median / per;
        fn(c.get());
        if (blending) {
            rune_mix(z, t, c->weight, FINISHED, r.pose.data(), out, NULL);
            a.agree = same_joints(z, c->out, timed && timed->pose ? timed->pose : out, tight);
        } else {
            rune_rig_model_matrices(s->rig, &r.pose[1], r.model.data());
            a.agree = same_matrices(z, c->model, timed && timed->matrices ? timed->matrices : r.model.data(), tight);
        }
        a.checked = z.joints;
    }
    return a;
}

namespace {

// ozz's default allocator, counting the bytes asked of it (a crowd
// character's sampling contexts)
struct counting_allocator : ozz::memory::Allocator {
    ozz::memory::Allocator *next = nullptr;
    size_t bytes = 0;
    void *Allocate(size_t size, size_t alignment) override
    {
        bytes += size;
        return next->Allocate(size, alignment);
    }
    void Deallocate(void *block) override { next->Deallocate(block); }
};

template <typename T> size_t held(const std::vector<T> &v) { return v.capacity() * sizeof(T); }

} // namespace

extern "C" bench_anchor bench_ozz_crowd(const bench_plan *p, const bench_scene *s, size_t count)
{
    bench_anchor a = {-1.0, 0, 0, 0};
    scene z;
    if (!make_scene(s, 2, z))
        return a;
    crowd_ctx c;
    c.z = &z;
    counting_allocator counting;
    counting.next = ozz::memory::SetDefaulAllocator(&counting);
    size_t bytes = 0;
    for (size_t i = 0; i < count; i++) {
        auto ch = std::make_unique<crowd_character>();
        for (size_t k = 0; k < 2; k++) {
            ch->context[k].Resize((int)z.joints);
            ch->local[k].resize(soa_count(z));
        }
        ch->out.resize(soa_count(z));
        ch->model.resize(z.joints);
        ch->t[0] = wrap(0.013f * (float)i, z.length); // bench_crowds.c's start times
        ch->t[1] = wrap(0.029f * (float)i, z.length);
        bytes += sizeof *ch + held(ch->local[0]) + held(ch->local[1]) + held(ch->out) + held(ch->model);
        c.chars.push_back(std::move(ch));
    }
    ozz::memory::SetDefaulAllocator(counting.next);
    a.bytes = (double)(bytes + counting.bytes) / (double)count; // what a character holds
    crowd_run(&c); // the warm-up frame rune's crowd gets
    a.value = 1e3 * bench_measure(crowd_run, &c, p->quick ? 5 : 15, p->quick ? 0.02 : 0.06, false).median;
    rune_poses r(s->rig, 3);
    for (size_t i = 0; i < count && i < 16; i++) {
        rune_mix(z, c.chars[i]->t, CROWD_WEIGHTS, 2, r.pose.data(), &r.pose[2], r.model.data());
        a.agree += same_matrices(z, c.chars[i]->model, r.model.data());
        a.checked += z.joints;
    }
    return a;
}

namespace {

// Model-space joint positions of an ozz pose and of rune's: how many
// joints are within `bound` of each other (the largest distance into
// *worst).
size_t near_model(const scene &z, const std::vector<om::SoaTransform> &soa, const rune_pose *pose, float bound,
                  double *worst)
{
    std::vector<om::Float4x4> ozz_m(z.joints);
    std::vector<rune_mat4> rune_m(rune_rig_joint_count(z.s->rig));
    local_to_model(z, soa, ozz_m);
    rune_rig_model_matrices(z.s->rig, pose, rune_m.data());
    size_t n = 0;
    for (size_t i = 0; i < z.joints; i++) {
        float f[4];
        om::StorePtrU(ozz_m[i].cols[3], f);
        const float *m = rune_m[z.rune_joint[i]].m;
        float d = distance(rune_v3(f[0], f[1], f[2]), rune_v3(m[12], m[13], m[14]));
        *worst = std::fmax(*worst, (double)d);
        n += d <= bound;
    }
    return n;
}

} // namespace

extern "C" bench_ozz_clip bench_ozz_sampling(const bench_plan *p, const rune_rig *rig, const rune_binding *exact,
                                             float key_hz, float precision, float shell)
{
    bench_ozz_clip r = {-1.0, -1.0, -1.0, -1.0, 0, 0, 0.0};
    const rune_binding *bindings[1] = {exact};
    bench_scene s = {NULL, rig, bindings, 1};
    scene z;
    oo::RawAnimation raw, optimized;
    if (!make_scene(&s, 0, z))
        return r;
    z.length = rune_clip_length(rune_binding_clip(exact));
    if (!raw_clip(z, 0, raw, key_hz))
        return r;
    oo::AnimationOptimizer optimizer;
    optimizer.setting = oo::AnimationOptimizer::Setting(precision, shell);
    if (!optimizer(raw, *z.skeleton, &optimized))
        return r;
    rune_poses exact_pose(rig, 1);
    for (int random = 0; random < 2; random++) {
        oo::AnimationBuilder build;
        build.iframe_interval = random ? OZZ_IFRAME_S : 0.0f; /* iframes for seeking, as ozz's samples use them */
        z.clips.clear();
        z.clips.push_back(build(optimized));
        if (!z.clips.back())
            return r;
        auto c = std::make_unique<sampling_ctx>();
        (random ? r.random_ns : r.forward_ns) = time_sampling(p, z, exact, random != 0, *c);
        (random ? r.random_bytes : r.bytes) = (double)z.clips[0]->size();
        for (int k = 0; k < 64; k++) { // what the timed sampler writes, against the exact clip
            sampling_run(c.get());
            rune_binding_sample(exact, c->time.t, &exact_pose.pose[0]);
            r.agree += near_model(z, c->out, &exact_pose.pose[0], 2.0f * precision, &r.max_error);
            r.checked += z.joints;
        }
    }
    return r;
}

namespace {

struct skin_ctx {
    ozz::geometry::SkinningJob job;
};

void skin_run(void *p) { static_cast<skin_ctx *>(p)->job.Run(); }

} // namespace

extern "C" bench_anchor bench_ozz_skin(const bench_plan *p, const bench_skin_mesh *m)
{
    size_t n = m->vertex_count;
    std::vector<om::Float4x4> matrices(m->palette_count);
    for (size_t j = 0; j < m->palette_count; j++)
        for (int c = 0; c < 4; c++)
            matrices[j].cols[c] = om::simd_float4::Load(m->palette[j].m[4 * c], m->palette[j].m[4 * c + 1],
                                                        m->palette[j].m[4 * c + 2], m->palette[j].m[4 * c + 3]);
    std::vector<float> out_p(3 * n), out_n(3 * n);
    skin_ctx c;
    ozz::geometry::SkinningJob &job = c.job;
    job.vertex_count = (int)n;
    job.influences_count = 4;
    job.joint_matrices = ozz::make_span(matrices);
    job.joint_indices = ozz::span<const uint16_t>(m->joints, 4 * n);
    job.joint_indices_stride = 4 * sizeof(uint16_t);
    /* ozz reads the first three weights and restores the fourth */
    job.joint_weights = ozz::span<const float>(m->weights, 4 * n);
    job.joint_weights_stride = 4 * sizeof(float);
    job.in_positions = ozz::span<const float>(m->positions, 3 * n);
    job.in_positions_stride = 3 * sizeof(float);
    job.in_normals = ozz::span<const float>(m->normals, 3 * n);
    job.in_normals_stride = 3 * sizeof(float);
    job.out_positions = ozz::make_span(out_p);
    job.out_positions_stride = 3 * sizeof(float);
    job.out_normals = ozz::make_span(out_n);
    job.out_normals_stride = 3 * sizeof(float);
    if (!job.Validate())
        return bench_anchor{-1.0, 0, 0};
    bench_timing t = bench_measure(skin_run, &c, p->samples, p->sample_s, false);
    bench_anchor a = {1e9 * t.median / (double)n, 0, 0, 0};
    /* rune's linear blending on the same vertices */
    std::vector<float> rune_p(3 * n);
    rune_skin_job r = {};
    r.method = RUNE_SKIN_LINEAR, r.vertex_count = n, r.influences = 4, r.joints = m->joints, r.weights = m->weights;
    r.matrices = m->palette, r.palette_count = m->palette_count, r.positions = m->positions;
    r.out_positions = rune_p.data();
    rune_skin_run(&r, NULL);
    for (size_t v = 0; v < n; v += 100) {
        a.checked++;
        float d = 0.0f;
        for (int k = 0; k < 3; k++)
            d = std::fmax(d, std::fabs(out_p[3 * v + k] - rune_p[3 * v + k]));
        a.agree += d <= 1e-5f;
    }
    return a;
}
