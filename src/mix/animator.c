/* The animator: one per rig instance. Owns track slots (each with its own
 * sampler, reused after a track ends), controls, the mixer's scratch, the
 * signal queue and the final pose. All growth happens in play/set calls or
 * the first frames; a steady frame allocates nothing. Composition keeps its
 * working set on the stack, so per frame an animator touches little more
 * than its tracks' cursors and its final pose: what lets a crowd of them
 * run from cache. */
#include "rune/mix.h"
#include "control_set.h"
#include "../base/alloc.h"
#include "../base/prefetch.h"
#include "../base/require.h"
#include "mix_internal.h"

#include <stddef.h>
#include <string.h>

typedef struct track_slot {
    rune_track track;
    rune_sample_cache *cache; /* the sampler of the slot's last binding, reused */
    bool live;
} track_slot;

struct rune_animator {
    /* what a frame reads, first: the batch's prefetch asks for these
     * lines only (rune_animator_prefetch) */
    const rune_rig *rig;
    size_t joint_count;
    track_slot *slots;
    size_t slot_count;
    size_t *live; /* slots of the live tracks, in start order */
    size_t live_tracks;
    rune_contribution *contribs;
    size_t contrib_cap;
    size_t contribs_used; /* by the last compose: what the next will likely write */
    size_t *order;
    size_t order_cap;
    rune_simd_level level;
    bool composed_something; /* the last pass had inputs: a final pass is owed */
    bool controls_owed;      /* compose ran; its controls have not */
    size_t passes;
    control_set controls;
    rune_pose pose;
    /* what plays, stops and signals read */
    rune_signal_queue signals;
    rune_allocator alloc;
    size_t slot_cap, live_cap;
    uint32_t next_handle;
};

rune_status rune_animator_create(const rune_rig *rig, size_t signal_capacity, const rune_allocator *alloc,
                                 rune_animator **out, rune_error *err)
{
    RUNE_REQUIRE(err, rig, "rig");
    RUNE_REQUIRE(err, out, "out");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_animator *a = rune__calloc(alloc, 1, sizeof *a);
    if (!a)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating animator");
    a->alloc = *alloc;
    a->rig = rig;
    a->joint_count = rune_rig_joint_count(rig);
    a->next_handle = 1;
    rune_status st = rune_signal_queue_init(&a->signals, signal_capacity ? signal_capacity : 256, alloc, err);
    if (!st)
        st = rune_pose_init_rig(&a->pose, rig, alloc, err);
    if (st) {
        rune_animator_destroy(a);
        return st;
    }
    *out = a;
    return RUNE_OK;
}

void rune_animator_destroy(rune_animator *a)
{
    if (!a)
        return;
    rune_allocator al = a->alloc;
    for (size_t i = 0; i < a->slot_count; i++)
        rune_sample_cache_destroy(a->slots[i].cache);
    rune__free(&al, a->slots, a->slot_cap, sizeof *a->slots);
    rune__free(&al, a->live, a->live_cap, sizeof *a->live);
    rune__controls_release(&a->controls, &al);
    rune__free(&al, a->contribs, a->contrib_cap, sizeof *a->contribs);
    rune__free(&al, a->order, a->order_cap, sizeof *a->order);
    rune_signal_queue_release(&a->signals);
    rune_pose_release(&a->pose);
    rune__free(&al, a, 1, sizeof *a);
}

static track_slot *free_slot(rune_animator *a, rune_error *err)
{
    for (size_t i = 0; i < a->slot_count; i++)
        if (!a->slots[i].live)
            return &a->slots[i];
    if (!rune__grow(&a->alloc, (void **)&a->slots, &a->slot_cap, a->slot_count + 1, sizeof *a->slots)) {
        rune_fail(err, RUNE_E_NOMEM, "out of memory adding a track");
        return NULL;
    }
    track_slot *s = &a->slots[a->slot_count++];
    return s;
}

static track_slot *find_live(const rune_animator *a, uint32_t handle)
{
    for (size_t i = 0; i < a->slot_count; i++)
        if (a->slots[i].live && a->slots[i].track.handle == handle)
            return &a->slots[i];
    return NULL;
}

