/* rune/character.h - one character: everything a rig plays, in the order
 * of a frame.
 *
 * A rune_library holds what characters of one rig can play: the rig, the
 * compiled clips and their bindings, motions (blend spaces) and graphs
 * (state machines), each with a name looked up once. A rune_character is
 * one running instance on that rig: clip and motion tracks, graph
 * instances, procedural controls, root motion and the signal queue.
 *
 *     rune_character_update(ch, dt);           // advance, mix, controls, root motion
 *     rune_character_deliver(ch, on_signal, user);
 *     const rune_pose *pose = rune_character_pose(ch);
 *     rune_root_delta d = rune_character_root_delta(ch);
 *
 * Ownership and destroy order: a library owns its rig, clips, bindings,
 * motions and graphs. A character borrows its library (and through it all
 * of those): destroy every character before its library (debug builds
 * assert it). A library must not be changed (clips, motions, graphs
 * added) while characters use it. A batch borrows the characters it
 * runs, for the duration of one call.
 *
 * Engines that keep their own playback use the lower stages directly: a
 * binding samples a clip into a pose (rune/rig.h), the rig turns a pose
 * into model matrices, the IK solvers work on positions (rune/ik.h). */
#ifndef RUNE_CHARACTER_H
#define RUNE_CHARACTER_H

#include "rune/base.h"
#include "rune/rig.h"
#include "rune/clip.h"
#include "rune/play.h"
#include "rune/mix.h"
#include "rune/blend.h"
#include "rune/graph.h"
#include "rune/skin.h"
#include "rune/root.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/* ---- Library ---------------------------------------------------------- */

typedef struct rune_library rune_library;

/** Creates a library for a new rig built from `joints` (rune_rig_create's
 * rules). Add parameters, then clips and motions, then graphs. */
RUNE_API rune_status rune_library_create(const rune_joint_desc *joints, size_t joint_count, const rune_allocator *alloc,
                                rune_library **out, rune_error *err);
/** Frees the library and everything it owns. */
RUNE_API void rune_library_destroy(rune_library *lib);
/** The library's rig. */
RUNE_API const rune_rig *rune_library_rig(const rune_library *lib);

/** Compiles a clip and binds it to the rig; its index goes to *index. Its
 * id must be new among the library's clips and motions. */
RUNE_API rune_status rune_library_add_clip(rune_library *lib, const rune_sequence_desc *desc, uint32_t *index,
                                  rune_error *err);
/** Adds a compiled clip, taking ownership of it (also on failure). */
RUNE_API rune_status rune_library_adopt_clip(rune_library *lib, rune_clip *clip, uint32_t *index, rune_error *err);
/** The same for a clip authored on another rig: `retarget` maps that rig
 * onto the library's (rune_retarget_create(source, rune_library_rig(lib),
 * ...)); the clip is retargeted here, once (rune_binding_create), and the
 * mapping may be destroyed afterwards. */
RUNE_API rune_status rune_library_add_retargeted_clip(rune_library *lib, const rune_sequence_desc *desc,
                                                      const rune_retarget *retarget, uint32_t *index,
                                                      rune_error *err);
/** How many clips the library holds (indexes 0 .. count - 1). */
RUNE_API size_t rune_library_clip_count(const rune_library *lib);
/** The clip a play of index `clip` samples (retargeted: the copy on the
 * library's rig, rune_binding_clip). */
RUNE_API const rune_clip *rune_library_clip(const rune_library *lib, uint32_t clip);

/** The index of a parameter name in the library's table (shared by its
 * motions and graphs), added when new. */
RUNE_API rune_status rune_library_add_param(rune_library *lib, const char *name, uint32_t *index, rune_error *err);
/** How many parameters the library's table holds. */
RUNE_API size_t rune_library_param_count(const rune_library *lib);
/** A parameter's name ("" out of range); owned by the library. */
RUNE_API const char *rune_library_param_name(const rune_library *lib, uint32_t param);

