/* Pose storage: one 64-byte aligned block holding every channel as an
 * array of `stride` floats (structure of arrays), padded to whole kernel
 * widths, then the float curves' values and coverages. */
#include "rune/rig.h"
#include "../base/alloc.h"
#include "../base/prefetch.h"
#include "../base/require.h"
#include "rig_internal.h"

#include <stdint.h>
#include <string.h>

enum { CHANNELS = 11, ALIGN = 64 }; /* ALIGN: rune__line_align's boundary */

rune_status rune_pose_init(rune_pose *pose, size_t count, const rune_allocator *alloc, rune_error *err)
{
    RUNE_REQUIRE(err, pose, "pose");
    return rune_pose_init_curves(pose, count, 0, alloc, err);
}

rune_status rune_pose_init_rig(rune_pose *pose, const rune_rig *rig, const rune_allocator *alloc, rune_error *err)
{
    RUNE_REQUIRE(err, pose, "pose");
    RUNE_REQUIRE(err, rig, "rig");
    return rune_pose_init_curves(pose, rune_rig_joint_count(rig), rune_rig_curve_count(rig), alloc, err);
}

rune_status rune_pose_init_curves(rune_pose *pose, size_t count, size_t curves, const rune_allocator *alloc,
                                  rune_error *err)
{
    RUNE_REQUIRE(err, pose, "pose");
    alloc = rune__alloc_or_default(alloc);
    memset(pose, 0, sizeof *pose);
    pose->alloc = *alloc;
    size_t stride = rune_pose_stride(count);
    if (stride > (SIZE_MAX - ALIGN) / (CHANNELS * sizeof(float)) || curves > SIZE_MAX / 16)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory allocating a %zu-joint pose", count);
    pose->block_size = (CHANNELS * stride + 2 * curves) * sizeof(float) + ALIGN;
    pose->block = rune__calloc(alloc, pose->block_size, 1);
    if (!pose->block)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory allocating a %zu-joint pose", count);
    float *base = rune__line_align(pose->block);
    float **channel[CHANNELS] = {&pose->tx, &pose->ty, &pose->tz, &pose->qx, &pose->qy, &pose->qz,
                                 &pose->qw, &pose->sx, &pose->sy, &pose->sz, &pose->coverage};
    for (size_t c = 0; c < CHANNELS; c++)
        *channel[c] = base + c * stride;
    pose->curve_count = curves;
    pose->curve = base + CHANNELS * stride;
    pose->curve_cov = pose->curve + curves;
    pose->count = count;
    pose->stride = stride;
    pose->scaled = true; /* the fresh block's scale lanes are 0: the reset writes them */
    rune_pose_reset(pose);
    return RUNE_OK;
}

void rune_pose_release(rune_pose *pose)
{
    if (!pose || !pose->block)
        return;
    rune__free(&pose->alloc, pose->block, pose->block_size, 1);
    memset(pose, 0, sizeof *pose);
}

void rune_pose_prefetch(const rune_pose *pose, bool write)
{
    if (!pose->block)
        return;
    /* tx..qw are contiguous, then the scale channels, then coverage and
     * the curves: an unscaled pose's frame never touches its scale lanes */
    size_t lane_bytes = pose->stride * sizeof(float);
    rune__prefetch_range(pose->tx, 7 * lane_bytes, write);
    if (pose->scaled)
        rune__prefetch_range(pose->sx, 3 * lane_bytes, write);
    rune__prefetch_range(pose->coverage, lane_bytes + 2 * pose->curve_count * sizeof(float), write);
}

void rune_pose_reset(rune_pose *pose)
{
    size_t n = pose->stride;
    memset(pose->tx, 0, 3 * n * sizeof(float));          /* tx, ty, tz */
    memset(pose->qx, 0, 3 * n * sizeof(float));          /* qx, qy, qz */
    memset(pose->coverage, 0, n * sizeof(float));
    for (size_t j = 0; j < n; j++)
        pose->qw[j] = 1.0f;
    /* an unscaled pose's scale lanes are 1 already (rune_pose.scaled):
     * left untouched, as its prefetch leaves them */
    if (pose->scaled)
        for (size_t j = 0; j < n; j++)
            pose->sx[j] = pose->sy[j] = pose->sz[j] = 1.0f;
    pose->scaled = false;
    if (pose->curve_count)
        memset(pose->curve, 0, 2 * pose->curve_count * sizeof(float)); /* values, coverages */
}

void rune_pose_copy(rune_pose *dst, const rune_pose *src)
{
    size_t n = dst->stride < src->stride ? dst->stride : src->stride;
    const float *from[CHANNELS] = {src->tx, src->ty, src->tz, src->qx, src->qy, src->qz,
                                   src->qw, src->sx, src->sy, src->sz, src->coverage};
    float *to[CHANNELS] = {dst->tx, dst->ty, dst->tz, dst->qx, dst->qy, dst->qz,
                           dst->qw, dst->sx, dst->sy, dst->sz, dst->coverage};
    for (size_t c = 0; c < CHANNELS; c++)
        memcpy(to[c], from[c], n * sizeof(float));
    dst->scaled = src->scaled;
    size_t k = dst->curve_count < src->curve_count ? dst->curve_count : src->curve_count;
    if (k) {
        memcpy(dst->curve, src->curve, k * sizeof(float));
        memcpy(dst->curve_cov, src->curve_cov, k * sizeof(float));
    }
}
