/* rune/clip.h - keyframe sequences compiled into clips, the key sampler and
 * the clip cache.
 *
 * A sequence (the authoring form) lists keyframes; each keyframe holds poses
 * for some joints, named by parent part and own part. Compilation groups the
 * poses into one track per (parent, part), sorted by name, with keys sorted
 * by time, plus markers (named events) sorted by time. */
#ifndef RUNE_CLIP_H
#define RUNE_CLIP_H

#include "rune/base.h"
#include "rune/math.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** Number of priority ranks (core .. action4). */
#define RUNE_PRIORITY_COUNT 7

/** Mixer ranks, lowest first. */
typedef enum rune_priority {
    RUNE_PRIORITY_CORE = 0,
    RUNE_PRIORITY_IDLE,
    RUNE_PRIORITY_MOVEMENT,
    RUNE_PRIORITY_ACTION,
    RUNE_PRIORITY_ACTION2,
    RUNE_PRIORITY_ACTION3,
    RUNE_PRIORITY_ACTION4
} rune_priority;

/** A rank clamped into 0 .. RUNE_PRIORITY_COUNT-1. */
static inline int rune_priority_clamp(int priority)
{
    return priority < 0 ? 0 : (priority >= RUNE_PRIORITY_COUNT ? RUNE_PRIORITY_COUNT - 1 : priority);
}

/** Parses "core" .. "action4"; -1 when unknown. */
RUNE_API int rune_priority_from_name(const char *name);
RUNE_API const char *rune_priority_name(int priority);

/** One joint's pose in a keyframe. `parent` is "" for the root joint. */
typedef struct rune_key_pose_desc {
    const char *parent;
    const char *part;
    rune_vec3 t;
    rune_quat r;        /**< normalized on compile; a zero quaternion is rejected */
    float weight;       /**< pose weight, usually 1 */
    float mask_weight;  /**< usually 0 */
    rune_easing_style easing; /**< curve from the previous key to this one */
    rune_easing_dir direction;
    rune_vec3 s;        /**< scale, read only when `scaled` (linear between keys) */
    bool scaled;        /**< false: scale 1 1 1 */
} rune_key_pose_desc;

/** One key of a float curve: a named scalar channel of a clip (a morph
 * target's weight, a gameplay value), keyed like a joint: its coverage is
 * clamp(weight (1 - mask_weight), 0, 1) and the destination key's easing
 * shapes the interval, or with `spline` a cubic Hermite from the previous
 * key's out tangent to this key's in tangent (glTF CUBICSPLINE: tangents
 * in value per second). */
typedef struct rune_curve_key_desc {
    const char *name;
    float value;
    float weight;       /**< usually 1 */
    float mask_weight;  /**< usually 0 */
    rune_easing_style easing;
    rune_easing_dir direction;
    bool spline;        /**< the interval to this key is a Hermite spline */
    float in_tangent;   /**< spline: the slope arriving at this key */
    float out_tangent;  /**< spline: the slope leaving it */
} rune_curve_key_desc;

typedef struct rune_keyframe_desc {
    float time;
    const rune_key_pose_desc *poses;
    size_t pose_count;
    const rune_curve_key_desc *curves; /**< curve keys at this time (may be NULL) */
    size_t curve_count;
} rune_keyframe_desc;

typedef struct rune_marker_desc {
    float time;
    const char *name;
    const char *value; /**< may be NULL: stored as "" */
} rune_marker_desc;

/** A keyframe sequence: the uncompiled clip. Strings are copied on compile. */
typedef struct rune_sequence_desc {
    const char *id;
    uint32_t revision;
    bool loop;
    int priority; /**< 0 .. RUNE_PRIORITY_COUNT-1 */
    const rune_keyframe_desc *keyframes;
    size_t keyframe_count;
    const rune_marker_desc *markers;
    size_t marker_count;
    float length; /**< at least this long, seconds (0: the last key's time) */
} rune_sequence_desc;

typedef struct rune_clip rune_clip;

/** Compiles a sequence. Keys out of order are sorted; two keys of one track
 * (or of one float curve) at the same time keep the one listed later.
 * Fails (RUNE_E_INVALID, message naming keyframes[i].poses[j].field or
 * keyframes[i].curves.NAME.field) on a non-finite number, a zero
 * quaternion or an empty part or curve name. The clip length is the
 * largest key time, curve keys included (0 if all keys are at or before
 * 0). */
