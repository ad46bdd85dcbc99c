/* The binding cache: bindings kept by (clip serial, rig layout signature,
 * retarget mapping id), so a recompiled clip, a changed skeleton or another
 * mapping never reuses a stale binding. Load-time code. */
#include "rune/rig.h"
#include "../base/alloc.h"
#include "../base/require.h"
#include "rig_internal.h"

typedef struct binding_entry {
    uint64_t clip_serial;
    uint64_t layout;
    uint32_t retarget;
    rune_binding *binding;
} binding_entry;

struct rune_binding_cache {
    rune_allocator alloc;
    binding_entry *entries;
    size_t count, cap;
    size_t builds;
};

rune_status rune_binding_cache_create(const rune_allocator *alloc, rune_binding_cache **out, rune_error *err)
{
    RUNE_REQUIRE(err, out, "out");
    alloc = rune__alloc_or_default(alloc);
    rune_binding_cache *c = rune__calloc(alloc, 1, sizeof *c);
    if (!c)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating binding cache");
    c->alloc = *alloc;
    *out = c;
    return RUNE_OK;
}

void rune_binding_cache_destroy(rune_binding_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->count; i++)
        rune_binding_destroy(c->entries[i].binding);
    rune_allocator a = c->alloc;
    rune__free(&a, c->entries, c->cap, sizeof *c->entries);
    rune__free(&a, c, 1, sizeof *c);
}

rune_status rune_binding_cache_acquire(rune_binding_cache *c, const rune_rig *rig, const rune_clip *clip,
                                       const rune_retarget *retarget, const rune_binding **out, rune_error *err)
{
    RUNE_REQUIRE(err, c, "cache");
    RUNE_REQUIRE(err, rig, "rig");
    RUNE_REQUIRE(err, clip, "clip");
    RUNE_REQUIRE(err, out, "out");
    uint32_t retarget_id = rune_retarget_id(retarget);
    uint64_t serial = rune_clip_serial(clip), layout = rune_rig_layout_signature(rig);
    for (size_t i = 0; i < c->count; i++) {
        binding_entry *e = &c->entries[i];
        if (e->clip_serial == serial && e->layout == layout && e->retarget == retarget_id) {
            *out = e->binding;
            return RUNE_OK;
        }
    }
    if (!rune__grow(&c->alloc, (void **)&c->entries, &c->cap, c->count + 1, sizeof *c->entries))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory caching a binding");
    rune_binding *b;
    rune_status st = rune_binding_create(rig, clip, retarget, &c->alloc, &b, err);
    if (st)
        return st;
    binding_entry *e = &c->entries[c->count++];
    e->clip_serial = serial;
    e->layout = layout;
    e->retarget = retarget_id;
    e->binding = b;
    c->builds++;
    *out = b;
    return RUNE_OK;
}

size_t rune_binding_cache_builds(const rune_binding_cache *c) { return c->builds; }
