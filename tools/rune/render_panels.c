/* The panels of the render sheet (render_sheet.h), each drawn into its box
 * on the shared time axis: skeleton snapshots (views chosen from the
 * clip's extent), joint rotation and translation, weights, graph states
 * as coloured bands with their fades as ramps, signals as ticks, the
 * root-motion path from above, blend spaces, a coverage heat map, and the
 * solver controls: goals, poles and effectors on the snapshots, the error
 * left over time. */
#include "render_sheet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAU 6.283185307179586

static double clampd(double v, double lo, double hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* Component a (0 x, 1 y, 2 z) of a vector. */
static double axis_of(rune_vec3 v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }

/* Cells of a frame span half a frame either side of its x: bands and heat
 * maps are drawn clipped to their box (cairo_restore ends it). */
static void clip_to(cairo_t *cr, box b)
{
    cairo_save(cr);
    cairo_rectangle(cr, b.x, b.y, b.w, b.h);
    cairo_clip(cr);
}

/* ---- skeleton ------------------------------------------------------------ */

/* The axes to look along: up is the axis the skeleton spans most over
 * the clip (Y for most rigs, Z for a Collada Z-up one), the front view's
 * horizontal the next, the side view's the least. */
/* The axes a drawing of extent lo..hi is seen on: Y up unless the
 * extent is flat in Y, the wider of the other two across the front. */
static void axes_of(const double lo[3], const double hi[3], int *up, int *front, int *side)
{
    double ext[3];
    for (int a = 0; a < 3; a++)
        ext[a] = hi[a] - lo[a];
    *up = ext[1] >= 0.5 * fmax(ext[0], ext[2]) ? 1 : (ext[2] > ext[0] ? 2 : 0);
    int a = (*up + 1) % 3, b = (*up + 2) % 3;
    *front = ext[a] >= ext[b] ? a : b;
    *side = *front == a ? b : a;
}

static void view_axes(const timeline *t, int *up, int *front, int *side, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++)
        lo[a] = INFINITY, hi[a] = -INFINITY;
    for (size_t i = 0; i < t->frames * t->joints; i++)
        for (int a = 0; a < 3; a++) {
            double v = axis_of(t->pos[i], a);
            lo[a] = fmin(lo[a], v), hi[a] = fmax(hi[a], v);
        }
    for (size_t f = 0; t->source_pos && f < t->frames; f++) /* a retargeted clip's source, beside it */
        for (size_t j = 0; t->source_live[f] && j < t->source_joints; j++)
            for (int a = 0; a < 3; a++) {
                double v = axis_of(t->source_pos[f * t->source_joints + j], a);
                lo[a] = fmin(lo[a], v), hi[a] = fmax(hi[a], v);
            }
    for (int a = 0; a < 3; a++)
        if (!(hi[a] >= lo[a]))
            lo[a] = -1, hi[a] = 1;
    axes_of(lo, hi, up, front, side);
}

static bool is_leaf(const timeline *t, size_t j)
{
    for (size_t k = j + 1; k < t->joints; k++)
        if (t->parent[k] == (int32_t)j)
            return false;
    return true;
}

/* The solver controls live at frame f on a snapshot: the goal as a
 * cross, the pole as an open triangle, a dashed line from the effector
 * to the goal; in the controls panel's colours. */
static void draw_goals(const sheet *s, size_t f, box b, int ax, int ay, double cx, double cy, double scale)
{
    cairo_t *cr = s->cr;
    const timeline *t = s->t;
#define GX(v) (b.x + b.w / 2 + (axis_of(v, ax) - cx) * scale)
#define GY(v) (b.y + (b.h - 16) / 2 - (axis_of(v, ay) - cy) * scale)
    for (size_t i = 0; i < t->control_count; i++) {
        const tl_control *k = &t->controls[i];
        if (!k->live[f])
            continue;
        sheet_color(cr, i);
        cairo_set_line_width(cr, 1.5);
        double x = GX(k->target[f]), y = GY(k->target[f]);
        cairo_move_to(cr, x - 5, y - 5), cairo_line_to(cr, x + 5, y + 5);
        cairo_move_to(cr, x - 5, y + 5), cairo_line_to(cr, x + 5, y - 5);
        cairo_stroke(cr);
        if (k->mode != RUNE_CONTROL_AIM && k->mode != RUNE_CONTROL_ROTATION) {
            static const double dash[2] = {3, 3};
            cairo_set_dash(cr, dash, 2, 0);
            cairo_move_to(cr, GX(k->effector[f]), GY(k->effector[f]));
            cairo_line_to(cr, x, y);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
        }
        if (k->has_pole) {
            double px = GX(k->pole[f]), py = GY(k->pole[f]);
            cairo_move_to(cr, px, py - 5), cairo_line_to(cr, px + 5, py + 4), cairo_line_to(cr, px - 5, py + 4);
            cairo_close_path(cr);
            cairo_stroke(cr);
        }
    }
#undef GX
#undef GY
}

/* Snapshot k of n: its frame (spread over the run) and its cell in the
 * row, background drawn. */
static size_t snapshot_frame(const timeline *t, size_t k, size_t n)
{
    return n > 1 ? (size_t)llround((double)k * (double)(t->frames - 1) / (double)(n - 1)) : 0;
}

static box snapshot_cell(cairo_t *cr, box row, size_t k, double cell)
{
    box b = {row.x + (double)k * cell, row.y, cell, row.h};
    cairo_set_source_rgb(cr, 0.965, 0.965, 0.975);
    cairo_rectangle(cr, b.x + 2, b.y, b.w - 4, b.h);
    cairo_fill(cr);
    return b;
}

