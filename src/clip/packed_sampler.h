/* The batch sampler of packed clips, for the sample cache: a per-play
 * cursor and the kernel that decodes and interpolates the animated
 * channels of a chunk of lanes (packed_kernel.c, one build per
 * instruction set). */
#ifndef RUNE_SRC_CLIP_PACKED_SAMPLER_H
#define RUNE_SRC_CLIP_PACKED_SAMPLER_H

#include "clip_packed.h"
#include "sample_dest.h"
#include "../math/kernel_isa.h"

/* How to decode the animated channels ("entries") of the lanes in one
 * segment, as arrays over entries: the bit address of each component of
 * the segment's first sample, the bits a sample takes, each component's
 * mask, value = base + scale * integer, and (rotations) the component to
 * rebuild. */
typedef struct pack_entries {
    uint32_t *addr[3], *mask[3], *stride, *dropped;
    float *base[3], *scale[3];
} pack_entries;

#define PACK_ENTRY_FIELDS 14
/* Entries the arrays hold past the last (the kernel decodes whole
 * vectors of 16). */
#define PACK_ENTRY_SLACK 16

/* What each lane holds where its channels are constant, in the order
 * the chunk is written: qx qy qz qw x y z weight mask coverage sx sy sz
 * (scale last: only clips with scale copy it). */
#define PACK_FIXED 13

typedef struct pack_cursor pack_cursor;

/* The kernels of one instruction set (packed_kernel.c). */
typedef struct pack_kernels {
    void (*load)(pack_cursor *c, pack_entries *s, uint32_t g);
    void (*copy)(const float *const *src, float *const *dst, int count, size_t n);
    void (*sample)(const uint8_t *data, const pack_entries *a, const pack_entries *b, uint32_t ja, uint32_t jb,
                   float u, int channel, size_t e0, size_t e1, const uint32_t *lane, size_t first,
                   const sample_dest *o);
} pack_kernels;

struct pack_cursor {
    const clip_packed *p;
    size_t lanes, padded;
    int channels;    /* 2, or 3 with scale */
    uint32_t seg[2]; /* the segment each slot holds; UINT32_MAX: none */
    pack_entries slot[2];
    pack_kernels kernels;
    float *fixed[PACK_FIXED]; /* per lane */
    uint32_t *sub_bit; /* per subtrack: bit address in the segment being loaded */
    /* entries ordered by chunk, then channel: the lane and subtrack of
     * each; group[chunk * channels + channel] is the first of a group */
    uint32_t *lane, *sub, *group;
    uint32_t *rotation; /* per entry: 1 for a rotation channel */
    float *range[PACK_RANGE]; /* per entry: its subtrack's clip range (min[4], extent[4]) */
    size_t entries;
};

/* Bytes a cursor needs (16-byte aligned memory) for a clip and lanes
 * mapped as rune__pack_cursor_init maps them: a few KB for a 40-joint
 * rig (the animated channels' tables for two segments, the constant
 * channels' values). */
size_t rune__pack_cursor_bytes(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks);
/* Lays a cursor out in `memory` for lanes mapped to tracks by
 * lane_track (NULL: lane i is track i; negative or past the tracks: no
 * track), with the kernels of `level` (resolved), and empties it. */
void rune__pack_cursor_init(pack_cursor *c, const clip_packed *p, const int32_t *lane_track, size_t lanes,
                            size_t tracks, rune_simd_level level, void *memory);
/* Forgets the loaded segments. */
void rune__pack_cursor_reset(pack_cursor *c);

/* Samples lanes [first, first + n) (n padded to KERNEL_LANES) at clip
 * time t into o; returns whether scale was written. */
bool rune__packed_sample_to(pack_cursor *c, size_t first, size_t n, float t, const sample_dest *o);

/* Copies `count` arrays of n floats (the constant channels into a chunk:
 * inlined vector copies beat a library call each for 40 floats). */
KERNEL_DECLARE(void, rune__pack_copy, (const float *const *src, float *const *dst, int count, size_t n));

/* Fills slot s with the entries' decoding tables for segment g. */
KERNEL_DECLARE(void, rune__pack_load, (pack_cursor *c, pack_entries *s, uint32_t g));

/* Entries [e0, e1) of one channel: decodes sample ja of slot a and jb of
 * slot b, interpolates (PACK_ROT: rebuilds the dropped components,
 * nlerps into o's q; PACK_POS, PACK_SCALE: lerps into x, y, z or
 * sx, sy, sz) and writes each entry's lane - first of o. */
KERNEL_DECLARE(void, rune__pack_kernel,
               (const uint8_t *data, const pack_entries *a, const pack_entries *b, uint32_t ja, uint32_t jb,
                float u, int channel, size_t e0, size_t e1, const uint32_t *lane, size_t first,
                const sample_dest *o));

#endif
