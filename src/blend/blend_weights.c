/* Blend-space weights: 1D linear bands and 2D gradient bands (Cartesian and
 * directional). Pure functions over caller arrays: no allocation. */
#include "motion_internal.h"
#include "blend_internal.h"

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
/* The angle weight of bands between two moving samples: directional
 * bands measure angle twice as heavily as relative speed. */
#define ANGLE_WEIGHT 2.0f
#define PI_F 3.14159265358979f

static rune__polar polar_of(rune_vec2 v)
{
    rune__polar p = {sqrtf(len2(v)), 0.0f, len2(v) < SAME_POS_EPS * SAME_POS_EPS};
    if (!p.origin)
        p.a = atan2f(v.y, v.x);
    return p;
}

/* Signed angle from a to b in (-pi, pi]; 0 when either is at the origin.
 * The difference of headings: every band of an input needs the headings
 * of n + 1 points, not an arctangent for each of n x (n - 1) pairs. */
static float signed_angle(rune__polar a, rune__polar b)
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

/* The band of the pair (i, j), as far as it does not depend on the input.
 * Cartesian: the difference p_j - p_i. Directional (after Johansen's
 * gradient bands in polar space): speeds relative to the pair's mean
 * magnitude, and angles. Between two moving samples the angle is 2 x the
 * signed angle from p_i to p_j. A band with a sample at the origin (an
 * idle) has no direction of its own, so it is measured along the input's
 * angular distance theta from the moving sample s, weight 1: idle -> s is
 * (speed, theta) against the input's (speed, 0), and s -> idle is
 * (speed, theta) against (speed, theta); its angle is the input's. The
 * idle thus constrains speed toward the samples the input heads for, and
 * hardly at all toward samples in other directions. Coincident samples
 * define no band. */
static rune__band pair_band(rune_vec2 pi, rune_vec2 pj, rune__polar qi, rune__polar qj, rune_blend2d_mode mode)
{
    rune__band b = {0.0f, 0.0f, 0.0f, 0.0f, BAND_NONE, false};
    if (mode == RUNE_BLEND2D_CARTESIAN) {
        rune_vec2 ij = sub2(pj, pi);
        b.ijx = ij.x, b.ijy = ij.y, b.len2 = len2(ij);
        b.kind = b.len2 > SAME_POS_EPS * SAME_POS_EPS ? BAND_FIXED : BAND_NONE;
        return b;
    }
    float mi = qi.m, mj = qj.m;
    b.mean = 0.5f * (mi + mj);
    if (b.mean < SAME_POS_EPS)
        return b;
    b.ijx = (mj - mi) / b.mean;
    if (mi < SAME_POS_EPS) {
        b.kind = BAND_IDLE_I;
    } else if (mj < SAME_POS_EPS) {
        b.kind = BAND_IDLE_J;
    } else {
        float a_ij = signed_angle(qi, qj);
        b.opposite = fabsf(a_ij) >= NEAR_OPPOSITE;
        b.ijy = ANGLE_WEIGHT * (b.opposite ? fabsf(a_ij) : a_ij);
        b.len2 = b.ijx * b.ijx + b.ijy * b.ijy;
        b.kind = b.len2 > SAME_POS_EPS * SAME_POS_EPS ? BAND_FIXED : BAND_NONE;
    }
    return b;
}

/* What the bands of sample i share at an input: the input relative to
 * i, in Cartesian or polar terms. */
typedef struct from_i {
    rune_vec2 ip;    /* Cartesian: input - p_i */
    float dm;        /* directional: input magnitude - i's */
    float a_ip;      /* the signed angle from p_i to the input */
    float a_pi_abs;  /* |the signed angle from the input to p_i| */
} from_i;

/* 1 - <input - i, j - i> / |j - i|^2 in the band's terms, into *h; false
 * when the pair defines no band at this input. */
static inline bool band_h(const rune__band *b, const from_i *f, rune__polar qj, rune__polar qp,
                          rune_blend2d_mode mode, float *h)
{
    if (b->kind == BAND_NONE)
        return false;
    rune_vec2 ij = {b->ijx, b->ijy}, ip;
    float l2 = b->len2;
    if (mode == RUNE_BLEND2D_CARTESIAN) {
        ip = f->ip;
    } else {
        ip.x = f->dm / b->mean;
        if (b->kind == BAND_IDLE_I) {
            ij.y = fabsf(signed_angle(qp, qj));
            ip.y = 0.0f;
        } else if (b->kind == BAND_IDLE_J) {
            ij.y = ip.y = f->a_pi_abs;
        } else {
            ip.y = ANGLE_WEIGHT * (b->opposite ? fabsf(f->a_ip) : f->a_ip);
        }
        if (b->kind != BAND_FIXED) {
            l2 = len2(ij);
            if (!(l2 > SAME_POS_EPS * SAME_POS_EPS))
                return false;
        }
    }
    *h = 1.0f - (ij.x * ip.x + ij.y * ip.y) / l2;
    return true;
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

void rune__blend2d_weights_prepared(const rune_vec2 *pos, size_t n, rune_vec2 p, rune_blend2d_mode mode,
                                    const rune__polar *polar, const rune__band *bands, float *w)
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
    bool directional = mode != RUNE_BLEND2D_CARTESIAN;
    rune__polar q[POLAR_CACHE], qp = directional ? polar_of(p) : (rune__polar){0.0f, 0.0f, true};
    for (size_t i = 0; !polar && directional && i < n && i < POLAR_CACHE; i++)
        q[i] = polar_of(pos[i]);
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float h = 1.0f;
        rune__polar qi = !directional ? qp : (polar ? polar[i] : (i < POLAR_CACHE ? q[i] : polar_of(pos[i])));
        from_i f = {sub2(p, pos[i]), qp.m - qi.m, signed_angle(qi, qp), fabsf(signed_angle(qp, qi))};
        for (size_t j = 0; j < n; j++) {
            if (j == i)
                continue;
            rune__polar qj = !directional ? qp : (polar ? polar[j] : (j < POLAR_CACHE ? q[j] : polar_of(pos[j])));
            rune__band made;
            const rune__band *b = bands ? &bands[i * n + j] : (made = pair_band(pos[i], pos[j], qi, qj, mode), &made);
            float hj;
            if (band_h(b, &f, qj, qp, mode, &hj))
                h = hj < h ? hj : h; /* fminf without the call: h is never NaN, a NaN hj leaves it */
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

void rune_blend2d_weights(const rune_vec2 *pos, size_t n, rune_vec2 p, rune_blend2d_mode mode, float *w)
{
    rune__blend2d_weights_prepared(pos, n, p, mode, NULL, NULL, w);
}

void rune__blend2d_prepare(const rune_vec2 *pos, size_t n, rune_blend2d_mode mode, rune__polar *polar,
                           rune__band *bands)
{
    for (size_t i = 0; i < n; i++)
        polar[i] = polar_of(pos[i]);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            bands[i * n + j] = j == i ? (rune__band){0.0f, 0.0f, 0.0f, 0.0f, BAND_NONE, false}
                                      : pair_band(pos[i], pos[j], polar[i], polar[j], mode);
}
