/* The curves section of a .rune asset (asset_format.h, docs/format.md):
 * a clip's float curves, each stored with only the arrays its keys need
 * (weights, splines, easing) and, in a compressed clip, its values as 16
 * bits on the grid the compressor snapped them to -- written only where
 * every value decodes back to the same float, so a loaded clip equals the
 * one written. The reader checks every count, name, time and number
 * before the keys reach a clip. */
#include "asset_curves.h"

#include <math.h>
#include <stdio.h>

/* How a curve is stored: its flags, and for quantized values the lowest
 * grid index. */
static uint32_t curve_flags(const rune_clip *c, size_t ci, float step, int64_t *base)
{
    uint32_t flags = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    bool on_grid = step > 0.0f;
    for (size_t k = 0; k < rune_clip_curve_key_count(c, ci); k++) {
        float t;
        rune_curve_key_desc d;
        rune_clip_curve_key(c, ci, k, &t, &d);
        if (d.weight != 1.0f || d.mask_weight != 0.0f)
            flags |= CURVE_WEIGHTS;
        if (d.spline)
            flags |= CURVE_SPLINES;
        if (d.easing != RUNE_EASE_LINEAR || d.direction != RUNE_EASE_IN)
            flags |= CURVE_EASED;
        double q = on_grid ? nearbyint((double)d.value / step) : 0.0;
        on_grid = on_grid && fabs(q) < 1e15 && clip_curve_dequantize((int64_t)q, step) == d.value;
        if (on_grid)
            lo = (int64_t)q < lo ? (int64_t)q : lo, hi = (int64_t)q > hi ? (int64_t)q : hi;
    }
    if (on_grid && hi - lo <= 65535 && lo >= INT32_MIN && lo <= INT32_MAX) {
        flags |= CURVE_QUANTIZED;
        *base = lo;
    }
    return flags;
}

/* The grid step a clip's curves were snapped to (0: exact). */
static float clip_step(const rune_clip *c, float *max_error)
{
    rune_clip_compression info;
    *max_error = 0.0f;
    if (!rune_clip_compressed(c, &info))
        return 0.0f;
    *max_error = info.curve_max_error;
    return info.curve_precision;
}

size_t rune__asset_curves_bytes(const rune_clip *c)
{
    size_t n = rune_clip_curve_count(c), bytes = CURVES_HEAD_BYTES + CURVE_BYTES * n;
    if (!n)
        return 0;
    float err, step = clip_step(c, &err);
    for (size_t ci = 0; ci < n; ci++) {
        int64_t base = 0;
        bytes += asset_curve_bytes(rune_clip_curve_key_count(c, ci), curve_flags(c, ci, step, &base));
    }
    return bytes;
}

