/* rune/export.h - how rune's public declarations are marked: RUNE_API on
 * every exported function (the shared libraries are built with hidden
 * visibility, so only these are exported), and C linkage for C++. */
#ifndef RUNE_EXPORT_H
#define RUNE_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define RUNE_API __attribute__((visibility("default")))
#else
#define RUNE_API
#endif

#ifdef __cplusplus
#define RUNE_BEGIN_DECLS extern "C" {
#define RUNE_END_DECLS }
#else
#define RUNE_BEGIN_DECLS
#define RUNE_END_DECLS
#endif

#endif
