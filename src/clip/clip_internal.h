/* Layout of a compiled clip, shared by the compiler and the sampler. All
 * arrays live in one block so a clip is freed (or fails) as a unit. */
#ifndef RUNE_SRC_CLIP_INTERNAL_H
#define RUNE_SRC_CLIP_INTERNAL_H

#include "rune/clip.h"

typedef struct clip_track {
    const char *parent;
    const char *part;
    uint32_t first_key; /* index into the key arrays */
    uint32_t key_count;
} clip_track;

struct rune_clip {
    rune_allocator alloc;
    size_t block_size;
    const char *id;
    uint32_t revision;
    uint64_t serial;
    bool loop;
    int priority;
    float length;
    size_t track_count;
    clip_track *tracks;
    size_t key_count;
    /* keys, structure of arrays, grouped by track then time */
    float *key_time;
    rune_vec3 *key_t;
    rune_quat *key_r;
    float *key_weight;
    float *key_mask;
    uint8_t *key_style;
    uint8_t *key_dir;
    size_t marker_count;
    rune_marker *markers;
};

#endif
