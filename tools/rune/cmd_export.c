/* `rune export IN -o OUT`: a .rune, a scenario or an importable asset
 * written as glTF 2.0 (.glb, .gltf) or BVH (.bvh) for engines, DCC tools
 * and the web (export_gltf.c, export_bvh.c). The file is written whole or
 * not at all (cli_output_open: a temporary beside it, renamed). */
#include "commands.h"
#include "cli.h"
#include "export_source.h"
#include "rune/asset.h"
#include "rune/import.h"
#include "rune/io.h"
#include "rig/rig_internal.h"
#include "scenario/scenario_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char usage[] =
    "usage: rune export IN -o OUT.glb|OUT.gltf|OUT.bvh [--clip ID,...] [--fps F] [--force] [--quiet]\n"
    "  Writes IN (a .rune, a scenario, or an asset rune import reads) for other tools:\n"
    "  .glb / .gltf  glTF 2.0: the rig as nodes, the skinned meshes, every clip (or the --clip ones)\n"
    "                as an animation (LINEAR channels at the clip's keys, or resampled where it is not\n"
    "                linear between them), morph weights from the curves that name the targets\n"
    "  .bvh          one clip (--clip when there are several): the hierarchy and a frame every 1/F s\n"
    "  --clip IDS    the clips to write, comma-separated (an id the input lacks is exit 2)\n"
    "  --fps F       resample every clip at F frames a second (default: the clip's keys, a compressed\n"
    "                clip's sample rate, else 30)\n"
    "  --force       overwrite OUT if it exists\n";

/* What was loaded, kept alive while writing. */
typedef struct loaded {
    rune_asset *asset;
    rune_scenario *scenario;
    rune_library *lib;
    rune_import *imp;
    rune_rig *rig; /* an import's */
    rune_clip **compiled;
    size_t compiled_count;
    const rune_clip **all;
    size_t all_count;
    export_source src;
    char (*names)[256];
    const char **name_list;
} loaded;

static void unload(loaded *l)
{
    for (size_t i = 0; l->compiled && i < l->compiled_count; i++)
        rune_clip_destroy(l->compiled[i]);
    free(l->compiled), free(l->all), free((void *)l->src.clips), free(l->names), free(l->name_list);
    rune_rig_destroy(l->rig);
    rune_import_destroy(l->imp);
    rune_library_destroy(l->lib);
    rune_scenario_destroy(l->scenario);
    rune_asset_destroy(l->asset);
}

