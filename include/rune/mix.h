/* rune/mix.h - per-joint priority composition, procedural controls, and the
 * animator: the per-rig object that owns playing tracks, controls and the
 * signal queue, and writes the final motor transforms each frame. */
#ifndef RUNE_MIX_H
#define RUNE_MIX_H

#include "rune/base.h"
#include "rune/rig.h"
#include "rune/play.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** One input of the mixer: a finished pose (a graph's, a motion's), or a
 * track that composition samples itself, into scratch, just before
 * accumulating it (so no pose per track is ever stored). */
typedef struct rune_contribution {
    const rune_pose *pose;    /**< a finished pose; NULL when `track` is set */
    float weight;             /**< playback weight */
    int priority;             /**< rank 0 .. RUNE_PRIORITY_COUNT-1 (others are clamped) */
    const rune_track *track;  /**< sampled during composition when pose is NULL */
} rune_contribution;

/** Composes contributions into `out`. Ranks are processed lowest first;
 * within a rank each joint takes the weighted mean of its contributions,
 * share = clamp(weight * coverage, 0, 1), with quaternions sign-aligned to
 * the accumulated hemisphere; the rank's coverage min(1, sum of shares)
 * overlays that mean onto the result below, which starts at identity with
 * coverage 0 (translation lerp, rotation slerp, coverage c + rc (1 - c)).
 * Track contributions are sampled here, through their binding's sampler
 * when they have one. The work runs over chunks of RUNE_SAMPLE_CHUNK
 * joints held as arrays on the stack, with the vectorized kernels of
 * `level` (see rune_simd_resolve; levels agree within 2 ulps, the FMA
 * ones rounding fused products once).
 * `order` (at least `count` entries) is scratch, so composing never
 * allocates. */
RUNE_API void rune_mix_compose(const rune_contribution *contributions, size_t count, rune_simd_level level, size_t *order,
                      rune_pose *out);

/** The weighted mean of contributions whatever their priority: each joint
 * takes sum(s t) / sum(s), the normalized sum of s q (each q sign-aligned
 * to the running sum) and coverage min(1, sum(s)), with
 * s = clamp(weight * coverage, 0, 1); joints nothing covers get identity
 * with coverage 0. The step blend spaces and cross-fades share with a
 * mixer rank, run by the same kernels. */
RUNE_API void rune_mix_mean(const rune_contribution *contributions, size_t count, rune_simd_level level, rune_pose *out);

/** Composes one graph layer onto `out`, joint by joint with weight
 * w = clamp(layer_weight * mask[j] * layer->coverage[j], 0, 1) (mask NULL:
 * 1 for every joint). `out` is a graph's pose in straight form: its
 * transforms are what its layers show where they cover, its coverage how
 * much they cover, so the priority mixer overlays it by that coverage once.
 * An override layer (`ref` NULL) raises the coverage to c' = c + w (1 - c)
 * and moves the transform toward the layer's by w / c' (translation lerp,
 * rotation slerp): on a joint nothing covered yet it takes the layer's
 * transform as it is. An additive layer adds its weighted delta from `ref`
 * in the joint's local frame: t += w (t_layer - t_ref),
 * r = r * slerp(identity, r_ref^-1 r_layer, w), coverage c + w (1 - c).
 * Runs over chunks of joints with the kernels of `level`, like
 * composition. */
RUNE_API void rune_mix_layer(rune_pose *out, const rune_pose *layer, const rune_pose *ref, const float *mask,
                    float layer_weight, rune_simd_level level);

/** Overlays one weighted mean onto a pose joint, the step of composition
 * for one rank: nothing at coverage 0, a copy at 1, otherwise translation
 * lerp, rotation slerp, coverage c + coverage (1 - c). For per-joint
 * callers; rune_mix_compose runs the same rule over chunks. */
RUNE_API void rune_mix_overlay_joint(rune_pose *pose, size_t joint, rune_vec3 t, rune_quat r, float coverage);

typedef enum rune_control_mode {
    RUNE_CONTROL_OVERRIDE = 0, /**< blend the joint toward the control's transform */
    RUNE_CONTROL_OFFSET        /**< apply the control's transform on top (local frame) */
} rune_control_mode;

/** A procedural control: modifies one joint of the composed pose. Controls
 * run in ascending priority (ties in creation order). With weight w in
 * [0, 1], override sets t = lerp(t, ct, w) and r = slerp(r, cr, w) for the
 * channels it drives; offset sets r = r * slerp(identity, cr, w) and
 * t = t + w ct. Both raise coverage to c + w (1 - c). */
typedef struct rune_control {
    uint32_t id;  /**< caller's key: setting an existing id updates it */
    int32_t joint;
    int priority;
    rune_control_mode mode;
    rune_xform xform;
    float weight;
    bool drive_t; /**< override: blend translation (else left as composed) */
    bool drive_r; /**< override: blend rotation (else left as composed) */
} rune_control;

