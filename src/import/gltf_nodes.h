/* glTF node identity behind assimp's node names (gltf_nodes.c). */
#ifndef RUNE_SRC_IMPORT_GLTF_NODES_H
#define RUNE_SRC_IMPORT_GLTF_NODES_H

#include <assimp/scene.h>
#include <stdbool.h>

#include "../base/arena.h"
#include "import_skeleton.h"

/* For a .gltf/.glb file and the scene assimp made of it: the nodes its
 * skins' joints and each animation's transform channels are, as assimp's
 * nodes (*out; left empty for other files, or when assimp's tree does not
 * mirror the file's nodes). False when the arena ran out. */
bool rune__gltf_node_identity(const char *path, const struct aiScene *sc, rune__arena *arena, node_preference *out);

#endif
