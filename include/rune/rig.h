/* rune/rig.h - rig layouts, poses, model matrices, retarget mappings and
 * clip bindings.
 *
 * A rig lists joints parent-first. A joint is named by its parent's part and
 * its own part ("Torso/LeftArm"; a root is just "Root"). Each joint has a
 * rest frame (the joint's offset from its parent); animation produces a
 * motor transform per joint that applies on top of that frame:
 *     model(j) = model(parent(j)) * frame(j) * pose(j).
 * Membership changes (adding joints) bump the topology revision and the
 * layout signature; frame edits bump only the frame revision, so bindings
 * survive them. */
#ifndef RUNE_RIG_H
#define RUNE_RIG_H

#include "rune/base.h"
#include "rune/math.h"
#include "rune/clip.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** One joint of a rig description. `parent` is NULL or "" for a root, the
 * part name of an earlier joint, or "Grandparent/Parent" when that part
 * name alone is ambiguous. Part names may not contain '/'. */
typedef struct rune_joint_desc {
    const char *part;
    const char *parent;
    rune_xform frame;
    rune_vec3 scale; /**< rest scale, read only when `scaled` */
    bool scaled;     /**< false: the rest scale is 1 1 1 */
} rune_joint_desc;

typedef struct rune_rig rune_rig;

/** Builds a rig. Rejects (RUNE_E_INVALID, naming joints[i]) a parent that
 * does not name an earlier joint, an ambiguous parent, a repeated
 * (parent, part) pair, an empty or '/'-containing part, a non-finite frame.
 * The frame rotation is normalized. */
RUNE_API rune_status rune_rig_create(const rune_joint_desc *joints, size_t count, const rune_allocator *alloc,
                            rune_rig **out, rune_error *err);
/** Frees a rig (NULL is fine). Poses, bindings, mappings made for it
 * keep no pointer to it, but bindings must not be sampled into a pose of
 * another layout. */
RUNE_API void rune_rig_destroy(rune_rig *rig);

/** Appends a joint (same rules as create); bumps the topology revision. */
RUNE_API rune_status rune_rig_add_joint(rune_rig *rig, const rune_joint_desc *joint, rune_error *err);

/** Number of joints (indexes 0 .. count-1, parents first). */
RUNE_API size_t rune_rig_joint_count(const rune_rig *rig);
/** Parent index, or -1 for a root. Parents always precede children. */
RUNE_API int32_t rune_rig_parent(const rune_rig *rig, size_t joint);
/** A joint's own part name (joint < rune_rig_joint_count; owned by the
 * rig). */
RUNE_API const char *rune_rig_part(const rune_rig *rig, size_t joint);
/** Writes "parent/part" (or "part" for a root) into buf; returns buf. */
RUNE_API const char *rune_rig_joint_name(const rune_rig *rig, size_t joint, char *buf, size_t size);
/** Index of the joint named "parent/part" or "part" (unique part name); -1. */
RUNE_API int32_t rune_rig_find(const rune_rig *rig, const char *name);
/** rune_rig_find with the reason when it finds nothing: RUNE_E_NOT_FOUND,
 * `no joint "X" in the rig` with the closest name suggested, or
 * RUNE_E_INVALID when a part name is shared, `"Arm" is ambiguous in the
 * rig: it matches A/Arm and B/Arm (name it as parent/part)`. *joint is -1
 * then. `name` may be NULL (not found). */
RUNE_API rune_status rune_rig_find_joint(const rune_rig *rig, const char *name, int32_t *joint, rune_error *err);

/** The rest frame of a joint. */
RUNE_API rune_xform rune_rig_frame(const rune_rig *rig, size_t joint);
/** Updates a rest frame. Bindings and the layout signature are unaffected. */
RUNE_API void rune_rig_set_frame(rune_rig *rig, size_t joint, rune_xform frame);
/** The rest scale of a joint (1 1 1 unless the rig gave one). A joint's
 * local transform is its frame composed with its pose as translation,
 * rotation, scale: t = frame.t + frame.r (scale * pose.t),
 * r = frame.r pose.r, s = scale * pose.s (componentwise), exact for a
 * uniform rest scale (docs/semantics.md). */
