/* The skeletons a scenario's clips may be authored on ("source_rigs") and
 * the retarget mappings onto the document's rig ("retargets";
 * docs/scenario.md): a source rig's joints come from the document or from
 * a .rune asset, whose clips then join the document's, authored on it; a
 * clip's "rig" names its skeleton. Names resolve against the rigs when the
 * library is built (scenario_library.c). */
#include "rune/asset.h"
#include "json_read.h"
#include "scenario_internal.h"

#include <string.h>

rune_status rune__scenario_load_joints(json_t *joints, const char *where, rune__arena *arena, rune_joint_desc **out,
                                       size_t *count, bool *scaled, rune_error *err)
{
    rune_status st;
    *count = json_array_size(joints);
    *out = rune__arena_array(arena, *count ? *count : 1, sizeof **out);
    if (!*out)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    for (size_t i = 0; i < *count; i++) {
        char path[JR_PATH_MAX];
        snprintf(path, sizeof path, "%s[%zu]", where, i);
        json_t *j = json_array_get(joints, i);
        rune_joint_desc *d = &(*out)[i];
        if ((st = jr_object(j, path, err)) || (st = jr_string(j, "part", path, true, NULL, arena, &d->part, err)) ||
            (st = jr_string(j, "parent", path, false, "", arena, &d->parent, err)) ||
            (st = jr_xform(j, "frame", path, &d->frame, err)))
            return st;
        json_t *frame = json_object_get(j, "frame");
        if (frame && json_object_get(frame, "s")) {
            char fpath[JR_PATH_MAX];
            snprintf(fpath, sizeof fpath, "%s.frame", path);
            if ((st = jr_vec3(frame, "s", fpath, rune_v3(1, 1, 1), &d->scale, err)))
                return st;
            d->scaled = *scaled = true;
        }
    }
    return RUNE_OK;
}

static int32_t rig_index(const rune_scenario *s, const char *id)
{
    for (size_t i = 0; i < s->source_rig_count; i++)
        if (strcmp(s->source_rigs[i].id, id) == 0)
            return (int32_t)i;
    return -1;
}

/* One source rig: {"id", "joints"} or {"id", "asset"}. */
static rune_status load_one(json_t *r, const char *path, rune_scenario *s, size_t i, rune__arena *arena,
                            rune_error *err)
{
    scenario_box *box = (scenario_box *)s;
    rune_scenario_rig *d = &s->source_rigs[i];
    const char *asset;
    json_t *joints;
    char p[JR_PATH_MAX];
    rune_status st;
    if ((st = jr_object(r, path, err)) || (st = jr_string(r, "id", path, true, NULL, arena, &d->id, err)) ||
        (st = jr_string(r, "asset", path, false, NULL, arena, &asset, err)) ||
        (st = jr_array(r, "joints", path, false, &joints, err)))
        return st;
    if (!d->id[0])
        return rune_fail(err, RUNE_E_INVALID, "%s: empty", jr_join(p, path, "id"));
    if (rig_index(s, d->id) >= 0 && rig_index(s, d->id) < (int32_t)i)
        return rune_fail(err, RUNE_E_INVALID, "%s: \"%s\" is already a source rig", jr_join(p, path, "id"), d->id);
    if (!asset == !joints)
        return rune_fail(err, RUNE_E_INVALID, "%s: give \"joints\" or \"asset\" (one of them)", path);
    if (joints) {
        bool scaled = false;
        st = rune__scenario_load_joints(joints, jr_join(p, path, "joints"), arena, &d->joints, &d->joint_count, &scaled,
                                        err);
        s->uses_scale |= scaled;
        return st;
    }
    if (!(d->asset = rune__scenario_resolve(arena, s->file, asset)))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    if ((st = rune_asset_load_file(d->asset, NULL, &box->source_assets[i], err))) {
        rune_error_prefix(err, "%s: ", jr_join(p, path, "asset"));
        return st;
    }
    const rune_joint_desc *j = rune_asset_joints(box->source_assets[i], &d->joint_count);
    if (!d->joint_count)
        return rune_fail(err, RUNE_E_INVALID, "%s: \"%s\" has no rig", jr_join(p, path, "asset"), asset);
    d->joints = (rune_joint_desc *)j;
    s->uses_scale |= rune_rig_scaled(rune_asset_rig(box->source_assets[i]));
    return RUNE_OK;
}

rune_status rune__scenario_load_source_rigs(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err)
{
    scenario_box *box = (scenario_box *)s;
    json_t *list;
    rune_status st = jr_array(root, "source_rigs", "", false, &list, err);
    if (st || !list)
        return st;
    size_t n = json_array_size(list);
    s->source_rigs = rune__arena_array(arena, n ? n : 1, sizeof *s->source_rigs);
    box->source_assets = rune__arena_array(arena, n ? n : 1, sizeof *box->source_assets);
    if (!s->source_rigs || !box->source_assets)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char path[JR_PATH_MAX];
        snprintf(path, sizeof path, "source_rigs[%zu]", i);
        s->source_rig_count = i + 1; /* what is loaded is freed with the scenario */
        if ((st = load_one(json_array_get(list, i), path, s, i, arena, err)))
            return st;
    }
    return RUNE_OK;
}

