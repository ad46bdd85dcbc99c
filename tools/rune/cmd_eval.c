/* `rune eval FILE|-`: run a scenario (or play an asset's clips) and print
 * every frame as JSON (the contract in docs/eval-output.md). Frames are streamed to stdout as they
 * are evaluated, so memory does not grow with their number; every write is
 * checked. Bad input is found before the first frame, so it leaves stdout
 * empty; a failure after output began (an I/O error, an internal error)
 * stops the run with its exit status and one line on stderr. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "commands.h"
#include "cli.h"
#include "json_out.h"
#include "timeline.h"
#include "eval_meshes.h"
#include "rune/io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: rune eval FILE|- [--clip ID] [--frames A:B] [--joints P/J,...] [--model]\n"
    "                 [--vertices N [--skinning lbs|dqs] [--previous]] [--simd LEVEL] [--strict] [--quiet]\n"
    "  Evaluates a scenario and prints {\"frames\": [...]} on stdout (docs/eval-output.md). FILE may\n"
    "  also be a .rune asset (every clip played once in turn, at 30 fps) or a file rune import reads.\n"
    "  -             read the scenario from stdin\n"
    "  --clip ID     an asset's clip to play alone\n"
    "  --frames A:B  print frames A to B-1 (A: to the end); all frames are evaluated\n"
    "  --joints L    print only these pose keys (comma-separated parent/part names)\n"
    "  --model       also print each joint's model-space position \"m\" (rune_rig_model_matrices)\n"
    "  --vertices N  also print \"meshes\": every N-th vertex of each skinned mesh (of the .rune or\n"
    "                imported file, or the asset a scenario's rig came from), model space, after\n"
    "                morphs and skinning\n"
    "  --skinning M  lbs (linear blend, the default) or dqs (dual quaternions)\n"
    "  --previous    also print \"previous\": the same vertices skinned with the previous frame's\n"
    "                matrices (the first frame's: its own), for motion vectors\n"
    "  --simd LEVEL  kernels: auto scalar sse2 avx2 avx2fma avx512 (default auto: the best this\n"
    "                CPU has); levels agree within a few ulps (docs/performance.md)\n"
    "  --strict      unknown JSON keys are errors, not warnings\n"
    "  --quiet       no warnings\n";

typedef struct eval_opts {
    const char *file;
    long first, last; /* frames [first, last) */
    const char *joints; /* comma-separated pose keys, or NULL for all */
    const char *clip;   /* an asset's clip to play alone, or NULL */
    long vertices;      /* --vertices: every N-th vertex; 0: no meshes */
    rune_skin_method skinning;
    bool previous;
    bool strict;
    bool model; /* print model-space positions */
    rune_simd_level simd;
} eval_opts;

typedef struct eval_out {
    const eval_opts *o;
    bool started, any;
    bool scale; /* the scenario uses scale: print "s" */
    bool controls; /* the scenario has solver controls: print "controls" */
    bool *keep; /* per joint */
    rune_mat4 *model; /* per joint, with --model */
    eval_meshes *meshes; /* with --vertices */
    int status;
    char msg[512];
} eval_out;

static const char *const kind_names[] = {"marker", "loop", "stopped"};

static void write_events(FILE *f, const rune_frame_report *r)
{
    fputs("[", f);
    for (size_t i = 0; i < r->event_count; i++) {
        const rune_scenario_event *e = &r->events[i];
        fputs(i ? ", {\"kind\": " : "{\"kind\": ", f);
        json_out_string(f, kind_names[e->kind]);
        fputs(", \"track\": ", f);
        json_out_string(f, e->source);
        if (e->kind == RUNE_EVENT_MARKER) {
            fputs(", \"name\": ", f);
            json_out_string(f, e->name);
            fputs(", \"value\": ", f);
            json_out_string(f, e->value);
            fputs(", \"time\": ", f);
            json_out_number(f, e->time);
        }
        fputs("}", f);
    }
    fputs("]", f);
}

