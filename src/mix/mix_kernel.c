/* The SoA mixing kernels: plain loops with selects instead of branches, so
 * the compiler vectorizes them; built once per instruction set by CMake.
 * Each kernel copies its views' channel pointers into locals first, so
 * the loop body indexes plain arrays. */
#include "mix_kernel.h"
#include "../math/lane_quat.h"
#include "../math/slerp_series.h"
#include "../clip/sample_lane.h"
#include "../clip/clip_access_internal.h"

#include <math.h>

/* Largest additive scale ratio (layer / reference). */
#define MAX_RATIO 1e6f

/* A sample's share of a lane: clamp(weight * coverage, 0, 1), shares too
 * small to show counting as none (a denormal share would make the mean's
 * 1 / sum overflow). */
static inline float lane_share(float weight, float c)
{
    float share = weight * c;
    return share > RUNE_MIN_SHARE ? (share < 1.0f ? share : 1.0f) : 0.0f;
}

/* Lanes whose scale x v[i] lies strictly between `above` and `below` (a
 * NaN product counts nowhere). A whole-number count in a plain loop,
 * which gcc vectorizes with a vector sum at the end: the kernels' checks
 * as "omp simd" float reductions ended in sixteen dependent scalar adds
 * through the stack at AVX-512 (and the sole check's, in a scalar loop
 * with a branch a lane) -- each a call's longest chain, and hot in the
 * graph crowd's profile. */
static inline __attribute__((always_inline)) size_t count_lanes(const float *v, float scale, float above,
                                                                float below, size_t n)
{
    unsigned count = 0;
    for (size_t i = 0; i < n; i++) {
        float s = scale * v[i];
        count += s > above ? (s < below ? 1u : 0u) : 0u;
    }
    return count;
}

/* A whole chunk (most calls) counts with a constant trip: unrolled, with
 * no remainder loop or trip checks around the vector loop. */
static inline size_t count_between(const float *v, float scale, float above, float below, size_t n)
{
    if (n == RUNE_SAMPLE_CHUNK)
        return count_lanes(v, scale, above, below, RUNE_SAMPLE_CHUNK);
    return count_lanes(v, scale, above, below, n);
}

/* The scale sums of accumulate: from the sums of shares when no scaled
 * sample came before (every scale was 1), then share * scale (an
 * unscaled view's scale channels read as 1). Runs before the main loop
 * adds this sample's share to acc->c. */
static void accumulate_scale(const mix_view *acc, const mix_view *s, float weight, bool first, size_t n)
{
    float *asx = acc->sx, *asy = acc->sy, *asz = acc->sz;
    const float *ac = acc->c, *c = s->c, *sx = s->sx, *sy = s->sy, *sz = s->sz;
    if (first || !acc->scaled) { /* the scale sums so far are the shares so far */
#pragma omp simd
        for (size_t i = 0; i < n; i++) {
            float share = lane_share(weight, c[i]);
            float before = first ? 0.0f : ac[i];
            asx[i] = before + share * sx[i];
            asy[i] = before + share * sy[i];
            asz[i] = before + share * sz[i];
        }
        return;
    }
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float share = lane_share(weight, c[i]);
        asx[i] += share * sx[i];
        asy[i] += share * sy[i];
        asz[i] += share * sz[i];
    }
}

/* A rank's sums without scale, as plain pointers. */
typedef struct sums {
    float *x, *y, *z, *qx, *qy, *qz, *qw, *c;
} sums;

static inline sums sums_of(const mix_view *acc)
{
    return (sums){acc->x, acc->y, acc->z, acc->qx, acc->qy, acc->qz, acc->qw, acc->c};
}

/* One sample's lane into lane i of the sums, at its share: the first
 * sample starts them, a later one is added with the sign that puts its
 * rotation in the running sum's hemisphere. Shared by the kernels that
 * accumulate a sampled chunk and a row plan's fields, so both perform the
 * same operations (the same bits without FMA). */
