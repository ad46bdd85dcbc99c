/* The picture `rune render` draws: skeleton snapshots in model space (front
 * and side views) and time plots of joint rotation angles, track and
 * blend-sample weights, and coverage. */
#ifndef RUNE_TOOL_RENDER_SHEET_H
#define RUNE_TOOL_RENDER_SHEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "rune/math.h"

#define SHEET_MAX_SERIES 16
#define SHEET_NAME 96

typedef struct sheet_data {
    const char *title;
    double dt;
    size_t frames, joints;
    size_t first_frame;        /* scenario frame of data frame 0 (--frames A:) */
    const int32_t *parent;     /* per joint */
    char (*joint_names)[SHEET_NAME];
    rune_vec3 *pos;            /* frames x joints, model space */
    float *angle;              /* frames x joints, local rotation angle (deg) */
    float *coverage;           /* frames x joints */
    size_t series_count;       /* weight series (tracks, blend samples) */
    char series_names[SHEET_MAX_SERIES][SHEET_NAME];
    float *series;             /* frames x SHEET_MAX_SERIES */
    const size_t *plot_joints; /* joints whose angle and coverage are plotted */
    size_t plot_joint_count;
} sheet_data;

/** Draws the sheet as PNG or SVG into `out` (`name` for messages);
 * returns 0, or an exit status (3 internal, 4 I/O) with a message. */
int sheet_render(const sheet_data *d, FILE *out, const char *name, bool svg, int width, int height, int snapshots,
                 char *err, size_t err_size);

#endif
