/* Running a scenario: prepare everything (rig, clips, bindings, names), then
 * for each frame apply its commands, advance, evaluate, deliver signals and
 * report. All allocation happens in prepare. */
#include "rune/io.h"
#include "../base/alloc.h"

#include <string.h>

typedef struct track_name {
    uint32_t handle;
    const char *name;
} track_name;

typedef struct runner {
    const rune_scenario *s;
    rune_allocator alloc;
    rune_rig *rig;
    rune_clip_cache *clips;
    rune_binding_cache *bindings;
    const rune_binding **clip_binding; /* per scenario clip */
    rune_animator *anim;
    track_name *names; /* one per play command, in execution order */
    size_t name_count, name_cap;
    int32_t *control_joint; /* per command (controls only) */
    uint32_t *control_id;   /* per command (controls only) */
    rune_scenario_event *events;
    size_t event_count;
} runner;

static size_t clip_index(const rune_scenario *s, const char *id)
{
    for (size_t i = 0; i < s->clip_count; i++)
        if (strcmp(s->clips[i].id, id) == 0)
            return i;
    return SIZE_MAX;
}

static void runner_free(runner *r)
{
    const rune_scenario *s = r->s;
    rune_animator_destroy(r->anim);
    rune_binding_cache_destroy(r->bindings);
    rune_clip_cache_destroy(r->clips);
    rune_rig_destroy(r->rig);
    rune__free(&r->alloc, r->clip_binding, s->clip_count, sizeof *r->clip_binding);
    rune__free(&r->alloc, r->names, r->name_cap, sizeof *r->names);
    rune__free(&r->alloc, r->control_joint, s->command_count, sizeof *r->control_joint);
    rune__free(&r->alloc, r->control_id, s->command_count, sizeof *r->control_id);
    rune__free(&r->alloc, r->events, RUNE_SCENARIO_MAX_EVENTS, sizeof *r->events);
}

/* Controls are keyed by name: the id is the index of the name's first use. */
static uint32_t control_id_of(const rune_scenario *s, size_t cmd)
{
    for (size_t i = 0; i < cmd; i++)
        if (s->commands[i].kind == RUNE_CMD_CONTROL && strcmp(s->commands[i].target, s->commands[cmd].target) == 0)
            return (uint32_t)i + 1;
    return (uint32_t)cmd + 1;
}

static rune_status prepare(runner *r, rune_error *err)
{
    const rune_scenario *s = r->s;
    rune_status st = rune_rig_create(s->joints, s->joint_count, &r->alloc, &r->rig, err);
    if (st) {
        rune_error_prefix(err, "rig.");
        return st;
    }
    if ((st = rune_clip_cache_create(&r->alloc, &r->clips, err)) ||
        (st = rune_binding_cache_create(&r->alloc, &r->bindings, err)) ||
        (st = rune_animator_create(r->rig, RUNE_SCENARIO_MAX_EVENTS, &r->alloc, &r->anim, err)))
        return st;
    r->clip_binding = rune__calloc(&r->alloc, s->clip_count, sizeof *r->clip_binding);
    r->control_joint = rune__calloc(&r->alloc, s->command_count, sizeof *r->control_joint);
    r->control_id = rune__calloc(&r->alloc, s->command_count, sizeof *r->control_id);
    r->events = rune__calloc(&r->alloc, RUNE_SCENARIO_MAX_EVENTS, sizeof *r->events);
    size_t plays = 0;
    for (size_t i = 0; i < s->command_count; i++)
        plays += s->commands[i].kind == RUNE_CMD_PLAY;
    r->name_cap = plays;
    r->names = rune__calloc(&r->alloc, plays, sizeof *r->names);
    if (!r->clip_binding || !r->control_joint || !r->control_id || !r->events || !r->names)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing the scenario");
    for (size_t i = 0; i < s->clip_count; i++) {
        const rune_clip *clip;
        if ((st = rune_clip_cache_acquire(r->clips, &s->clips[i], &clip, err)) ||
            (st = rune_binding_cache_acquire(r->bindings, r->rig, clip, 0, &r->clip_binding[i], err))) {
            rune_error_prefix(err, "clips[%zu].", i);
            return st;
        }
    }
    for (size_t i = 0; i < s->command_count; i++) {
        const rune_command *c = &s->commands[i];
        if (c->kind != RUNE_CMD_CONTROL)
            continue;
        r->control_id[i] = control_id_of(s, i);
        if (c->remove)
            continue;
        r->control_joint[i] = rune_rig_find(r->rig, c->joint);
        if (r->control_joint[i] < 0)
            return rune_fail(err, RUNE_E_INVALID, "commands[%zu].joint: no joint \"%s\" in the rig", c->index, c->joint);
    }
    return RUNE_OK;
}

