/* rune/graph.h - animation graphs: parameters, layered state machines with
 * transitions and interruption, travel, masks, additive layers, sync groups
 * and graph marker events.
 *
 * A graph is described here, added to a library (rune_library_add_graph)
 * and started on a character (rune_character_start_graph), whose calls
 * set its parameters, fire its triggers and travel it; the functions
 * below read a graph's names and a running instance's state for tools.
 * The instance's finished pose enters the character's priority mixer as
 * one contribution. */
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
    float duration;     /**< cross-fade (or inertialization) seconds (0: cut) */
    bool has_exit_time;
    float exit_time;    /**< normalized progress of the current state */
    bool interruptible; /**< false: no new transition during this fade */
    const rune_condition_desc *conditions;
    size_t condition_count;
    /** RUNE_BLEND_INERTIALIZE: the layer cuts to `to` and the character
     * is inertialized over `duration` (only the destination is
     * evaluated; the transition is never "in transition" for the layer) */
    rune_blend_mode blend;
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

/** A compiled graph, owned by the library it was added to
 * (rune_library_add_graph); every name resolved to an index. */
typedef struct rune_graph rune_graph;

/** How many layers the graph has. */
RUNE_API size_t rune_graph_layer_count(const rune_graph *graph);
/** How many parameters the graph has (the library's table). */
RUNE_API size_t rune_graph_param_count(const rune_graph *graph);
/** Number of states of a layer (0 for a layer out of range). */
RUNE_API size_t rune_graph_state_count(const rune_graph *graph, uint32_t layer);
/** Names given at creation ("" when none was given or out of range). */
RUNE_API const char *rune_graph_layer_name(const rune_graph *graph, uint32_t layer);
/** A state's name ("" when none was given or out of range). */
RUNE_API const char *rune_graph_state_name(const rune_graph *graph, uint32_t layer, uint32_t state);

/** Name lookups, done once (not per frame): the index of a declared
 * parameter, a layer, or a state of a layer. A name that is not there is
 * an error (RUNE_E_NOT_FOUND, with the closest name as a suggestion),
 * never a silent no-op later. */
RUNE_API rune_status rune_graph_find_param(const rune_graph *graph, const char *name, uint32_t *param, rune_error *err);
/** The index of a layer by name (RUNE_E_NOT_FOUND with a suggestion). */
RUNE_API rune_status rune_graph_find_layer(const rune_graph *graph, const char *name, uint32_t *layer, rune_error *err);
/** The index of a state of `layer` by name (RUNE_E_NOT_FOUND with a
 * suggestion). */
RUNE_API rune_status rune_graph_find_state(const rune_graph *graph, uint32_t layer, const char *name, uint32_t *state,
                                  rune_error *err);

/** One character's running copy of a graph (rune_character_start_graph;
 * rune_character_source gives it), read here for tools. */
typedef struct rune_graph_instance rune_graph_instance;

/** The graph an instance runs. */
RUNE_API const rune_graph *rune_graph_instance_graph(const rune_graph_instance *inst);

/** Current (destination) state of a layer. */
RUNE_API uint32_t rune_graph_current_state(const rune_graph_instance *inst, uint32_t layer);
/** Normalized progress of a layer's current play. */
RUNE_API double rune_graph_state_progress(const rune_graph_instance *inst, uint32_t layer);
/** True while a layer is cross-fading. */
RUNE_API bool rune_graph_in_transition(const rune_graph_instance *inst, uint32_t layer);
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

/** What layer `layer` of a running instance shows after its last update
 * (all zero for a layer out of range). */
RUNE_API rune_graph_layer_view rune_graph_layer_view_of(const rune_graph_instance *inst, uint32_t layer);

RUNE_END_DECLS

#endif
