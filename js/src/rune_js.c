/* The WebAssembly face of rune_core for js/index.js: a flat C API of
 * numbers and pointers that JavaScript can call (rjs_*), over a library
 * loaded from a .rune asset and characters playing it. Each object keeps
 * the buffers JavaScript reads as zero-copy views (local transforms,
 * model positions, skinning matrices, curves, signals); they are filled
 * when asked for after an update and stay valid until the next update.
 * A failing call returns 0 / NULL and leaves its message in rjs_error(). */
#include "rune/rune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define RJS_API EMSCRIPTEN_KEEPALIVE
#else
#define RJS_API
#endif

enum { NAME_BYTES = 128, SIGNALS = 256, GRAPHS = 8 };

static char last_error[512];

/* clears the message before a call that may fail */
static void clear_error(void) { last_error[0] = 0; }

static void fail(const char *fmt, const char *detail)
{
    snprintf(last_error, sizeof last_error, fmt, detail ? detail : "");
}

RJS_API const char *rjs_error(void) { return last_error; }

/* ---- library ------------------------------------------------------------ */

/* A graph being described from JavaScript (rjs_graph_*): its parameters
 * (library parameter indexes), layers, states, transitions and their
 * conditions in flat arrays, each row pointing at its first child by
 * index until rjs_graph_end links them. */
typedef struct graph_builder {
    rune_param_desc *params;  /* per library parameter */
    const char **param_names; /* NULL: not the graph's */
    size_t param_cap;
    rune_layer_desc *layers;
    size_t layer_count, layer_cap;
    rune_state_desc *states;
    size_t state_count, state_cap;
    rune_transition_desc *transitions;
    size_t transition_count, transition_cap;
    rune_condition_desc *conditions;
    size_t condition_count, condition_cap;
    char **names; /* copies of every name given, freed at the end */
    size_t name_count, name_cap;
    bool failed;
} graph_builder;

typedef struct rjs_lib {
    graph_builder graph;
    rune_asset *asset; /* kept for its meshes */
    rune_library *lib;
    const rune_rig *rig;
    size_t joints;
    char (*joint_names)[NAME_BYTES];
    rune_mat4 *rest_inverse; /* per joint: the inverse of the rest pose's model matrix */
} rjs_lib;

static void graph_reset(graph_builder *g)
{
    for (size_t i = 0; i < g->name_count; i++)
        free(g->names[i]);
    free(g->names), free(g->params), free(g->param_names), free(g->layers), free(g->states);
    free(g->transitions), free(g->conditions);
    memset(g, 0, sizeof *g);
}

RJS_API void rjs_lib_destroy(rjs_lib *l)
{
    if (!l)
        return;
    graph_reset(&l->graph);
    rune_library_destroy(l->lib);
    rune_asset_destroy(l->asset);
    free(l->joint_names);
    free(l->rest_inverse);
    free(l);
}

/* The rest pose's model matrices, inverted. */
static bool rest_inverses(rjs_lib *l)
{
    rune_pose rest;
    if (rune_pose_init(&rest, l->joints, NULL, NULL))
        return false;
    rune_mat4 *m = malloc((l->joints + 1) * sizeof *m);
    l->rest_inverse = malloc((l->joints + 1) * sizeof *l->rest_inverse);
    if (!m || !l->rest_inverse) {
        free(m);
        rune_pose_release(&rest);
        return false;
    }
    rune_rig_model_matrices(l->rig, &rest, m);
    for (size_t j = 0; j < l->joints; j++)
        l->rest_inverse[j] = rune_mat4_affine_inverse(&m[j]);
    free(m);
    rune_pose_release(&rest);
    return true;
}

RJS_API rjs_lib *rjs_lib_load(const void *data, size_t size)
{
    rune_error err = {0};
    rjs_lib *l = calloc(1, sizeof *l);
    if (!l) {
        fail("out of memory%s", NULL);
        return NULL;
    }
    if (rune_asset_load_memory(data, size, "asset", NULL, &l->asset, &err) ||
        !rune_asset_rig(l->asset) ||
        rune_asset_library(l->asset, NULL, &l->lib, &err)) {
        fail("%s", err.message[0] ? err.message : "asset: no rig");
        rjs_lib_destroy(l);
        return NULL;
    }
    l->rig = rune_library_rig(l->lib);
    l->joints = rune_rig_joint_count(l->rig);
    l->joint_names = calloc(l->joints + 1, sizeof *l->joint_names);
    if (!l->joint_names || !rest_inverses(l)) {
        fail("out of memory%s", NULL);
        rjs_lib_destroy(l);
        return NULL;
    }
    for (size_t j = 0; j < l->joints; j++)
        rune_rig_joint_name(l->rig, j, l->joint_names[j], NAME_BYTES);
    return l;
}