/** Applies controls in priority order to `pose`. `order` is scratch of at
 * least `count` entries. */
RUNE_API void rune_controls_apply(const rune_control *controls, size_t count, size_t *order, rune_pose *pose);

typedef struct rune_animator rune_animator;

/** Creates an animator for a rig's current layout. `signal_capacity` bounds
 * the signals one frame can queue (0: 256). */
RUNE_API rune_status rune_animator_create(const rune_rig *rig, size_t signal_capacity, const rune_allocator *alloc,
                                 rune_animator **out, rune_error *err);
RUNE_API void rune_animator_destroy(rune_animator *anim);

/** The instruction set of the animator's sampling and mixing kernels
 * (default RUNE_SIMD_AUTO; see rune_simd_resolve). Tracks started earlier
 * keep their sampler's level. Every level gives results within 1e-6. */
RUNE_API void rune_animator_set_simd(rune_animator *anim, rune_simd_level level);

/** Starts a track; its handle (never 0, never reused) goes to *handle.
 * May allocate while the number of simultaneous tracks grows (warm-up). */
RUNE_API rune_status rune_animator_play(rune_animator *anim, const rune_binding *binding, const rune_play_params *params,
                               uint32_t *handle, rune_error *err);

/** Changes of a playing track; fields with their `set_` flag false stay. */
typedef struct rune_adjust_params {
    bool set_weight;
    float weight;
    float fade;
    bool set_speed;
    float speed;
} rune_adjust_params;

/** Returns false when no live track has this handle. */
RUNE_API bool rune_animator_adjust(rune_animator *anim, uint32_t handle, const rune_adjust_params *params);
/** Requests a stop with a fade; false when no live track has this handle. */
RUNE_API bool rune_animator_stop(rune_animator *anim, uint32_t handle, float fade);
/** The live track with this handle, or NULL. */
RUNE_API const rune_track *rune_animator_track(const rune_animator *anim, uint32_t handle);
RUNE_API size_t rune_animator_track_count(const rune_animator *anim);

/** Adds or updates (same id) a control. Fails on a joint out of range. */
RUNE_API rune_status rune_animator_set_control(rune_animator *anim, const rune_control *control, rune_error *err);
/** Removes a control; false when absent. */
RUNE_API bool rune_animator_remove_control(rune_animator *anim, uint32_t id);

/** A new handle for another signal source (a graph instance), from the same
 * sequence as track handles. */
RUNE_API uint32_t rune_animator_new_source(rune_animator *anim);
/** The queue signals go to during this frame (graphs push theirs here). */
RUNE_API rune_signal_queue *rune_animator_signals(rune_animator *anim);
/** How many signals did not fit the queue since creation. */
RUNE_API size_t rune_animator_dropped_signals(const rune_animator *anim);

/** Advances every track by dt; tracks whose stop fade finished leave the
 * mixer and queue a `stopped` signal. */
RUNE_API void rune_animator_advance(rune_animator *anim, float dt);
/** Samples the tracks, composes them with the `extra` contributions (graph
 * poses), applies the controls and writes the final pose. When nothing
 * contributes, one last pass resets the pose, then passes are skipped. */
RUNE_API rune_status rune_animator_evaluate(rune_animator *anim, const rune_contribution *extra, size_t extra_count,
                                   rune_error *err);
/** The final motor transforms of the last evaluation. */
RUNE_API const rune_pose *rune_animator_pose(const rune_animator *anim);
/** The final pose for post-processing before signals are delivered (root
 * motion removal, for instance). */
RUNE_API rune_pose *rune_animator_pose_edit(rune_animator *anim);
/** Live track number i (0 <= i < slot count; NULL for a free slot), for
 * iterating: for (i = 0; i < rune_animator_slot_count(a); i++). */
RUNE_API const rune_track *rune_animator_slot(const rune_animator *anim, size_t i);
RUNE_API size_t rune_animator_slot_count(const rune_animator *anim);
/** How many composition passes have run (tests the final-pass rule). */
RUNE_API size_t rune_animator_passes(const rune_animator *anim);

typedef void (*rune_signal_fn)(void *user, const rune_event *event);
/** Calls `fn` for each queued signal in order, then empties the queue. Call
 * it after evaluate: callbacks observe the newly composed pose. */
RUNE_API void rune_animator_deliver(rune_animator *anim, rune_signal_fn fn, void *user);

/** Asks the CPU to start loading what the next advance and evaluate of
 * the animator touch: `state` false, the animator itself; true, its
 * tracks, their samplers and its pose (issue the first one step earlier:
 * it loads the pointers the second follows). Changes nothing. */
RUNE_API void rune_animator_prefetch(const rune_animator *anim, bool state);

RUNE_END_DECLS

#endif
