/* The meshes of an imported scene (rune/skin.h): every triangle mesh
 * skinned to the rig's joints, and every rigid mesh under one of them,
 * their vertices as the file gives them. assimp gives each bone's inverse
 * bind matrix from the mesh's space to the bone's, which is what a skin
 * palette wants (model * inverse bind): the mesh node's own transform is
 * not applied on top, as glTF requires and three.js does (its skinned
 * meshes' bind matrices follow their world matrices, cancelling them). A
 * vertex no bone weights, and a rigid mesh, follows the joint its node
 * hangs from, from where the node puts it at rest. Influences: the eight
 * largest, normalized. Morph targets become deltas named as their weight
 * curves (import_curves.c): MESH/TARGET. */
#include "import_meshes.h"
#include "../base/name_index.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Column-major float matrix of an assimp (row-major) one. */
static rune_mat4 mat_of(const struct aiMatrix4x4 *a)
{
    rune_mat4 m = {{a->a1, a->b1, a->c1, a->d1, a->a2, a->b2, a->c2, a->d2, a->a3, a->b3, a->c3, a->d3, a->a4, a->b4,
                    a->c4, a->d4}};
    return m;
}

static rune_vec3 unit(rune_vec3 v)
{
    float d = rune_v3_dot(v, v);
    return d > 0.0f ? rune_v3_scale(v, 1.0f / sqrtf(d)) : v;
}

typedef struct mesh_builder {
    const import_mesh_source *src;
    rune__arena *arena;
    rune_mat4 *world;       /* per skeleton node: its world transform */
    int32_t *joint_at;      /* per skeleton node: its joint, or its nearest ancestor's, or -1 */
    rune__name_index nodes; /* node names -> the first kept node so named (skeleton index) */
} mesh_builder;

/* The joint a bone names: the kept node of its name, else -1. */
static int32_t bone_joint(const mesh_builder *b, const struct aiBone *bone)
{
    char name[MAXLEN + 1];
    snprintf(name, sizeof name, "%.*s", (int)bone->mName.length, bone->mName.data);
    int32_t node = rune__name_index_find(&b->nodes, NULL, 0, name, NULL);
    return node >= 0 ? b->src->joint_of_node[node] : -1;
}

/* One weighted influence of a vertex while they are gathered. */
typedef struct influence {
    uint16_t bind;
    float weight;
} influence;

/* Keeps the RUNE_SKIN_MAX_INFLUENCES largest weights of a vertex
 * (`have` so far, in place, largest first). */
static void add_influence(influence *slots, uint8_t *have, uint16_t bind, float weight)
{
    if (!(weight > 0.0f))
        return;
    size_t n = *have, at = n < RUNE_SKIN_MAX_INFLUENCES ? n : RUNE_SKIN_MAX_INFLUENCES - 1;
    if (n == RUNE_SKIN_MAX_INFLUENCES && slots[at].weight >= weight)
        return;
    for (; at > 0 && slots[at - 1].weight < weight; at--)
        slots[at] = slots[at - 1];
    slots[at] = (influence){bind, weight};
    if (n < RUNE_SKIN_MAX_INFLUENCES)
        (*have)++;
}

/* A unique mesh name: the mesh's, else its node's, "_2", "_3"... on repeats. */
static const char *mesh_name(mesh_builder *b, const rune_import *imp, const struct aiMesh *m, const struct aiNode *n)
{
    char base[300], name[320];
    if (m->mName.length)
        snprintf(base, sizeof base, "%.*s", (int)m->mName.length, m->mName.data);
    else
        snprintf(base, sizeof base, "%.*s", (int)n->mName.length, n->mName.data);
    snprintf(name, sizeof name, "%s", base);
    for (int k = 2;; k++) {
        bool taken = false;
        for (size_t i = 0; i < imp->mesh_count && !taken; i++)
            taken = strcmp(imp->meshes[i].name, name) == 0;
        if (!taken)
            break;
        snprintf(name, sizeof name, "%s_%d", base, k);
    }
    return rune__arena_strdup(b->arena, name);
}

