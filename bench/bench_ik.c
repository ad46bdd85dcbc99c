/* The IK rows of `rune bench`: one two-bone solve and one aim solve on
 * 1,024 different random chains in turn (the solver alone, ozz's
 * IKTwoBoneJob and IKAimJob's work), the same as controls on a 64-joint
 * pose (gathering the path's model frames, writing the local rotations
 * back), and a crowd of characters each with two foot IKs and a look-at
 * on top of 2 clips. The naive reference solves the two-bone chain the
 * textbook way: law of cosines with acos, axis-angle quaternions with
 * sin and cos, in float. */
#include "bench.h"
#include "ozz_anchor.h"
#include "mix/mix_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { JOBS = 1024 };

typedef struct ik_ctx {
    rune_ik_two_bone_job two[JOBS];
    rune_ik_aim_job aim[JOBS];
    size_t next;
    float sink;
} ik_ctx;

static float rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) / 16777216.0f * 2.0f - 1.0f;
}

static rune_vec3 rnd_v(uint32_t *s) { return rune_v3(rnd(s), rnd(s), rnd(s)); }

static void two_bone_run(void *p)
{
    ik_ctx *c = p;
    rune_ik_two_bone_result r;
    rune_ik_two_bone(&c->two[c->next++ & (JOBS - 1)], &r);
    c->sink += r.root_delta.w + r.mid_delta.w;
}

static void aim_run(void *p)
{
    ik_ctx *c = p;
    rune_ik_aim_result r;
    rune_ik_aim(&c->aim[c->next++ & (JOBS - 1)], &r);
    c->sink += r.delta.w;
}

static rune_vec3 unit(rune_vec3 v)
{
    float l = sqrtf(rune_v3_dot(v, v));
    return l > 0.0f ? rune_v3_scale(v, 1.0f / l) : v;
}

/* The textbook two-bone solve: angles by acos, rotations by axis-angle. */
static void two_bone_naive(void *p)
{
    ik_ctx *c = p;
    const rune_ik_two_bone_job *j = &c->two[c->next++ & (JOBS - 1)];
    rune_vec3 ab = rune_v3_sub(j->mid, j->root), bc = rune_v3_sub(j->end, j->mid), at = rune_v3_sub(j->target, j->root);
    float l1 = sqrtf(rune_v3_dot(ab, ab)), l2 = sqrtf(rune_v3_dot(bc, bc)), d = sqrtf(rune_v3_dot(at, at));
    d = fminf(fmaxf(d, fabsf(l1 - l2)), l1 + l2);
    float now = acosf(fmaxf(-1.0f, fminf(1.0f, rune_v3_dot(unit(rune_v3_scale(ab, -1)), unit(bc)))));
    float want = acosf(fmaxf(-1.0f, fminf(1.0f, (l1 * l1 + l2 * l2 - d * d) / (2 * l1 * l2))));
    rune_vec3 hinge = unit(rune_v3_cross(ab, bc));
    rune_quat bend = rune_q_axis_angle(hinge, now - want);
    rune_vec3 end = rune_v3_add(ab, rune_q_rotate(bend, bc));
    rune_vec3 axis = unit(rune_v3_cross(end, at));
    float turn = acosf(fmaxf(-1.0f, fminf(1.0f, rune_v3_dot(unit(end), unit(at)))));
    rune_quat root = rune_q_axis_angle(axis, turn);
    c->sink += root.w + bend.w;
}

/* A rotation whose local z is the chain's hinge (the normal of its plane,
 * the way it opens) and x the lower bone: ozz's mid_axis convention, so
 * that both libraries solve the same chain. */
static rune_quat hinge_frame(rune_vec3 upper, rune_vec3 lower)
{
    rune_vec3 z = unit(rune_v3_cross(lower, upper)), x = unit(lower), y = rune_v3_cross(z, x);
    float m00 = x.x, m11 = y.y, m22 = z.z, tr = m00 + m11 + m22;
    rune_quat q;
    if (tr > 0.0f) {
        float k = 2.0f * sqrtf(1.0f + tr);
        q = rune_q((y.z - z.y) / k, (z.x - x.z) / k, (x.y - y.x) / k, 0.25f * k);
    } else if (m00 >= m11 && m00 >= m22) {
        float k = 2.0f * sqrtf(1.0f + m00 - m11 - m22);
        q = rune_q(0.25f * k, (y.x + x.y) / k, (z.x + x.z) / k, (y.z - z.y) / k);
    } else if (m11 >= m22) {
        float k = 2.0f * sqrtf(1.0f + m11 - m00 - m22);
        q = rune_q((y.x + x.y) / k, 0.25f * k, (z.y + y.z) / k, (z.x - x.z) / k);
    } else {
        float k = 2.0f * sqrtf(1.0f + m22 - m00 - m11);
        q = rune_q((z.x + x.z) / k, (z.y + y.z) / k, 0.25f * k, (x.y - y.x) / k);
    }
    return rune_q_normalize(q);
}

