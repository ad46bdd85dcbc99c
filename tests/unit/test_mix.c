/* Unit tests of src/mix: per-joint priority composition, hemisphere
 * alignment, controls, the animator's final pass, signal delivery after
 * composition, and zero allocations per frame. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rune/mix.h"
#include "counting_alloc.h"
#include "test_levels.h"
#include "test_random.h"
#include "mix/mix_internal.h"

#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))

static rune_pose one_joint(float tx, rune_quat r, float cov)
{
    rune_pose p;
    assert_int_equal(rune_pose_init(&p, 1, NULL, NULL), RUNE_OK);
    rune_pose_set_t(&p, 0, rune_v3(tx, 0, 0));
    rune_pose_set_r(&p, 0, r);
    p.coverage[0] = cov;
    return p;
}

static void test_high_priority_partial_coverage(void **state)
{
    (void)state;
    rune_pose low = one_joint(4, rune_q_identity(), 1), high = one_joint(8, rune_q_identity(), 0.25f), out;
    assert_int_equal(rune_pose_init(&out, 1, NULL, NULL), RUNE_OK);
    /* listed high first: ranks, not list order, decide */
    rune_contribution cs[] = {{&high, 1.0f, RUNE_PRIORITY_ACTION, NULL}, {&low, 1.0f, RUNE_PRIORITY_IDLE, NULL}};
    size_t order[2];
    rune_mix_compose(cs, 2, RUNE_SIMD_AUTO, order, &out);
    /* low rank: 4 with coverage 1; high rank share .25 overlays: 4 + (8-4)*.25 = 5 */
    near(out.tx[0], 5, 1e-6f);
    near(out.coverage[0], 1, 1e-6f);
    rune_pose_release(&low);
    rune_pose_release(&high);
    rune_pose_release(&out);
}

static void test_equal_priority_mean(void **state)
{
    (void)state;
    rune_quat y90 = rune_q(0, 0.70710678f, 0, 0.70710678f);
    rune_pose a = one_joint(2, rune_q_identity(), 1), b = one_joint(6, y90, 1), out;
    assert_int_equal(rune_pose_init(&out, 1, NULL, NULL), RUNE_OK);
    rune_contribution cs[] = {{&a, 1.0f, 2, NULL}, {&b, 1.0f, 2, NULL}};
    size_t order[2];
    rune_mix_compose(cs, 2, RUNE_SIMD_AUTO, order, &out);
    /* one mean: (2 + 6) / 2 = 4; coverage min(1, 2) = 1;
     * rotation: normalize((0,0,0,1) + (0,.7071,0,.7071)) = 45 deg about Y */
    near(out.tx[0], 4, 1e-6f);
    near(out.coverage[0], 1, 0);
    near(out.qy[0], 0.38268343f, 1e-6f);
    near(out.qw[0], 0.92387953f, 1e-6f);
    /* weights .75 and .25 (shares): t = (.75*2 + .25*6) / 1 = 3 */
    cs[0].weight = 0.75f;
    cs[1].weight = 0.25f;
    rune_mix_compose(cs, 2, RUNE_SIMD_AUTO, order, &out);
    near(out.tx[0], 3, 1e-6f);
    rune_pose_release(&a);
    rune_pose_release(&b);
    rune_pose_release(&out);
}

static void test_opposite_sign_quaternions(void **state)
{
    (void)state;
    rune_quat q = rune_q(0, 0.38268343f, 0, 0.92387953f);
    rune_pose a = one_joint(0, q, 1), b = one_joint(0, rune_q_negate(q), 1), out;
    assert_int_equal(rune_pose_init(&out, 1, NULL, NULL), RUNE_OK);
    rune_contribution cs[] = {{&a, 1.0f, 0, NULL}, {&b, 1.0f, 0, NULL}};
    size_t order[2];
    rune_mix_compose(cs, 2, RUNE_SIMD_AUTO, order, &out);
    /* q and -q are one rotation: the mean is q, not a cancelled zero */
    near(fabsf(rune_q_dot(rune_pose_r(&out, 0), q)), 1, 1e-6f);
    rune_pose_release(&a);
    rune_pose_release(&b);
    rune_pose_release(&out);
}

static void test_uncovered_joint_does_not_reset(void **state)
{
    (void)state;
    rune_pose low = one_joint(4, rune_q_identity(), 1), high = one_joint(0, rune_q_identity(), 0), out;
    assert_int_equal(rune_pose_init(&out, 1, NULL, NULL), RUNE_OK);
    rune_contribution cs[] = {{&low, 1.0f, 0, NULL}, {&high, 1.0f, 6, NULL}};
    size_t order[2];
    rune_mix_compose(cs, 2, RUNE_SIMD_AUTO, order, &out);
    near(out.tx[0], 4, 0); /* the identity storage of the unkeyed joint is ignored */
    rune_pose_release(&low);
    rune_pose_release(&high);
    rune_pose_release(&out);
}

static void test_controls_in_priority_order(void **state)
{
    (void)state;
    rune_pose p = one_joint(0, rune_q_identity(), 0);
    rune_control cs[] = {
        {1, 0, 5, RUNE_CONTROL_OVERRIDE, {{10, 0, 0}, {0, 0, 0, 1}}, 0.5f, true, false},
        {2, 0, 1, RUNE_CONTROL_OFFSET, {{2, 0, 0}, {0, 0, 0, 1}}, 1.0f, false, false},
    };
    size_t order[2];
    rune_controls_apply(NULL, cs, 2, order, NULL, &p);
    /* priority 1 first: 0 + 2 = 2 (coverage 0 -> 1); then priority 5:
     * 2 + (10 - 2) * .5 = 6 */
    near(p.tx[0], 6, 1e-6f);
    near(p.coverage[0], 1, 1e-6f);
    rune_pose_release(&p);
}

typedef struct scene {
    rune_rig *rig;
    rune_clip *clip;
    rune_binding *binding;
} scene;

