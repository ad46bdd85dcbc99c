/* glTF 2.0 export (export_source.h): the rig as nodes (rest TRS), each
 * mesh as a skinned mesh at the scene's root (its vertices in the rig's
 * model space, which is the scene's: no wrapper node), each clip as an
 * animation of LINEAR channels, morph target weights from the curves that
 * name them (MESH/TARGET), markers in the animation's extras. One binary
 * buffer: a .glb's BIN chunk, or a .gltf's data URI. */
#include "export_source.h"
#include "cli.h"
#include "rig/rig_internal.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The buffer being filled, and the JSON's accessor and view lists. */
typedef struct writer {
    unsigned char *bin;
    size_t size, cap;
    json_t *accessors, *views;
    bool nomem;
} writer;

static size_t put_bytes(writer *w, const void *p, size_t n)
{
    size_t at = (w->size + 3) & ~(size_t)3; /* every accessor 4-byte aligned */
    if (at + n > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < at + n)
            cap *= 2;
        unsigned char *grown = realloc(w->bin, cap);
        if (!grown) {
            w->nomem = true;
            return 0;
        }
        w->bin = grown, w->cap = cap;
    }
    memset(w->bin + w->size, 0, at - w->size);
    memcpy(w->bin + at, p, n);
    w->size = at + n;
    return at;
}

enum { FLOAT = 5126, UINT = 5125, USHORT = 5123, ARRAY = 34962, ELEMENTS = 34963 };

/* An accessor of `count` elements of `type` ("VEC3", ...: `comps`
 * components of `ctype`) over bytes p; min/max for float data when asked
 * (glTF wants them on positions and animation inputs). Its index. */
static size_t accessor(writer *w, const void *p, size_t count, const char *type, int comps, int ctype, int target,
                       bool bounds)
{
    size_t esize = ctype == FLOAT || ctype == UINT ? 4 : 2, bytes = count * (size_t)comps * esize;
    size_t at = put_bytes(w, p, bytes);
    json_t *view = json_pack("{s:i, s:I, s:I}", "buffer", 0, "byteOffset", (json_int_t)at, "byteLength",
                             (json_int_t)bytes);
    if (view && target)
        json_object_set_new(view, "target", json_integer(target));
    json_array_append_new(w->views, view);
    json_t *a = json_pack("{s:I, s:i, s:I, s:s}", "bufferView", (json_int_t)(json_array_size(w->views) - 1),
                          "componentType", ctype, "count", (json_int_t)count, "type", type);
    if (a && bounds && ctype == FLOAT && count) {
        json_t *lo = json_array(), *hi = json_array();
        const float *f = p;
        for (int c = 0; c < comps; c++) {
            float mn = INFINITY, mx = -INFINITY;
            for (size_t i = 0; i < count; i++)
                mn = fminf(mn, f[i * (size_t)comps + (size_t)c]), mx = fmaxf(mx, f[i * (size_t)comps + (size_t)c]);
            json_array_append_new(lo, json_real(mn)), json_array_append_new(hi, json_real(mx));
        }
        json_object_set_new(a, "min", lo), json_object_set_new(a, "max", hi);
    }
    json_array_append_new(w->accessors, a);
    return json_array_size(w->accessors) - 1;
}

static json_t *trs(const rune_rig *rig, size_t j)
{
    rune_xform f = rune_rig_frame(rig, j);
    rune_vec3 s = rune_rig_frame_scale(rig, j);
    json_t *o = json_object();
    json_object_set_new(o, "translation", json_pack("[f,f,f]", f.t.x, f.t.y, f.t.z));
    json_object_set_new(o, "rotation", json_pack("[f,f,f,f]", f.r.x, f.r.y, f.r.z, f.r.w));
    if (s.x != 1.0f || s.y != 1.0f || s.z != 1.0f)
        json_object_set_new(o, "scale", json_pack("[f,f,f]", s.x, s.y, s.z));
    return o;
}

/* The joints as nodes 0..n-1 (node j is joint j); the roots' list. */
static json_t *add_nodes(const export_source *src, json_t *nodes)
{
    size_t n = rune_rig_joint_count(src->rig);
    json_t *roots = json_array();
    for (size_t j = 0; j < n; j++) {
        json_t *node = trs(src->rig, j);
        json_object_set_new(node, "name", json_string(src->names[j]));
        json_array_append_new(nodes, node);
    }
    for (size_t j = 0; j < n; j++) {
        int32_t p = rune_rig_parent(src->rig, j);
        if (p < 0) {
            json_array_append_new(roots, json_integer((json_int_t)j));
            continue;
        }
        json_t *parent = json_array_get(nodes, (size_t)p), *children = json_object_get(parent, "children");
        if (!children)
            json_object_set_new(parent, "children", children = json_array());
        json_array_append_new(children, json_integer((json_int_t)j));
    }
    return roots;
}

