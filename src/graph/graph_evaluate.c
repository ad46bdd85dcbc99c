/* Graph evaluation: each layer's pose (a cross-fade is a weighted mean of
 * source and destination, coverages included), then the layers composed in
 * definition order: override by layer weight x mask x coverage, additive as
 * a weighted delta from the clip's initial pose. */
#include "graph_internal.h"
#include "rune/mix.h"
#include "graph_api_internal.h"

/* Samples one side of a fade (a play, or the frozen pose) into pose/ref. */
static void side(rune_graph_instance *inst, layer_run *l, int32_t slot, bool frozen, bool additive,
                 rune_pose *pose, rune_pose *ref)
{
    if (frozen) {
        rune_pose_copy(pose, &l->pose[LP_FROZEN]);
        if (additive) /* an override layer has no references */
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

/* A fading layer's two sides as the mixer takes them: the source's play
 * (or its frozen pose) and the destination's. */
static void fade_sides(rune_graph_instance *inst, const layer_run *l, rune_fade_side *a, rune_fade_side *b)
{
    *a = (rune_fade_side){NULL, 0, l->frozen ? &l->pose[LP_FROZEN] : NULL};
    if (!l->frozen)
        a->count = rune_motion_player_contributions(inst->slots[l->src].player, &a->contributions);
    *b = (rune_fade_side){NULL, 0, NULL};
    b->count = rune_motion_player_contributions(inst->slots[l->cur].player, &b->contributions);
}

/* Layer li's pose (and an additive layer's reference) into its LP_LAST
 * poses, then, with `out`, laid over out. A fade of a layer without the
 * sides' poses runs a chunk of joints at a time on the stack
 * (rune_mix_fade_layer: the same bits as through the poses). */
static void layer_pose_onto(rune_graph_instance *inst, size_t li, rune_pose *out)
{
    layer_run *l = &inst->layers[li];
    const graph_layer *gl = &inst->g->layers[li];
    bool additive = gl->blend == RUNE_LAYER_ADDITIVE;
    rune_pose *last = &l->pose[LP_LAST], *last_ref = &l->pose[LP_LAST_REF];
    l->last_fresh = l->fading;
    /* a layer made without the sides' poses mixes them on the stack: an
     * override layer of unscaled clips in a graph without curves
     * (graph_instance.c's fade_sides_posed), whose frozen pose is then a
     * stack fade's, unscaled too */
    if (l->fading && !l->pose[LP_A].block) {
        rune_fade_side a, b;
        fade_sides(inst, l, &a, &b);
        rune_mix_fade_layer(out, last, a, b, rune__graph_alpha(l), gl->mask, l->weight.weight, RUNE_SIMD_AUTO);
        return;
    }
    if (!l->fading) {
        side(inst, l, l->cur, false, additive, last, last_ref);
    } else {
        float alpha = rune__graph_alpha(l);
        side(inst, l, l->src, l->frozen, additive, &l->pose[LP_A], &l->pose[LP_REF_A]);
        side(inst, l, l->cur, false, additive, &l->pose[LP_B], &l->pose[LP_REF_B]);
        mean2(&l->pose[LP_A], 1.0f - alpha, &l->pose[LP_B], alpha, last);
        if (additive)
            mean2(&l->pose[LP_REF_A], 1.0f - alpha, &l->pose[LP_REF_B], alpha, last_ref);
    }
    if (out)
        rune_mix_layer(out, last, additive ? last_ref : NULL, gl->mask, l->weight.weight, RUNE_SIMD_AUTO);
}

void rune__graph_layer_pose(rune_graph_instance *inst, size_t li) { layer_pose_onto(inst, li, NULL); }

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
        layer_pose_onto(inst, li, out);
    }
}
