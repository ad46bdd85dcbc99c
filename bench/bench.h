/* rune's benchmarks (run by `rune bench`; never by the tests): the shared
 * pieces of bench/ -- synthetic scenes, the naive reference, the timer,
 * the machine's floor and the report. */
#ifndef RUNE_BENCH_H
#define RUNE_BENCH_H

#include "rune/rune.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "clip/clip_access_internal.h" /* C linkage for the C++ anchors too */

/** Entry point of `rune bench [--quick] [--json] [--simd LEVEL]`; prints
 * the figures; 0 on success, 2 when a scene cannot be built. */
int rune_bench_main(int argc, char **argv);

#define BENCH_DT (1.0f / 60.0f)

/* ---- Scenes ------------------------------------------------------------ */

/** A library of a synthetic rig of `joints` joints (a binary tree, parents
 * first) and clips with 30 Hz keys over 2 s on every joint ("clip0", ...),
 * each different: ozz-animation's benchmark shape (61 keys a channel,
 * translation and rotation on every joint). */
typedef struct bench_scene {
    rune_library *lib;
    const rune_rig *rig;
    const rune_binding *const *bindings;
    size_t clip_count;
} bench_scene;

int bench_scene_make(bench_scene *s, size_t joints, size_t clips);
/** A joint's local transform in a pose as another runtime stores it: the
 * rig's rest frame times the pose (the anchors' keys and results). */
rune_xform bench_local_of(const rune_rig *rig, const rune_pose *pose, size_t joint);
void bench_scene_free(bench_scene *s);

/* ---- Sampling over time ------------------------------------------------ */

/** One play sampled frame after frame: forward at BENCH_DT (wrapping at
 * `length`), or at random times. */
typedef struct bench_sample_ctx {
    const rune_binding *b;
    rune_sample_cache *cache;
    rune_pose pose;
    float t, length;
    uint32_t seed;
    bool random;
} bench_sample_ctx;

/** The next time of a sampling context (bench_kernels.c). */
float bench_next_time(bench_sample_ctx *c);

/* ---- The naive reference ----------------------------------------------- */

/** What a straightforward implementation does: a binary search and an
 * exact trigonometric slerp per sample (rune_clip_sample_track), a
 * joint-by-joint rank mixer over all ranks that always slerps, AoS
 * arithmetic. A floor to beat, not a rival. */
typedef struct bench_ref_input {
    const rune_binding *binding;
    float time, weight;
    int priority;
} bench_ref_input;

void bench_ref_sample(const rune_binding *b, float t, rune_pose *out);
/** Samples and mixes n inputs into out; `scratch` holds n poses. */
void bench_ref_sample_mix(const bench_ref_input *in, size_t n, rune_pose *scratch, rune_pose *out);
/** The weighted mean of n finished poses (weights summing to 1), joint by
 * joint with hemisphere alignment and a normalization. */
void bench_ref_mean(const rune_pose *const *poses, const float *weights, size_t n, rune_pose *out);
/** Local-to-model joint by joint: rune_mat4_from_xform of frame * pose,
 * then a full 4x4 product with the parent's matrix. */
void bench_ref_model_matrices(const rune_rig *rig, const rune_pose *pose, rune_mat4 *out);
/** Model transforms joint by joint with rune_xform_mul. */
void bench_ref_model_xforms(const rune_rig *rig, const rune_pose *pose, rune_xform *out);

/* ---- Timing ------------------------------------------------------------ */

typedef void (*bench_fn)(void *ctx);

typedef struct bench_timing {
    double median, min; /* seconds per call */
    size_t calls;       /* calls measured, warm-up excluded */
} bench_timing;

/** Runs fn in `samples` timed batches, each long enough to be read
 * reliably, after a warm-up; per call, the median and the fastest batch.
 * `threaded`: wall time (the work spreads over threads); otherwise this
 * thread's CPU time, which a preempted thread does not accrue. */
