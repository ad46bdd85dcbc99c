/* The curves section of a .rune asset (asset_curves.c): measured and
 * written for a clip by the writer, read and checked by the reader, which
 * hands the keys to the clip compiler or the compressed clip's assembly. */
#ifndef RUNE_SRC_ASSET_CURVES_H
#define RUNE_SRC_ASSET_CURVES_H

#include "asset_format.h"
#include "../clip/clip_internal.h"
#include "../base/alloc.h"

#include <stdarg.h>

/* A curves section read: keys (cap entries, names in the file's strings)
 * and the set they make. */
typedef struct asset_curves {
    clip_curve_key *keys;
    size_t cap;
    clip_curve_set set;
} asset_curves;

/* Bytes of a clip's curves section; 0 when it has no curves. */
size_t rune__asset_curves_bytes(const rune_clip *c);
/* Writes it at p (NULL: only takes the string references). */
void rune__asset_curves_write(const rune_clip *c, unsigned char *p, asset_string_ref ref, void *encoder);
/* Reads and checks a section of `size` bytes at p: RUNE_E_PARSE with the
 * reason in `why`, RUNE_E_NOMEM, or RUNE_OK and *out (free with
 * rune__asset_curves_free). */
rune_status rune__asset_curves_read(const asset_strings *strings, const unsigned char *p, size_t size,
                                    const rune_allocator *alloc, asset_curves *out, char *why, size_t why_size);
void rune__asset_curves_free(asset_curves *c, const rune_allocator *alloc);
/* One keyframe per key into kf[0..set.key_count), for rune_clip_compile. */
void rune__asset_curves_keyframes(const asset_curves *c, rune_keyframe_desc *kf);

#endif
