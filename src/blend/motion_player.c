/* Motion players: leaf influences and speeds from parameters, the shared
 * cycle duration, normalized progress, marker delivery from the dominant
 * leaf, and the weighted-mean pose (the mixer's vectorized mean over the
 * leaves' samplers). Nothing here allocates after create. */
#include "motion_internal.h"
#include "rune/mix.h"
#include "../base/alloc.h"
#include "../base/prefetch.h"
#include "../base/require.h"
#include "blend_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct rune_motion_player {
    rune_allocator alloc;
    const rune_motion *m;
    size_t leaves;
    /* per leaf, in one block after the player (see carve): a frame reads
     * a few lines of it, not a dozen allocations */
    float *weight;
    float *speed;
    float *local; /* per sample: the node-local weights */
    float *length;
    uint32_t *clip;
    bool *loop;
    rune_contribution *contrib;   /* scratch: one per active leaf */
    rune_sample_cache **cache;    /* [i] live, [leaves + i] at time 0 */
    rune_track *track;            /* what the mean samples: the same split */
    const rune_binding **binding;
    size_t bytes;                 /* the player and its arrays */
    float keep;   /* what scales the leaves above RUNE_MOTION_EPSILON so they sum to all of them */
    /* what the last set_params worked out, kept while the parameters the
     * motion reads hold still (most characters' do for many frames) */
    float *seen;      /* those parameters' values */
    bool expanded;    /* the leaf arrays hold a set_params' result */
    bool seen_null;   /* ... of set_params(NULL) */
    float duration;   /* rune_motion_player_cycle_duration */
    int32_t dominant; /* rune_motion_player_dominant_leaf */
    /* progress = cycles + phase, phase in [0, 1): the phase is reduced
     * every advance, so hours of play do not drift, and a huge step
     * saturates the count instead of losing the phase */
    int64_t cycles;
    double phase;
};

/* Lays the per-leaf arrays out after the player, those a frame reads
 * first, each at its type's alignment (no padding between the short
 * arrays: a frame reads fewer lines); with base NULL it only measures.
 * Returns the bytes in all. */
static size_t carve(rune_motion_player *base, size_t leaves, size_t samples, size_t params)
{
    struct { void *field; size_t count, size, align; } parts[] = {
        {base ? &base->seen : NULL, params, sizeof(float), _Alignof(float)}, /* set_params reads it first */
        {base ? &base->weight : NULL, leaves, sizeof(float), _Alignof(float)},
        {base ? &base->speed : NULL, leaves, sizeof(float), _Alignof(float)},
        {base ? &base->local : NULL, samples, sizeof(float), _Alignof(float)},
        {base ? &base->length : NULL, leaves, sizeof(float), _Alignof(float)},
        {base ? &base->clip : NULL, leaves, sizeof(uint32_t), _Alignof(uint32_t)},
        {base ? &base->loop : NULL, leaves, sizeof(bool), _Alignof(bool)},
        {base ? &base->contrib : NULL, leaves, sizeof(rune_contribution), _Alignof(rune_contribution)},
        {base ? &base->cache : NULL, 2 * leaves, sizeof(rune_sample_cache *), _Alignof(rune_sample_cache *)},
        {base ? &base->binding : NULL, leaves, sizeof(const rune_binding *), _Alignof(const rune_binding *)},
        {base ? &base->track : NULL, 2 * leaves, sizeof(rune_track), _Alignof(rune_track)},
    };
    size_t at = sizeof(rune_motion_player);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        at = (at + parts[i].align - 1) / parts[i].align * parts[i].align;
        if (base)
            *(void **)parts[i].field = (char *)base + at;
        at += parts[i].count * parts[i].size;
    }
    return at;
}

/* Walks the tree depth-first, writing each leaf's path weight and speed. */
static void expand(rune_motion_player *p, const float *params, uint32_t node, float w, float s, size_t *leaf)
{
    const rune_motion *m = p->m;
    const motion_node *n = &m->nodes[node];
    float *local = &p->local[n->first_sample];
    if (n->kind == RUNE_MOTION_BLEND1D) {
        rune_blend1d_weights(&m->threshold[n->first_sample], n->sample_count, params ? params[n->param_x] : 0.0f,
                             local);
    } else if (n->kind == RUNE_MOTION_BLEND2D) {
        rune_vec2 at = {params ? params[n->param_x] : 0.0f, params ? params[n->param_y] : 0.0f};
        rune__blend2d_weights_prepared(&m->position[n->first_sample], n->sample_count, at, n->mode,
                                       &m->polar[n->first_sample], &m->bands[n->first_band], local);
    } else {
        local[0] = 1.0f;
    }
    for (uint32_t k = 0; k < n->sample_count; k++) {
        uint32_t si = n->first_sample + k;
        float wk = w * local[k], sk = s * m->speed[si];
        if (m->child[si] >= 0) {
            expand(p, params, (uint32_t)m->child[si], wk, sk, leaf);
        } else {
            p->weight[*leaf] = wk;
            p->speed[*leaf] = sk;
            p->clip[*leaf] = m->clip[si];
            (*leaf)++;
        }
    }
}

