/* The batch sampler of packed clips: the plan a lane map shares among its
 * plays, the per-play cursor and the choice of kernel.
 *
 * A sample builds the decoding tables of the segments it reads (where
 * each entry's bits start, their widths, the dequantization) on the
 * stack, one group of entries at a time, then fetches and interpolates:
 * a play keeps no tables, so a crowd of plays costs what its clips and
 * plans do (issue 28: a play took ~26 KB of tables on a 64-joint rig).
 * No key is ever decompressed into memory. */
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

size_t rune__pack_plan_bytes(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks)
{
    size_t padded = kernel_lanes(lanes ? lanes : 1), room = entry_room(p, lane_track, lanes, tracks);
    size_t groups = (padded / RUNE_SAMPLE_CHUNK + 1) * channels_of(p) + 1;
    return align16(sizeof(pack_plan)) + (PACK_FIXED * padded + (3 + PACK_RANGE) * room + groups) * sizeof(uint32_t);
}

const pack_plan *rune__pack_plan_init(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks,
                                      void *memory)
{
    size_t padded = kernel_lanes(lanes ? lanes : 1), room = entry_room(p, lane_track, lanes, tracks);
    pack_plan *c = memory;
    memset(c, 0, sizeof *c);
    c->p = p;
    c->channels = (int)channels_of(p);
    uint32_t *m = (uint32_t *)((char *)memory + align16(sizeof(pack_plan)));
    for (int k = 0; k < PACK_FIXED; k++)
        c->fixed[k] = (float *)m, m += padded;
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
    return c;
}

size_t rune__pack_cursor_bytes(const clip_packed *p)
{
    return p->subtracks > PACK_STACK_SUBTRACKS ? 2 * (size_t)p->subtracks * sizeof(uint32_t) : 0;
}

/* The kernel builds of an instruction set. */
#define KERNELS(isa)                                                                                                  \
    (pack_kernels) {                                                                                                  \
        rune__pack_segment_bits_##isa, rune__pack_load_##isa, rune__pack_copy_##isa, rune__pack_kernel_##isa          \
    }

static pack_kernels kernels_for(rune_simd_level level) { KERNEL_PICK(level, KERNELS) }

void rune__pack_cursor_init(pack_cursor *c, const pack_plan *plan, rune_simd_level level, void *memory)
{
    c->plan = plan;
    c->kernels = kernels_for(level);
    c->sub_bit = rune__pack_cursor_bytes(plan->p) ? memory : NULL;
}

/* Where each subtrack's bits start in segment g. */
static void segment_bits(const pack_cursor *c, uint32_t g, uint32_t *bits)
{
    const clip_packed *p = c->plan->p;
    c->kernels.bits(&p->width[(size_t)g * p->subtracks * 3], p->seg_start[g] * 8u, p->subtracks, bits);
}

/* Decoding tables of one group of entries: at most a chunk's lanes, and
 * the slack the kernels write past them. */
#define GROUP_ROOM (RUNE_SAMPLE_CHUNK + PACK_ENTRY_SLACK)
typedef struct group_tables {
    uint32_t addr[3][GROUP_ROOM], mask[3][GROUP_ROOM], stride[GROUP_ROOM], dropped[GROUP_ROOM];
    float base[3][GROUP_ROOM], scale[3][GROUP_ROOM];
} group_tables;

static pack_entries entries_in(group_tables *t)
{
    return (pack_entries){{t->addr[0], t->addr[1], t->addr[2]}, {t->mask[0], t->mask[1], t->mask[2]}, t->stride,
                          t->dropped, {t->base[0], t->base[1], t->base[2]}, {t->scale[0], t->scale[1], t->scale[2]}};
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
    uint32_t g0 = i0 / PACK_SEGMENT, g1 = i1 / PACK_SEGMENT;
    /* on a sample exactly the second sample is not read */
    bool two = g1 != g0 && u != 0.0f;
    uint32_t stack_bits[2][PACK_STACK_SUBTRACKS];
    uint32_t *bits[2] = {c->sub_bit ? c->sub_bit : stack_bits[0],
                         c->sub_bit ? c->sub_bit + p->subtracks : stack_bits[1]};
    segment_bits(c, g0, bits[0]);
    if (two)
        segment_bits(c, g1, bits[1]);
    group_tables ta, tb; /* 2 x 4.4 KB */
    pack_entries a = entries_in(&ta), b = entries_in(&tb);
    for (int ch = 0; ch < plan->channels; ch++, g++) {
        uint32_t e0 = plan->group[g], e1 = plan->group[g + 1];
        if (e0 == e1)
            continue;
        pack_plan v = *plan; /* this group's entries */
        v.lane += e0, v.sub += e0, v.rotation += e0, v.entries = e1 - e0;
        for (int k = 0; k < PACK_RANGE; k++)
            v.range[k] += e0;
        c->kernels.load(&v, bits[0], &a, g0);
        if (two)
            c->kernels.load(&v, bits[1], &b, g1);
        c->kernels.sample(p->data, &a, two ? &b : &a, i0 % PACK_SEGMENT, i1 % PACK_SEGMENT, u, ch, 0, v.entries,
                          v.lane, first, o);
    }
    return p->scaled;
}
