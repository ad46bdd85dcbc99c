/* The compression rows of `rune bench`: the bytes of compressed clips
 * (CMU 01_01, 01_03, Boxing_Toes and the synthetic 64-joint clip) beside
 * their exact form in memory and, at ACL's settings, ACL on the same
 * clips measured in this run (bench/acl_anchor.h), then sampling the
 * compressed 01_01 forward and at random times beside the same clip exact
 * and ACL's decompression. Compressing takes seconds a clip: --quick
 * keeps 01_01 only. */
#include "bench.h"
#include "acl_anchor.h"
#include "ozz_anchor.h"
#include "rune/compress.h"
#include "rune/import.h"
#include "rig/rig_internal.h"

#include <stdio.h>
#include <string.h>

/* ACL's defaults, 0.01 cm precision and a 3 cm shell, scaled to 01_01's
 * skeleton; ACL itself is measured in this run when built in
 * (bench/acl_anchor.h), on the same grid at these settings. */
#define ACL_PRECISION 0.00148f
#define ACL_SHELL 0.443f

/* One clip compressed: a row of its bytes (KB), the exact clip's in the
 * naive column, and with `acl` ACL's bytes for the same clip, grid and
 * settings (measured into *acl); returns the compressed clip (or NULL). */
static rune_clip *size_row(const bench_plan *p, const char *id, const char *name, const rune_rig *rig,
                           const rune_clip *clip, const rune_compress_settings *s, bench_acl_clip *acl)
{
    rune_clip *packed;
    rune_error err;
    if (rune_clip_compress(clip, rig, s, NULL, &packed, &err)) {
        fprintf(stderr, "rune bench: %s: %s\n", name, err.message);
        return NULL;
    }
    rune_clip_compression z;
    rune_clip_compressed(packed, &z);
    double kb = (double)rune_clip_bytes(packed) / 1000.0;
    bench_row row = bench_row_make(id, "KB", kb, kb);
    snprintf(row.label, sizeof row.label, "%s: %.1f:1 of raw %.0f KB, max error %.3g (precision %.3g, shell %.3g)",
             name, (double)z.raw_bytes / (double)rune_clip_bytes(packed), (double)z.raw_bytes / 1000.0,
             (double)z.max_error, (double)z.precision, (double)z.shell);
    row.naive = (double)rune_clip_bytes(clip) / 1000.0;
    if (acl) {
        *acl = bench_acl_measure(p, rig, clip, &z, z.precision, z.shell);
        bench_anchor a = {acl->bytes >= 0 ? acl->bytes / 1000.0 : -1.0, acl->agree, acl->checked, 0};
        bench_row_anchor(&row, "ACL", a);
    }
    bench_report_row(p->report, &row);
    return packed;
}

static void sample_one(void *p)
{
    bench_sample_ctx *c = p;
    rune_binding_sample_cached(c->b, c->cache, bench_next_time(c), &c->pose);
}

/* ns per rig joint of sampling a clip, forward (random: at random times). */
static double sample_ns(const bench_plan *p, rune_simd_level level, const rune_rig *rig, const rune_clip *clip,
                        bool random, double *min)
{
    size_t n = rune_rig_joint_count(rig);
    rune_binding *b = NULL;
    bench_sample_ctx c = {NULL, NULL, {0}, 0.0f, rune_clip_length(clip), 1u, random};
    double ns = -1.0;
    if (!rune_binding_create(rig, clip, 0, NULL, &b, NULL) &&
        !rune_binding_sampler_create(b, level, NULL, &c.cache, NULL) && !rune_pose_init(&c.pose, n, NULL, NULL)) {
        c.b = b;
        bench_timing t = bench_measure(sample_one, &c, p->samples, p->sample_s, false);
        ns = t.median * 1e9 / (double)n;
        *min = t.min * 1e9 / (double)n;
        rune_pose_release(&c.pose);
    }
    rune_sample_cache_destroy(c.cache);
    rune_binding_destroy(b);
    return ns;
}

/* Sampling a compressed clip forward and at random times beside the same
 * clip exact (the naive column) and, at the same memory, ACL's
 * compressed tracks and ozz's optimized runtime animation at the same
 * bound: each row states both sides' bytes. `id` and `name` say which
 * clip. */