/** Compiles a motion whose samples name the library's clip indexes and
 * whose parameters index the library's table; `priority` is the mixer
 * rank of a track playing it. Its id must be new among clips and motions. */
RUNE_API rune_status rune_library_add_motion(rune_library *lib, const char *id, int priority,
                                    const rune_motion_node_desc *nodes, size_t node_count, uint32_t *index,
                                    rune_error *err);
/** How many motions the library holds. */
RUNE_API size_t rune_library_motion_count(const rune_library *lib);
/** Motion `motion` (NULL out of range), owned by the library: what a
 * graph state plays (rune_state_desc.motion). */
RUNE_API const rune_motion *rune_library_motion(const rune_library *lib, uint32_t motion);
/** A one-clip motion of clip `clip` (made on first use), for graph states
 * that play a plain clip; NULL when out of memory or out of range. */
RUNE_API const rune_motion *rune_library_clip_motion(rune_library *lib, uint32_t clip);

/** Compiles a graph for the rig. Its parameter table must be the
 * library's (desc->param_count == rune_library_param_count); `priority`
 * is the mixer rank of its instances. Its id must be new among graphs. */
RUNE_API rune_status rune_library_add_graph(rune_library *lib, const char *id, int priority, const rune_graph_desc *desc,
                                   uint32_t *index, rune_error *err);
/** How many graphs the library holds. */
RUNE_API size_t rune_library_graph_count(const rune_library *lib);
/** Graph `graph` (NULL out of range), owned by the library: read its
 * names and look up its parameters with rune/graph.h. */
RUNE_API const rune_graph *rune_library_graph(const rune_library *lib, uint32_t graph);
/** A graph's id ("" out of range); owned by the library. */
RUNE_API const char *rune_library_graph_id(const rune_library *lib, uint32_t graph);

/** Name lookups, done once: a name that is not there is RUNE_E_NOT_FOUND
 * with the closest name suggested, never a silent no-op later. Joints take
 * "parent/part" or a unique "part". Graph parameters, layers and states:
 * rune_graph_find_param, _layer, _state on rune_library_graph. */
RUNE_API rune_status rune_library_find_clip(const rune_library *lib, const char *id, uint32_t *clip, rune_error *err);
/** The index of a motion by id (RUNE_E_NOT_FOUND with a suggestion). */
RUNE_API rune_status rune_library_find_motion(const rune_library *lib, const char *id, uint32_t *motion, rune_error *err);
/** The index of a graph by id (RUNE_E_NOT_FOUND with a suggestion). */
RUNE_API rune_status rune_library_find_graph(const rune_library *lib, const char *id, uint32_t *graph, rune_error *err);
/** The index of a parameter of the library's table by name
 * (RUNE_E_NOT_FOUND with a suggestion). */
RUNE_API rune_status rune_library_find_param(const rune_library *lib, const char *name, uint32_t *param, rune_error *err);
/** The index of a joint of the library's rig: "parent/part" or a unique
 * "part" (rune_rig_find_joint's messages). */
RUNE_API rune_status rune_library_find_joint(const rune_library *lib, const char *name, int32_t *joint, rune_error *err);
/** The index of a float curve (rune_rig_curve_count of the library's rig:
 * every curve its clips key, added with them); RUNE_E_NOT_FOUND with a
 * suggestion. */
RUNE_API rune_status rune_library_find_curve(const rune_library *lib, const char *name, uint32_t *curve,
                                             rune_error *err);

/* ---- Character -------------------------------------------------------- */

typedef struct rune_character rune_character;

/** Leave root motion alone (rune_character_desc.root_joint). */
#define RUNE_NO_ROOT (-1)

