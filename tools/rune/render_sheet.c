/* Drawing the render sheet with cairo: a title, two rows of skeleton
 * snapshots (front: X right, Y up; side: Z right, Y up) sharing one scale,
 * and two time plots with axes, ticks, labels and legends. */
#include "render_sheet.h"

#include <stdbool.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct box {
    double x, y, w, h;
} box;

static const double palette[8][3] = {{0.12, 0.47, 0.71}, {1.0, 0.5, 0.05},  {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16},
                                     {0.58, 0.4, 0.74},  {0.55, 0.34, 0.29}, {0.89, 0.47, 0.76}, {0.5, 0.5, 0.5}};

static void color(cairo_t *cr, size_t i)
{
    const double *c = palette[i % 8];
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

static void text(cairo_t *cr, double x, double y, double size, const char *s)
{
    cairo_set_font_size(cr, size);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, s);
}

/* Model-space extent of all joints over all frames along two axes. */
static void extent(const sheet_data *d, int ax, int ay, double *lo_x, double *hi_x, double *lo_y, double *hi_y)
{
    *lo_x = *lo_y = INFINITY;
    *hi_x = *hi_y = -INFINITY;
    for (size_t i = 0; i < d->frames * d->joints; i++) {
        const float *v = &d->pos[i].x;
        *lo_x = fmin(*lo_x, v[ax]);
        *hi_x = fmax(*hi_x, v[ax]);
        *lo_y = fmin(*lo_y, v[ay]);
        *hi_y = fmax(*hi_y, v[ay]);
    }
    if (!(*hi_x >= *lo_x)) /* no joints */
        *lo_x = *lo_y = -1, *hi_x = *hi_y = 1;
}

static void skeleton(cairo_t *cr, const sheet_data *d, size_t frame, box b, int ax, int ay, double scale, double cx,
                     double cy)
{
    const rune_vec3 *p = &d->pos[frame * d->joints];
#define PX(j) (b.x + b.w / 2 + ((&p[j].x)[ax] - cx) * scale)
#define PY(j) (b.y + b.h / 2 - ((&p[j].x)[ay] - cy) * scale)
    cairo_set_line_width(cr, 2.0);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.25);
    for (size_t j = 0; j < d->joints; j++) {
        int32_t pa = d->parent[j];
        if (pa < 0)
            continue;
        cairo_move_to(cr, PX((size_t)pa), PY((size_t)pa));
        cairo_line_to(cr, PX(j), PY(j));
        cairo_stroke(cr);
    }
    cairo_set_source_rgb(cr, 0.84, 0.15, 0.16);
    for (size_t j = 0; j < d->joints; j++) {
        cairo_arc(cr, PX(j), PY(j), 2.5, 0, 6.283185307179586);
        cairo_fill(cr);
    }
#undef PX
#undef PY
}

static void snapshot_row(cairo_t *cr, const sheet_data *d, box row, int snapshots, int ax, int ay, const char *label)
{
    double lx, hx, ly, hy;
    extent(d, ax, ay, &lx, &hx, &ly, &hy);
    int n = snapshots < 1 ? 1 : snapshots;
    double cell = row.w / n;
    double span = fmax(fmax(hx - lx, hy - ly), 1e-6);
    double scale = 0.85 * fmin(cell, row.h - 18) / span;
    cairo_set_source_rgb(cr, 0, 0, 0);
    text(cr, row.x, row.y + 12, 12, label);
    for (int i = 0; i < n; i++) {
        size_t f = d->frames > 1 ? (size_t)((double)i * (double)(d->frames - 1) / (n > 1 ? n - 1 : 1)) : 0;
        box b = {row.x + i * cell, row.y + 18, cell, row.h - 18};
        cairo_set_source_rgb(cr, 0.96, 0.96, 0.97);
        cairo_rectangle(cr, b.x + 2, b.y, b.w - 4, b.h - 2);
        cairo_fill(cr);
        if (d->frames == 0)
            continue;
        skeleton(cr, d, f, b, ax, ay, scale, (lx + hx) / 2, (ly + hy) / 2);
        char t[48];
        snprintf(t, sizeof t, "frame %zu  t=%.2fs", f + d->first_frame, (double)(f + d->first_frame + 1) * d->dt);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        text(cr, b.x + 6, b.y + b.h - 8, 10, t);
    }
}

typedef float (*series_fn)(const sheet_data *d, size_t frame, size_t i);

static float angle_at(const sheet_data *d, size_t f, size_t i) { return d->angle[f * d->joints + d->plot_joints[i]]; }
static float weight_at(const sheet_data *d, size_t f, size_t i) { return d->series[f * SHEET_MAX_SERIES + i]; }
static float coverage_at(const sheet_data *d, size_t f, size_t i)
{
    return d->coverage[f * d->joints + d->plot_joints[i]];
}

