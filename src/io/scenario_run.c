/* Running a scenario: prepare everything (rig, clips, bindings, names), then
 * for each frame apply its commands, advance, evaluate, deliver signals and
 * report. All allocation happens in prepare. */
#include "rune/io.h"
#include "scenario_internal.h"
#include "../base/alloc.h"

#include <stdio.h>
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
    double from, to; /* progress over the last advance (root motion) */
} motion_track;

/* A running graph instance. */
typedef struct graph_run {
    rune_graph_instance *inst;
    rune_pose pose;
    rune_fade fade;
    int priority;
    uint32_t handle;
    bool live;
} graph_run;

/* Track and instance ids of the document -> live handles, newest last. */
typedef struct track_name {
    uint32_t handle;
    const char *name;
    motion_track *motion; /* set for a motion track */
    graph_run *graph;     /* set for a graph instance */
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
    size_t mtrack_total, mtrack_next;  /* allocated; claimed so far */
    rune_motion **clip_motions;        /* per clip: a one-clip motion for graph states */
    rune_graph **graphs;               /* per scenario graph */
    graph_run *gruns;                  /* one per graph command */
    size_t grun_total, grun_next;
    rune_contribution *extra;          /* one per motion track and graph run */
    rune_animator *anim;
    track_name *names; /* one per play command, in execution order */
    size_t name_count, name_cap;
    int32_t *control_joint; /* per command (controls only) */
    uint32_t *control_id;   /* per command (controls only) */
    rune_scenario_event *events;
    size_t event_count;
    int32_t root; /* root-motion joint, -1 when disabled */
    rune_scenario_weight weights[RUNE_SCENARIO_MAX_WEIGHTS];
    char leaf_names[RUNE_SCENARIO_MAX_WEIGHTS][96];
    size_t weight_count;
} runner;

static void runner_free(runner *r)
{
    const rune_scenario *s = r->s;
    for (size_t i = 0; r->mtracks && i < r->mtrack_total; i++) {
        rune_motion_player_destroy(r->mtracks[i].player);
        rune_pose_release(&r->mtracks[i].pose);
        rune__free(&r->alloc, r->mtracks[i].params, s->param_count, sizeof(float));
    }
    rune__free(&r->alloc, r->mtracks, r->mtrack_total, sizeof *r->mtracks);
    for (size_t i = 0; r->gruns && i < r->grun_total; i++) {
        rune_graph_instance_destroy(r->gruns[i].inst);
        rune_pose_release(&r->gruns[i].pose);
    }
    rune__free(&r->alloc, r->gruns, r->grun_total, sizeof *r->gruns);
    for (size_t i = 0; r->graphs && i < s->graph_count; i++)
        rune_graph_destroy(r->graphs[i]);
    rune__free(&r->alloc, r->graphs, s->graph_count, sizeof *r->graphs);
    for (size_t i = 0; r->clip_motions && i < s->clip_count; i++)
        rune_motion_destroy(r->clip_motions[i]);
    rune__free(&r->alloc, r->clip_motions, s->clip_count, sizeof *r->clip_motions);
    rune__free(&r->alloc, r->extra, r->mtrack_total + r->grun_total, sizeof *r->extra);
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
    r->mtrack_total = plays; /* the size runner_free releases, set before any failure */
    if (!r->motions || !r->mtracks)
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
        size_t mi = (size_t)rune__scenario_motion_index(s, c->target); /* resolved at load */
        motion_track *t = &r->mtracks[r->mtrack_next++];
        t->priority = s->motions[mi].priority;
        t->params = rune__calloc(&r->alloc, s->param_count, sizeof(float));
        if (!t->params)
            return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing motions");
        if ((st = rune_motion_player_create(r->motions[mi], r->clip_binding, &r->alloc,
                                            &t->player, err)) ||
            (st = rune_pose_init(&t->pose, rune_rig_joint_count(r->rig), &r->alloc, err)))
            return st;
    }
    return RUNE_OK;
}

