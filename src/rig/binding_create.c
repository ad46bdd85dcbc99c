/* Creating a binding: directly, or through a retarget mapping -- the clip
 * retargeted onto the rig once (retarget_bake.c), then bound like a clip
 * of the rig's own, so sampling it costs the same. */
#include "rig_internal.h"
#include "retarget_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"

rune_status rune_binding_create(const rune_rig *rig, const rune_clip *clip, const rune_retarget *retarget,
                                const rune_allocator *alloc, rune_binding **out, rune_error *err)
{
    RUNE_REQUIRE(err, rig, "rig");
    RUNE_REQUIRE(err, clip, "clip");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    if (!retarget)
        return rune__binding_make(rig, clip, clip, NULL, 0, alloc, out, err);
    if (rune__rig_joint_signature(rig) != retarget->target_layout)
        return rune_fail(err, RUNE_E_INVALID, "binding clip \"%s\": the rig is not the retarget mapping's target",
                         rune_clip_id(clip));
    rune_clip *owned;
    rune_status st = rune__retarget_bake(retarget, rig, clip, alloc, &owned, err);
    return st ? st : rune__binding_make(rig, owned, clip, owned, rune_retarget_id(retarget), alloc, out, err);
}
