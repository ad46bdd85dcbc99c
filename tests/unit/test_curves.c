/* Unit tests of float curves (src/clip/clip_curves.c, src/rig,
 * src/mix/curve_mixer.c) against values worked out by hand from
 * docs/semantics.md, "Float curves": compilation (sorting by name, the later
 * of two keys at one time, length, errors naming the curve, nothing left
 * allocated on any failure), sampling (the destination key's easing,
 * constant, Hermite splines with tangents per second, weights and coverage),
 * the rig's curve table, bindings of a rig curve a clip lacks, and the
 * mixing rules: priority ranks, the weighted mean, override and additive
 * layers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "rune/mix.h"
#include "counting_alloc.h"
#include "mix/mix_internal.h"

#define near(a, b) assert_true(fabs((double)(a) - (double)(b)) <= 1e-6)

static rune_curve_key_desc key(const char *name, float v)
{
    return (rune_curve_key_desc){name, v, 1.0f, 0.0f, RUNE_EASE_LINEAR, RUNE_EASE_IN, false, 0.0f, 0.0f};
}

static rune_clip *compile(const rune_keyframe_desc *kf, size_t n, const rune_allocator *alloc)
{
    rune_sequence_desc d = {"c", 1, false, RUNE_PRIORITY_CORE, kf, n, NULL, 0, 0.0f};
    rune_clip *c = NULL;
    rune_error err;
    if (rune_clip_compile(&d, alloc, &c, &err))
        fail_msg("%s", err.message);
    return c;
}

static float value_at(const rune_clip *c, const char *name, float t)
{
    int32_t i = rune_clip_find_curve(c, name);
    assert_true(i >= 0);
    rune_curve_sample s;
    rune_clip_sample_curve(c, (size_t)i, t, &s);
    return s.value;
}

/* Curves sorted by name; a later key at the same time wins; the length
 * counts curve keys; the destination key's easing shapes the interval. */
static void test_compile_and_sample(void **state)
{
    (void)state;
    rune_curve_key_desc k0[2] = {key("b", 1.0f), key("a", 0.0f)};
    rune_curve_key_desc k1[1] = {key("a", 2.0f)};
    k1[0].easing = RUNE_EASE_QUAD; /* in: u^2 */
    rune_curve_key_desc k2[1] = {key("a", 3.0f)}; /* same time as k1, listed later */
    k2[0].easing = RUNE_EASE_QUAD;
    rune_curve_key_desc k3[1] = {key("b", 5.0f)};
    k3[0].easing = RUNE_EASE_CONSTANT;
    rune_keyframe_desc kf[4] = {{0.0f, NULL, 0, k0, 2}, {1.0f, NULL, 0, k1, 1}, {1.0f, NULL, 0, k2, 1},
                                {2.0f, NULL, 0, k3, 1}};
    rune_clip *c = compile(kf, 4, NULL);
    assert_int_equal(rune_clip_curve_count(c), 2);
    assert_string_equal(rune_clip_curve_name(c, 0), "a");
    assert_string_equal(rune_clip_curve_name(c, 1), "b");
    assert_int_equal(rune_clip_find_curve(c, "nope"), -1);
    assert_int_equal(rune_clip_curve_key_count(c, 0), 2); /* the duplicate at 1 s collapsed */
    assert_int_equal(rune_clip_curve_key_total(c), 4);
    assert_int_equal(rune_clip_track_count(c), 0);
    near(rune_clip_length(c), 2.0f);
    /* a: 0 -> 3 over 1 s, quad in: 3 x .5^2 = .75; held after its last key */
    near(value_at(c, "a", 0.5f), 0.75f);
    near(value_at(c, "a", 1.0f), 3.0f);
    near(value_at(c, "a", 1.7f), 3.0f);
    near(value_at(c, "a", -1.0f), 0.0f);
    /* b: constant to 5 at 2 s: 1 until the key, 5 on it */
    near(value_at(c, "b", 1.999f), 1.0f);
    near(value_at(c, "b", 2.0f), 5.0f);
    /* the keys read back as compiled, and compile to the same curves */
    float t;
    rune_curve_key_desc back;
    rune_clip_curve_key(c, 0, 1, &t, &back);
    near(t, 1.0f);
    near(back.value, 3.0f);
    assert_int_equal(back.easing, RUNE_EASE_QUAD);
    assert_string_equal(back.name, "a");
    rune_clip_destroy(c);
}

