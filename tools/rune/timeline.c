/* Collecting a timeline (timeline.h): run the scenario once and keep, per
 * frame, everything the pictures and the inspector draw. Allocation
 * happens when the rig is first seen (sizes are known from there on); a
 * graph layer or blend space is given its arrays the first frame it plays. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "timeline.h"
#include "eval_meshes.h"
#include "cli.h"
#include "rune/asset.h"
#include "rune/import.h"
#include "blend/blend_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct collector {
    timeline *t;
    const rune_scenario *s;
    rune_mat4 *mats; /* scratch, per joint */
    const char *progress;
    bool nomem, nonfinite;
    /* the source skeleton: the rig drawn, its clips' bindings on it */
    int32_t source_rig;          /* index into s->source_rigs, or -1 */
    rune_rig *source;
    rune_binding **source_bind;  /* per scenario clip, made on first use */
    rune_pose source_pose;
    rune_mat4 *source_mats;
    float source_scale;
    rune_vec3 source_shift;
} collector;

static bool alloc_rig(timeline *t, const rune_rig *rig)
{
    size_t j = rune_rig_joint_count(rig), cells = t->frames * j + 1;
    t->joints = j;
    t->parent = calloc(j + 1, sizeof *t->parent);
    t->joint_names = calloc(j + 1, sizeof *t->joint_names);
    t->rest = calloc(j + 1, sizeof *t->rest);
    t->rest_s = calloc(j + 1, sizeof *t->rest_s);
    t->pos = calloc(cells, sizeof *t->pos);
    t->model = t->mesh_count ? calloc(12 * cells, sizeof *t->model) : NULL;
    t->local_t = calloc(cells, sizeof *t->local_t);
    t->local_r = calloc(cells, sizeof *t->local_r);
    t->local_s = calloc(cells, sizeof *t->local_s);
    t->angle = calloc(cells, sizeof *t->angle);
    t->coverage = calloc(cells, sizeof *t->coverage);
    t->root = calloc(3 * t->frames + 1, sizeof *t->root);
    t->inertia = calloc(t->frames + 1, sizeof *t->inertia);
    t->series = calloc(TL_MAX_SERIES * t->frames + 1, sizeof *t->series);
    size_t curves = rune_rig_curve_count(rig);
    t->curve_count = curves;
    t->curve_names = calloc(curves + 1, sizeof *t->curve_names);
    t->curve = calloc(t->frames * curves + 1, sizeof *t->curve);
    t->curve_cov = calloc(t->frames * curves + 1, sizeof *t->curve_cov);
    if (!t->parent || !t->joint_names || !t->rest || !t->rest_s || !t->pos || (t->mesh_count && !t->model) || !t->local_t || !t->local_r ||
        !t->local_s || !t->angle || !t->coverage || !t->root || !t->inertia || !t->series || !t->curve_names || !t->curve ||
        !t->curve_cov)
        return false;
    for (size_t k = 0; k < curves; k++)
        snprintf(t->curve_names[k], TL_NAME, "%s", rune_rig_curve_name(rig, k));
    for (size_t k = 0; k < j; k++) {
        t->parent[k] = rune_rig_parent(rig, k);
        rune_rig_joint_name(rig, k, t->joint_names[k], TL_NAME);
        t->rest[k] = rune_rig_frame(rig, k);
        t->rest_s[k] = rune_rig_frame_scale(rig, k);
    }
    return true;
}

static tl_layer *layer_for(collector *c, const char *inst, const rune_graph *g, uint32_t layer)
{
    timeline *t = c->t;
    char label[TL_NAME];
    const char *ln = rune_graph_layer_name(g, layer);
    if (ln && ln[0])
        snprintf(label, sizeof label, "%s/%s", inst, ln);
    else
        snprintf(label, sizeof label, "%s/layer %u", inst, (unsigned)layer);
    for (size_t i = 0; i < t->layer_count; i++)
        if (strcmp(t->layers[i].label, label) == 0)
            return &t->layers[i];
    if (t->layer_count == TL_MAX_LAYERS)
        return NULL;
    tl_layer *l = &t->layers[t->layer_count];
    size_t n = t->frames + 1;
    l->state = malloc(n * sizeof *l->state);
    l->from = malloc(n * sizeof *l->from);
    l->alpha = calloc(n, sizeof *l->alpha);
    l->weight = calloc(n, sizeof *l->weight);
    l->interrupted = calloc(n, sizeof *l->interrupted);
    l->state_count = rune_graph_state_count(g, layer);
    l->state_names = calloc(l->state_count + 1, sizeof *l->state_names);
    if (!l->state || !l->from || !l->alpha || !l->weight || !l->interrupted || !l->state_names) {
        c->nomem = true;
        free(l->state), free(l->from), free(l->alpha), free(l->weight), free(l->interrupted), free(l->state_names);
        memset(l, 0, sizeof *l);
        return NULL;
    }
    for (size_t f = 0; f < n; f++)
        l->state[f] = l->from[f] = -1;
    snprintf(l->label, sizeof l->label, "%s", label);
    for (uint32_t k = 0; k < l->state_count; k++) {
        const char *name = rune_graph_state_name(g, layer, k);
        snprintf(l->state_names[k], TL_NAME, "%s", name && name[0] ? name : "state");
    }
    t->layer_count++;
    return l;
}

