/* What the stages above read of a compiled clip and how they sample it
 * fast: the clip's fields one at a time, its stored compressed form, the
 * batch sampler's per-play cache (rune_sample_cache) and its chunks, and
 * the clip cache. The public view of a clip is rune_clip_describe. */
#ifndef RUNE_SRC_CLIP_ACCESS_INTERNAL_H
#define RUNE_SRC_CLIP_ACCESS_INTERNAL_H

#include "rune/clip.h"
#include "../math/simd_internal.h"

/** Accessors of a compiled clip: its id, revision, compile serial, length
 * (largest key time), loop flag and priority. */
const char *rune_clip_id(const rune_clip *clip);
uint32_t rune_clip_revision(const rune_clip *clip);
/** Process-unique number of this compilation; caches key on it. */
uint64_t rune_clip_serial(const rune_clip *clip);
float rune_clip_length(const rune_clip *clip);
bool rune_clip_loops(const rune_clip *clip);
int rune_clip_priority(const rune_clip *clip);

/** Tracks of a clip (sorted by parent, then part) and their keys. */
size_t rune_clip_track_count(const rune_clip *clip);
const char *rune_clip_track_parent(const rune_clip *clip, size_t track);
const char *rune_clip_track_part(const rune_clip *clip, size_t track);
size_t rune_clip_track_key_count(const rune_clip *clip, size_t track);
/** Time of key k of a track (keys ascending). */
float rune_clip_track_key_time(const rune_clip *clip, size_t track, size_t key);

/** Number of markers of a clip. */
size_t rune_clip_marker_count(const rune_clip *clip);
/** Markers are sorted by pos (ties keep definition order). */
const rune_marker *rune_clip_markers(const rune_clip *clip);
/** Whether some key's scale is not 1 1 1 (then samples carry scale). */
bool rune_clip_has_scale(const rune_clip *clip);
/** Keys of all tracks together (after duplicates were dropped). */
size_t rune_clip_key_count(const rune_clip *clip);
/** Bytes the compiled clip holds in memory (keys, segments, names). */
size_t rune_clip_bytes(const rune_clip *clip);
/** Float curves of a clip, sorted by name, and their keys. */
size_t rune_clip_curve_count(const rune_clip *clip);
const char *rune_clip_curve_name(const rune_clip *clip, size_t curve);
size_t rune_clip_curve_key_count(const rune_clip *clip, size_t curve);
/** Keys of all curves together. */
size_t rune_clip_curve_key_total(const rune_clip *clip);
/** Bytes of a compressed clip's stored form (docs/format.md, the
 * compressed clip section); 0 for a clip that holds keys. */
size_t rune_clip_packed_size(const rune_clip *clip);
/** Writes a compressed clip's stored form (rune_clip_packed_size bytes,
 * little-endian) to `out`; nothing for a clip that holds keys. The form
 * holds the joints' data, not float curves: a .rune keeps those in a
 * curves section of their own (rune_asset_encode writes both). */
void rune_clip_packed_write(const rune_clip *clip, void *out);
/** Rebuilds a compressed clip from its stored form. Every count, offset,
 * width, range, name and number is checked first: a corrupt form fails
 * (RUNE_E_PARSE, "compressed clip: " and what is wrong) and builds
 * nothing. The clip samples bit for bit as the one written. */
rune_status rune_clip_packed_read(const void *data, size_t size, const rune_allocator *alloc,
                                           rune_clip **out, rune_error *err);

/** A track's translation and rotation at time t as the batch sampler
 * (rune_sample_cache) computes them: on linear keys the segment's lerp and
 * the trigonometry-free slerp series (within 7e-9 of the exact slerp of
 * rune_clip_sample_track), on eased keys and packed clips that function's
 * result. Root motion reads the root track through it, so the travel it
 * reports is that of the sampled root. */
void rune_clip_sample_transform(const rune_clip *clip, size_t track, float t, rune_vec3 *translation,
                                         rune_quat *rotation);

