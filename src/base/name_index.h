/* A hash index from names to the first value added under each and how
 * many were added: lookups by name in constant time at load time, so a
 * rig of 60,000 joints or a keyframe of 100,000 curves loads in linear
 * time. Never used on the frame path.
 *
 * A key is a byte prefix (possibly empty, possibly binary: a parent's
 * index) followed by a NUL-terminated name; the index keeps its own copy.
 * (Marked RUNE_API: rune_import uses it too, so the shared core library
 * exports it; the header is not installed.) */
#ifndef RUNE_SRC_BASE_NAME_INDEX_H
#define RUNE_SRC_BASE_NAME_INDEX_H

#include "rune/base.h"

#include <stdint.h>

typedef struct rune__name_slot rune__name_slot;

typedef struct rune__name_index {
    rune_allocator alloc;
    rune__name_slot *slot; /* cap slots, a power of two (0: none yet) */
    size_t cap, used;
    char *pool; /* the keys, each NUL-terminated */
    size_t pool_cap, pool_used;
} rune__name_index;

/** An empty index over `alloc` (NULL: malloc); nothing is allocated yet. */
RUNE_API void rune__name_index_init(rune__name_index *x, const rune_allocator *alloc);
/** Frees what the index holds; it is empty (and usable) again after. */
RUNE_API void rune__name_index_release(rune__name_index *x);
/** Makes room for `keys` more keys of `bytes` bytes in all (prefixes and
 * names with their NULs): adds within it cannot fail. false: out of
 * memory (the index is unchanged). */
bool rune__name_index_reserve(rune__name_index *x, size_t keys, size_t bytes);
/** Adds `value` under prefix[0..prefix_len) ++ name. A key already there
 * keeps its first value and counts one more. false: out of memory (the
 * index is unchanged). */
RUNE_API bool rune__name_index_add(rune__name_index *x, const void *prefix, size_t prefix_len, const char *name,
                                   int32_t value);
/** The first value added under the key, or -1; *count (may be NULL) is how
 * many values were added under it (0 when absent). */
RUNE_API int32_t rune__name_index_find(const rune__name_index *x, const void *prefix, size_t prefix_len,
                                       const char *name, uint32_t *count);

#endif
