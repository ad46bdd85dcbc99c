/* Names of the mixer's priority ranks. */
#include "rune/base.h"

#include <string.h>

static const char *const names[RUNE_PRIORITY_COUNT] = {
    "core", "idle", "movement", "action", "action2", "action3", "action4"};

int rune_priority_from_name(const char *name)
{
    for (int i = 0; name && i < RUNE_PRIORITY_COUNT; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

const char *rune_priority_name(int priority)
{
    return priority >= 0 && priority < RUNE_PRIORITY_COUNT ? names[priority] : "?";
}
