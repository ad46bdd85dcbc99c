/* What the scenario loaders share about where clips come from: paths
 * resolved beside the document, a compiled clip's keys as a sequence (an
 * asset's clips join the document's this way), and the record of which
 * skeleton each clip is authored on. */
#include "scenario_internal.h"

#include <string.h>

const char *rune__scenario_resolve(rune__arena *arena, const char *file, const char *path)
{
    const char *slash = strrchr(file, '/');
    if (path[0] == '/' || !slash)
        return rune__arena_strdup(arena, path);
    size_t dir = (size_t)(slash - file) + 1, n = strlen(path);
    char *out = rune__arena_alloc(arena, dir + n + 1);
    if (out) {
        memcpy(out, file, dir);
        memcpy(out + dir, path, n + 1);
    }
    return out;
}

rune_status rune__scenario_clip_sequence(const rune_clip *c, rune__arena *arena, rune_sequence_desc *d)
{
    rune_clip_info info = rune_clip_describe(c);
    size_t keys = info.key_count, ckeys = info.curve_key_count, all = keys + ckeys, markers = info.marker_count;
    rune_keyframe_desc *kf = rune__arena_array(arena, all ? all : 1, sizeof *kf);
    rune_key_pose_desc *poses = rune__arena_array(arena, keys ? keys : 1, sizeof *poses);
    rune_curve_key_desc *curves = rune__arena_array(arena, ckeys ? ckeys : 1, sizeof *curves);
    rune_marker_desc *md = rune__arena_array(arena, markers ? markers : 1, sizeof *md);
    if (!kf || !poses || !curves || !md)
        return RUNE_E_NOMEM;
    size_t k = 0;
    for (size_t t = 0; t < info.track_count; t++)
        for (size_t i = 0; i < rune_clip_track(c, t).key_count; i++, k++) {
            rune_clip_track_key(c, t, i, &kf[k].time, &poses[k]);
            kf[k].poses = &poses[k];
            kf[k].pose_count = 1;
        }
    /* one keyframe a curve key: compiling sorts them back by name and time */
    for (size_t cv = 0, n = 0; cv < info.curve_count; cv++)
        for (size_t i = 0; i < rune_clip_curve(c, cv).key_count; i++, k++, n++) {
            rune_clip_curve_key(c, cv, i, &kf[k].time, &curves[n]);
            kf[k].curves = &curves[n];
            kf[k].curve_count = 1;
        }
    for (size_t i = 0; i < markers; i++)
        md[i] = (rune_marker_desc){info.markers[i].time, info.markers[i].name, info.markers[i].value};
    *d = (rune_sequence_desc){info.id, info.revision, info.loops, info.priority, kf, all, md, markers, info.length};
    return RUNE_OK;
}

rune_status rune__scenario_set_clip_rigs(rune_scenario *s, rune__arena *arena, size_t from, size_t to, int32_t rig)
{
    int32_t *all = rune__arena_array(arena, to ? to : 1, sizeof *all);
    if (!all)
        return RUNE_E_NOMEM;
    for (size_t i = 0; i < to; i++)
        all[i] = i < from && s->clip_rig ? s->clip_rig[i] : rig;
    s->clip_rig = all;
    return RUNE_OK;
}
