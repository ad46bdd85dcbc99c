/* Unit tests of skinning (src/skin), against values worked by hand:
 *   - linear blending of two translations, and of a turn, at known points;
 *   - a tube twisted 180 degrees between two joints: linear blending
 *     collapses its middle ring, dual quaternions keep its radius;
 *   - one influence: both methods give the matrix's transform; a uniform
 *     scale passes through the dual quaternions' stretch;
 *   - strided, interleaved buffers give what packed ones do;
 *   - every kernel level agrees with the scalar one (SSE2/AVX2 bit for
 *     bit, the FMA levels within a few ulps);
 *   - morphs add weighted deltas; bad jobs are refused, nothing written;
 *   - weights that sum to almost nothing give finite vertices. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "rune/skin.h"
#include "skin/skin_internal.h"
#include "math/simd_internal.h"

#define near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static rune_vec3 transform_point(const rune_mat4 *m, rune_vec3 p)
{
    const float *e = m->m;
    return rune_v3(e[0] * p.x + e[4] * p.y + e[8] * p.z + e[12], e[1] * p.x + e[5] * p.y + e[9] * p.z + e[13],
                   e[2] * p.x + e[6] * p.y + e[10] * p.z + e[14]);
}

static rune_mat4 translation(float x, float y, float z)
{
    rune_mat4 m = rune_mat4_identity();
    m.m[12] = x, m.m[13] = y, m.m[14] = z;
    return m;
}

static rune_mat4 turn_x(float angle)
{
    rune_mat4 m = rune_mat4_identity();
    float c = cosf(angle), s = sinf(angle);
    m.m[5] = c, m.m[6] = s, m.m[9] = -s, m.m[10] = c;
    return m;
}

static rune_skin_job job_for(rune_skin_method method, size_t n, uint32_t k, const uint16_t *joints,
                             const float *weights, const rune_mat4 *palette, const rune_skin_dq *dqs, size_t count,
                             const float *in, float *out)
{
    rune_skin_job j = {0};
    j.method = method, j.vertex_count = n, j.influences = k, j.joints = joints, j.weights = weights;
    j.matrices = palette, j.dual_quaternions = dqs, j.palette_count = count;
    j.positions = in, j.out_positions = out;
    return j;
}

static void test_linear_by_hand(void **state)
{
    (void)state;
    rune_mat4 palette[2] = {translation(1, 0, 0), translation(0, 2, 0)};
    uint16_t joints[4] = {0, 1, 0, 1};
    float weights[4] = {0.5f, 0.5f, 0.25f, 0.75f};
    float in[6] = {0, 0, 0, 1, 1, 1}, out[6];
    rune_skin_job j = job_for(RUNE_SKIN_LINEAR, 2, 2, joints, weights, palette, NULL, 2, in, out);
    assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
    near(out[0], 0.5, 1e-7), near(out[1], 1.0, 1e-7), near(out[2], 0.0, 1e-7);
    near(out[3], 1.25, 1e-7), near(out[4], 2.5, 1e-7), near(out[5], 1.0, 1e-7);
    /* a quarter turn about X blended half with the identity: (0, 1, 0)
     * goes to the chord's midpoint (0, 0.5, 0.5) */
    palette[0] = rune_mat4_identity(), palette[1] = turn_x(1.5707963f);
    float up[3] = {0, 1, 0}, got[3];
    j = job_for(RUNE_SKIN_LINEAR, 1, 2, joints, weights, palette, NULL, 2, up, got);
    assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
    near(got[0], 0.0, 1e-7), near(got[1], 0.5, 1e-6), near(got[2], 0.5, 1e-6);
}

/* A tube of radius 0.1 along X from 0 to 2, rings every 0.25, weighted
 * from joint 0 to joint 1 linearly along it; joint 1 twisted by `angle`
 * about X. Returns the radius of the middle ring (x = 1, weights 0.5). */
