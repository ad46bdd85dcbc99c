/* The per-instruction-set kernel builds: their lane width and names. CMake compiles each
 * kernel source once per instruction set with KERNEL_ISA set to scalar,
 * sse2 or avx2; KERNEL(f) names this build's copy of f (f_scalar, ...), so
 * the three copies link side by side and callers pick one at run time. */
#ifndef RUNE_SRC_MATH_KERNEL_ISA_H
#define RUNE_SRC_MATH_KERNEL_ISA_H

#ifndef KERNEL_ISA
#define KERNEL_ISA scalar
#endif

/* Kernels process lanes in multiples of this (the widest vector, AVX2's 8
 * floats); callers pad their chunks to it (RUNE_SAMPLE_CHUNK is one). */
#define KERNEL_LANES 8

#include <stddef.h>

/* n rounded up to whole kernel lanes. */
static inline size_t kernel_lanes(size_t n) { return (n + KERNEL_LANES - 1) / KERNEL_LANES * KERNEL_LANES; }

#define KERNEL_CAT2(f, isa) f##_##isa
#define KERNEL_CAT(f, isa) KERNEL_CAT2(f, isa)
#define KERNEL(f) KERNEL_CAT(f, KERNEL_ISA)

/* Declares the builds of one kernel function. */
#define KERNEL_DECLARE(ret, f, params)                                                                              \
    ret f##_scalar params;                                                                                            \
    ret f##_sse2 params;                                                                                              \
    ret f##_avx2 params;                                                                                              \
    ret f##_avx2fma params;                                                                                           \
    ret f##_avx512 params

/* The body of a function returning BUILD(isa) -- a macro naming one
 * build's functions, typically a struct of them -- for a resolved
 * rune_simd_level; the scalar build for any other, and on machines
 * without the x86 builds. */
#if defined(RUNE_HAVE_X86_KERNELS)
#define KERNEL_PICK(level, BUILD)                                                                                     \
    switch (level) {                                                                                                  \
    case RUNE_SIMD_AVX512: return BUILD(avx512);                                                                      \
    case RUNE_SIMD_AVX2_FMA: return BUILD(avx2fma);                                                                   \
    case RUNE_SIMD_AVX2: return BUILD(avx2);                                                                          \
    case RUNE_SIMD_SSE2: return BUILD(sse2);                                                                          \
    default: return BUILD(scalar);                                                                                    \
    }
#else
#define KERNEL_PICK(level, BUILD)                                                                                     \
    (void)(level);                                                                                                    \
    return BUILD(scalar);
#endif

#endif
