/* Clip compression with a model-space error bound (docs/format.md,
 * "Compressed clips"). The error of a joint is measured as ACL measures
 * it: virtual vertices at `shell` from the joint along its three axes,
 * transformed by the exact and the compressed model-space matrix of every
 * sample; the largest distance over every joint and sample must stay
 * within `precision`. A parent's error moves all of its descendants, so
 * the bit widths are chosen on the whole hierarchy at once:
 *
 *   1. each subtrack of a segment alone (the others exact) gets the fewest
 *      bits that keep every joint within half the bound (half: the rest
 *      is left to the others; measured on CMU clips this ends 2-3 %
 *      smaller than the whole bound, and 4-6x sooner, step 2 having less
 *      to add);
 *   2. with all of them quantized together, while some joint is over the
 *      bound, the one subtrack on its chain (the joint and its ancestors)
 *      whose extra bit lowers the worst error most gets it;
 *   3. then every subtrack, widest first, gives levels back while the
 *      bound holds;
 *   4. then each component alone gives bits back while the bound holds.
 *
 * Segments are independent (16 samples each), so this is a few thousand
 * pose evaluations of 16 samples per segment at most. */
#include "compress_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Every subtrack's range over segment g (value units, per stored
 * component) into p->smin, p->smax: what the widths and range bytes of
 * every trial in the segment start from. */
static void segment_ranges(planner *p, size_t g)
{
    for (size_t a = 0; a < p->subs; a++)
        for (unsigned c = 0; c < 3; c++) {
            float mn = INFINITY, mx = -INFINITY;
            for (size_t i = g * PACK_SEGMENT; i < rune__compress_segment_end(p, g); i++) {
                float x = rune__compress_stored(p, a, g, i, c);
                mn = x < mn ? x : mn;
                mx = x > mx ? x : mx;
            }
            p->smin[a * 3 + c] = mn, p->smax[a * 3 + c] = mx;
        }
}

/* Subtrack a's range bytes in segment g for its widths: the segment's
 * values floored and ceiled into the clip range; a width-0 component
 * holds one value, the byte nearest the middle. */
static void range_bytes(const planner *p, size_t g, size_t a, const unsigned w[3], uint8_t lo[3], uint8_t hi[3])
{
    const float *mn = &p->smin[a * 3], *mx = &p->smax[a * 3];
    for (unsigned c = 0; c < 3; c++) {
        unsigned x = rune__compress_range_index(p, a, g, c);
        float cmin = p->range[a * PACK_RANGE + x], cext = p->range[a * PACK_RANGE + 4 + x];
        if (w[c] == 0) {
            float n = cext > 0.0f ? (0.5f * (mn[c] + mx[c]) - cmin) / cext * 255.0f + 0.5f : 0.0f;
            lo[c] = hi[c] = (uint8_t)(n <= 0.0f ? 0 : (n >= 255.0f ? 255 : (unsigned)n));
        } else {
            lo[c] = (uint8_t)pack_range_byte(mn[c], cmin, cext, false);
            hi[c] = (uint8_t)pack_range_byte(mx[c], cmin, cext, true);
        }
    }
}

/* Subtrack a's widths in segment g at `level`: the widest component gets
 * `level` bits, each other the fewest that keep its step no coarser (so
 * all three quantize alike in value units; a component that barely moves
 * gets 0 bits). */
static void level_widths(const planner *p, size_t g, size_t a, unsigned level, unsigned w[3])
{
    const unsigned full[3] = {1, 1, 1};
    uint8_t lo[3], hi[3];
    range_bytes(p, g, a, full, lo, hi);
    double ext[3], widest = 0.0;
    for (unsigned c = 0; c < 3; c++) {
        unsigned x = rune__compress_range_index(p, a, g, c);
        ext[c] = (double)p->range[a * PACK_RANGE + 4 + x] * (hi[c] - lo[c]) / 255.0;
        widest = ext[c] > widest ? ext[c] : widest;
    }
    double step = level ? widest / (double)pack_max_q(level) : INFINITY;
    for (unsigned c = 0; c < 3; c++) {
        unsigned b = 0;
        while (b < level && ext[c] / (double)(b ? pack_max_q(b) : 1u) > step)
            b++;
        w[c] = level ? b : 0;
    }
}

