/* What the retarget files share: the mapping (retarget_map.c) and the
 * retargeted clip it builds for a binding (retarget_bake.c). */
#ifndef RUNE_SRC_RIG_RETARGET_INTERNAL_H
#define RUNE_SRC_RIG_RETARGET_INTERNAL_H

#include "rune/rig.h"

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
    rune_quat *offset;         /* per target joint: source rest model^-1 * target rest model */
    int32_t top;               /* the mapped target joint that takes the travel (hips), or -1 */
    float scale;               /* target hip height / source hip height */
    rune_vec3 source_rest;     /* the top's source joint at rest, model space */
    rune_vec3 target_rest;     /* the top joint at rest, model space */
    rune_vec3 parent_origin;   /* the top's parent at rest: its model position */
    float parent_inverse[9];   /* and the inverse of its model linear part (column-major) */
};

/* The clip retargeted onto `target` (a rig of the mapping's target
 * layout): a clip of its own, whose tracks drive target joints. */
rune_status rune__retarget_bake(const rune_retarget *rt, const rune_rig *target, const rune_clip *clip,
                                const rune_allocator *alloc, rune_clip **out, rune_error *err);

#endif
