/* A glTF asset's JSON, buffers and accessors (gltf_file.c), read beside
 * assimp for what its C API drops: sampler modes and tangents
 * (gltf_interpolation.c), morph target weights (gltf_weights.c). */
#ifndef RUNE_SRC_IMPORT_GLTF_FILE_H
#define RUNE_SRC_IMPORT_GLTF_FILE_H

#include <jansson.h>
#include <stdbool.h>

#include "../base/arena.h"

#define MAX_ASSET_BYTES (256u << 20)

/* The asset: its JSON text and, for a .glb, its BIN chunk. */
typedef struct gltf_file {
    unsigned char *bytes; /* the whole file (free) */
    size_t size;
    const char *json;
    size_t json_len;
    const unsigned char *bin;
    size_t bin_len;
    char dir[1024]; /* for relative buffer URIs */
} gltf_file;

/* Accessor `a` as count x width floats in the arena (SCALAR, VEC3, VEC4;
 * floats or normalized integers); NULL when it is something else or its
 * bytes are missing (*nomem when the arena ran out). */
const float *rune__gltf_floats(const gltf_file *g, json_t *root, rune__arena *arena, json_int_t a, size_t *count,
                                int *width, bool *nomem);
/* Whether s ends with the lower-case suffix, in any case. */
bool rune__gltf_has_suffix(const char *s, const char *suffix);
/* A .gltf or .glb file read and its JSON parsed: the root (json_decref,
 * then free g->bytes), or NULL for other files or unreadable JSON. */
json_t *rune__gltf_load(const char *path, gltf_file *g);
/* Finds g->json (and g->bin) in g->bytes: a .glb's chunks, or the whole
 * of a .gltf; false when a .glb's chunks do not fit. */
bool rune__gltf_frame(gltf_file *g);
/* Node ni's name as assimp gives it ("nodes[N]" for an unnamed node),
 * copied into the arena (NULL: out of memory). */
const char *rune__gltf_node_name(json_t *root, json_int_t ni, rune__arena *arena);

#endif
