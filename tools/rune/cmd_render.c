/* `rune render FILE -o OUT.png|OUT.svg`: evaluate a scenario and draw its
 * skeleton and channels (see render_sheet.c). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "commands.h"
#include "render_sheet.h"
#include "cli.h"
#include "rune/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct collect {
    sheet_data d;
    rune_xform *model; /* scratch, per joint */
    int32_t *parent;
    bool failed, nonfinite;
} collect;

static rune_status on_frame(void *user, const rune_frame_report *r)
{
    collect *c = user;
    sheet_data *d = &c->d;
    if (c->failed || (size_t)r->frame < d->first_frame || (size_t)r->frame >= d->first_frame + d->frames)
        return RUNE_OK;
    if (!rune_frame_report_finite(r, NULL, 0)) {
        c->nonfinite = true;
        return RUNE_E_INVALID;
    }
    if (!c->model) {
        d->joints = rune_rig_joint_count(r->rig);
        size_t cells = d->frames * d->joints;
        c->model = calloc(d->joints + 1, sizeof *c->model);
        c->parent = calloc(d->joints + 1, sizeof *c->parent);
        d->joint_names = calloc(d->joints + 1, sizeof *d->joint_names);
        d->pos = calloc(cells + 1, sizeof *d->pos);
        d->angle = calloc(cells + 1, sizeof *d->angle);
        d->coverage = calloc(cells + 1, sizeof *d->coverage);
        d->series = calloc(d->frames * SHEET_MAX_SERIES + 1, sizeof *d->series);
        if (!c->model || !c->parent || !d->joint_names || !d->pos || !d->angle || !d->coverage || !d->series) {
            c->failed = true;
            return RUNE_E_NOMEM;
        }
        for (size_t j = 0; j < d->joints; j++) {
            c->parent[j] = rune_rig_parent(r->rig, j);
            rune_rig_joint_name(r->rig, j, d->joint_names[j], SHEET_NAME);
        }
        d->parent = c->parent;
    }
    size_t f = (size_t)r->frame - d->first_frame;
    cli_progress("rune render: evaluating frame", f + 1, d->frames);
    rune_rig_model_xforms(r->rig, r->pose, c->model);
    for (size_t j = 0; j < d->joints; j++) {
        rune_quat q = rune_pose_r(r->pose, j);
        d->pos[f * d->joints + j] = c->model[j].t;
        d->angle[f * d->joints + j] =
            (float)(2.0 * atan2(sqrt(q.x * q.x + q.y * q.y + q.z * q.z), fabs(q.w)) * 180.0 / 3.14159265358979);
        d->coverage[f * d->joints + j] = r->pose->coverage[j];
    }
    for (size_t i = 0; i < r->weight_count; i++) {
        size_t k = 0;
        while (k < d->series_count && strcmp(d->series_names[k], r->weights[i].source) != 0)
            k++;
        if (k == d->series_count) {
            if (k == SHEET_MAX_SERIES)
                continue;
            snprintf(d->series_names[k], SHEET_NAME, "%s", r->weights[i].source);
            d->series_count++;
        }
        d->series[f * SHEET_MAX_SERIES + k] = r->weights[i].weight;
    }
    return RUNE_OK;
}

/* The joints to plot: named ones, else the 4 whose angle varies most. */
static int choose_joints(collect *c, const char *names, size_t *out, size_t *count, char *bad, size_t bad_size)
{
    sheet_data *d = &c->d;
    *count = 0;
    if (names) {
        char *list = strdup(names), *save = NULL;
        for (char *tok = list ? strtok_r(list, ",", &save) : NULL; tok && *count < 8; tok = strtok_r(NULL, ",", &save)) {
            size_t j = 0;
            while (j < d->joints && strcmp(d->joint_names[j], tok) != 0)
                j++;
            if (j == d->joints) {
                snprintf(bad, bad_size, "%s", tok);
                free(list);
                return 2;
            }
            out[(*count)++] = j;
        }
        free(list);
        return 0;
    }
    float best[4] = {-1, -1, -1, -1};
    for (size_t j = 0; j < d->joints; j++) {
        float lo = INFINITY, hi = -INFINITY;
        for (size_t f = 0; f < d->frames; f++) {
            lo = fminf(lo, d->angle[f * d->joints + j]);
            hi = fmaxf(hi, d->angle[f * d->joints + j]);
        }
        float range = hi - lo;
        for (size_t k = 0; k < 4; k++)
            if (range > best[k]) {
                for (size_t m = 3; m > k; m--) {
                    best[m] = best[m - 1];
                    out[m] = out[m - 1];
                }
                best[k] = range;
                out[k] = j;
                break;
            }
    }
    for (size_t k = 0; k < 4; k++)
        *count += best[k] >= 0;
    return 0;
}