rune_status rune__scenario_clip_rig(json_t *clip, const char *path, const rune_scenario *s, int32_t *out,
                                    rune_error *err)
{
    json_t *v = json_object_get(clip, "rig");
    char p[JR_PATH_MAX];
    *out = -1;
    if (!v)
        return RUNE_OK;
    if (!json_is_string(v))
        return rune_fail(err, RUNE_E_INVALID, "%s: expected the id of a source rig", jr_join(p, path, "rig"));
    if ((*out = rig_index(s, json_string_value(v))) < 0)
        return rune_fail(err, RUNE_E_INVALID, "%s: no source rig \"%s\" (see \"source_rigs\")", jr_join(p, path, "rig"),
                         json_string_value(v));
    return RUNE_OK;
}

rune_status rune__scenario_source_clips(rune_scenario *s, rune__arena *arena, rune_error *err)
{
    scenario_box *box = (scenario_box *)s;
    for (size_t r = 0; r < s->source_rig_count; r++) {
        rune_asset *a = box->source_assets[r];
        size_t n = a ? rune_asset_clip_count(a) : 0;
        if (!n)
            continue;
        rune_sequence_desc *all = rune__arena_array(arena, s->clip_count + n, sizeof *all);
        if (!all)
            return rune_fail(err, RUNE_E_NOMEM, "out of memory");
        if (s->clip_count)
            memcpy(all, s->clips, s->clip_count * sizeof *all);
        for (size_t c = 0; c < n; c++) {
            size_t at = s->clip_count + c;
            if (rune__scenario_clip_sequence(rune_asset_clip(a, c), arena, &all[at]))
                return rune_fail(err, RUNE_E_NOMEM, "out of memory");
            for (size_t k = 0; k < at; k++)
                if (strcmp(all[k].id, all[at].id) == 0)
                    return rune_fail(err, RUNE_E_INVALID, "source_rigs[%zu].asset: clip \"%s\" has the id of another clip",
                                     r, all[at].id);
        }
        size_t first = s->clip_count;
        s->clips = all;
        s->clip_count += n;
        if (rune__scenario_set_clip_rigs(s, arena, first, s->clip_count, (int32_t)r))
            return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    }
    return RUNE_OK;
}

rune_status rune__scenario_load_retargets(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err)
{
    json_t *list;
    rune_status st = jr_array(root, "retargets", "", false, &list, err);
    if (st || !list)
        return st;
    size_t n = json_array_size(list);
    s->retargets = rune__arena_array(arena, n ? n : 1, sizeof *s->retargets);
    if (!s->retargets)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char path[JR_PATH_MAX], p[JR_PATH_MAX];
        snprintf(path, sizeof path, "retargets[%zu]", i);
        json_t *r = json_array_get(list, i), *map;
        const char *from;
        if ((st = jr_object(r, path, err)) || (st = jr_string(r, "from", path, true, NULL, arena, &from, err)))
            return st;
        int32_t k = rig_index(s, from);
        if (k < 0)
            return rune_fail(err, RUNE_E_INVALID, "%s: no source rig \"%s\" (see \"source_rigs\")",
                             jr_join(p, path, "from"), from);
        for (size_t o = 0; o < i; o++)
            if (s->retargets[o].from == (uint32_t)k)
                return rune_fail(err, RUNE_E_INVALID, "%s: \"%s\" already has a mapping (retargets[%zu])",
                                 jr_join(p, path, "from"), from, o);
        rune_scenario_retarget *d = &s->retargets[i];
        d->from = (uint32_t)k;
        bool foot_ik;
        if ((st = jr_bool(r, "foot_ik", path, true, &foot_ik, err)))
            return st;
        d->no_foot_ik = !foot_ik;
        map = json_object_get(r, "map");
        if (map && !json_is_object(map))
            return rune_fail(err, RUNE_E_INVALID, "%s: expected an object {\"source joint\": \"target joint\"}",
                             jr_join(p, path, "map"));
        d->map_count = map ? json_object_size(map) : 0;
        d->map = rune__arena_array(arena, d->map_count ? d->map_count : 1, sizeof *d->map);
        if (!d->map)
            return rune_fail(err, RUNE_E_NOMEM, "out of memory");
        const char *key;
        json_t *value;
        size_t m = 0;
        json_object_foreach(map, key, value) {
            if (!json_is_string(value) && !json_is_null(value)) {
                char mp[JR_PATH_MAX];
                return rune_fail(err, RUNE_E_INVALID, "%s: expected a target joint name, or null to leave it out",
                                 jr_join(mp, jr_join(p, path, "map"), key));
            }
            d->map[m].source = rune__arena_strdup(arena, key);
            d->map[m].target = json_is_string(value) ? rune__arena_strdup(arena, json_string_value(value)) : NULL;
            if (!d->map[m].source || (json_is_string(value) && !d->map[m].target))
                return rune_fail(err, RUNE_E_NOMEM, "out of memory");
            m++;
        }
        s->retarget_count = i + 1;
    }
    return RUNE_OK;
}
