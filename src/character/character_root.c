/* Root travel of a character's frame: every live contribution's root
 * travel (a clip track's root track over the interval it crossed, a motion
 * track's leaves, a graph's first layer plays), weighted the way the
 * priority mixer weighted the root joint. A contribution of rank r with
 * share s = clamp(weight x root coverage, 0, 1) counts
 *     e = s / S_r x min(1, S_r) x prod over higher ranks q of (1 - min(1, S_q)),
 * S_r the rank's sum of shares: its part of the rank's mean, times the
 * rank's coverage, times what the ranks above leave visible. So a
 * cross-fade between two clips walking at one speed reports that speed on
 * every frame, and a lone track at weight 0.5 half its travel. */
#include "character_internal.h"

typedef struct root_ctx {
    int32_t root;
    rune_vec3 up;
    float sum[RUNE_PRIORITY_COUNT];   /* shares per rank */
    float above[RUNE_PRIORITY_COUNT]; /* what higher ranks leave visible */
    rune_root_travel acc;
    rune_root_memo *memo; /* the character's: each root sample taken once */
    bool weigh; /* second pass: accumulate travel */
} root_ctx;

/* The rig-local travel of one contribution, unweighted. */
typedef struct contribution_ref {
    const rune_track *track;
    const motion_run *motion;
    const graph_run *graph;
} contribution_ref;

static rune_root_travel travel_of(const root_ctx *c, contribution_ref ref)
{
    rune_root_travel t = {{0.0f, 0.0f, 0.0f}, 0.0f};
    if (ref.track)
        return rune_root_clip_travel_memo(ref.track->binding, c->root, c->up, ref.track->step_from, ref.track->step_to,
                                          c->memo);
    if (ref.motion) {
        rune_root_motion_travel(ref.motion->player, c->root, c->up, ref.motion->from, ref.motion->to, 1.0f, c->memo, &t);
        return t;
    }
    rune_graph_play_view v[2];
    size_t n = rune_graph_layer_plays(ref.graph->inst, 0, v);
    for (size_t k = 0; k < n; k++)
        rune_root_motion_travel(v[k].player, c->root, c->up, v[k].from, v[k].to, v[k].weight, c->memo, &t);
    return t;
}

static void visit(root_ctx *c, int priority, float weight, float coverage, contribution_ref ref)
{
    int r = rune_priority_clamp(priority);
    float share = rune_clamp01((isfinite(weight) ? weight : 0.0f) * coverage);
    if (!(share > 0.0f))
        return;
    if (!c->weigh) {
        c->sum[r] += share;
        return;
    }
    float e = share / c->sum[r] * fminf(1.0f, c->sum[r]) * c->above[r];
    rune_root_travel t = travel_of(c, ref);
    c->acc.t = rune_v3_add(c->acc.t, rune_v3_scale(t.t, e));
    c->acc.yaw += e * t.yaw;
}

static void visit_all(const rune_character *ch, root_ctx *c)
{
    for (size_t i = 0; i < rune_animator_slot_count(ch->anim); i++) {
        const rune_track *t = rune_animator_slot(ch->anim, i);
        int32_t track = t ? rune_binding_track_of(t->binding, c->root) : -1;
        if (track < 0)
            continue;
        rune_key_sample s;
        rune_clip_sample_track(t->clip, (size_t)track, rune_track_sample_time(t), &s);
        visit(c, t->priority, t->fade.weight, s.coverage, (contribution_ref){t, NULL, NULL});
    }
    for (size_t i = 0; i < ch->live_motion_count; i++) {
        const motion_run *m = &ch->motions[ch->live_motions[i]];
        visit(c, m->priority, m->fade.weight, m->root_cov, (contribution_ref){NULL, m, NULL});
    }
    for (size_t i = 0; i < ch->live_graph_count; i++) {
        const graph_run *g = &ch->graphs[ch->live_graphs[i]];
        visit(c, g->priority, g->fade.weight, g->root_cov, (contribution_ref){NULL, NULL, g});
    }
}

rune_root_delta rune__character_root_travel(rune_character *ch)
{
    root_ctx c = {.root = ch->root, .up = ch->root_up, .memo = &ch->root_memo};
    visit_all(ch, &c);
    c.above[RUNE_PRIORITY_COUNT - 1] = 1.0f;
    for (int r = RUNE_PRIORITY_COUNT - 2; r >= 0; r--)
        c.above[r] = c.above[r + 1] * (1.0f - fminf(1.0f, c.sum[r + 1]));
    c.weigh = true;
    visit_all(ch, &c);
    return rune_root_rig_to_model(ch->rig, ch->root, c.acc);
}
