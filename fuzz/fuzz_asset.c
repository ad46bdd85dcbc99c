/* libFuzzer target: the .rune loader on arbitrary bytes. With the first
 * byte even, the input is taken as it is (the header's checks); odd, the
 * header is made right (magic, version, byte order, size, checksum) so the
 * fuzzer reaches the section and value checks behind it. Whatever the
 * input: a parse error with one line naming where, or an asset whose
 * clips sample finite values, whose rig's matrices are finite and whose
 * meshes skin to finite vertices. Never a
 * crash, a leak or a hang (-timeout in run.sh). */
#include "rune/rune.h"
#include "../src/asset/asset_format.h"
#include "clip/clip_access_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            __builtin_trap();
}

/* Each mesh skinned at rest (the inverse of each bind's inverse bind as
 * the joint's model matrix would give the bind pose; identity matrices
 * are enough to reach every index), by both methods, normals and
 * tangents normalized: finite in, finite out. */
static void exercise_meshes(const rune_asset *a)
{
    size_t count;
    const rune_mesh *meshes = rune_asset_meshes(a, &count);
    for (size_t i = 0; i < count; i++) {
        const rune_mesh *m = &meshes[i];
        rune_mat4 *palette = calloc(m->bind_count, sizeof *palette);
        rune_skin_dq *dq = calloc(m->bind_count, sizeof *dq);
        float *pos = calloc(3 * m->vertex_count + 1, sizeof *pos), *nrm = calloc(3 * m->vertex_count + 1, sizeof *nrm);
        float *tan = calloc(4 * m->vertex_count + 1, sizeof *tan), *weights = calloc(m->morph_count + 1, sizeof *weights);
        if (palette && dq && pos && nrm && tan && weights) {
            for (size_t b = 0; b < m->bind_count; b++)
                palette[b] = m->inverse_binds[b];
            for (size_t k = 0; k < m->morph_count; k++)
                weights[k] = 0.5f;
            rune_mesh_morph_apply(m, weights, pos, nrm);
            check_finite(pos, 3 * m->vertex_count);
            bool stretch = rune_skin_dual_quaternions(palette, m->bind_count, dq);
            for (int method = 0; method < 2; method++) {
                rune_skin_job j = {0};
                j.method = (rune_skin_method)method, j.vertex_count = m->vertex_count, j.influences = m->influences;
                j.joints = m->joints, j.weights = m->weights, j.matrices = palette, j.dual_quaternions = dq;
                j.palette_count = m->bind_count, j.stretch = stretch, j.normalize = true;
                j.positions = m->positions, j.out_positions = pos;
                if (m->normals)
                    j.normals = m->normals, j.out_normals = nrm;
                if (m->tangents)
                    j.tangents = m->tangents, j.out_tangents = tan;
                if (rune_skin_run(&j, NULL))
                    __builtin_trap(); /* the loader checked every index */
                bool big = false; /* a 1e30 inverse bind squares past float range: no check then */
                for (size_t b = 0; b < m->bind_count; b++)
                    for (int e = 0; e < 16; e++)
                        big |= fabsf(palette[b].m[e]) > 1e15f;
                for (size_t v = 0; !big && v < 3 * m->vertex_count; v++)
                    big |= fabsf(m->positions[v]) > 1e15f;
                if (!big)
                    check_finite(pos, 3 * m->vertex_count);
            }
        }
        free(palette), free(dq), free(pos), free(nrm), free(tan), free(weights);
    }
}

