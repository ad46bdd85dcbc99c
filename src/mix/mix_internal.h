/* The mixing stage as the stages above use it: priority composition of
 * contributions, the layer and cross-fade mixers, solver controls on a
 * pose, and the animator -- the per-rig object that owns playing tracks,
 * controls and the signal queue, and writes the final motor transforms
 * each frame. */
#ifndef RUNE_SRC_MIX_INTERNAL_H
#define RUNE_SRC_MIX_INTERNAL_H

#include "rune/mix.h"
#include "../play/play_internal.h"
#include "../rig/rig_internal.h"

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
 * `out`'s float curves take the same rule, one value a curve (a rank's
 * mean by share, overlaid onto the lower result from 0 by the rank's
 * coverage; docs/semantics.md, "Float curves").
 * `order` (at least `count` entries) is scratch, so composing never
 * allocates. `out` may itself be the pose of contributions of the lowest
 * rank present (a sole contribution always is): each chunk of them is read
 * before the chunk is written, so a character with one graph composes it
 * in place instead of through a pose of its own. */
void rune_mix_compose(const rune_contribution *contributions, size_t count, rune_simd_level level, size_t *order,
                      rune_pose *out);

/** The weighted mean of contributions whatever their priority: each joint
 * takes sum(s t) / sum(s), the normalized sum of s q (each q sign-aligned
 * to the running sum) and coverage min(1, sum(s)), with
 * s = clamp(weight * coverage, 0, 1); joints nothing covers get identity
 * with coverage 0. The step blend spaces and cross-fades share with a
 * mixer rank, run by the same kernels; `out`'s float curves the same
 * mean (0 at coverage 0). */
void rune_mix_mean(const rune_contribution *contributions, size_t count, rune_simd_level level, rune_pose *out);

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
 * Float curves follow the same steps without the mask (a mask weighs
 * joints): override straight by w = layer_weight x the curve's coverage,
 * additive v += w (v_layer - v_ref).
 * Runs over chunks of joints with the kernels of `level`, like
 * composition. */
void rune_mix_layer(rune_pose *out, const rune_pose *layer, const rune_pose *ref, const float *mask,
                    float layer_weight, rune_simd_level level);

/** rune_mix_layer of an override layer whose pose is the weighted mean of
 * `contributions` (rune_mix_mean's), without a pose for the mean: it runs
 * a chunk of joints at a time on the stack, so a crowd's steady layers
 * move no layer pose through memory. Same bits as rune_mix_mean into a
 * pose followed by rune_mix_layer(out, pose, NULL, mask, layer_weight). */
void rune_mix_layer_mean(rune_pose *out, const rune_contribution *contributions, size_t count,
                                  const float *mask, float layer_weight, rune_simd_level level);

/** One side of a cross-fade (rune_mix_fade_layer): the weighted mean of
 * `count` contributions, rune_mix_mean's, or -- `pose` set -- that pose as
 * it is (a frozen source; one with fewer joints than the layer covers
 * nothing past them). */
typedef struct rune_fade_side {
    const rune_contribution *contributions;
    size_t count;
    const rune_pose *pose;
} rune_fade_side;

/** A cross-fading override layer a chunk of joints at a time: the mean of
 * each side (on the stack), their mean at weights 1 - alpha and alpha into
 * `last` (every joint of it: an interruption freezes it), and `last` laid
 * over `out` (NULL: none) as rune_mix_layer(out, last, NULL, mask,
 * layer_weight) lays it. The same bits as rune_mix_mean of each side into
 * a pose, rune_mix_mean of the two poses into `last`, then the layer --
 * without the two sides' poses in memory. For sides whose samples carry no
 * scale (no contribution's clip has scale keys; a side pose unscaled) and
 * a `last` without curves, which the caller checks (rune_fade_side_unscaled):
 * other fades take the separate calls (here a side's scale would be
 * dropped and `last`'s curves left as they were). */
void rune_mix_fade_layer(rune_pose *out, rune_pose *last, rune_fade_side a, rune_fade_side b, float alpha,
                                  const float *mask, float layer_weight, rune_simd_level level);

