/* Error reports: formatting (always one line: control characters that a
 * quoted name brings in are written as \xNN), prefixing with outer
 * context, status names. */
#include "rune/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Formats into out (RUNE_ERROR_MAX bytes) with control characters and DEL
 * escaped, so that a message stays one readable line whatever it quotes. */
static void format_line(char *out, const char *fmt, va_list ap)
{
    char raw[RUNE_ERROR_MAX];
    vsnprintf(raw, sizeof raw, fmt, ap);
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)raw; *p; p++) {
        bool control = *p < 0x20 || *p == 0x7f;
        if (n + (control ? 4 : 1) >= RUNE_ERROR_MAX)
            break;
        if (control)
            n += (size_t)snprintf(out + n, RUNE_ERROR_MAX - n, "\\x%02x", *p);
        else
            out[n++] = (char)*p;
    }
    out[n] = '\0';
}

rune_status rune_fail(rune_error *err, rune_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        format_line(err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

void rune_error_prefix(rune_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    char prefix[RUNE_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    format_line(prefix, fmt, ap);
    va_end(ap);
    /* shift the old message right, then copy the prefix in front (truncating
     * the tail when the whole no longer fits) */
    size_t plen = strlen(prefix), olen = strlen(err->message); /* always NUL-terminated */
    if (plen > sizeof err->message - 1)
        plen = sizeof err->message - 1;
    if (plen + olen > sizeof err->message - 1)
        olen = sizeof err->message - 1 - plen;
    memmove(err->message + plen, err->message, olen);
    memcpy(err->message, prefix, plen);
    err->message[plen + olen] = '\0';
}

const char *rune_status_name(rune_status status)
{
    switch (status) {
    case RUNE_OK: return "ok";
    case RUNE_E_INVALID: return "invalid input";
    case RUNE_E_NOMEM: return "out of memory";
    case RUNE_E_IO: return "i/o error";
    case RUNE_E_PARSE: return "parse error";
    case RUNE_E_NOT_FOUND: return "not found";
    }
    return "unknown status";
}