static void skeleton_row(const sheet *s, box row, int ax, int ay, const double lo[3], const double hi[3],
                         const char *label)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    size_t n = (size_t)s->o->snapshots;
    if (n > t->frames)
        n = t->frames ? t->frames : 1; /* never the same frame twice */
    double cell = row.w / (double)n;
    double span = fmax(fmax(hi[ax] - lo[ax], hi[ay] - lo[ay]), 1e-6);
    double scale = 0.86 * fmin(cell, row.h - 20) / span;
    double cx = (lo[ax] + hi[ax]) / 2, cy = (lo[ay] + hi[ay]) / 2;
    cairo_set_source_rgb(cr, 0, 0, 0);
    sheet_text(cr, row.x, row.y - 6, 13, label);
    bool label_all = t->joints <= 12;
    for (size_t i = 0; i < n; i++) {
        size_t f = snapshot_frame(t, i, n);
        box b = snapshot_cell(cr, row, i, cell);
        if (t->frames == 0)
            continue;
        const rune_vec3 *p = &t->pos[f * t->joints];
#define PX(j) (b.x + b.w / 2 + (axis_of(p[j], ax) - cx) * scale)
#define PY(j) (b.y + (b.h - 16) / 2 - (axis_of(p[j], ay) - cy) * scale)
        if (t->source_pos && t->source_live[f]) { /* the retargeted clip's source skeleton, in grey */
            const rune_vec3 *q = &t->source_pos[f * t->source_joints];
            cairo_set_line_width(cr, 1.4);
            cairo_set_source_rgb(cr, 0.62, 0.62, 0.68);
            for (size_t j = 0; j < t->source_joints; j++)
                if (t->source_parent[j] >= 0) {
                    rune_vec3 a = q[t->source_parent[j]], c = q[j];
                    cairo_move_to(cr, b.x + b.w / 2 + (axis_of(a, ax) - cx) * scale,
                                  b.y + (b.h - 16) / 2 - (axis_of(a, ay) - cy) * scale);
                    cairo_line_to(cr, b.x + b.w / 2 + (axis_of(c, ax) - cx) * scale,
                                  b.y + (b.h - 16) / 2 - (axis_of(c, ay) - cy) * scale);
                    cairo_stroke(cr);
                }
        }
        cairo_set_line_width(cr, t->joints > 60 ? 1.2 : 2.0);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.25);
        for (size_t j = 0; j < t->joints; j++)
            if (t->parent[j] >= 0) {
                cairo_move_to(cr, PX((size_t)t->parent[j]), PY((size_t)t->parent[j]));
                cairo_line_to(cr, PX(j), PY(j));
                cairo_stroke(cr);
            }
        for (size_t j = 0; j < t->joints; j++) {
            cairo_set_source_rgb(cr, 0.84, 0.15, 0.16);
            cairo_arc(cr, PX(j), PY(j), t->joints > 60 ? 1.5 : 2.5, 0, TAU);
            cairo_fill(cr);
            /* names in the first snapshot: every joint of a small rig, the
             * root and the leaves (hands, feet, head) of a large one */
            if (i == 0 && (label_all || t->parent[j] < 0 || is_leaf(t, j))) {
                const char *name = strrchr(t->joint_names[j], '/');
                cairo_set_source_rgb(cr, 0.35, 0.35, 0.4);
                sheet_text_fit(cr, PX(j) + 4, PY(j) - 3, 9, 90, name ? name + 1 : t->joint_names[j]);
            }
        }
        draw_goals(s, f, b, ax, ay, cx, cy, scale);
#undef PX
#undef PY
        char caption[64];
        snprintf(caption, sizeof caption, "frame %zu  t=%.3gs", f + t->first_frame,
                 (double)(f + t->first_frame + 1) * t->dt);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        sheet_text(cr, b.x + 6, b.y + b.h - 5, 10, caption);
    }
}

static void draw_skeleton(const sheet *s, box b)
{
    static const char axis_name[3] = {'X', 'Y', 'Z'};
    double lo[3], hi[3];
    int up, front, side;
    view_axes(s->t, &up, &front, &side, lo, hi);
    box row = {16, b.y, s->legend_x + s->legend_w - 16, b.h / 2 - 14};
    char label[64 + TL_NAME];
    snprintf(label, sizeof label, "front (%c right, %c up), model space%s%s", axis_name[front], axis_name[up],
             s->t->source_pos ? "; grey: " : "", s->t->source_pos ? s->t->source_label : "");
    skeleton_row(s, row, front, up, lo, hi, label);
    row.y += b.h / 2 + 14;
    snprintf(label, sizeof label, "side (%c right, %c up)", axis_name[side], axis_name[up]);
    skeleton_row(s, row, side, up, lo, hi, label);
}

/* ---- mesh silhouettes -------------------------------------------------------- */

/* Mesh i skinned at frame f (linear blending, rune_skin_run) into out (3
 * floats a vertex); false when out of memory or the job fails. */
