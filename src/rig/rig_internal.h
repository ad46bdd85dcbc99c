/* What the rig stage's files share beyond the public header: the rest
 * frames in structure-of-arrays form, kept beside the rig's own arrays so
 * the matrix kernels read them in place. */
#ifndef RUNE_SRC_RIG_INTERNAL_H
#define RUNE_SRC_RIG_INTERNAL_H

#include "rune/rig.h"

/* Rest frames as channels (translation, rotation, scale), padded to
 * RUNE_POSE_LANES lanes with identity; the rig keeps this view with them.
 * Valid until the rig changes.
 * `rot`: each frame rotation's 3x3 matrix, element (row r, column c) in
 * rot[c * 3 + r], so the matrix kernel moves a pose's translation into
 * the frame with 9 products instead of a quaternion rotation.
 * `scaled`: some joint's rest scale is not 1 1 1. */
typedef struct rig_frame_lanes {
    const float *tx, *ty, *tz, *qx, *qy, *qz, *qw, *sx, *sy, *sz;
    const float *rot[9];
    bool scaled;
} rig_frame_lanes;

const rig_frame_lanes *rune__rig_frame_lanes(const rune_rig *rig);

/* Grows a box by a pose's joints in model space (m: room for the joints'
 * matrices); the largest side of a box (0 when empty or not finite).
 * Exported for the compressor (rune_compress), which measures the box a
 * clip sweeps. */
RUNE_API void rune__rig_grow_box(const rune_rig *rig, const rune_pose *pose, rune_mat4 *m, float lo[3], float hi[3]);
RUNE_API float rune__rig_box_height(const float lo[3], const float hi[3]);

/* The layout signature of the joints alone (curves left out): what a
 * retarget mapping's target must keep. */
uint64_t rune__rig_joint_signature(const rune_rig *rig);

/* The joint whose parent's part and own part are these ((parent part,
 * part) pairs are unique in a rig; "" for a root's parent), or -1. */
int32_t rune__rig_find_pair(const rune_rig *rig, const char *parent_part, const char *part);
/* rune_rig_find_joint, its messages naming the rig as `rig_words` ("the
 * source rig"). */
rune_status rune__rig_find_in(const rune_rig *rig, const char *name, const char *rig_words, int32_t *joint,
                              rune_error *err);
/* The first joint named `part` and (*count) how many are; -1 when none. */
int32_t rune__rig_find_part(const rune_rig *rig, const char *part, uint32_t *count);

/* A binding of `clip` (sampled) made from `source`, owning `owned` (the
 * retargeted copy, or NULL; freed also on failure), `retarget_id` its
 * mapping's id or 0 (clip_binding.c). */
rune_status rune__binding_make(const rune_rig *rig, const rune_clip *clip, const rune_clip *source, rune_clip *owned,
                               uint32_t retarget_id, const rune_allocator *alloc, rune_binding **out, rune_error *err);

#endif
