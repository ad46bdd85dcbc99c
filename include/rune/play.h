/* rune/play.h - what a play of a clip is asked for (rune_play_params) and
 * the animation signals it raises (markers crossed, loops, stops), which a
 * character delivers after the frame's pose is composed. */
#ifndef RUNE_PLAY_H
#define RUNE_PLAY_H

#include "rune/base.h"
#include "rune/clip.h"
#include "rune/rig.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** Most loop signals one track emits in one advance. */
#define RUNE_MAX_LOOP_EVENTS_PER_STEP 16
/** Marker traversal visits at most this many clip lengths per advance,
 * ending at the new time: older crossings of a long stall are skipped. */
#define RUNE_MARKER_CYCLE_SPAN 2

typedef enum rune_event_kind {
    RUNE_EVENT_MARKER = 0, /**< a named event of a clip was crossed */
    RUNE_EVENT_LOOP,       /**< a looping track wrapped */
    RUNE_EVENT_STOPPED     /**< a track faded out and left the mixer */
} rune_event_kind;

/** An animation signal. `source` is the handle of the track (or graph
 * instance) that raised it; name/value point into the clip (markers only). */
typedef struct rune_event {
    rune_event_kind kind;
    uint32_t source;
    const char *name;
    const char *value;
    float time; /**< the marker's clip time; 0 for other kinds */
} rune_event;

/** One play of a clip on a character (its handle names it); opaque. */
typedef struct rune_track rune_track;

/** How a change of what plays reaches the pose (docs/semantics.md,
 * "Inertialization"). */
typedef enum rune_blend_mode {
    /** Both sides are evaluated and weighted over the fade (the default). */
    RUNE_BLEND_CROSSFADE = 0,
    /** The change happens at once and the character's pose carries the
     * difference from what it showed, with its velocity, decaying to 0
     * over the fade: only the new side is evaluated. */
    RUNE_BLEND_INERTIALIZE
} rune_blend_mode;

/** Parameters of a play request. */
typedef struct rune_play_params {
    float fade;   /**< seconds to reach `weight` from 0 (0: at once) */
    float weight; /**< target weight (negative is treated as 0) */
    float speed;
    float time;   /**< start time in the clip (wrapped for loops) */
    bool has_priority; /**< use `priority` instead of the clip's own */
    int priority;      /**< mixer rank 0 .. RUNE_PRIORITY_COUNT-1 (clamped) */
    /** RUNE_BLEND_INERTIALIZE: the play takes `weight` at once and the
     * character is inertialized over `fade` (rune_character_inertialize) */
    rune_blend_mode blend;
} rune_play_params;

/** The defaults of a play: fade 0.1 s, weight 1, speed 1, time 0, the
 * clip's own priority. */
RUNE_API rune_play_params rune_play_defaults(void);

/** Changes of a playing track; fields with their `set_` flag false stay. */
typedef struct rune_adjust_params {
    bool set_weight;
    float weight;
    float fade;
    bool set_speed;
    float speed;
} rune_adjust_params;

/** Receives one signal (rune_character_deliver); `event` and its strings
 * are valid during the call only. */
typedef void (*rune_signal_fn)(void *user, const rune_event *event);

RUNE_END_DECLS

#endif
