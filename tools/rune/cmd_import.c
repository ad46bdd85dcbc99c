/* `rune import ASSET -o DIR`: convert an asset (glTF, FBX, Collada, BVH,
 * ...) into DIR/NAME.json, a scenario with the rig and every animation. */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "commands.h"
#include "rune/import.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
    const char *asset = NULL, *dir = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (!asset && argv[i][0] != '-')
            asset = argv[i];
        else {
            fprintf(stderr, "rune import: unexpected argument \"%s\" (usage: rune import ASSET -o DIR)\n", argv[i]);
            return 2;
        }
    }
    if (!asset || !dir) {
        fprintf(stderr, "rune import: usage: rune import ASSET -o DIR\n");
        return 2;
    }
    rune_error err = {0};
    rune_import *imp;
    if (rune_import_file(asset, NULL, &imp, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: cannot create directory: %s\n", dir, strerror(errno));
        rune_import_destroy(imp);
        return 2;
    }
    char stem[256], out[4096];
    stem_of(asset, stem, sizeof stem);
    snprintf(out, sizeof out, "%s/%s.json", dir, stem);
    FILE *f = fopen(out, "w");
    int rc = 0;
    if (!f) {
        fprintf(stderr, "%s: cannot write: %s\n", out, strerror(errno));
        rc = 2;
    } else {
        if (rune_import_write_scenario(imp, f, &err)) {
            fprintf(stderr, "%s\n", err.message);
            rc = 2;
        }
        if (fclose(f) != 0 && !rc) {
            fprintf(stderr, "%s: cannot write\n", out);
            rc = 2;
        }
    }
    for (size_t i = 0; i < imp->warning_count; i++)
        fprintf(stderr, "%s: warning: %s\n", asset, imp->warnings[i]);
    if (!rc)
        printf("%s: %zu joints, %zu clips -> %s\n", asset, imp->joint_count, imp->clip_count, out);
    rune_import_destroy(imp);
    return rc;
}
