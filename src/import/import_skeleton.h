/* Choosing an imported scene's skeleton (import_skeleton.c). */
#ifndef RUNE_SRC_IMPORT_SKELETON_H
#define RUNE_SRC_IMPORT_SKELETON_H

#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/name_index.h"

enum {
    SKELETON_SEED = 1,  /* a skin's bone or an animated node */
    SKELETON_PLAIN = 2, /* no mesh, camera or light in its subtree */
    SKELETON_KEEP = 4   /* a joint of the rig */
};

typedef struct skeleton_node {
    const struct aiNode *node;
    int32_t parent; /* index in the array, -1 for the scene root */
    unsigned flags;
} skeleton_node;

/** Nodes known by identity, preferred over others of the same name: the
 * skins' joints, and per animation the nodes its channels move (glTF:
 * gltf_nodes.c). All empty for formats that give names only. */
typedef struct node_preference {
    const struct aiNode **joints;
    size_t joint_count;
    const struct aiNode *const **animation; /* per animation */
    const size_t *animation_count;
    size_t animations;
} node_preference;

/** Every node of the scene in parent-first order (`nodes`: room for the
 * node count; *count), with SKELETON_KEEP on the skeleton's: the seeds,
 * the nodes joining them below their common ancestor (*root, the rig's
 * root) and plain nodes under kept ones. Without seeds every node is kept
 * and *root is 0. The node each animation channel moves goes into
 * channel_node[a][c] (an index into `nodes`, -1 for none): of the nodes
 * its name names, one the animation's known nodes hold, else the first
 * (parents first) that is only a transform (no mesh, camera or light),
 * else the first; skin bones are resolved the same way with the skins'
 * known joints. assimp links bones and channels to nodes by name only,
 * and files repeat names (a mesh named as the bone that moves it, two
 * characters' "Hips"). RUNE_E_NOMEM when `alloc` fails. */
rune_status rune__skeleton_select(const struct aiScene *sc, const node_preference *known, skeleton_node *nodes,
                                  int32_t *const *channel_node, const rune_allocator *alloc, size_t *count,
                                  int32_t *root);

/** The product of the transforms above node `root` (identity for the
 * scene's root node): what folds into the rig's root. */
struct aiMatrix4x4 rune__skeleton_above(const skeleton_node *nodes, int32_t root);

#endif