static inline __attribute__((always_inline)) void sum_lane(sums a, size_t i, bool first, float share, float x, float y,
                                                           float z, float qx, float qy, float qz, float qw)
{
    if (first) { /* the sums start here: nothing to read or align to */
        a.qx[i] = share * qx;
        a.qy[i] = share * qy;
        a.qz[i] = share * qz;
        a.qw[i] = share * qw;
        a.x[i] = share * x;
        a.y[i] = share * y;
        a.z[i] = share * z;
        a.c[i] = share;
        return;
    }
    float d = a.qx[i] * qx + a.qy[i] * qy + a.qz[i] * qz + a.qw[i] * qw;
    float ss = d < 0.0f ? -share : share; /* hemisphere alignment as a select */
    a.qx[i] += ss * qx;
    a.qy[i] += ss * qy;
    a.qz[i] += ss * qz;
    a.qw[i] += ss * qw;
    a.x[i] += share * x;
    a.y[i] += share * y;
    a.z[i] += share * z;
    a.c[i] += share;
}

void KERNEL(rune__mix_accumulate)(const mix_view *acc, const mix_view *s, float weight, bool first, size_t n)
{
    if (s->scaled || (!first && acc->scaled))
        accumulate_scale(acc, s, weight, first, n);
    sums a = sums_of(acc);
    const float *x = s->x, *y = s->y, *z = s->z, *qx = s->qx, *qy = s->qy, *qz = s->qz, *qw = s->qw, *c = s->c;
    if (first) {
#pragma omp simd
        for (size_t i = 0; i < n; i++)
            sum_lane(a, i, true, lane_share(weight, c[i]), x[i], y[i], z[i], qx[i], qy[i], qz[i], qw[i]);
        return;
    }
#pragma omp simd
    for (size_t i = 0; i < n; i++)
        sum_lane(a, i, false, lane_share(weight, c[i]), x[i], y[i], z[i], qx[i], qy[i], qz[i], qw[i]);
}

/* `stride` and `lean` are constants where this is inlined, and the sums
 * are stack lanes: every array a fixed offset from one pointer, so the
 * loop's addresses fit the registers. */
static inline __attribute__((always_inline)) void accumulate_fields(mix_lanes *acc, const float *f, size_t stride,
                                                                    bool lean, const float *span, float t,
                                                                    float weight, bool first, size_t n)
{
    sums a = {acc->x, acc->y, acc->z, acc->qx, acc->qy, acc->qz, acc->qw, acc->c};
    float u = lean ? rune__segment_u(t, span[0], span[1]) : 0.0f;
    /* a lean row's coverage is 1 on every lane, so its share is the
     * weight's, once: gcc 12 vectorizes no select on a condition the same
     * for every lane, which lane_share of a constant coverage becomes */
    float lean_share = lane_share(weight, 1.0f);
    if (first) {
#pragma omp simd
        for (size_t i = 0; i < n; i++) {
            sample_lane s = rune__sample_row_lane(f, stride, i, t, lean, u);
            sum_lane(a, i, true, lean ? lean_share : lane_share(weight, s.c), s.x, s.y, s.z, s.r.x, s.r.y, s.r.z,
                     s.r.w);
        }
        return;
    }
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        sample_lane s = rune__sample_row_lane(f, stride, i, t, lean, u);
        sum_lane(a, i, false, lean ? lean_share : lane_share(weight, s.c), s.x, s.y, s.z, s.r.x, s.r.y, s.r.z,
                 s.r.w);
    }
}

void KERNEL(rune__mix_accumulate_fields)(mix_lanes *acc, const row_fields *rf, float t, float weight, bool first,
                                         size_t n)
{
    /* a whole chunk (every chunk of a plan but a partial last one) with a
     * constant stride; each kind of row its own loop */
    if (rf->span && rf->stride == RUNE_SAMPLE_CHUNK)
        accumulate_fields(acc, rf->f, RUNE_SAMPLE_CHUNK, true, rf->span, t, weight, first, n);
    else if (rf->span)
        accumulate_fields(acc, rf->f, rf->stride, true, rf->span, t, weight, first, n);
    else if (rf->stride == RUNE_SAMPLE_CHUNK)
        accumulate_fields(acc, rf->f, RUNE_SAMPLE_CHUNK, false, NULL, t, weight, first, n);
    else
        accumulate_fields(acc, rf->f, rf->stride, false, NULL, t, weight, first, n);
}

