/* libFuzzer target: load and evaluate a fuzzed scenario (at most 48
 * frames), checking that every reported number is finite and that the
 * work of one input stays bounded (a step's work must not grow with the
 * size of a time jump: 48 frames of a 64 KiB document take milliseconds;
 * a second means unbounded work). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "rune/io.h"

#include <stdint.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static rune_status check_frame(void *user, const rune_frame_report *r)
{
    (void)user;
    if (!rune_frame_report_finite(r, NULL, 0))
        __builtin_trap();
    return RUNE_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rune_scenario *s = NULL;
    if (rune_scenario_load_string((const char *)data, size, "fuzz.json", 0, NULL, &s, NULL) != RUNE_OK)
        return 0;
    if (s->frames > 48)
        s->frames = 48; /* bound the work of one input, not the content */
    double t0 = now();
    rune_scenario_run(s, NULL, check_frame, NULL, NULL);
    if (now() - t0 > 1.0)
        __builtin_trap(); /* unbounded work somewhere */
    rune_scenario_destroy(s);
    return 0;
}
