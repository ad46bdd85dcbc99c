/* The mesh sections of a .rune asset (asset_meshes.c): measured and
 * written by the writer, read and checked by the reader into rune_mesh
 * views that live in the asset's arena. */
#ifndef RUNE_SRC_ASSET_MESHES_H
#define RUNE_SRC_ASSET_MESHES_H

#include "rune/skin.h"
#include "asset_format.h"
#include "../base/arena.h"

/* mesh section (version 3): u32 name, u32 vertex count n, u32 triangle
 * count t, u32 influences k, u32 bind count, u32 morph count, u32 flags
 * (MESH_NORMALS, MESH_TANGENTS), 4 bytes zero; per bind i32 joint,
 * f32 inverse bind[16] (column-major); per morph u32 name, u32 flags
 * (MESH_NORMALS); then f32 position[3n], (normals) f32 normal[3n],
 * (tangents) f32 tangent[4n], u32 index[3t], u16 joint[kn] with zeros to
 * a multiple of 4, f32 weight[kn], and per morph f32 delta[3n],
 * (its normals) f32 normal delta[3n]. */
#define MESH_HEAD_BYTES 32
#define MESH_BIND_BYTES 68
#define MESH_MORPH_BYTES 8
enum { MESH_NORMALS = 1, MESH_TANGENTS = 2 };

/* Bytes of a mesh's section (0 when it does not fit one: counts past
 * 2^32, or more than RUNE_ASSET_MAX_BYTES). */
size_t rune__asset_mesh_bytes(const rune_mesh *m);
/* Writes it at p (NULL: only takes the string references). */
void rune__asset_mesh_write(const rune_mesh *m, unsigned char *p, asset_string_ref ref, void *encoder);
/* Reads and checks a section of `size` bytes at p for a rig of `joints`
 * joints: RUNE_E_PARSE with the reason in `why`, RUNE_E_NOMEM, or
 * RUNE_OK and *out, whose arrays and names live in `arena`. */
rune_status rune__asset_mesh_read(const asset_strings *strings, const unsigned char *p, size_t size, size_t joints,
                                  rune__arena *arena, rune_mesh *out, char *why, size_t why_size);

#endif
