/* Inertialization of a character's pose (docs/semantics.md,
 * "Inertialization"): at a switch, the difference between the pose the
 * character showed and the one its plays now give, with its velocity,
 * decays to zero over a blend time while only the new plays are
 * evaluated. The object keeps the last two poses shown (a pose copy a
 * frame, or none when the caller lends it its pose), and captures and
 * applies the offset; allocation happens at creation only. */
#ifndef RUNE_SRC_MIX_INERTIA_H
#define RUNE_SRC_MIX_INERTIA_H

#include "rune/rig.h"
#include "rune/base.h"

typedef struct rune_inertia rune_inertia;

/* What an inertialization shows now, for tools. */
typedef struct rune_inertia_view {
    bool active;          /* an offset is being added */
    float elapsed;        /* seconds since its switch */
    float duration;       /* its blend time */
    float angle;          /* the largest joint rotation offset now, degrees */
    float distance;       /* the largest joint translation offset now */
} rune_inertia_view;

/* An inertializer for poses shaped like `like` (joints and curves). */
rune_status rune__inertia_create(const rune_pose *like, const rune_allocator *alloc, rune_inertia **out,
                                 rune_error *err);
void rune__inertia_destroy(rune_inertia *in);
/* Takes `shown` as the last pose shown (no velocity known yet): for an
 * inertializer made between frames. */
void rune__inertia_seed(rune_inertia *in, const rune_pose *shown);
/* Asks the next step to start an inertialization of `blend_time` seconds
 * (the longest of the requests of one frame wins); 0 or less: none. */
void rune__inertia_request(rune_inertia *in, float blend_time);
/* One frame: `pose` is what the plays give after a step of dt seconds;
 * it becomes what the character shows (an offset added while one is
 * decaying), and the latest pose shown: copied, or with `lend` left
 * where it is -- the caller then changes nothing in it before its next
 * frame begins, and hands its channels over then (take_slot), so a frame
 * copies no pose. Allocates nothing. */
void rune__inertia_step(rune_inertia *in, rune_pose *pose, float dt, bool lend, rune_simd_level level);
/* At the start of a frame after a step that lent its pose: the slot the
 * lent pose belongs in, for the caller to exchange with that pose (the
 * caller's pose then holds an older frame, to be written over); NULL when
 * the last step lent nothing. */
rune_pose *rune__inertia_take_slot(rune_inertia *in);
/* Whether the last step lent its pose (take_slot will return a slot). */
bool rune__inertia_lent(const rune_inertia *in);
rune_inertia_view rune__inertia_view(const rune_inertia *in);
/* Asks the CPU to start loading what the next step reads and writes, in
 * two stages a crowd issues for characters further and nearer ahead:
 * stage 0 the object itself (every pointer the step follows), stage 1
 * what it points at -- the lanes of a decay under way and, after a step
 * that lent its pose, the channels the caller gets back to write (read
 * only after stage 0 was asked for). */
#define RUNE_INERTIA_PREFETCH_STAGES 2
void rune__inertia_prefetch(const rune_inertia *in, int stage);

/* The decay of an offset with start value x0, velocity v0 and
 * acceleration a0 over blend time T, at u = t / T in [0, 1]:
 * x(t) = x0 p0(u) + v0 T p1(u) + a0 T^2 p2(u), with
 * p0 = (1 - u)^3 (1 + 3u + 6u^2), p1 = u (1 - u)^3 (1 + 3u) and
 * p2 = u^2 (1 - u)^3 / 2: the quintic with those at the start and value,
 * velocity and acceleration 0 at T. With `second`, the weights' second
 * derivatives in u instead (x''(t) is the same sum over T^2). */
void rune__inertia_weights(float u, bool second, float w[3]);

#endif
