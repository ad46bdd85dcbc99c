/* The controls an animator holds: each as it was set, the copy that runs
 * (its goal smoothed), the springs' state, and the solvers' scratch. All
 * growth happens when controls are set; advancing and running allocate
 * nothing. */
#ifndef RUNE_SRC_MIX_CONTROL_SET_H
#define RUNE_SRC_MIX_CONTROL_SET_H

#include "rune/mix.h"

/* A goal's spring: target xyz and target_r xyzw, values then velocities. */
#define CONTROL_GOAL 7

typedef struct control_goal {
    float value[CONTROL_GOAL];
    float velocity[CONTROL_GOAL];
} control_goal;

typedef struct control_set {
    rune_control *given; /* as set (goals unsmoothed) */
    rune_control *live;  /* what runs: goals from the springs */
    control_goal *goal;
    size_t count, cap;
    void *scratch; /* rune_controls_scratch_bytes(rig), once a solver is set */
    size_t scratch_bytes;
} control_set;

rune_status rune__controls_set(control_set *set, const rune_rig *rig, const rune_allocator *alloc,
                               const rune_control *c, rune_error *err);
bool rune__controls_remove(control_set *set, uint32_t id);
/* Moves every smoothed goal by dt. */
void rune__controls_advance(control_set *set, float dt);
/* Runs the controls on the pose (order: scratch of count entries). */
void rune__controls_run(const control_set *set, const rune_rig *rig, size_t *order, rune_pose *pose);
bool rune__controls_state(const control_set *set, const rune_rig *rig, const rune_pose *pose, uint32_t id,
                          rune_control_state *out);
void rune__controls_release(control_set *set, const rune_allocator *alloc);

#endif
