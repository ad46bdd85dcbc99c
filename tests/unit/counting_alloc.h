/* Test allocator: counts allocations and live bytes, and can fail the k-th
 * allocation (fault injection). */
#ifndef RUNE_TEST_COUNTING_ALLOC_H
#define RUNE_TEST_COUNTING_ALLOC_H

#include "rune/base.h"

typedef struct counting_alloc {
    rune_allocator iface;
    size_t allocs;      /* successful allocations */
    size_t frees;
    size_t live_bytes;
    size_t fail_at;     /* 1-based index of the allocation to fail; 0 never */
    size_t attempts;
} counting_alloc;

void counting_alloc_init(counting_alloc *c);

#endif