RUNE_API rune_status rune_clip_compile(const rune_sequence_desc *desc, const rune_allocator *alloc,
                              rune_clip **out, rune_error *err);
RUNE_API void rune_clip_destroy(rune_clip *clip);

/** Accessors of a compiled clip: its id, revision, compile serial, length
 * (largest key time), loop flag and priority. */
RUNE_API const char *rune_clip_id(const rune_clip *clip);
RUNE_API uint32_t rune_clip_revision(const rune_clip *clip);
/** Process-unique number of this compilation; caches key on it. */
RUNE_API uint64_t rune_clip_serial(const rune_clip *clip);
RUNE_API float rune_clip_length(const rune_clip *clip);
RUNE_API bool rune_clip_loops(const rune_clip *clip);
RUNE_API int rune_clip_priority(const rune_clip *clip);

/** Tracks of a clip (sorted by parent, then part) and their keys. */
RUNE_API size_t rune_clip_track_count(const rune_clip *clip);
RUNE_API const char *rune_clip_track_parent(const rune_clip *clip, size_t track);
RUNE_API const char *rune_clip_track_part(const rune_clip *clip, size_t track);
RUNE_API size_t rune_clip_track_key_count(const rune_clip *clip, size_t track);
/** Time of key k of a track (keys ascending). */
RUNE_API float rune_clip_track_key_time(const rune_clip *clip, size_t track, size_t key);

/** A named event of a clip. For looping clips `pos` is the time folded into
 * [0, length) (the place it fires in each cycle); otherwise pos == time. */
typedef struct rune_marker {
    float time;
    float pos;
    const char *name;
    const char *value;
} rune_marker;

/** Number of markers of a clip. */
RUNE_API size_t rune_clip_marker_count(const rune_clip *clip);
/** Markers are sorted by pos (ties keep definition order). */
RUNE_API const rune_marker *rune_clip_markers(const rune_clip *clip);
/** Whether some key's scale is not 1 1 1 (then samples carry scale). */
RUNE_API bool rune_clip_has_scale(const rune_clip *clip);
/** Keys of all tracks together (after duplicates were dropped). */
RUNE_API size_t rune_clip_key_count(const rune_clip *clip);
/** Bytes the compiled clip holds in memory (keys, segments, names). */
RUNE_API size_t rune_clip_bytes(const rune_clip *clip);
/** Key k (0 .. rune_clip_track_key_count - 1) of a track as compiled: its
 * time and pose (names point into the clip; `scaled` set when the clip
 * has scale). Compiling these keys again gives the same clip. */
RUNE_API void rune_clip_track_key(const rune_clip *clip, size_t track, size_t k, float *time,
                                  rune_key_pose_desc *out);

/** Float curves of a clip, sorted by name, and their keys. */
RUNE_API size_t rune_clip_curve_count(const rune_clip *clip);
RUNE_API const char *rune_clip_curve_name(const rune_clip *clip, size_t curve);
/** Index of a curve by name, or -1. */
RUNE_API int32_t rune_clip_find_curve(const rune_clip *clip, const char *name);
RUNE_API size_t rune_clip_curve_key_count(const rune_clip *clip, size_t curve);
/** Keys of all curves together. */
RUNE_API size_t rune_clip_curve_key_total(const rune_clip *clip);
/** Key k of a curve as compiled (compiling it again gives the same curve). */
RUNE_API void rune_clip_curve_key(const rune_clip *clip, size_t curve, size_t k, float *time,
                                  rune_curve_key_desc *out);

/** A curve's value at one time, with its weights and coverage. */
typedef struct rune_curve_sample {
    float value;
    float weight;
    float mask_weight;
    float coverage; /**< clamp(weight * (1 - mask_weight), 0, 1) */
} rune_curve_sample;

/** Samples a curve at time t (clip time: the caller wraps loops), the
 * rules of rune_clip_sample_track: the end keys hold outside, the
 * destination key's easing (or spline) inside; weights lerp by the eased
 * fraction (by the plain one for a spline). */
RUNE_API void rune_clip_sample_curve(const rune_clip *clip, size_t curve, float t, rune_curve_sample *out);

