/* A scenario's library: the rig, its clips (indexes as in the document),
 * the parameter table, motions and graphs, built from the loaded document
 * by the library's own calls. Errors name the document's JSON path. */
#include "rune/io.h"
#include "../base/alloc.h"

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
            md[mat].joint = rune_rig_find(rig, sl->mask_joints[k]);
            if (md[mat].joint < 0)
                st = rune_fail(err, RUNE_E_INVALID, "layers[%zu].mask[%zu].joint: no joint \"%s\" in the rig", li, k,
                               sl->mask_joints[k]);
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

rune_status rune_scenario_library(const rune_scenario *s, const rune_allocator *alloc, rune_library **out,
                                  rune_error *err)
{
    rune_library *lib;
    rune_status st = rune_library_create(s->joints, s->joint_count, alloc, &lib, err);
    if (st) {
        rune_error_prefix(err, "rig.");
        return st;
    }
    for (size_t i = 0; !st && i < s->clip_count; i++)
        if ((st = rune_library_add_clip(lib, &s->clips[i], NULL, err)))
            rune_error_prefix(err, "clips[%zu].", i);
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
