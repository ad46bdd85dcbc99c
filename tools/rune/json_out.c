/* JSON text output helpers for the command's reports. */
#include "json_out.h"

#include <math.h>

void json_out_number(FILE *f, double v)
{
    if (!isfinite(v))
        v = 0.0;
    fprintf(f, "%.9g", (double)(float)v);
}

void json_out_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}
