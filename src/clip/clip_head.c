/* What every compiled clip starts with, whichever builder made it (the
 * compiler from keys, clip_pack.c from compressed parts): the head with
 * its serial, and markers folded into the cycle and sorted. */
#include "clip_internal.h"

#include <math.h>
#include <stdatomic.h>

/* The one process-wide value in rune: a monotonic compile number, so caches
 * can tell a recompiled clip from a freed one at a reused address. */
static _Atomic uint64_t next_serial = 1;

void rune__clip_head(rune_clip *c, const rune_allocator *alloc, size_t block_size, uint32_t revision, bool loop,
                     int priority, float length, size_t tracks, size_t markers)
{
    c->alloc = *alloc;
    c->block_size = block_size;
    c->revision = revision;
    c->serial = atomic_fetch_add(&next_serial, 1);
    c->loop = loop;
    c->priority = priority;
    c->length = length;
    c->track_count = tracks;
    c->marker_count = markers;
}

static int cmp_marker(const void *a, const void *b)
{
    const rune_marker *x = a, *y = b;
    if (x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    return 0;
}

rune_marker rune__clip_marker(const rune_clip *c, const rune_marker_desc *d, const char *name, const char *value)
{
    rune_marker m = {d->time, d->time, name, value};
    if (c->loop && c->length > 0.0f) {
        m.pos = fmodf(m.time, c->length);
        if (m.pos < 0.0f)
            m.pos += c->length;
        if (m.pos >= c->length)
            m.pos = 0.0f;
    }
    return m;
}

void rune__clip_sort_markers(rune_marker *m, size_t n)
{
    /* insertion sort: stable, and marker lists are short */
    for (size_t i = 1; i < n; i++) {
        rune_marker x = m[i];
        size_t j = i;
        while (j > 0 && cmp_marker(&m[j - 1], &x) > 0) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = x;
    }
}