/* Influences 4 at a time (JOINTS_0/WEIGHTS_0, then _1): mesh m's
 * influences [4 * set, 4 * set + 4), zero-weighted past its count. */
static void add_influences(writer *w, const rune_mesh *m, json_t *attributes)
{
    size_t n = m->vertex_count, k = m->influences;
    uint16_t *joints = calloc(4 * n + 1, sizeof *joints);
    float *weights = calloc(4 * n + 1, sizeof *weights);
    for (size_t set = 0; joints && weights && set * 4 < k; set++) {
        for (size_t v = 0; v < n; v++)
            for (size_t i = 0; i < 4; i++) {
                size_t from = set * 4 + i;
                joints[4 * v + i] = from < k ? m->joints[v * k + from] : 0;
                weights[4 * v + i] = from < k ? m->weights[v * k + from] : 0.0f;
            }
        char jn[16], wn[16];
        snprintf(jn, sizeof jn, "JOINTS_%zu", set), snprintf(wn, sizeof wn, "WEIGHTS_%zu", set);
        json_object_set_new(attributes, jn, json_integer((json_int_t)accessor(w, joints, n, "VEC4", 4, USHORT, ARRAY,
                                                                               false)));
        json_object_set_new(attributes, wn, json_integer((json_int_t)accessor(w, weights, n, "VEC4", 4, FLOAT, ARRAY,
                                                                               false)));
    }
    w->nomem |= !joints || !weights;
    free(joints), free(weights);
}

/* Mesh i as a glTF mesh, skin and node (appended; its node index). */
static size_t add_mesh(writer *w, const export_source *src, size_t i, json_t *meshes, json_t *skins, json_t *nodes)
{
    const rune_mesh *m = &src->meshes[i];
    size_t n = m->vertex_count;
    json_t *attributes = json_object(), *prim = json_object();
    json_object_set_new(attributes, "POSITION",
                        json_integer((json_int_t)accessor(w, m->positions, n, "VEC3", 3, FLOAT, ARRAY, true)));
    if (m->normals)
        json_object_set_new(attributes, "NORMAL",
                            json_integer((json_int_t)accessor(w, m->normals, n, "VEC3", 3, FLOAT, ARRAY, false)));
    if (m->tangents)
        json_object_set_new(attributes, "TANGENT",
                            json_integer((json_int_t)accessor(w, m->tangents, n, "VEC4", 4, FLOAT, ARRAY, false)));
    add_influences(w, m, attributes);
    json_object_set_new(prim, "attributes", attributes);
    json_object_set_new(prim, "indices", json_integer((json_int_t)accessor(w, m->indices, 3 * m->triangle_count,
                                                                            "SCALAR", 1, UINT, ELEMENTS, false)));
    json_t *mesh = json_pack("{s:s}", "name", m->name);
    if (m->morph_count) {
        json_t *targets = json_array(), *names = json_array(), *zeros = json_array();
        for (size_t t = 0; t < m->morph_count; t++) {
            json_t *target = json_object();
            json_object_set_new(target, "POSITION", json_integer((json_int_t)accessor(
                                                        w, m->morphs[t].positions, n, "VEC3", 3, FLOAT, ARRAY, true)));
            if (m->morphs[t].normals)
                json_object_set_new(target, "NORMAL", json_integer((json_int_t)accessor(
                                                          w, m->morphs[t].normals, n, "VEC3", 3, FLOAT, ARRAY, false)));
            json_array_append_new(targets, target);
            /* the curve is MESH/TARGET: the target's name is what follows the mesh's */
            const char *slash = strrchr(m->morphs[t].name, '/');
            json_array_append_new(names, json_string(slash ? slash + 1 : m->morphs[t].name));
            json_array_append_new(zeros, json_real(0.0));
        }
        json_object_set_new(prim, "targets", targets);
        json_object_set_new(mesh, "weights", zeros);
        json_object_set_new(mesh, "extras", json_pack("{s:o}", "targetNames", names));
    }
    json_object_set_new(mesh, "primitives", json_pack("[o]", prim));
    json_array_append_new(meshes, mesh);
    json_t *joints = json_array();
    for (size_t b = 0; b < m->bind_count; b++)
        json_array_append_new(joints, json_integer(m->bind_joints[b]));
    size_t ibm = accessor(w, m->inverse_binds, m->bind_count, "MAT4", 16, FLOAT, 0, false);
    json_array_append_new(skins, json_pack("{s:o, s:I}", "joints", joints, "inverseBindMatrices", (json_int_t)ibm));
    json_array_append_new(nodes, json_pack("{s:s, s:I, s:I}", "name", m->name, "mesh",
                                           (json_int_t)(json_array_size(meshes) - 1), "skin",
                                           (json_int_t)(json_array_size(skins) - 1)));
    return json_array_size(nodes) - 1;
}

