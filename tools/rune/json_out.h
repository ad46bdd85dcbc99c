/* Writing JSON text by hand: numbers as %.9g (round-trips a float), and
 * escaped strings. */
#ifndef RUNE_TOOL_JSON_OUT_H
#define RUNE_TOOL_JSON_OUT_H

#include <stdio.h>

/** Writes a float with %.9g; non-finite values (never produced by the
 * library) are written as 0 so the output stays JSON. */
void json_out_number(FILE *f, double v);
/** Writes a quoted, escaped JSON string. */
void json_out_string(FILE *f, const char *s);

#endif
