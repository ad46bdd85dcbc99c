/* `rune info FILE`: what a .rune asset, a scenario or an importable asset
 * (glTF, FBX, BVH, ...) holds, as one JSON document: the joints with
 * their parents, the default root-motion joint, and each clip's duration,
 * tracks, keys and bytes in memory once compiled. */
#include "commands.h"
#include "cli.h"
#include "json_out.h"
#include "rune/asset.h"
#include "rune/import.h"
#include "clip/clip_access_internal.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: rune info FILE|- [--quiet]\n"
    "  Prints a JSON summary of a .rune asset, a scenario (JSON) or an asset rune import\n"
    "  reads (by its extension): kind, joints (name, parent, rest scale when not 1), the\n"
    "  default root-motion joint, clips (id, duration in seconds, tracks, keys, scale,\n"
    "  bytes in memory once compiled; for compressed clips their samples, raw_bytes -- 10 floats\n"
    "  a track and sample --, sample_rate, max_error measured, precision and shell asked for;\n"
    "  for clips with float curves, each curve's name and keys, and when compressed\n"
    "  curve_precision and curve_max_error), meshes (vertices, triangles, influences, binds,\n"
    "  normals, tangents, morph targets, bytes) and the total bytes of the clips.\n"
    "  --quiet   no warnings\n";

/* What is summarized, whatever it came from. */
typedef struct summary {
    const char *kind;
    const rune_rig *rig;
    int32_t root;
    const rune_clip *const *clips;
    size_t clip_count;
    size_t file_bytes;
    const rune_mesh *meshes;
    size_t mesh_count;
} summary;

/* The bytes a mesh's arrays take in memory. */
static size_t mesh_bytes(const rune_mesh *m)
{
    size_t n = m->vertex_count, b = 12 * n + (m->normals ? 12 * n : 0) + (m->tangents ? 16 * n : 0);
    b += 12 * m->triangle_count + 6 * (size_t)m->influences * n + 68 * m->bind_count;
    for (size_t i = 0; i < m->morph_count; i++)
        b += 12 * n + (m->morphs[i].normals ? 12 * n : 0);
    return b;
}

static void print_meshes(FILE *f, const summary *s)
{
    fputs(",\n \"meshes\": [", f);
    for (size_t i = 0; i < s->mesh_count; i++) {
        const rune_mesh *m = &s->meshes[i];
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
        json_out_string(f, m->name);
        fprintf(f, ", \"vertices\": %zu, \"triangles\": %zu, \"influences\": %u, \"binds\": %zu, \"normals\": %s, "
                   "\"tangents\": %s, \"morph_targets\": [",
                m->vertex_count, m->triangle_count, m->influences, m->bind_count, m->normals ? "true" : "false",
                m->tangents ? "true" : "false");
        for (size_t k = 0; k < m->morph_count; k++) {
            fputs(k ? ", " : "", f);
            json_out_string(f, m->morphs[k].name);
        }
        fprintf(f, "], \"bytes\": %zu}", mesh_bytes(m));
    }
    fputs("]", f);
}