static void add_channel(json_t *anim, size_t sampler, size_t node, const char *path)
{
    json_array_append_new(json_object_get(anim, "channels"),
                          json_pack("{s:I, s:{s:I, s:s}}", "sampler", (json_int_t)sampler, "target", "node",
                                    (json_int_t)node, "path", path));
}

static size_t add_sampler(json_t *anim, size_t input, size_t output)
{
    json_t *samplers = json_object_get(anim, "samplers");
    json_array_append_new(samplers, json_pack("{s:I, s:I, s:s}", "input", (json_int_t)input, "output",
                                              (json_int_t)output, "interpolation", "LINEAR"));
    return json_array_size(samplers) - 1;
}

/* Morph weights of the meshes (nodes first_mesh_node...) from the clip's
 * curves, sampled with the channels' rate (or 30 a second). */
static void add_weights(writer *w, const export_source *src, const rune_clip *c, float rate, size_t first_mesh_node,
                        json_t *anim)
{
    float length = rune_clip_length(c);
    rate = rate > 0.0f ? rate : 30.0f;
    size_t samples = (size_t)ceil((double)length * rate - 1e-4) + 1;
    for (size_t i = 0; i < src->mesh_count; i++) {
        const rune_mesh *m = &src->meshes[i];
        size_t T = m->morph_count, found = 0;
        int32_t *curve = calloc(T + 1, sizeof *curve);
        for (size_t t = 0; curve && t < T; t++) {
            curve[t] = -1;
            for (size_t k = 0; k < rune_clip_curve_count(c); k++)
                if (strcmp(rune_clip_curve_name(c, k), m->morphs[t].name) == 0)
                    curve[t] = (int32_t)k, found++;
        }
        float *times = calloc(samples, sizeof *times), *values = calloc(samples * T + 1, sizeof *values);
        if (found && times && values) {
            for (size_t s = 0; s < samples; s++) {
                times[s] = s + 1 == samples ? length : (float)((double)s / rate);
                for (size_t t = 0; t < T; t++) {
                    rune_curve_sample cs = {0};
                    if (curve[t] >= 0)
                        rune_clip_sample_curve(c, (size_t)curve[t], times[s], &cs);
                    values[s * T + t] = curve[t] >= 0 ? cs.value : 0.0f;
                }
            }
            size_t in = accessor(w, times, samples, "SCALAR", 1, FLOAT, 0, true);
            size_t out = accessor(w, values, samples * T, "SCALAR", 1, FLOAT, 0, false);
            add_channel(anim, add_sampler(anim, in, out), first_mesh_node + i, "weights");
        }
        w->nomem |= !curve || !times || !values;
        free(curve), free(times), free(values);
    }
}

static json_t *add_animation(writer *w, const export_source *src, const rune_clip *c, size_t first_mesh_node)
{
    export_clip x;
    if (!export_clip_make(src, c, &x)) {
        w->nomem = true;
        return NULL;
    }
    json_t *anim = json_pack("{s:s, s:[], s:[]}", "name", rune_clip_id(c), "channels", "samplers");
    for (size_t j = 0; j < x.joint_count; j++) {
        const export_channel *ch = &x.joints[j];
        if (!ch->count)
            continue;
        size_t in = accessor(w, ch->time, ch->count, "SCALAR", 1, FLOAT, 0, true);
        add_channel(anim, add_sampler(anim, in, accessor(w, ch->t, ch->count, "VEC3", 3, FLOAT, 0, false)), j,
                    "translation");
        add_channel(anim, add_sampler(anim, in, accessor(w, ch->r, ch->count, "VEC4", 4, FLOAT, 0, false)), j,
                    "rotation");
        if (ch->scaled)
            add_channel(anim, add_sampler(anim, in, accessor(w, ch->s, ch->count, "VEC3", 3, FLOAT, 0, false)), j,
                        "scale");
    }
    add_weights(w, src, c, x.rate, first_mesh_node, anim);
    if (rune_clip_marker_count(c)) {
        json_t *markers = json_array();
        const rune_marker *m = rune_clip_markers(c);
        for (size_t i = 0; i < rune_clip_marker_count(c); i++)
            json_array_append_new(markers, json_pack("{s:f, s:s, s:s}", "time", m[i].time, "name", m[i].name,
                                                     "value", m[i].value ? m[i].value : ""));
        json_object_set_new(anim, "extras", json_pack("{s:o}", "markers", markers));
    }
    export_clip_free(&x);
    return anim;
}

