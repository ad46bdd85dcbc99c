/* A character's plays: clips (tracks of the animator), motions played as
 * tracks, and steering any play by handle (weight, speed, stop). Ended
 * motion runs are kept for the next play of the same motion, so after
 * warm-up nothing here allocates. */
#include "character_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <math.h>
#include <string.h>

rune_status rune_character_play_clip(rune_character *ch, uint32_t clip, const rune_play_params *params,
                                     uint32_t *handle, rune_error *err)
{
    RUNE_REQUIRE(err, ch, "ch");
    const rune_binding *b = rune_library_binding(ch->lib, clip);
    if (!b)
        return rune_fail(err, RUNE_E_INVALID, "play: clip %u is outside the library", clip);
    rune_play_params p = rune__play_params_or_defaults(params);
    float blend;
    rune_status st = rune__character_inertial_play(ch, &p, &blend, err);
    uint32_t h;
    if (!st)
        st = rune_animator_play(ch->anim, b, &p, &h, err);
    if (!st && handle)
        *handle = h;
    if (!st && blend > 0.0f)
        rune__inertia_request(ch->inertia, blend);
    return st;
}

bool rune__character_reserve_live(rune_character *ch, size_t **live, size_t *live_cap, size_t live_count)
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
        st = rune_motion_player_create_live(rune_library_motion(ch->lib, motion), rune_library_bindings(ch->lib),
                                            &ch->alloc, &r->player, err);
    if (!st)
        st = rune_pose_init_rig(&r->pose, ch->rig, &ch->alloc, err);
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
    RUNE_REQUIRE(err, ch, "ch");
    if (motion >= rune_library_motion_count(ch->lib))
        return rune_fail(err, RUNE_E_INVALID, "play: motion %u is outside the library", motion);
    if (!rune__character_reserve_live(ch, &ch->live_motions, &ch->live_motion_cap, ch->live_motion_count))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory playing a motion");
    rune_play_params p = rune__play_params_or_defaults(params);
    float blend;
    size_t slot = 0;
    rune_status st = rune__character_inertial_play(ch, &p, &blend, err);
    if (!st)
        st = motion_slot(ch, motion, &slot, err);
    if (st)
        return st;
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
    if (blend > 0.0f)
        rune__inertia_request(ch->inertia, blend);
    return RUNE_OK;
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
    RUNE_ASSUME(ch);
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
    RUNE_ASSUME(ch);
    float *speed;
    rune_fade *f = run_fade(ch, handle, &speed);
    if (!f)
        return rune_animator_stop(ch->anim, handle, fade);
    rune_fade_stop(f, fade);
    return true;
}