/* Value c of sample i (of segment g) as the runtime decodes it. */
static uint32_t quantized(const planner *p, size_t g, size_t a, size_t i, unsigned c, unsigned width,
                          const uint8_t *lo, const uint8_t *hi, float *decoded)
{
    unsigned x = rune__compress_range_index(p, a, g, c);
    float base, ext;
    pack_segment_range(p->range[a * PACK_RANGE + x], p->range[a * PACK_RANGE + 4 + x], lo[c], hi[c], &base, &ext);
    uint32_t q = pack_encode(rune__compress_stored(p, a, g, i, c), base, ext, width);
    if (decoded)
        *decoded = pack_decode(base, ext, width, q);
    return q;
}

/* Subtrack a's samples of segment g at given widths, decoded. */
static void decode_widths(const planner *p, size_t g, size_t a, const unsigned w[3], float *out)
{
    uint8_t lo[3], hi[3];
    range_bytes(p, g, a, w, lo, hi);
    for (size_t j = 0; j < PACK_SEGMENT; j++) {
        size_t i = g * PACK_SEGMENT + j < p->samples ? g * PACK_SEGMENT + j : p->samples - 1;
        for (unsigned c = 0; c < 3; c++)
            quantized(p, g, a, i, c, w[c], lo, hi, &out[j * 3 + c]);
    }
}

/* The same at a level. */
static void decode_at(const planner *p, size_t g, size_t a, unsigned level, float *out)
{
    unsigned w[3];
    level_widths(p, g, a, level, w);
    decode_widths(p, g, a, w, out);
}

/* Decoded values of subtrack a (three stored components each sample)
 * written into v, a track's V_COUNT values. */
static void channel_values(const planner *p, size_t g, size_t a, const float *d, float *v)
{
    int ch = p->sub[a].ch;
    if (ch == PACK_ROT) {
        rune_quat q = pack_rotation(d, p->drop[g * p->subs + a]);
        v[V_RX] = q.x, v[V_RY] = q.y, v[V_RZ] = q.z, v[V_RW] = q.w;
    } else {
        memcpy(v + channel_first[ch], d, 3 * sizeof(float));
    }
}

/* Track t's values at sample j of the segment at hand: as the current
 * widths decode them (p->now), subtrack `swap` from `trial` instead. */
static void track_values(const planner *p, size_t g, size_t t, size_t j, size_t swap, const float *trial,
                         float v[V_COUNT])
{
    memcpy(v, &p->now[(j * p->tracks + t) * V_COUNT], V_COUNT * sizeof(float));
    if (swap != SIZE_MAX && p->sub[swap].track == t)
        channel_values(p, g, swap, &trial[j * 3], v);
}

/* Largest distance between the virtual vertices of two transforms. */
static float vertex_error(const float *a, const float *b, float shell)
{
    float e = 0.0f;
    for (int k = 0; k < 3; k++) {
        float d2 = 0.0f;
        for (int r = 0; r < 3; r++) {
            float d = (a[12 + r] - b[12 + r]) + shell * (a[4 * k + r] - b[4 * k + r]);
            d2 += d * d;
        }
        e = d2 > e ? d2 : e;
    }
    return sqrtf(e);
}

/* A track's local matrix alone (tracks no joint of the rig takes). */
static void local_matrix(const float *v, float *m)
{
    rune_xform x = {rune_v3(v[V_TX], v[V_TY], v[V_TZ]), rune_q(v[V_RX], v[V_RY], v[V_RZ], v[V_RW])};
    rune_mat4 r = rune_mat4_from_xform(x);
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++)
            r.m[4 * c + row] *= v[V_SX + c];
    memcpy(m, r.m, sizeof r.m);
}

/* Fills the pose with every bound track's values at sample j. */
static void fill_pose(planner *p, size_t g, size_t j, size_t swap, const float *trial)
{
    for (size_t t = 0; t < p->tracks; t++) {
        int32_t jt = p->track_joint[t];
        if (jt < 0)
            continue;
        float v[V_COUNT];
        track_values(p, g, t, j, swap, trial, v);
        rune_pose_set(&p->pose, (size_t)jt, rune_v3(v[V_TX], v[V_TY], v[V_TZ]),
                      rune_q(v[V_RX], v[V_RY], v[V_RZ], v[V_RW]), 1.0f);
        rune_pose_set_s(&p->pose, (size_t)jt, rune_v3(v[V_SX], v[V_SY], v[V_SZ]));
    }
}

