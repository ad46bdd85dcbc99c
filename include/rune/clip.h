/* rune/clip.h - keyframe sequences compiled into clips, what a clip holds,
 * and sampling one track or curve at one time.
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
/** Frees a clip (NULL is fine). Bindings and libraries made from it must
 * be gone first: they borrow it. */
RUNE_API void rune_clip_destroy(rune_clip *clip);

/** A named event of a clip. For looping clips `pos` is the time folded into
 * [0, length) (the place it fires in each cycle); otherwise pos == time. */
typedef struct rune_marker {
    float time;
    float pos;
    const char *name;
    const char *value;
} rune_marker;

/** What a compiled clip holds (rune_clip_describe). Pointers point into
 * the clip and live as long as it does. */
typedef struct rune_clip_info {
    const char *id;             /**< the sequence's id */
    uint32_t revision;          /**< the sequence's revision */
    float length;               /**< seconds: the largest key time (or the sequence's length) */
    bool loops;
    int priority;               /**< mixer rank, 0 .. RUNE_PRIORITY_COUNT-1 */
    size_t track_count;         /**< joint tracks, sorted by parent, then part */
    size_t key_count;           /**< keys of all tracks (duplicates dropped) */
    size_t curve_count;         /**< float curves, sorted by name */
    size_t curve_key_count;     /**< keys of all curves */
    size_t marker_count;
    const rune_marker *markers; /**< sorted by pos (ties keep definition order) */
    bool has_scale;             /**< some key's scale is not 1 1 1 (samples carry scale) */
    bool compressed;            /**< made by rune_clip_compress (rune_clip_compressed says how) */
    size_t bytes;               /**< memory the clip holds (keys, segments, names) */
} rune_clip_info;

/** A compiled clip's identity, length and contents. */
RUNE_API rune_clip_info rune_clip_describe(const rune_clip *clip);

/** One joint track of a clip: the joint it names and how many keys. */
typedef struct rune_clip_track_info {
    const char *parent; /**< the parent's part ("" for a root) */
    const char *part;
    size_t key_count;
} rune_clip_track_info;

/** Track `track` (0 .. track_count - 1; anything else gives empty names
 * and no keys). */
RUNE_API rune_clip_track_info rune_clip_track(const rune_clip *clip, size_t track);

/** One float curve of a clip: its name and how many keys. */
typedef struct rune_clip_curve_info {
    const char *name;
    size_t key_count;
} rune_clip_curve_info;

/** Curve `curve` (0 .. curve_count - 1; anything else gives "" and no
 * keys). */
RUNE_API rune_clip_curve_info rune_clip_curve(const rune_clip *clip, size_t curve);

/** Key k (0 .. the track's key_count - 1) of a track as compiled: its
 * time and pose (names point into the clip; `scaled` set when the clip
 * has scale). Compiling these keys again gives the same clip. */
RUNE_API void rune_clip_track_key(const rune_clip *clip, size_t track, size_t k, float *time,
                                  rune_key_pose_desc *out);

/** Index of a curve by name, or -1. */
RUNE_API int32_t rune_clip_find_curve(const rune_clip *clip, const char *name);
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

RUNE_END_DECLS

#endif
