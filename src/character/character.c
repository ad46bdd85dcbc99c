/* A character: creation, starting and steering plays (clip tracks through
 * the animator, motion tracks and graph instances here), controls, and
 * read-only views. Runs that end are kept for the next play of the same
 * motion or graph, so after warm-up nothing here allocates. */
#include "character_internal.h"
#include "../base/alloc.h"

#include <string.h>

rune_status rune_character_create(const rune_character_desc *desc, const rune_allocator *alloc,
                                  rune_character **out, rune_error *err)
{
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    if (!desc || !desc->lib)
        return rune_fail(err, RUNE_E_INVALID, "character: no library");
    const rune_rig *rig = rune_library_rig(desc->lib);
    if (desc->root_joint != RUNE_NO_ROOT &&
        (desc->root_joint < 0 || (size_t)desc->root_joint >= rune_rig_joint_count(rig)))
        return rune_fail(err, RUNE_E_INVALID, "character: root joint %d is outside the rig", desc->root_joint);
    rune_character *ch = rune__calloc(alloc, 1, sizeof *ch);
    if (!ch)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a character");
    ch->alloc = *alloc;
    ch->lib = desc->lib;
    ch->rig = rig;
    ch->root = desc->root_joint;
    ch->matrices_each_frame = desc->matrices;
    rune_status st = rune_animator_create(rig, desc->signal_capacity, alloc, &ch->anim, err);
    if (!st && desc->matrices && !rune_character_model_matrices(ch))
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory creating a character");
    if (st) {
        rune_character_destroy(ch);
        return st;
    }
    rune_animator_set_simd(ch->anim, desc->simd);
    *out = ch;
    return RUNE_OK;
}

void rune_character_destroy(rune_character *ch)
{
    if (!ch)
        return;
    const rune_allocator *a = &ch->alloc;
    size_t params = rune_library_param_count(ch->lib);
    for (size_t i = 0; i < ch->motion_count; i++) {
        rune_motion_player_destroy(ch->motions[i].player);
        rune_pose_release(&ch->motions[i].pose);
        rune__free(a, ch->motions[i].params, params, sizeof(float));
    }
    rune__free(a, ch->motions, ch->motion_cap, sizeof *ch->motions);
    for (size_t i = 0; i < ch->graph_count; i++) {
        rune_graph_instance_destroy(ch->graphs[i].inst);
        rune_pose_release(&ch->graphs[i].pose);
    }
    rune__free(a, ch->graphs, ch->graph_cap, sizeof *ch->graphs);
    rune__free(a, ch->live_motions, ch->live_motion_cap, sizeof *ch->live_motions);
    rune__free(a, ch->live_graphs, ch->live_graph_cap, sizeof *ch->live_graphs);
    rune__free(a, ch->extra, ch->extra_cap, sizeof *ch->extra);
    rune__free(a, ch->matrices, rune_rig_joint_count(ch->rig), sizeof *ch->matrices);
    rune_animator_destroy(ch->anim);
    rune_allocator al = ch->alloc;
    rune__free(&al, ch, 1, sizeof *ch);
}

const rune_library *rune_character_library(const rune_character *ch) { return ch->lib; }

static rune_play_params params_or_defaults(const rune_play_params *p)
{
    return p ? *p : rune_play_defaults();
}

rune_status rune_character_play_clip(rune_character *ch, uint32_t clip, const rune_play_params *params,
                                     uint32_t *handle, rune_error *err)
{
    const rune_binding *b = rune_library_binding(ch->lib, clip);
    if (!b)
        return rune_fail(err, RUNE_E_INVALID, "play: clip %u is outside the library", clip);
    rune_play_params p = params_or_defaults(params);
    uint32_t h;
    rune_status st = rune_animator_play(ch->anim, b, &p, &h, err);
    if (!st && handle)
        *handle = h;
    return st;
}

/* Room for one more live run: its place in the live list and a slot among
 * the frame's extra contributions (warm-up growth, all or nothing). */
static bool reserve_live(rune_character *ch, size_t **live, size_t *live_cap, size_t live_count)
{
    size_t extra = ch->live_motion_count + ch->live_graph_count + 1;
    return rune__grow(&ch->alloc, (void **)live, live_cap, live_count + 1, sizeof **live) &&
           rune__grow(&ch->alloc, (void **)&ch->extra, &ch->extra_cap, extra, sizeof *ch->extra);
}

