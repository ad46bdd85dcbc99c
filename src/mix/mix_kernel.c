/* The SoA mixing kernels: plain loops with selects instead of branches, so
 * the compiler vectorizes them; built once per instruction set by CMake. */
#include "mix_kernel.h"
#include "../math/lane_quat.h"
#include "../math/slerp_series.h"

#include <math.h>

void KERNEL(rune__mix_accumulate)(mix_lanes *restrict acc, const rune_sample_chunk *restrict s, float weight, size_t n)
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float share = weight * s->coverage[i];
        /* shares too small to show are none: a denormal share would make
         * the mean's 1 / sum overflow */
        share = share > RUNE_MIN_SHARE ? (share < 1.0f ? share : 1.0f) : 0.0f;
        float d = acc->qx[i] * s->qx[i] + acc->qy[i] * s->qy[i] + acc->qz[i] * s->qz[i] + acc->qw[i] * s->qw[i];
        float ss = d < 0.0f ? -share : share; /* hemisphere alignment as a select */
        acc->qx[i] += ss * s->qx[i];
        acc->qy[i] += ss * s->qy[i];
        acc->qz[i] += ss * s->qz[i];
        acc->qw[i] += ss * s->qw[i];
        acc->x[i] += share * s->x[i];
        acc->y[i] += share * s->y[i];
        acc->z[i] += share * s->z[i];
        acc->c[i] += share;
    }
}

/* The guarded division takes x + (ok ? 0 : 1), not (ok ? x : 1), for the
 * reason lane_quat.h gives. */
void KERNEL(rune__mix_mean)(const mix_lanes *restrict acc, mix_lanes *restrict mean, size_t n)
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float sum = acc->c[i];
        float inv_sum = 1.0f / (sum + (sum > 0.0f ? 0.0f : 1.0f));
        mean->x[i] = acc->x[i] * inv_sum;
        mean->y[i] = acc->y[i] * inv_sum;
        mean->z[i] = acc->z[i] * inv_sum;
        rune_quat r = lane_q_normalize(rune_q(acc->qx[i], acc->qy[i], acc->qz[i], acc->qw[i]));
        mean->qx[i] = r.x, mean->qy[i] = r.y, mean->qz[i] = r.z, mean->qw[i] = r.w;
        mean->c[i] = sum > 0.0f ? (sum < 1.0f ? sum : 1.0f) : 0.0f;
    }
}

/* The common case: every lane's rank coverage is 0 or 1, so each lane
 * keeps the pose below or takes the mean. */
static void overlay_whole(const mix_lanes *restrict m, mix_lanes *restrict out, size_t n)
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float c = m->c[i];
        float mx = m->x[i], my = m->y[i], mz = m->z[i];
        float mqx = m->qx[i], mqy = m->qy[i], mqz = m->qz[i], mqw = m->qw[i];
        float ox = out->x[i], oy = out->y[i], oz = out->z[i], oc = out->c[i];
        float oqx = out->qx[i], oqy = out->qy[i], oqz = out->qz[i], oqw = out->qw[i];
        out->x[i] = c >= 1.0f ? mx : ox;
        out->y[i] = c >= 1.0f ? my : oy;
        out->z[i] = c >= 1.0f ? mz : oz;
        out->c[i] = c >= 1.0f ? 1.0f : oc;
        out->qx[i] = c >= 1.0f ? mqx : oqx;
        out->qy[i] = c >= 1.0f ? mqy : oqy;
        out->qz[i] = c >= 1.0f ? mqz : oqz;
        out->qw[i] = c >= 1.0f ? mqw : oqw;
    }
}

/* Any lane: c = 0 keeps the pose below, c = 1 takes the mean, between
 * lerps t, slerps r with the series (lanes whose rotations are far apart
 * keep the old rotation and are flagged wide) and blends coverage.
 * Conditions are single comparisons feeding selects: the vectorizer gives
 * up on boolean temporaries combined with && or &. */