static bool skinned(const timeline *t, size_t i, size_t f, float *out)
{
    const rune_mesh *m = &t->meshes[i];
    rune_mat4 *model = malloc((t->joints + 1) * sizeof *model), *palette = malloc((m->bind_count + 1) * sizeof *palette);
    bool fine = model && palette;
    for (size_t j = 0; fine && j < t->joints; j++) {
        const float *e = &t->model[12 * (f * t->joints + j)];
        float *d = model[j].m;
        for (int col = 0; col < 4; col++) {
            for (int r = 0; r < 3; r++)
                d[4 * col + r] = e[3 * col + r];
            d[4 * col + 3] = col == 3 ? 1.0f : 0.0f;
        }
    }
    if (fine) {
        rune_mesh_skinning_matrices(m, model, palette);
        rune_skin_job job = {0};
        job.method = RUNE_SKIN_LINEAR, job.vertex_count = m->vertex_count, job.influences = m->influences;
        job.joints = m->joints, job.weights = m->weights, job.matrices = palette, job.palette_count = m->bind_count;
        job.positions = m->positions, job.out_positions = out;
        fine = rune_skin_run(&job, NULL) == RUNE_OK;
    }
    free(model), free(palette);
    return fine;
}

/* The meshes' extent over the snapshot frames (lo/hi per axis). */
static void mesh_bounds(const timeline *t, size_t n, float *scratch, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++)
        lo[a] = INFINITY, hi[a] = -INFINITY;
    for (size_t k = 0; k < n; k++) {
        size_t f = snapshot_frame(t, k, n);
        for (size_t i = 0; i < t->mesh_count; i++)
            if (skinned(t, i, f, scratch))
                for (size_t v = 0; v < t->meshes[i].vertex_count; v++)
                    for (int a = 0; a < 3; a++)
                        lo[a] = fmin(lo[a], scratch[3 * v + a]), hi[a] = fmax(hi[a], scratch[3 * v + a]);
    }
    for (int a = 0; a < 3; a++)
        if (!(hi[a] >= lo[a]))
            lo[a] = -1, hi[a] = 1;
}

static void mesh_row(const sheet *s, box row, int ax, int ay, const double lo[3], const double hi[3], size_t n,
                     float *scratch, const char *label)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    double cell = row.w / (double)n, span = fmax(fmax(hi[ax] - lo[ax], hi[ay] - lo[ay]), 1e-6);
    double scale = 0.86 * fmin(cell, row.h - 20) / span, cx = (lo[ax] + hi[ax]) / 2, cy = (lo[ay] + hi[ay]) / 2;
    cairo_set_source_rgb(cr, 0, 0, 0);
    sheet_text(cr, row.x, row.y - 6, 13, label);
    for (size_t k = 0; k < n; k++) {
        size_t f = snapshot_frame(t, k, n);
        box b = snapshot_cell(cr, row, k, cell);
        cairo_set_source_rgb(cr, 0.42, 0.42, 0.48);
        for (size_t i = 0; i < t->mesh_count; i++) {
            const rune_mesh *m = &t->meshes[i];
            if (!skinned(t, i, f, scratch))
                continue;
            for (size_t tri = 0; tri < m->triangle_count; tri++) {
                double x[3], y[3];
                for (int c = 0; c < 3; c++) {
                    const float *p = &scratch[3 * m->indices[3 * tri + (size_t)c]];
                    x[c] = b.x + b.w / 2 + (p[ax] - cx) * scale, y[c] = b.y + (b.h - 16) / 2 - (p[ay] - cy) * scale;
                }
                /* every triangle wound one way, so the fill is their union (front
                 * and back faces would cancel under the winding rule) */
                bool flip = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]) < 0;
                cairo_move_to(cr, x[0], y[0]);
                cairo_line_to(cr, x[flip ? 2 : 1], y[flip ? 2 : 1]);
                cairo_line_to(cr, x[flip ? 1 : 2], y[flip ? 1 : 2]);
                cairo_close_path(cr);
            }
            cairo_fill(cr); /* the silhouette */
        }
        char when[48];
        snprintf(when, sizeof when, "frame %zu", t->first_frame + f);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        sheet_text(cr, b.x + 6, b.y + b.h - 4, 10, when);
    }
}

/* The skinned meshes' silhouettes, front and side, at the snapshots'
 * frames, framed on the meshes themselves. */
static void draw_mesh(const sheet *s, box b)
{
    static const char axis_name[3] = {'X', 'Y', 'Z'};
    const timeline *t = s->t;
    size_t n = (size_t)s->o->snapshots, most = 0;
    if (n > t->frames)
        n = t->frames ? t->frames : 1;
    for (size_t i = 0; i < t->mesh_count; i++)
        most = t->meshes[i].vertex_count > most ? t->meshes[i].vertex_count : most;
    float *scratch = malloc((3 * most + 1) * sizeof *scratch);
    if (!scratch || !t->frames) {
        free(scratch);
        return;
    }
    double lo[3], hi[3];
    int up, front, side;
    mesh_bounds(t, n, scratch, lo, hi);
    axes_of(lo, hi, &up, &front, &side);
    box row = {16, b.y, s->legend_x + s->legend_w - 16, b.h / 2 - 14};
    char label[64];
    snprintf(label, sizeof label, "skinned meshes, front (%c right, %c up)", axis_name[front], axis_name[up]);
    mesh_row(s, row, front, up, lo, hi, n, scratch, label);
    row.y += b.h / 2 + 14;
    snprintf(label, sizeof label, "side (%c right, %c up)", axis_name[side], axis_name[up]);
    mesh_row(s, row, side, up, lo, hi, n, scratch, label);
    free(scratch);
}

/* ---- time plots ----------------------------------------------------------- */

typedef double (*value_fn)(const timeline *t, size_t f, size_t i, const size_t *joints);

static double rotation_of(const timeline *t, size_t f, size_t i, const size_t *j)
{
    return t->angle[f * t->joints + j[i]];
}

