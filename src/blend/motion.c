/* Motion trees: validation and compilation of nested blend spaces. */
#include "motion_internal.h"
#include "../base/alloc.h"
#include "../base/require.h"
#include "blend_internal.h"

#include <string.h>

/* Leaves below node i (children point forward, so a reverse sweep sees each
 * child's count before its parents). Saturates past the limit. */
static size_t count_leaves(const rune_motion_node_desc *nodes, size_t n)
{
    size_t counts[RUNE_MOTION_MAX_LEAVES + 1];
    size_t *c = n <= RUNE_MOTION_MAX_LEAVES ? counts : NULL;
    if (!c)
        return SIZE_MAX;
    for (size_t i = n; i-- > 0;) {
        size_t sum = 0;
        for (size_t k = 0; k < nodes[i].sample_count; k++) {
            int32_t ch = nodes[i].samples[k].child;
            sum += ch >= 0 ? c[ch] : 1;
            if (sum > RUNE_MOTION_MAX_LEAVES)
                sum = RUNE_MOTION_MAX_LEAVES + 1;
        }
        c[i] = sum;
    }
    return c[0];
}

static rune_status validate(const rune_motion_node_desc *nodes, size_t n, size_t params, size_t clips,
                            rune_error *err)
{
    if (n == 0)
        return rune_fail(err, RUNE_E_INVALID, "nodes: a motion needs at least one node");
    if (n > RUNE_MOTION_MAX_LEAVES)
        return rune_fail(err, RUNE_E_INVALID, "nodes: more than %d nodes", RUNE_MOTION_MAX_LEAVES);
    for (size_t i = 0; i < n; i++) {
        const rune_motion_node_desc *d = &nodes[i];
        if (d->sample_count == 0)
            return rune_fail(err, RUNE_E_INVALID, "nodes[%zu].samples: empty", i);
        if (d->sample_count > RUNE_MOTION_MAX_SAMPLES)
            return rune_fail(err, RUNE_E_INVALID, "nodes[%zu].samples: more than %d", i, RUNE_MOTION_MAX_SAMPLES);
        if (d->kind == RUNE_MOTION_CLIP && d->sample_count != 1)
            return rune_fail(err, RUNE_E_INVALID, "nodes[%zu]: a clip node has exactly one sample", i);
        if (d->kind != RUNE_MOTION_CLIP && d->param_x >= params)
            return rune_fail(err, RUNE_E_INVALID, "nodes[%zu].param: index %u out of range", i, d->param_x);
        if (d->kind == RUNE_MOTION_BLEND2D && d->param_y >= params)
            return rune_fail(err, RUNE_E_INVALID, "nodes[%zu].param_y: index %u out of range", i, d->param_y);
        for (size_t k = 0; k < d->sample_count; k++) {
            const rune_motion_sample_desc *s = &d->samples[k];
            if (s->child >= 0 && ((size_t)s->child <= i || (size_t)s->child >= n))
                return rune_fail(err, RUNE_E_INVALID,
                                 "nodes[%zu].samples[%zu].child: %d must name a later node (no cycles)", i, k,
                                 s->child);
            if (s->child < 0 && s->clip >= clips)
                return rune_fail(err, RUNE_E_INVALID, "nodes[%zu].samples[%zu].clip: index %u out of range", i, k,
                                 s->clip);
            if (!isfinite(s->threshold) || !isfinite(s->position.x) || !isfinite(s->position.y) ||
                !isfinite(s->speed))
                return rune_fail(err, RUNE_E_INVALID, "nodes[%zu].samples[%zu]: not finite", i, k);
        }
    }
    if (count_leaves(nodes, n) > RUNE_MOTION_MAX_LEAVES)
        return rune_fail(err, RUNE_E_INVALID, "nodes: the tree expands to more than %d leaves",
                         RUNE_MOTION_MAX_LEAVES);
    return RUNE_OK;
}

