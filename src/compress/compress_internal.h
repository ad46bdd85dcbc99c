/* What the compressor's two files share (compress_input.c reads the clip
 * into samples, ranges and dropped components; clip_compress.c chooses
 * the widths and builds the packed clip): the planner's state. */
#ifndef RUNE_SRC_COMPRESS_INTERNAL_H
#define RUNE_SRC_COMPRESS_INTERNAL_H

#include "rune/compress.h"
#include "../rig/rig_internal.h"
#include "../clip/clip_packed.h"

/* Values a track holds at one sample: rotation (w >= 0), translation, scale. */
enum { V_RX, V_RY, V_RZ, V_RW, V_TX, V_TY, V_TZ, V_SX, V_SY, V_SZ, V_COUNT };
/* Where each channel's values start among a track's. */
static const int channel_first[PACK_CHANNELS] = {V_RX, V_TX, V_SX};

/* An animated channel. */
typedef struct sub_info {
    uint32_t track;
    int ch;
} sub_info;

typedef struct planner {
    rune_allocator alloc;
    const rune_clip *clip;
    const rune_rig *rig;
    rune_binding *bind;
    size_t tracks, joints, subs, samples, segments;
    float t0, dt, precision, shell;
    float target; /* what the segment at hand's widths aim at (a little under precision) */
    float *val;            /* [track][sample][V_COUNT], exact */
    packed_track *packed;  /* per track: constants, subtrack of each channel */
    sub_info *sub;         /* per subtrack */
    float *range;          /* per subtrack: PACK_RANGE floats (min[4], extent[4]) */
    uint8_t *drop;         /* [segment][sub]: the rotation component left out */
    int32_t *track_joint;  /* per track: its joint, or -1 */
    rune_pose pose;
    rune_mat4 *exact;      /* [PACK_SEGMENT][joints] for the segment at hand */
    rune_mat4 *lossy;      /* [joints] */
    float *now;            /* [PACK_SEGMENT][track][V_COUNT]: the values the current widths decode */
    float *trial;          /* [PACK_SEGMENT][3]: one subtrack at a trial width */
    float *err;            /* [joints + tracks]: worst error of each joint (then of each unbound track) */
    float *base;           /* the same at the current widths */
    uint8_t *live;         /* [joints + tracks]: the slots an evaluation measures */
    uint8_t *width, *lo, *hi; /* the plan: [segment][sub][3] each */
    uint8_t *level;        /* [segment][sub]: the widest component's width */
    uint8_t *cur;          /* [sub]: levels in the segment at hand (PACK_EXACT: not quantized) */
    uint8_t *cw;           /* [sub][3]: the widths step 4 settles on */
    float *smin, *smax;    /* [sub][3]: each stored component's range over the segment at hand */
    float max_error;
} planner;

#define PACK_EXACT 255

static inline const float *rune__compress_value(const planner *p, size_t track, size_t i)
{
    return &p->val[(track * p->samples + i) * V_COUNT];
}

/* The grid every key of the clip lies on (p->t0, dt, samples), or
 * RUNE_E_INVALID saying why not. */
rune_status rune__compress_find_grid(planner *p, rune_error *err);
/* Every track sampled on the grid into p->val. */
void rune__compress_sample_exact(planner *p);
/* Constant channels and subtracks: counts the subtracks; with `fill`,
 * fills p->packed and p->sub. */
size_t rune__compress_classify(planner *p, bool fill);
/* Each rotation subtrack's dropped component per segment, then every
 * subtrack's clip range. */
void rune__compress_choose_ranges(planner *p);
/* Stored value c of subtrack a at sample i of segment g. */
float rune__compress_stored(const planner *p, size_t a, size_t g, size_t i, unsigned c);
/* The range component stored value c of subtrack a uses in segment g. */
unsigned rune__compress_range_index(const planner *p, size_t a, size_t g, unsigned c);
/* One past segment g's last sample. */
size_t rune__compress_segment_end(const planner *p, size_t g);

/* The float curves of the compressed clip (curve_compress.c): into *keys
 * (rune_clip_describe(clip).curve_key_count entries, rune__free) and *set. */
rune_status rune__compress_curves(const rune_clip *clip, float precision, const rune_allocator *a,
                                  clip_curve_key **keys, clip_curve_set *set, rune_error *err);

#endif