static double translation_of(const timeline *t, size_t f, size_t i, const size_t *j)
{
    rune_vec3 v = t->local_t[f * t->joints + j[i]];
    return sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
}

static double weight_of(const timeline *t, size_t f, size_t i, const size_t *j)
{
    (void)j;
    return t->series[f * TL_MAX_SERIES + i];
}

static void lines(const sheet *s, box b, value_fn fn, size_t count, const size_t *joints, double lo, double hi,
                  size_t color0)
{
    cairo_t *cr = s->cr;
    for (size_t i = 0; i < count; i++) {
        sheet_color(cr, color0 + i);
        cairo_set_line_width(cr, 1.6);
        for (size_t f = 0; f < s->t->frames; f++) {
            double y = b.y + b.h - b.h * clampd((fn(s->t, f, i, joints) - lo) / (hi - lo), -0.02, 1.02);
            if (f == 0)
                cairo_move_to(cr, sheet_x(s, (double)f), y);
            else
                cairo_line_to(cr, sheet_x(s, (double)f), y);
        }
        if (s->t->frames == 1) /* one frame: a dot */
            cairo_rel_line_to(cr, 0.1, 0);
        cairo_stroke(cr);
    }
}

static double max_of(const timeline *t, value_fn fn, size_t count, const size_t *joints, double floor)
{
    double m = floor;
    for (size_t f = 0; f < t->frames; f++)
        for (size_t i = 0; i < count; i++)
            m = fmax(m, fn(t, f, i, joints));
    return m;
}

/* The joints whose value ranges most over the clip (at most 4). */
static size_t most_moving(const timeline *t, value_fn fn, size_t *out)
{
    double best[4] = {-1, -1, -1, -1};
    size_t count = 0, all[1];
    for (size_t j = 0; j < t->joints; j++) {
        double lo = INFINITY, hi = -INFINITY;
        all[0] = j;
        for (size_t f = 0; f < t->frames; f++) {
            double v = fn(t, f, 0, all);
            lo = fmin(lo, v), hi = fmax(hi, v);
        }
        double range = hi - lo;
        for (size_t k = 0; k < 4; k++)
            if (range > best[k] && range > 1e-6) {
                for (size_t m = 3; m > k; m--)
                    best[m] = best[m - 1], out[m] = out[m - 1];
                best[k] = range, out[k] = j;
                break;
            }
    }
    for (size_t k = 0; k < 4; k++)
        count += best[k] >= 0;
    return count;
}

static void joint_plot(const sheet *s, box b, value_fn fn, const char *title, const char *unit)
{
    size_t joints[8], n;
    if (s->o->plot_joint_count) {
        n = s->o->plot_joint_count;
        memcpy(joints, s->o->plot_joints, n * sizeof *joints);
    } else {
        n = most_moving(s->t, fn, joints);
    }
    double hi = max_of(s->t, fn, n, joints, 1e-6);
    hi = hi >= 1 ? ceil(hi) : hi * 1.1;
    sheet_axes(s, b, title, 0, hi, unit);
    lines(s, b, fn, n, joints, 0, hi, 0);
    for (size_t i = 0; i < n; i++)
        sheet_legend(s, b, i, i, s->t->joint_names[joints[i]]);
    if (n == 0) {
        cairo_set_source_rgb(s->cr, 0.4, 0.4, 0.4);
        sheet_text(s->cr, b.x + 10, b.y + 20, 11, "no joint moves");
    }
}

static void draw_weights(const sheet *s, box b)
{
    const timeline *t = s->t;
    double hi = max_of(t, weight_of, t->series_count, NULL, 1.0);
    sheet_axes(s, b, "weights: plays (fades included) and blend samples", 0, hi, "");
    lines(s, b, weight_of, t->series_count, NULL, 0, hi, 0);
    for (size_t i = 0; i < t->series_count; i++)
        sheet_legend(s, b, i, i, t->series_names[i]);
}

static double curve_of(const timeline *t, size_t f, size_t i, const size_t *c)
{
    return t->curve[f * t->curve_count + c[i]];
}

/* The composed float curves: the TL_MAX_CURVES that range most (all of
 * them when that many or fewer), on their common range. */
static void draw_curves(const sheet *s, box b)
{
    const timeline *t = s->t;
    size_t pick[TL_MAX_CURVES], n = 0;
    double range[TL_MAX_CURVES], lo = 0.0, hi = 1e-6;
    for (size_t k = 0; k < t->curve_count; k++) {
        double a = INFINITY, z = -INFINITY;
        for (size_t f = 0; f < t->frames; f++)
            a = fmin(a, t->curve[f * t->curve_count + k]), z = fmax(z, t->curve[f * t->curve_count + k]);
        double r = t->frames ? z - a : 0.0;
        size_t at = n < TL_MAX_CURVES ? n++ : TL_MAX_CURVES;
        if (at == TL_MAX_CURVES) { /* full: replace the one that ranges least, if this ranges more */
            size_t least = 0;
            for (size_t i = 1; i < n; i++)
                least = range[i] < range[least] ? i : least;
            if (!(r > range[least]))
                continue;
            at = least;
        }
        pick[at] = k, range[at] = r;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < t->frames; f++) {
            double v = curve_of(t, f, i, pick);
            lo = fmin(lo, v), hi = fmax(hi, v);
        }
    hi = hi >= 1 ? ceil(hi) : hi * 1.1;
    lo = lo <= -1 ? floor(lo) : lo * 1.1;
    char title[96];
    snprintf(title, sizeof title, "float curves (composed)%s",
             t->curve_count > n ? ": the most varying" : "");
    sheet_axes(s, b, title, lo, hi, "");
    lines(s, b, curve_of, n, pick, lo, hi, 0);
    for (size_t i = 0; i < n; i++)
        sheet_legend(s, b, i, i, t->curve_names[pick[i]]);
}

