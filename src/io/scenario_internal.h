/* The allocation that holds a loaded scenario: the public struct first, so
 * a rune_scenario pointer is also the box pointer. */
#ifndef RUNE_SRC_IO_SCENARIO_INTERNAL_H
#define RUNE_SRC_IO_SCENARIO_INTERNAL_H

#include "rune/io.h"
#include "../base/arena.h"

typedef struct scenario_box {
    rune_scenario scenario; /* must stay first */
    rune_allocator alloc;
    rune__arena arena;
} scenario_box;

#endif