/** The same, starting the key search at `*key` (a key index within the
 * track: the last key at or before t, the first key when t is before it)
 * and leaving there the key it used. Any value is accepted -- a wrong
 * guess only costs the search -- and the result is the same bits as
 * rune_clip_sample_transform's. A caller sampling one track at increasing
 * times (root motion, a frame at a time) so skips the search. */
void rune_clip_sample_transform_near(const rune_clip *clip, size_t track, float t, uint32_t *key,
                                              rune_vec3 *translation, rune_quat *rotation);

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
rune_status rune_sample_cache_create(const rune_clip *clip, rune_simd_level level, const rune_allocator *alloc,
                                     rune_sample_cache **out, rune_error *err);
/** Builds a cache of `lanes` lanes where lane i samples track
 * lane_track[i]; a negative or out-of-range entry gives that lane identity
 * and coverage 0. `lane_track` is not copied: it, and the clip, must
 * outlive the cache (rune_binding_sampler_create passes the binding's). */
rune_status rune_sample_cache_create_lanes(const rune_clip *clip, const int32_t *lane_track, size_t lanes,
                                           rune_simd_level level, const rune_allocator *alloc,
                                           rune_sample_cache **out, rune_error *err);
void rune_sample_cache_destroy(rune_sample_cache *cache);
/** Forgets every cursor, as if new (a cache reused for another play). */
void rune_sample_cache_reset(rune_sample_cache *cache);
const rune_clip *rune_sample_cache_clip(const rune_sample_cache *cache);
/** The lane map given at creation (NULL: lane i is track i). */
const int32_t *rune_sample_cache_lane_tracks(const rune_sample_cache *cache);
rune_simd_level rune_sample_cache_level(const rune_sample_cache *cache);
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
void rune_sample_cache_sample(rune_sample_cache *cache, float t, size_t first, size_t count, rune_sample_chunk *out);
/** Number of lanes. */
size_t rune_sample_cache_lane_count(const rune_sample_cache *cache);
/** Bytes the cache holds (its one allocation): a play's memory. */
size_t rune_sample_cache_bytes(const rune_sample_cache *cache);
/** How many binary searches the cache has done (seeks, not steady play). */
size_t rune_sample_cache_seeks(const rune_sample_cache *cache);
/** Stages of rune_sample_cache_prefetch. */
#define RUNE_SAMPLE_CACHE_PREFETCH_STAGES 2
/** Asks the CPU to start loading the cache's per-play state, in stages:
 * 0 the part of its header every sample reads (nothing is read), 1 a
 * compressed clip's cursor or its key cursors (the clip and their count
 * are read from the header, which stage 0 asked for). In a loop over
 * many plays issue stage s for the play RUNE_SAMPLE_CACHE_PREFETCH_STAGES
 * - s ahead (animators, motion players and rune_batch do). Changes
 * nothing. */
void rune_sample_cache_prefetch(const rune_sample_cache *cache, int stage);

/** Caches compiled clips by sequence id + revision. */
typedef struct rune_clip_cache rune_clip_cache;

/** Creates an empty clip cache. */
rune_status rune_clip_cache_create(const rune_allocator *alloc, rune_clip_cache **out, rune_error *err);
/** Frees the cache and every clip it holds. */
void rune_clip_cache_destroy(rune_clip_cache *cache);
/** Returns the cached clip for (desc->id, desc->revision), compiling only on a
 * miss. A new revision of a known id replaces (and frees) the old clip:
 * bindings to it must be reacquired. The clip stays owned by the cache. */
rune_status rune_clip_cache_acquire(rune_clip_cache *cache, const rune_sequence_desc *desc,
                                    const rune_clip **out, rune_error *err);
/** Looks a clip up by id without compiling; NULL when absent. */
const rune_clip *rune_clip_cache_find(const rune_clip_cache *cache, const char *id);
/** How many compilations the cache has performed. */
size_t rune_clip_cache_builds(const rune_clip_cache *cache);

#endif
