/* `rune import ASSET -o DIR`: convert an asset (glTF, FBX, Collada, BVH,
 * ...) into DIR/NAME.rune (the rig and every animation as compiled clips)
 * or, with --json, DIR/NAME.json (a scenario that plays the first one).
 * The file is written whole or not at all (see cli.h). */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "commands.h"
#include "cli.h"
#include "rune/asset.h"
#include "rune/compress.h"
#include "rune/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: rune import ASSET -o DIR [--precision U] [--shell U] [--lossless] [--json] [--allow-empty]\n"
    "                   [--force] [--quiet]\n"
    "  Converts an asset (glTF, FBX, Collada, BVH, ...) into DIR/NAME.rune: its skeleton and\n"
    "  every animation as a compressed clip, loaded with rune_asset_load_file (docs/format.md).\n"
    "  Compression keeps every joint's virtual vertices (at the shell distance from it) within\n"
    "  the precision of the exact pose, in model space, at every sample.\n"
    "  --precision U  largest error, in asset units (default: rig height / 18000, 0.01 cm on 1.8 m)\n"
    "  --shell U      virtual vertex distance, in asset units (default: rig height / 60, 3 cm)\n"
    "  --lossless     keep the exact keys (clips that cannot compress -- eased keys, keys off one\n"
    "                 uniform grid -- stay exact anyway, with a warning)\n"
    "  --json         write DIR/NAME.json instead: a scenario (compact, a line per keyframe, exact\n"
    "                 keys) with the rig, the clips and a timeline playing the first one\n"
    "  --allow-empty  succeed when the asset has no animation (otherwise exit 2)\n"
    "  --force        overwrite the output if it exists\n"
    "  --quiet        no warnings (what the asset has that rune cannot represent)\n";

/* How the clips are stored. */
typedef struct storing {
    bool lossless;
    rune_compress_settings settings;
    size_t compressed; /* clips compressed */
} storing;

/* Clip i compressed for the rig when it can be (else kept, with a warning). */
static void compress_clip(const rune_import *imp, const rune_rig *rig, storing *how, rune_clip **clip)
{
    rune_error e = {0};
    rune_clip *packed;
    if (rune_clip_compress(*clip, rig, &how->settings, NULL, &packed, &e)) {
        cli_warning("%s: kept exact keys: %s", imp->source, e.message);
        return;
    }
    rune_clip_destroy(*clip);
    *clip = packed;
    how->compressed++;
}

/* The import compiled (and compressed) and written as a .rune asset. */
static rune_status write_asset(const rune_import *imp, storing *how, FILE *f, rune_error *err)
{
    rune_rig *rig = NULL;
    rune_clip **clips = calloc(imp->clip_count ? imp->clip_count : 1, sizeof *clips);
    rune_status st = clips ? RUNE_OK : rune_fail(err, RUNE_E_NOMEM, "out of memory");
    if (!st && imp->joint_count)
        st = rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, err);
    for (size_t i = 0; !st && i < imp->clip_count; i++) {
        if ((st = rune_clip_compile(&imp->clips[i], NULL, &clips[i], err)))
            rune_error_prefix(err, "%s: animation \"%s\": ", imp->source, imp->clips[i].id);
        else if (!how->lossless && rig)
            compress_clip(imp, rig, how, &clips[i]);
    }
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

/* A length option: a finite number above 0. */
static bool parse_length(const char *s, float *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0.0) || !(v <= 1e30))
        return false;
    *out = (float)v;
    return *out > 0.0f;
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
    const char *asset, *dir = NULL, *precision = NULL, *shell = NULL;
    bool force = false, json = false, allow_empty = false;
    storing how = {false, {0.0f, 0.0f}, 0};
    const cli_option options[] = {{"-o", NULL, &dir},                   {"--precision", NULL, &precision},
                                  {"--shell", NULL, &shell},            {"--lossless", &how.lossless, NULL},
                                  {"--force", &force, NULL},            {"--json", &json, NULL},
                                  {"--allow-empty", &allow_empty, NULL}, {NULL, NULL, NULL}};
    if (cli_parse_args("import", "ASSET", false, argc, argv, options, &asset))
        return EXIT_INPUT;
    if (!dir) {
        cli_error("rune import: missing -o DIR (see rune import --help)");
        return EXIT_INPUT;
    }
    const char *const lengths[2] = {precision, shell}, *const names[2] = {"--precision", "--shell"};
    float *const into[2] = {&how.settings.precision, &how.settings.shell};
    for (int k = 0; k < 2; k++)
        if (lengths[k] && !parse_length(lengths[k], into[k])) {
            cli_error("rune import: %s \"%s\": not a positive number", names[k], lengths[k]);
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
        st = json ? rune_import_write_scenario(imp, o.f, &err) : write_asset(imp, &how, o.f, &err);
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
    else if (how.compressed)
        printf("%s: %zu joints, %zu clips (%zu compressed) -> %s\n", asset, imp->joint_count, imp->clip_count,
               how.compressed, out);
    else
        printf("%s: %zu joints, %zu clips -> %s\n", asset, imp->joint_count, imp->clip_count, out);
    rune_import_destroy(imp);
    if (!rc && (rc = cli_close_stdout(msg, sizeof msg)))
        cli_error("%s", msg);
    return rc;
}
