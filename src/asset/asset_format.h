/* The .rune layout shared by the writer and the reader (docs/format.md):
 * a 64-byte header, a table of 32-byte section entries, then sections on
 * 16-byte boundaries. Every field is little-endian as written by this
 * machine (the header's byte-order tag tells a reader of the other order
 * to refuse). Fields are read and written with memcpy, never through
 * casts of the file's bytes. */
#ifndef RUNE_SRC_ASSET_FORMAT_H
#define RUNE_SRC_ASSET_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rune/export.h"

#define ASSET_MAGIC "RUNEASST"
#define ASSET_BYTE_ORDER 0x01020304u
#define ASSET_HEADER_BYTES 64
#define ASSET_ENTRY_BYTES 32
#define ASSET_ALIGN 16

/* header: magic[8], u32 version, u32 byte order, u64 file size,
 * u64 checksum of bytes [64, size), u32 section count, 28 bytes zero */
enum { HDR_VERSION = 8, HDR_ORDER = 12, HDR_SIZE = 16, HDR_CHECKSUM = 24, HDR_SECTIONS = 32 };

/* section entry: u32 kind, u32 zero, u64 offset, u64 size, u64 count */
enum { SECTION_STRINGS = 1, SECTION_RIG = 2, SECTION_CLIP = 3, SECTION_PACKED = 4, SECTION_CURVES = 5, SECTION_MESH = 6 };

/* The first version files are written as: without float curves (a curves
 * section, version 2) or meshes (mesh sections, version 3), a file is
 * version 1, which rune 0.3 reads as well. */
#define ASSET_VERSION_OLDEST 1

/* curves section (version 2; before the clip section it belongs to, its
 * entry's count that clip's index): u32 curve count, u32 key count, f32
 * precision (0: exact), f32 max error; per curve, sorted by name, u32 name,
 * u32 key count, u32 flags (CURVE_*), f32 step, i32 base, 4 bytes zero;
 * then per curve its keys by time as arrays: f32 time[n], (WEIGHTS) f32
 * weight[n], f32 mask[n], (SPLINES) f32 in[n], f32 out[n], values: f32[n]
 * or (QUANTIZED) u16 d[n] standing for clip_curve_dequantize(base + d,
 * step), (SPLINES) u8 spline[n], (EASED) u8 easing[n], u8 direction[n],
 * zeros to a multiple of 4. Without WEIGHTS every key has weight 1 and
 * mask 0, without EASED linear easing, without SPLINES no spline. */
#define CURVES_HEAD_BYTES 16
#define CURVE_BYTES 24
enum { CURVE_WEIGHTS = 1, CURVE_SPLINES = 2, CURVE_QUANTIZED = 4, CURVE_EASED = 8, CURVE_FLAGS = 15 };

/* Bytes of one curve's key arrays. */
static inline size_t asset_curve_bytes(size_t n, uint32_t flags)
{
    size_t b = 4 * n + (flags & CURVE_WEIGHTS ? 8 * n : 0) + (flags & CURVE_SPLINES ? 9 * n : 0) +
               (flags & CURVE_QUANTIZED ? 2 * n : 4 * n) + (flags & CURVE_EASED ? 2 * n : 0);
    return (b + 3) & ~(size_t)3;
}

/* The strings section, for string references. */
typedef struct asset_strings {
    const unsigned char *p;
    size_t size;
} asset_strings;

/* A string reference, or NULL when it does not name a NUL-terminated
 * string inside the strings section. */
static inline const char *asset_string_at(const asset_strings *s, uint32_t ref)
{
    if (ref >= s->size)
        return NULL;
    const char *at = (const char *)s->p + ref;
    return memchr(at, '\0', s->size - ref) ? at : NULL;
}

/* Appends a string to the strings section being written; its reference. */
typedef uint32_t (*asset_string_ref)(void *encoder, const char *s);

/* compressed clip section: a compressed clip's stored form as
 * rune_clip_packed_write gives it (self-contained: its own strings) */

/* rig section: u32 joint count, i32 root joint, 8 bytes zero; then per
 * joint: u32 part (string), i32 parent index (-1: root), f32 t[3],
 * f32 r[4], f32 s[3], u32 flags (bit 0: scaled) */
#define RIG_HEAD_BYTES 16
#define JOINT_BYTES 52

/* clip section: u32 id (string), u32 revision, u32 flags (bit 0 loop,
 * bit 1 scale), i32 priority, u32 track count, u32 key count, u32 marker
 * count, 4 bytes zero; tracks {u32 parent, u32 part, u32 first key,
 * u32 key count}; markers {f32 time, u32 name, u32 value}; then the keys
 * as arrays: f32 time[n], f32 t[3n], f32 r[4n], f32 weight[n],
 * f32 mask[n], (with scale) f32 s[3n], u8 easing[n], u8 direction[n],
 * zeros to a multiple of 4 */
#define CLIP_HEAD_BYTES 32
#define TRACK_BYTES 16
#define MARKER_BYTES 12
#define CLIP_FLAG_LOOP 1u
#define CLIP_FLAG_SCALE 2u

/* Bytes of a clip section's key arrays. */
static inline size_t asset_key_bytes(size_t keys, int scaled)
{
    size_t b = keys * 4 * (1 + 3 + 4 + 1 + 1 + (scaled ? 3 : 0)) + 2 * keys;
    return (b + 3) & ~(size_t)3;
}

static inline size_t asset_align(size_t n) { return (n + ASSET_ALIGN - 1) & ~(size_t)(ASSET_ALIGN - 1); }

static inline uint32_t get_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline uint64_t get_u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline float get_f32(const unsigned char *p)
{
    float v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, sizeof v); }
static inline void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, sizeof v); }
static inline void put_f32(unsigned char *p, float v) { memcpy(p, &v, sizeof v); }

/* The checksum of bytes: four 64-bit lanes over 8-byte words, then the
 * tail and the length (fast enough to check a large asset in a few ms;
 * catches corruption, not tampering). */
uint64_t rune__asset_checksum(const unsigned char *p, size_t n);

#endif
