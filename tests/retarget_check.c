/* Retargeting judged on real motion: a source file's first clip played on
 * a target rig, both evaluated at 30 fps, measured as a technical
 * animator would look at it (docs/semantics.md, "Retargeting"):
 *   - directions: each upper arm, forearm, thigh, shin and the hips->neck
 *     line, in each body's heading frame (left from the right thigh to the
 *     left, up), against the source's: mean <= 7 degrees, 95th percentile
 *     <= 20;
 *   - ground: the lowest target joint each frame, over the target's floor
 *     (its lowest joint at rest): 5th percentile within 3 % of the hips
 *     height, never more than 4 % below;
 *   - hips height over the floor within 5 % of the source's scaled (95th
 *     percentile of the frames, the error measured against the target's
 *     standing height). The source's floor is the 5th percentile of its
 *     lowest joint; the scale, the target's hips over its floor at rest
 *     to the source's standing: its legs straight (the hips over the
 *     thighs, thigh and shin lengths) on its ankles' median height while
 *     still;
 *   - hips path (horizontal, summed frame to frame) within 10 % of the
 *     source's scaled;
 *   - planted feet: on frames where a source ankle moves under 0.5 % of
 *     its standing hips height, the target's ankle moves at most 1.5 x the
 *     scaled source's plus 0.1 % of its hips height (summed over them).
 * Bones longer than half the leg and what hangs from them are not the
 * body's (exporters leave end bones metres long where nothing is skinned).
 * The bones are found by this program's own name tables (CMU/Mixamo,
 * Motion Analysis, Poser/DAZ, Unreal, VRM, Blender), not by rune's
 * humanoid finder, so a wrong mapping shows as wrong directions.
 *   usage: retarget_check [--no-foot-ik] [--until SECONDS] SOURCE TARGET
 * (--until: the clip's first seconds only)
 * SOURCE: an animation file rune_import_file reads; TARGET: an asset file
 * or a .rune whose rig the clip goes onto. Exit 1 when a limit fails. */
#define _DEFAULT_SOURCE /* strcasecmp */
#include "rune/rune.h"
#include "rune/asset.h"
#include "rune/import.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PI 3.14159265358979323846

enum { HIPS, NECK, UPPER_L, UPPER_R, FORE_L, FORE_R, HAND_L, HAND_R, THIGH_L, THIGH_R, SHIN_L, SHIN_R, FOOT_L,
       FOOT_R, BONES };

/* Each convention's names, in the order above. */
static const char *const conventions[][BONES] = {
    {"Hips", "Neck", "LeftArm", "RightArm", "LeftForeArm", "RightForeArm", "LeftHand", "RightHand", "LeftUpLeg",
     "RightUpLeg", "LeftLeg", "RightLeg", "LeftFoot", "RightFoot"}, /* CMU (cgspeed), Mixamo */
    {"Hips", "Neck", "LeftShoulder", "RightShoulder", "LeftElbow", "RightElbow", "LeftWrist", "RightWrist", "LeftHip",
     "RightHip", "LeftKnee", "RightKnee", "LeftAnkle", "RightAnkle"}, /* Motion Analysis, 3ds Max */
    {"hip", "neck", "lShldr", "rShldr", "lForeArm", "rForeArm", "lHand", "rHand", "lThigh", "rThigh", "lShin",
     "rShin", "lFoot", "rFoot"}, /* Poser, DAZ */
    {"pelvis", "neck_01", "upperarm_l", "upperarm_r", "lowerarm_l", "lowerarm_r", "hand_l", "hand_r", "thigh_l",
     "thigh_r", "calf_l", "calf_r", "foot_l", "foot_r"}, /* Unreal mannequin */
    {"hips", "neck", "leftUpperArm", "rightUpperArm", "leftLowerArm", "rightLowerArm", "leftHand", "rightHand",
     "leftUpperLeg", "rightUpperLeg", "leftLowerLeg", "rightLowerLeg", "leftFoot", "rightFoot"}, /* VRM, Unity */
    {"hips", "neck", "upper_arm.L", "upper_arm.R", "forearm.L", "forearm.R", "hand.L", "hand.R", "thigh.L",
     "thigh.R", "shin.L", "shin.R", "foot.L", "foot.R"}, /* Blender */
};

