/* The clip cache: one compiled clip per sequence id, rebuilt only when the
 * sequence's revision changes. */
#include "clip_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <string.h>

typedef struct cache_entry {
    rune_clip *clip;
} cache_entry;

struct rune_clip_cache {
    rune_allocator alloc;
    cache_entry *entries;
    size_t count, cap;
    size_t builds;
};

rune_status rune_clip_cache_create(const rune_allocator *alloc, rune_clip_cache **out, rune_error *err)
{
    RUNE_REQUIRE(err, out, "out");
    alloc = rune__alloc_or_default(alloc);
    rune_clip_cache *c = rune__calloc(alloc, 1, sizeof *c);
    if (!c)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating clip cache");
    c->alloc = *alloc;
    *out = c;
    return RUNE_OK;
}

void rune_clip_cache_destroy(rune_clip_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->count; i++)
        rune_clip_destroy(c->entries[i].clip);
    rune_allocator a = c->alloc;
    rune__free(&a, c->entries, c->cap, sizeof *c->entries);
    rune__free(&a, c, 1, sizeof *c);
}

static cache_entry *find(const rune_clip_cache *c, const char *id)
{
    for (size_t i = 0; id && i < c->count; i++)
        if (strcmp(c->entries[i].clip->id, id) == 0)
            return &c->entries[i];
    return NULL;
}

const rune_clip *rune_clip_cache_find(const rune_clip_cache *c, const char *id)
{
    cache_entry *e = find(c, id);
    return e ? e->clip : NULL;
}

rune_status rune_clip_cache_acquire(rune_clip_cache *c, const rune_sequence_desc *desc,
                                    const rune_clip **out, rune_error *err)
{
    RUNE_REQUIRE(err, c, "cache");
    RUNE_REQUIRE(err, desc, "desc");
    RUNE_REQUIRE(err, out, "out");
    cache_entry *e = find(c, desc->id);
    if (e && e->clip->revision == desc->revision) {
        *out = e->clip;
        return RUNE_OK;
    }
    if (!e && !rune__grow(&c->alloc, (void **)&c->entries, &c->cap, c->count + 1, sizeof *c->entries))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory caching clip \"%s\"", desc->id ? desc->id : "");
    rune_clip *clip;
    rune_status st = rune_clip_compile(desc, &c->alloc, &clip, err);
    if (st)
        return st;
    c->builds++;
    if (e) {
        rune_clip_destroy(e->clip);
        e->clip = clip;
    } else {
        c->entries[c->count++].clip = clip;
    }
    *out = clip;
    return RUNE_OK;
}

size_t rune_clip_cache_builds(const rune_clip_cache *c) { return c->builds; }