rune_status rune_motion_create(const rune_motion_node_desc *nodes, size_t n, size_t params, size_t clips,
                               const rune_allocator *alloc, rune_motion **out, rune_error *err)
{
    RUNE_REQUIRE(err, out, "out");
    RUNE_REQUIRE_ARRAY(err, nodes, "nodes", n, "node_count");
    *out = NULL;
    alloc = rune__alloc_or_default(alloc);
    rune_status st = validate(nodes, n, params, clips, err);
    if (st)
        return st;
    size_t samples = 0, bands = 0;
    for (size_t i = 0; i < n; i++) {
        samples += nodes[i].sample_count;
        if (nodes[i].kind == RUNE_MOTION_BLEND2D)
            bands += nodes[i].sample_count * nodes[i].sample_count;
    }
    rune_motion *m = rune__calloc(alloc, 1, sizeof *m);
    if (!m)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a motion");
    m->alloc = *alloc;
    m->node_count = n;
    m->sample_count = samples;
    m->param_count = params;
    m->leaf_count = count_leaves(nodes, n);
    m->nodes = rune__calloc(alloc, n, sizeof *m->nodes);
    m->child = rune__calloc(alloc, samples, sizeof *m->child);
    m->clip = rune__calloc(alloc, samples, sizeof *m->clip);
    m->threshold = rune__calloc(alloc, samples, sizeof *m->threshold);
    m->position = rune__calloc(alloc, samples, sizeof *m->position);
    m->speed = rune__calloc(alloc, samples, sizeof *m->speed);
    m->polar = rune__calloc(alloc, samples, sizeof *m->polar);
    m->band_count = bands;
    m->bands = bands ? rune__calloc(alloc, bands, sizeof *m->bands) : NULL;
    if (!m->nodes || !m->child || !m->clip || !m->threshold || !m->position || !m->speed || !m->polar ||
        (bands && !m->bands)) {
        rune_motion_destroy(m);
        return rune_fail(err, RUNE_E_NOMEM, "out of memory creating a motion");
    }
    size_t at = 0, band_at = 0;
    for (size_t i = 0; i < n; i++) {
        motion_node *mn = &m->nodes[i];
        mn->kind = nodes[i].kind;
        mn->param_x = nodes[i].param_x;
        mn->param_y = nodes[i].param_y;
        mn->mode = nodes[i].mode;
        mn->first_sample = (uint32_t)at;
        mn->sample_count = (uint32_t)nodes[i].sample_count;
        for (size_t k = 0; k < nodes[i].sample_count; k++, at++) {
            const rune_motion_sample_desc *s = &nodes[i].samples[k];
            m->child[at] = s->child;
            m->clip[at] = s->clip;
            m->threshold[at] = s->threshold;
            m->position[at] = s->position;
            m->speed[at] = s->speed;
        }
        if (mn->kind == RUNE_MOTION_BLEND2D) {
            mn->first_band = (uint32_t)band_at;
            rune__blend2d_prepare(&m->position[mn->first_sample], mn->sample_count, mn->mode,
                                  &m->polar[mn->first_sample], &m->bands[band_at]);
            band_at += (size_t)mn->sample_count * mn->sample_count;
        }
    }
    *out = m;
    return RUNE_OK;
}

void rune_motion_destroy(rune_motion *m)
{
    if (!m)
        return;
    rune_allocator a = m->alloc;
    rune__free(&a, m->nodes, m->node_count, sizeof *m->nodes);
    rune__free(&a, m->child, m->sample_count, sizeof *m->child);
    rune__free(&a, m->clip, m->sample_count, sizeof *m->clip);
    rune__free(&a, m->threshold, m->sample_count, sizeof *m->threshold);
    rune__free(&a, m->position, m->sample_count, sizeof *m->position);
    rune__free(&a, m->speed, m->sample_count, sizeof *m->speed);
    rune__free(&a, m->polar, m->sample_count, sizeof *m->polar);
    rune__free(&a, m->bands, m->band_count, sizeof *m->bands);
    rune__free(&a, m, 1, sizeof *m);
}

size_t rune_motion_leaf_count(const rune_motion *m) { return m->leaf_count; }
size_t rune_motion_param_count(const rune_motion *m) { return m->param_count; }
