/* Counting and fault-injecting allocator for tests. */
#include "counting_alloc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Batches call a character's allocator from their worker threads (a
 * scratch growing during a frame): the counts are kept under one lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *ca_alloc(void *user, size_t size)
{
    counting_alloc *c = user;
    pthread_mutex_lock(&lock);
    c->attempts++;
    if (c->fail_at && c->attempts == c->fail_at) {
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    void *p = malloc(size);
    if (p) {
        c->allocs++;
        c->live_bytes += size;
        for (size_t i = 0; i < 1024; i++)
            if (!c->live[i].p) {
                c->live[i].p = p;
                c->live[i].size = size;
                c->live[i].index = c->attempts;
                break;
            }
    }
    pthread_mutex_unlock(&lock);
    return p;
}

static void ca_free(void *user, void *p, size_t size)
{
    counting_alloc *c = user;
    if (!p)
        return;
    pthread_mutex_lock(&lock);
    c->frees++;
    c->live_bytes -= size;
    for (size_t i = 0; i < 1024; i++)
        if (c->live[i].p == p) {
            if (c->live[i].size != size)
                fprintf(stderr, "counting_alloc: block %zu of %zu bytes freed as %zu\n", c->live[i].index,
                        c->live[i].size, size);
            c->live[i].p = NULL;
            break;
        }
    pthread_mutex_unlock(&lock);
    free(p);
}

void counting_alloc_init(counting_alloc *c)
{
    c->iface.alloc = ca_alloc;
    c->iface.free = ca_free;
    c->iface.user = c;
    c->allocs = c->frees = c->live_bytes = c->fail_at = c->attempts = 0;
    memset(c->live, 0, sizeof c->live);
}

void counting_alloc_report(const counting_alloc *c)
{
    for (size_t i = 0; i < 1024; i++)
        if (c->live[i].p)
            fprintf(stderr, "counting_alloc: block %zu of %zu bytes not freed\n", c->live[i].index, c->live[i].size);
}
