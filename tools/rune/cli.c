/* Shared plumbing of the `rune` subcommands: exit statuses, escaped
 * one-line messages, input reading, and safe output files. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fchmod, lstat, fdopen */
#include "cli.h"
#include "rune/asset.h"

#include <errno.h>
#include <time.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

bool cli_quiet = false;

int cli_exit_for(rune_status status)
{
    switch (status) {
    case RUNE_OK: return EXIT_OK;
    case RUNE_E_IO: return EXIT_IO;
    case RUNE_E_NOMEM: return EXIT_INTERNAL;
    default: return EXIT_INPUT;
    }
}

/* Writes s with control characters (and DEL) as \xNN, then a newline. */
static void put_escaped_line(const char *s)
{
    char out[4096 * 4 + 2];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 5 < sizeof out; p++) {
        if (*p < 0x20 || *p == 0x7f)
            n += (size_t)snprintf(out + n, sizeof out - n, "\\x%02x", *p);
        else
            out[n++] = (char)*p;
    }
    out[n++] = '\n';
    fwrite(out, 1, n, stderr);
}

static void vmessage(const char *prefix, const char *fmt, va_list ap)
{
    char buf[4096];
    size_t k = (size_t)snprintf(buf, sizeof buf, "%s", prefix);
    vsnprintf(buf + k, sizeof buf - k, fmt, ap);
    put_escaped_line(buf);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
}