RJS_API size_t rjs_lib_joint_count(const rjs_lib *l) { return l->joints; }
RJS_API const char *rjs_lib_joint_name(const rjs_lib *l, size_t j) { return j < l->joints ? l->joint_names[j] : ""; }
RJS_API int32_t rjs_lib_joint_parent(const rjs_lib *l, size_t j) { return rune_rig_parent(l->rig, j); }
RJS_API const char *rjs_lib_joint_part(const rjs_lib *l, size_t j) { return rune_rig_part(l->rig, j); }
RJS_API size_t rjs_lib_clip_count(const rjs_lib *l) { return rune_library_clip_count(l->lib); }
RJS_API const char *rjs_lib_clip_id(const rjs_lib *l, uint32_t c)
{
    const rune_clip *clip = rune_library_clip(l->lib, c);
    return clip ? rune_clip_describe(clip).id : "";
}
RJS_API float rjs_lib_clip_length(const rjs_lib *l, uint32_t c)
{
    const rune_clip *clip = rune_library_clip(l->lib, c);
    return clip ? rune_clip_describe(clip).length : 0.0f;
}
RJS_API size_t rjs_lib_graph_count(const rjs_lib *l) { return rune_library_graph_count(l->lib); }
RJS_API const char *rjs_lib_graph_id(const rjs_lib *l, uint32_t g) { return rune_library_graph_id(l->lib, g); }
RJS_API size_t rjs_lib_curve_count(const rjs_lib *l) { return rune_rig_curve_count(l->rig); }
RJS_API const char *rjs_lib_curve_name(const rjs_lib *l, size_t c) { return rune_rig_curve_name(l->rig, c); }
RJS_API float rjs_lib_rig_height(const rjs_lib *l) { return rune_rig_height(l->rig); }
RJS_API int32_t rjs_lib_root_joint(const rjs_lib *l) { return rune_asset_root_joint(l->asset); }

/* ---- graphs described from JavaScript ------------------------------------ */

/* Grows *items (of `size` bytes) to hold one more; false when out of memory. */
static bool grow(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return true;
    size_t n = *cap ? 2 * *cap : 8;
    void *p = realloc(*items, n * size);
    if (!p)
        return false;
    *items = p, *cap = n;
    return true;
}

static const char *keep_name(graph_builder *g, const char *name)
{
    char *copy = name ? malloc(strlen(name) + 1) : NULL;
    if (!copy || !grow((void **)&g->names, &g->name_cap, g->name_count, sizeof *g->names)) {
        free(copy);
        g->failed = true;
        return NULL;
    }
    strcpy(copy, name);
    return g->names[g->name_count++] = copy;
}

RJS_API void rjs_graph_begin(rjs_lib *l)
{
    clear_error();
    graph_reset(&l->graph);
}

/* A parameter of the graph (found or added in the library's table by
 * name); its index, or -1. */
RJS_API int32_t rjs_graph_param(rjs_lib *l, const char *name, int type, float initial)
{
    graph_builder *g = &l->graph;
    uint32_t p;
    rune_error err = {0};
    if (rune_library_find_param(l->lib, name, &p, NULL) && rune_library_add_param(l->lib, name, &p, &err)) {
        fail("%s", err.message);
        g->failed = true;
        return -1;
    }
    size_t need = rune_library_param_count(l->lib);
    if (need > g->param_cap) {
        rune_param_desc *pd = realloc(g->params, need * sizeof *pd);
        const char **pn = pd ? realloc(g->param_names, need * sizeof *pn) : NULL;
        if (pd)
            g->params = pd;
        if (!pd || !pn) {
            fail("out of memory%s", NULL);
            g->failed = true;
            return -1;
        }
        g->param_names = pn;
        for (size_t i = g->param_cap; i < need; i++)
            g->params[i] = (rune_param_desc){RUNE_PARAM_FLOAT, 0.0f}, g->param_names[i] = NULL;
        g->param_cap = need;
    }
    g->params[p] = (rune_param_desc){(rune_param_type)type, initial};
    g->param_names[p] = rune_library_param_name(l->lib, p);
    return (int32_t)p;
}