/* The blend space of a motion play, when its root node is one. */
static tl_blend *blend_for(collector *c, const char *track, uint32_t motion)
{
    timeline *t = c->t;
    for (size_t i = 0; i < t->blend_count; i++)
        if (strcmp(t->blends[i].label, track) == 0)
            return &t->blends[i];
    if (t->blend_count == TL_MAX_BLENDS || motion >= c->s->motion_count)
        return NULL;
    const rune_scenario_motion *m = &c->s->motions[motion];
    const rune_motion_node_desc *root = m->node_count ? &m->nodes[0] : NULL;
    if (!root || (root->kind != RUNE_MOTION_BLEND1D && root->kind != RUNE_MOTION_BLEND2D))
        return NULL;
    tl_blend *b = &t->blends[t->blend_count];
    b->param = calloc(2 * t->frames + 1, sizeof *b->param);
    b->weight = calloc(TL_MAX_SAMPLES * t->frames + 1, sizeof *b->weight);
    b->live = calloc(t->frames + 1, sizeof *b->live);
    if (!b->param || !b->weight || !b->live) {
        c->nomem = true;
        free(b->param), free(b->weight), free(b->live);
        memset(b, 0, sizeof *b);
        return NULL;
    }
    snprintf(b->label, sizeof b->label, "%s", track);
    b->dims = root->kind == RUNE_MOTION_BLEND2D ? 2 : 1;
    snprintf(b->param_names[0], TL_NAME, "%s", c->s->params[root->param_x]);
    snprintf(b->param_names[1], TL_NAME, "%s", b->dims == 2 ? c->s->params[root->param_y] : "");
    b->sample_count = root->sample_count < TL_MAX_SAMPLES ? root->sample_count : TL_MAX_SAMPLES;
    for (size_t k = 0; k < b->sample_count; k++) {
        const rune_motion_sample_desc *smp = &root->samples[k];
        b->pos[k] = b->dims == 2 ? smp->position : (rune_vec2){smp->threshold, 0};
        snprintf(b->sample_names[k], TL_NAME, "%s",
                 smp->child < 0 && smp->clip < c->s->clip_count ? c->s->clips[smp->clip].id : "(node)");
    }
    t->blend_count++;
    return b;
}

/* Graph layers and blend spaces of the frame's live plays. */
static void collect_sources(collector *c, const rune_frame_report *r, size_t f)
{
    for (size_t i = 0; i < r->source_count; i++) {
        const rune_scenario_source *src = &r->sources[i];
        if (src->view.instance) {
            const rune_graph *g = rune_graph_instance_graph(src->view.instance);
            for (uint32_t L = 0; L < rune_graph_layer_count(g); L++) {
                tl_layer *l = layer_for(c, src->name, g, L);
                if (!l)
                    continue;
                rune_graph_layer_view v = rune_graph_layer_view_of(src->view.instance, L);
                l->state[f] = (int16_t)v.state;
                l->from[f] = (int16_t)v.from_state;
                l->alpha[f] = v.alpha;
                l->weight[f] = v.weight * src->view.weight;
                l->interrupted[f] = v.interrupted;
            }
        }
        if (src->view.player && src->view.kind == RUNE_SOURCE_MOTION) {
            tl_blend *b = blend_for(c, src->name, src->view.index);
            if (!b)
                continue;
            const rune_motion_node_desc *root = &c->s->motions[src->view.index].nodes[0];
            b->live[f] = true;
            b->param[2 * f] = rune_character_param(r->character, src->view.handle, root->param_x);
            b->param[2 * f + 1] = b->dims == 2 ? rune_character_param(r->character, src->view.handle, root->param_y) : 0;
            /* leaves in sample order when every sample is a clip */
            size_t leaves = rune_motion_player_leaf_count(src->view.player);
            for (size_t k = 0; k < b->sample_count && k < leaves; k++)
                b->weight[f * TL_MAX_SAMPLES + k] = rune_motion_player_leaf_weight(src->view.player, k);
        }
    }
}

