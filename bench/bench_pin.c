/* The caller's CPU (`rune bench --cpu N`): the thread that times the rows
 * pinned to one CPU, since the vCPUs of a shared host can differ in speed
 * and the scheduler moves a thread between them. Crowd workers are made
 * unpinned: a batch made while the caller is pinned would start its
 * workers on the caller's CPU. Linux only; elsewhere --cpu is refused. */
#if defined(__linux__)
#define _GNU_SOURCE
#include <sched.h>
#endif
#include "bench.h"

static int pinned = -1;
#if defined(__linux__)
static cpu_set_t before; /* the caller's CPUs before it was pinned */
#endif

bool bench_pin(int cpu)
{
#if defined(__linux__)
    cpu_set_t one;
    if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof before, &before) != 0)
        return false;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        return false;
    pinned = cpu;
    return true;
#else
    (void)cpu;
    return false;
#endif
}

int bench_pinned_cpu(void) { return pinned; }

int bench_current_cpu(void)
{
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

rune_status bench_batch_create(size_t workers, rune_batch **out)
{
#if defined(__linux__)
    if (pinned >= 0 && workers > 0) {
        cpu_set_t one;
        sched_getaffinity(0, sizeof one, &one);
        sched_setaffinity(0, sizeof before, &before);
        rune_status st = rune_batch_create(workers, &bench_counting, out, NULL);
        sched_setaffinity(0, sizeof one, &one);
        return st;
    }
#endif
    return rune_batch_create(workers, &bench_counting, out, NULL);
}
