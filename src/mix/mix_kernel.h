/* The vectorized steps of per-joint mixing over one chunk of joints in
 * structure-of-arrays form: priority ranks, weighted means, graph layers.
 * The chunk is a view (channel pointers), so kernels read and write poses
 * in place; sampled chunks and accumulators on the stack are viewed the
 * same way. One source, compiled once per instruction set (see
 * math/kernel_isa.h); priority_mixer.c and layer_mixer.c pick a build at
 * run time. */
#ifndef RUNE_SRC_MIX_MIX_KERNEL_H
#define RUNE_SRC_MIX_MIX_KERNEL_H

#include "rune/clip.h"
#include "../clip/sample_lane.h" /* row_fields */
#include "../math/kernel_isa.h"
#include "../clip/clip_access_internal.h"

/* Channels of a chunk: translation, rotation, scale and coverage. As a
 * rank's accumulator the channels hold sums (x = sum s x, q = sum s q,
 * s = sum s scale, c = sum s). */
typedef struct mix_view {
    float *x, *y, *z;
    float *qx, *qy, *qz, *qw;
    float *sx, *sy, *sz;
    float *c;
    /* the scale channels are live; when false they hold 1 (an unscaled
     * pose, a sampled chunk, or rune__mix_ones for stack lanes never
     * written) and kernels do not write them */
    bool scaled;
} mix_view;

/* Storage on the stack for one chunk. */
typedef struct mix_lanes {
    float x[RUNE_SAMPLE_CHUNK], y[RUNE_SAMPLE_CHUNK], z[RUNE_SAMPLE_CHUNK];
    float qx[RUNE_SAMPLE_CHUNK], qy[RUNE_SAMPLE_CHUNK], qz[RUNE_SAMPLE_CHUNK], qw[RUNE_SAMPLE_CHUNK];
    float sx[RUNE_SAMPLE_CHUNK], sy[RUNE_SAMPLE_CHUNK], sz[RUNE_SAMPLE_CHUNK];
    float c[RUNE_SAMPLE_CHUNK];
} mix_lanes;

/* RUNE_SAMPLE_CHUNK ones: the scale channels of stack lanes that are not
 * scaled. Read only. */
extern const float rune__mix_ones[RUNE_SAMPLE_CHUNK];

/* Shares at or below this count as 0 (they cannot move a float pose, and
 * 1 / sum of denormal shares overflows). */
#define RUNE_MIN_SHARE 1e-12f

/* acc += s * sample for lanes [0, n), s = clamp(weight * coverage, 0, 1)
 * (NaN or at most RUNE_MIN_SHARE: 0); each rotation is added with the sign
 * that puts it in the running sum's hemisphere. `weight` must be finite.
 * With `first` the sums start from this sample (acc is not read). Scale
 * sums are formed only once a scaled sample arrives (until then every
 * scale was 1, so they equal the sums of shares); the caller keeps
 * acc->scaled as `first ? sample->scaled : acc->scaled || sample->scaled`. */
KERNEL_DECLARE(void, rune__mix_accumulate, (const mix_view *acc, const mix_view *sample, float weight, bool first,
                                             size_t n));

/* rune__mix_accumulate into stack sums of lanes [0, n) sampled at clip
 * time t from a row plan's chunk (src/clip/sample_lane.h's row_fields,
 * full or lean), without writing the sample out. The
 * sample is unscaled, and the sums must be too unless `first`. The same
 * bits as rune__sample_fields of the same build, then accumulate, without
 * FMA; with it within the levels' 2 ulps (a compiler may contract the
 * fused loop's products differently: clang does). */
KERNEL_DECLARE(void, rune__mix_accumulate_fields, (mix_lanes *acc, const row_fields *rf, float t, float weight,
                                                    bool first, size_t n));

/* rune__mix_accumulate of sample a then sample b in one pass over the
 * sums: the same operations in the same order (the same bits without FMA;
 * with it, within the levels' 2 ulps), for unscaled samples and sums, as
 * finished poses are. */
KERNEL_DECLARE(void, rune__mix_accumulate2, (const mix_view *acc, const mix_view *a, float wa, const mix_view *b,
                                              float wb, bool first, size_t n));

/* Each lane's mean from the sums in `acc`: t / sum, the normalized
 * rotation sum (identity when about 0 or not finite), scale / sum (only
 * when acc->scaled), coverage clamp(sum, 0, 1); lanes with no share get
 * identity and coverage 0. */
KERNEL_DECLARE(void, rune__mix_mean, (const mix_view *acc, const mix_view *mean, size_t n));

/* Moves each lane of `out` toward `src` by f[i] (translation and scale
 * lerp, rotation slerp; nothing at 0, a copy at 1) and raises its coverage
 * to c + g[i] (1 - c). Scale channels are worked only when either view is
 * scaled (the result then is). The slerp uses the series of slerp_series.h; lanes
 * whose two rotations are more than 45 degrees apart keep their old
 * rotation and get wide[i] = 1 (else 0), for the caller to slerp exactly.
 * Returns how many lanes are wide. */
KERNEL_DECLARE(size_t, rune__mix_overlay, (const mix_view *src, const float *f, const float *g, const mix_view *out,
                                            float *wide, size_t n));

/* A composition's sole contribution, `o` itself (unscaled), composed in
 * place when every lane's share clamp(weight x coverage) is 0 or 1:
 * share 1 keeps the transform with its rotation normalized and coverage 1,
 * share 0 becomes identity with coverage 0 -- what accumulate, mean and
 * overlay onto identity give such lanes, bit for bit. Returns false, and
 * writes nothing, when some lane's share is in between. */
KERNEL_DECLARE(bool, rune__mix_sole, (const mix_view *o, float weight, size_t n));

/* A graph layer's lane weights: w[i] = clamp(lw x mask[i] x cov[i], 0, 1)
 * (mask NULL: 1) for lanes [0, n), 0 for the padding up to `lanes`. w may
 * be cov (each lane reads only its own). Returns how many of lanes
 * [0, n) weigh 0. */
KERNEL_DECLARE(size_t, rune__mix_layer_weights, (float lw, const float *mask, const float *cov, size_t n, size_t lanes,
                                                  float *w));

/* The factors of a straight override (layer_mixer.c): the coverage
 * becomes c' = c + w (1 - c) and the transform moves by
 * f[i] = clamp(w / c', 0, 1) (0 where c' is 0). */
KERNEL_DECLARE(void, rune__mix_straight_factors, (const float *c, const float *w, float *f, size_t n));

/* Adds an additive layer onto `out`, lane i with weight w[i] (in [0, 1]):
 * t += w (t_layer - t_ref); r = normalize(r * slerp(identity, delta, w))
 * with delta = normalize(r_ref^-1 r_layer); s *= 1 + w (s_layer / s_ref - 1)
 * (a zero reference scale counts as 1; only when layer or ref is scaled);
 * coverage c + w (1 - c); lanes of
 * weight 0 stay as they were. Lanes whose delta turns more than 90 degrees
 * keep their old rotation and are flagged in `wide` as for
 * rune__mix_overlay, whatever their weight. */
KERNEL_DECLARE(size_t, rune__mix_add, (const mix_view *out, const mix_view *layer, const mix_view *ref, const float *w,
                                        float *wide, size_t n));

#endif
