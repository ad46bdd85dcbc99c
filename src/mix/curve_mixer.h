/* The float curves' half of composition (curve_mixer.c), called by the
 * joints' (priority_mixer.c, layer_mixer.c) on the same contributions. */
#ifndef RUNE_SRC_MIX_CURVE_MIXER_H
#define RUNE_SRC_MIX_CURVE_MIXER_H

#include "rune/mix.h"
#include "mix_internal.h"

/* Curves of rune_mix_mean: the share-weighted mean, coverage min(1, sum). */
void rune__mix_curves_mean(const rune_contribution *cs, size_t count, rune_pose *out);
/* Curves of rune_mix_compose: ranks in `order` (sorted), lowest first. */
void rune__mix_curves_compose(const rune_contribution *cs, size_t count, const size_t *order, rune_pose *out);
/* Curves of rune_mix_layer: override (ref NULL) or additive. */
void rune__mix_curves_layer(rune_pose *out, const rune_pose *layer, const rune_pose *ref, float layer_weight);
/* Curves of rune_mix_layer_mean: rune__mix_curves_mean's mean laid as an
 * override layer. */
void rune__mix_curves_layer_mean(rune_pose *out, const rune_contribution *cs, size_t count, float layer_weight);

#endif
