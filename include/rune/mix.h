/* rune/mix.h - per-joint priority composition, procedural controls, and the
 * animator: the per-rig object that owns playing tracks, controls and the
 * signal queue, and writes the final motor transforms each frame. */
#ifndef RUNE_MIX_H
#define RUNE_MIX_H

#include "rune/base.h"
#include "rune/rig.h"
#include "rune/play.h"
#include "rune/ik.h"
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
 * `out`'s float curves take the same rule, one value a curve (a rank's
 * mean by share, overlaid onto the lower result from 0 by the rank's
 * coverage; docs/semantics.md, "Float curves").
 * `order` (at least `count` entries) is scratch, so composing never
 * allocates. `out` may itself be the pose of contributions of the lowest
 * rank present (a sole contribution always is): each chunk of them is read
 * before the chunk is written, so a character with one graph composes it
 * in place instead of through a pose of its own. */
RUNE_API void rune_mix_compose(const rune_contribution *contributions, size_t count, rune_simd_level level, size_t *order,
                      rune_pose *out);

/** The weighted mean of contributions whatever their priority: each joint
 * takes sum(s t) / sum(s), the normalized sum of s q (each q sign-aligned
 * to the running sum) and coverage min(1, sum(s)), with
 * s = clamp(weight * coverage, 0, 1); joints nothing covers get identity
 * with coverage 0. The step blend spaces and cross-fades share with a
 * mixer rank, run by the same kernels; `out`'s float curves the same
 * mean (0 at coverage 0). */
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
 * Float curves follow the same steps without the mask (a mask weighs
 * joints): override straight by w = layer_weight x the curve's coverage,
 * additive v += w (v_layer - v_ref).
 * Runs over chunks of joints with the kernels of `level`, like
 * composition. */
RUNE_API void rune_mix_layer(rune_pose *out, const rune_pose *layer, const rune_pose *ref, const float *mask,
                    float layer_weight, rune_simd_level level);

/** rune_mix_layer of an override layer whose pose is the weighted mean of
 * `contributions` (rune_mix_mean's), without a pose for the mean: it runs
 * a chunk of joints at a time on the stack, so a crowd's steady layers
 * move no layer pose through memory. Same bits as rune_mix_mean into a
 * pose followed by rune_mix_layer(out, pose, NULL, mask, layer_weight). */
