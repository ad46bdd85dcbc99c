/* Browser test of `rune inspect`: opens the page in headless chromium at
 * a frame (OUT.html#frame=N), reads back the joint positions the page
 * drew (its #probe, filled by the same code that draws), and checks them
 * against `rune eval --model` at that frame; then takes a screenshot and
 * checks it is not blank. Exit 77 (CTest: skipped, not passed) when no
 * chromium is installed (setup.sh --dev installs it).
 * With "mesh", the meshes must be drawn with WebGL2, and a second
 * screenshot with them hidden must show less drawn (the skinned mesh
 * covers more than the stick figure), as must one drawn by the page's
 * 2D path (&gl=0, for browsers without WebGL2).
 *   inspect_check RUNE CHROMIUM SCENARIO OUTDIR FRAME [mesh] */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "inspect_check: %s%s\n", what, detail ? detail : "");
    return 1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n)
        buf[n] = '\0';
    else
        free(buf), buf = NULL;
    fclose(f);
    return buf;
}

static int run(const char *cmd)
{
    int rc = system(cmd);
    return rc == 0 ? 0 : fail("command failed: ", cmd);
}

/* The share of pixels where a channel of two screenshots of one size
 * differs by more than `tolerance` levels (-1: not both readable, or of
 * different sizes). */
static double differing_share(const char *a_png, const char *b_png, int tolerance)
{
    cairo_surface_t *a = cairo_image_surface_create_from_png(a_png), *b = cairo_image_surface_create_from_png(b_png);
    double share = -1;
    if (cairo_surface_status(a) == CAIRO_STATUS_SUCCESS && cairo_surface_status(b) == CAIRO_STATUS_SUCCESS &&
        cairo_image_surface_get_width(a) == cairo_image_surface_get_width(b) &&
        cairo_image_surface_get_height(a) == cairo_image_surface_get_height(b)) {
        int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
        int sa = cairo_image_surface_get_stride(a), sb = cairo_image_surface_get_stride(b);
        const unsigned char *da = cairo_image_surface_get_data(a), *db = cairo_image_surface_get_data(b);
        size_t differ = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const unsigned char *pa = da + (size_t)y * (size_t)sa + 4 * (size_t)x;
                const unsigned char *pb = db + (size_t)y * (size_t)sb + 4 * (size_t)x;
                bool apart = false;
                for (int c = 0; c < 4; c++)
                    apart |= abs((int)pa[c] - (int)pb[c]) > tolerance;
                differ += apart;
            }
        share = (double)differ / ((double)w * h);
    }
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    return share;
}

/* The share of pixels unlike the top-left one: a page that drew nothing is
 * one colour. */
static double drawn_share(const char *png)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return -1;
    }
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    const unsigned char *d = cairo_image_surface_get_data(s);
    uint32_t bg;
    memcpy(&bg, d, 4);
    size_t other = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t p;
            memcpy(&p, d + (size_t)y * (size_t)stride + 4 * (size_t)x, 4);
            other += p != bg;
        }
    cairo_surface_destroy(s);
    return (double)other / ((double)w * h);
}

#define BROWSER "--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="

/* A 1600 x 1000 screenshot of the page at a frame into `png`; `options`
 * follow the frame in the page's address ("" or "&mesh=0" ...). */
