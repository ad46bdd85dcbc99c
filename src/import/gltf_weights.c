/* glTF morph target weights ("weights" channels), read from the asset's
 * own JSON and buffers: assimp 5.2 hands them over without the sampler's
 * interpolation or CUBICSPLINE tangents, and names them by node, not by
 * the mesh and its targets. Each target becomes a float curve named
 * MESH/TARGET: the mesh's name (else the node's), the target's name from
 * the mesh's extras.targetNames (else its index). */
#include "gltf_weights.h"
#include "gltf_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "MESH/TARGET" of target t of the node's mesh. */
static const char *target_name(json_t *root, json_t *node, const char *node_name, size_t t, rune__arena *arena)
{
    json_int_t mi = json_integer_value(json_object_get(node, "mesh"));
    json_t *mesh = json_is_integer(json_object_get(node, "mesh")) ? json_array_get(json_object_get(root, "meshes"),
                                                                                   (size_t)mi)
                                                                  : NULL;
    const char *mesh_name = json_string_value(json_object_get(mesh, "name"));
    const char *target = json_string_value(
        json_array_get(json_object_get(json_object_get(mesh, "extras"), "targetNames"), t));
    char name[512];
    if (target && target[0])
        snprintf(name, sizeof name, "%s/%s", mesh_name && mesh_name[0] ? mesh_name : node_name, target);
    else
        snprintf(name, sizeof name, "%s/%zu", mesh_name && mesh_name[0] ? mesh_name : node_name, t);
    return rune__arena_strdup(arena, name);
}

/* One "weights" channel: its sampler's keys split into targets. */
static bool read_channel(const gltf_file *g, json_t *root, json_t *sampler, json_t *node, gltf_weights *e,
                         rune__arena *arena, bool *nomem)
{
    e->mode = rune__gltf_sampler_mode(sampler);
    size_t nt = 0, nv = 0;
    int wt = 0, wv = 0;
    e->times = rune__gltf_floats(g, root, arena, json_integer_value(json_object_get(sampler, "input")), &nt, &wt,
                                 nomem);
    e->values = rune__gltf_floats(g, root, arena, json_integer_value(json_object_get(sampler, "output")), &nv, &wv,
                                  nomem);
    size_t per_key = e->mode == GLTF_CUBIC ? 3 : 1;
    if (!e->times || !e->values || wt != 1 || wv != 1 || nt == 0 || nv % (nt * per_key) != 0)
        return false;
    e->keys = nt;
    e->targets = nv / (nt * per_key);
    e->names = rune__arena_array(arena, e->targets ? e->targets : 1, sizeof *e->names);
    if (!e->names) {
        *nomem = true;
        return false;
    }
    for (size_t t = 0; t < e->targets; t++)
        if (!(e->names[t] = target_name(root, node, e->node, t, arena))) {
            *nomem = true;
            return false;
        }
    return e->targets > 0;
}

size_t rune__gltf_weight_channels(const char *path, rune__arena *arena, gltf_weights **out, bool *nomem)
{
    *out = NULL;
    *nomem = false;
    gltf_file g;
    json_t *root = rune__gltf_load(path, &g), *anims = json_object_get(root, "animations");
    json_t *nodes = json_object_get(root, "nodes");
    size_t count = 0, ai, ci, k = 0;
    json_t *a, *c;
    json_array_foreach(anims, ai, a) json_array_foreach(json_object_get(a, "channels"), ci, c) count +=
        json_is_string(json_object_get(json_object_get(c, "target"), "path")) &&
        strcmp(json_string_value(json_object_get(json_object_get(c, "target"), "path")), "weights") == 0;
    gltf_weights *w = count ? rune__arena_array(arena, count, sizeof *w) : NULL;
    *nomem = count && !w;
    json_array_foreach(anims, ai, a) {
        json_t *samplers = json_object_get(a, "samplers");
        json_array_foreach(json_object_get(a, "channels"), ci, c) {
            json_t *target = json_object_get(c, "target");
            const char *p = json_string_value(json_object_get(target, "path"));
            if (!w || !p || strcmp(p, "weights") != 0)
                continue;
            json_int_t ni = json_integer_value(json_object_get(target, "node"));
            gltf_weights *e = &w[k];
            memset(e, 0, sizeof *e);
            e->animation = ai;
            if (!(e->node = rune__gltf_node_name(root, ni, arena))) {
                *nomem = true;
                continue;
            }
            json_t *sampler = json_array_get(samplers, (size_t)json_integer_value(json_object_get(c, "sampler")));
            e->readable = read_channel(&g, root, sampler, json_array_get(nodes, (size_t)ni), e, arena, nomem);
            k++;
        }
    }
    json_decref(root);
    free(g.bytes);
    *out = w;
    return k;
}