static const char usage[] =
    "usage: rune render FILE|- -o OUT.png|OUT.svg [--snapshots N] [--frames A:B] [--joints P/J,...]\n"
    "                   [--size WxH] [--force] [--strict] [--quiet]\n"
    "  Evaluates a scenario and draws a sheet: skeleton snapshots and channel plots.\n"
    "  -o OUT          PNG or SVG by the extension; written whole or not at all\n"
    "  --snapshots N   skeleton snapshots per row (1..64, default 6)\n"
    "  --frames A:B    draw frames A to B-1 (A: to the end)\n"
    "  --joints L      plot these joints (default: the 4 whose rotation varies most)\n"
    "  --size WxH      picture size (default 1400x1000)\n"
    "  --force         overwrite OUT if it exists\n"
    "  --strict        unknown JSON keys are errors; --quiet: no warnings\n";

int cmd_render(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    const char *file = NULL, *out = NULL, *joints = NULL;
    int w = 1400, h = 1000, snapshots = 6;
    long first = 0, last = RUNE_SCENARIO_MAX_FRAMES + 1L;
    bool force = false, strict = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--snapshots") == 0 && i + 1 < argc)
            snapshots = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            if (cli_parse_frames(argv[++i], &first, &last))
                return EXIT_INPUT;
        } else if (strcmp(argv[i], "--joints") == 0 && i + 1 < argc)
            joints = argv[++i];
        else if (strcmp(argv[i], "--force") == 0)
            force = true;
        else if (strcmp(argv[i], "--strict") == 0)
            strict = true;
        else if (strcmp(argv[i], "--quiet") == 0)
            cli_quiet = true;
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w < 200 || h < 200 || w > 16384 || h > 16384) {
                cli_error("rune render: --size %s: expected WxH between 200 and 16384", argv[i]);
                return EXIT_INPUT;
            }
        } else if (!file && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0))
            file = argv[i];
        else {
            cli_error("rune render: unexpected argument \"%s\" (see rune render --help)", argv[i]);
            return EXIT_INPUT;
        }
    }
    if (!file || !out || snapshots < 1 || snapshots > 64) {
        cli_error("rune render: %s (see rune render --help)",
                  !file ? "missing FILE" : (!out ? "missing -o OUT" : "--snapshots takes 1..64"));
        return EXIT_INPUT;
    }
    size_t len = strlen(out);
    bool svg = len > 4 && strcmp(out + len - 4, ".svg") == 0;
    if (!svg && !(len > 4 && strcmp(out + len - 4, ".png") == 0)) {
        cli_error("rune render: -o %s: unknown picture format (use .png or .svg)", out);
        return EXIT_INPUT;
    }
    char msg[512] = "";
    int rc;
    rune_scenario *s = cli_load_scenario(file, strict, msg, sizeof msg, &rc);
    if (!s) {
        cli_error("%s", msg);
        return rc;
    }
    const char *inputs[] = {file, NULL};
    cli_output o;
    if ((rc = cli_output_open(&o, out, inputs, force, msg, sizeof msg))) {
        cli_error("%s", msg);
        rune_scenario_destroy(s);
        return rc;
    }
    collect c = {0};
    c.d.title = s->file;
    c.d.dt = s->dt;
    c.d.first_frame = (size_t)first < (size_t)s->frames ? (size_t)first : (size_t)s->frames;
    c.d.frames = ((size_t)last < (size_t)s->frames ? (size_t)last : (size_t)s->frames) - c.d.first_frame;
    rune_error err = {0};
    rune_status st = rune_scenario_run(s, NULL, on_frame, &c, &err);
    if (c.nonfinite) {
        snprintf(msg, sizeof msg, "%s: internal error: a non-finite number in the evaluated frames", s->file);
        rc = EXIT_INTERNAL;
    } else if (c.failed) {
        snprintf(msg, sizeof msg, "%s: out of memory", s->file);
        rc = EXIT_INTERNAL;
    } else if (st) {
        snprintf(msg, sizeof msg, "%s", err.message);
        rc = cli_exit_for(st);
    }
    size_t plot_joints[8];
    char bad[128];
    if (!rc && choose_joints(&c, joints, plot_joints, &c.d.plot_joint_count, bad, sizeof bad)) {
        snprintf(msg, sizeof msg, "%s: --joints: no joint \"%s\" in the rig", s->file, bad);
        rc = EXIT_INPUT;
    }
    c.d.plot_joints = plot_joints;
    cli_progress("rune render: drawing", 0, 0);
    if (!rc)
        rc = sheet_render(&c.d, o.f, out, svg, w, h, snapshots, msg, sizeof msg);
    cli_progress_done();
    if (!rc)
        rc = cli_output_commit(&o, msg, sizeof msg);
    else
        cli_output_abort(&o);
    if (rc)
        cli_error("%s", msg);
    free(c.model);
    free(c.parent);
    free(c.d.joint_names);
    free(c.d.pos);
    free(c.d.angle);
    free(c.d.coverage);
    free(c.d.series);
    rune_scenario_destroy(s);
    return rc;
}
