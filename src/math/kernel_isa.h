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

#endif