static void print_summary(FILE *f, const char *file, const summary *s)
{
    fputs("{\"file\": ", f);
    json_out_string(f, file);
    fprintf(f, ", \"kind\": \"%s\", \"file_bytes\": %zu,\n \"joints\": [", s->kind, s->file_bytes);
    size_t joints = s->rig ? rune_rig_joint_count(s->rig) : 0;
    for (size_t j = 0; j < joints; j++) {
        char name[256];
        int32_t p = rune_rig_parent(s->rig, j);
        fputs(j ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
        json_out_string(f, rune_rig_joint_name(s->rig, j, name, sizeof name));
        fputs(", \"parent\": ", f);
        if (p < 0)
            fputs("null", f);
        else
            json_out_string(f, rune_rig_joint_name(s->rig, (size_t)p, name, sizeof name));
        rune_vec3 sc = rune_rig_frame_scale(s->rig, j);
        if (sc.x != 1.0f || sc.y != 1.0f || sc.z != 1.0f) {
            fputs(", \"s\": [", f);
            json_out_number(f, sc.x), fputs(", ", f), json_out_number(f, sc.y), fputs(", ", f);
            json_out_number(f, sc.z), fputs("]", f);
        }
        fputs("}", f);
    }
    fputs("],\n \"root_joint\": ", f);
    if (s->root >= 0 && (size_t)s->root < joints) {
        char name[256];
        json_out_string(f, rune_rig_joint_name(s->rig, (size_t)s->root, name, sizeof name));
    } else {
        fputs("null", f);
    }
    fputs(",\n \"clips\": [", f);
    size_t total = 0;
    for (size_t i = 0; i < s->clip_count; i++) {
        const rune_clip *c = s->clips[i];
        total += rune_clip_bytes(c);
        fputs(i ? ",\n  {\"id\": " : "\n  {\"id\": ", f);
        json_out_string(f, rune_clip_id(c));
        fputs(", \"duration\": ", f);
        json_out_number(f, rune_clip_length(c));
        fprintf(f, ", \"loop\": %s, \"tracks\": %zu, \"keys\": %zu, \"scale\": %s, \"bytes\": %zu",
                rune_clip_loops(c) ? "true" : "false", rune_clip_track_count(c), rune_clip_key_count(c),
                rune_clip_has_scale(c) ? "true" : "false", rune_clip_bytes(c));
        for (size_t k = 0; k < rune_clip_curve_count(c); k++) {
            fputs(k ? ", {\"name\": " : ", \"curves\": [{\"name\": ", f);
            json_out_string(f, rune_clip_curve_name(c, k));
            fprintf(f, ", \"keys\": %zu}%s", rune_clip_curve_key_count(c, k),
                    k + 1 == rune_clip_curve_count(c) ? "]" : "");
        }
        rune_clip_compression z;
        if (rune_clip_compressed(c, &z)) {
            fprintf(f, ", \"compressed\": true, \"samples\": %u, \"raw_bytes\": %zu", z.samples, z.raw_bytes);
            const char *names[] = {"sample_rate", "max_error", "precision", "shell"};
            const float values[] = {1.0f / z.dt, z.max_error, z.precision, z.shell};
            for (int k = 0; k < 4; k++) {
                fprintf(f, ", \"%s\": ", names[k]);
                json_out_number(f, values[k]);
            }
            if (rune_clip_curve_count(c)) {
                fputs(", \"curve_precision\": ", f);
                json_out_number(f, z.curve_precision);
                fputs(", \"curve_max_error\": ", f);
                json_out_number(f, z.curve_max_error);
            }
            fputc('}', f);
        } else {
            fputs(", \"compressed\": false}", f);
        }
    }
    fputs("]", f);
    print_meshes(f, s);
    fprintf(f, ",\n \"bytes\": %zu}\n", total);
}

/* A scenario: its library holds the rig and the compiled clips. */
static int info_scenario(const char *file, const char *data, size_t size, char *msg, size_t msg_size)
{
    rune_error err = {0};
    rune_scenario *scn = NULL;
    rune_library *lib = NULL;
    rune_status st = rune_scenario_load_string(data, size, file, 0, NULL, &scn, &err);
    if (!st) {
        for (size_t i = 0; i < scn->warning_count; i++)
            cli_warning("%s", scn->warnings[i]);
        if ((st = rune_scenario_library(scn, NULL, &lib, &err)))
            rune_error_prefix(&err, "%s: ", file);
    }
    if (!st) {
        const rune_clip **clips = calloc(rune_library_clip_count(lib) + 1, sizeof *clips);
        for (size_t i = 0; clips && i < rune_library_clip_count(lib); i++)
            clips[i] = rune_library_clip(lib, (uint32_t)i);
        int32_t root = !scn->root_motion ? -1 : scn->root_joint ? rune_rig_find(rune_library_rig(lib), scn->root_joint) : 0;
        summary s = {"scenario", rune_library_rig(lib), root, clips, clips ? rune_library_clip_count(lib) : 0, size,
                     NULL, 0};
        if (clips)
            print_summary(stdout, file, &s);
        else
            st = rune_fail(&err, RUNE_E_NOMEM, "out of memory");
        free(clips);
    }
    if (st)
        snprintf(msg, msg_size, "%s", err.message);
    rune_library_destroy(lib);
    rune_scenario_destroy(scn);
    return st ? cli_exit_for(st) : EXIT_OK;
}

static int info_asset(const char *file, const void *data, size_t size, char *msg, size_t msg_size)
{
    rune_error err = {0};
    rune_asset *a;
    rune_status st = rune_asset_load_memory(data, size, file, NULL, &a, &err);
    if (st) {
        snprintf(msg, msg_size, "%s", err.message);
        return cli_exit_for(st);
    }
    const rune_clip **clips = calloc(rune_asset_clip_count(a) + 1, sizeof *clips);
    for (size_t i = 0; clips && i < rune_asset_clip_count(a); i++)
        clips[i] = rune_asset_clip(a, i);
    summary s = {"rune", rune_asset_rig(a), rune_asset_root_joint(a), clips, rune_asset_clip_count(a), size, NULL, 0};
    s.meshes = rune_asset_meshes(a, &s.mesh_count);
    int rc = EXIT_OK;
    if (clips)
        print_summary(stdout, file, &s);
    else
        rc = EXIT_INTERNAL, snprintf(msg, msg_size, "%s: out of memory", file);
    free(clips);
    rune_asset_destroy(a);
    return rc;
}

/* Anything else: through the importer, compiled as `rune import` would. */
static int info_import(const char *file, size_t size, char *msg, size_t msg_size)
{
    rune_error err = {0};
    rune_import *imp;
    rune_rig *rig = NULL;
    rune_status st = rune_import_file(file, NULL, &imp, &err);
    if (st) {
        snprintf(msg, msg_size, "%s", err.message);
        return cli_exit_for(st);
    }
    for (size_t i = 0; i < imp->warning_count; i++)
        cli_warning("%s: %s", file, imp->warnings[i]);
    rune_clip **clips = calloc(imp->clip_count + 1, sizeof *clips);
    if (!clips)
        st = rune_fail(&err, RUNE_E_NOMEM, "out of memory");
    if (!st && imp->joint_count)
        st = rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, &err);
    for (size_t i = 0; !st && i < imp->clip_count; i++)
        st = rune_clip_compile(&imp->clips[i], NULL, &clips[i], &err);
    if (!st) {
        summary s = {"import", rig, imp->root_joint, (const rune_clip *const *)clips, imp->clip_count, size,
                     imp->meshes, imp->mesh_count};
        print_summary(stdout, file, &s);
    } else {
        snprintf(msg, msg_size, "%s: %s", file, err.message);
    }
    for (size_t i = 0; clips && i < imp->clip_count; i++)
        rune_clip_destroy(clips[i]);
    free(clips);
    rune_rig_destroy(rig);
    rune_import_destroy(imp);
    return st ? cli_exit_for(st) : EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(usage, stdout);
        return EXIT_OK;
    }
    const char *file;
    const cli_option options[] = {{NULL, NULL, NULL}};
    if (cli_parse_args("info", "FILE", true, argc, argv, options, &file))
        return EXIT_INPUT;
    char msg[1024];
    size_t size = 0;
    char *data = cli_read_input(file, &size, msg, sizeof msg);
    if (!data) {
        cli_error("%s", msg);
        return EXIT_IO;
    }
    const char *name = strcmp(file, "-") == 0 ? "<stdin>" : file;
    int rc;
    cli_input_kind kind = cli_input_kind_of(file, data, size);
    if (kind == CLI_INPUT_ASSET)
        rc = info_asset(name, data, size, msg, sizeof msg);
    else if (kind == CLI_INPUT_SCENARIO)
        rc = info_scenario(name, data, size, msg, sizeof msg);
    else if (strcmp(file, "-") == 0)
        rc = EXIT_INPUT, snprintf(msg, sizeof msg, "<stdin>: neither a .rune asset nor a scenario (assets the "
                                                  "importer reads are given by file name)");
    else
        rc = info_import(file, size, msg, sizeof msg);
    free(data);
    if (rc)
        cli_error("%s", msg);
    else if ((rc = cli_close_stdout(msg, sizeof msg)))
        cli_error("%s", msg);
    return rc;
}
