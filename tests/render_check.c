/* Render test: runs `rune render` to PNG and SVG and checks the pictures:
 * the PNG has the requested size and a drawing on it (a few percent of its
 * pixels are not background), the SVG is an SVG document. */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *msg, const char *arg)
{
    fprintf(stderr, "render_check: %s%s\n", msg, arg ? arg : "");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return fail("usage: render_check RUNE SCENARIO OUTDIR", NULL);
    char png[1024], svg[1024], cmd[4096];
    snprintf(png, sizeof png, "%s/render.png", argv[3]);
    snprintf(svg, sizeof svg, "%s/render.svg", argv[3]);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && '%s' render '%s' -o '%s' --size 900x700 --snapshots 4 --force && '%s' render '%s' -o '%s' --force",
             argv[3], argv[1], argv[2], png, argv[1], argv[2], svg);
    if (system(cmd) != 0)
        return fail("rune render failed: ", cmd);
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
        return fail("not a PNG: ", png);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    if (w != 900 || h != 700)
        return fail("wrong size (expected 900x700): ", png);
    cairo_surface_flush(s);
    const unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    long drawn = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const unsigned char *p = data + y * stride + 4 * x;
            drawn += !(p[0] > 250 && p[1] > 250 && p[2] > 250);
        }
    cairo_surface_destroy(s);
    if (drawn < (long)w * h / 50)
        return fail("the picture is (nearly) empty: ", png);
    FILE *f = fopen(svg, "r");
    char head[512] = "";
    size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
    head[n] = '\0';
    if (f)
        fclose(f);
    if (!strstr(head, "<?xml") || !strstr(head, "<svg"))
        return fail("not an SVG document: ", svg);
    printf("render_check: %dx%d PNG with %ld drawn pixels; SVG ok\n", w, h, drawn);
    return 0;
}
