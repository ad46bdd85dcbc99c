/* assimp links animation channels and skin bones to nodes by name only,
 * and glTF files repeat names (two characters' "Hips", a mesh named as
 * its bone). The glTF itself says which node each channel and joint is,
 * by index; assimp's glTF importer makes one aiNode per glTF node, in the
 * file's order (children in order; several scene roots under a "ROOT"
 * node), so walking both trees together maps indices to aiNodes. Where
 * the trees differ, nothing is mapped and names decide alone. */
#include "gltf_nodes.h"
#include "gltf_file.h"

#include <stdlib.h>
#include <string.h>

typedef struct walk {
    json_t *root, *nodes;
    size_t count;
    const struct aiNode **of; /* per glTF node */
    rune__arena *arena;
    bool ok;
} walk;

/* Pairs glTF node gi with ai and their children in order; a mismatch (a
 * name, a child count, a node reached twice) spoils the walk. */
static void pair(walk *w, json_int_t gi, const struct aiNode *ai)
{
    if (!w->ok || gi < 0 || (size_t)gi >= w->count || w->of[gi]) {
        w->ok = false;
        return;
    }
    const char *name = rune__gltf_node_name(w->root, gi, w->arena);
    json_t *children = json_object_get(json_array_get(w->nodes, (size_t)gi), "children");
    if (!name || strlen(name) != ai->mName.length || memcmp(name, ai->mName.data, ai->mName.length) != 0 ||
        json_array_size(children) != ai->mNumChildren) {
        w->ok = false;
        return;
    }
    w->of[gi] = ai;
    for (unsigned i = 0; w->ok && i < ai->mNumChildren; i++) {
        json_t *c = json_array_get(children, i);
        if (!json_is_integer(c)) {
            w->ok = false;
            return;
        }
        pair(w, json_integer_value(c), ai->mChildren[i]);
    }
}

/* The aiNodes of the glTF node indices in `list` (each entry picked by
 * `index_of`), into a new arena array; NULL when the arena ran out. */
static const struct aiNode **mapped(const walk *w, json_t *list, json_int_t (*index_of)(json_t *), size_t *count)
{
    size_t n = json_array_size(list), k = 0;
    const struct aiNode **out = rune__arena_array(w->arena, n ? n : 1, sizeof *out);
    for (size_t i = 0; out && i < n; i++) {
        json_int_t gi = index_of(json_array_get(list, i));
        if (gi >= 0 && (size_t)gi < w->count && w->of[gi])
            out[k++] = w->of[gi];
    }
    *count = k;
    return out;
}

static json_int_t joint_index(json_t *v) { return json_is_integer(v) ? json_integer_value(v) : -1; }

/* A channel's target node when it moves the node (weights are curves) */
static json_int_t channel_node(json_t *ch)
{
    json_t *target = json_object_get(ch, "target"), *node = json_object_get(target, "node");
    const char *path = json_string_value(json_object_get(target, "path"));
    bool moves = path && (!strcmp(path, "translation") || !strcmp(path, "rotation") || !strcmp(path, "scale"));
    return moves && json_is_integer(node) ? json_integer_value(node) : -1;
}

static bool identify(walk *w, json_t *root, const struct aiScene *sc, node_preference *out)
{
    json_t *scenes = json_object_get(root, "scenes");
    json_t *scene = json_array_get(scenes, json_is_integer(json_object_get(root, "scene"))
                                               ? (size_t)json_integer_value(json_object_get(root, "scene"))
                                               : 0);
    json_t *roots = json_object_get(scene, "nodes");
    size_t n = json_array_size(roots);
    if (n == 1) {
        pair(w, joint_index(json_array_get(roots, 0)), sc->mRootNode);
    } else if (n > 1 && sc->mRootNode->mNumChildren == n) {
        for (size_t i = 0; w->ok && i < n; i++)
            pair(w, joint_index(json_array_get(roots, i)), sc->mRootNode->mChildren[i]);
    } else {
        w->ok = false;
    }
    json_t *anims = json_object_get(root, "animations");
    if (!w->ok || json_array_size(anims) != sc->mNumAnimations)
        return true; /* names decide */
    /* every skin's joints, one list */
    json_t *all = json_array();
    if (!all)
        return false;
    size_t i;
    json_t *skin;
    json_array_foreach(json_object_get(root, "skins"), i, skin) {
        json_array_extend(all, json_object_get(skin, "joints"));
    }
    out->joints = mapped(w, all, joint_index, &out->joint_count);
    json_decref(all);
    out->animations = sc->mNumAnimations;
    const struct aiNode *const **per = rune__arena_array(w->arena, out->animations ? out->animations : 1, sizeof *per);
    size_t *counts = rune__arena_array(w->arena, out->animations ? out->animations : 1, sizeof *counts);
    if (!out->joints || !per || !counts)
        return false;
    for (size_t a = 0; a < out->animations; a++)
        if (!(per[a] = mapped(w, json_object_get(json_array_get(anims, a), "channels"), channel_node, &counts[a])))
            return false;
    out->animation = per;
    out->animation_count = counts;
    return true;
}

bool rune__gltf_node_identity(const char *path, const struct aiScene *sc, rune__arena *arena, node_preference *out)
{
    memset(out, 0, sizeof *out);
    gltf_file g;
    json_t *root = rune__gltf_load(path, &g);
    if (!root) {
        free(g.bytes);
        return true;
    }
    json_t *nodes = json_object_get(root, "nodes");
    walk w = {root, nodes, json_array_size(nodes), NULL, arena, true};
    bool fine = true;
    if (w.count && sc->mRootNode) {
        w.of = calloc(w.count, sizeof *w.of);
        fine = w.of && identify(&w, root, sc, out);
        if (!fine)
            memset(out, 0, sizeof *out);
    }
    free(w.of);
    json_decref(root);
    free(g.bytes);
    return fine;
}