/** Whether no sample of a fade side carries scale: a side pose unscaled,
 * or no contribution's clip with scale keys (rune_clip_has_scale) and no
 * contribution pose scaled. */
bool rune_fade_side_unscaled(rune_fade_side side);

/** What rune_mix_layer gives for an override layer composed onto a reset
 * pose (rune_pose_reset), computed in place: `pose` holds the layer's pose
 * on entry and the composed pose on return. A joint of weight
 * w = clamp(layer_weight * mask[j] * coverage[j], 0, 1) above 0 keeps its
 * transform, with coverage w; the others return to the identity with
 * coverage 0; curves the same by layer_weight x their coverage. The same
 * bits as the reset and the overlay, in one pass over one pose (a graph's
 * first layer). */
void rune_mix_layer_onto_reset(rune_pose *pose, const float *mask, float layer_weight);

/** Overlays one weighted mean onto a pose joint, the step of composition
 * for one rank: nothing at coverage 0, a copy at 1, otherwise translation
 * lerp, rotation slerp, coverage c + coverage (1 - c). For per-joint
 * callers; rune_mix_compose runs the same rule over chunks. */
void rune_mix_overlay_joint(rune_pose *pose, size_t joint, rune_vec3 t, rune_quat r, float coverage);

/** Bytes of scratch rune_controls_apply needs for a rig's solver
 * controls (frames along a joint's path to the root, chain positions). */
size_t rune_controls_scratch_bytes(const rune_rig *rig);

/** Applies controls in priority order to `pose` (a pose of `rig`).
 * `order` is scratch of at least `count` entries, `scratch` of
 * rune_controls_scratch_bytes(rig) bytes (aligned as a pointer); without
 * a rig or scratch only override and offset controls run. Controls are
 * taken as checked (rune_control_check). Allocates nothing. */
void rune_controls_apply(const rune_rig *rig, const rune_control *controls, size_t count, size_t *order,
                                  void *scratch, rune_pose *pose);

/** Measures a control on a pose (its goal as the control holds it). */
void rune_control_measure(const rune_rig *rig, const rune_pose *pose, const rune_control *control,
                                   void *scratch, rune_control_state *out);

typedef struct rune_animator rune_animator;

/** Creates an animator for a rig's current layout. `signal_capacity` bounds
 * the signals one frame can queue (0: 256). The rig must outlive the
 * animator: solver controls read its hierarchy and frames each frame. */
rune_status rune_animator_create(const rune_rig *rig, size_t signal_capacity, const rune_allocator *alloc,
                                 rune_animator **out, rune_error *err);
void rune_animator_destroy(rune_animator *anim);

/** The instruction set of the animator's sampling and mixing kernels
 * (default RUNE_SIMD_AUTO; see rune_simd_resolve). Tracks started earlier
 * keep their sampler's level. Every level gives results within 1e-6. */
void rune_animator_set_simd(rune_animator *anim, rune_simd_level level);

/** Starts a track; its handle (never 0, never reused) goes to *handle.
 * May allocate while the number of simultaneous tracks grows (warm-up). */
rune_status rune_animator_play(rune_animator *anim, const rune_binding *binding, const rune_play_params *params,
                               uint32_t *handle, rune_error *err);


/** Returns false when no live track has this handle. */
bool rune_animator_adjust(rune_animator *anim, uint32_t handle, const rune_adjust_params *params);
/** Requests a stop with a fade; false when no live track has this handle. */
bool rune_animator_stop(rune_animator *anim, uint32_t handle, float fade);
/** The live track with this handle, or NULL. */
const rune_track *rune_animator_track(const rune_animator *anim, uint32_t handle);
size_t rune_animator_track_count(const rune_animator *anim);

/** Adds or updates (same id) a control; fails as rune_control_check does
 * ("control ID: field: reason"). An updated control keeps its smoothed
 * goal, which moves on toward the new one over its smooth_time. May
 * allocate while the number of controls grows (warm-up). */
rune_status rune_animator_set_control(rune_animator *anim, const rune_control *control, rune_error *err);
/** Removes a control; false when absent. */
bool rune_animator_remove_control(rune_animator *anim, uint32_t id);
/** The state of a control on the animator's current pose; false when absent. */
bool rune_animator_control_state(const rune_animator *anim, uint32_t id, rune_control_state *out);