RJS_API int rjs_graph_layer(rjs_lib *l, const char *name, int additive, float weight, uint32_t initial)
{
    graph_builder *g = &l->graph;
    if (!grow((void **)&g->layers, &g->layer_cap, g->layer_count, sizeof *g->layers)) {
        g->failed = true;
        return 0;
    }
    /* states and transitions hold the index of the layer's first until the end */
    g->layers[g->layer_count++] = (rune_layer_desc){
        .blend = additive ? RUNE_LAYER_ADDITIVE : RUNE_LAYER_OVERRIDE, .weight = weight,
        .states = (const rune_state_desc *)(uintptr_t)g->state_count, .initial_state = initial,
        .transitions = (const rune_transition_desc *)(uintptr_t)g->transition_count, .name = keep_name(g, name)};
    return 1;
}

RJS_API int rjs_graph_state(rjs_lib *l, const char *name, uint32_t clip, float speed, int32_t sync_group)
{
    graph_builder *g = &l->graph;
    const rune_motion *m = rune_library_clip_motion(l->lib, clip);
    if (!g->layer_count || !m || !grow((void **)&g->states, &g->state_cap, g->state_count, sizeof *g->states)) {
        fail("graph: a state needs a layer and a clip%s", NULL);
        g->failed = true;
        return 0;
    }
    g->states[g->state_count++] = (rune_state_desc){m, speed, sync_group, keep_name(g, name)};
    g->layers[g->layer_count - 1].state_count++;
    return 1;
}

RJS_API int rjs_graph_transition(rjs_lib *l, int32_t from, uint32_t to, float duration, int blend, int has_exit,
                                 float exit_time, int interruptible)
{
    graph_builder *g = &l->graph;
    if (!g->layer_count ||
        !grow((void **)&g->transitions, &g->transition_cap, g->transition_count, sizeof *g->transitions)) {
        g->failed = true;
        return 0;
    }
    g->transitions[g->transition_count++] = (rune_transition_desc){
        .from = from, .to = to, .duration = duration, .has_exit_time = has_exit != 0, .exit_time = exit_time,
        .interruptible = interruptible != 0, .conditions = (const rune_condition_desc *)(uintptr_t)g->condition_count,
        .blend = blend ? RUNE_BLEND_INERTIALIZE : RUNE_BLEND_CROSSFADE};
    g->layers[g->layer_count - 1].transition_count++;
    return 1;
}

RJS_API int rjs_graph_condition(rjs_lib *l, uint32_t param, int op, float value)
{
    graph_builder *g = &l->graph;
    if (!g->transition_count ||
        !grow((void **)&g->conditions, &g->condition_cap, g->condition_count, sizeof *g->conditions)) {
        g->failed = true;
        return 0;
    }
    g->conditions[g->condition_count++] = (rune_condition_desc){param, (rune_cond_op)op, value};
    g->transitions[g->transition_count - 1].condition_count++;
    return 1;
}

/* Adds the graph described since rjs_graph_begin; its index, or -1 (the
 * library's message: a state, transition or parameter out of range). */
RJS_API int32_t rjs_graph_end(rjs_lib *l, const char *id)
{
    graph_builder *g = &l->graph;
    int32_t index = -1;
    if (g->failed) {
        if (!last_error[0])
            fail("out of memory%s", NULL);
    } else {
        for (size_t i = 0; i < g->layer_count; i++) { /* indexes to pointers */
            rune_layer_desc *L = &g->layers[i];
            L->states = g->states + (uintptr_t)L->states;
            L->transitions = g->transitions + (uintptr_t)L->transitions;
        }
        for (size_t i = 0; i < g->transition_count; i++)
            g->transitions[i].conditions = g->conditions + (uintptr_t)g->transitions[i].conditions;
        rune_graph_desc d = {g->params, rune_library_param_count(l->lib), g->layers, g->layer_count, g->param_names};
        if (g->param_cap < d.param_count) /* parameters added after the graph's: not its own */
            d.param_count = g->param_cap;
        uint32_t at;
        rune_error err = {0};
        if (rune_library_add_graph(l->lib, id, RUNE_PRIORITY_MOVEMENT, &d, &at, &err))
            fail("%s", err.message);
        else
            index = (int32_t)at;
    }
    graph_reset(g);
    return index;
}

