/* The frame of a character: advance
 * every play (clip tracks, then motion tracks, then graph instances, each
 * in start order), retire those whose stop fade finished, mix tracks and
 * graph poses by priority, extract and remove root motion, add a decaying
 * inertialization offset (src/mix/inertia.c), apply controls
 * (after the removal, so their model-space targets are in the character's
 * space: docs/semantics.md), and compute matrices when asked for every
 * frame. */
#include "character_internal.h"
#include "../base/require.h"

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

/* Where a run's pose is sampled: the animator's own pose when the run is
 * the frame's sole contribution (the mixer then composes it in place:
 * rune_mix_compose), else the run's pose. A crowd character playing one
 * graph so moves one pose through memory instead of two. */
static rune_pose *run_pose(rune_character *ch, rune_pose *own)
{
    return rune__character_sole_run(ch) ? rune_animator_pose_edit(ch->anim) : own;
}

/* The coverage of the root joint in a run's pose, kept for root travel
 * (the pose may be the animator's, which composition overwrites). */
static float root_coverage(const rune_character *ch, const rune_pose *pose)
{
    return ch->root != RUNE_NO_ROOT ? pose->coverage[ch->root] : 0.0f;
}

/* Advances the live motion tracks, drops the ones that ended from the live
 * list, and samples the rest into extra[n..]; returns the new n. */
static size_t advance_motions(rune_character *ch, float dt, rune_signal_queue *q, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < ch->live_motion_count; i++) {
        motion_run *r = &ch->motions[ch->live_motions[i]];
        rune_fade_advance(&r->fade, dt);
        rune_motion_player_set_params(r->player, r->params);
        r->from = rune_motion_player_progress(r->player);
        rune_motion_player_advance(r->player, dt, r->speed, q, r->handle);
        r->to = rune_motion_player_progress(r->player);
        if (retire(q, &r->fade, r->handle, &r->live))
            continue;
        ch->live_motions[kept++] = ch->live_motions[i];
        rune_pose *pose = run_pose(ch, &r->pose);
        rune_motion_player_sample(r->player, pose);
        r->root_cov = root_coverage(ch, pose);
        ch->extra[n++] = (rune_contribution){pose, r->fade.weight, r->priority, NULL};
    }
    ch->live_motion_count = kept;
    return n;
}

/* The same for graph instances: update (at the instance's speed), retire,
 * evaluate. */
static size_t advance_graphs(rune_character *ch, float dt, rune_signal_queue *q, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < ch->live_graph_count; i++) {
        graph_run *r = &ch->graphs[ch->live_graphs[i]];
        rune_fade_advance(&r->fade, dt);
        rune_graph_update(r->inst, dt * r->speed, q, r->handle);
        /* an inertialized transition: its blend time is graph time */
        float blend = rune__graph_take_inertialization(r->inst);
        if (blend > 0.0f && ch->inertia)
            rune__inertia_request(ch->inertia, fabsf(r->speed) > 0.0f ? blend / fabsf(r->speed) : blend);
        if (retire(q, &r->fade, r->handle, &r->live))
            continue;
        ch->live_graphs[kept++] = ch->live_graphs[i];
        rune_pose *pose = run_pose(ch, &r->pose);
        rune_graph_evaluate(r->inst, pose);
        r->root_cov = root_coverage(ch, pose);
        ch->extra[n++] = (rune_contribution){pose, r->fade.weight, r->priority, NULL};
    }
    ch->live_graph_count = kept;
    return n;
}

rune_status rune_character_update(rune_character *ch, float dt, rune_error *err)
{
    RUNE_REQUIRE(err, ch, "ch");
    if (!isfinite(dt))
        dt = 0.0f;
    /* the mixer's scratch before anything moves: a sole run samples into
     * the animator's pose, which a compose failing after it would leave
     * half made (runs only retire during the frame, so this many is the
     * most compose will be handed) */
    rune_status st = rune_animator_reserve(ch->anim, ch->live_motion_count + ch->live_graph_count, err);
    if (st)
        return st;
    /* the frame ending becomes the previous one, for callers skinning
     * where vertices were (its matrices made now if nobody asked: a sole
     * run samples straight into the pose they come from) */
    if (ch->keep_previous && ch->updated && rune_character_model_matrices(ch)) {
        rune_mat4 *m = ch->matrices;
        void *block = ch->matrix_block;
        ch->matrices = ch->previous, ch->matrix_block = ch->previous_block;
        ch->previous = m, ch->previous_block = block;
        ch->previous_valid = true;
    }
    /* the pose the inertialization kept from the last frame without a
     * copy goes to it now, and this frame is written over an older one */
    rune_pose *kept = ch->inertia ? rune__inertia_take_slot(ch->inertia) : NULL;
    if (kept)
        rune_animator_swap_pose(ch->anim, kept);
    ch->updated = true;
    rune_signal_queue *q = rune_animator_signals(ch->anim);
    rune_animator_advance(ch->anim, dt);
    size_t n = advance_motions(ch, dt, q, 0);
    n = advance_graphs(ch, dt, q, n);
    ch->matrices_fresh = false;
    st = rune_animator_compose(ch->anim, ch->extra, n, err);
    if (st)
        return st;
    ch->root_delta = (rune_root_delta){0.0f, 0.0f, 0.0f};
    if (ch->root != RUNE_NO_ROOT) {
        ch->root_delta = rune__character_root_travel(ch);
        rune_root_strip(rune_animator_pose_edit(ch->anim), ch->root, ch->root_space);
    }
    if (ch->inertia) /* the pose is lent, not copied, when no control will change it */
        rune__inertia_step(ch->inertia, rune_animator_pose_edit(ch->anim), dt, !rune_animator_controls_owed(ch->anim),
                           ch->simd);
    rune_animator_apply_controls(ch->anim);
    if (ch->matrices_each_frame)
        rune_character_model_matrices(ch);
    return RUNE_OK;
}