static void add_event(collector *c, size_t f, const rune_scenario_event *e)
{
    timeline *t = c->t;
    if (t->event_count == t->event_cap) {
        size_t cap = t->event_cap ? 2 * t->event_cap : 64;
        tl_event *grown = realloc(t->events, cap * sizeof *grown);
        if (!grown) {
            c->nomem = true;
            return;
        }
        t->events = grown;
        t->event_cap = cap;
    }
    tl_event *out = &t->events[t->event_count++];
    out->frame = f;
    out->kind = e->kind;
    snprintf(out->source, TL_NAME, "%s", e->source ? e->source : "");
    snprintf(out->name, TL_NAME, "%s", e->name ? e->name : "");
    snprintf(out->value, TL_NAME, "%s", e->value ? e->value : "");
}

/* The scenario clip a play's source clip is (by id), or -1. */
static int32_t scenario_clip(const rune_scenario *s, const rune_clip *c)
{
    for (size_t i = 0; i < s->clip_count; i++)
        if (strcmp(s->clips[i].id, rune_clip_id(c)) == 0)
            return (int32_t)i;
    return -1;
}

/* The source skeleton's rig, arrays and scale (to the target's height),
 * made for the first source rig a frame shows. */
static bool source_begin(collector *c, const rune_rig *target, int32_t rig)
{
    timeline *t = c->t;
    const rune_scenario_rig *sr = &c->s->source_rigs[rig];
    if (rune_rig_create(sr->joints, sr->joint_count, NULL, &c->source, NULL))
        return false;
    size_t n = rune_rig_joint_count(c->source);
    c->source_rig = rig;
    c->source_bind = calloc(c->s->clip_count + 1, sizeof *c->source_bind);
    c->source_mats = calloc(n + 1, sizeof *c->source_mats);
    t->source_parent = calloc(n + 1, sizeof *t->source_parent);
    t->source_pos = calloc(t->frames * n + 1, sizeof *t->source_pos);
    t->source_live = calloc(t->frames + 1, sizeof *t->source_live);
    if (!c->source_bind || !c->source_mats || !t->source_parent || !t->source_pos || !t->source_live ||
        rune_pose_init(&c->source_pose, n, NULL, NULL))
        return false;
    t->source_joints = n;
    for (size_t j = 0; j < n; j++)
        t->source_parent[j] = rune_rig_parent(c->source, j);
    snprintf(t->source_label, TL_NAME, "source rig \"%s\"", sr->id);
    float hs = rune_rig_height(c->source), ht = rune_rig_height(target);
    c->source_scale = hs > 0.0f && ht > 0.0f ? ht / hs : 1.0f;
    c->source_shift = rune_v3(-1.2f * (ht > 0.0f ? ht : 1.0f), 0.0f, 0.0f);
    return true;
}

