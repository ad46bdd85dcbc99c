/* The kernel instruction sets a test runs, and how closely each must agree
 * with the scalar build: the builds without fused multiply-adds perform
 * the same float operations in the same order (bit-identical results); the
 * FMA builds round once where the others round twice, so they may differ
 * by a few units in the last place, scaled by the size of the values. */
#ifndef RUNE_TEST_LEVELS_H
#define RUNE_TEST_LEVELS_H

#include "rune/clip.h"
#include "math/simd_internal.h"

#include <float.h>

/* The levels this build and CPU run, scalar first; returns the count. */
static inline size_t test_levels(rune_simd_level out[RUNE_SIMD_LEVEL_COUNT])
{
    size_t n = 0;
    for (int l = RUNE_SIMD_SCALAR; l < RUNE_SIMD_LEVEL_COUNT; l++)
        if (rune_simd_supported((rune_simd_level)l))
            out[n++] = (rune_simd_level)l;
    return n;
}

static inline bool test_level_fused(rune_simd_level l) { return l == RUNE_SIMD_AVX2_FMA || l == RUNE_SIMD_AVX512; }

/* How far level l may be from the scalar build for values of magnitude up
 * to `scale`: 0 without FMA, else `ulps` units in the last place of
 * `scale`. */
static inline float test_level_tolerance(rune_simd_level l, float ulps, float scale)
{
    return test_level_fused(l) ? ulps * FLT_EPSILON * (scale > 1.0f ? scale : 1.0f) : 0.0f;
}

#endif
