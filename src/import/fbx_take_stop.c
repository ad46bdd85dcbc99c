/* assimp 5.2 keeps only the keys of an FBX take that lie within 10,000
 * ticks (0.2 us) of its LocalStart..LocalStop range, and exporters round
 * the stop below their last keys (Mixamo's "Samba Dancing.fbx": rotation
 * keys at 18.2000008 s, stop 18.2 s), so the last frame is lost and every
 * loop pops. assimp has no option for it; this moves each stack's
 * LocalStop RUNE_FBX_STOP_TOLERANCE later in the bytes handed to it.
 *
 * Binary FBX: the property is a P record of strings "LocalStop", "KTime",
 * "Time", "" then an int64 ('L'), patched in place. ASCII FBX: the line
 * P: "LocalStop", "KTime", "Time", "",TICKS gets a new number. */
#include "fbx_take_stop.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char binary_magic[] = "Kaydara FBX Binary";
static const char key[] = "LocalStop";

/* A binary 'S' property at p holding exactly `s`: its end, or NULL. */
static const unsigned char *binary_string(const unsigned char *p, const unsigned char *end, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(end - p) < 5 + n || p[0] != 'S')
        return NULL;
    uint32_t len = (uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 | (uint32_t)p[4] << 24;
    return len == n && memcmp(p + 5, s, n) == 0 ? p + 5 + n : NULL;
}

static size_t widen_binary(unsigned char *data, size_t size)
{
    size_t moved = 0;
    const unsigned char *end = data + size;
    for (size_t i = 0; i + 5 + sizeof key - 1 <= size; i++) {
        const unsigned char *p = binary_string(data + i, end, key);
        if (!p || !(p = binary_string(p, end, "KTime")) || !(p = binary_string(p, end, "Time")) ||
            !(p = binary_string(p, end, "")) || end - p < 9 || p[0] != 'L')
            continue;
        unsigned char *v = data + (p + 1 - data);
        uint64_t u = 0;
        for (int b = 7; b >= 0; b--)
            u = u << 8 | v[b];
        int64_t stop = (int64_t)u;
        if (stop <= 0 || stop > INT64_MAX - RUNE_FBX_STOP_TOLERANCE)
            continue;
        u = (uint64_t)(stop + RUNE_FBX_STOP_TOLERANCE);
        for (int b = 0; b < 8; b++, u >>= 8)
            v[b] = (unsigned char)u;
        moved++;
    }
    return moved;
}

/* ASCII: after each "LocalStop", the fourth comma on its line, then the
 * number. Writes the file with the numbers moved into out (room for
 * size + 32 bytes a stop). */
static size_t widen_ascii(const unsigned char *data, size_t size, char *out, size_t *out_size)
{
    size_t moved = 0, o = 0, i = 0;
    const char *s = (const char *)data;
    while (i < size) {
        const char *hit = i + sizeof key + 1 <= size ? memchr(s + i, '"', size - i) : NULL;
        if (!hit) {
            memcpy(out + o, s + i, size - i), o += size - i;
            break;
        }
        size_t at = (size_t)(hit - s);
        memcpy(out + o, s + i, at - i), o += at - i, i = at;
        if (size - at < sizeof key + 1 || memcmp(s + at + 1, key, sizeof key - 1) != 0 || s[at + sizeof key] != '"') {
            out[o++] = s[i++];
            continue;
        }
        size_t j = at + sizeof key + 1;
        int commas = 0;
        while (j < size && s[j] != '\n' && commas < 4) /* the strings hold no commas */
            commas += s[j++] == ',';
        while (j < size && (s[j] == ' ' || s[j] == '\t'))
            j++;
        int64_t stop = 0;
        size_t digits = j;
        while (digits < size && s[digits] >= '0' && s[digits] <= '9' && stop <= (INT64_MAX - 9) / 10)
            stop = stop * 10 + (s[digits++] - '0');
        bool number = commas == 4 && digits > j && (digits == size || s[digits] < '0' || s[digits] > '9');
        if (!number || stop <= 0 || stop > INT64_MAX - RUNE_FBX_STOP_TOLERANCE) {
            memcpy(out + o, s + i, j - i), o += j - i, i = j;
            continue;
        }
        memcpy(out + o, s + i, j - i), o += j - i;
        o += (size_t)sprintf(out + o, "%" PRId64, stop + RUNE_FBX_STOP_TOLERANCE);
        i = digits;
        moved++;
    }
    *out_size = o;
    return moved;
}

static size_t count_keys(const unsigned char *data, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i + sizeof key - 1 <= size; i++)
        n += memcmp(data + i, key, sizeof key - 1) == 0;
    return n;
}

size_t rune__fbx_widen_stops(unsigned char *data, size_t size, unsigned char **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    if (size >= sizeof binary_magic - 1 && memcmp(data, binary_magic, sizeof binary_magic - 1) == 0)
        return widen_binary(data, size);
    size_t stops = count_keys(data, size);
    if (!stops)
        return 0;
    char *text = malloc(size + 32 * stops);
    if (!text)
        return (size_t)-1;
    size_t n = 0, moved = widen_ascii(data, size, text, &n);
    if (!moved) {
        free(text);
        return 0;
    }
    *out = (unsigned char *)text;
    *out_size = n;
    return moved;
}
