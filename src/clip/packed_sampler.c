/* The batch sampler of packed clips: the per-play cursor and the choice
 * of kernel.
 *
 * Like the key cursors of sample_cache.c, the cursor keeps what playback
 * reuses: for the (at most two) segments the last sample touched, every
 * lane's decoding tables (where its bits start, their widths, the
 * dequantization), so a frame inside a segment only fetches and
 * interpolates, playback rebuilds the tables once per 16 samples and
 * random access once per jump. No key is ever decompressed into it. */
#include "packed_sampler.h"

#include <math.h>
#include <string.h>

static size_t channels_of(const clip_packed *p) { return p->scaled ? 3 : 2; }

/* Lane i's values where its channels are constant: the track's own
 * (rotations as stored: exact), identity for a lane without a track. */
static void fixed_lane(pack_cursor *c, size_t i, const packed_track *t)
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

/* Entry room: the lanes' animated channels, and the kernels' slack. */
static size_t entry_room(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks)
{
    size_t live = 0;
    for (size_t i = 0; i < lanes; i++) {
        const packed_track *t = lane_track_of(p, lane_track, lanes, tracks, i);
        for (int ch = 0; t && ch < (int)channels_of(p); ch++)
            live += t->sub[ch] != PACK_CONSTANT;
    }
    return live + PACK_ENTRY_SLACK;
}

size_t rune__pack_cursor_bytes(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks)
{
    size_t padded = kernel_lanes(lanes ? lanes : 1), room = entry_room(p, lane_track, lanes, tracks);
    size_t groups = (padded / RUNE_SAMPLE_CHUNK + 1) * channels_of(p) + 1;
    return (2 * PACK_ENTRY_FIELDS * room + PACK_FIXED * padded + p->subtracks + (3 + PACK_RANGE) * room + groups) *
           sizeof(uint32_t);
}

/* The kernel builds of an instruction set. */
#define KERNELS(isa)                                                                                                  \
    (pack_kernels) { rune__pack_load_##isa, rune__pack_copy_##isa, rune__pack_kernel_##isa }

static pack_kernels kernels_for(rune_simd_level level) { KERNEL_PICK(level, KERNELS) }

void rune__pack_cursor_init(pack_cursor *c, const clip_packed *p, const int32_t *lane_track, size_t lanes,
                            size_t tracks, rune_simd_level level, void *memory)
{
    size_t padded = kernel_lanes(lanes ? lanes : 1), room = entry_room(p, lane_track, lanes, tracks);
    memset(c, 0, sizeof *c);
    c->p = p, c->lanes = lanes, c->padded = padded;
    c->channels = (int)channels_of(p);
    c->kernels = kernels_for(level);
    rune__pack_cursor_reset(c);
    uint32_t *m = memory;
    for (int s = 0; s < 2; s++) {
        pack_entries *x = &c->slot[s];
        for (int k = 0; k < 3; k++) {
            x->addr[k] = m, m += room;
            x->mask[k] = m, m += room;
            x->base[k] = (float *)m, m += room;
            x->scale[k] = (float *)m, m += room;
        }
        x->stride = m, m += room;
        x->dropped = m, m += room;
    }
    for (int k = 0; k < PACK_FIXED; k++)
        c->fixed[k] = (float *)m, m += padded;
    c->sub_bit = m, m += p->subtracks;
    c->lane = m, m += room;
    c->sub = m, m += room;
    c->rotation = m, m += room;
    for (int k = 0; k < PACK_RANGE; k++)
        c->range[k] = (float *)m, m += room;
    c->group = m;
    for (size_t i = 0; i < padded; i++)
        fixed_lane(c, i, lane_track_of(p, lane_track, lanes, tracks, i));
    size_t g = 0;
    for (size_t first = 0; first < padded; first += RUNE_SAMPLE_CHUNK)
        for (int ch = 0; ch < c->channels; ch++) {
            c->group[g++] = (uint32_t)c->entries;
            for (size_t i = first; i < first + RUNE_SAMPLE_CHUNK && i < padded; i++) {
                const packed_track *t = lane_track_of(p, lane_track, lanes, tracks, i);
                if (t && t->sub[ch] != PACK_CONSTANT) {
                    c->lane[c->entries] = (uint32_t)i, c->sub[c->entries] = t->sub[ch];
                    c->rotation[c->entries] = ch == PACK_ROT;
                    for (int k = 0; k < PACK_RANGE; k++)
                        c->range[k][c->entries] = p->range[(size_t)t->sub[ch] * PACK_RANGE + (size_t)k];
                    c->entries++;
                }
            }
        }
    c->group[g] = (uint32_t)c->entries;
}

void rune__pack_cursor_reset(pack_cursor *c) { c->seg[0] = c->seg[1] = UINT32_MAX; }

/* The slot holding segment g, loading it (into the slot not holding
 * `keep`) when neither does. */
static const pack_entries *slot_for(pack_cursor *c, uint32_t g, uint32_t keep)
{
    for (int s = 0; s < 2; s++)
        if (c->seg[s] == g)
            return &c->slot[s];
    int s = c->seg[0] == keep ? 1 : 0;
    c->kernels.load(c, &c->slot[s], g);
    c->seg[s] = g;
    return &c->slot[s];
}

bool rune__packed_sample_to(pack_cursor *c, size_t first, size_t n, float t, const sample_dest *o)
{
    const clip_packed *p = c->p;
    /* the constant channels first (scale only for a clip with scale) */
    float *const out[PACK_FIXED] = {o->qx,     o->qy,   o->qz,       o->qw, o->x,  o->y, o->z,
                                    o->weight, o->mask, o->coverage, o->sx, o->sy, o->sz};
    const float *src[PACK_FIXED];
    for (int k = 0; k < PACK_FIXED; k++)
        src[k] = c->fixed[k] + first;
    c->kernels.copy(src, out, p->scaled ? PACK_FIXED : PACK_FIXED - 3, n);
    uint32_t i0, i1;
    float u;
    pack_locate(p, t, &i0, &i1, &u);
    uint32_t g0 = i0 / PACK_SEGMENT, g1 = i1 / PACK_SEGMENT;
    const pack_entries *a = slot_for(c, g0, g1);
    const pack_entries *b = slot_for(c, g1, g0);
    size_t g = first / RUNE_SAMPLE_CHUNK * (size_t)c->channels;
    for (int ch = 0; ch < c->channels; ch++, g++)
        if (c->group[g] < c->group[g + 1])
            c->kernels.sample(p->data, a, b, i0 % PACK_SEGMENT, i1 % PACK_SEGMENT, u, ch, c->group[g],
                              c->group[g + 1], c->lane, first, o);
    return p->scaled;
}