/** A new handle for another signal source (a graph instance), from the same
 * sequence as track handles. */
uint32_t rune_animator_new_source(rune_animator *anim);
/** The queue signals go to during this frame (graphs push theirs here). */
rune_signal_queue *rune_animator_signals(rune_animator *anim);
/** How many signals did not fit the queue since creation. */
size_t rune_animator_dropped_signals(const rune_animator *anim);

/** Advances every track by dt (tracks whose stop fade finished leave the
 * mixer and queue a `stopped` signal) and moves smoothed control goals. */
void rune_animator_advance(rune_animator *anim, float dt);
/** Samples the tracks, composes them with the `extra` contributions (graph
 * poses), applies the controls and writes the final pose. When nothing
 * contributes, one last pass resets the pose, then passes are skipped.
 * The same as rune_animator_compose then rune_animator_apply_controls. */
rune_status rune_animator_evaluate(rune_animator *anim, const rune_contribution *extra, size_t extra_count,
                                   rune_error *err);
/** Grows composition's scratch for the live tracks and `extra_count`
 * contributions (warm-up only: nothing once it has grown), so that a
 * compose of no more cannot fail. A caller that samples a contribution
 * into the animator's own pose (rune_animator_pose_edit) calls it first,
 * so that running out of memory leaves the last frame's pose. */
rune_status rune_animator_reserve(rune_animator *anim, size_t extra_count, rune_error *err);
/** The first half of evaluate: composition alone (a caller edits the
 * composed pose, e.g. removes root motion, before the controls run). */
rune_status rune_animator_compose(rune_animator *anim, const rune_contribution *extra, size_t extra_count,
                                  rune_error *err);
/** The second half: the controls, in priority order, on the pose. */
void rune_animator_apply_controls(rune_animator *anim);
/** Whether rune_animator_apply_controls would change the pose now (a
 * compose ran and some control is set). */
bool rune_animator_controls_owed(const rune_animator *anim);
/** Exchanges the animator's pose with `other`, a pose of the same joints
 * and curves (the channels trade places, not values): a keeper of past
 * poses takes the last frame's without a copy. The next compose writes
 * the pose even when nothing contributes. */
void rune_animator_swap_pose(rune_animator *anim, rune_pose *other);
/** The final motor transforms of the last evaluation. */
const rune_pose *rune_animator_pose(const rune_animator *anim);
/** The final pose for post-processing before signals are delivered (root
 * motion removal, for instance). */
rune_pose *rune_animator_pose_edit(rune_animator *anim);
/** Live track number i (0 <= i < slot count; NULL for a free slot), for
 * iterating: for (i = 0; i < rune_animator_slot_count(a); i++). */
const rune_track *rune_animator_slot(const rune_animator *anim, size_t i);
size_t rune_animator_slot_count(const rune_animator *anim);
/** How many composition passes have run (tests the final-pass rule). */
size_t rune_animator_passes(const rune_animator *anim);

/** Calls `fn` for each queued signal in order, then empties the queue. Call
 * it after evaluate: callbacks observe the newly composed pose. */
void rune_animator_deliver(rune_animator *anim, rune_signal_fn fn, void *user);

/** Stages of rune_animator_prefetch. */
#define RUNE_ANIMATOR_PREFETCH_STAGES (2 + RUNE_SAMPLE_CACHE_PREFETCH_STAGES)
/** Asks the CPU to start loading what the next advance and evaluate of
 * the animator touch, one level of pointers a stage: 0 the animator, 1 its
 * tracks, contributions and pose, 2 .. its playing tracks' samplers
 * (rune_sample_cache_prefetch's stages). A stage reads only what the stage
 * before it asked for: in a loop over many animators issue stage s for
 * the animator RUNE_ANIMATOR_PREFETCH_STAGES - s ahead (rune_batch does).
 * Without `pose` the pose is left out (its caller exchanges it before
 * the next compose: rune_animator_swap_pose). Changes nothing. */
void rune_animator_prefetch(const rune_animator *anim, int stage, bool pose);

#endif