static int failures;

/* A joint whose part (after any "prefix:") is `name`, case aside. */
static int32_t find_part(const rune_rig *rig, const char *name)
{
    for (size_t j = 0; j < rune_rig_joint_count(rig); j++) {
        const char *part = rune_rig_part(rig, j), *colon = strrchr(part, ':');
        if (strcasecmp(colon ? colon + 1 : part, name) == 0)
            return (int32_t)j;
    }
    return -1;
}

static bool find_bones(const rune_rig *rig, int32_t *bone)
{
    for (size_t c = 0; c < sizeof conventions / sizeof *conventions; c++) {
        bool all = true;
        for (int b = 0; b < BONES && all; b++)
            all = (bone[b] = find_part(rig, conventions[c][b])) >= 0;
        if (all)
            return true;
    }
    return false;
}

typedef struct body {
    const rune_rig *rig;
    int32_t bone[BONES];
    size_t n;
    rune_mat4 *m;
    double up[3];
    bool *junk; /* bones longer than half the leg and what hangs from them (exporters leave some metres
                   long where nothing is skinned): not the body's */
} body;

static void pos(const body *b, int32_t j, double *out)
{
    for (int c = 0; c < 3; c++)
        out[c] = b->m[j].m[12 + c];
}
static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void sub(const double *a, const double *b, double *out)
{
    for (int c = 0; c < 3; c++)
        out[c] = a[c] - b[c];
}
static void unit(double *v)
{
    double n = sqrt(dot(v, v));
    for (int c = 0; n > 0 && c < 3; c++)
        v[c] /= n;
}
static double height(const body *b, int32_t j)
{
    double p[3];
    pos(b, j, p);
    return dot(p, b->up);
}
static double lowest(const body *b)
{
    double low = INFINITY;
    for (size_t j = 0; j < b->n; j++)
        if (!b->junk[j])
            low = fmin(low, height(b, (int32_t)j));
    return low;
}

/* Direction from joint a to joint c in the body's heading frame. */
static void heading_dir(const body *b, int32_t a, int32_t c, double *out)
{
    double l[3], r[3], left[3], fwd[3], pa[3], pc[3], d[3];
    pos(b, b->bone[THIGH_L], l), pos(b, b->bone[THIGH_R], r);
    sub(l, r, left);
    double k = dot(left, b->up);
    for (int i = 0; i < 3; i++)
        left[i] -= k * b->up[i];
    unit(left);
    fwd[0] = left[1] * b->up[2] - left[2] * b->up[1];
    fwd[1] = left[2] * b->up[0] - left[0] * b->up[2];
    fwd[2] = left[0] * b->up[1] - left[1] * b->up[0];
    pos(b, a, pa), pos(b, c, pc);
    sub(pc, pa, d);
    out[0] = dot(d, left), out[1] = dot(d, b->up), out[2] = dot(d, fwd);
    unit(out);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double percentile(double *v, size_t n, double p)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n ? v[(size_t)fmin((double)n - 1, floor(p * (double)n))] : 0.0;
}

static void check(bool ok, const char *what, double value, double limit)
{
    printf("  %-44s %9.3f  (limit %g)%s\n", what, value, limit, ok ? "" : "  FAIL");
    failures += !ok;
}

/* The hips' height over the ankles with the legs straight: the hips
 * above the thighs at rest (along up) and the thighs' and shins' lengths,
 * both sides' mean. */
static double leg_length(const body *b)
{
    double sum = 0.0, hips[3];
    pos(b, b->bone[HIPS], hips);
    for (int side = 0; side < 2; side++) {
        double a[3], k[3], f[3], d[3];
        pos(b, b->bone[THIGH_L + side], a), pos(b, b->bone[SHIN_L + side], k), pos(b, b->bone[FOOT_L + side], f);
        sub(hips, a, d), sum += dot(d, b->up);
        sub(k, a, d), sum += sqrt(dot(d, d));
        sub(f, k, d), sum += sqrt(dot(d, d));
    }
    return 0.5 * sum;
}

