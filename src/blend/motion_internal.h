/* Layout of a compiled motion tree, shared by the compiler and player. */
#ifndef RUNE_SRC_BLEND_MOTION_INTERNAL_H
#define RUNE_SRC_BLEND_MOTION_INTERNAL_H

#include "rune/blend.h"

typedef struct motion_node {
    rune_motion_kind kind;
    uint32_t param_x, param_y;
    rune_blend2d_mode mode;
    uint32_t first_sample; /* into the sample arrays */
    uint32_t sample_count;
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
};

#endif
