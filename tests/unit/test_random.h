/* A small deterministic generator for the unit tests' random inputs. */
#ifndef RUNE_TEST_RANDOM_H
#define RUNE_TEST_RANDOM_H

#include <stdint.h>

/* The next value in [-1, 1) of a linear congruential sequence. */
static inline float test_random(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    return (float)(*seed >> 8) / 16777216.0f * 2.0f - 1.0f;
}

#endif
