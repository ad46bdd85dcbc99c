/* What the mixers of this stage share: the kernels of one instruction set,
 * and moving joints between poses and SoA chunks (mix_lanes). */
#ifndef RUNE_SRC_MIX_MIX_CHUNKS_H
#define RUNE_SRC_MIX_MIX_CHUNKS_H

#include "rune/mix.h"
#include "mix_kernel.h"

/* The mixing kernels of one instruction set. */
typedef struct mix_kernels {
    void (*accumulate)(mix_lanes *, const rune_sample_chunk *, float, size_t);
    void (*mean)(const mix_lanes *, mix_lanes *, size_t);
    size_t (*overlay)(const mix_lanes *, mix_lanes *, float *, size_t);
    size_t (*add)(mix_lanes *, const mix_lanes *, const mix_lanes *, float *, size_t);
} mix_kernels;

/* The kernels of `level` (see rune_simd_resolve). */
mix_kernels rune__mix_kernels(rune_simd_level level);

/* Joints [first, first + n) of `pose` into eight lane arrays (x, y, z,
 * qx, qy, qz, qw, coverage), as far as the pose goes; returns how many
 * lanes that filled. */
size_t rune__mix_load_pose(const rune_pose *pose, size_t first, size_t n, float *const lane[8]);
/* The same into a mix_lanes, lanes past the pose up to `lanes` getting
 * identity with coverage 0. */
void rune__mix_load_lanes(const rune_pose *pose, size_t first, size_t n, size_t lanes, mix_lanes *o);
/* Lanes [from, to) of `o` set to identity with coverage 0. */
void rune__mix_identity_lanes(mix_lanes *o, size_t from, size_t to);
/* Lanes [0, n) back into joints [first, first + n) of `out`. */
void rune__mix_store_lanes(const mix_lanes *o, size_t first, size_t n, rune_pose *out);

/* The exact slerp for the lanes rune__mix_overlay flagged wide: their old
 * rotation toward mean's by mean's coverage. */
void rune__mix_overlay_wide(const mix_lanes *mean, mix_lanes *o, const float *wide, size_t n);

#endif
