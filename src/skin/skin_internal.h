/* Skinning at a chosen kernel level, for the tests (every level against
 * the scalar one) and the bench (skin_job.c). */
#ifndef RUNE_SRC_SKIN_SKIN_INTERNAL_H
#define RUNE_SRC_SKIN_SKIN_INTERNAL_H

#include "rune/skin.h"

/** rune_skin_run with the kernels of `level` (RUNE_SIMD_AUTO: the best). */
rune_status rune__skin_run_level(const rune_skin_job *job, rune_simd_level level, rune_error *err);

#endif
