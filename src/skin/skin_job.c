/* Skinning jobs (rune/skin.h): the checks, the palette helpers, morphs,
 * and the run, which hands vertex blocks to the kernel build of the
 * machine's level (skin_kernel.c). */
#include "skin_internal.h"
#include "skin_kernel.h"
#include "../math/simd_internal.h"
#include "../base/require.h"

#include <math.h>
#include <string.h>

void rune_mesh_skinning_matrices(const rune_mesh *mesh, const rune_mat4 *model, rune_mat4 *out)
{
    for (size_t b = 0; b < mesh->bind_count; b++)
        out[b] = rune_mat4_mul(&model[mesh->bind_joints[b]], &mesh->inverse_binds[b]);
}

void rune_mesh_morph_apply(const rune_mesh *mesh, const float *weights, float *positions, float *normals)
{
    size_t n = 3 * mesh->vertex_count;
    memcpy(positions, mesh->positions, n * sizeof *positions);
    bool with_normals = normals && mesh->normals;
    if (with_normals)
        memcpy(normals, mesh->normals, n * sizeof *normals);
    for (size_t m = 0; weights && m < mesh->morph_count; m++) {
        float w = weights[m];
        if (w == 0.0f)
            continue;
        const rune_mesh_morph *t = &mesh->morphs[m];
        for (size_t i = 0; i < n; i++)
            positions[i] += w * t->positions[i];
        for (size_t i = 0; with_normals && t->normals && i < n; i++)
            normals[i] += w * t->normals[i];
    }
    for (size_t v = 0; with_normals && v < mesh->vertex_count; v++) {
        float *q = normals + 3 * v, d = q[0] * q[0] + q[1] * q[1] + q[2] * q[2];
        float r = d > 0.0f ? 1.0f / sqrtf(d) : 0.0f;
        q[0] *= r, q[1] *= r, q[2] *= r;
    }
}

/* The rotation of a 3x3 linear part (columns c0 c1 c2): Gram-Schmidt of
 * c0 then c1, c2 from their cross product (its sign: the matrix's
 * handedness is taken as is). Identity when a column is zero. */
static rune_quat rotation_of(const float *m)
{
    rune_vec3 x = rune_v3(m[0], m[1], m[2]), y = rune_v3(m[4], m[5], m[6]);
    float lx = sqrtf(rune_v3_dot(x, x));
    if (!(lx > 0.0f))
        return rune_q_identity();
    x = rune_v3_scale(x, 1.0f / lx);
    y = rune_v3_sub(y, rune_v3_scale(x, rune_v3_dot(x, y)));
    float ly = sqrtf(rune_v3_dot(y, y));
    if (!(ly > 0.0f))
        return rune_q_identity();
    y = rune_v3_scale(y, 1.0f / ly);
    rune_vec3 z = rune_v3_cross(x, y);
    /* quaternion of the rotation matrix (x y z as columns) */
    float tr = x.x + y.y + z.z;
    rune_quat q;
    if (tr > 0.0f) {
        float k = 0.5f / sqrtf(tr + 1.0f);
        q = rune_q((y.z - z.y) * k, (z.x - x.z) * k, (x.y - y.x) * k, 0.25f / k);
    } else if (x.x > y.y && x.x > z.z) {
        float k = 2.0f * sqrtf(1.0f + x.x - y.y - z.z);
        q = rune_q(0.25f * k, (y.x + x.y) / k, (z.x + x.z) / k, (y.z - z.y) / k);
    } else if (y.y > z.z) {
        float k = 2.0f * sqrtf(1.0f + y.y - x.x - z.z);
        q = rune_q((y.x + x.y) / k, 0.25f * k, (z.y + y.z) / k, (z.x - x.z) / k);
    } else {
        float k = 2.0f * sqrtf(1.0f + z.z - x.x - y.y);
        q = rune_q((z.x + x.z) / k, (z.y + y.z) / k, 0.25f * k, (x.y - y.x) / k);
    }
    return rune_q_normalize(q);
}

bool rune_skin_dual_quaternions(const rune_mat4 *matrices, size_t count, rune_skin_dq *out)
{
    bool stretched = false;
    for (size_t i = 0; i < count; i++) {
        const float *m = matrices[i].m;
        rune_quat r = rotation_of(m);
        rune_vec3 t = rune_v3(m[12], m[13], m[14]);
        /* dual = 0.5 t r (t as a pure quaternion) */
        rune_quat d = rune_q_mul(rune_q(t.x, t.y, t.z, 0.0f), r);
        out[i].real = r;
        out[i].dual = rune_q(0.5f * d.x, 0.5f * d.y, 0.5f * d.z, 0.5f * d.w);
        /* stretch = R^T L, column by column */
        rune_quat back = rune_q_conjugate(r);
        for (int c = 0; c < 3; c++) {
            rune_vec3 col = rune_q_rotate(back, rune_v3(m[4 * c], m[4 * c + 1], m[4 * c + 2]));
            out[i].stretch[3 * c] = col.x, out[i].stretch[3 * c + 1] = col.y, out[i].stretch[3 * c + 2] = col.z;
            for (int k = 0; k < 3; k++)
                stretched |= fabsf(out[i].stretch[3 * c + k] - (k == c ? 1.0f : 0.0f)) > 1e-6f;
        }
    }
    return stretched;
}

/* A stride: the given one, or the element's size. */
static size_t stride_of(size_t given, size_t element) { return given ? given : element; }

