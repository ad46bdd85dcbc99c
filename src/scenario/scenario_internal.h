/* The allocation that holds a loaded scenario: the public struct first, so
 * a rune_scenario pointer is also the box pointer. */
#ifndef RUNE_SRC_SCENARIO_INTERNAL_H
#define RUNE_SRC_SCENARIO_INTERNAL_H

#include "rune/io.h"
#include "../base/arena.h"

typedef struct scenario_box {
    rune_scenario scenario; /* must stay first */
    rune_allocator alloc;
    rune__arena arena;
    const char *warnings[RUNE_SCENARIO_MAX_WARNINGS];
    struct rune_asset **assets; /* "assets", loaded (scenario_assets.c) */
    size_t asset_count;
    struct rune_asset *rig_asset; /* the asset whose rig the scenario took */
    struct rune_asset **source_assets; /* per source rig: its asset, or NULL (scenario_rigs.c) */
} scenario_box;

#include <jansson.h>

/** Index of a clip id in the scenario, or -1. */
int32_t rune__scenario_clip_index(const rune_scenario *s, const char *id);
/** Index of a parameter name, added to the table when new. */
rune_status rune__scenario_param(rune_scenario *s, rune__arena *arena, const char *name, uint32_t *out,
                                 rune_error *err);
/** Loads a keyframe's "curves" (scenario_curves.c) into out->curves. */
rune_status rune__scenario_load_curve_keys(json_t *kf, const char *path, rune__arena *arena, rune_keyframe_desc *out,
                                           rune_error *err);
/** Loads "graphs" (after clips and motions). */
rune_status rune__scenario_load_graphs(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err);
/** Index of a motion id, or -1. */
int32_t rune__scenario_motion_index(const rune_scenario *s, const char *id);
/** Reports the keys the format does not know anywhere in the document:
 * warnings, or with `strict` the first as an error. */
rune_status rune__scenario_check_keys(json_t *root, rune_scenario *s, rune__arena *arena, bool strict,
                                      rune_error *err);
/** `path` relative to the directory of `file` (unless absolute). */
const char *rune__scenario_resolve(rune__arena *arena, const char *file, const char *path);
/** A clip's keys as a sequence description in the arena. */
rune_status rune__scenario_clip_sequence(const rune_clip *c, rune__arena *arena, rune_sequence_desc *d);
/** Loads the .rune files of "assets" (first of all). */
rune_status rune__scenario_load_assets(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err);
/** Takes the first asset rig as the scenario's; RUNE_E_NOT_FOUND without one. */
rune_status rune__scenario_asset_rig(rune_scenario *s);
/** Appends the assets' clips to the document's (after "clips"). */
rune_status rune__scenario_asset_clips(rune_scenario *s, rune__arena *arena, rune_error *err);
/** Without "root_joint", when the rig came from an asset: its root-motion
 * joint; when it has none, no root motion (unless "root_motion" says). */
void rune__scenario_asset_root(rune_scenario *s, bool root_motion_given);
void rune__scenario_free_assets(rune_scenario *s);
/** Loads the fields of a `control` command (scenario_controls.c); joint
 * and root are resolved against the rig when the scenario runs. */
rune_status rune__scenario_load_control(json_t *c, const char *path, rune__arena *arena, rune_command *d,
                                        rune_error *err);
/** The controls of a run (scenario_run_controls.c): per command its
 * control id (its name's first use + 1) and resolved control; per id the
 * command whose control is set (-1: none) and its report. */
typedef struct run_controls {
    uint32_t *id;
    rune_control *control;
    int32_t *live;
    rune_scenario_control *report;
    size_t report_count;
} run_controls;
/** Resolves and checks every control command against the library's rig. */
rune_status rune__run_controls_prepare(run_controls *rc, const rune_scenario *s, const rune_library *lib,
                                       const rune_allocator *alloc, rune_error *err);
/** Sets or removes the control of command i on the character. */
rune_status rune__run_controls_apply(run_controls *rc, rune_character *ch, const rune_scenario *s, size_t i,
                                     rune_error *err);
/** The live solver controls' states after a frame, into rc->report. */
void rune__run_controls_collect(run_controls *rc, const rune_character *ch, const rune_scenario *s);
void rune__run_controls_free(run_controls *rc, const rune_scenario *s, const rune_allocator *alloc);
/** Loads a "joints" array (a rig's) at `path` into the arena. */
rune_status rune__scenario_load_joints(json_t *joints, const char *path, rune__arena *arena, rune_joint_desc **out,
                                       size_t *count, bool *scaled, rune_error *err);
/** Loads "source_rigs" (before the clips: they name them). */
rune_status rune__scenario_load_source_rigs(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err);
/** The source rig a clip names at "rig" (-1 when absent), or an error. */
rune_status rune__scenario_clip_rig(json_t *clip, const char *path, const rune_scenario *s, int32_t *out,
                                    rune_error *err);
/** Appends the clips of the source rigs' assets, authored on them (last). */
rune_status rune__scenario_source_clips(rune_scenario *s, rune__arena *arena, rune_error *err);
/** Loads "retargets" (after the source rigs). */
rune_status rune__scenario_load_retargets(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err);
/** The clip rigs of clips [from, to) set to `rig`, the array grown to `to`. */
rune_status rune__scenario_set_clip_rigs(rune_scenario *s, rune__arena *arena, size_t from, size_t to, int32_t rig);
/** Loads "motions" (after the clips). */
rune_status rune__scenario_load_motions(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err);

#endif