static void sampling_rows(const bench_plan *p, const char *id, const char *name, const rune_rig *rig,
                          const rune_clip *exact, const rune_clip *packed, const bench_acl_clip *acl,
                          const bench_ozz_clip *ozz)
{
    for (int random = 0; random < 2; random++) {
        double min = 0.0, lossless_min = 0.0;
        double lossless = sample_ns(p, p->level, rig, exact, random, &lossless_min);
        double ns = sample_ns(p, p->level, rig, packed, random, &min);
        double matched = -1.0;
        for (int anchor = 0; anchor < 2; anchor++) {
            bench_row row = bench_row_make("", "ns/joint", ns, min);
            snprintf(row.id, sizeof row.id, "%s_%s%s", id, random ? "random" : "forward", anchor ? "_ozz" : "");
            char ozz_note[64] = "";
            if (anchor)
                snprintf(ozz_note, sizeof ozz_note, "; ozz optimized to the bound, error to %.2g", ozz->max_error);
            snprintf(row.label, sizeof row.label, "%s compressed, %s (naive: the exact clip)%s", name,
                     random ? "random times" : "forward 60 Hz", ozz_note);
            row.naive = lossless;
            bench_anchor a = anchor ? (bench_anchor){random ? ozz->random_ns : ozz->forward_ns, ozz->agree, ozz->checked,
                                                     random ? ozz->random_bytes : ozz->bytes}
                                    : (bench_anchor){random ? acl->random_ns : acl->forward_ns, 0, 0, acl->bytes};
            bench_row_anchor(&row, anchor ? "ozz" : "ACL", a);
            if (row.anchor.value >= 0 && matched < 0)
                matched = sample_ns(p, bench_anchor_level(p), rig, packed, random, &lossless_min);
            if (row.anchor.value >= 0)
                bench_row_matched(&row, p, matched);
            row.bytes = (double)rune_clip_bytes(packed);
            row.anchor_bytes = a.bytes;
            bench_report_row(p->report, &row);
        }
    }
}

/* Key rate of an imported clip: its keyframes over its length. */
static float key_hz(const rune_sequence_desc *d)
{
    size_t n = d->keyframe_count;
    float length = n > 1 ? d->keyframes[n - 1].time - d->keyframes[0].time : 0.0f;
    return length > 0.0f ? (float)(n - 1) / length : 30.0f;
}

int bench_compression_rows(const bench_plan *p, const bench_scene *s)
{
    char title[160];
    snprintf(title, sizeof title, "compressed clips (naive column: the exact clip in memory; last column: %s on the "
             "same clip, grid and bound%s)", bench_acl_name() ? bench_acl_name() : "ACL",
             bench_acl_name() ? "" : ": no checkout given, -DRUNE_ACL_DIR");
    bench_report_section(p->report, title);
    const rune_clip *synthetic = rune_binding_clip(s->bindings[0]);
    bench_acl_clip acl_synthetic;
    rune_clip *packed = size_row(p, "compressed_synthetic64", "64-joint bench clip", s->rig, synthetic, NULL,
                                 &acl_synthetic);
    if (packed) { /* ozz's optimizer and runtime format at the same bound */
        rune_clip_compression z;
        rune_clip_compressed(packed, &z);
        bench_ozz_clip ozz = bench_ozz_sampling(p, s->rig, s->bindings[0], 30.0f, z.precision, z.shell);
        bench_row row = bench_row_make("ozz_synthetic64", "KB", ozz.bytes / 1000.0, ozz.bytes / 1000.0);
        snprintf(row.label, sizeof row.label, "  the same clip, ozz AnimationOptimizer at the same bound");
        if (ozz.bytes >= 0)
            bench_report_row(p->report, &row);
        sampling_rows(p, "compressed_synthetic64", "64-joint bench clip", s->rig, synthetic, packed, &acl_synthetic,
                      &ozz);
    }
    rune_clip_destroy(packed);
    static const char *const files[] = {"01_01", "01_03", "Boxing_Toes"};
    int rc = 0;
    for (size_t f = 0; f < (p->quick ? 1u : 3u); f++) {
        char path[128], id[48], name[64];
        snprintf(path, sizeof path, "/usr/share/assimp/models/BVH/%s.bvh", files[f]);
        rune_import *imp = NULL;
        rune_rig *rig = NULL;
        rune_clip *clip = NULL;
        if (rune_import_file(path, NULL, &imp, NULL) || imp->clip_count == 0 ||
            rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, NULL) ||
            rune_clip_compile(&imp->clips[0], NULL, &clip, NULL)) {
            rune_import_destroy(imp);
            rune_rig_destroy(rig);
            return 0; /* bench_growth_rows says the mocap is missing */
        }
        snprintf(id, sizeof id, "compressed_%s", files[f]);
        snprintf(name, sizeof name, "%s (rig height / 18000)", files[f]);
        rune_clip_destroy(size_row(p, id, name, rig, clip, NULL, NULL));
        rune_compress_settings acl = {ACL_PRECISION, ACL_SHELL, 0.0f};
        snprintf(id, sizeof id, "compressed_%s_acl", files[f]);
        snprintf(name, sizeof name, "%s (ACL's 0.00148 / 0.443)", files[f]);
        bench_acl_clip anchor;
        packed = size_row(p, id, name, rig, clip, &acl, &anchor);
        if (f == 0 && packed) {
            rune_binding *b = NULL;
            bench_ozz_clip ozz = {-1.0, -1.0, -1.0, -1.0, 0, 0, 0.0};
            if (!rune_binding_create(rig, clip, 0, NULL, &b, NULL))
                ozz = bench_ozz_sampling(p, rig, b, key_hz(&imp->clips[0]), ACL_PRECISION, ACL_SHELL);
            sampling_rows(p, "compressed", "01_01", rig, clip, packed, &anchor, &ozz);
            rune_binding_destroy(b);
        }
        rc |= packed == NULL;
        rune_clip_destroy(packed);
        rune_clip_destroy(clip);
        rune_rig_destroy(rig);
        rune_import_destroy(imp);
    }
    return rc;
}
