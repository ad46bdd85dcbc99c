/* The per-frame step of an inertialization (inertia.c) over lanes of
 * joints in structure-of-arrays form: the decaying offset added to the
 * destination's pose. One source, compiled once per instruction set
 * (math/kernel_isa.h); inertia.c picks a build at run time. */
#ifndef RUNE_SRC_MIX_INERTIA_KERNEL_H
#define RUNE_SRC_MIX_INERTIA_KERNEL_H

#include "mix_kernel.h"

/* An inertialization's per-joint lanes: the offset at its start (x0), its
 * start velocity times the blend time (w) and its start acceleration
 * times the blend time squared (a; all NULL when the acceleration is 0),
 * for translation, rotation (a rotation vector: axis times angle) and
 * scale; and the coverage offset. */
typedef struct inertia_lanes {
    const float *tx, *ty, *tz, *rx, *ry, *rz, *sx, *sy, *sz, *c;
    const float *wtx, *wty, *wtz, *wrx, *wry, *wrz, *wsx, *wsy, *wsz;
    const float *atx, *aty, *atz, *arx, *ary, *arz, *asx, *asy, *asz;
} inertia_lanes;

/* The decay's weights at one time (rune__inertia_weights). */
typedef struct inertia_weights {
    float p0, p1, p2;
} inertia_weights;

/* For lanes [0, n) (padded to KERNEL_LANES): with the decay's weights at
 * this time (inertia.c), each channel's offset is
 * x = x0 p0 + w p1 + a p2; t += x; r = exp(x) r, the rotation vector's angle
 * held to pi (the offset rotation multiplies from the left: parent side);
 * s += x (only when out->scaled); coverage clamp(c + c0 p0, 0, 1). */
KERNEL_DECLARE(void, rune__inertia_step, (const inertia_lanes *in, const mix_view *out, inertia_weights k, size_t n));

#endif
