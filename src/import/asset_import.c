/* Asset import through assimp: node hierarchy -> rig, animations -> keyframe
 * sequences of motor transforms. Load-time code: allocation is free here,
 * but every failure path releases everything. */
#include "rune/import.h"
#include "../base/alloc.h"
#include "../base/arena.h"
#include "gltf_interpolation.h"
#include "../base/file_read.h"
#include "import_skeleton.h"
#include "import_curves.h"
#include "gltf_file.h"
#include "gltf_precheck.h"
#include "import_stack.h"
#include "fbx_take_stop.h"
#include "gltf_nodes.h"
#include "import_meshes.h"
#include "../base/require.h"

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WARNINGS 256

typedef struct import_box {
    rune_import imp; /* first: the public pointer is the box */
    rune_allocator alloc;
    rune__arena arena;
    const struct aiNode **nodes; /* per joint */
} import_box;

/* A node transform as translation, rotation, scale; a scale within 1e-5
 * of 1 is 1 exactly (so unscaled rigs stay unscaled). */
typedef struct trs {
    rune_xform x;
    rune_vec3 s;
    bool scaled;
} trs;

typedef struct importer {
    import_box *box;
    rune_error *err;
    const struct aiScene *scene;
    size_t cap;
    gltf_channel_mode *modes; /* glTF sampler modes, when the source is glTF */
    size_t mode_count;
    const char *path;
    trs fold;    /* the transforms above the rig's root, folded into it */
    bool folded; /* the rig's root is not the scene's root node */
    import_curve_source curves; /* morph weights (import_curves.c) */
    node_preference known;      /* nodes by identity (glTF: gltf_nodes.c) */
    int32_t **channel_joint;    /* per animation, per channel: the joint it moves, or -1 */
    skeleton_node *sk;          /* every node, parents first, and how many */
    size_t sk_count;
    int32_t *joint_of_node;     /* per node: its joint, or -1 */
    size_t *node_of_joint;      /* per joint: its node */
    rune__name_index parts;     /* the joints' part names -> joint */
    rune__name_index bases;     /* names asked for: how often each (part_name) */
} importer;

/* glTF CUBICSPLINE channels are resampled at this many points per key
 * interval from their values and tangents (rune keys are linear). */
#define CUBIC_SAMPLES 16

/* A stepped (glTF STEP) channel that shares a joint with an interpolated
 * one is resampled: a copy of the previous key this long before each key
 * (or half the gap, if shorter) turns the step into a ramp that short. */
#define STEP_RAMP_SECONDS 1e-4

static rune_status nomem(importer *I) { return rune_fail(I->err, RUNE_E_NOMEM, "out of memory importing"); }

