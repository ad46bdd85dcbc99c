/* A character's procedural controls, applied by its animator after
 * mixing (docs/semantics.md, "Procedural controls"). */
#include "character_internal.h"

rune_status rune_character_set_control(rune_character *ch, const rune_control *control, rune_error *err)
{
    return rune_animator_set_control(ch->anim, control, err);
}

bool rune_character_remove_control(rune_character *ch, uint32_t id)
{
    return rune_animator_remove_control(ch->anim, id);
}