typedef struct rune_character_desc {
    const rune_library *lib;  /**< borrowed: must outlive the character */
    int32_t root_joint;       /**< joint root motion is read from and removed
                                   at (RUNE_NO_ROOT: none) */
    size_t signal_capacity;   /**< signals one frame can queue (0: 256) */
    bool matrices;            /**< compute model matrices in every update */
    rune_simd_level simd;     /**< kernels (RUNE_SIMD_AUTO: the best) */
    bool stream_matrices;     /**< write the model matrices without reading
                                   them into the CPU's caches: for a crowd
                                   whose matrices are read after every
                                   character updated, or by another device;
                                   the same values */
} rune_character_desc;

/** Creates a character: the rest pose, nothing playing. */
RUNE_API rune_status rune_character_create(const rune_character_desc *desc, const rune_allocator *alloc,
                                  rune_character **out, rune_error *err);
/** Frees the character (its plays, graph instances and matrices). */
RUNE_API void rune_character_destroy(rune_character *ch);
/** The library the character borrows. */
RUNE_API const rune_library *rune_character_library(const rune_character *ch);

/* Playing. Every start returns a handle (never 0, never reused) that
 * names the play in adjust/stop/set calls and in the signals it raises.
 * Starting may allocate while the number of simultaneous plays grows
 * (warm-up); plays and graph instances that end are kept and reused, so a
 * steady character allocates nothing. Calls naming a handle that is not
 * live (never was, or ended) return false and change nothing. */

/** Plays a clip as a track. `params` NULL: rune_play_defaults(); its
 * priority, when set, overrides the clip's. */
RUNE_API rune_status rune_character_play_clip(rune_character *ch, uint32_t clip, const rune_play_params *params,
                                     uint32_t *handle, rune_error *err);
/** Plays a motion (blend space) as a track; its parameters start at 0
 * (rune_character_set_param); params->time is the start progress in
 * cycles; the priority, when set, overrides the motion's. */
RUNE_API rune_status rune_character_play_motion(rune_character *ch, uint32_t motion, const rune_play_params *params,
                                       uint32_t *handle, rune_error *err);
/** Starts an instance of a graph: weight fades in over params->fade,
 * params->speed scales its time (1: real time); the priority, when set,
 * overrides the graph's. */
RUNE_API rune_status rune_character_start_graph(rune_character *ch, uint32_t graph, const rune_play_params *params,
                                       uint32_t *handle, rune_error *err);
/** Changes the weight (with a fade) and/or speed of any live play. */
RUNE_API bool rune_character_adjust(rune_character *ch, uint32_t handle, const rune_adjust_params *params);
/** Fades a play out over `fade` seconds; it leaves the mix (raising
 * `stopped`) when its weight reaches 0. */
RUNE_API bool rune_character_stop(rune_character *ch, uint32_t handle, float fade);
/** Inertialization (docs/semantics.md): from the next update, the pose the
 * plays give is offset by the difference between it and the pose the
 * character showed, translation, rotation, scale, coverage and curves
 * alike, moving on with the velocity it had and decaying to exactly 0
 * `blend_time` seconds later. Call it with a change made at once (a play,
 * stop or weight change with fade 0) that would otherwise pop; a second
 * call before the first has decayed starts from what the character shows
 * then. The offset is applied after root motion is removed and before
 * controls. The character keeps its last two poses from the first call
 * on (one allocation then, none after): that first call starts from the
 * last pose without its velocity, and a call with blend_time 0, which
 * blends nothing, makes a character keep them in advance. False (nothing
 * changed) for a negative or non-finite blend_time or when the memory
 * cannot be had. */
RUNE_API bool rune_character_inertialize(rune_character *ch, float blend_time);
/** Sets a parameter of a graph instance (graph parameter index) or a
 * motion track (library parameter index). Bools take 0 or 1. */
RUNE_API bool rune_character_set_param(rune_character *ch, uint32_t handle, uint32_t param, float value);
/** The value of a parameter of a live motion or graph play (0 when the
 * play or the parameter does not exist), for tools. */