rune_status rune_skin_validate(const rune_skin_job *job, rune_error *err)
{
    RUNE_REQUIRE(err, job, "job");
    const rune_skin_job *j = job;
    size_t k = j->influences;
    if (k < 1 || k > RUNE_SKIN_MAX_INFLUENCES)
        return rune_fail(err, RUNE_E_INVALID, "skin job: influences %zu outside 1..%d", k, RUNE_SKIN_MAX_INFLUENCES);
    if (j->method != RUNE_SKIN_LINEAR && j->method != RUNE_SKIN_DUAL_QUATERNION)
        return rune_fail(err, RUNE_E_INVALID, "skin job: unknown method %d", (int)j->method);
    if (!j->vertex_count)
        return RUNE_OK;
    const void *palette = j->method == RUNE_SKIN_LINEAR ? (const void *)j->matrices : (const void *)j->dual_quaternions;
    const struct {
        const void *p;
        const char *name;
    } need[] = {{j->joints, "joints"}, {j->weights, "weights"}, {j->positions, "positions"},
                {j->out_positions, "out_positions"},
                {palette, j->method == RUNE_SKIN_LINEAR ? "matrices" : "dual_quaternions"}};
    for (size_t i = 0; i < sizeof need / sizeof *need; i++)
        if (!need[i].p)
            return rune_fail(err, RUNE_E_INVALID, "skin job: %s is NULL", need[i].name);
    if (!j->palette_count)
        return rune_fail(err, RUNE_E_INVALID, "skin job: palette_count is 0");
    if ((j->normals != NULL) != (j->out_normals != NULL))
        return rune_fail(err, RUNE_E_INVALID, "skin job: normals and out_normals must both be given or both NULL");
    if ((j->tangents != NULL) != (j->out_tangents != NULL))
        return rune_fail(err, RUNE_E_INVALID, "skin job: tangents and out_tangents must both be given or both NULL");
    const struct {
        size_t stride, element;
        const char *name;
    } strides[] = {{j->joints_stride, k * sizeof(uint16_t), "joints_stride"},
                   {j->weights_stride, k * sizeof(float), "weights_stride"},
                   {j->positions_stride, 3 * sizeof(float), "positions_stride"},
                   {j->normals_stride, 3 * sizeof(float), "normals_stride"},
                   {j->tangents_stride, 4 * sizeof(float), "tangents_stride"},
                   {j->out_positions_stride, 3 * sizeof(float), "out_positions_stride"},
                   {j->out_normals_stride, 3 * sizeof(float), "out_normals_stride"},
                   {j->out_tangents_stride, 4 * sizeof(float), "out_tangents_stride"}};
    for (size_t i = 0; i < sizeof strides / sizeof *strides; i++)
        if (strides[i].stride && strides[i].stride < strides[i].element)
            return rune_fail(err, RUNE_E_INVALID, "skin job: %s %zu is smaller than its element (%zu bytes)",
                             strides[i].name, strides[i].stride, strides[i].element);
    return RUNE_OK;
}

typedef void (*skin_kernel)(const skin_args *, size_t, size_t);
typedef struct skin_kernels {
    uint16_t (*joint_max)(const skin_args *, size_t);
    skin_kernel linear, dual;
} skin_kernels;

#define KERNELS(isa) (skin_kernels){rune__skin_joint_max_##isa, rune__skin_linear_##isa, rune__skin_dual_##isa}
static skin_kernels kernels_for(rune_simd_level level) { KERNEL_PICK(rune_simd_resolve(level), KERNELS) }

rune_status rune__skin_run_level(const rune_skin_job *job, rune_simd_level level, rune_error *err)
{
    rune_status st = rune_skin_validate(job, err);
    if (st || !job->vertex_count)
        return st;
    const rune_skin_job *j = job;
    size_t k = j->influences;
    skin_args a = {(uint32_t)k, j->vertex_count,
                   (const char *)j->joints, (const char *)j->weights, (const char *)j->positions,
                   (const char *)j->normals, (const char *)j->tangents,
                   stride_of(j->joints_stride, k * sizeof(uint16_t)), stride_of(j->weights_stride, k * sizeof(float)),
                   stride_of(j->positions_stride, 12), stride_of(j->normals_stride, 12),
                   stride_of(j->tangents_stride, 16),
                   (char *)j->out_positions, (char *)j->out_normals, (char *)j->out_tangents,
                   stride_of(j->out_positions_stride, 12), stride_of(j->out_normals_stride, 12),
                   stride_of(j->out_tangents_stride, 16),
                   j->matrices ? j->matrices[0].m : NULL, j->dual_quaternions, j->stretch, j->normalize};
    skin_kernels kern = kernels_for(level);
    /* every index first: the kernels gather without checking */
    if (kern.joint_max(&a, j->vertex_count) >= j->palette_count)
        for (size_t v = 0; v < j->vertex_count; v++) {
            const uint16_t *idx = (const uint16_t *)(a.joints + v * a.joints_stride);
            for (size_t i = 0; i < k; i++)
                if (idx[i] >= j->palette_count)
                    return rune_fail(err, RUNE_E_INVALID,
                                     "skin job: vertex %zu: joint index %u is past the palette's %zu entries", v,
                                     (unsigned)idx[i], j->palette_count);
        }
    skin_kernel run = j->method == RUNE_SKIN_LINEAR ? kern.linear : kern.dual;
    /* blocks of vertices: one pass over positions, normals and tangents
     * while the block's palette entries are in cache */
    enum { BLOCK = 256 };
    for (size_t first = 0; first < j->vertex_count; first += BLOCK)
        run(&a, first, j->vertex_count - first < BLOCK ? j->vertex_count - first : BLOCK);
    return RUNE_OK;
}

rune_status rune_skin_run(const rune_skin_job *job, rune_error *err)
{
    return rune__skin_run_level(job, RUNE_SIMD_AUTO, err);
}
