/* Mesh sections of a .rune asset (asset_meshes.h, docs/format.md): the
 * mesh's arrays back to back as the engine reads them, so reading is a
 * copy and a check -- every count against the section's size, every
 * number finite, every index below its count, weights within 0..1 -- and
 * a mesh that fails names what failed. */
#include "asset_meshes.h"
#include "rune/asset.h"

#include <math.h>
#include <stdio.h>

typedef struct mesh_sizes {
    uint64_t n, t, k, binds, morphs, morph_normals;
    bool normals, tangents;
} mesh_sizes;

/* The section's bytes for these counts, in 64 bits (no count is past
 * 2^32, so no term overflows). */
static uint64_t section_bytes(const mesh_sizes *z)
{
    uint64_t b = MESH_HEAD_BYTES + MESH_BIND_BYTES * z->binds + MESH_MORPH_BYTES * z->morphs;
    b += 12 * z->n + (z->normals ? 12 * z->n : 0) + (z->tangents ? 16 * z->n : 0) + 12 * z->t;
    b += ((2 * z->k * z->n + 3) & ~(uint64_t)3) + 4 * z->k * z->n;
    b += 12 * z->n * (z->morphs + z->morph_normals);
    return b;
}

static mesh_sizes sizes_of(const rune_mesh *m)
{
    mesh_sizes z = {m->vertex_count, m->triangle_count, m->influences, m->bind_count, m->morph_count, 0,
                    m->normals != NULL, m->tangents != NULL};
    for (size_t i = 0; i < m->morph_count; i++)
        z.morph_normals += m->morphs[i].normals != NULL && m->normals != NULL;
    return z;
}

size_t rune__asset_mesh_bytes(const rune_mesh *m)
{
    mesh_sizes z = sizes_of(m);
    if (z.n > UINT32_MAX || z.t > UINT32_MAX || z.binds > UINT32_MAX || z.morphs > UINT32_MAX || !z.k ||
        z.k > RUNE_SKIN_MAX_INFLUENCES)
        return 0;
    uint64_t b = section_bytes(&z);
    return b <= RUNE_ASSET_MAX_BYTES ? (size_t)b : 0;
}

static unsigned char *put_floats(unsigned char *p, const float *v, size_t n)
{
    memcpy(p, v, 4 * n);
    return p + 4 * n;
}

void rune__asset_mesh_write(const rune_mesh *m, unsigned char *p, asset_string_ref ref, void *encoder)
{
    mesh_sizes z = sizes_of(m);
    uint32_t name = ref(encoder, m->name);
    if (p) {
        uint32_t head[8] = {name, (uint32_t)z.n, (uint32_t)z.t, (uint32_t)z.k, (uint32_t)z.binds, (uint32_t)z.morphs,
                            (z.normals ? MESH_NORMALS : 0u) | (z.tangents ? MESH_TANGENTS : 0u), 0};
        for (int i = 0; i < 8; i++)
            put_u32(p + 4 * i, head[i]);
    }
    unsigned char *q = p ? p + MESH_HEAD_BYTES : NULL;
    for (size_t b = 0; q && b < z.binds; b++, q += MESH_BIND_BYTES) {
        put_u32(q, (uint32_t)m->bind_joints[b]);
        put_floats(q + 4, m->inverse_binds[b].m, 16);
    }
    for (size_t i = 0; i < z.morphs; i++) {
        uint32_t mn = ref(encoder, m->morphs[i].name);
        if (q) {
            put_u32(q, mn);
            put_u32(q + 4, m->morphs[i].normals && m->normals ? MESH_NORMALS : 0u);
            q += MESH_MORPH_BYTES;
        }
    }
    if (!q)
        return;
    q = put_floats(q, m->positions, 3 * z.n);
    if (z.normals)
        q = put_floats(q, m->normals, 3 * z.n);
    if (z.tangents)
        q = put_floats(q, m->tangents, 4 * z.n);
    memcpy(q, m->indices, 12 * z.t), q += 12 * z.t;
    memcpy(q, m->joints, 2 * z.k * z.n), q += (2 * z.k * z.n + 3) & ~(size_t)3;
    q = put_floats(q, m->weights, z.k * z.n);
    for (size_t i = 0; i < z.morphs; i++) {
        q = put_floats(q, m->morphs[i].positions, 3 * z.n);
        if (m->morphs[i].normals && m->normals)
            q = put_floats(q, m->morphs[i].normals, 3 * z.n);
    }
}

