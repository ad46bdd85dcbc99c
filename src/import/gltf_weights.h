/* glTF morph target weight channels (gltf_weights.c). */
#ifndef RUNE_SRC_IMPORT_GLTF_WEIGHTS_H
#define RUNE_SRC_IMPORT_GLTF_WEIGHTS_H

#include "gltf_interpolation.h"

/* One "weights" channel of an animation: `targets` curves of `keys` keys. */
typedef struct gltf_weights {
    size_t animation;
    const char *node;   /* the node name as assimp gives it */
    bool readable;      /* false: its sampler's data could not be read */
    gltf_mode mode;
    size_t keys, targets;
    const float *times; /* seconds, per key */
    /* per key, `targets` values; CUBICSPLINE: per key in-tangents, values,
     * out-tangents, `targets` each */
    const float *values;
    const char **names; /* per target, "MESH/TARGET" */
} gltf_weights;

/* Every "weights" channel when `path` is a .gltf/.glb (0 otherwise, or
 * when the JSON cannot be read); *nomem when the arena ran out. */
size_t rune__gltf_weight_channels(const char *path, rune__arena *arena, gltf_weights **out, bool *nomem);

#endif