void cli_warning(const char *fmt, ...)
{
    if (cli_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vmessage("warning: ", fmt, ap);
    va_end(ap);
}

char *cli_read_input(const char *path, size_t *size, char *msg, size_t msg_size)
{
    bool std_in = strcmp(path, "-") == 0;
    FILE *f = std_in ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(msg, msg_size, "%s: cannot open file: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (cap - len < 2) {
            char *grown = cap < SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    bool failed = ferror(f) != 0;
    if (!std_in)
        fclose(f);
    if (!buf || failed) {
        snprintf(msg, msg_size, "%s: %s", std_in ? "<stdin>" : path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    *size = len;
    return buf;
}

int cli_output_open(cli_output *o, const char *path, const char *const *inputs, bool force, char *msg,
                    size_t msg_size)
{
    memset(o, 0, sizeof *o);
    if ((size_t)snprintf(o->path, sizeof o->path, "%s", path) >= sizeof o->path) {
        snprintf(msg, msg_size, "%.64s...: output path longer than %zu bytes", path, sizeof o->path - 1);
        return EXIT_INPUT;
    }
    struct stat out_st;
    if (lstat(path, &out_st) == 0) {
        if (S_ISLNK(out_st.st_mode)) {
            snprintf(msg, msg_size, "%s: is a symbolic link; rune does not write through links", path);
            return EXIT_INPUT;
        }
        if (S_ISDIR(out_st.st_mode)) {
            snprintf(msg, msg_size, "%s: is a directory", path);
            return EXIT_INPUT;
        }
        for (size_t i = 0; inputs && inputs[i]; i++) {
            struct stat in_st;
            if (strcmp(inputs[i], "-") != 0 && stat(inputs[i], &in_st) == 0 && in_st.st_dev == out_st.st_dev &&
                in_st.st_ino == out_st.st_ino) {
                snprintf(msg, msg_size, "%s: is also an input; choose another output", path);
                return EXIT_INPUT;
            }
        }
        if (!force) {
            snprintf(msg, msg_size, "%s: exists (use --force to overwrite it)", path);
            return EXIT_INPUT;
        }
    }
    /* the temporary sits in the target's directory, so that the rename
     * is atomic and never crosses file systems */
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    if ((size_t)snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", dir_len, path, slash ? slash + 1 : path) >=
        sizeof o->tmp) {
        snprintf(msg, msg_size, "%.64s...: output path too long for a temporary file", path);
        return EXIT_INPUT;
    }
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(msg, msg_size, "%s: cannot write in its directory: %s", path, strerror(errno));
        return EXIT_IO;
    }
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask); /* as a plain fopen would have */
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        close(fd);
        unlink(o->tmp);
        snprintf(msg, msg_size, "%s: cannot write: %s", path, strerror(errno));
        return EXIT_IO;
    }
    return EXIT_OK;
}

int cli_output_commit(cli_output *o, char *msg, size_t msg_size)
{
    bool ok = fflush(o->f) == 0 && !ferror(o->f);
    int saved = errno;
    ok = fclose(o->f) == 0 && ok;
    o->f = NULL;
    if (ok && rename(o->tmp, o->path) != 0)
        ok = false, saved = errno;
    if (!ok) {
        unlink(o->tmp);
        snprintf(msg, msg_size, "%s: write failed: %s", o->path, strerror(saved ? saved : EIO));
        return EXIT_IO;
    }
    return EXIT_OK;
}

void cli_output_abort(cli_output *o)
{
    if (o->f) {
        fclose(o->f);
        o->f = NULL;
        unlink(o->tmp);
    }
}

int cli_close_stdout(char *msg, size_t msg_size)
{
    bool ok = fflush(stdout) == 0 && !ferror(stdout);
    int saved = errno;
    ok = fclose(stdout) == 0 && ok;
    if (!ok) {
        snprintf(msg, msg_size, "<stdout>: write failed: %s", strerror(saved ? saved : EIO));
        return EXIT_IO;
    }
    return EXIT_OK;
}

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

static const cli_option *find_option(const cli_option *options, const char *name)
{
    for (; options->name; options++)
        if (strcmp(options->name, name) == 0)
            return options;
    return NULL;
}

int cli_parse_args(const char *cmd, const char *what, bool dash_ok, int argc, char **argv, const cli_option *options,
                   const char **file)
{
    *file = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const cli_option *o = find_option(options, a);
        if (o && o->value) {
            if (i + 1 == argc) {
                cli_error("rune %s: %s needs a value (see rune %s --help)", cmd, a, cmd);
                return EXIT_INPUT;
            }
            *o->value = argv[++i];
        } else if (o) {
            *o->flag = true;
        } else if (strcmp(a, "--quiet") == 0) {
            cli_quiet = true;
        } else if (a[0] == '-' && !(dash_ok && a[1] == '\0')) {
            cli_error("rune %s: unknown option \"%s\" (see rune %s --help)", cmd, a, cmd);
            return EXIT_INPUT;
        } else if (*file) {
            cli_error("rune %s: more than one %s given: \"%s\" and \"%s\"", cmd, what, *file, a);
            return EXIT_INPUT;
        } else {
            *file = a;
        }
    }
    if (!*file) {
        cli_error("rune %s: missing %s (see rune %s --help)", cmd, what, cmd);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

cli_input_kind cli_input_kind_of(const char *path, const char *data, size_t size)
{
    if (rune_asset_sniff(data, size))
        return CLI_INPUT_ASSET;
    if (cli_has_suffix(path, ".gltf")) /* JSON too */
        return CLI_INPUT_IMPORTABLE;
    for (size_t i = 0; i < size; i++)
        if (data[i] != ' ' && data[i] != '\t' && data[i] != '\n' && data[i] != '\r')
            return data[i] == '{' ? CLI_INPUT_SCENARIO : CLI_INPUT_IMPORTABLE;
    return CLI_INPUT_IMPORTABLE;
}

rune_scenario *cli_scenario_from(const char *path, const char *text, size_t size, bool strict, char *msg,
                                 size_t msg_size, int *rc)
{
    rune_scenario *s;
    rune_error err = {0};
    rune_status st = rune_scenario_load_string(text, size, strcmp(path, "-") == 0 ? "<stdin>" : path,
                                                     strict ? RUNE_SCENARIO_STRICT : 0, NULL, &s, &err);
    if (st) {
        snprintf(msg, msg_size, "%s", err.message);
        *rc = cli_exit_for(st);
        return NULL;
    }
    for (size_t i = 0; i < s->warning_count; i++)
        cli_warning("%s", s->warnings[i]);
    if (s->warnings_dropped)
        cli_warning("%s: %zu more warnings", s->file, s->warnings_dropped);
    *rc = EXIT_OK;
    return s;
}

int cli_parse_frames(const char *spec, long *first, long *last)
{
    char *end;
    long a = strtol(spec, &end, 10);
    if (end == spec || *end != ':' || a < 0) {
        cli_error("--frames %s: expected A:B (frames A to B-1) or A: (A to the end)", spec);
        return EXIT_INPUT;
    }
    const char *b = end + 1;
    if (*b) {
        long z = strtol(b, &end, 10);
        if (*end || z < a) {
            cli_error("--frames %s: expected A:B with A <= B", spec);
            return EXIT_INPUT;
        }
        *last = z;
    }
    *first = a;
    return EXIT_OK;
}

static double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static struct {
    double start, last;
    bool shown;
} progress;

void cli_progress(const char *what, size_t done, size_t total)
{
    if (cli_quiet || !isatty(STDERR_FILENO))
        return;
    double t = monotonic();
    if (progress.start == 0.0)
        progress.start = t;
    /* a stage (no count) is shown at once: it may be one long call */
    if (total && (t - progress.start < 1.0 || t - progress.last < 0.1))
        return;
    progress.last = t;
    progress.shown = true;
    if (total)
        fprintf(stderr, "\r\033[K%s %zu/%zu (%.0f%%)", what, done, total, 100.0 * (double)done / (double)total);
    else
        fprintf(stderr, "\r\033[K%s...", what);
    fflush(stderr);
}

void cli_progress_done(void)
{
    if (progress.shown)
        fputs("\r\033[K", stderr);
    progress.start = progress.last = 0.0;
    progress.shown = false;
}

bool cli_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m)
        return false;
    for (size_t i = 0; i < m; i++)
        if ((s[n - m + i] | 0x20) != (suffix[i] | 0x20))
            return false;
    return true;
}
