/* Software prefetch of a byte range, for loops over many characters whose
 * state is far apart in memory (rune_batch): a hint, never a fault, so
 * it may name memory it will not read. */
#ifndef RUNE_SRC_BASE_PREFETCH_H
#define RUNE_SRC_BASE_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Asks for the cache lines of [p, p + bytes); `write`: the lines will be
 * written (fetched for ownership). NULL p asks for nothing. Every line
 * the range touches, counted from p's line: stepping 64 bytes from p
 * itself would leave out the last line of a range that starts inside a
 * line and ends past a multiple of 64 from it. */
static inline void rune__prefetch_range(const void *p, size_t bytes, bool write)
{
    if (!p || !bytes)
        return;
    uintptr_t first = (uintptr_t)p & ~(uintptr_t)63, last = ((uintptr_t)p + bytes - 1) & ~(uintptr_t)63;
    for (uintptr_t line = first; line <= last; line += 64) {
        if (write)
            __builtin_prefetch((const void *)line, 1);
        else
            __builtin_prefetch((const void *)line, 0);
    }
}

#endif