/* A Hermite interval: keys (0, 0) leaving at slope 1 and (2, 1) arriving
 * at slope 0. At u = .5 the basis is h00 = .5, h10 = .125, h01 = .5,
 * h11 = -.125, tangents scaled by the 2 s span:
 * v = .125 x 2 x 1 + .5 x 1 = .75. Weights lerp by the plain fraction. */
static void test_spline_and_coverage(void **state)
{
    (void)state;
    rune_curve_key_desc a = key("s", 0.0f), b = key("s", 1.0f);
    a.spline = true, a.out_tangent = 1.0f, a.in_tangent = 9.0f; /* the first key's in tangent is unused */
    b.spline = true, b.in_tangent = 0.0f, b.out_tangent = 9.0f;
    a.weight = 0.8f, a.mask_weight = 0.25f; /* coverage .8 x .75 = .6 */
    b.weight = 0.0f;
    rune_keyframe_desc kf[2] = {{0.0f, NULL, 0, &a, 1}, {2.0f, NULL, 0, &b, 1}};
    rune_clip *c = compile(kf, 2, NULL);
    rune_curve_sample s;
    rune_clip_sample_curve(c, 0, 1.0f, &s);
    near(s.value, 0.75f);
    near(s.weight, 0.4f);
    near(s.mask_weight, 0.125f);
    near(s.coverage, 0.4f * 0.875f);
    rune_clip_sample_curve(c, 0, 0.0f, &s);
    near(s.coverage, 0.6f);
    rune_clip_sample_curve(c, 0, 2.0f, &s);
    near(s.value, 1.0f);
    near(s.coverage, 0.0f);
    rune_clip_destroy(c);
}

/* Bad keys fail naming the curve; allocation failures anywhere leave
 * nothing allocated. */
static void test_errors(void **state)
{
    (void)state;
    rune_curve_key_desc bad = key("smile", NAN);
    rune_keyframe_desc kf = {0.0f, NULL, 0, &bad, 1};
    rune_sequence_desc d = {"c", 1, false, 0, &kf, 1, NULL, 0, 0.0f};
    rune_clip *c = NULL;
    rune_error err;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, &err), RUNE_E_INVALID);
    assert_null(c);
    assert_non_null(strstr(err.message, "keyframes[0].curves.smile.value"));
    bad = key("", 1.0f);
    assert_int_equal(rune_clip_compile(&d, NULL, &c, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "keyframes[0].curves[0].name: empty"));
    bad = key("smile", 1.0f);
    bad.easing = (rune_easing_style)99;
    assert_int_equal(rune_clip_compile(&d, NULL, &c, &err), RUNE_E_INVALID);
    bad = key("smile", 1.0f);
    for (size_t k = 1;; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_status st = rune_clip_compile(&d, &ca.iface, &c, &err);
        if (st == RUNE_OK) {
            rune_clip_destroy(c);
            assert_int_equal(ca.live_bytes, 0);
            break;
        }
        assert_int_equal(st, RUNE_E_NOMEM);
        assert_int_equal(ca.live_bytes, 0);
    }
}

/* The rig's table: names in the order added, an existing name its index,
 * the layout signature changed; poses and bindings follow it, and a rig
 * curve the clip lacks samples as 0 at coverage 0. */
