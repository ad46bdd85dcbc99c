/* Internal allocation helpers over a rune_allocator: size-checked arrays and
 * a grow routine used only during warm-up (never on the frame path).
 * (Marked RUNE_API: rune_io and rune_import use them too, so the shared
 * core library exports them; the header is not installed.) */
#ifndef RUNE_SRC_BASE_ALLOC_H
#define RUNE_SRC_BASE_ALLOC_H

#include "rune/base.h"

#include <stdint.h>

/** Resolves NULL to the default allocator. */
RUNE_API const rune_allocator *rune__alloc_or_default(const rune_allocator *a);

/** Allocates count*size bytes, zero-filled; NULL on overflow or failure. */
RUNE_API void *rune__calloc(const rune_allocator *a, size_t count, size_t size);

/** Frees a block from rune__calloc (NULL is fine). */
RUNE_API void rune__free(const rune_allocator *a, void *p, size_t count, size_t size);

/** Grows *array (holding *cap elements of `size` bytes) to at least `need`
 * elements, doubling; new elements are zeroed. Returns false on failure and
 * leaves the array untouched. */
bool rune__grow(const rune_allocator *a, void **array, size_t *cap, size_t need, size_t size);

/** The first 64-byte boundary (a cache line) at or after p: a block
 * allocated 63 bytes larger than its arrays starts them there (an
 * allocator need not align to more than a pointer). */
static inline void *rune__line_align(void *p)
{
    return (void *)(((uintptr_t)p + 63u) & ~(uintptr_t)63u);
}

/** Copies a NUL-terminated string (NULL stays NULL... returns "" copy). */
char *rune__strdup(const rune_allocator *a, const char *s);
void rune__strfree(const rune_allocator *a, char *s);

#endif