void KERNEL(rune__mix_accumulate2)(const mix_view *acc, const mix_view *a, float wa, const mix_view *b, float wb,
                                   bool first, size_t n)
{
    float *ax = acc->x, *ay = acc->y, *az = acc->z, *aqx = acc->qx, *aqy = acc->qy, *aqz = acc->qz, *aqw = acc->qw;
    float *ac = acc->c;
    const float *x0 = a->x, *y0 = a->y, *z0 = a->z, *qx0 = a->qx, *qy0 = a->qy, *qz0 = a->qz, *qw0 = a->qw, *c0 = a->c;
    const float *x1 = b->x, *y1 = b->y, *z1 = b->z, *qx1 = b->qx, *qy1 = b->qy, *qz1 = b->qz, *qw1 = b->qw, *c1 = b->c;
    if (first) { /* the sums start from sample a */
#pragma omp simd
        for (size_t i = 0; i < n; i++) {
            float s0 = lane_share(wa, c0[i]), s1 = lane_share(wb, c1[i]);
            float sqx = s0 * qx0[i], sqy = s0 * qy0[i], sqz = s0 * qz0[i], sqw = s0 * qw0[i];
            float d = sqx * qx1[i] + sqy * qy1[i] + sqz * qz1[i] + sqw * qw1[i];
            float ss = d < 0.0f ? -s1 : s1;
            aqx[i] = sqx + ss * qx1[i], aqy[i] = sqy + ss * qy1[i], aqz[i] = sqz + ss * qz1[i];
            aqw[i] = sqw + ss * qw1[i];
            ax[i] = s0 * x0[i] + s1 * x1[i], ay[i] = s0 * y0[i] + s1 * y1[i], az[i] = s0 * z0[i] + s1 * z1[i];
            ac[i] = s0 + s1;
        }
        return;
    }
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float s0 = lane_share(wa, c0[i]), s1 = lane_share(wb, c1[i]);
        float sqx = aqx[i], sqy = aqy[i], sqz = aqz[i], sqw = aqw[i];
        float d = sqx * qx0[i] + sqy * qy0[i] + sqz * qz0[i] + sqw * qw0[i];
        float ss = d < 0.0f ? -s0 : s0;
        sqx += ss * qx0[i], sqy += ss * qy0[i], sqz += ss * qz0[i], sqw += ss * qw0[i];
        d = sqx * qx1[i] + sqy * qy1[i] + sqz * qz1[i] + sqw * qw1[i];
        ss = d < 0.0f ? -s1 : s1;
        aqx[i] = sqx + ss * qx1[i], aqy[i] = sqy + ss * qy1[i], aqz[i] = sqz + ss * qz1[i], aqw[i] = sqw + ss * qw1[i];
        ax[i] = (ax[i] + s0 * x0[i]) + s1 * x1[i], ay[i] = (ay[i] + s0 * y0[i]) + s1 * y1[i];
        az[i] = (az[i] + s0 * z0[i]) + s1 * z1[i];
        ac[i] = (ac[i] + s0) + s1;
    }
}

/* The guarded division takes x + (ok ? 0 : 1), not (ok ? x : 1), for the
 * reason lane_quat.h gives. */
