/* rune/skin.h - meshes and skinning: what deforms a character's mesh from
 * the joint matrices rune computes (docs/semantics.md, "Skinning").
 *
 * A mesh (rune_mesh) is a view of bind-pose vertex data in the rig's model
 * space: positions, normals, tangents, triangles, up to
 * RUNE_SKIN_MAX_INFLUENCES weighted joints a vertex, and morph targets.
 * Imports (rune/import.h) and assets (rune/asset.h) own the meshes they
 * hand out. Skinning is a job in ozz-animation's style: fill a
 * rune_skin_job with inputs and outputs (strided, in the engine's own
 * vertex layout), rune_skin_validate it, rune_skin_run it. Two methods:
 * linear blend skinning (the blended matrix) and dual-quaternion skinning
 * (the blended rigid transforms, which keep volume where a joint twists).
 * Nothing here allocates or reads a rig; the vectorized kernels run at the
 * core's kernel level (rune_simd_best), every level to the same results
 * within a few ulps. */
#ifndef RUNE_SKIN_H
#define RUNE_SKIN_H

#include "rune/base.h"
#include "rune/math.h"
#include "rune/export.h"

RUNE_BEGIN_DECLS

/** Most joints that move one vertex. */
#define RUNE_SKIN_MAX_INFLUENCES 8

/** A morph target: per-vertex deltas added to the bind pose, weighted by
 * the float curve "MESH/NAME" (rune/clip.h) or any weight the caller has. */
typedef struct rune_mesh_morph {
    const char *name;
    const float *positions; /**< 3 floats a vertex */
    const float *normals;   /**< 3 floats a vertex, or NULL */
} rune_mesh_morph;

/** A skinned mesh in its bind pose. Vertex arrays are tightly packed. A
 * vertex lands in the rig's model space at model[joint] * inverse_bind *
 * position, blended over its influences. */
typedef struct rune_mesh {
    const char *name;
    size_t vertex_count;
    size_t triangle_count;
    const float *positions;  /**< 3 floats a vertex, in the space the inverse binds map from */
    const float *normals;    /**< 3 floats a vertex, unit length, or NULL */
    const float *tangents;   /**< 4 floats a vertex (w: +-1, the bitangent's side), or NULL */
    const uint32_t *indices; /**< 3 a triangle, each below vertex_count */
    uint32_t influences;     /**< joints a vertex, 1..RUNE_SKIN_MAX_INFLUENCES */
    const uint16_t *joints;  /**< `influences` a vertex: an index into the binds */
    const float *weights;    /**< `influences` a vertex: 0..1, summing to 1 */
    size_t bind_count;
    const int32_t *bind_joints;     /**< per bind: the rig joint it follows */
    const rune_mat4 *inverse_binds; /**< per bind: the mesh's space -> the joint's, at bind time */
    size_t morph_count;
    const rune_mesh_morph *morphs;
} rune_mesh;

/** The mesh's skinning matrices: out[b] = model[bind_joints[b]] *
 * inverse_binds[b] for every bind (`model`: rune_rig_model_matrices or
 * rune_character_model_matrices of the rig the mesh was bound to; `out`
 * has bind_count entries). */
RUNE_API void rune_mesh_skinning_matrices(const rune_mesh *mesh, const rune_mat4 *model, rune_mat4 *out);

/** Morphed bind pose: positions (and normals, when both `normals` and the
 * mesh have them) = bind + sum of weights[m] * morph m's deltas, into
 * caller arrays of 3 floats a vertex; normals renormalized. `weights` has
 * morph_count entries (NULL: all 0). Skin the result as the mesh. */
RUNE_API void rune_mesh_morph_apply(const rune_mesh *mesh, const float *weights, float *positions, float *normals);

typedef enum rune_skin_method {
    RUNE_SKIN_LINEAR = 0,      /**< linear blend: the weighted sum of the matrices */
    RUNE_SKIN_DUAL_QUATERNION  /**< dual quaternions: the weighted sum of the rigid transforms */
} rune_skin_method;

/** A skinning matrix as dual-quaternion skinning blends it: its rigid part
 * (rotation `real`, translation in `dual`) and what remains of its linear
 * part once the rotation is taken out (`stretch`, column-major 3x3: the
 * identity for a rigid matrix, s times it for a uniform scale s). */
typedef struct rune_skin_dq {
    rune_quat real, dual;
    float stretch[9];
} rune_skin_dq;

/** Dual quaternions of `count` skinning matrices into `out`. Returns
 * whether any has a stretch other than the identity (to within 1e-6):
 * pass it as rune_skin_job.stretch. The rotation is the one nearest the
 * linear part's columns (exact for rotations times any scale along the
 * joint's axes); a matrix with a zero column takes the identity. */
RUNE_API bool rune_skin_dual_quaternions(const rune_mat4 *matrices, size_t count, rune_skin_dq *out);

/** One skinning run. Strides are in bytes between consecutive vertices; 0
 * means tightly packed (3 floats a position or normal, 4 a tangent,
 * `influences` joints or weights). Input and output may not overlap. */
typedef struct rune_skin_job {
    rune_skin_method method;
    size_t vertex_count;
    uint32_t influences;            /**< 1..RUNE_SKIN_MAX_INFLUENCES */
    const uint16_t *joints;         /**< per vertex, `influences` palette indexes */
    size_t joints_stride;
    const float *weights;           /**< per vertex, `influences` weights (summing to 1) */
    size_t weights_stride;
    const rune_mat4 *matrices;      /**< linear: the palette (rune_mesh_skinning_matrices) */
    const rune_skin_dq *dual_quaternions; /**< dual quaternion: the palette (rune_skin_dual_quaternions) */
    size_t palette_count;           /**< entries in the palette: every joint index must be below it */
    bool stretch;                   /**< dual quaternion: apply the palette's stretches */
    bool normalize;                 /**< normals and tangents scaled back to unit length (linear blending
                                         shortens them where joints bend; a shader normalizing anyway can
                                         leave this off, as ozz-animation's SkinningJob does) */
    const float *positions;         /**< 3 floats a vertex */
    size_t positions_stride;
    const float *normals;           /**< 3 floats a vertex, or NULL */
    size_t normals_stride;
    const float *tangents;          /**< 4 floats a vertex (w copied), or NULL */
    size_t tangents_stride;
    float *out_positions;
    size_t out_positions_stride;
    float *out_normals;             /**< with normals */
    size_t out_normals_stride;
    float *out_tangents;            /**< with tangents */
    size_t out_tangents_stride;
} rune_skin_job;

/** Checks a job: RUNE_E_INVALID naming the first problem (a NULL array
 * the job needs, influences outside 1..8, a stride smaller than its
 * element, an empty palette, an output without its input). Joint indexes
 * are checked by rune_skin_run, which reads them anyway. */
RUNE_API rune_status rune_skin_validate(const rune_skin_job *job, rune_error *err);

/** Skins the vertices: out position = sum w_i M_i p (linear) or the
 * blended dual quaternion's rigid transform of (sum w_i S_i) p (dual
 * quaternion, each influence's sign flipped to the first's hemisphere);
 * normals and tangents turned by the blended matrix's linear part
 * (linear), by the blended rotation, tangents stretched first (dual
 * quaternion), and scaled to unit length with `normalize`.
 * Validates first; a joint index at or past palette_count fails with
 * RUNE_E_INVALID naming the vertex before anything is written. No
 * allocation. */
RUNE_API rune_status rune_skin_run(const rune_skin_job *job, rune_error *err);

RUNE_END_DECLS

#endif