/* A graph state that names a clip plays it through a one-clip motion. */
static rune_status clip_motion(runner *r, uint32_t clip, const rune_motion **out, rune_error *err)
{
    if (!r->clip_motions[clip]) {
        rune_motion_sample_desc sample = {-1, clip, 0.0f, {0.0f, 0.0f}, 1.0f};
        rune_motion_node_desc node = {RUNE_MOTION_CLIP, 0, 0, RUNE_BLEND2D_CARTESIAN, &sample, 1};
        rune_status st = rune_motion_create(&node, 1, r->s->param_count, r->s->clip_count, &r->alloc,
                                            &r->clip_motions[clip], err);
        if (st)
            return st;
    }
    *out = r->clip_motions[clip];
    return RUNE_OK;
}

/* Builds the library's description of scenario graph gi (temporary arrays
 * from the arena-less allocator, freed before returning). */
static rune_status build_graph(runner *r, size_t gi, rune_error *err)
{
    const rune_scenario *s = r->s;
    const rune_scenario_graph *sg = &s->graphs[gi];
    rune_status st = RUNE_OK;
    size_t states = 0, masks = 0;
    for (size_t li = 0; li < sg->layer_count; li++) {
        states += sg->layers[li].state_count;
        masks += sg->layers[li].mask_count;
    }
    rune_param_desc *params = rune__calloc(&r->alloc, s->param_count, sizeof *params);
    rune_layer_desc *layers = rune__calloc(&r->alloc, sg->layer_count, sizeof *layers);
    rune_state_desc *sd = rune__calloc(&r->alloc, states, sizeof *sd);
    rune_mask_entry *md = rune__calloc(&r->alloc, masks, sizeof *md);
    if (!params || !layers || !sd || !md)
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory preparing graphs");
    for (size_t k = 0; !st && k < sg->declared_count; k++)
        params[sg->declared[k]] = sg->declared_desc[k];
    size_t at = 0, mat = 0;
    for (size_t li = 0; !st && li < sg->layer_count; li++) {
        const rune_scenario_layer *sl = &sg->layers[li];
        rune_layer_desc *ld = &layers[li];
        ld->blend = sl->blend;
        ld->weight = sl->weight;
        ld->states = &sd[at];
        ld->state_count = sl->state_count;
        ld->initial_state = sl->initial;
        ld->transitions = sl->transitions;
        ld->transition_count = sl->transition_count;
        ld->mask = sl->has_mask ? &md[mat] : NULL;
        ld->mask_count = sl->mask_count;
        for (size_t k = 0; !st && k < sl->state_count; k++, at++) {
            const rune_scenario_state *ss = &sl->states[k];
            sd[at].speed = ss->speed;
            sd[at].sync_group = ss->sync_group;
            if (ss->is_clip)
                st = clip_motion(r, ss->index, &sd[at].motion, err);
            else
                sd[at].motion = r->motions[ss->index];
        }
        for (size_t k = 0; !st && k < sl->mask_count; k++, mat++) {
            md[mat] = sl->mask[k];
            md[mat].joint = rune_rig_find(r->rig, sl->mask_joints[k]);
            if (md[mat].joint < 0)
                st = rune_fail(err, RUNE_E_INVALID, "layers[%zu].mask[%zu].joint: no joint \"%s\" in the rig", li, k,
                               sl->mask_joints[k]);
        }
    }
    if (!st) {
        rune_graph_desc d = {params, s->param_count, layers, sg->layer_count};
        st = rune_graph_create(&d, r->rig, &r->alloc, &r->graphs[gi], err);
    }
    if (st)
        rune_error_prefix(err, "graphs[%zu].", gi);
    rune__free(&r->alloc, params, s->param_count, sizeof *params);
    rune__free(&r->alloc, layers, sg->layer_count, sizeof *layers);
    rune__free(&r->alloc, sd, states, sizeof *sd);
    rune__free(&r->alloc, md, masks, sizeof *md);
    return st;
}

