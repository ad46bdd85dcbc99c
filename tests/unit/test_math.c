/* Unit tests of src/math: quaternions, transforms, matrices and every
 * easing style x direction at its end points, midpoint and one interior
 * value computed by hand from the Penner formulas. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "rune/math.h"

#define EPS 1e-6f
#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))

static void test_quat_normalize_and_zero(void **state)
{
    (void)state;
    rune_quat q = rune_q_normalize(rune_q(0, 0, 2, 0));
    near(q.z, 1, EPS);
    rune_quat z = rune_q_normalize(rune_q(0, 0, 0, 0));
    near(z.w, 1, 0); /* zero -> identity, never NaN */
    rune_quat n = rune_q_normalize(rune_q(NAN, 0, 0, 1));
    near(n.w, 1, 0);
}

static void test_quat_mul_conjugate(void **state)
{
    (void)state;
    rune_quat a = rune_q_axis_angle(rune_v3(0, 1, 0), 0.5f);
    rune_quat i = rune_q_mul(a, rune_q_conjugate(a));
    near(i.w, 1, EPS);
    near(i.x, 0, EPS);
    /* 90 deg about Z maps +X to +Y */
    rune_vec3 v = rune_q_rotate(rune_q_axis_angle(rune_v3(0, 0, 1), 1.5707963f), rune_v3(1, 0, 0));
    near(v.x, 0, EPS);
    near(v.y, 1, EPS);
}

static void test_slerp(void **state)
{
    (void)state;
    rune_quat a = rune_q_identity();
    rune_quat b = rune_q_axis_angle(rune_v3(0, 1, 0), 1.5707963f);
    /* halfway: 45 deg about Y = (0, sin 22.5, 0, cos 22.5) */
    rune_quat h = rune_q_slerp(a, b, 0.5f);
    near(h.y, 0.38268343f, EPS);
    near(h.w, 0.92387953f, EPS);
    /* shortest path: -b is the same rotation, the result must be too */
    rune_quat h2 = rune_q_slerp(a, rune_q_negate(b), 0.5f);
    near(fabsf(rune_q_dot(h, h2)), 1, EPS);
    /* tiny angle takes the nlerp path and stays unit */
    rune_quat c = rune_q_axis_angle(rune_v3(1, 0, 0), 1e-4f);
    rune_quat t = rune_q_slerp(a, c, 0.5f);
    near(rune_q_dot(t, t), 1, EPS);
    near(t.x, sinf(0.25e-4f), 1e-7f);
    /* end points */
    rune_quat e = rune_q_slerp(a, b, 1.0f);
    near(e.y, b.y, EPS);
    /* nlerp halfway equals slerp halfway for symmetric arcs */
    rune_quat nl = rune_q_nlerp(a, b, 0.5f);
    near(nl.y, h.y, EPS);
}

static void test_xform_and_mat4(void **state)
{
    (void)state;
    rune_xform parent = {rune_v3(1, 0, 0), rune_q_axis_angle(rune_v3(0, 0, 1), 1.5707963f)};
    rune_xform child = {rune_v3(1, 0, 0), rune_q_identity()};
    rune_xform m = rune_xform_mul(parent, child);
    /* child origin: parent rotates (1,0,0) to (0,1,0), then adds (1,0,0) */
    near(m.t.x, 1, EPS);
    near(m.t.y, 1, EPS);
    rune_xform inv = rune_xform_inverse(m);
    rune_xform id = rune_xform_mul(inv, m);
    near(id.t.x, 0, EPS);
    near(id.t.y, 0, EPS);
    near(fabsf(id.r.w), 1, EPS);
    rune_mat4 a = rune_mat4_from_xform(parent), b = rune_mat4_from_xform(child);
    rune_mat4 ab = rune_mat4_mul(&a, &b);
    near(ab.m[12], 1, EPS); /* column-major translation */
    near(ab.m[13], 1, EPS);
    near(ab.m[1], 1, EPS); /* x axis maps to +y: m(row1, col0) */
    rune_mat4 i = rune_mat4_identity();
    rune_mat4 ai = rune_mat4_mul(&a, &i);
    for (int k = 0; k < 16; k++)
        near(ai.m[k], a.m[k], 0);
}

