/* `rune inspect FILE -o page.html`: one self-contained page to scrub a
 * scenario (or an asset's first clip): a 3D skeleton view, a scrub bar and
 * play/pause at the scenario's dt, and timeline panels linked to it. The
 * page is tools/rune/inspect_page.html, embedded at build time; this file
 * writes the evaluated frames into it as JSON. */
#include "commands.h"
#include "cli.h"
#include "json_out.h"
#include "timeline.h"

#include <stdio.h>
#include <string.h>

#include "inspect_page.h" /* generated: static const char inspect_page[] */

static const char usage[] =
    "usage: rune inspect FILE|- -o OUT.html [--frames A:B] [--clip NAME] [--force] [--strict] [--quiet]\n"
    "  Writes one self-contained HTML page (no network) to explore a scenario, a .rune asset\n"
    "  or an asset rune import reads (its first clip, or --clip): a 3D view of the skeleton and\n"
    "  its skinned meshes (drag to orbit, wheel to zoom), a scrub bar and play/pause at the\n"
    "  scenario's dt, and panels of weights, graph states, signals, joint rotation and coverage\n"
    "  linked to the scrub position (hover for values, click to seek). OUT.html#frame=N opens at\n"
    "  frame N (&mesh=0: meshes hidden).\n"
    "  --frames A:B   keep frames A to B-1 (A: to the end)\n"
    "  --clip NAME    of an asset, play the clip NAME (default: the first)\n"
    "  --force        overwrite OUT if it exists\n"
    "  --strict       unknown JSON keys are errors; --quiet: no warnings\n";

/* Numbers for the page: %.7g (floats to 1e-7 relative, a fraction of a
 * pixel), NaN never (the timeline holds only finite values). */
static void num(FILE *f, double v) { fprintf(f, "%.7g", v); }

/* A JSON string that cannot close the <script> it lives in. */
static void str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void floats(FILE *f, const float *v, size_t n, size_t stride)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        num(f, v[i * stride]);
    }
    fputc(']', f);
}

static void uints(FILE *f, const void *v, size_t n, int bytes)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%u", i ? "," : "",
                bytes == 2 ? (unsigned)((const uint16_t *)v)[i] : (unsigned)((const uint32_t *)v)[i]);
    fputc(']', f);
}

/* The skinned meshes (bind pose, triangles, influences, binds) and, with
 * them, every frame's model matrices: the page skins the mesh itself. */
