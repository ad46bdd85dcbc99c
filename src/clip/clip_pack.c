/* Packed clips in memory: assembling one block from its parts, and
 * decoding single samples (the key accessors and the exact sampler of a
 * packed clip; the batch sampler is packed_sampler.c). */
#include "clip_internal.h"
#include "clip_packed.h"
#include "../base/alloc.h"

#include <math.h>

static void layout(packer *p, rune_clip *c, clip_packed *k, const pack_parts *s)
{
    size_t sa = s->subtracks, segs = (s->samples + PACK_SEGMENT - 1) / PACK_SEGMENT;
    c->id = pack_str(p, s->id);
    c->tracks = pack(p, s->track_count * sizeof *c->tracks);
    k->tracks = pack(p, s->track_count * sizeof *k->tracks);
    k->range = pack(p, sa * PACK_RANGE * sizeof(float));
    k->channel = pack(p, sa);
    k->width = pack(p, segs * sa * 3);
    k->lo = pack(p, segs * sa * 3);
    k->hi = pack(p, segs * sa * 3);
    k->seg_start = pack(p, (segs + 1) * sizeof(uint32_t));
    size_t data = 0;
    for (size_t i = 0; i < segs * sa; i++)
        data += PACK_SUB_BYTES(&s->width[i * 3]);
    k->data = pack(p, data + PACK_DATA_PAD);
    c->markers = pack(p, s->marker_count * sizeof *c->markers);
    for (size_t t = 0; t < s->track_count; t++) {
        const char *parent = pack_str(p, s->parents[t]), *part = pack_str(p, s->parts[t]);
        if (p->base) {
            bool animated = false;
            for (int ch = 0; ch < PACK_CHANNELS; ch++)
                animated |= s->tracks[t].sub[ch] != PACK_CONSTANT;
            c->tracks[t] = (clip_track){parent, part, 0, animated ? s->samples : 1u};
        }
    }
    for (size_t i = 0; i < s->marker_count; i++) {
        const char *name = pack_str(p, s->markers[i].name), *value = pack_str(p, s->markers[i].value);
        if (p->base)
            c->markers[i] = rune__clip_marker(c, &s->markers[i], name, value);
    }
    rune__curves_layout(p, c, s->curves.keys, s->curves.key_count, s->curves.count);
    if (!p->base)
        return;
    memcpy(k->tracks, s->tracks, s->track_count * sizeof *k->tracks);
    memcpy(k->range, s->range, sa * PACK_RANGE * sizeof(float));
    for (size_t t = 0; t < s->track_count; t++)
        for (int ch = 0; ch < PACK_CHANNELS; ch++)
            if (s->tracks[t].sub[ch] != PACK_CONSTANT)
                k->channel[s->tracks[t].sub[ch]] = (uint8_t)ch;
    memcpy(k->width, s->width, segs * sa * 3);
    memcpy(k->lo, s->lo, segs * sa * 3);
    memcpy(k->hi, s->hi, segs * sa * 3);
    memcpy(k->data, s->data, data);
    k->seg_start[0] = 0;
    for (size_t g = 0; g < segs; g++) {
        uint32_t bytes = 0;
        for (size_t a = 0; a < sa; a++)
            bytes += PACK_SUB_BYTES(&k->width[(g * sa + a) * 3]);
        k->seg_start[g + 1] = k->seg_start[g] + bytes;
    }
}