RUNE_API void rune_mix_layer_mean(rune_pose *out, const rune_contribution *contributions, size_t count,
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
RUNE_API void rune_mix_fade_layer(rune_pose *out, rune_pose *last, rune_fade_side a, rune_fade_side b, float alpha,
                                  const float *mask, float layer_weight, rune_simd_level level);

/** Whether no sample of a fade side carries scale: a side pose unscaled,
 * or no contribution's clip with scale keys (rune_clip_has_scale) and no
 * contribution pose scaled. */
RUNE_API bool rune_fade_side_unscaled(rune_fade_side side);

/** What rune_mix_layer gives for an override layer composed onto a reset
 * pose (rune_pose_reset), computed in place: `pose` holds the layer's pose
 * on entry and the composed pose on return. A joint of weight
 * w = clamp(layer_weight * mask[j] * coverage[j], 0, 1) above 0 keeps its
 * transform, with coverage w; the others return to the identity with
 * coverage 0; curves the same by layer_weight x their coverage. The same
 * bits as the reset and the overlay, in one pass over one pose (a graph's
 * first layer). */
RUNE_API void rune_mix_layer_onto_reset(rune_pose *pose, const float *mask, float layer_weight);

/** Overlays one weighted mean onto a pose joint, the step of composition
 * for one rank: nothing at coverage 0, a copy at 1, otherwise translation
 * lerp, rotation slerp, coverage c + coverage (1 - c). For per-joint
 * callers; rune_mix_compose runs the same rule over chunks. */
RUNE_API void rune_mix_overlay_joint(rune_pose *pose, size_t joint, rune_vec3 t, rune_quat r, float coverage);

typedef enum rune_control_mode {
    RUNE_CONTROL_OVERRIDE = 0, /**< blend the joint toward the control's transform */
    RUNE_CONTROL_OFFSET,       /**< apply the control's transform on top (local frame) */
    RUNE_CONTROL_TWO_BONE,     /**< two-bone IK: joint (end), its parent and grandparent reach `target` */
    RUNE_CONTROL_AIM,          /**< the joint's `forward` axis looks at `target` */
    RUNE_CONTROL_CHAIN,        /**< chain IK (FABRIK) from `root` to joint reaches `target` */
    RUNE_CONTROL_POSITION,     /**< Roblox's Position: a chain's end at `target` (two-bone by default) */
    RUNE_CONTROL_ROTATION,     /**< Roblox's Rotation: the joint's model rotation becomes `target_r` */
    RUNE_CONTROL_TRANSFORM,    /**< Roblox's Transform: position and rotation */
    RUNE_CONTROL_MODE_COUNT
} rune_control_mode;

/** A procedural control: modifies the composed pose after mixing (and after
 * root motion is removed, so targets are in the character's space).
 * Controls run in ascending priority (ties in creation order), each on the
 * result of those before it.
 * - override / offset (one joint, local): with weight w in [0, 1],
 *   override sets t = lerp(t, ct, w) and r = slerp(r, cr, w) for the
 *   channels it drives; offset sets r = r * slerp(identity, cr, w) and
 *   t = t + w ct.
 * - solvers (two_bone .. transform; rune/ik.h): goals in model space (the
 *   space of rune_rig_model_matrices); each joint the control moves gets
 *   local rotation slerp(input, solved, w), translations never change, so
 *   bone lengths do not. A position/transform control without `root` (-1)
 *   or with the grandparent as root is the two-bone solver; with another
 *   ancestor, the chain solver.
 * Every joint a control moves has its coverage raised to c + w (1 - c).
 * Definitions with worked examples: docs/semantics.md ("Procedural
 * controls"). Start a solver control from rune_control_defaults. */
typedef struct rune_control {
    uint32_t id;  /**< caller's key: setting an existing id updates it */
    int32_t joint; /**< the joint it drives; solvers: the end effector (aim: the joint that turns) */
    int priority;
    rune_control_mode mode;
    rune_xform xform;
    float weight;
    bool drive_t; /**< override: blend translation (else left as composed) */
    bool drive_r; /**< override: blend rotation (else left as composed) */
    /* solvers */
    rune_vec3 target;     /**< the effector's goal (aim: the point to look at), model space */
    rune_quat target_r;   /**< with has_target_r: the effector's model rotation (rotation, transform: always) */
    bool has_target_r;
    rune_vec3 pole;       /**< two_bone, position, transform: with has_pole, a model point the middle joint
                               bends toward; aim: the model direction `up` approaches (0 1 0 without has_pole) */
    bool has_pole;
    int32_t root;         /**< chain: an ancestor of joint (the joint that stays put); position, transform: -1
                               for the two-bone chain, or an ancestor */
    float soften;         /**< two_bone: 0..1, fraction of the reach past which it is softened; 1: none */
    float twist;          /**< two_bone: radians about the root-to-target axis */
    rune_vec3 forward;    /**< aim: local axis pointed at the target (default 0 0 1) */
    rune_vec3 up;         /**< aim: local axis kept toward the pole (default 0 1 0) */
    rune_vec3 offset;     /**< aim: local point the aimed ray starts from (default 0 0 0) */
    float limit;          /**< aim: most radians to turn from the input; < 0: no limit (default) */
    uint32_t iterations;  /**< chain: most passes (default 16) */
    float tolerance;      /**< chain: stop within this fraction of the chain's length (default 1e-4) */
    float smooth_time;    /**< seconds: target and target_r approach new values by a critically damped spring
                               (rune_ik_spring); 0: at once */
} rune_control;

/** A control of `mode` with every default: weight 1, identity xform,
 * root -1, soften 1, forward 0 0 1, up 0 1 0, pole 0 1 0, limit -1,
 * iterations 16, tolerance 1e-4; the rest zero. */
RUNE_API rune_control rune_control_defaults(rune_control_mode mode);
/** "override", "offset", "two_bone", "aim", "chain", "position",
 * "rotation", "transform"; NULL outside the enum. */
RUNE_API const char *rune_control_mode_name(rune_control_mode mode);
/** The mode of a name (and "look_at" for aim, as Roblox calls it); -1. */
RUNE_API int rune_control_mode_from_name(const char *name);

/** Checks a control against a rig: a joint in the rig; a two-bone chain
 * (joint, its parent, its grandparent) with no bone of zero length at
 * rest; a root that is an ancestor of the joint, at most
 * RUNE_IK_MAX_CHAIN joints up; finite numbers within RUNE_MAX_MAGNITUDE;
 * weight, soften and tolerance in range; forward and up not zero nor
 * parallel; iterations 1..1000; smooth_time 0..1e6. Messages start with
 * the offending field ("root: Hips is not an ancestor of Torso/Neck"). */
RUNE_API rune_status rune_control_check(const rune_rig *rig, const rune_control *control, rune_error *err);

/** Bytes of scratch rune_controls_apply needs for a rig's solver
 * controls (frames along a joint's path to the root, chain positions). */
RUNE_API size_t rune_controls_scratch_bytes(const rune_rig *rig);

/** Applies controls in priority order to `pose` (a pose of `rig`).
 * `order` is scratch of at least `count` entries, `scratch` of
 * rune_controls_scratch_bytes(rig) bytes (aligned as a pointer); without
 * a rig or scratch only override and offset controls run. Controls are
 * taken as checked (rune_control_check). Allocates nothing. */
RUNE_API void rune_controls_apply(const rune_rig *rig, const rune_control *controls, size_t count, size_t *order,
                                  void *scratch, rune_pose *pose);

/** Where a control stands on a pose: its goal and how far its effector is
 * from it. */
typedef struct rune_control_state {
    rune_vec3 target;   /**< the goal now (smoothed: what the solver aimed at) */
    rune_quat target_r;
    rune_vec3 effector; /**< the effector's model position (aim: the joint's) */
    rune_vec3 pole;     /**< the pole given (model space), or the aim's up */
    bool has_pole;      /**< a pole was given (aim: always, its up) */
    float error;        /**< position solvers: distance effector-target (model units); aim: radians between the
                             aimed ray and the target; rotation: radians between the effector's model rotation
                             and target_r; override, offset: 0 */
} rune_control_state;

/** Measures a control on a pose (its goal as the control holds it). */
RUNE_API void rune_control_measure(const rune_rig *rig, const rune_pose *pose, const rune_control *control,
                                   void *scratch, rune_control_state *out);

typedef struct rune_animator rune_animator;

/** Creates an animator for a rig's current layout. `signal_capacity` bounds
 * the signals one frame can queue (0: 256). The rig must outlive the
 * animator: solver controls read its hierarchy and frames each frame. */
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

/** Adds or updates (same id) a control; fails as rune_control_check does
 * ("control ID: field: reason"). An updated control keeps its smoothed
 * goal, which moves on toward the new one over its smooth_time. May
 * allocate while the number of controls grows (warm-up). */
RUNE_API rune_status rune_animator_set_control(rune_animator *anim, const rune_control *control, rune_error *err);
/** Removes a control; false when absent. */
RUNE_API bool rune_animator_remove_control(rune_animator *anim, uint32_t id);
/** The state of a control on the animator's current pose; false when absent. */
RUNE_API bool rune_animator_control_state(const rune_animator *anim, uint32_t id, rune_control_state *out);

/** A new handle for another signal source (a graph instance), from the same
 * sequence as track handles. */
RUNE_API uint32_t rune_animator_new_source(rune_animator *anim);
/** The queue signals go to during this frame (graphs push theirs here). */
RUNE_API rune_signal_queue *rune_animator_signals(rune_animator *anim);
/** How many signals did not fit the queue since creation. */
RUNE_API size_t rune_animator_dropped_signals(const rune_animator *anim);

/** Advances every track by dt (tracks whose stop fade finished leave the
 * mixer and queue a `stopped` signal) and moves smoothed control goals. */
RUNE_API void rune_animator_advance(rune_animator *anim, float dt);
/** Samples the tracks, composes them with the `extra` contributions (graph
 * poses), applies the controls and writes the final pose. When nothing
 * contributes, one last pass resets the pose, then passes are skipped.
 * The same as rune_animator_compose then rune_animator_apply_controls. */
RUNE_API rune_status rune_animator_evaluate(rune_animator *anim, const rune_contribution *extra, size_t extra_count,
                                   rune_error *err);
/** Grows composition's scratch for the live tracks and `extra_count`
 * contributions (warm-up only: nothing once it has grown), so that a
 * compose of no more cannot fail. A caller that samples a contribution
 * into the animator's own pose (rune_animator_pose_edit) calls it first,
 * so that running out of memory leaves the last frame's pose. */
RUNE_API rune_status rune_animator_reserve(rune_animator *anim, size_t extra_count, rune_error *err);
/** The first half of evaluate: composition alone (a caller edits the
 * composed pose, e.g. removes root motion, before the controls run). */
RUNE_API rune_status rune_animator_compose(rune_animator *anim, const rune_contribution *extra, size_t extra_count,
                                  rune_error *err);
/** The second half: the controls, in priority order, on the pose. */
RUNE_API void rune_animator_apply_controls(rune_animator *anim);
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

/** Stages of rune_animator_prefetch. */
#define RUNE_ANIMATOR_PREFETCH_STAGES (2 + RUNE_SAMPLE_CACHE_PREFETCH_STAGES)
/** Asks the CPU to start loading what the next advance and evaluate of
 * the animator touch, one level of pointers a stage: 0 the animator, 1 its
 * tracks, contributions and pose, 2 .. its playing tracks' samplers
 * (rune_sample_cache_prefetch's stages). A stage reads only what the stage
 * before it asked for: in a loop over many animators issue stage s for
 * the animator RUNE_ANIMATOR_PREFETCH_STAGES - s ahead (rune_batch does).
 * Changes nothing. */
RUNE_API void rune_animator_prefetch(const rune_animator *anim, int stage);

RUNE_END_DECLS

#endif
