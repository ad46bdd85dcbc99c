/* Names of the per-instruction-set kernel builds. CMake compiles each
 * kernel source once per instruction set with KERNEL_ISA set to scalar,
 * sse2 or avx2; KERNEL(f) names this build's copy of f (f_scalar, ...), so
 * the three copies link side by side and callers pick one at run time. */
#ifndef RUNE_SRC_MATH_KERNEL_ISA_H
#define RUNE_SRC_MATH_KERNEL_ISA_H

#ifndef KERNEL_ISA
#define KERNEL_ISA scalar
#endif

#define KERNEL_CAT2(f, isa) f##_##isa
#define KERNEL_CAT(f, isa) KERNEL_CAT2(f, isa)
#define KERNEL(f) KERNEL_CAT(f, KERNEL_ISA)

/* Declares the three builds of one kernel function. */
#define KERNEL_DECLARE(ret, f, params)                                                                              \
    ret f##_scalar params;                                                                                            \
    ret f##_sse2 params;                                                                                              \
    ret f##_avx2 params

#endif
