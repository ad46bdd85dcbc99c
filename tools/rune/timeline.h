/* What `rune render` and `rune inspect` show: a scenario evaluated frame
 * by frame and kept whole -- the rig, every frame's local and model pose,
 * coverage, the weights of plays and blend samples, graph layers' states
 * and fades, blend-space parameters, signals, root motion, solver
 * controls' goals and errors, and the composed float curves. Collected
 * once (timeline.c), drawn by render_sheet.c and inspect_page.c. */
#ifndef RUNE_TOOL_TIMELINE_H
#define RUNE_TOOL_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "rune/io.h"
#include "rune/skin.h"

#define TL_NAME 96
#define TL_MAX_SERIES 32  /* weight series: plays and blend samples */
#define TL_MAX_LAYERS 16  /* graph layers, all instances together */
#define TL_MAX_BLENDS 4   /* blend spaces of motion plays */
#define TL_MAX_SAMPLES 16 /* samples of one blend space drawn */
#define TL_MAX_CONTROLS 8 /* solver controls drawn */
#define TL_MAX_CURVES 8   /* float curves in the render panel (the inspector plots all) */

/* One graph layer of one instance ("instance/layer"), per frame. */
typedef struct tl_layer {
    char label[TL_NAME];
    size_t state_count;
    char (*state_names)[TL_NAME]; /* copied: the graph is gone after the run */
    int16_t *state, *from; /* per frame: current, faded from (-1), -1 when not live */
    float *alpha, *weight;
    bool *interrupted;
} tl_layer;

/* The blend space at the root of a motion play: its samples' positions,
 * and per frame the parameters and each sample's weight. */
typedef struct tl_blend {
    char label[TL_NAME];
    int dims; /* 1 or 2 */
    char param_names[2][TL_NAME];
    size_t sample_count;
    rune_vec2 pos[TL_MAX_SAMPLES];
    char sample_names[TL_MAX_SAMPLES][TL_NAME];
    float *param;  /* frames x 2 */
    float *weight; /* frames x TL_MAX_SAMPLES */
    bool *live;    /* frames */
} tl_blend;

/* A solver control: per frame its goal, effector, pole and the error
 * left (rune_control_state), where it is live. */
typedef struct tl_control {
    char name[TL_NAME];
    rune_control_mode mode;
    int32_t joint;
    rune_vec3 *target, *effector, *pole; /* frames */
    float *error;
    bool *live, has_pole;
} tl_control;

typedef struct tl_event {
    size_t frame;
    rune_event_kind kind;
    char source[TL_NAME], name[TL_NAME], value[TL_NAME];
} tl_event;

typedef struct timeline {
    const char *title;
    double dt;
    size_t frames, joints, first_frame;
    int32_t *parent;
    char (*joint_names)[TL_NAME];
    rune_xform *rest;   /* per joint: rest frame */
    rune_vec3 *rest_s;  /* per joint: rest scale */
    bool scaled;        /* the scenario uses scale */
    /* frames x joints */
    rune_vec3 *pos;     /* model-space position */
    float *model;       /* with meshes: frames x joints x 12, each model matrix's columns 0-2 and translation */
    const rune_mesh *meshes; /* skinned meshes to draw (timeline_begin finds them), and how many */
    size_t mesh_count;
    struct eval_meshes *mesh_source; /* what owns them */
    rune_vec3 *local_t; /* local pose */
    rune_quat *local_r;
    rune_vec3 *local_s;
    float *angle;       /* local rotation angle, degrees */
    float *coverage;
    /* per frame */
    float *root; /* frames x 3: dx, dz, yaw of the frame's root motion */
    float *inertia; /* the inertialization's largest joint offset (degrees), 0 when none */
    bool inertialized; /* some frame inertializes */
    size_t series_count;
    char series_names[TL_MAX_SERIES][TL_NAME];
    float *series; /* frames x TL_MAX_SERIES, 0 when not live */
    tl_event *events;
    size_t event_count, event_cap;
    tl_layer layers[TL_MAX_LAYERS];
    size_t layer_count;
    tl_blend blends[TL_MAX_BLENDS];
    size_t blend_count;
    tl_control controls[TL_MAX_CONTROLS];
    size_t control_count;
    /* float curves (the rig's): names, and per frame each one's composed
     * value and coverage (frames x curve_count) */
    size_t curve_count;
    char (*curve_names)[TL_NAME];
    float *curve, *curve_cov;
    /* a retargeted clip's source skeleton, drawn beside the target: the
     * first live retargeted play each frame, sampled on its source rig,
     * scaled to the target's size and set beside it (source_live per
     * frame; positions frames x source_joints) */
    char source_label[TL_NAME];
    size_t source_joints;
    int32_t *source_parent;
    rune_vec3 *source_pos;
    bool *source_live;
} timeline;

/** Evaluates frames [first, last) of the scenario into t (zeroed by the
 * caller, its meshes set when it has any: their model matrices are then
 * kept);
 * 0, or an exit status with a message (3: a non-finite number or out of
 * memory; the run's own failures by cli_exit_for). */
int timeline_collect(timeline *t, const rune_scenario *s, size_t first, size_t last, const char *progress,
                     char *msg, size_t msg_size);
void timeline_free(timeline *t);

/** What `rune render` and `rune inspect` read and write. */
typedef struct tool_input {
    const char *file, *out;
    bool strict, force;
    size_t first, last; /* frames [first, last) */
    const char *clip;   /* --clip: the asset's clip to play, or NULL (the first) */
} tool_input;

/** Loads in->file (timeline_load), opens in->out (cli_output_open),
 * collects the frames and finds the skinned meshes of what was loaded
 * (none when it has none or they cannot be read). On failure: the exit status with a message, and
 * nothing left open or loaded; on success the caller writes o, commits or
 * aborts it, then frees t and s. */
int timeline_begin(const tool_input *in, const char *progress, rune_scenario **s, cli_output *o,
                   timeline *t, char *msg, size_t msg_size);

/** Loads FILE by what its bytes hold (cli_input_kind_of, as `rune info`
 * tells them): a scenario; a .rune asset, or an asset the importer reads,
 * playing its first clip, or the one whose id is `clip` (the scenario
 * `rune import --json` would write). From stdin, a scenario only; `clip`
 * with a scenario is an error. NULL with a message and *rc on failure
 * (an unknown clip lists the clips). */
rune_scenario *timeline_load(const char *file, bool strict, const char *clip, char *msg, size_t msg_size, int *rc);

#endif