RUNE_API rune_vec3 rune_rig_frame_scale(const rune_rig *rig, size_t joint);
/** Updates a rest scale (ignored unless finite and within 1e18). */
RUNE_API void rune_rig_set_frame_scale(rune_rig *rig, size_t joint, rune_vec3 scale);
/** Whether some joint's rest scale is not 1 1 1. */
RUNE_API bool rune_rig_scaled(const rune_rig *rig);

/** Float curves of the rig: the named scalar channels its poses carry
 * beside the joints (morph target weights, gameplay values), in the order
 * added. Adding one (its index to *index; an existing name gives its
 * index) bumps the topology revision and the layout signature, so
 * bindings are remade: add curves before binding clips and creating
 * poses. */
RUNE_API rune_status rune_rig_add_curve(rune_rig *rig, const char *name, uint32_t *index, rune_error *err);
/** How many float curves the rig carries. */
RUNE_API size_t rune_rig_curve_count(const rune_rig *rig);
/** A curve's name (NULL out of range; owned by the rig). */
RUNE_API const char *rune_rig_curve_name(const rune_rig *rig, size_t curve);
/** Index of a curve by name, or -1. */
RUNE_API int32_t rune_rig_find_curve(const rune_rig *rig, const char *name);

/** Bumped by every change of membership (a joint or curve added):
 * bindings and poses made before it must be made again. */
RUNE_API uint32_t rune_rig_topology_revision(const rune_rig *rig);
/** Bumped by every rest frame or scale edit, which bindings survive. */
RUNE_API uint32_t rune_rig_frame_revision(const rune_rig *rig);
/** Hash of the membership (joint names and parent links, curve names),
 * not of frames. */
RUNE_API uint64_t rune_rig_layout_signature(const rune_rig *rig);

/** One entry of a joint mask. */
typedef struct rune_mask_entry {
    int32_t joint;
    float weight;
    bool propagate; /**< also applies to descendants without their own entry */
} rune_mask_entry;

/** Each channel of a pose holds a multiple of this many floats (the joint
 * count rounded up; rune_pose_stride). */
#define RUNE_POSE_LANES 16

/** The `stride` of a pose of `joints` joints: the count rounded up to
 * RUNE_POSE_LANES, at least RUNE_POSE_LANES (a pose always has lanes to
 * point at). */
static inline size_t rune_pose_stride(size_t joints)
{
    size_t stride = (joints + RUNE_POSE_LANES - 1) / RUNE_POSE_LANES * RUNE_POSE_LANES;
    return stride ? stride : RUNE_POSE_LANES;
}

/** Local motor transforms (translation, rotation, scale) and coverage for
 * every joint of a rig, in structure-of-arrays form: one array per
 * channel, each `stride` floats (the joint count rounded up to
 * RUNE_POSE_LANES; the padding lanes hold identity with coverage 0), all
 * in one 64-byte aligned block the pose owns (rune_pose_init,
 * rune_pose_release). Read and write single joints with the accessors
 * below. */
typedef struct rune_pose {
    size_t count;               /**< joints */
    size_t stride;              /**< floats per channel */
    float *tx, *ty, *tz;        /**< translation */
    float *qx, *qy, *qz, *qw;   /**< rotation (unit quaternion) */
    float *sx, *sy, *sz;        /**< scale (1 when not animated) */
    float *coverage;            /**< composed coverage, 0..1 */
    /** Some joint's scale may differ from 1. When false every scale lane
     * is exactly 1 and rune does not read the scale channels.
     * rune_pose_set_s and every rune operation that writes a pose keep
     * it; code that writes sx, sy, sz directly must set it. */
    bool scaled;
    size_t curve_count;         /**< float curves (rune_rig_add_curve) */
    float *curve;               /**< each curve's value (0 where uncovered) */
    float *curve_cov;           /**< and its coverage, 0..1 */
    void *block;                /**< the allocation holding every channel */
    size_t block_size;
    rune_allocator alloc;
} rune_pose;