/* The exact model matrices of segment g's samples; the current values
 * start exact but for constant channels (their stored constant). */
static void exact_segment(planner *p, size_t g)
{
    memset(p->cur, PACK_EXACT, p->subs);
    memset(p->base, 0, (p->joints + p->tracks) * sizeof(float));
    for (size_t j = 0; j < PACK_SEGMENT; j++) {
        size_t i = g * PACK_SEGMENT + j < p->samples ? g * PACK_SEGMENT + j : p->samples - 1;
        for (size_t t = 0; t < p->tracks; t++)
            memcpy(&p->now[(j * p->tracks + t) * V_COUNT], rune__compress_value(p, t, i), V_COUNT * sizeof(float));
        if (g * PACK_SEGMENT + j < p->samples && p->joints) {
            fill_pose(p, g, j, SIZE_MAX, NULL);
            rune_rig_model_matrices(p->rig, &p->pose, &p->exact[j * p->joints]);
        }
        for (size_t t = 0; t < p->tracks; t++) {
            const packed_track *k = &p->packed[t];
            float c[V_COUNT] = {k->r.x, k->r.y, k->r.z, k->r.w, k->t.x, k->t.y, k->t.z, k->s.x, k->s.y, k->s.z};
            for (int ch = 0; ch < PACK_CHANNELS; ch++)
                if (k->sub[ch] == PACK_CONSTANT)
                    memcpy(&p->now[(j * p->tracks + t) * V_COUNT + channel_first[ch]], c + channel_first[ch],
                           (ch == PACK_ROT ? 4 : 3) * sizeof(float));
        }
    }
}

/* Whether error slot k (a joint, or an unbound track past the joints)
 * can change when subtrack a does: its track's joint or a descendant of
 * it, or the unbound track itself. */
static bool affected(const planner *p, size_t a, size_t k)
{
    size_t t = p->sub[a].track;
    int32_t jt = p->track_joint[t];
    if (jt < 0 || k >= p->joints)
        return k == p->joints + t;
    for (int32_t j = (int32_t)k; j >= 0; j = rune_rig_parent(p->rig, (size_t)j))
        if (j == jt)
            return true;
    return false;
}

/* Worst error of every joint (p->err) over segment g at the current
 * widths, subtrack `swap` decoded as `trial` (then only the slots it
 * affects are measured, the others keep p->base, the errors at the
 * current widths); returns the worst of all. */
static float evaluate(planner *p, size_t g, size_t swap, const float *trial)
{
    size_t n = p->joints + p->tracks;
    uint8_t *live = p->live;
    for (size_t k = 0; k < n; k++) {
        live[k] = swap == SIZE_MAX || affected(p, swap, k);
        p->err[k] = live[k] ? 0.0f : p->base[k];
    }
    for (size_t j = 0; j < PACK_SEGMENT && g * PACK_SEGMENT + j < p->samples; j++) {
        if (p->joints) {
            fill_pose(p, g, j, swap, trial);
            rune_rig_model_matrices(p->rig, &p->pose, p->lossy);
            for (size_t k = 0; k < p->joints; k++) {
                if (!live[k])
                    continue;
                float e = vertex_error(p->exact[j * p->joints + k].m, p->lossy[k].m, p->shell);
                p->err[k] = e > p->err[k] || e != e ? e : p->err[k];
            }
        }
        for (size_t t = 0; t < p->tracks; t++) {
            if (p->track_joint[t] >= 0 || !live[p->joints + t])
                continue;
            float a[16], b[16], v[V_COUNT];
            local_matrix(rune__compress_value(p, t, g * PACK_SEGMENT + j), a);
            track_values(p, g, t, j, swap, trial, v);
            local_matrix(v, b);
            float e = vertex_error(a, b, p->shell);
            p->err[p->joints + t] = e > p->err[p->joints + t] || e != e ? e : p->err[p->joints + t];
        }
    }
    float worst = 0.0f;
    for (size_t k = 0; k < n; k++)
        worst = p->err[k] > worst || p->err[k] != p->err[k] ? p->err[k] : worst;
    if (swap == SIZE_MAX)
        memcpy(p->base, p->err, n * sizeof(float));
    return worst;
}

