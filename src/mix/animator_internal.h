/* What the batch loop (batch.c) needs of the animator beyond the public
 * API: prefetching an animator's per-frame state ahead of evaluating it. */
#ifndef RUNE_SRC_MIX_ANIMATOR_INTERNAL_H
#define RUNE_SRC_MIX_ANIMATOR_INTERNAL_H

#include "rune/mix.h"

/* Two steps, issued for animators two and one ahead of the current one:
 * the animator itself first, then (its pointers now at hand) its tracks,
 * their samplers and its pose. Both only hint the CPU. */
void rune__animator_prefetch_header(const rune_animator *anim);
void rune__animator_prefetch_state(const rune_animator *anim);

#endif
