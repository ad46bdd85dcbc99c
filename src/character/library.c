/* The library of one rig: its clips (compiled and bound), the parameter
 * table, motions and graphs, each found by name once. It owns all of them;
 * characters borrow it. Arrays are parallel (ids beside the objects);
 * lookups go through one name index (a library of 100,000 clips loads in
 * linear time), suggestions for a missing name scan the ids. */
#include "rune/character.h"
#include "../base/alloc.h"
#include "../base/names.h"
#include "../base/name_index.h"
#include "../base/require.h"
#include "character_internal.h"

#include <stdatomic.h>

#include <string.h>

struct rune_library {
    rune_allocator alloc;
    rune_rig *rig;
    /* clips: compiled clip, its binding, its id, a one-clip motion made on
     * demand (graph states that play a clip) */
    rune_clip **clips;
    rune_binding **bindings;
    const char **clip_ids;
    rune_motion **clip_motions;
    size_t clip_count, clip_cap;
    char **params;
    size_t param_count, param_cap;
    rune_motion **motions;
    char **motion_ids;
    int *motion_priority;
    size_t motion_count, motion_cap;
    rune_graph **graphs;
    char **graph_ids;
    int *graph_priority;
    size_t graph_count, graph_cap;
    rune__name_index names; /* every id and parameter name, keyed by its kind */
    _Atomic size_t characters; /* characters using it (rune__library_hold) */
};

/* The kinds of names, each a one-byte key prefix: clips and motions share
 * one namespace (a track plays either) but are found apart. */
static const char CLIP = 'c', MOTION = 'm', GRAPH = 'g', PARAM = 'p';

static int32_t name_of(const rune_library *lib, char kind, const char *name)
{
    return rune__name_index_find(&lib->names, &kind, 1, name, NULL);
}

/* Room for one more name (adds then cannot fail); false: out of memory. */
static bool name_room(rune_library *lib, const char *name)
{
    return rune__name_index_reserve(&lib->names, 1, strlen(name) + 2);
}

rune_status rune_library_create(const rune_joint_desc *joints, size_t joint_count, const rune_allocator *alloc,
                                rune_library **out, rune_error *err)
{
    RUNE_REQUIRE(err, out, "out");
    RUNE_REQUIRE_ARRAY(err, joints, "joints", joint_count, "joint_count");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_library *lib = rune__calloc(alloc, 1, sizeof *lib);
    if (!lib)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a library");
    lib->alloc = *alloc;
    rune__name_index_init(&lib->names, alloc);
    atomic_init(&lib->characters, 0);
    rune_status st = rune_rig_create(joints, joint_count, alloc, &lib->rig, err);
    if (st) {
        rune_library_destroy(lib);
        return st;
    }
    *out = lib;
    return RUNE_OK;
}

static void free_strings(const rune_allocator *a, char **s, size_t n, size_t cap)
{
    for (size_t i = 0; s && i < n; i++)
        rune__strfree(a, s[i]);
    rune__free(a, s, cap, sizeof *s);
}

void rune_library_destroy(rune_library *lib)
{
    if (!lib)
        return;
    /* characters borrow the library: destroy them first */
    RUNE_ASSUME(atomic_load(&lib->characters) == 0);
    const rune_allocator *a = &lib->alloc;
    for (size_t i = 0; i < lib->graph_count; i++)
        rune_graph_destroy(lib->graphs[i]);
    rune__free(a, lib->graphs, lib->graph_cap, sizeof *lib->graphs);
    free_strings(a, lib->graph_ids, lib->graph_count, lib->graph_cap);
    rune__free(a, lib->graph_priority, lib->graph_cap, sizeof *lib->graph_priority);
    for (size_t i = 0; i < lib->motion_count; i++)
        rune_motion_destroy(lib->motions[i]);
    rune__free(a, lib->motions, lib->motion_cap, sizeof *lib->motions);
    free_strings(a, lib->motion_ids, lib->motion_count, lib->motion_cap);
    rune__free(a, lib->motion_priority, lib->motion_cap, sizeof *lib->motion_priority);
    free_strings(a, lib->params, lib->param_count, lib->param_cap);
    for (size_t i = 0; i < lib->clip_count; i++) {
        rune_motion_destroy(lib->clip_motions[i]);
        rune_binding_destroy(lib->bindings[i]);
        rune_clip_destroy(lib->clips[i]);
    }
    rune__free(a, lib->clips, lib->clip_cap, sizeof *lib->clips);
    rune__free(a, lib->bindings, lib->clip_cap, sizeof *lib->bindings);
    rune__free(a, lib->clip_ids, lib->clip_cap, sizeof *lib->clip_ids);
    rune__free(a, lib->clip_motions, lib->clip_cap, sizeof *lib->clip_motions);
    rune_rig_destroy(lib->rig);
    rune__name_index_release(&lib->names);
    rune_allocator al = lib->alloc;
    rune__free(&al, lib, 1, sizeof *lib);
}