/* An ended run of `motion` to reuse, or a new one, in *slot. */
static rune_status motion_slot(rune_character *ch, uint32_t motion, size_t *slot, rune_error *err)
{
    for (size_t i = 0; i < ch->motion_count; i++)
        if (!ch->motions[i].live && ch->motions[i].motion == motion) {
            rune_motion_player_reset(ch->motions[i].player);
            *slot = i;
            return RUNE_OK;
        }
    size_t params = rune_library_param_count(ch->lib);
    if (!rune__grow(&ch->alloc, (void **)&ch->motions, &ch->motion_cap, ch->motion_count + 1, sizeof *ch->motions))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory playing a motion");
    motion_run *r = &ch->motions[ch->motion_count];
    memset(r, 0, sizeof *r);
    r->motion = motion;
    rune_status st = RUNE_OK;
    if (!(r->params = rune__calloc(&ch->alloc, params, sizeof(float))))
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory playing a motion");
    if (!st)
        st = rune_motion_player_create(rune_library_motion(ch->lib, motion), rune_library_bindings(ch->lib),
                                       &ch->alloc, &r->player, err);
    if (!st)
        st = rune_pose_init(&r->pose, rune_rig_joint_count(ch->rig), &ch->alloc, err);
    if (st) {
        rune_motion_player_destroy(r->player);
        rune_pose_release(&r->pose);
        rune__free(&ch->alloc, r->params, params, sizeof(float));
        return st;
    }
    *slot = ch->motion_count++;
    return RUNE_OK;
}

rune_status rune_character_play_motion(rune_character *ch, uint32_t motion, const rune_play_params *params,
                                       uint32_t *handle, rune_error *err)
{
    if (motion >= rune_library_motion_count(ch->lib))
        return rune_fail(err, RUNE_E_INVALID, "play: motion %u is outside the library", motion);
    if (!reserve_live(ch, &ch->live_motions, &ch->live_motion_cap, ch->live_motion_count))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory playing a motion");
    size_t slot = 0;
    rune_status st = motion_slot(ch, motion, &slot, err);
    if (st)
        return st;
    rune_play_params p = params_or_defaults(params);
    motion_run *r = &ch->motions[slot];
    memset(r->params, 0, rune_library_param_count(ch->lib) * sizeof(float));
    r->handle = rune_animator_new_source(ch->anim);
    r->live = true;
    r->speed = isfinite(p.speed) ? p.speed : 0.0f;
    r->priority = p.has_priority ? rune_priority_clamp(p.priority) : rune_library_motion_priority(ch->lib, motion);
    r->fade = (rune_fade){0.0f, 0.0f, 0.0f, false};
    rune_fade_to(&r->fade, p.weight, p.fade);
    rune_motion_player_set_progress(r->player, p.time);
    r->from = r->to = rune_motion_player_progress(r->player);
    ch->live_motions[ch->live_motion_count++] = slot;
    if (handle)
        *handle = r->handle;
    return RUNE_OK;
}

/* An ended run of `graph` to reuse, or a new one, in *slot. */
static rune_status graph_slot(rune_character *ch, uint32_t graph, size_t *slot, rune_error *err)
{
    for (size_t i = 0; i < ch->graph_count; i++)
        if (!ch->graphs[i].live && ch->graphs[i].graph == graph) {
            rune_graph_instance_reset(ch->graphs[i].inst);
            *slot = i;
            return RUNE_OK;
        }
    if (!rune__grow(&ch->alloc, (void **)&ch->graphs, &ch->graph_cap, ch->graph_count + 1, sizeof *ch->graphs))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory starting a graph");
    graph_run *r = &ch->graphs[ch->graph_count];
    memset(r, 0, sizeof *r);
    r->graph = graph;
    rune_status st = rune_graph_instance_create(rune_library_graph(ch->lib, graph), rune_library_bindings(ch->lib),
                                                &ch->alloc, &r->inst, err);
    if (!st)
        st = rune_pose_init(&r->pose, rune_rig_joint_count(ch->rig), &ch->alloc, err);
    if (st) {
        rune_graph_instance_destroy(r->inst);
        rune_pose_release(&r->pose);
        return st;
    }
    *slot = ch->graph_count++;
    return RUNE_OK;
}

