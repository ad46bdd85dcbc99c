/* What the control files share: model frames along a joint's path from
 * its root (control_frames.c), and the solvers' application to a pose
 * (control_solve.c), called by the priority loop (procedural_control.c). */
#ifndef RUNE_SRC_MIX_CONTROL_INTERNAL_H
#define RUNE_SRC_MIX_CONTROL_INTERNAL_H

#include "rune/mix.h"

/* A joint's model transform: position, rotation, and, when the rig or
 * pose is scaled, the linear part with scale (column-major 3x3:
 * a[col * 3 + row]), which positions then use. */
typedef struct ctl_frame {
    rune_vec3 p;
    rune_quat r;
    float a[9];
} ctl_frame;

/* The caller's scratch, carved up: the path (top root first) and its
 * frames, room for a chain's positions before and after solving and its
 * rotations. */
typedef struct ctl_scratch {
    int32_t *path;
    ctl_frame *frames;
    rune_vec3 *before, *after;
    rune_quat *turn;
    bool scaled; /* the last path's frames carry `a` */
} ctl_scratch;

ctl_scratch rune__control_scratch(const rune_rig *rig, void *bytes);

/* Fills s->path and s->frames from the top root down to `joint` on the
 * pose; returns the path's length (the joint is path[n - 1]). */
size_t rune__control_path(const rune_rig *rig, const rune_pose *pose, int32_t joint, ctl_scratch *s);

/* Gives joint j the model rotation `model` under a parent whose model
 * rotation is `parent`, blended by w from its input: local rotation
 * slerp(input, solved, w), coverage raised to c + w (1 - c). */
void rune__control_turn(const rune_rig *rig, rune_pose *pose, size_t j, rune_quat parent, rune_quat model, float w);

/* Runs one solver control (mode two_bone .. transform) on the pose. */
void rune__control_solve(const rune_rig *rig, const rune_control *c, ctl_scratch *s, rune_pose *pose);

#endif
