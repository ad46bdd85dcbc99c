/* Kernel levels as the vectorized stages pick them (simd.c). */
#ifndef RUNE_SRC_MATH_SIMD_INTERNAL_H
#define RUNE_SRC_MATH_SIMD_INTERNAL_H

#include "rune/math.h"

/** The level a request gets: AUTO becomes the best, a level the CPU lacks
 * falls back to the best it has. */
rune_simd_level rune_simd_resolve(rune_simd_level level);
/** Whether this build and CPU can run a level. */
bool rune_simd_supported(rune_simd_level level);

#endif
