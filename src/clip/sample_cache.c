/* The batch sampler: per-track interval cursors in structure-of-arrays
 * form, a vectorized interpolation kernel chosen at run time, and an exact
 * scalar path for the few tracks the kernel does not cover (eased keys,
 * rotations of more than 90 degrees between two keys). */
#include "clip_internal.h"
#include "sample_kernel.h"
#include "../base/alloc.h"

#include <float.h>

/* Below this cos(theta) the 8-term slerp series loses accuracy. */
#define SERIES_MIN_DOT 0.7f

enum { IN_ARRAYS = 20 };

typedef void (*kernel_fn)(const kernel_in *, float, const kernel_out *, size_t);

struct rune_sample_cache {
    rune_allocator alloc;
    const rune_clip *clip;
    rune_simd_level level;
    kernel_fn kernel;
    size_t n, padded, block_floats;
    float *block; /* IN_ARRAYS + lo + hi arrays of `padded` floats */
    kernel_in in;
    float *lo, *hi;    /* the time range each cached interval is valid for */
    uint32_t *cursor;  /* key index (within the track) of key 0 */
    uint8_t *exact;    /* 1: use the scalar sampler for this track */
    size_t exact_count; /* tracks with exact set: most frames have none */
    size_t seeks;
};

rune_simd_level rune_simd_best(void)
{
#if defined(RUNE_HAVE_X86_KERNELS)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        return RUNE_SIMD_AVX2;
    return RUNE_SIMD_SSE2;
#else
    return RUNE_SIMD_SCALAR;
#endif
}

const char *rune_simd_name(rune_simd_level level)
{
    static const char *const names[] = {"auto", "scalar", "sse2", "avx2"};
    return (unsigned)level <= RUNE_SIMD_AVX2 ? names[level] : "?";
}

static kernel_fn kernel_for(rune_simd_level *level)
{
    rune_simd_level best = rune_simd_best();
    if (*level == RUNE_SIMD_AUTO || *level > best)
        *level = best;
#if defined(RUNE_HAVE_X86_KERNELS)
    if (*level == RUNE_SIMD_AVX2)
        return rune__sample_kernel_avx2;
    if (*level == RUNE_SIMD_SSE2)
        return rune__sample_kernel_sse2;
#endif
    *level = RUNE_SIMD_SCALAR;
    return rune__sample_kernel_scalar;
}

static void set_keys(rune_sample_cache *c, size_t i, size_t k0, size_t k1, float inv)
{
    const rune_clip *clip = c->clip;
    kernel_in *in = &c->in;
    in->t0[i] = clip->key_time[k0];
    in->inv_span[i] = inv;
    in->x0[i] = clip->key_t[k0].x, in->y0[i] = clip->key_t[k0].y, in->z0[i] = clip->key_t[k0].z;
    in->x1[i] = clip->key_t[k1].x, in->y1[i] = clip->key_t[k1].y, in->z1[i] = clip->key_t[k1].z;
    rune_quat a = clip->key_r[k0], b = clip->key_r[k1];
    float d = rune_q_dot(a, b);
    if (d < 0.0f) { /* align the destination to the source's hemisphere once per interval */
        b = rune_q_negate(b);
        d = -d;
    }
    in->qx0[i] = a.x, in->qy0[i] = a.y, in->qz0[i] = a.z, in->qw0[i] = a.w;
    in->qx1[i] = b.x, in->qy1[i] = b.y, in->qz1[i] = b.z, in->qw1[i] = b.w;
    in->w0[i] = clip->key_weight[k0], in->w1[i] = clip->key_weight[k1];
    in->m0[i] = clip->key_mask[k0], in->m1[i] = clip->key_mask[k1];
    uint8_t exact = k0 != k1 && (clip->key_style[k1] != RUNE_EASE_LINEAR || d < SERIES_MIN_DOT);
    c->exact_count += (size_t)exact - (size_t)c->exact[i];
    c->exact[i] = exact;
}

/* Moves track i's interval to the one containing t. */
static void refill(rune_sample_cache *c, size_t i, float t)
{
    const clip_track *tr = &c->clip->tracks[i];
    const float *times = &c->clip->key_time[tr->first_key];
    size_t n = tr->key_count, first = tr->first_key;
    if (n == 1 || !(t >= times[0])) { /* before the first key (or NaN): hold it */
        set_keys(c, i, first, first, 0.0f);
        c->lo[i] = -FLT_MAX;
        c->hi[i] = n == 1 ? FLT_MAX : times[0];
        c->cursor[i] = 0;
        return;
    }
    if (t >= times[n - 1]) {
        set_keys(c, i, first + n - 1, first + n - 1, 0.0f);
        c->lo[i] = times[n - 1];
        c->hi[i] = FLT_MAX;
        c->cursor[i] = (uint32_t)(n - 1);
        return;
    }
    /* steady playback moves a key or two forward; a seek searches */
    size_t k = c->cursor[i] + 1 < n && times[c->cursor[i]] <= t ? c->cursor[i] : n;
    for (int steps = 0; k < n && steps < 4 && times[k + 1] <= t; steps++)
        k++;
    if (k >= n - 1 || times[k + 1] <= t) {
        size_t lo = 0, hi = n - 1; /* times[lo] <= t < times[hi] */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (times[mid] <= t)
                lo = mid;
            else
                hi = mid;
        }
        k = lo;
        c->seeks++;
    }
    set_keys(c, i, first + k, first + k + 1, 1.0f / (times[k + 1] - times[k]));
    c->lo[i] = times[k];
    c->hi[i] = times[k + 1];
    c->cursor[i] = (uint32_t)k;
}

