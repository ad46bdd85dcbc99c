/* rune's benchmarks (run by `rune bench`; never by the tests). */
#ifndef RUNE_BENCH_H
#define RUNE_BENCH_H

#include "rune/rune.h"

/** Entry point of `rune bench [--quick]`; prints the figures; 0 on success. */
int rune_bench_main(int argc, char **argv);

/** A library of a synthetic rig of `joints` joints (a binary tree, parents
 * first) and clips with 30 Hz keys over 2 s on every joint ("clip0", ...),
 * each different. */
typedef struct bench_scene {
    rune_library *lib;
    const rune_rig *rig;
    const rune_binding *const *bindings;
    size_t clip_count;
} bench_scene;

int bench_scene_make(bench_scene *s, size_t joints, size_t clips);
void bench_scene_free(bench_scene *s);

/** The plain scalar reference: binary search and exact slerp per sample
 * (rune_clip_sample_track), and a joint-by-joint rank mixer that always
 * slerps. Same results as rune's fast path within float tolerance. */
typedef struct bench_ref_input {
    const rune_binding *binding;
    float time, weight;
    int priority;
} bench_ref_input;

void bench_ref_sample(const rune_binding *b, float t, rune_pose *out);
/** Samples and mixes n inputs into out; `scratch` holds n poses. */
void bench_ref_sample_mix(const bench_ref_input *in, size_t n, rune_pose *scratch, rune_pose *out);

#endif