RUNE_API float rune_character_param(const rune_character *ch, uint32_t handle, uint32_t param);
/** Sets a trigger of a graph instance. */
RUNE_API bool rune_character_trigger(rune_character *ch, uint32_t handle, uint32_t param);
/** Queues a breadth-first route over the transition edges of a layer of a
 * graph instance from its current state to `state`; each queued edge
 * fires once its exit time is reached, without its conditions. False
 * also when no route exists. */
RUNE_API bool rune_character_travel(rune_character *ch, uint32_t handle, uint32_t layer, uint32_t state);
/** Fades a layer of a graph instance to `weight` over `fade` seconds. */
RUNE_API bool rune_character_fade_layer(rune_character *ch, uint32_t handle, uint32_t layer, float weight, float fade);
/** Adds or updates (same id) a procedural control (rune_control; checked
 * as rune_control_check says, RUNE_E_INVALID naming the field). Controls
 * run after mixing and root-motion removal: solver targets are in the
 * character's model space. Updating one keeps its smoothed goal moving
 * from where it is; may allocate while the number of controls grows. */
RUNE_API rune_status rune_character_set_control(rune_character *ch, const rune_control *control, rune_error *err);
/** Removes a control; false when absent. */
RUNE_API bool rune_character_remove_control(rune_character *ch, uint32_t id);
/** Where a control stands on the last frame's pose (its smoothed goal,
 * its effector, the error left); false when absent. */
RUNE_API bool rune_character_control_state(const rune_character *ch, uint32_t id, rune_control_state *out);

/** One frame: advance every play by dt (time, markers, fades, graph
 * transitions), mix tracks and graph poses by priority, extract and remove
 * root motion, apply controls, and (when asked for) compute model
 * matrices. Signals are queued for rune_character_deliver. Fails only
 * when the mixer's scratch cannot grow (RUNE_E_NOMEM, warm-up only),
 * before anything moves: no play advanced and the pose is the last
 * frame's. */
RUNE_API rune_status rune_character_update(rune_character *ch, float dt, rune_error *err);
/** Calls fn for each signal of the last update, in order (event.source is
 * the play's handle), then empties the queue: callbacks see the new pose. */
RUNE_API void rune_character_deliver(rune_character *ch, rune_signal_fn fn, void *user);

/** The final local pose of the last update (after controls and root
 * motion removal). */
RUNE_API const rune_pose *rune_character_pose(const rune_character *ch);
/** The composed float curves of the last frame (docs/semantics.md, "Float
 * curves"), indexed as the library's rig names them (rune_library_find_curve,
 * rune_rig_curve_name): returns how many, and points *values (and
 * *coverage, when not NULL) at read-only arrays of that many, valid until
 * the next update (a curve nothing covers: 0, coverage 0). `values` may
 * be NULL to ask the count alone. */
RUNE_API size_t rune_character_curves(const rune_character *ch, const float **values, const float **coverage);
/** One curve's value (0 outside the table). */
RUNE_API float rune_character_curve(const rune_character *ch, uint32_t curve);
/** The root travel of the last update (zero without a root joint). Its
 * source: every live contribution's root travel (a graph's from its first
 * layer's plays), weighted the way the mixer weighted the root joint. */
RUNE_API rune_root_delta rune_character_root_delta(const rune_character *ch);
/** Model-space matrices of the last update's pose, one per joint, owned by
 * the character and valid until its next update, starting at a 64-byte
 * boundary: computed on the first call after an update (or by every
 * update with desc.matrices). NULL when out of memory. */
RUNE_API const rune_mat4 *rune_character_model_matrices(rune_character *ch);
/** A mesh's skinning matrices (rune_mesh_skinning_matrices) from the last
 * update's model matrices, or with `previous` from the update before it
 * -- where the mesh was a frame earlier, for motion vectors. The first
 * call with `previous` allocates room for them (once) and returns the
 * current frame's; from then on each update keeps the frame it ends, so
 * the first frame's previous equals its current. `out` has
 * mesh->bind_count entries. Returns false (out unchanged) on a NULL, a
 * bind joint outside the rig, or out of memory. */