static void exercise(const rune_asset *a)
{
    exercise_meshes(a);
    for (size_t i = 0; i < rune_asset_clip_count(a); i++) {
        const rune_clip *c = rune_asset_clip(a, i);
        for (size_t t = 0; t < rune_clip_track_count(c); t++)
            for (int k = -1; k < 6; k++) {
                rune_key_sample s;
                rune_clip_sample_track(c, t, 0.37f * (float)k * rune_clip_length(c), &s);
                check_finite(&s.t.x, sizeof s / sizeof(float));
            }
        for (size_t cv = 0; cv < rune_clip_curve_count(c); cv++) /* float curves: finite, coverage in [0, 1] */
            for (int k = -1; k < 6; k++) {
                rune_curve_sample s;
                rune_clip_sample_curve(c, cv, 0.37f * (float)k * rune_clip_length(c), &s);
                check_finite(&s.value, 4);
                if (!(s.coverage >= 0.0f && s.coverage <= 1.0f))
                    __builtin_trap();
            }
    }
    /* the batch sampler (compressed clips' kernels), each clip on one of
     * the kernel levels this CPU runs, in turn */
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t level_count = 0;
    for (int l = RUNE_SIMD_SCALAR; l < RUNE_SIMD_LEVEL_COUNT; l++)
        if (rune_simd_supported((rune_simd_level)l))
            levels[level_count++] = (rune_simd_level)l;
    for (size_t i = 0; i < rune_asset_clip_count(a); i++) {
        rune_sample_cache *cache;
        const rune_clip *c = rune_asset_clip(a, i);
        size_t tracks = rune_clip_track_count(c);
        if (rune_sample_cache_create(c, levels[(i + tracks) % level_count], NULL, &cache, NULL))
            continue;
        for (int k = -1; k < 6; k++)
            for (size_t first = 0; first < tracks; first += RUNE_SAMPLE_CHUNK) {
                rune_sample_chunk chunk;
                size_t n = tracks - first < RUNE_SAMPLE_CHUNK ? tracks - first : RUNE_SAMPLE_CHUNK;
                rune_sample_cache_sample(cache, 0.61f * (float)k * rune_clip_length(c), first, n, &chunk);
                check_finite(chunk.x, n), check_finite(chunk.qx, n), check_finite(chunk.qw, n);
                check_finite(chunk.coverage, n);
            }
        rune_sample_cache_destroy(cache);
    }
    const rune_rig *rig = rune_asset_rig(a);
    if (!rig || rune_asset_clip_count(a) == 0)
        return;
    rune_binding *b = NULL;
    rune_pose pose;
    size_t n = rune_rig_joint_count(rig);
    rune_mat4 *m = calloc(n, sizeof *m);
    if (m && !rune_pose_init(&pose, n, NULL, NULL)) {
        if (!rune_binding_create(rig, rune_asset_clip(a, 0), 0, NULL, &b, NULL)) {
            rune_binding_sample(b, 0.5f * rune_clip_length(rune_asset_clip(a, 0)), &pose);
            rune_rig_model_matrices(rig, &pose, m);
            check_finite(&m[0].m[0], 16 * n);
            rune_binding_destroy(b);
        }
        rune_pose_release(&pose);
    }
    free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool fix = data[0] & 1;
    data++, size--;
    unsigned char *p = malloc(size ? size : 1);
    if (!p)
        return 0;
    memcpy(p, data, size);
    if (fix && size >= ASSET_HEADER_BYTES) {
        memcpy(p, ASSET_MAGIC, 8);
        put_u32(p + HDR_VERSION, RUNE_ASSET_VERSION);
        put_u32(p + HDR_ORDER, ASSET_BYTE_ORDER);
        put_u64(p + HDR_SIZE, size);
        memset(p + HDR_SECTIONS + 4, 0, ASSET_HEADER_BYTES - HDR_SECTIONS - 4);
        put_u64(p + HDR_CHECKSUM, rune__asset_checksum(p + ASSET_HEADER_BYTES, size - ASSET_HEADER_BYTES));
    }
    rune_asset *a = NULL;
    rune_error err;
    rune_status st = rune_asset_load_memory(p, size, "fuzz.rune", NULL, &a, &err);
    if (st == RUNE_OK) {
        exercise(a);
        rune_asset_destroy(a);
    } else if (a != NULL || !strstr(err.message, "fuzz.rune: ") || strchr(err.message, '\n') ||
               (st != RUNE_E_PARSE && st != RUNE_E_INVALID && st != RUNE_E_NOMEM)) {
        __builtin_trap();
    }
    free(p);
    return 0;
}
