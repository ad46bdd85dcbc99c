/* The drawing helpers every panel of the render sheet shares: palette,
 * text, the shared time axis, a panel's frame and its legend entries.
 * Below both the page (render_sheet.c) and the panels (render_panels.c). */
#include "render_sheet.h"

#include <stdio.h>
#include <string.h>

static const double palette[10][3] = {{0.12, 0.47, 0.71}, {1.0, 0.5, 0.05},  {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16},
                                      {0.58, 0.4, 0.74},  {0.55, 0.34, 0.29}, {0.89, 0.47, 0.76}, {0.5, 0.5, 0.5},
                                      {0.74, 0.74, 0.13}, {0.09, 0.75, 0.81}};

void sheet_color(cairo_t *cr, size_t i)
{
    const double *c = palette[i % 10];
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

void sheet_text(cairo_t *cr, double x, double y, double size, const char *s)
{
    cairo_set_font_size(cr, size);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, s);
}

void sheet_text_fit(cairo_t *cr, double x, double y, double size, double width, const char *s)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    cairo_set_font_size(cr, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, buf, &e);
    size_t n = strlen(buf);
    while (e.x_advance > width && n > 3) { /* drop characters until it fits, then mark the cut */
        n--;
        memcpy(buf + n - 3, "...", 4);
        cairo_text_extents(cr, buf, &e);
    }
    sheet_text(cr, x, y, size, buf);
}

double sheet_x(const sheet *s, double f)
{
    size_t n = s->t->frames;
    return s->plot_x + (n > 1 ? s->plot_w * f / (double)(n - 1) : s->plot_w / 2);
}

/* Time ticks on frames, every 1, 2, 5, 10 ... frames (at most about 8),
 * each labelled with its time and frame number. */
static void time_ticks(const sheet *s, box b)
{
    const timeline *t = s->t;
    cairo_t *cr = s->cr;
    static const size_t steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000,
                                   100000, 200000, 500000, 1000000};
    size_t step = 1;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (t->frames / (step = steps[i]) <= 8)
            break;
    for (size_t f = 0; f < t->frames; f += step) {
        double x = sheet_x(s, (double)f);
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_set_line_width(cr, 1.0);
        cairo_move_to(cr, x, b.y);
        cairo_line_to(cr, x, b.y + b.h);
        cairo_stroke(cr);
        char label[48];
        snprintf(label, sizeof label, "%.3gs  f%zu", (double)(t->first_frame + f + 1) * t->dt, t->first_frame + f);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        sheet_text(cr, x - 18, b.y + b.h + 13, 10, label);
    }
}

void sheet_axes(const sheet *s, box b, const char *title, double lo, double hi, const char *unit)
{
    cairo_t *cr = s->cr;
    cairo_set_source_rgb(cr, 0, 0, 0);
    sheet_text(cr, b.x, b.y - 6, 13, title);
    time_ticks(s, b);
    if (lo != hi)
        for (int k = 0; k <= 4; k++) {
            double v = lo + (hi - lo) * k / 4.0, y = b.y + b.h - b.h * k / 4.0;
            char label[32];
            snprintf(label, sizeof label, "%.3g%s", v, k == 4 ? unit : "");
            cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
            cairo_move_to(cr, b.x, y);
            cairo_line_to(cr, b.x + b.w, y);
            cairo_stroke(cr);
            cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
            sheet_text(cr, b.x - 52, y + 4, 10, label);
        }
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    cairo_set_line_width(cr, 1.0);
    cairo_rectangle(cr, b.x, b.y, b.w, b.h);
    cairo_stroke(cr);
}

void sheet_legend(const sheet *s, box b, size_t row, size_t color, const char *label)
{
    cairo_t *cr = s->cr;
    double y = b.y + 10 + 14.0 * (double)row;
    if (y > b.y + b.h + 10)
        return;
    sheet_color(cr, color);
    cairo_rectangle(cr, s->legend_x, y - 8, 10, 10);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    sheet_text_fit(cr, s->legend_x + 14, y + 1, 10.5, s->legend_w - 16, label);
}
