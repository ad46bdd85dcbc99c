/* glTF sampler interpolation modes, read from the asset's own JSON (a
 * .gltf file or the JSON chunk of a .glb), because assimp 5.2's C API hands
 * over key values without them; and, for CUBICSPLINE samplers, the key
 * times, values and tangents from the asset's buffers (data URIs, .bin
 * files, or the GLB BIN chunk), which assimp drops. */
#include "gltf_interpolation.h"
#include "gltf_file.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

size_t rune__gltf_channel_modes(const char *path, rune__arena *arena, gltf_channel_mode **out, bool *nomem)
{
    *out = NULL;
    *nomem = false;
    gltf_file g;
    json_t *root = rune__gltf_load(path, &g), *anims = json_object_get(root, "animations");
    size_t count = 0, ai, ci;
    json_t *a, *c;
    json_array_foreach(anims, ai, a) count += json_array_size(json_object_get(a, "channels"));
    gltf_channel_mode *m = count ? rune__arena_array(arena, count, sizeof *m) : NULL;
    *nomem = count && !m;
    size_t k = 0;
    json_array_foreach(anims, ai, a) {
        json_t *samplers = json_object_get(a, "samplers");
        json_array_foreach(json_object_get(a, "channels"), ci, c) {
            if (!m)
                break;
            json_t *target = json_object_get(c, "target");
            json_t *sampler = json_array_get(samplers, (size_t)json_integer_value(json_object_get(c, "sampler")));
            const char *p = json_string_value(json_object_get(target, "path"));
            gltf_channel_mode *e = &m[k];
            e->animation = ai;
            e->node = rune__gltf_node_name(root, json_integer_value(json_object_get(target, "node")), arena);
            static const char *const paths[] = {"translation", "rotation", "scale"};
            e->path = GLTF_OTHER;
            for (int q = 0; p && q < 3; q++)
                if (strcmp(p, paths[q]) == 0)
                    e->path = (gltf_path)q;
            e->mode = rune__gltf_sampler_mode(sampler);
            e->times = e->values = NULL;
            e->keys = 0;
            e->width = 0;
            if (e->mode == GLTF_CUBIC && e->path != GLTF_OTHER) {
                size_t nt = 0, nv = 0;
                int wt = 0, wv = 0;
                const float *t = rune__gltf_floats(&g, root, arena, json_integer_value(json_object_get(sampler, "input")), &nt, &wt,
                                             nomem);
                const float *v = rune__gltf_floats(&g, root, arena, json_integer_value(json_object_get(sampler, "output")), &nv, &wv,
                                             nomem);
                if (t && v && wt == 1 && nv == 3 * nt && wv == (e->path == GLTF_ROTATION ? 4 : 3)) {
                    e->times = t;
                    e->values = v;
                    e->keys = nt;
                    e->width = wv;
                }
            }
            if (e->node)
                k++;
            else
                *nomem = true;
        }
    }
    json_decref(root);
    free(g.bytes);
    *out = m;
    return k;
}

gltf_mode rune__gltf_sampler_mode(json_t *sampler)
{
    const char *interp = json_string_value(json_object_get(sampler, "interpolation"));
    return interp && strcmp(interp, "STEP") == 0
               ? GLTF_STEP
               : (interp && strcmp(interp, "CUBICSPLINE") == 0 ? GLTF_CUBIC : GLTF_LINEAR);
}

const gltf_channel_mode *rune__gltf_channel(const gltf_channel_mode *m, size_t n, size_t animation, const char *node,
                                            gltf_path path)
{
    for (size_t i = 0; i < n; i++)
        if (m[i].animation == animation && m[i].path == path && strcmp(m[i].node, node) == 0)
            return &m[i];
    return NULL;
}