RUNE_API bool rune_character_skinning_matrices(rune_character *ch, const rune_mesh *mesh, bool previous,
                                               rune_mat4 *out);

typedef enum rune_source_kind {
    RUNE_SOURCE_CLIP = 0,
    RUNE_SOURCE_MOTION,
    RUNE_SOURCE_GRAPH
} rune_source_kind;

/** A live play as seen by tools: what it is and its current weight. The
 * pointers name the play's running state (one of them is set, as `kind`
 * says), valid until the play ends; a graph instance is read with the
 * functions of rune/graph.h. */
typedef struct rune_source_view {
    uint32_t handle;
    rune_source_kind kind;
    uint32_t index;  /**< clip, motion or graph index in the library */
    int priority;
    float weight;    /**< playback weight (fades included) */
    const rune_track *track;                /**< clip tracks */
    const rune_motion_player *player;       /**< motion tracks */
    const rune_graph_instance *instance;    /**< graph instances */
} rune_source_view;

/** Writes up to `cap` live plays to out, in start order; returns how many
 * are live (which may exceed cap). */
RUNE_API size_t rune_character_sources(const rune_character *ch, rune_source_view *out, size_t cap);
/** The live play with this handle; false when none. */
RUNE_API bool rune_character_source(const rune_character *ch, uint32_t handle, rune_source_view *out);

/** One clip leaf of a motion play and its blend weight after the last
 * update (docs/semantics.md, "Blend spaces"). */
typedef struct rune_leaf_view {
    uint32_t clip; /**< library clip index */
    float weight;  /**< the leaf's share of the motion, 0..1 */
} rune_leaf_view;

/** Writes up to `cap` leaves of the motion play `handle` to out, in the
 * motion's leaf order; returns how many it has (0 when `handle` is not a
 * live motion play). */
RUNE_API size_t rune_character_source_leaves(const rune_character *ch, uint32_t handle, rune_leaf_view *out,
                                             size_t cap);
/** How many signals could not be queued since creation (queue full). */
RUNE_API size_t rune_character_dropped_signals(const rune_character *ch);

/* ---- Batch ------------------------------------------------------------ */

/** A fixed pool of worker threads that updates many characters per call.
 * Workers wait on an atomic frame counter: the frame path takes no lock
 * and allocates nothing once every character's scratch has grown to what
 * its plays need (a frame that starts a larger graph or blend may grow it,
 * from whichever thread updates that character: an allocator shared by
 * characters of one batch must be thread-safe). Each character is updated
 * by exactly one thread, so results do not depend on the number of workers. */
typedef struct rune_batch rune_batch;

/** Starts `workers` threads (0: the caller does all the work). */
RUNE_API rune_status rune_batch_create(size_t workers, const rune_allocator *alloc, rune_batch **out, rune_error *err);
/** Stops and joins the workers. */
RUNE_API void rune_batch_destroy(rune_batch *batch);
/** The worker threads the batch runs beside the caller. */
RUNE_API size_t rune_batch_workers(const rune_batch *batch);
/** Updates every character by dt (rune_character_update), blocks of them
 * claimed by the workers and the calling thread; returns when all are
 * done. Signals stay queued in each character. Returns how many updates
 * failed (out of memory growing scratch: warm-up only); those characters
 * keep their last pose. A NULL entry fails; a character listed twice is
 * updated once (the repeat fails). One character must not be in two
 * batches running at the same time, nor updated by another thread while
 * its batch runs. `characters` may be NULL when count is 0. */
RUNE_API size_t rune_batch_run(rune_batch *batch, rune_character *const *characters, size_t count, float dt);

RUNE_END_DECLS

#endif
