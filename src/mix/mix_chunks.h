/* What the mixers of this stage share: the kernels of one instruction set,
 * views of poses, sampled chunks and stack lanes, and the exact slerp for
 * the few lanes the overlay kernel leaves. */
#ifndef RUNE_SRC_MIX_MIX_CHUNKS_H
#define RUNE_SRC_MIX_MIX_CHUNKS_H

#include "rune/mix.h"
#include "mix_kernel.h"
#include "mix_internal.h"

/* The mixing kernels of one instruction set. */
typedef struct mix_kernels {
    void (*accumulate)(const mix_view *, const mix_view *, float, bool, size_t);
    void (*accumulate2)(const mix_view *, const mix_view *, float, const mix_view *, float, bool, size_t);
    void (*mean)(const mix_view *, const mix_view *, size_t);
    size_t (*overlay)(const mix_view *, const float *, const float *, const mix_view *, float *, size_t);
    size_t (*add)(const mix_view *, const mix_view *, const mix_view *, const float *, float *, size_t);
    size_t (*layer_weights)(float, const float *, const float *, size_t, size_t, float *);
    void (*straight_factors)(const float *, const float *, float *, size_t);
    bool (*sole)(const mix_view *, float, size_t);
    void (*accumulate_fields)(mix_lanes *, const row_fields *, float, float, bool, size_t);
    rune_simd_level level; /* the build's (resolved) */
} mix_kernels;

/* The kernels of `level` (see rune_simd_resolve). */
const mix_kernels *rune__mix_kernels(rune_simd_level level);

/* The lanes of `pose` from joint `first` on (in place: no copy). Inline:
 * the mixers build several views a chunk and contribution. */
static inline mix_view rune__pose_view(const rune_pose *p, size_t first)
{
    return (mix_view){p->tx + first, p->ty + first, p->tz + first, p->qx + first, p->qy + first,
                      p->qz + first, p->qw + first, p->sx + first, p->sy + first, p->sz + first,
                      p->coverage + first, p->scaled};
}

/* The lanes of stack storage, or of a sampled chunk (unscaled: their
 * scale channels read as rune__mix_ones). */
static inline mix_view rune__lanes_view(mix_lanes *l, bool scaled)
{
    mix_view v = {l->x, l->y, l->z, l->qx, l->qy, l->qz, l->qw, l->sx, l->sy, l->sz, l->c, scaled};
    if (!scaled) /* never written: read as 1 */
        v.sx = v.sy = v.sz = (float *)rune__mix_ones;
    return v;
}

static inline mix_view rune__chunk_view(rune_sample_chunk *c)
{
    mix_view v = {c->x, c->y, c->z, c->qx, c->qy, c->qz, c->qw, c->sx, c->sy, c->sz, c->coverage, c->scaled};
    if (!c->scaled) /* the sampler leaves unscaled lanes' scale unwritten */
        v.sx = v.sy = v.sz = (float *)rune__mix_ones;
    return v;
}
/* Lanes [from, to) of a view set to identity, coverage 0, and scale 1 when
 * the view is scaled (an unscaled view's scale is 1 already). */
void rune__mix_identity(const mix_view *v, size_t from, size_t to);

/* The sums of one chunk of joints [first, first + n) over contributions
 * cs[idx[0..count)] (idx NULL: all of cs[0..count)) into `sums`, whose
 * view `acc` receives (its scale channels live once a scaled contribution
 * arrived): finished poses read in place, tracks sampled on
 * the stack or, from a row plan, straight into the sums; false when none
 * of them counts (priority_mixer.c). */
bool rune__mix_accumulate_chunk(const mix_kernels *k, const rune_contribution *cs, const size_t *idx, size_t count,
                                size_t first, size_t n, size_t lanes, mix_lanes *sums, mix_view *acc);
/* An accumulator's view of stack lanes: its scale channels are live once
 * a scaled contribution arrived (the accumulation sets acc->scaled). */
static inline mix_view rune__mix_sums_view(mix_lanes *l)
{
    return (mix_view){l->x, l->y, l->z, l->qx, l->qy, l->qz, l->qw, l->sx, l->sy, l->sz, l->c, false};
}
/* A contribution's joints [first, first + n) as a view with `lanes`
 * lanes: a finished pose in place, or a track sampled -- or a pose with
 * fewer joints copied -- into `scratch`; lanes past what it covers get
 * the identity at coverage 0 (priority_mixer.c). */
void rune__mix_contribution_view(const rune_contribution *c, size_t first, size_t n, size_t lanes,
                                 rune_sample_chunk *scratch, mix_view *v);
/* Sets a pose's scale lanes from `from` on back to 1 when it was scaled:
 * a mean or composition about to run decides again. */
void rune__pose_unscale(rune_pose *p, size_t from);
/* The exact slerp for the lanes rune__mix_overlay flagged wide: their old
 * rotation toward src's by f. */
void rune__mix_overlay_wide(const mix_view *src, const float *f, const mix_view *out, const float *wide, size_t n);

#endif