static double middle_radius(rune_skin_method method, float angle)
{
    enum { RINGS = 9, AROUND = 16, N = RINGS * AROUND };
    static float in[3 * N], out[3 * N], weights[2 * N];
    static uint16_t joints[2 * N];
    for (int r = 0; r < RINGS; r++)
        for (int a = 0; a < AROUND; a++) {
            int v = r * AROUND + a;
            float x = 0.25f * (float)r, phi = 6.2831853f * (float)a / AROUND;
            in[3 * v] = x, in[3 * v + 1] = 0.1f * cosf(phi), in[3 * v + 2] = 0.1f * sinf(phi);
            float w = x / 2.0f;
            joints[2 * v] = 0, joints[2 * v + 1] = 1;
            weights[2 * v] = 1.0f - w, weights[2 * v + 1] = w;
        }
    rune_mat4 palette[2] = {rune_mat4_identity(), turn_x(angle)};
    rune_skin_dq dq[2];
    assert_false(rune_skin_dual_quaternions(palette, 2, dq));
    rune_skin_job j = job_for(method, N, 2, joints, weights, palette, dq, 2, in, out);
    assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
    double radius = 0.0;
    for (int a = 0; a < AROUND; a++) {
        int v = 4 * AROUND + a;
        near(in[3 * v], 1.0, 1e-7);
        radius += sqrt((double)out[3 * v + 1] * out[3 * v + 1] + (double)out[3 * v + 2] * out[3 * v + 2]);
    }
    return radius / AROUND;
}

/* Weights a file may hold that sum to almost nothing (2 x 3.4e-20): the
 * blended dual quaternion's squared length is below the smallest normal
 * float, so dividing by it would overflow; it counts as a zero blend. At
 * every level both methods give finite vertices; the linear blend is the
 * weighted matrix's (p times 6.7e-20: 0 to float precision). */
static void test_vanishing_weights(void **state)
{
    (void)state;
    rune_mat4 palette[2] = {translation(-0.5f, -1.0f, 0.0f), turn_x(0.5f)};
    rune_skin_dq dq[2];
    bool stretch = rune_skin_dual_quaternions(palette, 2, dq);
    const uint16_t joints[2] = {0, 1};
    const float weights[2] = {3.36953e-20f, 3.36953e-20f}, in[3] = {1.0f, 2.0f, 3.0f};
    for (int level = RUNE_SIMD_SCALAR; level < RUNE_SIMD_LEVEL_COUNT; level++) {
        if (!rune_simd_supported((rune_simd_level)level))
            continue;
        for (int method = 0; method < 2; method++) {
            float out[3] = {NAN, NAN, NAN};
            rune_skin_job j = job_for((rune_skin_method)method, 1, 2, joints, weights, palette, dq, 2, in, out);
            j.stretch = stretch;
            assert_int_equal(rune__skin_run_level(&j, (rune_simd_level)level, NULL), RUNE_OK);
            for (int c = 0; c < 3; c++)
                assert_true(isfinite(out[c]));
            if (method == RUNE_SKIN_LINEAR)
                for (int c = 0; c < 3; c++)
                    near(out[c], 0.0, 1e-18);
        }
    }
}

static void test_twisted_tube(void **state)
{
    (void)state;
    double linear = middle_radius(RUNE_SKIN_LINEAR, 3.1415927f), dual = middle_radius(RUNE_SKIN_DUAL_QUATERNION, 3.1415927f);
    assert_true(linear < 0.01 * 0.1); /* p and its half turn average to the axis */
    assert_true(dual >= 0.9 * 0.1);
    near(dual, 0.1, 1e-6); /* the blended rotation is a quarter turn: the ring only turns */
    /* a 90 degree twist: linear shrinks the ring to cos 45 of its radius */
    near(middle_radius(RUNE_SKIN_LINEAR, 1.5707963f), 0.1 * cos(0.7853982), 1e-6);
}

static void test_one_influence_and_stretch(void **state)
{
    (void)state;
    rune_mat4 m = turn_x(0.7f);
    m.m[12] = 1, m.m[13] = -2, m.m[14] = 3;
    float in[3] = {0.3f, 0.5f, -0.2f}, lin[3], dual[3];
    uint16_t joint = 0;
    float weight = 1.0f;
    rune_skin_dq dq;
    assert_false(rune_skin_dual_quaternions(&m, 1, &dq));
    rune_skin_job j = job_for(RUNE_SKIN_LINEAR, 1, 1, &joint, &weight, &m, &dq, 1, in, lin);
    assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
    j.method = RUNE_SKIN_DUAL_QUATERNION, j.out_positions = dual;
    assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
    rune_vec3 want = transform_point(&m, rune_v3(in[0], in[1], in[2]));
    near(lin[0], want.x, 1e-6), near(lin[1], want.y, 1e-6), near(lin[2], want.z, 1e-6);
    near(dual[0], want.x, 1e-6), near(dual[1], want.y, 1e-6), near(dual[2], want.z, 1e-6);
    /* scale 2: the stretch carries it */
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            m.m[4 * c + r] *= 2.0f;
    assert_true(rune_skin_dual_quaternions(&m, 1, &dq));
    near(dq.stretch[0], 2.0, 1e-6), near(dq.stretch[4], 2.0, 1e-6), near(dq.stretch[1], 0.0, 1e-6);
    j.stretch = true;
    assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
    want = transform_point(&m, rune_v3(in[0], in[1], in[2]));
    near(dual[0], want.x, 1e-5), near(dual[1], want.y, 1e-5), near(dual[2], want.z, 1e-5);
}

