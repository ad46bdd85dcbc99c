/* The compressed ("packed") form of a clip, shared by the clip stage (which
 * stores and samples it) and the compressor above it (which chooses its
 * bit widths): docs/format.md describes the layout.
 *
 * A packed clip samples every track on one uniform grid of `samples`
 * times, t0 + i dt. Each track has three channels (rotation, translation,
 * scale); a channel is either constant (one float value, exact) or
 * animated, a "subtrack". Subtracks are numbered in track order, channels
 * in that order. A subtrack's values are first normalized to its range
 * over the whole clip (min, extent per component), then the grid is cut
 * into segments of PACK_SEGMENT samples; per segment and subtrack three
 * bytes hold each component's bit width (0 .. PACK_MAX_BITS) and six
 * bytes the segment's range inside the clip's, in 1/255 steps. The
 * samples are unsigned integers, sample after sample, each sample its
 * three components: a subtrack takes 16 x (w0 + w1 + w2) bits =
 * 2 x (w0 + w1 + w2) bytes of a segment, so offsets stay whole bytes and
 * a value never needs more than one unaligned 32-bit load. A rotation
 * keeps three of its four components: per segment the first width
 * byte's top two bits name the one dropped (the one farthest from zero
 * over the segment, made positive, so rebuilding it as
 * sqrt(1 - the others' squares) stays well conditioned); its clip range
 * holds all four. */
#ifndef RUNE_SRC_CLIP_PACKED_H
#define RUNE_SRC_CLIP_PACKED_H

#include "rune/clip.h"
#include "clip_internal.h"

#include <math.h>
#include <string.h>

#define PACK_SEGMENT 16
#define PACK_MAX_BITS 24
/* A width byte: the width, and (the first of a rotation's three) the
 * dropped component. */
#define PACK_WIDTH(byte) ((unsigned)(byte)&31u)
#define PACK_DROPPED(byte) ((unsigned)(byte) >> 6)
#define PACK_WIDTH_BYTE(width, dropped) ((uint8_t)((width) | ((dropped) << 6)))
/* Floats of a subtrack's clip range: min[4], extent[4] (the fourth
 * only for rotations). */
#define PACK_RANGE 8
/* Bits one sample of a subtrack takes in a segment, from its three
 * width bytes; the subtrack's bytes in the segment are twice that. */
static inline unsigned pack_sample_bits(const uint8_t *w) { return PACK_WIDTH(w[0]) + PACK_WIDTH(w[1]) + PACK_WIDTH(w[2]); }
#define PACK_SUB_BYTES(w) (PACK_SEGMENT / 8u * pack_sample_bits(w))
/* Zero bytes past the data, so an unaligned 32-bit load at the last
 * value (or a gather's) stays inside the block, with room to spare. */
#define PACK_DATA_PAD 8
/* The most data bytes a packed clip holds: bit addresses stay 32-bit. */
#define PACK_MAX_DATA ((size_t)1 << 29)
/* Most samples a packed clip may hold. */
#define PACK_MAX_SAMPLES (1u << 24)

enum { PACK_ROT = 0, PACK_POS = 1, PACK_SCALE = 2, PACK_CHANNELS = 3 };
#define PACK_CONSTANT UINT32_MAX /* a channel's subtrack index when constant */

/* Per track: which subtrack each channel is (or PACK_CONSTANT, with the
 * value below), and the track's weight and mask weight (constant). */
typedef struct packed_track {
    uint32_t sub[PACK_CHANNELS];
    float weight, mask;
    rune_quat r;
    rune_vec3 t, s;
} packed_track;

typedef struct clip_packed {
    uint32_t samples, segments, subtracks;
    float t0, dt, inv_dt;
    float precision, shell, max_error; /* what the compressor was asked and measured */
    bool scaled;                       /* some scale differs from 1 */
    packed_track *tracks;              /* per clip track */
    uint8_t *channel;                  /* per subtrack: PACK_ROT, PACK_POS or PACK_SCALE */
    float *range;                      /* per subtrack: PACK_RANGE floats */
    uint8_t *width;                    /* [segment][subtrack][3]: width bytes */
    uint8_t *lo, *hi;                  /* [segment][subtrack][3] */
    uint32_t *seg_start;               /* [segments + 1]: byte offset of each segment's data */
    uint8_t *data;                     /* seg_start[segments] bytes + PACK_DATA_PAD */
} clip_packed;

/* The largest integer of a width, and its reciprocal (0 for width 0). */
static inline uint32_t pack_max_q(unsigned bits) { return bits ? (1u << bits) - 1u : 0u; }
static inline float pack_inv_q(unsigned bits)
{
    /* 1 / (2^bits - 1) as float division rounds it (a table: segment
     * loads compute one per component) */
#define PACK_INV(b) (1.0f / (float)((1u << (b)) - 1u))
    static const float inv[PACK_MAX_BITS + 1] = {
        0.0f,        PACK_INV(1),  PACK_INV(2),  PACK_INV(3),  PACK_INV(4),  PACK_INV(5),  PACK_INV(6),
        PACK_INV(7), PACK_INV(8),  PACK_INV(9),  PACK_INV(10), PACK_INV(11), PACK_INV(12), PACK_INV(13),
        PACK_INV(14), PACK_INV(15), PACK_INV(16), PACK_INV(17), PACK_INV(18), PACK_INV(19), PACK_INV(20),
        PACK_INV(21), PACK_INV(22), PACK_INV(23), PACK_INV(24)};
#undef PACK_INV
    return inv[bits <= PACK_MAX_BITS ? bits : 0];
}