void rune__asset_curves_write(const rune_clip *c, unsigned char *p, asset_string_ref ref, void *encoder)
{
    size_t n = rune_clip_curve_count(c);
    float max_error, step = clip_step(c, &max_error);
    if (p) {
        put_u32(p, (uint32_t)n);
        put_u32(p + 4, (uint32_t)rune_clip_curve_key_total(c));
        put_f32(p + 8, step);
        put_f32(p + 12, max_error);
    }
    unsigned char *at = p ? p + CURVES_HEAD_BYTES + CURVE_BYTES * n : NULL;
    for (size_t ci = 0; ci < n; ci++) {
        uint32_t name = ref(encoder, rune_clip_curve_name(c, ci));
        size_t keys = rune_clip_curve_key_count(c, ci);
        int64_t base = 0;
        uint32_t flags = curve_flags(c, ci, step, &base);
        if (!p)
            continue;
        unsigned char *rec = p + CURVES_HEAD_BYTES + CURVE_BYTES * ci;
        put_u32(rec, name);
        put_u32(rec + 4, (uint32_t)keys);
        put_u32(rec + 8, flags);
        put_f32(rec + 12, flags & CURVE_QUANTIZED ? step : 0.0f);
        put_u32(rec + 16, (uint32_t)(int32_t)base);
        unsigned char *w = at, *in = w + (flags & CURVE_WEIGHTS ? 8 * keys : 0) + 4 * keys;
        unsigned char *val = in + (flags & CURVE_SPLINES ? 8 * keys : 0);
        unsigned char *spl = val + (flags & CURVE_QUANTIZED ? 2 * keys : 4 * keys);
        unsigned char *ease = spl + (flags & CURVE_SPLINES ? keys : 0);
        for (size_t k = 0; k < keys; k++) {
            float t;
            rune_curve_key_desc d;
            rune_clip_curve_key(c, ci, k, &t, &d);
            put_f32(at + 4 * k, t);
            if (flags & CURVE_WEIGHTS)
                put_f32(w + 4 * keys + 4 * k, d.weight), put_f32(w + 8 * keys + 4 * k, d.mask_weight);
            if (flags & CURVE_SPLINES) {
                put_f32(in + 4 * k, d.in_tangent), put_f32(in + 4 * keys + 4 * k, d.out_tangent);
                spl[k] = d.spline;
            }
            if (flags & CURVE_QUANTIZED) {
                uint16_t q = (uint16_t)((int64_t)nearbyint((double)d.value / step) - base);
                memcpy(val + 2 * k, &q, 2);
            } else {
                put_f32(val + 4 * k, d.value);
            }
            if (flags & CURVE_EASED)
                ease[k] = (unsigned char)d.easing, ease[keys + k] = (unsigned char)d.direction;
        }
        at += asset_curve_bytes(keys, flags);
    }
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static rune_status fail(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return RUNE_E_PARSE;
}

static bool number(float v) { return rune_in_range(v); }

/* Curve ci's keys from its arrays at `at` into out[0..n), checked. */
static rune_status read_keys(const unsigned char *at, size_t n, uint32_t flags, float step, int32_t base,
                             const char *name, clip_curve_key *out, char *why, size_t size)
{
    const unsigned char *w = at, *in = w + (flags & CURVE_WEIGHTS ? 8 * n : 0) + 4 * n;
    const unsigned char *val = in + (flags & CURVE_SPLINES ? 8 * n : 0);
    const unsigned char *spl = val + (flags & CURVE_QUANTIZED ? 2 * n : 4 * n);
    const unsigned char *ease = spl + (flags & CURVE_SPLINES ? n : 0);
    for (size_t k = 0; k < n; k++) {
        clip_curve_key *o = &out[k];
        o->name = name;
        o->time = get_f32(at + 4 * k);
        o->d = (rune_curve_key_desc){name, 0.0f, 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN, false, 0.0f, 0.0f};
        if (!number(o->time) || (k > 0 && !(o->time > out[k - 1].time)))
            return fail(why, size, "curve \"%s\": key %zu: time not finite, or not after the previous key", name, k);
        if (flags & CURVE_WEIGHTS)
            o->d.weight = get_f32(w + 4 * n + 4 * k), o->d.mask_weight = get_f32(w + 8 * n + 4 * k);
        if (flags & CURVE_SPLINES) {
            o->d.in_tangent = get_f32(in + 4 * k), o->d.out_tangent = get_f32(in + 4 * n + 4 * k);
            if (spl[k] > 1)
                return fail(why, size, "curve \"%s\": key %zu: spline flag %u is not 0 or 1", name, k, spl[k]);
            o->d.spline = spl[k] != 0;
        }
        if (flags & CURVE_QUANTIZED) {
            uint16_t q;
            memcpy(&q, val + 2 * k, 2);
            o->d.value = clip_curve_dequantize((int64_t)base + q, step);
        } else {
            o->d.value = get_f32(val + 4 * k);
        }
        if (flags & CURVE_EASED) {
            if (ease[k] >= RUNE_EASE_STYLE_COUNT || ease[n + k] >= RUNE_EASE_DIR_COUNT)
                return fail(why, size, "curve \"%s\": key %zu: unknown easing", name, k);
            o->d.easing = (rune_easing_style)ease[k], o->d.direction = (rune_easing_dir)ease[n + k];
        }
        if (!number(o->d.value) || !number(o->d.weight) || !number(o->d.mask_weight) || !number(o->d.in_tangent) ||
            !number(o->d.out_tangent))
            return fail(why, size, "curve \"%s\": key %zu: a number not finite, or beyond 1e18", name, k);
    }
    return RUNE_OK;
}

rune_status rune__asset_curves_read(const asset_strings *strings, const unsigned char *p, size_t size,
                                    const rune_allocator *alloc, asset_curves *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (size < CURVES_HEAD_BYTES)
        return fail(why, why_size, "shorter than its header");
    size_t curves = get_u32(p), keys = get_u32(p + 4);
    float precision = get_f32(p + 8), max_error = get_f32(p + 12);
    if (curves == 0 || curves > (size - CURVES_HEAD_BYTES) / CURVE_BYTES || keys < curves)
        return fail(why, why_size, "%zu curves of %zu keys do not fit the section", curves, keys);
    if (!(precision >= 0.0f) || !number(precision) || !(max_error >= 0.0f) || !number(max_error))
        return fail(why, why_size, "precision or max error not a finite number at least 0");
    size_t need = CURVES_HEAD_BYTES + CURVE_BYTES * curves, sum = 0;
    const char *prev = NULL;
    for (size_t ci = 0; ci < curves; ci++) {
        const unsigned char *rec = p + CURVES_HEAD_BYTES + CURVE_BYTES * ci;
        const char *name = asset_string_at(strings, get_u32(rec));
        size_t n = get_u32(rec + 4);
        uint32_t flags = get_u32(rec + 8);
        float step = get_f32(rec + 12);
        if (!name || !name[0] || (prev && strcmp(prev, name) >= 0))
            return fail(why, why_size, "curve %zu: its name is not a string of the strings section, or out of "
                        "name order (or repeated)", ci);
        if (n == 0 || n > keys - sum || (flags & ~(uint32_t)CURVE_FLAGS) || get_u32(rec + 20) != 0 ||
            ((flags & CURVE_QUANTIZED) ? !(step > 0.0f) || !number(step) : step != 0.0f || get_u32(rec + 16) != 0))
            return fail(why, why_size, "curve \"%s\": bad key count, flags, step or reserved bytes", name);
        prev = name;
        sum += n;
        need += asset_curve_bytes(n, flags);
    }
    if (sum != keys || need != size)
        return fail(why, why_size, "its counts do not match its size");
    clip_curve_key *k = rune__calloc(alloc, keys, sizeof *k);
    if (!k)
        return RUNE_E_NOMEM;
    const unsigned char *at = p + CURVES_HEAD_BYTES + CURVE_BYTES * curves;
    size_t first = 0;
    for (size_t ci = 0; ci < curves; ci++) {
        const unsigned char *rec = p + CURVES_HEAD_BYTES + CURVE_BYTES * ci;
        size_t n = get_u32(rec + 4);
        uint32_t flags = get_u32(rec + 8);
        rune_status st = read_keys(at, n, flags, get_f32(rec + 12), (int32_t)get_u32(rec + 16),
                                   asset_string_at(strings, get_u32(rec)), k + first, why, why_size);
        if (st) {
            rune__free(alloc, k, keys, sizeof *k);
            return st;
        }
        at += asset_curve_bytes(n, flags);
        first += n;
    }
    *out = (asset_curves){k, keys, {k, keys, curves, precision, max_error}};
    return RUNE_OK;
}

void rune__asset_curves_free(asset_curves *c, const rune_allocator *alloc)
{
    if (c->keys)
        rune__free(alloc, c->keys, c->cap, sizeof *c->keys);
    memset(c, 0, sizeof *c);
}

void rune__asset_curves_keyframes(const asset_curves *c, rune_keyframe_desc *kf)
{
    for (size_t i = 0; i < c->set.key_count; i++)
        kf[i] = (rune_keyframe_desc){c->keys[i].time, NULL, 0, &c->keys[i].d, 1};
}
