/* Reading a whole file into memory: load-time code that the asset reader
 * (rune_core) and the importer share; never on the frame path. */
#ifndef RUNE_SRC_BASE_FILE_READ_H
#define RUNE_SRC_BASE_FILE_READ_H

#include <stddef.h>

#include "rune/export.h"

/** The file's bytes, malloc'ed (the caller frees) with a NUL after them;
 * NULL if it cannot be read or is larger than `max_bytes`. */
RUNE_API unsigned char *rune__read_file(const char *path, size_t max_bytes, size_t *len);

#endif
