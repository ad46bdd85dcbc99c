/* The graph stage as the character uses it: compiling a graph, running
 * an instance (parameters, triggers, travel, update, evaluation) and the
 * views root motion reads of its plays. */
#ifndef RUNE_SRC_GRAPH_API_INTERNAL_H
#define RUNE_SRC_GRAPH_API_INTERNAL_H

#include "rune/graph.h"
#include "../blend/blend_internal.h"

/** Validates (indexes in range, finite numbers, trigger conditions on
 * trigger parameters, motions using no more parameters than the graph has)
 * and compiles a graph for one rig layout (masks are resolved now). Errors
 * name layers[i].transitions[j].conditions[k] and so on. */
rune_status rune_graph_create(const rune_graph_desc *desc, const rune_rig *rig, const rune_allocator *alloc,
                              rune_graph **out, rune_error *err);
void rune_graph_destroy(rune_graph *graph);
/** A parameter's name ("" when none was given or out of range). */
const char *rune_graph_param_name(const rune_graph *graph, uint32_t param);
/** Type of a parameter (RUNE_PARAM_FLOAT for one out of range). */
rune_param_type rune_graph_param_type(const rune_graph *graph, uint32_t param);
/** Creates a running instance; `bindings[c]` binds clip index c used by the
 * state motions. Everything the instance needs is allocated here. */
rune_status rune_graph_instance_create(const rune_graph *graph, const rune_binding *const *bindings,
                                       const rune_allocator *alloc, rune_graph_instance **out, rune_error *err);
void rune_graph_instance_destroy(rune_graph_instance *inst);
/** Puts an instance back as created: initial parameters, every layer in
 * its initial state at progress 0 and full layer weight, no fades, no
 * travel route. Allocates nothing (instances are reused this way). */
void rune_graph_instance_reset(rune_graph_instance *inst);
/** Sets a float/int/bool parameter (bools: 0 or 1). Triggers: use trigger. */
void rune_graph_set_param(rune_graph_instance *inst, uint32_t param, float value);
float rune_graph_param(const rune_graph_instance *inst, uint32_t param);
/** Sets a trigger; it stays set until a transition that tests it fires. */
void rune_graph_trigger(rune_graph_instance *inst, uint32_t param);
/** Queues a breadth-first route over the layer's transition edges from its
 * current state to `state`. Each queued edge fires once its exit time is
 * reached, without its conditions. Returns false when no route exists. */
bool rune_graph_travel(rune_graph_instance *inst, uint32_t layer, uint32_t state);

/** One update: per layer, advance the current play, a live transition
 * source, the layer weight fade and the transition timer; apply sync
 * groups; then select at most one new transition per layer. Marker and
 * loop signals of each layer's selected play (source before the fade's
 * midpoint, destination after) go to `queue` under `source`. */
void rune_graph_update(rune_graph_instance *inst, float dt, rune_signal_queue *queue, uint32_t source);
/** Composes the layers in definition order into `out` (reset first) and
 * remembers each fading layer's pose for a later interruption (a layer
 * that is not fading cannot be interrupted before the next evaluation, so
 * a steady override layer is laid onto `out` straight from its play,
 * without a pose of its own). */
void rune_graph_evaluate(rune_graph_instance *inst, rune_pose *out);

/** Stages of rune_graph_instance_prefetch. */
#define RUNE_GRAPH_PREFETCH_STAGES (2 + RUNE_MOTION_PREFETCH_STAGES)
/** Asks the CPU to start loading what the next update and evaluation of
 * the instance read, one level of pointers a stage: 0 the instance, 1 its
 * layers, slots and parameters, 2 .. the playing states' motion players
 * (rune_motion_player_prefetch's stages) and the layers' poses. A stage
 * reads only what the stage before it asked for, so in a loop over many
 * instances issue stage s for the instance RUNE_GRAPH_PREFETCH_STAGES - s
 * ahead (rune_batch does, a character at a time). Changes nothing. */
void rune_graph_instance_prefetch(const rune_graph_instance *inst, int stage);

/** Whether some transition of the graph inertializes (its character then
 * keeps the poses an inertialization starts from). */
bool rune__graph_inertializes(const rune_graph *graph);
/** The longest blend time of the inertialized transitions fired since the
 * last call, in graph time (0: none); the character inertializes its pose
 * over it (rune_character_inertialize). */
float rune__graph_take_inertialization(rune_graph_instance *inst);

/** Fades a layer's weight to `weight` over `fade` seconds. */
void rune_graph_fade_layer(rune_graph_instance *inst, uint32_t layer, float weight, float fade);

/** A live play of a layer and its share of that layer (for root motion and
 * tools). */
typedef struct rune_graph_play_view {
    const rune_motion_player *player;
    float weight;    /**< share within the layer (1 - alpha or alpha) */
    double from;     /**< progress before the last update */
    double to;       /**< progress after it */
} rune_graph_play_view;

/** Lists up to 2 live plays of a layer (current first); returns the count. */
size_t rune_graph_layer_plays(const rune_graph_instance *inst, uint32_t layer, rune_graph_play_view *out);

#endif