/* A segment's range of one component: base and extent in value units. */
static inline void pack_segment_range(float cmin, float cext, unsigned lo, unsigned hi, float *base, float *ext)
{
    *base = cmin + cext * ((float)lo * (1.0f / 255.0f));
    *ext = cext * ((float)(hi - lo) * (1.0f / 255.0f));
}

/* The value integer q stands for. */
static inline float pack_decode(float base, float ext, unsigned bits, uint32_t q)
{
    return base + ext * ((float)q * pack_inv_q(bits));
}

/* The integer nearest v in [base, base + ext] at a width. */
static inline uint32_t pack_encode(float v, float base, float ext, unsigned bits)
{
    uint32_t m = pack_max_q(bits);
    if (!(ext > 0.0f) || m == 0)
        return 0;
    float n = (v - base) / ext * (float)m + 0.5f;
    return n <= 0.0f ? 0u : (n >= (float)m ? m : (uint32_t)n);
}

/* The segment byte for the bottom (floor) or top (ceil) of values
 * normalized into the clip's range. */
static inline unsigned pack_range_byte(float v, float cmin, float cext, bool top)
{
    if (!(cext > 0.0f))
        return 0;
    float n = (v - cmin) / cext * 255.0f;
    float r = top ? ceilf(n) : floorf(n);
    return r <= 0.0f ? 0u : (r >= 255.0f ? 255u : (unsigned)r);
}

/* The integer of `width` bits at bit `at` of p (least significant bit
 * first). */
static inline uint32_t pack_read(const uint8_t *p, uint32_t at, unsigned width)
{
    uint32_t v;
    memcpy(&v, p + (at >> 3), sizeof v);
    return (v >> (at & 7u)) & pack_max_q(width);
}

/* The component a rotation's stored value c (0..2) is, with `dropped`
 * left out. */
static inline unsigned pack_kept(unsigned dropped, unsigned c) { return c < dropped ? c : c + 1; }

/* The quaternion (unnormalized) from three stored components, the
 * dropped one rebuilt (>= 0). */
static inline rune_quat pack_rotation_raw(const float v[3], unsigned dropped)
{
    float q[4], s = 0.0f;
    for (unsigned c = 0; c < 3; c++) {
        q[pack_kept(dropped, c)] = v[c];
        s += v[c] * v[c];
    }
    q[dropped] = s < 1.0f ? sqrtf(1.0f - s) : 0.0f;
    return rune_q(q[0], q[1], q[2], q[3]);
}

static inline rune_quat pack_rotation(const float v[3], unsigned dropped)
{
    return rune_q_normalize(pack_rotation_raw(v, dropped));
}

/* The sample grid's cell of clip time t: samples i0, i1 = i0 + 1 (or i0
 * at the end) and the fraction u between them; before t0 (or NaN) the
 * first sample holds, after the last the last. */
static inline void pack_locate(const clip_packed *p, float t, uint32_t *i0, uint32_t *i1, float *u)
{
    float f = (t - p->t0) * p->inv_dt;
    float last = (float)(p->samples - 1);
    if (!(f > 0.0f))
        f = 0.0f;
    /* a time within rounding of a sample is on it: key times are floats,
     * t0 + i dt is not exactly any of them */
    float near = floorf(f + 0.5f);
    if (fabsf(f - near) <= 1e-3f)
        f = near;
    if (f >= last) {
        *i0 = *i1 = p->samples - 1;
        *u = 0.0f;
        return;
    }
    uint32_t i = (uint32_t)f;
    if (i >= p->samples - 1) /* f just below last, rounded */
        i = p->samples - 2;
    *i0 = i;
    *i1 = i + 1;
    *u = rune_clamp01(f - (float)i);
}

/* The parts of a packed clip, as the compressor or the .rune reader
 * holds them before rune__clip_assemble copies them into one block. */
typedef struct pack_parts {
    const char *id;
    uint32_t revision;
    bool loop;
    int priority;
    float length;
    size_t track_count;
    const char *const *parents; /* per track */
    const char *const *parts;
    const packed_track *tracks;
    size_t marker_count;
    const rune_marker_desc *markers;
    uint32_t samples, subtracks;
    float t0, dt;
    float precision, shell, max_error;
    const float *range;
    const uint8_t *width, *lo, *hi;
    const uint8_t *data; /* the sum of PACK_SUB_BYTES over the widths */
    clip_curve_set curves; /* float curves (the .rune keeps them in a section of their own) */
} pack_parts;

/* Builds the clip; checks nothing the caller has not (the reader
 * validates first). Exported for the compressor (rune_compress). */
RUNE_API rune_status rune__clip_assemble(const pack_parts *parts, const rune_allocator *alloc, rune_clip **out,
                                         rune_error *err);

/* rune_clip_packed_read with float curves attached (the .rune reader
 * keeps them in a section of their own; `curves` NULL: none). */
rune_status rune__clip_packed_read_curves(const void *bytes, size_t size, const clip_curve_set *curves,
                                          const rune_allocator *alloc, rune_clip **out, rune_error *err);

/* The packed data of a clip (NULL when it holds keys). */
const clip_packed *rune__clip_packed(const rune_clip *clip);

/* Decodes sample i of subtrack `sub` into v[3]; returns the dropped
 * component (rotations; pack_rotation). */
unsigned rune__pack_sample(const clip_packed *p, uint32_t sub, uint32_t i, float v[3]);

/* The range component stored value c of a subtrack stands for. */
static inline unsigned pack_range_index(bool rotation, const uint8_t *w, unsigned c)
{
    return rotation ? pack_kept(PACK_DROPPED(w[0]), c) : c;
}

/* A track's value at sample i (weight and mask included). */
void rune__pack_track_sample(const clip_packed *p, size_t track, uint32_t i, rune_key_sample *out);

#endif