/* The error each solver control leaves, over the frames it is live:
 * distance for position solvers, degrees for aim and rotation. */
static void draw_controls(const sheet *s, box b)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    double hi = 1e-6;
    bool angles = false, distances = false;
    for (size_t i = 0; i < t->control_count; i++) {
        const tl_control *k = &t->controls[i];
        bool angle = k->mode == RUNE_CONTROL_AIM || k->mode == RUNE_CONTROL_ROTATION;
        angles |= angle, distances |= !angle;
        for (size_t f = 0; f < t->frames; f++)
            if (k->live[f])
                hi = fmax(hi, angle ? k->error[f] * 180.0 / 3.14159265358979 : k->error[f]);
    }
    hi = hi >= 1 ? ceil(hi) : hi * 1.1;
    sheet_axes(s, b, angles && distances ? "controls: effector to goal (model units; aim, rotation: degrees)"
                     : angles           ? "controls: aimed ray to goal (degrees)"
                                        : "controls: effector to goal (model units)",
               0, hi, "");
    for (size_t i = 0; i < t->control_count; i++) {
        const tl_control *k = &t->controls[i];
        double unit = k->mode == RUNE_CONTROL_AIM || k->mode == RUNE_CONTROL_ROTATION ? 180.0 / 3.14159265358979 : 1.0;
        sheet_color(cr, i);
        cairo_set_line_width(cr, 1.6);
        bool down = false;
        for (size_t f = 0; f < t->frames; f++) {
            if (!k->live[f]) {
                down = false;
                continue;
            }
            double x = sheet_x(s, (double)f), y = b.y + b.h - b.h * clampd(k->error[f] * unit / hi, 0, 1.02);
            if (down)
                cairo_line_to(cr, x, y);
            else
                cairo_move_to(cr, x, y), cairo_rel_line_to(cr, 0.1, 0);
            down = true;
        }
        cairo_stroke(cr);
        char label[TL_NAME + 24];
        snprintf(label, sizeof label, "%s (%s)", k->name, rune_control_mode_name(k->mode));
        sheet_legend(s, b, i, i, label);
    }
}

/* ---- graph states ---------------------------------------------------------- */

static const char *state_name(const tl_layer *l, int16_t st)
{
    return st >= 0 && (size_t)st < l->state_count ? l->state_names[st] : "?";
}

/* The destination's share at the left and right edges of frame f's cell:
 * the mean with the neighbour when it fades toward the same state, so a
 * fade draws as a ramp across cells. */
static void edge_alpha(const tl_layer *l, size_t frames, size_t f, double *left, double *right)
{
    double a = l->alpha[f];
    *left = *right = a;
    if (f > 0 && l->state[f - 1] == l->state[f])
        *left = 0.5 * (a + l->alpha[f - 1]);
    else if (f > 0 && l->from[f] >= 0) /* the fade's first frame starts at 0 */
        *left = 0.5 * a;
    if (f + 1 < frames && l->state[f + 1] == l->state[f])
        *right = 0.5 * (a + l->alpha[f + 1]);
}

static void quad(cairo_t *cr, double x0, double x1, double y0l, double y1l, double y0r, double y1r)
{
    cairo_move_to(cr, x0, y0l);
    cairo_line_to(cr, x1, y0r);
    cairo_line_to(cr, x1, y1r);
    cairo_line_to(cr, x0, y1l);
    cairo_close_path(cr);
    cairo_fill(cr);
}

/* Rows of the states panel: a layer each, and the inertialization's. */
static size_t state_bands(const timeline *t)
{
    size_t n = t->layer_count + (t->inertialized ? 1 : 0);
    return n ? n : 1;
}

/* The character's inertialization below the layers: the offset it adds
 * (its largest joint angle) as a decaying area, scaled to the run's
 * largest, its size named where each one starts. */
static void draw_inertia(const sheet *s, box b, double y0, double h, double half)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    double most = 0;
    for (size_t f = 0; f < t->frames; f++)
        most = fmax(most, t->inertia[f]);
    clip_to(cr, b);
    cairo_set_source_rgb(cr, 0.58, 0.40, 0.74);
    for (size_t f = 0; f < t->frames; f++) {
        if (t->inertia[f] <= 0)
            continue;
        double x = sheet_x(s, (double)f), a = most > 0 ? t->inertia[f] / most : 0;
        cairo_rectangle(cr, x - half, y0 + h * (1 - a), 2 * half + 0.5, h * a);
        cairo_fill(cr);
    }
    char label[48];
    for (size_t f = 0; f < t->frames; f++) {
        bool starts = t->inertia[f] > 0 && (f == 0 || t->inertia[f - 1] <= 0 || t->inertia[f] > t->inertia[f - 1]);
        if (!starts || (f + 1 < t->frames && t->inertia[f + 1] > t->inertia[f]))
            continue; /* named at its largest frame */
        snprintf(label, sizeof label, "%.0f deg", t->inertia[f]);
        cairo_set_source_rgb(cr, 0, 0, 0);
        sheet_text_fit(cr, sheet_x(s, (double)f) + 4, y0 + 12, 10.5, 140, label);
    }
    cairo_restore(cr);
    sheet_legend(s, b, t->layer_count, 4, "inertialization");
}

