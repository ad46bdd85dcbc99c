/* What the rig stage's files share beyond the public header: the rest
 * frames in structure-of-arrays form, kept beside the rig's own arrays so
 * the matrix kernels read them in place. */
#ifndef RUNE_SRC_RIG_INTERNAL_H
#define RUNE_SRC_RIG_INTERNAL_H

#include "rune/rig.h"
#include "../clip/clip_access_internal.h"

/* Rest frames as channels (translation, rotation, scale), padded to
 * RUNE_POSE_LANES lanes with identity; the rig keeps this view with them.
 * Valid until the rig changes.
 * `rot`: each frame rotation's 3x3 matrix, element (row r, column c) in
 * rot[c * 3 + r], so the matrix kernel moves a pose's translation into
 * the frame with 9 products instead of a quaternion rotation.
 * `scaled`: some joint's rest scale is not 1 1 1. */
typedef struct rig_frame_lanes {
    const float *tx, *ty, *tz, *qx, *qy, *qz, *qw, *sx, *sy, *sz;
    const float *rot[9];
    bool scaled;
} rig_frame_lanes;

const rig_frame_lanes *rune__rig_frame_lanes(const rune_rig *rig);

/* Grows a box by a pose's joints in model space (m: room for the joints'
 * matrices); the largest side of a box (0 when empty or not finite).
 * Exported for the compressor (rune_compress), which measures the box a
 * clip sweeps. */
RUNE_API void rune__rig_grow_box(const rune_rig *rig, const rune_pose *pose, rune_mat4 *m, float lo[3], float hi[3]);
RUNE_API float rune__rig_box_height(const float lo[3], const float hi[3]);

/* The layout signature of the joints alone (curves left out): what a
 * retarget mapping's target must keep. */
uint64_t rune__rig_joint_signature(const rune_rig *rig);

/* The joint whose parent's part and own part are these ((parent part,
 * part) pairs are unique in a rig; "" for a root's parent), or -1. */
int32_t rune__rig_find_pair(const rune_rig *rig, const char *parent_part, const char *part);
/* rune_rig_find_joint, its messages naming the rig as `rig_words` ("the
 * source rig"). */
rune_status rune__rig_find_in(const rune_rig *rig, const char *name, const char *rig_words, int32_t *joint,
                              rune_error *err);
/* The first joint named `part` and (*count) how many are; -1 when none. */
int32_t rune__rig_find_part(const rune_rig *rig, const char *part, uint32_t *count);

/* A binding of `clip` (sampled) made from `source`, owning `owned` (the
 * retargeted copy, or NULL; freed also on failure), `retarget_id` its
 * mapping's id or 0 (clip_binding.c). */
rune_status rune__binding_make(const rune_rig *rig, const rune_clip *clip, const rune_clip *source, rune_clip *owned,
                               uint32_t retarget_id, const rune_allocator *alloc, rune_binding **out, rune_error *err);

/** The parent's part name, "" for a root. */
const char *rune_rig_parent_part(const rune_rig *rig, size_t joint);
/** All parent indexes, joint order (rune_rig_joint_count entries; valid
 * until the rig changes). */
const int32_t *rune_rig_parents(const rune_rig *rig);
/** All rest frames, joint order (valid until the rig changes). */
const rune_xform *rune_rig_frames(const rune_rig *rig);

/** Resolves a mask over the rig hierarchy into one weight per joint: a
 * joint's own entry wins; otherwise it inherits the weight of its nearest
 * ancestor whose entry propagates (ancestors whose entries do not propagate
 * are looked through); otherwise 0. `out` has rune_rig_joint_count entries.
 * Entries naming joints outside the rig are ignored. */
void rune_mask_resolve(const rune_rig *rig, const rune_mask_entry *entries, size_t count, float *out);

/** Identity transforms and scale 1, coverage 0 (the storage default of
 * unkeyed joints), padding lanes included; not scaled; curves 0 with
 * coverage 0. The scale lanes of a pose that is not `scaled` are 1
 * already (see rune_pose.scaled) and are not rewritten. */
void rune_pose_reset(rune_pose *pose);

/** Copies every channel of the lanes both poses have (joints and
 * padding), the curves both have, and whether the source is scaled. */
void rune_pose_copy(rune_pose *dst, const rune_pose *src);

/** Asks the CPU to start loading the lines a frame reads or writes of a
 * pose (translation, rotation, coverage, the scale channels only when the
 * pose is scaled, the curves), for loops over many characters: a hint,
 * never a fault. `write`: the lines are about to be written. */
void rune_pose_prefetch(const rune_pose *pose, bool write);

/** rune_rig_model_xforms with the kernels of a given instruction set
 * (the same bits at every level without FMA). */
void rune_rig_model_xforms_at(const rune_rig *rig, const rune_pose *pose, rune_simd_level level,
                                       rune_xform *out);
/** rune_rig_model_matrices with the kernels of a given instruction set. */
void rune_rig_model_matrices_at(const rune_rig *rig, const rune_pose *pose, rune_simd_level level,
                                         rune_mat4 *out);
/** Rigs of up to this many joints stream their matrices
 * (rune_rig_model_matrices_stream): the stack holds them first. */
