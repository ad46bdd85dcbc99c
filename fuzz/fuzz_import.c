/* libFuzzer target: the asset importer on fuzzed BVH bytes (the format of
 * the CMU seeds). Import, then compile, bind and sample what came out. */
#include "rune/import.h"
#include "rune/rig.h"
#include "clip/clip_access_internal.h"

#include <math.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rune_import *imp = NULL;
    if (rune_import_memory(data, size, "bvh", "fuzz.bvh", NULL, &imp, NULL) != RUNE_OK)
        return 0;
    rune_rig *rig = NULL;
    if (rune_rig_create(imp->joints, imp->joint_count, NULL, &rig, NULL) == RUNE_OK) {
        rune_pose pose;
        if (rune_pose_init(&pose, rune_rig_joint_count(rig), NULL, NULL) == RUNE_OK) {
            for (size_t c = 0; c < imp->clip_count; c++) {
                rune_clip *clip;
                rune_binding *b;
                if (rune_clip_compile(&imp->clips[c], NULL, &clip, NULL) != RUNE_OK)
                    continue;
                if (rune_binding_create(rig, clip, 0, NULL, &b, NULL) == RUNE_OK) {
                    for (int k = 0; k < 4; k++) {
                        rune_binding_sample(b, rune_clip_length(clip) * (float)k / 3.0f, &pose);
                        for (size_t j = 0; j < pose.count; j++)
                            if (!isfinite(pose.qw[j]) || !isfinite(pose.tx[j]))
                                __builtin_trap();
                    }
                    rune_binding_destroy(b);
                }
                rune_clip_destroy(clip);
            }
            rune_pose_release(&pose);
        }
        rune_rig_destroy(rig);
    }
    rune_import_destroy(imp);
    return 0;
}