void KERNEL(rune__mix_mean)(const mix_view *acc, const mix_view *mean, size_t n)
{
    const float *ax = acc->x, *ay = acc->y, *az = acc->z, *aqx = acc->qx, *aqy = acc->qy, *aqz = acc->qz;
    const float *aqw = acc->qw, *ac = acc->c;
    float *x = mean->x, *y = mean->y, *z = mean->z, *qx = mean->qx, *qy = mean->qy, *qz = mean->qz, *qw = mean->qw;
    float *c = mean->c;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float sum = ac[i];
        float inv_sum = 1.0f / (sum + (sum > 0.0f ? 0.0f : 1.0f));
        x[i] = ax[i] * inv_sum;
        y[i] = ay[i] * inv_sum;
        z[i] = az[i] * inv_sum;
        rune_quat r = lane_q_normalize(rune_q(aqx[i], aqy[i], aqz[i], aqw[i]));
        qx[i] = r.x, qy[i] = r.y, qz[i] = r.z, qw[i] = r.w;
        c[i] = sum > 0.0f ? (sum < 1.0f ? sum : 1.0f) : 0.0f;
    }
    if (!acc->scaled)
        return;
    const float *asx = acc->sx, *asy = acc->sy, *asz = acc->sz;
    float *sx = mean->sx, *sy = mean->sy, *sz = mean->sz;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float sum = ac[i];
        float inv_sum = 1.0f / (sum + (sum > 0.0f ? 0.0f : 1.0f));
        /* no share: scale 1, the storage default */
        sx[i] = sum > 0.0f ? asx[i] * inv_sum : 1.0f;
        sy[i] = sum > 0.0f ? asy[i] * inv_sum : 1.0f;
        sz[i] = sum > 0.0f ? asz[i] * inv_sum : 1.0f;
    }
}

bool KERNEL(rune__mix_sole)(const mix_view *o, float weight, size_t n)
{
    float *x = o->x, *y = o->y, *z = o->z, *qx = o->qx, *qy = o->qy, *qz = o->qz, *qw = o->qw, *c = o->c;
    /* lane_share's share is partial where weight x c is above
     * RUNE_MIN_SHARE and below 1 */
    if (count_between(c, weight, RUNE_MIN_SHARE, 1.0f, n) != 0)
        return false;
    /* x share / share is x where the share is 1; the mean's rotation is
     * the normalized one */
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        bool keep = lane_share(weight, c[i]) >= 1.0f;
        rune_quat r = lane_q_normalize(rune_q(qx[i], qy[i], qz[i], qw[i]));
        x[i] = keep ? x[i] : 0.0f;
        y[i] = keep ? y[i] : 0.0f;
        z[i] = keep ? z[i] : 0.0f;
        qx[i] = keep ? r.x : 0.0f;
        qy[i] = keep ? r.y : 0.0f;
        qz[i] = keep ? r.z : 0.0f;
        qw[i] = keep ? r.w : 1.0f;
        c[i] = keep ? 1.0f : 0.0f;
    }
    return true;
}

/* Scale of the overlay: out's scale toward src's by f (an unscaled view's
 * scale channels read as 1). */
static void overlay_scale(const mix_view *src, const float *restrict f, const mix_view *out, size_t n)
{
    const float *sx = src->sx, *sy = src->sy, *sz = src->sz;
    float *osx = out->sx, *osy = out->sy, *osz = out->sz;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float u = f[i];
        float tx = sx[i], ty = sy[i], tz = sz[i];
        float px = osx[i], py = osy[i], pz = osz[i];
        osx[i] = u >= 1.0f ? tx : (u > 0.0f ? px + (tx - px) * u : px);
        osy[i] = u >= 1.0f ? ty : (u > 0.0f ? py + (ty - py) * u : py);
        osz[i] = u >= 1.0f ? tz : (u > 0.0f ? pz + (tz - pz) * u : pz);
    }
}

/* The common case: every lane's factor is 0 or 1, so each lane keeps the
 * transform it has or takes the source's. */
