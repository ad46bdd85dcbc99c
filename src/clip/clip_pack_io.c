/* The stored form of a packed clip (docs/format.md, "Compressed clip
 * section"): written field by field in little-endian order, read back
 * with every count, offset, width, range and name checked before
 * anything is built, so a corrupt section fails with a message naming the
 * field and never reads out of bounds. */
#include "clip_internal.h"
#include "clip_packed.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

enum { HEAD = 64, TRACK = 68, MARKER = 12 };
enum { H_FLAGS = 0, H_PRIORITY = 4, H_REVISION = 8, H_TRACKS = 12, H_MARKERS = 16, H_SAMPLES = 20, H_SUBS = 24,
       H_DATA = 28, H_T0 = 32, H_DT = 36, H_LENGTH = 40, H_PRECISION = 44, H_SHELL = 48, H_MAX_ERROR = 52,
       H_STRINGS = 56, H_ID = 60 };
#define FLAG_LOOP 1u

static uint32_t rd32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static float rdf(const unsigned char *p)
{
    float v;
    memcpy(&v, p, 4);
    return v;
}
static void wr32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void wrf(unsigned char *p, float v) { memcpy(p, &v, 4); }

/* Byte counts of the parts after the header. */
typedef struct layout {
    size_t tracks, markers, ranges, tables, data, strings, total;
} layout;

static bool measure(size_t tracks, size_t markers, size_t subs, size_t samples, size_t data, size_t strings,
                    layout *l)
{
    size_t segs = (samples + PACK_SEGMENT - 1) / PACK_SEGMENT;
    if (tracks > SIZE_MAX / 4 / TRACK || markers > SIZE_MAX / 4 / MARKER || subs > SIZE_MAX / 64 ||
        (subs && segs > SIZE_MAX / 16 / subs))
        return false;
    l->tracks = tracks * TRACK, l->markers = markers * MARKER, l->ranges = subs * PACK_RANGE * 4;
    l->tables = segs * subs * 9, l->data = data, l->strings = strings;
    size_t parts[] = {HEAD, l->tracks, l->markers, l->ranges, l->tables, l->data, l->strings};
    l->total = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (parts[i] > SIZE_MAX / 2 - l->total)
            return false;
        l->total += parts[i];
    }
    return true;
}

/* Strings of a clip in its stored form: the id, then per track parent and
 * part, then per marker name and value, each NUL-terminated. */
static size_t strings_size(const rune_clip *c)
{
    size_t n = strlen(c->id) + 1;
    for (size_t t = 0; t < c->track_count; t++)
        n += strlen(c->tracks[t].parent) + strlen(c->tracks[t].part) + 2;
    for (size_t m = 0; m < c->marker_count; m++)
        n += strlen(c->markers[m].name) + strlen(c->markers[m].value) + 2;
    return n;
}

static size_t data_size(const clip_packed *p)
{
    return p->seg_start[p->segments];
}

size_t rune_clip_packed_size(const rune_clip *c)
{
    const clip_packed *p = c->packed;
    layout l;
    if (!p || !measure(c->track_count, c->marker_count, p->subtracks, p->samples, data_size(p), strings_size(c), &l))
        return 0;
    return l.total;
}

static uint32_t put_string(unsigned char *strings, size_t *used, const char *s)
{
    size_t n = strlen(s) + 1;
    memcpy(strings + *used, s, n);
    uint32_t at = (uint32_t)*used;
    *used += n;
    return at;
}