/* A random mesh of n vertices and 4 influences over a palette of 20
 * turned, moved, slightly scaled matrices. */
enum { RN = 1000, RK = 4, RP = 20 };
static float r_pos[3 * RN], r_nrm[3 * RN], r_tan[4 * RN], r_w[RK * RN];
static uint16_t r_j[RK * RN];
static rune_mat4 r_pal[RP];
static rune_skin_dq r_dq[RP];

static float rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) / 16777216.0f * 2.0f - 1.0f;
}

static void random_mesh(void)
{
    uint32_t s = 7;
    for (int p = 0; p < RP; p++) {
        rune_vec3 axis = rune_v3(rnd(&s), rnd(&s), rnd(&s) + 1.5f);
        rune_quat q = rune_q_axis_angle(rune_v3_scale(axis, 1.0f / sqrtf(rune_v3_dot(axis, axis))), 2.0f * rnd(&s));
        rune_xform x = {rune_v3(rnd(&s), rnd(&s), rnd(&s)), q};
        r_pal[p] = rune_mat4_from_xform(x);
    }
    for (int v = 0; v < RN; v++) {
        float sum = 0.0f;
        for (int c = 0; c < 3; c++)
            r_pos[3 * v + c] = rnd(&s), r_nrm[3 * v + c] = rnd(&s), r_tan[4 * v + c] = rnd(&s);
        r_tan[4 * v + 3] = rnd(&s) < 0 ? -1.0f : 1.0f;
        for (int k = 0; k < RK; k++)
            r_j[RK * v + k] = (uint16_t)((v * 7 + k * 5) % RP), r_w[RK * v + k] = 0.1f + fabsf(rnd(&s)), sum += r_w[RK * v + k];
        for (int k = 0; k < RK; k++)
            r_w[RK * v + k] /= sum;
    }
    rune_skin_dual_quaternions(r_pal, RP, r_dq);
}

static rune_skin_job random_job(rune_skin_method method, float *op, float *on, float *ot)
{
    rune_skin_job j = job_for(method, RN, RK, r_j, r_w, r_pal, r_dq, RP, r_pos, op);
    j.normals = r_nrm, j.out_normals = on, j.tangents = r_tan, j.out_tangents = ot;
    return j;
}

static void test_levels_agree(void **state)
{
    (void)state;
    random_mesh();
    static float p0[3 * RN], n0[3 * RN], t0[4 * RN], p1[3 * RN], n1[3 * RN], t1[4 * RN];
    const rune_simd_level levels[] = {RUNE_SIMD_SSE2, RUNE_SIMD_AVX2, RUNE_SIMD_AVX2_FMA, RUNE_SIMD_AVX512};
    for (int m = 0; m < 2; m++) {
        rune_skin_job j = random_job((rune_skin_method)m, p0, n0, t0);
        assert_int_equal(rune__skin_run_level(&j, RUNE_SIMD_SCALAR, NULL), RUNE_OK);
        for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
            if (!rune_simd_supported(levels[l]))
                continue;
            rune_skin_job k = random_job((rune_skin_method)m, p1, n1, t1);
            assert_int_equal(rune__skin_run_level(&k, levels[l], NULL), RUNE_OK);
            bool fma = levels[l] == RUNE_SIMD_AVX2_FMA || levels[l] == RUNE_SIMD_AVX512;
            double tol = fma ? 1e-5 : 0.0;
            for (size_t i = 0; i < 3 * RN; i++) {
                near(p1[i], p0[i], tol * (1.0 + fabs(p0[i])));
                near(n1[i], n0[i], tol * 4);
            }
            for (size_t i = 0; i < 4 * RN; i++)
                near(t1[i], t0[i], tol * 4);
        }
    }
}

/* Two paths to one skinning: dual quaternions without stretch go eight
 * vertices at a time, with stretch (here the identity: the palette has
 * no scale) a vertex at a time; both give the same vertices, also for a
 * count that leaves a partial block, and nothing past the last vertex is
 * written. */