static void overlay_whole(const mix_view *src, const float *restrict f, const float *restrict g, const mix_view *out,
                          size_t n)
{
    const float *x = src->x, *y = src->y, *z = src->z, *qx = src->qx, *qy = src->qy, *qz = src->qz, *qw = src->qw;
    float *ox = out->x, *oy = out->y, *oz = out->z, *oqx = out->qx, *oqy = out->qy, *oqz = out->qz, *oqw = out->qw;
    float *oc = out->c;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        bool take = f[i] >= 1.0f;
        float px = ox[i], py = oy[i], pz = oz[i], pqx = oqx[i], pqy = oqy[i], pqz = oqz[i], pqw = oqw[i];
        ox[i] = take ? x[i] : px;
        oy[i] = take ? y[i] : py;
        oz[i] = take ? z[i] : pz;
        oqx[i] = take ? qx[i] : pqx;
        oqy[i] = take ? qy[i] : pqy;
        oqz[i] = take ? qz[i] : pqz;
        oqw[i] = take ? qw[i] : pqw;
        oc[i] += g[i] * (1.0f - oc[i]);
    }
}

/* Any lane: f = 0 keeps, f = 1 takes, between lerps translation and scale
 * and slerps rotation with the series (lanes whose rotations are far apart
 * keep the old rotation and are flagged wide). Conditions are single
 * comparisons feeding selects: the vectorizer gives up on boolean
 * temporaries combined with && or &. */
static size_t overlay_partial(const mix_view *src, const float *restrict f, const float *restrict g,
                              const mix_view *out, float *restrict wide, size_t n)
{
    const float *x = src->x, *y = src->y, *z = src->z, *qx = src->qx, *qy = src->qy, *qz = src->qz, *qw = src->qw;
    float *ox = out->x, *oy = out->y, *oz = out->z, *oqx = out->qx, *oqy = out->qy, *oqz = out->qz, *oqw = out->qw;
    float *oc = out->c;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float u = f[i];
        float rx = qx[i], ry = qy[i], rz = qz[i], rw = qw[i];
        float px = oqx[i], py = oqy[i], pz = oqz[i], pw = oqw[i];
        float d = px * rx + py * ry + pz * rz + pw * rw;
        float sign = d < 0.0f ? -1.0f : 1.0f;
        d = d * sign;
        d = d > 1.0f ? 1.0f : d;
        float wa = rune_slerp_series(1.0f - u, d - 1.0f), wb = sign * rune_slerp_series(u, d - 1.0f);
        rune_quat q = lane_q_normalize(rune_q(px * wa + rx * wb, py * wa + ry * wb, pz * wa + rz * wb, pw * wa + rw * wb));
        float nqx = q.x, nqy = q.y, nqz = q.z, nqw = q.w;
        /* a wide arc keeps the old rotation for the exact slerp */
        nqx = d < RUNE_SERIES_MIN_DOT ? px : nqx, nqy = d < RUNE_SERIES_MIN_DOT ? py : nqy;
        nqz = d < RUNE_SERIES_MIN_DOT ? pz : nqz, nqw = d < RUNE_SERIES_MIN_DOT ? pw : nqw;
        float is_wide = d < RUNE_SERIES_MIN_DOT ? 1.0f : 0.0f;

        float tx = ox[i], ty = oy[i], tz = oz[i];
        float lx = tx + (x[i] - tx) * u, ly = ty + (y[i] - ty) * u, lz = tz + (z[i] - tz) * u;
        ox[i] = u >= 1.0f ? x[i] : (u > 0.0f ? lx : tx);
        oy[i] = u >= 1.0f ? y[i] : (u > 0.0f ? ly : ty);
        oz[i] = u >= 1.0f ? z[i] : (u > 0.0f ? lz : tz);
        oqx[i] = u >= 1.0f ? rx : (u > 0.0f ? nqx : px);
        oqy[i] = u >= 1.0f ? ry : (u > 0.0f ? nqy : py);
        oqz[i] = u >= 1.0f ? rz : (u > 0.0f ? nqz : pz);
        oqw[i] = u >= 1.0f ? rw : (u > 0.0f ? nqw : pw);
        oc[i] += g[i] * (1.0f - oc[i]);
        wide[i] = u >= 1.0f ? 0.0f : (u > 0.0f ? is_wide : 0.0f);
    }
    return count_between(wide, 1.0f, 0.0f, 2.0f, n); /* flags are 0 or 1 */
}

