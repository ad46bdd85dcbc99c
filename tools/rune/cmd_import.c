/* `rune import ASSET -o DIR`: convert an asset (glTF, FBX, Collada, BVH,
 * ...) into DIR/NAME.rune (the rig, every animation as compiled clips and
 * the skinned meshes)
 * or, with --json, DIR/NAME.json (a scenario that plays the first one).
 * The file is written whole or not at all (see cli.h). */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "commands.h"
#include "cli.h"
#include "rune/asset.h"
#include "rune/compress.h"
#include "rune/import.h"
#include "map_file.h"
#include "rig/rig_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: rune import ASSET -o DIR [--precision U] [--shell U] [--curve-precision V] [--lossless]\n"
    "                   [--loop | --loop-clips A,B] [--json] [--allow-empty] [--clip-prefix P] [--no-meshes]\n"
    "                   [--retarget-to RIG.rune [--map MAP.json] [--no-foot-ik] [--verbose]] [--force] [--quiet]\n"
    "  Converts an asset (glTF, FBX, Collada, BVH, ...) into DIR/NAME.rune: its skeleton and\n"
    "  every animation as a compressed clip, loaded with rune_asset_load_file (docs/format.md).\n"
    "  Compression keeps every joint's virtual vertices (at the shell distance from it) within\n"
    "  the precision of the exact pose, in model space, at every sample.\n"
    "  --precision U  largest error, in asset units (default: rig height / 18000, 0.01 cm on 1.8 m)\n"
    "  --shell U      virtual vertex distance, in asset units (default: rig height / 60, 3 cm)\n"
    "  --curve-precision V  largest error of a float curve (morph weights), absolute (default 1e-4)\n"
    "  --lossless     keep the exact keys (clips that cannot compress -- eased keys, keys off one\n"
    "                 uniform grid -- stay exact anyway, with a warning)\n"
    "  --loop         make every clip loop (imports loop a clip only when the file says every\n"
    "                 channel repeats, which few exporters write)\n"
    "  --loop-clips A,B  make the clips with these ids loop (an unknown id is an error)\n"
    "  --json         write DIR/NAME.json instead: a scenario (compact, a line per keyframe, exact\n"
    "                 keys) with the rig, the clips and a timeline playing the first one\n"
    "  --allow-empty  succeed when the asset has no animation (otherwise exit 2)\n"
    "  --clip-prefix P  prefix every clip id with P (a BVH file's clip is named after the file)\n"
    "  --no-meshes    leave the skinned meshes out (kept by default: positions, normals, tangents,\n"
    "                 triangles, up to 8 influences a vertex, morph targets; with --retarget-to, the\n"
    "                 target's meshes)\n"
    "  --retarget-to R  write the clips retargeted onto the rig of R (a .rune), with that rig: humanoids\n"
    "                 mapped bone to bone from their hierarchy and names, put in one T-pose, hips and\n"
    "                 feet on the target's floor; other rigs matched by name (docs/semantics.md,\n"
    "                 \"Retargeting\"); one line reports the mapping\n"
    "  --map MAP.json   explicit pairs {\"source joint\": \"target joint\" or null}, overriding the\n"
    "                 matching (null keeps a source joint out)\n"
    "  --no-foot-ik   do not hold the target's feet where the source's are planted\n"
    "  --verbose      list every target joint's source joint and profile bone\n"
    "  --force        overwrite the output if it exists\n"
    "  --quiet        no warnings (what the asset has that rune cannot represent)\n";

/* How the clips are stored. */
typedef struct storing {
    bool lossless;
    rune_compress_settings settings;
    size_t compressed; /* clips compressed */
    const rune_asset *onto;  /* --retarget-to: the asset whose rig the clips go onto */
    rune_retarget *retarget; /* from the import's rig onto it */
    bool no_meshes;          /* --no-meshes */
} storing;

/* The mapping of --retarget-to, reported: one line (humanoid profile
 * bones and confidence, joints mapped, travel ratio, foot IK); with
 * --verbose each target joint's source joint, how it was matched and its
 * profile bone. */