rune_status rune_character_start_graph(rune_character *ch, uint32_t graph, const rune_play_params *params,
                                       uint32_t *handle, rune_error *err)
{
    if (graph >= rune_library_graph_count(ch->lib))
        return rune_fail(err, RUNE_E_INVALID, "graph %u is outside the library", graph);
    if (!reserve_live(ch, &ch->live_graphs, &ch->live_graph_cap, ch->live_graph_count))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory starting a graph");
    size_t slot = 0;
    rune_status st = graph_slot(ch, graph, &slot, err);
    if (st)
        return st;
    rune_play_params p = params_or_defaults(params);
    graph_run *r = &ch->graphs[slot];
    r->handle = rune_animator_new_source(ch->anim);
    r->live = true;
    r->speed = isfinite(p.speed) ? p.speed : 0.0f;
    r->priority = p.has_priority ? rune_priority_clamp(p.priority) : rune_library_graph_priority(ch->lib, graph);
    r->fade = (rune_fade){0.0f, 0.0f, 0.0f, false};
    rune_fade_to(&r->fade, p.weight, p.fade);
    ch->live_graphs[ch->live_graph_count++] = slot;
    if (handle)
        *handle = r->handle;
    return RUNE_OK;
}

static motion_run *live_motion(const rune_character *ch, uint32_t handle)
{
    for (size_t i = 0; i < ch->live_motion_count; i++)
        if (ch->motions[ch->live_motions[i]].handle == handle)
            return &ch->motions[ch->live_motions[i]];
    return NULL;
}

static graph_run *live_graph(const rune_character *ch, uint32_t handle)
{
    for (size_t i = 0; i < ch->live_graph_count; i++)
        if (ch->graphs[ch->live_graphs[i]].handle == handle)
            return &ch->graphs[ch->live_graphs[i]];
    return NULL;
}

/* The weight fade and speed of a motion or graph run; NULL for anything
 * else (clip tracks belong to the animator). */
static rune_fade *run_fade(const rune_character *ch, uint32_t handle, float **speed)
{
    motion_run *m = live_motion(ch, handle);
    graph_run *g = m ? NULL : live_graph(ch, handle);
    *speed = m ? &m->speed : (g ? &g->speed : NULL);
    return m ? &m->fade : (g ? &g->fade : NULL);
}

bool rune_character_adjust(rune_character *ch, uint32_t handle, const rune_adjust_params *p)
{
    float *speed;
    rune_fade *fade = run_fade(ch, handle, &speed);
    if (!fade)
        return rune_animator_adjust(ch->anim, handle, p);
    if (p->set_weight)
        rune_fade_to(fade, p->weight, p->fade);
    if (p->set_speed && isfinite(p->speed))
        *speed = p->speed;
    return true;
}

bool rune_character_stop(rune_character *ch, uint32_t handle, float fade)
{
    float *speed;
    rune_fade *f = run_fade(ch, handle, &speed);
    if (!f)
        return rune_animator_stop(ch->anim, handle, fade);
    rune_fade_stop(f, fade);
    return true;
}

bool rune_character_set_param(rune_character *ch, uint32_t handle, uint32_t param, float value)
{
    graph_run *g = live_graph(ch, handle);
    if (g) {
        if (param >= rune_graph_param_count(rune_graph_instance_graph(g->inst)))
            return false;
        rune_graph_set_param(g->inst, param, value);
        return true;
    }
    motion_run *m = live_motion(ch, handle);
    if (!m || param >= rune_library_param_count(ch->lib))
        return false;
    m->params[param] = isfinite(value) ? value : 0.0f;
    return true;
}

float rune_character_param(const rune_character *ch, uint32_t handle, uint32_t param)
{
    graph_run *g = live_graph((rune_character *)ch, handle);
    if (g)
        return param < rune_graph_param_count(rune_graph_instance_graph(g->inst)) ? rune_graph_param(g->inst, param)
                                                                                  : 0.0f;
    motion_run *m = live_motion((rune_character *)ch, handle);
    return m && param < rune_library_param_count(ch->lib) ? m->params[param] : 0.0f;
}

bool rune_character_trigger(rune_character *ch, uint32_t handle, uint32_t param)
{
    graph_run *g = live_graph(ch, handle);
    if (!g || param >= rune_graph_param_count(rune_graph_instance_graph(g->inst)))
        return false;
    rune_graph_trigger(g->inst, param);
    return true;
}

bool rune_character_travel(rune_character *ch, uint32_t handle, uint32_t layer, uint32_t state)
{
    graph_run *g = live_graph(ch, handle);
    return g && rune_graph_travel(g->inst, layer, state);
}

bool rune_character_fade_layer(rune_character *ch, uint32_t handle, uint32_t layer, float weight, float fade)
{
    graph_run *g = live_graph(ch, handle);
    if (!g || layer >= rune_graph_layer_count(rune_graph_instance_graph(g->inst)))
        return false;
    rune_graph_fade_layer(g->inst, layer, weight, fade);
    return true;
}

rune_status rune_character_set_control(rune_character *ch, const rune_control *control, rune_error *err)
{
    return rune_animator_set_control(ch->anim, control, err);
}

