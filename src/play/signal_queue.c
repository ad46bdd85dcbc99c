/* The per-rig queue of animation signals: filled while a frame advances,
 * drained after pose composition. Fixed capacity, so the frame path never
 * allocates. */
#include "rune/play.h"
#include "../base/alloc.h"
#include "../base/require.h"
#include "play_internal.h"

#include <string.h>

rune_status rune_signal_queue_init(rune_signal_queue *q, size_t capacity, const rune_allocator *alloc,
                                   rune_error *err)
{
    RUNE_REQUIRE(err, q, "q");
    alloc = rune__alloc_or_default(alloc);
    memset(q, 0, sizeof *q);
    q->alloc = *alloc;
    q->events = rune__calloc(alloc, capacity, sizeof *q->events);
    if (!q->events)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory for a %zu-signal queue", capacity);
    q->capacity = capacity;
    return RUNE_OK;
}

void rune_signal_queue_release(rune_signal_queue *q)
{
    if (q && q->events) {
        rune__free(&q->alloc, q->events, q->capacity, sizeof *q->events);
        q->events = NULL;
        q->capacity = q->count = 0;
    }
}

bool rune_signal_queue_push(rune_signal_queue *q, const rune_event *e)
{
    if (q->count >= q->capacity) {
        q->dropped++;
        return false;
    }
    q->events[q->count++] = *e;
    return true;
}

void rune_signal_queue_clear(rune_signal_queue *q) { q->count = 0; }
