/* Default allocator and the checked allocation helpers every stage uses. */
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

static void *malloc_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}

static void malloc_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    free(ptr);
}

static const rune_allocator default_allocator = {malloc_alloc, malloc_free, NULL};

const rune_allocator *rune_default_allocator(void) { return &default_allocator; }

const rune_allocator *rune__alloc_or_default(const rune_allocator *a)
{
    return a ? a : &default_allocator;
}

void *rune__calloc(const rune_allocator *a, size_t count, size_t size)
{
    if (count == 0 || size == 0)
        count = size = 1; /* a real, freeable block keeps ownership uniform */
    if (count > SIZE_MAX / size)
        return NULL;
    void *p = a->alloc(a->user, count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void rune__free(const rune_allocator *a, void *p, size_t count, size_t size)
{
    if (!p)
        return;
    if (count == 0 || size == 0)
        count = size = 1;
    a->free(a->user, p, count * size);
}

bool rune__grow(const rune_allocator *a, void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap && *array)
        return true;
    size_t n = *cap ? *cap : 4;
    while (n < need) {
        if (n > SIZE_MAX / 2 / size)
            return false;
        n *= 2;
    }
    void *p = rune__calloc(a, n, size);
    if (!p)
        return false;
    if (*array) {
        memcpy(p, *array, *cap * size);
        rune__free(a, *array, *cap, size);
    }
    *array = p;
    *cap = n;
    return true;
}

char *rune__strdup(const rune_allocator *a, const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s) + 1;
    char *p = rune__calloc(a, n, 1);
    if (p)
        memcpy(p, s, n);
    return p;
}

void rune__strfree(const rune_allocator *a, char *s)
{
    if (s)
        rune__free(a, s, strlen(s) + 1, 1);
}
