/* Name index: open addressing with linear probing over 64-bit FNV-1a
 * hashes, at most half full; keys live in one byte pool. One slot a
 * distinct key (repeats only count), so a file that names one joint
 * 20,000 times costs what 20,000 names cost. */
#include "name_index.h"
#include "alloc.h"

#include <string.h>

struct rune__name_slot {
    uint64_t hash;
    size_t key_at;     /* offset of the key in the pool */
    size_t prefix_len; /* the key is prefix ++ name ++ NUL */
    int32_t value;
    uint32_t count; /* 0: an empty slot */
};

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* The prefix's length is hashed too: "ab" ++ "c" is not "a" ++ "bc". */
static uint64_t hash_of(const void *prefix, size_t prefix_len, const char *name, size_t name_len)
{
    uint64_t h = fnv(1469598103934665603ull, (const unsigned char *)&prefix_len, sizeof prefix_len);
    h = fnv(h, prefix, prefix_len);
    return fnv(h, (const unsigned char *)name, name_len);
}

void rune__name_index_init(rune__name_index *x, const rune_allocator *alloc)
{
    memset(x, 0, sizeof *x);
    x->alloc = *rune__alloc_or_default(alloc);
}

void rune__name_index_release(rune__name_index *x)
{
    rune__free(&x->alloc, x->slot, x->cap, sizeof *x->slot);
    rune__free(&x->alloc, x->pool, x->pool_cap, 1);
    rune_allocator alloc = x->alloc; /* init clears x first */
    rune__name_index_init(x, &alloc);
}

static bool same_key(const rune__name_index *x, const rune__name_slot *s, uint64_t h, const void *prefix,
                     size_t prefix_len, const char *name)
{
    const char *key = x->pool + s->key_at;
    return s->hash == h && s->prefix_len == prefix_len && (!prefix_len || memcmp(key, prefix, prefix_len) == 0) &&
           strcmp(key + prefix_len, name) == 0;
}

/* The slot holding the key, or the empty slot where it would go. */
static rune__name_slot *probe(const rune__name_index *x, uint64_t h, const void *prefix, size_t prefix_len,
                              const char *name)
{
    size_t mask = x->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        rune__name_slot *s = &x->slot[i];
        if (s->count == 0 || same_key(x, s, h, prefix, prefix_len, name))
            return s;
    }
}

/* Slots for at least `keys` keys at most half full (from 16), every key
 * placed again. */
static bool grow_slots(rune__name_index *x, size_t keys)
{
    size_t cap = x->cap ? x->cap : 16;
    while (cap / 2 < keys) {
        if (cap > SIZE_MAX / 2)
            return false;
        cap *= 2;
    }
    if (cap == x->cap)
        return true;
    rune__name_slot *slot = rune__calloc(&x->alloc, cap, sizeof *slot);
    if (!slot)
        return false;
    for (size_t i = 0; i < x->cap; i++) {
        const rune__name_slot *s = &x->slot[i];
        if (s->count == 0)
            continue;
        size_t k = (size_t)s->hash & (cap - 1);
        while (slot[k].count)
            k = (k + 1) & (cap - 1);
        slot[k] = *s;
    }
    rune__free(&x->alloc, x->slot, x->cap, sizeof *x->slot);
    x->slot = slot;
    x->cap = cap;
    return true;
}

bool rune__name_index_reserve(rune__name_index *x, size_t keys, size_t bytes)
{
    if (keys > SIZE_MAX - x->used || bytes > SIZE_MAX - x->pool_used)
        return false;
    return grow_slots(x, x->used + keys) &&
           rune__grow(&x->alloc, (void **)&x->pool, &x->pool_cap, x->pool_used + bytes, 1);
}

bool rune__name_index_add(rune__name_index *x, const void *prefix, size_t prefix_len, const char *name,
                          int32_t value)
{
    size_t name_len = strlen(name);
    uint64_t h = hash_of(prefix, prefix_len, name, name_len);
    rune__name_slot *s = x->cap ? probe(x, h, prefix, prefix_len, name) : NULL;
    if (s && s->count) {
        s->count += s->count < UINT32_MAX;
        return true;
    }
    size_t bytes = prefix_len + name_len + 1;
    if (bytes <= name_len || !rune__name_index_reserve(x, 1, bytes))
        return false;
    char *key = x->pool + x->pool_used;
    if (prefix_len) /* prefix may be NULL then */
        memcpy(key, prefix, prefix_len);
    memcpy(key + prefix_len, name, name_len + 1);
    s = probe(x, h, prefix, prefix_len, name);
    *s = (rune__name_slot){h, x->pool_used, prefix_len, value, 1};
    x->pool_used += bytes;
    x->used++;
    return true;
}

int32_t rune__name_index_find(const rune__name_index *x, const void *prefix, size_t prefix_len, const char *name,
                              uint32_t *count)
{
    const rune__name_slot *s =
        x->cap ? probe(x, hash_of(prefix, prefix_len, name, strlen(name)), prefix, prefix_len, name) : NULL;
    if (count)
        *count = s ? s->count : 0;
    return s && s->count ? s->value : -1;
}
