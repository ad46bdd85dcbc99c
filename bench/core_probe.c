/* rune_core_probe, a program of its own beside `rune bench` (built with
 * the tools, never installed): whether this core's caches are its own. A
 * dependent load chain (each 64-byte line holds the index of the next, in
 * one random cycle, so every load waits on the one before and no
 * prefetcher can guess the next) through 32 KB, which an L1 holds, and
 * through 1 MB, which an L2 holds, timed in windows a quarter second
 * apart, each in cycles of a clock measured in the same window. A core of
 * its own reads the 32 KB cycle at the L1's latency (about 5 cycles) in
 * every window; where another hardware thread shares the core, or the
 * host moves the VM's CPU between cores, some windows read far more, and
 * figures measured then are not the machine's (docs/performance.md,
 * "Method"). Usage: build/rune_core_probe (no options). */
#define _POSIX_C_SOURCE 200809L /* nanosleep, clock_gettime */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { WINDOWS = 40, LINE_WORDS = 64 / sizeof(size_t) };

/* Where the chains' ends go, so that no load or step can be dropped. */
static volatile size_t probe_sink;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A random cycle through the lines of `bytes` (Sattolo's shuffle: one
 * cycle through all of them); NULL when out of memory. */
static size_t *chain_make(size_t bytes)
{
    size_t lines = bytes / 64;
    size_t *buf = aligned_alloc(64, bytes);
    if (!buf)
        return NULL;
    for (size_t i = 0; i < lines; i++)
        buf[i * LINE_WORDS] = i * LINE_WORDS;
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (size_t i = lines - 1; i > 0; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t j = (size_t)(x % i), t = buf[i * LINE_WORDS];
        buf[i * LINE_WORDS] = buf[j * LINE_WORDS];
        buf[j * LINE_WORDS] = t;
    }
    return buf;
}

/* ns a load along the chain from its start. */
static double chain_ns(const size_t *chain, size_t steps)
{
    size_t at = 0;
    double t0 = now_s();
    for (size_t i = 0; i < steps; i++)
        at = chain[at];
    double t = now_s() - t0;
    probe_sink = at;
    return 1e9 * t / (double)steps;
}

/* ns a cycle: a chain of 64-bit multiply-adds takes 4 cycles a step (a
 * 3-cycle multiply, then the add) on x86-64 cores of the last decade,
 * and no compiler can shorten it. */
static double cycle_ns(void)
{
    enum { STEPS = 10000000 };
    uint64_t x = probe_sink | 1;
    double t0 = now_s();
    for (size_t i = 0; i < STEPS; i++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    double t = now_s() - t0;
    probe_sink = (size_t)x;
    return 1e9 * t / STEPS / 4.0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fastest, median, upper quartile and slowest of v (sorted here). */
static void print_spread(const char *what, double *v)
{
    qsort(v, WINDOWS, sizeof *v, by_value);
    printf("  %-26s %6.1f %8.1f %8.1f %8.1f\n", what, v[0], v[WINDOWS / 2], v[3 * WINDOWS / 4], v[WINDOWS - 1]);
}

int main(int argc, char **argv)
{
    if (argc > 1) { /* the core alone: nothing else runs beside it */
        fprintf(stderr, "rune_core_probe: runs alone; not with \"%s\"\n", argv[1]);
        return 2;
    }
    size_t *l1 = chain_make(32 << 10), *l2 = chain_make(1 << 20);
    if (!l1 || !l2) {
        free(l1);
        free(l2);
        fprintf(stderr, "rune_core_probe: out of memory\n");
        return 2;
    }
    chain_ns(l1, 100000); /* in cache before the first window */
    chain_ns(l2, 100000);
    double c1[WINDOWS], c2[WINDOWS], ghz[WINDOWS];
    for (int w = 0; w < WINDOWS; w++) {
        double cyc = cycle_ns();
        ghz[w] = 1.0 / cyc;
        c1[w] = chain_ns(l1, 2000000) / cyc;
        c2[w] = chain_ns(l2, 1000000) / cyc;
        struct timespec pause = {0, 250000000};
        nanosleep(&pause, NULL);
    }
    printf("rune_core_probe: a dependent load, in cycles, over %d windows a quarter second apart\n",
           WINDOWS);
    printf("  %-26s %6s %8s %8s %8s\n", "", "fastest", "median", "3/4", "slowest");
    print_spread("from 32 KB (L1)", c1);
    print_spread("from 1 MB (L2)", c2);
    qsort(ghz, WINDOWS, sizeof *ghz, by_value);
    printf("  clock %.2f to %.2f GHz (median %.2f), from 4-cycle multiply-add steps in each window\n", ghz[0],
           ghz[WINDOWS - 1], ghz[WINDOWS / 2]);
    printf("A core of its own reads L1 in about 5 cycles in every window; windows far above that had another\n"
           "hardware thread (or a move to another core) in this core's caches\n");
    free(l1);
    free(l2);
    return 0;
}
