/* Interpolation modes of glTF animation channels (see the .c file). */
#ifndef RUNE_SRC_IMPORT_GLTF_INTERPOLATION_H
#define RUNE_SRC_IMPORT_GLTF_INTERPOLATION_H

#include <jansson.h>
#include <stdbool.h>

#include "../base/arena.h"

typedef enum gltf_mode { GLTF_LINEAR = 0, GLTF_STEP, GLTF_CUBIC } gltf_mode;
typedef enum gltf_path { GLTF_TRANSLATION = 0, GLTF_ROTATION, GLTF_SCALE, GLTF_OTHER } gltf_path;

typedef struct gltf_channel_mode {
    size_t animation;
    const char *node; /* the node name as assimp gives it */
    gltf_path path;
    gltf_mode mode;
    /* CUBICSPLINE channels whose float data could be read: key times
     * (seconds) and, per key, in-tangent, value, out-tangent of `width`
     * floats each (3 translation and scale, 4 rotation x y z w) */
    const float *times;
    const float *values;
    size_t keys;
    int width;
} gltf_channel_mode;

/** Reads every channel's mode when `path` is a .gltf/.glb file; returns how
 * many (0 for other formats or unreadable JSON: everything is then linear,
 * as assimp reports it). *nomem is set when the arena ran out: the table
 * is then incomplete, and the import must fail rather than silently lose
 * STEP and CUBICSPLINE modes. */
size_t rune__gltf_channel_modes(const char *path, rune__arena *arena, gltf_channel_mode **out, bool *nomem);
/** A sampler's "interpolation" (LINEAR when absent or unknown). */
gltf_mode rune__gltf_sampler_mode(json_t *sampler);
/** The entry of one channel, or NULL (then linear). */
const gltf_channel_mode *rune__gltf_channel(const gltf_channel_mode *m, size_t n, size_t animation, const char *node,
                                            gltf_path path);

#endif