static void report_mapping(const char *onto, const rune_retarget *rt, const rune_rig *src, const rune_rig *dst,
                           bool verbose)
{
    rune_retarget_info in = rune_retarget_describe(rt);
    if (in.humanoid)
        fprintf(stderr, "rune import: onto %s: humanoid, mapped %zu of the profile's %zu bones (confidence %.2f); "
                        "%zu of %zu joints mapped, hips travel x %.4g, foot IK %s\n",
                onto, in.profile_mapped, in.profile_bones, (double)in.confidence, in.mapped, in.target_joints,
                (double)in.scale, in.foot_ik ? "on" : "off");
    else
        fprintf(stderr, "rune import: onto %s: not humanoids (no two legs below two arms in both rigs): %zu of %zu "
                        "joints mapped by name, hips travel x %.4g\n",
                onto, in.mapped, in.target_joints, (double)in.scale);
    static const char *const how[] = {"unmapped", "map", "parent/part", "part", "normalized name", "humanoid"};
    char tn[256], sn[256];
    for (size_t t = 0; verbose && t < in.target_joints; t++) {
        rune_retarget_joint j = rune_retarget_target(rt, t);
        fprintf(stderr, "  %-40s <- %-32s %s%s%s\n", rune_rig_joint_name(dst, t, tn, sizeof tn),
                j.source >= 0 ? rune_rig_joint_name(src, (size_t)j.source, sn, sizeof sn) : "-", how[j.how],
                j.bone ? ", " : "", j.bone ? j.bone : "");
    }
}

/* A compiled clip of the import, retargeted when asked: the binding's copy
 * (the binding is then dropped; its clip is copied out as keys). */
static rune_status retargeted(const storing *how, const rune_sequence_desc *d, rune_clip **clip, rune_error *err)
{
    rune_status st = rune_clip_compile(d, NULL, clip, err);
    if (st || !how->retarget)
        return st;
    rune_binding *b;
    if ((st = rune_binding_create(rune_asset_rig(how->onto), *clip, how->retarget, NULL, &b, err)))
        return st;
    /* the binding owns its copy: compile a clip of one's own from its keys */
    const rune_clip *c = rune_binding_clip(b);
    size_t keys = rune_clip_key_count(c), markers = rune_clip_marker_count(c);
    rune_keyframe_desc *kf = calloc(keys ? keys : 1, sizeof *kf);
    rune_key_pose_desc *poses = calloc(keys ? keys : 1, sizeof *poses);
    rune_marker_desc *md = calloc(markers ? markers : 1, sizeof *md);
    st = kf && poses && md ? RUNE_OK : rune_fail(err, RUNE_E_NOMEM, "out of memory");
    size_t k = 0;
    for (size_t t = 0; !st && t < rune_clip_track_count(c); t++)
        for (size_t i = 0; i < rune_clip_track_key_count(c, t); i++, k++) {
            rune_clip_track_key(c, t, i, &kf[k].time, &poses[k]);
            kf[k].poses = &poses[k], kf[k].pose_count = 1;
        }
    for (size_t i = 0; !st && i < markers; i++)
        md[i] = (rune_marker_desc){rune_clip_markers(c)[i].time, rune_clip_markers(c)[i].name,
                                   rune_clip_markers(c)[i].value};
    rune_clip *own = NULL;
    if (!st) {
        rune_sequence_desc sd = {rune_clip_id(c), rune_clip_revision(c), rune_clip_loops(c), rune_clip_priority(c),
                                 kf, keys, md, markers, rune_clip_length(c)};
        st = rune_clip_compile(&sd, NULL, &own, err);
    }
    free(kf), free(poses), free(md);
    rune_binding_destroy(b);
    rune_clip_destroy(*clip);
    *clip = own;
    return st;
}

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
    if (!st && imp->joint_count && !how->onto)
        st = rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, err);
    const rune_rig *out_rig = how->onto ? rune_asset_rig(how->onto) : rig;
    for (size_t i = 0; !st && i < imp->clip_count; i++) {
        if ((st = retargeted(how, &imp->clips[i], &clips[i], err)))
            rune_error_prefix(err, "%s: animation \"%s\": ", imp->source, imp->clips[i].id);
        else if (!how->lossless && out_rig)
            compress_clip(imp, out_rig, how, &clips[i]);
    }
    if (!st) {
        /* the meshes of the rig the clips play on: the import's, or the
         * target's when retargeted */
        size_t meshes = 0;
        const rune_mesh *mesh = how->onto ? rune_asset_meshes(how->onto, &meshes) : imp->meshes;
        if (!how->onto)
            meshes = imp->mesh_count;
        if (how->no_meshes)
            mesh = NULL, meshes = 0;
        rune_asset_desc d = {out_rig, (const rune_clip *const *)clips, imp->clip_count,
                             how->onto ? rune_asset_root_joint(how->onto) : imp->root_joint, mesh, meshes};
        st = rune_asset_write(&d, f, err);
    }
    for (size_t i = 0; clips && i < imp->clip_count; i++)
        rune_clip_destroy(clips[i]);
    free(clips);
    rune_rig_destroy(rig);
    return st;
}

