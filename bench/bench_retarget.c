/* The retarget rows of `rune bench`: forward and random-time sampling of
 * the 64-joint scene's clip retargeted onto a copy of its rig whose rest
 * frames are turned and whose names are prefixed ("mixamorig:J0" ...), beside
 * the same clip on its own rig (the "naive" column here), measured in the
 * same run; the same for CMU 01_01 between humanoids (retarget poses,
 * ground), without and with foot IK; and what building the retargeted
 * clips costs, once per binding. */
#include "bench.h"
#include "rig/rig_internal.h"
#include "rune/import.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A copy of `rig` with each rest frame's orientation turned (positions
 * kept) and "mixamorig:" before each name. */
static rune_rig *turned_copy(const rune_rig *rig)
{
    size_t n = rune_rig_joint_count(rig);
    rune_joint_desc *d = calloc(n, sizeof *d);
    char (*names)[48] = calloc(n, sizeof *names);
    rune_quat *model = calloc(n, sizeof *model);
    rune_mat4 *rest = calloc(n, sizeof *rest);
    rune_pose pose;
    rune_rig *out = NULL;
    if (d && names && model && rest && !rune_pose_init(&pose, n, NULL, NULL)) {
        rune_rig_model_matrices(rig, &pose, rest);
        rune_pose_release(&pose);
        for (size_t j = 0; j < n; j++) {
            int32_t p = rune_rig_parent(rig, j);
            snprintf(names[j], sizeof names[j], "mixamorig:%s", rune_rig_part(rig, j));
            float a = 0.9f * (float)j + 0.3f;
            rune_vec3 axis = rune_v3(sinf(a), cosf(2 * a), 0.4f);
            model[j] = rune_q_axis_angle(rune_v3_scale(axis, 1.0f / sqrtf(rune_v3_dot(axis, axis))), a);
            rune_quat up = p >= 0 ? model[p] : rune_q_identity();
            rune_vec3 at = rune_v3(rest[j].m[12], rest[j].m[13], rest[j].m[14]);
            rune_vec3 from = p >= 0 ? rune_v3(rest[p].m[12], rest[p].m[13], rest[p].m[14]) : rune_v3(0, 0, 0);
            d[j] = (rune_joint_desc){names[j], p >= 0 ? names[p] : NULL,
                                     {rune_q_rotate(rune_q_conjugate(up), rune_v3_sub(at, from)),
                                      rune_q_normalize(rune_q_mul(rune_q_conjugate(up), model[j]))},
                                     rune_v3(1, 1, 1), false};
        }
        if (rune_rig_create(d, n, NULL, &out, NULL))
            out = NULL;
    }
    free(d), free(names), free(model), free(rest);
    return out;
}

typedef struct build_ctx {
    const rune_rig *rig;
    const rune_clip *clip;
    const rune_retarget *rt;
} build_ctx;

static void build_run(void *p)
{
    build_ctx *c = p;
    rune_binding *b;
    if (!rune_binding_create(c->rig, c->clip, c->rt, NULL, &b, NULL))
        rune_binding_destroy(b);
}

static void sample_run(void *p)
{
    bench_sample_ctx *c = p;
    rune_binding_sample_cached(c->b, c->cache, bench_next_time(c), &c->pose);
}

static double sample_ns(const bench_plan *p, bench_sample_ctx *c, size_t joints)
{
    return 1e9 * bench_measure(sample_run, c, p->samples, p->sample_s, false).median / (double)joints;
}

static const char cmu_bvh[] = "/usr/share/assimp/models/BVH/01_01.bvh";

/* CMU 01_01 onto a turned copy of its rig (both humanoids), foot IK off
 * and on: sampling beside the clip on its own rig, and the bake. */
