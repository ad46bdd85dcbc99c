/* `rune`: the command-line tool over librune. Dispatches subcommands. */
#include "commands.h"
#include "rune/base.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: rune COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  eval FILE [--frames A:B] [--joints P/J,...]\n"
    "        evaluate a scenario and print its frames as JSON\n"
    "        (--frames keeps frames A..B-1; --joints keeps those pose keys)\n"
    "  import ASSET -o DIR\n"
    "        convert a glTF/FBX/Collada/BVH asset into DIR/NAME.json (rig + clips)\n"
    "  render FILE -o OUT.png|OUT.svg [--frames N] [--joints P/J,...] [--size WxH]\n"
    "        draw the skeleton at N frames (front and side) and channel plots\n"
    "  bench [--quick]\n"
    "        throughput figures of sampling, mixing, blending and crowds\n"
    "  --help       this text\n"
    "  --version    print the version\n"
    "\n"
    "Exit status: 0 success, 2 bad input (one line on stderr).\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("rune %s\n", RUNE_VERSION_STRING);
        return 0;
    }
    if (strcmp(cmd, "eval") == 0)
        return cmd_eval(argc - 2, argv + 2);
    if (strcmp(cmd, "import") == 0)
        return cmd_import(argc - 2, argv + 2);
    if (strcmp(cmd, "render") == 0)
        return cmd_render(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 2, argv + 2);
    fprintf(stderr, "rune: unknown command \"%s\" (see rune --help)\n", cmd);
    return 2;
}