/* Marks the joints named by --joints; an error if one is not in the rig. */
static int select_joints(eval_out *o, const rune_rig *rig)
{
    size_t n = rune_rig_joint_count(rig);
    o->keep = calloc(n ? n : 1, sizeof *o->keep);
    if (!o->keep) {
        snprintf(o->msg, sizeof o->msg, "%s: out of memory", o->o->file);
        return EXIT_INTERNAL;
    }
    for (size_t j = 0; !o->o->joints && j < n; j++)
        o->keep[j] = true;
    if (!o->o->joints)
        return EXIT_OK;
    char *list = strdup(o->o->joints), *save = NULL;
    int rc = list ? EXIT_OK : EXIT_INTERNAL;
    for (char *tok = list ? strtok_r(list, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
        int32_t j = rune_rig_find(rig, tok);
        if (j < 0) {
            snprintf(o->msg, sizeof o->msg, "%s: --joints: no joint \"%s\" in the rig", o->o->file, tok);
            rc = EXIT_INPUT;
            break;
        }
        o->keep[j] = true;
    }
    free(list);
    return rc;
}

static void write_vec(FILE *f, const char *key, const float *v, int n)
{
    fprintf(f, "\"%s\": [", key);
    for (int i = 0; i < n; i++) {
        fputs(i ? ", " : "", f);
        json_out_number(f, v[i]);
    }
    fputs("]", f);
}

/* The live solver controls: goal (as smoothed), effector, error. */
static void write_controls(FILE *f, const rune_frame_report *r)
{
    fputs(", \"controls\": {", f);
    for (size_t i = 0; i < r->control_count; i++) {
        const rune_scenario_control *c = &r->controls[i];
        const rune_control_state *s = &c->state;
        fputs(i ? ", " : "", f);
        json_out_string(f, c->name);
        fputs(": {\"type\": ", f);
        json_out_string(f, rune_control_mode_name(c->mode));
        const float target[3] = {s->target.x, s->target.y, s->target.z};
        const float effector[3] = {s->effector.x, s->effector.y, s->effector.z};
        fputs(", ", f);
        write_vec(f, "target", target, 3);
        if (c->mode == RUNE_CONTROL_ROTATION || c->mode == RUNE_CONTROL_TRANSFORM) {
            const float q[4] = {s->target_r.x, s->target_r.y, s->target_r.z, s->target_r.w};
            fputs(", ", f);
            write_vec(f, "target_r", q, 4);
        }
        fputs(", ", f);
        write_vec(f, "effector", effector, 3);
        fputs(", \"error\": ", f);
        json_out_number(f, s->error);
        fputs("}", f);
    }
    fputs("}", f);
}

/* The composed float curves: a value where the coverage is 1, else the
 * value with its coverage (docs/eval-output.md). */
static void write_curves(FILE *f, const rune_frame_report *r)
{
    fputs(", \"curves\": {", f);
    for (size_t i = 0; i < r->pose->curve_count; i++) {
        fputs(i ? ", " : "", f);
        json_out_string(f, rune_rig_curve_name(r->rig, i));
        fputs(": ", f);
        float cov = r->pose->curve_cov[i];
        if (cov == 1.0f) {
            json_out_number(f, r->pose->curve[i]);
            continue;
        }
        fputs("{\"value\": ", f);
        json_out_number(f, r->pose->curve[i]);
        fputs(", \"coverage\": ", f);
        json_out_number(f, cov);
        fputs("}", f);
    }
    fputs("}", f);
}

static bool write_frame(FILE *f, const eval_out *o, const rune_frame_report *r)
{
    fprintf(f, "{\"frame\": %d, \"time\": ", r->frame);
    json_out_number(f, r->time);
    fputs(", \"pose\": {", f);
    bool first = true;
    for (size_t j = 0; j < r->pose->count; j++) {
        if (!o->keep[j])
            continue;
        char name[256];
        fputs(first ? "" : ", ", f);
        first = false;
        json_out_string(f, rune_rig_joint_name(r->rig, j, name, sizeof name));
        rune_vec3 t = rune_pose_t(r->pose, j);
        rune_quat q = rune_pose_r(r->pose, j);
        fputs(": {\"t\": [", f);
        json_out_number(f, t.x), fputs(", ", f), json_out_number(f, t.y), fputs(", ", f), json_out_number(f, t.z);
        fputs("], \"r\": [", f);
        json_out_number(f, q.x), fputs(", ", f), json_out_number(f, q.y), fputs(", ", f);
        json_out_number(f, q.z), fputs(", ", f), json_out_number(f, q.w);
        if (o->model) {
            const float *m = o->model[j].m;
            fputs("], \"m\": [", f);
            json_out_number(f, m[12]), fputs(", ", f), json_out_number(f, m[13]), fputs(", ", f);
            json_out_number(f, m[14]);
        }
        if (o->scale) {
            rune_vec3 s = rune_pose_s(r->pose, j);
            fputs("], \"s\": [", f);
            json_out_number(f, s.x), fputs(", ", f), json_out_number(f, s.y), fputs(", ", f), json_out_number(f, s.z);
        }
        fputs("], \"coverage\": ", f);
        json_out_number(f, r->pose->coverage[j]);
        fputs("}", f);
    }
    fputs("},\n   \"events\": ", f);
    write_events(f, r);
    fputs(", \"root_motion\": {\"dx\": ", f);
    json_out_number(f, r->root_motion.dx);
    fputs(", \"dz\": ", f);
    json_out_number(f, r->root_motion.dz);
    fputs(", \"yaw\": ", f);
    json_out_number(f, r->root_motion.yaw);
    fputs("}", f);
    if (o->controls)
        write_controls(f, r);
    if (r->pose->curve_count)
        write_curves(f, r);
    if (o->meshes && !eval_meshes_frame(o->meshes, r, f))
        return false;
    fputs("}", f);
    return true;
}

static rune_status on_frame(void *user, const rune_frame_report *r)
{
    eval_out *o = user;
    if (!o->keep && (o->status = select_joints(o, r->rig)))
        return RUNE_E_INVALID;
    char what[160];
    if (!rune_frame_report_finite(r, what, sizeof what)) {
        snprintf(o->msg, sizeof o->msg, "%s: frame %d: internal error: non-finite %s (please report this input)",
                 o->o->file, r->frame, what);
        o->status = EXIT_INTERNAL;
        return RUNE_E_INVALID;
    }
    if (!o->started) {
        fputs("{\"frames\": [", stdout);
        o->started = true;
    }
    if (r->frame < o->o->first || r->frame >= o->o->last) {
        if (o->meshes) /* its matrices are the next frame's previous */
            eval_meshes_frame(o->meshes, r, NULL);
        return RUNE_OK;
    }
    fputs(o->any ? ",\n  " : "\n  ", stdout);
    o->any = true;
    if (o->o->model) {
        if (!o->model && !(o->model = calloc(rune_rig_joint_count(r->rig) + 1, sizeof *o->model))) {
            snprintf(o->msg, sizeof o->msg, "%s: out of memory", o->o->file);
            o->status = EXIT_INTERNAL;
            return RUNE_E_NOMEM;
        }
        rune_rig_model_matrices(r->rig, r->pose, o->model);
    }
    if (!write_frame(stdout, o, r)) {
        snprintf(o->msg, sizeof o->msg, "%s: frame %d: internal error: a skinning job failed", o->o->file, r->frame);
        o->status = EXIT_INTERNAL;
        return RUNE_E_INVALID;
    }
    if (ferror(stdout)) {
        snprintf(o->msg, sizeof o->msg, "<stdout>: write failed");
        o->status = EXIT_IO;
        return RUNE_E_IO;
    }
    return RUNE_OK;
}

static int parse_args(int argc, char **argv, eval_opts *o)
{
    o->first = 0;
    o->last = RUNE_SCENARIO_MAX_FRAMES + 1L;
    const char *frames = NULL, *vertices = NULL, *skinning = NULL, *simd = NULL;
    const cli_option options[] = {{"--frames", NULL, &frames},       {"--joints", NULL, &o->joints},
                                  {"--strict", &o->strict, NULL},     {"--model", &o->model, NULL},
                                  {"--clip", NULL, &o->clip},         {"--vertices", NULL, &vertices},
                                  {"--skinning", NULL, &skinning},    {"--previous", &o->previous, NULL},
                                  {"--simd", NULL, &simd},            {NULL, NULL, NULL}};
    if (cli_parse_args("eval", "FILE", true, argc, argv, options, &o->file) ||
        (frames && cli_parse_frames(frames, &o->first, &o->last)))
        return EXIT_INPUT;
    if (vertices) {
        char *end;
        o->vertices = strtol(vertices, &end, 10);
        if (end == vertices || *end || o->vertices < 1 || o->vertices > 1000000) {
            cli_error("rune eval: --vertices \"%s\": not a whole number from 1 to 1000000", vertices);
            return EXIT_INPUT;
        }
    }
    int level = simd ? rune_simd_from_name(simd) : RUNE_SIMD_AUTO;
    if (level < 0 || (level != RUNE_SIMD_AUTO && rune_simd_best() < (rune_simd_level)level)) {
        cli_error("rune eval: --simd \"%s\": %s", simd,
                  level < 0 ? "auto, scalar, sse2, avx2, avx2fma or avx512" : "this CPU does not have it");
        return EXIT_INPUT;
    }
    o->simd = (rune_simd_level)level;
    if (skinning && strcmp(skinning, "lbs") && strcmp(skinning, "dqs")) {
        cli_error("rune eval: --skinning \"%s\": lbs or dqs", skinning);
        return EXIT_INPUT;
    }
    o->skinning = skinning && !strcmp(skinning, "dqs") ? RUNE_SKIN_DUAL_QUATERNION : RUNE_SKIN_LINEAR;
    if ((skinning || o->previous) && !vertices) {
        cli_error("rune eval: --%s applies to --vertices (see rune eval --help)", skinning ? "skinning" : "previous");
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

int cmd_eval(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    eval_opts opts = {0};
    int rc = parse_args(argc, argv, &opts);
    if (rc)
        return rc;
    char msg[512];
    rune_scenario *s = timeline_load(opts.file, opts.strict, opts.clip, msg, sizeof msg, &rc);
    if (!s) {
        cli_error("%s", msg);
        return rc;
    }
    s->simd = opts.simd;
    eval_out out = {.o = &opts, .scale = s->uses_scale};
    if (opts.vertices && !(out.meshes = eval_meshes_open(opts.file, s, (size_t)opts.vertices, opts.skinning,
                                                         opts.previous, msg, sizeof msg, &rc))) {
        cli_error("%s", msg);
        rune_scenario_destroy(s);
        return rc;
    }
    for (size_t i = 0; i < s->command_count; i++)
        out.controls |= s->commands[i].kind == RUNE_CMD_CONTROL && s->commands[i].control.mode > RUNE_CONTROL_OFFSET;
    rune_error err = {0};
    rune_status st = rune_scenario_run(s, NULL, on_frame, &out, &err);
    if (!st && !out.started) /* zero frames */
        fputs("{\"frames\": [", stdout);
    if (!st)
        fputs(out.any ? "\n]}\n" : "]}\n", stdout);
    rc = out.status ? out.status : cli_exit_for(st);
    if (rc)
        cli_error("%s", out.status ? out.msg : err.message);
    else if ((rc = cli_close_stdout(msg, sizeof msg)))
        cli_error("%s", msg);
    free(out.keep);
    free(out.model);
    eval_meshes_close(out.meshes);
    rune_scenario_destroy(s);
    return rc;
}
