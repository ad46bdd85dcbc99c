/* rune/root.h - root motion as a character reports it
 * (rune_character_root_delta): the travel of its root joint over the
 * interval its plays crossed (loop crossings included), converted through
 * the root joint's frame into horizontal movement and yaw, and removed
 * from the evaluated root pose (vertical motion and swing stay).
 *
 * The extracted delta is reported for the game's movement system; rune
 * never moves the character itself. */
#ifndef RUNE_ROOT_H
#define RUNE_ROOT_H

#include "rune/base.h"
#include "rune/math.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** Root travel of one frame in model space: metres along X and Z, radians
 * of yaw about +Y. */
typedef struct rune_root_delta {
    float dx, dz, yaw;
} rune_root_delta;

RUNE_END_DECLS

#endif
