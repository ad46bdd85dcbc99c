/* rune/io.h - scenario documents (JSON, the contract in docs/scenario.md)
 * and running them frame by frame.
 *
 * Loading validates the whole document and builds plain descriptions;
 * running compiles clips, builds the rig, resolves every name, and only then
 * evaluates frames, so a bad document fails before any frame is produced. */
#ifndef RUNE_IO_H
#define RUNE_IO_H

#include <stdio.h>

#include "rune/base.h"
#include "rune/rig.h"
#include "rune/clip.h"
#include "rune/play.h"
#include "rune/mix.h"
#include "rune/blend.h"
#include "rune/graph.h"
#include "rune/root.h"
#include "rune/character.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

typedef enum rune_command_kind {
    RUNE_CMD_PLAY = 0,
    RUNE_CMD_ADJUST,
    RUNE_CMD_STOP,
    RUNE_CMD_CONTROL,
    RUNE_CMD_GRAPH,
    RUNE_CMD_SET,
    RUNE_CMD_TRIGGER,
    RUNE_CMD_TRAVEL,
    RUNE_CMD_FADE_LAYER
} rune_command_kind;

/** One timeline command. Which fields matter depends on `kind`. */
typedef struct rune_command {
    rune_command_kind kind;
    int frame;
    size_t index;        /**< position in the document's commands array */
    const char *target;  /**< play: clip; adjust/stop: track; control: name;
                              graph: graph; set/trigger/travel: instance */
    const char *track;   /**< play: track id; graph: instance id */
    const char *param;   /**< set/trigger: parameter */
    uint32_t param_index; /**< set/trigger: index into rune_scenario.params */
    bool is_motion;      /**< play: target is a motion, not a clip */
    bool on_graph;       /**< set/stop: the target is a graph instance */
    uint32_t graph;      /**< graph: index into rune_scenario.graphs */
    uint32_t layer;      /**< travel/fade_layer: layer index */
    uint32_t state_index; /**< travel: layer-local state index */
    const char *state;   /**< travel: state */
    const char *joint;   /**< control: "parent/part" */
    rune_play_params play; /**< play: fade/weight/speed/time; play, graph,
                                adjust, stop: blend (docs/scenario.md) */
    bool has_weight, has_speed;
    float weight, fade, speed; /**< adjust/stop/control */
    float value;         /**< set */
    int priority;        /**< control */
    rune_control_mode mode;
    bool remove;         /**< control: remove it */
    bool has_t, has_r;   /**< control: which channels the document gave */
    rune_xform xform;    /**< control */
    rune_control control; /**< control: every field the document gave (docs/scenario.md), joint and root
                               unresolved (-1) until the scenario runs */
    const char *root;    /**< control: the chain's root, "parent/part", or NULL */
} rune_command;

/** A motion (blend tree) of a scenario, flattened: node 0 is the motion
 * itself, nested motions are copied in as later nodes; sample clip indexes
 * are scenario clip indexes and parameters index `rune_scenario.params`. */
typedef struct rune_scenario_motion {
    const char *id;
    int priority;
    rune_motion_node_desc *nodes;
    size_t node_count;
} rune_scenario_motion;

/** A state of a scenario graph: plays a clip or a motion. */
typedef struct rune_scenario_state {
    const char *name;
    bool is_clip;
    uint32_t index; /**< clip or motion index */
    float speed;
    int32_t sync_group; /**< per graph, -1 none */
} rune_scenario_state;

typedef struct rune_scenario_layer {
    const char *name;
    rune_layer_blend blend;
    float weight;
    uint32_t initial;
    rune_scenario_state *states;
    size_t state_count;
    rune_transition_desc *transitions; /**< conditions index rune_scenario.params */
    size_t transition_count;
    const char **mask_joints; /**< joint names, resolved against the rig at run */
    rune_mask_entry *mask;    /**< weights and propagation (joint set at run) */
    size_t mask_count;
    bool has_mask;
} rune_scenario_layer;

typedef struct rune_scenario_graph {
    const char *id;
    int priority;
    uint32_t *declared;          /**< declared parameters (scenario indexes) */
    rune_param_desc *declared_desc;
    size_t declared_count;
    rune_scenario_layer *layers;
    size_t layer_count;
} rune_scenario_graph;