static void write_meshes(FILE *f, const timeline *t)
{
    const rune_mesh *meshes = t->meshes;
    size_t count = t->mesh_count;
    fputs(",\n\"meshes\":[", f);
    for (size_t i = 0; i < count; i++) {
        const rune_mesh *m = &meshes[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        str(f, m->name ? m->name : "");
        fputs(",\"positions\":", f);
        floats(f, m->positions, 3 * m->vertex_count, 1);
        fputs(",\"indices\":", f);
        uints(f, m->indices, 3 * m->triangle_count, 4);
        fprintf(f, ",\"influences\":%u,\"joints\":", (unsigned)m->influences);
        uints(f, m->joints, m->influences * m->vertex_count, 2);
        fputs(",\"weights\":", f);
        floats(f, m->weights, m->influences * m->vertex_count, 1);
        fputs(",\"bind_joints\":[", f);
        for (size_t b = 0; b < m->bind_count; b++)
            fprintf(f, "%s%d", b ? "," : "", (int)m->bind_joints[b]);
        fputs("],\"inverse_binds\":", f);
        floats(f, m->inverse_binds[0].m, 16 * m->bind_count, 1);
        fputc('}', f);
    }
    fputs("],\n\"model\":", f);
    floats(f, count ? t->model : NULL, count ? 12 * t->frames * t->joints : 0, 1);
}

static void write_data(FILE *f, const timeline *t)
{
    size_t J = t->joints, F = t->frames, cells = F * J;
    fputs("{\"title\":", f);
    str(f, t->title);
    fprintf(f, ",\"dt\":%.9g,\"first_frame\":%zu,\"frames\":%zu,\"joints\":[", t->dt, t->first_frame, F);
    for (size_t j = 0; j < J; j++) {
        const rune_xform *x = &t->rest[j];
        float tv[3] = {x->t.x, x->t.y, x->t.z}, rv[4] = {x->r.x, x->r.y, x->r.z, x->r.w};
        float sv[3] = {t->rest_s[j].x, t->rest_s[j].y, t->rest_s[j].z};
        fputs(j ? ",{\"name\":" : "{\"name\":", f);
        str(f, t->joint_names[j]);
        fprintf(f, ",\"parent\":%d,\"t\":", (int)t->parent[j]);
        floats(f, tv, 3, 1), fputs(",\"r\":", f), floats(f, rv, 4, 1), fputs(",\"s\":", f), floats(f, sv, 3, 1);
        fputc('}', f);
    }
    fputs("],\n\"t\":", f);
    floats(f, &t->local_t[0].x, 3 * cells, 1);
    fputs(",\n\"r\":", f);
    floats(f, &t->local_r[0].x, 4 * cells, 1);
    fputs(",\n\"s\":", f);
    floats(f, &t->local_s[0].x, 3 * cells, 1);
    fputs(",\n\"angle\":", f);
    floats(f, t->angle, cells, 1);
    fputs(",\n\"coverage\":", f);
    floats(f, t->coverage, cells, 1);
    fputs(",\n\"series\":[", f);
    for (size_t i = 0; i < t->series_count; i++) {
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        str(f, t->series_names[i]);
        fputs(",\"w\":", f);
        floats(f, t->series + i, F, TL_MAX_SERIES);
        fputc('}', f);
    }
    fputs("],\n\"layers\":[", f);
    for (size_t i = 0; i < t->layer_count; i++) {
        const tl_layer *l = &t->layers[i];
        fputs(i ? ",{\"label\":" : "{\"label\":", f);
        str(f, l->label);
        fputs(",\"names\":[", f);
        for (size_t k = 0; k < l->state_count; k++) {
            fputs(k ? "," : "", f);
            str(f, l->state_names[k]);
        }
        fputs("],\"state\":[", f);
        for (size_t fr = 0; fr < F; fr++)
            fprintf(f, "%s%d", fr ? "," : "", l->state[fr]);
        fputs("],\"from\":[", f);
        for (size_t fr = 0; fr < F; fr++)
            fprintf(f, "%s%d", fr ? "," : "", l->from[fr]);
        fputs("],\"interrupted\":[", f);
        for (size_t fr = 0; fr < F; fr++)
            fprintf(f, "%s%d", fr ? "," : "", l->interrupted[fr] ? 1 : 0);
        fputs("],\"alpha\":", f);
        floats(f, l->alpha, F, 1);
        fputs(",\"weight\":", f);
        floats(f, l->weight, F, 1);
        fputc('}', f);
    }
    fputs("],\n\"inertia\":", f);
    floats(f, t->inertia, F, 1);
    fputs(",\n\"root\":", f);
    floats(f, t->root, 3 * F, 1);
    fputs(",\n\"blends\":[", f);
    for (size_t i = 0; i < t->blend_count; i++) {
        const tl_blend *b = &t->blends[i];
        fputs(i ? ",{\"label\":" : "{\"label\":", f);
        str(f, b->label);
        fprintf(f, ",\"dims\":%d,\"params\":[", b->dims);
        str(f, b->param_names[0]);
        fputc(',', f);
        str(f, b->param_names[1]);
        fputs("],\"samples\":[", f);
        for (size_t k = 0; k < b->sample_count; k++) {
            fputs(k ? ",{\"name\":" : "{\"name\":", f);
            str(f, b->sample_names[k]);
            fprintf(f, ",\"x\":%.7g,\"y\":%.7g}", b->pos[k].x, b->pos[k].y);
        }
        fputs("],\"param\":", f);
        floats(f, b->param, 2 * F, 1);
        fputs(",\"weight\":[", f);
        for (size_t k = 0; k < b->sample_count; k++) {
            fputs(k ? "," : "", f);
            floats(f, b->weight + k, F, TL_MAX_SAMPLES);
        }
        fputs("],\"live\":[", f);
        for (size_t fr = 0; fr < F; fr++)
            fprintf(f, "%s%d", fr ? "," : "", b->live[fr] ? 1 : 0);
        fputs("]}", f);
    }
    fputs("],\n\"controls\":[", f);
    for (size_t i = 0; i < t->control_count; i++) {
        const tl_control *k = &t->controls[i];
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        str(f, k->name);
        fputs(",\"type\":", f);
        str(f, rune_control_mode_name(k->mode));
        fprintf(f, ",\"angle\":%d,\"has_pole\":%d,\"target\":", k->mode == RUNE_CONTROL_AIM || k->mode == RUNE_CONTROL_ROTATION,
                k->has_pole);
        floats(f, &k->target[0].x, 3 * F, 1);
        fputs(",\"effector\":", f);
        floats(f, &k->effector[0].x, 3 * F, 1);
        fputs(",\"pole\":", f);
        floats(f, &k->pole[0].x, 3 * F, 1);
        fputs(",\"error\":", f);
        floats(f, k->error, F, 1);
        fputs(",\"live\":[", f);
        for (size_t fr = 0; fr < F; fr++)
            fprintf(f, "%s%d", fr ? "," : "", k->live[fr] ? 1 : 0);
        fputs("]}", f);
    }
    fputs("],\n\"curves\":[", f);
    for (size_t k = 0; k < t->curve_count; k++) {
        fputs(k ? ",{\"name\":" : "{\"name\":", f);
        str(f, t->curve_names[k]);
        fputs(",\"v\":", f);
        floats(f, t->curve + k, F, t->curve_count);
        fputs(",\"c\":", f);
        floats(f, t->curve_cov + k, F, t->curve_count);
        fputs("}", f);
    }
    fputs("],\n\"source\":", f);
    if (!t->source_pos) {
        fputs("null", f);
    } else {
        fputs("{\"label\":", f);
        str(f, t->source_label);
        fputs(",\"parent\":[", f);
        for (size_t j = 0; j < t->source_joints; j++)
            fprintf(f, "%s%d", j ? "," : "", (int)t->source_parent[j]);
        fputs("],\"pos\":", f);
        floats(f, &t->source_pos[0].x, 3 * F * t->source_joints, 1);
        fputs(",\"live\":[", f);
        for (size_t fr = 0; fr < F; fr++)
            fprintf(f, "%s%d", fr ? "," : "", t->source_live[fr] ? 1 : 0);
        fputs("]}", f);
    }
    fputs(",\n\"events\":[", f);
    static const char *const kinds[] = {"marker", "loop", "stopped"};
    for (size_t i = 0; i < t->event_count; i++) {
        const tl_event *e = &t->events[i];
        fprintf(f, "%s{\"frame\":%zu,\"kind\":\"%s\",\"source\":", i ? "," : "", e->frame,
                e->kind < 3 ? kinds[e->kind] : "marker");
        str(f, e->source);
        fputs(",\"name\":", f);
        str(f, e->name);
        fputs(",\"value\":", f);
        str(f, e->value);
        fputc('}', f);
    }
    fputc(']', f);
    write_meshes(f, t);
    fputc('}', f);
}

int cmd_inspect(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    const char *file, *out = NULL, *frames = NULL, *clip = NULL;
    long first = 0, last = RUNE_SCENARIO_MAX_FRAMES + 1L;
    bool force = false, strict = false;
    const cli_option options[] = {{"-o", NULL, &out},         {"--frames", NULL, &frames},
                                  {"--force", &force, NULL},  {"--strict", &strict, NULL},
                                  {"--clip", NULL, &clip},    {NULL, NULL, NULL}};
    if (cli_parse_args("inspect", "FILE", true, argc, argv, options, &file) ||
        (frames && cli_parse_frames(frames, &first, &last)))
        return EXIT_INPUT;
    if (!out || !cli_has_suffix(out, ".html")) {
        cli_error("rune inspect: %s (see rune inspect --help)", !out ? "missing -o OUT.html" : "-o takes a .html file");
        return EXIT_INPUT;
    }
    char msg[512] = "";
    tool_input in = {file, out, strict, force, (size_t)first, (size_t)last, clip};
    rune_scenario *s;
    cli_output o;
    timeline t;
    int rc = timeline_begin(&in, "rune inspect: evaluating frame", &s, &o, &t, msg, sizeof msg);
    cli_progress_done();
    if (rc) {
        cli_error("%s", msg);
        return rc;
    }
    static const char mark[] = "/*RUNE_DATA*/";
    const char *at = strstr(inspect_page, mark);
    fwrite(inspect_page, 1, (size_t)(at - inspect_page), o.f);
    write_data(o.f, &t);
    fputs(at + strlen(mark), o.f);
    rc = cli_output_commit(&o, msg, sizeof msg);
    if (rc)
        cli_error("%s", msg);
    timeline_free(&t);
    rune_scenario_destroy(s);
    return rc;
}
