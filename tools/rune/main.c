/* `rune`: the command-line tool over librune. Dispatches subcommands. */
#include "commands.h"
#include "cli.h"
#include "rune/base.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: rune COMMAND [ARGS]       (rune help COMMAND, or rune COMMAND --help)\n"
    "\n"
    "commands:\n"
    "  eval FILE|-        evaluate a scenario and print its frames as JSON\n"
    "  import ASSET -o DIR  convert a glTF/FBX/Collada/BVH asset into DIR/NAME.rune (--json)\n"
    "  export IN -o OUT   write a .rune, a scenario or an asset as glTF (.glb, .gltf) or BVH\n"
    "  info FILE|-        summary of a .rune asset, a scenario or an importable asset, as JSON\n"
    "  render FILE|- -o OUT.png|OUT.svg  draw panels: skeleton, channels, weights, states, signals\n"
    "  inspect FILE|- -o OUT.html  a self-contained page to scrub a scenario in 3D\n"
    "  bench              throughput figures of sampling, mixing, blending and crowds\n"
    "  help [COMMAND]     this text, or a command's\n"
    "  --version          print the version\n"
    "\n"
    "Every command takes --help; eval, import and render take --quiet (no warnings);\n"
    "eval and render take --strict (unknown JSON keys are errors, not warnings) and\n"
    "--frames A:B (frames A to B-1; A: to the end).\n"
    "\n"
    "Exit status: 0 success; 2 bad input or usage; 3 internal error (a bug, or out of\n"
    "memory); 4 a file or stream could not be read or written. Failures print one\n"
    "line on stderr.\n";

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    {"eval", cmd_eval},     {"import", cmd_import},   {"export", cmd_export}, {"info", cmd_info},
    {"render", cmd_render}, {"inspect", cmd_inspect}, {"bench", cmd_bench}};

static const command *find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_INPUT;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        if (strcmp(cmd, "help") == 0 && argc > 2) {
            const command *c = find(argv[2]);
            if (!c) {
                cli_error("rune help: unknown command \"%s\" (see rune --help)", argv[2]);
                return EXIT_INPUT;
            }
            char *help[] = {"--help", NULL};
            return c->run(1, help);
        }
        fputs(usage, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("rune %s\n", RUNE_VERSION_STRING);
        return EXIT_OK;
    }
    const command *c = find(cmd);
    if (!c) {
        cli_error("rune: unknown command \"%s\" (see rune --help)", cmd);
        return EXIT_INPUT;
    }
    return c->run(argc - 2, argv + 2);
}
