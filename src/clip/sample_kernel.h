/* The batch sampler's kernel. One source, compiled once per instruction set
 * (scalar, SSE2, AVX2; see math/kernel_isa.h); sample_cache.c picks a build
 * at run time. */
#ifndef RUNE_SRC_CLIP_SAMPLE_KERNEL_H
#define RUNE_SRC_CLIP_SAMPLE_KERNEL_H

#include "clip_internal.h"
#include "sample_lane.h"
#include "../math/kernel_isa.h"

/* Samples lanes [0, n) (n a multiple of KERNEL_LANES) at clip time t:
 * lane i evaluates segment key[i] (and its cover; `covers` NULL: every
 * key's weight is 1 and mask 0, the null key's weight 0) at
 * u = clamp((t - time) / (end - time), 0, 1): translation, weight and mask
 * linearly, rotation by slerp (see clip_segment), and coverage. Eased keys
 * are the caller's to fix up. */
KERNEL_DECLARE(void, rune__sample_kernel,
               (const clip_segment *segments, const clip_segment_cover *covers, const uint32_t *key, float t,
                const sample_dest *out, size_t n));

/* A lane's segment g and cover cv as its fields (sample_lane.h), field k
 * at to[k * stride]: those before F_TIME, then the segment's time and end
 * unless `lean`, then the cover unless cv is NULL. The one writer of the
 * layout: the scalar gather and the row plans use it. */
static inline void rune__segment_fields(const clip_segment *g, const clip_segment_cover *cv, bool lean, float *to,
                                        size_t stride)
{
    const float f[F_W] = {g->x,   g->y,   g->z,   g->dx,  g->dy,  g->dz,  g->q.x,   g->q.y,
                          g->q.z, g->q.w, g->v.x, g->v.y, g->v.z, g->v.w, g->time, g->end};
    for (size_t k = 0; k < (lean ? LEAN_FIELDS : F_W); k++)
        to[k * stride] = f[k];
    if (!cv)
        return;
    to[F_W * stride] = cv->w, to[F_DW * stride] = cv->dw, to[F_M * stride] = cv->m, to[F_DM * stride] = cv->dm;
}

/* rune__sample_kernel's evaluation of lanes [0, n) whose segments and
 * covers are already arrays, a row plan's chunk (sample_lane.h's
 * row_fields; a full row's plain covers written out as 1 0 0 0, 0 for the
 * null key's weight). The same operations as rune__sample_kernel, so the
 * same bits, lean rows included. */
KERNEL_DECLARE(void, rune__sample_fields, (const row_fields *rf, float t, const sample_dest *out, size_t n));

/* The cursors' common move, branch-free over lanes [0, n): a lane whose
 * segment ended by t steps one key on, `stride` positions (a finite end
 * means the track has a next key); bad[i] is set for a lane whose segment
 * (after that step) does not hold t -- a seek, a step back, a jump of
 * more than one key -- which the caller locates. *lo / *hi receive the
 * window [max start, min end) of the good lanes. Returns how many are bad. */
KERNEL_DECLARE(size_t, rune__sample_advance,
               (const clip_segment *segments, uint32_t stride, uint32_t *key, size_t n, float t, float *lo, float *hi,
                uint8_t *bad));

/* A time-major clip's keys for lanes [first, first + n) of a play on
 * segment row `off / stride`: a lane with a track tr (lane_track[lane], or
 * the lane itself when lane_track is NULL; tr < tracks) is on segment
 * tr + off, every other lane, and those from `lanes` on, on the null key.
 * The play keeps its row, not a key a lane: the lane map is the binding's,
 * which every play shares. */
KERNEL_DECLARE(void, rune__sample_row_keys,
               (const int32_t *lane_track, size_t first, size_t n, size_t lanes, uint32_t tracks, uint32_t off,
                uint32_t null_key, uint32_t *key));

#endif