/* Makes decoded values d (PACK_SEGMENT samples of subtrack a) the
 * current ones. */
static void take_values(planner *p, size_t g, size_t a, const float *d)
{
    for (size_t j = 0; j < PACK_SEGMENT; j++)
        channel_values(p, g, a, &d[j * 3], &p->now[(j * p->tracks + p->sub[a].track) * V_COUNT]);
}

/* Sets subtrack a's level in the segment at hand (decoding it). */
static void set_level(planner *p, size_t g, size_t a, unsigned level)
{
    p->cur[a] = (uint8_t)level;
    float d[PACK_SEGMENT * 3];
    decode_at(p, g, a, level, d);
    take_values(p, g, a, d);
}

/* The subtracks on the chain of error slot k (a joint and its ancestors,
 * or an unbound track); returns how many were written to out. */
static size_t chain_subs(const planner *p, size_t k, uint32_t *out)
{
    size_t n = 0;
    if (k >= p->joints) {
        for (int ch = 0; ch < PACK_CHANNELS; ch++)
            if (p->packed[k - p->joints].sub[ch] != PACK_CONSTANT)
                out[n++] = p->packed[k - p->joints].sub[ch];
        return n;
    }
    for (int32_t j = (int32_t)k; j >= 0; j = rune_rig_parent(p->rig, (size_t)j)) {
        int32_t t = rune_binding_track_of(p->bind, j);
        for (int ch = 0; t >= 0 && ch < PACK_CHANNELS; ch++)
            if (p->packed[t].sub[ch] != PACK_CONSTANT)
                out[n++] = p->packed[t].sub[ch];
    }
    return n;
}

/* Chooses the widths of segment g (steps 1-3 of the file comment). */
/* What segment g's widths aim at: a little under the precision, by 1 %
 * and by 4 units in the last place of the largest coordinate the
 * segment's poses reach (the runtime's kernels compute the same matrices
 * in another order: on a rig 2 m tall in cm, a precision of 0.01 cm is
 * only about 60 such units). */
static float segment_target(const planner *p, size_t g)
{
    float most = 0.0f;
    for (size_t j = 0; j < PACK_SEGMENT && g * PACK_SEGMENT + j < p->samples; j++) {
        for (size_t k = 0; k < p->joints; k++)
            for (int c = 0; c < 3; c++) {
                float v = fabsf(p->exact[j * p->joints + k].m[12 + c]);
                most = v > most ? v : most;
            }
        for (size_t t = 0; t < p->tracks; t++)
            for (int c = 0; c < 3; c++) {
                float v = fabsf(rune__compress_value(p, t, g * PACK_SEGMENT + j)[V_TX + c]);
                most = p->track_joint[t] < 0 && v > most ? v : most;
            }
    }
    float ulps = p->precision - 4.0f * FLT_EPSILON * (most + p->shell);
    return ulps < 0.99f * p->precision ? ulps : 0.99f * p->precision;
}

