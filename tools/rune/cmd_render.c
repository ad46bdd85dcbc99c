/* `rune render FILE -o OUT.png|OUT.svg`: evaluate a scenario (or an asset)
 * and draw its panels (render_sheet.h) on one time axis. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "commands.h"
#include "render_sheet.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: rune render FILE|- -o OUT.png|OUT.svg [--panels LIST] [--snapshots N] [--frames A:B]\n"
    "                   [--joints P/J,...] [--size WxH] [--clip NAME] [--force] [--strict] [--quiet]\n"
    "  Evaluates a scenario (or a .rune or an asset rune import reads: its first clip, or\n"
    "  --clip) and draws panels on one time axis (seconds and frame numbers):\n"
    "    skeleton     front and side snapshots in model space\n"
    "    rotation     local rotation angle of the joints that move most (or --joints)\n"
    "    translation  local translation distance of the joints that move most (or --joints)\n"
    "    weights      each play's weight (fades included) and each blend sample's\n"
    "    states       per graph layer: the state as a band, fades as ramps, interruptions\n"
    "    events       markers, loops and stops as ticks with names\n"
    "    root         the root-motion path from above, with headings\n"
    "    blend        blend spaces: samples, the parameter path, mean weights\n"
    "    coverage     joints x frames heat map\n"
    "    mesh         the skinned meshes' silhouettes, front and side, at the snapshots' frames\n"
    "  -o OUT          PNG or SVG by the extension; written whole or not at all\n"
    "  --panels LIST   comma-separated panels (default: those with something to show)\n"
    "  --snapshots N   skeleton snapshots per row (1..64, default 6; never more than frames)\n"
    "  --frames A:B    draw frames A to B-1 (A: to the end)\n"
    "  --joints L      plot these joints in rotation and translation\n"
    "  --clip NAME     of an asset, play the clip NAME (default: the first)\n"
    "  --size WxH      picture size (default 1600 wide, as tall as the panels need)\n"
    "  --force         overwrite OUT if it exists\n"
    "  --strict        unknown JSON keys are errors; --quiet: no warnings\n";

static int parse_panels(const char *list, bool *panels)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        return EXIT_INTERNAL;
    memset(panels, 0, PANEL_COUNT * sizeof *panels);
    int rc = EXIT_OK;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        int p = sheet_panel_from_name(tok);
        if (p < 0) {
            cli_error("rune render: --panels: unknown panel \"%s\" (see rune render --help)", tok);
            rc = EXIT_INPUT;
        } else {
            panels[p] = true;
        }
    }
    free(copy);
    return rc;
}

/* --joints: the named joints, looked up in the rig's names. */
static int find_joints(const timeline *t, const char *names, sheet_opts *o, char *msg, size_t msg_size)
{
    char *list = strdup(names), *save = NULL;
    if (!list)
        return EXIT_INTERNAL;
    int rc = EXIT_OK;
    for (char *tok = strtok_r(list, ",", &save); tok && !rc && o->plot_joint_count < 8;
         tok = strtok_r(NULL, ",", &save)) {
        size_t j = 0;
        while (j < t->joints && strcmp(t->joint_names[j], tok) != 0)
            j++;
        if (j == t->joints) {
            snprintf(msg, msg_size, "%s: --joints: no joint \"%s\" in the rig", t->title, tok);
            rc = EXIT_INPUT;
        } else {
            o->plot_joints[o->plot_joint_count++] = j;
        }
    }
    free(list);
    return rc;
}

int cmd_render(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    const char *file, *out = NULL, *joints = NULL, *panels = NULL, *frames = NULL, *snapshots = NULL, *size = NULL,
               *clip = NULL;
    sheet_opts opts = {{false}, 1600, 0, 6, {0}, 0};
    long first = 0, last = RUNE_SCENARIO_MAX_FRAMES + 1L;
    bool force = false, strict = false;
    const cli_option options[] = {{"-o", NULL, &out},           {"--snapshots", NULL, &snapshots},
                                  {"--panels", NULL, &panels},  {"--frames", NULL, &frames},
                                  {"--joints", NULL, &joints},  {"--size", NULL, &size},
                                  {"--force", &force, NULL},    {"--strict", &strict, NULL},
                                  {"--clip", NULL, &clip},      {NULL, NULL, NULL}};
    if (cli_parse_args("render", "FILE", true, argc, argv, options, &file) ||
        (frames && cli_parse_frames(frames, &first, &last)))
        return EXIT_INPUT;
    char *end = NULL;
    long shots = snapshots ? strtol(snapshots, &end, 10) : opts.snapshots;
    if (!out || (end && *end) || shots < 1 || shots > 64) {
        cli_error("rune render: %s (see rune render --help)", !out ? "missing -o OUT" : "--snapshots takes 1..64");
        return EXIT_INPUT;
    }
    opts.snapshots = (int)shots;
    if (size && (sscanf(size, "%dx%d", &opts.width, &opts.height) != 2 || opts.width < 400 || opts.height < 200 ||
                 opts.width > 16384 || opts.height > 16384)) {
        cli_error("rune render: --size %s: expected WxH, W 400..16384, H 200..16384", size);
        return EXIT_INPUT;
    }
    bool svg = cli_has_suffix(out, ".svg");
    if (!svg && !cli_has_suffix(out, ".png")) {
        cli_error("rune render: -o %s: unknown picture format (use .png or .svg)", out);
        return EXIT_INPUT;
    }
    int rc = panels ? parse_panels(panels, opts.panels) : EXIT_OK;
    if (rc)
        return rc;
    char msg[512] = "";
    tool_input in = {file, out, strict, force, (size_t)first, (size_t)last, clip};
    rune_scenario *s;
    cli_output o;
    timeline t;
    if ((rc = timeline_begin(&in, "rune render: evaluating frame", &s, &o, &t, msg, sizeof msg))) {
        cli_error("%s", msg);
        return rc;
    }
    if (joints)
        rc = find_joints(&t, joints, &opts, msg, sizeof msg);
    for (int p = 0; !panels && p < PANEL_COUNT; p++)
        opts.panels[p] = sheet_panel_useful(&t, (sheet_panel)p);
    cli_progress("rune render: drawing", 0, 0);
    if (!rc)
        rc = sheet_render(&t, &opts, o.f, out, svg, msg, sizeof msg);
    cli_progress_done();
    if (!rc)
        rc = cli_output_commit(&o, msg, sizeof msg);
    else
        cli_output_abort(&o);
    if (rc)
        cli_error("%s", msg);
    timeline_free(&t);
    rune_scenario_destroy(s);
    return rc;
}
