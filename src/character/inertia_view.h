/* What tools read of a character's inertialization (the scenario runner's
 * frame report): a private entry of rune_core for rune_io. */
#ifndef RUNE_SRC_CHARACTER_INERTIA_VIEW_H
#define RUNE_SRC_CHARACTER_INERTIA_VIEW_H

#include "rune/character.h"

/* Whether an inertialization is decaying after the last update: *left,
 * the seconds until it ends; *angle, the largest joint rotation offset it
 * adds now, in degrees (both 0 when none). */
RUNE_API bool rune__character_inertia(const rune_character *ch, float *left, float *angle);

#endif