/* ---- character ---------------------------------------------------------- */

typedef struct rjs_signal {
    int32_t kind;
    uint32_t source;
    const char *name, *value;
    float time;
} rjs_signal;

typedef struct rjs_char {
    rune_character *ch;
    const rjs_lib *lib;
    float *t, *r, *s;   /* local transforms: 3, 4 and 3 floats a joint */
    float *positions;   /* model positions: 3 a joint */
    rune_mat4 *skin;    /* model matrix times the rest pose's inverse */
    float root[3];
    rjs_signal signals[SIGNALS];
    size_t signal_count;
    uint32_t graphs[GRAPHS]; /* handles of the graph instances started */
    size_t graph_count;
} rjs_char;

RJS_API void rjs_char_destroy(rjs_char *c)
{
    if (!c)
        return;
    rune_character_destroy(c->ch);
    free(c->t), free(c->r), free(c->s), free(c->positions), free(c->skin);
    free(c);
}

RJS_API rjs_char *rjs_char_create(const rjs_lib *l, int root_motion)
{
    rjs_char *c = calloc(1, sizeof *c);
    size_t n = l->joints + 1;
    if (!c || !(c->t = malloc(3 * n * sizeof(float))) || !(c->r = malloc(4 * n * sizeof(float))) ||
        !(c->s = malloc(3 * n * sizeof(float))) || !(c->positions = malloc(3 * n * sizeof(float))) ||
        !(c->skin = malloc(n * sizeof *c->skin))) {
        fail("out of memory%s", NULL);
        rjs_char_destroy(c);
        return NULL;
    }
    c->lib = l;
    int32_t root = root_motion ? rune_asset_root_joint(l->asset) : RUNE_NO_ROOT;
    if (root_motion && root < 0)
        root = 0;
    rune_character_desc d = {.lib = l->lib, .root_joint = root, .matrices = false};
    rune_error err = {0};
    if (rune_character_create(&d, NULL, &c->ch, &err)) {
        fail("%s", err.message);
        rjs_char_destroy(c);
        return NULL;
    }
    return c;
}

static rune_play_params play_params(float fade, float time, float weight, float speed, int blend)
{
    rune_play_params p = rune_play_defaults();
    p.fade = fade, p.time = time, p.weight = weight, p.speed = speed;
    p.blend = blend ? RUNE_BLEND_INERTIALIZE : RUNE_BLEND_CROSSFADE;
    return p;
}

/* A clip by index: its play's handle, or 0. */
RJS_API uint32_t rjs_char_play(rjs_char *c, uint32_t clip, float fade, float time, float weight, float speed,
                               int blend)
{
    rune_play_params p = play_params(fade, time, weight, speed, blend);
    uint32_t h = 0;
    rune_error err = {0};
    if (rune_character_play_clip(c->ch, clip, &p, &h, &err)) {
        fail("%s", err.message);
        return 0;
    }
    return h;
}

RJS_API int rjs_char_stop(rjs_char *c, uint32_t handle, float fade, int blend)
{
    if (!rune_character_stop(c->ch, handle, blend ? 0.0f : fade))
        return 0;
    return blend ? rune_character_inertialize(c->ch, fade) : 1;
}

RJS_API uint32_t rjs_char_start_graph(rjs_char *c, uint32_t graph, float fade, float weight)
{
    if (c->graph_count == GRAPHS) {
        fail("a character runs at most 8 graphs%s", NULL);
        return 0;
    }
    rune_play_params p = play_params(fade, 0.0f, weight, 1.0f, 0);
    uint32_t h = 0;
    rune_error err = {0};
    if (rune_character_start_graph(c->ch, graph, &p, &h, &err)) {
        fail("%s", err.message);
        return 0;
    }
    c->graphs[c->graph_count++] = h;
    return h;
}

/* A parameter by name on every live graph that has it (trigger: set it);
 * how many took it. */
