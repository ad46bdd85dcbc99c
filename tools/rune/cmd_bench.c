/* `rune bench`: runs the benchmarks of bench/. */
#include "commands.h"
#include "../../bench/bench.h"

int cmd_bench(int argc, char **argv) { return rune_bench_main(argc, argv); }