/* The morph targets of mesh m: deltas from the base, named MESH/TARGET
 * after the curves. */
static bool add_morphs(mesh_builder *b, const struct aiMesh *m, rune_mesh *out)
{
    size_t n = m->mNumVertices, T = m->mNumAnimMeshes;
    rune_mesh_morph *morphs = rune__arena_array(b->arena, T ? T : 1, sizeof *morphs);
    if (!morphs)
        return false;
    const char *mesh = m->mName.length ? NULL : out->name; /* the curves name the mesh, else its node */
    int ml = mesh ? (int)strlen(mesh) : (int)m->mName.length;
    const char *md = mesh ? mesh : m->mName.data;
    for (size_t t = 0; t < T; t++) {
        const struct aiAnimMesh *am = m->mAnimMeshes[t];
        char name[640];
        if (am->mName.length)
            snprintf(name, sizeof name, "%.*s/%.*s", ml, md, (int)am->mName.length, am->mName.data);
        else
            snprintf(name, sizeof name, "%.*s/%zu", ml, md, t);
        bool full = am->mVertices && am->mNumVertices == n, normals = full && am->mNormals && m->mNormals;
        float *dp = rune__arena_array(b->arena, 3 * n, sizeof *dp);
        float *dn = normals ? rune__arena_array(b->arena, 3 * n, sizeof *dn) : NULL;
        if (!(morphs[t].name = rune__arena_strdup(b->arena, name)) || !dp || (normals && !dn))
            return false;
        for (size_t v = 0; v < n; v++) {
            const struct aiVector3D *base = &m->mVertices[v], *to = full ? &am->mVertices[v] : base;
            dp[3 * v] = to->x - base->x, dp[3 * v + 1] = to->y - base->y, dp[3 * v + 2] = to->z - base->z;
            if (dn) {
                rune_vec3 nb = unit(rune_v3(m->mNormals[v].x, m->mNormals[v].y, m->mNormals[v].z));
                rune_vec3 nt = unit(rune_v3(am->mNormals[v].x, am->mNormals[v].y, am->mNormals[v].z));
                dn[3 * v] = nt.x - nb.x, dn[3 * v + 1] = nt.y - nb.y, dn[3 * v + 2] = nt.z - nb.z;
            }
        }
        morphs[t].positions = dp, morphs[t].normals = dn;
    }
    out->morphs = morphs, out->morph_count = T;
    return true;
}

/* Mesh m on skeleton node `node`, into imp->meshes; false when out of
 * memory. Meshes without triangles, or neither skinned nor under a
 * joint, are left out (a warning). */