static float overlay_partial(const mix_lanes *restrict m, mix_lanes *restrict out, float *restrict wide, size_t n)
{
    float wide_count = 0.0f;
#pragma omp simd reduction(+ : wide_count)
    for (size_t i = 0; i < n; i++) {
        float c = m->c[i];
        float tx = m->x[i], ty = m->y[i], tz = m->z[i];
        float rx = m->qx[i], ry = m->qy[i], rz = m->qz[i], rw = m->qw[i];
        float px = out->qx[i], py = out->qy[i], pz = out->qz[i], pw = out->qw[i];
        float d = px * rx + py * ry + pz * rz + pw * rw;
        float sign = d < 0.0f ? -1.0f : 1.0f;
        d = d * sign;
        d = d > 1.0f ? 1.0f : d;
        float wa = rune_slerp_series(1.0f - c, d - 1.0f), wb = sign * rune_slerp_series(c, d - 1.0f);
        rune_quat q = lane_q_normalize(rune_q(px * wa + rx * wb, py * wa + ry * wb, pz * wa + rz * wb, pw * wa + rw * wb));
        float qx = q.x, qy = q.y, qz = q.z, qw = q.w;
        /* a wide arc keeps the old rotation for the exact slerp */
        qx = d < RUNE_SERIES_MIN_DOT ? px : qx, qy = d < RUNE_SERIES_MIN_DOT ? py : qy;
        qz = d < RUNE_SERIES_MIN_DOT ? pz : qz, qw = d < RUNE_SERIES_MIN_DOT ? pw : qw;
        float is_wide = d < RUNE_SERIES_MIN_DOT ? 1.0f : 0.0f;

        float ox = out->x[i], oy = out->y[i], oz = out->z[i], oc = out->c[i];
        float lx = ox + (tx - ox) * c, ly = oy + (ty - oy) * c, lz = oz + (tz - oz) * c;
        float lc = oc + c * (1.0f - oc);
        out->x[i] = c >= 1.0f ? tx : (c > 0.0f ? lx : ox);
        out->y[i] = c >= 1.0f ? ty : (c > 0.0f ? ly : oy);
        out->z[i] = c >= 1.0f ? tz : (c > 0.0f ? lz : oz);
        out->c[i] = c >= 1.0f ? 1.0f : (c > 0.0f ? lc : oc);
        out->qx[i] = c >= 1.0f ? rx : (c > 0.0f ? qx : px);
        out->qy[i] = c >= 1.0f ? ry : (c > 0.0f ? qy : py);
        out->qz[i] = c >= 1.0f ? rz : (c > 0.0f ? qz : pz);
        out->qw[i] = c >= 1.0f ? rw : (c > 0.0f ? qw : pw);
        float flag = c >= 1.0f ? 0.0f : (c > 0.0f ? is_wide : 0.0f);
        wide[i] = flag;
        wide_count += flag;
    }
    return wide_count;
}

size_t KERNEL(rune__mix_overlay)(const mix_lanes *restrict mean, mix_lanes *restrict out, float *restrict wide,
                                 size_t n)
{
    float partial = 0.0f;
#pragma omp simd reduction(+ : partial)
    for (size_t i = 0; i < n; i++)
        partial += mean->c[i] > 0.0f ? (mean->c[i] < 1.0f ? 1.0f : 0.0f) : 0.0f;
    if (partial == 0.0f) {
        overlay_whole(mean, out, n);
        return 0; /* no lane is wide: `wide` is not read */
    }
    return (size_t)overlay_partial(mean, out, wide, n);
}

size_t KERNEL(rune__mix_add)(mix_lanes *restrict out, const mix_lanes *restrict layer, const mix_lanes *restrict ref,
                             float *restrict wide, size_t n)
{
    float wide_count = 0.0f;
#pragma omp simd reduction(+ : wide_count)
    for (size_t i = 0; i < n; i++) {
        float w = layer->c[i];
        /* the delta rotation ref^-1 * layer, normalized */
        rune_quat delta = lane_q_normalize(rune_q_mul(rune_q_conjugate(rune_q(ref->qx[i], ref->qy[i], ref->qz[i], ref->qw[i])),
                                                      rune_q(layer->qx[i], layer->qy[i], layer->qz[i], layer->qw[i])));
        /* slerp(identity, delta, w): the identity's dot with the delta is
         * its w, sign-aligned; the series weights as in rune_q_slerp */
        float sign = delta.w < 0.0f ? -1.0f : 1.0f;
        float d = delta.w * sign;
        d = d > 1.0f ? 1.0f : d;
        float wa = rune_slerp_series(1.0f - w, d - 1.0f), wb = sign * rune_slerp_series(w, d - 1.0f);
        rune_quat step = lane_q_normalize(rune_q(delta.x * wb, delta.y * wb, delta.z * wb, wa + delta.w * wb));
        /* out = out * that, normalized */
        float px = out->qx[i], py = out->qy[i], pz = out->qz[i], pw = out->qw[i];
        rune_quat q = lane_q_normalize(rune_q_mul(rune_q(px, py, pz, pw), step));
        float qx = q.x, qy = q.y, qz = q.z, qw = q.w;
        /* a wide arc keeps the old rotation for the exact scalar step; the
         * flag does not look at w (combining the two conditions defeats
         * gcc's vectorizer): the caller skips lanes of weight 0 */
        float is_wide = d < RUNE_SERIES_MIN_DOT ? 1.0f : 0.0f;
        qx = d < RUNE_SERIES_MIN_DOT ? px : qx, qy = d < RUNE_SERIES_MIN_DOT ? py : qy;
        qz = d < RUNE_SERIES_MIN_DOT ? pz : qz, qw = d < RUNE_SERIES_MIN_DOT ? pw : qw;

        float ox = out->x[i], oy = out->y[i], oz = out->z[i], oc = out->c[i];
        float ax_t = ox + (layer->x[i] - ref->x[i]) * w, ay_t = oy + (layer->y[i] - ref->y[i]) * w;
        float az_t = oz + (layer->z[i] - ref->z[i]) * w, ac = oc + w * (1.0f - oc);
        /* w = 0 leaves the lane as it was */
        out->x[i] = w > 0.0f ? ax_t : ox;
        out->y[i] = w > 0.0f ? ay_t : oy;
        out->z[i] = w > 0.0f ? az_t : oz;
        out->c[i] = w > 0.0f ? ac : oc;
        out->qx[i] = w > 0.0f ? qx : px;
        out->qy[i] = w > 0.0f ? qy : py;
        out->qz[i] = w > 0.0f ? qz : pz;
        out->qw[i] = w > 0.0f ? qw : pw;
        wide[i] = is_wide;
        wide_count += is_wide;
    }
    return (size_t)wide_count;
}