typedef struct ease_case {
    rune_easing_style style;
    rune_easing_dir dir;
    float u, want;
} ease_case;

/* Interior values at u = 0.25, by hand from the Penner formulas
 * (out(u) = 1 - in(1 - u); inout(u) = in(2u) / 2 below the midpoint):
 * sine:     in  1 - cos(pi/8) = .07612047; out sin(pi/8) = .38268343;
 *           inout (1 - cos(pi/4)) / 2 = .14644661
 * quad:     in .25^2 = .0625; out 1 - .75^2 = .4375; inout 2 * .0625 = .125
 * cubic:    in .015625; out 1 - .75^3 = .578125; inout 4 * .25^3 = .0625
 * quart:    in .00390625; out 1 - .75^4 = .68359375; inout 8 * .25^4 = .03125
 * quint:    in .0009765625; out 1 - .75^5 = .7626953125; inout 16 * .25^5 = .015625
 * expo:     in 2^(2.5 - 10) = .0055242717; out 1 - 2^-2.5 = .8232233;
 *           inout 2^(5 - 10) / 2 = .015625
 * circular: in 1 - sqrt(.9375) = .031754163; out sqrt(1 - .5625) = .66143783;
 *           inout (1 - sqrt(.75)) / 2 = .066987298
 * back (c1 = 1.70158, c3 = 2.70158, c2 = c1 * 1.525 = 2.5949095):
 *           in c3 .25^3 - c1 .25^2 = .0422122 - .1063488 = -.0641366
 *           out 1 - (c3 .75^3 - c1 .75^2) = 1 - (1.1397291 - .9571388) = .8174097
 *           inout 4 .25^2 ((c2 + 1) .5 - c2) / 2 = .25 (-.7974548) / 2 = -.0996818
 * elastic (c4 = 2pi/3, c5 = 2pi/4.5):
 *           in -2^-7.5 sin(-8.25 c4) = -2^-7.5 sin(-5.5 pi) = -.0055242717
 *           out 2^-2.5 sin(1.75 c4) + 1 = .1767767 (-.5) + 1 = .91161165
 *           inout -(2^-5 sin(-6.125 c5)) / 2 = -(.03125 (-.76604444)) / 2 = .011969444
 * bounce:   out .25 (first arc) 7.5625 .0625 = .47265625
 *           in = 1 - out(.75); .75 is on the third arc: 7.5625 (.75 - 2.25/2.75)^2
 *           + .9375 = .03515625 + .9375 = .97265625 -> .02734375
 *           inout = (1 - out(.5)) / 2; out(.5) on the second arc:
 *           7.5625 (.5 - 1.5/2.75)^2 + .75 = .765625 -> .1171875
 */