void rune_clip_packed_write(const rune_clip *c, void *out)
{
    const clip_packed *p = c->packed;
    layout l;
    if (!p || !measure(c->track_count, c->marker_count, p->subtracks, p->samples, data_size(p), strings_size(c), &l))
        return;
    unsigned char *b = out, *tr = b + HEAD, *mk = tr + l.tracks, *rg = mk + l.markers, *tb = rg + l.ranges;
    unsigned char *dt = tb + l.tables, *st = dt + l.data;
    memset(b, 0, l.total);
    size_t used = 0;
    uint32_t head[16] = {c->loop ? FLAG_LOOP : 0u, (uint32_t)c->priority, c->revision, (uint32_t)c->track_count,
                         (uint32_t)c->marker_count, p->samples, p->subtracks, (uint32_t)l.data, 0, 0, 0, 0, 0, 0,
                         (uint32_t)l.strings, put_string(st, &used, c->id)};
    for (int i = 0; i < 16; i++)
        wr32(b + 4 * i, head[i]);
    const float hf[6] = {p->t0, p->dt, c->length, p->precision, p->shell, p->max_error};
    for (int i = 0; i < 6; i++)
        wrf(b + H_T0 + 4 * i, hf[i]);
    for (size_t t = 0; t < c->track_count; t++) {
        unsigned char *q = tr + TRACK * t;
        const packed_track *k = &p->tracks[t];
        wr32(q, put_string(st, &used, c->tracks[t].parent));
        wr32(q + 4, put_string(st, &used, c->tracks[t].part));
        for (int ch = 0; ch < PACK_CHANNELS; ch++)
            wr32(q + 8 + 4 * ch, k->sub[ch]);
        const float v[12] = {k->weight, k->mask, k->r.x, k->r.y, k->r.z, k->r.w,
                             k->t.x,    k->t.y,  k->t.z, k->s.x, k->s.y, k->s.z};
        for (int i = 0; i < 12; i++)
            wrf(q + 20 + 4 * i, v[i]);
    }
    for (size_t m = 0; m < c->marker_count; m++) {
        unsigned char *q = mk + MARKER * m;
        wrf(q, c->markers[m].time);
        wr32(q + 4, put_string(st, &used, c->markers[m].name));
        wr32(q + 8, put_string(st, &used, c->markers[m].value));
    }
    for (size_t i = 0; i < (size_t)p->subtracks * PACK_RANGE; i++)
        wrf(rg + 4 * i, p->range[i]);
    size_t cells = (size_t)p->segments * p->subtracks * 3;
    memcpy(tb, p->width, cells);
    memcpy(tb + cells, p->lo, cells);
    memcpy(tb + 2 * cells, p->hi, cells);
    memcpy(dt, p->data, l.data);
}

/* ---- reading ------------------------------------------------------------ */

typedef struct reader {
    const unsigned char *strings;
    size_t string_bytes;
    rune_error *err;
} reader;

static rune_status bad(reader *r, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return rune_fail(r->err, RUNE_E_PARSE, "compressed clip: %s", what);
}

/* A string reference: inside the strings and NUL-terminated there (the
 * last byte of the strings is checked to be NUL once). */
static const char *string_at(const reader *r, uint32_t ref)
{
    return ref < r->string_bytes ? (const char *)r->strings + ref : NULL;
}

static bool finite_all(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!rune_in_range(rdf(p + 4 * i)))
            return false;
    return true;
}

static int cmp_track(const char *ap, const char *aq, const char *bp, const char *bq)
{
    int c = strcmp(ap, bp);
    return c ? c : strcmp(aq, bq);
}

/* The tracks: names (parents in names[0..tracks), parts after), subtrack references (each subtrack used by exactly
 * one channel) and constants. */
static rune_status read_tracks(reader *r, const unsigned char *tr, size_t tracks, uint32_t subs, const char **names,
                               packed_track *out, uint8_t *used)
{
    for (size_t t = 0; t < tracks; t++) {
        const unsigned char *q = tr + TRACK * t;
        const char *parent = string_at(r, rd32(q)), *part = string_at(r, rd32(q + 4));
        if (!parent || !part || !part[0])
            return bad(r, "track %zu: its names are not strings of the section", t);
        if (t > 0 && cmp_track(names[t - 1], names[tracks + t - 1], parent, part) >= 0)
            return bad(r, "track %zu (%s/%s): tracks are not in name order", t, parent, part);
        names[t] = parent, names[tracks + t] = part;
        packed_track *k = &out[t];
        for (int ch = 0; ch < PACK_CHANNELS; ch++) {
            uint32_t a = rd32(q + 8 + 4 * ch);
            if (a != PACK_CONSTANT && (a >= subs || used[a]))
                return bad(r, "track %zu: channel %d names subtrack %u, not one of the %u or used twice", t, ch, a,
                           subs);
            if (a != PACK_CONSTANT)
                used[a] = (uint8_t)(ch + 1);
            k->sub[ch] = a;
        }
        if (!finite_all(q + 20, 12))
            return bad(r, "track %zu: a weight or constant is not finite, or beyond %g", t,
                       (double)RUNE_MAX_MAGNITUDE);
        k->weight = rdf(q + 20), k->mask = rdf(q + 24);
        rune_quat qr = rune_q(rdf(q + 28), rdf(q + 32), rdf(q + 36), rdf(q + 40));
        if (!(rune_q_dot(qr, qr) > 1e-12f))
            return bad(r, "track %zu: zero-length rotation", t);
        k->r = rune_q_unit(qr);
        k->t = rune_v3(rdf(q + 44), rdf(q + 48), rdf(q + 52));
        k->s = rune_v3(rdf(q + 56), rdf(q + 60), rdf(q + 64));
    }
    for (uint32_t a = 0; a < subs; a++)
        if (!used[a])
            return bad(r, "subtrack %u: no track channel uses it", a);
    return RUNE_OK;
}

