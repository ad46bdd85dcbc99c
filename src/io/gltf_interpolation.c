/* glTF sampler interpolation modes, read from the asset's own JSON (a
 * .gltf file or the JSON chunk of a .glb), because assimp 5.2's C API hands
 * over key values without them. */
#include "gltf_interpolation.h"
#include "../base/alloc.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* The JSON text of a .gltf or .glb file, malloc'ed; NULL if not glTF. */
static char *gltf_json(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    unsigned char head[20];
    size_t n = fread(head, 1, sizeof head, f);
    if (n == sizeof head && memcmp(head, "glTF", 4) == 0 && memcmp(head + 16, "JSON", 4) == 0) {
        /* GLB: 12-byte header, then chunk 0 = (length, "JSON", text) */
        uint32_t chunk = (uint32_t)head[12] | (uint32_t)head[13] << 8 | (uint32_t)head[14] << 16 |
                         (uint32_t)head[15] << 24;
        if (chunk < (64u << 20) && (buf = malloc(chunk + 1)) && fread(buf, 1, chunk, f) == chunk) {
            *len = chunk;
        } else {
            free(buf);
            buf = NULL;
        }
    } else if (n > 0 && fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size > 0 && size < (64L << 20) && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size + 1)) &&
            fread(buf, 1, (size_t)size, f) == (size_t)size) {
            *len = (size_t)size;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    return buf;
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m)
        return false;
    for (size_t i = 0; i < m; i++)
        if ((s[n - m + i] | 0x20) != suffix[i])
            return false;
    return true;
}

size_t rune__gltf_channel_modes(const char *path, rune__arena *arena, gltf_channel_mode **out)
{
    *out = NULL;
    if (!has_suffix(path, ".gltf") && !has_suffix(path, ".glb"))
        return 0;
    size_t len = 0;
    char *text = gltf_json(path, &len);
    json_t *root = text ? json_loadb(text, len, 0, NULL) : NULL;
    free(text);
    json_t *anims = json_object_get(root, "animations"), *nodes = json_object_get(root, "nodes");
    size_t count = 0, ai, ci;
    json_t *a, *c;
    json_array_foreach(anims, ai, a) count += json_array_size(json_object_get(a, "channels"));
    gltf_channel_mode *m = count ? rune__arena_array(arena, count, sizeof *m) : NULL;
    size_t k = 0;
    json_array_foreach(anims, ai, a) {
        json_t *samplers = json_object_get(a, "samplers");
        json_array_foreach(json_object_get(a, "channels"), ci, c) {
            if (!m)
                break;
            json_t *target = json_object_get(c, "target");
            json_t *sampler = json_array_get(samplers, (size_t)json_integer_value(json_object_get(c, "sampler")));
            const char *interp = json_string_value(json_object_get(sampler, "interpolation"));
            const char *p = json_string_value(json_object_get(target, "path"));
            json_int_t node = json_integer_value(json_object_get(target, "node"));
            const char *name = json_string_value(json_object_get(json_array_get(nodes, (size_t)node), "name"));
            char fallback[32];
            snprintf(fallback, sizeof fallback, "nodes[%lld]", (long long)node); /* assimp's name for it */
            gltf_channel_mode *e = &m[k];
            e->animation = ai;
            e->node = rune__arena_strdup(arena, name ? name : fallback);
            e->path = p && strcmp(p, "rotation") == 0 ? GLTF_ROTATION
                                                      : (p && strcmp(p, "translation") == 0 ? GLTF_TRANSLATION : GLTF_OTHER);
            e->mode = interp && strcmp(interp, "STEP") == 0
                          ? GLTF_STEP
                          : (interp && strcmp(interp, "CUBICSPLINE") == 0 ? GLTF_CUBIC : GLTF_LINEAR);
            if (e->node)
                k++;
        }
    }
    json_decref(root);
    *out = m;
    return k;
}

gltf_mode rune__gltf_mode_of(const gltf_channel_mode *m, size_t n, size_t animation, const char *node, gltf_path path)
{
    for (size_t i = 0; i < n; i++)
        if (m[i].animation == animation && m[i].path == path && strcmp(m[i].node, node) == 0)
            return m[i].mode;
    return GLTF_LINEAR;
}