/** What a compressed clip holds (rune_clip_compress; docs/format.md). */
typedef struct rune_clip_compression {
    uint32_t samples;  /**< grid samples a track */
    float t0, dt;      /**< sample i is at t0 + i dt */
    float precision;   /**< the error bound asked for (rig units) */
    float shell;       /**< the virtual vertices' distance from each joint */
    float max_error;   /**< the largest error measured over every joint and sample */
    size_t raw_bytes;  /**< 10 x 4 bytes x tracks x samples: the clip as float samples */
    size_t animated;   /**< channels (rotation, translation, scale of a track) not constant */
    float curve_precision; /**< float curves: the absolute bound asked for (0: none, kept exact) */
    float curve_max_error; /**< and the largest error measured */
} rune_clip_compression;

/** Whether a clip is compressed; if so and `out` is not NULL, fills it.
 * A compressed clip samples, binds and plays as any other; its keys
 * (rune_clip_track_key) are its decoded grid samples. */
RUNE_API bool rune_clip_compressed(const rune_clip *clip, rune_clip_compression *out);

/** Bytes of a compressed clip's stored form (docs/format.md, the
 * compressed clip section); 0 for a clip that holds keys. */
RUNE_API size_t rune_clip_packed_size(const rune_clip *clip);
/** Writes a compressed clip's stored form (rune_clip_packed_size bytes,
 * little-endian) to `out`; nothing for a clip that holds keys. The form
 * holds the joints' data, not float curves: a .rune keeps those in a
 * curves section of their own (rune_asset_encode writes both). */
RUNE_API void rune_clip_packed_write(const rune_clip *clip, void *out);
/** Rebuilds a compressed clip from its stored form. Every count, offset,
 * width, range, name and number is checked first: a corrupt form fails
 * (RUNE_E_PARSE, "compressed clip: " and what is wrong) and builds
 * nothing. The clip samples bit for bit as the one written. */
RUNE_API rune_status rune_clip_packed_read(const void *data, size_t size, const rune_allocator *alloc,
                                           rune_clip **out, rune_error *err);

/** The value of one track at one time. */
typedef struct rune_key_sample {
    rune_vec3 t;
    rune_quat r;
    float weight;
    float mask_weight;
    float coverage; /**< clamp(weight * (1 - mask_weight), 0, 1) */
    rune_vec3 s;    /**< scale */
} rune_key_sample;

/** Samples a track at time t (clip time, not wrapped: the caller wraps loops).
 * Before the first key / after the last the end key holds; between keys the
 * destination key's easing shapes the normalized interval; t, weight and
 * mask weight lerp by the eased value and rotation slerps. */
RUNE_API void rune_clip_sample_track(const rune_clip *clip, size_t track, float t, rune_key_sample *out);

/** A track's translation and rotation at time t as the batch sampler
 * (rune_sample_cache) computes them: on linear keys the segment's lerp and
 * the trigonometry-free slerp series (within 7e-9 of the exact slerp of
 * rune_clip_sample_track), on eased keys and packed clips that function's
 * result. Root motion reads the root track through it, so the travel it
 * reports is that of the sampled root. */
RUNE_API void rune_clip_sample_transform(const rune_clip *clip, size_t track, float t, rune_vec3 *translation,
                                         rune_quat *rotation);

/** The same, starting the key search at `*key` (a key index within the
 * track: the last key at or before t, the first key when t is before it)
 * and leaving there the key it used. Any value is accepted -- a wrong
 * guess only costs the search -- and the result is the same bits as
 * rune_clip_sample_transform's. A caller sampling one track at increasing
 * times (root motion, a frame at a time) so skips the search. */
RUNE_API void rune_clip_sample_transform_near(const rune_clip *clip, size_t track, float t, uint32_t *key,
                                              rune_vec3 *translation, rune_quat *rotation);

/** Instruction sets of the vectorized kernels (sampling, mixing, matrices).
 * Every level computes the same formulas in the same order; the FMA levels
 * fuse multiplies and adds (one rounding instead of two), so their results
 * agree with the scalar level to within a few units in the last place
 * (tests/unit/test_mix.c, test_clip.c, test_rig.c measure it). */
