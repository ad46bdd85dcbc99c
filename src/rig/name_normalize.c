/* Joint names in the form name matching compares (rune/rig.h,
 * rune_retarget_normalize): retarget mappings match by it and the
 * humanoid finder reads sides and bone words from it. */
#include "rig_internal.h"

#include <ctype.h>
#include <string.h>

const char *rune_retarget_normalize(const char *name, char *buf, size_t size)
{
    if (!size)
        return buf;
    const char *colon = strrchr(name, ':');
    if (colon)
        name = colon + 1;
    char low[256];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof low; n++)
        low[n] = (char)tolower((unsigned char)name[n]);
    low[n] = '\0';
    const char *side = "", *body = low;
    size_t len = n;
    if (len > 4 && strncmp(low, "left", 4) == 0)
        side = "left", body = low + 4, len -= 4;
    else if (len > 5 && strncmp(low, "right", 5) == 0)
        side = "right", body = low + 5, len -= 5;
    else if (len > 2 && (low[0] == 'l' || low[0] == 'r') && (low[1] == '_' || low[1] == '.' || low[1] == ' '))
        side = low[0] == 'l' ? "left" : "right", body = low + 2, len -= 2;
    else if (len > 2 && (low[len - 1] == 'l' || low[len - 1] == 'r') &&
             (low[len - 2] == '_' || low[len - 2] == '.' || low[len - 2] == ' '))
        side = low[len - 1] == 'l' ? "left" : "right", len -= 2;
    size_t k = 0;
    for (const char *s = side; *s && k + 1 < size; s++)
        buf[k++] = *s;
    for (size_t i = 0; i < len && k + 1 < size; i++)
        if (isalnum((unsigned char)body[i]))
            buf[k++] = body[i];
    buf[k] = '\0';
    return buf;
}
