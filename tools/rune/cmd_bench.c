/* placeholder */
#include "commands.h"
#include <stdio.h>
int cmd_bench(int argc, char **argv) { (void)argc; (void)argv; fputs("rune bench: not built yet\n", stderr); return 2; }
