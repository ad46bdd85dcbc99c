/* Which kernels run here: the instruction sets of this build that the CPU
 * supports, asked of the CPU once, and their names. Every vectorized
 * stage (sampling, mixing, matrices) picks its build by the level this
 * resolves (src/math/kernel_isa.h). */
#include "simd_internal.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

/* Whether the CPU runs a level's kernels, asked of the CPU itself. */
static bool cpu_runs(rune_simd_level level)
{
    switch (level) {
    case RUNE_SIMD_AUTO:
    case RUNE_SIMD_SCALAR:
        return true;
#if defined(RUNE_HAVE_X86_KERNELS)
    case RUNE_SIMD_SSE2:
        return true;
    case RUNE_SIMD_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
    case RUNE_SIMD_AVX2_FMA:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case RUNE_SIMD_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("fma");
#endif
    default:
        return false;
    }
}

/* Bit l set: level l runs here; bit 31: the best level in bits 24..27.
 * Worked out once (every kernel call resolves its level, a crowd
 * character's frame a few dozen times); threads racing on the first call
 * store the same value. */
static _Atomic unsigned cpu_levels;

static unsigned levels_here(void)
{
    unsigned v = atomic_load_explicit(&cpu_levels, memory_order_relaxed);
    if (v)
        return v;
    static const rune_simd_level order[] = {RUNE_SIMD_AVX512, RUNE_SIMD_AVX2_FMA, RUNE_SIMD_AVX2, RUNE_SIMD_SSE2};
    rune_simd_level best = RUNE_SIMD_SCALAR;
    for (size_t i = sizeof order / sizeof order[0]; i-- > 0;)
        if (cpu_runs(order[i]))
            best = order[i];
    for (int l = 0; l < RUNE_SIMD_LEVEL_COUNT; l++)
        v |= cpu_runs((rune_simd_level)l) ? 1u << l : 0u;
    v |= 1u << 31 | (unsigned)best << 24;
    atomic_store_explicit(&cpu_levels, v, memory_order_relaxed);
    return v;
}

bool rune_simd_supported(rune_simd_level level)
{
    return (unsigned)level < RUNE_SIMD_LEVEL_COUNT && (levels_here() >> level & 1u);
}

/* AVX-512 first: on the machines measured (docs/performance.md) it is as
 * fast or faster on every row of `rune bench` (16 lanes a chunk step,
 * whole-register masks); where a 512-bit unit lowers the clock enough to
 * lose, ask for avx2fma by name. */
rune_simd_level rune_simd_best(void) { return (rune_simd_level)(levels_here() >> 24 & 0xfu); }

rune_simd_level rune_simd_resolve(rune_simd_level level)
{
    if (level == RUNE_SIMD_AUTO || (unsigned)level >= RUNE_SIMD_LEVEL_COUNT || !rune_simd_supported(level))
        return rune_simd_best();
    return level;
}

static const char *const simd_names[RUNE_SIMD_LEVEL_COUNT] = {"auto", "scalar", "sse2", "avx2", "avx2fma", "avx512"};

const char *rune_simd_name(rune_simd_level level)
{
    return (unsigned)level < RUNE_SIMD_LEVEL_COUNT ? simd_names[level] : "?";
}

int rune_simd_from_name(const char *name)
{
    for (int i = 0; name && i < RUNE_SIMD_LEVEL_COUNT; i++)
        if (strcmp(simd_names[i], name) == 0)
            return i;
    return -1;
}