/** A skeleton clips may be authored on ("source_rigs"): its joints, from
 * the document or from a .rune asset (whose clips then join the
 * document's, authored on it). */
typedef struct rune_scenario_rig {
    const char *id;
    rune_joint_desc *joints;
    size_t joint_count;
    const char *asset; /**< the .rune it came from (resolved path), or NULL */
} rune_scenario_rig;

/** A retarget mapping from a source rig onto the document's rig
 * ("retargets"): explicit pairs (a NULL target keeps the source joint
 * out); joints they leave out are matched as rune_retarget_create does. */
typedef struct rune_scenario_retarget {
    uint32_t from; /**< index into rune_scenario.source_rigs */
    rune_retarget_pair *map;
    size_t map_count;
    bool no_foot_ik; /**< "foot_ik": false */
} rune_scenario_retarget;

/** Most distinct parameter names in one scenario. */
#define RUNE_SCENARIO_MAX_PARAMS 256

/** A loaded scenario document. Owned by the scenario; read-only. */
typedef struct rune_scenario {
    const char *file;
    rune_joint_desc *joints;
    size_t joint_count;
    rune_sequence_desc *clips;
    size_t clip_count;
    rune_scenario_motion *motions;
    size_t motion_count;
    rune_scenario_graph *graphs;
    size_t graph_count;
    const char **params; /**< parameter names (motions, graphs) */
    size_t param_count;
    rune_command *commands; /**< sorted by frame, document order within one */
    size_t command_count;
    float dt;
    int frames;
    bool root_motion;       /**< extract root motion (default true) */
    const char *root_joint; /**< NULL: the rig's first joint */
    const char **warnings;  /**< "FILE: path: what" for what loaded but looks
                                 wrong (unknown keys), first ones only */
    size_t warning_count;
    size_t warnings_dropped; /**< warnings past RUNE_SCENARIO_MAX_WARNINGS */
    bool uses_scale;         /**< some frame or key gives "s" (rune eval then
                                  prints each joint's scale) */
    rune_scenario_rig *source_rigs; /**< skeletons clips are authored on */
    size_t source_rig_count;
    rune_scenario_retarget *retargets;
    size_t retarget_count;
    int32_t *clip_rig;       /**< per clip: its source rig, or -1 (the document's rig) */
    rune_simd_level simd;    /**< kernels a run uses (RUNE_SIMD_AUTO, the default:
                                  the best); set it before rune_scenario_run */
} rune_scenario;

/** Most warnings a loaded scenario keeps. */
#define RUNE_SCENARIO_MAX_WARNINGS 32

/** Loading flags. */
enum {
    /** Unknown keys are errors instead of warnings. */
    RUNE_SCENARIO_STRICT = 1u << 0
};

/** Most frames a scenario may ask for. */
#define RUNE_SCENARIO_MAX_FRAMES 1000000

/** Loads and validates a scenario file. On failure *out is NULL and the
 * message reads "FILE: JSON.PATH: reason" (or "FILE:LINE:COL: reason" for
 * syntax errors). */
RUNE_API rune_status rune_scenario_load_file(const char *path, const rune_allocator *alloc, rune_scenario **out,
                                    rune_error *err);
/** Same, from text in memory; `name` stands in for the file name; flags:
 * 0 or RUNE_SCENARIO_STRICT. */
RUNE_API rune_status rune_scenario_load_string(const char *text, size_t length, const char *name, unsigned flags,
                                      const rune_allocator *alloc, rune_scenario **out, rune_error *err);
/** Frees a loaded scenario and what it holds (NULL is fine); libraries
 * made from it (rune_scenario_library) are their own. */
RUNE_API void rune_scenario_destroy(rune_scenario *scenario);

/** Builds a scenario's library: its rig, its clips (indexes as in the
 * document), its parameter table, motions and graphs (with their names).
 * Errors name the JSON path ("clips[2].keyframes[0]...", "graphs[0].layers[1]
 * .mask[0].joint: ..."). */
RUNE_API rune_status rune_scenario_library(const rune_scenario *scenario, const rune_allocator *alloc, rune_library **out,
                                  rune_error *err);

/** A signal as reported by a run: `source` is the track id (or graph
 * instance id) from the document. */