const rune_rig *rune_library_rig(const rune_library *lib) { return lib->rig; }

void rune__library_hold(const rune_library *lib, bool hold)
{
    /* the count is bookkeeping beside what the library holds, not part of
     * it: characters take a const library */
    _Atomic size_t *n = &((rune_library *)lib)->characters;
    if (hold)
        atomic_fetch_add(n, 1);
    else
        atomic_fetch_sub(n, 1);
}

/* Grows parallel arrays of one capacity together: all or none (a failed
 * growth leaves every array as it was, at *cap). */
static bool grow_parallel(const rune_allocator *a, size_t *cap, size_t need, void **arrays[], const size_t sizes[],
                          size_t n)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap * 2 : 4;
    while (c < need)
        c *= 2;
    void *fresh[4];
    for (size_t i = 0; i < n; i++)
        if (!(fresh[i] = rune__calloc(a, c, sizes[i]))) {
            while (i-- > 0)
                rune__free(a, fresh[i], c, sizes[i]);
            return false;
        }
    for (size_t i = 0; i < n; i++) {
        if (*cap)
            memcpy(fresh[i], *arrays[i], *cap * sizes[i]);
        rune__free(a, *arrays[i], *cap, sizes[i]);
        *arrays[i] = fresh[i];
    }
    *cap = c;
    return true;
}

/* An id already taken by a clip or a motion (they share one namespace, as
 * a track plays either). */
static bool playable_id_taken(const rune_library *lib, const char *id)
{
    return name_of(lib, CLIP, id) >= 0 || name_of(lib, MOTION, id) >= 0;
}

rune_status rune_library_adopt_clip(rune_library *lib, rune_clip *clip, uint32_t *index, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, clip, "clip");
    return rune_library_adopt_retargeted_clip(lib, clip, NULL, index, err);
}

rune_status rune_library_adopt_retargeted_clip(rune_library *lib, rune_clip *clip, const rune_retarget *retarget,
                                               uint32_t *index, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, clip, "clip");
    const char *id = rune_clip_id(clip);
    rune_status st = RUNE_OK;
    if (playable_id_taken(lib, id))
        st = rune_fail(err, RUNE_E_INVALID, "clip \"%s\": the id is already a clip or motion of the library", id);
    void **arrays[] = {(void **)&lib->clips, (void **)&lib->bindings, (void **)&lib->clip_ids,
                       (void **)&lib->clip_motions};
    const size_t sizes[] = {sizeof *lib->clips, sizeof *lib->bindings, sizeof *lib->clip_ids,
                            sizeof *lib->clip_motions};
    if (!st && (!grow_parallel(&lib->alloc, &lib->clip_cap, lib->clip_count + 1, arrays, sizes, 4) ||
                !name_room(lib, id)))
        st = rune_fail(err, RUNE_E_NOMEM, "out of memory adding clip \"%s\"", id);
    /* the clip's curves join the rig's (before the binding maps them) */
    for (size_t c = 0; !st && c < rune_clip_curve_count(clip); c++)
        st = rune_rig_add_curve(lib->rig, rune_clip_curve_name(clip, c), NULL, err);
    rune_binding *b = NULL;
    if (!st)
        st = rune_binding_create(lib->rig, clip, retarget, &lib->alloc, &b, err);
    if (st) {
        rune_clip_destroy(clip);
        return st;
    }
    size_t i = lib->clip_count++;
    lib->clips[i] = clip;
    lib->bindings[i] = b;
    lib->clip_ids[i] = rune_clip_id(clip);
    lib->clip_motions[i] = NULL;
    rune__name_index_add(&lib->names, &CLIP, 1, id, (int32_t)i);
    if (index)
        *index = (uint32_t)i;
    return RUNE_OK;
}

rune_status rune_library_add_clip(rune_library *lib, const rune_sequence_desc *desc, uint32_t *index,
                                  rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, desc, "desc");
    return rune_library_add_retargeted_clip(lib, desc, NULL, index, err);
}

rune_status rune_library_add_retargeted_clip(rune_library *lib, const rune_sequence_desc *desc,
                                             const rune_retarget *retarget, uint32_t *index, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, desc, "desc");
    if (desc->id && playable_id_taken(lib, desc->id))
        return rune_fail(err, RUNE_E_INVALID, "clip \"%s\": the id is already a clip or motion of the library",
                         desc->id);
    rune_clip *clip;
    rune_status st = rune_clip_compile(desc, &lib->alloc, &clip, err);
    return st ? st : rune_library_adopt_retargeted_clip(lib, clip, retarget, index, err);
}

