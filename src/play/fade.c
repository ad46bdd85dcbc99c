/* Linear weight fades, shared by tracks, motion plays and graph layers. */
#include "rune/play.h"
#include "play_internal.h"

void rune_fade_to(rune_fade *f, float target, float seconds)
{
    f->target = isfinite(target) && target > 0.0f ? target : 0.0f;
    if (!(seconds > 0.0f) || !isfinite(seconds)) {
        f->weight = f->target;
        f->rate = 0.0f;
    } else {
        f->rate = fabsf(f->target - f->weight) / seconds;
        if (!isfinite(f->rate)) { /* a fade too short to measure jumps */
            f->weight = f->target;
            f->rate = 0.0f;
        }
    }
}

void rune_fade_stop(rune_fade *f, float seconds)
{
    f->stopping = true;
    rune_fade_to(f, 0.0f, seconds);
}

void rune_fade_advance(rune_fade *f, float dt)
{
    float step = f->rate * (isfinite(dt) ? fabsf(dt) : 0.0f);
    if (f->weight < f->target)
        f->weight = fminf(f->target, f->weight + step);
    else if (f->weight > f->target)
        f->weight = fmaxf(f->target, f->weight - step);
}

bool rune_fade_finished(const rune_fade *f) { return f->stopping && f->weight <= 0.0f; }