static void draw_states(const sheet *s, box b)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    sheet_axes(s, b, "graph layers: state bands; a fade is a ramp from source (below) to destination (above), an "
                     "interrupted one starts from a hatched frozen pose; an inertialization, the offset it adds",
               0, 0, "");
    double rh = b.h / (double)state_bands(t);
    double half = t->frames > 1 ? 0.5 * s->plot_w / (double)(t->frames - 1) : s->plot_w / 2;
    for (size_t i = 0; i < t->layer_count; i++) {
        const tl_layer *l = &t->layers[i];
        double y0 = b.y + (double)i * rh + 3, h = rh - 6;
        clip_to(cr, b);
        for (size_t f = 0; f < t->frames; f++) {
            if (l->state[f] < 0)
                continue;
            double x0 = sheet_x(s, (double)f) - half, x1 = sheet_x(s, (double)f) + half + 0.5, al, ar;
            edge_alpha(l, t->frames, f, &al, &ar);
            sheet_color(cr, (size_t)l->state[f]); /* the destination on top */
            quad(cr, x0, x1, y0, y0 + h * al, y0, y0 + h * ar);
            if (al >= 1 && ar >= 1)
                continue;
            if (l->interrupted[f])
                cairo_set_source_rgb(cr, 0.7, 0.7, 0.7);
            else if (l->from[f] >= 0)
                sheet_color(cr, (size_t)l->from[f]);
            else
                cairo_set_source_rgb(cr, 1, 1, 1);
            quad(cr, x0, x1, y0 + h * al, y0 + h, y0 + h * ar, y0 + h);
            if (l->interrupted[f]) { /* hatching: the frozen pose */
                cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
                cairo_set_line_width(cr, 1);
                for (double hx = x0 - fmod(x0, 6); hx < x1; hx += 6) {
                    cairo_move_to(cr, hx, y0 + h);
                    cairo_line_to(cr, hx + 4, y0 + h * fmin(al, ar));
                }
                cairo_stroke(cr);
            }
        }
        /* names where a state begins, and a red line where a transition
         * was interrupted, over the bands */
        for (size_t f = 0; f < t->frames; f++) {
            if (l->state[f] < 0 || (f > 0 && l->state[f] == l->state[f - 1] && !(l->interrupted[f] && !l->interrupted[f - 1])))
                continue;
            double x = sheet_x(s, (double)f) - (f ? half : 0);
            if (l->interrupted[f] && (f == 0 || !l->interrupted[f - 1])) {
                cairo_set_source_rgb(cr, 0.84, 0.15, 0.16);
                cairo_set_line_width(cr, 2);
                cairo_move_to(cr, x, y0 - 2);
                cairo_line_to(cr, x, y0 + h + 2);
                cairo_stroke(cr);
            }
            if (f == 0 || l->state[f] != l->state[f - 1]) {
                cairo_set_source_rgb(cr, 1, 1, 1);
                cairo_rectangle(cr, x + 2, y0 + 2, 8 + 6.0 * (double)strlen(state_name(l, l->state[f])), 13);
                cairo_fill(cr);
                cairo_set_source_rgb(cr, 0, 0, 0);
                sheet_text_fit(cr, x + 4, y0 + 12, 10.5, 140, state_name(l, l->state[f]));
            }
        }
        cairo_restore(cr);
        sheet_legend(s, b, i, 7, l->label);
    }
    if (t->inertialized)
        draw_inertia(s, b, b.y + (double)t->layer_count * rh + 3, rh - 6, half);
}

/* ---- signals ----------------------------------------------------------------- */

/* The plays that raised signals, in order of appearance (at most 8): a row
 * each. */
static size_t event_sources(const timeline *t, const char **out)
{
    const char *found[8];
    size_t n = 0;
    for (size_t i = 0; i < t->event_count && n < 8; i++) {
        size_t k = 0;
        while (k < n && strcmp(found[k], t->events[i].source) != 0)
            k++;
        if (k == n)
            found[n++] = t->events[i].source;
    }
    if (out)
        memcpy(out, found, n * sizeof *found);
    return n ? n : 1;
}

static void draw_events(const sheet *s, box b)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    sheet_axes(s, b, "signals: markers (name=value), loops, stops, by play", 0, 0, "");
    const char *sources[8];
    size_t n = t->event_count ? event_sources(t, sources) : 0;
    double rh = b.h / (double)(n ? n : 1);
    double last_x[8];
    for (size_t k = 0; k < 8; k++)
        last_x[k] = -1e9;
    for (size_t i = 0; i < t->event_count; i++) {
        const tl_event *e = &t->events[i];
        size_t row = 0;
        while (row < n && strcmp(sources[row], e->source) != 0)
            row++;
        if (row == n)
            continue;
        double x = sheet_x(s, (double)e->frame), y = b.y + (double)row * rh;
        static const double kind_color[3][3] = {{0.12, 0.47, 0.71}, {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16}};
        const double *c = kind_color[e->kind < 3 ? e->kind : 0];
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        cairo_set_line_width(cr, 1.5);
        cairo_move_to(cr, x, y + 4);
        cairo_line_to(cr, x, y + rh - 4);
        cairo_stroke(cr);
        char label[2 * TL_NAME + 8];
        if (e->kind == RUNE_EVENT_MARKER)
            snprintf(label, sizeof label, "%s%s%s", e->name, e->value[0] ? "=" : "", e->value);
        else
            snprintf(label, sizeof label, "%s", e->kind == RUNE_EVENT_LOOP ? "loop" : "stop");
        if (x - last_x[row] > 40) { /* names that would overlap are left to the ticks */
            sheet_text_fit(cr, x + 3, y + fmin(rh - 4, 14), 9.5, 120, label);
            last_x[row] = x;
        }
    }
    for (size_t k = 0; k < n; k++)
        sheet_legend(s, b, k, 7, sources[k][0] ? sources[k] : "(play)");
}

