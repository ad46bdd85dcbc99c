/* libFuzzer target: the scenario loader on arbitrary bytes. Whatever the
 * input, loading returns OK or an error message, never crashes, never
 * leaks. */
#include "rune/io.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rune_scenario *s = NULL;
    rune_error err;
    if (rune_scenario_load_string((const char *)data, size, "fuzz.json", NULL, &s, &err) == RUNE_OK)
        rune_scenario_destroy(s);
    else if (s != NULL || strlen(err.message) == 0)
        __builtin_trap(); /* a failure must say why and leave nothing behind */
    return 0;
}
