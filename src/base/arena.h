/* A block arena for load-time data (scenario documents): many small
 * allocations, one release. Never used on the frame path.
 * (Marked RUNE_API: rune_io and rune_import use them too, so the shared
 * core library exports them; the header is not installed.) */
#ifndef RUNE_SRC_BASE_ARENA_H
#define RUNE_SRC_BASE_ARENA_H

#include "rune/base.h"

typedef struct rune__arena_block rune__arena_block;

typedef struct rune__arena {
    rune_allocator alloc;
    rune__arena_block *head;
} rune__arena;

RUNE_API void rune__arena_init(rune__arena *a, const rune_allocator *alloc);
/** Zeroed, 16-byte aligned; NULL on failure. */
RUNE_API void *rune__arena_alloc(rune__arena *a, size_t size);
/** Array of count elements (overflow-checked). */
RUNE_API void *rune__arena_array(rune__arena *a, size_t count, size_t size);
RUNE_API char *rune__arena_strdup(rune__arena *a, const char *s);
RUNE_API void rune__arena_release(rune__arena *a);

#endif
