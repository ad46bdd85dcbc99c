/* A glTF asset's own bytes, for what assimp 5.2's C API drops: the JSON
 * text (of a .gltf, or a .glb's JSON chunk), its buffers (data URIs, .bin
 * files beside it, or the GLB BIN chunk) and accessors read as floats
 * (plain, or normalized integers as glTF 2.0 converts them). */
#include "gltf_file.h"
#include "../base/file_read.h"
#include "../base/alloc.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>


static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool rune__gltf_frame(gltf_file *g)
{
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

/* Reads a .gltf or .glb; false when unreadable or malformed. */
static bool gltf_open(const char *path, gltf_file *g)
{
    memset(g, 0, sizeof *g);
    if (!(g->bytes = rune__read_file(path, MAX_ASSET_BYTES, &g->size)))
        return false;
    const char *slash = strrchr(path, '/');
    snprintf(g->dir, sizeof g->dir, "%.*s", slash ? (int)(slash - path + 1) : 0, path);
    return rune__gltf_frame(g);
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

/* Bytes of one component and its value as a float: plain floats, or the
 * normalized integers glTF allows for some outputs (morph weights among
 * them), converted as glTF 2.0 says: c / 255, max(c / 127, -1), ... */
static size_t component_bytes(json_int_t type, bool normalized)
{
    if (type == 5126)
        return 4;
    if (!normalized)
        return 0;
    return type == 5120 || type == 5121 ? 1 : (type == 5122 || type == 5123 ? 2 : 0);
}

static float component(const unsigned char *p, json_int_t type)
{
    float f;
    int16_t s;
    uint16_t u;
    switch (type) {
    case 5120: return fmaxf((float)(int8_t)p[0] / 127.0f, -1.0f);
    case 5121: return (float)p[0] / 255.0f;
    case 5122: memcpy(&s, p, 2); return fmaxf((float)s / 32767.0f, -1.0f);
    case 5123: memcpy(&u, p, 2); return (float)u / 65535.0f;
    default: memcpy(&f, p, 4); return f;
    }
}

/* A non-negative integer member of obj (absent: 0), or -1 when it is
 * negative or not an integer: offsets and strides come from the file. */
static json_int_t member_size(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return 0;
    return json_is_integer(v) && json_integer_value(v) >= 0 ? json_integer_value(v) : -1;
}

/* Whether n elements of elem bytes, stride bytes apart from start, lie
 * inside len bytes. Every number comes from the file, so the test is made
 * without a product or sum that could wrap (a stride of 2^62 times 4 is 0
 * in 64 bits). */
static bool elements_fit(size_t len, json_int_t start, json_int_t n, json_int_t stride, size_t elem)
{
    if (start < 0 || n <= 0 || stride < 0 || (size_t)start > len || elem > len - (size_t)start)
        return false;
    size_t room = len - (size_t)start - elem; /* bytes past the first element's start */
    return n == 1 || (size_t)stride <= room / (size_t)(n - 1);
}

/* Reads accessor `a` (count x width values) as floats into the arena. */
const float *rune__gltf_floats(const gltf_file *g, json_t *root, rune__arena *arena, json_int_t a, size_t *count,
                                int *width, bool *nomem)
{
    json_t *acc = json_array_get(json_object_get(root, "accessors"), (size_t)a);
    const char *type = json_string_value(json_object_get(acc, "type"));
    int w = !type ? 0 : strcmp(type, "SCALAR") == 0 ? 1 : strcmp(type, "VEC3") == 0 ? 3 : strcmp(type, "VEC4") == 0 ? 4 : 0;
    json_t *view = json_array_get(json_object_get(root, "bufferViews"),
                                  (size_t)json_integer_value(json_object_get(acc, "bufferView")));
    json_int_t n = json_integer_value(json_object_get(acc, "count"));
    json_int_t ct = json_integer_value(json_object_get(acc, "componentType"));
    size_t cb = component_bytes(ct, json_is_true(json_object_get(acc, "normalized")));
    if (w == 0 || !view || cb == 0 || n <= 0 || n > (1 << 24))
        return NULL; /* not floats: keep assimp's keys */
    size_t elem = (size_t)w * cb;
    json_int_t stride = member_size(view, "byteStride");
    json_int_t view_offset = member_size(view, "byteOffset"), acc_offset = member_size(acc, "byteOffset");
    stride = stride == 0 ? (json_int_t)elem : stride;
    /* glTF allows strides of 4 to 252 bytes; anything else is not a layout
     * this reader can trust (assimp keeps its own keys then) */
    if (stride < (json_int_t)elem || stride > 252 || view_offset < 0 || acc_offset < 0 ||
        acc_offset > INT64_MAX - view_offset)
        return NULL;
    size_t len = 0;
    unsigned char *bytes = buffer_bytes(g, root, (size_t)json_integer_value(json_object_get(view, "buffer")), &len);
    json_int_t start = view_offset + acc_offset;
    float *out = NULL;
    if (bytes && elements_fit(len, start, n, stride, elem)) {
        if (!(out = rune__arena_array(arena, (size_t)n * (size_t)w, sizeof *out)))
            *nomem = true;
        for (json_int_t i = 0; out && i < n; i++)
            for (int c = 0; c < w; c++)
                out[i * w + c] = component(bytes + start + (size_t)i * (size_t)stride + (size_t)c * cb, ct);
    }
    free(bytes);
    *count = (size_t)n;
    *width = w;
    return out;
}

bool rune__gltf_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m)
        return false;
    for (size_t i = 0; i < m; i++)
        if ((s[n - m + i] | 0x20) != suffix[i])
            return false;
    return true;
}


json_t *rune__gltf_load(const char *path, gltf_file *g)
{
    memset(g, 0, sizeof *g);
    if (!rune__gltf_has_suffix(path, ".gltf") && !rune__gltf_has_suffix(path, ".glb"))
        return NULL;
    return gltf_open(path, g) ? json_loadb(g->json, g->json_len, 0, NULL) : NULL;
}

const char *rune__gltf_node_name(json_t *root, json_int_t ni, rune__arena *arena)
{
    const char *name = json_string_value(json_object_get(json_array_get(json_object_get(root, "nodes"), (size_t)ni),
                                                         "name"));
    char fallback[32];
    snprintf(fallback, sizeof fallback, "nodes[%lld]", (long long)ni);
    return rune__arena_strdup(arena, name ? name : fallback);
}