size_t rune_library_clip_count(const rune_library *lib) { return lib->clip_count; }

const rune_clip *rune_library_clip(const rune_library *lib, uint32_t i)
{
    return i < lib->clip_count ? rune_binding_clip(lib->bindings[i]) : NULL;
}

const rune_binding *rune_library_binding(const rune_library *lib, uint32_t i)
{
    return i < lib->clip_count ? lib->bindings[i] : NULL;
}

const rune_binding *const *rune_library_bindings(const rune_library *lib)
{
    return (const rune_binding *const *)lib->bindings;
}

rune_status rune_library_add_param(rune_library *lib, const char *name, uint32_t *index, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, name, "name");
    RUNE_REQUIRE(err, index, "index");
    int32_t have = name_of(lib, PARAM, name);
    if (have >= 0) {
        *index = (uint32_t)have;
        return RUNE_OK;
    }
    char *copy = rune__strdup(&lib->alloc, name);
    if (!copy ||
        !rune__grow(&lib->alloc, (void **)&lib->params, &lib->param_cap, lib->param_count + 1, sizeof *lib->params) ||
        !rune__name_index_add(&lib->names, &PARAM, 1, copy, (int32_t)lib->param_count)) {
        rune__strfree(&lib->alloc, copy);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory adding parameter \"%s\"", name);
    }
    lib->params[lib->param_count] = copy;
    *index = (uint32_t)lib->param_count++;
    return RUNE_OK;
}

size_t rune_library_param_count(const rune_library *lib) { return lib->param_count; }

const char *rune_library_param_name(const rune_library *lib, uint32_t p)
{
    return p < lib->param_count ? lib->params[p] : "";
}

/* Appends (object, id copy, priority) to one of the named lists, the id
 * indexed as a name of `kind`. */
static rune_status add_named(rune_library *lib, char kind, void ***objects, char ***ids, int **priority,
                             size_t *count, size_t *cap, void *object, const char *id, int prio, uint32_t *index,
                             rune_error *err)
{
    char *copy = rune__strdup(&lib->alloc, id);
    void **arrays[] = {(void **)objects, (void **)ids, (void **)priority};
    const size_t sizes[] = {sizeof(void *), sizeof(char *), sizeof(int)};
    if (!copy || !grow_parallel(&lib->alloc, cap, *count + 1, arrays, sizes, 3) || !name_room(lib, id)) {
        rune__strfree(&lib->alloc, copy);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory adding \"%s\"", id);
    }
    rune__name_index_add(&lib->names, &kind, 1, copy, (int32_t)*count);
    (*objects)[*count] = object;
    (*ids)[*count] = copy;
    (*priority)[*count] = rune_priority_clamp(prio);
    if (index)
        *index = (uint32_t)*count;
    (*count)++;
    return RUNE_OK;
}

rune_status rune_library_add_motion(rune_library *lib, const char *id, int priority,
                                    const rune_motion_node_desc *nodes, size_t node_count, uint32_t *index,
                                    rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE_ARRAY(err, nodes, "nodes", node_count, "node_count");
    if (!id || !id[0])
        return rune_fail(err, RUNE_E_INVALID, "motion: empty id");
    if (playable_id_taken(lib, id))
        return rune_fail(err, RUNE_E_INVALID, "motion \"%s\": the id is already a clip or motion of the library", id);
    rune_motion *m;
    rune_status st = rune_motion_create(nodes, node_count, lib->param_count, lib->clip_count, &lib->alloc, &m, err);
    if (st)
        return st;
    st = add_named(lib, MOTION, (void ***)&lib->motions, &lib->motion_ids, &lib->motion_priority, &lib->motion_count,
                   &lib->motion_cap, m, id, priority, index, err);
    if (st)
        rune_motion_destroy(m);
    return st;
}

size_t rune_library_motion_count(const rune_library *lib) { return lib->motion_count; }

const rune_motion *rune_library_motion(const rune_library *lib, uint32_t i)
{
    return i < lib->motion_count ? lib->motions[i] : NULL;
}

const char *rune_library_motion_id(const rune_library *lib, uint32_t i)
{
    return i < lib->motion_count ? lib->motion_ids[i] : "";
}

int rune_library_motion_priority(const rune_library *lib, uint32_t i)
{
    return i < lib->motion_count ? lib->motion_priority[i] : RUNE_PRIORITY_CORE;
}

const rune_motion *rune_library_clip_motion(rune_library *lib, uint32_t clip)
{
    if (clip >= lib->clip_count)
        return NULL;
    if (!lib->clip_motions[clip]) {
        rune_motion_sample_desc sample = {-1, clip, 0.0f, {0.0f, 0.0f}, 1.0f};
        rune_motion_node_desc node = {RUNE_MOTION_CLIP, 0, 0, RUNE_BLEND2D_CARTESIAN, &sample, 1};
        if (rune_motion_create(&node, 1, lib->param_count, lib->clip_count, &lib->alloc, &lib->clip_motions[clip],
                               NULL))
            return NULL;
    }
    return lib->clip_motions[clip];
}