static void make_scene(scene *s, const rune_allocator *alloc, bool loop)
{
    static const rune_joint_desc joints[] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}},
                                             {"Arm", "Root", {{0, 1, 0}, {0, 0, 0, 1}}}};
    static rune_key_pose_desc p0[1], p1[1];
    p0[0] = (rune_key_pose_desc){"Root", "Arm", {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
    p1[0] = p0[0];
    p1[0].t.x = 1;
    static rune_keyframe_desc kf[2];
    kf[0] = (rune_keyframe_desc){0.0f, p0, 1};
    kf[1] = (rune_keyframe_desc){1.0f, p1, 1};
    static const rune_marker_desc m[] = {{0.5f, "Mid", ""}};
    rune_sequence_desc d = {"c", 0, loop, 0, kf, 2, m, 1};
    assert_int_equal(rune_rig_create(joints, 2, alloc, &s->rig, NULL), RUNE_OK);
    assert_int_equal(rune_clip_compile(&d, alloc, &s->clip, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(s->rig, s->clip, 0, alloc, &s->binding, NULL), RUNE_OK);
}

static void free_scene(scene *s)
{
    rune_binding_destroy(s->binding);
    rune_clip_destroy(s->clip);
    rune_rig_destroy(s->rig);
}

typedef struct seen {
    rune_animator *anim;
    float arm_x_at_marker;
    int markers, stops;
} seen;

static void on_signal(void *user, const rune_event *e)
{
    seen *s = user;
    if (e->kind == RUNE_EVENT_MARKER) {
        s->markers++;
        s->arm_x_at_marker = rune_animator_pose(s->anim)->tx[1];
    }
    s->stops += e->kind == RUNE_EVENT_STOPPED;
}

static void test_signal_sees_new_pose(void **state)
{
    (void)state;
    scene s;
    make_scene(&s, NULL, false);
    rune_animator *a;
    assert_int_equal(rune_animator_create(s.rig, 0, NULL, &a, NULL), RUNE_OK);
    rune_play_params p = {.fade = 0.0f, .weight = 1.0f, .speed = 1.0f, .time = 0.0f};
    assert_int_equal(rune_animator_play(a, s.binding, &p, NULL, NULL), RUNE_OK);
    seen sn = {a, -1, 0, 0};
    rune_animator_advance(a, 0.25f);
    assert_int_equal(rune_animator_evaluate(a, NULL, 0, NULL), RUNE_OK);
    rune_animator_deliver(a, on_signal, &sn);
    assert_int_equal(sn.markers, 0);
    rune_animator_advance(a, 0.25f); /* crosses Mid at .5 */
    assert_int_equal(rune_animator_evaluate(a, NULL, 0, NULL), RUNE_OK);
    rune_animator_deliver(a, on_signal, &sn);
    assert_int_equal(sn.markers, 1);
    near(sn.arm_x_at_marker, 0.5f, 1e-6f); /* the pose of this frame, not the last */
    rune_animator_destroy(a);
    free_scene(&s);
}

static void test_final_pass_after_last_track(void **state)
{
    (void)state;
    scene s;
    make_scene(&s, NULL, true);
    rune_animator *a;
    assert_int_equal(rune_animator_create(s.rig, 0, NULL, &a, NULL), RUNE_OK);
    rune_play_params p = {.fade = 0.0f, .weight = 1.0f, .speed = 1.0f, .time = 0.0f};
    uint32_t h;
    assert_int_equal(rune_animator_play(a, s.binding, &p, &h, NULL), RUNE_OK);
    seen sn = {a, 0, 0, 0};
    rune_animator_advance(a, 0.5f);
    rune_animator_evaluate(a, NULL, 0, NULL);
    near(rune_animator_pose(a)->tx[1], 0.5f, 1e-6f);
    assert_true(rune_animator_stop(a, h, 0.0f));
    rune_animator_advance(a, 0.1f); /* weight already 0: removed, stopped signal */
    assert_int_equal(rune_animator_track_count(a), 0);
    size_t passes = rune_animator_passes(a);
    rune_animator_evaluate(a, NULL, 0, NULL);
    rune_animator_deliver(a, on_signal, &sn);
    assert_int_equal(sn.stops, 1);
    assert_int_equal(rune_animator_passes(a), passes + 1); /* the final pass ran */
    near(rune_animator_pose(a)->tx[1], 0, 0);            /* not frozen at .5 */
    near(rune_animator_pose(a)->coverage[1], 0, 0);
    rune_animator_evaluate(a, NULL, 0, NULL);
    assert_int_equal(rune_animator_passes(a), passes + 1); /* then idle */
    assert_false(rune_animator_stop(a, h, 0.0f));
    rune_animator_destroy(a);
    free_scene(&s);
}

static void test_no_allocation_per_frame(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    scene s;
    make_scene(&s, &ca.iface, true);
    rune_animator *a;
    assert_int_equal(rune_animator_create(s.rig, 0, &ca.iface, &a, NULL), RUNE_OK);
    uint32_t h[5];
    for (int i = 0; i < 5; i++) {
        rune_play_params p = {.fade = 0.1f, .weight = 0.5f, .speed = 1.0f + 0.1f * (float)i, .time = 0.0f};
        assert_int_equal(rune_animator_play(a, s.binding, &p, &h[i], NULL), RUNE_OK);
    }
    rune_control c = {1, 1, 0, RUNE_CONTROL_OFFSET, {{0, 0, 0}, {0, 0.1f, 0, 0.995f}}, 1.0f, false, false};
    assert_int_equal(rune_animator_set_control(a, &c, NULL), RUNE_OK);
    /* warm-up frame */
    rune_animator_advance(a, 1.0f / 60.0f);
    rune_animator_evaluate(a, NULL, 0, NULL);
    rune_animator_deliver(a, NULL, NULL);
    size_t before = ca.allocs;
    for (int f = 0; f < 1000; f++) {
        if (f == 500) {
            rune_adjust_params adj = {true, 1.0f, 0.2f, true, -1.0f};
            rune_animator_adjust(a, h[2], &adj);
        }
        rune_animator_advance(a, 1.0f / 60.0f);
        rune_animator_evaluate(a, NULL, 0, NULL);
        rune_animator_deliver(a, NULL, NULL);
    }
    assert_int_equal(ca.allocs, before);
    rune_animator_destroy(a);
    free_scene(&s);
    assert_int_equal(ca.live_bytes, 0);
}

static rune_quat random_rotation(uint32_t *seed)
{
    return rune_q_normalize(rune_q(test_random(seed), test_random(seed), test_random(seed), test_random(seed) + 0.01f));
}

/* The composition rule (docs/semantics.md, "Mixing"), joint by joint and rank by rank, written
 * plainly: the weighted mean of a rank (shares clamped, quaternions flipped
 * into the running sum's hemisphere, normalized), overlaid by min(1, sum)
 * with an exact slerp. */
static void reference_compose(const rune_contribution *cs, size_t n, rune_pose *out)
{
    rune_pose_reset(out);
    for (int rank = 0; rank < RUNE_PRIORITY_COUNT; rank++)
        for (size_t j = 0; j < out->count; j++) {
            float sum = 0.0f;
            rune_vec3 at = rune_v3(0, 0, 0);
            rune_quat aq = rune_q(0, 0, 0, 0);
            for (size_t i = 0; i < n; i++) {
                int r = cs[i].priority < 0 ? 0 : (cs[i].priority > 6 ? 6 : cs[i].priority);
                const rune_pose *p = cs[i].pose;
                if (r != rank || j >= p->count)
                    continue;
                float share = rune_clamp01(cs[i].weight * p->coverage[j]);
                rune_quat q = rune_q_dot(aq, rune_pose_r(p, j)) < 0.0f ? rune_q_negate(rune_pose_r(p, j)) : rune_pose_r(p, j);
                aq = rune_q(aq.x + share * q.x, aq.y + share * q.y, aq.z + share * q.z, aq.w + share * q.w);
                at = rune_v3_add(at, rune_v3_scale(rune_pose_t(p, j), share));
                sum += share;
            }
            if (sum > 0.0f)
                rune_mix_overlay_joint(out, j, rune_v3_scale(at, 1.0f / sum), rune_q_normalize(aq),
                                       sum > 1.0f ? 1.0f : sum);
        }
}

/* Worst difference of two poses (rotations compared as rotations: q, -q). */
static float pose_difference(const rune_pose *a, const rune_pose *b)
{
    float worst = 0.0f;
    for (size_t j = 0; j < a->count; j++) {
        float sign = rune_q_dot(rune_pose_r(a, j), rune_pose_r(b, j)) < 0.0f ? -1.0f : 1.0f;
        float d[11] = {a->tx[j] - b->tx[j],        a->ty[j] - b->ty[j],        a->tz[j] - b->tz[j],
                       a->qx[j] - sign * b->qx[j], a->qy[j] - sign * b->qy[j], a->qz[j] - sign * b->qz[j],
                       a->qw[j] - sign * b->qw[j], a->sx[j] - b->sx[j],        a->sy[j] - b->sy[j],
                       a->sz[j] - b->sz[j],        a->coverage[j] - b->coverage[j]};
        for (int k = 0; k < 11; k++)
            worst = fmaxf(worst, fabsf(d[k]));
    }
    return worst;
}

/* Six poses of 70 joints (two chunks, not a multiple of the lane width) in
 * three ranks: weights above 1, 0 and partial; coverage 0, 1 and between;
 * rotations anywhere (so partial overlays take both the series slerp and
 * the exact one). Every kernel level gives the same pose, and it is the
 * reference's. */
static void test_compose_levels_match_reference(void **state)
{
    (void)state;
    enum { JOINTS = 70, N = 6 };
    uint32_t seed = 99;
    rune_pose poses[N], out[RUNE_SIMD_LEVEL_COUNT], ref;
    rune_contribution cs[N];
    const int ranks[N] = {3, 1, 3, 5, 1, 3};
    const float weights[N] = {1.0f, 0.7f, 0.4f, 1.5f, 0.0f, 0.3f};
    for (int i = 0; i < N; i++) {
        assert_int_equal(rune_pose_init(&poses[i], JOINTS - (i == 2 ? 9 : 0), NULL, NULL), RUNE_OK);
        for (size_t j = 0; j < poses[i].count; j++) {
            rune_pose_set_t(&poses[i], j, rune_v3(test_random(&seed), test_random(&seed), test_random(&seed)));
            rune_pose_set_r(&poses[i], j, random_rotation(&seed));
            float c = test_random(&seed);
            poses[i].coverage[j] = c < -0.6f ? 0.0f : (c > 0.6f ? 1.0f : 0.5f + 0.5f * c);
        }
        cs[i] = (rune_contribution){&poses[i], weights[i], ranks[i], NULL};
    }
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    size_t order[N];
    for (size_t l = 0; l < count; l++) {
        assert_int_equal(rune_pose_init(&out[l], JOINTS, NULL, NULL), RUNE_OK);
        rune_mix_compose(cs, N, levels[l], order, &out[l]);
    }
    assert_int_equal(rune_pose_init(&ref, JOINTS, NULL, NULL), RUNE_OK);
    reference_compose(cs, N, &ref);
    for (size_t l = 1; l < count; l++) {
        float apart = pose_difference(&out[0], &out[l]);
        print_message("compose: %s differs from scalar by %.3g\n", rune_simd_name(levels[l]), apart);
        assert_true(apart <= test_level_tolerance(levels[l], 2.0f, 1.0f));
    }
    float from_ref = pose_difference(&out[0], &ref);
    print_message("compose: scalar differs from the reference rule by %.3g\n", from_ref);
    assert_true(from_ref <= 1e-6f);
    for (int i = 0; i < N; i++)
        rune_pose_release(&poses[i]);
    for (size_t l = 0; l < count; l++)
        rune_pose_release(&out[l]);
    rune_pose_release(&ref);
}

/* One graph layer joint by joint, written plainly (the rules for
 * override and additive layers). An override layer's weight w joins the
 * coverage below, c' = c + w (1 - c), and the transform moves toward the
 * layer's by its part of that coverage, w / c': the graph's pose stays
 * straight (docs/semantics.md), for the mixer to overlay by c' once. */
static void reference_layer(rune_pose *out, const rune_pose *p, const rune_pose *ref, const float *mask, float lw)
{
    for (size_t j = 0; j < out->count; j++) {
        float w = rune_clamp01(lw * mask[j] * p->coverage[j]);
        if (w <= 0.0f)
            continue;
        if (!ref) {
            float c = out->coverage[j] + w * (1.0f - out->coverage[j]);
            rune_pose_set_t(out, j, rune_v3_lerp(rune_pose_t(out, j), rune_pose_t(p, j), w / c));
            rune_pose_set_r(out, j, rune_q_slerp(rune_pose_r(out, j), rune_pose_r(p, j), w / c));
            out->coverage[j] = c;
            continue;
        }
        rune_quat dq = rune_q_normalize(rune_q_mul(rune_q_conjugate(rune_pose_r(ref, j)), rune_pose_r(p, j)));
        rune_pose_set_t(out, j, rune_v3_add(rune_pose_t(out, j), rune_v3_scale(rune_v3_sub(rune_pose_t(p, j), rune_pose_t(ref, j)), w)));
        rune_pose_set_r(out, j, rune_q_normalize(rune_q_mul(rune_pose_r(out, j), rune_q_slerp(rune_q_identity(), dq, w))));
        out->coverage[j] += w * (1.0f - out->coverage[j]);
    }
}

/* Override and additive layers over 70 joints with a mask (0, 1 and
 * between), partial coverage and rotations anywhere (so some deltas take
 * the exact slerp): every kernel level gives the same pose, the
 * reference's. */
static void test_layers_levels_match_reference(void **state)
{
    (void)state;
    enum { JOINTS = 70 };
    uint32_t seed = 3;
    rune_pose base, layer, ref, out[RUNE_SIMD_LEVEL_COUNT], expect;
    rune_pose *all[] = {&base, &layer, &ref};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(rune_pose_init(all[k], JOINTS, NULL, NULL), RUNE_OK);
        for (size_t j = 0; j < JOINTS; j++) {
            rune_pose_set_t(all[k], j, rune_v3(test_random(&seed), test_random(&seed), test_random(&seed)));
            rune_pose_set_r(all[k], j, random_rotation(&seed));
            float c = test_random(&seed);
            all[k]->coverage[j] = c < -0.5f ? 0.0f : (c > 0.5f ? 1.0f : 0.5f + 0.5f * c);
        }
    }
    float mask[JOINTS];
    for (size_t j = 0; j < JOINTS; j++)
        mask[j] = j % 4 == 0 ? 0.0f : (j % 4 == 1 ? 1.0f : 0.5f + 0.4f * test_random(&seed));
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    float from_ref = 0.0f;
    for (int additive = 0; additive < 2; additive++) {
        const rune_pose *r = additive ? &ref : NULL;
        assert_int_equal(rune_pose_init(&expect, JOINTS, NULL, NULL), RUNE_OK);
        rune_pose_copy(&expect, &base);
        reference_layer(&expect, &layer, r, mask, 0.8f);
        for (size_t l = 0; l < count; l++) {
            assert_int_equal(rune_pose_init(&out[l], JOINTS, NULL, NULL), RUNE_OK);
            rune_pose_copy(&out[l], &base);
            rune_mix_layer(&out[l], &layer, r, mask, 0.8f, levels[l]);
        }
        for (size_t l = 1; l < count; l++) {
            float apart = pose_difference(&out[0], &out[l]);
            print_message("%s layer: %s differs from scalar by %.3g\n", additive ? "additive" : "override",
                          rune_simd_name(levels[l]), apart);
            assert_true(apart <= test_level_tolerance(levels[l], 2.0f, 1.0f));
        }
        from_ref = fmaxf(from_ref, pose_difference(&out[0], &expect));
        assert_true(pose_difference(&out[0], &base) > 0.1f); /* the layer did something */
        /* a masked-out joint is left exactly as it was */
        rune_quat kept = rune_pose_r(&out[0], 4), was = rune_pose_r(&base, 4);
        assert_memory_equal(&kept, &was, sizeof kept);
        for (size_t l = 0; l < count; l++)
            rune_pose_release(&out[l]);
        rune_pose_release(&expect);
    }
    print_message("layers: scalar differs from the reference rule by %.3g\n", from_ref);
    assert_true(from_ref <= 1e-6f);
    /* a mask that ends at joint 40 (an upper body on a depth-first rig):
     * the joints past it are not mixed at all, and stay as they were to
     * the bit, the rest as the reference rule has them */
    for (size_t j = 40; j < JOINTS; j++)
        mask[j] = 0.0f;
    for (int additive = 0; additive < 2; additive++) {
        const rune_pose *r = additive ? &ref : NULL;
        assert_int_equal(rune_pose_init(&expect, JOINTS, NULL, NULL), RUNE_OK);
        assert_int_equal(rune_pose_init(&out[0], JOINTS, NULL, NULL), RUNE_OK);
        rune_pose_copy(&expect, &base);
        reference_layer(&expect, &layer, r, mask, 0.8f);
        rune_pose_copy(&out[0], &base);
        rune_mix_layer(&out[0], &layer, r, mask, 0.8f, RUNE_SIMD_AUTO);
        assert_true(pose_difference(&out[0], &expect) <= 1e-6f);
        const float *const got[8] = {out[0].tx, out[0].ty, out[0].tz, out[0].qx, out[0].qy, out[0].qz, out[0].qw,
                                     out[0].coverage};
        const float *const was[8] = {base.tx, base.ty, base.tz, base.qx, base.qy, base.qz, base.qw, base.coverage};
        for (int k = 0; k < 8; k++)
            assert_memory_equal(got[k] + 40, was[k] + 40, (JOINTS - 40) * sizeof(float));
        rune_pose_release(&out[0]);
        rune_pose_release(&expect);
    }
    for (int k = 0; k < 3; k++)
        rune_pose_release(all[k]);
}

/* A 24-joint chain, three clips: one on every joint, one on half the joints
 * with mask weights, one of another priority on a few joints with eased
 * keys; random rotations. The animator (samplers, kernels) against exact
 * sampling plus the reference rule, every frame, at every kernel level. */
static void test_animator_matches_reference(void **state)
{
    (void)state;
    enum { JOINTS = 24, KEYS = 40, CLIPS = 3 };
    static char names[JOINTS][8];
    rune_joint_desc jd[JOINTS];
    for (int j = 0; j < JOINTS; j++) {
        snprintf(names[j], sizeof names[j], "J%d", j);
        jd[j] = (rune_joint_desc){names[j], j ? names[j - 1] : NULL, {{0, 0.1f, 0}, {0, 0, 0, 1}}};
    }
    rune_rig *rig;
    assert_int_equal(rune_rig_create(jd, JOINTS, NULL, &rig, NULL), RUNE_OK);
    static rune_key_pose_desc poses[CLIPS][KEYS][JOINTS];
    static rune_keyframe_desc kf[CLIPS][KEYS];
    rune_clip *clips[CLIPS];
    rune_binding *bindings[CLIPS];
    uint32_t seed = 7;
    const int priorities[CLIPS] = {RUNE_PRIORITY_MOVEMENT, RUNE_PRIORITY_MOVEMENT, RUNE_PRIORITY_ACTION};
    for (int c = 0; c < CLIPS; c++) {
        for (int k = 0; k < KEYS; k++) {
            size_t n = 0;
            for (int j = 0; j < JOINTS; j++) {
                if ((c == 1 && j % 2) || (c == 2 && j % 5))
                    continue;
                rune_key_pose_desc *p = &poses[c][k][n++];
                *p = (rune_key_pose_desc){j ? names[j - 1] : "", names[j], {test_random(&seed), test_random(&seed), 0},
                                          random_rotation(&seed), 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN};
                if (c == 1)
                    p->mask_weight = 0.5f + 0.5f * test_random(&seed);
                if (c == 2 && k % 3 == 1)
                    p->easing = RUNE_EASE_CUBIC, p->direction = RUNE_EASE_INOUT;
            }
            kf[c][k] = (rune_keyframe_desc){(float)k * (0.05f + 0.01f * (float)c), poses[c][k], n};
        }
        char id[8];
        snprintf(id, sizeof id, "c%d", c);
        rune_sequence_desc d = {id, 1, c != 2, priorities[c], kf[c], KEYS, NULL, 0};
        assert_int_equal(rune_clip_compile(&d, NULL, &clips[c], NULL), RUNE_OK);
        assert_int_equal(rune_binding_create(rig, clips[c], 0, NULL, &bindings[c], NULL), RUNE_OK);
    }
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    float worst = 0.0f;
    for (size_t l = 0; l < count; l++) {
        rune_animator *a;
        assert_int_equal(rune_animator_create(rig, 0, NULL, &a, NULL), RUNE_OK);
        rune_animator_set_simd(a, levels[l]);
        const rune_play_params params[CLIPS] = {{.fade = 0.0f, .weight = 1.0f, .speed = 1.0f, .time = 0.0f}, {.fade = 0.5f, .weight = 0.8f, .speed = -0.7f, .time = 0.3f},
                                                {.fade = 0.2f, .weight = 0.6f, .speed = 1.3f, .time = 0.0f}};
        for (int c = 0; c < CLIPS; c++)
            assert_int_equal(rune_animator_play(a, bindings[c], &params[c], NULL, NULL), RUNE_OK);
        rune_pose sampled[CLIPS], ref;
        for (int c = 0; c < CLIPS; c++)
            assert_int_equal(rune_pose_init(&sampled[c], JOINTS, NULL, NULL), RUNE_OK);
        assert_int_equal(rune_pose_init(&ref, JOINTS, NULL, NULL), RUNE_OK);
        for (int f = 0; f < 150; f++) {
            rune_animator_advance(a, 1.0f / 60.0f);
            assert_int_equal(rune_animator_evaluate(a, NULL, 0, NULL), RUNE_OK);
            rune_animator_deliver(a, NULL, NULL);
            rune_contribution cs[CLIPS];
            size_t n = 0;
            for (size_t i = 0; i < rune_animator_slot_count(a); i++) {
                const rune_track *tr = rune_animator_slot(a, i);
                if (!tr)
                    continue;
                rune_binding_sample(tr->binding, tr->time, &sampled[n]);
                cs[n] = (rune_contribution){&sampled[n], tr->fade.weight, tr->priority, NULL};
                n++;
            }
            reference_compose(cs, n, &ref);
            worst = fmaxf(worst, pose_difference(rune_animator_pose(a), &ref));
        }
        for (int c = 0; c < CLIPS; c++)
            rune_pose_release(&sampled[c]);
        rune_pose_release(&ref);
        rune_animator_destroy(a);
    }
    print_message("animator against exact sampling and the reference rule: %.3g\n", worst);
    assert_true(worst <= 1e-6f);
    for (int c = 0; c < CLIPS; c++) {
        rune_binding_destroy(bindings[c]);
        rune_clip_destroy(clips[c]);
    }
    rune_rig_destroy(rig);
}

/* Scale through the mixing steps, worked by hand (docs/semantics.md,
 * "Scale"): a mean weights it like translation, an override layer lerps
 * it, an additive layer multiplies by its weighted ratio; an unscaled pose
 * counts as 1 1 1. Every kernel level. */
static void test_scale_mixing(void **state)
{
    (void)state;
    enum { J = 3 };
    rune_pose a, b, out, ref;
    assert_int_equal(rune_pose_init(&a, J, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&b, J, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&out, J, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&ref, J, NULL, NULL), RUNE_OK);
    for (size_t j = 0; j < J; j++) {
        rune_pose_set(&a, j, rune_v3(0, 0, 0), rune_q_identity(), 1.0f);
        rune_pose_set(&b, j, rune_v3(0, 0, 0), rune_q_identity(), 1.0f);
        rune_pose_set(&ref, j, rune_v3(0, 0, 0), rune_q_identity(), 1.0f);
    }
    rune_pose_set_s(&a, 1, rune_v3(3, 2, 1)); /* b stays unscaled */
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t count = test_levels(levels);
    for (size_t l = 0; l < count; l++) {
        /* mean, shares 3:1 -> (3 * [3,2,1] + [1,1,1]) / 4 */
        rune_contribution c[2] = {{&a, 0.75f, 0, NULL}, {&b, 0.25f, 0, NULL}};
        rune_mix_mean(c, 2, levels[l], &out);
        assert_true(out.scaled);
        near(out.sx[1], 2.5f, 1e-6f);
        near(out.sy[1], 1.75f, 1e-6f);
        near(out.sx[0], 1.0f, 0);
        /* override layer at weight .5 onto the unscaled b: lerp to [2, 1.5, 1] */
        rune_pose_copy(&out, &b);
        rune_mix_layer(&out, &a, NULL, NULL, 0.5f, levels[l]);
        near(out.sx[1], 2.0f, 1e-6f);
        near(out.sy[1], 1.5f, 1e-6f);
        /* additive layer a over ref (1 1 1) at weight .5, onto a pose of
         * scale 2: 2 (1 + .5 (3 - 1)) = 4 in x, 2 (1 + .5 (2 - 1)) = 3 in y */
        rune_pose_copy(&out, &b);
        rune_pose_set_s(&out, 1, rune_v3(2, 2, 2));
        rune_mix_layer(&out, &a, &ref, NULL, 0.5f, levels[l]);
        near(out.sx[1], 4.0f, 1e-6f);
        near(out.sy[1], 3.0f, 1e-6f);
        near(out.sz[1], 2.0f, 1e-6f);
    }
    rune_pose_release(&a);
    rune_pose_release(&b);
    rune_pose_release(&out);
    rune_pose_release(&ref);
}

/* Two paths to the first override layer of a graph: mixed onto a reset
 * pose by rune_mix_layer, or sampled in place and finished by
 * rune_mix_layer_onto_reset. Both give the same pose: the layer's joints
 * where mask x weight x coverage > 0 with that coverage, identity with
 * coverage 0 elsewhere (the rule by hand: a joint of coverage 0.5 under
 * mask 0.5 and weight 0.8 ends with coverage 0.2 and the layer's
 * transform). */
static void test_layer_onto_reset_matches_mix(void **state)
{
    (void)state;
    enum { JOINTS = 70 };
    uint32_t seed = 11;
    rune_pose layer, in_place, mixed;
    assert_int_equal(rune_pose_init(&layer, JOINTS, NULL, NULL), RUNE_OK);
    for (size_t j = 0; j < JOINTS; j++) {
        rune_pose_set_t(&layer, j, rune_v3(test_random(&seed), test_random(&seed), test_random(&seed)));
        rune_pose_set_r(&layer, j, random_rotation(&seed));
        layer.coverage[j] = j % 3 == 0 ? 0.0f : (j % 3 == 1 ? 1.0f : 0.5f);
    }
    float mask[JOINTS];
    for (size_t j = 0; j < JOINTS; j++)
        mask[j] = j % 4 == 0 ? 0.0f : (j % 4 == 1 ? 1.0f : 0.5f);
    assert_int_equal(rune_pose_init(&in_place, JOINTS, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&mixed, JOINTS, NULL, NULL), RUNE_OK);
    rune_pose_copy(&in_place, &layer);
    rune_mix_layer_onto_reset(&in_place, mask, 0.8f);
    rune_pose_reset(&mixed);
    rune_mix_layer(&mixed, &layer, NULL, mask, 0.8f, RUNE_SIMD_SCALAR);
    assert_true(pose_difference(&in_place, &mixed) <= 1e-6f);
    /* joint 2: coverage 0.5, mask 0.5, weight 0.8 -> 0.2, the layer's t */
    near(in_place.coverage[2], 0.2f, 1e-7f);
    near(in_place.tx[2], layer.tx[2], 0);
    /* joint 4: mask 0 -> identity, coverage 0 */
    near(in_place.coverage[4], 0.0f, 0);
    near(in_place.tx[4], 0.0f, 0);
    near(in_place.qw[4], 1.0f, 0);
    rune_pose_release(&layer);
    rune_pose_release(&in_place);
    rune_pose_release(&mixed);
}

/* A pose of random joints and curves: coverage in thirds (0, 1, 0.5),
 * scale on every joint when `scaled`. */
static rune_pose random_pose(size_t joints, size_t curves, bool scaled, uint32_t *seed)
{
    rune_pose p;
    assert_int_equal(rune_pose_init_curves(&p, joints, curves, NULL, NULL), RUNE_OK);
    for (size_t j = 0; j < joints; j++) {
        rune_pose_set_t(&p, j, rune_v3(test_random(seed), test_random(seed), test_random(seed)));
        rune_pose_set_r(&p, j, random_rotation(seed));
        if (scaled)
            rune_pose_set_s(&p, j, rune_v3(1.0f + 0.5f * test_random(seed), 1.0f, 1.0f - 0.25f * test_random(seed)));
        p.coverage[j] = (j + *seed % 3) % 3 == 0 ? 0.0f : ((j + *seed % 3) % 3 == 1 ? 1.0f : 0.5f);
    }
    for (size_t c = 0; c < curves; c++) {
        p.curve[c] = test_random(seed);
        p.curve_cov[c] = c % 2 ? 1.0f : 0.5f;
    }
    return p;
}

/* Every lane's channels and coverage (the padding too: an unscaled pose
 * holds scale 1 in every lane) and the curves, bit for bit. */
static void assert_same_pose(const rune_pose *a, const rune_pose *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->stride, b->stride);
    assert_int_equal(a->scaled, b->scaled);
    const float *const ca[11] = {a->tx, a->ty, a->tz, a->qx, a->qy, a->qz, a->qw, a->sx, a->sy, a->sz, a->coverage};
    const float *const cb[11] = {b->tx, b->ty, b->tz, b->qx, b->qy, b->qz, b->qw, b->sx, b->sy, b->sz, b->coverage};
    for (int k = 0; k < 11; k++)
        assert_memory_equal(ca[k], cb[k], a->stride * sizeof(float));
    assert_memory_equal(a->curve, b->curve, a->curve_count * sizeof(float));
    assert_memory_equal(a->curve_cov, b->curve_cov, a->curve_count * sizeof(float));
}