typedef struct rune_scenario_event {
    rune_event_kind kind;
    const char *source;
    const char *name;
    const char *value;
    float time;
} rune_scenario_event;

/** The weight of one live source in a frame: a track, a graph instance, or
 * a blend-space leaf of a motion track ("track/clip"). */
typedef struct rune_scenario_weight {
    const char *source;
    float weight;
} rune_scenario_weight;

/** A live play of a run: its document id (a track or instance id) and
 * what the character says of it (kind, weight, the track, motion player
 * or graph instance to inspect). */
typedef struct rune_scenario_source {
    const char *name;
    rune_source_view view;
} rune_scenario_source;

/** Most weights one frame reports. */
#define RUNE_SCENARIO_MAX_WEIGHTS 64

/** What a run reports after each frame. Pointers are valid during the
 * callback only. */
/** A live solver control of a run and where it stands after the frame. */
typedef struct rune_scenario_control {
    const char *name;        /**< the command's control name */
    rune_control_mode mode;
    int32_t joint;           /**< its effector */
    rune_control_state state;
} rune_scenario_control;

typedef struct rune_frame_report {
    int frame;
    double time;
    const rune_rig *rig;
    const rune_pose *pose;
    const rune_scenario_event *events;
    size_t event_count;
    rune_root_delta root_motion;
    const rune_scenario_weight *weights; /**< live sources, in start order */
    size_t weight_count;
    const rune_character *character;     /**< the character evaluated: its
                                              parameters, for tools */
    const rune_scenario_source *sources; /**< live plays, in start order */
    size_t source_count;
    const rune_scenario_control *controls; /**< live solver controls, by first use */
    size_t control_count;
    /** An inertialization decaying after this frame (docs/semantics.md):
     * seconds until it ends and the largest joint rotation offset it adds,
     * in degrees (both 0 when none). */
    float inertia_left, inertia_angle;
} rune_frame_report;

/** True when every number of a report (pose, root motion, event times,
 * curves, weights, control states, time) is finite; otherwise, when `what` is given, names the
 * first offender ("pose Root/Arm", "root_motion", ...) in `what`. The
 * library never reports non-finite numbers for finite input: tools treat
 * one as an internal error. */
RUNE_API bool rune_frame_report_finite(const rune_frame_report *report, char *what, size_t what_size);

/** Called after each frame; a status other than RUNE_OK stops the run,
 * which then returns that status (the caller keeps its own message). */
typedef rune_status (*rune_frame_fn)(void *user, const rune_frame_report *report);

/** Most signals one frame of a run reports; more are dropped. */
#define RUNE_SCENARIO_MAX_EVENTS 1024

/** Prepares and evaluates every frame, calling `fn` after each one (after
 * signals are delivered). Fails before the first frame on a name that does
 * not resolve (message "FILE: commands[i].field: reason"); stops when `fn`
 * returns a status other than RUNE_OK (message "FILE: frame N: stopped by
 * the caller"). Memory does not grow with the number of frames. */
RUNE_API rune_status rune_scenario_run(const rune_scenario *scenario, const rune_allocator *alloc, rune_frame_fn fn,
                              void *user, rune_error *err);

/** A rig and clips as descriptions (what an import holds), to be written
 * as a scenario document. */
typedef struct rune_document_desc {
    const char *source;             /**< names the input in error messages */
    const rune_joint_desc *joints;  /**< parent-first */
    size_t joint_count;
    const rune_sequence_desc *clips;
    size_t clip_count;
    int32_t root_joint;             /**< root-motion joint, or -1: "root_motion": false */
    size_t play;                    /**< the clip the timeline plays (0, or one past the
                                         clips: the first) */
} rune_document_desc;

/** Writes a scenario document (docs/scenario.md): the rig, every clip
 * (floats with 9 significant digits, so they read back exactly; one line a
 * joint and a keyframe, so a mocap clip stays megabytes and diffs by line)
 * and a timeline that plays clip `play` once at 30 frames per second.
 * RUNE_E_IO ("SOURCE: cannot write the scenario") when a write fails. */
RUNE_API rune_status rune_scenario_write(const rune_document_desc *doc, FILE *f, rune_error *err);

RUNE_END_DECLS

#endif
