/* The render sheet's page: a title, then the chosen panels stacked on one
 * time axis (the same x for a frame in every panel, labelled in seconds
 * and frame numbers), a legend column to the right that is measured, not
 * guessed. PNG or SVG through cairo. */
#include "render_sheet.h"

#include <cairo-svg.h>
#include <math.h>
#include <string.h>

static const char *const panel_names[PANEL_COUNT] = {"skeleton", "rotation", "translation", "weights",  "states",
                                                     "events",   "root",     "blend",       "coverage", "controls",
                                                     "curves",   "mesh"};

int sheet_panel_from_name(const char *name)
{
    for (int i = 0; i < PANEL_COUNT; i++)
        if (strcmp(panel_names[i], name) == 0)
            return i;
    return -1;
}

const char *sheet_panel_name(sheet_panel p) { return panel_names[p]; }

bool sheet_panel_useful(const timeline *t, sheet_panel p)
{
    switch (p) {
    case PANEL_STATES:
        return t->layer_count > 0 || t->inertialized;
    case PANEL_EVENTS:
        return t->event_count > 0;
    case PANEL_BLEND:
        return t->blend_count > 0;
    case PANEL_CONTROLS:
        return t->control_count > 0;
    case PANEL_CURVES:
        return t->curve_count > 0;
    case PANEL_MESH:
        return t->mesh_count > 0 && t->frames > 0;
    case PANEL_WEIGHTS:
        return t->series_count > 1 || t->layer_count > 0; /* one clip at 1 says nothing */
    case PANEL_ROOT:
        for (size_t f = 0; f < t->frames; f++)
            if (t->root[3 * f] != 0 || t->root[3 * f + 1] != 0 || t->root[3 * f + 2] != 0)
                return true;
        return false;
    default:
        return true;
    }
}

static double page_height(const sheet *s)
{
    double h = 44;
    for (int p = 0; p < PANEL_COUNT; p++)
        if (s->o->panels[p])
            h += panel_height(s, (sheet_panel)p) + 34;
    return h;
}

static void draw(sheet *s, double w, double h)
{
    cairo_t *cr = s->cr;
    const timeline *t = s->t;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    char title[512];
    if (t->frames)
        snprintf(title, sizeof title, "%s  -  frames %zu-%zu (%.3g-%.3gs, dt %.4gs), %zu joint%s", t->title,
                 t->first_frame, t->first_frame + t->frames - 1, (double)(t->first_frame + 1) * t->dt,
                 (double)(t->first_frame + t->frames) * t->dt, t->dt, t->joints, t->joints == 1 ? "" : "s");
    else
        snprintf(title, sizeof title, "%s  -  no frames, %zu joint%s", t->title, t->joints, t->joints == 1 ? "" : "s");
    cairo_set_source_rgb(cr, 0, 0, 0);
    sheet_text_fit(cr, 16, 26, 16, w - 32, title);
    /* panels share this scale of the page height when --size fixes it */
    double natural = page_height(s), k = h > 0 && natural > h ? (h - 44) / (natural - 44) : 1.0;
    double y = 44 + 22;
    for (int p = 0; p < PANEL_COUNT; p++) {
        if (!s->o->panels[p])
            continue;
        double ph = panel_height(s, (sheet_panel)p) * k;
        panel_draw(s, (sheet_panel)p, (box){s->plot_x, y, s->plot_w, ph});
        y += ph + 34 * k;
    }
}

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    FILE *f = closure;
    return fwrite(data, 1, length, f) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int sheet_render(const timeline *t, const sheet_opts *o, FILE *out, const char *name, bool svg, char *err,
                 size_t err_size)
{
    sheet s = {NULL, t, o, 0, 0, 0, 0};
    double w = o->width;
    s.legend_w = 230;
    s.plot_x = 72;
    s.plot_w = w - s.plot_x - s.legend_w - 24;
    s.legend_x = s.plot_x + s.plot_w + 14;
    double h = o->height > 0 ? o->height : page_height(&s);
    if (h > 16384)
        h = 16384;
    cairo_surface_t *surf = svg ? cairo_svg_surface_create_for_stream(write_stream, out, w, h)
                                : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
    if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, err_size, "%s: cannot create the picture: %s", name,
                 cairo_status_to_string(cairo_surface_status(surf)));
        cairo_surface_destroy(surf);
        return 3;
    }
    s.cr = cairo_create(surf);
    draw(&s, w, o->height > 0 ? h : 0);
    cairo_status_t st = cairo_status(s.cr);
    cairo_destroy(s.cr);
    if (st == CAIRO_STATUS_SUCCESS && !svg)
        st = cairo_surface_write_to_png_stream(surf, write_stream, out);
    cairo_surface_finish(surf);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(surf);
    cairo_surface_destroy(surf);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, err_size, "%s: cannot write the picture: %s", name, cairo_status_to_string(st));
        return 4;
    }
    return 0;
}
