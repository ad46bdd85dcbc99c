/* rune/rune.h - the whole public API of rune_core, stage by stage (and
 * the binary .rune asset). The
 * scenario documents are rune/io.h (rune_io), asset import rune/import.h
 * (rune_import). */
#ifndef RUNE_RUNE_H
#define RUNE_RUNE_H

#include "rune/base.h"
#include "rune/math.h"
#include "rune/clip.h"
#include "rune/rig.h"
#include "rune/skin.h"
#include "rune/ik.h"
#include "rune/play.h"
#include "rune/mix.h"
#include "rune/blend.h"
#include "rune/graph.h"
#include "rune/root.h"
#include "rune/character.h"
#include "rune/asset.h"

#endif
