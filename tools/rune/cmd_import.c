/* `rune import ASSET -o DIR`: convert an asset (glTF, FBX, Collada, BVH,
 * ...) into DIR/NAME.json, a scenario with the rig and every animation.
 * The file is written whole or not at all (see cli.h). */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "commands.h"
#include "cli.h"
#include "rune/import.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: rune import ASSET -o DIR [--force] [--quiet]\n"
    "  Converts an asset (glTF, FBX, Collada, BVH, ...) into DIR/NAME.json: its rig, every\n"
    "  animation as a clip, and a timeline playing the first one.\n"
    "  --force   overwrite DIR/NAME.json if it exists\n"
    "  --quiet   no warnings (what the asset has that rune cannot represent)\n";

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
    bool force = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--force") == 0)
            force = true;
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
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error("%s: cannot create directory: %s", dir, strerror(errno));
        rune_import_destroy(imp);
        return EXIT_IO;
    }
    char stem[256], out[4096], msg[4352];
    stem_of(asset, stem, sizeof stem);
    int rc = EXIT_OK;
    if ((size_t)snprintf(out, sizeof out, "%s/%s.json", dir, stem) >= sizeof out) {
        snprintf(msg, sizeof msg, "%.64s...: output path longer than %zu bytes", dir, sizeof out - 1);
        rc = EXIT_INPUT;
    }
    const char *inputs[] = {asset, NULL};
    cli_output o;
    if (!rc)
        rc = cli_output_open(&o, out, inputs, force, msg, sizeof msg);
    if (!rc) {
        cli_progress("rune import: writing", 0, 0);
        st = rune_import_write_scenario(imp, o.f, &err);
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