bench_timing bench_measure(bench_fn fn, void *ctx, int samples, double sample_s, bool threaded);
/** Sorts n values, smallest first. */
void bench_sort(double *v, size_t n);

/* ---- The machine's floor ----------------------------------------------- */

/** What one core of this machine can do at most, measured at start: fused
 * multiply-add throughput with its widest vectors, and load bandwidth
 * from L1, from L2 and from memory. */
typedef struct bench_machine {
    double flops_per_ns; /* single precision, one core */
    double l1_bytes_per_ns, l2_bytes_per_ns, mem_bytes_per_ns;
} bench_machine;

bench_machine bench_machine_measure(bool quick);

/** Where a row's data lives, for its floor. */
typedef enum bench_level { BENCH_L1, BENCH_L2, BENCH_MEM } bench_level;

/** The floor of `flops` arithmetic operations and `bytes` moved from
 * `level`, in ns: the larger of the two times (they overlap at best). */
double bench_floor_ns(const bench_machine *m, double flops, double bytes, bench_level level);


/* ---- Report ------------------------------------------------------------- */

/** A figure of an anchor (ozz-animation, ACL) for a row, in the row's
 * unit (< 0: not measured), and how many of the checked inputs (or
 * joints) gave the same result as rune. */
typedef struct bench_anchor {
    double value;
    size_t agree, checked;
    double bytes; /* the data the anchor's work read (0: not stated) */
} bench_anchor;

/** One row: a figure, what it is compared with, and how far from the
 * machine's floor it is. Absent values are < 0. */
typedef struct bench_row {
    char id[48];        /* stable key for --json */
    char label[128];
    const char *unit;   /* "ns/joint", "ms/frame", ... */
    double median, min; /* in `unit` */
    double naive;       /* the naive reference in this run */
    double floor;       /* the machine's floor estimate */
    bench_anchor anchor;     /* measured in this run (bench/ozz_anchor.h, bench/acl_anchor.h) */
    const char *anchor_name; /* "ozz" or "ACL"; NULL: no anchor has this row's work */
    /* rune at the kernel level the anchor was built for (bench_anchor_level),
     * in the same run: the ratio to read against the anchor (< 0: none) */
    double median_matched;
    const char *anchor_isa;
    double bytes, anchor_bytes; /* clip data each side reads (< 0: not stated) */
    long long allocations;
} bench_row;

typedef struct bench_report {
    bool json, first;
} bench_report;

void bench_report_begin(bench_report *r, const char *simd, long cores, const bench_machine *m, bool quick);
/** Prints a section title (text) or nothing (JSON). */
void bench_report_section(bench_report *r, const char *title);
void bench_report_row(bench_report *r, const bench_row *row);
void bench_report_end(bench_report *r);

/** A row with no reference, floor or anchor yet. */
bench_row bench_row_make(const char *id, const char *unit, double median, double min);
/** The row's work is also `name`'s ("ozz", "ACL"), measured as `a`
 * (a.value < 0: not measured here: no checkout was given). */
void bench_row_anchor(bench_row *row, const char *name, bench_anchor a);

/* ---- Rows --------------------------------------------------------------- */

/** How long and how often to measure: `rune bench` or `--quick`. */
typedef struct bench_plan {
    int samples;
    double sample_s;
    bool quick;
    rune_simd_level level;      /* the kernels measured (--simd) */
    size_t workers;             /* crowd workers beside the caller */
    const bench_machine *machine;
    bench_report *report;
    int frames; /* crowds: time this many single frames instead of batches (0: batches) */
} bench_plan;

/** The kernel level the anchors are built for (AVX2 + FMA) where this CPU
 * has it, else the plan's: rune is measured there too for each anchor row. */
rune_simd_level bench_anchor_level(const bench_plan *p);
/** Sets the row's rune figure at the anchor's level: `matched` (same unit)
 * when that level differs from the plan's, else the row's own median. */
void bench_row_matched(bench_row *row, const bench_plan *p, double matched);