static const ease_case cases[] = {
    {RUNE_EASE_LINEAR, RUNE_EASE_IN, 0.25f, 0.25f},
    {RUNE_EASE_LINEAR, RUNE_EASE_OUT, 0.25f, 0.25f},
    {RUNE_EASE_LINEAR, RUNE_EASE_INOUT, 0.25f, 0.25f},
    {RUNE_EASE_CONSTANT, RUNE_EASE_IN, 0.99f, 0.0f},
    {RUNE_EASE_CONSTANT, RUNE_EASE_OUT, 0.5f, 0.0f},
    {RUNE_EASE_CONSTANT, RUNE_EASE_INOUT, 0.25f, 0.0f},
    {RUNE_EASE_SINE, RUNE_EASE_IN, 0.25f, 0.07612047f},
    {RUNE_EASE_SINE, RUNE_EASE_OUT, 0.25f, 0.38268343f},
    {RUNE_EASE_SINE, RUNE_EASE_INOUT, 0.25f, 0.14644661f},
    {RUNE_EASE_QUAD, RUNE_EASE_IN, 0.25f, 0.0625f},
    {RUNE_EASE_QUAD, RUNE_EASE_OUT, 0.25f, 0.4375f},
    {RUNE_EASE_QUAD, RUNE_EASE_INOUT, 0.25f, 0.125f},
    {RUNE_EASE_CUBIC, RUNE_EASE_IN, 0.25f, 0.015625f},
    {RUNE_EASE_CUBIC, RUNE_EASE_OUT, 0.25f, 0.578125f},
    {RUNE_EASE_CUBIC, RUNE_EASE_INOUT, 0.25f, 0.0625f},
    {RUNE_EASE_QUART, RUNE_EASE_IN, 0.25f, 0.00390625f},
    {RUNE_EASE_QUART, RUNE_EASE_OUT, 0.25f, 0.68359375f},
    {RUNE_EASE_QUART, RUNE_EASE_INOUT, 0.25f, 0.03125f},
    {RUNE_EASE_QUINT, RUNE_EASE_IN, 0.25f, 0.0009765625f},
    {RUNE_EASE_QUINT, RUNE_EASE_OUT, 0.25f, 0.7626953125f},
    {RUNE_EASE_QUINT, RUNE_EASE_INOUT, 0.25f, 0.015625f},
    {RUNE_EASE_EXPONENTIAL, RUNE_EASE_IN, 0.25f, 0.0055242717f},
    {RUNE_EASE_EXPONENTIAL, RUNE_EASE_OUT, 0.25f, 0.8232233f},
    {RUNE_EASE_EXPONENTIAL, RUNE_EASE_INOUT, 0.25f, 0.015625f},
    {RUNE_EASE_CIRCULAR, RUNE_EASE_IN, 0.25f, 0.031754163f},
    {RUNE_EASE_CIRCULAR, RUNE_EASE_OUT, 0.25f, 0.66143783f},
    {RUNE_EASE_CIRCULAR, RUNE_EASE_INOUT, 0.25f, 0.066987298f},
    {RUNE_EASE_BACK, RUNE_EASE_IN, 0.25f, -0.0641365625f},
    {RUNE_EASE_BACK, RUNE_EASE_OUT, 0.25f, 0.8174097f},
    {RUNE_EASE_BACK, RUNE_EASE_INOUT, 0.25f, -0.0996818f},
    {RUNE_EASE_ELASTIC, RUNE_EASE_IN, 0.25f, -0.0055242717f},
    {RUNE_EASE_ELASTIC, RUNE_EASE_OUT, 0.25f, 0.91161165f},
    {RUNE_EASE_ELASTIC, RUNE_EASE_INOUT, 0.25f, 0.011969444f},
    {RUNE_EASE_BOUNCE, RUNE_EASE_IN, 0.25f, 0.02734375f},
    {RUNE_EASE_BOUNCE, RUNE_EASE_OUT, 0.25f, 0.47265625f},
    {RUNE_EASE_BOUNCE, RUNE_EASE_INOUT, 0.25f, 0.1171875f},
};

/* The affine inverse by hand: a quarter turn about z, scale 2 along x,
 * translation (1, 2, 3): M^-1 M is the identity, and M^-1 takes M's
 * translation back to the origin; a singular matrix gives the identity. */
static void test_affine_inverse(void **state)
{
    (void)state;
    rune_mat4 m = rune_mat4_from_xform((rune_xform){rune_v3(1, 2, 3), rune_q_axis_angle(rune_v3(0, 0, 1), 1.5707963f)});
    for (int e = 0; e < 3; e++)
        m.m[e] *= 2.0f; /* column 0: the x axis, scaled */
    rune_mat4 inv = rune_mat4_affine_inverse(&m), id = rune_mat4_mul(&inv, &m), id2 = rune_mat4_mul(&m, &inv);
    for (int e = 0; e < 16; e++) {
        near(id.m[e], e % 5 == 0 ? 1 : 0, EPS);
        near(id2.m[e], e % 5 == 0 ? 1 : 0, EPS);
    }
    /* by hand: M's linear part has columns (0, 2, 0), (-1, 0, 0), (0, 0, 1),
     * so its inverse has rows (0, 1/2, 0), (-1, 0, 0), (0, 0, 1), and the
     * translation -M^-1 (1, 2, 3) = (-1, 1, -3) */
    near(inv.m[0], 0, EPS);
    near(inv.m[1], -1, EPS);
    near(inv.m[4], 0.5f, EPS);
    near(inv.m[5], 0, EPS);
    near(inv.m[12], -1, EPS);
    near(inv.m[13], 1, EPS);
    near(inv.m[14], -3, EPS);
    rune_mat4 flat = rune_mat4_identity();
    flat.m[10] = 0.0f; /* no z axis */
    rune_mat4 none = rune_mat4_affine_inverse(&flat);
    for (int e = 0; e < 16; e++)
        near(none.m[e], e % 5 == 0 ? 1 : 0, 0);
}