/* Compiles the graphs and creates one instance per graph command. */
static rune_status prepare_graphs(runner *r, rune_error *err)
{
    const rune_scenario *s = r->s;
    rune_status st;
    size_t runs = 0;
    for (size_t i = 0; i < s->command_count; i++)
        runs += s->commands[i].kind == RUNE_CMD_GRAPH;
    r->clip_motions = rune__calloc(&r->alloc, s->clip_count, sizeof *r->clip_motions);
    r->graphs = rune__calloc(&r->alloc, s->graph_count, sizeof *r->graphs);
    r->gruns = rune__calloc(&r->alloc, runs, sizeof *r->gruns);
    r->extra = rune__calloc(&r->alloc, r->mtrack_total + runs, sizeof *r->extra);
    r->grun_total = runs; /* the size runner_free releases, set before any failure */
    if (!r->clip_motions || !r->graphs || !r->gruns || !r->extra)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing graphs");
    for (size_t gi = 0; gi < s->graph_count; gi++)
        if ((st = build_graph(r, gi, err)))
            return st;
    for (size_t i = 0; i < s->command_count; i++) {
        const rune_command *c = &s->commands[i];
        if (c->kind != RUNE_CMD_GRAPH)
            continue;
        graph_run *g = &r->gruns[r->grun_next++];
        g->priority = s->graphs[c->graph].priority;
        if ((st = rune_graph_instance_create(r->graphs[c->graph], r->clip_binding, &r->alloc, &g->inst, err)) ||
            (st = rune_pose_init(&g->pose, rune_rig_joint_count(r->rig), &r->alloc, err)))
            return st;
    }
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
        plays += s->commands[i].kind == RUNE_CMD_PLAY || s->commands[i].kind == RUNE_CMD_GRAPH;
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
    if ((st = prepare_motions(r, err)) || (st = prepare_graphs(r, err)))
        return st;
    r->root = -1;
    if (s->root_motion && s->root_joint) {
        r->root = rune_rig_find(r->rig, s->root_joint);
        if (r->root < 0)
            return rune_fail(err, RUNE_E_INVALID, "root_joint: no joint \"%s\" in the rig", s->root_joint);
    } else if (s->root_motion && rune_rig_joint_count(r->rig) > 0) {
        r->root = 0;
    }
    /* runs are claimed again, in order, as their commands execute */
    r->mtrack_next = 0;
    r->grun_next = 0;
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
        bool live = n->motion  ? n->motion->live
                    : n->graph ? n->graph->live
                               : rune_animator_track(r->anim, n->handle) != NULL;
        return live ? n : NULL;
    }
    return NULL;
}

/* The weight fade of a motion track or graph instance; NULL for clip
 * tracks, whose fades the animator owns. */
static rune_fade *own_fade(const track_name *n)
{
    return n->motion ? &n->motion->fade : (n->graph ? &n->graph->fade : NULL);
}