size_t KERNEL(rune__mix_overlay)(const mix_view *src, const float *f, const float *g, const mix_view *out, float *wide,
                                 size_t n)
{
    if (src->scaled || out->scaled)
        overlay_scale(src, f, out, n);
    if (count_between(f, 1.0f, 0.0f, 1.0f, n) == 0) { /* no factor strictly between 0 and 1 */
        overlay_whole(src, f, g, out, n);
        return 0; /* no lane is wide: `wide` is not read */
    }
    return overlay_partial(src, f, g, out, wide, n);
}

/* Scale of an additive layer: out's scale times 1 + w (layer / ref - 1),
 * a zero reference reading as 1, the ratio clamped to +-1e6 and the
 * result to +-RUNE_MAX_MAGNITUDE. */
static void add_scale(const mix_view *out, const mix_view *layer, const mix_view *ref, const float *restrict weight,
                      size_t n)
{
    float *osx = out->sx, *osy = out->sy, *osz = out->sz;
    const float *lsx = layer->sx, *lsy = layer->sy, *lsz = layer->sz, *rsx = ref->sx, *rsy = ref->sy, *rsz = ref->sz;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float w = weight[i];
        float lx = lsx[i], ly = lsy[i], lz = lsz[i];
        float bx = rsx[i], by = rsy[i], bz = rsz[i];
        float ratio_x = lx / (bx + (bx != 0.0f ? 0.0f : 1.0f)), ratio_y = ly / (by + (by != 0.0f ? 0.0f : 1.0f));
        float ratio_z = lz / (bz + (bz != 0.0f ? 0.0f : 1.0f));
        ratio_x = bx != 0.0f ? ratio_x : 1.0f, ratio_y = by != 0.0f ? ratio_y : 1.0f, ratio_z = bz != 0.0f ? ratio_z : 1.0f;
        /* a ratio of a tiny reference stays within float range */
        ratio_x = ratio_x < MAX_RATIO ? (ratio_x > -MAX_RATIO ? ratio_x : -MAX_RATIO) : MAX_RATIO;
        ratio_y = ratio_y < MAX_RATIO ? (ratio_y > -MAX_RATIO ? ratio_y : -MAX_RATIO) : MAX_RATIO;
        ratio_z = ratio_z < MAX_RATIO ? (ratio_z > -MAX_RATIO ? ratio_z : -MAX_RATIO) : MAX_RATIO;
        float sx = osx[i], sy = osy[i], sz = osz[i];
        /* and the product saturates: each layer may multiply by 1e6 */
        osx[i] = w > 0.0f ? rune_clamp_magnitude(sx * (1.0f + w * (ratio_x - 1.0f))) : sx;
        osy[i] = w > 0.0f ? rune_clamp_magnitude(sy * (1.0f + w * (ratio_y - 1.0f))) : sy;
        osz[i] = w > 0.0f ? rune_clamp_magnitude(sz * (1.0f + w * (ratio_z - 1.0f))) : sz;
    }
}

