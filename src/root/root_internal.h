/* Root-motion extraction as the character runs it: travel of a clip's or
 * a motion's root track over an interval, its conversion into model
 * space, and its removal from the pose; a memo of root samples kept from
 * frame to frame. */
#ifndef RUNE_SRC_ROOT_INTERNAL_H
#define RUNE_SRC_ROOT_INTERNAL_H

#include "rune/root.h"
#include "rune/rig.h"
#include "../blend/blend_internal.h"

/** Travel in the root joint's local (motor) space. */
typedef struct rune_root_travel {
    rune_vec3 t;
    float yaw; /**< twist about the local axis that is model +Y */
} rune_root_travel;

/** The root's local axis that points along model +Y (frame⁻¹ · Y). */
rune_vec3 rune_root_up_axis(rune_xform root_frame);

/** Root-track samples a caller keeps from frame to frame (one per
 * character), so that a play's root track is sampled once a frame instead
 * of twice -- the start of a frame's interval is the end of the last
 * one's, and the key found for it starts the search for the end -- and a
 * looping clip's whole-cycle travel and turn once instead of at every loop
 * crossing. Zero it (or rune_root_memo_reset) before first use. Entries
 * are keyed by the compiled clip's serial, the track and the time, so a
 * recompiled clip never reads another's entries; they hold one up axis (a
 * call with another empties the memo first). The results are the same
 * bits as without a memo. Holds no pointers. */
#define RUNE_ROOT_MEMO_SAMPLES 8
#define RUNE_ROOT_MEMO_CYCLES 4
typedef struct rune_root_memo {
    rune_vec3 up;                     /**< the up axis the entries were taken about */
    uint32_t next_sample, next_cycle; /**< the entries replaced next */
    struct rune_root_memo_sample { /* 40 bytes: no padding */
        uint64_t serial; /**< 0: empty */
        double yaw;
        rune_vec3 t;
        int32_t track;
        float time;
        uint32_t key; /**< the key its segment starts at (rune_clip_sample_transform_near) */
    } sample[RUNE_ROOT_MEMO_SAMPLES];
    struct rune_root_memo_cycle {
        uint64_t serial; /**< 0: empty */
        int32_t track;
        rune_vec3 start, end; /**< the track's translation at 0 and at the clip's length */
        double yaw;           /**< its unwrapped turn over one cycle */
    } cycle[RUNE_ROOT_MEMO_CYCLES];
} rune_root_memo;

/** Empties a memo. */
void rune_root_memo_reset(rune_root_memo *memo);

/** Travel of the root track of a bound clip from unwrapped clip time
 * `from` to `to`. For a looping clip each crossed boundary adds one whole
 * cycle's travel (end minus start), so a forward loop crossing counts the
 * way to the end, the whole cycles between, and the way from the start; a
 * nonlooping clip clamps both times. Zero when the clip has no root track. */
rune_root_travel rune_root_clip_travel(const rune_binding *binding, int32_t root_joint, rune_vec3 up, double from,
                                       double to);
/** The same, reading and filling `memo` (NULL: none). */
rune_root_travel rune_root_clip_travel_memo(const rune_binding *binding, int32_t root_joint, rune_vec3 up,
                                                     double from, double to, rune_root_memo *memo);

/** Adds `weight` x the weighted travel of a motion play's leaves as its
 * progress moved from `from` to `to`; `memo` as above (NULL: none). */
void rune_root_motion_travel(const rune_motion_player *player, int32_t root_joint, rune_vec3 up, double from,
                             double to, float weight, rune_root_memo *memo, rune_root_travel *acc);

/** Local travel -> the reported model-space delta, through the frame's
 * rotation only (rune_root_rig_to_model is the rig's full rest space). */
rune_root_delta rune_root_to_model(rune_xform root_frame, rune_root_travel travel);

/** The rotation of a joint's pose space in the model at rest: its
 * ancestors' frame rotations and its own, composed (root first). The
 * root joint's up axis is rune_root_up_axis of a frame with this
 * rotation. */
rune_quat rune_root_rest_rotation(const rune_rig *rig, int32_t root_joint);

/** Local travel -> the reported model-space delta in the units of model
 * positions: the travel goes through the joint's frame rotation and rest
 * scale, then each ancestor's (its rest model transform's linear part:
 * v <- frame.r (scale * v), joint first), so a root whose rest frame
 * holds the 0.01 scale of a centimetre rig reports metres. Yaw is the
 * travel's. Zero for a joint outside the rig or a non-finite result. */
rune_root_delta rune_root_rig_to_model(const rune_rig *rig, int32_t root_joint, rune_root_travel travel);

/** Removes the horizontal translation and the yaw twist (about the model
 * up axis) from the root joint of an evaluated pose, keeping its vertical
 * translation and its swing: r becomes twist⁻¹ · r. */
void rune_root_strip(rune_pose *pose, int32_t root_joint, rune_xform root_frame);

#endif