/* A player; `reference`: with the time-0 samplers (else its reference
 * tracks sample through the live ones). */
static rune_status create(const rune_motion *m, const rune_binding *const *bindings, bool reference,
                          const rune_allocator *alloc, rune_motion_player **out, rune_error *err)
{
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    size_t L = m->leaf_count;
    if (L > SIZE_MAX / 1024 || m->sample_count > SIZE_MAX / 1024 || m->param_count > SIZE_MAX / 1024)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a motion player");
    size_t bytes = carve(NULL, L, m->sample_count, m->param_count);
    rune_motion_player *p = rune__calloc(alloc, 1, bytes);
    if (!p)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a motion player");
    carve(p, L, m->sample_count, m->param_count);
    p->bytes = bytes;
    p->alloc = *alloc;
    p->m = m;
    p->leaves = L;
    rune_status st = RUNE_OK;
    rune_motion_player_set_params(p, NULL); /* fills the leaf clip table */
    for (size_t i = 0; i < L; i++) {
        p->binding[i] = bindings[p->clip[i]];
        const rune_clip *c = rune_binding_clip(p->binding[i]);
        p->length[i] = rune_clip_length(c);
        p->loop[i] = rune_clip_loops(c);
        /* the reference keeps its own sampler, so sampling time 0 does
         * not move the live one's cursors; without one (cache[L + i]
         * stays NULL) its track is the live track's, sampler and all */
        for (size_t k = i; k < 2 * L; k += L) {
            if (k >= L && !reference) {
                p->track[k] = p->track[i];
                continue;
            }
            if ((st = rune_binding_sampler_create(p->binding[i], RUNE_SIMD_AUTO, alloc, &p->cache[k], err))) {
                rune_motion_player_destroy(p);
                return st;
            }
            p->track[k] = (rune_track){.binding = p->binding[i], .clip = c, .cache = p->cache[k]};
        }
    }
    p->expanded = false; /* the cycle duration again, with the clips' lengths */
    rune_motion_player_set_params(p, NULL);
    *out = p;
    return RUNE_OK;
}

rune_status rune_motion_player_create(const rune_motion *m, const rune_binding *const *bindings,
                                      const rune_allocator *alloc, rune_motion_player **out, rune_error *err)
{
    RUNE_REQUIRE(err, m, "motion");
    RUNE_REQUIRE(err, out, "out");
    return create(m, bindings, true, alloc, out, err);
}

rune_status rune_motion_player_create_live(const rune_motion *m, const rune_binding *const *bindings,
                                           const rune_allocator *alloc, rune_motion_player **out, rune_error *err)
{
    RUNE_REQUIRE(err, m, "motion");
    RUNE_REQUIRE(err, out, "out");
    return create(m, bindings, false, alloc, out, err);
}

void rune_motion_player_destroy(rune_motion_player *p)
{
    if (!p)
        return;
    rune_allocator a = p->alloc;
    for (size_t i = 0; i < 2 * p->leaves; i++)
        rune_sample_cache_destroy(p->cache[i]);
    rune__free(&a, p, 1, p->bytes);
}

void rune_motion_player_reset(rune_motion_player *p)
{
    p->cycles = 0;
    p->phase = 0.0;
    rune_motion_player_set_params(p, NULL);
    for (size_t i = 0; i < 2 * p->leaves; i++)
        if (p->cache[i])
            rune_sample_cache_reset(p->cache[i]);
}

const rune_motion *rune_motion_player_motion(const rune_motion_player *p) { return p->m; }

/* Whether `params` are what the leaf arrays were last worked out from. */
static bool params_seen(const rune_motion_player *p, const float *params)
{
    if (!p->expanded || p->seen_null != !params)
        return false;
    /* bits, not values: a NaN parameter is as seen as any other */
    for (size_t i = 0; params && i < p->m->param_count; i++) {
        uint32_t a, b;
        memcpy(&a, &params[i], sizeof a);
        memcpy(&b, &p->seen[i], sizeof b);
        if (a != b)
            return false;
    }
    return true;
}

