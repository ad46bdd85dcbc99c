/* Blend-space weights: 1D linear bands and 2D gradient bands (Cartesian and
 * directional). Pure functions over caller arrays: no allocation. */
#include "rune/blend.h"

#include <float.h>

#define SAME_POS_EPS 1e-6f

/* Spreads weight `amount` evenly over the samples at threshold `value`. */
static void share_threshold(const float *th, size_t n, float value, float amount, float *w)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += th[i] == value;
    for (size_t i = 0; k && i < n; i++)
        if (th[i] == value)
            w[i] += amount / (float)k;
}

void rune_blend1d_weights(const float *th, size_t n, float x, float *w)
{
    for (size_t i = 0; i < n; i++)
        w[i] = 0.0f;
    if (n == 0)
        return;
    if (!isfinite(x))
        x = 0.0f;
    float lo = -FLT_MAX, hi = FLT_MAX, min = FLT_MAX, max = -FLT_MAX;
    bool has_lo = false, has_hi = false;
    for (size_t i = 0; i < n; i++) {
        if (th[i] <= x && (!has_lo || th[i] > lo))
            lo = th[i], has_lo = true;
        if (th[i] >= x && (!has_hi || th[i] < hi))
            hi = th[i], has_hi = true;
        min = fminf(min, th[i]);
        max = fmaxf(max, th[i]);
    }
    if (!has_lo) {
        share_threshold(th, n, min, 1.0f, w);
    } else if (!has_hi) {
        share_threshold(th, n, max, 1.0f, w);
    } else if (lo == hi) {
        share_threshold(th, n, lo, 1.0f, w);
    } else {
        float a = (x - lo) / (hi - lo);
        share_threshold(th, n, lo, 1.0f - a, w);
        share_threshold(th, n, hi, a, w);
    }
}

static float len2(rune_vec2 v) { return v.x * v.x + v.y * v.y; }
static rune_vec2 sub2(rune_vec2 a, rune_vec2 b) { rune_vec2 r = {a.x - b.x, a.y - b.y}; return r; }

/* Pairs whose directions are this close to opposite have no meaningful
 * sign of rotation between them: their angles are taken unsigned. */
#define NEAR_OPPOSITE (0.99f * 3.14159265f)
/* The angle weight of bands between two moving samples (the spec's 2). */
#define ANGLE_WEIGHT 2.0f
#define PI_F 3.14159265358979f

/* A point in polar form: its magnitude and heading (0 at the origin). */
typedef struct polar {
    float m, a;
    bool origin;
} polar;

static polar polar_of(rune_vec2 v)
{
    polar p = {sqrtf(len2(v)), 0.0f, len2(v) < SAME_POS_EPS * SAME_POS_EPS};
    if (!p.origin)
        p.a = atan2f(v.y, v.x);
    return p;
}

/* Signed angle from a to b in (-pi, pi]; 0 when either is at the origin.
 * The difference of headings: every band of an input needs the headings
 * of n + 1 points, not an arctangent for each of n x (n - 1) pairs. */
static float signed_angle(polar a, polar b)
{
    if (a.origin || b.origin)
        return 0.0f;
    float d = b.a - a.a;
    if (d > PI_F)
        d -= 2.0f * PI_F;
    else if (d <= -PI_F)
        d += 2.0f * PI_F;
    return d;
}

/* The band coordinates of the pair (i, j) and of the input relative to i.
 * Cartesian: plain differences. Directional (after Johansen's gradient
 * bands in polar space): speeds relative to the pair's mean magnitude, and
 * angles. Between two moving samples the angle is 2 x the signed angle
 * from p_i (to p_j, to p). A band with a sample at the origin (an idle)
 * has no direction of its own, so it is measured along the input's
 * angular distance theta from the moving sample s, weight 1: idle -> s is
 * (speed, theta) against the input's (speed, 0), and s -> idle is
 * (speed, theta) against (speed, theta). The idle thus constrains speed
 * toward the samples the input heads for, and hardly at all toward samples
 * in other directions. Returns false when the pair does not define a band
 * (coincident samples). */