/* Widths and segment ranges; returns the data bytes they describe. */
static rune_status read_tables(reader *r, const unsigned char *tb, size_t segs, uint32_t subs, const uint8_t *channel,
                               size_t *data)
{
    size_t cells = segs * subs * 3;
    const unsigned char *w = tb, *lo = tb + cells, *hi = tb + 2 * cells;
    *data = 0;
    for (size_t i = 0; i < segs * subs; i++) {
        size_t g = i / subs, a = i % subs;
        for (int c = 0; c < 3; c++) {
            unsigned byte = w[i * 3 + c];
            bool may_drop = c == 0 && channel[a] == PACK_ROT + 1;
            if (PACK_WIDTH(byte) > PACK_MAX_BITS || (byte & 32u) || (!may_drop && PACK_DROPPED(byte)))
                return bad(r, "segment %zu, subtrack %zu: width byte %u is not a width of 0..%d", g, a, byte,
                           PACK_MAX_BITS);
            if (lo[i * 3 + c] > hi[i * 3 + c])
                return bad(r, "segment %zu, subtrack %zu: its range starts above its end", g, a);
        }
        *data += PACK_SUB_BYTES(&w[i * 3]);
    }
    return RUNE_OK;
}

rune_status rune_clip_packed_read(const void *bytes, size_t size, const rune_allocator *alloc, rune_clip **out,
                                  rune_error *err)
{
    RUNE_REQUIRE(err, bytes, "data");
    RUNE_REQUIRE(err, out, "out");
    return rune__clip_packed_read_curves(bytes, size, NULL, alloc, out, err);
}