static rune_status plan_segment(planner *p, size_t g, uint32_t *chain, rune_error *err)
{
    exact_segment(p, g);
    segment_ranges(p, g);
    p->target = segment_target(p, g);
    if (!(p->target > 0.0f))
        return rune_fail(err, RUNE_E_INVALID,
                         "clip \"%s\": samples %zu..%zu: the precision %g is below what float coordinates this "
                         "large can tell apart; ask for less, or keep the clip lossless",
                         rune_clip_describe(p->clip).id, g * PACK_SEGMENT, g * PACK_SEGMENT + PACK_SEGMENT - 1,
                         (double)p->precision);
    /* 1: each alone, within half the bound */
    for (size_t a = 0; a < p->subs; a++) {
        unsigned lo = 0, hi = PACK_MAX_BITS;
        while (lo < hi) {
            unsigned mid = (lo + hi) / 2;
            decode_at(p, g, a, mid, p->trial);
            if (evaluate(p, g, a, p->trial) <= 0.5f * p->target)
                hi = mid;
            else
                lo = mid + 1;
        }
        p->level[g * p->subs + a] = (uint8_t)lo;
    }
    for (size_t a = 0; a < p->subs; a++)
        set_level(p, g, a, p->level[g * p->subs + a]);
    /* 2: together */
    float worst = evaluate(p, g, SIZE_MAX, NULL);
    while (worst > p->target) {
        size_t k = 0;
        for (size_t s = 1; s < p->joints + p->tracks; s++)
            k = p->err[s] > p->err[k] ? s : k;
        size_t n = chain_subs(p, k, chain);
        size_t best = SIZE_MAX;
        float best_err = INFINITY;
        for (size_t c = 0; c < n; c++) {
            uint32_t a = chain[c];
            if (p->cur[a] >= PACK_MAX_BITS)
                continue;
            decode_at(p, g, a, p->cur[a] + 1u, p->trial);
            float e = evaluate(p, g, a, p->trial);
            if (e < best_err)
                best_err = e, best = a;
        }
        if (best == SIZE_MAX)
            return rune_fail(err, RUNE_E_INVALID,
                             "clip \"%s\": samples %zu..%zu: even %d bits a value miss the precision %g (the worst "
                             "error is %g): ask for less, or keep the clip lossless",
                             rune_clip_describe(p->clip).id, g * PACK_SEGMENT, g * PACK_SEGMENT + PACK_SEGMENT - 1,
                             PACK_MAX_BITS, (double)p->precision, (double)worst);
        set_level(p, g, best, p->cur[best] + 1u);
        worst = evaluate(p, g, SIZE_MAX, NULL);
    }
    /* 3: fewer bits where the bound still holds, widest first */
    uint32_t *order = chain + p->subs; /* chain has room for both */
    for (size_t a = 0; a < p->subs; a++)
        order[a] = (uint32_t)a;
    for (size_t a = 1; a < p->subs; a++) /* insertion sort by width, widest first */
        for (size_t b = a; b > 0 && p->cur[order[b]] > p->cur[order[b - 1]]; b--) {
            uint32_t x = order[b];
            order[b] = order[b - 1], order[b - 1] = x;
        }
    for (size_t o = 0; o < p->subs; o++) {
        uint32_t a = order[o];
        while (p->cur[a] > 0) {
            decode_at(p, g, a, p->cur[a] - 1u, p->trial);
            if (evaluate(p, g, a, p->trial) > p->target)
                break;
            set_level(p, g, a, p->cur[a] - 1u);
            memcpy(p->base, p->err, (p->joints + p->tracks) * sizeof(float)); /* the trial is now the state */
        }
    }
    /* 4: then each component alone, where a bit less still holds */
    for (size_t o = 0; o < p->subs; o++) {
        uint32_t a = order[o];
        unsigned w[3];
        level_widths(p, g, a, p->cur[a], w);
        for (unsigned c = 0; c < 3; c++)
            while (w[c] > 0) {
                w[c]--;
                decode_widths(p, g, a, w, p->trial);
                if (evaluate(p, g, a, p->trial) > p->target) {
                    w[c]++;
                    break;
                }
                take_values(p, g, a, p->trial);
                memcpy(p->base, p->err, (p->joints + p->tracks) * sizeof(float));
            }
        for (unsigned c = 0; c < 3; c++)
            p->cw[a * 3 + c] = (uint8_t)w[c];
    }
    for (size_t a = 0; a < p->subs; a++) {
        size_t x = g * p->subs + a;
        unsigned w[3] = {p->cw[a * 3], p->cw[a * 3 + 1], p->cw[a * 3 + 2]};
        p->level[x] = p->cur[a];
        range_bytes(p, g, a, w, &p->lo[x * 3], &p->hi[x * 3]);
        for (unsigned c = 0; c < 3; c++)
            p->width[x * 3 + c] = PACK_WIDTH_BYTE(w[c], c == 0 && p->sub[a].ch == PACK_ROT ? p->drop[x] : 0u);
    }
    worst = evaluate(p, g, SIZE_MAX, NULL);
    if (!(worst <= p->target)) /* NaN: a pose too large to measure (translations near 1e18) */
        return rune_fail(err, RUNE_E_INVALID,
                         "clip \"%s\": samples %zu..%zu: the error cannot be measured (the pose overflows); keep "
                         "the clip lossless",
                         rune_clip_describe(p->clip).id, g * PACK_SEGMENT, g * PACK_SEGMENT + PACK_SEGMENT - 1);
    p->max_error = worst > p->max_error ? worst : p->max_error;
    return RUNE_OK;
}

