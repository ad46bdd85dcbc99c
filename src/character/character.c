/* A character: creation and destruction, and what a frame hands back
 * (pose, root travel, model and skinning matrices, signals). Its plays,
 * graphs, controls and views are the other character_*.c files. */
#include "character_internal.h"
#include "../base/alloc.h"
#include "../base/prefetch.h"
#include "../base/require.h"

#include <stddef.h>

rune_status rune_character_create(const rune_character_desc *desc, const rune_allocator *alloc,
                                  rune_character **out, rune_error *err)
{
    RUNE_REQUIRE(err, desc, "desc");
    RUNE_REQUIRE(err, desc->lib, "desc->lib");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    const rune_rig *rig = rune_library_rig(desc->lib);
    if (desc->root_joint != RUNE_NO_ROOT &&
        (desc->root_joint < 0 || (size_t)desc->root_joint >= rune_rig_joint_count(rig)))
        return rune_fail(err, RUNE_E_INVALID, "character: root joint %d is outside the rig", desc->root_joint);
    rune_character *ch = rune__calloc(alloc, 1, sizeof *ch);
    if (!ch)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a character");
    ch->alloc = *alloc;
    atomic_init(&ch->batch_run, 0);
    ch->lib = desc->lib;
    rune__library_hold(ch->lib, true);
    ch->rig = rig;
    ch->root = desc->root_joint;
    if (ch->root != RUNE_NO_ROOT) { /* the rig never changes: the root's frame is worked out once */
        ch->root_space = (rune_xform){{0.0f, 0.0f, 0.0f}, rune_root_rest_rotation(rig, ch->root)};
        ch->root_up = rune_root_up_axis(ch->root_space);
    }
    ch->matrices_each_frame = desc->matrices;
    ch->matrices_stream = desc->stream_matrices;
    rune_status st = rune_animator_create(rig, desc->signal_capacity, alloc, &ch->anim, err);
    if (!st && desc->matrices && !rune_character_model_matrices(ch))
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory creating a character");
    if (st) {
        rune_character_destroy(ch);
        return st;
    }
    rune_animator_set_simd(ch->anim, desc->simd);
    ch->simd = desc->simd;
    *out = ch;
    return RUNE_OK;
}

/* The matrices' block: room to start them at a line (rune__line_align). */
static size_t matrix_block_bytes(const rune_character *ch)
{
    return rune_rig_joint_count(ch->rig) * sizeof(rune_mat4) + 63u;
}

void rune_character_destroy(rune_character *ch)
{
    if (!ch)
        return;
    const rune_allocator *a = &ch->alloc;
    size_t params = rune_library_param_count(ch->lib);
    for (size_t i = 0; i < ch->motion_count; i++) {
        rune_motion_player_destroy(ch->motions[i].player);
        rune_pose_release(&ch->motions[i].pose);
        rune__free(a, ch->motions[i].params, params, sizeof(float));
    }
    rune__free(a, ch->motions, ch->motion_cap, sizeof *ch->motions);
    for (size_t i = 0; i < ch->graph_count; i++) {
        rune_graph_instance_destroy(ch->graphs[i].inst);
        rune_pose_release(&ch->graphs[i].pose);
    }
    rune__free(a, ch->graphs, ch->graph_cap, sizeof *ch->graphs);
    rune__free(a, ch->live_motions, ch->live_motion_cap, sizeof *ch->live_motions);
    rune__free(a, ch->live_graphs, ch->live_graph_cap, sizeof *ch->live_graphs);
    rune__free(a, ch->extra, ch->extra_cap, sizeof *ch->extra);
    rune__free(a, ch->matrix_block, matrix_block_bytes(ch), 1);
    rune__free(a, ch->previous_block, matrix_block_bytes(ch), 1);
    rune__inertia_destroy(ch->inertia);
    rune_animator_destroy(ch->anim);
    rune__library_hold(ch->lib, false);
    rune_allocator al = ch->alloc;
    rune__free(&al, ch, 1, sizeof *ch);
}

const rune_library *rune_character_library(const rune_character *ch)
{
    RUNE_ASSUME(ch);
    return ch->lib;
}
void rune_character_deliver(rune_character *ch, rune_signal_fn fn, void *user)
{
    RUNE_ASSUME(ch);
    rune_animator_deliver(ch->anim, fn, user);
}

const rune_pose *rune_character_pose(const rune_character *ch)
{
    RUNE_ASSUME(ch);
    return rune_animator_pose(ch->anim);
}
rune_root_delta rune_character_root_delta(const rune_character *ch)
{
    RUNE_ASSUME(ch);
    return ch->root_delta;
}

const rune_mat4 *rune_character_model_matrices(rune_character *ch)
{
    RUNE_ASSUME(ch);
    if (!ch->matrices) {
        if (!(ch->matrix_block = rune__calloc(&ch->alloc, matrix_block_bytes(ch), 1)))
            return NULL;
        ch->matrices = rune__line_align(ch->matrix_block);
    }
    if (!ch->matrices_fresh) {
        if (ch->matrices_stream)
            rune_rig_model_matrices_stream(ch->rig, rune_animator_pose(ch->anim), RUNE_SIMD_AUTO, ch->matrices);
        else
            rune_rig_model_matrices(ch->rig, rune_animator_pose(ch->anim), ch->matrices);
        ch->matrices_fresh = true;
    }
    return ch->matrices;
}