/* A graph's steady layer laid from its leaves without a pose
 * (rune_mix_layer_mean) against the mean written to a pose and laid from
 * there: the same kernels on the same lanes, so the same bits, on every
 * level, scaled or not, with curves, and with nothing to mean. */
static void test_layer_mean_matches_mean_then_layer(void **state)
{
    (void)state;
    enum { JOINTS = 70, CURVES = 3 };
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t nl = test_levels(levels);
    float mask[JOINTS];
    for (size_t j = 0; j < JOINTS; j++)
        mask[j] = j % 4 == 0 ? 0.0f : (j % 4 == 1 ? 1.0f : 0.5f);
    for (int scaled = 0; scaled < 2; scaled++) {
        uint32_t seed = 21u + (uint32_t)scaled;
        rune_pose leaf[3], base = random_pose(JOINTS, CURVES, false, &seed), mean, a, b;
        for (int i = 0; i < 3; i++)
            leaf[i] = random_pose(JOINTS, CURVES, scaled && i == 1, &seed);
        rune_contribution cs[3] = {{&leaf[0], 0.5f, 0, NULL}, {&leaf[1], 0.3f, 0, NULL}, {&leaf[2], 0.2f, 0, NULL}};
        assert_int_equal(rune_pose_init_curves(&mean, JOINTS, CURVES, NULL, NULL), RUNE_OK);
        assert_int_equal(rune_pose_init_curves(&a, JOINTS, CURVES, NULL, NULL), RUNE_OK);
        assert_int_equal(rune_pose_init_curves(&b, JOINTS, CURVES, NULL, NULL), RUNE_OK);
        for (size_t l = 0; l < nl; l++)
            for (size_t count = 0; count <= 3; count += 3) {
                rune_pose_copy(&a, &base);
                rune_pose_copy(&b, &base);
                rune_mix_mean(cs, count, levels[l], &mean);
                rune_mix_layer(&a, &mean, NULL, mask, 0.7f, levels[l]);
                rune_mix_layer_mean(&b, cs, count, mask, 0.7f, levels[l]);
                assert_same_pose(&a, &b);
            }
        /* and the layer moved the base where it covers: joint 1 (mask 1) */
        assert_true(fabsf(b.tx[1] - base.tx[1]) > 1e-3f || fabsf(b.qw[1] - base.qw[1]) > 1e-3f);
        for (int i = 0; i < 3; i++)
            rune_pose_release(&leaf[i]);
        rune_pose_release(&base);
        rune_pose_release(&mean);
        rune_pose_release(&a);
        rune_pose_release(&b);
    }
}

