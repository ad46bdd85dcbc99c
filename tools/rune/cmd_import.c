/* `rune import ASSET -o DIR`: convert an asset (glTF, FBX, Collada, BVH,
 * ...) into DIR/NAME.rune (the rig and every animation as compiled clips)
 * or, with --json, DIR/NAME.json (a scenario that plays the first one).
 * The file is written whole or not at all (see cli.h). */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "commands.h"
#include "cli.h"
#include "rune/asset.h"
#include "rune/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: rune import ASSET -o DIR [--json] [--allow-empty] [--force] [--quiet]\n"
    "  Converts an asset (glTF, FBX, Collada, BVH, ...) into DIR/NAME.rune: its skeleton and\n"
    "  every animation as a compiled clip, loaded with rune_asset_load_file (docs/format.md).\n"
    "  --json         write DIR/NAME.json instead: a scenario (compact, a line per keyframe)\n"
    "                 with the rig, the clips and a timeline playing the first one\n"
    "  --allow-empty  succeed when the asset has no animation (otherwise exit 2)\n"
    "  --force        overwrite the output if it exists\n"
    "  --quiet        no warnings (what the asset has that rune cannot represent)\n";

/* The import compiled and written as a .rune asset. */
static rune_status write_asset(const rune_import *imp, FILE *f, rune_error *err)
{
    rune_rig *rig = NULL;
    rune_clip **clips = calloc(imp->clip_count ? imp->clip_count : 1, sizeof *clips);
    rune_status st = clips ? RUNE_OK : rune_fail(err, RUNE_E_NOMEM, "out of memory");
    if (!st && imp->joint_count)
        st = rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, err);
    for (size_t i = 0; !st && i < imp->clip_count; i++)
        if ((st = rune_clip_compile(&imp->clips[i], NULL, &clips[i], err)))
            rune_error_prefix(err, "%s: animation \"%s\": ", imp->source, imp->clips[i].id);
    if (!st) {
        rune_asset_desc d = {rig, (const rune_clip *const *)clips, imp->clip_count, imp->root_joint};
        st = rune_asset_write(&d, f, err);
    }
    for (size_t i = 0; clips && i < imp->clip_count; i++)
        rune_clip_destroy(clips[i]);
    free(clips);
    rune_rig_destroy(rig);
    return st;
}

static void stem_of(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, size, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

int cmd_import(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    const char *asset = NULL, *dir = NULL;
    bool force = false, json = false, allow_empty = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--force") == 0)
            force = true;
        else if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (strcmp(argv[i], "--allow-empty") == 0)
            allow_empty = true;
        else if (strcmp(argv[i], "--quiet") == 0)
            cli_quiet = true;
        else if (!asset && argv[i][0] != '-')
            asset = argv[i];
        else {
            cli_error("rune import: unexpected argument \"%s\" (see rune import --help)", argv[i]);
            return EXIT_INPUT;
        }
    }
    if (!asset || !dir) {
        cli_error("rune import: missing %s (see rune import --help)", !asset ? "ASSET" : "-o DIR");
        return EXIT_INPUT;
    }
    rune_error err = {0};
    rune_import *imp;
    cli_progress("rune import: reading the asset", 0, 0);
    rune_status st = rune_import_file(asset, NULL, &imp, &err);
    cli_progress_done();
    if (st) {
        cli_error("%s", err.message);
        return cli_exit_for(st);
    }
    for (size_t i = 0; i < imp->warning_count; i++)
        cli_warning("%s: %s", asset, imp->warnings[i]);
    if (imp->clip_count == 0 && !allow_empty) {
        cli_error("%s: no animation in the file (nothing written; --allow-empty writes the rig alone)", asset);
        rune_import_destroy(imp);
        return EXIT_INPUT;
    }
    if (imp->clip_count == 0)
        cli_warning("%s: no animation in the file: the output holds the rig alone", asset);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("%s: cannot create directory: %s", dir, strerror(errno));
        rune_import_destroy(imp);
        return EXIT_IO;
    }
    char stem[256], out[4096], msg[4352];
    stem_of(asset, stem, sizeof stem);
    int rc = EXIT_OK;
    if ((size_t)snprintf(out, sizeof out, "%s/%s.%s", dir, stem, json ? "json" : "rune") >= sizeof out) {
        snprintf(msg, sizeof msg, "%.64s...: output path longer than %zu bytes", dir, sizeof out - 1);
        rc = EXIT_INPUT;
    }
    const char *inputs[] = {asset, NULL};
    cli_output o;
    if (!rc)
        rc = cli_output_open(&o, out, inputs, force, msg, sizeof msg);
    if (!rc) {
        cli_progress("rune import: writing", 0, 0);
        st = json ? rune_import_write_scenario(imp, o.f, &err) : write_asset(imp, o.f, &err);
        cli_progress_done();
        if (st) {
            snprintf(msg, sizeof msg, "%s", err.message);
            rc = cli_exit_for(st);
            cli_output_abort(&o);
        } else {
            rc = cli_output_commit(&o, msg, sizeof msg);
        }
    }
    if (rc)
        cli_error("%s", msg);
    else
        printf("%s: %zu joints, %zu clips -> %s\n", asset, imp->joint_count, imp->clip_count, out);
    rune_import_destroy(imp);
    if (!rc && (rc = cli_close_stdout(msg, sizeof msg)))
        cli_error("%s", msg);
    return rc;
}
