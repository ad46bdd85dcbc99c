/* rune eval's meshes (eval_meshes.h): the meshes come from the asset or
 * import the scenario's rig came from; each frame the pose's model
 * matrices make each mesh's palette, the character's curves its morph
 * weights (a morph target's curve is named MESH/TARGET), and rune_skin_run
 * the vertices. */
#include "eval_meshes.h"
#include "cli.h"
#include "json_out.h"
#include "rune/asset.h"
#include "rune/import.h"
#include "rune/character.h"
#include "scenario/scenario_internal.h"

#include <stdlib.h>
#include <string.h>

struct eval_meshes {
    rune_asset *asset; /* what owns the meshes: an asset, an import, or the scenario's asset */
    rune_import *imp;
    const rune_mesh *meshes;
    size_t count, every, joints;
    rune_skin_method method;
    bool previous, have_previous;
    rune_mat4 *model, *prev_model, *palette;
    rune_skin_dq *dqs;
    float *weights, *positions, *out;
    int32_t *morph_curve; /* per mesh and morph: the rig's curve, or -1 */
    size_t *morph_first;  /* per mesh: its first entry in morph_curve */
    size_t max_vertices, max_binds, max_morphs;
};

const rune_mesh *eval_meshes_list(const eval_meshes *m, size_t *count)
{
    *count = m->count;
    return m->meshes;
}

void eval_meshes_close(eval_meshes *m)
{
    if (!m)
        return;
    rune_asset_destroy(m->asset);
    rune_import_destroy(m->imp);
    free(m->model), free(m->prev_model), free(m->palette), free(m->dqs), free(m->weights), free(m->positions);
    free(m->out), free(m->morph_curve), free(m->morph_first);
    free(m);
}

/* Where the meshes are: a .rune's own, an importable file's, or the asset
 * the scenario took its rig from. */
static bool find_meshes(eval_meshes *m, const char *file, const rune_scenario *s, char *msg, size_t msg_size, int *rc)
{
    size_t size;
    char *data = strcmp(file, "-") ? cli_read_input(file, &size, msg, msg_size) : NULL;
    cli_input_kind kind = data ? cli_input_kind_of(file, data, size) : CLI_INPUT_SCENARIO;
    free(data);
    rune_error err = {0};
    rune_status st = RUNE_OK;
    if (kind == CLI_INPUT_ASSET) {
        if (!(st = rune_asset_load_file(file, NULL, &m->asset, &err)))
            m->meshes = rune_asset_meshes(m->asset, &m->count);
    } else if (kind == CLI_INPUT_IMPORTABLE) {
        if (!(st = rune_import_file(file, NULL, &m->imp, &err)))
            m->meshes = m->imp->meshes, m->count = m->imp->mesh_count;
    } else {
        const scenario_box *box = (const scenario_box *)s;
        if (box->rig_asset)
            m->meshes = rune_asset_meshes(box->rig_asset, &m->count);
    }
    if (st) {
        snprintf(msg, msg_size, "%s", err.message);
        *rc = cli_exit_for(st);
        return false;
    }
    if (!m->count) {
        snprintf(msg, msg_size, "%s: --vertices: no mesh to skin (a .rune, an importable file, or a scenario whose "
                                "\"assets\" give the rig, with skinned meshes)", file);
        *rc = EXIT_INPUT;
        return false;
    }
    return true;
}

eval_meshes *eval_meshes_open(const char *file, const rune_scenario *s, size_t every, rune_skin_method method,
                              bool previous, char *msg, size_t msg_size, int *rc)
{
    eval_meshes *m = calloc(1, sizeof *m);
    if (!m || !find_meshes(m, file, s, msg, msg_size, rc)) {
        if (!m)
            snprintf(msg, msg_size, "out of memory"), *rc = EXIT_INTERNAL;
        eval_meshes_close(m);
        return NULL;
    }
    m->every = every, m->method = method, m->previous = previous;
    m->joints = s->joint_count;
    size_t morphs = 0;
    for (size_t i = 0; i < m->count; i++) {
        const rune_mesh *x = &m->meshes[i];
        m->max_vertices = x->vertex_count > m->max_vertices ? x->vertex_count : m->max_vertices;
        m->max_binds = x->bind_count > m->max_binds ? x->bind_count : m->max_binds;
        m->max_morphs = x->morph_count > m->max_morphs ? x->morph_count : m->max_morphs;
        morphs += x->morph_count;
        for (size_t b = 0; b < x->bind_count; b++)
            if ((size_t)x->bind_joints[b] >= m->joints) {
                snprintf(msg, msg_size, "%s: mesh \"%s\" binds joint %d; the rig evaluated has %zu", file, x->name,
                         (int)x->bind_joints[b], m->joints);
                *rc = EXIT_INPUT;
                eval_meshes_close(m);
                return NULL;
            }
    }
    size_t n = m->max_vertices ? m->max_vertices : 1;
    m->model = calloc(m->joints + 1, sizeof *m->model), m->prev_model = calloc(m->joints + 1, sizeof *m->prev_model);
    m->palette = calloc(m->max_binds + 1, sizeof *m->palette), m->dqs = calloc(m->max_binds + 1, sizeof *m->dqs);
    m->weights = calloc(m->max_morphs + 1, sizeof *m->weights);
    m->positions = calloc(3 * n, sizeof *m->positions), m->out = calloc(3 * n, sizeof *m->out);
    m->morph_curve = calloc(morphs + 1, sizeof *m->morph_curve);
    m->morph_first = calloc(m->count + 1, sizeof *m->morph_first);
    if (!m->model || !m->prev_model || !m->palette || !m->dqs || !m->weights || !m->positions || !m->out ||
        !m->morph_curve || !m->morph_first) {
        snprintf(msg, msg_size, "out of memory"), *rc = EXIT_INTERNAL;
        eval_meshes_close(m);
        return NULL;
    }
    return m;
}

