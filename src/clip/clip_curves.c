/* Float curves of a clip (rune/clip.h): named scalar channels keyed like
 * joints -- gathered from a sequence (checked, sorted by name and time,
 * the later of two keys at one time kept), laid out in the clip's block,
 * sampled with the destination key's easing or a Hermite spline. */
#include "clip_internal.h"
#include "../base/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct curve_ref {
    clip_curve_key key;
    size_t order; /* position in the input: the later wins */
} curve_ref;

static int cmp_ref(const void *a, const void *b)
{
    const curve_ref *x = a, *y = b;
    int c = strcmp(x->key.name, y->key.name);
    if (c)
        return c;
    if (x->key.time != y->key.time)
        return x->key.time < y->key.time ? -1 : 1;
    return x->order < y->order ? -1 : (x->order > y->order);
}

static bool ok(float v) { return rune_in_range(v); }

rune_status rune__curves_gather(const rune_sequence_desc *d, const rune_allocator *alloc, clip_curve_key **out,
                                size_t *count, size_t *cap, size_t *curves, rune_error *err)
{
    *out = NULL, *count = *cap = *curves = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->keyframe_count; i++)
        n += d->keyframes[i].curve_count;
    if (!n)
        return RUNE_OK;
    curve_ref *refs = rune__calloc(alloc, n, sizeof *refs);
    if (!refs)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory compiling clip \"%s\"", d->id);
    size_t k = 0;
    for (size_t i = 0; i < d->keyframe_count; i++)
        for (size_t j = 0; j < d->keyframes[i].curve_count; j++, k++) {
            const rune_curve_key_desc *c = &d->keyframes[i].curves[j];
            const char *bad = !c->name || !c->name[0]                    ? "name: empty"
                              : !ok(c->value)                            ? "value: not finite, or beyond 1e18"
                              : !ok(c->weight)                           ? "weight: not finite, or beyond 1e18"
                              : !ok(c->mask_weight)                      ? "mask_weight: not finite, or beyond 1e18"
                              : (unsigned)c->easing >= RUNE_EASE_STYLE_COUNT ? "easing: unknown style"
                              : (unsigned)c->direction >= RUNE_EASE_DIR_COUNT ? "direction: unknown direction"
                              : !ok(c->in_tangent) || !ok(c->out_tangent) ? "tangents: not finite, or beyond 1e18"
                                                                          : NULL;
            if (bad) {
                rune__free(alloc, refs, n, sizeof *refs);
                if (c->name && c->name[0]) /* named as documents name it */
                    return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].curves.%s.%s", i, c->name, bad);
                return rune_fail(err, RUNE_E_INVALID, "keyframes[%zu].curves[%zu].%s", i, j, bad);
            }
            refs[k] = (curve_ref){{c->name, d->keyframes[i].time, *c}, k};
        }
    qsort(refs, n, sizeof *refs, cmp_ref);
    clip_curve_key *keys = rune__calloc(alloc, n, sizeof *keys);
    if (!keys) {
        rune__free(alloc, refs, n, sizeof *refs);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory compiling clip \"%s\"", d->id);
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        bool same = i + 1 < n && strcmp(refs[i].key.name, refs[i + 1].key.name) == 0 &&
                    refs[i].key.time == refs[i + 1].key.time;
        if (same) /* a later key at the same time supersedes this one */
            continue;
        *curves += m == 0 || strcmp(keys[m - 1].name, refs[i].key.name) != 0;
        keys[m++] = refs[i].key;
    }
    rune__free(alloc, refs, n, sizeof *refs);
    *out = keys, *count = m, *cap = n;
    return RUNE_OK;
}

void rune__curves_layout(packer *p, rune_clip *c, const clip_curve_key *keys, size_t count, size_t curves)
{
    c->curve_count = curves;
    c->curve_key_count = count;
    c->curves = pack(p, curves * sizeof *c->curves);
    c->ck_time = pack(p, count * sizeof(float));
    c->ck_value = pack(p, count * sizeof(float));
    c->ck_weight = pack(p, count * sizeof(float));
    c->ck_mask = pack(p, count * sizeof(float));
    c->ck_in = pack(p, count * sizeof(float));
    c->ck_out = pack(p, count * sizeof(float));
    c->ck_style = pack(p, count);
    c->ck_dir = pack(p, count);
    c->ck_spline = pack(p, count);
    size_t curve = 0;
    for (size_t k = 0; k < count; k++) {
        const clip_curve_key *ck = &keys[k];
        bool fresh = k == 0 || strcmp(keys[k - 1].name, ck->name) != 0;
        const char *name = fresh ? pack_str(p, ck->name) : NULL;
        if (!p->base)
            continue;
        if (fresh)
            c->curves[curve++] = (clip_curve){name, (uint32_t)k, 0};
        c->curves[curve - 1].key_count++;
        c->ck_time[k] = ck->time;
        c->ck_value[k] = ck->d.value;
        c->ck_weight[k] = ck->d.weight;
        c->ck_mask[k] = ck->d.mask_weight;
        c->ck_in[k] = ck->d.in_tangent;
        c->ck_out[k] = ck->d.out_tangent;
        c->ck_style[k] = (uint8_t)ck->d.easing;
        c->ck_dir[k] = (uint8_t)ck->d.direction;
        c->ck_spline[k] = ck->d.spline;
    }
}

