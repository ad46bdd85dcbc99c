/* Layout of a compiled motion tree, shared by the compiler and player. */
#ifndef RUNE_SRC_BLEND_MOTION_INTERNAL_H
#define RUNE_SRC_BLEND_MOTION_INTERNAL_H

#include "rune/blend.h"

/* A 2D blend space's samples in polar form, and the parts of the band of
 * each ordered pair that do not depend on the input (blend_weights.c),
 * worked out once per motion instead of at every update. */
typedef struct rune__polar {
    float m, a;  /* magnitude, heading (0 at the origin) */
    bool origin;
} rune__polar;

enum { BAND_NONE, BAND_FIXED, BAND_IDLE_I, BAND_IDLE_J };
typedef struct rune__band {
    float ijx, ijy, len2; /* the band's axis and its squared length (BAND_FIXED) */
    float mean;           /* directional: the pair's mean magnitude */
    uint8_t kind;         /* BAND_IDLE_*: sample i or j is at the origin, the angle is the input's */
    bool opposite;        /* directional: angles taken unsigned */
} rune__band;

/* polar[n] and bands[n * n] of a blend space's sample positions. */
void rune__blend2d_prepare(const rune_vec2 *pos, size_t n, rune_blend2d_mode mode, rune__polar *polar,
                           rune__band *bands);
/* rune_blend2d_weights from what rune__blend2d_prepare worked out (the
 * same weights, bit for bit), or, with polar and bands NULL, working them
 * out as it goes (rune_blend2d_weights itself). */
void rune__blend2d_weights_prepared(const rune_vec2 *pos, size_t n, rune_vec2 p, rune_blend2d_mode mode,
                                    const rune__polar *polar, const rune__band *bands, float *w);

typedef struct motion_node {
    rune_motion_kind kind;
    uint32_t param_x, param_y;
    rune_blend2d_mode mode;
    uint32_t first_sample; /* into the sample arrays */
    uint32_t sample_count;
    uint32_t first_band;   /* 2D: into bands, sample_count^2 of them */
} motion_node;

struct rune_motion {
    rune_allocator alloc;
    size_t node_count, sample_count, leaf_count, param_count;
    motion_node *nodes;
    /* samples, structure of arrays */
    int32_t *child;
    uint32_t *clip;
    float *threshold;
    rune_vec2 *position;
    float *speed;
    rune__polar *polar; /* per sample (those of 2D nodes filled) */
    rune__band *bands;
    size_t band_count;
};

#endif
