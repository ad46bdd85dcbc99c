/* The batch sampler of packed clips: the plan a lane map shares among its
 * plays, the per-play cursor and the choice of kernel.
 *
 * The plan holds every segment's decoding tables of its entries (where
 * each entry's bits start, their widths, the dequantization), built once
 * when a clip is bound: a sample reads its segments' tables and the data,
 * and a play keeps nothing but its cursor (tables kept per play would be
 * ~26 KB on a 64-joint rig; tables rebuilt at each sample from the clip's
 * width and range bytes, a quarter of a compressed crowd's frame). No key
 * is ever decompressed into memory. */
#include "packed_sampler.h"

#include <math.h>
#include <string.h>

static size_t channels_of(const clip_packed *p) { return p->scaled ? 3 : 2; }

/* Lane i's values where its channels are constant: the track's own
 * (rotations as stored: exact), identity for a lane without a track. */
static void fixed_lane(pack_plan *c, size_t i, const packed_track *t)
{
    float v[PACK_FIXED] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1};
    if (t) {
        float w[PACK_FIXED] = {t->r.x,  t->r.y, t->r.z, t->r.w, t->t.x, t->t.y, t->t.z,
                               t->weight, t->mask, rune_clamp01(t->weight * (1.0f - t->mask)),
                               t->s.x,  t->s.y, t->s.z};
        memcpy(v, w, sizeof v);
    }
    for (int k = 0; k < PACK_FIXED; k++)
        c->fixed[k][i] = v[k];
}

/* The track of lane i, or NULL. */
static const packed_track *lane_track_of(const clip_packed *p, const int32_t *lane_track, size_t lanes,
                                         size_t tracks, size_t i)
{
    int32_t k = i >= lanes ? -1 : (lane_track ? lane_track[i] : (int32_t)i);
    return k >= 0 && (size_t)k < tracks ? &p->tracks[k] : NULL;
}

/* Entries: the lanes' animated channels. */
static size_t entry_count(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks)
{
    size_t live = 0;
    for (size_t i = 0; i < lanes; i++) {
        const packed_track *t = lane_track_of(p, lane_track, lanes, tracks, i);
        for (int ch = 0; t && ch < (int)channels_of(p); ch++)
            live += t->sub[ch] != PACK_CONSTANT;
    }
    return live;
}

/* A plan's parts, in the order its memory holds them (after the plan). */
typedef struct plan_layout {
    size_t padded, entries, groups, tables; /* tables: uint32_t words */
} plan_layout;

static bool plan_layout_of(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks,
                           plan_layout *l)
{
    l->padded = kernel_lanes(lanes ? lanes : 1);
    l->entries = entry_count(p, lane_track, lanes, tracks);
    l->groups = (l->padded / RUNE_SAMPLE_CHUNK + 1) * channels_of(p) + 1;
    size_t per_segment = PACK_TABLES * l->entries;
    if (per_segment && p->segments > (SIZE_MAX / sizeof(uint32_t) / 2) / per_segment)
        return false; /* more than memory holds */
    l->tables = per_segment * p->segments;
    return true;
}

/* Words of a plan after the plan: the fixed values, lanes, subtracks (of
 * the entries) and groups, the subtracks' bit addresses of one segment
 * (scratch of plan_init), then the tables. */
static size_t plan_words(const clip_packed *p, const plan_layout *l)
{
    size_t head = PACK_FIXED * l->padded + 2 * l->entries + l->groups + p->subtracks;
    return (head + 3) & ~(size_t)3; /* the tables 16-byte aligned */
}

size_t rune__pack_plan_bytes(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks)
{
    plan_layout l;
    if (!plan_layout_of(p, lane_track, lanes, tracks, &l))
        return SIZE_MAX; /* no allocation succeeds */
    return align16(sizeof(pack_plan)) + (plan_words(p, &l) + l.tables) * sizeof(uint32_t);
}

/* Entry e's tables in segment g: where its bits start (the subtracks'
 * addresses of g in bits[]), its layout and dequantization, computed as
 * the single-track decoder does (clip_pack.c) but with scale = extent /
 * (2^width - 1) folded once. */
static void entry_tables(const clip_packed *p, uint32_t g, uint32_t a, const uint32_t *bits, uint32_t *table,
                         size_t row, size_t e)
{
    size_t at = ((size_t)g * p->subtracks + a) * 3;
    const uint8_t *w = &p->width[at], *lo = &p->lo[at], *hi = &p->hi[at];
    const float *r = &p->range[(size_t)a * PACK_RANGE];
    bool rotation = p->channel[a] == PACK_ROT;
    table[e] = bits[a];
    table[row + e] = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | pack_sample_bits(w) << 24;
    for (unsigned m = 0; m < 3; m++) {
        unsigned k = pack_range_index(rotation, w, m);
        float base, ext;
        pack_segment_range(r[k], r[4 + k], lo[m], hi[m], &base, &ext);
        float scale = ext * pack_inv_q(PACK_WIDTH(w[m]));
        memcpy(&table[(2 + m) * row + e], &base, sizeof base);
        memcpy(&table[(5 + m) * row + e], &scale, sizeof scale);
    }
}