/** Allocates a pose of `count` joints, reset to identity with coverage 0. */
RUNE_API rune_status rune_pose_init(rune_pose *pose, size_t count, const rune_allocator *alloc, rune_error *err);
/** The same with `curves` float curves (value 0, coverage 0). */
RUNE_API rune_status rune_pose_init_curves(rune_pose *pose, size_t count, size_t curves, const rune_allocator *alloc,
                                           rune_error *err);
/** A pose of a rig: its joints and its curves. */
RUNE_API rune_status rune_pose_init_rig(rune_pose *pose, const rune_rig *rig, const rune_allocator *alloc,
                                        rune_error *err);
/** Frees a pose's channels (a released or zeroed pose is fine). */
RUNE_API void rune_pose_release(rune_pose *pose);
/** Joint j's translation, rotation, scale and rigid transform. */
static inline rune_vec3 rune_pose_t(const rune_pose *p, size_t j) { return rune_v3(p->tx[j], p->ty[j], p->tz[j]); }
static inline rune_quat rune_pose_r(const rune_pose *p, size_t j)
{
    return rune_q(p->qx[j], p->qy[j], p->qz[j], p->qw[j]);
}
static inline rune_vec3 rune_pose_s(const rune_pose *p, size_t j) { return rune_v3(p->sx[j], p->sy[j], p->sz[j]); }
static inline rune_xform rune_pose_xform(const rune_pose *p, size_t j)
{
    rune_xform x = {rune_pose_t(p, j), rune_pose_r(p, j)};
    return x;
}
/** Sets joint j's translation, rotation or scale. */
static inline void rune_pose_set_t(rune_pose *p, size_t j, rune_vec3 t)
{
    p->tx[j] = t.x, p->ty[j] = t.y, p->tz[j] = t.z;
}
static inline void rune_pose_set_r(rune_pose *p, size_t j, rune_quat r)
{
    p->qx[j] = r.x, p->qy[j] = r.y, p->qz[j] = r.z, p->qw[j] = r.w;
}
static inline void rune_pose_set_s(rune_pose *p, size_t j, rune_vec3 s)
{
    p->sx[j] = s.x, p->sy[j] = s.y, p->sz[j] = s.z;
    p->scaled |= s.x != 1.0f || s.y != 1.0f || s.z != 1.0f;
}
/** Sets joint j's translation, rotation and coverage (scale unchanged). */
static inline void rune_pose_set(rune_pose *p, size_t j, rune_vec3 t, rune_quat r, float coverage)
{
    rune_pose_set_t(p, j, t);
    rune_pose_set_r(p, j, r);
    p->coverage[j] = coverage;
}

/** Model-space transform of every joint (rune_rig_joint_count entries) as
 * rotation + translation, for engines that skin with dual quaternions:
 * model(j) = model(parent) * frame(j) * pose(j), parents first; rest and
 * pose scales are left out (a rigid transform has none: skin scaled rigs
 * with rune_rig_model_matrices). Each local rotation is normalized; the
 * products down the hierarchy are not renormalized (a product of unit
 * quaternions stays unit to within about 1e-7 a level). */
RUNE_API void rune_rig_model_xforms(const rune_rig *rig, const rune_pose *pose, rune_xform *out);
/** The same with scale, as column-major 4x4 matrices (m[col * 4 + row];
 * the last row is 0 0 0 1), the local transform of each joint composing
 * its frame, rest scale and pose as rune_rig_frame_scale says; local
 * matrices a chunk of joints at a time, straight from the pose's arrays,
 * then the hierarchy with SIMD columns.
 * With scale, elements are clamped to +-RUNE_MAX_MAGNITUDE (no chain of
 * scales overflows). Joints the pose lacks stand at rest (their frame
 * alone). */