RJS_API int rjs_char_set_param(rjs_char *c, const char *name, float value, int trigger)
{
    int took = 0;
    for (size_t i = 0; i < c->graph_count; i++) {
        rune_source_view v;
        uint32_t param;
        if (!rune_character_source(c->ch, c->graphs[i], &v) || !v.instance ||
            rune_graph_find_param(rune_graph_instance_graph(v.instance), name, &param, NULL))
            continue;
        took += trigger ? rune_character_trigger(c->ch, c->graphs[i], param)
                        : rune_character_set_param(c->ch, c->graphs[i], param, value);
    }
    if (!took)
        fail("no live graph has a parameter \"%s\"", name);
    return took;
}

static void keep_signal(void *user, const rune_event *e)
{
    rjs_char *c = user;
    if (c->signal_count < SIGNALS)
        c->signals[c->signal_count++] = (rjs_signal){(int32_t)e->kind, e->source, e->name ? e->name : "",
                                                     e->value ? e->value : "", e->time};
}

RJS_API int rjs_char_update(rjs_char *c, float dt)
{
    rune_error err = {0};
    if (!isfinite(dt) || dt < 0.0f) {
        fail("update: dt must be finite and >= 0%s", NULL);
        return 0;
    }
    if (rune_character_update(c->ch, dt, &err)) {
        fail("%s", err.message);
        return 0;
    }
    c->signal_count = 0;
    rune_character_deliver(c->ch, keep_signal, c);
    rune_root_delta d = rune_character_root_delta(c->ch);
    c->root[0] = d.dx, c->root[1] = d.dz, c->root[2] = d.yaw;
    return 1;
}

/* Updates many characters in one call (the caller's thread). */
RJS_API int rjs_update_all(rjs_char **chars, size_t count, float dt)
{
    for (size_t i = 0; i < count; i++)
        if (!rjs_char_update(chars[i], dt))
            return 0;
    return 1;
}

/* The last update's model matrices (computed on first use). */
static const rune_mat4 *matrices_of(rjs_char *c)
{
    const rune_mat4 *m = rune_character_model_matrices(c->ch);
    if (!m)
        fail("out of memory%s", NULL);
    return m;
}

/* Translation, rotation and scale of an affine matrix (columns' lengths
 * as the scale; a mirror flips the first). */
static void decompose(const rune_mat4 *a, float t[3], float q[4], float s[3])
{
    const float *m = a->m;
    float c[3][3];
    for (int k = 0; k < 3; k++) {
        s[k] = sqrtf(m[4 * k] * m[4 * k] + m[4 * k + 1] * m[4 * k + 1] + m[4 * k + 2] * m[4 * k + 2]);
        for (int e = 0; e < 3; e++)
            c[k][e] = s[k] > 0.0f ? m[4 * k + e] / s[k] : (k == e ? 1.0f : 0.0f);
    }
    float det = c[0][0] * (c[1][1] * c[2][2] - c[2][1] * c[1][2]) - c[1][0] * (c[0][1] * c[2][2] - c[2][1] * c[0][2]) +
                c[2][0] * (c[0][1] * c[1][2] - c[1][1] * c[0][2]);
    if (det < 0.0f) {
        s[0] = -s[0];
        for (int e = 0; e < 3; e++)
            c[0][e] = -c[0][e];
    }
    /* the rotation matrix (column k = c[k]) to a quaternion */
    float tr = c[0][0] + c[1][1] + c[2][2];
    if (tr > 0.0f) {
        float w = sqrtf(1.0f + tr) * 2.0f;
        q[3] = 0.25f * w, q[0] = (c[1][2] - c[2][1]) / w, q[1] = (c[2][0] - c[0][2]) / w, q[2] = (c[0][1] - c[1][0]) / w;
    } else if (c[0][0] > c[1][1] && c[0][0] > c[2][2]) {
        float w = sqrtf(1.0f + c[0][0] - c[1][1] - c[2][2]) * 2.0f;
        q[3] = (c[1][2] - c[2][1]) / w, q[0] = 0.25f * w, q[1] = (c[1][0] + c[0][1]) / w, q[2] = (c[2][0] + c[0][2]) / w;
    } else if (c[1][1] > c[2][2]) {
        float w = sqrtf(1.0f + c[1][1] - c[0][0] - c[2][2]) * 2.0f;
        q[3] = (c[2][0] - c[0][2]) / w, q[0] = (c[1][0] + c[0][1]) / w, q[1] = 0.25f * w, q[2] = (c[2][1] + c[1][2]) / w;
    } else {
        float w = sqrtf(1.0f + c[2][2] - c[0][0] - c[1][1]) * 2.0f;
        q[3] = (c[0][1] - c[1][0]) / w, q[0] = (c[2][0] + c[0][2]) / w, q[1] = (c[2][1] + c[1][2]) / w, q[2] = 0.25f * w;
    }
    t[0] = m[12], t[1] = m[13], t[2] = m[14];
}