static void test_dual_paths_agree(void **state)
{
    (void)state;
    random_mesh();
    enum { N = RN - 3 };
    static float p0[3 * RN], n0[3 * RN], t0[4 * RN], p1[3 * RN], n1[3 * RN], t1[4 * RN];
    for (size_t i = 0; i < 4 * RN; i++)
        t0[i] = t1[i] = 7.0f, p0[i % (3 * RN)] = p1[i % (3 * RN)] = n0[i % (3 * RN)] = n1[i % (3 * RN)] = 7.0f;
    rune_skin_job block = random_job(RUNE_SKIN_DUAL_QUATERNION, p0, n0, t0), single = block;
    block.vertex_count = single.vertex_count = N;
    single.out_positions = p1, single.out_normals = n1, single.out_tangents = t1, single.stretch = true;
    assert_int_equal(rune_skin_run(&block, NULL), RUNE_OK);
    assert_int_equal(rune_skin_run(&single, NULL), RUNE_OK);
    for (size_t i = 0; i < 3 * N; i++) {
        near(p0[i], p1[i], 1e-5 * (1.0 + fabs(p1[i])));
        near(n0[i], n1[i], 1e-5);
    }
    for (size_t i = 0; i < 4 * N; i++)
        near(t0[i], t1[i], 1e-5);
    for (size_t i = 3 * N; i < 3 * RN; i++)
        assert_true(p0[i] == 7.0f && n0[i] == 7.0f);
    for (size_t i = 4 * N; i < 4 * RN; i++)
        assert_true(t0[i] == 7.0f);
}

/* normalize: unit normals and tangents out of a blend that shortens them */
static void test_normalize(void **state)
{
    (void)state;
    random_mesh();
    static float p0[3 * RN], n0[3 * RN], t0[4 * RN];
    for (int m = 0; m < 2; m++) {
        rune_skin_job j = random_job((rune_skin_method)m, p0, n0, t0);
        j.normalize = false;
        assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
        double shortest = 2.0;
        for (int v = 0; v < RN; v++)
            shortest = fmin(shortest, sqrt(n0[3 * v] * n0[3 * v] + n0[3 * v + 1] * n0[3 * v + 1] + n0[3 * v + 2] * n0[3 * v + 2]));
        j.normalize = true;
        assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
        for (int v = 0; v < RN; v++) {
            near(sqrt(n0[3 * v] * n0[3 * v] + n0[3 * v + 1] * n0[3 * v + 1] + n0[3 * v + 2] * n0[3 * v + 2]), 1.0, 1e-5);
            near(sqrt(t0[4 * v] * t0[4 * v] + t0[4 * v + 1] * t0[4 * v + 1] + t0[4 * v + 2] * t0[4 * v + 2]), 1.0, 1e-5);
            assert_true(t0[4 * v + 3] == r_tan[4 * v + 3]);
        }
        if (m == 0)
            assert_true(shortest < 0.9); /* the random normals are not unit, and blending shortens them */
    }
}

static void test_strided_buffers(void **state)
{
    (void)state;
    random_mesh();
    /* an engine's vertex: position, normal, joints, weights, then padding */
    typedef struct vertex {
        float p[3], n[3];
        uint16_t j[4];
        float w[4];
        float pad[2];
    } vertex;
    static vertex vin[RN], vout[RN];
    static float p0[3 * RN], n0[3 * RN];
    for (int v = 0; v < RN; v++) {
        memcpy(vin[v].p, r_pos + 3 * v, 12), memcpy(vin[v].n, r_nrm + 3 * v, 12);
        memcpy(vin[v].j, r_j + 4 * v, 8), memcpy(vin[v].w, r_w + 4 * v, 16);
    }
    for (int m = 0; m < 2; m++) {
        rune_skin_job packed = random_job((rune_skin_method)m, p0, n0, NULL);
        packed.tangents = NULL;
        assert_int_equal(rune_skin_run(&packed, NULL), RUNE_OK);
        rune_skin_job j = job_for((rune_skin_method)m, RN, 4, vin[0].j, vin[0].w, r_pal, r_dq, RP, vin[0].p, vout[0].p);
        j.joints_stride = j.weights_stride = j.positions_stride = j.out_positions_stride = sizeof(vertex);
        j.normals = vin[0].n, j.out_normals = vout[0].n, j.normals_stride = j.out_normals_stride = sizeof(vertex);
        assert_int_equal(rune_skin_run(&j, NULL), RUNE_OK);
        for (int v = 0; v < RN; v++) {
            for (int c = 0; c < 3; c++) {
                assert_true(vout[v].p[c] == p0[3 * v + c]);
                assert_true(vout[v].n[c] == n0[3 * v + c]);
            }
            /* the rest of the engine's vertex is left alone */
            assert_true(vout[v].j[0] == 0 && vout[v].j[3] == 0 && vout[v].w[0] == 0.0f && vout[v].w[3] == 0.0f);
            assert_true(vout[v].pad[0] == 0.0f && vout[v].pad[1] == 0.0f);
        }
    }
}