rune_status rune_animator_play(rune_animator *a, const rune_binding *binding, const rune_play_params *params,
                               uint32_t *handle, rune_error *err)
{
    RUNE_REQUIRE(err, a, "anim");
    RUNE_REQUIRE(err, binding, "binding");
    rune_play_params defaults = rune_play_defaults();
    if (!rune__grow(&a->alloc, (void **)&a->live, &a->live_cap, a->live_tracks + 1, sizeof *a->live))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory adding a track");
    track_slot *s = free_slot(a, err);
    if (!s)
        return err ? err->status : RUNE_E_NOMEM;
    if (!rune_binding_sampler_matches(binding, s->cache) ||
        rune_sample_cache_level(s->cache) != rune_simd_resolve(a->level)) {
        rune_sample_cache_destroy(s->cache);
        s->cache = NULL;
        rune_status st = rune_binding_sampler_create(binding, a->level, &a->alloc, &s->cache, err);
        if (st)
            return st;
    } else {
        rune_sample_cache_reset(s->cache); /* a new play starts from no history */
    }
    uint32_t h = a->next_handle++;
    rune_track_start(&s->track, binding, s->cache, params ? params : &defaults, h);
    s->live = true;
    a->live[a->live_tracks++] = (size_t)(s - a->slots);
    if (handle)
        *handle = h;
    return RUNE_OK;
}

bool rune_animator_adjust(rune_animator *a, uint32_t handle, const rune_adjust_params *p)
{
    track_slot *s = find_live(a, handle);
    if (!s)
        return false;
    if (p->set_weight)
        rune_fade_to(&s->track.fade, p->weight, p->fade);
    if (p->set_speed && isfinite(p->speed))
        s->track.speed = p->speed;
    return true;
}

bool rune_animator_stop(rune_animator *a, uint32_t handle, float fade)
{
    track_slot *s = find_live(a, handle);
    if (!s)
        return false;
    rune_fade_stop(&s->track.fade, fade);
    return true;
}

const rune_track *rune_animator_track(const rune_animator *a, uint32_t handle)
{
    track_slot *s = find_live(a, handle);
    return s ? &s->track : NULL;
}

size_t rune_animator_track_count(const rune_animator *a) { return a->live_tracks; }

void rune_animator_set_simd(rune_animator *a, rune_simd_level level) { a->level = level; }

rune_status rune_animator_set_control(rune_animator *a, const rune_control *c, rune_error *err)
{
    RUNE_REQUIRE(err, a, "anim");
    RUNE_REQUIRE(err, c, "control");
    return rune__controls_set(&a->controls, a->rig, &a->alloc, c, err);
}

bool rune_animator_remove_control(rune_animator *a, uint32_t id) { return rune__controls_remove(&a->controls, id); }

bool rune_animator_control_state(const rune_animator *a, uint32_t id, rune_control_state *out)
{
    return rune__controls_state(&a->controls, a->rig, &a->pose, id, out);
}

uint32_t rune_animator_new_source(rune_animator *a) { return a->next_handle++; }
rune_signal_queue *rune_animator_signals(rune_animator *a) { return &a->signals; }
size_t rune_animator_dropped_signals(const rune_animator *a) { return a->signals.dropped; }

void rune_animator_advance(rune_animator *a, float dt)
{
    if (!isfinite(dt))
        dt = 0.0f;
    /* in start order, so that signals come in start order */
    size_t kept = 0;
    for (size_t i = 0; i < a->live_tracks; i++) {
        track_slot *s = &a->slots[a->live[i]];
        rune_track_advance(&s->track, dt, &a->signals);
        if (rune_fade_finished(&s->track.fade)) {
            rune_event e = {RUNE_EVENT_STOPPED, s->track.handle, NULL, NULL, 0.0f};
            rune_signal_queue_push(&a->signals, &e);
            s->live = false;
            continue;
        }
        a->live[kept++] = a->live[i];
    }
    a->live_tracks = kept;
    rune__controls_advance(&a->controls, dt);
}

static bool reserve_scratch(rune_animator *a, size_t n)
{
    return rune__grow(&a->alloc, (void **)&a->contribs, &a->contrib_cap, n, sizeof *a->contribs) &&
           rune__grow(&a->alloc, (void **)&a->order, &a->order_cap, n > a->controls.count ? n : a->controls.count,
                      sizeof *a->order);
}

rune_status rune_animator_reserve(rune_animator *a, size_t extra_count, rune_error *err)
{
    RUNE_REQUIRE(err, a, "anim");
    if (!reserve_scratch(a, a->live_tracks + extra_count + 1))
        return rune_fail(err, RUNE_E_NOMEM, "out of memory composing a frame");
    return RUNE_OK;
}

