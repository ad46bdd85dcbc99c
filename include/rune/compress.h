/* rune/compress.h - offline clip compression (rune_compress, like
 * ozz-animation's offline library or ACL's encoder): a tool or an asset
 * pipeline links it; a game needs only rune_core, which loads, samples
 * and stores compressed clips (rune_clip_compressed, rune/asset.h). */
#ifndef RUNE_COMPRESS_H
#define RUNE_COMPRESS_H

#include "rune/base.h"
#include "rune/clip.h"
#include "rune/rig.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** Settings of rune_clip_compress; 0 takes the default. */
typedef struct rune_compress_settings {
    float precision; /**< largest error allowed, in rig units; default rune_rig_height / 18000 (0.01 cm on 1.8 m) */
    float shell;     /**< virtual vertices' distance from each joint; default rune_rig_height / 60 (3 cm on 1.8 m) */
    float curve_precision; /**< float curves: largest absolute error; default RUNE_CURVE_PRECISION */
} rune_compress_settings;

/** The default bound on a compressed float curve's error: 1e-4 of a morph
 * weight's full range of 1. */
#define RUNE_CURVE_PRECISION 1e-4f

/** Compresses a clip for a rig (docs/format.md, "Compressed clips"): every
 * track is sampled on the clip's key grid and quantized with as few bits
 * as keep, for every joint of the rig and every sample, the virtual
 * vertices at `shell` from the joint within `precision` of where the
 * exact clip puts them in model space (tracks the rig lacks: in their own
 * space). The new clip samples from the compressed data directly. Float
 * curves lose the keys a line through their neighbours gives within
 * curve_precision / 2 and snap to a grid of that step (docs/format.md,
 * "Compressed curves"): every curve within curve_precision of the exact
 * clip at and between keys (measured: rune_clip_compression), or exact.
 * Fails (RUNE_E_INVALID, the message says why; keep the clip as it is)
 * when the clip has eased keys, keys off one uniform grid, or weights
 * that change along a track, or when the rig has no height and the
 * settings give no precision or shell. */
RUNE_API rune_status rune_clip_compress(const rune_clip *clip, const rune_rig *rig,
                                        const rune_compress_settings *settings, const rune_allocator *alloc,
                                        rune_clip **out, rune_error *err);

RUNE_END_DECLS

#endif