/* The local transforms a renderer's bones take: each joint's model matrix
 * relative to its parent's (a root's: in model space), as translation,
 * rotation and scale -- what reproduces rune's model matrices down any
 * hierarchy of plain transforms. */
RJS_API int rjs_char_local(rjs_char *c)
{
    const rune_rig *rig = c->lib->rig;
    const rune_pose *pose = rune_character_pose(c->ch);
    if (!rune_rig_scaled(rig) && !pose->scaled) {
        /* no scale anywhere: the model matrices compose rest frame times
         * pose down the tree, so that product is the local transform */
        for (size_t j = 0; j < c->lib->joints; j++) {
            rune_xform x = {rune_v3(pose->tx[j], pose->ty[j], pose->tz[j]),
                            rune_q(pose->qx[j], pose->qy[j], pose->qz[j], pose->qw[j])};
            rune_xform l = rune_xform_mul(rune_rig_frame(rig, j), x);
            c->t[3 * j] = l.t.x, c->t[3 * j + 1] = l.t.y, c->t[3 * j + 2] = l.t.z;
            c->r[4 * j] = l.r.x, c->r[4 * j + 1] = l.r.y, c->r[4 * j + 2] = l.r.z, c->r[4 * j + 3] = l.r.w;
            c->s[3 * j] = c->s[3 * j + 1] = c->s[3 * j + 2] = 1.0f;
        }
        return 1;
    }
    const rune_mat4 *m = matrices_of(c);
    if (!m)
        return 0;
    for (size_t j = 0; j < c->lib->joints; j++) {
        int32_t p = rune_rig_parent(c->lib->rig, j);
        rune_mat4 local = m[j];
        if (p >= 0) {
            rune_mat4 up = rune_mat4_affine_inverse(&m[p]);
            local = rune_mat4_mul(&up, &m[j]);
        }
        decompose(&local, &c->t[3 * j], &c->r[4 * j], &c->s[3 * j]);
    }
    return 1;
}
RJS_API float *rjs_char_local_t(rjs_char *c) { return c->t; }
RJS_API float *rjs_char_local_r(rjs_char *c) { return c->r; }
RJS_API float *rjs_char_local_s(rjs_char *c) { return c->s; }

RJS_API float *rjs_char_positions(rjs_char *c)
{
    const rune_mat4 *m = matrices_of(c);
    if (!m)
        return NULL;
    for (size_t j = 0; j < c->lib->joints; j++)
        c->positions[3 * j] = m[j].m[12], c->positions[3 * j + 1] = m[j].m[13], c->positions[3 * j + 2] = m[j].m[14];
    return c->positions;
}

RJS_API float *rjs_char_skinning(rjs_char *c)
{
    const rune_mat4 *m = matrices_of(c);
    if (!m)
        return NULL;
    for (size_t j = 0; j < c->lib->joints; j++)
        c->skin[j] = rune_mat4_mul(&m[j], &c->lib->rest_inverse[j]);
    return c->skin[0].m;
}

RJS_API float *rjs_char_root(rjs_char *c) { return c->root; }

RJS_API size_t rjs_char_curve_count(const rjs_char *c) { return rune_character_curves(c->ch, NULL, NULL); }
RJS_API const float *rjs_char_curve_values(rjs_char *c)
{
    const float *v = NULL;
    rune_character_curves(c->ch, &v, NULL);
    return v;
}

RJS_API size_t rjs_char_signal_count(const rjs_char *c) { return c->signal_count; }
RJS_API const rjs_signal *rjs_char_signals(const rjs_char *c) { return c->signals; }
