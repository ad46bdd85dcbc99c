/* The branch-free interpolation kernel over structure-of-arrays interval
 * data. One source, compiled three times (scalar, SSE2, AVX2) by CMake;
 * sample_cache.c picks one at run time. */
#ifndef RUNE_SRC_CLIP_SAMPLE_KERNEL_H
#define RUNE_SRC_CLIP_SAMPLE_KERNEL_H

#include <stddef.h>

/** Lanes are padded to a multiple of this (RUNE_SAMPLE_CHUNK is one). */
#define RUNE_KERNEL_PAD 8

/* The interval each track is in: key 0 and key 1 values, key 0's time and
 * 1 / (t1 - t0) (0 while an end key holds). Rotations are already sign
 * aligned (q1 in q0's hemisphere). */
typedef struct kernel_in {
    float *t0, *inv_span;
    float *x0, *y0, *z0, *x1, *y1, *z1;
    float *qx0, *qy0, *qz0, *qw0, *qx1, *qy1, *qz1, *qw1;
    float *w0, *w1, *m0, *m1;
} kernel_in;

typedef struct kernel_out {
    float *x, *y, *z, *qx, *qy, *qz, *qw, *weight, *mask, *coverage;
} kernel_out;

/* Linear interpolation by u = clamp((t - t0) * inv_span, 0, 1); rotation by
 * slerp computed as a truncated series of sin(u theta) / sin(theta) in
 * cos(theta), accurate to 3e-8 for cos(theta) >= 0.7 (the cache routes
 * wider arcs and eased keys to the exact scalar sampler). */
void rune__sample_kernel_scalar(const kernel_in *in, float t, const kernel_out *out, size_t n);
void rune__sample_kernel_sse2(const kernel_in *in, float t, const kernel_out *out, size_t n);
void rune__sample_kernel_avx2(const kernel_in *in, float t, const kernel_out *out, size_t n);

#endif
