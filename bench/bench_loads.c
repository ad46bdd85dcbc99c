/* The load rows of `rune bench`: how building a rig, adding float curves,
 * binding a clip and retargeting grow with their size, at 1,000, 10,000
 * and 100,000 joints (or curves). Names are resolved through hash
 * indexes, so each should grow as n: the rows print the exponent of the
 * last tenfold step (1 is linear, 2 quadratic). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { SIZES = 3, NAME_BYTES = 16 };
static const size_t sizes[SIZES] = {1000, 10000, 100000};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* n joints named "J0".. as a binary tree (parents first), their
 * descriptions, and a clip of one key on every joint. */
typedef struct load_input {
    size_t n;
    char (*names)[NAME_BYTES];
    rune_joint_desc *joints;
    rune_key_pose_desc *poses;
    rune_curve_key_desc *curves;
} load_input;

static bool input_make(load_input *in, size_t n)
{
    in->n = n;
    in->names = calloc(n, sizeof *in->names);
    in->joints = calloc(n, sizeof *in->joints);
    in->poses = calloc(n, sizeof *in->poses);
    in->curves = calloc(n, sizeof *in->curves);
    if (!in->names || !in->joints || !in->poses || !in->curves)
        return false;
    for (size_t j = 0; j < n; j++) {
        snprintf(in->names[j], NAME_BYTES, "J%zu", j);
        const char *parent = j ? in->names[(j - 1) / 2] : "";
        in->joints[j] = (rune_joint_desc){in->names[j], parent, {{0, 1, 0}, {0, 0, 0, 1}}, {1, 1, 1}, false};
        in->poses[j] = (rune_key_pose_desc){parent, in->names[j], {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR,
                                            RUNE_EASE_IN, {1, 1, 1}, false};
        in->curves[j] = (rune_curve_key_desc){.name = in->names[j], .value = 0.5f, .weight = 1};
    }
    return true;
}

static void input_free(load_input *in)
{
    free(in->names);
    free(in->joints);
    free(in->poses);
    free(in->curves);
}

/* Seconds each kind of load takes at one size (< 0: it failed). */
typedef enum load_kind { LOAD_RIG, LOAD_CURVES, LOAD_BIND, LOAD_RETARGET, LOAD_KINDS } load_kind;

static double time_load(const load_input *in, load_kind kind)
{
    rune_rig *rig = NULL, *other = NULL;
    rune_clip *clip = NULL;
    rune_binding *b = NULL;
    rune_retarget *rt = NULL;
    double t0 = now_s(), t1 = -1.0;
    if (rune_rig_create(in->joints, in->n, NULL, &rig, NULL))
        return -1.0;
    if (kind == LOAD_RIG) {
        t1 = now_s();
    } else if (kind == LOAD_CURVES) { /* a keyframe of n curves, compiled, its curves joining the rig */
        t0 = now_s();
        rune_keyframe_desc key = {0.0f, NULL, 0, in->curves, in->n};
        rune_sequence_desc seq = {"c", 1, false, 0, &key, 1, NULL, 0, 0.0f};
        bool fine = rune_clip_compile(&seq, NULL, &clip, NULL) == RUNE_OK;
        for (size_t c = 0; fine && c < in->n; c++)
            fine = rune_rig_add_curve(rig, in->names[c], NULL, NULL) == RUNE_OK;
        t1 = fine ? now_s() : -1.0;
    } else if (kind == LOAD_BIND) {
        rune_keyframe_desc key = {0.0f, in->poses, in->n, NULL, 0};
        rune_sequence_desc seq = {"c", 1, false, 0, &key, 1, NULL, 0, 0.0f};
        if (!rune_clip_compile(&seq, NULL, &clip, NULL)) {
            t0 = now_s();
            if (!rune_binding_create(rig, clip, NULL, NULL, &b, NULL))
                t1 = now_s();
        }
    } else if (!rune_rig_create(in->joints, in->n, NULL, &other, NULL)) {
        t0 = now_s();
        if (!rune_retarget_create(&(rune_retarget_desc){other, rig, NULL, 0, false}, NULL, &rt, NULL))
            t1 = now_s();
    }
    rune_retarget_destroy(rt);
    rune_binding_destroy(b);
    rune_clip_destroy(clip);
    rune_rig_destroy(other);
    rune_rig_destroy(rig);
    return t1 < 0.0 ? -1.0 : t1 - t0;
}

int bench_load_rows(const bench_plan *p)
{
    static const char *const ids[LOAD_KINDS] = {"load_rig", "load_curves", "load_bind", "load_retarget"};
    static const char *const what[LOAD_KINDS] = {"rig of %zu joints", "%zu curves in one key, compiled",
                                                 "%zu tracks bound by name", "%zu joints retargeted by name"};
    bench_report_section(p->report, "loads: growth with size (ms; exponent of the last tenfold step, 1 = linear)");
    size_t top = p->quick ? 2 : SIZES;
    for (int k = 0; k < LOAD_KINDS; k++) {
        double ms[SIZES] = {0};
        for (size_t s = 0; s < top; s++) {
            load_input in;
            if (!input_make(&in, sizes[s])) {
                input_free(&in);
                return 2;
            }
            /* the fastest of three: a load is one long call */
            double best = INFINITY;
            for (int r = 0; r < 3; r++) {
                double t = time_load(&in, (load_kind)k);
                if (t < 0.0) {
                    input_free(&in);
                    return 2;
                }
                best = t < best ? t : best;
            }
            input_free(&in);
            ms[s] = 1e3 * best;
            bench_row row = bench_row_make("", "ms", ms[s], ms[s]);
            snprintf(row.id, sizeof row.id, "%s_%zu", ids[k], sizes[s]);
            char label[96];
            snprintf(label, sizeof label, what[k], sizes[s]);
            if (s > 0 && ms[s - 1] > 0.0)
                snprintf(row.label, sizeof row.label, "%s (n^%.2f)", label, log10(ms[s] / ms[s - 1]));
            else
                snprintf(row.label, sizeof row.label, "%s", label);
            bench_report_row(p->report, &row);
        }
    }
    return 0;
}