/* --loop / --loop-clips: the loop flags set; an exit status. */
static int set_loops(rune_import *imp, bool all, const char *list)
{
    rune_error err = {0};
    if (all && list) {
        cli_error("rune import: --loop and --loop-clips: give one");
        return EXIT_INPUT;
    }
    if (all)
        return cli_exit_for(rune_import_set_loop(imp, NULL, true, &err));
    char id[256];
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ",");
        snprintf(id, sizeof id, "%.*s", (int)(n < sizeof id ? n : sizeof id - 1), p);
        rune_status st = n ? rune_import_set_loop(imp, id, true, &err) : RUNE_OK;
        if (st) {
            char ids[512] = "";
            for (size_t c = 0, at = 0; c < imp->clip_count && at < sizeof ids; c++)
                at += (size_t)snprintf(ids + at, sizeof ids - at, "%s\"%s\"", c ? ", " : "", imp->clips[c].id);
            cli_error("%s (--loop-clips; the clips are %s)", err.message, imp->clip_count ? ids : "none");
            return cli_exit_for(st);
        }
        p += n + (p[n] == ',');
    }
    return EXIT_OK;
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

/* What --retarget-to asks for. */
typedef struct onto_options {
    const char *path, *map;
    bool no_foot_ik, verbose;
} onto_options;

/* --retarget-to: the target asset loaded and the mapping made (and
 * reported); an exit status. */
static int prepare_onto(const rune_import *imp, const onto_options *o, bool json, storing *how)
{
    rune_error err = {0};
    rune_asset *a = NULL;
    rune_rig *src = NULL;
    map_file map = {0};
    if (json) {
        cli_error("rune import: --retarget-to writes a .rune (not --json)");
        return EXIT_INPUT;
    }
    rune_status st = o->map ? map_file_read(o->map, &map, &err) : RUNE_OK;
    if (!st)
        st = rune_asset_load_file(o->path, NULL, &a, &err);
    if (!st && !rune_asset_rig(a))
        st = rune_fail(&err, RUNE_E_INVALID, "%s: holds no rig to retarget onto", o->path);
    if (!st && (st = rune_rig_create(imp->joints, imp->joint_count, NULL, &src, &err)))
        rune_error_prefix(&err, "%s: ", imp->source);
    rune_retarget_desc d = {src, a ? rune_asset_rig(a) : NULL, map.pairs, map.count, o->no_foot_ik};
    if (!st && (st = rune_retarget_create(&d, NULL, &how->retarget, &err))) {
        if (o->map)
            rune_error_prefix(&err, "%s: ", o->map);
        rune_error_prefix(&err, "%s onto %s: ", imp->source, o->path);
    }
    if (!st)
        report_mapping(o->path, how->retarget, src, rune_asset_rig(a), o->verbose);
    rune_rig_destroy(src);
    map_file_release(&map);
    if (st) {
        cli_error("%s", err.message);
        rune_asset_destroy(a);
        return cli_exit_for(st);
    }
    how->onto = a;
    return EXIT_OK;
}

/* --clip-prefix: every clip id prefixed (the ids are the import's until
 * it is destroyed; these live as long as `owned`). */