RUNE_API void rune_rig_model_matrices(const rune_rig *rig, const rune_pose *pose, rune_mat4 *out);

/** Height of a rig: the largest side of the box around its joints at
 * rest (0 without joints). Compression (rune/compress.h) derives its
 * defaults from it. */
RUNE_API float rune_rig_height(const rune_rig *rig);

/** A retarget mapping: plays clips authored on a source rig on a target
 * rig (docs/semantics.md, "Retargeting"). Each target joint is mapped to
 * at most one source joint. When both rigs are humanoids (two mirrored
 * legs below two mirrored arms), each is put in a retarget pose -- a
 * T-pose facing forward, found by turning its limbs and spine onto one
 * stance -- and a mapped joint takes the source's model-space rotation
 * away from the source's retarget pose onto the target's:
 *     target model = C * source model * source pose^-1 * C^-1 * target pose,
 * C the turn from the source body's frame (left, up, forward) to the
 * target's. The hips take the source hips' height over its floor and
 * their travel, scaled by the ratio of the rigs' hips heights over the
 * soles; while a source foot is planted, two-bone IK holds the target's
 * foot where the source's is (unless turned off). Other rigs use their
 * rests as the poses (C the identity) and the topmost mapped joint takes
 * the source's travel from rest scaled by the ratio of hip heights. Every
 * other joint keeps its rest translation, so the target's bone lengths
 * never change. Unmapped target joints get no track (coverage 0). Both
 * rigs are read once, at creation: the mapping is immutable and keeps no
 * pointer to them. */
typedef struct rune_retarget rune_retarget;

/** How a target joint got its source joint. */
typedef enum rune_retarget_match {
    RUNE_RETARGET_UNMAPPED = 0,
    RUNE_RETARGET_EXPLICIT,   /**< named by the map */
    RUNE_RETARGET_EXACT,      /**< the same parent/part */
    RUNE_RETARGET_PART,       /**< the same part, unique in both rigs */
    RUNE_RETARGET_NORMALIZED, /**< the same normalized name, unique in both (rune_retarget_normalize) */
    RUNE_RETARGET_HUMANOID    /**< the same bone of the humanoid profile (rune_retarget_joint.bone) */
} rune_retarget_match;

/** One entry of an explicit map: joint names as rune_rig_find takes them
 * ("parent/part" or a unique part). `target` NULL keeps `source` out of
 * the mapping (it is not matched by name either). */
typedef struct rune_retarget_pair {
    const char *source;
    const char *target;
} rune_retarget_pair;

/** What a mapping is made from. The rigs and map are read during
 * rune_retarget_create only. */
typedef struct rune_retarget_desc {
    const rune_rig *source;        /**< the rig clips are authored on */
    const rune_rig *target;        /**< the rig they are played on */
    const rune_retarget_pair *map; /**< explicit pairs, overriding every other match (NULL: none) */
    size_t map_count;
    bool no_foot_ik;               /**< true: planted feet are not held (humanoids only) */
} rune_retarget_desc;

/** Creates a mapping from desc->source to desc->target: the explicit
 * pairs first; when both rigs are humanoids, profile bone to profile bone
 * (hips, spine joints in order, chest, neck, head, clavicles, upper arms,
 * forearms, hands, thighs, shins, feet, toes) among joints the pairs leave
 * free; then, for every target joint still free, the source joint of the
 * same parent/part, else of the same part (unique in both rigs), else of
 * the same normalized name (unique in both). Fails (RUNE_E_INVALID) on a
 * pair naming a joint a rig lacks ("map[2]: no joint \"Hipz\" in the
 * source rig"), a joint mapped twice, or a mapping with no joint at all. */
RUNE_API rune_status rune_retarget_create(const rune_retarget_desc *desc, const rune_allocator *alloc,
                                          rune_retarget **out, rune_error *err);
/** Frees a mapping (NULL is fine); bindings made with it keep what they
 * need. */
