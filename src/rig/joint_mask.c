/* Joint masks resolved through the rig hierarchy (never by name patterns). */
#include "rune/rig.h"
#include "rig_internal.h"

static const rune_mask_entry *entry_of(const rune_mask_entry *e, size_t n, size_t joint)
{
    const rune_mask_entry *found = NULL;
    for (size_t i = 0; i < n; i++)
        if (e[i].joint >= 0 && (size_t)e[i].joint == joint)
            found = &e[i]; /* the last entry for a joint wins */
    return found;
}

void rune_mask_resolve(const rune_rig *rig, const rune_mask_entry *e, size_t n, float *out)
{
    size_t joints = rune_rig_joint_count(rig);
    for (size_t j = 0; j < joints; j++) {
        const rune_mask_entry *own = entry_of(e, n, j);
        out[j] = 0.0f;
        if (own) {
            out[j] = own->weight;
            continue;
        }
        for (int32_t a = rune_rig_parent(rig, j); a >= 0; a = rune_rig_parent(rig, (size_t)a)) {
            const rune_mask_entry *up = entry_of(e, n, (size_t)a);
            if (up && up->propagate) {
                out[j] = up->weight;
                break;
            }
        }
    }
}
