/* Layout of compiled graphs and running instances, shared by the graph's
 * files (definition, update, evaluation, sync). */
#ifndef RUNE_SRC_GRAPH_INTERNAL_H
#define RUNE_SRC_GRAPH_INTERNAL_H

#include "rune/graph.h"
#include "../play/play_internal.h"

typedef struct graph_layer {
    rune_layer_blend blend;
    float weight;
    uint32_t first_state, state_count; /* into graph.states */
    uint32_t initial_state;            /* layer-local */
    uint32_t first_transition, transition_count;
    float *mask; /* per joint */
} graph_layer;

typedef struct graph_transition {
    int32_t from; /* layer-local state, -1: any state */
    uint32_t to;
    float duration;
    bool has_exit_time;
    float exit_time;
    bool interruptible;
    rune_blend_mode blend;
    uint32_t first_condition, condition_count;
} graph_transition;

struct rune_graph {
    rune_allocator alloc;
    size_t joint_count;
    size_t curve_count; /* the rig's float curves: layer poses carry them */
    size_t param_count, layer_count, state_count, transition_count, condition_count;
    rune_param_desc *params;
    graph_layer *layers;
    rune_state_desc *states;
    graph_transition *transitions;
    rune_condition_desc *conditions;
    float *masks; /* layer_count x joint_count */
    /* the sync groups the states name, each once, in the order of their
     * first state (room for state_count) */
    int32_t *sync_groups;
    size_t sync_group_count;
    /* names for lookups (NULL entries: none given) */
    char **param_names;
    char **layer_names;
    char **state_names; /* graph-global state index */
};

/* One playing state. Two slots per state let a state cross-fade into
 * itself; every player is built at instance creation. */
typedef struct play_slot {
    rune_motion_player *player;
    uint32_t state; /* graph-global */
    bool live;
    double from; /* progress before the last update */
} play_slot;

/* A layer's poses: the last evaluation (and its additive reference), their
 * frozen copies for an interruption, and scratch for the two sides of a
 * fade. */
enum layer_pose {
    LP_LAST = 0,
    LP_LAST_REF,
    LP_FROZEN,
    LP_FROZEN_REF,
    LP_A,
    LP_B,
    LP_REF_A,
    LP_REF_B,
    LP_COUNT
};

typedef struct layer_run {
    int32_t cur;  /* slot of the current (destination) play */
    int32_t src;  /* slot of a live source, -1 when none */
    bool frozen;  /* the source is a frozen pose, not a play */
    bool fading;
    float elapsed, duration;
    bool interruptible;
    bool last_fresh; /* pose[LP_LAST] is this fade's: evaluated since it began */
    rune_fade weight;
    size_t route_len, route_pos;
    /* read only on a travel route: after what every frame reads (a
     * frame's prefetch stops here) */
    uint32_t route[RUNE_GRAPH_MAX_ROUTE]; /* graph-global transition indexes */
    rune_pose pose[LP_COUNT];
} layer_run;

struct rune_graph_instance {
    rune_allocator alloc;
    const rune_graph *g;
    float *params;
    play_slot *slots; /* 2 per state */
    bool *state_loops;
    layer_run *layers;
    size_t pose_stride; /* the lanes of its layers' poses */
    /* the longest blend time of the inertialized transitions fired since
     * the character last took it (0: none) */
    float inertialize;
};

/* Whether layer li is steady: an override layer not fading, which
 * evaluation lays straight from its play, with no layer pose
 * (graph_evaluate.c; the prefetch asks for no pose of it). */
static inline bool rune__graph_layer_steady(const rune_graph_instance *inst, size_t li)
{
    return inst->g->layers[li].blend == RUNE_LAYER_OVERRIDE && !inst->layers[li].fading;
}

/* Whether transition t cross-fades over time (an inertialized or
 * instant one leaves its layer steady). */
static inline bool rune__graph_transition_fades(const graph_transition *t)
{
    return t->duration > 0.0f && t->blend == RUNE_BLEND_CROSSFADE;
}

/* The blend weight of a layer's destination during its fade (1 when not
 * fading). */
float rune__graph_alpha(const layer_run *l);
/* Evaluates a fading layer's blended pose (and additive reference) into
 * its LP_LAST poses at the plays' current times (graph_evaluate.c). */
void rune__graph_layer_pose(rune_graph_instance *inst, size_t li);
/* Adopts sync-group phases after the plays have advanced. */
void rune__graph_sync(rune_graph_instance *inst);
/* Maps the leader's clip time onto the follower's clip through their shared
 * named events; false when the clips share no usable event pair. */
bool rune__sync_map_time(const rune_clip *lead, float t_lead, const rune_clip *follow, float *t_follow);

#endif