/* Axes with ticks: y from lo to hi, x over the frames' times. */
static void axes(cairo_t *cr, const sheet_data *d, box b, double lo, double hi, const char *title, const char *unit)
{
    cairo_set_source_rgb(cr, 0, 0, 0);
    text(cr, b.x, b.y - 6, 12, title);
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, b.x, b.y, b.w, b.h);
    cairo_stroke(cr);
    double t_end = (double)d->frames * d->dt;
    for (int k = 0; k <= 4; k++) {
        double v = lo + (hi - lo) * k / 4.0, y = b.y + b.h - b.h * k / 4.0;
        char s[32];
        snprintf(s, sizeof s, "%.3g%s", v, k == 4 ? unit : "");
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, b.x, y);
        cairo_line_to(cr, b.x + b.w, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        text(cr, b.x - 44, y + 4, 10, s);
        double x = b.x + b.w * k / 4.0;
        snprintf(s, sizeof s, "%.2fs", t_end * k / 4.0);
        text(cr, x - 12, b.y + b.h + 14, 10, s);
    }
}

static void plot(cairo_t *cr, const sheet_data *d, box b, series_fn fn, size_t count, char (*names)[SHEET_NAME],
                 size_t name_stride_joint, double lo, double hi, const char *title, const char *unit, size_t color0,
                 const char *suffix)
{
    if (lo == hi)
        hi = lo + 1;
    axes(cr, d, b, lo, hi, title, unit);
    for (size_t i = 0; i < count; i++) {
        color(cr, color0 + i);
        cairo_set_line_width(cr, 1.5);
        for (size_t f = 0; f < d->frames; f++) {
            double x = b.x + (d->frames > 1 ? b.w * (double)f / (double)(d->frames - 1) : 0);
            double y = b.y + b.h - b.h * (fn(d, f, i) - lo) / (hi - lo);
            if (f == 0)
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
        }
        cairo_stroke(cr);
        char label[SHEET_NAME + 16];
        const char *name = name_stride_joint ? names[d->plot_joints[i]] : names[i];
        snprintf(label, sizeof label, "%s%s", name, suffix);
        text(cr, b.x + b.w + 10, b.y + 12 + 14.0 * (double)(color0 + i), 10, label);
    }
}

static void draw(cairo_t *cr, const sheet_data *d, int w, int h, int snapshots)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    char title[512];
    snprintf(title, sizeof title, "%s  -  %zu frames, dt %.4gs, %zu joints", d->title, d->frames, d->dt, d->joints);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text(cr, 16, 24, 15, title);
    double top = 36, plot_left = 70, legend = 200;
    double rows = (h - top) / 4.0;
    snapshot_row(cr, d, (box){16, top, w - 32, rows - 8}, snapshots, 0, 1, "front (X right, Y up)");
    snapshot_row(cr, d, (box){16, top + rows, w - 32, rows - 8}, snapshots, 2, 1, "side (Z right, Y up)");
    double amax = 1;
    for (size_t f = 0; f < d->frames; f++)
        for (size_t i = 0; i < d->plot_joint_count; i++)
            amax = fmax(amax, angle_at(d, f, i));
    box p1 = {plot_left, top + 2 * rows + 20, w - plot_left - legend, rows - 50};
    plot(cr, d, p1, angle_at, d->plot_joint_count, d->joint_names, 1, 0, ceil(amax), "joint rotation angle", " deg", 0,
         "");
    box p2 = {plot_left, top + 3 * rows + 20, w - plot_left - legend, rows - 50};
    double wmax = 1;
    for (size_t f = 0; f < d->frames; f++)
        for (size_t i = 0; i < d->series_count; i++)
            wmax = fmax(wmax, weight_at(d, f, i));
    plot(cr, d, p2, weight_at, d->series_count, (char (*)[SHEET_NAME])d->series_names, 0, 0, wmax,
         "weights (tracks, blend samples) and coverage", "", 0, "");
    plot(cr, d, p2, coverage_at, d->plot_joint_count, d->joint_names, 1, 0, wmax, "weights (tracks, blend samples) and coverage",
         "", d->series_count, " coverage");
}

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    FILE *f = closure;
    return fwrite(data, 1, length, f) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int sheet_render(const sheet_data *d, FILE *out, const char *name, bool svg, int w, int h, int snapshots, char *err,
                 size_t err_size)
{
    cairo_surface_t *s = svg ? cairo_svg_surface_create_for_stream(write_stream, out, w, h)
                             : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, err_size, "%s: cannot create the picture: %s", name,
                 cairo_status_to_string(cairo_surface_status(s)));
        cairo_surface_destroy(s);
        return 3;
    }
    cairo_t *cr = cairo_create(s);
    draw(cr, d, w, h, snapshots);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && !svg)
        st = cairo_surface_write_to_png_stream(s, write_stream, out);
    cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, err_size, "%s: cannot write the picture: %s", name, cairo_status_to_string(st));
        return 4;
    }
    return 0;
}
