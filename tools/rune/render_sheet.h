/* The picture `rune render` draws from a timeline (timeline.h): a column
 * of panels on one time axis -- skeleton snapshots, joint rotation and
 * translation, weights, graph states, signals, root-motion path, blend
 * spaces, a coverage heat map, the solver controls' errors -- chosen with
 * --panels. render_sheet.c lays
 * out the page, render_panels.c draws each panel, render_draw.c holds the
 * drawing helpers both use. */
#ifndef RUNE_TOOL_RENDER_SHEET_H
#define RUNE_TOOL_RENDER_SHEET_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "timeline.h"

typedef enum sheet_panel {
    PANEL_SKELETON,
    PANEL_ROTATION,
    PANEL_TRANSLATION,
    PANEL_WEIGHTS,
    PANEL_STATES,
    PANEL_EVENTS,
    PANEL_ROOT,
    PANEL_BLEND,
    PANEL_COVERAGE,
    PANEL_CONTROLS,
    PANEL_CURVES,
    PANEL_MESH,
    PANEL_COUNT
} sheet_panel;

/** "skeleton", "rotation", ...; -1 when unknown. */
int sheet_panel_from_name(const char *name);
const char *sheet_panel_name(sheet_panel p);
/** Whether a panel has something to show for this timeline (the default
 * set is every panel that has). */
bool sheet_panel_useful(const timeline *t, sheet_panel p);

typedef struct sheet_opts {
    bool panels[PANEL_COUNT];
    int width, height; /* height 0: as tall as the panels need */
    int snapshots;
    size_t plot_joints[8], plot_joint_count; /* --joints, or chosen */
} sheet_opts;

/** Draws the sheet as PNG or SVG into `out` (`name` for messages);
 * returns 0, or an exit status (3 internal, 4 I/O) with a message. */
int sheet_render(const timeline *t, const sheet_opts *o, FILE *out, const char *name, bool svg, char *err,
                 size_t err_size);

/* ---- shared by the page and the panels (render_draw.c) ----------------- */

typedef struct box {
    double x, y, w, h;
} box;

/** The drawing state of one sheet: the time axis every panel shares. */
typedef struct sheet {
    cairo_t *cr;
    const timeline *t;
    const sheet_opts *o;
    double plot_x, plot_w, legend_x, legend_w; /* the time axis and the legend column */
} sheet;

void sheet_color(cairo_t *cr, size_t i);
void sheet_text(cairo_t *cr, double x, double y, double size, const char *s);
/** Text cut with "..." to at most `width` pixels. */
void sheet_text_fit(cairo_t *cr, double x, double y, double size, double width, const char *s);
/** x of data frame f on the shared time axis. */
double sheet_x(const sheet *s, double f);
/** A panel's frame: its title, a box on the time axis, the time ticks
 * (seconds and frame numbers) under it; `lo`..`hi` labels its y axis
 * (none when lo == hi). */
void sheet_axes(const sheet *s, box b, const char *title, double lo, double hi, const char *unit);
/** One legend entry of a panel, in its colour. */
void sheet_legend(const sheet *s, box b, size_t row, size_t color, const char *label);

/* ---- the panels (render_panels.c): each draws into its box ------------- */

double panel_height(const sheet *s, sheet_panel p);
void panel_draw(const sheet *s, sheet_panel p, box b);

#endif