static float cycle_duration(const rune_motion_player *p);
static int32_t dominant_leaf(const rune_motion_player *p);

void rune_motion_player_set_params(rune_motion_player *p, const float *params)
{
    if (params_seen(p, params))
        return;
    size_t leaf = 0;
    expand(p, params, 0, 1.0f, 1.0f, &leaf);
    /* leaves at or below the epsilon are not sampled; the rest take their
     * weight, so the blend's coverage stays what its weights sum to */
    double all = 0.0, kept = 0.0;
    for (size_t i = 0; i < p->leaves; i++) {
        all += p->weight[i];
        kept += p->weight[i] > RUNE_MOTION_EPSILON ? p->weight[i] : 0.0f;
    }
    p->keep = kept > 0.0 ? (float)(all / kept) : 0.0f;
    p->duration = cycle_duration(p);
    p->dominant = dominant_leaf(p);
    if (params)
        memcpy(p->seen, params, p->m->param_count * sizeof *params);
    p->seen_null = !params;
    p->expanded = true;
}

float rune_motion_player_leaf_share(const rune_motion_player *p, size_t i)
{
    return p->weight[i] > RUNE_MOTION_EPSILON ? p->weight[i] * p->keep : 0.0f;
}

static bool leaf_active(const rune_motion_player *p, size_t i)
{
    return p->weight[i] > RUNE_MOTION_EPSILON && fabsf(p->speed[i]) > RUNE_MOTION_EPSILON && p->length[i] > 0.0f;
}

static float cycle_duration(const rune_motion_player *p)
{
    double sum_w = 0.0, sum = 0.0;
    for (size_t i = 0; i < p->leaves; i++) {
        if (!leaf_active(p, i))
            continue;
        sum_w += p->weight[i];
        sum += (double)p->weight[i] * p->length[i] / fabsf(p->speed[i]);
    }
    return sum_w > 0.0 ? (float)(sum / sum_w) : 0.0f;
}

float rune_motion_player_cycle_duration(const rune_motion_player *p) { return p->duration; }

double rune_motion_player_progress(const rune_motion_player *p) { return (double)p->cycles + p->phase; }

/* Whole cycles past this are not counted (progress stays finite and an
 * int64 cannot overflow). */
#define MAX_CYCLES 4.0e18

/* Moves (cycles, phase) by delta cycles. */
static void move_progress(rune_motion_player *p, double delta)
{
    double x = p->phase + delta;
    double k = floor(x);
    double phase = x - k;
    if (!(phase >= 0.0 && phase < 1.0)) /* rounding (or a step so large the phase is lost) */
        phase = 0.0;
    double cycles = (double)p->cycles + k;
    cycles = cycles > MAX_CYCLES ? MAX_CYCLES : (cycles < -MAX_CYCLES ? -MAX_CYCLES : cycles);
    p->cycles = k == 0.0 ? p->cycles : (int64_t)cycles;
    p->phase = phase;
}

void rune_motion_player_set_progress(rune_motion_player *p, double progress)
{
    p->cycles = 0;
    p->phase = 0.0;
    if (isfinite(progress))
        move_progress(p, progress);
}

/* Leaves with negative speed run backwards through their clip. */
double rune_motion_player_leaf_clock(const rune_motion_player *p, size_t i, double progress)
{
    return progress * p->length[i] * (p->speed[i] < 0.0f ? -1.0 : 1.0);
}

float rune_motion_player_leaf_time(const rune_motion_player *p, size_t i)
{
    if (p->loop[i]) /* whole cycles are whole loops of every leaf: the phase alone places it */
        return rune_wrap_time(p->phase * p->length[i] * (p->speed[i] < 0.0f ? -1.0 : 1.0), p->length[i]);
    double t = rune_motion_player_leaf_clock(p, i, rune_motion_player_progress(p));
    return (float)fmin(fmax(t, 0.0), (double)p->length[i]);
}

static int32_t dominant_leaf(const rune_motion_player *p)
{
    int32_t best = -1;
    for (size_t i = 0; i < p->leaves; i++)
        if (p->weight[i] > RUNE_MOTION_EPSILON && (best < 0 || p->weight[i] > p->weight[best]))
            best = (int32_t)i;
    return best;
}

int32_t rune_motion_player_dominant_leaf(const rune_motion_player *p) { return p->dominant; }

