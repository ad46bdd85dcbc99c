/* The blend stage as the stages above use it: blend-space weights, motion
 * trees compiled from their descriptions, and motion players that share
 * one normalized phase across clips of different lengths. */
#ifndef RUNE_SRC_BLEND_INTERNAL_H
#define RUNE_SRC_BLEND_INTERNAL_H

#include "rune/blend.h"
#include "../mix/mix_internal.h"

/** 1D weights: linear between the neighbouring thresholds around x; outside
 * the range the nearest end takes all; samples sharing a threshold split
 * its weight evenly. O(n), thresholds in any order. `w` gets n weights
 * summing to 1 (for n > 0). */
void rune_blend1d_weights(const float *thresholds, size_t n, float x, float *w);

/** 2D gradient-band weights (no triangulation). For each sample i the
 * influence is min over j != i of 1 - <p - p_i, p_j - p_i> / |p_j - p_i|^2
 * (in directional mode measured in polar terms), clamped at 0, then all
 * are normalized. An input on a sample selects it (shared among samples at
 * that position); if every influence is 0 the nearest sample takes all.
 * O(n^2), no allocation. */
void rune_blend2d_weights(const rune_vec2 *positions, size_t n, rune_vec2 p, rune_blend2d_mode mode, float *w);

/** Validates and compiles a tree: children must point forward (no cycles),
 * parameter and clip indexes in range, at most RUNE_MOTION_MAX_LEAVES
 * leaves after expansion, finite positions and speeds. Errors name
 * nodes[i].samples[j]. */
rune_status rune_motion_create(const rune_motion_node_desc *nodes, size_t node_count, size_t param_count,
                               size_t clip_count, const rune_allocator *alloc, rune_motion **out, rune_error *err);
void rune_motion_destroy(rune_motion *motion);
size_t rune_motion_leaf_count(const rune_motion *motion);
size_t rune_motion_param_count(const rune_motion *motion);

/** `bindings[c]` binds clip index c (as used in the samples) to the rig
 * (every binding to the same rig). Allocates all per-leaf state now
 * (two samplers per leaf: the live one and one for time 0); updates never
 * allocate. */
rune_status rune_motion_player_create(const rune_motion *motion, const rune_binding *const *bindings,
                                      const rune_allocator *alloc, rune_motion_player **out, rune_error *err);
/** The same without the time-0 samplers: one sampler a leaf, for a play
 * that is not an additive layer (a character's motion track, a graph's
 * override layer). rune_motion_player_sample_reference still works: it
 * samples through the live samplers, with the same bits (a sampler's
 * result does not depend on where its cursors were), which then find
 * their place again on the next frame. */
rune_status rune_motion_player_create_live(const rune_motion *motion, const rune_binding *const *bindings,
                                                    const rune_allocator *alloc, rune_motion_player **out,
                                                    rune_error *err);
void rune_motion_player_destroy(rune_motion_player *player);
/** Puts a player back as created: progress 0, no parameters applied,
 * every sampler's cursors forgotten. Allocates nothing (players are
 * reused this way). */
void rune_motion_player_reset(rune_motion_player *player);
/** The motion a player plays. */
const rune_motion *rune_motion_player_motion(const rune_motion_player *player);

/** Recomputes every leaf's influence and speed from the parameters
 * (`params` holds rune_motion_param_count values; NULL reads as all 0).
 * Parameters with the same bits as the last call's (values, not the
 * array's address) leave the results as they are, without the work. */
void rune_motion_player_set_params(rune_motion_player *player, const float *params);
/** Weighted mean over active leaves of clip length / |leaf speed|;
 * 0 when no leaf is active. */
float rune_motion_player_cycle_duration(const rune_motion_player *player);
/** Accumulated normalized progress (1 = one cycle). */
double rune_motion_player_progress(const rune_motion_player *player);
void rune_motion_player_set_progress(rune_motion_player *player, double progress);
/** Advances progress by speed * dt / cycle duration. Markers of the
 * dominant (most heavily weighted) leaf in the crossed interval go to
 * `queue` (may be NULL) under `source`; a wrap of that leaf raises loop. */