/* The morph curves' indexes in the rig evaluated (once, on the first frame). */
static void map_morphs(eval_meshes *m, const rune_rig *rig)
{
    size_t at = 0;
    for (size_t i = 0; i < m->count; i++) {
        m->morph_first[i] = at;
        for (size_t k = 0; k < m->meshes[i].morph_count; k++)
            m->morph_curve[at++] = rune_rig_find_curve(rig, m->meshes[i].morphs[k].name);
    }
}

/* Mesh i skinned with `model`; its every-th vertex written as a JSON array. */
static bool skin_one(eval_meshes *m, size_t i, const rune_mat4 *model, const float *curves, FILE *f)
{
    const rune_mesh *x = &m->meshes[i];
    for (size_t k = 0; k < x->morph_count; k++) {
        int32_t c = m->morph_curve[m->morph_first[i] + k];
        m->weights[k] = c >= 0 && curves ? curves[c] : 0.0f;
    }
    rune_mesh_morph_apply(x, m->weights, m->positions, NULL);
    rune_mesh_skinning_matrices(x, model, m->palette);
    bool stretch = m->method == RUNE_SKIN_DUAL_QUATERNION && rune_skin_dual_quaternions(m->palette, x->bind_count, m->dqs);
    rune_skin_job job = {0};
    job.method = m->method, job.vertex_count = x->vertex_count, job.influences = x->influences;
    job.joints = x->joints, job.weights = x->weights, job.matrices = m->palette, job.dual_quaternions = m->dqs;
    job.palette_count = x->bind_count, job.stretch = stretch;
    job.positions = m->positions, job.out_positions = m->out;
    if (rune_skin_run(&job, NULL))
        return false;
    fputc('[', f);
    for (size_t v = 0; v < x->vertex_count; v += m->every) {
        fputs(v ? ", [" : "[", f);
        json_out_number(f, m->out[3 * v]), fputs(", ", f), json_out_number(f, m->out[3 * v + 1]), fputs(", ", f);
        json_out_number(f, m->out[3 * v + 2]);
        fputc(']', f);
    }
    fputc(']', f);
    return true;
}

static bool write_meshes(eval_meshes *m, const char *key, const rune_mat4 *model, const float *curves, FILE *f)
{
    fprintf(f, ",\n   \"%s\": {", key);
    for (size_t i = 0; i < m->count; i++) {
        fputs(i ? ", " : "", f);
        json_out_string(f, m->meshes[i].name);
        fputs(": ", f);
        if (!skin_one(m, i, model, curves, f))
            return false;
    }
    fputc('}', f);
    return true;
}

bool eval_meshes_frame(eval_meshes *m, const rune_frame_report *r, FILE *f)
{
    if (!m->have_previous)
        map_morphs(m, r->rig);
    rune_rig_model_matrices(r->rig, r->pose, m->model);
    const float *curves = NULL;
    if (r->character)
        rune_character_curves(r->character, &curves, NULL);
    bool fine = !f || write_meshes(m, "meshes", m->model, curves, f);
    /* the previous frame's matrices (the first frame's are its own); its
     * morphs are this frame's: motion vectors follow the skeleton */
    if (f && fine && m->previous)
        fine = write_meshes(m, "previous", m->have_previous ? m->prev_model : m->model, curves, f);
    memcpy(m->prev_model, m->model, m->joints * sizeof *m->model);
    m->have_previous = true;
    return fine;
}
