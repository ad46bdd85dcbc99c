/* A character's graphs: starting graph instances (ended ones are kept for
 * the next start of the same graph), their parameters (and those of
 * motion runs), triggers, travel and layer fades. */
#include "character_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <math.h>
#include <string.h>

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
        st = rune_pose_init_rig(&r->pose, ch->rig, &ch->alloc, err);
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
    RUNE_REQUIRE(err, ch, "ch");
    if (graph >= rune_library_graph_count(ch->lib))
        return rune_fail(err, RUNE_E_INVALID, "graph %u is outside the library", graph);
    if (!rune__character_reserve_live(ch, &ch->live_graphs, &ch->live_graph_cap, ch->live_graph_count))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory starting a graph");
    rune_play_params p = rune__play_params_or_defaults(params);
    float blend;
    size_t slot = 0;
    rune_status st = rune__character_inertial_play(ch, &p, &blend, err);
    /* a graph whose transitions inertialize keeps the poses they start from */
    if (!st && rune__graph_inertializes(rune_library_graph(ch->lib, graph)) && !rune__character_arm_inertia(ch))
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory starting a graph");
    if (!st)
        st = graph_slot(ch, graph, &slot, err);
    if (st)
        return st;
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
    if (blend > 0.0f)
        rune__inertia_request(ch->inertia, blend);
    return RUNE_OK;
}

bool rune_character_set_param(rune_character *ch, uint32_t handle, uint32_t param, float value)
{
    RUNE_ASSUME(ch);
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
    RUNE_ASSUME(ch);
    graph_run *g = live_graph((rune_character *)ch, handle);
    if (g)
        return param < rune_graph_param_count(rune_graph_instance_graph(g->inst)) ? rune_graph_param(g->inst, param)
                                                                                  : 0.0f;
    motion_run *m = live_motion((rune_character *)ch, handle);
    return m && param < rune_library_param_count(ch->lib) ? m->params[param] : 0.0f;
}

bool rune_character_trigger(rune_character *ch, uint32_t handle, uint32_t param)
{
    RUNE_ASSUME(ch);
    graph_run *g = live_graph(ch, handle);
    if (!g || param >= rune_graph_param_count(rune_graph_instance_graph(g->inst)))
        return false;
    rune_graph_trigger(g->inst, param);
    return true;
}

bool rune_character_travel(rune_character *ch, uint32_t handle, uint32_t layer, uint32_t state)
{
    RUNE_ASSUME(ch);
    graph_run *g = live_graph(ch, handle);
    return g && rune_graph_travel(g->inst, layer, state);
}

bool rune_character_fade_layer(rune_character *ch, uint32_t handle, uint32_t layer, float weight, float fade)
{
    RUNE_ASSUME(ch);
    graph_run *g = live_graph(ch, handle);
    if (!g || layer >= rune_graph_layer_count(rune_graph_instance_graph(g->inst)))
        return false;
    rune_graph_fade_layer(g->inst, layer, weight, fade);
    return true;
}

