/* The asset's encoder into memory and clip hand-over, for the tools and
 * tests beside rune_asset_write and rune_asset_library. */
#ifndef RUNE_SRC_ASSET_INTERNAL_H
#define RUNE_SRC_ASSET_INTERNAL_H

#include "rune/asset.h"

/** Encodes an asset into one block from `alloc` (*data, *size; free it
 * with rune_asset_free_encoded). Fails (RUNE_E_INVALID) on repeated clip
 * ids or a root joint outside the rig. */
rune_status rune_asset_encode(const rune_asset_desc *desc, const rune_allocator *alloc, void **data,
                                       size_t *size, rune_error *err);
void rune_asset_free_encoded(const rune_allocator *alloc, void *data, size_t size);
/** Hands clip i to the caller (who destroys it, or gives it to
 * rune_library_adopt_clip); the asset forgets it. */
rune_clip *rune_asset_release_clip(rune_asset *asset, size_t i);

#endif
