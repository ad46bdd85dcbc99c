/* Morph target weights of an animation as float curves (docs/semantics.md,
 * "Float curves"): from a glTF asset's own "weights" channels (with their
 * STEP, LINEAR or CUBICSPLINE keys), else from assimp's morph channels
 * (FBX blend shapes, Collada morph controllers: linear keys). One curve a
 * target, named MESH/TARGET. */
#include "import_curves.h"

#include <stdio.h>
#include <string.h>

static bool same_name(const struct aiString *a, const struct aiString *b)
{
    return a->length == b->length && memcmp(a->data, b->data, a->length) == 0;
}

static const struct aiNode *node_named(const struct aiNode *n, const struct aiString *name)
{
    if (same_name(&n->mName, name))
        return n;
    for (unsigned i = 0; i < n->mNumChildren; i++) {
        const struct aiNode *f = node_named(n->mChildren[i], name);
        if (f)
            return f;
    }
    return NULL;
}

/* The scene's mesh a morph channel names: by mesh name, else the first
 * mesh of the node of that name. */
static const struct aiMesh *mesh_named(const struct aiScene *sc, const struct aiString *name)
{
    for (unsigned m = 0; m < sc->mNumMeshes; m++)
        if (same_name(&sc->mMeshes[m]->mName, name))
            return sc->mMeshes[m];
    const struct aiNode *n = sc->mRootNode ? node_named(sc->mRootNode, name) : NULL;
    return n && n->mNumMeshes && n->mMeshes[0] < sc->mNumMeshes ? sc->mMeshes[n->mMeshes[0]] : NULL;
}

/* Targets of an assimp morph channel: one past the largest index it keys. */
static size_t morph_targets(const struct aiMeshMorphAnim *m)
{
    size_t n = 0;
    for (unsigned k = 0; k < m->mNumKeys; k++)
        for (unsigned i = 0; i < m->mKeys[k].mNumValuesAndWeights; i++)
            n = m->mKeys[k].mValues[i] + 1u > n ? m->mKeys[k].mValues[i] + 1u : n;
    return n <= IMPORT_MAX_TARGETS ? n : 0;
}

size_t rune__import_curve_keys(const import_curve_source *s, const struct aiAnimation *a, size_t ai)
{
    size_t n = 0;
    if (s->gltf) {
        for (size_t i = 0; i < s->weight_count; i++)
            if (s->weights[i].animation == ai && s->weights[i].readable)
                n += s->weights[i].keys * s->weights[i].targets;
        return n;
    }
    for (unsigned m = 0; m < a->mNumMorphMeshChannels; m++)
        n += (size_t)a->mMorphMeshChannels[m]->mNumKeys * morph_targets(a->mMorphMeshChannels[m]);
    return n;
}

/* glTF: every readable channel of animation ai, target by target. */
static size_t gltf_keys(const import_curve_source *s, size_t ai, rune_curve_key_desc *ck, rune_keyframe_desc *kf,
                        const char *clip)
{
    size_t n = 0;
    for (size_t i = 0; i < s->weight_count; i++) {
        const gltf_weights *w = &s->weights[i];
        if (w->animation != ai)
            continue;
        if (!w->readable) {
            s->warn(s->user, "animation \"%s\": morph target weights of node \"%s\" could not be read (their "
                             "accessors): dropped", clip, w->node);
            continue;
        }
        size_t T = w->targets;
        for (size_t t = 0; t < T; t++)
            for (size_t k = 0; k < w->keys; k++, n++) {
                rune_curve_key_desc *d = &ck[n];
                *d = (rune_curve_key_desc){w->names[t], 0.0f, 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN, false,
                                           0.0f, 0.0f};
                if (w->mode == GLTF_CUBIC) {
                    d->in_tangent = w->values[(3 * k) * T + t];
                    d->value = w->values[(3 * k + 1) * T + t];
                    d->out_tangent = w->values[(3 * k + 2) * T + t];
                    d->spline = true;
                } else {
                    d->value = w->values[k * T + t];
                    d->easing = w->mode == GLTF_STEP ? RUNE_EASE_CONSTANT : RUNE_EASE_LINEAR;
                }
                kf[n] = (rune_keyframe_desc){w->times[k], NULL, 0, d, 1};
            }
    }
    return n;
}

/* assimp: each channel's targets, a weight a key (0 where a key leaves a
 * target out), linear. */
static rune_status assimp_keys(const import_curve_source *s, const struct aiAnimation *a, double tps,
                               rune__arena *arena, rune_curve_key_desc *ck, rune_keyframe_desc *kf, size_t *count)
{
    size_t n = 0;
    for (unsigned m = 0; m < a->mNumMorphMeshChannels; m++) {
        const struct aiMeshMorphAnim *ch = a->mMorphMeshChannels[m];
        size_t T = morph_targets(ch);
        const struct aiMesh *mesh = mesh_named(s->scene, &ch->mName);
        /* the mesh's name where it has one (the channel may name its node) */
        const struct aiString *mn = mesh && mesh->mName.length ? &mesh->mName : &ch->mName;
        for (size_t t = 0; t < T; t++) {
            char name[600];
            const struct aiString *tn = mesh && t < mesh->mNumAnimMeshes ? &mesh->mAnimMeshes[t]->mName : NULL;
            if (tn && tn->length)
                snprintf(name, sizeof name, "%.*s/%.*s", (int)mn->length, mn->data, (int)tn->length, tn->data);
            else
                snprintf(name, sizeof name, "%.*s/%zu", (int)mn->length, mn->data, t);
            const char *stored = rune__arena_strdup(arena, name);
            if (!stored)
                return RUNE_E_NOMEM;
            for (unsigned k = 0; k < ch->mNumKeys; k++, n++) {
                const struct aiMeshMorphKey *key = &ch->mKeys[k];
                float v = 0.0f;
                for (unsigned i = 0; i < key->mNumValuesAndWeights; i++)
                    if (key->mValues[i] == t)
                        v = (float)key->mWeights[i];
                ck[n] = (rune_curve_key_desc){stored, v, 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN, false, 0.0f, 0.0f};
                kf[n] = (rune_keyframe_desc){(float)(key->mTime / tps), NULL, 0, &ck[n], 1};
            }
        }
        if (!T && ch->mNumKeys)
            s->warn(s->user, "animation \"%.*s\": morph channel \"%.*s\" names no target (or more than %d): dropped",
                    (int)a->mName.length, a->mName.data, (int)ch->mName.length, ch->mName.data, IMPORT_MAX_TARGETS);
    }
    *count = n;
    return RUNE_OK;
}

rune_status rune__import_curves(const import_curve_source *s, const struct aiAnimation *a, size_t ai, double tps,
                                const char *clip, rune__arena *arena, rune_keyframe_desc *kf, size_t *count)
{
    size_t cap = rune__import_curve_keys(s, a, ai);
    *count = 0;
    if (!cap) {
        if (s->gltf)
            (void)gltf_keys(s, ai, NULL, NULL, clip); /* the warnings of unreadable channels */
        return RUNE_OK;
    }
    rune_curve_key_desc *ck = rune__arena_array(arena, cap, sizeof *ck);
    if (!ck)
        return RUNE_E_NOMEM;
    if (s->gltf) {
        *count = gltf_keys(s, ai, ck, kf, clip);
        return RUNE_OK;
    }
    return assimp_keys(s, a, tps, arena, ck, kf, count);
}