#define RUNE_STREAM_MAX_JOINTS 256
/** rune_rig_model_matrices_at, written with streaming stores: `out` is
 * written once, whole joints in joint order, and never read, so its lines
 * are not fetched before they are written and do not displace what the
 * cache holds. For matrices read later in the frame or by another device:
 * a crowd whose skinning runs after every character updated, a mapped GPU
 * upload buffer (slow to read). The matrices are made on the stack first
 * (16 KB at most). A rig of more than RUNE_STREAM_MAX_JOINTS joints is
 * computed in `out` as rune_rig_model_matrices_at does (its parents read
 * back from it), and an `out` not aligned to the kernels' vector width
 * (16 bytes, 32 with AVX2, 64 with AVX-512: a 64-byte boundary suits
 * every level) is copied in through the cache. Ends with a store fence,
 * so another thread that synchronizes with this one sees them. The same
 * bits as rune_rig_model_matrices_at. */
void rune_rig_model_matrices_stream(const rune_rig *rig, const rune_pose *pose, rune_simd_level level,
                                             rune_mat4 *out);
/** A process-unique id (never 0, never reused): part of a binding's identity. */
uint32_t rune_retarget_id(const rune_retarget *retarget);
/** Mapped target joints. */
/** The source joint a target joint takes its motion from, or -1; how it
 * was mapped; its profile bone (rune_retarget_target, one at a time). */
int32_t rune_retarget_source_of(const rune_retarget *retarget, size_t target_joint);
rune_retarget_match rune_retarget_how(const rune_retarget *retarget, size_t target_joint);
const char *rune_retarget_bone(const rune_retarget *retarget, size_t target_joint);
/** Skinning matrices: out[j] = model[j] * inverse_bind[j]. */
void rune_skinning_matrices(const rune_mat4 *model, const rune_mat4 *inverse_bind, size_t count, rune_mat4 *out);
size_t rune_retarget_mapped_count(const rune_retarget *retarget);
/** The ratio of hip heights (target / source) translations are scaled by. */
float rune_retarget_scale(const rune_retarget *retarget);
/** Joint counts of the rigs it was made for. */
size_t rune_retarget_source_joints(const rune_retarget *retarget);
size_t rune_retarget_target_joints(const rune_retarget *retarget);
/** The name form matching falls back to: after the last ':' (a
 * "mixamorig:" prefix), lower case, a side token (a leading "left",
 * "right", "l_", "r_", "l.", "r.", or a trailing "_l", "_r", ".l", ".r",
 * " l", " r") moved to the front as "left"/"right", then letters and digits
 * only: "mixamorig:LeftUpLeg", "UpLeg_L", "L_UpLeg" and "upleg.l" are all
 * "leftupleg". Writes at most `size` bytes (NUL included); returns buf. */
const char *rune_retarget_normalize(const char *name, char *buf, size_t size);

/** Bytes the binding holds in memory: its track and joint maps, a
 * retargeted clip it owns and the plan its samplers share, if any: for a
 * compressed clip every segment's decoding tables of the animated
 * channels it binds, 32 bytes a channel and segment (docs/format.md); for
 * an exact clip keyed at the same times on every track, when it comes to
 * at most 1 MiB, the clip's segments again in the rig's joint order, 80
 * bytes a joint (rounded up to 16 joints) and key -- 56, and 8 a key,
 * where every joint is keyed with weight 1 and mask 0 (docs/performance.md,
 * "How a frame runs"). */
size_t rune_binding_bytes(const rune_binding *binding);

/** Curves of the bound rig the binding samples (rune_rig_curve_count at
 * binding time). */
size_t rune_binding_curve_count(const rune_binding *binding);
/** Samples the rig's curves [first, first + count) at time t into
 * value[0..count) and coverage[0..count) (0 and 0 where the clip has no
 * such curve). */
void rune_binding_sample_curves(const rune_binding *binding, float t, size_t first, size_t count,
                                         float *value, float *coverage);

/** Creates the per-play fast sampler of a binding: a sample cache of the
 * binding's clip whose lanes are the rig's joints (lane j samples the track
 * bound to joint j; unbound joints give identity with coverage 0), so
 * sampled chunks are already in joint order. The binding must outlive it. */
rune_status rune_binding_sampler_create(const rune_binding *binding, rune_simd_level level,
                                        const rune_allocator *alloc, rune_sample_cache **out, rune_error *err);
/** True when `cache` came from rune_binding_sampler_create for `binding`. */
bool rune_binding_sampler_matches(const rune_binding *binding, const rune_sample_cache *cache);

/** Samples joints [first, first + count) at time t into a chunk (entry i is
 * joint first + i): through `cache` when it is this binding's sampler (the
 * fast path: cursors, vectorized interpolation), otherwise with the exact
 * sampler. `first` must be a multiple of RUNE_SAMPLE_CHUNK (otherwise
 * nothing is written). Returns how many entries it wrote: count, less past
 * the binding's joints or the chunk. */
size_t rune_binding_sample_chunk(const rune_binding *binding, rune_sample_cache *cache, float t, size_t first,
                                 size_t count, rune_sample_chunk *out);

/** rune_binding_sample through the binding's sampler `cache` (any other
 * cache, or NULL, samples exactly). */
void rune_binding_sample_cached(const rune_binding *binding, rune_sample_cache *cache, float t, rune_pose *pose);

/** Caches bindings by (clip serial, rig layout signature, retarget id). */
typedef struct rune_binding_cache rune_binding_cache;

/** Creates an empty binding cache; destroy frees every binding in it. */
rune_status rune_binding_cache_create(const rune_allocator *alloc, rune_binding_cache **out, rune_error *err);
void rune_binding_cache_destroy(rune_binding_cache *cache);
/** Returns a cached binding or builds one. The binding stays owned by the
 * cache. */
rune_status rune_binding_cache_acquire(rune_binding_cache *cache, const rune_rig *rig, const rune_clip *clip,
                                       const rune_retarget *retarget, const rune_binding **out, rune_error *err);
size_t rune_binding_cache_builds(const rune_binding_cache *cache);


#endif
