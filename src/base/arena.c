/* Block arena: bump allocation inside blocks chained from the newest. */
#include "arena.h"
#include "alloc.h"

#include <string.h>

struct rune__arena_block {
    rune__arena_block *next;
    size_t size, used;
    /* data follows, 16-byte aligned */
};

#define HEADER ((sizeof(rune__arena_block) + 15u) & ~(size_t)15u)
#define BLOCK_MIN 8192u

void rune__arena_init(rune__arena *a, const rune_allocator *alloc)
{
    a->alloc = *rune__alloc_or_default(alloc);
    a->head = NULL;
}

void *rune__arena_alloc(rune__arena *a, size_t size)
{
    size_t need = (size + 15u) & ~(size_t)15u;
    if (need < size)
        return NULL;
    rune__arena_block *b = a->head;
    if (!b || b->size - b->used < need) {
        size_t cap = need > BLOCK_MIN ? need : BLOCK_MIN;
        if (cap > SIZE_MAX - HEADER)
            return NULL;
        b = rune__calloc(&a->alloc, 1, HEADER + cap);
        if (!b)
            return NULL;
        b->size = cap;
        b->next = a->head;
        a->head = b;
    }
    char *p = (char *)b + HEADER + b->used;
    b->used += need;
    memset(p, 0, need);
    return p;
}

void *rune__arena_array(rune__arena *a, size_t count, size_t size)
{
    if (count == 0)
        count = 1;
    if (size && count > SIZE_MAX / size)
        return NULL;
    return rune__arena_alloc(a, count * size);
}

char *rune__arena_strdup(rune__arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = rune__arena_alloc(a, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

void rune__arena_release(rune__arena *a)
{
    while (a->head) {
        rune__arena_block *b = a->head;
        a->head = b->next;
        rune__free(&a->alloc, b, 1, HEADER + b->size);
    }
}
