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
    /* live blocks, for reporting what leaked (first 1024 tracked) */
    struct { void *p; size_t size, index; } live[1024];
} counting_alloc;

void counting_alloc_init(counting_alloc *c);
/** Prints the blocks still allocated (allocation index and size). */
void counting_alloc_report(const counting_alloc *c);

#endif
