/* The batch sampler of packed clips, for the sample cache: a per-play
 * cursor and the kernel that decodes and interpolates the animated
 * channels of a chunk of lanes (packed_kernel.c, one build per
 * instruction set). */
#ifndef RUNE_SRC_CLIP_PACKED_SAMPLER_H
#define RUNE_SRC_CLIP_PACKED_SAMPLER_H

#include "clip_packed.h"
#include "sample_dest.h"
#include "../math/kernel_isa.h"

/* How to decode the animated channels ("entries") of a plan in one
 * segment, as arrays over entries: the bit address of each entry's first
 * sample in the segment; its layout word (PACK_LAYOUT_*: the three width
 * bytes as stored, the dropped component in the first one's top bits,
 * and the bits a sample takes in the fourth byte); value = base + scale *
 * integer per component. */
typedef struct pack_entries {
    const uint32_t *addr, *layout;
    const float *base[3], *scale[3];
} pack_entries;

/* A layout word's parts. */
#define PACK_LAYOUT_WIDTH(layout, c) (((layout) >> (8 * (c))) & 31u)
#define PACK_LAYOUT_DROPPED(layout) (((layout) >> 6) & 3u)
#define PACK_LAYOUT_STRIDE(layout) ((layout) >> 24)

/* Arrays of a segment's tables: addr, layout, base[3], scale[3]. */
#define PACK_TABLES 8

/* What each lane holds where its channels are constant, in the order
 * the chunk is written: qx qy qz qw x y z weight mask coverage sx sy sz
 * (scale last: only clips with scale copy it). */
#define PACK_FIXED 13

/* What sampling a packed clip through one lane map needs beside the
 * clip's data, and no play changes: the constant channels' values per
 * lane, the animated channels ("entries") ordered by chunk, then channel,
 * with each one's lane, and every segment's decoding tables of those
 * entries. A binding builds one and its plays share it: a crowd's plays
 * of one clip read the same few segments' tables, and a play's own state
 * is its cursor. */
typedef struct pack_plan {
    const clip_packed *p;
    int channels;             /* 2, or 3 with scale */
    float *fixed[PACK_FIXED]; /* per lane */
    /* per entry; group[chunk * channels + channel] is the first of a group */
    uint32_t *lane, *group;
    size_t entries;
    uint32_t *table; /* [segment][PACK_TABLES][entries] */
} pack_plan;

/* The kernels of one instruction set (packed_kernel.c). */
typedef struct pack_kernels {
    void (*copy)(const float *const *src, float *const *dst, int count, size_t n);
    void (*sample)(const uint8_t *data, const pack_entries *a, const pack_entries *b, uint32_t ja, uint32_t jb,
                   float u, int channel, size_t e0, size_t e1, const uint32_t *lane, size_t first,
                   const sample_dest *o);
} pack_kernels;

/* A play's cursor: the shared plan and the kernels. */
typedef struct pack_cursor {
    const pack_plan *plan;
    pack_kernels kernels;
} pack_cursor;

/* Bytes a plan needs (16-byte aligned memory, the plan itself at its
 * start) for a clip and lanes mapped to tracks by lane_track (NULL: lane
 * i is track i; negative or past the tracks: no track); 0 when that is
 * more than a size_t holds. */
size_t rune__pack_plan_bytes(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks);
/* Lays a plan out in `memory` (rune__pack_plan_bytes of it) and returns it. */
const pack_plan *rune__pack_plan_init(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks,
                                      void *memory);

/* Sets a cursor up on a plan with the kernels of `level` (resolved). */
void rune__pack_cursor_init(pack_cursor *c, const pack_plan *plan, rune_simd_level level);

/* Samples lanes [first, first + n) (n padded to KERNEL_LANES) at clip
 * time t into o; returns whether scale was written. */
bool rune__packed_sample_to(const pack_cursor *c, size_t first, size_t n, float t, const sample_dest *o);

/* Copies `count` arrays of n floats (the constant channels into a chunk:
 * inlined vector copies beat a library call each for 40 floats). */
KERNEL_DECLARE(void, rune__pack_copy, (const float *const *src, float *const *dst, int count, size_t n));

/* Entries [e0, e1) of one channel: decodes sample ja of tables a and jb
 * of tables b (the segments of the two samples), interpolates (PACK_ROT:
 * rebuilds the dropped components, nlerps into o's q; PACK_POS,
 * PACK_SCALE: lerps into x, y, z or sx, sy, sz) and writes each entry's
 * lane - first of o. */
KERNEL_DECLARE(void, rune__pack_kernel,
               (const uint8_t *data, const pack_entries *a, const pack_entries *b, uint32_t ja, uint32_t jb,
                float u, int channel, size_t e0, size_t e1, const uint32_t *lane, size_t first,
                const sample_dest *o));

#endif
