/* What rune checks of a glTF before assimp reads it (gltf_precheck.c):
 * extensions assimp would misread, and a node hierarchy that assimp's
 * recursion could not walk. */
#ifndef RUNE_SRC_IMPORT_GLTF_PRECHECK_H
#define RUNE_SRC_IMPORT_GLTF_PRECHECK_H

#include <stdbool.h>
#include <stddef.h>

/* The deepest node hierarchy imported: assimp builds the tree a stack
 * frame a level (a chain of 100,000 nodes, 4 MB of glTF, overflowed the
 * 8 MB main stack); real rigs and scenes are tens to hundreds deep. */
#define RUNE_GLTF_MAX_DEPTH 10000

typedef struct gltf_precheck {
    /* the first meshopt extension (compressed buffer views assimp 5.2
     * neither decodes nor refuses) in extensionsRequired (required) or
     * else extensionsUsed; NULL: none */
    const char *extension;
    bool required;
    /* why the node hierarchy cannot be imported ("" when it can): a child
     * index out of range, a node with two parents, a cycle, or deeper
     * than RUNE_GLTF_MAX_DEPTH */
    char problem[192];
    bool nomem; /* the problem is that memory ran out checking */
} gltf_precheck;

/* The checks of the .gltf or .glb at `path` (nothing found for other
 * files, or one rune cannot read: assimp reports those). */
void rune__gltf_precheck(const char *path, gltf_precheck *out);
/* The same of one in memory. */
void rune__gltf_precheck_memory(const void *data, size_t size, gltf_precheck *out);

#endif