/** Kernel rows on a 64-joint scene (bench_kernels.c): forward and
 * random-time sampling, sample + blend, blending finished poses, a
 * masked override layer, local-to-model matrices and transforms, a 2D
 * blend space with an additive layer, and (b) at every kernel level. */
int bench_kernel_rows(const bench_plan *plan, const bench_scene *s);
/** Crowd rows (bench_crowds.c): characters sampling and blending 2 clips
 * with model matrices, from 2 shared clips and from 64 different ones;
 * characters running a 2-layer graph with root motion. */
int bench_crowd_rows(const bench_plan *plan, const bench_scene *s, const bench_scene *varied);
/** The graph crowd row alone (`rune bench --graph-crowd COUNT`): COUNT
 * characters with plan->workers workers, plan->frames frames each timed
 * on its own (bench_crowds.c). */
int bench_graph_crowd_row(const bench_plan *plan, const bench_scene *s, size_t count);
/** An allocator that counts its allocations (thread-safe), for crowds. */
extern const rune_allocator bench_counting;
/** A batch for a crowd with `workers` workers, counted by bench_counting;
 * its workers free to run on any CPU while the caller is pinned
 * (bench_pin.c). */
rune_status bench_batch_create(size_t workers, rune_batch **out);
/** Pins the calling thread to `cpu` (`--cpu`); false where it cannot. */
bool bench_pin(int cpu);
/** The CPU the caller is pinned to (-1: not pinned), and the one it runs
 * on now (-1: unknown). */
int bench_pinned_cpu(void);
int bench_current_cpu(void);
/** Times a crowd's batch frames (after one warm-up frame) into row's
 * median and min (ms) and the allocations those frames made: batches of
 * frames, or single frames when plan->frames is set. */
void bench_crowd_run(rune_batch *batch, rune_character **chars, size_t count, size_t workers, const bench_plan *p,
                     bench_row *row);
/** Samples and mixes n (at most 8) clips on an animator at `level`, plays
 * at weights 1, 1/2, 1/3 ...; fills row's median, min and naive (the
 * reference doing the same) in ns per joint. */
int bench_mix_measure(const bench_plan *p, const rune_rig *rig, const rune_binding *const *bindings, size_t n,
                      rune_simd_level level, bench_row *row);
/** A mesh and palette for the skinning rows (bench_skin.c), shared with
 * the ozz anchor. */
typedef struct bench_skin_mesh {
    size_t vertex_count, palette_count;
    float *positions, *normals, *weights; /* 3, 3 and 4 a vertex */
    uint16_t *joints;                     /* 4 a vertex */
    rune_mat4 *palette;
    rune_skin_dq *dqs;
} bench_skin_mesh;
bool bench_skin_mesh_make(bench_skin_mesh *m);
void bench_skin_mesh_free(bench_skin_mesh *m);
/** Skinning rows (bench_skin.c): linear and dual-quaternion skinning. */
int bench_skin_rows(const bench_plan *p);
/** How loads grow with size (bench_loads.c): a rig, float curves, a
 * binding and a retarget mapping of 1,000, 10,000 and 100,000 joints. */
int bench_load_rows(const bench_plan *p);
/** Loading CMU 01_01 from a .rune against its JSON (bench_assets.c). */
int bench_asset_rows(const bench_plan *p);
/** Compressed clips: bytes against the exact clips and the anchors, and
 * sampling compressed 01_01 against exact (bench_compression.c). */
int bench_compression_rows(const bench_plan *p, const bench_scene *s);
/** IK solvers, controls on a pose, and a crowd with foot IK and look-at
 * (bench_ik.c). */
int bench_ik_rows(const bench_plan *p, const bench_scene *s);
/** Sampling a retargeted clip against the clip on its own rig
 * (bench_retarget.c). */
int bench_retarget_rows(const bench_plan *p, const bench_scene *s);
/** Real mocap and cost growth over joints and clips (bench_growth.c). */
int bench_growth_rows(const bench_plan *plan);

#ifdef __cplusplus
}
#endif

#endif
