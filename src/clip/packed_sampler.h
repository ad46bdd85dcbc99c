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

/* Entries the arrays hold past the last (the kernel decodes whole
 * vectors of 16). */
#define PACK_ENTRY_SLACK 16

/* What each lane holds where its channels are constant, in the order
 * the chunk is written: qx qy qz qw x y z weight mask coverage sx sy sz
 * (scale last: only clips with scale copy it). */
#define PACK_FIXED 13

/* What sampling a packed clip through one lane map needs beside the
 * clip, and no play changes: the constant channels' values per lane, and
 * the animated channels ("entries") ordered by chunk, then channel, with
 * each one's lane, subtrack and clip range. A binding builds one and its
 * plays share it (a play's own state is a few hundred bytes). */
typedef struct pack_plan {
    const clip_packed *p;
    int channels;             /* 2, or 3 with scale */
    float *fixed[PACK_FIXED]; /* per lane */
    /* per entry; group[chunk * channels + channel] is the first of a group */
    uint32_t *lane, *sub, *group;
    uint32_t *rotation;       /* per entry: 1 for a rotation channel */
    float *range[PACK_RANGE]; /* per entry: its subtrack's clip range (min[4], extent[4]) */
    size_t entries;
} pack_plan;

/* The kernels of one instruction set (packed_kernel.c). */
typedef struct pack_kernels {
    void (*bits)(const uint8_t *w, uint32_t bit0, uint32_t n, uint32_t *bits);
    void (*load)(const pack_plan *v, const uint32_t *sub_bit, pack_entries *s, uint32_t g);
    void (*copy)(const float *const *src, float *const *dst, int count, size_t n);
    void (*sample)(const uint8_t *data, const pack_entries *a, const pack_entries *b, uint32_t ja, uint32_t jb,
                   float u, int channel, size_t e0, size_t e1, const uint32_t *lane, size_t first,
                   const sample_dest *o);
} pack_kernels;

/* Subtracks whose bit addresses a sample computes on the stack; a clip
 * with more gives each cursor room for them (2 segments' worth). */
#define PACK_STACK_SUBTRACKS 512

/* A play's cursor: the shared plan, the kernels, and (clips of many
 * subtracks only) room for two segments' bit addresses. The decoding
 * tables of a sample are built on the stack for each group of entries
 * (at most a chunk's lanes), so a play keeps no tables. */
typedef struct pack_cursor {
    const pack_plan *plan;
    pack_kernels kernels;
    uint32_t *sub_bit; /* NULL unless the clip has more than PACK_STACK_SUBTRACKS */
} pack_cursor;

/* Bytes a plan needs (16-byte aligned memory, the plan itself at its
 * start) for a clip and lanes mapped to tracks by lane_track (NULL: lane
 * i is track i; negative or past the tracks: no track). */
size_t rune__pack_plan_bytes(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks);
/* Lays a plan out in `memory` (rune__pack_plan_bytes of it) and returns it. */
const pack_plan *rune__pack_plan_init(const clip_packed *p, const int32_t *lane_track, size_t lanes, size_t tracks,
                                      void *memory);

/* Bytes a cursor needs after it for a clip: 0 but for clips of more than
 * PACK_STACK_SUBTRACKS subtracks. */
size_t rune__pack_cursor_bytes(const clip_packed *p);
/* Sets a cursor up on a plan with the kernels of `level` (resolved);
 * `memory` holds rune__pack_cursor_bytes. */
void rune__pack_cursor_init(pack_cursor *c, const pack_plan *plan, rune_simd_level level, void *memory);

/* Samples lanes [first, first + n) (n padded to KERNEL_LANES) at clip
 * time t into o; returns whether scale was written. */
bool rune__packed_sample_to(const pack_cursor *c, size_t first, size_t n, float t, const sample_dest *o);

/* Copies `count` arrays of n floats (the constant channels into a chunk:
 * inlined vector copies beat a library call each for 40 floats). */
KERNEL_DECLARE(void, rune__pack_copy, (const float *const *src, float *const *dst, int count, size_t n));

/* Where each of a segment's n subtracks' bits start: bit0 (the segment's
 * first bit), then each subtrack's bits after those before it
 * (PACK_SUB_BYTES of its width bytes, w[3a .. 3a + 2]). */
KERNEL_DECLARE(void, rune__pack_segment_bits, (const uint8_t *w, uint32_t bit0, uint32_t n, uint32_t *bits));

/* Fills s with the decoding tables of the entries of v (a plan, or a view
 * of some of its entries) for segment g, whose subtracks' first bits are
 * sub_bit[]. Whole vectors are written: s has PACK_ENTRY_SLACK past the
 * last entry. */
KERNEL_DECLARE(void, rune__pack_load, (const pack_plan *v, const uint32_t *sub_bit, pack_entries *s, uint32_t g));

/* Entries [e0, e1) of one channel: decodes sample ja of tables a and jb
 * of tables b (the segments of the two samples), interpolates (PACK_ROT: rebuilds the dropped components,
 * nlerps into o's q; PACK_POS, PACK_SCALE: lerps into x, y, z or
 * sx, sy, sz) and writes each entry's lane - first of o. */
KERNEL_DECLARE(void, rune__pack_kernel,
               (const uint8_t *data, const pack_entries *a, const pack_entries *b, uint32_t ja, uint32_t jb,
                float u, int channel, size_t e0, size_t e1, const uint32_t *lane, size_t first,
                const sample_dest *o));

#endif
