/* libFuzzer target: the .rune loader on arbitrary bytes. With the first
 * byte even, the input is taken as it is (the header's checks); odd, the
 * header is made right (magic, version, byte order, size, checksum) so the
 * fuzzer reaches the section and value checks behind it. Whatever the
 * input: a parse error with one line naming where, or an asset whose
 * clips sample finite values and whose rig's matrices are finite. Never a
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

static void exercise(const rune_asset *a)
{
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