/* Writes integer q of `bits` at bit `at` of a zeroed buffer (the order
 * pack_read reads: least significant bit first). */
static void put_bits(uint8_t *buf, size_t at, unsigned bits, uint32_t q)
{
    for (unsigned b = 0; b < bits; b++, at++)
        if ((q >> b) & 1u)
            buf[at >> 3] |= (uint8_t)(1u << (at & 7u));
}

/* The sample data of every segment at the planned widths. */
static void encode(const planner *p, uint8_t *data)
{
    size_t at = 0;
    for (size_t g = 0; g < p->segments; g++)
        for (size_t a = 0; a < p->subs; a++) {
            size_t x = g * p->subs + a;
            const uint8_t *w = &p->width[x * 3];
            size_t bit = 0;
            for (size_t j = 0; j < PACK_SEGMENT; j++) {
                size_t i = g * PACK_SEGMENT + j < p->samples ? g * PACK_SEGMENT + j : p->samples - 1;
                for (unsigned c = 0; c < 3; c++) {
                    unsigned width = PACK_WIDTH(w[c]);
                    put_bits(data + at, bit, width, quantized(p, g, a, i, c, width, &p->lo[x * 3], &p->hi[x * 3], NULL));
                    bit += width;
                }
            }
            at += PACK_SUB_BYTES(&p->width[x * 3]);
        }
}

/* Every array is allocated with one element more than it holds (never
 * a zero-sized request) and freed the same way. */
static void planner_free(planner *p)
{
    rune_allocator *a = &p->alloc;
    rune__free(a, p->val, p->tracks * p->samples * V_COUNT + 1, sizeof(float));
    rune__free(a, p->packed, p->tracks + 1, sizeof *p->packed);
    rune__free(a, p->track_joint, p->tracks + 1, sizeof *p->track_joint);
    rune__free(a, p->sub, p->subs + 1, sizeof *p->sub);
    rune__free(a, p->range, p->subs * PACK_RANGE + 1, sizeof(float));
    rune__free(a, p->drop, p->segments * p->subs + 1, 1);
    rune__free(a, p->exact, PACK_SEGMENT * p->joints + 1, sizeof *p->exact);
    rune__free(a, p->lossy, p->joints + 1, sizeof *p->lossy);
    rune__free(a, p->now, PACK_SEGMENT * p->tracks * V_COUNT + 1, sizeof(float));
    rune__free(a, p->trial, PACK_SEGMENT * 3, sizeof(float));
    rune__free(a, p->err, p->joints + p->tracks + 1, sizeof(float));
    rune__free(a, p->base, p->joints + p->tracks + 1, sizeof(float));
    rune__free(a, p->live, p->joints + p->tracks + 1, 1);
    rune__free(a, p->width, p->segments * p->subs * 3 + 1, 1);
    rune__free(a, p->level, p->segments * p->subs + 1, 1);
    rune__free(a, p->lo, p->segments * p->subs * 3 + 1, 1);
    rune__free(a, p->hi, p->segments * p->subs * 3 + 1, 1);
    rune__free(a, p->cur, p->subs + 1, 1);
    rune__free(a, p->cw, p->subs * 3 + 1, 1);
    rune__free(a, p->smin, p->subs * 3 + 1, sizeof(float));
    rune__free(a, p->smax, p->subs * 3 + 1, sizeof(float));
    if (p->pose.block)
        rune_pose_release(&p->pose);
    rune_binding_destroy(p->bind);
}

/* The settings with defaults filled in from a height: the rig's at rest,
 * or where its rest pose is flat (rigs whose clips hold the whole
 * placement), the box the clip's joints sweep. */
