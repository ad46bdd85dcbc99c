/* Graph evaluation: each layer's pose (a cross-fade is a weighted mean of
 * source and destination, coverages included), then the layers composed in
 * definition order: override by layer weight x mask x coverage, additive as
 * a weighted delta from the clip's initial pose. */
#include "graph_internal.h"
#include "rune/mix.h"

/* Samples one side of a fade (a play, or the frozen pose) into pose/ref. */
static void side(rune_graph_instance *inst, layer_run *l, int32_t slot, bool frozen, bool additive,
                 rune_pose *pose, rune_pose *ref)
{
    if (frozen) {
        rune_pose_copy(pose, &l->pose[LP_FROZEN]);
        rune_pose_copy(ref, &l->pose[LP_FROZEN_REF]);
        return;
    }
    rune_motion_player *p = inst->slots[slot].player;
    rune_motion_player_sample(p, pose);
    if (additive)
        rune_motion_player_sample_reference(p, ref);
}

static void mean2(const rune_pose *a, float wa, const rune_pose *b, float wb, rune_pose *out)
{
    rune_contribution cs[2] = {{a, wa, 0, NULL}, {b, wb, 0, NULL}};
    rune_mix_mean(cs, 2, RUNE_SIMD_AUTO, out);
}

void rune__graph_layer_pose(rune_graph_instance *inst, size_t li)
{
    layer_run *l = &inst->layers[li];
    bool additive = inst->g->layers[li].blend == RUNE_LAYER_ADDITIVE;
    rune_pose *last = &l->pose[LP_LAST], *last_ref = &l->pose[LP_LAST_REF];
    l->last_fresh = l->fading;
    if (!l->fading) {
        side(inst, l, l->cur, false, additive, last, last_ref);
        return;
    }
    float a = rune__graph_alpha(l);
    side(inst, l, l->src, l->frozen, additive, &l->pose[LP_A], &l->pose[LP_REF_A]);
    side(inst, l, l->cur, false, additive, &l->pose[LP_B], &l->pose[LP_REF_B]);
    mean2(&l->pose[LP_A], 1.0f - a, &l->pose[LP_B], a, last);
    if (additive)
        mean2(&l->pose[LP_REF_A], 1.0f - a, &l->pose[LP_REF_B], a, last_ref);
}

/* A steady layer (an override layer that is not fading) is laid straight
 * from its play, without a layer pose: its pose is needed again only to
 * freeze an interrupted fade, and a layer that is not fading cannot be
 * interrupted on the next update (a fade interrupted before any
 * evaluation blends its pose then: graph_update.c's fire). The first
 * one, when it is the first layer, is sampled straight into `out`. */
static bool first_in_place(const rune_graph_instance *inst, const rune_pose *out)
{
    const rune_graph *g = inst->g;
    return g->layer_count > 0 && rune__graph_layer_steady(inst, 0) && out->count == g->joint_count &&
           out->stride == inst->pose_stride && out->curve_count == g->curve_count;
}

void rune_graph_evaluate(rune_graph_instance *inst, rune_pose *out)
{
    const rune_graph *g = inst->g;
    size_t li = 0;
    if (first_in_place(inst, out)) {
        rune_motion_player_sample(inst->slots[inst->layers[0].cur].player, out);
        rune_mix_layer_onto_reset(out, g->layers[0].mask, inst->layers[0].weight.weight);
        li = 1;
    } else {
        rune_pose_reset(out);
    }
    for (; li < g->layer_count; li++) {
        const graph_layer *gl = &g->layers[li];
        layer_run *l = &inst->layers[li];
        if (rune__graph_layer_steady(inst, li)) {
            rune_motion_player_layer(inst->slots[l->cur].player, out, gl->mask, l->weight.weight);
            continue;
        }
        rune__graph_layer_pose(inst, li);
        const rune_pose *ref = gl->blend == RUNE_LAYER_ADDITIVE ? &l->pose[LP_LAST_REF] : NULL;
        rune_mix_layer(out, &l->pose[LP_LAST], ref, gl->mask, l->weight.weight, RUNE_SIMD_AUTO);
    }
}
