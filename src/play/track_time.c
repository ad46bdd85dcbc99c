/* Track time: advancing the sample time, wrapping loops, and walking the
 * crossed interval for marker and loop signals with bounded work. */
#include "rune/play.h"
#include "play_internal.h"

double rune_wrap_phase(double t, double length)
{
    if (!(length > 0.0) || !isfinite(t) || !isfinite(length))
        return 0.0;
    if (t >= 0.0 && t < length) /* fmod's exact result without its call: most wraps of a frame's times */
        return t + 0.0;
    double r = fmod(t, length);
    if (r < 0.0)
        r += length;
    return r >= length ? 0.0 : r + 0.0; /* rounding can land exactly on length; -0 becomes 0 */
}

float rune_wrap_time(double t, float length)
{
    float f = (float)rune_wrap_phase(t, length);
    return f >= length ? 0.0f : f; /* rounding to float can land on length */
}

/* Cycle counts up to this keep every marker time within a cycle exact to
 * far better than a float clip time (2^40 cycles: 2^-12 of a cycle). */
#define PRECISE_CYCLES 1099511627776.0

static void push_marker(rune_signal_queue *q, uint32_t source, const rune_marker *m)
{
    rune_event e = {RUNE_EVENT_MARKER, source, m->name, m->value, m->time};
    rune_signal_queue_push(q, &e);
}

/* Markers whose position (plus cycle offsets for loops) lies in the
 * half-open interval the advance crossed: (from, to] forward, [to, from)
 * backward. `cycle_len` 0 means no repetition. */
double rune_walk_markers(const rune_clip *clip, double from, double to, double cycle_len, uint32_t source,
                         rune_signal_queue *q)
{
    size_t n = rune_clip_marker_count(clip);
    const rune_marker *m = rune_clip_markers(clip);
    double loops = cycle_len > 0.0 ? fabs(floor(to / cycle_len) - floor(from / cycle_len)) : 0.0;
    if (!isfinite(loops))
        loops = RUNE_MAX_LOOP_EVENTS_PER_STEP;
    if (n == 0 || from == to || !q || !isfinite(from) || !isfinite(to))
        return loops;
    bool forward = to > from;
    double c0 = 0.0, c1 = 0.0;
    if (cycle_len > 0.0) {
        /* bound the visited span: a stall replays at most the last cycles */
        double span = RUNE_MARKER_CYCLE_SPAN * cycle_len;
        if (fabs(to) > PRECISE_CYCLES * cycle_len) {
            /* so far out that a cycle's markers no longer have distinct
             * times: walk the same span ending at the new time's phase */
            double d = fmin(fabs(to - from), span);
            to = rune_wrap_phase(to, cycle_len);
            from = forward ? to - d : to + d;
        }
        if (forward && to - from > span)
            from = to - span;
        if (!forward && from - to > span)
            from = to + span;
        c0 = floor(from / cycle_len);
        c1 = floor(to / cycle_len);
    }
    /* Cycles are counted by an integer, not by stepping a double: past
     * 2^53 adding 1 changes nothing, and the span visits at most
     * RUNE_MARKER_CYCLE_SPAN + 1 of them. */
    for (int k = 0; k <= RUNE_MARKER_CYCLE_SPAN + 1; k++) {
        double c = forward ? c0 + k : c0 - k;
        if (forward ? c > c1 : c < c1)
            break;
        for (size_t j = 0; j < n; j++) {
            const rune_marker *mk = forward ? &m[j] : &m[n - 1 - j];
            double at = c * cycle_len + mk->pos;
            if (forward ? (at > from && at <= to) : (at >= to && at < from))
                push_marker(q, source, mk);
        }
    }
    return loops;
}

void rune_queue_loops(rune_signal_queue *q, uint32_t source, double count)
{
    int n = count > RUNE_MAX_LOOP_EVENTS_PER_STEP ? RUNE_MAX_LOOP_EVENTS_PER_STEP : (int)count;
    for (int i = 0; q && i < n; i++) {
        rune_event e = {RUNE_EVENT_LOOP, source, NULL, NULL, 0.0f};
        rune_signal_queue_push(q, &e);
    }
}

/* Advances the sample time, kept as a double phase reduced every step (so
 * that hours of playback do not drift); returns how many loop boundaries
 * were crossed. */
static double advance_time(rune_track *tr, float dt, rune_signal_queue *q)
{
    double from = tr->time;
    double to = from + (double)tr->speed * (double)dt;
    tr->step_from = from;
    if (!tr->loop || !(tr->length > 0.0f)) {
        double end = tr->length > 0.0f ? tr->length : 0.0;
        to = to < 0.0 ? 0.0 : (to > end ? end : to);
        rune_walk_markers(tr->clip, from, to, 0.0, tr->handle, q);
        tr->time = to;
        tr->step_to = to;
        return 0.0;
    }
    tr->step_to = to;
    double loops = rune_walk_markers(tr->clip, from, to, tr->length, tr->handle, q);
    tr->time = rune_wrap_phase(to, tr->length);
    return loops;
}

void rune_track_advance(rune_track *tr, float dt, rune_signal_queue *q)
{
    rune_queue_loops(q, tr->handle, advance_time(tr, dt, q));
    rune_fade_advance(&tr->fade, dt);
}
