/* An animator's controls (control_set.h): setting and removing them by
 * id, stepping their goals' springs, running them in priority order. */
#include "control_set.h"
#include "../base/alloc.h"
#include "mix_internal.h"

#include <string.h>

static void goal_of(const rune_control *c, float g[CONTROL_GOAL])
{
    g[0] = c->target.x, g[1] = c->target.y, g[2] = c->target.z;
    g[3] = c->target_r.x, g[4] = c->target_r.y, g[5] = c->target_r.z, g[6] = c->target_r.w;
}

/* The running copy: the control with its spring's goal. */
static void refresh(control_set *set, size_t i)
{
    const float *v = set->goal[i].value;
    set->live[i] = set->given[i];
    set->live[i].target = rune_v3(v[0], v[1], v[2]);
    set->live[i].target_r = rune_q_normalize(rune_q(v[3], v[4], v[5], v[6]));
}

/* Room for one more control in all three arrays, or none (all or nothing). */
static bool reserve(control_set *set, const rune_allocator *alloc)
{
    if (set->count < set->cap)
        return true;
    size_t cap = set->cap ? 2 * set->cap : 4;
    rune_control *given = rune__calloc(alloc, cap, sizeof *given), *live = rune__calloc(alloc, cap, sizeof *live);
    control_goal *goal = rune__calloc(alloc, cap, sizeof *goal);
    if (!given || !live || !goal) {
        rune__free(alloc, given, cap, sizeof *given);
        rune__free(alloc, live, cap, sizeof *live);
        rune__free(alloc, goal, cap, sizeof *goal);
        return false;
    }
    if (set->count) {
        memcpy(given, set->given, set->count * sizeof *given);
        memcpy(live, set->live, set->count * sizeof *live);
        memcpy(goal, set->goal, set->count * sizeof *goal);
    }
    rune__free(alloc, set->given, set->cap, sizeof *set->given);
    rune__free(alloc, set->live, set->cap, sizeof *set->live);
    rune__free(alloc, set->goal, set->cap, sizeof *set->goal);
    set->given = given, set->live = live, set->goal = goal, set->cap = cap;
    return true;
}

rune_status rune__controls_set(control_set *set, const rune_rig *rig, const rune_allocator *alloc,
                               const rune_control *c, rune_error *err)
{
    rune_status st = rune_control_check(rig, c, err);
    if (st) {
        rune_error_prefix(err, "control %u: ", c->id);
        return st;
    }
    if (c->mode > RUNE_CONTROL_OFFSET && !set->scratch) {
        size_t bytes = rune_controls_scratch_bytes(rig);
        if (!(set->scratch = rune__calloc(alloc, bytes, 1)))
            return rune_fail(err, RUNE_E_NOMEM, "out of memory adding a control");
        set->scratch_bytes = bytes;
    }
    size_t i = 0;
    while (i < set->count && set->given[i].id != c->id)
        i++;
    if (i == set->count) {
        if (!reserve(set, alloc))
            return rune_fail(err, RUNE_E_NOMEM, "out of memory adding a control");
        set->count++;
        goal_of(c, set->goal[i].value); /* a new control starts at its goal */
        memset(set->goal[i].velocity, 0, sizeof set->goal[i].velocity);
    }
    set->given[i] = *c;
    if (!(c->smooth_time > 0.0f)) {
        goal_of(c, set->goal[i].value);
        memset(set->goal[i].velocity, 0, sizeof set->goal[i].velocity);
    }
    refresh(set, i);
    return RUNE_OK;
}

bool rune__controls_remove(control_set *set, uint32_t id)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->given[i].id == id) {
            size_t after = set->count - i - 1;
            memmove(&set->given[i], &set->given[i + 1], after * sizeof *set->given);
            memmove(&set->live[i], &set->live[i + 1], after * sizeof *set->live);
            memmove(&set->goal[i], &set->goal[i + 1], after * sizeof *set->goal);
            set->count--;
            return true;
        }
    return false;
}

void rune__controls_advance(control_set *set, float dt)
{
    for (size_t i = 0; i < set->count; i++) {
        const rune_control *c = &set->given[i];
        if (c->mode <= RUNE_CONTROL_OFFSET || !(c->smooth_time > 0.0f))
            continue;
        float g[CONTROL_GOAL];
        goal_of(c, g);
        control_goal *s = &set->goal[i];
        /* the goal rotation in the hemisphere of the smoothed one, so the
         * spring takes the short way */
        if (s->value[3] * g[3] + s->value[4] * g[4] + s->value[5] * g[5] + s->value[6] * g[6] < 0.0f)
            for (int k = 3; k < CONTROL_GOAL; k++)
                g[k] = -g[k];
        rune_ik_spring(s->value, s->velocity, g, CONTROL_GOAL, c->smooth_time, dt);
        refresh(set, i);
    }
}

void rune__controls_run(const control_set *set, const rune_rig *rig, size_t *order, rune_pose *pose)
{
    rune_controls_apply(rig, set->live, set->count, order, set->scratch, pose);
}

bool rune__controls_state(const control_set *set, const rune_rig *rig, const rune_pose *pose, uint32_t id,
                          rune_control_state *out)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->live[i].id == id) {
            rune_control_measure(rig, pose, &set->live[i], set->scratch, out);
            return true;
        }
    return false;
}

void rune__controls_release(control_set *set, const rune_allocator *alloc)
{
    rune__free(alloc, set->given, set->cap, sizeof *set->given);
    rune__free(alloc, set->live, set->cap, sizeof *set->live);
    rune__free(alloc, set->goal, set->cap, sizeof *set->goal);
    rune__free(alloc, set->scratch, set->scratch_bytes, 1);
    memset(set, 0, sizeof *set);
}