/* ---- root motion ---------------------------------------------------------------- */

static void draw_root(const sheet *s, box b)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    /* the path: heading += yaw, position += rotate(heading) (dx, dz) */
    double x = 0, z = 0, heading = 0, lx = 0, hx = 0, lz = 0, hz = 0;
    for (size_t f = 0; f < t->frames; f++) {
        const float *r = &t->root[3 * f];
        heading += r[2];
        x += cos(heading) * r[0] + sin(heading) * r[1];
        z += -sin(heading) * r[0] + cos(heading) * r[1];
        lx = fmin(lx, x), hx = fmax(hx, x), lz = fmin(lz, z), hz = fmax(hz, z);
    }
    double size = fmin(b.h, b.w), span = fmax(fmax(hx - lx, hz - lz), 1e-6), scale = 0.9 * size / span;
    box v = {b.x, b.y, size, size};
    cairo_set_source_rgb(cr, 0, 0, 0);
    char title[160];
    double travelled = 0, turned = 0;
    for (size_t f = 0; f < t->frames; f++) {
        travelled += hypot(t->root[3 * f], t->root[3 * f + 1]);
        turned += t->root[3 * f + 2];
    }
    snprintf(title, sizeof title, "root motion from above (X right, Z down): %.3g units travelled, %.3g deg turned",
             travelled, turned * 360.0 / TAU);
    sheet_text(cr, b.x, b.y - 6, 13, title);
    cairo_set_source_rgb(cr, 0.965, 0.965, 0.975);
    cairo_rectangle(cr, v.x, v.y, v.w, v.h);
    cairo_fill(cr);
#define VX(px) (v.x + v.w / 2 + ((px) - (lx + hx) / 2) * scale)
#define VY(pz) (v.y + v.h / 2 + ((pz) - (lz + hz) / 2) * scale)
    x = z = heading = 0;
    cairo_set_line_width(cr, 2);
    sheet_color(cr, 0);
    cairo_move_to(cr, VX(0), VY(0));
    size_t every = t->frames > 12 ? t->frames / 12 : 1;
    for (size_t f = 0; f < t->frames; f++) {
        const float *r = &t->root[3 * f];
        heading += r[2];
        x += cos(heading) * r[0] + sin(heading) * r[1];
        z += -sin(heading) * r[0] + cos(heading) * r[1];
        cairo_line_to(cr, VX(x), VY(z));
        if (f % every == 0 || f + 1 == t->frames) { /* a heading arrow */
            cairo_stroke(cr);
            double ax = VX(x), ay = VY(z), dx = sin(heading), dz = cos(heading);
            sheet_color(cr, 3);
            cairo_move_to(cr, ax, ay);
            cairo_line_to(cr, ax + 14 * dx, ay + 14 * dz);
            cairo_stroke(cr);
            cairo_arc(cr, ax + 14 * dx, ay + 14 * dz, 2.5, 0, TAU);
            cairo_fill(cr);
            sheet_color(cr, 0);
            cairo_move_to(cr, ax, ay);
        }
    }
    cairo_stroke(cr);
#undef VX
#undef VY
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    char scale_label[64];
    snprintf(scale_label, sizeof scale_label, "box: %.3g units across", size / scale);
    sheet_text(cr, v.x + 6, v.y + v.h - 6, 10, scale_label);
}

/* ---- blend spaces ---------------------------------------------------------------- */

/* The colour the weights panel gives "track/clip", so a sample's dot and
 * its weight curve match; `fallback` when it has none. */
static size_t series_color(const timeline *t, const char *track, const char *clip, size_t fallback)
{
    char name[2 * TL_NAME + 2];
    snprintf(name, sizeof name, "%s/%s", track, clip);
    for (size_t i = 0; i < t->series_count; i++)
        if (strcmp(t->series_names[i], name) == 0)
            return i;
    return fallback;
}

static void draw_blend(const sheet *s, box b)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    size_t n = t->blend_count;
    double cell = fmin(b.h, (s->legend_x + s->legend_w - b.x) / (double)(n ? n : 1) - 20);
    cairo_set_source_rgb(cr, 0, 0, 0);
    sheet_text(cr, b.x, b.y - 6, 13, "blend spaces: samples (dot area = mean weight), the parameter path over time "
                                     "(light to dark)");
    for (size_t i = 0; i < n; i++) {
        const tl_blend *bl = &t->blends[i];
        box v = {b.x + (double)i * (cell + 20), b.y, cell, cell};
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (size_t k = 0; k < bl->sample_count; k++)
            for (int d = 0; d < 2; d++)
                lo[d] = fmin(lo[d], d ? bl->pos[k].y : bl->pos[k].x), hi[d] = fmax(hi[d], d ? bl->pos[k].y : bl->pos[k].x);
        for (size_t f = 0; f < t->frames; f++)
            if (bl->live[f])
                for (int d = 0; d < bl->dims; d++)
                    lo[d] = fmin(lo[d], bl->param[2 * f + d]), hi[d] = fmax(hi[d], bl->param[2 * f + d]);
        if (bl->dims == 1)
            lo[1] = -1, hi[1] = 1;
        double span = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), 1e-6), scale = 0.8 * cell / span;