/* The first live retargeted play, sampled on its source rig. */
static void collect_source(collector *c, const rune_frame_report *r, size_t f)
{
    const rune_scenario *s = c->s;
    for (size_t i = 0; i < r->source_count; i++) {
        const rune_track *tr = r->sources[i].view.track;
        if (!tr || !rune_binding_retarget_id(tr->binding))
            continue;
        const rune_clip *clip = rune_binding_source_clip(tr->binding);
        int32_t k = scenario_clip(s, clip), rig = k >= 0 && s->clip_rig ? s->clip_rig[k] : -1;
        if (rig < 0 || (c->source_rig >= 0 && rig != c->source_rig))
            continue;
        if (c->source_rig < 0 && !source_begin(c, r->rig, rig)) {
            c->nomem = true;
            return;
        }
        if (!c->source_bind[k] && rune_binding_create(c->source, clip, NULL, NULL, &c->source_bind[k], NULL)) {
            c->nomem = true;
            return;
        }
        rune_binding_sample(c->source_bind[k], rune_track_sample_time(tr), &c->source_pose);
        rune_rig_model_matrices(c->source, &c->source_pose, c->source_mats);
        size_t n = c->t->source_joints, J = c->t->joints;
        /* set beside the target: scaled, its horizontal centre on the
         * target's (so its travel, which the target's root motion took
         * out, does not carry it away), then shifted one height along X */
        rune_vec3 mine = rune_v3(0, 0, 0), theirs = rune_v3(0, 0, 0);
        for (size_t j = 0; j < n; j++) {
            rune_vec3 p = rune_v3(c->source_mats[j].m[12], c->source_mats[j].m[13], c->source_mats[j].m[14]);
            c->t->source_pos[f * n + j] = rune_v3_scale(p, c->source_scale);
            mine = rune_v3_add(mine, rune_v3_scale(c->t->source_pos[f * n + j], 1.0f / (float)n));
        }
        for (size_t j = 0; j < J; j++)
            theirs = rune_v3_add(theirs, rune_v3_scale(c->t->pos[f * J + j], 1.0f / (float)J));
        rune_vec3 move = rune_v3_add(rune_v3(theirs.x - mine.x, 0, theirs.z - mine.z), c->source_shift);
        for (size_t j = 0; j < n; j++)
            c->t->source_pos[f * n + j] = rune_v3_add(c->t->source_pos[f * n + j], move);
        c->t->source_live[f] = true;
        return;
    }
}

/* The live solver controls of a frame: each gets its arrays the first
 * frame it is set. */
static void collect_controls(collector *c, const rune_frame_report *r, size_t f)
{
    timeline *t = c->t;
    for (size_t i = 0; i < r->control_count; i++) {
        const rune_scenario_control *rc = &r->controls[i];
        size_t k = 0;
        while (k < t->control_count && strcmp(t->controls[k].name, rc->name) != 0)
            k++;
        if (k == t->control_count) {
            if (k == TL_MAX_CONTROLS)
                continue;
            tl_control *n = &t->controls[k];
            size_t frames = t->frames + 1;
            n->target = calloc(frames, sizeof *n->target);
            n->effector = calloc(frames, sizeof *n->effector);
            n->pole = calloc(frames, sizeof *n->pole);
            n->error = calloc(frames, sizeof *n->error);
            n->live = calloc(frames, sizeof *n->live);
            if (!n->target || !n->effector || !n->pole || !n->error || !n->live) {
                free(n->target), free(n->effector), free(n->pole), free(n->error), free(n->live);
                memset(n, 0, sizeof *n);
                c->nomem = true;
                return;
            }
            snprintf(n->name, TL_NAME, "%s", rc->name);
            t->control_count++;
        }
        tl_control *ctl = &t->controls[k];
        ctl->mode = rc->mode;
        ctl->joint = rc->joint;
        ctl->has_pole |= rc->mode != RUNE_CONTROL_AIM && rc->state.has_pole; /* an aim's pole is a direction */
        ctl->target[f] = rc->state.target;
        ctl->effector[f] = rc->state.effector;
        ctl->pole[f] = rc->state.pole;
        ctl->error[f] = rc->state.error;
        ctl->live[f] = true;
    }
}

static bool has_source_rigs(const collector *c) { return c->s->source_rig_count > 0; }

