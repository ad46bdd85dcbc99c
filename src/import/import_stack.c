/* An import on a thread of its own with a deep stack (import_stack.h):
 * the caller's thread waits for it, so the import is as synchronous as
 * before; only its recursion gets room. */
#include "import_stack.h"

#include <pthread.h>

typedef struct deep_call {
    rune_status (*fn)(void *);
    void *ctx;
    rune_status status;
} deep_call;

static void *run(void *p)
{
    deep_call *c = p;
    c->status = c->fn(c->ctx);
    return NULL;
}

rune_status rune__import_on_deep_stack(rune_status (*fn)(void *ctx), void *ctx)
{
    deep_call c = {fn, ctx, RUNE_OK};
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) == 0) {
        bool made = pthread_attr_setstacksize(&attr, RUNE_IMPORT_STACK_BYTES) == 0 &&
                    pthread_create(&thread, &attr, run, &c) == 0;
        pthread_attr_destroy(&attr);
        if (made) {
            pthread_join(thread, NULL);
            return c.status;
        }
    }
    return fn(ctx); /* no thread to be had: on the caller's stack, as deep as it goes */
}
