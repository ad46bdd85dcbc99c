/* Software prefetch of a byte range, for loops over many characters whose
 * state is far apart in memory (rune_batch): a hint, never a fault, so
 * it may name memory it will not read. */
#ifndef RUNE_SRC_BASE_PREFETCH_H
#define RUNE_SRC_BASE_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>

/* Asks for the cache lines of [p, p + bytes); `write`: the lines will be
 * written (fetched for ownership). NULL p asks for nothing. */
static inline void rune__prefetch_range(const void *p, size_t bytes, bool write)
{
    for (size_t b = 0; p && b < bytes; b += 64) {
        if (write)
            __builtin_prefetch((const char *)p + b, 1);
        else
            __builtin_prefetch((const char *)p + b, 0);
    }
}

#endif