rune_status rune_sample_cache_create(const rune_clip *clip, rune_simd_level level, const rune_allocator *alloc,
                                     rune_sample_cache **out, rune_error *err)
{
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_sample_cache *c = rune__calloc(alloc, 1, sizeof *c);
    if (!c)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a sample cache");
    c->alloc = *alloc;
    c->clip = clip;
    c->level = level;
    c->kernel = kernel_for(&c->level);
    c->n = clip->track_count;
    c->padded = (c->n + RUNE_KERNEL_PAD - 1) / RUNE_KERNEL_PAD * RUNE_KERNEL_PAD;
    if (c->padded == 0)
        c->padded = RUNE_KERNEL_PAD;
    c->block_floats = (IN_ARRAYS + 2) * c->padded;
    c->block = rune__calloc(alloc, c->block_floats, sizeof(float));
    c->cursor = rune__calloc(alloc, c->padded, sizeof *c->cursor);
    c->exact = rune__calloc(alloc, c->padded, sizeof *c->exact);
    if (!c->block || !c->cursor || !c->exact) {
        rune_sample_cache_destroy(c);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a sample cache");
    }
    float *p = c->block;
    float **ins[IN_ARRAYS] = {&c->in.t0,  &c->in.inv_span, &c->in.x0,  &c->in.y0,  &c->in.z0,  &c->in.x1,  &c->in.y1,
                              &c->in.z1,  &c->in.qx0,      &c->in.qy0, &c->in.qz0, &c->in.qw0, &c->in.qx1, &c->in.qy1,
                              &c->in.qz1, &c->in.qw1,      &c->in.w0,  &c->in.w1,  &c->in.m0,  &c->in.m1};
    for (int k = 0; k < IN_ARRAYS; k++, p += c->padded)
        *ins[k] = p;
    c->lo = p;
    c->hi = p + c->padded;
    for (size_t i = 0; i < c->padded; i++) {
        c->in.qw0[i] = c->in.qw1[i] = 1.0f; /* padding lanes stay finite */
        c->lo[i] = FLT_MAX; /* empty range: the first sample fills every track */
        c->hi[i] = -FLT_MAX;
    }
    *out = c;
    return RUNE_OK;
}

void rune_sample_cache_destroy(rune_sample_cache *c)
{
    if (!c)
        return;
    rune_allocator a = c->alloc;
    rune__free(&a, c->block, c->block_floats, sizeof(float));
    rune__free(&a, c->cursor, c->padded, sizeof *c->cursor);
    rune__free(&a, c->exact, c->padded, sizeof *c->exact);
    rune__free(&a, c, 1, sizeof *c);
}

const rune_clip *rune_sample_cache_clip(const rune_sample_cache *c) { return c->clip; }
rune_simd_level rune_sample_cache_level(const rune_sample_cache *c) { return c->level; }
size_t rune_sample_cache_seeks(const rune_sample_cache *c) { return c->seeks; }

size_t rune_sample_cache_track_count(const rune_sample_cache *c) { return c->n; }

/* The kernel's inputs from lane `first` on. */
static kernel_in offset_in(const kernel_in *in, size_t first)
{
    kernel_in r = {in->t0 + first,  in->inv_span + first, in->x0 + first,  in->y0 + first,  in->z0 + first,
                   in->x1 + first,  in->y1 + first,       in->z1 + first,  in->qx0 + first, in->qy0 + first,
                   in->qz0 + first, in->qw0 + first,      in->qx1 + first, in->qy1 + first, in->qz1 + first,
                   in->qw1 + first, in->w0 + first,       in->w1 + first,  in->m0 + first,  in->m1 + first};
    return r;
}

void rune_sample_cache_sample(rune_sample_cache *c, float t, size_t first, size_t count, rune_sample_chunk *o)
{
    if (first >= c->n)
        return;
    if (count > RUNE_SAMPLE_CHUNK)
        count = RUNE_SAMPLE_CHUNK;
    if (count > c->n - first)
        count = c->n - first;
    for (size_t i = first; i < first + count; i++)
        if (!(t >= c->lo[i] && t < c->hi[i]))
            refill(c, i, t);
    /* lanes are padded to RUNE_KERNEL_PAD, and chunks start on multiples of it */
    size_t lanes = (count + RUNE_KERNEL_PAD - 1) / RUNE_KERNEL_PAD * RUNE_KERNEL_PAD;
    kernel_in in = offset_in(&c->in, first);
    kernel_out out = {o->x, o->y, o->z, o->qx, o->qy, o->qz, o->qw, o->weight, o->mask, o->coverage};
    c->kernel(&in, t, &out, lanes);
    for (size_t i = 0; c->exact_count && i < count; i++) {
        if (!c->exact[first + i])
            continue;
        rune_key_sample s;
        rune_clip_sample_track(c->clip, first + i, t, &s);
        o->x[i] = s.t.x, o->y[i] = s.t.y, o->z[i] = s.t.z;
        o->qx[i] = s.r.x, o->qy[i] = s.r.y, o->qz[i] = s.r.z, o->qw[i] = s.r.w;
        o->weight[i] = s.weight, o->mask[i] = s.mask_weight, o->coverage[i] = s.coverage;
    }
}
