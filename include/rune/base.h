/* rune/base.h - status codes, error reports and the caller-owned allocator.
 *
 * Every fallible rune function returns a rune_status and, when given a
 * non-NULL rune_error, fills it with one line naming the file, JSON path or
 * object and the reason. The library never prints and never aborts. */
#ifndef RUNE_BASE_H
#define RUNE_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "rune/export.h"

RUNE_BEGIN_DECLS

#define RUNE_VERSION_MAJOR 0
#define RUNE_VERSION_MINOR 3
#define RUNE_VERSION_PATCH 0
#define RUNE_VERSION_STRING "0.3.0"

/** Result of every fallible call. RUNE_OK is zero. */
typedef enum rune_status {
    RUNE_OK = 0,
    RUNE_E_INVALID,  /**< input failed validation (message says where) */
    RUNE_E_NOMEM,    /**< the allocator returned NULL */
    RUNE_E_IO,       /**< a file could not be read or written */
    RUNE_E_PARSE,    /**< a document is not well-formed */
    RUNE_E_NOT_FOUND /**< a named object does not exist */
} rune_status;

#define RUNE_ERROR_MAX 320

/** One-line error report. `message` is always NUL-terminated and holds no
 * control characters (those of quoted names are written as \xNN). */
typedef struct rune_error {
    rune_status status;
    char message[RUNE_ERROR_MAX];
} rune_error;

/** Allocator supplied by the caller. `alloc` returns NULL on failure;
 * `free` receives the size that was requested for the block. Both get
 * `user` as first argument. */
typedef struct rune_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr, size_t size);
    void *user;
} rune_allocator;

/** The malloc/free allocator used when NULL is passed for an allocator. */
RUNE_API const rune_allocator *rune_default_allocator(void);

/** Fills `err` (if non-NULL) with a printf-style message and returns
 * `status`, so error paths can `return rune_fail(err, ...)`. */
RUNE_API rune_status rune_fail(rune_error *err, rune_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/** Prepends "prefix" to an existing message in `err` (used to add a file
 * name or the outer JSON path as an error travels up). No-op on NULL. */
RUNE_API void rune_error_prefix(rune_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Short English name of a status ("invalid input", ...). */
RUNE_API const char *rune_status_name(rune_status status);

/** Number of priority ranks (core .. action4). */
#define RUNE_PRIORITY_COUNT 7

/** Mixer ranks, lowest first: the rank a clip, motion or graph plays at
 * by default (each play may give its own). Composition processes ranks
 * from lowest to highest; a rank's joints overlay what the ranks below
 * composed by their coverage. */
typedef enum rune_priority {
    RUNE_PRIORITY_CORE = 0,
    RUNE_PRIORITY_IDLE,
    RUNE_PRIORITY_MOVEMENT,
    RUNE_PRIORITY_ACTION,
    RUNE_PRIORITY_ACTION2,
    RUNE_PRIORITY_ACTION3,
    RUNE_PRIORITY_ACTION4
} rune_priority;

/** A rank clamped into 0 .. RUNE_PRIORITY_COUNT-1. */
static inline int rune_priority_clamp(int priority)
{
    return priority < 0 ? 0 : (priority >= RUNE_PRIORITY_COUNT ? RUNE_PRIORITY_COUNT - 1 : priority);
}

/** Parses "core" .. "action4"; -1 when unknown. */
RUNE_API int rune_priority_from_name(const char *name);
/** The name of a rank ("core" .. "action4"; "?" outside the range). */
RUNE_API const char *rune_priority_name(int priority);

RUNE_END_DECLS

#endif
