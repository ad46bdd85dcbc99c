// The ACL anchor of `rune bench` (bench/acl_anchor.h): ACL compresses the
// clip rune compressed, on the same grid, at the same precision and
// shell, with its default settings; its decompression is timed by the
// same timer in the same process and checked against the exact clip.
// Built only with -DRUNE_ACL_DIR (ACL and Realtime Math source
// checkouts, header-only; nothing of either is in rune's tree).
#include "acl_anchor.h"

#include <acl/compression/compress.h>
#include <acl/compression/track_array.h>
#include <acl/compression/transform_error_metrics.h>
#include <acl/core/ansi_allocator.h>
#include <acl/decompression/decompress.h>

#include <cmath>
#include <vector>

namespace {

// Decompressed tracks as rune transforms, one per rig joint.
struct pose_writer : public acl::track_writer {
    std::vector<rune_xform> joint;
    explicit pose_writer(size_t n) : joint(n) {}
    void RTM_SIMD_CALL write_rotation(uint32_t i, rtm::quatf_arg0 q)
    {
        joint[i].r = rune_q(rtm::quat_get_x(q), rtm::quat_get_y(q), rtm::quat_get_z(q), rtm::quat_get_w(q));
    }
    void RTM_SIMD_CALL write_translation(uint32_t i, rtm::vector4f_arg0 t)
    {
        joint[i].t = rune_v3(rtm::vector_get_x(t), rtm::vector_get_y(t), rtm::vector_get_z(t));
    }
    void RTM_SIMD_CALL write_scale(uint32_t, rtm::vector4f_arg0) {}
};

using context_t = acl::decompression_context<acl::default_transform_decompression_settings>;

struct sampling_ctx {
    context_t *context;
    pose_writer *writer;
    bench_sample_ctx time; // the times rune's rows take (bench_next_time)
};

void sample_run(void *p)
{
    auto *c = static_cast<sampling_ctx *>(p);
    c->context->seek(bench_next_time(&c->time), acl::sample_rounding_policy::none);
    c->context->decompress_tracks(*c->writer);
}

// Model positions of local transforms, parents first.
std::vector<rune_vec3> positions(const rune_rig *rig, const std::vector<rune_xform> &local)
{
    std::vector<rune_xform> model(local.size());
    std::vector<rune_vec3> out(local.size());
    for (size_t j = 0; j < local.size(); j++) {
        int32_t parent = rune_rig_parent(rig, j);
        model[j] = parent >= 0 ? rune_xform_mul(model[(size_t)parent], local[j]) : local[j];
        out[j] = model[j].t;
    }
    return out;
}

} // namespace

extern "C" const char *bench_acl_name(void)
{
#if defined(RTM_AVX2_INTRINSICS) && defined(RTM_FMA_INTRINSICS)
    return "ACL (AVX2 + FMA)";
#elif defined(RTM_AVX_INTRINSICS)
    return "ACL (AVX)";
#else
    return "ACL (SSE2)";
#endif
}

extern "C" bench_acl_clip bench_acl_measure(const bench_plan *p, const rune_rig *rig, const rune_clip *clip,
                                            const rune_clip_compression *grid, float precision, float shell)
{
    bench_acl_clip r = {-1.0, -1.0, -1.0, 0, 0};
    size_t n = rune_rig_joint_count(rig);
    rune_binding *b = NULL;
    rune_pose pose;
    if (grid->samples < 2 || rune_binding_create(rig, clip, NULL, NULL, &b, NULL))
        return r;
    if (rune_pose_init(&pose, n, NULL, NULL)) {
        rune_binding_destroy(b);
        return r;
    }
    acl::ansi_allocator allocator;
    acl::track_array_qvvf raw(allocator, (uint32_t)n);
    for (size_t j = 0; j < n; j++) {
        acl::track_desc_transformf desc;
        desc.output_index = (uint32_t)j;
        int32_t parent = rune_rig_parent(rig, j);
        desc.parent_index = parent >= 0 ? (uint32_t)parent : acl::k_invalid_track_index;
        desc.precision = precision;
        desc.shell_distance = shell;
        raw[(uint32_t)j] = acl::track_qvvf::make_reserve(desc, allocator, grid->samples, 1.0f / grid->dt);
    }
    for (uint32_t s = 0; s < grid->samples; s++) {
        rune_binding_sample(b, grid->t0 + (float)s * grid->dt, &pose);
        for (size_t j = 0; j < n; j++) {
            rune_xform x = bench_local_of(rig, &pose, j);
            raw[(uint32_t)j][s] = rtm::qvv_set(rtm::quat_set(x.r.x, x.r.y, x.r.z, x.r.w),
                                               rtm::vector_set(x.t.x, x.t.y, x.t.z), rtm::vector_set(1.0f));
        }
    }
    acl::compression_settings settings = acl::get_default_compression_settings();
    acl::qvvf_transform_error_metric metric;
    settings.error_metric = &metric;
    acl::compressed_tracks *tracks = nullptr;
    acl::output_stats stats;
    if (acl::compress_track_list(allocator, raw, settings, tracks, stats).any()) {
        rune_pose_release(&pose);
        rune_binding_destroy(b);
        return r;
    }
    r.bytes = (double)tracks->get_size();
    context_t context;
    context.initialize(*tracks);
    pose_writer writer(n);
    float length = (float)(grid->samples - 1) * grid->dt;
    for (int random = 0; random < 2; random++) {
        sampling_ctx c = {&context, &writer, {NULL, NULL, {0}, 0.0f, length, 1u, random != 0}};
        double ns = 1e9 * bench_measure(sample_run, &c, p->samples, p->sample_s, false).median / (double)n;
        (random ? r.random_ns : r.forward_ns) = ns;
    }
    sampling_ctx c = {&context, &writer, {NULL, NULL, {0}, 0.0f, length, 7u, true}};
    std::vector<rune_xform> exact(n);
    for (int k = 0; k < 64; k++) {
        sample_run(&c);
        rune_binding_sample(b, grid->t0 + c.time.t, &pose);
        for (size_t j = 0; j < n; j++)
            exact[j] = bench_local_of(rig, &pose, j);
        std::vector<rune_vec3> a = positions(rig, writer.joint), e = positions(rig, exact);
        for (size_t j = 0; j < n; j++) {
            rune_vec3 d = rune_v3_sub(a[j], e[j]);
            r.agree += std::sqrt(rune_v3_dot(d, d)) <= 2.0f * precision;
            r.checked++;
        }
    }
    allocator.deallocate(tracks, tracks->get_size());
    rune_pose_release(&pose);
    rune_binding_destroy(b);
    return r;
}
