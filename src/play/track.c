/* Track lifecycle: start and sampling. */
#include "rune/play.h"
#include "play_internal.h"

rune_play_params rune_play_defaults(void)
{
    rune_play_params p = {.fade = 0.1f, .weight = 1.0f, .speed = 1.0f, .time = 0.0f};
    return p;
}

void rune_track_start(rune_track *tr, const rune_binding *binding, rune_sample_cache *cache,
                      const rune_play_params *p, uint32_t handle)
{
    const rune_clip *clip = rune_binding_clip(binding);
    tr->binding = binding;
    tr->clip = clip;
    tr->cache = rune_binding_sampler_matches(binding, cache) ? cache : NULL;
    tr->handle = handle;
    tr->priority = p->has_priority ? rune_priority_clamp(p->priority) : rune_clip_priority(clip);
    tr->loop = rune_clip_loops(clip);
    tr->length = rune_clip_length(clip);
    tr->speed = isfinite(p->speed) ? p->speed : 0.0f;
    tr->time = 0.0;
    if (isfinite(p->time))
        tr->time = tr->loop ? rune_wrap_phase(p->time, tr->length) : fmin(fmax(p->time, 0.0), tr->length);
    tr->fade = (rune_fade){0.0f, 0.0f, 0.0f, false};
    tr->step_from = tr->step_to = tr->time;
    rune_fade_to(&tr->fade, p->weight, p->fade);
}

float rune_track_sample_time(const rune_track *tr)
{
    return tr->loop ? rune_wrap_time(tr->time, tr->length) : (float)tr->time;
}

void rune_track_sample(const rune_track *tr, rune_pose *pose)
{
    rune_binding_sample_cached(tr->binding, tr->cache, rune_track_sample_time(tr), pose);
}
