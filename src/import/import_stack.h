/* Imports run on a thread of their own with a deep stack (import_stack.c). */
#ifndef RUNE_SRC_IMPORT_IMPORT_STACK_H
#define RUNE_SRC_IMPORT_IMPORT_STACK_H

#include "rune/base.h"

/* The stack an import runs on: reserved, and touched only as deep as the
 * import goes. assimp builds a file's node tree by recursion, a few
 * hundred bytes a level, so a deep file could overflow the caller's
 * stack -- 8 MB on a process's main thread, often 1 MB or less on an
 * embedding program's workers. */
#define RUNE_IMPORT_STACK_BYTES ((size_t)512 << 20)

/* Runs fn(ctx) on a thread with RUNE_IMPORT_STACK_BYTES of stack and
 * returns its status once it is done (the caller waits); on the caller's
 * own thread when no such thread can be made. */
rune_status rune__import_on_deep_stack(rune_status (*fn)(void *ctx), void *ctx);

#endif
