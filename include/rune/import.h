/* rune/import.h - importing real assets (glTF 2.0, FBX, Collada, BVH, and
 * whatever else assimp reads) into rune's descriptions: a rig from the node
 * hierarchy and one keyframe sequence per animation. */
#ifndef RUNE_IMPORT_H
#define RUNE_IMPORT_H

#include <stdio.h>

#include "rune/base.h"
#include "rune/rig.h"
#include "rune/clip.h"
#include "rune/skin.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** Most keys (position and rotation, all channels) one animation may have;
 * larger ones are refused rather than taking gigabytes (a 65-byte BVH can
 * claim millions of frames). CMU 01_01 has about 210,000. */
#define RUNE_IMPORT_MAX_KEYS 4000000

/** An imported asset. Owned by the import; read-only. */
typedef struct rune_import {
    const char *source;
    rune_joint_desc *joints; /**< parent-first, unique part names */
    size_t joint_count;
    rune_sequence_desc *clips;
    size_t clip_count;
    rune_mesh *meshes;     /**< skinned meshes, and rigid ones under a joint (rune/skin.h) */
    size_t mesh_count;
    const char **warnings; /**< what could not be represented or was left out */
    size_t warning_count;
    int32_t root_joint;    /**< default root-motion joint, the hips: of the
                                joints an animation moves, the one nearest
                                the rig's root whose subtree holds more
                                than half of the joints (else the first
                                moving joint with children); -1: none */
} rune_import;

/** Imports an asset file through assimp.
 * - The rig is the skeleton: the nodes that are bones of a skin or are
 *   animated, the nodes joining them below their common ancestor, and the
 *   plain transform nodes under them (end sites); meshes, cameras, lights
 *   and the nodes above are left out (a warning names them), the
 *   transforms above folded into the rig's root frame. A scene with no
 *   skin and no animation keeps every node. Part names are node names,
 *   '/' replaced by '_' and repeats suffixed "_2", "_3", ...; the rest
 *   frame is the node's local transform with its scale.
 * - Every animation becomes a clip, its id the animation's name (a BVH
 *   file's motion, and an animation without a name, take the file's name
 *   without its extension: "01_01" for 01_01.bvh; repeats get "_2", ...)
 *   (seconds = ticks / ticks-per-second,
 *   25 ticks/s when the file gives none). A joint's position and rotation
 *   keys are merged on the union of their times, each channel interpolated
 *   linearly (slerp for rotation) at the other's times — exact for linear
 *   sources — and stored as the pose that composes with the frame into
 *   the local transform (rune_rig_frame_scale), scale keys included.
 * - glTF STEP channels become the constant easing (or, sharing a joint with
 *   interpolated channels, a 0.1 ms ramp); CUBICSPLINE channels are
 *   resampled from the asset's own values and tangents (16 points per key
 *   interval), since assimp drops the tangents.
 * - Bones and channels name their nodes; a name resolves to the first node
 *   so named that is only a transform (no mesh, camera or light), else the
 *   first, so a mesh sharing a bone's name stays out of the rig.
 * - Morph target weights become float curves named MESH/TARGET; vertex
 *   animation cannot be represented and is reported in `warnings`, never
 *   silently dropped.
 * - Triangle meshes skinned to the rig's bones, and rigid ones under one of
 *   its joints, become rune_meshes in the rig's model space at bind time:
 *   positions, normals, tangents, triangles, the eight largest influences
 *   a vertex (normalized; a vertex no bone weights follows its node's
 *   joint), each bone's inverse bind matrix, and morph targets as deltas
 *   named as their weight curves.
 * - A glTF whose node hierarchy is deeper than 10,000 levels, has a cycle
 *   or a node with two parents is refused (RUNE_E_INVALID) before assimp
 *   reads it. Every import runs on a thread of its own with a 512 MB
 *   reserved stack while the caller waits (assimp recurses a level a
 *   frame), so `alloc` may be called from that thread, never from two at
 *   once. */
RUNE_API rune_status rune_import_file(const char *path, const rune_allocator *alloc, rune_import **out, rune_error *err);
/** The same from bytes in memory; `hint` is the format's file extension
 * ("bvh", "gltf", "fbx", ...) and `name` stands in for the file name. */
RUNE_API rune_status rune_import_memory(const void *data, size_t size, const char *hint, const char *name,
                               const rune_allocator *alloc, rune_import **out, rune_error *err);
/** Frees an import and everything it holds (NULL is fine). */
RUNE_API void rune_import_destroy(rune_import *imp);

/** Sets the loop flag of the clip whose id is `id`, or of every clip when
 * `id` is NULL (imports loop a clip only when every channel's post-state
 * is "repeat", which few exporters write). RUNE_E_NOT_FOUND, naming the
 * id, when no clip has it. */
RUNE_API rune_status rune_import_set_loop(rune_import *imp, const char *id, bool loop, rune_error *err);

/** Writes the import as a scenario document (rig, clips, and a timeline
 * that plays the first clip once at 30 frames per second). */
RUNE_API rune_status rune_import_write_scenario(const rune_import *imp, FILE *f, rune_error *err);

RUNE_END_DECLS

#endif