static bool add_mesh(mesh_builder *b, rune_import *imp, const struct aiMesh *m, size_t node)
{
    const import_mesh_source *src = b->src;
    const struct aiNode *nd = src->nodes[node].node;
    size_t n = m->mNumVertices, tris = 0;
    for (unsigned f = 0; f < m->mNumFaces; f++)
        tris += m->mFaces[f].mNumIndices == 3;
    int32_t anchor = b->joint_at[node];
    if (!tris || !n || (!m->mNumBones && anchor < 0) || m->mNumBones > 65535) {
        src->warn(src->user, "mesh \"%.*s\" left out: %s", (int)m->mName.length, m->mName.data,
                  !tris || !n          ? "no triangles"
                  : m->mNumBones > 65535 ? "more than 65535 bones"
                                       : "neither skinned nor under a joint of the rig");
        return true;
    }
    rune_mesh *out = &imp->meshes[imp->mesh_count];
    memset(out, 0, sizeof *out);
    float *pos = rune__arena_array(b->arena, 3 * n, sizeof *pos);
    float *nrm = m->mNormals ? rune__arena_array(b->arena, 3 * n, sizeof *nrm) : NULL;
    float *tan = m->mTangents && m->mNormals ? rune__arena_array(b->arena, 4 * n, sizeof *tan) : NULL;
    uint32_t *idx = rune__arena_array(b->arena, 3 * tris, sizeof *idx);
    influence *slots = rune__arena_array(b->arena, n * RUNE_SKIN_MAX_INFLUENCES, sizeof *slots);
    uint8_t *have = rune__arena_array(b->arena, n, 1);
    size_t binds = m->mNumBones + 1; /* the bones, and the node's joint for vertices no bone weights */
    int32_t *bind_joints = rune__arena_array(b->arena, binds, sizeof *bind_joints);
    rune_mat4 *inverse_binds = rune__arena_array(b->arena, binds, sizeof *inverse_binds);
    if (!pos || (m->mNormals && !nrm) || (m->mTangents && m->mNormals && !tan) || !idx || !slots || !have ||
        !bind_joints || !inverse_binds || !(out->name = mesh_name(b, imp, m, nd)))
        return false;
    for (size_t v = 0; v < n; v++) {
        pos[3 * v] = m->mVertices[v].x, pos[3 * v + 1] = m->mVertices[v].y, pos[3 * v + 2] = m->mVertices[v].z;
        rune_vec3 q = nrm ? unit(rune_v3(m->mNormals[v].x, m->mNormals[v].y, m->mNormals[v].z)) : rune_v3(0, 0, 0);
        if (nrm)
            nrm[3 * v] = q.x, nrm[3 * v + 1] = q.y, nrm[3 * v + 2] = q.z;
        if (tan) {
            rune_vec3 t = rune_v3(m->mTangents[v].x, m->mTangents[v].y, m->mTangents[v].z), u = unit(t);
            rune_vec3 bt = m->mBitangents ? rune_v3(m->mBitangents[v].x, m->mBitangents[v].y, m->mBitangents[v].z)
                                          : rune_v3_cross(q, t);
            tan[4 * v] = u.x, tan[4 * v + 1] = u.y, tan[4 * v + 2] = u.z;
            tan[4 * v + 3] = rune_v3_dot(rune_v3_cross(q, t), bt) < 0.0f ? -1.0f : 1.0f;
        }
    }
    size_t k = 0;
    for (unsigned f = 0; f < m->mNumFaces; f++)
        if (m->mFaces[f].mNumIndices == 3)
            for (int c = 0; c < 3; c++)
                idx[k++] = m->mFaces[f].mIndices[c] < n ? m->mFaces[f].mIndices[c] : 0;
    /* binds: each bone whose node is a joint; the anchor last */
    size_t nb = 0, dropped = 0;
    for (unsigned i = 0; i < m->mNumBones; i++) {
        const struct aiBone *bone = m->mBones[i];
        int32_t j = bone_joint(b, bone);
        if (j < 0) {
            dropped++;
            continue;
        }
        bind_joints[nb] = j;
        inverse_binds[nb] = mat_of(&bone->mOffsetMatrix);
        for (unsigned q = 0; q < bone->mNumWeights; q++) {
            unsigned v = bone->mWeights[q].mVertexId;
            if (v < n)
                add_influence(slots + (size_t)v * RUNE_SKIN_MAX_INFLUENCES, &have[v], (uint16_t)nb,
                              bone->mWeights[q].mWeight);
        }
        nb++;
    }
    if (dropped)
        src->warn(src->user, "mesh \"%s\": %zu bone%s name no joint of the rig: their weights go to the other "
                             "bones", out->name, dropped, dropped == 1 ? "" : "s");
    size_t k_max = 1;
    bool anchored = false;
    for (size_t v = 0; v < n; v++) {
        if (!have[v]) { /* rigid, or a vertex no bone weights: the node's joint */
            anchored = true;
            slots[(size_t)v * RUNE_SKIN_MAX_INFLUENCES] = (influence){(uint16_t)nb, 1.0f};
            have[v] = 1;
        }
        k_max = have[v] > k_max ? have[v] : k_max;
    }
    if (anchored) { /* joint at rest * inverse bind = the node's world transform */
        int32_t j = anchor >= 0 ? anchor : 0;
        rune_mat4 joint_inverse = rune_mat4_affine_inverse(&b->world[src->node_of_joint[j]]);
        bind_joints[nb] = j;
        inverse_binds[nb] = rune_mat4_mul(&joint_inverse, &b->world[node]);
        nb++;
    }
    uint16_t *joints = rune__arena_array(b->arena, n * k_max, sizeof *joints);
    float *weights = rune__arena_array(b->arena, n * k_max, sizeof *weights);
    if (!joints || !weights || !add_morphs(b, m, out))
        return false;
    for (size_t v = 0; v < n; v++) {
        const influence *s = slots + (size_t)v * RUNE_SKIN_MAX_INFLUENCES;
        float sum = 0.0f;
        for (size_t i = 0; i < have[v]; i++)
            sum += s[i].weight;
        for (size_t i = 0; i < k_max; i++) {
            joints[v * k_max + i] = i < have[v] ? s[i].bind : s[0].bind;
            weights[v * k_max + i] = i < have[v] ? s[i].weight / sum : 0.0f;
        }
    }
    out->vertex_count = n, out->triangle_count = tris;
    out->positions = pos, out->normals = nrm, out->tangents = tan, out->indices = idx;
    out->influences = (uint32_t)k_max, out->joints = joints, out->weights = weights;
    out->bind_count = nb, out->bind_joints = bind_joints, out->inverse_binds = inverse_binds;
    imp->mesh_count++;
    return true;
}