rune_status rune__clip_assemble(const pack_parts *s, const rune_allocator *alloc, rune_clip **out, rune_error *err)
{
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    size_t head = align16(sizeof(rune_clip)) + align16(sizeof(clip_packed));
    rune_clip probe = {0};
    clip_packed probe_k = {0};
    packer measure = {NULL, 0};
    layout(&measure, &probe, &probe_k, s);
    char *block = rune__calloc(alloc, head + measure.used, 1);
    if (!block)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory building compressed clip \"%s\"", s->id);
    rune_clip *c = (rune_clip *)block;
    clip_packed *k = (clip_packed *)(block + align16(sizeof(rune_clip)));
    rune__clip_head(c, alloc, head + measure.used, s->revision, s->loop, s->priority, s->length, s->track_count,
                    s->marker_count);
    c->packed = k;
    c->curve_precision = s->curves.precision, c->curve_error = s->curves.max_error;
    k->samples = s->samples;
    k->segments = (s->samples + PACK_SEGMENT - 1) / PACK_SEGMENT;
    k->subtracks = s->subtracks;
    k->t0 = s->t0, k->dt = s->dt, k->inv_dt = 1.0f / s->dt;
    k->precision = s->precision, k->shell = s->shell, k->max_error = s->max_error;
    packer fill = {block + head, 0};
    layout(&fill, c, k, s);
    for (size_t t = 0; t < c->track_count; t++) {
        c->key_count += c->tracks[t].key_count;
        const packed_track *p = &k->tracks[t];
        rune_vec3 v = p->s;
        k->scaled |= p->sub[PACK_SCALE] != PACK_CONSTANT || v.x != 1.0f || v.y != 1.0f || v.z != 1.0f;
    }
    rune__clip_sort_markers(c->markers, c->marker_count);
    *out = c;
    return RUNE_OK;
}

const clip_packed *rune__clip_packed(const rune_clip *c) { return c->packed; }

unsigned rune__pack_sample(const clip_packed *p, uint32_t sub, uint32_t i, float v[3])
{
    uint32_t g = i / PACK_SEGMENT, j = i % PACK_SEGMENT;
    size_t at = (size_t)g * p->subtracks;
    uint32_t off = p->seg_start[g];
    for (uint32_t a = 0; a < sub; a++)
        off += PACK_SUB_BYTES(&p->width[(at + a) * 3]);
    const uint8_t *w = &p->width[(at + sub) * 3];
    uint32_t bit = off * 8u + j * pack_sample_bits(w);
    const float *r = &p->range[(size_t)sub * PACK_RANGE];
    for (unsigned c = 0; c < 3; c++) {
        unsigned x = pack_range_index(p->channel[sub] == PACK_ROT, w, c), width = PACK_WIDTH(w[c]);
        float base, ext;
        pack_segment_range(r[x], r[4 + x], p->lo[(at + sub) * 3 + c], p->hi[(at + sub) * 3 + c], &base, &ext);
        v[c] = pack_decode(base, ext, width, pack_read(p->data, bit, width));
        bit += width;
    }
    return PACK_DROPPED(w[0]);
}

void rune__pack_track_sample(const clip_packed *p, size_t track, uint32_t i, rune_key_sample *out)
{
    const packed_track *k = &p->tracks[track];
    float v[3];
    out->r = k->r, out->t = k->t, out->s = k->s;
    if (k->sub[PACK_ROT] != PACK_CONSTANT) {
        unsigned dropped = rune__pack_sample(p, k->sub[PACK_ROT], i, v);
        out->r = pack_rotation(v, dropped);
    }
    if (k->sub[PACK_POS] != PACK_CONSTANT) {
        rune__pack_sample(p, k->sub[PACK_POS], i, v);
        out->t = rune_v3(v[0], v[1], v[2]);
    }
    if (k->sub[PACK_SCALE] != PACK_CONSTANT) {
        rune__pack_sample(p, k->sub[PACK_SCALE], i, v);
        out->s = rune_v3(v[0], v[1], v[2]);
    }
    out->weight = k->weight;
    out->mask_weight = k->mask;
    out->coverage = rune_clamp01(k->weight * (1.0f - k->mask));
}

bool rune_clip_compressed(const rune_clip *c, rune_clip_compression *out)
{
    const clip_packed *p = c->packed;
    if (!p || !out)
        return p != NULL;
    *out = (rune_clip_compression){p->samples,
                                   p->t0,
                                   p->dt,
                                   p->precision,
                                   p->shell,
                                   p->max_error,
                                   (size_t)40 * c->track_count * p->samples,
                                   p->subtracks,
                                   c->curve_precision,
                                   c->curve_error};
    return true;
}
