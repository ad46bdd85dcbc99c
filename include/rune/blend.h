/* rune/blend.h - motions: blend spaces (1D linear, 2D gradient band in
 * Cartesian or directional mode) nested into trees whose clips share one
 * normalized phase, described here and added to a library
 * (rune_library_add_motion).
 *
 * A motion is a tree: the root node is a blend space (or a single clip);
 * each sample is a clip leaf or another node. Influence and playback speed
 * multiply along the path to each leaf. Weights (docs/semantics.md,
 * "Blend spaces"): 1D linear between the neighbouring thresholds around
 * the input, the nearest end outside the range, samples sharing a
 * threshold splitting its weight evenly; 2D gradient bands, for each
 * sample i the influence min over j != i of 1 - <p - p_i, p_j - p_i> /
 * |p_j - p_i|^2 (in directional mode measured in relative speed and
 * signed angle, angle weighted by 2), clamped at 0, then normalized; an
 * input on a sample selects it; when every influence is 0 the nearest
 * sample takes all. */
#ifndef RUNE_BLEND_H
#define RUNE_BLEND_H

#include "rune/base.h"
#include "rune/math.h"
#include "rune/clip.h"
#include "rune/rig.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** Leaves whose weight or |speed| is below this take no part in timing. */
#define RUNE_MOTION_EPSILON 1e-4f
/** Most leaves one motion may expand to. */
#define RUNE_MOTION_MAX_LEAVES 256
/** Most samples one blend node may have. */
#define RUNE_MOTION_MAX_SAMPLES 64

typedef enum rune_blend2d_mode {
    RUNE_BLEND2D_CARTESIAN = 0,
    /** bands in relative speed and signed angle (angle weighted by 2); a
     * sample at the origin constrains only the radial speed */
    RUNE_BLEND2D_DIRECTIONAL
} rune_blend2d_mode;

typedef enum rune_motion_kind {
    RUNE_MOTION_CLIP = 0, /**< a single clip (samples[0].clip) */
    RUNE_MOTION_BLEND1D,
    RUNE_MOTION_BLEND2D
} rune_motion_kind;

/** One sample of a blend node: a clip leaf (child < 0) or a child node. */
typedef struct rune_motion_sample_desc {
    int32_t child;      /**< index of a child node (> the node's own), or -1 */
    uint32_t clip;      /**< leaf: index into the player's binding table */
    float threshold;    /**< 1D position */
    rune_vec2 position; /**< 2D position */
    float speed;        /**< playback speed of this sample (multiplies down) */
} rune_motion_sample_desc;

typedef struct rune_motion_node_desc {
    rune_motion_kind kind;
    uint32_t param_x; /**< parameter index of the 1D input / 2D x */
    uint32_t param_y; /**< parameter index of the 2D y */
    rune_blend2d_mode mode;
    const rune_motion_sample_desc *samples;
    size_t sample_count;
} rune_motion_node_desc;

/** A compiled, immutable motion tree (node 0 is the root), owned by the
 * library it was added to. */
typedef struct rune_motion rune_motion;
/** One playing instance of a motion on one rig; opaque. */
typedef struct rune_motion_player rune_motion_player;

RUNE_END_DECLS

#endif