/* Rest: model matrices of the identity pose; up from the feet to the neck. */
static void rest_frame(body *b, rune_pose *pose)
{
    for (size_t j = 0; j < b->n; j++)
        rune_pose_set(pose, j, rune_v3(0, 0, 0), rune_q_identity(), 1.0f);
    rune_rig_model_matrices(b->rig, pose, b->m);
    double feet[3], l[3], r[3], neck[3];
    pos(b, b->bone[FOOT_L], l), pos(b, b->bone[FOOT_R], r), pos(b, b->bone[NECK], neck);
    for (int c = 0; c < 3; c++)
        feet[c] = 0.5 * (l[c] + r[c]);
    sub(neck, feet, b->up);
    double leg = sqrt(dot(b->up, b->up));
    unit(b->up);
    b->junk = calloc(b->n, sizeof *b->junk);
    for (size_t j = 0; j < b->n; j++) {
        int32_t p = rune_rig_parent(b->rig, j);
        double at[3], from[3], d[3];
        pos(b, (int32_t)j, at);
        if (p >= 0)
            pos(b, p, from), sub(at, from, d), b->junk[j] = b->junk[p] || sqrt(dot(d, d)) > 0.5 * leg;
    }
    for (int c = 0; c < 3; c++) /* a model's up axis: rigs lean a little at rest */
        if (fabs(b->up[c]) > 0.866)
            for (int k = 0; k < 3; k++)
                b->up[k] = k == c ? (b->up[c] > 0 ? 1.0 : -1.0) : 0.0;
}

