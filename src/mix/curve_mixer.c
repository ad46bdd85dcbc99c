/* Float curves through composition (docs/semantics.md, "Float curves"):
 * the rules the joints follow, one scalar a curve. Per rank, a weighted
 * mean by share = clamp(weight x coverage, 0, 1) overlaid onto the ranks
 * below by the rank's coverage min(1, sum of shares); means of blend
 * spaces and cross-fades the same without ranks; graph layers: override by
 * layer weight x coverage (kept straight, as the joints), additive adding
 * the weighted delta from the reference. Curves go in chunks on the
 * stack, so nothing is allocated. */
#include "rune/mix.h"
#include "curve_mixer.h"
#include "mix_internal.h"

#include <string.h>

enum { CHUNK = 64 };

static int rank_of(const rune_contribution *c) { return rune_priority_clamp(c->priority); }

/* A contribution's curves [first, first + n): a finished pose's (0, 0
 * past what it has), or a track sampled. */
static void curves_of(const rune_contribution *c, size_t first, size_t n, float *v, float *cov)
{
    if (c->pose) {
        const rune_pose *p = c->pose;
        for (size_t i = 0; i < n; i++) {
            bool has = first + i < p->curve_count;
            v[i] = has ? p->curve[first + i] : 0.0f;
            cov[i] = has ? p->curve_cov[first + i] : 0.0f;
        }
    } else if (c->track) {
        rune_binding_sample_curves(c->track->binding, rune_track_sample_time(c->track), first, n, v, cov);
    } else {
        memset(v, 0, n * sizeof *v), memset(cov, 0, n * sizeof *cov);
    }
}

/* The share-weighted sums of contributions cs[idx[0..count)] (idx NULL:
 * all); false when none counts. */
static bool sums(const rune_contribution *cs, const size_t *idx, size_t count, size_t first, size_t n, float *sv,
                 float *ss)
{
    bool any = false;
    memset(sv, 0, n * sizeof *sv), memset(ss, 0, n * sizeof *ss);
    for (size_t k = 0; k < count; k++) {
        const rune_contribution *c = &cs[idx ? idx[k] : k];
        if (!c->pose && !c->track)
            continue;
        float w = isfinite(c->weight) ? c->weight : 0.0f, v[CHUNK], cov[CHUNK];
        curves_of(c, first, n, v, cov);
        for (size_t i = 0; i < n; i++) {
            float share = rune_clamp01(w * cov[i]);
            sv[i] += share * v[i];
            ss[i] += share;
        }
        any = true;
    }
    return any;
}

static float mean_of(float sv, float ss) { return ss > 0.0f ? sv / ss : 0.0f; }
static float cover_of(float ss) { return ss > 0.0f ? (ss < 1.0f ? ss : 1.0f) : 0.0f; }

void rune__mix_curves_mean(const rune_contribution *cs, size_t count, rune_pose *out)
{
    for (size_t first = 0; first < out->curve_count; first += CHUNK) {
        size_t n = out->curve_count - first < CHUNK ? out->curve_count - first : CHUNK;
        float sv[CHUNK], ss[CHUNK];
        sums(cs, NULL, count, first, n, sv, ss);
        for (size_t i = 0; i < n; i++) {
            out->curve[first + i] = mean_of(sv[i], ss[i]);
            out->curve_cov[first + i] = cover_of(ss[i]);
        }
    }
}

void rune__mix_curves_compose(const rune_contribution *cs, size_t count, const size_t *order, rune_pose *out)
{
    for (size_t first = 0; first < out->curve_count; first += CHUNK) {
        size_t n = out->curve_count - first < CHUNK ? out->curve_count - first : CHUNK;
        float *v = out->curve + first, *c = out->curve_cov + first;
        bool reset = false; /* after the lowest rank is read: `out` may be one of its poses */
        for (size_t lo = 0; lo < count;) {
            size_t hi = lo + 1;
            while (hi < count && rank_of(&cs[order[hi]]) == rank_of(&cs[order[lo]]))
                hi++;
            float sv[CHUNK], ss[CHUNK];
            bool any = sums(cs, order + lo, hi - lo, first, n, sv, ss);
            if (!reset)
                memset(v, 0, n * sizeof *v), memset(c, 0, n * sizeof *c), reset = true;
            if (any)
                for (size_t i = 0; i < n; i++) {
                    float rc = cover_of(ss[i]), rv = mean_of(sv[i], ss[i]);
                    if (rc <= 0.0f)
                        continue;
                    v[i] = rc >= 1.0f ? rv : v[i] + (rv - v[i]) * rc; /* a full overlay replaces */
                    c[i] += rc * (1.0f - c[i]);
                }
            lo = hi;
        }
        if (!reset)
            memset(v, 0, n * sizeof *v), memset(c, 0, n * sizeof *c);
    }
}

/* The override step of one curve: value v of coverage cov, layer weight
 * lw (kept straight, as the joints). */
static void layer_curve(rune_pose *out, size_t i, float v, float cov, float lw)
{
    float w = rune_clamp01(lw * cov), c = out->curve_cov[i];
    if (!(w > 0.0f))
        return;
    float c2 = c + w * (1.0f - c), f = c2 > 0.0f ? rune_clamp01(w / c2) : 0.0f;
    out->curve[i] += (v - out->curve[i]) * f;
    out->curve_cov[i] = c2;
}

void rune__mix_curves_layer(rune_pose *out, const rune_pose *layer, const rune_pose *ref, float layer_weight)
{
    size_t n = out->curve_count < layer->curve_count ? out->curve_count : layer->curve_count;
    if (ref && ref->curve_count < n)
        n = ref->curve_count;
    for (size_t i = 0; i < n; i++) {
        if (!ref) { /* straight: what the layers show, by how much they cover */
            layer_curve(out, i, layer->curve[i], layer->curve_cov[i], layer_weight);
            continue;
        }
        float w = rune_clamp01(layer_weight * layer->curve_cov[i]), c = out->curve_cov[i];
        if (!(w > 0.0f))
            continue;
        out->curve[i] += (layer->curve[i] - ref->curve[i]) * w;
        out->curve_cov[i] = c + w * (1.0f - c);
    }
}

void rune__mix_curves_layer_mean(rune_pose *out, const rune_contribution *cs, size_t count, float layer_weight)
{
    for (size_t first = 0; first < out->curve_count; first += CHUNK) {
        size_t n = out->curve_count - first < CHUNK ? out->curve_count - first : CHUNK;
        float sv[CHUNK], ss[CHUNK];
        sums(cs, NULL, count, first, n, sv, ss);
        for (size_t i = 0; i < n; i++)
            layer_curve(out, first + i, mean_of(sv[i], ss[i]), cover_of(ss[i]), layer_weight);
    }
}
