/* Streaming copies (stream_kernel.h) with the widest vector this build
 * has: a 64-byte store writes a whole line at once, where 16-byte ones
 * must meet in a write-combining buffer first (on this project's AVX-512
 * machine the 16-byte form took a twentieth of a graph character's frame
 * when it streamed the character's matrices). */
#include "stream_kernel.h"

#include <string.h>
#if defined(KERNEL_GATHER_SSE2) || defined(KERNEL_GATHER_AVX2)
#include <immintrin.h>
#endif

void KERNEL(rune__stream_floats)(float *const *to, const float *const *from, int runs, size_t floats)
{
    for (int r = 0; r < runs; r++) {
        float *d = to[r];
        const float *f = from[r];
#if defined(__AVX512F__)
        for (size_t i = 0; i < floats; i += 16)
            _mm512_stream_ps(d + i, _mm512_load_ps(f + i));
#elif defined(KERNEL_GATHER_AVX2)
        for (size_t i = 0; i < floats; i += 8)
            _mm256_stream_ps(d + i, _mm256_load_ps(f + i));
#elif defined(KERNEL_GATHER_SSE2)
        for (size_t i = 0; i < floats; i += 4)
            _mm_stream_ps(d + i, _mm_load_ps(f + i));
#else
        memcpy(d, f, floats * sizeof *d);
#endif
    }
#if defined(KERNEL_GATHER_SSE2) || defined(KERNEL_GATHER_AVX2)
    _mm_sfence(); /* streaming stores are weakly ordered: visible before this returns */
#endif
}

size_t KERNEL(rune__stream_align)(void)
{
#if defined(__AVX512F__)
    return 64;
#elif defined(KERNEL_GATHER_AVX2)
    return 32;
#else
    return 16;
#endif
}