static int screenshot(const char *chromium, const char *dir, const char *page, long frame, const char *options,
                      const char *png)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' " BROWSER "'%s/profile' --window-size=1600,1000 --screenshot='%s' "
             "'file://%s#frame=%ld%s' >/dev/null 2>&1", chromium, dir, png, page, frame, options);
    return run(cmd);
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7)
        return fail("usage: inspect_check RUNE CHROMIUM SCENARIO OUTDIR FRAME [mesh]", NULL);
    const char *rune = argv[1], *chromium = argv[2], *scn = argv[3], *dir = argv[4];
    long frame = atol(argv[5]);
    if (!chromium[0] || access(chromium, X_OK) != 0) {
        printf("inspect_check: no chromium (setup.sh --dev installs it): skipped\n");
        return 77;
    }
    char cmd[8192], page[2048], eval[2048], dom[2048], shot[2048];
    snprintf(page, sizeof page, "%s/page.html", dir);
    snprintf(eval, sizeof eval, "%s/eval.json", dir);
    snprintf(dom, sizeof dom, "%s/dom.html", dir);
    snprintf(shot, sizeof shot, "%s/shot.png", dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && '%s' inspect '%s' -o '%s' --force --quiet", dir, rune, scn, page);
    if (run(cmd))
        return 1;
    snprintf(cmd, sizeof cmd, "'%s' eval '%s' --frames %ld:%ld --model --quiet > '%s'", rune, scn, frame, frame + 1, eval);
    if (run(cmd))
        return 1;
    snprintf(cmd, sizeof cmd, "'%s' " BROWSER "'%s/profile' --dump-dom 'file://%s#frame=%ld' > '%s' 2>/dev/null",
             chromium, dir, page, frame, dom);
    if (run(cmd))
        return 1;
    /* the probe: what the page drew at the frame */
    char *html = slurp(dom);
    const char *open = html ? strstr(html, "<pre id=\"probe\">") : NULL;
    const char *close = open ? strstr(open, "</pre>") : NULL;
    if (!open || !close)
        return fail("the page has no probe (did its script run?): ", dom);
    open += strlen("<pre id=\"probe\">");
    json_error_t jerr;
    json_t *probe = json_loadb(open, (size_t)(close - open), 0, &jerr);
    char *out = slurp(eval);
    json_t *ev = out ? json_loads(out, 0, &jerr) : NULL;
    if (!probe || !ev)
        return fail("cannot read the probe or rune eval's output", NULL);
    if (json_integer_value(json_object_get(probe, "frame")) != frame)
        return fail("the page did not scrub to the frame asked for", NULL);
    json_t *pose = json_object_get(json_array_get(json_object_get(ev, "frames"), 0), "pose");
    json_t *names = json_object_get(probe, "names"), *model = json_object_get(probe, "model");
    size_t n = json_array_size(names), failures = 0;
    if (n == 0 || n != json_object_size(pose))
        return fail("the page and rune eval disagree on the joints", NULL);
    double worst = 0;
    for (size_t j = 0; j < n; j++) {
        json_t *m = json_object_get(json_object_get(pose, json_string_value(json_array_get(names, j))), "m");
        for (size_t k = 0; k < 3; k++) {
            double want = json_number_value(json_array_get(m, k));
            double got = json_number_value(json_array_get(json_array_get(model, j), k));
            double err = fabs(got - want) / (1 + fabs(want));
            worst = fmax(worst, err);
            if (!m || !(err <= 1e-5)) {
                failures++;
                fprintf(stderr, "inspect_check: joint %s axis %zu: page %.9g, rune eval %.9g\n",
                        json_string_value(json_array_get(names, j)), k, got, want);
            }
        }
    }
    printf("inspect_check: %zu joints at frame %ld, page vs rune eval within %.3g\n", n, frame, worst);
    /* a screenshot that shows something */
    if (screenshot(chromium, dir, page, frame, "", shot))
        return 1;
    double share = drawn_share(shot);
    printf("inspect_check: screenshot %s: %.1f%% of pixels drawn\n", shot, 100 * share);
    if (share < 0.02)
        return fail("the screenshot is blank: ", shot);
    if (argc > 6 && strcmp(argv[6], "mesh") == 0) { /* the skinned mesh covers more than the stick figure */
        const char *renderer = json_string_value(json_object_get(probe, "renderer"));
        printf("inspect_check: the meshes drawn by %s\n", renderer ? renderer : "(none)");
        if (!renderer || strcmp(renderer, "webgl2") != 0) /* Chromium's software WebGL runs headless */
            return fail("the meshes were not drawn with WebGL2", NULL);
        char bare[1100];
        snprintf(bare, sizeof bare, "%s/bare.png", dir);
        if (screenshot(chromium, dir, page, frame, "&mesh=0", bare))
            return 1;
        double added = differing_share(shot, bare, 0);
        printf("inspect_check: the mesh changes %.2f%% of the page's pixels\n", 100 * added);
        if (!(added > 0.01))
            return fail("the mesh adds nothing to the view: ", shot);
        /* the 2D path (no WebGL2) draws them too */
        char flat[1100];
        snprintf(flat, sizeof flat, "%s/flat.png", dir);
        if (screenshot(chromium, dir, page, frame, "&gl=0", flat))
            return 1;
        double painted = differing_share(flat, bare, 0), apart = differing_share(shot, flat, 24);
        printf("inspect_check: without WebGL2 the mesh changes %.2f%% of the page's pixels; the two paths differ "
               "on %.2f%%\n", 100 * painted, 100 * apart);
        if (!(painted > 0.01))
            return fail("the 2D path draws no mesh: ", flat);
        /* one mesh by two paths (skinned on the GPU, or in the page and
         * painted): the same pixels but for edges */
        if (!(apart < 0.25 * added))
            return fail("the GPU-skinned and the 2D-painted mesh differ: ", flat);
    }
    json_decref(probe);
    json_decref(ev);
    free(html);
    free(out);
    return failures ? 1 : 0;
}
