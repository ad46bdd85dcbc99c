/* glTF sampler interpolation modes, read from the asset's own JSON (a
 * .gltf file or the JSON chunk of a .glb), because assimp 5.2's C API hands
 * over key values without them; and, for CUBICSPLINE samplers, the key
 * times, values and tangents from the asset's buffers (data URIs, .bin
 * files, or the GLB BIN chunk), which assimp drops. */
#include "gltf_interpolation.h"
#include "../base/file_read.h"
#include "../base/alloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define MAX_ASSET_BYTES (256u << 20)

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The asset: its JSON text and, for a .glb, its BIN chunk. */
typedef struct gltf_file {
    unsigned char *bytes;
    size_t size;
    const char *json;
    size_t json_len;
    const unsigned char *bin;
    size_t bin_len;
    char dir[1024]; /* for relative buffer URIs */
} gltf_file;

static bool open_gltf(const char *path, gltf_file *g)
{
    memset(g, 0, sizeof *g);
    if (!(g->bytes = rune__read_file(path, MAX_ASSET_BYTES, &g->size)))
        return false;
    const char *slash = strrchr(path, '/');
    snprintf(g->dir, sizeof g->dir, "%.*s", slash ? (int)(slash - path + 1) : 0, path);
    if (g->size >= 20 && memcmp(g->bytes, "glTF", 4) == 0) {
        uint32_t jlen = le32(g->bytes + 12);
        if (memcmp(g->bytes + 16, "JSON", 4) != 0 || jlen > g->size - 20)
            return false;
        g->json = (const char *)g->bytes + 20;
        g->json_len = jlen;
        size_t at = 20 + ((jlen + 3u) & ~3u);
        if (at + 8 <= g->size && memcmp(g->bytes + at + 4, "BIN", 4) == 0 && le32(g->bytes + at) <= g->size - at - 8) {
            g->bin = g->bytes + at + 8;
            g->bin_len = le32(g->bytes + at);
        }
    } else {
        g->json = (const char *)g->bytes;
        g->json_len = g->size;
    }
    return true;
}

static int b64(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : (c == '/' ? 63 : -1);
}

/* Bytes of buffer b, malloc'ed (the caller frees); NULL if unreadable. */
static unsigned char *buffer_bytes(const gltf_file *g, json_t *root, size_t b, size_t *len)
{
    json_t *buf = json_array_get(json_object_get(root, "buffers"), b);
    const char *uri = json_string_value(json_object_get(buf, "uri"));
    if (!uri) { /* the GLB BIN chunk */
        unsigned char *copy = g->bin ? malloc(g->bin_len + 1) : NULL;
        if (copy) {
            memcpy(copy, g->bin, g->bin_len);
            *len = g->bin_len;
        }
        return copy;
    }
    const char *comma = strncmp(uri, "data:", 5) == 0 ? strstr(uri, ";base64,") : NULL;
    if (comma) {
        const char *p = comma + 8;
        size_t n = strlen(p);
        unsigned char *out = malloc(n / 4 * 3 + 3);
        size_t k = 0;
        unsigned acc = 0;
        int bits = 0;
        for (; out && *p && *p != '='; p++) {
            int v = b64((unsigned char)*p);
            if (v < 0) {
                free(out);
                return NULL;
            }
            acc = (acc << 6) | (unsigned)v;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                out[k++] = (unsigned char)(acc >> bits);
            }
        }
        *len = k;
        return out;
    }
    if (strstr(uri, "..") || uri[0] == '/' || strchr(uri, ':'))
        return NULL; /* only files beside the asset */
    char path[2048];
    snprintf(path, sizeof path, "%s%s", g->dir, uri);
    return rune__read_file(path, MAX_ASSET_BYTES, len);
}