static void make_jobs(ik_ctx *c)
{
    uint32_t s = 17;
    for (size_t i = 0; i < JOBS; i++) {
        rune_vec3 a = rnd_v(&s), b = rune_v3_add(a, rnd_v(&s)), e = rune_v3_add(b, rnd_v(&s));
        c->two[i] = (rune_ik_two_bone_job){a,    b,   e, hinge_frame(rune_v3_sub(b, a), rune_v3_sub(e, b)),
                                           rune_v3_add(a, rnd_v(&s)), rune_v3_add(a, rnd_v(&s)), true, 1.0f, 0.0f};
        c->aim[i] = (rune_ik_aim_job){rnd_v(&s),        rune_q_normalize(rune_q(rnd(&s), rnd(&s), rnd(&s), 1.5f)),
                                      1.0f,             rune_v3(0, 0, 1),
                                      rune_v3(0, 1, 0), rune_v3(0, 0.1f, 0.05f),
                                      rune_v3_scale(rnd_v(&s), 4), rune_v3(0, 1, 0),
                                      -1.0f};
    }
    c->next = 0;
}

/* A two-bone solve: ~40 double operations and three square roots; an aim:
 * two 3x3 frames and their quaternions, ~120. The floor counts them as
 * flops of this core (double runs at half the float rate at best). */
static int solver_rows(const bench_plan *p)
{
    ik_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return 1;
    make_jobs(c);
    bench_timing t = bench_measure(two_bone_run, c, p->samples, p->sample_s, false);
    bench_row row = bench_row_make("ik_two_bone", "ns/solve", 1e9 * t.median, 1e9 * t.min);
    snprintf(row.label, sizeof row.label, "two-bone IK solve (1,024 random chains)");
    row.naive = 1e9 * bench_measure(two_bone_naive, c, p->samples / 2 + 1, p->sample_s, false).median;
    row.floor = bench_floor_ns(p->machine, 2 * 60.0, 0, BENCH_L1);
    bench_anchor ozz = bench_ozz_two_bone(p, c->two, JOBS);
    bench_row_anchor(&row, "ozz", ozz);
    if (ozz.value >= 0) /* the solvers are one build (the baseline ISA): the same figure at every level */
        bench_row_matched(&row, p, row.median);
    bench_report_row(p->report, &row);
    t = bench_measure(aim_run, c, p->samples, p->sample_s, false);
    row = bench_row_make("ik_aim", "ns/solve", 1e9 * t.median, 1e9 * t.min);
    snprintf(row.label, sizeof row.label, "aim IK solve with offset (1,024 random joints)");
    row.floor = bench_floor_ns(p->machine, 2 * 120.0, 0, BENCH_L1);
    ozz = bench_ozz_aim(p, c->aim, JOBS);
    bench_row_anchor(&row, "ozz", ozz);
    if (ozz.value >= 0)
        bench_row_matched(&row, p, row.median);
    bench_report_row(p->report, &row);
    free(c);
    return 0;
}

/* ---- controls on a pose ------------------------------------------------ */

typedef struct control_ctx {
    const rune_rig *rig;
    rune_pose pose, input;
    rune_control c[3];
    size_t n;
    void *scratch;
} control_ctx;

/* The pose is not restored between calls: after the first, each solve
 * starts from its own result, which costs the same work (the solvers do
 * not look for a shortcut) without timing a pose copy. */
static void control_run(void *p)
{
    control_ctx *c = p;
    size_t order[3];
    rune_controls_apply(c->rig, c->c, c->n, order, c->scratch, &c->pose);
}

/* Joints of the bench's binary tree (parent of j is (j - 1) / 2): two
 * "feet" with parents and grandparents, and a "head". */
enum { FOOT_L = 15, FOOT_R = 17, HEAD = 21 };

