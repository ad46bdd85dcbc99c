/* rune/graph.h - animation graphs: parameters, layered state machines with
 * transitions and interruption, travel, masks, additive layers, sync groups
 * and graph marker events.
 *
 * A rune_graph is an immutable definition with every name already resolved
 * to an index; a rune_graph_instance is one character's running copy. The
 * instance's finished pose enters a rig's priority mixer as one
 * contribution. */
#ifndef RUNE_GRAPH_H
#define RUNE_GRAPH_H

#include "rune/base.h"
#include "rune/rig.h"
#include "rune/play.h"
#include "rune/blend.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** Longest travel route (edges). */
#define RUNE_GRAPH_MAX_ROUTE 32

typedef enum rune_param_type {
    RUNE_PARAM_FLOAT = 0,
    RUNE_PARAM_INT,
    RUNE_PARAM_BOOL,
    RUNE_PARAM_TRIGGER
} rune_param_type;

typedef struct rune_param_desc {
    rune_param_type type;
    float initial; /**< bools and triggers: 0 or 1 */
} rune_param_desc;

typedef enum rune_cond_op {
    RUNE_COND_GT = 0,
    RUNE_COND_GE,
    RUNE_COND_LT,
    RUNE_COND_LE,
    RUNE_COND_EQ,
    RUNE_COND_NE,
    RUNE_COND_TRIGGERED /**< a trigger parameter is set (consumed on fire) */
} rune_cond_op;

typedef struct rune_condition_desc {
    uint32_t param;
    rune_cond_op op;
    float value;
} rune_condition_desc;

/** A transition. `from` is a state index of the same layer, or -1 for an
 * any-state transition (checked before the current state's own). */
typedef struct rune_transition_desc {
    int32_t from;
    uint32_t to;
    float duration;     /**< cross-fade seconds (0: cut) */
    bool has_exit_time;
    float exit_time;    /**< normalized progress of the current state */
    bool interruptible; /**< false: no new transition during this fade */
    const rune_condition_desc *conditions;
    size_t condition_count;
} rune_transition_desc;

typedef struct rune_state_desc {
    const rune_motion *motion; /**< what the state plays (borrowed) */
    float speed;
    int32_t sync_group;        /**< -1: none */
    const char *name;          /**< optional (copied): for rune_graph_find_state */
} rune_state_desc;

typedef enum rune_layer_blend {
    RUNE_LAYER_OVERRIDE = 0,
    RUNE_LAYER_ADDITIVE
} rune_layer_blend;

typedef struct rune_layer_desc {
    rune_layer_blend blend;
    float weight;
    const rune_state_desc *states;
    size_t state_count;
    uint32_t initial_state;
    const rune_transition_desc *transitions;
    size_t transition_count;
    const rune_mask_entry *mask; /**< NULL: every joint weight 1 */
    size_t mask_count;
    const char *name; /**< optional (copied): for rune_graph_find_layer */
} rune_layer_desc;

typedef struct rune_graph_desc {
    const rune_param_desc *params; /**< the motions' parameters index these too */
    size_t param_count;
    const rune_layer_desc *layers;
    size_t layer_count;
    /** Optional (copied): param_count names for rune_graph_find_param; a
     * NULL entry is a parameter the graph does not declare (one only its
     * motions' table has), which lookups do not find. */
    const char *const *param_names;
} rune_graph_desc;

typedef struct rune_graph rune_graph;

/** Validates (indexes in range, finite numbers, trigger conditions on
 * trigger parameters, motions using no more parameters than the graph has)
 * and compiles a graph for one rig layout (masks are resolved now). Errors
 * name layers[i].transitions[j].conditions[k] and so on. */
RUNE_API rune_status rune_graph_create(const rune_graph_desc *desc, const rune_rig *rig, const rune_allocator *alloc,
                              rune_graph **out, rune_error *err);
RUNE_API void rune_graph_destroy(rune_graph *graph);
RUNE_API size_t rune_graph_layer_count(const rune_graph *graph);
RUNE_API size_t rune_graph_param_count(const rune_graph *graph);
/** Number of states of a layer (0 for a layer out of range). */
RUNE_API size_t rune_graph_state_count(const rune_graph *graph, uint32_t layer);
/** Names given at creation ("" when none was given or out of range). */
RUNE_API const char *rune_graph_param_name(const rune_graph *graph, uint32_t param);
RUNE_API const char *rune_graph_layer_name(const rune_graph *graph, uint32_t layer);
RUNE_API const char *rune_graph_state_name(const rune_graph *graph, uint32_t layer, uint32_t state);
/** Type of a parameter (RUNE_PARAM_FLOAT for one out of range). */
RUNE_API rune_param_type rune_graph_param_type(const rune_graph *graph, uint32_t param);

/** Name lookups, done once (not per frame): the index of a declared
 * parameter, a layer, or a state of a layer. A name that is not there is
 * an error (RUNE_E_NOT_FOUND, with the closest name as a suggestion),
 * never a silent no-op later. */
RUNE_API rune_status rune_graph_find_param(const rune_graph *graph, const char *name, uint32_t *param, rune_error *err);
RUNE_API rune_status rune_graph_find_layer(const rune_graph *graph, const char *name, uint32_t *layer, rune_error *err);
RUNE_API rune_status rune_graph_find_state(const rune_graph *graph, uint32_t layer, const char *name, uint32_t *state,
                                  rune_error *err);