static rune_status resolve_settings(planner *p, const rune_compress_settings *s, float *precision, rune_error *err)
{
    if (s && (!(s->precision >= 0.0f) || !(s->shell >= 0.0f) || !isfinite(s->precision) || !isfinite(s->shell) ||
              !(s->curve_precision >= 0.0f) || !isfinite(s->curve_precision)))
        return rune_fail(err, RUNE_E_INVALID,
                         "compression: precision, shell and curve precision must be finite and positive");
    float h = p->rig ? rune_rig_height(p->rig) : 0.0f;
    if (p->tracks == 0) /* curves alone (a morph animation): no joint to measure */
        h = 1.0f;
    if (!(h > 0.0f) && p->bind) { /* the box the clip's joints sweep */
        float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (size_t i = 0; i < p->samples; i++) {
            rune_binding_sample(p->bind, p->t0 + (float)i * p->dt, &p->pose);
            rune__rig_grow_box(p->rig, &p->pose, p->lossy, lo, hi);
        }
        h = rune__rig_box_height(lo, hi);
    }
    *precision = s && s->precision > 0.0f ? s->precision : h / 18000.0f;
    p->shell = s && s->shell > 0.0f ? s->shell : h / 60.0f;
    if (!(*precision > 0.0f) || !(p->shell > 0.0f))
        return rune_fail(err, RUNE_E_INVALID,
                         "compression: neither the rig nor the clip has an extent to derive a precision and shell "
                         "from; give both");
    return RUNE_OK;
}

