/* Sync groups: the most heavily weighted live play of a group leads; the
 * others adopt its phase, mapped through shared named events (repeated
 * names matched by occurrence) or, without them, as normalized phase. */
#include "graph_internal.h"
#include "../blend/blend_internal.h"

#include <string.h>

/* k-th (mod count) marker named `name`; -1 when the clip has none. */
static int32_t nth_named(const rune_marker *m, size_t n, const char *name, size_t k)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += strcmp(m[i].name, name) == 0;
    if (count == 0)
        return -1;
    k %= count;
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].name, name) == 0 && k-- == 0)
            return (int32_t)i;
    return -1;
}

bool rune__sync_map_time(const rune_clip *lead, float t, const rune_clip *fol, float *out)
{
    size_t n = rune_clip_marker_count(lead), nf = rune_clip_marker_count(fol);
    float ll = rune_clip_length(lead), lf = rune_clip_length(fol);
    if (n == 0 || nf == 0 || !(ll > 0.0f) || !(lf > 0.0f))
        return false;
    const rune_marker *m = rune_clip_markers(lead), *f = rune_clip_markers(fol);
    /* the leader's events around t: a (at or before) and b (after) */
    bool found = false;
    size_t i = 0;
    for (size_t k = 0; k < n; k++)
        if (m[k].pos <= t) {
            i = k;
            found = true;
        }
    size_t j;
    double pa, pb;
    if (found) {
        j = (i + 1) % n;
        pa = m[i].pos;
        pb = m[j].pos + (j <= i ? (double)ll : 0.0);
    } else { /* before the first event: a is the previous cycle's last */
        i = n - 1;
        j = 0;
        pa = m[i].pos - (double)ll;
        pb = m[0].pos;
    }
    size_t occurrence = 0;
    for (size_t k = 0; k < i; k++)
        occurrence += strcmp(m[k].name, m[i].name) == 0;
    /* the same pair in the follower */
    int32_t ia = nth_named(f, nf, m[i].name, occurrence);
    if (ia < 0)
        return false;
    double qa = f[ia].pos, qb = -1.0;
    for (size_t s = 1; s <= nf; s++) {
        size_t idx = ((size_t)ia + s) % nf;
        if (strcmp(f[idx].name, m[j].name) == 0) {
            qb = f[idx].pos + ((size_t)ia + s >= nf ? (double)lf : 0.0);
            break;
        }
    }
    if (qb < 0.0)
        return false;
    double u = pb > pa ? (t - pa) / (pb - pa) : 0.0;
    *out = rune_wrap_time(qa + u * (qb - qa), lf);
    return true;
}

/* Live plays of one layer with their weights in the graph. */
static size_t layer_members(rune_graph_instance *inst, size_t li, play_slot **slots, float *weights)
{
    layer_run *l = &inst->layers[li];
    float a = rune__graph_alpha(l), lw = l->weight.weight;
    size_t n = 0;
    slots[n] = &inst->slots[l->cur];
    weights[n++] = lw * a;
    if (l->fading && !l->frozen && l->src >= 0) {
        slots[n] = &inst->slots[l->src];
        weights[n++] = lw * (1.0f - a);
    }
    return n;
}

static void follow(play_slot *leader, play_slot *f)
{
    int32_t dl = rune_motion_player_dominant_leaf(leader->player);
    int32_t df = rune_motion_player_dominant_leaf(f->player);
    double lead_p = rune_motion_player_progress(leader->player);
    double frac = lead_p - floor(lead_p);
    float tf;
    if (dl >= 0 && df >= 0 &&
        rune__sync_map_time(rune_motion_player_leaf_compiled_clip(leader->player, (size_t)dl),
                            rune_motion_player_leaf_time(leader->player, (size_t)dl),
                            rune_motion_player_leaf_compiled_clip(f->player, (size_t)df), &tf)) {
        float lf = rune_clip_length(rune_motion_player_leaf_compiled_clip(f->player, (size_t)df));
        frac = tf / lf;
    }
    /* keep the follower's cycle count: land within half a cycle of it */
    double old = rune_motion_player_progress(f->player);
    double p = floor(old) + frac;
    if (p < old - 0.5)
        p += 1.0;
    else if (p > old + 0.5)
        p -= 1.0;
    rune_motion_player_set_progress(f->player, p);
}

void rune__graph_sync(rune_graph_instance *inst)
{
    const rune_graph *g = inst->g;
    for (size_t gi = 0; gi < g->sync_group_count; gi++) {
        int32_t group = g->sync_groups[gi];
        play_slot *members[64];
        float weights[64];
        size_t n = 0;
        for (size_t li = 0; li < g->layer_count && n + 2 <= 64; li++) {
            play_slot *s[2];
            float w[2];
            size_t m = layer_members(inst, li, s, w);
            for (size_t k = 0; k < m; k++)
                if (g->states[s[k]->state].sync_group == group) {
                    members[n] = s[k];
                    weights[n++] = w[k];
                }
        }
        size_t lead = 0;
        for (size_t k = 1; k < n; k++)
            if (weights[k] > weights[lead])
                lead = k;
        for (size_t k = 0; k < n; k++)
            if (k != lead)
                follow(members[lead], members[k]);
    }
}