static void base64(const unsigned char *p, size_t n, char *out)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        out[o++] = a[v >> 18 & 63], out[o++] = a[v >> 12 & 63];
        out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=', out[o++] = i + 2 < n ? a[v & 63] : '=';
    }
    out[o] = '\0';
}

/* The document and the buffer, written as a GLB or as glTF JSON. */
static bool write_out(json_t *doc, writer *w, FILE *f, bool binary)
{
    if (!binary) {
        char *uri = malloc(37 + 4 * (w->size / 3 + 1) + 1);
        if (!uri)
            return false;
        memcpy(uri, "data:application/octet-stream;base64,", 37);
        base64(w->bin, w->size, uri + 37);
        json_object_set_new(json_array_get(json_object_get(doc, "buffers"), 0), "uri", json_string(uri));
        free(uri);
        return json_dumpf(doc, f, JSON_COMPACT) == 0 && fputc('\n', f) != EOF;
    }
    char *text = json_dumps(doc, JSON_COMPACT);
    if (!text)
        return false;
    size_t jl = strlen(text), jpad = (4 - jl % 4) % 4, bpad = (4 - w->size % 4) % 4;
    uint32_t head[3] = {0x46546C67u, 2u, (uint32_t)(12 + 8 + jl + jpad + (w->size ? 8 + w->size + bpad : 0))};
    uint32_t jhead[2] = {(uint32_t)(jl + jpad), 0x4E4F534Au}, bhead[2] = {(uint32_t)(w->size + bpad), 0x004E4942u};
    bool ok = fwrite(head, 4, 3, f) == 3 && fwrite(jhead, 4, 2, f) == 2 && fwrite(text, 1, jl, f) == jl &&
              fwrite("   ", 1, jpad, f) == jpad;
    if (ok && w->size)
        ok = fwrite(bhead, 4, 2, f) == 2 && fwrite(w->bin, 1, w->size, f) == w->size &&
             fwrite("\0\0\0", 1, bpad, f) == bpad;
    free(text);
    return ok;
}

bool export_gltf(const export_source *src, FILE *f, bool binary, char *msg, size_t msg_size)
{
    writer w = {NULL, 0, 0, json_array(), json_array(), false};
    json_t *nodes = json_array(), *meshes = json_array(), *skins = json_array(), *anims = json_array();
    json_t *roots = add_nodes(src, nodes);
    size_t first_mesh_node = json_array_size(nodes);
    for (size_t i = 0; i < src->mesh_count; i++)
        json_array_append_new(roots, json_integer((json_int_t)add_mesh(&w, src, i, meshes, skins, nodes)));
    for (size_t i = 0; i < src->clip_count; i++) {
        json_t *a = add_animation(&w, src, src->clips[i], first_mesh_node);
        if (a)
            json_array_append_new(anims, a);
    }
    json_t *doc = json_pack("{s:{s:s, s:s}, s:i, s:[{s:o}], s:o}", "asset", "version", "2.0", "generator",
                            "rune export", "scene", 0, "scenes", "nodes", roots, "nodes", nodes);
    if (json_array_size(meshes))
        json_object_set_new(doc, "meshes", meshes), json_object_set_new(doc, "skins", skins);
    else
        json_decref(meshes), json_decref(skins);
    if (json_array_size(anims))
        json_object_set_new(doc, "animations", anims);
    else
        json_decref(anims);
    if (w.size) {
        json_object_set_new(doc, "accessors", w.accessors), json_object_set_new(doc, "bufferViews", w.views);
        json_object_set_new(doc, "buffers", json_pack("[{s:I}]", "byteLength", (json_int_t)w.size));
    } else {
        json_decref(w.accessors), json_decref(w.views);
    }
    bool ok = doc && !w.nomem && write_out(doc, &w, f, binary);
    if (!ok)
        snprintf(msg, msg_size, "%s", w.nomem || !doc ? "out of memory" : "cannot write the file");
    json_decref(doc);
    free(w.bin);
    return ok;
}
