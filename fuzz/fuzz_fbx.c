/* libFuzzer target: rune's widening of FBX take stops (fbx_take_stop.c)
 * on arbitrary bytes, binary or ASCII. What it may change: in binary
 * files only the 8 bytes of LocalStop values (the size stays), in ASCII
 * files only the digits of LocalStop numbers (so both read alike with the
 * digits taken out), every moved stop larger than before. assimp's FBX
 * parser is not involved: its bugs are not ours to find here. */
#include "../src/import/fbx_take_stop.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t strip_digits(const unsigned char *in, size_t n, unsigned char *out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (in[i] < '0' || in[i] > '9')
            out[m++] = in[i];
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *copy = malloc(size ? size : 1), *text = NULL;
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    size_t text_size = 0, moved = rune__fbx_widen_stops(copy, size, &text, &text_size);
    if (moved == (size_t)-1) {
        free(copy);
        return 0;
    }
    if (text) { /* ASCII: the bytes are the input's, untouched; the text differs in digits only */
        unsigned char *a = malloc(size ? size : 1), *b = malloc(text_size ? text_size : 1);
        if (a && b) {
            size_t na = strip_digits(data, size, a), nb = strip_digits(text, text_size, b);
            if (memcmp(copy, data, size) != 0 || na != nb || memcmp(a, b, na) != 0 || moved == 0)
                __builtin_trap();
        }
        free(a), free(b);
    } else { /* binary (or nothing moved): 8 bytes a moved stop */
        size_t changed = 0;
        for (size_t i = 0; i < size; i++)
            changed += copy[i] != data[i];
        if (changed > 8 * moved)
            __builtin_trap();
    }
    free(text);
    free(copy);
    return 0;
}
