/* Which nodes of an imported scene are the skeleton: the bones of any
 * skin and the animated nodes, the nodes that connect them below their
 * common ancestor, and the plain transform nodes hanging from them (end
 * sites); not meshes, cameras, lights or the scene's root above them. The
 * transforms above the skeleton's root are folded into it. */
#include "import_skeleton.h"
#include "../base/alloc.h"

#include <string.h>

static size_t gather(const struct aiNode *n, int32_t parent, skeleton_node *out, size_t at)
{
    out[at] = (skeleton_node){n, parent, 0};
    size_t next = at + 1;
    for (unsigned i = 0; i < n->mNumChildren; i++)
        next = gather(n->mChildren[i], (int32_t)at, out, next);
    return next;
}

/* assimp's names as index keys: their bytes as the prefix, exactly (an
 * aiString has a length and may hold a NUL). */
static bool add_name(rune__name_index *x, const struct aiString *name, int32_t value)
{
    return rune__name_index_add(x, name->data, name->length, "", value);
}

static int32_t find_name(const rune__name_index *x, const struct aiString *name)
{
    return rune__name_index_find(x, name->data, name->length, "", NULL);
}

/* A node that is only a transform: no mesh of its own, and no camera or
 * light (`lit` holds their names) goes by its name. */
static bool transform_only(const rune__name_index *lit, const struct aiNode *n)
{
    return n->mNumMeshes == 0 && find_name(lit, &n->mName) < 0;
}

/* Lookups by name and by identity over the gathered nodes, made once:
 * a file of 20,000 joints and as many channels resolves in linear time. */
typedef struct node_lookup {
    const struct aiScene *sc;
    rune__name_index lit;     /* camera and light names */
    rune__name_index plain;   /* name -> the first node so named that is only a transform */
    rune__name_index any;     /* name -> the first node so named */
    rune__name_index by_node; /* node (its address) -> its index */
} node_lookup;

static void lookup_release(node_lookup *L)
{
    rune__name_index_release(&L->lit);
    rune__name_index_release(&L->plain);
    rune__name_index_release(&L->any);
    rune__name_index_release(&L->by_node);
}

static bool lookup_init(node_lookup *L, const struct aiScene *sc, const skeleton_node *nodes, size_t n,
                        const rune_allocator *alloc)
{
    L->sc = sc;
    rune__name_index_init(&L->lit, alloc);
    rune__name_index_init(&L->plain, alloc);
    rune__name_index_init(&L->any, alloc);
    rune__name_index_init(&L->by_node, alloc);
    bool fine = true;
    for (unsigned i = 0; fine && i < sc->mNumCameras; i++)
        fine = add_name(&L->lit, &sc->mCameras[i]->mName, 0);
    for (unsigned i = 0; fine && i < sc->mNumLights; i++)
        fine = add_name(&L->lit, &sc->mLights[i]->mName, 0);
    for (size_t i = 0; fine && i < n; i++) {
        const struct aiNode *node = nodes[i].node;
        fine = add_name(&L->any, &node->mName, (int32_t)i) &&
               (!transform_only(&L->lit, node) || add_name(&L->plain, &node->mName, (int32_t)i)) &&
               rune__name_index_add(&L->by_node, &node, sizeof node, "", (int32_t)i);
    }
    if (!fine)
        lookup_release(L);
    return fine;
}

/* The index of a node (-1: NULL or not in the scene). */
static int32_t index_of(const node_lookup *L, const struct aiNode *node)
{
    return node ? rune__name_index_find(&L->by_node, &node, sizeof node, "", NULL) : -1;
}

/* The node a bone or a channel names: the first of `known` so named
 * (`known_names` indexes them), else the first (parents first) that is
 * only a transform, else the first; -1 when none is. */
static int32_t resolve(const node_lookup *L, const struct aiString *name, const struct aiNode *const *known,
                       const rune__name_index *known_names)
{
    int32_t k = find_name(known_names, name);
    if (k >= 0)
        return index_of(L, known[k]);
    int32_t i = find_name(&L->plain, name);
    return i >= 0 ? i : find_name(&L->any, name);
}

/* An index of the names of `count` known nodes (to their first place). */
static bool index_known(const struct aiNode *const *known, size_t count, rune__name_index *x)
{
    for (size_t i = 0; i < count; i++)
        if (!add_name(x, &known[i]->mName, (int32_t)i))
            return false;
    return true;
}

