/* Finding the name a misspelt one was meant to be, for error messages and
 * warnings ("did you mean ...?"). Load and lookup time only.
 * (Marked RUNE_API: rune_io and rune_import use them too, so the shared
 * core library exports them; the header is not installed.) */
#ifndef RUNE_SRC_BASE_NAMES_H
#define RUNE_SRC_BASE_NAMES_H

#include <stddef.h>

#include "rune/export.h"

/* Longest suggestion kept (longer ones are cut). */
#define RUNE_NAME_SUGGEST_MAX 96

/* Candidates offered one at a time; the closest likely typo wins. A
 * candidate is close enough within 2 edits, or a third of the name's
 * length (insertions, deletions, substitutions and swaps of neighbours). */
typedef struct rune__name_match {
    const char *name;
    size_t limit, best_distance;
    char best[RUNE_NAME_SUGGEST_MAX];
} rune__name_match;

RUNE_API void rune__match_init(rune__name_match *m, const char *name);
/* Considers one candidate (NULL and the name itself are ignored). */
RUNE_API void rune__match_offer(rune__name_match *m, const char *candidate);
/* " (did you mean \"X\"?)" for the best candidate, or "". */
RUNE_API const char *rune__match_hint(const rune__name_match *m, char *buf, size_t size);

/* The same over an array (NULL entries skipped): the hint for the closest
 * of candidates[0..count), written to buf. */
const char *rune__did_you_mean(char *buf, size_t size, const char *name, const char *const *candidates,
                               size_t count);

#endif