#define BX(px) (v.x + v.w / 2 + ((px) - (lo[0] + hi[0]) / 2) * scale)
#define BY(py) (v.y + v.h / 2 - ((py) - (lo[1] + hi[1]) / 2) * scale)
        cairo_set_source_rgb(cr, 0.965, 0.965, 0.975);
        cairo_rectangle(cr, v.x, v.y, v.w, v.h);
        cairo_fill(cr);
        for (size_t k = 0; k < bl->sample_count; k++) {
            double mean = 0, live = 0;
            for (size_t f = 0; f < t->frames; f++)
                if (bl->live[f])
                    mean += bl->weight[f * TL_MAX_SAMPLES + k], live++;
            mean = live ? mean / live : 0;
            sheet_color(cr, series_color(t, bl->label, bl->sample_names[k], k));
            cairo_arc(cr, BX(bl->pos[k].x), BY(bl->pos[k].y), 3 + 16 * sqrt(mean), 0, TAU);
            cairo_fill(cr);
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
            sheet_text_fit(cr, BX(bl->pos[k].x) + 6, BY(bl->pos[k].y) - 6, 10, 110, bl->sample_names[k]);
        }
        bool started = false;
        for (size_t f = 0; f < t->frames; f++) {
            if (!bl->live[f])
                continue;
            double u = t->frames > 1 ? (double)f / (double)(t->frames - 1) : 1;
            cairo_set_source_rgb(cr, 0.75 - 0.7 * u, 0.75 - 0.7 * u, 0.8 - 0.5 * u);
            double px = BX(bl->param[2 * f]), py = BY(bl->dims == 2 ? bl->param[2 * f + 1] : 0);
            if (started) {
                cairo_line_to(cr, px, py);
                cairo_set_line_width(cr, 2);
                cairo_stroke(cr);
            }
            cairo_move_to(cr, px, py);
            started = true;
        }
#undef BX
#undef BY
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        char caption[3 * TL_NAME];
        snprintf(caption, sizeof caption, "%s: %s%s%s", bl->label, bl->param_names[0], bl->dims == 2 ? " x " : "",
                 bl->param_names[1]);
        sheet_text_fit(cr, v.x + 4, v.y + v.h - 6, 10, v.w - 8, caption);
    }
}

/* ---- coverage ---------------------------------------------------------------------- */

static void draw_coverage(const sheet *s, box b)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    sheet_axes(s, b, "coverage: joints (rows, rig order) x frames; white 0, dark 1", 0, 0, "");
    if (t->joints == 0 || t->frames == 0)
        return;
    double rh = b.h / (double)t->joints, half = t->frames > 1 ? 0.5 * s->plot_w / (double)(t->frames - 1) : s->plot_w / 2;
    clip_to(cr, b);
    for (size_t j = 0; j < t->joints; j++)
        for (size_t f = 0; f < t->frames; f++) {
            double c = clampd(t->coverage[f * t->joints + j], 0, 1);
            cairo_set_source_rgb(cr, 1 - 0.88 * c, 1 - 0.7 * c, 1 - 0.4 * c);
            cairo_rectangle(cr, sheet_x(s, (double)f) - half, b.y + (double)j * rh, 2 * half + 0.5, rh + 0.2);
            cairo_fill(cr);
        }
    cairo_restore(cr);
    /* row names: all when they fit, else every k-th */
    size_t every = (size_t)ceil(12.0 / fmax(rh, 1e-3));
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    for (size_t j = 0; j < t->joints; j += every ? every : 1)
        sheet_text_fit(cr, s->legend_x, b.y + (double)j * rh + fmin(rh, 12) - 2, 9, s->legend_w, t->joint_names[j]);
}

double panel_height(const sheet *s, sheet_panel p)
{
    const timeline *t = s->t;
    switch (p) {
    case PANEL_SKELETON: return 520;
    case PANEL_MESH: return 520;
    case PANEL_STATES: return 34.0 * (double)state_bands(t) + 10;
    case PANEL_EVENTS: return 36.0 * (double)event_sources(t, NULL) + 10;
    case PANEL_ROOT: return 300;
    case PANEL_BLEND: return 300;
    case PANEL_COVERAGE: return fmin(fmax(6.0 * (double)t->joints, 60), 420);
    default: return 180;
    }
}

void panel_draw(const sheet *s, sheet_panel p, box b)
{
    switch (p) {
    case PANEL_SKELETON: draw_skeleton(s, b); break;
    case PANEL_MESH: draw_mesh(s, b); break;
    case PANEL_ROTATION: joint_plot(s, b, rotation_of, "joint rotation angle (local, from rest)", " deg"); break;
    case PANEL_TRANSLATION: joint_plot(s, b, translation_of, "joint translation (local distance from rest)", ""); break;
    case PANEL_WEIGHTS: draw_weights(s, b); break;
    case PANEL_STATES: draw_states(s, b); break;
    case PANEL_EVENTS: draw_events(s, b); break;
    case PANEL_ROOT: draw_root(s, b); break;
    case PANEL_BLEND: draw_blend(s, b); break;
    case PANEL_COVERAGE: draw_coverage(s, b); break;
    case PANEL_CONTROLS: draw_controls(s, b); break;
    case PANEL_CURVES: draw_curves(s, b); break;
    default: break;
    }
}
