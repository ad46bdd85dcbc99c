/* Track lifecycle: start, fades, stop and removal state, sampling. */
#include "rune/play.h"

static float sanitize_weight(float w) { return isfinite(w) && w > 0.0f ? w : 0.0f; }

rune_play_params rune_play_defaults(void)
{
    rune_play_params p = {0.1f, 1.0f, 1.0f, 0.0f};
    return p;
}

void rune_track_start(rune_track *tr, const rune_binding *binding, const rune_play_params *p, uint32_t handle)
{
    const rune_clip *clip = rune_binding_clip(binding);
    tr->binding = binding;
    tr->clip = clip;
    tr->handle = handle;
    tr->priority = rune_clip_priority(clip);
    tr->loop = rune_clip_loops(clip);
    tr->length = rune_clip_length(clip);
    tr->speed = isfinite(p->speed) ? p->speed : 0.0f;
    tr->time = 0.0f;
    if (isfinite(p->time))
        tr->time = tr->loop ? rune_wrap_time(p->time, tr->length) : fminf(fmaxf(p->time, 0.0f), tr->length);
    tr->weight = 0.0f;
    tr->stopping = false;
    rune_track_fade_to(tr, p->weight, p->fade);
}

void rune_track_fade_to(rune_track *tr, float target, float fade)
{
    tr->target_weight = sanitize_weight(target);
    if (!(fade > 0.0f) || !isfinite(fade)) {
        tr->weight = tr->target_weight;
        tr->fade_rate = 0.0f;
    } else {
        tr->fade_rate = fabsf(tr->target_weight - tr->weight) / fade;
    }
}

void rune_track_stop(rune_track *tr, float fade)
{
    tr->stopping = true;
    rune_track_fade_to(tr, 0.0f, fade);
}

bool rune_track_finished(const rune_track *tr) { return tr->stopping && tr->weight <= 0.0f; }

void rune_track_sample(const rune_track *tr, rune_pose *pose) { rune_binding_sample(tr->binding, tr->time, pose); }