rune_status rune_clip_compress(const rune_clip *clip, const rune_rig *rig, const rune_compress_settings *settings,
                               const rune_allocator *alloc, rune_clip **out, rune_error *err)
{
    RUNE_REQUIRE(err, clip, "clip");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    planner p = {0};
    p.alloc = *rune__alloc_or_default(alloc);
    p.clip = clip;
    p.rig = rig;
    p.tracks = rune_clip_describe(clip).track_count;
    p.joints = rig ? rune_rig_joint_count(rig) : 0;
    rune_status st = rune__compress_find_grid(&p, err);
    if (st)
        return st;
    float precision = 0.0f;
    rune_allocator *a = &p.alloc;
    p.segments = (p.samples + PACK_SEGMENT - 1) / PACK_SEGMENT;
    if (p.tracks > SIZE_MAX / V_COUNT / p.samples / sizeof(float))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory compressing clip \"%s\"", rune_clip_describe(clip).id);
    p.val = rune__calloc(a, p.tracks * p.samples * V_COUNT + 1, sizeof(float));
    p.packed = rune__calloc(a, p.tracks + 1, sizeof *p.packed);
    p.track_joint = rune__calloc(a, p.tracks + 1, sizeof *p.track_joint);
    if (!p.val || !p.packed || !p.track_joint) {
        planner_free(&p);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory compressing clip \"%s\"", rune_clip_describe(clip).id);
    }
    rune__compress_sample_exact(&p);
    p.subs = rune__compress_classify(&p, false);
    p.sub = rune__calloc(a, p.subs + 1, sizeof *p.sub);
    p.range = rune__calloc(a, p.subs * PACK_RANGE + 1, sizeof(float));
    p.drop = rune__calloc(a, p.segments * p.subs + 1, 1);
    p.exact = rune__calloc(a, PACK_SEGMENT * p.joints + 1, sizeof *p.exact);
    p.lossy = rune__calloc(a, p.joints + 1, sizeof *p.lossy);
    p.now = rune__calloc(a, PACK_SEGMENT * p.tracks * V_COUNT + 1, sizeof(float));
    p.trial = rune__calloc(a, PACK_SEGMENT * 3, sizeof(float));
    p.err = rune__calloc(a, p.joints + p.tracks + 1, sizeof(float));
    p.base = rune__calloc(a, p.joints + p.tracks + 1, sizeof(float));
    p.live = rune__calloc(a, p.joints + p.tracks + 1, 1);
    p.width = rune__calloc(a, p.segments * p.subs * 3 + 1, 1);
    p.level = rune__calloc(a, p.segments * p.subs + 1, 1);
    p.lo = rune__calloc(a, p.segments * p.subs * 3 + 1, 1);
    p.hi = rune__calloc(a, p.segments * p.subs * 3 + 1, 1);
    p.cur = rune__calloc(a, p.subs + 1, 1);
    p.cw = rune__calloc(a, p.subs * 3 + 1, 1);
    p.smin = rune__calloc(a, p.subs * 3 + 1, sizeof(float));
    p.smax = rune__calloc(a, p.subs * 3 + 1, sizeof(float));
    uint32_t *chain = rune__calloc(a, 2 * p.subs + 1, sizeof *chain);
    bool ok = p.sub && p.range && p.drop && p.exact && p.lossy && p.now && p.trial && p.err && p.base && p.live && p.width && p.level && p.lo && p.hi &&
              p.cur && p.cw && p.smin && p.smax && chain;
    if (ok && p.joints) {
        st = rune_pose_init(&p.pose, p.joints, a, err);
        if (!st)
            st = rune_binding_create(rig, clip, 0, a, &p.bind, err);
    }
    if (!ok && !st)
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory compressing clip \"%s\"", rune_clip_describe(clip).id);
    if (!st)
        st = resolve_settings(&p, settings, &precision, err);
    p.precision = precision; /* (each segment aims a little under it: segment_target) */
    if (!st) {
        rune__compress_classify(&p, true);
        rune__compress_choose_ranges(&p);
        for (size_t t = 0; t < p.tracks; t++)
            p.track_joint[t] = p.bind ? rune_binding_joint(p.bind, t) : -1;
        for (size_t g = 0; !st && g < p.segments; g++)
            st = plan_segment(&p, g, chain, err);
    }
    size_t data_bytes = 0;
    for (size_t i = 0; !st && i < p.segments * p.subs; i++)
        data_bytes += PACK_SUB_BYTES(&p.width[i * 3]);
    if (!st && data_bytes > PACK_MAX_DATA)
        st = rune_fail(err, RUNE_E_INVALID, "clip \"%s\": %zu bytes compressed, more than a clip may hold (%zu)",
                       rune_clip_describe(clip).id, data_bytes, PACK_MAX_DATA);
    uint8_t *data = st ? NULL : rune__calloc(a, data_bytes + PACK_DATA_PAD, 1);
    if (!st && !data)
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory compressing clip \"%s\"", rune_clip_describe(clip).id);
    if (!st) {
        encode(&p, data);
        size_t n = p.tracks, m = rune_clip_describe(clip).marker_count;
        const char **names = rune__calloc(a, 2 * n + 1, sizeof *names);
        rune_marker_desc *marks = rune__calloc(a, m + 1, sizeof *marks);
        if (!names || !marks) {
            st = rune_fail(err, RUNE_E_NOMEM, "out of memory compressing clip \"%s\"", rune_clip_describe(clip).id);
        } else {
            for (size_t t = 0; t < n; t++)
                names[t] = rune_clip_track(clip, t).parent, names[n + t] = rune_clip_track(clip, t).part;
            const rune_marker *mk = rune_clip_describe(clip).markers;
            for (size_t i = 0; i < m; i++)
                marks[i] = (rune_marker_desc){mk[i].time, mk[i].name, mk[i].value};
            clip_curve_key *curves = NULL;
            clip_curve_set set;
            float curve_precision = settings && settings->curve_precision > 0.0f ? settings->curve_precision
                                                                                 : RUNE_CURVE_PRECISION;
            st = rune__compress_curves(clip, curve_precision, a, &curves, &set, err);
            pack_parts parts = {rune_clip_describe(clip).id, rune_clip_describe(clip).revision, rune_clip_describe(clip).loops,
                                rune_clip_describe(clip).priority, rune_clip_describe(clip).length, n, names, names + n, p.packed, m,
                                marks, (uint32_t)p.samples, (uint32_t)p.subs, p.t0, p.dt, precision, p.shell,
                                p.max_error, p.range, p.width, p.lo, p.hi, data, set};
            if (!st)
                st = rune__clip_assemble(&parts, alloc, out, err);
            rune__free(a, curves, rune_clip_describe(clip).curve_key_count, sizeof *curves);
        }
        rune__free(a, names, 2 * n + 1, sizeof *names);
        rune__free(a, marks, m + 1, sizeof *marks);
    }
    rune__free(a, data, data_bytes + PACK_DATA_PAD, 1);
    rune__free(a, chain, 2 * p.subs + 1, sizeof *chain);
    planner_free(&p);
    return st;
}
