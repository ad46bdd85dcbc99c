/* ozz-animation measured in the same run as rune (docs/performance.md,
 * "Anchors"): bench/ozz_anchor.cc, built only when CMake is given an ozz
 * source checkout (-DRUNE_OZZ_DIR=...; the checkout is never copied into
 * rune), runs ozz's own jobs on the same inputs as rune's rows and checks
 * that both compute the same result. Without it (bench/ozz_anchor_none.c)
 * every figure is < 0 and the report says "not measured here". */
#ifndef RUNE_BENCH_OZZ_ANCHOR_H
#define RUNE_BENCH_OZZ_ANCHOR_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "ozz-animation 0.16 (SIMD: AVX2 + FMA)" when built in; NULL otherwise. */
const char *bench_ozz_name(void);

/** A figure of ozz for a row: ns per call (< 0: not measured), and how
 * many of the checked inputs gave the same result as rune. */
typedef struct bench_anchor {
    double ns;
    size_t agree, checked;
} bench_anchor;

/** IKTwoBoneJob on the same chains (matrices built from each job: the mid
 * joint rotated by its mid_rotation, whose local z is ozz's mid axis);
 * agreement: the chain's end lands where rune's does (1e-4 of the chain). */
bench_anchor bench_ozz_two_bone(const bench_plan *p, const rune_ik_two_bone_job *jobs, size_t n);
/** IKAimJob on the same joints; agreement: the same new rotation (1e-4). */
bench_anchor bench_ozz_aim(const bench_plan *p, const rune_ik_aim_job *jobs, size_t n);

#ifdef __cplusplus
}
#endif

#endif
