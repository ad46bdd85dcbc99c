/* The critically damped spring that smooths a control's goal (its
 * `smooth_time`, Roblox's SmoothTime): x'' = -2 w x' - w^2 (x - goal) with
 * w = 2 / smooth_time, stepped by its exact solution for a goal held over
 * the step, so the path is the same whatever the frame rate. */
#include "rune/ik.h"

#include <float.h>
#include <math.h>

/* x clamped to [-bound, bound]. In double, every term of the step stays
 * far inside range for float inputs (w <= 2 / 1e-45, dt and velocities
 * <= FLT_MAX); only the float results can overflow, so they saturate:
 * a goal that jumps 1e18 in 1e-30 s would need a velocity of 1e48. */
static float saturate(double x, double bound)
{
    return (float)(x < bound ? (x > -bound ? x : -bound) : bound);
}

void rune_ik_spring(float *value, float *velocity, const float *goal, size_t n, float smooth_time, float dt)
{
    if (!(smooth_time > 0.0f) || !isfinite(smooth_time) || !isfinite(dt)) {
        for (size_t i = 0; i < n; i++) {
            value[i] = goal[i];
            velocity[i] = 0.0f;
        }
        return;
    }
    if (dt <= 0.0f)
        return;
    double w = 2.0 / (double)smooth_time, decay = exp(-w * (double)dt);
    for (size_t i = 0; i < n; i++) {
        /* y = x - goal: y(t) = (y0 + (v0 + w y0) t) e^-wt */
        double y = (double)value[i] - (double)goal[i], v = (double)velocity[i];
        double k = (v + w * y) * (double)dt;
        value[i] = saturate((double)goal[i] + (y + k) * decay, RUNE_MAX_MAGNITUDE);
        velocity[i] = saturate((v - w * k) * decay, FLT_MAX);
    }
}
