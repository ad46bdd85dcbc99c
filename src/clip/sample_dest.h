/* What the clip stage lends the rig stage to sample straight into a pose:
 * the batch sampler's destination as channel pointers. */
#ifndef RUNE_SRC_CLIP_SAMPLE_DEST_H
#define RUNE_SRC_CLIP_SAMPLE_DEST_H

#include "rune/clip.h"
#include "sample_lane.h"
#include "clip_access_internal.h"

/* Where the batch sampler writes: channel pointers at the chunk's first
 * lane -- a rune_sample_chunk's arrays, or a pose's own channels (no copy
 * between them). Lanes up to the kernel's padded count are written. */
typedef struct sample_dest {
    float *x, *y, *z, *qx, *qy, *qz, *qw, *sx, *sy, *sz, *weight, *mask, *coverage;
} sample_dest;

static inline sample_dest rune__chunk_dest(rune_sample_chunk *c)
{
    return (sample_dest){c->x,  c->y,  c->z,  c->qx,     c->qy,   c->qz,      c->qw,
                         c->sx, c->sy, c->sz, c->weight, c->mask, c->coverage};
}

/* rune_sample_cache_sample into `d`; returns whether it wrote scale (the
 * clip has scale keys; otherwise sx, sy, sz are left alone and mean 1).
 * Nothing is written for a chunk past the lanes or not on a chunk
 * boundary. */
bool rune__sample_cache_sample_to(rune_sample_cache *c, float t, size_t first, size_t count, const sample_dest *d);

/* The row plan's fields of chunk `first` at time t (sample_lane.h's
 * row_fields), the cursor moved to t as a sample would, for a caller that
 * evaluates them itself; false where a sample needs more than the fields
 * (no row plan, scale keys, an eased key) or `first` is not a chunk of the
 * lanes. Evaluated by kernels of the cache's level they give
 * rune__sample_cache_sample_to's result (its bits without FMA). */
bool rune__sample_cache_fields(rune_sample_cache *c, float t, size_t first, row_fields *out);

/* Lane `lane`'s translation and rotation at t, read from the row plan's
 * row the cursor is on, where that row holds t (the last sample's window)
 * and the lane plays `track` of `clip`: rune_clip_sample_transform_near's
 * result, the same bits (the same fields, u and operations), with *key its
 * key. False, nothing written, otherwise (no row plan, t outside the
 * window, an eased key on the row, another clip or track): the caller
 * samples the clip. The cursor does not move. Root travel asks it for the
 * end of a frame's interval, which the frame's sample just read, instead
 * of the clip's segment, a line no sample of the crowd touches. */
bool rune__sample_cache_lane_transform(const rune_sample_cache *c, size_t lane, const rune_clip *clip, int32_t track,
                                       float t, uint32_t *key, rune_vec3 *translation, rune_quat *rotation);

/* What the plays of a clip through one lane map share: for a packed clip
 * the clip's constants per lane and its animated channels in chunk order
 * (packed_sampler.h), so that each play's sampler holds a few hundred
 * bytes; for a short time-major exact clip its segments re-laid by row in
 * lane order (sample_cache.c), which the kernel reads without a gather. A
 * binding makes one. Other clips: 0 bytes and no plan. */
typedef struct sample_plan sample_plan;
size_t rune__sample_plan_bytes(const rune_clip *clip, const int32_t *lane_track, size_t lanes);
/* Lays the plan out in `memory` (16-byte aligned, rune__sample_plan_bytes). */
const sample_plan *rune__sample_plan_init(const rune_clip *clip, const int32_t *lane_track, size_t lanes, void *memory);
/* rune_sample_cache_create_lanes on a shared plan (which must outlive the
 * cache; NULL: a packed clip's cache holds a plan of its own, an exact
 * clip's gathers its lanes' segments as it samples). */
rune_status rune__sample_cache_create_planned(const rune_clip *clip, const int32_t *lane_track, size_t lanes,
                                              const sample_plan *plan, rune_simd_level level,
                                              const rune_allocator *alloc, rune_sample_cache **out, rune_error *err);

#endif
