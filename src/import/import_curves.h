/* Morph target weights as float curves (import_curves.c). */
#ifndef RUNE_SRC_IMPORT_CURVES_H
#define RUNE_SRC_IMPORT_CURVES_H

#include "rune/clip.h"
#include "gltf_weights.h"

#include <assimp/scene.h>

/* Targets past this in one morph channel are taken for garbage. */
#define IMPORT_MAX_TARGETS 4096

/* Where an import's curves come from: a glTF asset's weight channels
 * (`gltf`: then assimp's morph channels are not read), else the scene's
 * morph channels; warnings go to warn(user, ...). */
typedef struct import_curve_source {
    const struct aiScene *scene;
    bool gltf;
    const gltf_weights *weights;
    size_t weight_count;
    void (*warn)(void *user, const char *fmt, ...);
    void *user;
} import_curve_source;

/* How many curve keys animation ai holds. */
size_t rune__import_curve_keys(const import_curve_source *s, const struct aiAnimation *a, size_t ai);
/* Its curve keys as keyframes, one a key, into kf (room for
 * rune__import_curve_keys entries); *count of them. `clip` names the
 * animation in warnings. */
rune_status rune__import_curves(const import_curve_source *s, const struct aiAnimation *a, size_t ai, double tps,
                                const char *clip, rune__arena *arena, rune_keyframe_desc *kf, size_t *count);

#endif
