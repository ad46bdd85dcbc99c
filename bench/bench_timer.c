/* The bench's clock: per-call times as the median of many timed batches
 * (and the fastest batch beside it), on this thread's CPU clock so that a
 * shared machine's preemptions do not count, or on the wall clock when
 * the work runs on several threads. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "bench.h"

#include <stdlib.h>
#include <time.h>

static double clock_s(bool threaded)
{
    struct timespec ts;
    clock_gettime(threaded ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_sort(double *v, size_t n) { qsort(v, n, sizeof v[0], by_value); }

bench_timing bench_measure(bench_fn fn, void *ctx, int samples, double sample_s, bool threaded)
{
    /* warm-up, and how many calls make a batch of sample_s */
    size_t batch = 1;
    for (;;) {
        double start = clock_s(threaded);
        for (size_t i = 0; i < batch; i++)
            fn(ctx);
        double took = clock_s(threaded) - start;
        if (took >= sample_s || batch >= ((size_t)1 << 30))
            break;
        batch = took > 0 && took * 8 > sample_s ? (size_t)((double)batch * sample_s / took) + 1 : batch * 8;
    }
    double per[64] = {0};
    if (samples > 64)
        samples = 64;
    if (samples < 1)
        samples = 1;
    for (int s = 0; s < samples; s++) {
        double start = clock_s(threaded);
        for (size_t i = 0; i < batch; i++)
            fn(ctx);
        per[s] = (clock_s(threaded) - start) / (double)batch;
    }
    qsort(per, (size_t)samples, sizeof per[0], by_value);
    return (bench_timing){per[samples / 2], per[0], batch * (size_t)samples};
}
