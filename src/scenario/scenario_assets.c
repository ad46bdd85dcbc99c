/* A scenario's "assets": .rune files (paths relative to the scenario's
 * directory) whose rig stands in for an omitted "rig" and whose clips
 * join the document's clips, after them, as if written in it (their keys
 * read back as sequences: compiling them gives the asset's clips again).
 * The assets live as long as the scenario. */
#include "rune/asset.h"
#include "json_read.h"
#include "scenario_internal.h"
#include "../base/name_index.h"

#include <stdio.h>
#include <string.h>

rune_status rune__scenario_load_assets(json_t *root, rune_scenario *s, rune__arena *arena, rune_error *err)
{
    scenario_box *box = (scenario_box *)s;
    json_t *list;
    rune_status st = jr_array(root, "assets", "", false, &list, err);
    if (st || !list)
        return st;
    size_t n = json_array_size(list);
    box->assets = rune__arena_array(arena, n ? n : 1, sizeof *box->assets);
    if (!box->assets)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(list, i);
        if (!json_is_string(v) || !json_string_value(v)[0])
            return rune_fail(err, RUNE_E_INVALID, "assets[%zu]: expected a path to a .rune file", i);
        const char *path = rune__scenario_resolve(arena, s->file, json_string_value(v));
        if (!path)
            return rune_fail(err, RUNE_E_NOMEM, "out of memory");
        if ((st = rune_asset_load_file(path, NULL, &box->assets[i], err))) {
            rune_error_prefix(err, "assets[%zu]: ", i);
            return st;
        }
        box->asset_count++;
        const rune_rig *rig = rune_asset_rig(box->assets[i]);
        s->uses_scale |= rig && rune_rig_scaled(rig);
    }
    return RUNE_OK;
}

rune_status rune__scenario_asset_rig(rune_scenario *s)
{
    scenario_box *box = (scenario_box *)s;
    for (size_t i = 0; i < box->asset_count; i++) {
        size_t n;
        const rune_joint_desc *j = rune_asset_joints(box->assets[i], &n);
        if (n) {
            s->joints = (rune_joint_desc *)j;
            s->joint_count = n;
            box->rig_asset = box->assets[i];
            return RUNE_OK;
        }
    }
    return RUNE_E_NOT_FOUND;
}

void rune__scenario_asset_root(rune_scenario *s, bool root_motion_given)
{
    scenario_box *box = (scenario_box *)s;
    if (!box->rig_asset || s->root_joint)
        return;
    int32_t root = rune_asset_root_joint(box->rig_asset);
    if (root >= 0)
        s->root_joint = s->joints[root].part;
    else if (!root_motion_given) /* the asset has no joint that travels */
        s->root_motion = false;
}

rune_status rune__scenario_asset_clips(rune_scenario *s, rune__arena *arena, rune_error *err)
{
    scenario_box *box = (scenario_box *)s;
    size_t extra = 0;
    for (size_t i = 0; i < box->asset_count; i++)
        extra += rune_asset_clip_count(box->assets[i]);
    if (!extra)
        return RUNE_OK;
    rune_sequence_desc *all = rune__arena_array(arena, s->clip_count + extra, sizeof *all);
    if (!all)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory");
    if (s->clip_count)
        memcpy(all, s->clips, s->clip_count * sizeof *all);
    /* every id once: the document's clips, then each asset's in turn */
    rune__name_index ids;
    rune__name_index_init(&ids, NULL);
    rune_status st = RUNE_OK;
    for (size_t k = 0; !st && k < s->clip_count; k++)
        if (!rune__name_index_add(&ids, NULL, 0, all[k].id, (int32_t)k))
            st = rune_fail(err, RUNE_E_NOMEM, "out of memory");
    size_t at = s->clip_count;
    for (size_t i = 0; !st && i < box->asset_count; i++)
        for (size_t c = 0; !st && c < rune_asset_clip_count(box->assets[i]); c++, at++) {
            const rune_clip *clip = rune_asset_clip(box->assets[i], c);
            if (rune__scenario_clip_sequence(clip, arena, &all[at])) {
                st = rune_fail(err, RUNE_E_NOMEM, "out of memory");
                break;
            }
            s->uses_scale |= rune_clip_describe(clip).has_scale;
            int32_t k = rune__name_index_find(&ids, NULL, 0, all[at].id, NULL);
            if (k >= 0)
                st = rune_fail(err, RUNE_E_INVALID, "assets[%zu]: clip \"%s\" has the id of %s", i, all[at].id,
                               (size_t)k < s->clip_count ? "a clip of the document" : "an earlier asset's clip");
            else if (!rune__name_index_add(&ids, NULL, 0, all[at].id, (int32_t)at))
                st = rune_fail(err, RUNE_E_NOMEM, "out of memory");
        }
    rune__name_index_release(&ids);
    if (st)
        return st;
    size_t first = s->clip_count;
    s->clips = all;
    s->clip_count = at;
    return rune__scenario_set_clip_rigs(s, arena, first, at, -1) ? rune_fail(err, RUNE_E_NOMEM, "out of memory")
                                                                : RUNE_OK;
}

void rune__scenario_free_assets(rune_scenario *s)
{
    scenario_box *box = (scenario_box *)s;
    for (size_t i = 0; i < box->asset_count; i++)
        rune_asset_destroy(box->assets[i]);
    box->asset_count = 0;
    for (size_t i = 0; box->source_assets && i < s->source_rig_count; i++)
        rune_asset_destroy(box->source_assets[i]);
    box->source_assets = NULL;
}
