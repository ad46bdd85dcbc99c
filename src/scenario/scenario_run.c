/* Running a scenario: its library and one character, the timeline's
 * commands translated into character calls frame by frame, and a report
 * after each frame. What a frame does is the character's business; this
 * file only maps the document's names (track and instance ids, control
 * names) to the character's handles. All allocation happens before the
 * first frame or while plays warm up. */
#include "rune/io.h"
#include "scenario_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"
#include "../character/inertia_view.h"

#include <stdio.h>
#include <string.h>

/* A track or instance id of the document and the play it started. */
typedef struct play_name {
    const char *name;
    uint32_t handle;
} play_name;

typedef struct runner {
    const rune_scenario *s;
    rune_allocator alloc;
    rune_library *lib;
    rune_character *ch;
    play_name *names; /* in start order; the newest of a name is the live one */
    size_t name_count, starts;
    rune_source_view *sources;
    rune_scenario_source *named; /* the live sources with their document ids */
    size_t source_count;
    run_controls controls;
    rune_scenario_event *events;
    size_t event_count;
    rune_scenario_weight weights[RUNE_SCENARIO_MAX_WEIGHTS];
    char leaf_names[RUNE_SCENARIO_MAX_WEIGHTS][96];
    size_t weight_count;
} runner;

static void runner_free(runner *r)
{
    const rune_scenario *s = r->s;
    rune_character_destroy(r->ch);
    rune_library_destroy(r->lib);
    rune__free(&r->alloc, r->names, r->starts, sizeof *r->names);
    rune__free(&r->alloc, r->sources, r->starts, sizeof *r->sources);
    rune__free(&r->alloc, r->named, r->starts, sizeof *r->named);
    rune__run_controls_free(&r->controls, s, &r->alloc);
    rune__free(&r->alloc, r->events, RUNE_SCENARIO_MAX_EVENTS, sizeof *r->events);
}

/* A joint the document names; one the rig lacks makes the document
 * invalid. */
static rune_status find_joint(const runner *r, const char *name, const char *where, int32_t *joint, rune_error *err)
{
    if (!rune_library_find_joint(r->lib, name, joint, err))
        return RUNE_OK;
    rune_error_prefix(err, "%s", where);
    return err ? (err->status = RUNE_E_INVALID) : RUNE_E_INVALID;
}

/* The root joint of the scenario (default the first), or RUNE_NO_ROOT. */
static rune_status root_joint(const runner *r, int32_t *root, rune_error *err)
{
    *root = r->s->root_motion && r->s->joint_count > 0 ? 0 : RUNE_NO_ROOT;
    return *root == 0 && r->s->root_joint ? find_joint(r, r->s->root_joint, "root_joint: ", root, err) : RUNE_OK;
}

static rune_status prepare(runner *r, rune_error *err)
{
    const rune_scenario *s = r->s;
    rune_status st = rune_scenario_library(s, &r->alloc, &r->lib, err);
    if (st)
        return st;
    rune_character_desc d = {.lib = r->lib, .signal_capacity = RUNE_SCENARIO_MAX_EVENTS, .simd = r->s->simd};
    if ((st = root_joint(r, &d.root_joint, err)) || (st = rune_character_create(&d, &r->alloc, &r->ch, err)))
        return st;
    bool inertial = false;
    for (size_t i = 0; i < s->command_count; i++) {
        r->starts += s->commands[i].kind == RUNE_CMD_PLAY || s->commands[i].kind == RUNE_CMD_GRAPH;
        inertial |= s->commands[i].play.blend == RUNE_BLEND_INERTIALIZE;
    }
    /* a character whose commands inertialize keeps the poses they start
     * from, from the first frame on: the first one keeps its velocity */
    if (inertial && !rune_character_inertialize(r->ch, 0.0f))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing the scenario");
    r->names = rune__calloc(&r->alloc, r->starts, sizeof *r->names);
    r->sources = rune__calloc(&r->alloc, r->starts, sizeof *r->sources);
    r->named = rune__calloc(&r->alloc, r->starts, sizeof *r->named);
    r->events = rune__calloc(&r->alloc, RUNE_SCENARIO_MAX_EVENTS, sizeof *r->events);
    if (!r->names || !r->sources || !r->named || !r->events)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing the scenario");
    return rune__run_controls_prepare(&r->controls, s, r->lib, &r->alloc, err);
}

/* The play the newest start under this id made, when still live; 0. */
static uint32_t live_handle(const runner *r, const char *name)
{
    rune_source_view v;
    for (size_t i = r->name_count; i-- > 0;)
        if (strcmp(r->names[i].name, name) == 0)
            return rune_character_source(r->ch, r->names[i].handle, &v) ? r->names[i].handle : 0;
    return 0;
}

static const char *name_of(const runner *r, uint32_t handle)
{
    for (size_t i = 0; i < r->name_count; i++)
        if (r->names[i].handle == handle)
            return r->names[i].name;
    return "";
}

/* The fade of a stop, an adjust or a replaced play: 0 when the command
 * inertializes (the change is made at once; the play that starts, or
 * rune_character_inertialize, asks for the blend). */
static float fade_of(const rune_command *c, float fade)
{
    return c->play.blend == RUNE_BLEND_INERTIALIZE ? 0.0f : fade;
}

/* play and graph: a live play under the same id fades out over the new
 * one's fade while the new one fades in (or, inertialized, leaves at once
 * as the new one takes its weight) */
