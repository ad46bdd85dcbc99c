/* A character's procedural controls, applied by its animator after
 * mixing and root-motion removal (docs/semantics.md, "Procedural
 * controls"). */
#include "character_internal.h"
#include "../base/require.h"

rune_status rune_character_set_control(rune_character *ch, const rune_control *control, rune_error *err)
{
    RUNE_REQUIRE(err, ch, "ch");
    RUNE_REQUIRE(err, control, "control");
    return rune_animator_set_control(ch->anim, control, err);
}

bool rune_character_remove_control(rune_character *ch, uint32_t id)
{
    RUNE_ASSUME(ch);
    return rune_animator_remove_control(ch->anim, id);
}


bool rune_character_control_state(const rune_character *ch, uint32_t id, rune_control_state *out)
{
    RUNE_ASSUME(ch);
    return rune_animator_control_state(ch->anim, id, out);
}
