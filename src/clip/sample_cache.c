/* The batch sampler: per-lane key cursors over the clip's segments, a
 * vectorized interpolation kernel chosen at run time, and the exact scalar
 * sampler for the lanes the kernel does not cover (eased keys).
 *
 * Per-play state is one key index per lane -- in a time-major clip, where
 * every lane is on the same row of segments, only that row -- plus the
 * time window in which every lane's segment still holds: a frame inside
 * the window touches no cursor at all, and key values are read from the
 * clip, which every play of it shares (so they stay in cache across a
 * crowd), instead of being copied into each play -- or, for a short
 * time-major clip, from its binding's row plan, which every play through
 * that binding shares. */
#include "clip_internal.h"
#include "sample_kernel.h"
#include "packed_sampler.h"
#include "../base/alloc.h"
#include "../base/prefetch.h"
#include "../base/require.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

/* The sampling kernels of one instruction set. */
typedef struct sample_kernels {
    void (*sample)(const clip_segment *, const clip_segment_cover *, const uint32_t *, float, const sample_dest *,
                   size_t);
    size_t (*advance)(const clip_segment *, uint32_t, uint32_t *, size_t, float, float *, float *, uint8_t *);
    void (*row_keys)(const int32_t *, size_t, size_t, size_t, uint32_t, uint32_t, uint32_t, uint32_t *);
    void (*fields)(const row_fields *, float, const sample_dest *, size_t);
} sample_kernels;

