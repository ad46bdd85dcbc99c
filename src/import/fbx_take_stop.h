/* Widening FBX takes' stop times so assimp keeps their last keys
 * (fbx_take_stop.c). */
#ifndef RUNE_SRC_IMPORT_FBX_TAKE_STOP_H
#define RUNE_SRC_IMPORT_FBX_TAKE_STOP_H

#include <stddef.h>
#include <stdint.h>

/* Keys this close past a take's stop are kept: 1 ms in FBX ticks
 * (46,186,158,000 a second), far below a frame at any rate, far above the
 * rounding of exporters that write keys at 18.2000008 s for a stop at
 * 18.2 s. */
#define RUNE_FBX_STOP_TOLERANCE ((int64_t)46186158)

/* For the bytes of an FBX file (binary or ASCII): every AnimationStack's
 * LocalStop moved RUNE_FBX_STOP_TOLERANCE later, where the stack gives one
 * (a stop of 0 means "the keys' own range" and stays). Binary files are
 * patched in place; ASCII ones are rewritten into *out (malloc'ed, the
 * caller frees; *out_size its length), else *out is NULL. Returns how many
 * stops moved, or (size_t)-1 when out of memory. */
size_t rune__fbx_widen_stops(unsigned char *data, size_t size, unsigned char **out, size_t *out_size);

#endif