bool rune_character_skinning_matrices(rune_character *ch, const rune_mesh *mesh, bool previous, rune_mat4 *out)
{
    if (!ch || !mesh || !out)
        return false;
    size_t joints = rune_rig_joint_count(ch->rig);
    for (size_t b = 0; b < mesh->bind_count; b++)
        if (mesh->bind_joints[b] < 0 || (size_t)mesh->bind_joints[b] >= joints)
            return false;
    if (previous && !ch->keep_previous) { /* from now on, each update keeps the frame it ends */
        if (!(ch->previous_block = rune__calloc(&ch->alloc, matrix_block_bytes(ch), 1)))
            return false;
        ch->previous = rune__line_align(ch->previous_block);
        ch->keep_previous = true;
    }
    const rune_mat4 *model = rune_character_model_matrices(ch);
    if (!model)
        return false;
    rune_mesh_skinning_matrices(mesh, previous && ch->previous_valid ? ch->previous : model, out);
    return true;
}

size_t rune_character_dropped_signals(const rune_character *ch)
{
    RUNE_ASSUME(ch);
    return rune_animator_dropped_signals(ch->anim);
}

void rune__character_prefetch(const rune_character *ch, int stage)
{
    if (stage == 0) { /* the character, but for its root memo's cycle entries */
        rune__prefetch_range(ch, offsetof(rune_character, root_memo.cycle), false);
        return;
    }
    if (stage == 1) { /* what it points at */
        rune__prefetch_range(ch->live_motions, ch->live_motion_count * sizeof *ch->live_motions, false);
        rune__prefetch_range(ch->live_graphs, ch->live_graph_count * sizeof *ch->live_graphs, false);
        size_t runs = ch->live_motion_count + ch->live_graph_count; /* each writes a contribution */
        rune__prefetch_range(ch->extra, (runs < ch->extra_cap ? runs : ch->extra_cap) * sizeof *ch->extra, true);
        if (ch->matrices_each_frame && !ch->matrices_stream) /* streamed lines are never fetched */
            rune__prefetch_range(ch->matrices, rune_rig_joint_count(ch->rig) * sizeof *ch->matrices, true);
        if (ch->inertia)
            rune__inertia_prefetch(ch->inertia, 0);
    }
    if (stage == 2 && ch->inertia) /* the lanes of its decay, and the channels this frame's pose gets */
        rune__inertia_prefetch(ch->inertia, 1);
    if (stage - 1 < RUNE_ANIMATOR_PREFETCH_STAGES) /* its pose, unless it goes to the inertialization */
        rune_animator_prefetch(ch->anim, stage - 1, !(ch->inertia && rune__inertia_lent(ch->inertia)));
    /* a sole run's own pose, and that pose's header, are left out (the
     * animator is read from stage 2 on: stage 1 asked for it) */
    bool own_pose = stage >= 2 && !rune__character_sole_run(ch);
    if (stage == 2) { /* its runs */
        size_t motion_bytes = own_pose ? sizeof *ch->motions : offsetof(motion_run, pose);
        size_t graph_bytes = own_pose ? sizeof *ch->graphs : offsetof(graph_run, pose);
        for (size_t i = 0; i < ch->live_motion_count; i++)
            rune__prefetch_range(&ch->motions[ch->live_motions[i]], motion_bytes, true);
        for (size_t i = 0; i < ch->live_graph_count; i++)
            rune__prefetch_range(&ch->graphs[ch->live_graphs[i]], graph_bytes, true);
        return;
    }
    if (stage < 3)
        return;
    for (size_t i = 0; i < ch->live_motion_count; i++) {
        const motion_run *m = &ch->motions[ch->live_motions[i]];
        if (stage == 3 && own_pose)
            rune_pose_prefetch(&m->pose, true);
        if (stage - 3 < RUNE_MOTION_PREFETCH_STAGES)
            rune_motion_player_prefetch(m->player, stage - 3);
    }
    for (size_t i = 0; i < ch->live_graph_count; i++) {
        const graph_run *g = &ch->graphs[ch->live_graphs[i]];
        if (stage == 3 && own_pose)
            rune_pose_prefetch(&g->pose, true);
        rune_graph_instance_prefetch(g->inst, stage - 3);
    }
}

size_t rune_character_curves(const rune_character *ch, const float **values, const float **coverage)
{
    RUNE_ASSUME(ch);
    const rune_pose *p = rune_animator_pose(ch->anim);
    if (values)
        *values = p->curve;
    if (coverage)
        *coverage = p->curve_cov;
    return p->curve_count;
}

float rune_character_curve(const rune_character *ch, uint32_t curve)
{
    RUNE_ASSUME(ch);
    const rune_pose *p = rune_animator_pose(ch->anim);
    return curve < p->curve_count ? p->curve[curve] : 0.0f;
}