static bool band(rune_vec2 pi, rune_vec2 pj, rune_vec2 p, polar qi, polar qj, polar qp, rune_blend2d_mode mode,
                 rune_vec2 *ij, rune_vec2 *ip)
{
    if (mode == RUNE_BLEND2D_CARTESIAN) {
        *ij = sub2(pj, pi);
        *ip = sub2(p, pi);
        return len2(*ij) > SAME_POS_EPS * SAME_POS_EPS;
    }
    float mi = qi.m, mj = qj.m, mp = qp.m;
    float mean = 0.5f * (mi + mj);
    if (mean < SAME_POS_EPS)
        return false;
    ij->x = (mj - mi) / mean;
    ip->x = (mp - mi) / mean;
    if (mi < SAME_POS_EPS) { /* i is the idle */
        ij->y = fabsf(signed_angle(qp, qj));
        ip->y = 0.0f;
    } else if (mj < SAME_POS_EPS) { /* j is the idle */
        ij->y = ip->y = fabsf(signed_angle(qp, qi));
    } else {
        float a_ij = signed_angle(qi, qj), a_ip = signed_angle(qi, qp);
        if (fabsf(a_ij) >= NEAR_OPPOSITE)
            a_ij = fabsf(a_ij), a_ip = fabsf(a_ip);
        ij->y = ANGLE_WEIGHT * a_ij;
        ip->y = ANGLE_WEIGHT * a_ip;
    }
    return len2(*ij) > SAME_POS_EPS * SAME_POS_EPS;
}

/* Gives the samples at `at` an even share of all weight. */
static void select_position(const rune_vec2 *pos, size_t n, rune_vec2 at, float *w)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += len2(sub2(pos[i], at)) <= SAME_POS_EPS * SAME_POS_EPS;
    for (size_t i = 0; i < n; i++)
        w[i] = len2(sub2(pos[i], at)) <= SAME_POS_EPS * SAME_POS_EPS ? 1.0f / (float)k : 0.0f;
}

/* Samples whose polar form is kept on the stack (blend spaces rarely have
 * more); the rest are converted per band, to the same values. */
#define POLAR_CACHE 32

void rune_blend2d_weights(const rune_vec2 *pos, size_t n, rune_vec2 p, rune_blend2d_mode mode, float *w)
{
    if (n == 0)
        return;
    if (!isfinite(p.x) || !isfinite(p.y))
        p.x = p.y = 0.0f;
    size_t nearest = 0;
    for (size_t i = 0; i < n; i++) {
        float d = len2(sub2(p, pos[i]));
        if (d <= SAME_POS_EPS * SAME_POS_EPS) {
            select_position(pos, n, pos[i], w);
            return;
        }
        if (d < len2(sub2(p, pos[nearest])))
            nearest = i;
    }
    /* headings of the first samples computed once; any beyond, per band */
    bool directional = mode != RUNE_BLEND2D_CARTESIAN;
    polar q[POLAR_CACHE], qp = directional ? polar_of(p) : (polar){0.0f, 0.0f, true};
    for (size_t i = 0; directional && i < n && i < POLAR_CACHE; i++)
        q[i] = polar_of(pos[i]);
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float h = 1.0f;
        polar qi = !directional ? qp : (i < POLAR_CACHE ? q[i] : polar_of(pos[i]));
        for (size_t j = 0; j < n; j++) {
            rune_vec2 ij, ip;
            polar qj = !directional ? qp : (j < POLAR_CACHE ? q[j] : polar_of(pos[j]));
            if (j == i || !band(pos[i], pos[j], p, qi, qj, qp, mode, &ij, &ip))
                continue;
            float hj = 1.0f - (ij.x * ip.x + ij.y * ip.y) / len2(ij);
            h = fminf(h, hj);
        }
        w[i] = h > 0.0f ? h : 0.0f;
        sum += w[i];
    }
    if (!(sum > 0.0f)) {
        select_position(pos, n, pos[nearest], w);
        return;
    }
    for (size_t i = 0; i < n; i++)
        w[i] /= sum;
}