int main(int argc, char **argv)
{
    bool foot_ik = true;
    double until = INFINITY;
    int a = 1;
    for (; a < argc && argv[a][0] == '-'; a++)
        if (strcmp(argv[a], "--no-foot-ik") == 0)
            foot_ik = false;
        else if (strcmp(argv[a], "--until") == 0 && a + 1 < argc)
            until = atof(argv[++a]);
    if (argc - a != 2) {
        fprintf(stderr, "usage: retarget_check [--no-foot-ik] [--until SECONDS] SOURCE TARGET\n");
        return 2;
    }
    const char *src_path = argv[a], *dst_path = argv[a + 1];
    rune_error err;
    rune_import *si = NULL, *ti = NULL;
    rune_asset *ta = NULL;
    rune_rig *src = NULL, *own = NULL;
    const rune_rig *dst;
    size_t len = strlen(dst_path);
    if (rune_import_file(src_path, NULL, &si, &err) || !si->clip_count ||
        rune_rig_create(si->joints, si->joint_count, NULL, &src, &err)) {
        fprintf(stderr, "retarget_check: %s: %s\n", src_path, si && !si->clip_count ? "no clip" : err.message);
        return 2;
    }
    if (len > 5 && strcmp(dst_path + len - 5, ".rune") == 0) {
        if (rune_asset_load_file(dst_path, NULL, &ta, &err) || !rune_asset_rig(ta)) {
            fprintf(stderr, "retarget_check: %s: %s\n", dst_path, ta ? "no rig" : err.message);
            return 2;
        }
        dst = rune_asset_rig(ta);
    } else {
        if (rune_import_file(dst_path, NULL, &ti, &err) ||
            rune_rig_create(ti->joints, ti->joint_count, NULL, &own, &err)) {
            fprintf(stderr, "retarget_check: %s: %s\n", dst_path, err.message);
            return 2;
        }
        dst = own;
    }
    body s = {src, {0}, rune_rig_joint_count(src), NULL, {0}, NULL}, t = {dst, {0}, rune_rig_joint_count(dst), NULL, {0}, NULL};
    if (!find_bones(src, s.bone) || !find_bones(dst, t.bone)) {
        fprintf(stderr, "retarget_check: %s: no naming convention this check knows\n",
                find_bones(src, s.bone) ? dst_path : src_path);
        return 2;
    }
    rune_clip *clip;
    rune_retarget *rt;
    rune_binding *sb, *tb;
    if (rune_clip_compile(&si->clips[0], NULL, &clip, &err) ||
        rune_retarget_create(&(rune_retarget_desc){src, dst, NULL, 0, !foot_ik}, NULL, &rt, &err) ||
        rune_binding_create(src, clip, NULL, NULL, &sb, &err) || rune_binding_create(dst, clip, rt, NULL, &tb, &err)) {
        fprintf(stderr, "retarget_check: %s onto %s: %s\n", src_path, dst_path, err.message);
        return 2;
    }
    s.m = calloc(s.n, sizeof *s.m), t.m = calloc(t.n, sizeof *t.m);
    rune_pose sp, tp;
    rune_pose_init(&sp, s.n, NULL, NULL), rune_pose_init(&tp, t.n, NULL, NULL);
    rest_frame(&s, &sp), rest_frame(&t, &tp);
    double s_legs = leg_length(&s);
    double t_floor = lowest(&t);
    double t_hips = height(&t, t.bone[HIPS]) - t_floor;

    float length = fminf(rune_clip_describe(clip).length, (float)until);
    size_t frames = (size_t)floor(length * 30.0) + 1;
    static const int pairs[][2] = {{UPPER_L, FORE_L}, {UPPER_R, FORE_R}, {FORE_L, HAND_L}, {FORE_R, HAND_R},
                                   {THIGH_L, SHIN_L}, {THIGH_R, SHIN_R}, {SHIN_L, FOOT_L}, {SHIN_R, FOOT_R},
                                   {HIPS, NECK}};
    enum { PAIRS = sizeof pairs / sizeof *pairs };
    double *angles = calloc(frames * PAIRS, sizeof *angles), *low_t = calloc(frames, sizeof *low_t),
           *low_s = calloc(frames, sizeof *low_s), *hips_s = calloc(frames, sizeof *hips_s),
           *hips_t = calloc(frames, sizeof *hips_t), (*flat_s)[3] = calloc(frames, sizeof *flat_s),
           (*flat_t)[3] = calloc(frames, sizeof *flat_t), (*ankle_s)[2][3] = calloc(frames, sizeof *ankle_s),
           (*ankle_t)[2][3] = calloc(frames, sizeof *ankle_t);
    double angle_sum = 0.0;
    for (size_t f = 0; f < frames; f++) {
        float time = fminf((float)f / 30.0f, length);
        rune_binding_sample(sb, time, &sp);
        rune_rig_model_matrices(src, &sp, s.m);
        rune_binding_sample(tb, time, &tp);
        rune_rig_model_matrices(dst, &tp, t.m);
        for (int p = 0; p < PAIRS; p++) {
            double ds[3], dt[3];
            heading_dir(&s, s.bone[pairs[p][0]], s.bone[pairs[p][1]], ds);
            heading_dir(&t, t.bone[pairs[p][0]], t.bone[pairs[p][1]], dt);
            double deg = acos(fmax(-1.0, fmin(1.0, dot(ds, dt)))) * 180.0 / PI;
            angles[f * PAIRS + p] = deg;
            angle_sum += deg;
        }
        low_t[f] = (lowest(&t) - t_floor) / t_hips;
        low_s[f] = lowest(&s);
        hips_s[f] = height(&s, s.bone[HIPS]);
        hips_t[f] = height(&t, t.bone[HIPS]) - t_floor;
        double p[3];
        pos(&s, s.bone[HIPS], p);
        for (int c = 0; c < 3; c++)
            flat_s[f][c] = p[c] - dot(p, s.up) * s.up[c];
        pos(&t, t.bone[HIPS], p);
        for (int c = 0; c < 3; c++)
            flat_t[f][c] = p[c] - dot(p, t.up) * t.up[c];
        for (int side = 0; side < 2; side++) {
            pos(&s, s.bone[FOOT_L + side], ankle_s[f][side]);
            pos(&t, t.bone[FOOT_L + side], ankle_t[f][side]);
        }
    }
    /* the source standing: its floor, the 5th percentile of its lowest
     * joint; its ankles over it, their median while still; its hips over
     * them, the legs straight. The ratio: the target's hips over its floor
     * at rest (standing) to that. */
    double *lows = calloc(frames, sizeof *lows), *still = calloc(2 * frames, sizeof *still);
    memcpy(lows, low_s, frames * sizeof *lows);
    double s_floor = percentile(lows, frames, 0.05);
    size_t n_still = 0;
    for (size_t f = 1; f < frames; f++)
        for (int side = 0; side < 2; side++) {
            double d[3];
            sub(ankle_s[f][side], ankle_s[f - 1][side], d);
            if (sqrt(dot(d, d)) < 0.005 * s_legs)
                still[n_still++] = dot(ankle_s[f][side], s.up);
        }
    double s_ankle = n_still ? percentile(still, n_still, 0.5) - s_floor : 0.0;
    double ratio = t_hips / (s_legs + s_ankle);
    printf("%s onto %s: %zu frames at 30 fps, hips ratio %.4g%s\n", src_path, dst_path, frames, ratio,
           foot_ik ? "" : ", no foot IK");
    double mean = angle_sum / (double)(frames * PAIRS);

    check(mean <= 7.0, "directions: mean angle (degrees)", mean, 7.0);
    double p95 = percentile(angles, frames * PAIRS, 0.95);
    check(p95 <= 20.0, "directions: 95th percentile (degrees)", p95, 20.0);
    memcpy(lows, low_t, frames * sizeof *lows);
    double p5 = percentile(lows, frames, 0.05), least = lows[0];
    check(fabs(p5) <= 0.03, "ground: lowest joint, 5th percentile (hips h)", p5, 0.03);
    check(least >= -0.04, "ground: lowest joint, least (hips h)", least, -0.04);
    /* relative to the target's standing height: a body lying down has its
     * hips near the floor, where a share of their own height would ask
     * for millimetres */
    double *herr = calloc(frames, sizeof *herr);
    for (size_t f = 0; f < frames; f++)
        herr[f] = fabs(hips_t[f] - ratio * (hips_s[f] - s_floor)) / t_hips;
    double hp95 = percentile(herr, frames, 0.95);
    check(hp95 <= 0.05, "hips height: error, 95th pct (of standing)", hp95, 0.05);
    double path_s = 0.0, path_t = 0.0;
    for (size_t f = 1; f < frames; f++) {
        double d[3];
        sub(flat_s[f], flat_s[f - 1], d), path_s += sqrt(dot(d, d));
        sub(flat_t[f], flat_t[f - 1], d), path_t += sqrt(dot(d, d));
    }
    double path = path_s > 0.0 ? path_t / (ratio * path_s) - 1.0 : 0.0;
    check(fabs(path) <= 0.10, "hips path: target / scaled source - 1", path, 0.10);
    double moved_s = 0.0, moved_t = 0.0;
    size_t planted = 0;
    for (size_t f = 1; f < frames; f++)
        for (int side = 0; side < 2; side++) {
            double ds[3], dt[3];
            sub(ankle_s[f][side], ankle_s[f - 1][side], ds);
            sub(ankle_t[f][side], ankle_t[f - 1][side], dt);
            if (sqrt(dot(ds, ds)) < 0.005 * (s_legs + s_ankle)) {
                planted++;
                moved_s += ratio * sqrt(dot(ds, ds));
                moved_t += sqrt(dot(dt, dt));
            }
        }
    double allowed = 1.5 * moved_s + 0.001 * t_hips * (double)planted;
    check(moved_t <= allowed, "planted ankles: target travel / allowed", allowed > 0 ? moved_t / allowed : 0.0, 1.0);
    printf("  (planted ankle-frames %zu: source %.4g scaled, target %.4g)\n", planted, moved_s, moved_t);
    free(angles), free(low_t), free(low_s), free(hips_s), free(hips_t), free(flat_s), free(flat_t);
    free(ankle_s), free(ankle_t), free(lows), free(still), free(herr), free(s.m), free(t.m), free(s.junk), free(t.junk);
    rune_pose_release(&sp), rune_pose_release(&tp);
    rune_binding_destroy(sb), rune_binding_destroy(tb);
    rune_retarget_destroy(rt);
    rune_clip_destroy(clip);
    rune_rig_destroy(src), rune_rig_destroy(own);
    rune_asset_destroy(ta);
    rune_import_destroy(si), rune_import_destroy(ti);
    return failures ? 1 : 0;
}