static void test_rig_and_binding(void **state)
{
    (void)state;
    rune_joint_desc j = {"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}, {1, 1, 1}, false};
    rune_rig *rig;
    assert_int_equal(rune_rig_create(&j, 1, NULL, &rig, NULL), RUNE_OK);
    uint64_t before = rune_rig_layout_signature(rig);
    uint32_t i0, i1, again;
    assert_int_equal(rune_rig_add_curve(rig, "jaw", &i0, NULL), RUNE_OK);
    assert_int_equal(rune_rig_add_curve(rig, "blink", &i1, NULL), RUNE_OK);
    assert_int_equal(rune_rig_add_curve(rig, "jaw", &again, NULL), RUNE_OK);
    assert_int_equal(i0, 0);
    assert_int_equal(i1, 1);
    assert_int_equal(again, 0);
    assert_int_equal(rune_rig_curve_count(rig), 2);
    assert_string_equal(rune_rig_curve_name(rig, 1), "blink");
    assert_int_equal(rune_rig_find_curve(rig, "blink"), 1);
    assert_int_equal(rune_rig_find_curve(rig, "smile"), -1);
    assert_true(rune_rig_layout_signature(rig) != before);
    rune_error err;
    assert_int_equal(rune_rig_add_curve(rig, "", NULL, &err), RUNE_E_INVALID);

    rune_curve_key_desc k = key("blink", 0.5f);
    rune_keyframe_desc kf = {0.0f, NULL, 0, &k, 1};
    rune_clip *c = compile(&kf, 1, NULL);
    rune_binding *b;
    assert_int_equal(rune_binding_create(rig, c, NULL, NULL, &b, NULL), RUNE_OK);
    assert_int_equal(rune_binding_curve_count(b), 2);
    rune_pose p;
    assert_int_equal(rune_pose_init_rig(&p, rig, NULL, NULL), RUNE_OK);
    assert_int_equal(p.curve_count, 2);
    rune_binding_sample(b, 0.0f, &p);
    near(p.curve[0], 0.0f); /* jaw: not in the clip */
    near(p.curve_cov[0], 0.0f);
    near(p.curve[1], 0.5f);
    near(p.curve_cov[1], 1.0f);
    rune_pose_reset(&p);
    near(p.curve_cov[1], 0.0f);
    rune_pose_release(&p);
    rune_binding_destroy(b);
    rune_clip_destroy(c);
    rune_rig_destroy(rig);
}

/* One-joint poses carrying two curves, as finished contributions. */
static void curve_pose(rune_pose *p, float v0, float c0, float v1, float c1)
{
    assert_int_equal(rune_pose_init_curves(p, 1, 2, NULL, NULL), RUNE_OK);
    p->curve[0] = v0, p->curve_cov[0] = c0;
    p->curve[1] = v1, p->curve_cov[1] = c1;
}

/* Ranks: within one, the mean by share = weight x coverage; each overlays
 * the result below by min(1, its shares). */
static void test_priority_mixing(void **state)
{
    (void)state;
    rune_pose a, b, top, out;
    curve_pose(&a, 2.0f, 1.0f, 7.0f, 0.5f);  /* core, weight 1 */
    curve_pose(&b, 5.0f, 1.0f, 0.0f, 0.0f);  /* core, weight .5; curve 1 uncovered */
    curve_pose(&top, 10.0f, 0.5f, 1.0f, 1.0f); /* action, weight .5 */
    curve_pose(&out, 0, 0, 0, 0);
    rune_contribution cs[3] = {{&top, 0.5f, RUNE_PRIORITY_ACTION, NULL},
                               {&a, 1.0f, RUNE_PRIORITY_CORE, NULL},
                               {&b, 0.5f, RUNE_PRIORITY_CORE, NULL}};
    size_t order[3];
    rune_mix_compose(cs, 3, RUNE_SIMD_SCALAR, order, &out);
    /* curve 0: core mean (1 x 2 + .5 x 5) / 1.5 = 3, coverage 1; action
     * share .25 overlays: 3 + (10 - 3) x .25 = 4.75 */
    near(out.curve[0], 4.75f);
    near(out.curve_cov[0], 1.0f);
    /* curve 1: core only a's share .5 of 7: 0 + (7 - 0) x .5 = 3.5 at .5;
     * action share .5 of 1: 3.5 + (1 - 3.5) x .5 = 2.25, coverage
     * .5 + .5 x .5 = .75 */
    near(out.curve[1], 2.25f);
    near(out.curve_cov[1], 0.75f);

    /* the mean ignores ranks: curve 0 (2 + 2.5 + .25 x 10) / 1.75 = 4 */
    rune_mix_mean(cs, 3, RUNE_SIMD_SCALAR, &out);
    near(out.curve[0], 4.0f);
    near(out.curve_cov[0], 1.0f);
    /* curve 1: (.5 x 7 + .5 x 1) / 1 = 4, coverage 1 */
    near(out.curve[1], 4.0f);
    near(out.curve_cov[1], 1.0f);
    /* nothing covers: 0 at 0 */
    rune_contribution none = {&b, 0.0f, RUNE_PRIORITY_CORE, NULL};
    rune_mix_mean(&none, 1, RUNE_SIMD_SCALAR, &out);
    near(out.curve[0], 0.0f);
    near(out.curve_cov[0], 0.0f);
    rune_pose_release(&a), rune_pose_release(&b), rune_pose_release(&top), rune_pose_release(&out);
}

/* Layers: an override layer kept straight (where nothing was covered it
 * takes the layer's value as it is), an additive one adding
 * w (v_layer - v_ref) with w = layer weight x the layer's coverage. */
static void test_layers(void **state)
{
    (void)state;
    rune_pose out, over, add, ref;
    curve_pose(&out, 0, 0, 4.0f, 1.0f);
    curve_pose(&over, 6.0f, 0.5f, 8.0f, 1.0f);
    rune_mix_layer(&out, &over, NULL, NULL, 0.5f, RUNE_SIMD_SCALAR);
    /* curve 0: w = .25 onto coverage 0: c' = .25, the layer's 6 as it is */
    near(out.curve[0], 6.0f);
    near(out.curve_cov[0], 0.25f);
    /* curve 1: w = .5 onto coverage 1: 4 + (8 - 4) x .5 = 6 */
    near(out.curve[1], 6.0f);
    near(out.curve_cov[1], 1.0f);
    /* a second override at w .5 onto c .25: c' = .625, moved by .5 / .625 */
    rune_pose_release(&over);
    curve_pose(&over, 2.0f, 1.0f, 8.0f, 0.0f);
    rune_mix_layer(&out, &over, NULL, NULL, 0.5f, RUNE_SIMD_SCALAR);
    near(out.curve[0], 6.0f + (2.0f - 6.0f) * 0.8f);
    near(out.curve_cov[0], 0.625f);
    near(out.curve[1], 6.0f); /* uncovered in the layer: untouched */
    /* additive: layer 3, reference 1, weight .5 x coverage 1: + 1 */
    curve_pose(&add, 3.0f, 1.0f, 10.0f, 0.5f);
    curve_pose(&ref, 1.0f, 1.0f, 2.0f, 1.0f);
    rune_mix_layer(&out, &add, &ref, NULL, 0.5f, RUNE_SIMD_SCALAR);
    near(out.curve[0], 2.8f + 1.0f);
    near(out.curve_cov[0], 0.625f + 0.5f * 0.375f);
    /* curve 1: w = .25: 6 + (10 - 2) x .25 = 8 */
    near(out.curve[1], 8.0f);
    rune_pose_release(&out), rune_pose_release(&over), rune_pose_release(&add), rune_pose_release(&ref);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_and_sample), cmocka_unit_test(test_spline_and_coverage),
        cmocka_unit_test(test_errors),             cmocka_unit_test(test_rig_and_binding),
        cmocka_unit_test(test_priority_mixing),    cmocka_unit_test(test_layers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
