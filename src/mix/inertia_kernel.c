/* The inertialization's frame step: a plain branch-free loop the compiler
 * vectorizes, built once per instruction set by CMake. The offset
 * rotation's exponential is a polynomial (the half angle stays within
 * [0, pi/2]: cosine and sin(h)/h to the h^12 terms, within 1e-8), so no
 * lane calls sin or cos. */
#include "inertia_kernel.h"

#include <math.h>

#define PI_F 3.14159265f

/* The step, with the acceleration lanes read or (accel false: a switch
 * that interrupted no decay) left alone; specialized for each. */
static inline __attribute__((always_inline)) void step(const inertia_lanes *in, const mix_view *out,
                                                       inertia_weights wts, size_t n, bool accel)
{
    const float p0 = wts.p0, p1 = wts.p1, p2 = wts.p2;
    const float *tx0 = in->tx, *ty0 = in->ty, *tz0 = in->tz, *rx0 = in->rx, *ry0 = in->ry, *rz0 = in->rz;
    const float *wtx = in->wtx, *wty = in->wty, *wtz = in->wtz, *wrx = in->wrx, *wry = in->wry, *wrz = in->wrz;
    const float *atx = in->atx, *aty = in->aty, *atz = in->atz, *arx = in->arx, *ary = in->ary, *arz = in->arz;
    const float *c0 = in->c;
    float *x = out->x, *y = out->y, *z = out->z, *qx = out->qx, *qy = out->qy, *qz = out->qz, *qw = out->qw;
    float *c = out->c;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        x[i] += tx0[i] * p0 + wtx[i] * p1 + (accel ? atx[i] * p2 : 0.0f);
        y[i] += ty0[i] * p0 + wty[i] * p1 + (accel ? aty[i] * p2 : 0.0f);
        z[i] += tz0[i] * p0 + wtz[i] * p1 + (accel ? atz[i] * p2 : 0.0f);
        float rx = rx0[i] * p0 + wrx[i] * p1 + (accel ? arx[i] * p2 : 0.0f);
        float ry = ry0[i] * p0 + wry[i] * p1 + (accel ? ary[i] * p2 : 0.0f);
        float rz = rz0[i] * p0 + wrz[i] * p1 + (accel ? arz[i] * p2 : 0.0f);
        float angle = sqrtf(rx * rx + ry * ry + rz * rz);
        /* past pi the vector is shortened to angle pi (selects, not
         * fminf/fmaxf: gcc vectorizes those only with -ffinite-math-only) */
        float h = 0.5f * (angle < PI_F ? angle : PI_F), h2 = h * h;
        float shorten = PI_F / (angle > PI_F ? angle : PI_F);
        float cosh_ = 1.0f + h2 * (-1.0f / 2 + h2 * (1.0f / 24 + h2 * (-1.0f / 720 + h2 * (1.0f / 40320 + h2 * (
                                  -1.0f / 3628800 + h2 * (1.0f / 479001600))))));
        float sinc = 1.0f + h2 * (-1.0f / 6 + h2 * (1.0f / 120 + h2 * (-1.0f / 5040 + h2 * (1.0f / 362880 + h2 * (
                                 -1.0f / 39916800 + h2 * (1.0f / 6227020800.0f))))));
        /* the offset quaternion: (r / |r| sin h, cos h) = (r shorten sinc(h) / 2, cos h) */
        float m = 0.5f * shorten * sinc;
        float ox = rx * m, oy = ry * m, oz = rz * m, ow = cosh_;
        float ax = qx[i], ay = qy[i], az = qz[i], aw = qw[i];
        qx[i] = ow * ax + ox * aw + oy * az - oz * ay;
        qy[i] = ow * ay - ox * az + oy * aw + oz * ax;
        qz[i] = ow * az + ox * ay - oy * ax + oz * aw;
        qw[i] = ow * aw - ox * ax - oy * ay - oz * az;
        float cov = c[i] + c0[i] * p0;
        c[i] = cov > 0.0f ? (cov < 1.0f ? cov : 1.0f) : 0.0f;
    }
    if (!out->scaled)
        return;
    const float *sx0 = in->sx, *sy0 = in->sy, *sz0 = in->sz, *wsx = in->wsx, *wsy = in->wsy, *wsz = in->wsz;
    const float *asx = in->asx, *asy = in->asy, *asz = in->asz;
    float *sx = out->sx, *sy = out->sy, *sz = out->sz;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        sx[i] += sx0[i] * p0 + wsx[i] * p1 + (accel ? asx[i] * p2 : 0.0f);
        sy[i] += sy0[i] * p0 + wsy[i] * p1 + (accel ? asy[i] * p2 : 0.0f);
        sz[i] += sz0[i] * p0 + wsz[i] * p1 + (accel ? asz[i] * p2 : 0.0f);
    }
}

void KERNEL(rune__inertia_step)(const inertia_lanes *in, const mix_view *out, inertia_weights wts, size_t n)
{
    if (in->atx)
        step(in, out, wts, n, true);
    else
        step(in, out, wts, n, false);
}
