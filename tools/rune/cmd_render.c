/* `rune render FILE -o OUT.png|OUT.svg`: evaluate a scenario and draw its
 * skeleton and channels (see render_sheet.c). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "commands.h"
#include "render_sheet.h"
#include "rune/io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct collect {
    sheet_data d;
    rune_xform *model; /* scratch, per joint */
    int32_t *parent;
    bool failed;
} collect;

static void on_frame(void *user, const rune_frame_report *r)
{
    collect *c = user;
    sheet_data *d = &c->d;
    if (c->failed || (size_t)r->frame >= d->frames)
        return;
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
            return;
        }
        for (size_t j = 0; j < d->joints; j++) {
            c->parent[j] = rune_rig_parent(r->rig, j);
            rune_rig_joint_name(r->rig, j, d->joint_names[j], SHEET_NAME);
        }
        d->parent = c->parent;
    }
    size_t f = (size_t)r->frame;
    rune_rig_model_xforms(r->rig, r->pose, c->model);
    for (size_t j = 0; j < d->joints; j++) {
        rune_quat q = r->pose->r[j];
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

int cmd_render(int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *joints = NULL;
    int w = 1400, h = 1000, snapshots = 6;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            snapshots = atoi(argv[++i]);
        else if (strcmp(argv[i], "--joints") == 0 && i + 1 < argc)
            joints = argv[++i];
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w < 200 || h < 200 || w > 16384 || h > 16384) {
                fprintf(stderr, "rune render: --size %s: expected WxH between 200 and 16384\n", argv[i]);
                return 2;
            }
        } else if (!file && argv[i][0] != '-')
            file = argv[i];
        else {
            fprintf(stderr, "rune render: unexpected argument \"%s\" (see rune --help)\n", argv[i]);
            return 2;
        }
    }
    if (!file || !out || snapshots < 1 || snapshots > 64) {
        fprintf(stderr, "rune render: usage: rune render FILE -o OUT.png|OUT.svg [--frames 1..64] [--joints ...] "
                        "[--size WxH]\n");
        return 2;
    }
    rune_error err = {0};
    rune_scenario *s;
    if (rune_scenario_load_file(file, NULL, &s, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    collect c = {0};
    c.d.title = file;
    c.d.dt = s->dt;
    c.d.frames = (size_t)s->frames;
    int rc = 0;
    char msg[512] = "";
    if (rune_scenario_run(s, NULL, on_frame, &c, &err)) {
        snprintf(msg, sizeof msg, "%s", err.message);
        rc = 2;
    } else if (c.failed) {
        snprintf(msg, sizeof msg, "%s: out of memory", file);
        rc = 2;
    }
    size_t plot_joints[8];
    char bad[128];
    if (!rc && choose_joints(&c, joints, plot_joints, &c.d.plot_joint_count, bad, sizeof bad)) {
        snprintf(msg, sizeof msg, "%s: --joints: no joint \"%s\" in the rig", file, bad);
        rc = 2;
    }
    c.d.plot_joints = plot_joints;
    if (!rc)
        rc = sheet_render(&c.d, out, w, h, snapshots, msg, sizeof msg);
    if (rc)
        fprintf(stderr, "%s\n", msg);
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
