/* Layout of a character, shared by its files: creation and outputs
 * (character.c), plays (character_plays.c), graphs (character_graphs.c),
 * controls (character_controls.c), views (character_sources.c), the frame
 * (character_update.c), root travel (character_root.c) and the batch
 * (character_batch.c). */
#ifndef RUNE_SRC_CHARACTER_INTERNAL_H
#define RUNE_SRC_CHARACTER_INTERNAL_H

#include "rune/character.h"
#include "../mix/mix_internal.h"
#include "../blend/blend_internal.h"
#include "../graph/graph_api_internal.h"
#include "../root/root_internal.h"
#include "../mix/inertia.h"

#include <stdatomic.h>

/* A motion played as a track. Runs are kept when they end and reused by
 * the next play of the same motion, so their players and poses are
 * allocated once. */
typedef struct motion_run {
    rune_motion_player *player;
    uint32_t motion;  /* library index */
    float *params;    /* the library's parameter table, this play's values */
    rune_fade fade;
    float speed;
    int priority;
    uint32_t handle;
    bool live;
    double from, to;  /* progress over the last advance (root travel) */
    float root_cov;   /* the root joint's coverage in the last sample */
    rune_pose pose;   /* this frame's blend of its leaves; last: a sole run
                         samples into the animator's pose instead, and its
                         frame's prefetch leaves this one out */
} motion_run;

/* A running graph instance; reused like motion runs. */
typedef struct graph_run {
    rune_graph_instance *inst;
    uint32_t graph;   /* library index */
    rune_fade fade;
    float speed;      /* scales the graph's time */
    int priority;
    uint32_t handle;
    bool live;
    float root_cov;   /* the root joint's coverage in the last evaluation */
    rune_pose pose;   /* this frame's composed (straight) pose; last, as in
                         motion_run */
} graph_run;

struct rune_character {
    /* what a frame reads, first: the batch's prefetch asks for these lines
     * and the root memo's samples (rune__character_prefetch) */
    const rune_rig *rig;
    rune_animator *anim; /* clip tracks, controls, signals, the mixer, the pose */
    motion_run *motions;
    size_t motion_count;
    graph_run *graphs;
    size_t graph_count;
    /* live runs in start order (indexes into motions / graphs): frames
     * visit them in that order, so signals come in start order */
    size_t *live_motions, live_motion_count;
    size_t *live_graphs, live_graph_count;
    rune_contribution *extra; /* this frame's motion and graph poses */
    size_t extra_cap;
    int32_t root;
    rune_xform root_space; /* the root joint's rest rotation in the rig (no translation) */
    rune_vec3 root_up;     /* the up axis in the root's frame */
    rune_root_delta root_delta;
    /* the batch run that last claimed it (character_batch.c): a character
     * listed twice in one run is updated once */
    _Atomic uint64_t batch_run;
    bool matrices_each_frame;
    bool matrices_stream; /* written with streaming stores (desc.stream_matrices) */
    bool matrices_fresh;
    rune_mat4 *matrices;  /* in matrix_block, at a 64-byte boundary: a matrix a line */
    /* the last frame's matrices, kept once a caller asks for them
     * (rune_character_skinning_matrices with `previous`): swapped with
     * `matrices` at each update, so keeping them allocates nothing */
    bool keep_previous, previous_valid, updated;
    rune_mat4 *previous;
    void *previous_block;
    /* root samples kept from frame to frame; its loop-cycle entries (read
     * at loop crossings only) and what follows them are not prefetched */
    rune_root_memo root_memo;
    /* what plays, stops and teardown read */
    rune_allocator alloc;
    const rune_library *lib;
    rune_simd_level simd;
    /* made by the first inertialization asked for (character_inertia.c) */
    rune_inertia *inertia;
    size_t motion_cap, graph_cap, live_motion_cap, live_graph_cap;
    void *matrix_block;
};

