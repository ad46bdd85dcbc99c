/* What the rig stage's files share beyond the public header: the rest
 * frames in structure-of-arrays form, kept beside the rig's own arrays so
 * the matrix kernels read them in place. */
#ifndef RUNE_SRC_RIG_INTERNAL_H
#define RUNE_SRC_RIG_INTERNAL_H

#include "rune/rig.h"

/* Rest frames as channels (translation, rotation, scale), padded to
 * RUNE_POSE_LANES lanes with identity. Valid until the rig changes.
 * `scaled`: some joint's rest scale is not 1 1 1. */
typedef struct rig_frame_lanes {
    const float *tx, *ty, *tz, *qx, *qy, *qz, *qw, *sx, *sy, *sz;
    bool scaled;
} rig_frame_lanes;

rig_frame_lanes rune__rig_frame_lanes(const rune_rig *rig);

#endif
