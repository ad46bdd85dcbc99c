/* Float curves of a compressed clip (docs/format.md, "Compressed curves"):
 * within an absolute bound `precision`, each curve loses the keys a
 * straight line through its neighbours reproduces within precision / 2,
 * then its values snap to a grid of step `precision` (an error of at most
 * precision / 2, and a .rune stores each as 16 bits). The result is
 * measured against the exact clip at every key and between keys; a curve
 * that misses the bound (an easing that overshoots) stays exact. */
#include "compress_internal.h"
#include "../base/alloc.h"

#include <math.h>
#include <string.h>

/* How far one kept key may reach past its anchor: bounds the work of a
 * long straight run (each extension checks every key it skips). */
enum { REACH = 256, BETWEEN = 8 };

static bool plain(const clip_curve_key *k) { return !k->d.spline && k->d.easing == RUNE_EASE_LINEAR; }

/* Whether keys (a, c) can go: every interval of (a, c] straight, the
 * weights those of a, every value within tol of the line a -> c. */
static bool droppable(const clip_curve_key *k, size_t a, size_t c, double tol)
{
    double ta = k[a].time, span = (double)k[c].time - ta, va = k[a].d.value, vc = k[c].d.value;
    for (size_t i = a + 1; i <= c; i++) {
        if (!plain(&k[i]) || k[i].d.weight != k[a].d.weight || k[i].d.mask_weight != k[a].d.mask_weight)
            return false;
        if (i < c && fabs(va + (vc - va) * ((k[i].time - ta) / span) - k[i].d.value) > tol)
            return false;
    }
    return true;
}

/* One curve's keys k[0..n) reduced into out; returns how many. */
static size_t reduce(const clip_curve_key *k, size_t n, double tol, clip_curve_key *out)
{
    size_t m = 0, a = 0;
    out[m++] = k[0];
    while (a + 1 < n) {
        size_t b = a + 1;
        while (b + 1 < n && b + 1 - a <= REACH && droppable(k, a, b + 1, tol))
            b++;
        out[m++] = k[b];
        a = b;
    }
    return m;
}

/* Snaps a curve's values to multiples of step when every value's error
 * stays within step / 2 and the multiples span 16 bits. */
static void snap(clip_curve_key *k, size_t n, float step)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double q = nearbyint((double)k[i].d.value / step);
        lo = q < lo ? q : lo, hi = q > hi ? q : hi;
    }
    if (!(hi - lo <= 65535.0) || !(fabs(lo) < 1e15) || !(fabs(hi) < 1e15))
        return;
    for (size_t i = 0; i < n; i++) {
        float v = clip_curve_dequantize((int64_t)nearbyint((double)k[i].d.value / step), step);
        if (!(fabs((double)v - k[i].d.value) <= 0.5 * step))
            return;
    }
    for (size_t i = 0; i < n; i++)
        k[i].d.value = clip_curve_dequantize((int64_t)nearbyint((double)k[i].d.value / step), step);
}

/* The largest difference between curve `ci` of two clips, at the exact
 * clip's keys, the reduced one's, and BETWEEN points inside each exact
 * interval; coverage differences count too. */
static float curve_error(const rune_clip *exact, const rune_clip *lossy, size_t ci)
{
    float worst = 0.0f;
    size_t n = rune_clip_curve(exact, ci).key_count;
    for (size_t i = 0; i < n; i++) {
        float t0, t1;
        rune_curve_key_desc d;
        rune_clip_curve_key(exact, ci, i, &t0, &d);
        t1 = t0;
        if (i + 1 < n)
            rune_clip_curve_key(exact, ci, i + 1, &t1, &d);
        for (int s = 0; s < (i + 1 < n ? BETWEEN : 1); s++) {
            float t = t0 + (t1 - t0) * (float)s / BETWEEN;
            rune_curve_sample a, b;
            rune_clip_sample_curve(exact, ci, t, &a);
            rune_clip_sample_curve(lossy, ci, t, &b);
            worst = fmaxf(worst, fmaxf(fabsf(a.value - b.value), fabsf(a.coverage - b.coverage)));
        }
    }
    return worst;
}

/* A curve-only clip of keys (to measure them by the clip's own sampler). */
static rune_status curve_clip(const clip_curve_key *keys, size_t n, const rune_allocator *a, rune_clip **out,
                              rune_error *err)
{
    rune_keyframe_desc *kf = rune__calloc(a, n ? n : 1, sizeof *kf);
    if (!kf)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory compressing curves");
    for (size_t i = 0; i < n; i++)
        kf[i] = (rune_keyframe_desc){keys[i].time, NULL, 0, &keys[i].d, 1};
    rune_sequence_desc d = {"curves", 1, false, 0, kf, n, NULL, 0, 0.0f};
    rune_status st = rune_clip_compile(&d, a, out, err);
    rune__free(a, kf, n ? n : 1, sizeof *kf);
    return st;
}

/* One pass: every curve reduced and snapped, except those `keep` marks
 * (kept as they are); *m keys into out. */
static void compress_pass(const clip_curve_key *in, const rune_clip *clip, const bool *keep, float precision,
                          clip_curve_key *out, size_t *m)
{
    *m = 0;
    for (size_t ci = 0, at = 0; ci < rune_clip_describe(clip).curve_count; ci++) {
        size_t n = rune_clip_curve(clip, ci).key_count;
        if (keep[ci]) {
            memcpy(out + *m, in + at, n * sizeof *out);
            *m += n;
        } else {
            size_t r = reduce(in + at, n, 0.5 * (double)precision, out + *m);
            snap(out + *m, r, precision);
            *m += r;
        }
        at += n;
    }
}

rune_status rune__compress_curves(const rune_clip *clip, float precision, const rune_allocator *a,
                                  clip_curve_key **keys, clip_curve_set *set, rune_error *err)
{
    size_t total = rune_clip_describe(clip).curve_key_count, curves = rune_clip_describe(clip).curve_count;
    *keys = NULL;
    *set = (clip_curve_set){NULL, 0, 0, 0.0f, 0.0f};
    if (!curves)
        return RUNE_OK;
    clip_curve_key *in = NULL, *out = rune__calloc(a, total, sizeof *out);
    bool *keep = rune__calloc(a, curves, sizeof *keep);
    rune_status st = !out || !keep || rune__clip_curve_keys(clip, a, &in)
                         ? rune_fail(err, RUNE_E_NOMEM, "out of memory compressing the curves of clip \"%s\"",
                                     rune_clip_describe(clip).id)
                         : RUNE_OK;
    size_t m = 0;
    float worst = 0.0f;
    for (int pass = 0; !st && pass < 2; pass++) {
        compress_pass(in, clip, keep, precision, out, &m);
        rune_clip *lossy = NULL;
        if ((st = curve_clip(out, m, a, &lossy, err)))
            break;
        bool missed = false;
        worst = 0.0f;
        for (size_t ci = 0; ci < curves; ci++) {
            float e = keep[ci] ? 0.0f : curve_error(clip, lossy, ci);
            if (e > precision) /* the second pass keeps it exact */
                keep[ci] = missed = true;
            else
                worst = fmaxf(worst, e);
        }
        rune_clip_destroy(lossy);
        if (!missed)
            break;
    }
    rune__free(a, in, total, sizeof *in);
    rune__free(a, keep, curves, sizeof *keep);
    if (st) {
        rune__free(a, out, total, sizeof *out);
        return st;
    }
    *keys = out;
    *set = (clip_curve_set){out, m, curves, precision, worst};
    return RUNE_OK;
}