/* Marks the nodes that skin bones and animation channels name (each name
 * resolved to one node, so a mesh that shares a bone's name stays out),
 * and records each channel's node in channel_node[a][c]. */
static bool mark_seeds(const node_lookup *L, const node_preference *known, skeleton_node *nodes,
                       int32_t *const *channel_node, const rune_allocator *alloc, bool *any)
{
    const struct aiScene *sc = L->sc;
    rune__name_index names;
    rune__name_index_init(&names, alloc);
    bool fine = index_known(known->joints, known->joint_count, &names);
    for (unsigned m = 0; fine && m < sc->mNumMeshes; m++)
        for (unsigned b = 0; b < sc->mMeshes[m]->mNumBones; b++) {
            int32_t i = resolve(L, &sc->mMeshes[m]->mBones[b]->mName, known->joints, &names);
            if (i >= 0)
                nodes[i].flags |= SKELETON_SEED, *any = true;
        }
    for (unsigned a = 0; fine && a < sc->mNumAnimations; a++) {
        bool by_id = a < known->animations;
        const struct aiNode *const *list = by_id ? known->animation[a] : NULL;
        rune__name_index_release(&names);
        fine = index_known(list, by_id ? known->animation_count[a] : 0, &names);
        for (unsigned c = 0; fine && c < sc->mAnimations[a]->mNumChannels; c++) {
            int32_t i = resolve(L, &sc->mAnimations[a]->mChannels[c]->mNodeName, list, &names);
            channel_node[a][c] = i;
            if (i >= 0)
                nodes[i].flags |= SKELETON_SEED, *any = true;
        }
    }
    rune__name_index_release(&names);
    return fine;
}

/* Nodes that are pure transforms all the way down (no mesh, camera or
 * light in their subtree): end sites and helpers that belong to a bone.
 * Children come after their parents, so one backward pass settles each
 * node before its parent reads it. */
static void mark_plain(const node_lookup *L, skeleton_node *nodes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        nodes[i].flags |= transform_only(&L->lit, nodes[i].node) ? SKELETON_PLAIN : 0;
    for (size_t i = n; i-- > 1;)
        if (!(nodes[i].flags & SKELETON_PLAIN) && nodes[i].parent >= 0)
            nodes[nodes[i].parent].flags &= ~(unsigned)SKELETON_PLAIN;
}

/* The common ancestor of the seeds: the deepest node whose subtree holds
 * every seed. Subtree counts in one backward pass; the nodes holding all
 * seeds form a path from the scene's root, and the deepest of them comes
 * last in parents-first order. */
static int32_t seeds_ancestor(skeleton_node *nodes, size_t n, size_t *held)
{
    size_t seeds = 0;
    for (size_t i = 0; i < n; i++)
        seeds += held[i] = (nodes[i].flags & SKELETON_SEED) != 0;
    for (size_t i = n; i-- > 1;)
        if (nodes[i].parent >= 0)
            held[nodes[i].parent] += held[i];
    int32_t lca = 0;
    for (size_t i = 0; i < n; i++)
        if (held[i] == seeds)
            lca = (int32_t)i;
    return lca;
}

rune_status rune__skeleton_select(const struct aiScene *sc, const node_preference *known, skeleton_node *nodes,
                                  int32_t *const *channel_node, const rune_allocator *alloc, size_t *count,
                                  int32_t *root)
{
    size_t n = gather(sc->mRootNode, -1, nodes, 0);
    *count = n;
    *root = 0;
    node_lookup L;
    size_t *held = rune__calloc(alloc, n, sizeof *held);
    if (!held || !lookup_init(&L, sc, nodes, n, alloc)) {
        rune__free(alloc, held, n, sizeof *held);
        return RUNE_E_NOMEM;
    }
    bool any = false;
    if (!mark_seeds(&L, known, nodes, channel_node, alloc, &any)) {
        lookup_release(&L);
        rune__free(alloc, held, n, sizeof *held);
        return RUNE_E_NOMEM;
    }
    if (!any) { /* nothing skinned or animated: every node */
        for (size_t i = 0; i < n; i++)
            nodes[i].flags |= SKELETON_KEEP;
    } else {
        mark_plain(&L, nodes, n);
        int32_t lca = seeds_ancestor(nodes, n, held);
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
    }
    lookup_release(&L);
    rune__free(alloc, held, n, sizeof *held);
    return RUNE_OK;
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