/* The newest live handle started under this track id; 0 when none. */
static uint32_t handle_of(const runner *r, const char *name)
{
    for (size_t i = r->name_count; i-- > 0;)
        if (strcmp(r->names[i].name, name) == 0)
            return rune_animator_track(r->anim, r->names[i].handle) ? r->names[i].handle : 0;
    return 0;
}

static const char *name_of(const runner *r, uint32_t handle)
{
    for (size_t i = 0; i < r->name_count; i++)
        if (r->names[i].handle == handle)
            return r->names[i].name;
    return "";
}

static rune_status apply(runner *r, size_t i, rune_error *err)
{
    const rune_command *c = &r->s->commands[i];
    uint32_t h;
    switch (c->kind) {
    case RUNE_CMD_PLAY: {
        /* playing an id again replaces it: the old track fades out */
        uint32_t old = handle_of(r, c->track);
        if (old)
            rune_animator_stop(r->anim, old, c->play.fade);
        rune_status st = rune_animator_play(r->anim, r->clip_binding[clip_index(r->s, c->target)], &c->play, &h, err);
        if (st)
            return st;
        r->names[r->name_count].handle = h;
        r->names[r->name_count].name = c->track;
        r->name_count++;
        return RUNE_OK;
    }
    case RUNE_CMD_ADJUST: {
        rune_adjust_params p = {c->has_weight, c->weight, c->fade, c->has_speed, c->speed};
        if ((h = handle_of(r, c->target)))
            rune_animator_adjust(r->anim, h, &p);
        return RUNE_OK;
    }
    case RUNE_CMD_STOP:
        if ((h = handle_of(r, c->target)))
            rune_animator_stop(r->anim, h, c->fade);
        return RUNE_OK;
    case RUNE_CMD_CONTROL: {
        if (c->remove) {
            rune_animator_remove_control(r->anim, r->control_id[i]);
            return RUNE_OK;
        }
        rune_control ctl = {r->control_id[i], r->control_joint[i], c->priority, c->mode,
                            c->xform,          c->weight,          c->has_t,    c->has_r};
        return rune_animator_set_control(r->anim, &ctl, err);
    }
    default:
        return rune_fail(err, RUNE_E_INVALID, "commands[%zu]: unsupported command", c->index);
    }
}

static void collect(void *user, const rune_event *e)
{
    runner *r = user;
    if (r->event_count >= RUNE_SCENARIO_MAX_EVENTS)
        return;
    rune_scenario_event *out = &r->events[r->event_count++];
    out->kind = e->kind;
    out->source = name_of(r, e->source);
    out->name = e->name;
    out->value = e->value;
    out->time = e->time;
}

rune_status rune_scenario_run(const rune_scenario *s, const rune_allocator *alloc, rune_frame_fn fn, void *user,
                              rune_error *err)
{
    runner r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.alloc = *rune__alloc_or_default(alloc);
    rune_status st = prepare(&r, err);
    size_t next = 0;
    for (int f = 0; !st && f < s->frames; f++) {
        for (; !st && next < s->command_count && s->commands[next].frame <= f; next++)
            st = apply(&r, next, err);
        if (st)
            break;
        rune_animator_advance(r.anim, s->dt);
        if ((st = rune_animator_evaluate(r.anim, NULL, 0, err)))
            break;
        r.event_count = 0;
        rune_animator_deliver(r.anim, collect, &r);
        rune_frame_report rep = {f, (double)(f + 1) * s->dt, r.rig, rune_animator_pose(r.anim), r.events,
                                 r.event_count, {0.0f, 0.0f, 0.0f}};
        if (fn)
            fn(user, &rep);
    }
    if (st)
        rune_error_prefix(err, "%s: ", s->file);
    runner_free(&r);
    return st;
}