static rune_status start(runner *r, const rune_command *c, rune_error *err)
{
    uint32_t old = live_handle(r, c->track), h = 0;
    if (old)
        rune_character_stop(r->ch, old, fade_of(c, c->play.fade));
    rune_status st;
    if (c->kind == RUNE_CMD_GRAPH) {
        rune_play_params p = {.fade = c->play.fade, .weight = c->play.weight, .speed = 1.0f, .blend = c->play.blend};
        st = rune_character_start_graph(r->ch, c->graph, &p, &h, err);
    } else if (c->is_motion) {
        st = rune_character_play_motion(r->ch, (uint32_t)rune__scenario_motion_index(r->s, c->target), &c->play, &h,
                                        err);
    } else {
        st = rune_character_play_clip(r->ch, (uint32_t)rune__scenario_clip_index(r->s, c->target), &c->play, &h,
                                      err);
    }
    if (!st)
        r->names[r->name_count++] = (play_name){c->track, h};
    return st;
}

static rune_status apply(runner *r, size_t i, rune_error *err)
{
    const rune_command *c = &r->s->commands[i];
    uint32_t h = c->kind == RUNE_CMD_CONTROL ? 0 : live_handle(r, c->target);
    rune_adjust_params adjust = {c->has_weight, c->weight, fade_of(c, c->fade), c->has_speed, c->speed};
    switch (c->kind) {
    case RUNE_CMD_PLAY:
    case RUNE_CMD_GRAPH:
        return start(r, c, err);
    case RUNE_CMD_ADJUST:
    case RUNE_CMD_STOP:
        if (c->kind == RUNE_CMD_ADJUST ? rune_character_adjust(r->ch, h, &adjust)
                                       : rune_character_stop(r->ch, h, fade_of(c, c->fade)))
            if (c->play.blend == RUNE_BLEND_INERTIALIZE)
                rune_character_inertialize(r->ch, c->fade);
        break;
    case RUNE_CMD_SET:
        rune_character_set_param(r->ch, h, c->param_index, c->value);
        break;
    case RUNE_CMD_TRIGGER:
        rune_character_trigger(r->ch, h, c->param_index);
        break;
    case RUNE_CMD_TRAVEL:
        rune_character_travel(r->ch, h, c->layer, c->state_index);
        break;
    case RUNE_CMD_FADE_LAYER:
        rune_character_fade_layer(r->ch, h, c->layer, c->weight, c->fade);
        break;
    case RUNE_CMD_CONTROL:
        return rune__run_controls_apply(&r->controls, r->ch, r->s, i, err);
    }
    return RUNE_OK;
}

static void add_weight(runner *r, const char *source, float w)
{
    if (r->weight_count < RUNE_SCENARIO_MAX_WEIGHTS)
        r->weights[r->weight_count++] = (rune_scenario_weight){source, w};
}

/* Weights of the live plays, in start order; a motion track also lists
 * its leaves' blend weights as "track/clip". */
static void collect_weights(runner *r)
{
    r->weight_count = 0;
    size_t n = rune_character_sources(r->ch, r->sources, r->starts);
    r->source_count = n < r->starts ? n : r->starts;
    for (size_t i = 0; i < n && i < r->starts; i++) {
        const rune_source_view *v = &r->sources[i];
        const char *name = name_of(r, v->handle);
        r->named[i] = (rune_scenario_source){name, *v};
        add_weight(r, name, v->weight);
        rune_leaf_view leaves[RUNE_MOTION_MAX_LEAVES];
        size_t count = rune_character_source_leaves(r->ch, v->handle, leaves, RUNE_MOTION_MAX_LEAVES);
        for (size_t l = 0; l < count && l < RUNE_MOTION_MAX_LEAVES; l++) {
            if (r->weight_count >= RUNE_SCENARIO_MAX_WEIGHTS)
                break;
            char *label = r->leaf_names[r->weight_count];
            snprintf(label, sizeof r->leaf_names[0], "%s/%s", name,
                     rune_clip_describe(rune_library_clip(r->lib, leaves[l].clip)).id);
            add_weight(r, label, leaves[l].weight);
        }
    }
}

static void collect(void *user, const rune_event *e)
{
    runner *r = user;
    if (r->event_count < RUNE_SCENARIO_MAX_EVENTS)
        r->events[r->event_count++] = (rune_scenario_event){e->kind, name_of(r, e->source), e->name, e->value, e->time};
}

rune_status rune_scenario_run(const rune_scenario *s, const rune_allocator *alloc, rune_frame_fn fn, void *user,
                              rune_error *err)
{
    RUNE_REQUIRE(err, s, "scenario");
    runner r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.alloc = *rune__alloc_or_default(alloc);
    rune_status st = prepare(&r, err);
    size_t next = 0;
    for (int f = 0; !st && f < s->frames; f++) {
        for (; !st && next < s->command_count && s->commands[next].frame <= f; next++)
            st = apply(&r, next, err);
        if (st || (st = rune_character_update(r.ch, s->dt, err)))
            break;
        r.event_count = 0;
        rune_character_deliver(r.ch, collect, &r);
        collect_weights(&r);
        rune__run_controls_collect(&r.controls, r.ch, s);
        rune_frame_report rep = {f,          (double)(f + 1) * s->dt, rune_library_rig(r.lib), rune_character_pose(r.ch),
                                 r.events,   r.event_count,           rune_character_root_delta(r.ch),
                                 r.weights,  r.weight_count,          r.ch,
                                 r.named,    r.source_count,          r.controls.report,
                                 r.controls.report_count, 0.0f, 0.0f};
        rune__character_inertia(r.ch, &rep.inertia_left, &rep.inertia_angle);
        if (fn && (st = fn(user, &rep)) != RUNE_OK)
            rune_fail(err, st, "frame %d: stopped by the caller", f);
    }
    if (st)
        rune_error_prefix(err, "%s: ", s->file);
    runner_free(&r);
    return st;
}
