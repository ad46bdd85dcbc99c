/* Layout of a compiled clip, shared by the compiler and the sampler. All
 * arrays live in one block so a clip is freed (or fails) as a unit. */
#ifndef RUNE_SRC_CLIP_INTERNAL_H
#define RUNE_SRC_CLIP_INTERNAL_H

#include "rune/clip.h"
#include "clip_access_internal.h"
#include "sample_dest.h"

#include <string.h>

struct clip_packed;

/* Keys a clip may hold: the cursor step indexes segments with 32-bit
 * float offsets (16 a segment). */
#define CLIP_MAX_KEYS (1u << 27)

/* Null keys past the last real key (see struct rune_clip). */
#define CLIP_NULL_KEYS 1

/* Key k of a track and the way to key k + 1, in the form the batch kernel
 * reads: 64 bytes, one cache line. With u = (t - time) / (end - time)
 * clamped to [0, 1], translation lerps: x + dx u. Rotation slerps without
 * trigonometry: with v = theta * (unit tangent at q toward the sign-aligned
 * next key), slerp(u) = cos(u theta) q + sinc(u theta) u v, both functions
 * of (u theta)^2 = u^2 (v . v), so the kernel evaluates two short
 * polynomials and needs no normalization. The segment of a track's last key
 * holds still: deltas and v are 0, end is +inf (u = 0). The null key's
 * segment (identity, coverage 0) spans all time, from -inf to +inf (u is
 * NaN there, which the clamp turns into 0). */
typedef struct clip_segment {
    float x, y, z;
    float dx, dy, dz;
    float time; /* key k's time */
    float end;  /* key k + 1's time; +inf when holding */
    rune_quat q;
    rune_quat v;
} clip_segment;

/* Pose weight and mask weight along segment k: w + dw u, m + dm u. */
typedef struct clip_segment_cover {
    float w, dw, m, dm;
} clip_segment_cover;

/* Scale along segment k, for clips with scale keys: s + ds u (the u of
 * segment k). */
typedef struct clip_scale_segment {
    float x, y, z;
    float dx, dy, dz;
} clip_scale_segment;

typedef struct clip_track {
    const char *parent;
    const char *part;
    uint32_t first_key; /* index into the key arrays */
    uint32_t key_count;
} clip_track;

struct rune_clip {
    rune_allocator alloc;
    size_t block_size;
    const char *id;
    uint32_t revision;
    uint64_t serial;
    bool loop;
    int priority;
    float length;
    uint32_t seg_stride; /* of the segments, below (here it fills what would be padding) */
    size_t track_count;
    clip_track *tracks;
    size_t key_count;
    /* keys, structure of arrays, grouped by track then time. Every array
     * has CLIP_NULL_KEYS more entries past key_count: "null keys" (identity,
     * weight 0, so coverage 0) that lanes without a track sample. */
    float *key_time;
    rune_vec3 *key_t;
    rune_quat *key_r;
    float *key_weight;
    float *key_mask;
    uint8_t *key_style;
    uint8_t *key_dir;
    rune_vec3 *key_s; /* NULL when every key's scale is 1 1 1 */
    /* per key, for the batch sampler: its segment (see clip_segment) and
     * its weights, and whether the key after it is linear (else the exact
     * sampler, which knows the easing curves, takes that lane). Key j of
     * track tr sits at position clip_first_seg(c, tr) + j * seg_stride:
     * when every track has keys at the same times (mocap, baked clips),
     * time-major (key 0 at tr, stride track_count), so the segments one
     * frame reads lie side by side; otherwise as the keys (key 0 at
     * first_key, stride 1). The null keys sit at key_count either way. */
    clip_segment *segments;
    clip_segment_cover *covers;
    clip_scale_segment *scales; /* NULL without key_s */
    uint8_t *key_fast;
    bool any_eased; /* some key_fast is 0: most clips have none to look up */
    bool plain_covers; /* every key has weight 1 and mask 0: the kernel need not read covers */
    size_t marker_count;
    rune_marker *markers;
    /* a compressed clip (clip_packed.h): tracks, names and markers as
     * above, no key arrays (NULL) */
    const struct clip_packed *packed;
    /* float curves (clip_curves.c): sorted by name, keys by time; in a
     * compressed clip reduced and snapped within curve_precision
     * (src/compress/curve_compress.c), which is 0 for exact curves */
    float curve_precision, curve_error;
    size_t curve_count;
    struct clip_curve *curves;
    size_t curve_key_count;
    float *ck_time, *ck_value, *ck_weight, *ck_mask, *ck_in, *ck_out;
    uint8_t *ck_style, *ck_dir, *ck_spline;
};

