/* Pose storage: per-joint arrays of translation, rotation and coverage. */
#include "rune/rig.h"
#include "../base/alloc.h"

#include <string.h>

rune_status rune_pose_init(rune_pose *pose, size_t count, const rune_allocator *alloc, rune_error *err)
{
    alloc = rune__alloc_or_default(alloc);
    memset(pose, 0, sizeof *pose);
    pose->alloc = *alloc;
    pose->t = rune__calloc(alloc, count, sizeof *pose->t);
    pose->r = rune__calloc(alloc, count, sizeof *pose->r);
    pose->coverage = rune__calloc(alloc, count, sizeof *pose->coverage);
    pose->count = count;
    if (!pose->t || !pose->r || !pose->coverage) {
        rune_pose_release(pose);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory allocating a %zu-joint pose", count);
    }
    rune_pose_reset(pose);
    return RUNE_OK;
}

void rune_pose_release(rune_pose *pose)
{
    if (!pose || !pose->alloc.free)
        return;
    rune__free(&pose->alloc, pose->t, pose->count, sizeof *pose->t);
    rune__free(&pose->alloc, pose->r, pose->count, sizeof *pose->r);
    rune__free(&pose->alloc, pose->coverage, pose->count, sizeof *pose->coverage);
    pose->t = NULL;
    pose->r = NULL;
    pose->coverage = NULL;
    pose->count = 0;
}

void rune_pose_reset(rune_pose *pose)
{
    for (size_t j = 0; j < pose->count; j++) {
        pose->t[j] = rune_v3(0.0f, 0.0f, 0.0f);
        pose->r[j] = rune_q_identity();
        pose->coverage[j] = 0.0f;
    }
}

void rune_pose_copy(rune_pose *dst, const rune_pose *src)
{
    size_t n = dst->count < src->count ? dst->count : src->count;
    memcpy(dst->t, src->t, n * sizeof *dst->t);
    memcpy(dst->r, src->r, n * sizeof *dst->r);
    memcpy(dst->coverage, src->coverage, n * sizeof *dst->coverage);
}
