/* ACL measured in the same run as rune's compressed clips
 * (docs/performance.md, "Method"): bench/acl_anchor.cc, built only when
 * CMake is given an ACL source checkout (-DRUNE_ACL_DIR=..., and its
 * Realtime Math headers: -DRUNE_RTM_DIR, default the checkout's
 * external/rtm; neither is copied into rune), compresses the same clip
 * with ACL's defaults at the same precision and shell, samples it as
 * rune's rows do, and checks the decoded motion against the exact clip.
 * Without it (bench/acl_anchor_none.c) every figure is < 0 and the
 * report says "not measured here". */
#ifndef RUNE_BENCH_ACL_ANCHOR_H
#define RUNE_BENCH_ACL_ANCHOR_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "ACL (AVX2 + FMA)" when built in; NULL otherwise. */
const char *bench_acl_name(void);

/** ACL's figures for one clip (< 0: not measured). */
typedef struct bench_acl_clip {
    double bytes;                /**< the compressed tracks' size */
    double forward_ns, random_ns; /**< decompressing every track, ns per rig joint: forward at 60 Hz, random times */
    size_t agree, checked;       /**< joints whose model position is within 2 x precision of the exact clip's, over
                                      64 times */
} bench_acl_clip;

/** ACL on `clip` bound to `rig` (each rig joint a track: its rest frame
 * times the clip's pose, sampled on the grid of `grid`, the same clip
 * compressed by rune), with `precision` and `shell` in rig units. */
bench_acl_clip bench_acl_measure(const bench_plan *p, const rune_rig *rig, const rune_clip *clip,
                                 const rune_clip_compression *grid, float precision, float shell);

#ifdef __cplusplus
}
#endif

#endif