const pack_plan *rune__pack_plan_init(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks,
                                      void *memory)
{
    plan_layout l;
    plan_layout_of(p, lane_track, lanes, tracks, &l);
    pack_plan *c = memory;
    memset(c, 0, sizeof *c);
    c->p = p;
    c->channels = (int)channels_of(p);
    uint32_t *m = (uint32_t *)((char *)memory + align16(sizeof(pack_plan)));
    c->table = m + plan_words(p, &l);
    for (int k = 0; k < PACK_FIXED; k++)
        c->fixed[k] = (float *)m, m += l.padded;
    c->lane = m, m += l.entries;
    uint32_t *sub = m;
    m += l.entries;
    c->group = m, m += l.groups;
    uint32_t *bits = m;
    for (size_t i = 0; i < l.padded; i++)
        fixed_lane(c, i, lane_track_of(p, lane_track, lanes, tracks, i));
    size_t g = 0;
    for (size_t first = 0; first < l.padded; first += RUNE_SAMPLE_CHUNK)
        for (int ch = 0; ch < c->channels; ch++) {
            c->group[g++] = (uint32_t)c->entries;
            for (size_t i = first; i < first + RUNE_SAMPLE_CHUNK && i < l.padded; i++) {
                const packed_track *t = lane_track_of(p, lane_track, lanes, tracks, i);
                if (t && t->sub[ch] != PACK_CONSTANT) {
                    c->lane[c->entries] = (uint32_t)i, sub[c->entries] = t->sub[ch];
                    c->entries++;
                }
            }
        }
    c->group[g] = (uint32_t)c->entries;
    for (uint32_t s = 0; c->entries && s < p->segments; s++) {
        uint32_t bit = p->seg_start[s] * 8u;
        for (uint32_t a = 0; a < p->subtracks; a++) {
            bits[a] = bit;
            bit += 8u * PACK_SUB_BYTES(&p->width[((size_t)s * p->subtracks + a) * 3]);
        }
        uint32_t *table = c->table + (size_t)s * PACK_TABLES * c->entries;
        for (size_t e = 0; e < c->entries; e++)
            entry_tables(p, s, sub[e], bits, table, c->entries, e);
    }
    return c;
}

/* The kernel builds of an instruction set. */
#define KERNELS(isa)                                                                                                  \
    (pack_kernels) { rune__pack_copy_##isa, rune__pack_kernel_##isa }

static pack_kernels kernels_for(rune_simd_level level) { KERNEL_PICK(level, KERNELS) }

void rune__pack_cursor_init(pack_cursor *c, const pack_plan *plan, rune_simd_level level)
{
    c->plan = plan;
    c->kernels = kernels_for(level);
}

/* Segment g's tables. */
static pack_entries segment_tables(const pack_plan *plan, uint32_t g)
{
    size_t r = plan->entries;
    const uint32_t *t = plan->table + (size_t)g * PACK_TABLES * r;
    const float *f = (const float *)(const void *)t;
    return (pack_entries){t, t + r, {f + 2 * r, f + 3 * r, f + 4 * r}, {f + 5 * r, f + 6 * r, f + 7 * r}};
}

bool rune__packed_sample_to(const pack_cursor *c, size_t first, size_t n, float t, const sample_dest *o)
{
    const pack_plan *plan = c->plan;
    const clip_packed *p = plan->p;
    /* the constant channels first (scale only for a clip with scale) */
    float *const out[PACK_FIXED] = {o->qx,     o->qy,   o->qz,       o->qw, o->x,  o->y, o->z,
                                    o->weight, o->mask, o->coverage, o->sx, o->sy, o->sz};
    const float *src[PACK_FIXED];
    for (int k = 0; k < PACK_FIXED; k++)
        src[k] = plan->fixed[k] + first;
    c->kernels.copy(src, out, p->scaled ? PACK_FIXED : PACK_FIXED - 3, n);
    size_t g = first / RUNE_SAMPLE_CHUNK * (size_t)plan->channels;
    if (plan->group[g] == plan->group[g + (size_t)plan->channels])
        return p->scaled; /* nothing animated in this chunk */
    uint32_t i0, i1;
    float u;
    pack_locate(p, t, &i0, &i1, &u);
    pack_entries a = segment_tables(plan, i0 / PACK_SEGMENT), b = segment_tables(plan, i1 / PACK_SEGMENT);
    for (int ch = 0; ch < plan->channels; ch++, g++)
        if (plan->group[g] != plan->group[g + 1])
            c->kernels.sample(p->data, &a, &b, i0 % PACK_SEGMENT, i1 % PACK_SEGMENT, u, ch, plan->group[g],
                              plan->group[g + 1], plan->lane, first, o);
    return p->scaled;
}