static int prefix_clips(rune_import *imp, const char *prefix, char ***owned)
{
    *owned = NULL;
    if (!prefix)
        return EXIT_OK;
    *owned = calloc(imp->clip_count ? imp->clip_count : 1, sizeof **owned);
    for (size_t i = 0; *owned && i < imp->clip_count; i++) {
        size_t n = strlen(prefix) + strlen(imp->clips[i].id) + 1;
        if (!((*owned)[i] = malloc(n)))
            break;
        snprintf((*owned)[i], n, "%s%s", prefix, imp->clips[i].id);
        imp->clips[i].id = (*owned)[i];
    }
    for (size_t i = 0; i < imp->clip_count; i++)
        if (!*owned || !(*owned)[i]) {
            cli_error("rune import: out of memory");
            return EXIT_INTERNAL;
        }
    return EXIT_OK;
}

static void free_prefixed(char **owned, size_t count)
{
    for (size_t i = 0; owned && i < count; i++)
        free(owned[i]);
    free(owned);
}

int cmd_import(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    const char *asset, *dir = NULL, *precision = NULL, *shell = NULL, *curve = NULL, *loops = NULL, *prefix = NULL;
    bool force = false, json = false, allow_empty = false, loop_all = false;
    onto_options onto = {NULL, NULL, false, false};
    storing how = {false, {0.0f, 0.0f, 0.0f}, 0, NULL, NULL, false};
    const cli_option options[] = {{"-o", NULL, &dir},
                                  {"--precision", NULL, &precision},
                                  {"--shell", NULL, &shell},
                                  {"--curve-precision", NULL, &curve},
                                  {"--lossless", &how.lossless, NULL},
                                  {"--force", &force, NULL},
                                  {"--json", &json, NULL},
                                  {"--allow-empty", &allow_empty, NULL},
                                  {"--retarget-to", NULL, &onto.path},
                                  {"--map", NULL, &onto.map},
                                  {"--no-foot-ik", &onto.no_foot_ik, NULL},
                                  {"--verbose", &onto.verbose, NULL},
                                  {"--clip-prefix", NULL, &prefix},
                                  {"--no-meshes", &how.no_meshes, NULL},
                                  {"--loop", &loop_all, NULL},
                                  {"--loop-clips", NULL, &loops},
                                  {NULL, NULL, NULL}};
    if (cli_parse_args("import", "ASSET", false, argc, argv, options, &asset))
        return EXIT_INPUT;
    if (!dir) {
        cli_error("rune import: missing -o DIR (see rune import --help)");
        return EXIT_INPUT;
    }
    if (!onto.path && (onto.map || onto.no_foot_ik)) {
        cli_error("rune import: %s applies to --retarget-to (see rune import --help)", onto.map ? "--map" : "--no-foot-ik");
        return EXIT_INPUT;
    }
    const char *const lengths[3] = {precision, shell, curve};
    const char *const names[3] = {"--precision", "--shell", "--curve-precision"};
    float *const into[3] = {&how.settings.precision, &how.settings.shell, &how.settings.curve_precision};
    for (int k = 0; k < 3; k++)
        if (lengths[k] && !parse_length(lengths[k], into[k])) {
            cli_error("rune import: %s \"%s\": not a positive number", names[k], lengths[k]);
            return EXIT_INPUT;
        }
    rune_error err = {0};
    rune_import *imp;
    int rc0;
    char **prefixed = NULL;
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
    if ((rc0 = set_loops(imp, loop_all, loops)) != EXIT_OK || (rc0 = prefix_clips(imp, prefix, &prefixed)) ||
        (onto.path && (rc0 = prepare_onto(imp, &onto, json, &how)) != EXIT_OK)) {
        free_prefixed(prefixed, imp->clip_count);
        rune_import_destroy(imp);
        return rc0;
    }
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
    size_t joints = how.onto ? rune_rig_joint_count(rune_asset_rig(how.onto)) : imp->joint_count;
    if (rc)
        cli_error("%s", msg);
    else if (how.compressed)
        printf("%s: %zu joints, %zu clips (%zu compressed) -> %s\n", asset, joints, imp->clip_count,
               how.compressed, out);
    else
        printf("%s: %zu joints, %zu clips -> %s\n", asset, joints, imp->clip_count, out);
    free_prefixed(prefixed, imp->clip_count);
    rune_import_destroy(imp);
    rune_retarget_destroy(how.retarget);
    rune_asset_destroy((rune_asset *)how.onto);
    if (!rc && (rc = cli_close_stdout(msg, sizeof msg)))
        cli_error("%s", msg);
    return rc;
}