/* IN's rig, clips and meshes; an exit status with a message. */
static int load(const char *file, loaded *l, char *msg, size_t msg_size)
{
    size_t size;
    char *data = cli_read_input(file, &size, msg, msg_size);
    if (!data)
        return EXIT_IO;
    cli_input_kind kind = cli_input_kind_of(file, data, size);
    rune_error err = {0};
    rune_status st = RUNE_OK;
    int rc = EXIT_OK;
    if (kind == CLI_INPUT_ASSET) {
        if (!(st = rune_asset_load_memory(data, size, file, NULL, &l->asset, &err))) {
            l->src.rig = rune_asset_rig(l->asset);
            l->src.meshes = rune_asset_meshes(l->asset, &l->src.mesh_count);
            l->all_count = rune_asset_clip_count(l->asset);
            if ((l->all = calloc(l->all_count + 1, sizeof *l->all)))
                for (size_t i = 0; i < l->all_count; i++)
                    l->all[i] = rune_asset_clip(l->asset, i);
        }
    } else if (kind == CLI_INPUT_SCENARIO) {
        l->scenario = cli_scenario_from(file, data, size, false, msg, msg_size, &rc);
        if (l->scenario && !(st = rune_scenario_library(l->scenario, NULL, &l->lib, &err))) {
            l->src.rig = rune_library_rig(l->lib);
            const scenario_box *box = (const scenario_box *)l->scenario;
            if (box->rig_asset)
                l->src.meshes = rune_asset_meshes(box->rig_asset, &l->src.mesh_count);
            l->all_count = rune_library_clip_count(l->lib);
            if ((l->all = calloc(l->all_count + 1, sizeof *l->all)))
                for (size_t i = 0; i < l->all_count; i++)
                    l->all[i] = rune_library_clip(l->lib, (uint32_t)i);
        }
    } else if (!(st = rune_import_file(file, NULL, &l->imp, &err))) {
        for (size_t i = 0; i < l->imp->warning_count; i++)
            cli_warning("%s: %s", file, l->imp->warnings[i]);
        st = rune_rig_create(l->imp->joints, l->imp->joint_count, NULL, &l->rig, &err);
        l->compiled = calloc(l->imp->clip_count + 1, sizeof *l->compiled);
        l->all = calloc(l->imp->clip_count + 1, sizeof *l->all);
        for (size_t i = 0; !st && l->compiled && l->all && i < l->imp->clip_count; i++, l->compiled_count++)
            st = rune_clip_compile(&l->imp->clips[i], NULL, &l->compiled[i], &err), l->all[i] = l->compiled[i];
        l->all_count = l->compiled_count;
        l->src.rig = l->rig, l->src.meshes = l->imp->meshes, l->src.mesh_count = l->imp->mesh_count;
    }
    free(data);
    if (rc)
        return rc;
    if (st) {
        snprintf(msg, msg_size, "%s", err.message);
        return cli_exit_for(st);
    }
    if (!l->all) {
        snprintf(msg, msg_size, "out of memory");
        return EXIT_INTERNAL;
    }
    if (!l->src.rig || !rune_rig_joint_count(l->src.rig)) {
        snprintf(msg, msg_size, "%s: no rig to export", file);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

/* The joints' names for the file: parts, repeats suffixed _2, _3, ...;
 * BVH: anything but letters, digits, '_' and '-' replaced by '_' (its
 * tokens are words, and players bind channels by names that ':' or '.'
 * would split: three.js's "mixamorig:Hips.quaternion"). */
static bool name_joints(loaded *l, bool bvh)
{
    size_t n = rune_rig_joint_count(l->src.rig);
    l->names = calloc(n, sizeof *l->names);
    l->name_list = calloc(n, sizeof *l->name_list);
    if (!l->names || !l->name_list)
        return false;
    for (size_t j = 0; j < n; j++) {
        char base[240];
        snprintf(base, sizeof base, "%s", rune_rig_part(l->src.rig, j));
        for (char *c = base; bvh && *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
                *c = '_';
        snprintf(l->names[j], sizeof l->names[j], "%s", base[0] ? base : "joint");
        for (int k = 2;; k++) {
            bool taken = false;
            for (size_t i = 0; i < j && !taken; i++)
                taken = strcmp(l->names[i], l->names[j]) == 0;
            if (!taken)
                break;
            snprintf(l->names[j], sizeof l->names[j], "%s_%d", base, k);
        }
        l->name_list[j] = l->names[j];
    }
    l->src.names = l->name_list;
    return true;
}

/* The clips to write: --clip's, in its order, else all; an exit status. */
static int pick_clips(loaded *l, const char *file, const char *list, char *msg, size_t msg_size)
{
    const rune_clip **chosen = calloc(l->all_count + 1, sizeof *chosen);
    if (!chosen) {
        snprintf(msg, msg_size, "out of memory");
        return EXIT_INTERNAL;
    }
    l->src.clips = chosen;
    if (!list) {
        memcpy(chosen, l->all, l->all_count * sizeof *chosen);
        l->src.clip_count = l->all_count;
        return EXIT_OK;
    }
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        const rune_clip *found = NULL;
        for (size_t i = 0; i < l->all_count && !found; i++)
            if (strlen(rune_clip_id(l->all[i])) == len && strncmp(rune_clip_id(l->all[i]), p, len) == 0)
                found = l->all[i];
        if (!found) {
            int at = snprintf(msg, msg_size, "%s: --clip: no clip \"%.*s\" (the clips are", file, (int)len, p);
            for (size_t i = 0; i < l->all_count && at >= 0 && (size_t)at < msg_size; i++)
                at += snprintf(msg + at, msg_size - (size_t)at, "%s \"%s\"", i ? "," : "", rune_clip_id(l->all[i]));
            if (at >= 0 && (size_t)at < msg_size)
                snprintf(msg + at, msg_size - (size_t)at, "%s)", l->all_count ? "" : " none");
            return EXIT_INPUT;
        }
        if (l->src.clip_count < l->all_count)
            chosen[l->src.clip_count++] = found;
        p += len + (p[len] == ',');
    }
    return EXIT_OK;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

int cmd_export(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    const char *in, *out = NULL, *clips = NULL, *fps = NULL;
    bool force = false;
    const cli_option options[] = {{"-o", NULL, &out},       {"--clip", NULL, &clips}, {"--fps", NULL, &fps},
                                  {"--force", &force, NULL}, {NULL, NULL, NULL}};
    if (cli_parse_args("export", "IN", false, argc, argv, options, &in))
        return EXIT_INPUT;
    if (!out) {
        cli_error("rune export: missing -o OUT (see rune export --help)");
        return EXIT_INPUT;
    }
    bool glb = ends_with(out, ".glb"), gltf = ends_with(out, ".gltf"), bvh = ends_with(out, ".bvh");
    if (!glb && !gltf && !bvh) {
        cli_error("rune export: %s: the extension picks the format: .glb, .gltf or .bvh", out);
        return EXIT_INPUT;
    }
    float rate = 0.0f;
    if (fps) {
        char *end;
        double v = strtod(fps, &end);
        if (end == fps || *end || !(v >= 1.0 && v <= 1000.0)) {
            cli_error("rune export: --fps \"%s\": a number from 1 to 1000", fps);
            return EXIT_INPUT;
        }
        rate = (float)v;
    }
    char msg[1024];
    loaded l;
    memset(&l, 0, sizeof l);
    l.src.fps = rate;
    int rc = load(in, &l, msg, sizeof msg);
    if (!rc)
        rc = pick_clips(&l, in, clips, msg, sizeof msg);
    if (!rc && !name_joints(&l, bvh))
        snprintf(msg, sizeof msg, "out of memory"), rc = EXIT_INTERNAL;
    if (!rc && bvh && l.src.clip_count != 1) {
        int at = snprintf(msg, sizeof msg, "%s: BVH holds one clip, %s %zu%s", in,
                          l.src.clip_count ? "and" : "and the input has", l.src.clip_count,
                          l.src.clip_count ? " are asked for: give one with --clip (the clips are" : "");
        for (size_t i = 0; l.src.clip_count && i < l.all_count && at >= 0 && (size_t)at < sizeof msg; i++)
            at += snprintf(msg + at, sizeof msg - (size_t)at, "%s \"%s\"", i ? "," : "", rune_clip_id(l.all[i]));
        if (l.src.clip_count && at >= 0 && (size_t)at < sizeof msg)
            snprintf(msg + at, sizeof msg - (size_t)at, ")");
        rc = EXIT_INPUT;
    }
    if (!rc && bvh && l.src.mesh_count)
        cli_warning("rune export: %s: BVH holds no mesh: the %zu mesh%s left out", out, l.src.mesh_count,
                    l.src.mesh_count == 1 ? " is" : "es are");
    cli_output o;
    const char *inputs[] = {in, NULL};
    if (!rc)
        rc = cli_output_open(&o, out, inputs, force, msg, sizeof msg);
    if (!rc) {
        bool ok = bvh ? export_bvh(&l.src, o.f, msg, sizeof msg) : export_gltf(&l.src, o.f, glb, msg, sizeof msg);
        if (!ok) {
            cli_output_abort(&o);
            rc = strstr(msg, "out of memory") ? EXIT_INTERNAL : EXIT_INPUT;
        } else {
            rc = cli_output_commit(&o, msg, sizeof msg);
        }
    }
    if (rc)
        cli_error("%s", msg);
    else
        printf("%s: %zu joints, %zu clip%s, %zu mesh%s -> %s\n", in, rune_rig_joint_count(l.src.rig),
               l.src.clip_count, l.src.clip_count == 1 ? "" : "s", bvh ? 0 : l.src.mesh_count,
               !bvh && l.src.mesh_count == 1 ? "" : "es", out);
    unload(&l);
    if (!rc && (rc = cli_close_stdout(msg, sizeof msg)))
        cli_error("%s", msg);
    return rc;
}
