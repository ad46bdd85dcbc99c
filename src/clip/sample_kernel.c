/* The SoA sampling kernel. Written as plain loops without branches so the
 * compiler vectorizes it; CMake builds this file three times with
 * KERNEL_NAME set (scalar with vectorization off, SSE2, AVX2). */
#include "sample_kernel.h"

#include <math.h>

#ifndef KERNEL_NAME
#define KERNEL_NAME rune__sample_kernel_scalar
#endif

/* sin(u theta) / sin(theta) = sum_i a_i (x - 1)^i, a_0 = u,
 * a_i = a_(i-1) (u^2 - i^2) / (i (2i + 1)), x = cos(theta). Eight terms. */
static inline float series(float u, float xm1)
{
    float u2 = u * u;
    float a = u, s = u, p = 1.0f;
    a *= (u2 - 1.0f) * (1.0f / 3.0f);
    p *= xm1;
    s += a * p;
    a *= (u2 - 4.0f) * (1.0f / 10.0f);
    p *= xm1;
    s += a * p;
    a *= (u2 - 9.0f) * (1.0f / 21.0f);
    p *= xm1;
    s += a * p;
    a *= (u2 - 16.0f) * (1.0f / 36.0f);
    p *= xm1;
    s += a * p;
    a *= (u2 - 25.0f) * (1.0f / 55.0f);
    p *= xm1;
    s += a * p;
    a *= (u2 - 36.0f) * (1.0f / 78.0f);
    p *= xm1;
    s += a * p;
    a *= (u2 - 49.0f) * (1.0f / 105.0f);
    p *= xm1;
    s += a * p;
    return s;
}

void KERNEL_NAME(const kernel_in *in, float t, const kernel_out *out, size_t n)
{
    /* restrict copies: the arrays never overlap, and saying so is what lets
     * the compiler vectorize the loop */
    const float *restrict t0 = in->t0, *restrict inv_span = in->inv_span;
    const float *restrict x0 = in->x0, *restrict y0 = in->y0, *restrict z0 = in->z0;
    const float *restrict x1 = in->x1, *restrict y1 = in->y1, *restrict z1 = in->z1;
    const float *restrict qx0 = in->qx0, *restrict qy0 = in->qy0, *restrict qz0 = in->qz0, *restrict qw0 = in->qw0;
    const float *restrict qx1 = in->qx1, *restrict qy1 = in->qy1, *restrict qz1 = in->qz1, *restrict qw1 = in->qw1;
    const float *restrict w0 = in->w0, *restrict w1 = in->w1, *restrict m0 = in->m0, *restrict m1 = in->m1;
    float *restrict ox = out->x, *restrict oy = out->y, *restrict oz = out->z;
    float *restrict oqx = out->qx, *restrict oqy = out->qy, *restrict oqz = out->qz, *restrict oqw = out->qw;
    float *restrict ow = out->weight, *restrict om = out->mask, *restrict oc = out->coverage;
    /* two passes with fewer streams each; "omp simd" (-fopenmp-simd) tells
     * the compiler the lanes are independent, which its cost model would not
     * otherwise assume */
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float u = (t - t0[i]) * inv_span[i];
        u = u < 0.0f ? 0.0f : u; /* comparisons, not fminf: those vectorize */
        u = u > 1.0f ? 1.0f : u;
        ox[i] = x0[i] + (x1[i] - x0[i]) * u;
        oy[i] = y0[i] + (y1[i] - y0[i]) * u;
        oz[i] = z0[i] + (z1[i] - z0[i]) * u;
        float w = w0[i] + (w1[i] - w0[i]) * u;
        float m = m0[i] + (m1[i] - m0[i]) * u;
        ow[i] = w;
        om[i] = m;
        float c = w * (1.0f - m);
        c = c < 0.0f ? 0.0f : c;
        oc[i] = c > 1.0f ? 1.0f : c;
    }
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float u = (t - t0[i]) * inv_span[i];
        u = u < 0.0f ? 0.0f : u;
        u = u > 1.0f ? 1.0f : u;
        float x = qx0[i] * qx1[i] + qy0[i] * qy1[i] + qz0[i] * qz1[i] + qw0[i] * qw1[i];
        x = x > 1.0f ? 1.0f : x;
        float c0 = series(1.0f - u, x - 1.0f), c1 = series(u, x - 1.0f);
        float qx = c0 * qx0[i] + c1 * qx1[i];
        float qy = c0 * qy0[i] + c1 * qy1[i];
        float qz = c0 * qz0[i] + c1 * qz1[i];
        float qw = c0 * qw0[i] + c1 * qw1[i];
        float inv = 1.0f / sqrtf(qx * qx + qy * qy + qz * qz + qw * qw);
        oqx[i] = qx * inv;
        oqy[i] = qy * inv;
        oqz[i] = qz * inv;
        oqw[i] = qw * inv;
    }
}