RUNE_API void rune_retarget_destroy(rune_retarget *retarget);
/** What drives a target joint. */
typedef struct rune_retarget_joint {
    int32_t source;            /**< the source joint it takes its motion from, or -1 */
    rune_retarget_match how;   /**< how it was mapped */
    const char *bone;          /**< its humanoid profile bone ("hips", "spine", "chest", "neck", "head",
                                    "left_clavicle", "left_upper_arm", "left_forearm", "left_hand",
                                    "left_thigh", "left_shin", "left_foot", "left_toes", and right_ the
                                    same), or NULL when it is none or the rigs are not humanoids; static */
} rune_retarget_joint;
/** What drives target joint `target_joint` (source -1, UNMAPPED, NULL past
 * the target's joints). */
RUNE_API rune_retarget_joint rune_retarget_target(const rune_retarget *retarget, size_t target_joint);
/** The target joint a source joint drives, or -1 (unused source joints). */
RUNE_API int32_t rune_retarget_target_of(const rune_retarget *retarget, size_t source_joint);
/** What a mapping pairs. */
typedef struct rune_retarget_info {
    size_t mapped;                        /**< target joints with a source joint */
    float scale;                          /**< travel ratio: target hips height / source hips height */
    size_t source_joints, target_joints;  /**< the joint counts of the rigs it was made for */
    bool humanoid;                        /**< both rigs are humanoids: a retarget pose each */
    size_t profile_mapped, profile_bones; /**< profile bones both rigs have, mapped to each other, of all */
    float confidence;                     /**< of the profile bones found in both rigs, the share whose
                                               names agree with the bone (0..1; 0 when not humanoid) */
    bool foot_ik;                         /**< planted feet are held */
} rune_retarget_info;

/** How many joints a mapping pairs, its travel ratio, the rigs' joint
 * counts and the humanoid profile's matches. */
RUNE_API rune_retarget_info rune_retarget_describe(const rune_retarget *retarget);

/** Which joint each track of a clip drives on one rig layout. */
typedef struct rune_binding rune_binding;

/** Binds a clip's tracks to a rig: exact (parent part, part) match first;
 * otherwise the part name alone when it names exactly one joint of the rig
 * and exactly one track of the clip. Unmatched tracks are ignored.
 * With a `retarget` (NULL: none) the clip is authored on the mapping's
 * source rig and `rig` must have the layout of its target: the binding
 * then holds the clip retargeted onto `rig` (rune_binding_clip; built
 * here, once, so sampling costs what a clip of the rig's own costs) and
 * the mapping's id is part of its identity. */
RUNE_API rune_status rune_binding_create(const rune_rig *rig, const rune_clip *clip, const rune_retarget *retarget,
                                const rune_allocator *alloc, rune_binding **out, rune_error *err);
/** Frees a binding and the retargeted clip it owns (NULL is fine). */
RUNE_API void rune_binding_destroy(rune_binding *binding);
/** The clip the binding samples: the clip itself, or its retargeted copy. */
RUNE_API const rune_clip *rune_binding_clip(const rune_binding *binding);
/** The clip the binding was made from (the source clip when retargeted). */
RUNE_API const rune_clip *rune_binding_source_clip(const rune_binding *binding);
/** The id of the binding's retarget mapping, 0 without one. */
RUNE_API uint32_t rune_binding_retarget_id(const rune_binding *binding);
/** Joint driven by a track, or -1 when the track did not bind. */
RUNE_API int32_t rune_binding_joint(const rune_binding *binding, size_t track);
/** Number of tracks that bound to a joint. */
RUNE_API size_t rune_binding_bound_count(const rune_binding *binding);
/** The track that drives `joint`, or -1. */
RUNE_API int32_t rune_binding_track_of(const rune_binding *binding, int32_t joint);

/** Samples the clip at time t into `pose` (joint count of the bound rig):
 * unkeyed joints get identity and coverage 0; the pose's curves too (a
 * curve the clip lacks: 0 with coverage 0). */
RUNE_API void rune_binding_sample(const rune_binding *binding, float t, rune_pose *pose);
RUNE_END_DECLS

#endif
