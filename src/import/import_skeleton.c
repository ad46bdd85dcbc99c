/* Which nodes of an imported scene are the skeleton: the bones of any
 * skin and the animated nodes, the nodes that connect them below their
 * common ancestor, and the plain transform nodes hanging from them (end
 * sites); not meshes, cameras, lights or the scene's root above them. The
 * transforms above the skeleton's root are folded into it. */
#include "import_skeleton.h"

#include <string.h>

static bool same_name(const struct aiString *a, const struct aiString *b)
{
    return a->length == b->length && memcmp(a->data, b->data, a->length) == 0;
}

static size_t gather(const struct aiNode *n, int32_t parent, skeleton_node *out, size_t at)
{
    out[at] = (skeleton_node){n, parent, 0};
    size_t next = at + 1;
    for (unsigned i = 0; i < n->mNumChildren; i++)
        next = gather(n->mChildren[i], (int32_t)at, out, next);
    return next;
}

static bool named_in(const struct aiString *name, const struct aiScene *sc)
{
    for (unsigned i = 0; i < sc->mNumCameras; i++)
        if (same_name(name, &sc->mCameras[i]->mName))
            return true;
    for (unsigned i = 0; i < sc->mNumLights; i++)
        if (same_name(name, &sc->mLights[i]->mName))
            return true;
    return false;
}

/* A node that is only a transform: no mesh, camera or light of its own. */
static bool transform_only(const struct aiScene *sc, const struct aiNode *n)
{
    return n->mNumMeshes == 0 && !named_in(&n->mName, sc);
}

/* Depth first from n, parents first: the first node named `name` that is
 * only a transform, else (in *any) the first so named at all. */
static const struct aiNode *find_named(const struct aiScene *sc, const struct aiNode *n, const struct aiString *name,
                                       const struct aiNode **any)
{
    if (same_name(&n->mName, name)) {
        if (transform_only(sc, n))
            return n;
        if (!*any)
            *any = n;
    }
    for (unsigned i = 0; i < n->mNumChildren; i++) {
        const struct aiNode *f = find_named(sc, n->mChildren[i], name, any);
        if (f)
            return f;
    }
    return NULL;
}

const struct aiNode *rune__skeleton_node_named(const struct aiScene *sc, const struct aiString *name,
                                               const struct aiNode *const *known, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (same_name(&known[i]->mName, name))
            return known[i];
    const struct aiNode *any = NULL;
    const struct aiNode *f = find_named(sc, sc->mRootNode, name, &any);
    return f ? f : any;
}

const struct aiNode *rune__skeleton_channel_node(const struct aiScene *sc, const node_preference *known, size_t a,
                                                 size_t c)
{
    bool by_id = known && a < known->animations;
    return rune__skeleton_node_named(sc, &sc->mAnimations[a]->mChannels[c]->mNodeName,
                                     by_id ? known->animation[a] : NULL, by_id ? known->animation_count[a] : 0);
}

static void mark_node(skeleton_node *nodes, size_t n, const struct aiNode *node, bool *any)
{
    for (size_t i = 0; node && i < n; i++)
        if (nodes[i].node == node) {
            nodes[i].flags |= SKELETON_SEED;
            *any = true;
            return;
        }
}

/* Marks what the skeleton is made of: the nodes that skin bones and
 * animation channels name (each name resolved to one node, so a mesh that
 * shares a bone's name stays out). */
static bool mark_seeds(const struct aiScene *sc, const node_preference *known, skeleton_node *nodes, size_t n)
{
    bool any = false;
    for (unsigned m = 0; m < sc->mNumMeshes; m++)
        for (unsigned b = 0; b < sc->mMeshes[m]->mNumBones; b++)
            mark_node(nodes, n,
                      rune__skeleton_node_named(sc, &sc->mMeshes[m]->mBones[b]->mName, known->joints,
                                                known->joint_count),
                      &any);
    for (unsigned a = 0; a < sc->mNumAnimations; a++)
        for (unsigned c = 0; c < sc->mAnimations[a]->mNumChannels; c++)
            mark_node(nodes, n, rune__skeleton_channel_node(sc, known, a, c), &any);
    return any;
}

/* Nodes that are pure transforms all the way down (no mesh, camera or
 * light in their subtree): end sites and helpers that belong to a bone. */
static void mark_plain(const struct aiScene *sc, skeleton_node *nodes, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        const struct aiNode *node = nodes[i].node;
        bool plain = transform_only(sc, node);
        for (size_t k = i + 1; plain && k < n && nodes[k].parent >= (int32_t)i; k++)
            if (nodes[k].parent == (int32_t)i)
                plain = (nodes[k].flags & SKELETON_PLAIN) != 0;
        nodes[i].flags |= plain ? SKELETON_PLAIN : 0;
    }
}

size_t rune__skeleton_select(const struct aiScene *sc, const node_preference *known, skeleton_node *nodes, size_t cap,
                             int32_t *root)
{
    size_t n = gather(sc->mRootNode, -1, nodes, 0);
    (void)cap;
    *root = 0;
    if (!mark_seeds(sc, known, nodes, n)) { /* nothing skinned or animated: every node */
        for (size_t i = 0; i < n; i++)
            nodes[i].flags |= SKELETON_KEEP;
        return n;
    }
    mark_plain(sc, nodes, n);
    /* the common ancestor of the seeds: the deepest node every seed is at
     * or below (walk the first seed's ancestry, keep what covers all) */
    int32_t lca = -1;
    for (size_t i = 0; i < n; i++) {
        if (!(nodes[i].flags & SKELETON_SEED))
            continue;
        if (lca < 0) {
            lca = (int32_t)i;
            continue;
        }
        for (;;) { /* lca := lowest ancestor of lca that is an ancestor of i (or i) */
            int32_t k = (int32_t)i;
            while (k > lca)
                k = nodes[k].parent;
            if (k == lca)
                break;
            lca = nodes[lca].parent;
        }
    }
    *root = lca;
    /* seeds and the paths up to the common ancestor */
    for (size_t i = 0; i < n; i++)
        if (nodes[i].flags & SKELETON_SEED)
            for (int32_t k = (int32_t)i; k >= lca && !(nodes[k].flags & SKELETON_KEEP); k = nodes[k].parent)
                nodes[k].flags |= SKELETON_KEEP;
    /* plain nodes below kept ones (parents come first) */
    for (size_t i = (size_t)lca + 1; i < n; i++)
        if (!(nodes[i].flags & SKELETON_KEEP) && (nodes[i].flags & SKELETON_PLAIN) && nodes[i].parent >= lca &&
            (nodes[nodes[i].parent].flags & SKELETON_KEEP))
            nodes[i].flags |= SKELETON_KEEP;
    return n;
}

struct aiMatrix4x4 rune__skeleton_above(const skeleton_node *nodes, int32_t root)
{
    struct aiMatrix4x4 m;
    aiIdentityMatrix4(&m);
    /* parent * ... * grandparent-most: multiply from the root's parent up */
    for (int32_t k = nodes[root].parent; k >= 0; k = nodes[k].parent) {
        struct aiMatrix4x4 up = nodes[k].node->mTransformation;
        aiMultiplyMatrix4(&up, &m); /* up = up * m */
        m = up;
    }
    return m;
}