static void warn(importer *I, const char *fmt, ...)
{
    rune_import *imp = &I->box->imp;
    if (imp->warning_count >= MAX_WARNINGS)
        return;
    char buf[RUNE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const char *w = rune__arena_strdup(&I->box->arena, buf);
    if (w)
        imp->warnings[imp->warning_count++] = w;
}

static void warn_cb(void *user, const char *fmt, ...)
{
    char buf[RUNE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    warn(user, "%s", buf);
}

static size_t count_nodes(const struct aiNode *n)
{
    size_t c = 1;
    for (unsigned i = 0; i < n->mNumChildren; i++)
        c += count_nodes(n->mChildren[i]);
    return c;
}

/* A unique, '/'-free part name for a node (NULL: out of memory). A
 * repeated name takes the next free "_k", counting from how often it was
 * asked for, so 20,000 nodes of one name cost 20,000 lookups. */
static const char *part_name(importer *I, const struct aiNode *n)
{
    char base[200], name[220];
    snprintf(base, sizeof base, "%.*s", (int)n->mName.length, n->mName.data);
    if (!base[0])
        snprintf(base, sizeof base, "node%zu", I->box->imp.joint_count);
    for (char *c = base; *c; c++)
        if (*c == '/')
            *c = '_';
    uint32_t asked;
    if (!rune__name_index_add(&I->bases, NULL, 0, base, 0))
        return NULL;
    rune__name_index_find(&I->bases, NULL, 0, base, &asked);
    snprintf(name, sizeof name, "%s", base);
    for (uint32_t k = asked; rune__name_index_find(&I->parts, NULL, 0, name, NULL) >= 0; k++)
        snprintf(name, sizeof name, "%s_%u", base, k < 2 ? 2 : k);
    if (strcmp(name, base) != 0 || n->mName.length == 0 || strchr(n->mName.data, '/'))
        warn(I, "node \"%.*s\" is named \"%s\" in the rig", (int)n->mName.length, n->mName.data, name);
    const char *part = rune__arena_strdup(&I->box->arena, name);
    if (!part || !rune__name_index_add(&I->parts, NULL, 0, part, (int32_t)I->box->imp.joint_count))
        return NULL;
    return part;
}

static float snap_one(float v) { return fabsf(v - 1.0f) <= 1e-5f ? 1.0f : v; }

static trs decompose(const struct aiMatrix4x4 *m)
{
    struct aiVector3D s, p;
    struct aiQuaternion q;
    aiDecomposeMatrix(m, &s, &q, &p);
    trs r = {{{p.x, p.y, p.z}, rune_q_normalize(rune_q(q.x, q.y, q.z, q.w))},
             {snap_one(s.x), snap_one(s.y), snap_one(s.z)}, false};
    if (!isfinite(r.x.t.x) || !isfinite(r.x.t.y) || !isfinite(r.x.t.z))
        r.x.t = rune_v3(0, 0, 0);
    if (!rune_in_range(r.s.x) || !rune_in_range(r.s.y) || !rune_in_range(r.s.z))
        r.s = rune_v3(1, 1, 1);
    r.scaled = r.s.x != 1.0f || r.s.y != 1.0f || r.s.z != 1.0f;
    return r;
}

/* a then b as translation, rotation, scale (rune_rig_frame_scale's rule) */
static trs compose(const trs *a, const trs *b)
{
    rune_vec3 t = rune_v3_add(a->x.t, rune_q_rotate(a->x.r, rune_v3(a->s.x * b->x.t.x, a->s.y * b->x.t.y,
                                                                     a->s.z * b->x.t.z)));
    trs r = {{t, rune_q_normalize(rune_q_mul(a->x.r, b->x.r))},
             {a->s.x * b->s.x, a->s.y * b->s.y, a->s.z * b->s.z}, false};
    r.scaled = r.s.x != 1.0f || r.s.y != 1.0f || r.s.z != 1.0f;
    return r;
}

/* The rig: the scene's skeleton (import_skeleton.c), parents first, the
 * transforms above its root folded into the root's frame. */
static rune_status add_joints(importer *I)
{
    rune_import *imp = &I->box->imp;
    const struct aiScene *sc = I->scene;
    skeleton_node *sk = I->sk = rune__arena_array(&I->box->arena, I->cap, sizeof *sk);
    int32_t *joint_of_node = I->joint_of_node = rune__arena_array(&I->box->arena, I->cap, sizeof *joint_of_node);
    I->node_of_joint = rune__arena_array(&I->box->arena, I->cap, sizeof *I->node_of_joint);
    I->channel_joint = rune__arena_array(&I->box->arena, sc->mNumAnimations, sizeof *I->channel_joint);
    if (!sk || !joint_of_node || !I->node_of_joint || !I->channel_joint)
        return nomem(I);
    for (unsigned a = 0; a < sc->mNumAnimations; a++)
        if (!(I->channel_joint[a] = rune__arena_array(&I->box->arena, sc->mAnimations[a]->mNumChannels,
                                                       sizeof **I->channel_joint)))
            return nomem(I);
    int32_t root;
    size_t n;
    if (rune__skeleton_select(sc, &I->known, sk, I->channel_joint, &I->box->alloc, &n, &root))
        return nomem(I);
    I->sk_count = n;
    struct aiMatrix4x4 above = rune__skeleton_above(sk, root);
    I->fold = decompose(&above);
    I->folded = sk[root].parent >= 0;
    size_t left_out = 0;
    char names[160] = "";
    for (size_t i = 0; i < n; i++) {
        joint_of_node[i] = -1;
        if (!(sk[i].flags & SKELETON_KEEP)) {
            if (left_out++ < 4) {
                size_t at = strlen(names);
                snprintf(names + at, sizeof names - at, "%s\"%.*s\"", at ? ", " : "", (int)sk[i].node->mName.length,
                         sk[i].node->mName.data);
            }
            continue;
        }
        const char *part = part_name(I, sk[i].node);
        if (!part)
            return nomem(I);
        int32_t j = (int32_t)imp->joint_count++;
        joint_of_node[i] = j;
        I->node_of_joint[j] = i;
        I->box->nodes[j] = sk[i].node;
        rune_joint_desc *d = &imp->joints[j];
        int32_t pj = (int32_t)i == root ? -1 : joint_of_node[sk[i].parent];
        d->part = part;
        d->parent = pj >= 0 ? imp->joints[pj].part : "";
        trs local = decompose(&sk[i].node->mTransformation);
        if ((int32_t)i == root && I->folded)
            local = compose(&I->fold, &local);
        d->frame = local.x;
        d->scale = local.s;
        d->scaled = local.scaled;
    }
    if (left_out)
        warn(I, "%zu node%s outside the skeleton left out (%s%s): the rig holds the bones of skins, the animated "
                "nodes and what joins them",
             left_out, left_out == 1 ? "" : "s", names, left_out > 4 ? ", ..." : "");
    /* channels: from the node each moves to its joint */
    for (unsigned a = 0; a < sc->mNumAnimations; a++)
        for (unsigned c = 0; c < sc->mAnimations[a]->mNumChannels; c++) {
            int32_t node = I->channel_joint[a][c];
            I->channel_joint[a][c] = node >= 0 ? joint_of_node[node] : -1;
        }
    return RUNE_OK;
}

/* The joint of the node an animation channel names, or -1. */
static int32_t joint_of_channel(const importer *I, size_t animation, size_t channel)
{
    return I->channel_joint[animation][channel];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The first key index i >= 1 with time >= t, found from *cursor on: the
 * merged times only increase, so a channel is walked once, not once per
 * time (fuzzing found the quadratic version on long BVH files). */
static unsigned seek_key(double (*time_of)(const void *, unsigned), const void *keys, unsigned n, double t,
                         unsigned *cursor)
{
    unsigned i = *cursor < 1 ? 1 : *cursor;
    while (i < n && time_of(keys, i) < t)
        i++;
    *cursor = i;
    return i;
}

static double vector_key_time(const void *k, unsigned i) { return ((const struct aiVectorKey *)k)[i].mTime; }
static double quat_key_time(const void *k, unsigned i) { return ((const struct aiQuatKey *)k)[i].mTime; }

static rune_vec3 vec_of(const struct aiVector3D *v) { return rune_v3(v->x, v->y, v->z); }
static rune_quat quat_of(const struct aiQuaternion *q) { return rune_q_normalize(rune_q(q->x, q->y, q->z, q->w)); }

/* A vector channel (positions or scales) at time t: linear between keys
 * (or held, stepped), ends held, `rest` without keys. */
static rune_vec3 vector_at(const struct aiVectorKey *k, unsigned n, double t, rune_vec3 rest, bool step,
                           unsigned *cursor)
{
    if (n == 0)
        return rest;
    if (t <= k[0].mTime)
        return vec_of(&k[0].mValue);
    unsigned i = seek_key(vector_key_time, k, n, t, cursor);
    if (i == n)
        return vec_of(&k[n - 1].mValue);
    if (step && t < k[i].mTime)
        return vec_of(&k[i - 1].mValue);
    double span = k[i].mTime - k[i - 1].mTime;
    float u = span > 0 ? (float)((t - k[i - 1].mTime) / span) : 1.0f;
    return rune_v3_lerp(vec_of(&k[i - 1].mValue), vec_of(&k[i].mValue), u);
}

/* Rotation at time t: slerp between keys (or held, stepped), ends held. */
static rune_quat rotation_at(const struct aiNodeAnim *ch, double t, rune_quat rest, bool step, unsigned *cursor)
{
    unsigned n = ch->mNumRotationKeys;
    const struct aiQuatKey *k = ch->mRotationKeys;
    if (n == 0)
        return rest;
    if (t <= k[0].mTime)
        return quat_of(&k[0].mValue);
    unsigned i = seek_key(quat_key_time, k, n, t, cursor);
    if (i == n)
        return quat_of(&k[n - 1].mValue);
    if (step && t < k[i].mTime)
        return quat_of(&k[i - 1].mValue);
    double span = k[i].mTime - k[i - 1].mTime;
    float u = span > 0 ? (float)((t - k[i - 1].mTime) / span) : 1.0f;
    return rune_q_slerp(quat_of(&k[i - 1].mValue), quat_of(&k[i].mValue), u);
}

/* a / b, or a when b is about 0 (a zero rest scale has no inverse) */
static float divide(float a, float b) { return fabsf(b) > 1e-12f ? a / b : a; }

/* assimp fills channels a glTF node does not animate with its rest value:
 * such a constant channel steps as well as it interpolates. `keys` holds
 * n keys of `stride` bytes, each value `size` bytes at `offset`. */
static bool constant_keys(const void *keys, unsigned n, size_t stride, size_t offset, size_t size)
{
    const char *k = keys;
    for (unsigned i = 1; i < n; i++)
        if (memcmp(k + i * stride + offset, k + offset, size))
            return false;
    return true;
}

static bool constant_vectors(const struct aiVectorKey *k, unsigned n)
{
    return constant_keys(k, n, sizeof *k, offsetof(struct aiVectorKey, mValue), sizeof k->mValue);
}

static bool constant_rotations(const struct aiNodeAnim *ch)
{
    const struct aiQuatKey *k = ch->mRotationKeys;
    return constant_keys(k, ch->mNumRotationKeys, sizeof *k, offsetof(struct aiQuatKey, mValue), sizeof k->mValue);
}

/* Adds a vector channel's key times to out[n..], with the ramp start
 * before each key when it steps; the new count. */
static size_t vector_times(const struct aiVectorKey *k, unsigned count, bool ramp_on, double ramp, double *out,
                           size_t n)
{
    for (unsigned i = 0; i < count; i++) {
        out[n++] = k[i].mTime;
        if (ramp_on && i > 0)
            out[n++] = k[i].mTime - fmin(ramp, 0.5 * (k[i].mTime - k[i - 1].mTime));
    }
    return n;
}

/* Sorted, distinct key times of a channel (positions, rotations, scales), plus
 * the ramp starts before each key of a channel that steps (`ramp` ticks). */
static size_t channel_times(const struct aiNodeAnim *ch, const bool steps[3], double ramp, double *out)
{
    size_t n = vector_times(ch->mPositionKeys, ch->mNumPositionKeys, steps[GLTF_TRANSLATION], ramp, out, 0);
    n = vector_times(ch->mScalingKeys, ch->mNumScalingKeys, steps[GLTF_SCALE], ramp, out, n);
    for (unsigned i = 0; i < ch->mNumRotationKeys; i++) {
        out[n++] = ch->mRotationKeys[i].mTime;
        if (steps[GLTF_ROTATION] && i > 0)
            out[n++] = ch->mRotationKeys[i].mTime -
                       fmin(ramp, 0.5 * (ch->mRotationKeys[i].mTime - ch->mRotationKeys[i - 1].mTime));
    }
    qsort(out, n, sizeof *out, cmp_double);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || out[i] > out[m - 1])
            out[m++] = out[i];
    return m;
}

/* Component c of the Hermite segment from key k to k + 1 at s in [0, 1]
 * (glTF layout: per key in-tangent, value, out-tangent). */
static float hermite(const gltf_channel_mode *m, size_t k, int c, float s)
{
    size_t w = (size_t)m->width;
    float dt = m->times[k + 1] - m->times[k];
    const float *a = &m->values[3 * w * k], *b = &m->values[3 * w * (k + 1)];
    float s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * a[w + (size_t)c] + (s3 - 2 * s2 + s) * dt * a[2 * w + (size_t)c] +
           (-2 * s3 + 3 * s2) * b[w + (size_t)c] + (s3 - s2) * dt * b[(size_t)c];
}

/* Replaces a channel's keys (translation, rotation or scale) by the cubic
 * spline sampled CUBIC_SAMPLES times per interval; false if out of memory. */
static bool resample_cubic(importer *I, const gltf_channel_mode *m, double tps, struct aiNodeAnim *ch)
{
    if (!m || m->mode != GLTF_CUBIC || !m->values || m->keys == 0)
        return true;
    size_t n = (m->keys - 1) * CUBIC_SAMPLES + 1;
    if (n > UINT32_MAX)
        return true;
    bool rot = m->path == GLTF_ROTATION;
    struct aiVectorKey *pk = rot ? NULL : rune__arena_array(&I->box->arena, n, sizeof *pk);
    struct aiQuatKey *rk = rot ? rune__arena_array(&I->box->arena, n, sizeof *rk) : NULL;
    if (!pk && !rk)
        return false;
    for (size_t i = 0; i < n; i++) {
        size_t k = i / CUBIC_SAMPLES;
        float s = (float)(i % CUBIC_SAMPLES) / CUBIC_SAMPLES;
        if (k == m->keys - 1) { /* the last key itself */
            k = m->keys - 2;
            s = 1.0f;
        }
        float v[4];
        for (int c = 0; c < m->width; c++)
            v[c] = m->keys == 1 ? m->values[(size_t)m->width + (size_t)c] : hermite(m, k, c, s);
        double t = m->keys == 1 ? m->times[0] : m->times[k] + s * (m->times[k + 1] - m->times[k]);
        if (rot) {
            rune_quat q = rune_q_normalize(rune_q(v[0], v[1], v[2], v[3]));
            rk[i].mTime = t * tps;
            rk[i].mValue.x = q.x, rk[i].mValue.y = q.y, rk[i].mValue.z = q.z, rk[i].mValue.w = q.w;
        } else {
            pk[i].mTime = t * tps;
            pk[i].mValue.x = v[0], pk[i].mValue.y = v[1], pk[i].mValue.z = v[2];
        }
    }
    if (rot) {
        ch->mRotationKeys = rk;
        ch->mNumRotationKeys = (unsigned)n;
    } else if (m->path == GLTF_SCALE) {
        ch->mScalingKeys = pk;
        ch->mNumScalingKeys = (unsigned)n;
    } else {
        ch->mPositionKeys = pk;
        ch->mNumPositionKeys = (unsigned)n;
    }
    return true;
}

static const char *clip_name(importer *I, const struct aiAnimation *a, size_t index)
{
    char base[200], name[220];
    snprintf(base, sizeof base, "%.*s", (int)a->mName.length, a->mName.data);
    /* a BVH holds one motion, which assimp names "Motion" in every file:
     * the file's name tells two apart in one library */
    if (!base[0] || rune__gltf_has_suffix(I->path, ".bvh") || rune__gltf_has_suffix(I->path, ".BVH")) {
        const char *slash = strrchr(I->path, '/'), *stem = slash ? slash + 1 : I->path, *dot = strrchr(stem, '.');
        int len = (int)(dot && dot != stem ? (size_t)(dot - stem) : strlen(stem));
        if (len)
            snprintf(base, sizeof base, "%.*s", len, stem);
    }
    if (!base[0])
        snprintf(base, sizeof base, "anim%zu", index);
    snprintf(name, sizeof name, "%s", base);
    const rune_import *imp = &I->box->imp;
    for (int k = 2;; k++) {
        bool taken = false;
        for (size_t c = 0; c < imp->clip_count; c++) /* the clips kept so far */
            taken |= strcmp(imp->clips[c].id, name) == 0;
        if (!taken)
            break;
        snprintf(name, sizeof name, "%s_%d", base, k);
    }
    return rune__arena_strdup(&I->box->arena, name);
}

static rune_status add_clip(importer *I, size_t ai, rune_sequence_desc *d)
{
    const struct aiAnimation *a = I->scene->mAnimations[ai];
    rune_import *imp = &I->box->imp;
    double tps = a->mTicksPerSecond > 0.0 ? a->mTicksPerSecond : 25.0;
    if (!(d->id = clip_name(I, a, ai)))
        return nomem(I);
    for (unsigned m = 0; m < a->mNumMeshChannels; m++)
        warn(I, "animation \"%s\": vertex animation of mesh \"%.*s\" dropped (%u keys): rune animates joints and "
                "morph target weights only",
             d->id, (int)a->mMeshChannels[m]->mName.length, a->mMeshChannels[m]->mName.data,
             a->mMeshChannels[m]->mNumKeys);
    d->revision = 1;
    d->priority = RUNE_PRIORITY_CORE;
    /* the channels, with glTF CUBICSPLINE keys resampled, before sizing */
    struct aiNodeAnim *chans = rune__arena_array(&I->box->arena, a->mNumChannels, sizeof *chans);
    if (!chans)
        return nomem(I);
    size_t total = 0, widest = 0;
    for (unsigned c = 0; c < a->mNumChannels; c++) {
        chans[c] = *a->mChannels[c];
        char node[256];
        snprintf(node, sizeof node, "%.*s", (int)chans[c].mNodeName.length, chans[c].mNodeName.data);
        for (int path = GLTF_TRANSLATION; path <= GLTF_SCALE; path++)
            if (!resample_cubic(I, rune__gltf_channel(I->modes, I->mode_count, ai, node, (gltf_path)path), tps,
                                &chans[c]))
                return nomem(I);
        /* twice the keys: room for the ramps of stepped channels */
        size_t n = 2 * ((size_t)chans[c].mNumPositionKeys + chans[c].mNumRotationKeys + chans[c].mNumScalingKeys);
        total += n;
        widest = n > widest ? n : widest;
    }
    size_t curve_keys = rune__import_curve_keys(&I->curves, a, ai);
    if (total / 2 + curve_keys > RUNE_IMPORT_MAX_KEYS)
        return rune_fail(I->err, RUNE_E_INVALID, "animation \"%s\": %zu keys, more than the %d rune imports", d->id,
                         total / 2 + curve_keys, RUNE_IMPORT_MAX_KEYS);
    rune_keyframe_desc *kf = rune__arena_array(&I->box->arena, total + curve_keys + 1, sizeof *kf);
    rune_key_pose_desc *poses = rune__arena_array(&I->box->arena, total, sizeof *poses);
    double *times = rune__calloc(&I->box->alloc, widest ? widest : 1, sizeof *times);
    if (!kf || !poses || !times) {
        rune__free(&I->box->alloc, times, widest ? widest : 1, sizeof *times);
        return nomem(I);
    }
    size_t k = 0;
    bool loops = a->mNumChannels > 0;
    for (unsigned c = 0; c < a->mNumChannels; c++) {
        const struct aiNodeAnim *ch = &chans[c];
        int32_t j = joint_of_channel(I, ai, c);
        if (j < 0) {
            warn(I, "animation \"%s\": channel for unknown node \"%.*s\" skipped", d->id, (int)ch->mNodeName.length,
                 ch->mNodeName.data);
            continue;
        }
        loops &= ch->mPostState == aiAnimBehaviour_REPEAT;
        const rune_joint_desc *jd = &imp->joints[j];
        rune_quat inv = rune_q_conjugate(jd->frame.r);
        rune_vec3 fs = jd->scaled ? jd->scale : rune_v3(1, 1, 1);
        /* channels are the node's local transform: unkeyed parts hold the
         * node's own, and the rig's root takes what was folded into it */
        trs rest = decompose(&I->box->nodes[j]->mTransformation);
        bool fold = I->folded && j == 0;
        char node[256];
        snprintf(node, sizeof node, "%.*s", (int)ch->mNodeName.length, ch->mNodeName.data);
        /* per path (translation, rotation, scale): whether it steps */
        bool steps[3], constant[3] = {constant_vectors(ch->mPositionKeys, ch->mNumPositionKeys),
                                      constant_rotations(ch),
                                      constant_vectors(ch->mScalingKeys, ch->mNumScalingKeys)};
        bool any_step = false, all_step = true;
        for (int path = 0; path < 3; path++) {
            const gltf_channel_mode *m = rune__gltf_channel(I->modes, I->mode_count, ai, node, (gltf_path)path);
            if (m && m->mode == GLTF_CUBIC && !m->values)
                warn(I, "animation \"%s\": joint \"%s\": CUBICSPLINE keys whose tangents could not be read: the "
                        "key values are kept and interpolated linearly between keys",
                     d->id, jd->part);
            steps[path] = m && m->mode == GLTF_STEP;
            any_step |= steps[path];
            all_step &= steps[path] || constant[path];
        }
        /* all of the joint's channels step: the constant easing is exact;
         * else the stepping ones ramp (STEP_RAMP_SECONDS) before each key */
        all_step &= any_step;
        bool ramps[3] = {steps[0] && !all_step, steps[1] && !all_step, steps[2] && !all_step};
        size_t n = channel_times(ch, ramps, STEP_RAMP_SECONDS * tps, times);
        unsigned pos_cursor = 1, rot_cursor = 1, scale_cursor = 1;
        for (size_t i = 0; i < n; i++, k++) {
            trs local = {{vector_at(ch->mPositionKeys, ch->mNumPositionKeys, times[i], rest.x.t, steps[GLTF_TRANSLATION],
                                    &pos_cursor),
                          rotation_at(ch, times[i], rest.x.r, steps[GLTF_ROTATION], &rot_cursor)},
                         vector_at(ch->mScalingKeys, ch->mNumScalingKeys, times[i], rest.s, steps[GLTF_SCALE],
                                   &scale_cursor),
                         false};
            if (fold)
                local = compose(&I->fold, &local);
            rune_key_pose_desc *p = &poses[k];
            p->parent = jd->parent;
            p->part = jd->part;
            /* the pose composes with the frame into the local transform
             * (rune_rig_frame_scale): t = ft + fr (fs * pt), r = fr pr,
             * s = fs * ps, solved for the pose */
            rune_vec3 dt = rune_q_rotate(inv, rune_v3_sub(local.x.t, jd->frame.t));
            p->t = rune_v3(divide(dt.x, fs.x), divide(dt.y, fs.y), divide(dt.z, fs.z));
            p->r = rune_q_normalize(rune_q_mul(inv, local.x.r));
            p->s = rune_v3(snap_one(divide(local.s.x, fs.x)), snap_one(divide(local.s.y, fs.y)),
                           snap_one(divide(local.s.z, fs.z)));
            p->scaled = p->s.x != 1.0f || p->s.y != 1.0f || p->s.z != 1.0f;
            p->weight = 1.0f;
            p->easing = all_step ? RUNE_EASE_CONSTANT : RUNE_EASE_LINEAR;
            p->direction = RUNE_EASE_IN;
            kf[k].time = (float)(times[i] / tps);
            kf[k].poses = p;
            kf[k].pose_count = 1;
        }
    }
    rune__free(&I->box->alloc, times, widest ? widest : 1, sizeof *times);
    size_t curves = 0; /* the morph weights, after the joints' keys */
    if (rune__import_curves(&I->curves, a, ai, tps, d->id, &I->box->arena, kf + k, &curves))
        return nomem(I);
    k += curves;
    d->keyframes = kf;
    d->keyframe_count = k;
    d->loop = loops;
    return RUNE_OK;
}

/* Whether a channel moves its node: translation or rotation keys that
 * are not all the same (assimp fills unanimated paths with the rest). */
static bool channel_moves(const struct aiNodeAnim *ch)
{
    return !constant_vectors(ch->mPositionKeys, ch->mNumPositionKeys) || !constant_rotations(ch);
}

/* The default root-motion joint: the hips. Of the joints some animation
 * moves, the one nearest the rig's root whose subtree holds more than half
 * of the rig's joints (a larger subtree, then the first, breaks ties): a
 * BVH's or Mixamo's Hips, not an armature that holds still nor an IK foot
 * bone that moves before the body in the file. Without one, the first
 * moving joint with children; -1 when nothing moves. Joints come parents
 * first, so one backward pass counts every subtree. */
static int32_t root_motion_joint(importer *I)
{
    const rune_import *imp = &I->box->imp;
    const struct aiScene *sc = I->scene;
    size_t n = imp->joint_count;
    int32_t *parent = rune__arena_array(&I->box->arena, n ? n : 1, sizeof *parent);
    size_t *depth = rune__arena_array(&I->box->arena, n ? n : 1, sizeof *depth);
    size_t *subtree = rune__arena_array(&I->box->arena, n ? n : 1, sizeof *subtree);
    bool *moves = rune__arena_array(&I->box->arena, n ? n : 1, sizeof *moves);
    if (!parent || !depth || !subtree || !moves)
        return -1; /* only a default: none rather than a failed import */
    for (size_t j = 0; j < n; j++) {
        /* parts are unique in an import (part_name), parents come first */
        int32_t k = imp->joints[j].parent[0] ? rune__name_index_find(&I->parts, NULL, 0, imp->joints[j].parent, NULL)
                                             : -1;
        parent[j] = k >= 0 && (size_t)k < j ? k : -1;
        depth[j] = parent[j] < 0 ? 0 : depth[parent[j]] + 1;
        subtree[j] = 1;
        moves[j] = false;
    }
    for (size_t j = n; j-- > 0;)
        if (parent[j] >= 0)
            subtree[parent[j]] += subtree[j];
    for (unsigned a = 0; a < sc->mNumAnimations; a++)
        for (unsigned c = 0; c < sc->mAnimations[a]->mNumChannels; c++) {
            const struct aiNodeAnim *ch = sc->mAnimations[a]->mChannels[c];
            int32_t j = joint_of_channel(I, a, c);
            if (j >= 0 && channel_moves(ch))
                moves[j] = true;
        }
    int32_t hips = -1, fallback = -1;
    for (size_t j = 0; j < n; j++) {
        if (!moves[j])
            continue;
        if (fallback < 0 && subtree[j] > 1)
            fallback = (int32_t)j;
        if (2 * subtree[j] <= n)
            continue;
        if (hips < 0 || depth[j] < depth[hips] || (depth[j] == depth[hips] && subtree[j] > subtree[hips]))
            hips = (int32_t)j;
    }
    return hips >= 0 ? hips : fallback;
}

static bool is_bvh(const char *path_or_hint);

static rune_status convert(importer *I)
{
    const struct aiScene *sc = I->scene;
    rune_import *imp = &I->box->imp;
    I->cap = count_nodes(sc->mRootNode);
    imp->joints = rune__arena_array(&I->box->arena, I->cap, sizeof *imp->joints);
    I->box->nodes = rune__arena_array(&I->box->arena, I->cap, sizeof *I->box->nodes);
    imp->warnings = rune__arena_array(&I->box->arena, MAX_WARNINGS, sizeof *imp->warnings);
    imp->clips = rune__arena_array(&I->box->arena, sc->mNumAnimations, sizeof *imp->clips);
    if (!imp->joints || !I->box->nodes || !imp->warnings || !imp->clips)
        return nomem(I);
    rune_status st = add_joints(I);
    for (unsigned a = 0; !st && a < sc->mNumAnimations; a++) {
        rune_sequence_desc *d = &imp->clips[imp->clip_count];
        st = add_clip(I, a, d);
        if (!st && d->keyframe_count == 0) /* only what rune cannot play (vertex animation, ...) */
            warn(I, "animation \"%s\" left out: nothing in it moves a joint or a morph target", d->id);
        else
            imp->clip_count++;
    }
    if (!st)
        imp->root_joint = root_motion_joint(I);
    /* a BVH holds no mesh: what assimp shows of one is its own drawing of
     * the bones */
    if (!st && imp->joint_count && !is_bvh(I->path)) {
        import_mesh_source ms = {sc, I->sk, I->sk_count, I->joint_of_node, I->node_of_joint, &I->box->alloc,
                                 warn_cb, I};
        if (rune__import_meshes(&ms, &I->box->arena, imp))
            st = nomem(I);
    }
    return st;
}

/* Converts an assimp scene (or its absence) into a rune_import; releases
 * the scene either way. */
static rune_status from_scene(const struct aiScene *sc, const char *path, bool read_gltf,
                              const rune_allocator *alloc, rune_import **out, rune_error *err)
{
    if (!sc || !sc->mRootNode) {
        rune_status st = rune_fail(err, RUNE_E_PARSE, "%s: cannot import: %s", path, aiGetErrorString());
        if (sc)
            aiReleaseImport(sc);
        return st;
    }
    import_box *box = rune__calloc(alloc, 1, sizeof *box);
    if (!box) {
        aiReleaseImport(sc);
        return rune_fail(err, RUNE_E_NOMEM, "%s: out of memory", path);
    }
    box->alloc = *alloc;
    rune__arena_init(&box->arena, alloc);
    importer I = {.box = box, .err = err, .scene = sc, .path = path,
                  .fold = {{{0, 0, 0}, {0, 0, 0, 1}}, {1, 1, 1}, false},
                  .curves = {sc, false, NULL, 0, warn_cb, NULL}};
    I.curves.user = &I;
    rune__name_index_init(&I.parts, alloc);
    rune__name_index_init(&I.bases, alloc);
    bool modes_nomem = false, weights_nomem = false;
    gltf_weights *weights = NULL;
    if (read_gltf) {
        I.mode_count = rune__gltf_channel_modes(path, &box->arena, &I.modes, &modes_nomem);
        I.curves.weight_count = rune__gltf_weight_channels(path, &box->arena, &weights, &weights_nomem);
        I.curves.weights = weights;
        /* a glTF's weights come from its own channels, not assimp's */
        I.curves.gltf = rune__gltf_has_suffix(path, ".gltf") || rune__gltf_has_suffix(path, ".glb");
        modes_nomem |= weights_nomem || !rune__gltf_node_identity(path, sc, &box->arena, &I.known);
    }
    rune_status st = modes_nomem ? rune_fail(err, RUNE_E_NOMEM, "out of memory reading the glTF samplers' modes")
                                 : convert(&I);
    if (!st && !(box->imp.source = rune__arena_strdup(&box->arena, path)))
        st = nomem(&I);
    aiReleaseImport(sc);
    rune__name_index_release(&I.parts);
    rune__name_index_release(&I.bases);
    if (st) {
        rune_error_prefix(err, "%s: ", path);
        rune_import_destroy(&box->imp);
        return st;
    }
    *out = &box->imp;
    return RUNE_OK;
}

/* BVH files state their frame count up front, and assimp believes it: a
 * negative or absurd count makes it allocate or loop for minutes. Every
 * frame needs at least one number and a separator, so a count larger than
 * half the bytes after it cannot be true. Every "Frames:" is checked, not
 * the first alone: a joint's name may hold the word (fuzzing found one
 * that hid a count of -66 behind it). assimp reads the count as the next
 * token, so line breaks before it are skipped too. Returns NULL when every
 * count is plausible, else why not. */
static const char *frame_count_implausible(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    if (p < end && *p == '-')
        return "negative frame count";
    double frames = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++)
        frames = frames * 10 + (*p - '0');
    if (frames > (double)(end - p) / 2.0)
        return "the frame count does not fit the file";
    return NULL;
}

static const char *bvh_implausible(const char *data, size_t size)
{
    static const char key[] = "Frames:";
    for (size_t i = 0; i + sizeof key - 1 <= size; i++) {
        if (memcmp(data + i, key, sizeof key - 1) != 0)
            continue;
        const char *why = frame_count_implausible(data + i + sizeof key - 1, data + size);
        if (why)
            return why;
    }
    return NULL; /* none at all: assimp reports what is missing */
}

static bool is_bvh(const char *path_or_hint)
{
    size_t n = strlen(path_or_hint);
    const char *ext = n >= 3 ? path_or_hint + n - 3 : path_or_hint;
    return (ext[0] | 0x20) == 'b' && (ext[1] | 0x20) == 'v' && (ext[2] | 0x20) == 'h';
}

static struct aiPropertyStore *import_properties(void)
{
    struct aiPropertyStore *props = aiCreatePropertyStore();
    /* pivots as separate helper nodes would add joints no animator made */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    return props;
}

/* Why a meshopt-compressed glTF cannot be read, and the way out (glTF
 * Transform's copy writes the buffers decoded). Arguments: the extension,
 * the path. */
#define MESHOPT_ADVICE                                                                                               \
    "the asset uses %s (compressed buffers), which rune's importer (assimp) does not decode; write a "              \
    "decompressed copy first: npx @gltf-transform/cli copy '%s' decompressed.glb"

/* One import through assimp, from a file (data NULL) or memory, and its
 * conversion: run on a deep stack (import_stack.h). */
typedef struct assimp_call {
    const char *path;
    const void *data;
    size_t size;
    const char *hint;
    const rune_allocator *alloc;
    rune_import **out;
    rune_error *err;
    const char *extension; /* a meshopt extension the file uses, for the message when assimp fails */
} assimp_call;

/* What assimp does to every scene, from a file or memory: check its
 * structure (a malformed file fails there, before rune reads it) and
 * split polygons into triangles (the meshes rune keeps are triangle
 * lists). */
static const unsigned assimp_steps = aiProcess_ValidateDataStructure | aiProcess_Triangulate;

static rune_status import_path(void *p)
{
    assimp_call *c = p;
    struct aiPropertyStore *props = import_properties();
    const struct aiScene *sc = aiImportFileExWithProperties(c->path, assimp_steps, NULL, props);
    aiReleasePropertyStore(props);
    if (c->extension && (!sc || !sc->mRootNode)) {
        if (sc)
            aiReleaseImport(sc);
        return rune_fail(c->err, RUNE_E_INVALID, "%s: cannot import: %s; " MESHOPT_ADVICE, c->path,
                         aiGetErrorString(), c->extension, c->path);
    }
    return from_scene(sc, c->path, true, rune__alloc_or_default(c->alloc), c->out, c->err);
}

static rune_status import_bytes(void *p)
{
    assimp_call *c = p;
    struct aiPropertyStore *props = import_properties();
    const struct aiScene *sc = aiImportFileFromMemoryWithProperties(c->data, (unsigned)c->size, assimp_steps, c->hint,
                                                                    props);
    aiReleasePropertyStore(props);
    return from_scene(sc, c->path, false, rune__alloc_or_default(c->alloc), c->out, c->err);
}

rune_status rune_import_file(const char *path, const rune_allocator *alloc, rune_import **out, rune_error *err)
{
    RUNE_REQUIRE(err, path, "path");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    if (is_bvh(path)) {
        size_t size = 0;
        unsigned char *data = rune__read_file(path, UINT32_MAX, &size);
        if (!data)
            return rune_fail(err, RUNE_E_IO, "%s: cannot read the file", path);
        rune_status st = rune_import_memory(data, size, "bvh", path, alloc, out, err);
        free(data);
        return st;
    }
    if (rune__gltf_has_suffix(path, ".fbx")) { /* from memory: its takes' stops are widened there */
        size_t size = 0;
        unsigned char *data = rune__read_file(path, UINT32_MAX, &size);
        if (!data)
            return rune_fail(err, RUNE_E_IO, "%s: cannot read the file", path);
        rune_status st = rune_import_memory(data, size, "fbx", path, alloc, out, err);
        free(data);
        return st;
    }
    /* meshopt-compressed buffers: assimp reads them as raw bytes (or fails
     * on the fallback buffer with its own message); say what they are */
    gltf_precheck pre;
    rune__gltf_precheck(path, &pre);
    if (pre.extension && pre.required)
        return rune_fail(err, RUNE_E_INVALID, "%s: " MESHOPT_ADVICE, path, pre.extension, path);
    if (pre.problem[0])
        return rune_fail(err, pre.nomem ? RUNE_E_NOMEM : RUNE_E_INVALID, "%s: cannot import: %s", path, pre.problem);
    assimp_call call = {path, NULL, 0, NULL, alloc, out, err, pre.extension};
    return rune__import_on_deep_stack(import_path, &call);
}

rune_status rune_import_memory(const void *data, size_t size, const char *hint, const char *name,
                               const rune_allocator *alloc, rune_import **out, rune_error *err)
{
    RUNE_REQUIRE(err, data, "data");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    name = name ? name : "<memory>";
    if (!data || size == 0) /* assimp asserts (aborts) on an empty buffer */
        return rune_fail(err, RUNE_E_PARSE, "%s: cannot import: empty input", name);
    if (size > UINT32_MAX)
        return rune_fail(err, RUNE_E_INVALID, "%s: larger than 4 GiB", name);
    const char *why = hint && is_bvh(hint) ? bvh_implausible(data, size) : NULL;
    if (why)
        return rune_fail(err, RUNE_E_PARSE, "%s: cannot import: %s", name, why);
    /* FBX: keys just past a take's stop are kept (fbx_take_stop.c), on a
     * copy of the bytes */
    unsigned char *copy = NULL, *text = NULL;
    size_t text_size = 0;
    if (hint && rune__gltf_has_suffix(hint, "fbx")) {
        if (!(copy = malloc(size)))
            return rune_fail(err, RUNE_E_NOMEM, "%s: out of memory", name);
        memcpy(copy, data, size);
        if (rune__fbx_widen_stops(copy, size, &text, &text_size) == (size_t)-1) {
            free(copy);
            return rune_fail(err, RUNE_E_NOMEM, "%s: out of memory", name);
        }
        data = text ? text : copy;
        size = text ? text_size : size;
        if (size > UINT32_MAX) {
            free(text), free(copy);
            return rune_fail(err, RUNE_E_INVALID, "%s: larger than 4 GiB", name);
        }
    }
    if (hint && (rune__gltf_has_suffix(hint, "gltf") || rune__gltf_has_suffix(hint, "glb"))) {
        gltf_precheck pre;
        rune__gltf_precheck_memory(data, size, &pre);
        if (pre.problem[0]) {
            free(text), free(copy);
            return rune_fail(err, pre.nomem ? RUNE_E_NOMEM : RUNE_E_INVALID, "%s: cannot import: %s", name,
                             pre.problem);
        }
    }
    assimp_call call = {name, data, size, hint, alloc, out, err, NULL};
    rune_status st = rune__import_on_deep_stack(import_bytes, &call);
    free(text);
    free(copy);
    return st;
}

void rune_import_destroy(rune_import *imp)
{
    if (!imp)
        return;
    import_box *box = (import_box *)imp;
    rune_allocator a = box->alloc;
    rune__arena_release(&box->arena);
    rune__free(&a, box, 1, sizeof *box);
}

rune_status rune_import_set_loop(rune_import *imp, const char *id, bool loop, rune_error *err)
{
    RUNE_REQUIRE(err, imp, "imp");
    bool found = false;
    for (size_t c = 0; c < imp->clip_count; c++)
        if (!id || strcmp(imp->clips[c].id, id) == 0) {
            imp->clips[c].loop = loop;
            found = true;
        }
    if (!found && id)
        return rune_fail(err, RUNE_E_NOT_FOUND, "%s: no clip \"%s\"", imp->source, id);
    return RUNE_OK;
}
