/* ozz-animation measured in the same run as rune (docs/performance.md,
 * "Method"): bench/ozz_anchor.cc, built only when CMake is given an ozz
 * source checkout (-DRUNE_OZZ_DIR=...; the checkout is never copied into
 * rune), runs ozz's own jobs on the same inputs as rune's rows and checks
 * that both compute the same result. Without it (bench/ozz_anchor_none.c)
 * every figure is < 0 and the report says "not measured here". */
#ifndef RUNE_BENCH_OZZ_ANCHOR_H
#define RUNE_BENCH_OZZ_ANCHOR_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "ozz-animation 0.16 (SIMD: AVX2 + FMA)" when built in; NULL otherwise. */
const char *bench_ozz_name(void);

/** The kernel rows ozz has the work of, on the bench's synthetic scene
 * (its rig as an ozz skeleton, its clips as ozz animations keyed at the
 * same times with rune's local transforms: rest frame times pose). */
typedef enum bench_ozz_work {
    BENCH_OZZ_FORWARD,        /**< SamplingJob frame after frame at BENCH_DT, ns a joint */
    BENCH_OZZ_RANDOM,         /**< SamplingJob at random times (bench_next_time), clips built with
                                   0.1 s iframes (ozz's setting for seeking), ns a joint */
    BENCH_OZZ_SAMPLE3_BLEND,  /**< 3 SamplingJobs (weights 1, 1/2, 1/3) + BlendingJob, ns a joint */
    BENCH_OZZ_BLEND_FINISHED, /**< BlendingJob of 4 finished poses, ns a joint and pose */
    BENCH_OZZ_LOCAL_TO_MODEL  /**< LocalToModelJob, ns a joint */
} bench_ozz_work;

/** What a kernel row's timed loop wrote, for the same-result check:
 * `sample` gives the timed sampler's pose at time t (sampling rows);
 * `pose` and `matrices` are the pose and matrices the timed loop left
 * (finished-pose rows). Where NULL, the check uses rune's reference
 * sampler, mixer or matrices. */
typedef struct bench_timed {
    void (*sample)(void *ctx, float t, rune_pose *out);
    void *ctx;
    const rune_pose *pose;
    const rune_mat4 *matrices;
} bench_timed;

/** One kernel row's work done by ozz; agreement: every joint's local
 * transform (or model matrix) within 1e-3 of what rune's timed loop
 * wrote (`timed`), over 64 sampled times (16 frames of the blend, one
 * pose otherwise); bytes: the ozz animation's size (sampling rows). */
bench_anchor bench_ozz_kernel(const bench_plan *p, const bench_scene *s, bench_ozz_work work,
                              const bench_timed *timed);
/** The clip crowd with the caller alone: `count` characters each sampling
 * clips 0 and 1 (weights 1 and 1/2, bench_crowds.c's start times),
 * blending them and computing model matrices, in ms a frame; agreement:
 * the first 16 characters' matrices against rune's for the same times;
 * bytes: the memory a character holds (its sampling contexts, as ozz's
 * allocator counts them, and its poses and matrices). */
bench_anchor bench_ozz_crowd(const bench_plan *p, const bench_scene *s, size_t count);
/** IKTwoBoneJob on the same chains (matrices built from each job: the mid
 * joint rotated by its mid_rotation, whose local z is ozz's mid axis);
 * agreement: the chain's end lands where rune's does (1e-4 of the chain). */
bench_anchor bench_ozz_two_bone(const bench_plan *p, const rune_ik_two_bone_job *jobs, size_t n);
/** IKAimJob on the same joints; agreement: the same new rotation (1e-4). */
bench_anchor bench_ozz_aim(const bench_plan *p, const rune_ik_aim_job *jobs, size_t n);

/** SkinningJob (4 influences, positions and normals) on the bench's mesh
 * and palette, ns a vertex; agreement: every 100th vertex's position
 * within 1e-5 of rune's linear blending. */
/** One clip at ozz's best for its memory: raw keys at the clip's key
 * rate (key_hz), AnimationOptimizer at a bound (`precision` at `shell`
 * from each joint, as rune's compressor and ACL take it), then the
 * runtime animation sampled forward at 60 Hz and, built with 0.1 s
 * iframes, at random times. `agree` of `checked`: joints whose model
 * position is within 2 x precision of the exact clip's, over 64 of each
 * timed sequence's own outputs, and the largest distance seen (ozz
 * keeps translations as half floats). Figures < 0: not measured. */
typedef struct bench_ozz_clip {
    double bytes, random_bytes;   /**< the runtime animation without and with iframes */
    double forward_ns, random_ns; /**< ns a joint */
    size_t agree, checked;
    double max_error;
} bench_ozz_clip;

bench_ozz_clip bench_ozz_sampling(const bench_plan *p, const rune_rig *rig, const rune_binding *exact, float key_hz,
                                  float precision, float shell);

bench_anchor bench_ozz_skin(const bench_plan *p, const bench_skin_mesh *m);

#ifdef __cplusplus
}
#endif

#endif