static bool finite_all(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

/* An array of `count` elements of `bytes` copied out of the section at
 * *q into the arena (4-byte aligned there), *q advanced. */
static void *take(rune__arena *arena, const unsigned char **q, size_t count, size_t bytes)
{
    void *out = rune__arena_array(arena, count ? count : 1, bytes);
    if (out && count)
        memcpy(out, *q, count * bytes);
    *q += count * bytes;
    return out;
}

#define FAIL(...) (snprintf(why, why_size, __VA_ARGS__), RUNE_E_PARSE)

rune_status rune__asset_mesh_read(const asset_strings *strings, const unsigned char *p, size_t size, size_t joints,
                                  rune__arena *arena, rune_mesh *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (size < MESH_HEAD_BYTES)
        return FAIL("%zu bytes, less than the %d-byte head", size, MESH_HEAD_BYTES);
    uint32_t flags = get_u32(p + 24);
    mesh_sizes z = {get_u32(p + 4), get_u32(p + 8), get_u32(p + 12), get_u32(p + 16), get_u32(p + 20), 0,
                    (flags & MESH_NORMALS) != 0, (flags & MESH_TANGENTS) != 0};
    if ((flags & ~(uint32_t)(MESH_NORMALS | MESH_TANGENTS)) || get_u32(p + 28))
        return FAIL("unknown flags or reserved bytes");
    if (z.k < 1 || z.k > RUNE_SKIN_MAX_INFLUENCES || !z.binds || z.binds > 65536)
        return FAIL("%u influences and %u binds (1..%d influences, 1..65536 binds)", (unsigned)z.k,
                    (unsigned)z.binds, RUNE_SKIN_MAX_INFLUENCES);
    if ((uint64_t)MESH_HEAD_BYTES + MESH_BIND_BYTES * z.binds + MESH_MORPH_BYTES * z.morphs > size)
        return FAIL("%u binds and %u morphs do not fit its %zu bytes", (unsigned)z.binds, (unsigned)z.morphs, size);
    const unsigned char *mp = p + MESH_HEAD_BYTES + MESH_BIND_BYTES * z.binds;
    for (uint64_t i = 0; i < z.morphs; i++) {
        uint32_t mf = get_u32(mp + MESH_MORPH_BYTES * i + 4);
        if (mf & ~(uint32_t)MESH_NORMALS || ((mf & MESH_NORMALS) && !z.normals))
            return FAIL("morph %u: bad flags", (unsigned)i);
        z.morph_normals += (mf & MESH_NORMALS) != 0;
    }
    if (section_bytes(&z) != size)
        return FAIL("%zu bytes, its counts give %llu", size, (unsigned long long)section_bytes(&z));
    if (!(out->name = asset_string_at(strings, get_u32(p))))
        return FAIL("name: not a string");
    out->name = rune__arena_strdup(arena, out->name);
    size_t n = z.n, k = z.k;
    int32_t *bind_joints = rune__arena_array(arena, z.binds, sizeof *bind_joints);
    rune_mat4 *inverse = rune__arena_array(arena, z.binds, sizeof *inverse);
    rune_mesh_morph *morphs = rune__arena_array(arena, z.morphs ? z.morphs : 1, sizeof *morphs);
    if (!out->name || !bind_joints || !inverse || !morphs)
        return RUNE_E_NOMEM;
    const unsigned char *q = p + MESH_HEAD_BYTES;
    for (size_t b = 0; b < z.binds; b++, q += MESH_BIND_BYTES) {
        bind_joints[b] = (int32_t)get_u32(q);
        memcpy(inverse[b].m, q + 4, 64);
        if (bind_joints[b] < 0 || (size_t)bind_joints[b] >= joints)
            return FAIL("bind %zu: joint %d, not a joint of the rig (%zu joints)", b, (int)bind_joints[b], joints);
        if (!finite_all(inverse[b].m, 16))
            return FAIL("bind %zu: inverse bind matrix not finite", b);
    }
    for (size_t i = 0; i < z.morphs; i++, q += MESH_MORPH_BYTES) {
        const char *mn = asset_string_at(strings, get_u32(q));
        if (!mn || !(morphs[i].name = rune__arena_strdup(arena, mn)))
            return mn ? RUNE_E_NOMEM : FAIL("morph %zu: name not a string", i);
    }
    const float *pos = take(arena, &q, 3 * n, 4);
    const float *nrm = z.normals ? take(arena, &q, 3 * n, 4) : NULL;
    const float *tan = z.tangents ? take(arena, &q, 4 * n, 4) : NULL;
    const uint32_t *idx = take(arena, &q, 3 * z.t, 4);
    const uint16_t *jnt = take(arena, &q, k * n, 2);
    q += (2 * k * n) % 4;
    const float *wgt = take(arena, &q, k * n, 4);
    if (!pos || (z.normals && !nrm) || (z.tangents && !tan) || !idx || !jnt || !wgt)
        return RUNE_E_NOMEM;
    if (!finite_all(pos, 3 * n) || (nrm && !finite_all(nrm, 3 * n)) || (tan && !finite_all(tan, 4 * n)))
        return FAIL("a vertex position, normal or tangent not finite");
    for (size_t i = 0; i < 3 * z.t; i++)
        if (idx[i] >= n)
            return FAIL("triangle %zu: vertex %u past the %zu vertices", i / 3, (unsigned)idx[i], n);
    for (size_t i = 0; i < k * n; i++)
        if (jnt[i] >= z.binds || !(wgt[i] >= 0.0f && wgt[i] <= 1.0f))
            return FAIL("vertex %zu: influence %zu: bind %u of %u, weight %g", i / k, i % k, (unsigned)jnt[i],
                        (unsigned)z.binds, (double)wgt[i]);
    for (size_t i = 0; i < z.morphs; i++) {
        bool with_normals = (get_u32(mp + MESH_MORPH_BYTES * i + 4) & MESH_NORMALS) != 0;
        morphs[i].positions = take(arena, &q, 3 * n, 4);
        morphs[i].normals = with_normals ? take(arena, &q, 3 * n, 4) : NULL;
        if (!morphs[i].positions || (with_normals && !morphs[i].normals))
            return RUNE_E_NOMEM;
        if (!finite_all(morphs[i].positions, 3 * n) || (with_normals && !finite_all(morphs[i].normals, 3 * n)))
            return FAIL("morph %zu (\"%s\"): a delta not finite", i, morphs[i].name);
    }
    out->vertex_count = n, out->triangle_count = z.t;
    out->positions = pos, out->normals = nrm, out->tangents = tan, out->indices = idx;
    out->influences = (uint32_t)k, out->joints = jnt, out->weights = wgt;
    out->bind_count = z.binds, out->bind_joints = bind_joints, out->inverse_binds = inverse;
    out->morph_count = z.morphs, out->morphs = morphs;
    return RUNE_OK;
}