static rune_status on_frame(void *user, const rune_frame_report *r)
{
    collector *c = user;
    timeline *t = c->t;
    if ((size_t)r->frame < t->first_frame || (size_t)r->frame >= t->first_frame + t->frames)
        return RUNE_OK;
    if (!rune_frame_report_finite(r, NULL, 0)) {
        c->nonfinite = true;
        return RUNE_E_INVALID;
    }
    if (!t->parent) {
        c->mats = calloc(rune_rig_joint_count(r->rig) + 1, sizeof *c->mats);
        if (!c->mats || !alloc_rig(t, r->rig)) {
            c->nomem = true;
            return RUNE_E_NOMEM;
        }
    }
    size_t f = (size_t)r->frame - t->first_frame, J = t->joints;
    if (c->progress)
        cli_progress(c->progress, f + 1, t->frames);
    for (size_t j = 0; j < J; j++) {
        rune_quat q = rune_pose_r(r->pose, j);
        size_t at = f * J + j;
        t->local_t[at] = rune_pose_t(r->pose, j);
        t->local_r[at] = q;
        t->local_s[at] = rune_pose_s(r->pose, j);
        t->angle[at] = (float)(2.0 * atan2(sqrt(q.x * q.x + q.y * q.y + q.z * q.z), fabs(q.w)) * 180.0 / 3.14159265358979);
        t->coverage[at] = r->pose->coverage[j];
    }
    /* model positions from the matrices: what a renderer skins with,
     * scale included */
    rune_rig_model_matrices(r->rig, r->pose, c->mats);
    for (size_t j = 0; j < J; j++) {
        t->pos[f * J + j] = rune_v3(c->mats[j].m[12], c->mats[j].m[13], c->mats[j].m[14]);
        float *m = t->model ? &t->model[12 * (f * J + j)] : NULL;
        for (int col = 0; m && col < 4; col++)
            for (int e = 0; e < 3; e++)
                m[3 * col + e] = c->mats[j].m[4 * col + e];
    }
    for (size_t k = 0; k < t->curve_count && k < r->pose->curve_count; k++) {
        t->curve[f * t->curve_count + k] = r->pose->curve[k];
        t->curve_cov[f * t->curve_count + k] = r->pose->curve_cov[k];
    }
    t->root[3 * f] = r->root_motion.dx;
    t->root[3 * f + 1] = r->root_motion.dz;
    t->root[3 * f + 2] = r->root_motion.yaw;
    t->inertia[f] = r->inertia_left > 0 ? r->inertia_angle : 0.0f;
    t->inertialized |= r->inertia_left > 0;
    for (size_t i = 0; i < r->weight_count; i++) {
        size_t k = 0;
        while (k < t->series_count && strcmp(t->series_names[k], r->weights[i].source) != 0)
            k++;
        if (k == t->series_count) {
            if (k == TL_MAX_SERIES)
                continue;
            snprintf(t->series_names[k], TL_NAME, "%s", r->weights[i].source);
            t->series_count++;
        }
        t->series[f * TL_MAX_SERIES + k] = r->weights[i].weight;
    }
    for (size_t i = 0; i < r->event_count; i++)
        add_event(c, f, &r->events[i]);
    collect_sources(c, r, f);
    collect_controls(c, r, f);
    if (has_source_rigs(c))
        collect_source(c, r, f);
    return c->nomem ? RUNE_E_NOMEM : RUNE_OK;
}

int timeline_collect(timeline *t, const rune_scenario *s, size_t first, size_t last, const char *progress,
                     char *msg, size_t msg_size)
{
    t->title = s->file;
    t->dt = s->dt;
    t->scaled = s->uses_scale;
    size_t frames = (size_t)s->frames;
    t->first_frame = first < frames ? first : frames;
    t->frames = (last < frames ? last : frames) - t->first_frame;
    collector c = {t, s, NULL, progress, false, false, -1, NULL, NULL, {0}, NULL, 1.0f, {0, 0, 0}};
    rune_error err = {0};
    rune_status st = rune_scenario_run(s, NULL, on_frame, &c, &err);
    free(c.mats);
    for (size_t i = 0; c.source_bind && i < s->clip_count; i++)
        rune_binding_destroy(c.source_bind[i]);
    free(c.source_bind), free(c.source_mats);
    rune_pose_release(&c.source_pose);
    rune_rig_destroy(c.source);
    if (c.nonfinite) {
        snprintf(msg, msg_size, "%s: internal error: a non-finite number in the evaluated frames", s->file);
        return EXIT_INTERNAL;
    }
    if (c.nomem) {
        snprintf(msg, msg_size, "%s: out of memory", s->file);
        return EXIT_INTERNAL;
    }
    if (st) {
        snprintf(msg, msg_size, "%s", err.message);
        return cli_exit_for(st);
    }
    if (!t->parent) { /* no frame evaluated: the rig still names the joints */
        rune_library *lib;
        if (rune_scenario_library(s, NULL, &lib, &err) == RUNE_OK) {
            bool ok = alloc_rig(t, rune_library_rig(lib));
            rune_library_destroy(lib);
            if (!ok) {
                snprintf(msg, msg_size, "%s: out of memory", s->file);
                return EXIT_INTERNAL;
            }
        }
    }
    return EXIT_OK;
}