rune_status rune_library_add_graph(rune_library *lib, const char *id, int priority, const rune_graph_desc *desc,
                                   uint32_t *index, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, desc, "desc");
    if (!id || !id[0])
        return rune_fail(err, RUNE_E_INVALID, "graph: empty id");
    if (name_of(lib, GRAPH, id) >= 0)
        return rune_fail(err, RUNE_E_INVALID, "graph \"%s\": the id is already a graph of the library", id);
    if (desc->param_count != lib->param_count)
        return rune_fail(err, RUNE_E_INVALID, "graph \"%s\": %zu parameters, but the library has %zu", id,
                         desc->param_count, lib->param_count);
    rune_graph *g;
    rune_status st = rune_graph_create(desc, lib->rig, &lib->alloc, &g, err);
    if (st)
        return st;
    st = add_named(lib, GRAPH, (void ***)&lib->graphs, &lib->graph_ids, &lib->graph_priority, &lib->graph_count,
                   &lib->graph_cap, g, id, priority, index, err);
    if (st)
        rune_graph_destroy(g);
    return st;
}

size_t rune_library_graph_count(const rune_library *lib) { return lib->graph_count; }

const rune_graph *rune_library_graph(const rune_library *lib, uint32_t i)
{
    return i < lib->graph_count ? lib->graphs[i] : NULL;
}

const char *rune_library_graph_id(const rune_library *lib, uint32_t i)
{
    return i < lib->graph_count ? lib->graph_ids[i] : "";
}

int rune_library_graph_priority(const rune_library *lib, uint32_t i)
{
    return i < lib->graph_count ? lib->graph_priority[i] : RUNE_PRIORITY_CORE;
}

/* Index of the name of `kind`, or NOT_FOUND naming `what`, with the
 * closest of names[0..n) suggested. */
static rune_status find(const rune_library *lib, char kind, const char *const *names, size_t n, const char *name,
                        const char *what, uint32_t *out, rune_error *err)
{
    int32_t i = name ? name_of(lib, kind, name) : -1;
    if (i >= 0) {
        *out = (uint32_t)i;
        return RUNE_OK;
    }
    char hint[RUNE_NAME_SUGGEST_MAX + 32];
    return rune_fail(err, RUNE_E_NOT_FOUND, "no %s \"%s\" in the library%s", what, name ? name : "",
                     rune__did_you_mean(hint, sizeof hint, name, names, n));
}

rune_status rune_library_find_clip(const rune_library *lib, const char *id, uint32_t *clip, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, clip, "clip");
    return find(lib, CLIP, lib->clip_ids, lib->clip_count, id, "clip", clip, err);
}

rune_status rune_library_find_motion(const rune_library *lib, const char *id, uint32_t *motion, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, motion, "motion");
    return find(lib, MOTION, (const char *const *)lib->motion_ids, lib->motion_count, id, "motion", motion, err);
}

rune_status rune_library_find_graph(const rune_library *lib, const char *id, uint32_t *graph, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, graph, "graph");
    return find(lib, GRAPH, (const char *const *)lib->graph_ids, lib->graph_count, id, "graph", graph, err);
}

rune_status rune_library_find_param(const rune_library *lib, const char *name, uint32_t *param, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, param, "param");
    return find(lib, PARAM, (const char *const *)lib->params, lib->param_count, name, "parameter", param, err);
}

rune_status rune_library_find_joint(const rune_library *lib, const char *name, int32_t *joint, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, joint, "joint");
    return rune_rig_find_joint(lib->rig, name, joint, err);
}

rune_status rune_library_find_curve(const rune_library *lib, const char *name, uint32_t *curve, rune_error *err)
{
    RUNE_REQUIRE(err, lib, "lib");
    RUNE_REQUIRE(err, curve, "curve");
    int32_t c = name ? rune_rig_find_curve(lib->rig, name) : -1;
    if (c >= 0) {
        *curve = (uint32_t)c;
        return RUNE_OK;
    }
    rune__name_match m;
    rune__match_init(&m, name);
    char hint[RUNE_NAME_SUGGEST_MAX + 32];
    for (size_t k = 0; k < rune_rig_curve_count(lib->rig); k++)
        rune__match_offer(&m, rune_rig_curve_name(lib->rig, k));
    return rune_fail(err, RUNE_E_NOT_FOUND, "no curve \"%s\" in the library%s", name ? name : "",
                     rune__match_hint(&m, hint, sizeof hint));
}
