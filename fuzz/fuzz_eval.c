/* libFuzzer target: load and evaluate a fuzzed scenario (at most 48
 * frames), checking that every reported number is finite. */
#include "rune/io.h"

#include <math.h>
#include <stdint.h>

static void check_frame(void *user, const rune_frame_report *r)
{
    (void)user;
    for (size_t j = 0; j < r->pose->count; j++) {
        const float v[8] = {r->pose->t[j].x, r->pose->t[j].y, r->pose->t[j].z, r->pose->r[j].x,
                            r->pose->r[j].y, r->pose->r[j].z, r->pose->r[j].w, r->pose->coverage[j]};
        for (int k = 0; k < 8; k++)
            if (!isfinite(v[k]))
                __builtin_trap();
    }
    if (!isfinite(r->root_motion.dx) || !isfinite(r->root_motion.dz) || !isfinite(r->root_motion.yaw))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rune_scenario *s = NULL;
    if (rune_scenario_load_string((const char *)data, size, "fuzz.json", NULL, &s, NULL) != RUNE_OK)
        return 0;
    if (s->frames > 48)
        s->frames = 48; /* bound the work of one input, not the content */
    rune_scenario_run(s, NULL, check_frame, NULL, NULL);
    rune_scenario_destroy(s);
    return 0;
}