void timeline_free(timeline *t)
{
    free(t->parent), free(t->joint_names), free(t->rest), free(t->rest_s);
    eval_meshes_close(t->mesh_source);
    free(t->pos), free(t->model), free(t->local_t), free(t->local_r), free(t->local_s), free(t->angle), free(t->coverage);
    free(t->root), free(t->inertia), free(t->series), free(t->events);
    free(t->curve_names), free(t->curve), free(t->curve_cov);
    for (size_t i = 0; i < t->layer_count; i++) {
        tl_layer *l = &t->layers[i];
        free(l->state), free(l->from), free(l->alpha), free(l->weight), free(l->interrupted), free(l->state_names);
    }
    for (size_t i = 0; i < t->blend_count; i++)
        free(t->blends[i].param), free(t->blends[i].weight), free(t->blends[i].live);
    for (size_t i = 0; i < t->control_count; i++) {
        tl_control *k = &t->controls[i];
        free(k->target), free(k->effector), free(k->pole), free(k->error), free(k->live);
    }
    free(t->source_parent), free(t->source_pos), free(t->source_live);
    memset(t, 0, sizeof *t);
}

/* --clip: the index of the clip named `want` among `count` ids (0 when
 * none is wanted); count when no clip has the id, with a message listing
 * them. */
static size_t pick_clip(const char *file, const char *want, const char *(*id_of)(const void *, size_t),
                        const void *from, size_t count, char *msg, size_t msg_size)
{
    if (!want)
        return 0;
    for (size_t c = 0; c < count; c++)
        if (strcmp(id_of(from, c), want) == 0)
            return c;
    int at = snprintf(msg, msg_size, "%s: --clip: no clip \"%s\" (the clips are", file, want);
    for (size_t c = 0; c < count && at >= 0 && (size_t)at < msg_size; c++)
        at += snprintf(msg + at, msg_size - (size_t)at, "%s \"%s\"", c ? "," : "", id_of(from, c));
    if (at >= 0 && (size_t)at < msg_size)
        snprintf(msg + at, msg_size - (size_t)at, "%s)", count ? "" : " none");
    return count;
}

static const char *asset_clip_id(const void *a, size_t c) { return rune_clip_id(rune_asset_clip(a, c)); }
static const char *import_clip_id(const void *imp, size_t c) { return ((const rune_import *)imp)->clips[c].id; }