/* Reads float accessor `a` (count x width floats) into the arena. */
static const float *read_floats(const gltf_file *g, json_t *root, rune__arena *arena, json_int_t a, size_t *count,
                                int *width, bool *nomem)
{
    json_t *acc = json_array_get(json_object_get(root, "accessors"), (size_t)a);
    const char *type = json_string_value(json_object_get(acc, "type"));
    int w = !type ? 0 : strcmp(type, "SCALAR") == 0 ? 1 : strcmp(type, "VEC3") == 0 ? 3 : strcmp(type, "VEC4") == 0 ? 4 : 0;
    json_t *view = json_array_get(json_object_get(root, "bufferViews"),
                                  (size_t)json_integer_value(json_object_get(acc, "bufferView")));
    json_int_t n = json_integer_value(json_object_get(acc, "count"));
    if (w == 0 || !view || json_integer_value(json_object_get(acc, "componentType")) != 5126 || n <= 0 ||
        n > (1 << 24))
        return NULL; /* not plain floats: keep assimp's keys */
    size_t len = 0;
    unsigned char *bytes = buffer_bytes(g, root, (size_t)json_integer_value(json_object_get(view, "buffer")), &len);
    size_t stride = (size_t)json_integer_value(json_object_get(view, "byteStride"));
    size_t start = (size_t)json_integer_value(json_object_get(view, "byteOffset")) +
                   (size_t)json_integer_value(json_object_get(acc, "byteOffset"));
    stride = stride ? stride : (size_t)w * 4;
    float *out = NULL;
    if (bytes && stride >= (size_t)w * 4 && start <= len && (size_t)(n - 1) * stride + (size_t)w * 4 <= len - start) {
        if (!(out = rune__arena_array(arena, (size_t)n * (size_t)w, sizeof *out)))
            *nomem = true;
        for (json_int_t i = 0; out && i < n; i++)
            memcpy(&out[i * w], bytes + start + (size_t)i * stride, (size_t)w * 4);
    }
    free(bytes);
    *count = (size_t)n;
    *width = w;
    return out;
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

size_t rune__gltf_channel_modes(const char *path, rune__arena *arena, gltf_channel_mode **out, bool *nomem)
{
    *out = NULL;
    *nomem = false;
    if (!has_suffix(path, ".gltf") && !has_suffix(path, ".glb"))
        return 0;
    gltf_file g;
    json_t *root = open_gltf(path, &g) ? json_loadb(g.json, g.json_len, 0, NULL) : NULL;
    json_t *anims = json_object_get(root, "animations"), *nodes = json_object_get(root, "nodes");
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
            const char *interp = json_string_value(json_object_get(sampler, "interpolation"));
            const char *p = json_string_value(json_object_get(target, "path"));
            json_int_t node = json_integer_value(json_object_get(target, "node"));
            const char *name = json_string_value(json_object_get(json_array_get(nodes, (size_t)node), "name"));
            char fallback[32];
            snprintf(fallback, sizeof fallback, "nodes[%lld]", (long long)node); /* assimp's name for it */
            gltf_channel_mode *e = &m[k];
            e->animation = ai;
            e->node = rune__arena_strdup(arena, name ? name : fallback);
            static const char *const paths[] = {"translation", "rotation", "scale"};
            e->path = GLTF_OTHER;
            for (int q = 0; p && q < 3; q++)
                if (strcmp(p, paths[q]) == 0)
                    e->path = (gltf_path)q;
            e->mode = interp && strcmp(interp, "STEP") == 0
                          ? GLTF_STEP
                          : (interp && strcmp(interp, "CUBICSPLINE") == 0 ? GLTF_CUBIC : GLTF_LINEAR);
            e->times = e->values = NULL;
            e->keys = 0;
            e->width = 0;
            if (e->mode == GLTF_CUBIC && e->path != GLTF_OTHER) {
                size_t nt = 0, nv = 0;
                int wt = 0, wv = 0;
                const float *t = read_floats(&g, root, arena, json_integer_value(json_object_get(sampler, "input")), &nt, &wt,
                                             nomem);
                const float *v = read_floats(&g, root, arena, json_integer_value(json_object_get(sampler, "output")), &nv, &wv,
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

const gltf_channel_mode *rune__gltf_channel(const gltf_channel_mode *m, size_t n, size_t animation, const char *node,
                                            gltf_path path)
{
    for (size_t i = 0; i < n; i++)
        if (m[i].animation == animation && m[i].path == path && strcmp(m[i].node, node) == 0)
            return &m[i];
    return NULL;
}
