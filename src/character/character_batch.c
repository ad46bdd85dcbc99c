/* Batch updates of many characters across a small fixed thread pool.
 * The caller publishes a frame (pointers, count, dt) and bumps an atomic
 * generation; the caller and the workers then claim blocks of characters
 * from an atomic cursor until none are left, count themselves done, and go
 * back to waiting. Claiming blocks, not fixed shares, keeps every core busy
 * to the end when cores run at different speeds (shared or throttled
 * machines). Waiting spins briefly, then yields, then naps, so idle workers
 * cost little between frames; the frame itself never blocks on a lock. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "character_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

typedef struct worker {
    struct rune_batch *batch;
    pthread_t thread;
    bool started;
} worker;

struct rune_batch {
    rune_allocator alloc;
    size_t workers;   /* threads running */
    size_t pool_size; /* threads asked for (the pool's length) */
    worker *pool;
    _Atomic uint64_t generation;
    _Atomic size_t pending;
    _Atomic size_t next; /* the first animator not yet claimed this frame */
    _Atomic bool quit;
    _Atomic size_t failed; /* updates that could not grow their scratch */
    /* the published frame: written before `generation` is bumped */
    rune_character *const *chars;
    size_t count;
    float dt;
    uint64_t run; /* this run's id, unique among all batches' runs */
};

/* Run ids: a character remembers the last run that claimed it. */
static _Atomic uint64_t last_run;

/* Characters claimed at a time: enough to make the atomic add rare, few
 * enough that the last blocks even out the cores. */
enum { BLOCK = 16 };

static void run_blocks(struct rune_batch *b)
{
    size_t failed = 0;
    size_t lo = atomic_fetch_add(&b->next, BLOCK);
    while (lo < b->count) {
        size_t hi = lo + BLOCK < b->count ? lo + BLOCK : b->count;
        /* the block after this one is claimed now, so that the prefetches
         * run on into it instead of into another thread's */
        size_t next = atomic_fetch_add(&b->next, BLOCK);
        for (size_t i = lo; i < hi; i++) {
            /* a crowd's characters are far apart in memory: start loading
             * the next ones while this one computes, a level of pointers
             * deeper for each character nearer */
            for (int s = 0; s < CHARACTER_PREFETCH_STAGES; s++) {
                size_t ahead = i + (size_t)(CHARACTER_PREFETCH_STAGES - s);
                ahead = ahead < hi ? ahead : next + (ahead - hi);
                if (ahead < b->count && b->chars[ahead])
                    rune__character_prefetch(b->chars[ahead], s);
            }
            /* a NULL entry, or a character this run already claimed (one
             * listed twice), is not updated and counts as failed: two
             * threads never update one character at once */
            rune_character *ch = b->chars[i];
            if (!ch || atomic_exchange_explicit(&ch->batch_run, b->run, memory_order_relaxed) == b->run) {
                failed++;
                continue;
            }
            failed += rune_character_update(ch, b->dt, NULL) != RUNE_OK;
        }
        lo = next;
    }
    if (failed)
        atomic_fetch_add(&b->failed, failed);
}

static void pause_after(unsigned spins)
{
    if (spins < 64)
        return;
    if (spins < 2048) {
        sched_yield();
        return;
    }
    struct timespec ts = {0, 50000}; /* 50 us nap once idle for a while */
    nanosleep(&ts, NULL);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    struct rune_batch *b = w->batch;
    uint64_t seen = 0;
    for (;;) {
        uint64_t g;
        unsigned spins = 0;
        while ((g = atomic_load(&b->generation)) == seen && !atomic_load(&b->quit))
            pause_after(spins++);
        if (atomic_load(&b->quit))
            return NULL;
        seen = g;
        run_blocks(b);
        atomic_fetch_sub(&b->pending, 1);
    }
}

rune_status rune_batch_create(size_t workers, const rune_allocator *alloc, rune_batch **out, rune_error *err)
{
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    struct rune_batch *b = rune__calloc(alloc, 1, sizeof *b);
    if (!b)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a batch");
    b->alloc = *alloc;
    b->workers = workers;
    atomic_init(&b->generation, 0);
    atomic_init(&b->pending, 0);
    atomic_init(&b->next, 0);
    atomic_init(&b->quit, false);
    atomic_init(&b->failed, 0);
    b->pool_size = workers;
    b->pool = rune__calloc(alloc, workers, sizeof *b->pool);
    if (!b->pool) {
        rune__free(alloc, b, 1, sizeof *b);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a batch");
    }
    for (size_t i = 0; i < workers; i++) {
        b->pool[i] = (worker){b, 0, false};
        if (pthread_create(&b->pool[i].thread, NULL, worker_main, &b->pool[i]) != 0) {
            b->workers = i; /* only those started take part, and are joined */
            rune_batch_destroy(b);
            return rune_fail(err, RUNE_E_NOMEM, "cannot start batch worker %zu", i + 1);
        }
        b->pool[i].started = true;
    }
    *out = b;
    return RUNE_OK;
}

void rune_batch_destroy(rune_batch *b)
{
    if (!b)
        return;
    atomic_store(&b->quit, true);
    for (size_t i = 0; b->pool && i < b->pool_size; i++)
        if (b->pool[i].started)
            pthread_join(b->pool[i].thread, NULL);
    rune_allocator a = b->alloc;
    rune__free(&a, b->pool, b->pool_size, sizeof *b->pool);
    rune__free(&a, b, 1, sizeof *b);
}

size_t rune_batch_workers(const rune_batch *b)
{
    RUNE_ASSUME(b);
    return b->workers;
}

size_t rune_batch_run(rune_batch *b, rune_character *const *chars, size_t count, float dt)
{
    RUNE_ASSUME(b);
    b->chars = chars;
    b->count = chars ? count : 0;
    b->dt = dt;
    b->run = atomic_fetch_add(&last_run, 1) + 1;
    atomic_store(&b->next, 0);
    atomic_store(&b->failed, 0);
    atomic_store(&b->pending, b->workers);
    atomic_fetch_add(&b->generation, 1);
    run_blocks(b);
    while (atomic_load(&b->pending) != 0)
        sched_yield(); /* the frame is nearly done: no naps here */
    return atomic_load(&b->failed);
}
