/* Penner easing curves. Each style is defined by its "in" curve; out and
 * inout derive from it, except back and elastic whose inout Penner defined
 * with their own constants. */
#include "rune/math.h"

#include <string.h>

#define PI_F 3.14159265358979323846f

static float bounce_out(float u)
{
    const float n1 = 7.5625f, d1 = 2.75f;
    if (u < 1.0f / d1)
        return n1 * u * u;
    if (u < 2.0f / d1) {
        u -= 1.5f / d1;
        return n1 * u * u + 0.75f;
    }
    if (u < 2.5f / d1) {
        u -= 2.25f / d1;
        return n1 * u * u + 0.9375f;
    }
    u -= 2.625f / d1;
    return n1 * u * u + 0.984375f;
}

static float ease_in(rune_easing_style style, float u)
{
    switch (style) {
    case RUNE_EASE_LINEAR: return u;
    case RUNE_EASE_CONSTANT: return u >= 1.0f ? 1.0f : 0.0f;
    case RUNE_EASE_SINE: return 1.0f - cosf(u * PI_F * 0.5f);
    case RUNE_EASE_QUAD: return u * u;
    case RUNE_EASE_CUBIC: return u * u * u;
    case RUNE_EASE_QUART: return u * u * u * u;
    case RUNE_EASE_QUINT: return u * u * u * u * u;
    case RUNE_EASE_EXPONENTIAL: return u <= 0.0f ? 0.0f : exp2f(10.0f * u - 10.0f);
    case RUNE_EASE_CIRCULAR: return 1.0f - sqrtf(fmaxf(0.0f, 1.0f - u * u));
    case RUNE_EASE_BACK: {
        const float c1 = 1.70158f, c3 = c1 + 1.0f;
        return c3 * u * u * u - c1 * u * u;
    }
    case RUNE_EASE_ELASTIC:
        if (u <= 0.0f || u >= 1.0f)
            return u <= 0.0f ? 0.0f : 1.0f;
        return -exp2f(10.0f * u - 10.0f) * sinf((u * 10.0f - 10.75f) * (2.0f * PI_F / 3.0f));
    case RUNE_EASE_BOUNCE: return 1.0f - bounce_out(1.0f - u);
    case RUNE_EASE_STYLE_COUNT: break;
    }
    return u;
}

static float ease_inout(rune_easing_style style, float u)
{
    if (style == RUNE_EASE_BACK) {
        const float c2 = 1.70158f * 1.525f;
        if (u < 0.5f)
            return (4.0f * u * u * ((c2 + 1.0f) * 2.0f * u - c2)) * 0.5f;
        float v = 2.0f * u - 2.0f;
        return (v * v * ((c2 + 1.0f) * v + c2) + 2.0f) * 0.5f;
    }
    if (style == RUNE_EASE_ELASTIC) {
        const float c5 = 2.0f * PI_F / 4.5f;
        if (u <= 0.0f || u >= 1.0f)
            return u <= 0.0f ? 0.0f : 1.0f;
        if (u < 0.5f)
            return -(exp2f(20.0f * u - 10.0f) * sinf((20.0f * u - 11.125f) * c5)) * 0.5f;
        return exp2f(-20.0f * u + 10.0f) * sinf((20.0f * u - 11.125f) * c5) * 0.5f + 1.0f;
    }
    if (u < 0.5f)
        return 0.5f * ease_in(style, 2.0f * u);
    return 1.0f - 0.5f * ease_in(style, 2.0f - 2.0f * u);
}

float rune_ease(rune_easing_style style, rune_easing_dir dir, float u)
{
    if (!(u > 0.0f))
        u = 0.0f; /* also maps NaN to 0 */
    if (u > 1.0f)
        u = 1.0f;
    if (style == RUNE_EASE_CONSTANT)
        return u >= 1.0f ? 1.0f : 0.0f;
    switch (dir) {
    case RUNE_EASE_OUT: return 1.0f - ease_in(style, 1.0f - u);
    case RUNE_EASE_INOUT: return ease_inout(style, u);
    default: return ease_in(style, u);
    }
}

static const char *const style_names[RUNE_EASE_STYLE_COUNT] = {
    "linear", "constant", "sine", "quad", "cubic", "quart", "quint",
    "exponential", "circular", "back", "elastic", "bounce"};
static const char *const dir_names[RUNE_EASE_DIR_COUNT] = {"in", "out", "inout"};

int rune_easing_style_from_name(const char *name)
{
    for (int i = 0; name && i < RUNE_EASE_STYLE_COUNT; i++)
        if (strcmp(name, style_names[i]) == 0)
            return i;
    return -1;
}

int rune_easing_dir_from_name(const char *name)
{
    for (int i = 0; name && i < RUNE_EASE_DIR_COUNT; i++)
        if (strcmp(name, dir_names[i]) == 0)
            return i;
    return -1;
}

const char *rune_easing_style_name(rune_easing_style style)
{
    return (unsigned)style < RUNE_EASE_STYLE_COUNT ? style_names[style] : "?";
}

const char *rune_easing_dir_name(rune_easing_dir dir)
{
    return (unsigned)dir < RUNE_EASE_DIR_COUNT ? dir_names[dir] : "?";
}
