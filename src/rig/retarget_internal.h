/* What the retarget files share: the mapping (retarget_map.c), the
 * retarget pose of a humanoid rig (retarget_pose.c) and the retargeted
 * clip a binding builds (retarget_bake.c), feet held where the source's
 * are planted (retarget_feet.c). */
#ifndef RUNE_SRC_RIG_RETARGET_INTERNAL_H
#define RUNE_SRC_RIG_RETARGET_INTERNAL_H

#include "rune/rig.h"
#include "humanoid_internal.h"

/* A humanoid rig in its retarget pose. Heights are along the rig's up. */
typedef struct retarget_stance {
    rune_quat *rot;      /* every joint's model rotation in the pose */
    float legs;          /* the hips above the ankles: the legs' length, the travel ratio's measure */
    bool standing;       /* at rest the rig stands on its feet (a character), else it is a motion-capture
                            skeleton, its hips at the origin at rest */
    float floor;         /* the height of the floor: the rest soles when standing, else 0 */
    float level;         /* the ankles' height when standing on it: floor + the ankles over the soles at rest */
    rune_vec3 rest_hips; /* the hips at rest, model space */
    float foot_reach;    /* how far from the ankle a joint of the foot may be (RETARGET_FOOT_REACH) */
} retarget_stance;

/* A foot's joints lie within this share of the hips-to-ankle distance
 * at rest of the ankle; farther joints below it (end bones exporters
 * leave metres long) are not the sole. */
#define RETARGET_FOOT_REACH 0.5f

/* Puts a humanoid rig in its retarget pose: out->rot has room for every
 * joint (docs/semantics.md, "Retargeting"). */
rune_status rune__retarget_pose(const rune_rig *rig, const rune_humanoid *h, const rune_allocator *alloc,
                                retarget_stance *out, rune_error *err);

/* The lowest point of a foot along up, given model matrices: the joint
 * and the joints below it within `reach` of it (exporters leave end
 * bones metres long). */
float rune__retarget_sole(const rune_rig *rig, const rune_mat4 *mats, int32_t foot, rune_vec3 up, float reach);

/* What a mapping of two humanoids adds: their profiles, the turn from
 * the source's frame to the target's, their floors and ankle levels, and
 * the legs the feet are held with. */
typedef struct retarget_humanoid {
    rune_humanoid source, target;
    rune_quat change;       /* source frame (left, up, forward) -> target frame */
    float source_level;     /* the source's ankles standing (from its rest; a clip may tell better) */
    float target_level, target_floor;
    float source_legs;      /* the source's hips above its ankles, legs straight */
    bool calibrate;         /* the source's ground is read from each clip: a motion-capture skeleton onto a
                               standing character */
    rune_vec3 source_hips0; /* the source's hips at rest: their horizontal is the origin of travel */
    rune_vec3 target_hips0; /* the target's */
    rune_quat target_hips_pose; /* the target hips' model rotation in its retarget pose */
    bool target_standing;
    float target_foot_reach;
    uint8_t *body;          /* per target joint: kept above the floor by lifting the hips (not the legs,
                               not bones longer than half the legs nor what hangs from them) */
    bool foot_ik;
} retarget_humanoid;

struct rune_retarget {
    rune_allocator alloc;
    uint32_t id;
    rune_rig *source;          /* a copy of the source rig: bindings and FK */
    size_t ns, nt;             /* joints of source and target */
    uint64_t target_layout;    /* the target's joint signature (rune__rig_joint_signature) */
    int32_t *source_of;        /* per target joint: its source joint, or -1 */
    uint8_t *how;              /* per target joint: rune_retarget_match */
    int32_t *target_of;        /* per source joint: the target joint it drives, or -1 */
    size_t mapped;
    rune_quat *offset;         /* per target joint: source pose model^-1 * change^-1 * target pose model, the
                                  poses the retarget poses of humanoids, else the rests (change: identity) */
    int32_t top;               /* the mapped target joint that takes the travel (hips), or -1 */
    float scale;               /* target hip height / source hip height */
    bool humanoid;             /* both rigs are humanoids: `hum` holds them */
    retarget_humanoid hum;
    rune_vec3 source_rest;     /* the top's source joint at rest, model space */
    rune_vec3 target_rest;     /* the top joint at rest, model space */
    rune_vec3 parent_origin;   /* the top's parent at rest: its model position */
    float parent_inverse[9];   /* and the inverse of its model linear part (column-major) */
};

/* Where the target holds a source model point (humanoids): its height
 * above `level` (where the source's ankles are when it stands) and its
 * horizontal travel from the source's hips at rest, scaled and turned
 * into the target's frame, above the target's ankle level and from its
 * hips at rest. A source standing with its ankles at `level` stands the
 * target on its floor. */
rune_vec3 rune__retarget_point(const rune_retarget *rt, rune_vec3 p, float level);

/* The top joint's local translation, given the source's model matrices:
 * where the source's top joint is held (humanoids: rune__retarget_point,
 * raised `lift` along up; else its travel from rest, scaled, from the
 * top's rest), back through
 * the top's parent at rest and its frame; saturated at
 * +-RUNE_MAX_MAGNITUDE (a source key of 1e18 on a rig half as tall would
 * go past it). */
rune_vec3 rune__retarget_top(const rune_retarget *rt, const rune_rig *target, const rune_mat4 *source_mats,
                             float level, float lift);

/* Planted feet (retarget_feet.c). Over a clip's key times (sorted),
 * with both source ankles' model positions at each (`ankles`: left,
 * right): when the mapping calibrates, *level becomes where the source's
 * ankles are when it stands -- the median height of the ankles while
 * they move slower than RETARGET_PLANT_SPEED x the legs a second (kept
 * when none does); `hold` (2 x count) gets how much each foot is planted,
 * 0..1: 1 while its ankle is that slow and within RETARGET_PLANT_HEIGHT x
 * the legs of the level, falling to 0 over RETARGET_PLANT_RAMP seconds
 * either side. */
#define RETARGET_PLANT_HEIGHT 0.1f
#define RETARGET_PLANT_SPEED 0.25f
#define RETARGET_PLANT_RAMP 0.1f
rune_status rune__retarget_contacts(const rune_retarget *rt, const float *times, const rune_vec3 *ankles,
                                    size_t count, const rune_allocator *alloc, float *level, float *hold);

/* The target on its floor: given every target joint's model rotation
 * (tm, from the mapping) and the source's model matrices, a standing
 * target's hips are lifted (*lift, along up) until no joint of its body
 * (retarget_humanoid.body) is below the floor -- a body lying on the
 * floor whose arms are longer than the source's would put its hands
 * through it -- and each leg's thigh and shin are turned by two-bone IK
 * so that its ankle moves `hold[side]` of the way to where the source's
 * ankle is held (rune__retarget_point) and, a standing target's, so that
 * no joint of the foot goes below the floor; the foot keeps its model
 * rotation. `pose` and `mats` are scratch for the target. */
void rune__retarget_ground(const rune_retarget *rt, const rune_rig *target, const rune_mat4 *source_mats,
                           float level, const float hold[2], rune_quat *tm, rune_pose *pose, rune_mat4 *mats,
                           float *lift);

/* The clip retargeted onto `target` (a rig of the mapping's target
 * layout): a clip of its own, whose tracks drive target joints. */
rune_status rune__retarget_bake(const rune_retarget *rt, const rune_rig *target, const rune_clip *clip,
                                const rune_allocator *alloc, rune_clip **out, rune_error *err);

#endif