/* Whether the frame's only contribution is one motion or graph run: it
 * then samples straight into the animator's pose (character_update.c),
 * and its own pose goes unused (the batch's prefetch leaves it out). */
static inline bool rune__character_sole_run(const rune_character *ch)
{
    return rune_animator_track_count(ch->anim) == 0 && ch->live_motion_count + ch->live_graph_count == 1;
}

/* The live motion run or graph instance with a handle, or NULL. */
static inline motion_run *live_motion(const rune_character *ch, uint32_t handle)
{
    for (size_t i = 0; i < ch->live_motion_count; i++)
        if (ch->motions[ch->live_motions[i]].handle == handle)
            return &ch->motions[ch->live_motions[i]];
    return NULL;
}

static inline graph_run *live_graph(const rune_character *ch, uint32_t handle)
{
    for (size_t i = 0; i < ch->live_graph_count; i++)
        if (ch->graphs[ch->live_graphs[i]].handle == handle)
            return &ch->graphs[ch->live_graphs[i]];
    return NULL;
}

static inline rune_play_params rune__play_params_or_defaults(const rune_play_params *p)
{
    return p ? *p : rune_play_defaults();
}

/* Room for one more live run: its place in the live list and a slot among
 * the frame's extra contributions (warm-up growth, all or nothing;
 * character_plays.c). */
bool rune__character_reserve_live(rune_character *ch, size_t **live, size_t *live_cap, size_t live_count);

/* Hints for the batch loop, one level of pointers a stage, issued for the
 * character CHARACTER_PREFETCH_STAGES - stage ahead of the current one:
 * the character itself; its arrays, matrices and animator; its runs; then
 * its graphs' and motions' stages. No stage reads what the stage before
 * it did not ask for (a read of a line not yet loaded stalls the loop). A
 * crowd's characters are far apart in memory, and a graph character reads
 * a few dozen lines behind several pointers: about half its time at
 * 10,000 characters was waiting for them. */
#define CHARACTER_PREFETCH_STAGES (3 + RUNE_GRAPH_PREFETCH_STAGES)
void rune__character_prefetch(const rune_character *ch, int stage);

/* Makes the character's inertializer if it has none (warm-up); false
 * when the memory cannot be had. */
bool rune__character_arm_inertia(rune_character *ch);
/* A play asked with RUNE_BLEND_INERTIALIZE: the character made ready to
 * inertialize, and the play's fade taken out as *blend, the blend time to
 * ask for once the play has started (0: a crossfade, *p unchanged). */
rune_status rune__character_inertial_play(rune_character *ch, rune_play_params *p, float *blend, rune_error *err);

/* Library internals the character's plays use. */
/* rune_library_adopt_clip for a clip authored on another rig (as
 * rune_library_add_retargeted_clip). */
rune_status rune_library_adopt_retargeted_clip(rune_library *lib, rune_clip *clip,
                                                        const rune_retarget *retarget, uint32_t *index,
                                                        rune_error *err);
/* A clip's binding to the library's rig. */
const rune_binding *rune_library_binding(const rune_library *lib, uint32_t clip);
/** All bindings, clip order: what motion players and graph instances of
 * this library's motions and graphs take. */
const rune_binding *const *rune_library_bindings(const rune_library *lib);
/* A motion's id and mixer rank. */
const char *rune_library_motion_id(const rune_library *lib, uint32_t motion);
int rune_library_motion_priority(const rune_library *lib, uint32_t motion);
/* A graph's mixer rank. */
int rune_library_graph_priority(const rune_library *lib, uint32_t graph);

/* A character starts (hold) or stops using a library: the library counts
 * them, so that destroying it first is caught in debug builds. */
void rune__library_hold(const rune_library *lib, bool hold);

/* The root travel of this frame's contributions, weighted as the mixer
 * weighted the root joint (character_root.c). */
rune_root_delta rune__character_root_travel(rune_character *ch);

#endif
