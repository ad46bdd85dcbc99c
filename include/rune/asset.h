/* rune/asset.h - the binary asset (.rune): a rig and its compiled clips in
 * one file, loaded with one read and no text parsing. The format is in
 * docs/format.md. Part of the core library: no dependency beyond libc. */
#ifndef RUNE_ASSET_H
#define RUNE_ASSET_H

#include <stdio.h>

#include "rune/character.h"
#include "rune/skin.h"

RUNE_BEGIN_DECLS

/** The newest format version, read with every older one: version 2 adds
 * float curves, version 3 meshes (docs/format.md). A file is written as
 * the oldest version that holds what it has: without curves or meshes,
 * version 1, which earlier rune releases read too. */
#define RUNE_ASSET_VERSION 3
/** Largest asset rune reads: 1 GiB. */
#define RUNE_ASSET_MAX_BYTES ((size_t)1 << 30)

/** What an asset holds, for writing. */
typedef struct rune_asset_desc {
    const rune_rig *rig;           /**< NULL: no rig (clips only) */
    const rune_clip *const *clips; /**< ids must differ */
    size_t clip_count;
    int32_t root_joint;            /**< default root-motion joint; -1: none */
    const rune_mesh *meshes;       /**< skinned meshes bound to the rig (rune/skin.h); NULL: none */
    size_t mesh_count;
} rune_asset_desc;

/** Encodes and writes an asset to f (RUNE_E_IO when a write fails). */
RUNE_API rune_status rune_asset_write(const rune_asset_desc *desc, FILE *f, rune_error *err);

typedef struct rune_asset rune_asset;

/** Loads an asset: checks the header (magic, version, byte order, size,
 * checksum), every section's bounds and every value (counts, string
 * references, parent indexes, finite numbers, keys in time order), then
 * builds the rig and compiles the clips (one allocation a clip). A
 * corrupt or truncated input fails with a message naming the section and
 * nothing is returned half-loaded. The clips equal, bit for bit, the same
 * clips compiled from their JSON. */
RUNE_API rune_status rune_asset_load_memory(const void *data, size_t size, const char *name,
                                            const rune_allocator *alloc, rune_asset **out, rune_error *err);
/** rune_asset_load_memory on a file's bytes; messages start with `path`. */
RUNE_API rune_status rune_asset_load_file(const char *path, const rune_allocator *alloc, rune_asset **out,
                                          rune_error *err);
/** Frees the asset and the clips it still holds (NULL is fine); what
 * rune_asset_library took is the library's. */
RUNE_API void rune_asset_destroy(rune_asset *asset);

/** The rig as joint descriptions (parents named unambiguously), for
 * rune_rig_create or rune_library_create; *count gets how many (0: the
 * asset has no rig). Valid while the asset lives. */
RUNE_API const rune_joint_desc *rune_asset_joints(const rune_asset *asset, size_t *count);
/** The rig built from those descriptions (NULL without joints). */
RUNE_API const rune_rig *rune_asset_rig(const rune_asset *asset);
/** The default root-motion joint, or -1. */
RUNE_API int32_t rune_asset_root_joint(const rune_asset *asset);
/** How many clips the asset was loaded with. */
RUNE_API size_t rune_asset_clip_count(const rune_asset *asset);
/** Clip i, owned by the asset; NULL once released. */
RUNE_API const rune_clip *rune_asset_clip(const rune_asset *asset, size_t i);
/** The asset's meshes (read and checked with the asset; arrays owned by
 * it, valid while it lives), *count of them; NULL and 0 without meshes. */
RUNE_API const rune_mesh *rune_asset_meshes(const rune_asset *asset, size_t *count);
/** A library of the asset's rig with every clip the asset still holds
 * (released to the library, in order). */
RUNE_API rune_status rune_asset_library(rune_asset *asset, const rune_allocator *alloc, rune_library **out,
                                        rune_error *err);
/** Whether bytes start like a .rune asset (the magic), for tools that
 * accept several kinds of file. */
RUNE_API bool rune_asset_sniff(const void *data, size_t size);

RUNE_END_DECLS

#endif
