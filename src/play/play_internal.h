/* The playback stage's pieces the mixer, blend spaces and graphs share:
 * the signal queue, fades, a clip track's time and weight, marker walks
 * and time wrapping. Playback time and marker delivery are kept apart: a
 * track stores its sample time (wrapped into [0, length) for loops),
 * while each advance examines the interval it crossed, with the old
 * endpoint excluded and the new endpoint included. */
#ifndef RUNE_SRC_PLAY_INTERNAL_H
#define RUNE_SRC_PLAY_INTERNAL_H

#include "rune/play.h"
#include "../rig/rig_internal.h"

/** Fixed-capacity queue: pushing never allocates; overflow is counted. */
typedef struct rune_signal_queue {
    rune_event *events;
    size_t count, capacity;
    size_t dropped;
    rune_allocator alloc;
} rune_signal_queue;

/** Allocates room for `capacity` signals; release frees it. */
rune_status rune_signal_queue_init(rune_signal_queue *q, size_t capacity, const rune_allocator *alloc,
                                   rune_error *err);
void rune_signal_queue_release(rune_signal_queue *q);
/** Appends an event; returns false (and counts it dropped) when full. */
bool rune_signal_queue_push(rune_signal_queue *q, const rune_event *e);
void rune_signal_queue_clear(rune_signal_queue *q);

/** A playback weight moving linearly toward a target. A stop sets the
 * target to 0 and marks the fade stopping: once the weight is 0 the owner
 * removes its contribution. */
typedef struct rune_fade {
    float weight;   /**< current weight (>= 0) */
    float target;   /**< where the fade is heading */
    float rate;     /**< weight units per second */
    bool stopping;
} rune_fade;

/** Heads for `target` (negative or non-finite: 0) over `seconds`; 0 or
 * less jumps there at once. */
void rune_fade_to(rune_fade *fade, float target, float seconds);
/** Heads for 0 and marks the fade stopping. */
void rune_fade_stop(rune_fade *fade, float seconds);
void rune_fade_advance(rune_fade *fade, float dt);
/** A stopping fade whose weight has reached 0. */
bool rune_fade_finished(const rune_fade *fade);

/** Playback state of one clip on one rig. A plain struct: the animator owns
 * an array of them, and tests may drive one directly. */
struct rune_track {
    const rune_binding *binding;
    const rune_clip *clip;
    rune_sample_cache *cache; /**< the binding's fast sampler, or NULL (not owned) */
    uint32_t handle;
    int priority;
    bool loop;
    float length;
    double time;         /**< sample time: [0, length) looping, [0, length] not;
                              a double reduced every step, so that hours of
                              playback do not drift (rune_track_sample_time) */
    float speed;         /**< clip seconds per second; negative plays backwards */
    rune_fade fade;      /**< playback weight */
    double step_from;    /**< the last advance's interval in unwrapped clip */
    double step_to;      /**< time (clamped for nonlooping clips) */
};

/** Starts a track on a bound clip with weight 0 fading to params->weight.
 * `cache` is the binding's sampler (rune_binding_sampler_create) or NULL;
 * any other cache is ignored. */
void rune_track_start(rune_track *track, const rune_binding *binding, rune_sample_cache *cache,
                      const rune_play_params *params, uint32_t handle);
/** Moves time by speed * dt (queuing marker and loop signals for the
 * crossed interval) and moves the weight along its fade. */
void rune_track_advance(rune_track *track, float dt, rune_signal_queue *queue);
/** Samples the track's clip at its current time into `pose`. */
void rune_track_sample(const rune_track *track, rune_pose *pose);
/** The clip time the track samples at (its time as a float; a loop's time
 * that rounds up to the length samples at 0). */
float rune_track_sample_time(const rune_track *track);

/** Queues the markers of `clip` in the interval crossed moving from clip
 * time `from` to `to` ((from, to] forward, [to, from) backward). With
 * cycle_length > 0 the times are unwrapped loop times and markers repeat
 * every cycle (at most RUNE_MARKER_CYCLE_SPAN cycles are visited); 0 means
 * no repetition. Returns the number of loop boundaries crossed. */
double rune_walk_markers(const rune_clip *clip, double from, double to, double cycle_length, uint32_t source,
                         rune_signal_queue *queue);
/** Queues min(count, RUNE_MAX_LOOP_EVENTS_PER_STEP) loop signals. */
void rune_queue_loops(rune_signal_queue *queue, uint32_t source, double count);

/** Wraps t into [0, length) with Euclidean remainder (0 when length <= 0
 * or t is not finite). */
double rune_wrap_phase(double t, double length);
/** The same as a float clip time (a result that rounds to length is 0). */
float rune_wrap_time(double t, float length);

#endif
