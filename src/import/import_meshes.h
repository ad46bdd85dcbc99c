/* The meshes of an imported scene (import_meshes.c). */
#ifndef RUNE_SRC_IMPORT_MESHES_H
#define RUNE_SRC_IMPORT_MESHES_H

#include "rune/import.h"
#include "import_skeleton.h"
#include "../base/arena.h"

/* What the mesh pass reads of an import in progress. */
typedef struct import_mesh_source {
    const struct aiScene *scene;
    const skeleton_node *nodes; /* every node, parents first (rune__skeleton_select) */
    size_t node_count;
    const int32_t *joint_of_node; /* per node: its joint, or -1 */
    const size_t *node_of_joint;  /* per joint: its node */
    const rune_allocator *alloc;
    void (*warn)(void *user, const char *fmt, ...);
    void *user;
} import_mesh_source;

/* Every triangle mesh skinned to the rig or under one of its joints, into
 * imp->meshes (room for every mesh of the scene, from `arena`) and
 * imp->mesh_count; RUNE_E_NOMEM when an allocation fails. */
rune_status rune__import_meshes(const import_mesh_source *src, rune__arena *arena, rune_import *imp);

#endif
