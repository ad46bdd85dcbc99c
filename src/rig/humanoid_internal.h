/* The humanoid profile of a rig (humanoid.c): which joint is the hips,
 * the spine, the head, each arm's and leg's bones, found from the
 * hierarchy and the rest pose (two mirrored chains down from the hips,
 * two from the upper spine, the head's chain going on up) with names to
 * tell left from right and to confirm; and the rig's own frame (up from
 * the feet to the head, left from the right thigh to the left, forward
 * their cross product). Retargeting maps profile bone to profile bone
 * and puts both rigs in one stance (retarget_pose.c). Load-time code. */
#ifndef RUNE_SRC_RIG_HUMANOID_INTERNAL_H
#define RUNE_SRC_RIG_HUMANOID_INTERNAL_H

#include "rune/rig.h"

/* The profile's bones; a side's bones are LEFT_x, and RIGHT_x = LEFT_x + 1. */
typedef enum humanoid_bone {
    HB_HIPS = 0,
    HB_SPINE,
    HB_CHEST,
    HB_NECK,
    HB_HEAD,
    HB_CLAVICLE_L, HB_CLAVICLE_R,
    HB_UPPER_ARM_L, HB_UPPER_ARM_R,
    HB_FOREARM_L, HB_FOREARM_R,
    HB_HAND_L, HB_HAND_R,
    HB_THIGH_L, HB_THIGH_R,
    HB_SHIN_L, HB_SHIN_R,
    HB_FOOT_L, HB_FOOT_R,
    HB_TOES_L, HB_TOES_R,
    HB_COUNT
} humanoid_bone;

/* Joints between the spine and the chest, at most. */
#define HUMANOID_MAX_SPINE 8

typedef struct rune_humanoid {
    int32_t bone[HB_COUNT]; /* joint of each bone, -1 when the rig has none */
    int32_t spine[HUMANOID_MAX_SPINE]; /* SPINE .. the joint below CHEST, in order */
    size_t spine_count;
    size_t found;     /* bones found */
    size_t confirmed; /* of those, how many names agree */
    rune_vec3 up, left, forward; /* the rig's frame at rest, unit vectors in model space */
} rune_humanoid;

/* Finds the profile in a rig whose rest model positions are `rest`
 * (rune_rig_model_matrices of an identity pose): *found false when the
 * rig has no two mirrored legs above two mirrored arms -- not a humanoid
 * (h is then all -1). RUNE_E_NOMEM when `alloc` fails. */
rune_status rune__humanoid_find(const rune_rig *rig, const rune_mat4 *rest, const rune_allocator *alloc,
                                rune_humanoid *h, bool *found);

/* The profile's name of a bone ("hips", "left_upper_arm", ...). */
const char *rune__humanoid_bone_name(humanoid_bone bone);

#endif