/* Appends `id` to `out` as a JSON string's contents. */
static void put_json_text(FILE *out, const char *id)
{
    for (const unsigned char *c = (const unsigned char *)id; *c; c++)
        if (*c == '"' || *c == '\\')
            fprintf(out, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(out, "\\u%04x", *c);
        else
            fputc(*c, out);
}

/* A .rune asset (its bytes, already read) played as a scenario: its rig
 * and every clip once, in turn (or only the one --clip names), at 30
 * frames a second (assets resolve beside the file). */
static rune_scenario *asset_scenario(const char *file, const char *data, size_t size, const char *want, char *msg,
                                     size_t msg_size, int *rc)
{
    rune_asset *a;
    rune_error err = {0};
    rune_status st = rune_asset_load_memory(data, size, file, NULL, &a, &err);
    if (st) {
        snprintf(msg, msg_size, "%s", err.message);
        *rc = cli_exit_for(st);
        return NULL;
    }
    size_t count = rune_asset_clip_count(a), pick = pick_clip(file, want, asset_clip_id, a, count, msg, msg_size);
    if (want && pick == count) {
        rune_asset_destroy(a);
        *rc = EXIT_INPUT;
        return NULL;
    }
    const char *base = strrchr(file, '/');
    char *text = NULL;
    size_t length = 0;
    FILE *f = open_memstream(&text, &length);
    long frame = 0;
    if (f) {
        fputs("{\"assets\": [\"", f);
        put_json_text(f, base ? base + 1 : file);
        fputs("\"], \"commands\": [", f);
        for (size_t c = want ? pick : 0; c < (want ? pick + 1 : count); c++) {
            const rune_clip *clip = rune_asset_clip(a, c);
            fprintf(f, "%s{\"frame\": %ld, \"play\": \"", frame ? ", " : "", frame);
            put_json_text(f, rune_clip_id(clip));
            fputs("\", \"fade\": 0}", f);
            frame += (long)ceil(rune_clip_length(clip) * 30.0) + 1;
        }
        fprintf(f, "], \"dt\": %.9g, \"frames\": %ld}", 1.0 / 30.0, frame ? frame : 1);
    }
    rune_asset_destroy(a);
    rune_scenario *s = NULL;
    if (!f || fclose(f)) {
        snprintf(msg, msg_size, "%s: out of memory", file);
        *rc = EXIT_INTERNAL;
    } else if ((st = rune_scenario_load_string(text, length, file, 0, NULL, &s, &err))) {
        snprintf(msg, msg_size, "%s", err.message);
        *rc = cli_exit_for(st);
    }
    free(text);
    return s;
}

/* An importable asset as the scenario `rune import --json` writes
 * (playing the clip --clip names, if one). */
static rune_scenario *import_scenario(const char *file, const char *want, char *msg, size_t msg_size, int *rc)
{
    rune_import *imp;
    rune_error err = {0};
    rune_status st = rune_import_file(file, NULL, &imp, &err);
    if (st) {
        snprintf(msg, msg_size, "%s", err.message);
        *rc = cli_exit_for(st);
        return NULL;
    }
    for (size_t i = 0; i < imp->warning_count; i++)
        cli_warning("%s: %s", file, imp->warnings[i]);
    size_t pick = pick_clip(file, want, import_clip_id, imp, imp->clip_count, msg, msg_size);
    if (want && pick == imp->clip_count) {
        rune_import_destroy(imp);
        *rc = EXIT_INPUT;
        return NULL;
    }
    rune_document_desc doc = {imp->source, imp->joints, imp->joint_count, imp->clips, imp->clip_count,
                              imp->root_joint, pick};
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    rune_scenario *s = NULL;
    if (!f || rune_scenario_write(&doc, f, &err) || fclose(f)) {
        snprintf(msg, msg_size, "%s: out of memory", file);
        *rc = EXIT_INTERNAL;
    } else if ((st = rune_scenario_load_string(text, size, file, 0, NULL, &s, &err))) {
        snprintf(msg, msg_size, "%s", err.message);
        *rc = cli_exit_for(st);
    }
    free(text);
    rune_import_destroy(imp);
    return s;
}

rune_scenario *timeline_load(const char *file, bool strict, const char *clip, char *msg, size_t msg_size, int *rc)
{
    size_t size;
    char *data = cli_read_input(file, &size, msg, msg_size);
    if (!data) {
        *rc = EXIT_IO;
        return NULL;
    }
    cli_input_kind kind = cli_input_kind_of(file, data, size);
    rune_scenario *s = NULL;
    if (kind == CLI_INPUT_SCENARIO && clip) {
        snprintf(msg, msg_size, "%s: --clip picks an asset's clip; a scenario plays its own commands", file);
        *rc = EXIT_INPUT;
    } else if (kind == CLI_INPUT_SCENARIO) {
        s = cli_scenario_from(file, data, size, strict, msg, msg_size, rc);
    } else if (strcmp(file, "-") == 0) {
        snprintf(msg, msg_size, "<stdin>: not a scenario (assets are given by file name)");
        *rc = EXIT_INPUT;
    } else {
        s = kind == CLI_INPUT_ASSET ? asset_scenario(file, data, size, clip, msg, msg_size, rc)
                                    : import_scenario(file, clip, msg, msg_size, rc);
    }
    free(data);
    return s;
}

int timeline_begin(const tool_input *in, const char *progress, rune_scenario **s, cli_output *o, timeline *t,
                   char *msg, size_t msg_size)
{
    int rc;
    memset(t, 0, sizeof *t);
    if (!(*s = timeline_load(in->file, in->strict, in->clip, msg, msg_size, &rc)))
        return rc;
    const char *inputs[] = {in->file, NULL};
    if ((rc = cli_output_open(o, in->out, inputs, in->force, msg, msg_size))) {
        rune_scenario_destroy(*s);
        *s = NULL;
        return rc;
    }
    /* a mesh that cannot be read only leaves the drawing without it */
    char ignored[512];
    int mesh_rc = 0;
    t->mesh_source = eval_meshes_open(in->file, *s, 1, RUNE_SKIN_LINEAR, false, ignored, sizeof ignored, &mesh_rc);
    if (t->mesh_source)
        t->meshes = eval_meshes_list(t->mesh_source, &t->mesh_count);
    if ((rc = timeline_collect(t, *s, in->first, in->last, progress, msg, msg_size))) {
        cli_output_abort(o);
        timeline_free(t);
        rune_scenario_destroy(*s);
        *s = NULL;
    }
    return rc;
}
