/* The machine's floor: what one core can do at most, measured when the
 * bench starts (fused multiply-add throughput, load bandwidth from each
 * level of memory), and each row's floor from its work per joint. The
 * peaks use the widest vectors the CPU has (AVX-512, else AVX2 with FMA
 * when the build has those kernels), whatever level a row runs: the floor
 * is the machine's, not the level's. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "math/simd_internal.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define BENCH_X86 1
#endif

/* Ten independent accumulators, named so that they live in registers:
 * enough to cover the FMA latency (4 cycles) on both FMA ports. */
enum { ACC = 10 };

#define FMA_ROUNDS(fma, a, m, c)                                                                                      \
    for (size_t r = 0; r < rounds; r++) {                                                                             \
        a##0 = fma(a##0, m, c), a##1 = fma(a##1, m, c), a##2 = fma(a##2, m, c), a##3 = fma(a##3, m, c);               \
        a##4 = fma(a##4, m, c), a##5 = fma(a##5, m, c), a##6 = fma(a##6, m, c), a##7 = fma(a##7, m, c);               \
        a##8 = fma(a##8, m, c), a##9 = fma(a##9, m, c);                                                               \
    }

typedef struct peak_ctx {
    float *buf;
    size_t floats;
    size_t rounds;
    float sink;
    rune_simd_level level;
} peak_ctx;

#if BENCH_X86
__attribute__((target("avx512f"))) static float fma_512(size_t rounds)
{
    __m512 m = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
    __m512 a0 = _mm512_set1_ps(0), a1 = _mm512_set1_ps(1), a2 = _mm512_set1_ps(2), a3 = _mm512_set1_ps(3);
    __m512 a4 = _mm512_set1_ps(4), a5 = _mm512_set1_ps(5), a6 = _mm512_set1_ps(6), a7 = _mm512_set1_ps(7);
    __m512 a8 = _mm512_set1_ps(8), a9 = _mm512_set1_ps(9);
    FMA_ROUNDS(_mm512_fmadd_ps, a, m, c)
    __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
                             _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
    return _mm512_reduce_add_ps(_mm512_add_ps(s, _mm512_add_ps(a8, a9)));
}

__attribute__((target("avx2,fma"))) static float fma_256(size_t rounds)
{
    __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-7f);
    __m256 a0 = _mm256_set1_ps(0), a1 = _mm256_set1_ps(1), a2 = _mm256_set1_ps(2), a3 = _mm256_set1_ps(3);
    __m256 a4 = _mm256_set1_ps(4), a5 = _mm256_set1_ps(5), a6 = _mm256_set1_ps(6), a7 = _mm256_set1_ps(7);
    __m256 a8 = _mm256_set1_ps(8), a9 = _mm256_set1_ps(9);
    FMA_ROUNDS(_mm256_fmadd_ps, a, m, c)
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
                             _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
    s = _mm256_add_ps(s, _mm256_add_ps(a8, a9));
    float out[8];
    _mm256_storeu_ps(out, s);
    return out[0] + out[7];
}

__attribute__((target("avx512f"))) static float load_512(const float *p, size_t n)
{
    __m512 a = _mm512_setzero_ps(), b = a, c = a, d = a;
    for (size_t i = 0; i + 64 <= n; i += 64) {
        a = _mm512_add_ps(a, _mm512_load_ps(p + i));
        b = _mm512_add_ps(b, _mm512_load_ps(p + i + 16));
        c = _mm512_add_ps(c, _mm512_load_ps(p + i + 32));
        d = _mm512_add_ps(d, _mm512_load_ps(p + i + 48));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a, b), _mm512_add_ps(c, d)));
}

__attribute__((target("avx2"))) static float load_256(const float *p, size_t n)
{
    __m256 a = _mm256_setzero_ps(), b = a, c = a, d = a;
    for (size_t i = 0; i + 32 <= n; i += 32) {
        a = _mm256_add_ps(a, _mm256_load_ps(p + i));
        b = _mm256_add_ps(b, _mm256_load_ps(p + i + 8));
        c = _mm256_add_ps(c, _mm256_load_ps(p + i + 16));
        d = _mm256_add_ps(d, _mm256_load_ps(p + i + 24));
    }
    float out[8];
    _mm256_storeu_ps(out, _mm256_add_ps(_mm256_add_ps(a, b), _mm256_add_ps(c, d)));
    return out[0] + out[7];
}
#endif