size_t rune_clip_curve_count(const rune_clip *c) { return c->curve_count; }
const char *rune_clip_curve_name(const rune_clip *c, size_t i) { return c->curves[i].name; }
size_t rune_clip_curve_key_count(const rune_clip *c, size_t i) { return c->curves[i].key_count; }
size_t rune_clip_curve_key_total(const rune_clip *c) { return c->curve_key_count; }

rune_clip_curve_info rune_clip_curve(const rune_clip *c, size_t i)
{
    if (i >= c->curve_count)
        return (rune_clip_curve_info){"", 0};
    return (rune_clip_curve_info){c->curves[i].name, c->curves[i].key_count};
}

int32_t rune_clip_find_curve(const rune_clip *c, const char *name)
{
    size_t lo = 0, hi = c->curve_count; /* sorted by name */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = strcmp(c->curves[mid].name, name);
        if (!d)
            return (int32_t)mid;
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

void rune_clip_curve_key(const rune_clip *c, size_t i, size_t k, float *time, rune_curve_key_desc *out)
{
    size_t at = c->curves[i].first_key + k;
    *time = c->ck_time[at];
    *out = (rune_curve_key_desc){c->curves[i].name, c->ck_value[at], c->ck_weight[at], c->ck_mask[at],
                                 (rune_easing_style)c->ck_style[at], (rune_easing_dir)c->ck_dir[at],
                                 c->ck_spline[at] != 0, c->ck_in[at], c->ck_out[at]};
}

void rune_clip_sample_curve(const rune_clip *c, size_t i, float t, rune_curve_sample *out)
{
    const clip_curve *cv = &c->curves[i];
    size_t lo = cv->first_key, end = lo + cv->key_count, hi = end;
    while (lo < hi) { /* the first key at or after t */
        size_t mid = lo + (hi - lo) / 2;
        if (c->ck_time[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t b = lo;
    if (b == end || b == cv->first_key || c->ck_time[b] == t) {
        size_t k = b == end ? end - 1 : b; /* hold an end, or exactly on a key */
        *out = (rune_curve_sample){c->ck_value[k], c->ck_weight[k], c->ck_mask[k], 0.0f};
    } else {
        size_t a = b - 1;
        float span = c->ck_time[b] - c->ck_time[a], u = (t - c->ck_time[a]) / span;
        float e = c->ck_spline[b] ? u : rune_ease((rune_easing_style)c->ck_style[b], (rune_easing_dir)c->ck_dir[b], u);
        float v;
        if (c->ck_spline[b]) { /* cubic Hermite, tangents per second scaled by the span */
            float u2 = u * u, u3 = u2 * u;
            v = (2 * u3 - 3 * u2 + 1) * c->ck_value[a] + (u3 - 2 * u2 + u) * span * c->ck_out[a] +
                (-2 * u3 + 3 * u2) * c->ck_value[b] + (u3 - u2) * span * c->ck_in[b];
        } else {
            v = c->ck_value[a] + (c->ck_value[b] - c->ck_value[a]) * e;
        }
        out->value = rune_in_range(v) ? v : (v > 0 ? RUNE_MAX_MAGNITUDE : -RUNE_MAX_MAGNITUDE);
        out->weight = c->ck_weight[a] + (c->ck_weight[b] - c->ck_weight[a]) * e;
        out->mask_weight = c->ck_mask[a] + (c->ck_mask[b] - c->ck_mask[a]) * e;
    }
    out->coverage = rune_clamp01(out->weight * (1.0f - out->mask_weight));
}

rune_status rune__clip_curve_keys(const rune_clip *c, const rune_allocator *alloc, clip_curve_key **out)
{
    *out = NULL;
    if (!c->curve_key_count)
        return RUNE_OK;
    clip_curve_key *keys = rune__calloc(alloc, c->curve_key_count, sizeof *keys);
    if (!keys)
        return RUNE_E_NOMEM;
    for (size_t i = 0; i < c->curve_count; i++)
        for (size_t k = 0; k < c->curves[i].key_count; k++) {
            clip_curve_key *o = &keys[c->curves[i].first_key + k];
            rune_clip_curve_key(c, i, k, &o->time, &o->d);
            o->name = c->curves[i].name;
        }
    *out = keys;
    return RUNE_OK;
}
