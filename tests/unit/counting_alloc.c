/* Counting and fault-injecting allocator for tests. */
#include "counting_alloc.h"

#include <stdlib.h>

static void *ca_alloc(void *user, size_t size)
{
    counting_alloc *c = user;
    c->attempts++;
    if (c->fail_at && c->attempts == c->fail_at)
        return NULL;
    void *p = malloc(size);
    if (p) {
        c->allocs++;
        c->live_bytes += size;
    }
    return p;
}

static void ca_free(void *user, void *p, size_t size)
{
    counting_alloc *c = user;
    if (!p)
        return;
    c->frees++;
    c->live_bytes -= size;
    free(p);
}

void counting_alloc_init(counting_alloc *c)
{
    c->iface.alloc = ca_alloc;
    c->iface.free = ca_free;
    c->iface.user = c;
    c->allocs = c->frees = c->live_bytes = c->fail_at = c->attempts = 0;
}
