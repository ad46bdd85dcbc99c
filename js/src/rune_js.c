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

static void fail(const char *fmt, const char *detail)
{
    snprintf(last_error, sizeof last_error, fmt, detail ? detail : "");
}

RJS_API const char *rjs_error(void) { return last_error; }

/* ---- library ------------------------------------------------------------ */

typedef struct rjs_lib {
    rune_asset *asset; /* kept for its meshes */
    rune_library *lib;
    const rune_rig *rig;
    size_t joints;
    char (*joint_names)[NAME_BYTES];
    rune_mat4 *rest_inverse; /* per joint: the inverse of the rest pose's model matrix */
} rjs_lib;

RJS_API void rjs_lib_destroy(rjs_lib *l)
{
    if (!l)
        return;
    rune_library_destroy(l->lib);
    rune_asset_destroy(l->asset);
    free(l->joint_names);
    free(l->rest_inverse);
    free(l);
}

/* The rest pose's model matrices, inverted (rigid: transpose the
 * rotation, turn the translation back; the rest scale divided out). */
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
    for (size_t j = 0; j < l->joints; j++) {
        const float *a = m[j].m;
        float *o = l->rest_inverse[j].m;
        float s[3];
        for (int c = 0; c < 3; c++) {
            float len2 = a[4 * c] * a[4 * c] + a[4 * c + 1] * a[4 * c + 1] + a[4 * c + 2] * a[4 * c + 2];
            s[c] = len2 > 0.0f ? 1.0f / len2 : 0.0f;
        }
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                o[4 * c + r] = a[4 * r + c] * s[r];
        for (int r = 0; r < 3; r++) {
            o[12 + r] = -(o[r] * a[12] + o[4 + r] * a[13] + o[8 + r] * a[14]);
            o[4 * r + 3] = 0.0f;
        }
        o[15] = 1.0f;
    }
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

/* The local transforms a renderer's bones take: each joint's rest frame
 * times its pose (translation, rotation), its rest scale times its
 * pose's scale. */
RJS_API void rjs_char_local(rjs_char *c)
{
    const rune_pose *p = rune_character_pose(c->ch);
    const rune_rig *rig = c->lib->rig;
    for (size_t j = 0; j < c->lib->joints; j++) {
        rune_xform x = {rune_v3(p->tx[j], p->ty[j], p->tz[j]), rune_q(p->qx[j], p->qy[j], p->qz[j], p->qw[j])};
        rune_xform l = rune_xform_mul(rune_rig_frame(rig, j), x);
        rune_vec3 rs = rune_rig_frame_scale(rig, j);
        c->t[3 * j] = l.t.x, c->t[3 * j + 1] = l.t.y, c->t[3 * j + 2] = l.t.z;
        c->r[4 * j] = l.r.x, c->r[4 * j + 1] = l.r.y, c->r[4 * j + 2] = l.r.z, c->r[4 * j + 3] = l.r.w;
        c->s[3 * j] = rs.x * p->sx[j], c->s[3 * j + 1] = rs.y * p->sy[j], c->s[3 * j + 2] = rs.z * p->sz[j];
    }
}
RJS_API float *rjs_char_local_t(rjs_char *c) { return c->t; }
RJS_API float *rjs_char_local_r(rjs_char *c) { return c->r; }
RJS_API float *rjs_char_local_s(rjs_char *c) { return c->s; }

/* The last update's model matrices (computed on first use). */
static const rune_mat4 *matrices_of(rjs_char *c)
{
    const rune_mat4 *m = rune_character_model_matrices(c->ch);
    if (!m)
        fail("out of memory%s", NULL);
    return m;
}

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