rune_status rune_animator_compose(rune_animator *a, const rune_contribution *extra, size_t extra_count,
                                  rune_error *err)
{
    RUNE_REQUIRE(err, a, "anim");
    RUNE_REQUIRE_ARRAY(err, extra, "extra", extra_count, "extra_count");
    size_t n = a->live_tracks + extra_count;
    bool inputs = n > 0 || a->controls.count > 0;
    if (!inputs && !a->composed_something)
        return RUNE_OK; /* the final pass already left the pose at rest */
    rune_status st = rune_animator_reserve(a, extra_count, err);
    if (st)
        return st;
    size_t k = 0;
    for (size_t i = 0; i < a->live_tracks; i++) {
        const rune_track *t = &a->slots[a->live[i]].track;
        a->contribs[k++] = (rune_contribution){NULL, t->fade.weight, t->priority, t};
    }
    for (size_t i = 0; i < extra_count; i++)
        a->contribs[k++] = extra[i];
    rune_mix_compose(a->contribs, k, a->level, a->order, &a->pose);
    a->contribs_used = k;
    a->composed_something = inputs;
    a->passes++;
    a->controls_owed = true;
    return RUNE_OK;
}

void rune_animator_apply_controls(rune_animator *a)
{
    /* only on a pass compose made: a skipped pass left the pose at rest */
    if (a->controls_owed)
        rune__controls_run(&a->controls, a->rig, a->order, &a->pose);
    a->controls_owed = false;
}

rune_status rune_animator_evaluate(rune_animator *a, const rune_contribution *extra, size_t extra_count,
                                   rune_error *err)
{
    RUNE_REQUIRE(err, a, "anim");
    RUNE_REQUIRE_ARRAY(err, extra, "extra", extra_count, "extra_count");
    rune_status st = rune_animator_compose(a, extra, extra_count, err);
    if (!st)
        rune_animator_apply_controls(a);
    return st;
}

bool rune_animator_controls_owed(const rune_animator *a) { return a->controls_owed && a->controls.count > 0; }

void rune_animator_swap_pose(rune_animator *a, rune_pose *other)
{
    rune_pose mine = a->pose;
    a->pose = *other;
    *other = mine;
    a->composed_something = true; /* what it holds now is no frame's: the next compose writes it */
}

const rune_pose *rune_animator_pose(const rune_animator *a) { return &a->pose; }
size_t rune_animator_passes(const rune_animator *a) { return a->passes; }
rune_pose *rune_animator_pose_edit(rune_animator *a) { return &a->pose; }
size_t rune_animator_slot_count(const rune_animator *a) { return a->slot_count; }

const rune_track *rune_animator_slot(const rune_animator *a, size_t i)
{
    return i < a->slot_count && a->slots[i].live ? &a->slots[i].track : NULL;
}

void rune_animator_deliver(rune_animator *a, rune_signal_fn fn, void *user)
{
    for (size_t i = 0; fn && i < a->signals.count; i++)
        fn(user, &a->signals.events[i]);
    rune_signal_queue_clear(&a->signals);
}

void rune_animator_prefetch(const rune_animator *a, int stage, bool pose)
{
    if (stage == 0) { /* what a frame reads of it */
        rune__prefetch_range(a, offsetof(struct rune_animator, signals), false);
    } else if (stage == 1) {
        rune__prefetch_range(a->slots, a->slot_count * sizeof *a->slots, false);
        /* the contributions (a graph's or motion's come from the caller,
         * so the count of the last compose, not the live tracks) and
         * their order, both written by the next compose */
        size_t used = a->contribs_used > a->live_tracks ? a->contribs_used : a->live_tracks;
        rune__prefetch_range(a->contribs, (used < a->contrib_cap ? used : a->contrib_cap) * sizeof *a->contribs, true);
        rune__prefetch_range(a->order, (used < a->order_cap ? used : a->order_cap) * sizeof *a->order, true);
        if (pose)
            rune_pose_prefetch(&a->pose, true);
    } else {
        for (size_t i = 0; i < a->slot_count; i++)
            if (a->slots[i].live)
                rune_sample_cache_prefetch(a->slots[i].cache, stage - 2);
    }
}
