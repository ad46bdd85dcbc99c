/* The skinning rows of `rune bench`: a mesh the size of a game character
 * (30,000 vertices, positions and normals, 4 influences a vertex over a
 * 64-joint palette of turned and moved joints, neighbouring vertices
 * sharing joints as a real mesh's regions do), skinned by linear blending
 * (beside the scalar kernel, the "naive" column, and ozz-animation's
 * SkinningJob on the same mesh and palette when its checkout is given) and
 * by dual quaternions (beside rune's own linear blending). ns a vertex;
 * the floor is the memory traffic's. */
#include "bench.h"
#include "ozz_anchor.h"
#include "skin/skin_internal.h"

#include <math.h>
#include <stdlib.h>

static float rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) / 16777216.0f * 2.0f - 1.0f;
}

bool bench_skin_mesh_make(bench_skin_mesh *m)
{
    enum { N = 30000, JOINTS = 64 };
    m->vertex_count = N, m->palette_count = JOINTS;
    m->positions = calloc(3 * N, sizeof(float)), m->normals = calloc(3 * N, sizeof(float));
    m->joints = calloc(4 * N, sizeof(uint16_t)), m->weights = calloc(4 * N, sizeof(float));
    m->palette = calloc(JOINTS, sizeof(rune_mat4)), m->dqs = calloc(JOINTS, sizeof(rune_skin_dq));
    if (!m->positions || !m->normals || !m->joints || !m->weights || !m->palette || !m->dqs)
        return false;
    uint32_t s = 11;
    for (int j = 0; j < JOINTS; j++) {
        rune_vec3 axis = rune_v3(rnd(&s), rnd(&s), rnd(&s) + 1.5f);
        rune_quat q = rune_q_axis_angle(rune_v3_scale(axis, 1.0f / sqrtf(rune_v3_dot(axis, axis))), rnd(&s));
        m->palette[j] = rune_mat4_from_xform((rune_xform){rune_v3(rnd(&s), rnd(&s), rnd(&s)), q});
    }
    rune_skin_dual_quaternions(m->palette, JOINTS, m->dqs);
    for (int v = 0; v < N; v++) {
        float n[3] = {rnd(&s), rnd(&s), rnd(&s)}, len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) + 1e-6f, sum = 0;
        for (int c = 0; c < 3; c++)
            m->positions[3 * v + c] = rnd(&s), m->normals[3 * v + c] = n[c] / len;
        int region = (v / 500) % JOINTS; /* a region's vertices share its joints */
        for (int k = 0; k < 4; k++) {
            m->joints[4 * v + k] = (uint16_t)((region + k * 3) % JOINTS);
            m->weights[4 * v + k] = 0.1f + fabsf(rnd(&s));
            sum += m->weights[4 * v + k];
        }
        for (int k = 0; k < 4; k++)
            m->weights[4 * v + k] /= sum;
    }
    return true;
}

void bench_skin_mesh_free(bench_skin_mesh *m)
{
    free(m->positions), free(m->normals), free(m->joints), free(m->weights), free(m->palette), free(m->dqs);
}

typedef struct skin_ctx {
    rune_skin_job job;
    rune_simd_level level;
} skin_ctx;

static void skin_run(void *p)
{
    skin_ctx *c = p;
    rune__skin_run_level(&c->job, c->level, NULL);
}

static double ns_per_vertex(const bench_plan *p, skin_ctx *c)
{
    return 1e9 * bench_measure(skin_run, c, p->samples, p->sample_s, false).median / (double)c->job.vertex_count;
}

int bench_skin_rows(const bench_plan *p)
{
    bench_skin_mesh m = {0};
    float *out_p = NULL, *out_n = NULL;
    bool fine = bench_skin_mesh_make(&m) && (out_p = calloc(3 * m.vertex_count, sizeof(float))) &&
                (out_n = calloc(3 * m.vertex_count, sizeof(float)));
    if (fine) {
        bench_report_section(p->report, "skinning (30,000 vertices, positions and normals, 4 influences, 64 joints; "
                                        "naive column: the scalar kernel, then rune's linear blending)");
        skin_ctx c = {{0}, p->level};
        c.job.method = RUNE_SKIN_LINEAR, c.job.vertex_count = m.vertex_count, c.job.influences = 4;
        c.job.joints = m.joints, c.job.weights = m.weights, c.job.matrices = m.palette, c.job.dual_quaternions = m.dqs;
        c.job.palette_count = m.palette_count, c.job.positions = m.positions, c.job.normals = m.normals;
        c.job.out_positions = out_p, c.job.out_normals = out_n;
        bench_row row = bench_row_make("skin_lbs", "ns/vertex", 0, 0);
        snprintf(row.label, sizeof row.label, "linear blend skinning");
        row.median = row.min = ns_per_vertex(p, &c);
        /* a vertex reads 72 bytes (4 joints, 4 weights, position, normal)
         * and writes 24 of a mesh (2.9 MB) past the L2 cache; 129 flops:
         * 12 multiply-adds an influence, 9 and 3 for the position, 9 for
         * the normal, counted as two */
        row.floor = bench_floor_ns(p->machine, 2.0 * (12 * 4 + 12 + 9), 96.0, BENCH_MEM);
        skin_ctx scalar = c;
        scalar.level = RUNE_SIMD_SCALAR;
        row.naive = ns_per_vertex(p, &scalar);
        bench_row_anchor(&row, "ozz", bench_ozz_skin(p, &m));
        if (row.anchor.value >= 0) {
            skin_ctx matched = c;
            matched.level = bench_anchor_level(p);
            bench_row_matched(&row, p, ns_per_vertex(p, &matched));
        }
        bench_report_row(p->report, &row);
        double lbs = row.median;
        c.job.method = RUNE_SKIN_DUAL_QUATERNION;
        row = bench_row_make("skin_dqs", "ns/vertex", 0, 0);
        snprintf(row.label, sizeof row.label, "dual-quaternion skinning (naive: rune's linear blending)");
        row.median = row.min = ns_per_vertex(p, &c);
        row.naive = lbs;
        bench_report_row(p->report, &row);
    }
    free(out_p), free(out_n);
    bench_skin_mesh_free(&m);
    return fine ? 0 : 1;
}