/* Portable fallbacks: what the compiler makes of plain code. */
static inline float fma_plain_op(float a, float m, float c) { return a * m + c; }

static float fma_plain(size_t rounds)
{
    float m = 0.999999f, c = 1e-7f;
    float a0 = 0, a1 = 1, a2 = 2, a3 = 3, a4 = 4, a5 = 5, a6 = 6, a7 = 7, a8 = 8, a9 = 9;
    FMA_ROUNDS(fma_plain_op, a, m, c)
    return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9;
}

static float load_plain(const float *p, size_t n)
{
    float s[8] = {0};
    for (size_t i = 0; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            s[k] += p[i + k];
    return s[0] + s[7];
}

static int lanes(rune_simd_level level)
{
#if BENCH_X86
    if (level == RUNE_SIMD_AVX512)
        return 16;
    if (level == RUNE_SIMD_AVX2_FMA)
        return 8;
#endif
    (void)level;
    return 1; /* plain scalar code */
}

static void run_fma(void *p)
{
    peak_ctx *c = p;
#if BENCH_X86
    if (lanes(c->level) == 16) {
        c->sink += fma_512(c->rounds);
        return;
    }
    if (lanes(c->level) == 8) {
        c->sink += fma_256(c->rounds);
        return;
    }
#endif
    c->sink += fma_plain(c->rounds);
}

static void run_load(void *p)
{
    peak_ctx *c = p;
#if BENCH_X86
    if (lanes(c->level) == 16) {
        c->sink += load_512(c->buf, c->floats);
        return;
    }
    if (lanes(c->level) == 8) {
        c->sink += load_256(c->buf, c->floats);
        return;
    }
#endif
    c->sink += load_plain(c->buf, c->floats);
}

static double load_rate(peak_ctx *c, size_t bytes, int samples, double sample_s)
{
    c->floats = bytes / sizeof(float);
    for (size_t i = 0; i < c->floats; i++)
        c->buf[i] = (float)(i & 7);
    bench_timing t = bench_measure(run_load, c, samples, sample_s, false);
    return (double)bytes / (1e9 * t.min);
}

bench_machine bench_machine_measure(bool quick)
{
    bench_machine m = {0, 0, 0, 0};
    rune_simd_level widest = rune_simd_supported(RUNE_SIMD_AVX512) ? RUNE_SIMD_AVX512 : rune_simd_best();
    peak_ctx c = {NULL, 0, 4096, 0, widest};
    int samples = quick ? 5 : 11;
    double sample_s = quick ? 0.002 : 0.01;
    bench_timing t = bench_measure(run_fma, &c, samples, sample_s, false);
    int width = lanes(c.level);
    /* two flops per lane per fused multiply-add */
    m.flops_per_ns = 2.0 * (double)width * ACC * (double)c.rounds / (1e9 * t.min);
    size_t big = (size_t)(quick ? 64 : 256) << 20;
    c.buf = aligned_alloc(64, big);
    if (c.buf) {
        m.l1_bytes_per_ns = load_rate(&c, 16 << 10, samples, sample_s);
        m.l2_bytes_per_ns = load_rate(&c, 512 << 10, samples, sample_s);
        m.mem_bytes_per_ns = load_rate(&c, big, quick ? 3 : 5, 0.0);
        free(c.buf);
    }
    return m;
}

double bench_floor_ns(const bench_machine *m, double flops, double bytes, bench_level level)
{
    double bw = level == BENCH_L1 ? m->l1_bytes_per_ns : level == BENCH_L2 ? m->l2_bytes_per_ns : m->mem_bytes_per_ns;
    double compute = m->flops_per_ns > 0 ? flops / m->flops_per_ns : 0;
    double moving = bw > 0 ? bytes / bw : 0;
    return compute > moving ? compute : moving;
}