typedef enum rune_simd_level {
    RUNE_SIMD_AUTO = 0, /**< the fastest this CPU supports */
    RUNE_SIMD_SCALAR,
    RUNE_SIMD_SSE2,
    RUNE_SIMD_AVX2,
    RUNE_SIMD_AVX2_FMA,  /**< AVX2 with fused multiply-add */
    RUNE_SIMD_AVX512,    /**< AVX-512 F/BW/VL/DQ with fused multiply-add */
    RUNE_SIMD_LEVEL_COUNT
} rune_simd_level;

/** The best level this build and CPU support. */
RUNE_API rune_simd_level rune_simd_best(void);
/** The level a request gets: AUTO becomes the best, a level the CPU lacks
 * falls back to the best it has. */
RUNE_API rune_simd_level rune_simd_resolve(rune_simd_level level);
/** "auto", "scalar", "sse2", "avx2", "avx2fma" or "avx512". */
RUNE_API const char *rune_simd_name(rune_simd_level level);
/** The level of a name as rune_simd_name gives it; -1 when unknown. */
RUNE_API int rune_simd_from_name(const char *name);
/** Whether this build and CPU can run a level. */
RUNE_API bool rune_simd_supported(rune_simd_level level);

/** Per-play sampling state of one clip: for every lane (a track, or a rig
 * joint, see rune_sample_cache_create_lanes) the key whose segment (the way
 * to the next key) the last sample fell in, plus the time window in which
 * all those segments still hold. A sample inside the window touches no
 * cursor; outside it, cursors step a few keys forward (or back, playing
 * backwards), and a binary search happens only after a seek.
 * Key values are read from the clip itself, so a play costs one key index
 * per lane. A vectorized kernel interpolates all lanes at once; results
 * equal rune_clip_sample_track within 1e-6. Create it when playback starts:
 * sampling never allocates.
 * A compressed clip's cache keeps no keys: each sample decodes the
 * segments it reads with their decoding tables, which a binding builds
 * once for all its plays (rune_binding_sampler_create shares them;
 * rune_binding_bytes counts them), so such a play holds a few hundred
 * bytes (rune_sample_cache_bytes). A cache made from the clip alone
 * (rune_sample_cache_create, _create_lanes) builds its own tables. */
typedef struct rune_sample_cache rune_sample_cache;

/** Builds a cache whose lane i samples track i of `clip`, using the kernel
 * of `level` (see rune_simd_resolve). The clip must outlive the cache. */
RUNE_API rune_status rune_sample_cache_create(const rune_clip *clip, rune_simd_level level, const rune_allocator *alloc,
                                     rune_sample_cache **out, rune_error *err);
/** Builds a cache of `lanes` lanes where lane i samples track
 * lane_track[i]; a negative or out-of-range entry gives that lane identity
 * and coverage 0. `lane_track` is not copied: it, and the clip, must
 * outlive the cache (rune_binding_sampler_create passes the binding's). */
RUNE_API rune_status rune_sample_cache_create_lanes(const rune_clip *clip, const int32_t *lane_track, size_t lanes,
                                           rune_simd_level level, const rune_allocator *alloc,
                                           rune_sample_cache **out, rune_error *err);
RUNE_API void rune_sample_cache_destroy(rune_sample_cache *cache);
/** Forgets every cursor, as if new (a cache reused for another play). */
RUNE_API void rune_sample_cache_reset(rune_sample_cache *cache);
RUNE_API const rune_clip *rune_sample_cache_clip(const rune_sample_cache *cache);
/** The lane map given at creation (NULL: lane i is track i). */
RUNE_API const int32_t *rune_sample_cache_lane_tracks(const rune_sample_cache *cache);
RUNE_API rune_simd_level rune_sample_cache_level(const rune_sample_cache *cache);
/** Lanes sampled per call: results land in a caller's chunk (on the
 * stack), so they stay in cache and per-play state stays small. */
#define RUNE_SAMPLE_CHUNK 64