/* A graph's cross-fading override layer mixed a chunk at a time
 * (rune_mix_fade_layer) against its three means through poses -- each
 * side's, then the two sides' at 1 - alpha and alpha into the layer's pose
 * -- and that pose laid over the base: the same bits in the layer's pose
 * and the result, on every level, for a side of several leaves, of none
 * (the identity), or a frozen pose as it is, masked, and with no base
 * (the layer's pose alone, as an interruption asks for it); a frozen side
 * with fewer joints reads as the identity at coverage 0 past them. */
static void test_fade_layer_matches_three_means(void **state)
{
    (void)state;
    enum { JOINTS = 70 };
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t nl = test_levels(levels);
    float mask[JOINTS];
    for (size_t j = 0; j < JOINTS; j++)
        mask[j] = j % 4 == 0 ? 0.0f : (j % 4 == 1 ? 1.0f : 0.5f);
    mask[JOINTS - 1] = mask[JOINTS - 2] = 0.0f; /* the mask ends before the last chunk does */
    uint32_t seed = 41u;
    rune_pose leaf[4], base = random_pose(JOINTS, 0, false, &seed), frozen = random_pose(JOINTS, 0, false, &seed);
    for (int i = 0; i < 4; i++)
        leaf[i] = random_pose(JOINTS, 0, false, &seed);
    rune_contribution src[2] = {{&leaf[0], 0.6f, 0, NULL}, {&leaf[1], 0.4f, 0, NULL}};
    rune_contribution dst[2] = {{&leaf[2], 0.75f, 0, NULL}, {&leaf[3], 0.25f, 0, NULL}};
    rune_pose pa, pb, last_a, last_b, a, b;
    rune_pose *made[] = {&pa, &pb, &last_a, &last_b, &a, &b};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        assert_int_equal(rune_pose_init(made[i], JOINTS, NULL, NULL), RUNE_OK);
    for (size_t l = 0; l < nl; l++)
        for (int shape = 0; shape < 4; shape++) { /* frozen source, no source leaves, no base, two plays */
            rune_fade_side sa = {src, 2, NULL}, sb = {dst, 2, NULL};
            if (shape == 0)
                sa = (rune_fade_side){NULL, 0, &frozen};
            if (shape == 1)
                sa.count = 0;
            float alpha = 0.3f + 0.1f * (float)shape;
            if (sa.pose)
                rune_pose_copy(&pa, sa.pose);
            else
                rune_mix_mean(sa.contributions, sa.count, levels[l], &pa);
            rune_mix_mean(sb.contributions, sb.count, levels[l], &pb);
            rune_contribution both[2] = {{&pa, 1.0f - alpha, 0, NULL}, {&pb, alpha, 0, NULL}};
            rune_mix_mean(both, 2, levels[l], &last_a);
            rune_pose_copy(&a, &base);
            rune_pose_copy(&b, &base);
            rune_mix_layer(&a, &last_a, NULL, mask, 0.8f, levels[l]);
            assert_true(rune_fade_side_unscaled(sa) && rune_fade_side_unscaled(sb));
            rune_mix_fade_layer(shape == 2 ? NULL : &b, &last_b, sa, sb, alpha, mask, 0.8f, levels[l]);
            assert_same_pose(&last_a, &last_b);
            assert_same_pose(shape == 2 ? &base : &a, &b);
        }
    /* and the fade moved the base where the mask lets it: joint 1 */
    assert_true(fabsf(a.tx[1] - base.tx[1]) > 1e-3f || fabsf(a.qw[1] - base.qw[1]) > 1e-3f);
    /* a frozen side with fewer joints covers nothing past them: as a
     * whole pose holding the identity at coverage 0 there */
    rune_pose short_side = random_pose(40, 0, false, &seed), padded;
    assert_int_equal(rune_pose_init(&padded, JOINTS, NULL, NULL), RUNE_OK);
    for (size_t j = 0; j < 40; j++)
        rune_pose_set(&padded, j, rune_pose_t(&short_side, j), rune_pose_r(&short_side, j), short_side.coverage[j]);
    rune_fade_side dst_side = {dst, 2, NULL};
    rune_mix_fade_layer(NULL, &last_a, (rune_fade_side){NULL, 0, &padded}, dst_side, 0.4f, mask, 0.8f, RUNE_SIMD_AUTO);
    rune_mix_fade_layer(NULL, &last_b, (rune_fade_side){NULL, 0, &short_side}, dst_side, 0.4f, mask, 0.8f,
                        RUNE_SIMD_AUTO);
    assert_same_pose(&last_a, &last_b);
    rune_pose_release(&short_side);
    rune_pose_release(&padded);
    /* a scaled side is the caller's to mix through poses */
    rune_pose scaled = random_pose(JOINTS, 0, true, &seed);
    rune_contribution with_scale = {&scaled, 1.0f, 0, NULL};
    assert_false(rune_fade_side_unscaled((rune_fade_side){&with_scale, 1, NULL}));
    assert_false(rune_fade_side_unscaled((rune_fade_side){NULL, 0, &scaled}));
    rune_pose_release(&scaled);
    for (int i = 0; i < 4; i++)
        rune_pose_release(&leaf[i]);
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
        rune_pose_release(made[i]);
    rune_pose_release(&base);
    rune_pose_release(&frozen);
}