bool rune_character_remove_control(rune_character *ch, uint32_t id)
{
    return rune_animator_remove_control(ch->anim, id);
}

void rune_character_deliver(rune_character *ch, rune_signal_fn fn, void *user)
{
    rune_animator_deliver(ch->anim, fn, user);
}

const rune_pose *rune_character_pose(const rune_character *ch) { return rune_animator_pose(ch->anim); }
rune_root_delta rune_character_root_delta(const rune_character *ch) { return ch->root_delta; }

const rune_mat4 *rune_character_model_matrices(rune_character *ch)
{
    size_t n = rune_rig_joint_count(ch->rig);
    if (!ch->matrices && !(ch->matrices = rune__calloc(&ch->alloc, n, sizeof *ch->matrices)))
        return NULL;
    if (!ch->matrices_fresh) {
        rune_rig_model_matrices(ch->rig, rune_animator_pose(ch->anim), ch->matrices);
        ch->matrices_fresh = true;
    }
    return ch->matrices;
}

bool rune_character_skinning_matrices(rune_character *ch, const rune_mat4 *inverse_bind, rune_mat4 *out)
{
    const rune_mat4 *model = rune_character_model_matrices(ch);
    if (!model)
        return false;
    rune_skinning_matrices(model, inverse_bind, rune_rig_joint_count(ch->rig), out);
    return true;
}

static rune_source_view track_view(const rune_track *t)
{
    return (rune_source_view){t->handle, RUNE_SOURCE_CLIP, 0, t->priority, t->fade.weight, t, NULL, NULL};
}

static rune_source_view motion_view(const motion_run *m)
{
    return (rune_source_view){m->handle, RUNE_SOURCE_MOTION, m->motion, m->priority, m->fade.weight, NULL, m->player,
                              NULL};
}

static rune_source_view graph_view(const graph_run *g)
{
    return (rune_source_view){g->handle, RUNE_SOURCE_GRAPH, g->graph, g->priority, g->fade.weight, NULL, NULL,
                              g->inst};
}

/* Inserts v into out[0..n) sorted by handle, keeping at most cap. */
static void insert_by_handle(rune_source_view *out, size_t n, size_t cap, rune_source_view v)
{
    size_t k = n < cap ? n : cap;
    while (k > 0 && out[k - 1].handle > v.handle) {
        if (k < cap)
            out[k] = out[k - 1];
        k--;
    }
    if (k < cap)
        out[k] = v;
}

size_t rune_character_sources(const rune_character *ch, rune_source_view *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < rune_animator_slot_count(ch->anim); i++) {
        const rune_track *t = rune_animator_slot(ch->anim, i);
        if (t)
            insert_by_handle(out, n++, cap, track_view(t));
    }
    for (size_t i = 0; i < ch->live_motion_count; i++)
        insert_by_handle(out, n++, cap, motion_view(&ch->motions[ch->live_motions[i]]));
    for (size_t i = 0; i < ch->live_graph_count; i++)
        insert_by_handle(out, n++, cap, graph_view(&ch->graphs[ch->live_graphs[i]]));
    return n;
}

bool rune_character_source(const rune_character *ch, uint32_t handle, rune_source_view *out)
{
    const rune_track *t = rune_animator_track(ch->anim, handle);
    const motion_run *m = t ? NULL : live_motion(ch, handle);
    const graph_run *g = t || m ? NULL : live_graph(ch, handle);
    if (t)
        *out = track_view(t);
    else if (m)
        *out = motion_view(m);
    else if (g)
        *out = graph_view(g);
    return t || m || g;
}

const rune_graph_instance *rune_character_graph_instance(const rune_character *ch, uint32_t handle)
{
    const graph_run *g = live_graph(ch, handle);
    return g ? g->inst : NULL;
}

size_t rune_character_dropped_signals(const rune_character *ch) { return rune_animator_dropped_signals(ch->anim); }

void rune__character_prefetch_header(const rune_character *ch)
{
    __builtin_prefetch(ch);
    __builtin_prefetch((const char *)ch + 64);
    rune_animator_prefetch(ch->anim, false);
}

void rune__character_prefetch_state(const rune_character *ch)
{
    rune_animator_prefetch(ch->anim, true);
    for (size_t i = 0; i < ch->live_motion_count; i++)
        __builtin_prefetch(&ch->motions[ch->live_motions[i]]);
    for (size_t i = 0; i < ch->live_graph_count; i++)
        __builtin_prefetch(&ch->graphs[ch->live_graphs[i]]);
}
