/* Running a scenario: prepare everything (rig, clips, bindings, names), then
 * for each frame apply its commands, advance, evaluate, deliver signals and
 * report. All allocation happens in prepare. */
#include "rune/io.h"
#include "../base/alloc.h"

#include <string.h>

/* A play of a motion: the scenario keeps these itself and hands their poses
 * to the animator as extra contributions. */
typedef struct motion_track {
    rune_motion_player *player;
    rune_pose pose;
    rune_fade fade;
    float speed;
    int priority;
    uint32_t handle;
    float *params;
    bool live;
} motion_track;

/* Track ids of the document -> live handles, newest last. */
typedef struct track_name {
    uint32_t handle;
    const char *name;
    motion_track *motion; /* NULL for a clip track */
} track_name;

typedef struct runner {
    const rune_scenario *s;
    rune_allocator alloc;
    rune_rig *rig;
    rune_clip_cache *clips;
    rune_binding_cache *bindings;
    const rune_binding **clip_binding; /* per scenario clip */
    rune_motion **motions;             /* per scenario motion */
    motion_track *mtracks;             /* one per motion play command */
    size_t mtrack_count;
    rune_contribution *extra;          /* one per motion track */
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

static size_t motion_index(const rune_scenario *s, const char *id)
{
    for (size_t i = 0; i < s->motion_count; i++)
        if (strcmp(s->motions[i].id, id) == 0)
            return i;
    return SIZE_MAX;
}

static void runner_free(runner *r)
{
    const rune_scenario *s = r->s;
    for (size_t i = 0; r->mtracks && i < r->mtrack_count; i++) {
        rune_motion_player_destroy(r->mtracks[i].player);
        rune_pose_release(&r->mtracks[i].pose);
        rune__free(&r->alloc, r->mtracks[i].params, s->param_count, sizeof(float));
    }
    rune__free(&r->alloc, r->mtracks, r->mtrack_count, sizeof *r->mtracks);
    rune__free(&r->alloc, r->extra, r->mtrack_count, sizeof *r->extra);
    for (size_t i = 0; r->motions && i < s->motion_count; i++)
        rune_motion_destroy(r->motions[i]);
    rune__free(&r->alloc, r->motions, s->motion_count, sizeof *r->motions);
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

/* Compiles the motions and builds one player per motion play command, so
 * starting a motion during the run never allocates. */
static rune_status prepare_motions(runner *r, rune_error *err)
{
    const rune_scenario *s = r->s;
    rune_status st;
    r->motions = rune__calloc(&r->alloc, s->motion_count, sizeof *r->motions);
    size_t plays = 0;
    for (size_t i = 0; i < s->command_count; i++)
        plays += s->commands[i].kind == RUNE_CMD_PLAY && s->commands[i].is_motion;
    r->mtracks = rune__calloc(&r->alloc, plays, sizeof *r->mtracks);
    r->extra = rune__calloc(&r->alloc, plays, sizeof *r->extra);
    if (!r->motions || !r->mtracks || !r->extra)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing motions");
    for (size_t i = 0; i < s->motion_count; i++) {
        const rune_scenario_motion *m = &s->motions[i];
        if ((st = rune_motion_create(m->nodes, m->node_count, s->param_count, s->clip_count, &r->alloc,
                                     &r->motions[i], err))) {
            rune_error_prefix(err, "motions[%zu].", i);
            return st;
        }
    }
    for (size_t i = 0; i < s->command_count; i++) {
        const rune_command *c = &s->commands[i];
        if (c->kind != RUNE_CMD_PLAY || !c->is_motion)
            continue;
        size_t mi = motion_index(s, c->target);
        motion_track *t = &r->mtracks[r->mtrack_count++];
        t->priority = s->motions[mi].priority;
        t->params = rune__calloc(&r->alloc, s->param_count, sizeof(float));
        if (!t->params)
            return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing motions");
        if ((st = rune_motion_player_create(r->motions[mi], r->clip_binding, rune_rig_joint_count(r->rig), &r->alloc,
                                            &t->player, err)) ||
            (st = rune_pose_init(&t->pose, rune_rig_joint_count(r->rig), &r->alloc, err)))
            return st;
    }
    r->mtrack_count = 0; /* claimed again, in order, as the plays run */
    return RUNE_OK;
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
    if ((st = prepare_motions(r, err)))
        return st;
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

/* The newest play started under this track id, when still live. */
static const track_name *live_name(const runner *r, const char *name)
{
    for (size_t i = r->name_count; i-- > 0;) {
        const track_name *n = &r->names[i];
        if (strcmp(n->name, name) != 0)
            continue;
        bool live = n->motion ? n->motion->live : rune_animator_track(r->anim, n->handle) != NULL;
        return live ? n : NULL;
    }
    return NULL;
}

static void stop_name(runner *r, const track_name *n, float fade)
{
    if (n->motion)
        rune_fade_stop(&n->motion->fade, fade);
    else
        rune_animator_stop(r->anim, n->handle, fade);
}

static const char *name_of(const runner *r, uint32_t handle)
{
    for (size_t i = 0; i < r->name_count; i++)
        if (r->names[i].handle == handle)
            return r->names[i].name;
    return "";
}

static void start_motion(runner *r, const rune_command *c, motion_track *t)
{
    t->handle = rune_animator_new_source(r->anim);
    t->live = true;
    t->speed = c->play.speed;
    t->fade = (rune_fade){0.0f, 0.0f, 0.0f, false};
    rune_fade_to(&t->fade, c->play.weight, c->play.fade);
    rune_motion_player_set_progress(t->player, c->play.time);
}

static rune_status apply(runner *r, size_t i, rune_error *err)
{
    const rune_command *c = &r->s->commands[i];
    const track_name *n = c->kind == RUNE_CMD_PLAY ? live_name(r, c->track) : live_name(r, c->target);
    switch (c->kind) {
    case RUNE_CMD_PLAY: {
        /* playing an id again replaces it: the old track fades out */
        if (n)
            stop_name(r, n, c->play.fade);
        track_name *slot = &r->names[r->name_count];
        slot->name = c->track;
        slot->motion = NULL;
        if (c->is_motion) {
            slot->motion = &r->mtracks[r->mtrack_count++];
            start_motion(r, c, slot->motion);
            slot->handle = slot->motion->handle;
        } else {
            rune_status st = rune_animator_play(r->anim, r->clip_binding[clip_index(r->s, c->target)], &c->play,
                                                &slot->handle, err);
            if (st)
                return st;
        }
        r->name_count++;
        return RUNE_OK;
    }
    case RUNE_CMD_ADJUST: {
        rune_adjust_params p = {c->has_weight, c->weight, c->fade, c->has_speed, c->speed};
        if (n && n->motion) {
            if (c->has_weight)
                rune_fade_to(&n->motion->fade, c->weight, c->fade);
            if (c->has_speed)
                n->motion->speed = c->speed;
        } else if (n) {
            rune_animator_adjust(r->anim, n->handle, &p);
        }
        return RUNE_OK;
    }
    case RUNE_CMD_STOP:
        if (n)
            stop_name(r, n, c->fade);
        return RUNE_OK;
    case RUNE_CMD_SET:
        if (n && n->motion)
            n->motion->params[c->param_index] = c->value;
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

/* Advances live motion tracks, retires finished ones, samples the rest into
 * r->extra; returns how many contributions it wrote. */
static size_t advance_motions(runner *r, float dt)
{
    size_t k = 0;
    rune_signal_queue *q = rune_animator_signals(r->anim);
    for (size_t i = 0; i < r->mtrack_count; i++) {
        motion_track *t = &r->mtracks[i];
        if (!t->live)
            continue;
        rune_fade_advance(&t->fade, dt);
        rune_motion_player_set_params(t->player, t->params);
        rune_motion_player_advance(t->player, dt, t->speed, q, t->handle);
        if (rune_fade_finished(&t->fade)) {
            rune_event e = {RUNE_EVENT_STOPPED, t->handle, NULL, NULL, 0.0f};
            rune_signal_queue_push(q, &e);
            t->live = false;
            continue;
        }
        rune_motion_player_sample(t->player, &t->pose);
        r->extra[k].pose = &t->pose;
        r->extra[k].weight = t->fade.weight;
        r->extra[k].priority = t->priority;
        k++;
    }
    return k;
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
        size_t extra = advance_motions(&r, s->dt);
        if ((st = rune_animator_evaluate(r.anim, r.extra, extra, err)))
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