/* Composition in place (the output is the lowest rank's pose, as a
 * character's sole graph is) against composition from a copy: each
 * chunk is read before it is written, so the same bits, scaled or not,
 * curves included, alone or under a higher rank. */
static void test_compose_in_place_matches_copy(void **state)
{
    (void)state;
    enum { JOINTS = 70, CURVES = 2 };
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t nl = test_levels(levels);
    size_t order[2];
    for (int scaled = 0; scaled < 2; scaled++) {
        uint32_t seed = 31u + (uint32_t)scaled;
        rune_pose low = random_pose(JOINTS, CURVES, scaled, &seed), high = random_pose(JOINTS, CURVES, false, &seed);
        for (size_t i = JOINTS; scaled && i < low.stride; i++) /* padding past the joints' chunk lanes */
            low.sx[i] = 2.0f;
        rune_pose copied, in_place;
        assert_int_equal(rune_pose_init_curves(&copied, JOINTS, CURVES, NULL, NULL), RUNE_OK);
        assert_int_equal(rune_pose_init_curves(&in_place, JOINTS, CURVES, NULL, NULL), RUNE_OK);
        for (size_t l = 0; l < nl; l++)
            for (size_t count = 1; count <= 2; count++) {
                rune_contribution from_copy[2] = {{&low, 0.6f, RUNE_PRIORITY_IDLE, NULL},
                                                  {&high, 0.5f, RUNE_PRIORITY_MOVEMENT, NULL}};
                rune_contribution from_out[2] = {{&in_place, 0.6f, RUNE_PRIORITY_IDLE, NULL},
                                                 {&high, 0.5f, RUNE_PRIORITY_MOVEMENT, NULL}};
                rune_mix_compose(from_copy, count, levels[l], order, &copied);
                rune_pose_copy(&in_place, &low);
                rune_mix_compose(from_out, count, levels[l], order, &in_place);
                assert_same_pose(&copied, &in_place);
            }
        /* by hand, a joint of coverage 1 alone at weight 0.6: the rank's
         * coverage 0.6 overlays its transform onto the identity, so
         * t = 0.6 t_low */
        size_t j = 0;
        while (low.coverage[j] != 1.0f)
            j++;
        rune_contribution alone = {&in_place, 0.6f, RUNE_PRIORITY_IDLE, NULL};
        rune_pose_copy(&in_place, &low);
        rune_mix_compose(&alone, 1, RUNE_SIMD_SCALAR, order, &in_place);
        near(in_place.coverage[j], 0.6f, 1e-6f);
        near(in_place.tx[j], 0.6f * low.tx[j], 1e-6f);
        rune_pose_release(&low);
        rune_pose_release(&high);
        rune_pose_release(&copied);
        rune_pose_release(&in_place);
    }
}