typedef struct rune_graph_instance rune_graph_instance;

/** Creates a running instance; `bindings[c]` binds clip index c used by the
 * state motions. Everything the instance needs is allocated here. */
RUNE_API rune_status rune_graph_instance_create(const rune_graph *graph, const rune_binding *const *bindings,
                                       const rune_allocator *alloc, rune_graph_instance **out, rune_error *err);
RUNE_API void rune_graph_instance_destroy(rune_graph_instance *inst);
/** Puts an instance back as created: initial parameters, every layer in
 * its initial state at progress 0 and full layer weight, no fades, no
 * travel route. Allocates nothing (instances are reused this way). */
RUNE_API void rune_graph_instance_reset(rune_graph_instance *inst);
/** The graph an instance runs. */
RUNE_API const rune_graph *rune_graph_instance_graph(const rune_graph_instance *inst);

/** Sets a float/int/bool parameter (bools: 0 or 1). Triggers: use trigger. */
RUNE_API void rune_graph_set_param(rune_graph_instance *inst, uint32_t param, float value);
RUNE_API float rune_graph_param(const rune_graph_instance *inst, uint32_t param);
/** Sets a trigger; it stays set until a transition that tests it fires. */
RUNE_API void rune_graph_trigger(rune_graph_instance *inst, uint32_t param);
/** Queues a breadth-first route over the layer's transition edges from its
 * current state to `state`. Each queued edge fires once its exit time is
 * reached, without its conditions. Returns false when no route exists. */
RUNE_API bool rune_graph_travel(rune_graph_instance *inst, uint32_t layer, uint32_t state);

/** One update: per layer, advance the current play, a live transition
 * source, the layer weight fade and the transition timer; apply sync
 * groups; then select at most one new transition per layer. Marker and
 * loop signals of each layer's selected play (source before the fade's
 * midpoint, destination after) go to `queue` under `source`. */
RUNE_API void rune_graph_update(rune_graph_instance *inst, float dt, rune_signal_queue *queue, uint32_t source);
/** Composes the layers in definition order into `out` (reset first) and
 * remembers each fading layer's pose for a later interruption (a layer
 * that is not fading cannot be interrupted before the next evaluation, so
 * a steady override layer is laid onto `out` straight from its play,
 * without a pose of its own). */
RUNE_API void rune_graph_evaluate(rune_graph_instance *inst, rune_pose *out);

/** Stages of rune_graph_instance_prefetch. */
#define RUNE_GRAPH_PREFETCH_STAGES (2 + RUNE_MOTION_PREFETCH_STAGES)
/** Asks the CPU to start loading what the next update and evaluation of
 * the instance read, one level of pointers a stage: 0 the instance, 1 its
 * layers, slots and parameters, 2 .. the playing states' motion players
 * (rune_motion_player_prefetch's stages) and the layers' poses. A stage
 * reads only what the stage before it asked for, so in a loop over many
 * instances issue stage s for the instance RUNE_GRAPH_PREFETCH_STAGES - s
 * ahead (rune_batch does, a character at a time). Changes nothing. */
RUNE_API void rune_graph_instance_prefetch(const rune_graph_instance *inst, int stage);

/** Current (destination) state of a layer. */
RUNE_API uint32_t rune_graph_current_state(const rune_graph_instance *inst, uint32_t layer);
/** Normalized progress of a layer's current play. */
RUNE_API double rune_graph_state_progress(const rune_graph_instance *inst, uint32_t layer);
/** True while a layer is cross-fading. */
RUNE_API bool rune_graph_in_transition(const rune_graph_instance *inst, uint32_t layer);
/** Fades a layer's weight to `weight` over `fade` seconds. */
RUNE_API void rune_graph_fade_layer(rune_graph_instance *inst, uint32_t layer, float weight, float fade);

/** A live play of a layer and its share of that layer (for root motion and
 * tools). */
typedef struct rune_graph_play_view {
    const rune_motion_player *player;
    float weight;    /**< share within the layer (1 - alpha or alpha) */
    double from;     /**< progress before the last update */
    double to;       /**< progress after it */
} rune_graph_play_view;

/** Lists up to 2 live plays of a layer (current first); returns the count. */
RUNE_API size_t rune_graph_layer_plays(const rune_graph_instance *inst, uint32_t layer, rune_graph_play_view *out);

/** What a layer shows after the last update, for tools (an inspector's
 * state band): the state, what it fades from, how far. */
typedef struct rune_graph_layer_view {
    uint32_t state;     /**< current (destination) state, layer-local */
    int32_t from_state; /**< the state faded from (layer-local); -1 when not
                             fading or when fading from a frozen pose */
    float alpha;        /**< the destination's share (1 when not fading) */
    bool interrupted;   /**< fading from the frozen pose of a transition
                             that was interrupted */
    float weight;       /**< the layer's weight, its fades included */
} rune_graph_layer_view;

RUNE_API rune_graph_layer_view rune_graph_layer_view_of(const rune_graph_instance *inst, uint32_t layer);

RUNE_END_DECLS

#endif