static void test_morphs(void **state)
{
    (void)state;
    float base[6] = {0, 0, 0, 1, 0, 0}, nb[6] = {0, 0, 1, 0, 0, 1};
    float d0[6] = {0, 1, 0, 0, 0, 0}, d1[6] = {0, 0, 0, 0, 2, 0}, dn[6] = {1, 0, -1, 0, 0, 0};
    rune_mesh_morph morphs[2] = {{"up", d0, dn}, {"side", d1, NULL}};
    rune_mesh mesh = {0};
    mesh.name = "m", mesh.vertex_count = 2, mesh.positions = base, mesh.normals = nb, mesh.morph_count = 2,
    mesh.morphs = morphs;
    float w[2] = {0.5f, 0.25f}, p[6], n[6];
    rune_mesh_morph_apply(&mesh, w, p, n);
    near(p[1], 0.5, 1e-7), near(p[3], 1.0, 1e-7), near(p[4], 0.5, 1e-7);
    /* (0, 0, 1) + 0.5 (1, 0, -1) = (0.5, 0, 0.5), normalized */
    near(n[0], sqrt(0.5), 1e-6), near(n[1], 0.0, 1e-6), near(n[2], sqrt(0.5), 1e-6);
    near(n[5], 1.0, 1e-6); /* the second vertex's normal has no delta */
}

static void test_bad_jobs(void **state)
{
    (void)state;
    rune_mat4 palette[1] = {rune_mat4_identity()};
    uint16_t joints[2] = {0, 3};
    float weights[2] = {1, 1}, in[6] = {0}, out[6] = {9, 9, 9, 9, 9, 9};
    rune_error err;
    rune_skin_job j = job_for(RUNE_SKIN_LINEAR, 2, 1, joints, weights, palette, NULL, 1, in, out);
    assert_int_equal(rune_skin_run(&j, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "vertex 1: joint index 3 is past the palette's 1 entries"));
    assert_true(out[0] == 9.0f); /* nothing written */
    /* strided joints: the padding between vertices is not an index */
    uint16_t padded[4] = {0, 999, 0, 999};
    j.joints = padded, j.joints_stride = 2 * sizeof(uint16_t);
    assert_int_equal(rune_skin_run(&j, &err), RUNE_OK);
    padded[2] = 5;
    assert_int_equal(rune_skin_run(&j, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "vertex 1: joint index 5 is past the palette's 1 entries"));
    j.joints = joints, j.joints_stride = 0;
    j.influences = 9;
    assert_int_equal(rune_skin_validate(&j, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "influences 9 outside 1..8"));
    j.influences = 1, j.positions = NULL;
    assert_int_equal(rune_skin_validate(&j, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "positions is NULL"));
    j.positions = in, j.positions_stride = 8;
    assert_int_equal(rune_skin_validate(&j, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "positions_stride 8 is smaller than its element (12 bytes)"));
    j.positions_stride = 0, j.normals = in;
    assert_int_equal(rune_skin_validate(&j, &err), RUNE_E_INVALID);
    j.normals = NULL, j.method = RUNE_SKIN_DUAL_QUATERNION;
    assert_int_equal(rune_skin_validate(&j, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "dual_quaternions is NULL"));
    assert_int_equal(rune_skin_validate(NULL, &err), RUNE_E_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_by_hand), cmocka_unit_test(test_twisted_tube),
        cmocka_unit_test(test_one_influence_and_stretch), cmocka_unit_test(test_levels_agree), cmocka_unit_test(test_dual_paths_agree),
        cmocka_unit_test(test_strided_buffers), cmocka_unit_test(test_normalize), cmocka_unit_test(test_morphs),
        cmocka_unit_test(test_bad_jobs), cmocka_unit_test(test_vanishing_weights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