/* A frame's sole contribution composed in place takes the
 * short way (rune__mix_sole) in chunks whose lanes' shares are all 0 or 1,
 * and must give the bits of the sums, mean and overlay the copy goes
 * through: on every level, with a lane of a NaN translation, one of an
 * unnormalized rotation, one of a NaN coverage; weight 2 on coverage 0.5
 * is a share of 1 too. The first chunk (joints 0-63) has shares 0 and 1
 * only; the second holds a joint of coverage 0.5, so at weight 1 it takes
 * the long way. By hand at weight 1: a joint of coverage 1 keeps its
 * translation and its rotation normalized, a joint of coverage 0 becomes
 * the identity. */
static void test_sole_in_place_matches_copy(void **state)
{
    (void)state;
    enum { JOINTS = 70 };
    rune_simd_level levels[RUNE_SIMD_LEVEL_COUNT];
    size_t nl = test_levels(levels);
    size_t order[1];
    uint32_t seed = 77u;
    rune_pose base = random_pose(JOINTS, 1, false, &seed);
    for (size_t j = 0; j < JOINTS; j++)
        base.coverage[j] = j % 3 == 0 ? 0.0f : 1.0f;
    base.coverage[66] = 0.5f;
    base.tx[4] = NAN;
    base.qx[5] *= 3.0f, base.qw[5] *= 3.0f;
    base.coverage[7] = NAN;
    rune_pose copied, in_place;
    assert_int_equal(rune_pose_init_curves(&copied, JOINTS, 1, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init_curves(&in_place, JOINTS, 1, NULL, NULL), RUNE_OK);
    const float weights[] = {1.0f, 0.5f, 2.0f, 0.0f};
    for (size_t l = 0; l < nl; l++)
        for (size_t w = 0; w < sizeof weights / sizeof weights[0]; w++) {
            for (int half = 0; half < 2; half++) { /* weight 2: coverage 0.5 everywhere covered */
                rune_pose_copy(&in_place, &base);
                for (size_t j = 0; half && j < JOINTS; j++)
                    in_place.coverage[j] = in_place.coverage[j] > 0.0f ? 0.5f : in_place.coverage[j];
                rune_pose src;
                assert_int_equal(rune_pose_init_curves(&src, JOINTS, 1, NULL, NULL), RUNE_OK);
                rune_pose_copy(&src, &in_place);
                rune_contribution from_copy = {&src, weights[w], RUNE_PRIORITY_IDLE, NULL};
                rune_contribution from_out = {&in_place, weights[w], RUNE_PRIORITY_IDLE, NULL};
                rune_mix_compose(&from_copy, 1, levels[l], order, &copied);
                rune_mix_compose(&from_out, 1, levels[l], order, &in_place);
                assert_same_pose(&copied, &in_place);
                rune_pose_release(&src);
            }
        }
    rune_contribution alone = {&in_place, 1.0f, RUNE_PRIORITY_IDLE, NULL};
    rune_pose_copy(&in_place, &base);
    rune_mix_compose(&alone, 1, RUNE_SIMD_SCALAR, order, &in_place);
    assert_true(in_place.tx[1] == base.tx[1] && in_place.ty[2] == base.ty[2]);
    assert_true(isnan(in_place.tx[4]));
    near(in_place.qx[5] * in_place.qx[5] + in_place.qy[5] * in_place.qy[5] + in_place.qz[5] * in_place.qz[5] +
             in_place.qw[5] * in_place.qw[5], 1.0f, 1e-6f);
    for (size_t j = 0; j < 8; j += 7) { /* coverage 0 and NaN: identity */
        assert_true(in_place.tx[j] == 0.0f && in_place.qx[j] == 0.0f && in_place.qw[j] == 1.0f);
        assert_true(in_place.coverage[j] == 0.0f);
    }
    near(in_place.coverage[1], 1.0f, 0.0f);
    rune_pose_release(&base);
    rune_pose_release(&copied);
    rune_pose_release(&in_place);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_high_priority_partial_coverage),
        cmocka_unit_test(test_equal_priority_mean),
        cmocka_unit_test(test_opposite_sign_quaternions),
        cmocka_unit_test(test_uncovered_joint_does_not_reset),
        cmocka_unit_test(test_controls_in_priority_order),
        cmocka_unit_test(test_signal_sees_new_pose),
        cmocka_unit_test(test_final_pass_after_last_track),
        cmocka_unit_test(test_no_allocation_per_frame),
        cmocka_unit_test(test_compose_levels_match_reference),
        cmocka_unit_test(test_layers_levels_match_reference),
        cmocka_unit_test(test_animator_matches_reference),
        cmocka_unit_test(test_scale_mixing),
        cmocka_unit_test(test_layer_onto_reset_matches_mix),
        cmocka_unit_test(test_layer_mean_matches_mean_then_layer),
        cmocka_unit_test(test_fade_layer_matches_three_means),
        cmocka_unit_test(test_compose_in_place_matches_copy),
        cmocka_unit_test(test_sole_in_place_matches_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
