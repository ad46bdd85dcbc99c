/* Whole-file reads for loaders that check or parse bytes themselves (the
 * .rune reader in the core library, the importers; exported for them). */
#include "file_read.h"

#include <stdio.h>
#include <stdlib.h>

unsigned char *rune__read_file(const char *path, size_t max_bytes, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && (unsigned long)n <= max_bytes &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
        buf[n] = '\0';
        *len = (size_t)n;
    } else {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}
