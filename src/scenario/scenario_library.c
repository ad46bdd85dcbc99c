/* A scenario's library: the rig, its clips (indexes as in the document),
 * the parameter table, motions and graphs, built from the loaded document
 * by the library's own calls. Errors name the document's JSON path. */
#include "rune/io.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <stdlib.h>

static rune_status add_graph(rune_library *lib, const rune_scenario *s, size_t gi, rune_error *err)
{
    const rune_scenario_graph *sg = &s->graphs[gi];
    const rune_rig *rig = rune_library_rig(lib);
    rune_allocator a = *rune_default_allocator();
    size_t states = 0, masks = 0;
    for (size_t li = 0; li < sg->layer_count; li++) {
        states += sg->layers[li].state_count;
        masks += sg->layers[li].mask_count;
    }
    rune_param_desc *params = rune__calloc(&a, s->param_count, sizeof *params);
    const char **names = rune__calloc(&a, s->param_count, sizeof *names);
    rune_layer_desc *layers = rune__calloc(&a, sg->layer_count, sizeof *layers);
    rune_state_desc *sd = rune__calloc(&a, states, sizeof *sd);
    rune_mask_entry *md = rune__calloc(&a, masks, sizeof *md);
    rune_status st = RUNE_OK;
    if (!params || !names || !layers || !sd || !md)
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory preparing graphs");
    for (size_t k = 0; !st && k < sg->declared_count; k++) {
        params[sg->declared[k]] = sg->declared_desc[k];
        names[sg->declared[k]] = s->params[sg->declared[k]];
    }
    size_t at = 0, mat = 0;
    for (size_t li = 0; !st && li < sg->layer_count; li++) {
        const rune_scenario_layer *sl = &sg->layers[li];
        rune_layer_desc *ld = &layers[li];
        *ld = (rune_layer_desc){.blend = sl->blend, .weight = sl->weight, .states = &sd[at],
                                .state_count = sl->state_count, .initial_state = sl->initial,
                                .transitions = sl->transitions, .transition_count = sl->transition_count,
                                .mask = sl->has_mask ? &md[mat] : NULL, .mask_count = sl->mask_count,
                                .name = sl->name};
        for (size_t k = 0; !st && k < sl->state_count; k++, at++) {
            const rune_scenario_state *ss = &sl->states[k];
            sd[at] = (rune_state_desc){.speed = ss->speed, .sync_group = ss->sync_group, .name = ss->name};
            sd[at].motion = ss->is_clip ? rune_library_clip_motion(lib, ss->index)
                                        : rune_library_motion(lib, ss->index);
            if (!sd[at].motion)
                st = rune_fail(err, RUNE_E_NOMEM, "out of memory preparing graphs");
        }
        for (size_t k = 0; !st && k < sl->mask_count; k++, mat++) {
            md[mat] = sl->mask[k];
            if (rune_rig_find_joint(rig, sl->mask_joints[k], &md[mat].joint, err)) {
                rune_error_prefix(err, "layers[%zu].mask[%zu].joint: ", li, k);
                st = err ? (err->status = RUNE_E_INVALID) : RUNE_E_INVALID;
            }
        }
    }
    if (!st) {
        rune_graph_desc d = {params, s->param_count, layers, sg->layer_count, names};
        st = rune_library_add_graph(lib, sg->id, sg->priority, &d, NULL, err);
    }
    if (st)
        rune_error_prefix(err, "graphs[%zu].", gi);
    rune__free(&a, params, s->param_count, sizeof *params);
    rune__free(&a, names, s->param_count, sizeof *names);
    rune__free(&a, layers, sg->layer_count, sizeof *layers);
    rune__free(&a, sd, states, sizeof *sd);
    rune__free(&a, md, masks, sizeof *md);
    return st;
}

/* Every source rig's mapping onto the document's rig: the "retargets"
 * entry for it (its names checked here, where the rigs exist), or by name
 * alone. Mappings live while the clips are added (they are retargeted
 * then). */
