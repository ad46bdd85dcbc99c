/* rune/ik.h - the solvers procedural controls run after mixing
 * (rune/mix.h): two-bone IK, aim (look-at) and chain IK (FABRIK), and the
 * critically damped spring that smooths their goals. They work on
 * model-space positions and rotations a caller gathered from a pose, and
 * answer with model-space rotations; nothing here allocates, fails or
 * reads a rig, so an engine can run them on its own data, as it would
 * ozz-animation's IKTwoBoneJob and IKAimJob. Each solver is defined, with
 * a worked example, in docs/semantics.md ("Procedural controls"). The
 * arithmetic is in double precision; every output is finite for finite
 * input, whatever the geometry (a target on the root, a pole on the
 * chain's line, zero-length bones: documented fallbacks, never NaN). */
#ifndef RUNE_IK_H
#define RUNE_IK_H

#include "rune/base.h"
#include "rune/math.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** A two-bone chain (root, mid, end: hip, knee, ankle) and its goal. */
typedef struct rune_ik_two_bone_job {
    rune_vec3 root, mid, end;  /**< the chain's model positions */
    rune_quat mid_rotation;    /**< the mid joint's model rotation: its local X axis is the hinge of a straight chain */
    rune_vec3 target;          /**< where the end should be */
    rune_vec3 pole;            /**< with has_pole: a model point the mid joint bends toward */
    bool has_pole;             /**< false: the chain keeps its current bending plane */
    float soften;              /**< 0..1, the fraction of the chain's length past which reach is softened; 1: none */
    float twist;               /**< radians about the root-to-target axis, after the pole */
} rune_ik_two_bone_job;

typedef struct rune_ik_two_bone_result {
    rune_quat root_delta; /**< model-space rotation about `root`, moving the whole chain */
    rune_quat mid_delta;  /**< model-space rotation about `mid` in the input pose's frame: it bends the lower bone
                               before root_delta moves both (so the mid's new model rotation is
                               root_delta * mid_delta * mid_rotation) */
    rune_vec3 end;        /**< where the end lands */
    bool reached;         /**< the end lands on the target (within 1e-5 of the chain's length) */
} rune_ik_two_bone_result;

/** Solves a two-bone chain: the mid joint bends about its hinge (the
 * normal of the root-mid-end plane) until the chain spans the distance to
 * the target, then the root turns the chain onto the target and about
 * the root-to-target axis until the mid joint lies toward the pole (or in
 * the plane closest to the one it was in), then by `twist`. Bone lengths
 * never change. A target out of reach is pointed at with the chain fully
 * extended (or folded, when closer than the bones' difference); with
 * soften < 1 the reach past soften x length approaches full extension
 * exponentially (docs/semantics.md). */
RUNE_API void rune_ik_two_bone(const rune_ik_two_bone_job *job, rune_ik_two_bone_result *out);

/** One joint turned to look at a target. */
typedef struct rune_ik_aim_job {
    rune_vec3 position;  /**< the joint's model position */
    rune_quat rotation;  /**< its model rotation */
    float scale;         /**< its model scale (uniform), for `offset` */
    rune_vec3 forward;   /**< local axis to point at the target (unit length not required; not zero) */
    rune_vec3 up;        /**< local axis kept as close as possible to `pole` (not parallel to forward) */
    rune_vec3 offset;    /**< local point the aim starts from (the eyes on a head joint); 0 0 0: the joint */
    rune_vec3 target;    /**< model point to look at */
    rune_vec3 pole;      /**< model direction `up` should approach (0 1 0: world up) */
    float limit;         /**< at most this many radians from the input rotation; < 0: no limit */
} rune_ik_aim_job;

typedef struct rune_ik_aim_result {
    rune_quat delta;  /**< model-space rotation about the joint: new rotation = delta * rotation */
    bool limited;     /**< `limit` cut the turn short */
} rune_ik_aim_result;

/** Turns a joint so that the ray from `offset` along `forward` passes
 * through the target, with `up` as close to `pole` as that allows. A
 * target on the joint turns nothing; one inside the offset (closer than
 * the offset's distance from the forward axis) is aimed at from the
 * joint's origin instead; a pole along the aim keeps the joint's current
 * up. */
RUNE_API void rune_ik_aim(const rune_ik_aim_job *job, rune_ik_aim_result *out);

/** Most joints a chain may have (root and end included). */
#define RUNE_IK_MAX_CHAIN 64

/** A chain of joints (root first) and its goal. */
typedef struct rune_ik_chain_job {
    rune_vec3 *positions;  /**< model positions root..end, solved in place */
    size_t count;          /**< 2 .. RUNE_IK_MAX_CHAIN (others are left as they are) */
    rune_vec3 target;      /**< where the end should be */
    uint32_t iterations;   /**< most forward-and-back passes (0: 16) */
    float tolerance;       /**< stop when the end is this close (model units; <= 0: 1e-4 of the chain length) */
} rune_ik_chain_job;

typedef struct rune_ik_chain_result {
    uint32_t iterations; /**< passes run */
    float distance;      /**< end to target after solving */
    bool reached;        /**< distance <= tolerance */
} rune_ik_chain_result;

/** FABRIK: moves the end onto the target and each joint back onto its
 * bone's length from the next, then the root back in place and each joint
 * onto its length from the one before, until the end is within
 * `tolerance` or the passes run out. The root never moves, bone lengths
 * are kept; a target beyond the chain's length is pointed at with the
 * chain straight. Zero-length bones keep their direction. */
RUNE_API void rune_ik_chain(const rune_ik_chain_job *job, rune_ik_chain_result *out);

/** Rotations that take each bone of a chain from `before` to `after`
 * positions (count joints, root first): out[i] is the model-space
 * rotation of joint i (new model rotation = out[i] * old), the shortest
 * arc from the bone's direction after its parent turned to its new one,
 * so bones do not roll. out[count - 1] (the end) follows its parent. */
RUNE_API void rune_ik_chain_rotations(const rune_vec3 *before, const rune_vec3 *after, size_t count, rune_quat *out);

/** Steps `n` values toward `goal` by dt seconds with a critically damped
 * spring of `smooth_time` (omega = 2 / smooth_time, as Unity's
 * SmoothDamp): the exact solution for a goal held over dt, so the path
 * does not depend on how time is cut into frames. smooth_time <= 0 (or
 * not finite) jumps to the goal with velocity 0. Values saturate at
 * +-RUNE_MAX_MAGNITUDE and velocities at +-FLT_MAX, so a goal that jumps
 * far in a tiny step stays finite (a velocity, not a NaN, carries it). */
RUNE_API void rune_ik_spring(float *value, float *velocity, const float *goal, size_t n, float smooth_time, float dt);

RUNE_END_DECLS

#endif