/** Samples of up to RUNE_SAMPLE_CHUNK consecutive lanes, as arrays. */
typedef struct rune_sample_chunk {
    float x[RUNE_SAMPLE_CHUNK], y[RUNE_SAMPLE_CHUNK], z[RUNE_SAMPLE_CHUNK];
    float qx[RUNE_SAMPLE_CHUNK], qy[RUNE_SAMPLE_CHUNK], qz[RUNE_SAMPLE_CHUNK], qw[RUNE_SAMPLE_CHUNK];
    float sx[RUNE_SAMPLE_CHUNK], sy[RUNE_SAMPLE_CHUNK], sz[RUNE_SAMPLE_CHUNK];
    float weight[RUNE_SAMPLE_CHUNK], mask[RUNE_SAMPLE_CHUNK], coverage[RUNE_SAMPLE_CHUNK];
    bool scaled; /**< some lane's scale differs from 1; when false sx, sy, sz
                      are left unwritten by the samplers and read as 1 */
} rune_sample_chunk;

/** Writes one key sample into lane i of a chunk. */
static inline void rune_sample_chunk_set(rune_sample_chunk *chunk, size_t i, const rune_key_sample *s)
{
    chunk->x[i] = s->t.x, chunk->y[i] = s->t.y, chunk->z[i] = s->t.z;
    chunk->qx[i] = s->r.x, chunk->qy[i] = s->r.y, chunk->qz[i] = s->r.z, chunk->qw[i] = s->r.w;
    chunk->sx[i] = s->s.x, chunk->sy[i] = s->s.y, chunk->sz[i] = s->s.z;
    chunk->scaled |= s->s.x != 1.0f || s->s.y != 1.0f || s->s.z != 1.0f;
    chunk->weight[i] = s->weight, chunk->mask[i] = s->mask_weight, chunk->coverage[i] = s->coverage;
}

/** Samples lanes [first, first + count) at t (clip time, as
 * rune_clip_sample_track) into `out` (entry i is lane first + i).
 * `first` must be a multiple of RUNE_SAMPLE_CHUNK (otherwise nothing is
 * written) and count at most that; lanes past the cache's count are
 * ignored. */
RUNE_API void rune_sample_cache_sample(rune_sample_cache *cache, float t, size_t first, size_t count, rune_sample_chunk *out);
/** Number of lanes. */
RUNE_API size_t rune_sample_cache_lane_count(const rune_sample_cache *cache);
/** Bytes the cache holds (its one allocation): a play's memory. */
RUNE_API size_t rune_sample_cache_bytes(const rune_sample_cache *cache);
/** How many binary searches the cache has done (seeks, not steady play). */
RUNE_API size_t rune_sample_cache_seeks(const rune_sample_cache *cache);
/** Stages of rune_sample_cache_prefetch. */
#define RUNE_SAMPLE_CACHE_PREFETCH_STAGES 2
/** Asks the CPU to start loading the cache's per-play state, in stages:
 * 0 the part of its header every sample reads (nothing is read), 1 a
 * compressed clip's cursor or its key cursors (the clip and their count
 * are read from the header, which stage 0 asked for). In a loop over
 * many plays issue stage s for the play RUNE_SAMPLE_CACHE_PREFETCH_STAGES
 * - s ahead (animators, motion players and rune_batch do). Changes
 * nothing. */
RUNE_API void rune_sample_cache_prefetch(const rune_sample_cache *cache, int stage);

/** Caches compiled clips by sequence id + revision. */
typedef struct rune_clip_cache rune_clip_cache;

/** Creates an empty clip cache. */
RUNE_API rune_status rune_clip_cache_create(const rune_allocator *alloc, rune_clip_cache **out, rune_error *err);
/** Frees the cache and every clip it holds. */
RUNE_API void rune_clip_cache_destroy(rune_clip_cache *cache);
/** Returns the cached clip for (desc->id, desc->revision), compiling only on a
 * miss. A new revision of a known id replaces (and frees) the old clip:
 * bindings to it must be reacquired. The clip stays owned by the cache. */
RUNE_API rune_status rune_clip_cache_acquire(rune_clip_cache *cache, const rune_sequence_desc *desc,
                                    const rune_clip **out, rune_error *err);
/** Looks a clip up by id without compiling; NULL when absent. */
RUNE_API const rune_clip *rune_clip_cache_find(const rune_clip_cache *cache, const char *id);
/** How many compilations the cache has performed. */
RUNE_API size_t rune_clip_cache_builds(const rune_clip_cache *cache);

RUNE_END_DECLS

#endif
