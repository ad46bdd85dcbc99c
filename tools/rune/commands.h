/* The subcommands of `rune`. Each returns the process exit status:
 * 0 success, 2 bad input or usage (one line on stderr). */
#ifndef RUNE_TOOL_COMMANDS_H
#define RUNE_TOOL_COMMANDS_H

int cmd_eval(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
