/* Choosing an imported scene's skeleton (import_skeleton.c). */
#ifndef RUNE_SRC_IMPORT_SKELETON_H
#define RUNE_SRC_IMPORT_SKELETON_H

#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/** Every node of the scene in parent-first order (`cap` entries at least:
 * the node count), with SKELETON_KEEP on the skeleton's: the seeds, the
 * nodes joining them below their common ancestor (*root, the rig's root)
 * and plain nodes under kept ones. Without seeds every node is kept and
 * *root is 0. Returns the node count. */
size_t rune__skeleton_select(const struct aiScene *sc, const node_preference *known, skeleton_node *nodes, size_t cap,
                             int32_t *root);

/** The node a bone or an animation channel names: of the nodes so named,
 * one of `known` (count entries) when one is, else the first (parents
 * first) that is only a transform (no mesh, camera or light), else the
 * first; NULL when none is. assimp links bones and channels to nodes by
 * name only, and files repeat names (a mesh named as the bone that moves
 * it, two characters' "Hips"). */
const struct aiNode *rune__skeleton_node_named(const struct aiScene *sc, const struct aiString *name,
                                               const struct aiNode *const *known, size_t count);
/** The node channel c of animation a moves (rune__skeleton_node_named
 * with the animation's known nodes). */
const struct aiNode *rune__skeleton_channel_node(const struct aiScene *sc, const node_preference *known, size_t a,
                                                 size_t c);

/** The product of the transforms above node `root` (identity for the
 * scene's root node): what folds into the rig's root. */
struct aiMatrix4x4 rune__skeleton_above(const skeleton_node *nodes, int32_t root);

#endif