rune_status rune__import_meshes(const import_mesh_source *src, rune__arena *arena, rune_import *imp)
{
    const struct aiScene *sc = src->scene;
    size_t meshes = 0;
    for (size_t i = 0; i < src->node_count; i++)
        meshes += src->nodes[i].node->mNumMeshes;
    if (!meshes)
        return RUNE_OK;
    mesh_builder b;
    memset(&b, 0, sizeof b);
    b.src = src, b.arena = arena;
    b.world = rune__arena_array(arena, src->node_count, sizeof *b.world);
    b.joint_at = rune__arena_array(arena, src->node_count, sizeof *b.joint_at);
    imp->meshes = rune__arena_array(arena, meshes, sizeof *imp->meshes);
    if (!b.world || !b.joint_at || !imp->meshes)
        return RUNE_E_NOMEM;
    rune__name_index_init(&b.nodes, src->alloc);
    bool fine = true;
    char name[MAXLEN + 1];
    for (size_t i = 0; i < src->node_count && fine; i++) {
        const skeleton_node *s = &src->nodes[i];
        rune_mat4 local = mat_of(&s->node->mTransformation);
        b.world[i] = s->parent >= 0 ? rune_mat4_mul(&b.world[s->parent], &local) : local;
        int32_t j = src->joint_of_node[i];
        b.joint_at[i] = j >= 0 ? j : (s->parent >= 0 ? b.joint_at[s->parent] : -1);
        snprintf(name, sizeof name, "%.*s", (int)s->node->mName.length, s->node->mName.data);
        uint32_t seen = 0;
        rune__name_index_find(&b.nodes, NULL, 0, name, &seen);
        if (j >= 0 && !seen) /* bones name joints: the first kept node of a name */
            fine = rune__name_index_add(&b.nodes, NULL, 0, name, (int32_t)i);
    }
    for (size_t i = 0; i < src->node_count && fine; i++) {
        const struct aiNode *nd = src->nodes[i].node;
        for (unsigned k = 0; k < nd->mNumMeshes && fine; k++)
            if (nd->mMeshes[k] < sc->mNumMeshes)
                fine = add_mesh(&b, imp, sc->mMeshes[nd->mMeshes[k]], i);
    }
    rune__name_index_release(&b.nodes);
    return fine ? RUNE_OK : RUNE_E_NOMEM;
}