/* A curve: its name and its keys' range in the ck_ arrays. */
typedef struct clip_curve {
    const char *name;
    uint32_t first_key;
    uint32_t key_count;
} clip_curve;

/* One curve key with its name and time, as builders hand them over:
 * sorted by name then time, one key a time (clip_curves.c). */
typedef struct clip_curve_key {
    const char *name;
    float time;
    rune_curve_key_desc d;
} clip_curve_key;

/* A clip's float curves as builders hand them over: `key_count` sorted,
 * distinct keys of `count` curves; for a compressed clip the grid step its
 * values were snapped to and the error measured (0 and 0: exact). */
typedef struct clip_curve_set {
    const clip_curve_key *keys;
    size_t key_count, count;
    float precision, max_error;
} clip_curve_set;

/* The value a quantized curve key stands for: q steps of `step`, rounded
 * once to float (the compressor snaps to it, the .rune reader decodes it:
 * both call this, so a stored value comes back bit for bit). */
static inline float clip_curve_dequantize(int64_t q, float step) { return (float)((double)q * (double)step); }

/* Where key 0 of track `tr` has its segment (see rune_clip.seg_stride). */
static inline uint32_t clip_first_seg(const rune_clip *c, size_t tr)
{
    return c->seg_stride == 1 ? c->tracks[tr].first_key : (uint32_t)tr;
}

/* Bump allocator over a clip's single block: a first pass with a NULL
 * base measures, a second fills. */
typedef struct packer {
    char *base;
    size_t used;
} packer;

static inline size_t align16(size_t n) { return (n + 15u) & ~(size_t)15u; }

static inline void *pack(packer *p, size_t bytes)
{
    void *r = p->base ? p->base + p->used : NULL;
    p->used += align16(bytes);
    return r;
}

static inline const char *pack_str(packer *p, const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s) + 1;
    char *dst = pack(p, n);
    if (dst)
        memcpy(dst, s, n);
    return dst;
}

/* A sequence's curve keys, checked (messages name keyframes[i].curves.NAME)
 * and sorted (two keys of a curve at one time: the later listed wins):
 * *count distinct keys of *curves curves, in one allocation of *cap
 * entries (rune__free). */
rune_status rune__curves_gather(const rune_sequence_desc *d, const rune_allocator *alloc, clip_curve_key **out,
                                size_t *count, size_t *cap, size_t *curves, rune_error *err);
/* Lays out (p->base NULL: measures) a clip's curve arrays from sorted,
 * distinct keys; names are copied into the block. */
void rune__curves_layout(packer *p, rune_clip *c, const clip_curve_key *keys, size_t count, size_t curves);

/* A clip's curve keys as builders take them (names point into the clip),
 * in one allocation of rune_clip's curve_key_count entries (rune__free);
 * NULL (and OK) without curves. Exported for the compressor. */
RUNE_API rune_status rune__clip_curve_keys(const rune_clip *c, const rune_allocator *alloc, clip_curve_key **out);

/* Fills what every clip's block starts with (a new serial included). */
void rune__clip_head(rune_clip *c, const rune_allocator *alloc, size_t block_size, uint32_t revision, bool loop,
                     int priority, float length, size_t tracks, size_t markers);
/* Sorts markers by pos, stably. */
void rune__clip_sort_markers(rune_marker *m, size_t n);

/* A marker of a clip from its description: pos folded into a looping
 * clip's cycle. */
rune_marker rune__clip_marker(const rune_clip *c, const rune_marker_desc *d, const char *name, const char *value);

#endif