static rune_status check_map(const rune_scenario *s, size_t k, const rune_rig *src, const rune_rig *dst, rune_error *err)
{
    const rune_scenario_retarget *m = &s->retargets[k];
    const char *id = s->source_rigs[m->from].id;
    for (size_t i = 0; i < m->map_count; i++) {
        int32_t j;
        rune_status st = rune_rig_find_joint(src, m->map[i].source, &j, err);
        if (st == RUNE_E_NOT_FOUND)
            return rune_fail(err, RUNE_E_INVALID, "retargets[%zu].map.%s: no joint \"%s\" in source rig \"%s\"", k,
                             m->map[i].source, m->map[i].source, id);
        if (st) /* ambiguous */
            rune_error_prefix(err, "retargets[%zu].map.%s: source rig \"%s\": ", k, m->map[i].source, id);
        else if (m->map[i].target && (st = rune_rig_find_joint(dst, m->map[i].target, &j, err)))
            rune_error_prefix(err, "retargets[%zu].map.%s: ", k, m->map[i].source);
        if (st)
            return err ? (err->status = RUNE_E_INVALID) : RUNE_E_INVALID;
    }
    return RUNE_OK;
}

static rune_status make_retarget(const rune_scenario *s, size_t r, const rune_rig *dst, rune_retarget **out,
                                 rune_error *err)
{
    const rune_scenario_rig *sr = &s->source_rigs[r];
    rune_rig *src;
    rune_status st = rune_rig_create(sr->joints, sr->joint_count, NULL, &src, err);
    if (st) {
        rune_error_prefix(err, "source_rigs[%zu].", r);
        return st;
    }
    size_t k = 0;
    while (k < s->retarget_count && s->retargets[k].from != r)
        k++;
    const rune_scenario_retarget *m = k < s->retarget_count ? &s->retargets[k] : NULL;
    if (m && (st = check_map(s, k, src, dst, err))) {
        rune_rig_destroy(src);
        return st;
    }
    rune_retarget_desc d = {src, dst, m ? m->map : NULL, m ? m->map_count : 0, m && m->no_foot_ik};
    st = rune_retarget_create(&d, NULL, out, err);
    if (st)
        rune_error_prefix(err, m ? "retargets[%zu]: " : "source_rigs[%zu]: ", m ? k : r);
    rune_rig_destroy(src);
    return st;
}

static void free_retargets(const rune_scenario *s, rune_retarget **maps)
{
    for (size_t r = 0; maps && r < s->source_rig_count; r++)
        rune_retarget_destroy(maps[r]);
    free(maps);
}

static rune_status make_retargets(const rune_scenario *s, const rune_rig *dst, rune_retarget ***out, rune_error *err)
{
    *out = NULL;
    if (!s->source_rig_count)
        return RUNE_OK;
    rune_retarget **maps = calloc(s->source_rig_count, sizeof *maps);
    if (!maps)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory preparing retargets");
    for (size_t r = 0; r < s->source_rig_count; r++) {
        rune_status st = make_retarget(s, r, dst, &maps[r], err);
        if (st) {
            free_retargets(s, maps);
            return st;
        }
    }
    *out = maps;
    return RUNE_OK;
}

rune_status rune_scenario_library(const rune_scenario *s, const rune_allocator *alloc, rune_library **out,
                                  rune_error *err)
{
    RUNE_REQUIRE(err, s, "scenario");
    RUNE_REQUIRE(err, out, "out");
    rune_library *lib;
    rune_status st = rune_library_create(s->joints, s->joint_count, alloc, &lib, err);
    if (st) {
        rune_error_prefix(err, "rig.");
        return st;
    }
    rune_retarget **maps = NULL;
    st = make_retargets(s, rune_library_rig(lib), &maps, err);
    for (size_t i = 0; !st && i < s->clip_count; i++) {
        int32_t r = s->clip_rig ? s->clip_rig[i] : -1;
        st = r < 0 ? rune_library_add_clip(lib, &s->clips[i], NULL, err)
                   : rune_library_add_retargeted_clip(lib, &s->clips[i], maps[r], NULL, err);
        if (st)
            rune_error_prefix(err, "clips[%zu].", i);
    }
    free_retargets(s, maps);
    uint32_t p;
    for (size_t i = 0; !st && i < s->param_count; i++)
        st = rune_library_add_param(lib, s->params[i], &p, err);
    for (size_t i = 0; !st && i < s->motion_count; i++) {
        const rune_scenario_motion *m = &s->motions[i];
        if ((st = rune_library_add_motion(lib, m->id, m->priority, m->nodes, m->node_count, NULL, err)))
            rune_error_prefix(err, "motions[%zu].", i);
    }
    for (size_t gi = 0; !st && gi < s->graph_count; gi++)
        st = add_graph(lib, s, gi, err);
    if (st) {
        rune_library_destroy(lib);
        return st;
    }
    *out = lib;
    return RUNE_OK;
}
