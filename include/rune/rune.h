/* rune/rune.h - the whole public API of librune, stage by stage. */
#ifndef RUNE_RUNE_H
#define RUNE_RUNE_H

#include "rune/base.h"
#include "rune/math.h"
#include "rune/clip.h"
#include "rune/rig.h"
#include "rune/play.h"
#include "rune/mix.h"
#include "rune/blend.h"
#include "rune/graph.h"
#include "rune/root.h"
#include "rune/character.h"
#include "rune/io.h"

#endif
