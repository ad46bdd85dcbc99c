/* The rule for pointer arguments of public functions (as SQLite's
 * SQLITE_MISUSE): a function that returns rune_status checks the pointers
 * it requires and returns RUNE_E_INVALID naming the function and the
 * argument; a hot function that returns nothing documents its
 * preconditions and asserts them in debug builds (RUNE_ASSUME). */
#ifndef RUNE_SRC_BASE_REQUIRE_H
#define RUNE_SRC_BASE_REQUIRE_H

#include "rune/base.h"

#include <assert.h>

/* Returns RUNE_E_INVALID ("rune_x: scenario is NULL") when `arg` is NULL;
 * `name` is the argument's name in the public header. */
#define RUNE_REQUIRE(err, arg, name)                                                                                  \
    do {                                                                                                              \
        if (!(arg))                                                                                                   \
            return rune_fail((err), RUNE_E_INVALID, "%s: %s is NULL", __func__, name);                                \
    } while (0)

/* Returns RUNE_E_INVALID when the array `arr` is NULL but its count `n`
 * is not 0 (names as in the public header). */
#define RUNE_REQUIRE_ARRAY(err, arr, arr_name, n, n_name)                                                             \
    do {                                                                                                              \
        if (!(arr) && (n))                                                                                            \
            return rune_fail((err), RUNE_E_INVALID, "%s: %s is NULL but %s is %zu", __func__, arr_name, n_name,       \
                             (size_t)(n));                                                                            \
    } while (0)

/* A precondition of a function that cannot report one: checked in debug
 * builds, free in release ones (NDEBUG). */
#define RUNE_ASSUME(cond) assert(cond)

#endif
