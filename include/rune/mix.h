/* rune/mix.h - procedural controls: what a character applies to its
 * composed pose each frame (rune_character_set_control), their defaults,
 * names and checks. */
#ifndef RUNE_MIX_H
#define RUNE_MIX_H

#include "rune/base.h"
#include "rune/rig.h"
#include "rune/play.h"
#include "rune/ik.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

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

RUNE_END_DECLS

#endif