#define KERNELS(isa)                                                                                                  \
    (sample_kernels){rune__sample_kernel_##isa, rune__sample_advance_##isa, rune__sample_row_keys_##isa,            \
                     rune__sample_fields_##isa}

static sample_kernels kernels_for(rune_simd_level level) { KERNEL_PICK(level, KERNELS) }

struct rune_sample_cache {
    /* what every sample reads, first: a frame's prefetch asks for these
     * lines only (rune_sample_cache_prefetch) */
    const rune_clip *clip;
    const int32_t *lane_track; /* NULL: lane i samples track i */
    size_t lanes, padded;
    sample_kernels kernels;
    float lo, hi;   /* every lane's segment holds for lo <= t < hi */
    bool any_exact; /* some lane's segment needs the exact sampler */
    /* time-major clips (by_rows): every lane with a track is on key `row`
     * of it, found by stepping the row lane's track (-1: no lane has one) */
    int32_t row_lane;
    uint32_t row;
    /* a time-major clip bound through a row plan (sample_plan): row r's
     * row_lanes lanes at rows + r * row_lanes * (SAMPLE_FIELDS, or
     * LEAN_FIELDS where spans holds each row's time and end), chunk by
     * chunk (NULL: none) */
    const float *rows;
    const float *spans;
    uint32_t row_lanes;
    rune_simd_level level; /* the kernels' (resolved): the mixer's fused path asks it each sample */
    uint8_t *bad; /* per lane, scratch of refill (after key[]; lane by lane only) */
    /* a packed clip's cursor (its plan, when its own, after bad[]) */
    pack_cursor pack;
    /* what seeks and the owner read */
    size_t seeks;
    rune_allocator alloc;
    size_t block_size;
    uint32_t key[]; /* lane by lane: per lane, the position of the segment it is on (see rune_clip.seg_stride);
                       none for rows or a packed clip */
};

/* Whether a play of the clip keeps one row for all its lanes (time-major
 * segments, see rune_clip.seg_stride) rather than a key a lane. */
static bool by_rows(const rune_clip *clip) { return !clip->packed && clip->seg_stride > 1; }

/* The lanes of a play that keep a key: only a lane-by-lane play's do. */
static size_t key_lanes(const rune_clip *clip, size_t padded) { return clip->packed || by_rows(clip) ? 0 : padded; }

/* The track lane i samples through a lane map (NULL: track i) of a clip
 * with `tracks` tracks, or -1. */
static int32_t lane_track_of(const int32_t *lane_track, size_t tracks, size_t i)
{
    int32_t t = lane_track ? lane_track[i] : (int32_t)i;
    return t >= 0 && (size_t)t < tracks ? t : -1;
}

static int32_t track_of(const rune_sample_cache *c, size_t i)
{
    return lane_track_of(c->lane_track, c->clip->track_count, i);
}

/* The segment of `track` holding t; narrows [*lo, *hi) to the times it
 * holds for. Before the first key a lane sits on the first segment (u
 * clamps to 0); from the last key on, on the last key's segment, which
 * holds still. */
static uint32_t locate(rune_sample_cache *c, size_t track, float t, float *lo, float *hi)
{
    const clip_track *tr = &c->clip->tracks[track];
    const float *times = &c->clip->key_time[tr->first_key];
    size_t n = tr->key_count;
    uint32_t stride = c->clip->seg_stride, first = clip_first_seg(c->clip, track);
    if (n == 1)
        return first;
    if (!(t >= times[0])) { /* before the first key (or NaN) */
        *hi = times[0] < *hi ? times[0] : *hi;
        return first;
    }
    if (t >= times[n - 1]) {
        *lo = times[n - 1] > *lo ? times[n - 1] : *lo;
        return first + (uint32_t)(n - 1) * stride;
    }
    /* times[0] <= t < times[n - 1], and the cursor could not step there */
    size_t a = 0, b = n - 1; /* times[a] <= t < times[b] */
    while (b - a > 1) {
        size_t mid = a + (b - a) / 2;
        if (times[mid] <= t)
            a = mid;
        else
            b = mid;
    }
    c->seeks++;
    *lo = times[a] > *lo ? times[a] : *lo;
    *hi = times[b] < *hi ? times[b] : *hi;
    return first + (uint32_t)a * stride;
}

/* Steps a cursor across at most this many segments per sample before it
 * searches instead. */
#define MAX_STEPS 4

/* Playback moves a lane a few segments forward (or back, playing
 * backwards), which the segments' own times confirm without knowing the
 * track: a finite end means the next segment (a stride on) is the same
 * track's, and a segment whose end is the next one's start is its
 * predecessor. Returns where the walk from k ends (holding t or not). */
static uint32_t walk(const clip_segment *seg, uint32_t stride, uint32_t k, float t)
{
    for (int s = 0; s < MAX_STEPS && t >= seg[k].end; s++)
        k += stride;
    for (int s = 0; s < MAX_STEPS && t < seg[k].time && k >= stride && seg[k - stride].end == seg[k].time; s++)
        k -= stride;
    return k;
}

/* walk's steps on one track's key times instead of its segments: row j's
 * segment starts at times[j] and ends at times[j + 1] (the last holds on,
 * to infinity: clip_compile.c's fill_segment). */
static uint32_t walk_times(const float *times, uint32_t n, uint32_t j, float t)
{
    for (int s = 0; s < MAX_STEPS && j + 1 < n && t >= times[j + 1]; s++)
        j++;
    for (int s = 0; s < MAX_STEPS && j > 0 && t < times[j]; s++)
        j--;
    return j;
}

/* Clips laid out time-major have every track's keys at the same times, so
 * every lane with a track is on the same row of segments (key j of each
 * track): one lane finds the row holding t -- a few steps, or one binary
 * search -- and that row is every track lane's. The keys are those the
 * lane-by-lane walk would reach. The steps read the row lane's key times,
 * not its segments: a row's segments are a line each, which a crowd's
 * plays at unrelated times missed one by one before the kernel's loads,
 * while every play of the clip reads the same few lines of times. */
static void refill_row(rune_sample_cache *c, float t)
{
    const rune_clip *clip = c->clip;
    if (c->row_lane < 0) { /* every lane on the null key, at all times */
        c->lo = -INFINITY;
        c->hi = INFINITY;
        return;
    }
    uint32_t stride = clip->seg_stride, track = (uint32_t)track_of(c, (size_t)c->row_lane);
    const clip_track *tr = &clip->tracks[track]; /* time-major: key j of track tr sits at tr + j stride */
    const float *times = &clip->key_time[tr->first_key];
    uint32_t row = walk_times(times, tr->key_count, c->row, t);
    float lo = times[row], hi = row + 1 < tr->key_count ? times[row + 1] : INFINITY;
    if (!(t >= lo && t < hi)) {
        lo = -INFINITY;
        hi = INFINITY;
        row = (locate(c, track, t, &lo, &hi) - track) / stride;
    }
    c->row = row;
    c->lo = lo;
    c->hi = hi;
}

/* Re-locates every lane for t and recomputes the shared window: a step of
 * every lane in the kernel's instruction set, then a walk, else a search,
 * for the lanes the step did not place. */
static void refill_lanes(rune_sample_cache *c, float t)
{
    const clip_segment *seg = c->clip->segments;
    uint32_t stride = c->clip->seg_stride;
    float lo, hi;
    /* every lane one step at most, in the kernel's own instruction set;
     * the rest (a seek, playing backwards, a long dt) lane by lane */
    size_t bad = c->kernels.advance(seg, stride, c->key, c->lanes, t, &lo, &hi, c->bad);
    for (size_t i = 0; bad && i < c->lanes; i++) {
        if (!c->bad[i])
            continue;
        bad--;
        uint32_t k = walk(seg, stride, c->key[i], t);
        if (t >= seg[k].time && t < seg[k].end) {
            c->key[i] = k;
            lo = seg[k].time > lo ? seg[k].time : lo;
            hi = seg[k].end < hi ? seg[k].end : hi;
            continue;
        }
        int32_t tr = track_of(c, i);
        if (tr >= 0)
            c->key[i] = locate(c, (size_t)tr, t, &lo, &hi);
    }
    c->lo = lo;
    c->hi = hi;
}

/* A row play's keys of lanes [first, first + n), made from its row. */
static void row_keys(const rune_sample_cache *c, size_t first, size_t n, uint32_t *key)
{
    const rune_clip *clip = c->clip;
    c->kernels.row_keys(c->lane_track, first, n, c->lanes, (uint32_t)clip->track_count, c->row * clip->seg_stride,
                        (uint32_t)clip->key_count, key);
}

/* The segment lane i is on. */
static uint32_t lane_key(const rune_sample_cache *c, size_t i)
{
    if (!by_rows(c->clip))
        return c->key[i];
    uint32_t k;
    row_keys(c, i, 1, &k);
    return k;
}

/* Re-locates every lane for t (by rows when the clip is time-major) and
 * notes whether a lane now needs the exact sampler. */
static void refill(rune_sample_cache *c, float t)
{
    if (by_rows(c->clip))
        refill_row(c, t);
    else
        refill_lanes(c, t);
    bool exact = false;
    for (size_t i = 0; c->clip->any_eased && !exact && i < c->lanes; i++)
        exact = !c->clip->key_fast[lane_key(c, i)];
    c->any_exact = exact;
}

void rune_sample_cache_reset(rune_sample_cache *c)
{
    if (c->clip->packed)
        return; /* its cursor keeps nothing between samples */
    c->row = 0;
    c->row_lane = -1;
    bool rows = by_rows(c->clip);
    for (size_t i = 0; rows && c->row_lane < 0 && i < c->lanes; i++)
        c->row_lane = track_of(c, i) >= 0 ? (int32_t)i : -1;
    for (size_t i = 0; !rows && i < c->padded; i++) {
        /* a lane with a track starts on its first key and is located by the
         * next sample; the others stay on the null key, valid at all times */
        int32_t tr = i < c->lanes ? track_of(c, i) : -1;
        c->key[i] = tr >= 0 ? clip_first_seg(c->clip, (size_t)tr) : (uint32_t)c->clip->key_count;
    }
    c->lo = INFINITY; /* an empty window: the next sample locates every lane */
    c->hi = -INFINITY;
    c->any_exact = false;
}

/* A binding's plan for its samplers (sample_dest.h): a packed clip's
 * pack_plan, or a short time-major exact clip's row plan -- its segments
 * and covers again, row by row in the binding's lane order and as the
 * kernel's arrays (SAMPLE_FIELDS per lane), so that a sample loads whole
 * vectors where it would gather each lane's segment and transpose it. */
struct sample_plan {
    const pack_plan *pack;
    const float *rows;  /* 64-byte aligned; row r at rows + r * row_lanes * row_fields(spans) */
    const float *spans; /* lean rows: row r's time and end at spans[2r], [2r + 1]; else NULL */
    uint32_t row_lanes;
};

/* A row plan's lanes: the binding's, rounded up to 16 (so that every
 * field of a chunk starts on a 64-byte line). */
static size_t row_plan_lanes(size_t lanes) { return (lanes + 15) / 16 * 16; }

/* Row plans are made for clips up to this size (a locomotion cycle of a
 * 64-joint rig has 30 to 120 keys a track: 0.15 to 0.6 MiB). A plan
 * repeats the clip's segments and covers, in memory about 65 % of what
 * the clip itself holds, for sampling in about half the time where the
 * gather is the cost (docs/performance.md, "How a frame runs"); long takes keep
 * the gather. */
#define ROW_PLAN_MAX_BYTES ((size_t)1 << 20)

/* Whether a binding's rows can be lean (sample_lane.h's row_fields):
 * plain covers, a track for every lane, and on every row one time and end
 * for all of them (a time-major clip's tracks share their keys' times;
 * a track holding its last key early would not). A lean row is 30 % fewer
 * bytes to read a sample, and its u is worked out once, not a lane. */
static bool rows_lean(const rune_clip *clip, const int32_t *lane_track, size_t lanes)
{
    if (!clip->plain_covers || lanes == 0)
        return false;
    int32_t first = lane_track_of(lane_track, clip->track_count, 0);
    for (size_t i = 0; i < lanes; i++) {
        int32_t tr = lane_track_of(lane_track, clip->track_count, i);
        if (tr < 0)
            return false;
        for (size_t r = 0; r < clip->tracks[0].key_count; r++) {
            const clip_segment *a = &clip->segments[(size_t)first + r * clip->seg_stride];
            const clip_segment *b = &clip->segments[(size_t)tr + r * clip->seg_stride];
            if (memcmp(&a->time, &b->time, sizeof a->time) != 0 || memcmp(&a->end, &b->end, sizeof a->end) != 0)
                return false;
        }
    }
    return true;
}

/* Fields a lane of a row plan holds. */
static size_t row_fields_of(bool lean) { return lean ? LEAN_FIELDS : SAMPLE_FIELDS; }

/* A row plan's floats: its rows, then (lean) two a row for their spans. */
static size_t row_plan_floats(const rune_clip *clip, const int32_t *lane_track, size_t lanes)
{
    if (!by_rows(clip) || lanes == 0)
        return 0;
    size_t rows = clip->tracks[0].key_count, padded = row_plan_lanes(lanes);
    if (rows > ROW_PLAN_MAX_BYTES / sizeof(float) / (padded * LEAN_FIELDS + 2))
        return 0; /* too long even lean: not worth asking */
    bool lean = rows_lean(clip, lane_track, lanes);
    size_t per_row = padded * row_fields_of(lean) + (lean ? 2 : 0);
    return rows <= ROW_PLAN_MAX_BYTES / sizeof(float) / per_row ? rows * per_row : 0;
}

/* Where chunk `first` of row r of a row plan of `row_lanes` lanes and
 * `fields` fields a lane starts (in floats): its fields side by side,
 * each *stride (the chunk's lanes) long. */
static size_t row_chunk(size_t row_lanes, size_t fields, size_t r, size_t first, size_t *stride)
{
    *stride = row_lanes - first < RUNE_SAMPLE_CHUNK ? row_lanes - first : RUNE_SAMPLE_CHUNK;
    return (r * row_lanes + first) * fields;
}

/* The plan's header, then (64-byte aligned) what it holds. */
static size_t plan_head(void) { return (sizeof(struct sample_plan) + 63) / 64 * 64; }

size_t rune__sample_plan_bytes(const rune_clip *clip, const int32_t *lane_track, size_t lanes)
{
    size_t body = clip->packed ? rune__pack_plan_bytes(clip->packed, lane_track, lanes, clip->track_count)
                               : row_plan_floats(clip, lane_track, lanes) * sizeof(float);
    /* 63 bytes of slack: the memory is only 16-byte aligned */
    return body ? plan_head() + 63 + body : 0;
}

/* Lane i's segment and cover on row r as the kernel's fields, field k at
 * to[k * stride] (lean: those before F_TIME). */
static void row_plan_lane(const rune_clip *clip, int32_t track, size_t r, bool lean, float *to, size_t stride)
{
    size_t pos = track >= 0 ? (size_t)track + r * clip->seg_stride : clip->key_count; /* else the null key */
    const clip_segment *g = &clip->segments[pos];
    clip_segment_cover cv = {g->time > -INFINITY ? 1.0f : 0.0f, 0.0f, 0.0f, 0.0f}; /* plain: as the kernel reads */
    if (!clip->plain_covers)
        cv = clip->covers[pos];
    rune__segment_fields(g, lean ? NULL : &cv, lean, to, stride);
}

const sample_plan *rune__sample_plan_init(const rune_clip *clip, const int32_t *lane_track, size_t lanes, void *memory)
{
    struct sample_plan *plan = memory;
    uintptr_t body = ((uintptr_t)memory + plan_head() + 63) & ~(uintptr_t)63;
    *plan = (struct sample_plan){0};
    if (clip->packed) {
        plan->pack = rune__pack_plan_init(clip->packed, lane_track, lanes, clip->track_count, (void *)body);
        return plan;
    }
    bool lean = rows_lean(clip, lane_track, lanes);
    size_t padded = row_plan_lanes(lanes), rows = clip->tracks[0].key_count, fields = row_fields_of(lean);
    float *out = (float *)body;
    for (size_t r = 0; r < rows; r++)
        for (size_t first = 0; first < padded; first += RUNE_SAMPLE_CHUNK) {
            size_t stride;
            float *chunk = out + row_chunk(padded, fields, r, first, &stride);
            for (size_t i = 0; i < stride; i++) {
                int32_t tr = first + i < lanes ? lane_track_of(lane_track, clip->track_count, first + i) : -1;
                row_plan_lane(clip, tr, r, lean, chunk + i, stride);
            }
        }
    if (lean) { /* every lane's time and end: lane 0's */
        float *spans = out + rows * padded * fields;
        size_t track = (size_t)lane_track_of(lane_track, clip->track_count, 0);
        for (size_t r = 0; r < rows; r++) {
            const clip_segment *g = &clip->segments[track + r * clip->seg_stride];
            spans[2 * r] = g->time, spans[2 * r + 1] = g->end;
        }
        plan->spans = spans;
    }
    plan->rows = out;
    plan->row_lanes = (uint32_t)padded;
    return plan;
}

rune_status rune__sample_cache_create_planned(const rune_clip *clip, const int32_t *lane_track, size_t lanes,
                                              const sample_plan *plan, rune_simd_level level,
                                              const rune_allocator *alloc, rune_sample_cache **out, rune_error *err)
{
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    size_t padded = kernel_lanes(lanes);
    if (padded == 0)
        padded = KERNEL_LANES;
    size_t keys = key_lanes(clip, padded);
    if (padded > (SIZE_MAX / 2 - sizeof(rune_sample_cache)) / (sizeof(uint32_t) + 1))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a sample cache");
    size_t head = align16(sizeof(rune_sample_cache) + keys * (sizeof(uint32_t) + 1));
    size_t own_plan = clip->packed && !plan ? rune__sample_plan_bytes(clip, lane_track, lanes) : 0;
    size_t bytes = own_plan <= SIZE_MAX - head ? head + own_plan : SIZE_MAX;
    rune_sample_cache *c = rune__calloc(alloc, 1, bytes);
    if (!c)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a sample cache");
    c->block_size = bytes;
    c->alloc = *alloc;
    c->clip = clip;
    c->lane_track = lane_track;
    c->lanes = lanes;
    c->padded = padded;
    c->level = rune_simd_resolve(level);
    c->kernels = kernels_for(c->level);
    if (own_plan)
        plan = rune__sample_plan_init(clip, lane_track, lanes, (char *)c + head);
    if (clip->packed)
        rune__pack_cursor_init(&c->pack, plan->pack, c->level);
    if (plan && plan->rows) {
        c->rows = plan->rows;
        c->spans = plan->spans;
        c->row_lanes = plan->row_lanes;
    }
    c->bad = (uint8_t *)(c->key + keys);
    rune_sample_cache_reset(c);
    *out = c;
    return RUNE_OK;
}

rune_status rune_sample_cache_create_lanes(const rune_clip *clip, const int32_t *lane_track, size_t lanes,
                                           rune_simd_level level, const rune_allocator *alloc,
                                           rune_sample_cache **out, rune_error *err)
{
    RUNE_REQUIRE(err, clip, "clip");
    RUNE_REQUIRE(err, out, "out");
    return rune__sample_cache_create_planned(clip, lane_track, lanes, NULL, level, alloc, out, err);
}

rune_status rune_sample_cache_create(const rune_clip *clip, rune_simd_level level, const rune_allocator *alloc,
                                     rune_sample_cache **out, rune_error *err)
{
    RUNE_REQUIRE(err, clip, "clip");
    RUNE_REQUIRE(err, out, "out");
    return rune_sample_cache_create_lanes(clip, NULL, clip->track_count, level, alloc, out, err);
}

void rune_sample_cache_destroy(rune_sample_cache *c)
{
    if (!c)
        return;
    rune_allocator a = c->alloc;
    rune__free(&a, c, 1, c->block_size);
}

const rune_clip *rune_sample_cache_clip(const rune_sample_cache *c) { return c->clip; }
const int32_t *rune_sample_cache_lane_tracks(const rune_sample_cache *c) { return c->lane_track; }
rune_simd_level rune_sample_cache_level(const rune_sample_cache *c) { return c->level; }
size_t rune_sample_cache_seeks(const rune_sample_cache *c) { return c->seeks; }
size_t rune_sample_cache_lane_count(const rune_sample_cache *c) { return c->lanes; }
size_t rune_sample_cache_bytes(const rune_sample_cache *c) { return c->block_size; }

void rune_sample_cache_prefetch(const rune_sample_cache *c, int stage)
{
    if (stage == 0) { /* the fields every sample reads (two lines) */
        rune__prefetch_range(c, offsetof(struct rune_sample_cache, pack), false);
        return;
    }
    if (c->clip->packed) {
        rune__prefetch_range(&c->pack, sizeof c->pack, false);
        return;
    }
    const char *keys = (const char *)c->key;
    rune__prefetch_range(keys, key_lanes(c->clip, c->padded) * sizeof *c->key, false);
}

/* Scale, for clips with scale keys: linear along each lane's segment, with
 * the kernel's u (eased lanes are redone by the exact sampler after). */
static void sample_scale(const rune_clip *clip, const uint32_t *key, float t, const sample_dest *o, size_t lanes)
{
    const clip_segment *seg = clip->segments;
    const clip_scale_segment *sc = clip->scales;
    for (size_t i = 0; i < lanes; i++) {
        const clip_segment *g = &seg[key[i]];
        const clip_scale_segment *s = &sc[key[i]];
        float u = rune__segment_u(t, g->time, g->end);
        o->sx[i] = s->x + s->dx * u;
        o->sy[i] = s->y + s->dy * u;
        o->sz[i] = s->z + s->dz * u;
    }
}

/* Chunk `first` of the play's row of its row plan. */
static row_fields row_of(const rune_sample_cache *c, size_t first)
{
    row_fields rf;
    size_t at = row_chunk(c->row_lanes, row_fields_of(c->spans != NULL), c->row, first, &rf.stride);
    rf.f = c->rows + at;
    rf.span = c->spans ? c->spans + 2 * (size_t)c->row : NULL;
    return rf;
}

bool rune__sample_cache_sample_to(rune_sample_cache *c, float t, size_t first, size_t count, const sample_dest *o)
{
    if (first >= c->lanes || first % RUNE_SAMPLE_CHUNK != 0)
        return false; /* a misaligned chunk would read past the padded lanes */
    if (count > RUNE_SAMPLE_CHUNK)
        count = RUNE_SAMPLE_CHUNK;
    if (count > c->lanes - first)
        count = c->lanes - first;
    if (c->clip->packed)
        return rune__packed_sample_to(&c->pack, first, kernel_lanes(count), t, o);
    if (!(t >= c->lo && t < c->hi))
        refill(c, t);
    /* lanes are padded to KERNEL_LANES (padding sits on the null key),
     * and chunks start on multiples of it */
    size_t lanes = kernel_lanes(count);
    const rune_clip *clip = c->clip;
    bool scaled = clip->scales != NULL; /* unscaled clips leave sx, sy, sz unwritten */
    uint32_t row_key[RUNE_SAMPLE_CHUNK];
    const uint32_t *key = row_key; /* a row play's keys are made here; the others' kept in key[] */
    if (c->rows) { /* the plan's row as arrays; keys only for what follows the kernel */
        row_fields rf = row_of(c, first);
        c->kernels.fields(&rf, t, o, lanes);
        for (size_t i = c->lanes - first; rf.span && i < lanes; i++) /* a lean row's padding weighs nothing */
            o->weight[i] = o->coverage[i] = 0.0f;
        if (!scaled && !c->any_exact)
            return false;
        row_keys(c, first, lanes, row_key);
    } else {
        if (by_rows(clip))
            row_keys(c, first, lanes, row_key);
        else
            key = &c->key[first];
        c->kernels.sample(clip->segments, clip->plain_covers ? NULL : clip->covers, key, t, o, lanes);
    }
    if (scaled)
        sample_scale(clip, key, t, o, lanes);
    for (size_t i = 0; c->any_exact && i < count; i++) {
        if (clip->key_fast[key[i]])
            continue;
        rune_key_sample s;
        rune_clip_sample_track(c->clip, (size_t)track_of(c, first + i), t, &s);
        o->x[i] = s.t.x, o->y[i] = s.t.y, o->z[i] = s.t.z;
        o->qx[i] = s.r.x, o->qy[i] = s.r.y, o->qz[i] = s.r.z, o->qw[i] = s.r.w;
        o->weight[i] = s.weight, o->mask[i] = s.mask_weight, o->coverage[i] = s.coverage;
        if (scaled) /* without scale keys an exact lane's scale is 1 too */
            o->sx[i] = s.s.x, o->sy[i] = s.s.y, o->sz[i] = s.s.z;
    }
    return scaled;
}

bool rune__sample_cache_fields(rune_sample_cache *c, float t, size_t first, row_fields *out)
{
    if (!c->rows || c->clip->scales || first >= c->lanes || first % RUNE_SAMPLE_CHUNK != 0)
        return false;
    if (!(t >= c->lo && t < c->hi))
        refill(c, t);
    if (c->any_exact) /* an eased key on the row: sample_to fixes such lanes up after the kernel */
        return false;
    *out = row_of(c, first);
    return true;
}

bool rune__sample_cache_lane_transform(const rune_sample_cache *c, size_t lane, const rune_clip *clip, int32_t track,
                                       float t, uint32_t *key, rune_vec3 *translation, rune_quat *rotation)
{
    if (!c->rows || c->clip != clip || lane >= c->lanes || !(t >= c->lo && t < c->hi) || c->any_exact ||
        track_of(c, lane) != track)
        return false;
    row_fields rf = row_of(c, lane / RUNE_SAMPLE_CHUNK * RUNE_SAMPLE_CHUNK);
    size_t i = lane % RUNE_SAMPLE_CHUNK;
    /* the kernels' lane, u as they take it (a lean row's once for the row) */
    bool lean = rf.span != NULL;
    float row_u = lean ? rune__segment_u(t, rf.span[0], rf.span[1]) : 0.0f;
    sample_lane s = rune__sample_row_lane(rf.f, rf.stride, i, t, lean, row_u);
    *key = c->row; /* a time-major clip's row is every track's key */
    *translation = rune_v3(s.x, s.y, s.z);
    *rotation = s.r;
    return true;
}

void rune_sample_cache_sample(rune_sample_cache *c, float t, size_t first, size_t count, rune_sample_chunk *o)
{
    if (first >= c->lanes || first % RUNE_SAMPLE_CHUNK != 0)
        return; /* a chunk past the lanes is left as it is */
    sample_dest d = rune__chunk_dest(o);
    o->scaled = rune__sample_cache_sample_to(c, t, first, count, &d);
}