size_t KERNEL(rune__mix_add)(const mix_view *out, const mix_view *layer, const mix_view *ref, const float *weight,
                             float *wide, size_t n)
{
    if (layer->scaled || ref->scaled)
        add_scale(out, layer, ref, weight, n);
    float *ox = out->x, *oy = out->y, *oz = out->z, *oqx = out->qx, *oqy = out->qy, *oqz = out->qz, *oqw = out->qw;
    float *oc = out->c;
    const float *lx = layer->x, *ly = layer->y, *lz = layer->z, *lqx = layer->qx, *lqy = layer->qy, *lqz = layer->qz;
    const float *lqw = layer->qw;
    const float *rx = ref->x, *ry = ref->y, *rz = ref->z, *rqx = ref->qx, *rqy = ref->qy, *rqz = ref->qz;
    const float *rqw = ref->qw;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float w = weight[i];
        /* the delta rotation ref^-1 * layer, normalized */
        rune_quat delta = lane_q_normalize(rune_q_mul(rune_q_conjugate(rune_q(rqx[i], rqy[i], rqz[i], rqw[i])),
                                                      rune_q(lqx[i], lqy[i], lqz[i], lqw[i])));
        /* slerp(identity, delta, w): the identity's dot with the delta is
         * its w, sign-aligned; the series weights as in rune_q_slerp */
        float sign = delta.w < 0.0f ? -1.0f : 1.0f;
        float d = delta.w * sign;
        d = d > 1.0f ? 1.0f : d;
        float wa = rune_slerp_series(1.0f - w, d - 1.0f), wb = sign * rune_slerp_series(w, d - 1.0f);
        rune_quat step = lane_q_normalize(rune_q(delta.x * wb, delta.y * wb, delta.z * wb, wa + delta.w * wb));
        /* out = out * that, normalized */
        float px = oqx[i], py = oqy[i], pz = oqz[i], pw = oqw[i];
        rune_quat q = lane_q_normalize(rune_q_mul(rune_q(px, py, pz, pw), step));
        float qx = q.x, qy = q.y, qz = q.z, qw = q.w;
        /* a wide arc keeps the old rotation for the exact scalar step; the
         * flag does not look at w (combining the two conditions defeats
         * gcc's vectorizer): the caller skips lanes of weight 0 */
        float is_wide = d < RUNE_SERIES_MIN_DOT ? 1.0f : 0.0f;
        qx = d < RUNE_SERIES_MIN_DOT ? px : qx, qy = d < RUNE_SERIES_MIN_DOT ? py : qy;
        qz = d < RUNE_SERIES_MIN_DOT ? pz : qz, qw = d < RUNE_SERIES_MIN_DOT ? pw : qw;

        float tx = ox[i], ty = oy[i], tz = oz[i], c = oc[i];
        float at_x = tx + (lx[i] - rx[i]) * w, at_y = ty + (ly[i] - ry[i]) * w, at_z = tz + (lz[i] - rz[i]) * w;
        /* w = 0 leaves the lane as it was */
        ox[i] = w > 0.0f ? at_x : tx;
        oy[i] = w > 0.0f ? at_y : ty;
        oz[i] = w > 0.0f ? at_z : tz;
        oc[i] = w > 0.0f ? c + w * (1.0f - c) : c;
        oqx[i] = w > 0.0f ? qx : px;
        oqy[i] = w > 0.0f ? qy : py;
        oqz[i] = w > 0.0f ? qz : pz;
        oqw[i] = w > 0.0f ? qw : pw;
        wide[i] = is_wide;
    }
    return count_between(wide, 1.0f, 0.0f, 2.0f, n); /* flags are 0 or 1 */
}

size_t KERNEL(rune__mix_layer_weights)(float lw, const float *mask, const float *cov, size_t n, size_t lanes,
                                      float *w)
{
    if (mask) {
#pragma omp simd
        for (size_t i = 0; i < n; i++) {
            float x = lw * mask[i] * cov[i];
            w[i] = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
        }
    } else {
#pragma omp simd
        for (size_t i = 0; i < n; i++) {
            float x = lw * cov[i];
            w[i] = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
        }
    }
    for (size_t i = n; i < lanes; i++)
        w[i] = 0.0f;
    /* w > 0 wherever x > 0 (and w <= 1): the rest weigh nothing */
    return n - count_between(w, 1.0f, 0.0f, 2.0f, n);
}

/* The guarded division as in rune__mix_mean. */
void KERNEL(rune__mix_straight_factors)(const float *c, const float *w, float *f, size_t n)
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float c2 = c[i] + w[i] * (1.0f - c[i]);
        float x = w[i] / (c2 + (c2 > 0.0f ? 0.0f : 1.0f));
        x = c2 > 0.0f ? x : 0.0f;
        f[i] = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
    }
}
