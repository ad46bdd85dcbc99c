/* placeholder */
#include "commands.h"
#include <stdio.h>
int cmd_render(int argc, char **argv) { (void)argc; (void)argv; fputs("rune render: not built yet\n", stderr); return 2; }