static void stop_name(runner *r, const track_name *n, float fade)
{
    if (own_fade(n))
        rune_fade_stop(own_fade(n), fade);
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
    bool starts = c->kind == RUNE_CMD_PLAY || c->kind == RUNE_CMD_GRAPH;
    const track_name *n = live_name(r, starts ? c->track : c->target);
    rune_graph_instance *inst = n && n->graph ? n->graph->inst : NULL;
    switch (c->kind) {
    case RUNE_CMD_GRAPH: {
        if (n)
            stop_name(r, n, c->play.fade);
        track_name *slot = &r->names[r->name_count++];
        graph_run *g = slot->graph = &r->gruns[r->grun_next++];
        slot->name = c->track;
        slot->motion = NULL;
        slot->handle = g->handle = rune_animator_new_source(r->anim);
        g->live = true;
        g->fade = (rune_fade){0.0f, 0.0f, 0.0f, false};
        rune_fade_to(&g->fade, c->play.weight, c->play.fade);
        return RUNE_OK;
    }
    case RUNE_CMD_TRIGGER:
        if (inst)
            rune_graph_trigger(inst, c->param_index);
        return RUNE_OK;
    case RUNE_CMD_TRAVEL:
        if (inst)
            rune_graph_travel(inst, c->layer, c->state_index);
        return RUNE_OK;
    case RUNE_CMD_FADE_LAYER:
        if (inst)
            rune_graph_fade_layer(inst, c->layer, c->weight, c->fade);
        return RUNE_OK;
    case RUNE_CMD_PLAY: {
        /* playing an id again replaces it: the old track fades out */
        if (n)
            stop_name(r, n, c->play.fade);
        track_name *slot = &r->names[r->name_count];
        slot->name = c->track;
        slot->motion = NULL;
        slot->graph = NULL;
        if (c->is_motion) {
            slot->motion = &r->mtracks[r->mtrack_next++];
            start_motion(r, c, slot->motion);
            slot->handle = slot->motion->handle;
        } else {
            rune_status st = rune_animator_play(r->anim, r->clip_binding[rune__scenario_clip_index(r->s, c->target)], &c->play,
                                                &slot->handle, err);
            if (st)
                return st;
        }
        r->name_count++;
        return RUNE_OK;
    }
    case RUNE_CMD_ADJUST: {
        rune_adjust_params p = {c->has_weight, c->weight, c->fade, c->has_speed, c->speed};
        if (n && own_fade(n)) {
            if (c->has_weight)
                rune_fade_to(own_fade(n), c->weight, c->fade);
            if (c->has_speed && n->motion)
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
        if (inst)
            rune_graph_set_param(inst, c->param_index, c->value);
        else if (n && n->motion)
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

/* Ends a run whose stop fade finished (raising `stopped`); true if it did. */
static bool retire(rune_signal_queue *q, const rune_fade *fade, uint32_t handle, bool *live)
{
    if (!rune_fade_finished(fade))
        return false;
    rune_event e = {RUNE_EVENT_STOPPED, handle, NULL, NULL, 0.0f};
    rune_signal_queue_push(q, &e);
    *live = false;
    return true;
}

/* Advances live motion tracks and graph instances, retires finished ones,
 * and evaluates the rest into r->extra; returns how many it wrote. */
static size_t advance_motions(runner *r, float dt)
{
    size_t k = 0;
    rune_signal_queue *q = rune_animator_signals(r->anim);
    for (size_t i = 0; i < r->mtrack_next; i++) {
        motion_track *t = &r->mtracks[i];
        if (!t->live)
            continue;
        rune_fade_advance(&t->fade, dt);
        rune_motion_player_set_params(t->player, t->params);
        t->from = rune_motion_player_progress(t->player);
        rune_motion_player_advance(t->player, dt, t->speed, q, t->handle);
        t->to = rune_motion_player_progress(t->player);
        if (!retire(q, &t->fade, t->handle, &t->live)) {
            rune_motion_player_sample(t->player, &t->pose);
            r->extra[k++] = (rune_contribution){&t->pose, t->fade.weight, t->priority, NULL};
        }
    }
    for (size_t i = 0; i < r->grun_next; i++) {
        graph_run *g = &r->gruns[i];
        if (!g->live)
            continue;
        rune_fade_advance(&g->fade, dt);
        rune_graph_update(g->inst, dt, q, g->handle);
        if (!retire(q, &g->fade, g->handle, &g->live)) {
            rune_graph_evaluate(g->inst, &g->pose);
            r->extra[k++] = (rune_contribution){&g->pose, g->fade.weight, g->priority, NULL};
        }
    }
    return k;
}

/* Root travel of this frame: from the first live graph instance's first
 * layer, else from the lowest-priority live track (the earliest started
 * among equals), weighted by min(1, its weight). */
static rune_root_delta root_motion(runner *r)
{
    rune_root_delta none = {0.0f, 0.0f, 0.0f};
    if (r->root < 0)
        return none;
    rune_xform frame = rune_rig_frame(r->rig, (size_t)r->root);
    rune_vec3 up = rune_root_up_axis(frame);
    rune_root_travel acc = {{0.0f, 0.0f, 0.0f}, 0.0f};
    for (size_t i = 0; i < r->grun_next; i++) {
        if (!r->gruns[i].live)
            continue;
        rune_graph_play_view v[2];
        size_t n = rune_graph_layer_plays(r->gruns[i].inst, 0, v);
        for (size_t k = 0; k < n; k++)
            rune_root_motion_travel(v[k].player, r->root, up, v[k].from, v[k].to, v[k].weight, &acc);
        return rune_root_to_model(frame, acc);
    }
    const rune_track *best = NULL;
    const motion_track *best_m = NULL;
    int prio = RUNE_PRIORITY_COUNT;
    uint32_t handle = UINT32_MAX;
    for (size_t i = 0; i < rune_animator_slot_count(r->anim); i++) {
        const rune_track *t = rune_animator_slot(r->anim, i);
        if (t && (t->priority < prio || (t->priority == prio && t->handle < handle))) {
            best = t;
            prio = t->priority;
            handle = t->handle;
        }
    }
    for (size_t i = 0; i < r->mtrack_next; i++) {
        const motion_track *m = &r->mtracks[i];
        if (m->live && (m->priority < prio || (m->priority == prio && m->handle < handle))) {
            best_m = m;
            best = NULL;
            prio = m->priority;
            handle = m->handle;
        }
    }
    if (best) {
        float w = fminf(1.0f, best->fade.weight);
        rune_root_travel t = rune_root_clip_travel(best->binding, r->root, up, best->step_from, best->step_to);
        acc.t = rune_v3_scale(t.t, w);
        acc.yaw = w * t.yaw;
    } else if (best_m) {
        rune_root_motion_travel(best_m->player, r->root, up, best_m->from, best_m->to,
                                fminf(1.0f, best_m->fade.weight), &acc);
    }
    return rune_root_to_model(frame, acc);
}

static void add_weight(runner *r, const char *source, float w)
{
    if (r->weight_count < RUNE_SCENARIO_MAX_WEIGHTS)
        r->weights[r->weight_count++] = (rune_scenario_weight){source, w};
}

/* Weights of the live sources, in start order; a motion track also lists
 * its leaves' blend weights as "track/clip". */
static void collect_weights(runner *r)
{
    r->weight_count = 0;
    for (size_t i = 0; i < r->name_count; i++) {
        const track_name *n = &r->names[i];
        if (n->motion && n->motion->live) {
            add_weight(r, n->name, n->motion->fade.weight);
            const rune_motion_player *p = n->motion->player;
            for (size_t l = 0; l < rune_motion_player_leaf_count(p) && r->weight_count < RUNE_SCENARIO_MAX_WEIGHTS; l++) {
                char *label = r->leaf_names[r->weight_count];
                snprintf(label, sizeof r->leaf_names[0], "%s/%s", n->name,
                         rune_clip_id(rune_motion_player_leaf_compiled_clip(p, l)));
                add_weight(r, label, rune_motion_player_leaf_weight(p, l));
            }
        } else if (n->graph && n->graph->live) {
            add_weight(r, n->name, n->graph->fade.weight);
        } else if (!n->motion && !n->graph) {
            const rune_track *t = rune_animator_track(r->anim, n->handle);
            if (t)
                add_weight(r, n->name, t->fade.weight);
        }
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
        size_t extra = advance_motions(&r, s->dt);
        if ((st = rune_animator_evaluate(r.anim, r.extra, extra, err)))
            break;
        rune_root_delta root = root_motion(&r);
        if (r.root >= 0)
            rune_root_strip(rune_animator_pose_edit(r.anim), r.root, rune_rig_frame(r.rig, (size_t)r.root));
        r.event_count = 0;
        rune_animator_deliver(r.anim, collect, &r);
        collect_weights(&r);
        rune_frame_report rep = {f,       (double)(f + 1) * s->dt, r.rig, rune_animator_pose(r.anim), r.events,
                                 r.event_count, root,                  r.weights, r.weight_count};
        if (fn)
            fn(user, &rep);
    }
    if (st)
        rune_error_prefix(err, "%s: ", s->file);
    runner_free(&r);
    return st;
}
