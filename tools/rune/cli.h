/* What every subcommand of `rune` shares: exit statuses, one-line messages
 * on stderr (control characters escaped, warnings silenced by --quiet),
 * reading FILE or "-" (stdin), and output files written safely: to a
 * temporary file in the target directory, renamed into place only when
 * complete, never through a symbolic link, never over an input, and over
 * an existing file only with --force. */
#ifndef RUNE_TOOL_CLI_H
#define RUNE_TOOL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "rune/base.h"
#include "rune/io.h"

/* Exit statuses (documented in `rune --help`). */
enum {
    EXIT_OK = 0,
    EXIT_INPUT = 2,    /* bad input or usage */
    EXIT_INTERNAL = 3, /* a bug or an exhausted resource (memory) */
    EXIT_IO = 4        /* a file or stream could not be read or written */
};

/* The exit status for a library status. */
int cli_exit_for(rune_status status);

/* Warnings are dropped when set (--quiet). */
extern bool cli_quiet;

/* One line on stderr: printf-style, with control characters of the result
 * escaped (\xNN) so that names quoted from a file cannot garble a
 * terminal. cli_warning adds "warning: " and honours --quiet. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void cli_warning(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Reads a whole file, or stdin for "-", into a malloc'd buffer (NUL
 * terminated); on failure returns NULL with a message in msg. */
char *cli_read_input(const char *path, size_t *size, char *msg, size_t msg_size);

/* An output file being written. */
typedef struct cli_output {
    char path[4096];
    char tmp[4096];
    FILE *f;
} cli_output;

/* Opens a temporary file beside `path`. Refuses (EXIT_INPUT, message in
 * msg) a path that is too long, a symbolic link, a directory, one of the
 * `inputs` (NULL-terminated; "-" is skipped), or an existing file without
 * `force`; EXIT_IO when the directory cannot be written. */
int cli_output_open(cli_output *o, const char *path, const char *const *inputs, bool force, char *msg,
                    size_t msg_size);
/* Flushes, checks every write, closes and renames the file into place;
 * on any failure removes the temporary and returns EXIT_IO with a
 * message. */
int cli_output_commit(cli_output *o, char *msg, size_t msg_size);
/* Closes and removes the temporary (an error elsewhere). */
void cli_output_abort(cli_output *o);

/* Flushes and closes stdout, checking for a write error (a full disk, a
 * closed pipe): EXIT_IO with a message, else EXIT_OK. */
int cli_close_stdout(char *msg, size_t msg_size);

/* A scenario from a file's bytes, already read (FILE or "-": stdin),
 * printing its warnings (unknown keys; errors with `strict`); NULL with a
 * message and *rc set on failure. */
rune_scenario *cli_scenario_from(const char *path, const char *text, size_t size, bool strict, char *msg,
                                 size_t msg_size, int *rc);

/* What a file given to eval, info, render or inspect holds, told by its bytes
 * (not its name): a .rune asset (the magic), a scenario (JSON that is not
 * a glTF document), else an asset for the importer. */
typedef enum cli_input_kind { CLI_INPUT_ASSET, CLI_INPUT_SCENARIO, CLI_INPUT_IMPORTABLE } cli_input_kind;
cli_input_kind cli_input_kind_of(const char *path, const char *data, size_t size);

/* Whether s ends with suffix, ignoring ASCII case (".JSON" is ".json"). */
bool cli_has_suffix(const char *s, const char *suffix);

/* Parses --frames "A:B" (frames A to B-1) or "A:" (A to the end): the same
 * meaning in every subcommand. Prints the problem and returns EXIT_INPUT
 * when malformed. `last` is left alone for "A:". */
int cli_parse_frames(const char *spec, long *first, long *last);

/* Progress on stderr for long work, only when stderr is a terminal and
 * --quiet is not given: one line rewritten in place, cleared by
 * cli_progress_done. A count (`total` > 0) shows after the first second,
 * at most 10 times a second; a stage (`total` 0: one long call ahead,
 * such as assimp reading a file) shows at once. */
void cli_progress(const char *what, size_t done, size_t total);
void cli_progress_done(void);

/* "--help" or "-h" among the arguments. */
bool cli_wants_help(int argc, char **argv);

/* One option of a subcommand: a flag sets *flag; an option with a value
 * stores the argument after it in *value (checked by the command). */
typedef struct cli_option {
    const char *name;
    bool *flag;
    const char **value;
} cli_option;

/* A subcommand's arguments: the `options` (ended by a NULL name), --quiet
 * (every command), and one positional argument into *file ("-" included
 * when `dash_ok`: stdin). An unknown option, an option without its value,
 * a second positional argument or none print one line ("rune CMD: ... (see
 * rune CMD --help)", the positional named `what`) and return EXIT_INPUT. */
int cli_parse_args(const char *cmd, const char *what, bool dash_ok, int argc, char **argv, const cli_option *options,
                   const char **file);

#endif