rune_status rune__clip_packed_read_curves(const void *bytes, size_t size, const clip_curve_set *curves,
                                          const rune_allocator *alloc, rune_clip **out, rune_error *err)
{
    *out = NULL;
    const unsigned char *b = bytes;
    reader r = {NULL, 0, err};
    if (size < HEAD)
        return bad(&r, "%zu bytes, shorter than its header", size);
    uint32_t flags = rd32(b + H_FLAGS), tracks = rd32(b + H_TRACKS), markers = rd32(b + H_MARKERS);
    uint32_t samples = rd32(b + H_SAMPLES), subs = rd32(b + H_SUBS), data = rd32(b + H_DATA);
    int32_t priority = (int32_t)rd32(b + H_PRIORITY);
    layout l;
    if (!measure(tracks, markers, subs, samples, data, rd32(b + H_STRINGS), &l) || l.total != size)
        return bad(&r, "its counts (%u tracks, %u markers, %u subtracks, %u samples, %u data bytes) do not match its "
                   "size (%zu bytes)",
                   tracks, markers, subs, samples, data, size);
    if (flags & ~FLAG_LOOP)
        return bad(&r, "unknown flags %#x", flags);
    if (priority < 0 || priority >= RUNE_PRIORITY_COUNT)
        return bad(&r, "priority %d is outside 0..%d", priority, RUNE_PRIORITY_COUNT - 1);
    if (samples < 1 || samples > PACK_MAX_SAMPLES || data > PACK_MAX_DATA)
        return bad(&r, "%u samples and %u data bytes: at least 1 and at most %u samples, %zu bytes", samples, data,
                   PACK_MAX_SAMPLES, PACK_MAX_DATA);
    float t0 = rdf(b + H_T0), dt = rdf(b + H_DT), length = rdf(b + H_LENGTH);
    if (!finite_all(b + H_T0, 6) || !(dt > 0.0f) || !(length >= 0.0f) || !isfinite(t0 + dt * (float)samples))
        return bad(&r, "its time grid, length or error figures are not finite (or dt is not positive)");
    const unsigned char *tr = b + HEAD, *mk = tr + l.tracks, *rg = mk + l.markers, *tb = rg + l.ranges;
    const unsigned char *dd = tb + l.tables;
    r.strings = dd + l.data, r.string_bytes = l.strings;
    if (l.strings == 0 || r.strings[l.strings - 1] != 0)
        return bad(&r, "its strings do not end with a NUL");
    const char *id = string_at(&r, rd32(b + H_ID));
    if (!id || !id[0])
        return bad(&r, "its id is not a non-empty string of the section");
    if (!finite_all(rg, (size_t)subs * PACK_RANGE))
        return bad(&r, "a subtrack range is not finite");
    for (size_t i = 0; i < (size_t)subs * PACK_RANGE; i++)
        if (i % PACK_RANGE >= 4 && !(rdf(rg + 4 * i) >= 0.0f))
            return bad(&r, "subtrack %zu: a negative range", i / PACK_RANGE);

    rune_allocator a = *rune__alloc_or_default(alloc);
    const char **names = rune__calloc(&a, 2 * (size_t)tracks + 1, sizeof *names);
    packed_track *pt = rune__calloc(&a, (size_t)tracks + 1, sizeof *pt);
    uint8_t *used = rune__calloc(&a, (size_t)subs + 1, 1);
    rune_marker_desc *md = rune__calloc(&a, (size_t)markers + 1, sizeof *md);
    float *range = rune__calloc(&a, (size_t)subs * PACK_RANGE + 1, sizeof *range);
    rune_status st = names && pt && used && md && range ? RUNE_OK
                                                        : rune_fail(err, RUNE_E_NOMEM, "out of memory reading a clip");
    if (!st)
        st = read_tracks(&r, tr, tracks, subs, names, pt, used);
    size_t segs = (samples + PACK_SEGMENT - 1) / PACK_SEGMENT, need = 0;
    if (!st)
        st = read_tables(&r, tb, segs, subs, used, &need);
    if (!st && need != data)
        st = bad(&r, "its widths describe %zu data bytes, it holds %u", need, data);
    for (uint32_t k = 0; !st && k < subs; k++) /* rotation components stay within -1 .. 1 */
        for (int x = 0; used[k] == PACK_ROT + 1 && x < 4; x++) {
            float lo = rdf(rg + 4 * ((size_t)k * PACK_RANGE + x)), ext = rdf(rg + 4 * ((size_t)k * PACK_RANGE + 4 + x));
            if (!(lo >= -1.001f) || !(lo + ext <= 1.001f))
                st = bad(&r, "subtrack %u: a rotation range beyond -1 .. 1", k);
        }
    for (uint32_t m = 0; !st && m < markers; m++) {
        const unsigned char *q = mk + MARKER * m;
        md[m] = (rune_marker_desc){rdf(q), string_at(&r, rd32(q + 4)), string_at(&r, rd32(q + 8))};
        if (!rune_in_range(md[m].time) || !md[m].name || !md[m].value)
            st = bad(&r, "marker %u: a time that is not finite, or names that are not strings", m);
    }
    if (!st) {
        for (size_t i = 0; i < (size_t)subs * PACK_RANGE; i++)
            range[i] = rdf(rg + 4 * i);
        size_t cells = segs * subs * 3;
        unsigned char *padded = rune__calloc(&a, (size_t)data + PACK_DATA_PAD, 1);
        if (!padded) {
            st = rune_fail(err, RUNE_E_NOMEM, "out of memory reading a clip");
        } else {
            memcpy(padded, dd, data);
            pack_parts parts = {id, rd32(b + H_REVISION), flags & FLAG_LOOP, priority, length, tracks, names,
                                names + tracks, pt, markers, md, samples, subs, t0, dt, rdf(b + H_PRECISION),
                                rdf(b + H_SHELL), rdf(b + H_MAX_ERROR), range, tb, tb + cells, tb + 2 * cells, padded,
                                curves ? *curves : (clip_curve_set){NULL, 0, 0, 0.0f, 0.0f}};
            st = rune__clip_assemble(&parts, alloc, out, err);
            rune__free(&a, padded, (size_t)data + PACK_DATA_PAD, 1);
        }
    }
    rune__free(&a, names, 2 * (size_t)tracks + 1, sizeof *names);
    rune__free(&a, pt, (size_t)tracks + 1, sizeof *pt);
    rune__free(&a, used, (size_t)subs + 1, 1);
    rune__free(&a, md, (size_t)markers + 1, sizeof *md);
    rune__free(&a, range, (size_t)subs * PACK_RANGE + 1, sizeof *range);
    return st;
}