static void foot_and_head(rune_control c[3], float phase)
{
    c[0] = rune_control_defaults(RUNE_CONTROL_TWO_BONE);
    c[0].id = 1, c[0].joint = FOOT_L, c[0].target = rune_v3(0.3f * sinf(phase), -0.5f, 0.2f);
    c[0].pole = rune_v3(0, 0, 2), c[0].has_pole = true;
    c[1] = c[0];
    c[1].id = 2, c[1].joint = FOOT_R, c[1].target = rune_v3(-0.3f, -0.5f, 0.2f * cosf(phase));
    c[2] = rune_control_defaults(RUNE_CONTROL_AIM);
    c[2].id = 3, c[2].joint = HEAD, c[2].priority = 1, c[2].target = rune_v3(2 * cosf(phase), 1, 3);
}

static int control_rows(const bench_plan *p, const bench_scene *s)
{
    control_ctx c = {s->rig, {0}, {0}, {{0}}, 0, calloc(1, rune_controls_scratch_bytes(s->rig))};
    size_t joints = rune_rig_joint_count(s->rig);
    if (!c.scratch || rune_pose_init(&c.pose, joints, NULL, NULL) || rune_pose_init(&c.input, joints, NULL, NULL))
        return 1;
    rune_binding_sample(s->bindings[0], 0.4f, &c.input);
    foot_and_head(c.c, 0.7f);
    rune_pose_copy(&c.pose, &c.input);
    const char *labels[2] = {"two-bone control on a 64-joint pose (path frames, solve, local writes)",
                             "2 foot IKs + a look-at on a 64-joint pose"};
    const char *ids[2] = {"ik_two_bone_control", "ik_feet_look"};
    for (int k = 0; k < 2; k++) {
        c.n = k ? 3 : 1;
        bench_timing t = bench_measure(control_run, &c, p->samples, p->sample_s, false);
        bench_row row = bench_row_make(ids[k], "ns/frame", 1e9 * t.median, 1e9 * t.min);
        snprintf(row.label, sizeof row.label, "%s", labels[k]);
        bench_report_row(p->report, &row);
    }
    free(c.scratch);
    rune_pose_release(&c.pose);
    rune_pose_release(&c.input);
    return 0;
}

/* ---- a crowd with IK --------------------------------------------------- */

static int crowd_row(const bench_plan *p, const bench_scene *s, size_t count, size_t workers)
{
    rune_character **chars = calloc(count, sizeof *chars);
    rune_batch *batch = NULL;
    int rc = !chars || bench_batch_create(workers, &batch);
    rune_character_desc cd = {.lib = s->lib, .root_joint = RUNE_NO_ROOT, .matrices = true, .simd = p->level};
    for (size_t i = 0; !rc && i < count; i++) {
        rune_play_params pa = {.fade = 0, .weight = 1.0f, .speed = 1.0f, .time = 0.013f * (float)i};
        rune_play_params pb = {.fade = 0, .weight = 0.5f, .speed = 1.0f, .time = 0.029f * (float)i};
        rune_control k[3];
        foot_and_head(k, 0.1f * (float)i);
        rc = rune_character_create(&cd, &bench_counting, &chars[i], NULL) ||
             rune_character_play_clip(chars[i], 0, &pa, NULL, NULL) ||
             rune_character_play_clip(chars[i], 1, &pb, NULL, NULL);
        for (int j = 0; j < 3 && !rc; j++)
            rc = rune_character_set_control(chars[i], &k[j], NULL);
    }
    if (!rc) {
        bench_row row = bench_row_make("", "ms/frame", 0, 0);
        snprintf(row.id, sizeof row.id, "ik_crowd_%zu_w%zu", count, workers);
        snprintf(row.label, sizeof row.label, "%zu x (2 clips + 2 foot IKs + look-at + matrices), %zu worker%s",
                 count, workers, workers == 1 ? "" : "s");
        bench_crowd_run(batch, chars, count, workers, p, &row);
        bench_report_row(p->report, &row);
    }
    for (size_t i = 0; chars && i < count; i++)
        rune_character_destroy(chars[i]);
    free(chars);
    rune_batch_destroy(batch);
    return rc;
}

int bench_ik_rows(const bench_plan *p, const bench_scene *s)
{
    bench_report_section(p->report, "IK (rune/ik.h solvers; controls on the 64-joint scene)");
    int rc = solver_rows(p) || control_rows(p, s);
    size_t count = p->quick ? 1000 : 10000;
    for (size_t w = 0; w <= p->workers && !rc; w += p->workers ? p->workers : 1)
        rc |= crowd_row(p, s, count, w);
    return rc;
}