static void test_easing_interior(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        float got = rune_ease(cases[i].style, cases[i].dir, cases[i].u);
        if (fabsf(got - cases[i].want) > 2e-6f)
            fail_msg("%s %s at %g: got %.9g want %.9g", rune_easing_style_name(cases[i].style),
                     rune_easing_dir_name(cases[i].dir), cases[i].u, got, cases[i].want);
    }
}

static void test_easing_ends_and_midpoints(void **state)
{
    (void)state;
    for (int s = 0; s < RUNE_EASE_STYLE_COUNT; s++)
        for (int d = 0; d < RUNE_EASE_DIR_COUNT; d++) {
            float e0 = rune_ease((rune_easing_style)s, (rune_easing_dir)d, 0.0f);
            float e1 = rune_ease((rune_easing_style)s, (rune_easing_dir)d, 1.0f);
            if (fabsf(e0) > 1e-6f || fabsf(e1 - 1.0f) > 1e-6f)
                fail_msg("%s %s ends: %g %g", rune_easing_style_name(s), rune_easing_dir_name(d), e0, e1);
            /* inout curves are point-symmetric: exactly 0.5 at the midpoint
             * (constant holds 0 until the key) */
            if (d == RUNE_EASE_INOUT) {
                float m = rune_ease((rune_easing_style)s, (rune_easing_dir)d, 0.5f);
                float want = s == RUNE_EASE_CONSTANT ? 0.0f : 0.5f;
                if (fabsf(m - want) > 1e-6f)
                    fail_msg("%s inout midpoint %g", rune_easing_style_name(s), m);
            }
            /* clamping outside [0, 1], NaN treated as 0 */
            near(rune_ease((rune_easing_style)s, (rune_easing_dir)d, -3.0f), e0, 0);
            near(rune_ease((rune_easing_style)s, (rune_easing_dir)d, 7.0f), e1, 0);
            near(rune_ease((rune_easing_style)s, (rune_easing_dir)d, NAN), e0, 0);
        }
    /* midpoints of in/out by hand: quad in .5 = .25, out .5 = .75;
     * sine in .5 = 1 - cos(pi/4) = .29289322; bounce out .5 = .765625 */
    near(rune_ease(RUNE_EASE_QUAD, RUNE_EASE_IN, 0.5f), 0.25f, EPS);
    near(rune_ease(RUNE_EASE_QUAD, RUNE_EASE_OUT, 0.5f), 0.75f, EPS);
    near(rune_ease(RUNE_EASE_SINE, RUNE_EASE_IN, 0.5f), 0.29289322f, EPS);
    near(rune_ease(RUNE_EASE_BOUNCE, RUNE_EASE_OUT, 0.5f), 0.765625f, EPS);
    near(rune_ease(RUNE_EASE_CUBIC, RUNE_EASE_IN, 0.5f), 0.125f, EPS);
    near(rune_ease(RUNE_EASE_CUBIC, RUNE_EASE_OUT, 0.5f), 0.875f, EPS);
}

static void test_easing_names(void **state)
{
    (void)state;
    assert_int_equal(rune_easing_style_from_name("cubic"), RUNE_EASE_CUBIC);
    assert_int_equal(rune_easing_style_from_name("cubc"), -1);
    assert_int_equal(rune_easing_style_from_name(NULL), -1);
    assert_int_equal(rune_easing_dir_from_name("inout"), RUNE_EASE_INOUT);
    assert_int_equal(rune_easing_dir_from_name("sideways"), -1);
    assert_string_equal(rune_easing_style_name(RUNE_EASE_BOUNCE), "bounce");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quat_normalize_and_zero), cmocka_unit_test(test_quat_mul_conjugate),
        cmocka_unit_test(test_slerp),                   cmocka_unit_test(test_xform_and_mat4),
        cmocka_unit_test(test_easing_interior),         cmocka_unit_test(test_affine_inverse),         cmocka_unit_test(test_easing_ends_and_midpoints),
        cmocka_unit_test(test_easing_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