void rune_motion_player_advance(rune_motion_player *p, float dt, float speed, rune_signal_queue *q, uint32_t source)
{
    float d = rune_motion_player_cycle_duration(p);
    if (!(d > 0.0f) || !isfinite(dt) || !isfinite(speed))
        return;
    double from = rune_motion_player_progress(p), phase_from = p->phase;
    double delta = (double)speed * dt / d;
    move_progress(p, delta);
    int32_t dom = rune_motion_player_dominant_leaf(p);
    if (dom < 0)
        return;
    const rune_clip *clip = rune_binding_clip(p->binding[dom]);
    if (p->loop[dom]) {
        /* markers and loops repeat by whole cycles: walk from this step's
         * starting phase, whatever the cycle count */
        double a = rune_motion_player_leaf_clock(p, (size_t)dom, phase_from);
        double b = rune_motion_player_leaf_clock(p, (size_t)dom, phase_from + delta);
        rune_queue_loops(q, source, rune_walk_markers(clip, a, b, p->length[dom], source, q));
    } else {
        double len = p->length[dom];
        double a = rune_motion_player_leaf_clock(p, (size_t)dom, from);
        double b = rune_motion_player_leaf_clock(p, (size_t)dom, rune_motion_player_progress(p));
        rune_walk_markers(clip, fmin(fmax(a, 0.0), len), fmin(fmax(b, 0.0), len), 0.0, source, q);
    }
}

/* The leaves with a share, as contributions sampling their tracks at this
 * frame's times (at_zero: the reference samplers at time 0); their count. */
static size_t leaf_contributions(rune_motion_player *p, bool at_zero)
{
    size_t n = 0;
    for (size_t i = 0; i < p->leaves; i++) {
        float share = rune_motion_player_leaf_share(p, i);
        if (!(share > 0.0f))
            continue;
        rune_track *tr = &p->track[at_zero ? p->leaves + i : i];
        tr->time = at_zero ? 0.0 : rune_motion_player_leaf_time(p, i);
        p->contrib[n++] = (rune_contribution){NULL, share, 0, tr};
    }
    return n;
}

void rune_motion_player_sample(rune_motion_player *p, rune_pose *out)
{
    rune_mix_mean(p->contrib, leaf_contributions(p, false), RUNE_SIMD_AUTO, out);
}

size_t rune_motion_player_contributions(rune_motion_player *p, const rune_contribution **out)
{
    *out = p->contrib;
    return leaf_contributions(p, false);
}

void rune_motion_player_sample_reference(rune_motion_player *p, rune_pose *out)
{
    rune_mix_mean(p->contrib, leaf_contributions(p, true), RUNE_SIMD_AUTO, out);
}

void rune_motion_player_layer(rune_motion_player *p, rune_pose *out, const float *mask, float layer_weight)
{
    rune_mix_layer_mean(out, p->contrib, leaf_contributions(p, false), mask, layer_weight, RUNE_SIMD_AUTO);
}

bool rune_motion_player_loops(const rune_motion_player *p)
{
    for (size_t i = 0; i < p->leaves; i++)
        if (p->loop[i])
            return true;
    return false;
}

void rune_motion_player_prefetch(const rune_motion_player *p, int stage)
{
    size_t L = p->leaves;
    if (stage == 0) {
        rune__prefetch_range(p, sizeof *p, false);
    } else if (stage == 1) { /* the arrays a frame reads, up to the tracks */
        rune__prefetch_range(p->seen, (size_t)((const char *)p->track - (const char *)p->seen), true);
    } else { /* the leaves that weigh: their tracks and samplers */
        for (size_t i = 0; i < L; i++) {
            if (!(p->weight[i] > RUNE_MOTION_EPSILON))
                continue;
            if (stage == 2) /* what a leaf's sample reads of its track: binding .. time */
                rune__prefetch_range(&p->track[i], offsetof(rune_track, speed), true);
            rune_sample_cache_prefetch(p->cache[i], stage - 2);
        }
    }
}

size_t rune_motion_player_leaf_count(const rune_motion_player *p) { return p->leaves; }
float rune_motion_player_leaf_weight(const rune_motion_player *p, size_t i) { return p->weight[i]; }
float rune_motion_player_leaf_speed(const rune_motion_player *p, size_t i) { return p->speed[i]; }
uint32_t rune_motion_player_leaf_clip(const rune_motion_player *p, size_t i) { return p->clip[i]; }
const rune_clip *rune_motion_player_leaf_compiled_clip(const rune_motion_player *p, size_t i)
{
    return rune_binding_clip(p->binding[i]);
}
const rune_binding *rune_motion_player_leaf_binding(const rune_motion_player *p, size_t i) { return p->binding[i]; }
const rune_sample_cache *rune_motion_player_leaf_sampler(const rune_motion_player *p, size_t i) { return p->cache[i]; }