static int humanoid_rows(const bench_plan *p)
{
    rune_import *imp = NULL;
    rune_rig *src = NULL, *dst = NULL;
    rune_clip *clip = NULL;
    if (rune_import_file(cmu_bvh, NULL, &imp, NULL) || !imp->clip_count ||
        rune_rig_create(imp->joints, imp->joint_count, NULL, &src, NULL) ||
        rune_clip_compile(&imp->clips[0], NULL, &clip, NULL) || !(dst = turned_copy(src))) {
        fprintf(stderr, "rune bench: %s unreadable: humanoid retarget rows skipped\n", cmu_bvh);
        rune_clip_destroy(clip), rune_rig_destroy(src), rune_import_destroy(imp);
        return 0;
    }
    size_t joints = rune_rig_joint_count(src);
    rune_binding *own_b = NULL;
    bench_sample_ctx own = {NULL, NULL, {0}, 0.0f, rune_clip_length(clip), 1u, false};
    int rc = rune_binding_create(src, clip, NULL, NULL, &own_b, NULL);
    own.b = own_b;
    rc = rc || rune_binding_sampler_create(own.b, p->level, NULL, &own.cache, NULL) ||
         rune_pose_init(&own.pose, joints, NULL, NULL);
    for (int feet = 0; !rc && feet < 2; feet++) {
        rune_retarget *rt = NULL;
        rune_binding *moved = NULL;
        bench_sample_ctx ret = own;
        ret.cache = NULL;
        memset(&ret.pose, 0, sizeof ret.pose);
        rc = rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, !feet}, NULL, &rt, NULL) ||
             rune_binding_create(dst, clip, rt, NULL, &moved, NULL);
        ret.b = moved;
        rc = rc || rune_binding_sampler_create(ret.b, p->level, NULL, &ret.cache, NULL) ||
             rune_pose_init(&ret.pose, joints, NULL, NULL);
        if (!rc) {
            bench_row row = bench_row_make(feet ? "retarget_humanoid_feet" : "retarget_humanoid", "ns/joint", 0, 0);
            snprintf(row.label, sizeof row.label, "CMU 01_01 between humanoids%s, random times",
                     feet ? ", foot IK" : "");
            own.random = ret.random = true;
            row.median = row.min = sample_ns(p, &ret, joints);
            row.naive = sample_ns(p, &own, joints);
            bench_report_row(p->report, &row);
            build_ctx b = {dst, clip, rt};
            bench_timing t = bench_measure(build_run, &b, p->quick ? 3 : 5, p->sample_s, false);
            bench_row build = bench_row_make(feet ? "retarget_humanoid_feet_build" : "retarget_humanoid_build", "ms",
                                             1e3 * t.median, 1e3 * t.min);
            snprintf(build.label, sizeof build.label, "building it (%zu key times x %zu joints)%s",
                     rune_clip_track_key_count(clip, 0), joints, feet ? ", foot IK" : "");
            bench_report_row(p->report, &build);
        }
        rune_sample_cache_destroy(ret.cache);
        rune_pose_release(&ret.pose);
        rune_binding_destroy(moved);
        rune_retarget_destroy(rt);
    }
    rune_sample_cache_destroy(own.cache);
    rune_pose_release(&own.pose);
    rune_binding_destroy(own_b);
    rune_clip_destroy(clip), rune_rig_destroy(src), rune_rig_destroy(dst), rune_import_destroy(imp);
    return rc;
}

int bench_retarget_rows(const bench_plan *p, const bench_scene *s)
{
    size_t joints = rune_rig_joint_count(s->rig);
    const rune_clip *clip = rune_binding_source_clip(s->bindings[0]);
    rune_rig *dst = turned_copy(s->rig);
    rune_retarget *rt = NULL;
    rune_binding *moved = NULL;
    bench_sample_ctx own = {s->bindings[0], NULL, {0}, 0.0f, rune_clip_length(clip), 1u, false};
    bench_sample_ctx ret = own;
    int rc = !dst || rune_retarget_create(&(rune_retarget_desc){s->rig, dst, NULL, 0, false}, NULL, &rt, NULL) ||
             rune_binding_create(dst, clip, rt, NULL, &moved, NULL);
    ret.b = moved;
    rc = rc || rune_binding_sampler_create(own.b, p->level, NULL, &own.cache, NULL) ||
         rune_binding_sampler_create(ret.b, p->level, NULL, &ret.cache, NULL) ||
         rune_pose_init(&own.pose, joints, NULL, NULL) || rune_pose_init(&ret.pose, joints, NULL, NULL);
    if (!rc) {
        bench_report_section(p->report, "retargeting (the scene's clip onto a copy of its rig with turned rest "
                                        "frames; naive column: the clip on its own rig)");
        for (int random = 0; random < 2; random++) {
            own.random = ret.random = random != 0;
            bench_row row = bench_row_make(random ? "retarget_random" : "retarget_forward", "ns/joint", 0, 0);
            snprintf(row.label, sizeof row.label, "retargeted clip, %s", random ? "random times" : "forward 60 Hz");
            row.median = row.min = sample_ns(p, &ret, joints);
            row.naive = sample_ns(p, &own, joints);
            bench_report_row(p->report, &row);
        }
        build_ctx b = {dst, clip, rt};
        bench_timing t = bench_measure(build_run, &b, p->quick ? 3 : 7, p->sample_s, false);
        bench_row row = bench_row_make("retarget_build", "ms", 1e3 * t.median, 1e3 * t.min);
        snprintf(row.label, sizeof row.label, "building the retargeted clip (61 keys x 64 joints), once a binding");
        bench_report_row(p->report, &row);
        rc = humanoid_rows(p);
    }
    rune_sample_cache_destroy(own.cache);
    rune_sample_cache_destroy(ret.cache);
    rune_pose_release(&own.pose);
    rune_pose_release(&ret.pose);
    rune_binding_destroy(moved);
    rune_retarget_destroy(rt);
    rune_rig_destroy(dst);
    return rc;
}
