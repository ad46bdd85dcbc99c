/* The glTF checks made before assimp reads a file (gltf_precheck.h). The
 * hierarchy is walked without recursion: each node's depth from its
 * parent's, parents found from the children lists. */
#include "gltf_precheck.h"
#include "gltf_file.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool lists(json_t *root, const char *key, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(root, key), i, v) {
        if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
            return true;
    }
    return false;
}

static void find_extension(json_t *root, gltf_precheck *out)
{
    static const char *const meshopt[] = {"EXT_meshopt_compression", "KHR_meshopt_compression"};
    for (int pass = 0; !out->extension && pass < 2; pass++)
        for (size_t i = 0; !out->extension && i < sizeof meshopt / sizeof *meshopt; i++)
            if (lists(root, pass == 0 ? "extensionsRequired" : "extensionsUsed", meshopt[i])) {
                out->extension = meshopt[i];
                out->required = pass == 0;
            }
}

/* The nodes' parents from their children lists; a problem into `out`. */
static bool find_parents(json_t *nodes, size_t n, int64_t *parent, gltf_precheck *out)
{
    for (size_t i = 0; i < n; i++)
        parent[i] = -1;
    for (size_t i = 0; i < n; i++) {
        size_t k;
        json_t *c;
        json_array_foreach(json_object_get(json_array_get(nodes, i), "children"), k, c) {
            json_int_t ci = json_is_integer(c) ? json_integer_value(c) : -1;
            if (ci < 0 || (size_t)ci >= n) {
                snprintf(out->problem, sizeof out->problem, "nodes[%zu].children[%zu] is not a node index", i, k);
                return false;
            }
            if (parent[ci] >= 0) {
                snprintf(out->problem, sizeof out->problem, "nodes[%lld] is a child of two nodes (%lld and %zu)",
                         (long long)ci, (long long)parent[ci], i);
                return false;
            }
            parent[ci] = (int64_t)i;
        }
    }
    return true;
}

/* Each node's depth (roots 1), walking up to a node whose depth is known
 * and back down; a walk that comes back to itself is a cycle. */
static void check_depths(size_t n, const int64_t *parent, int64_t *depth, gltf_precheck *out)
{
    size_t *path = malloc((n ? n : 1) * sizeof *path);
    if (!path) {
        snprintf(out->problem, sizeof out->problem, "out of memory checking %zu nodes", n);
        out->nomem = true;
        return;
    }
    for (size_t i = 0; i < n; i++)
        depth[i] = 0; /* 0: not known; -1: on the walk now */
    for (size_t i = 0; i < n && !out->problem[0]; i++) {
        size_t len = 0;
        int64_t at = (int64_t)i;
        while (at >= 0 && depth[at] == 0) {
            depth[at] = -1;
            path[len++] = (size_t)at;
            at = parent[at];
        }
        if (at >= 0 && depth[at] < 0) {
            snprintf(out->problem, sizeof out->problem, "nodes[%lld] is its own ancestor (a cycle)", (long long)at);
            break;
        }
        int64_t d = at >= 0 ? depth[at] : 0;
        while (len > 0)
            depth[path[--len]] = ++d;
        if (d > RUNE_GLTF_MAX_DEPTH)
            snprintf(out->problem, sizeof out->problem, "the node hierarchy is %lld levels deep at nodes[%zu], more than %d",
                     (long long)d, i, RUNE_GLTF_MAX_DEPTH);
    }
    free(path);
}

static void check_hierarchy(json_t *root, gltf_precheck *out)
{
    json_t *nodes = json_object_get(root, "nodes");
    size_t n = json_array_size(nodes);
    int64_t *parent = malloc((n ? n : 1) * sizeof *parent), *depth = malloc((n ? n : 1) * sizeof *depth);
    if (!parent || !depth) {
        snprintf(out->problem, sizeof out->problem, "out of memory checking %zu nodes", n);
        out->nomem = true;
    } else if (find_parents(nodes, n, parent, out))
        check_depths(n, parent, depth, out);
    free(parent);
    free(depth);
}

static void check(json_t *root, gltf_precheck *out)
{
    if (!root)
        return;
    find_extension(root, out);
    check_hierarchy(root, out);
    json_decref(root);
}

void rune__gltf_precheck(const char *path, gltf_precheck *out)
{
    memset(out, 0, sizeof *out);
    gltf_file g;
    check(rune__gltf_load(path, &g), out);
    free(g.bytes);
}

void rune__gltf_precheck_memory(const void *data, size_t size, gltf_precheck *out)
{
    memset(out, 0, sizeof *out);
    gltf_file g;
    memset(&g, 0, sizeof g);
    g.bytes = (unsigned char *)data, g.size = size; /* read, never freed here */
    if (rune__gltf_frame(&g))
        check(json_loadb(g.json, g.json_len, 0, NULL), out);
}
