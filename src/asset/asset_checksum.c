/* The .rune checksum: four independent multiply-rotate lanes over 8-byte
 * words (so the loop is not one long dependency chain), folded with the
 * tail bytes and the length. */
#include "asset_format.h"

static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full

static uint64_t lane(uint64_t h, uint64_t w) { return rotl(h ^ (w * P2), 31) * P1; }

uint64_t rune__asset_checksum(const unsigned char *p, size_t n)
{
    uint64_t h[4] = {P1, P2, ~P1, ~P2};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++)
            h[k] = lane(h[k], get_u64(p + i + 8 * (size_t)k));
    uint64_t r = rotl(h[0], 1) ^ rotl(h[1], 7) ^ rotl(h[2], 12) ^ rotl(h[3], 18);
    for (; i < n; i++)
        r = (r ^ p[i]) * P1;
    r ^= (uint64_t)n;
    r ^= r >> 33;
    r *= P2;
    return r ^ (r >> 29);
}