void rune_motion_player_advance(rune_motion_player *player, float dt, float speed, rune_signal_queue *queue,
                                uint32_t source);
/** Samples every active leaf at its time and writes their weighted mean to
 * `out` (rune_mix_mean: per joint share = leaf weight x coverage;
 * coverage = min(1, sum)). */
void rune_motion_player_sample(rune_motion_player *player, rune_pose *out);

/** The leaves that weigh as contributions sampling their tracks at the
 * current progress: what rune_motion_player_sample means (for a mixer that
 * takes contributions, rune_mix_fade_layer). They live in the player and
 * hold until its next call. Returns their count. */
size_t rune_motion_player_contributions(rune_motion_player *player, const rune_contribution **out);

/** Samples every active leaf at clip time 0 (its initial pose) and writes
 * their weighted mean: the reference of an additive layer. */
void rune_motion_player_sample_reference(rune_motion_player *player, rune_pose *out);
/** Samples the player as rune_motion_player_sample does and lays that
 * pose over `out` as an override graph layer (rune_mix_layer with this
 * mask and weight), without a pose of its own: rune_mix_layer_mean. The
 * same bits as sampling into a pose and laying it. */
void rune_motion_player_layer(rune_motion_player *player, rune_pose *out, const float *mask,
                                       float layer_weight);
/** True when any leaf clip loops (the motion then repeats by cycles). */
bool rune_motion_player_loops(const rune_motion_player *player);

/** Stages of rune_motion_player_prefetch. */
#define RUNE_MOTION_PREFETCH_STAGES (2 + RUNE_SAMPLE_CACHE_PREFETCH_STAGES)
/** Asks the CPU to start loading what sampling and advancing the player
 * read, one level of pointers a stage: 0 the player, 1 its per-leaf
 * arrays but the tracks, 2 .. the tracks and samplers of the leaves that
 * weigh (rune_sample_cache_prefetch's stages). A stage reads only what
 * the stage before it asked for, so in a loop over many players issue
 * stage s for the player RUNE_MOTION_PREFETCH_STAGES - s ahead (graph
 * instances and rune_batch do). Changes nothing. */
void rune_motion_player_prefetch(const rune_motion_player *player, int stage);

/** Per-leaf results of the last set_params (for tools and tests). */
size_t rune_motion_player_leaf_count(const rune_motion_player *player);
float rune_motion_player_leaf_weight(const rune_motion_player *player, size_t leaf);
/** The weight a leaf is sampled and travels at: 0 at or below
 * RUNE_MOTION_EPSILON (not sampled), otherwise its weight scaled so the
 * sampled leaves sum to what every leaf's weight sums to (so skipping a
 * negligible leaf never lowers the blend's coverage). */
float rune_motion_player_leaf_share(const rune_motion_player *player, size_t leaf);
float rune_motion_player_leaf_speed(const rune_motion_player *player, size_t leaf);
uint32_t rune_motion_player_leaf_clip(const rune_motion_player *player, size_t leaf);
/** The binding a leaf samples through. */
const rune_binding *rune_motion_player_leaf_binding(const rune_motion_player *player, size_t leaf);
/** The sampler a leaf's frames sample through (its cursor sits where the
 * last sample left it). */
const rune_sample_cache *rune_motion_player_leaf_sampler(const rune_motion_player *player, size_t leaf);
/** The compiled clip a leaf plays. */
const rune_clip *rune_motion_player_leaf_compiled_clip(const rune_motion_player *player, size_t leaf);
/** Unwrapped clip time of a leaf at a given progress (progress x length,
 * negated for a negative leaf speed). */
double rune_motion_player_leaf_clock(const rune_motion_player *player, size_t leaf, double progress);
/** Clip time the leaf samples at the current progress. */
float rune_motion_player_leaf_time(const rune_motion_player *player, size_t leaf);
/** Index of the most heavily weighted leaf, or -1 when none is active. */
int32_t rune_motion_player_dominant_leaf(const rune_motion_player *player);

#endif
