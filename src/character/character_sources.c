/* Read-only views of a character's plays (clip tracks, motion runs, graph
 * instances) in handle order, for tools and debuggers. */
#include "character_internal.h"
#include "../base/require.h"

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
    RUNE_ASSUME(ch);
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
    RUNE_ASSUME(ch);
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


size_t rune_character_source_leaves(const rune_character *ch, uint32_t handle, rune_leaf_view *out, size_t cap)
{
    RUNE_ASSUME(ch);
    const motion_run *m = live_motion(ch, handle);
    size_t n = m ? rune_motion_player_leaf_count(m->player) : 0;
    for (size_t i = 0; out && i < n && i < cap; i++)
        out[i] = (rune_leaf_view){rune_motion_player_leaf_clip(m->player, i), rune_motion_player_leaf_weight(m->player, i)};
    return n;
}
