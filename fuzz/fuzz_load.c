/* libFuzzer target: the scenario loader on arbitrary bytes (with and
 * without RUNE_SCENARIO_STRICT, by the first byte). Whatever the input,
 * loading returns OK, or an input error (or, for a .rune file the document
 * names in "assets", an I/O error) with one line that says why and
 * leaves nothing behind: what `rune eval` turns into exit 2 and one line
 * on stderr. Never a crash, a leak or a hang (-timeout in run.sh). */
#include "rune/io.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned flags = size > 0 && (data[0] & 1) ? RUNE_SCENARIO_STRICT : 0;
    rune_scenario *s = NULL;
    rune_error err;
    rune_status st = rune_scenario_load_string((const char *)data, size, "fuzz.json", flags, NULL, &s, &err);
    if (st == RUNE_OK) {
        rune_scenario_destroy(s);
        return 0;
    }
    if (s != NULL || strlen(err.message) == 0 || strchr(err.message, '\n') ||
        (st != RUNE_E_INVALID && st != RUNE_E_PARSE && st != RUNE_E_IO)) /* IO: an "assets" file it names */
        __builtin_trap();
    return 0;
}
