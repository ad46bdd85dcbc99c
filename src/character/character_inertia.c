/* A character's inertialization: asking for one (rune_character_inertialize,
 * or a play whose blend is RUNE_BLEND_INERTIALIZE), and what tools read of
 * it. The inertializer itself (src/mix/inertia.c) is made on the first
 * request, and runs in each update between root removal and controls. */
#include "character_internal.h"
#include "inertia_view.h"
#include "../base/require.h"

#include <float.h>
#include <math.h>

bool rune__character_arm_inertia(rune_character *ch)
{
    if (ch->inertia)
        return true;
    const rune_pose *pose = rune_animator_pose(ch->anim);
    if (rune__inertia_create(pose, &ch->alloc, &ch->inertia, NULL))
        return false;
    if (ch->updated) /* the pose a first switch starts from, without its velocity */
        rune__inertia_seed(ch->inertia, pose);
    return true;
}

bool rune_character_inertialize(rune_character *ch, float blend_time)
{
    RUNE_ASSUME(ch);
    if (!(blend_time >= 0.0f && blend_time <= FLT_MAX) || !rune__character_arm_inertia(ch))
        return false;
    rune__inertia_request(ch->inertia, blend_time);
    return true;
}

rune_status rune__character_inertial_play(rune_character *ch, rune_play_params *p, float *blend, rune_error *err)
{
    *blend = 0.0f;
    if (p->blend != RUNE_BLEND_INERTIALIZE)
        return RUNE_OK;
    if (!rune__character_arm_inertia(ch))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory for an inertialization");
    *blend = isfinite(p->fade) && p->fade > 0.0f ? p->fade : 0.0f;
    p->fade = 0.0f;
    return RUNE_OK;
}

bool rune__character_inertia(const rune_character *ch, float *left, float *angle)
{
    *left = *angle = 0.0f;
    if (!ch->inertia)
        return false;
    rune_inertia_view v = rune__inertia_view(ch->inertia);
    if (!v.active)
        return false;
    *left = fmaxf(0.0f, v.duration - v.elapsed);
    *angle = v.angle;
    return true;
}
