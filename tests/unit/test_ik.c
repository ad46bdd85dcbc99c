/* Unit tests of src/ik: the two-bone, aim and chain solvers and the goal
 * spring, on cases worked out by hand (docs/semantics.md has the same
 * numbers) and on thousands of random chains and targets: reach within
 * 1e-5 of the chain's length, bone lengths kept, the pole's plane
 * respected, finite output whatever the geometry. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include "rune/ik.h"
#include "test_random.h"

#define near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static void near_v(rune_vec3 a, rune_vec3 b, double eps)
{
    near(a.x, b.x, eps);
    near(a.y, b.y, eps);
    near(a.z, b.z, eps);
}

static void near_q(rune_quat a, rune_quat b, double eps)
{
    double s = rune_q_dot(a, b) < 0.0f ? -1.0 : 1.0; /* q and -q are one rotation */
    near(a.x * s, b.x, eps);
    near(a.y * s, b.y, eps);
    near(a.z * s, b.z, eps);
    near(a.w * s, b.w, eps);
}

static double dist(rune_vec3 a, rune_vec3 b)
{
    rune_vec3 d = rune_v3_sub(a, b);
    return sqrt((double)rune_v3_dot(d, d));
}

static bool finite_q(rune_quat q) { return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w); }
static bool finite_v(rune_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* Where the solved chain's mid and end land. */
static void solved(const rune_ik_two_bone_job *j, const rune_ik_two_bone_result *r, rune_vec3 *mid, rune_vec3 *end)
{
    rune_vec3 lower = rune_q_rotate(r->mid_delta, rune_v3_sub(j->end, j->mid));
    *mid = rune_v3_add(j->root, rune_q_rotate(r->root_delta, rune_v3_sub(j->mid, j->root)));
    *end = rune_v3_add(*mid, rune_q_rotate(r->root_delta, lower));
}

static rune_ik_two_bone_job chain(rune_vec3 a, rune_vec3 b, rune_vec3 c, rune_vec3 target)
{
    rune_ik_two_bone_job j = {a, b, c, rune_q_identity(), target, rune_v3(0, 0, 0), false, 1.0f, 0.0f};
    return j;
}

static void test_two_bone_full_extension(void **state)
{
    (void)state;
    /* root (0,0,0), mid (1,0,0), end (1,1,0): a right angle in z = 0.
     * Target (0,2,0) is the chain's full length away: straight up, mid at
     * (0,1,0). The root turns +90 deg about z; the mid first straightens
     * the lower bone, (0,1,0) -> (1,0,0), -90 deg about z. */
    rune_ik_two_bone_job j = chain(rune_v3(0, 0, 0), rune_v3(1, 0, 0), rune_v3(1, 1, 0), rune_v3(0, 2, 0));
    rune_ik_two_bone_result r;
    rune_ik_two_bone(&j, &r);
    near_q(r.root_delta, rune_q(0, 0, 0.70710678f, 0.70710678f), 1e-6);
    near_q(r.mid_delta, rune_q(0, 0, -0.70710678f, 0.70710678f), 1e-6);
    rune_vec3 mid, end;
    solved(&j, &r, &mid, &end);
    near_v(mid, rune_v3(0, 1, 0), 1e-6);
    near_v(end, rune_v3(0, 2, 0), 1e-6);
    assert_true(r.reached);
}

static void test_two_bone_three_four_five(void **state)
{
    (void)state;
    /* bones 3 and 4, straight along x; target (5,0,0), pole (0,10,0):
     * the mid makes a right angle (3^2 + 4^2 = 5^2); at the root
     * cos a = (9 + 25 - 16) / (2 3 5) = 0.6, so the mid lands at
     * 3 (0.6, 0.8, 0) = (1.8, 2.4, 0), toward the pole */
    rune_ik_two_bone_job j = chain(rune_v3(0, 0, 0), rune_v3(3, 0, 0), rune_v3(7, 0, 0), rune_v3(5, 0, 0));
    j.pole = rune_v3(0, 10, 0);
    j.has_pole = true;
    rune_ik_two_bone_result r;
    rune_ik_two_bone(&j, &r);
    rune_vec3 mid, end;
    solved(&j, &r, &mid, &end);
    near_v(mid, rune_v3(1.8f, 2.4f, 0), 1e-6);
    near_v(end, rune_v3(5, 0, 0), 1e-6);
    assert_true(r.reached);
    /* the same pole below: the mirror image */
    j.pole = rune_v3(0, -10, 0);
    rune_ik_two_bone(&j, &r);
    solved(&j, &r, &mid, &end);
    near_v(mid, rune_v3(1.8f, -2.4f, 0), 1e-6);
}

static void test_two_bone_keeps_a_solved_pose(void **state)
{
    (void)state;
    /* a target on the end, no pole: nothing moves (the current plane) */
    rune_ik_two_bone_job j = chain(rune_v3(0.3f, 1, 0), rune_v3(0.2f, 0.5f, 0.1f), rune_v3(0.4f, 0, -0.2f),
                                   rune_v3(0.4f, 0, -0.2f));
    rune_ik_two_bone_result r;
    rune_ik_two_bone(&j, &r);
    near_q(r.root_delta, rune_q_identity(), 1e-6);
    near_q(r.mid_delta, rune_q_identity(), 1e-6);
}

static void test_two_bone_soften_and_reach(void **state)
{
    (void)state;
    /* bones 1 and 1, soften 0.8: reach is eased past 1.6; a target 2
     * away is reached to 1.6 + 0.4 (1 - e^-1) = 1.852848224 */
    rune_ik_two_bone_job j = chain(rune_v3(0, 0, 0), rune_v3(0, 1, 0), rune_v3(0, 1, 1), rune_v3(0, 0, 2));
    j.soften = 0.8f;
    rune_ik_two_bone_result r;
    rune_ik_two_bone(&j, &r);
    near(dist(r.end, j.root), 1.852848224, 1e-6);
    near_v(rune_v3_scale(r.end, 1.0f / 1.852848224f), rune_v3(0, 0, 1), 1e-6);
    assert_false(r.reached);
    /* below the softening start: exact */
    j.target = rune_v3(0, 0, 1.5f);
    rune_ik_two_bone(&j, &r);
    near_v(r.end, j.target, 1e-6);
    /* out of reach without soften: straight at it, 2 away */
    j.soften = 1.0f;
    j.target = rune_v3(0, 0, 9);
    rune_ik_two_bone(&j, &r);
    near_v(r.end, rune_v3(0, 0, 2), 1e-6);
    assert_false(r.reached);
    /* closer than the bones' difference (2 and 0.5): folded, 1.5 away */
    j = chain(rune_v3(0, 0, 0), rune_v3(0, 2, 0), rune_v3(0, 2, 0.5f), rune_v3(0, 0.1f, 0));
    rune_ik_two_bone(&j, &r);
    near(dist(r.end, j.root), 1.5, 1e-6);
    near_v(r.end, rune_v3(0, 1.5f, 0), 1e-6);
}

static void test_two_bone_twist(void **state)
{
    (void)state;
    /* target on the end; twist a quarter turn about the root-to-target
     * axis (z): the mid (0,1,0) goes to (-1,0,0) */
    rune_ik_two_bone_job j = chain(rune_v3(0, 0, 0), rune_v3(0, 1, 1), rune_v3(0, 0, 2), rune_v3(0, 0, 2));
    j.twist = 1.5707963f;
    rune_ik_two_bone_result r;
    rune_ik_two_bone(&j, &r);
    rune_vec3 mid, end;
    solved(&j, &r, &mid, &end);
    near_v(mid, rune_v3(-1, 0, 1), 1e-6);
    near_v(end, rune_v3(0, 0, 2), 1e-6);
}

static void test_two_bone_degenerate(void **state)
{
    (void)state;
    rune_ik_two_bone_result r;
    /* target on the root (bones equal: span 0): the chain folds in its
     * own direction, finite */
    rune_ik_two_bone_job j = chain(rune_v3(0, 0, 0), rune_v3(1, 0, 0), rune_v3(1, 1, 0), rune_v3(0, 0, 0));
    rune_ik_two_bone(&j, &r);
    assert_true(finite_q(r.root_delta) && finite_q(r.mid_delta) && finite_v(r.end));
    near(dist(r.end, j.root), 0, 1e-6);
    /* a pole on the root-target line: as without a pole */
    rune_ik_two_bone_result plain;
    j = chain(rune_v3(0, 0, 0), rune_v3(1, 0, 0), rune_v3(1, 1, 0), rune_v3(0, 1.5f, 0));
    rune_ik_two_bone(&j, &plain);
    j.pole = rune_v3(0, 7, 0);
    j.has_pole = true;
    rune_ik_two_bone(&j, &r);
    near_q(r.root_delta, plain.root_delta, 1e-6);
    near_q(r.mid_delta, plain.mid_delta, 1e-6);
    /* straight chain, no pole: bends about the mid joint's local X */
    j = chain(rune_v3(0, 0, 0), rune_v3(0, -1, 0), rune_v3(0, -2, 0), rune_v3(0, -1.5f, 0));
    rune_ik_two_bone(&j, &r);
    rune_vec3 mid, end;
    solved(&j, &r, &mid, &end);
    near_v(end, j.target, 1e-6);
    near(mid.x, 0, 1e-6); /* the bend is in the plane normal to x */
    /* straight chain along (1,1,1), its pole far out on the same line:
     * the pole's rounding residue lies along the bone and gives no hinge,
     * so the mid joint's X does (fuzz_ik found a NaN end here); a target
     * out of reach straightens the chain toward it, softened to nearly
     * the chain's length */
    j = chain(rune_v3(3.5f, 3.5f, 3.5f), rune_v3(-2, -2, -2), rune_v3(2.5f, 2.5f, 2.5f), rune_v3(-1e6f, -1e6f, 2.5f));
    j.mid_rotation = rune_q(2.5f, 2.5f, 2.5f, 2.5f); /* not unit: only its axes' directions matter */
    j.pole = rune_v3(-1e6f, -1e6f, -1e6f);
    j.has_pole = true;
    j.soften = 0.5f;
    j.twist = 2.5f;
    rune_ik_two_bone(&j, &r);
    assert_true(finite_q(r.root_delta) && finite_q(r.mid_delta) && finite_v(r.end));
    double len = 5.5 * sqrt(3.0) + 4.5 * sqrt(3.0), dx = -1e6 - 3.5, dy = dx, dz = -1.0;
    double dt = sqrt(dx * dx + dy * dy + dz * dz);
    /* d is 1e5 chain lengths past the soft start: the span is len */
    near(r.end.x, 3.5 + len * dx / dt, 1e-4 * len);
    near(r.end.y, 3.5 + len * dy / dt, 1e-4 * len);
    near(r.end.z, 3.5 + len * dz / dt, 1e-4 * len);
    /* zero-length bone: nothing moves */
    j = chain(rune_v3(0, 0, 0), rune_v3(0, 0, 0), rune_v3(0, 1, 0), rune_v3(3, 0, 0));
    rune_ik_two_bone(&j, &r);
    near_q(r.root_delta, rune_q_identity(), 0);
    near_q(r.mid_delta, rune_q_identity(), 0);
}

static rune_vec3 random_point(uint32_t *seed, float scale)
{
    return rune_v3(scale * test_random(seed), scale * test_random(seed), scale * test_random(seed));
}

/* 20,000 random chains, targets and poles (some degenerate on purpose):
 * reach when reachable, lengths, pole plane, finite. */
static void test_two_bone_random(void **state)
{
    (void)state;
    uint32_t seed = 7;
    int reachable = 0;
    for (int i = 0; i < 20000; i++) {
        float scale = powf(10.0f, 3.0f * test_random(&seed)); /* 1e-3 .. 1e3 */
        rune_ik_two_bone_job j = chain(random_point(&seed, scale), random_point(&seed, scale),
                                       random_point(&seed, scale), random_point(&seed, 2 * scale));
        if (i % 7 == 0)
            j.target = j.root;
        if (i % 11 == 0) /* straight chains */
            j.end = rune_v3_add(j.mid, rune_v3_sub(j.mid, j.root));
        j.has_pole = i % 3 != 0;
        j.pole = i % 13 == 0 ? rune_v3_add(j.root, rune_v3_scale(rune_v3_sub(j.target, j.root), 0.5f))
                             : random_point(&seed, 2 * scale);
        j.soften = i % 5 == 0 ? 0.5f + 0.5f * test_random(&seed) : 1.0f;
        j.twist = i % 17 == 0 ? 3.0f * test_random(&seed) : 0.0f;
        j.mid_rotation = rune_q_normalize(rune_q(test_random(&seed), test_random(&seed), test_random(&seed), 1));
        rune_ik_two_bone_result r;
        rune_ik_two_bone(&j, &r);
        assert_true(finite_q(r.root_delta) && finite_q(r.mid_delta) && finite_v(r.end));
        rune_vec3 mid, end;
        solved(&j, &r, &mid, &end);
        double l1 = dist(j.mid, j.root), l2 = dist(j.end, j.mid), len = l1 + l2, d = dist(j.target, j.root);
        /* lengths never change */
        near(dist(mid, j.root), l1, 4e-6 * len);
        near(dist(end, mid), l2, 4e-6 * len);
        near_v(end, r.end, 4e-6 * len);
        if (j.soften == 1.0f && d <= len * (1 - 1e-4) && d >= fabs(l1 - l2) * (1 + 1e-4) + 1e-4 * len) {
            reachable++;
            assert_true(dist(end, j.target) <= 1e-5 * len);
            assert_true(r.reached);
            rune_vec3 u = rune_v3_sub(j.target, j.root), side = rune_v3_sub(j.pole, j.root);
            rune_vec3 n = rune_v3_cross(u, side); /* the pole plane's normal */
            double nn = sqrt((double)rune_v3_dot(n, n));
            if (j.has_pole && j.twist == 0.0f && nn > 1e-3 * sqrt((double)rune_v3_dot(u, u) * rune_v3_dot(side, side))) {
                /* the mid in the plane of root, target and pole, on the pole's side */
                rune_vec3 m = rune_v3_sub(mid, j.root);
                near(rune_v3_dot(m, n) / nn, 0, 2e-5 * len);
                rune_vec3 mu = rune_v3_cross(u, m);
                assert_true(rune_v3_dot(mu, n) >= -1e-6 * len * len * len);
            }
        }
    }
    assert_true(reachable > 5000);
}

static rune_ik_aim_job aim_job(rune_vec3 target)
{
    rune_ik_aim_job j = {rune_v3(0, 0, 0), rune_q_identity(), 1.0f, rune_v3(0, 0, 1), rune_v3(0, 1, 0),
                         rune_v3(0, 0, 0), target,           rune_v3(0, 1, 0), -1.0f};
    return j;
}

static void test_aim(void **state)
{
    (void)state;
    rune_ik_aim_result r;
    /* forward z toward (1,0,0): a quarter turn about y */
    rune_ik_aim_job j = aim_job(rune_v3(1, 0, 0));
    rune_ik_aim(&j, &r);
    near_q(r.delta, rune_q(0, 0.70710678f, 0, 0.70710678f), 1e-6);
    assert_false(r.limited);
    /* the same with a limit of 0.5 rad: half a radian about y */
    j.limit = 0.5f;
    rune_ik_aim(&j, &r);
    near_q(r.delta, rune_q(0, sinf(0.25f), 0, cosf(0.25f)), 1e-6);
    assert_true(r.limited);
    /* eyes one unit above the joint: the ray from (0,1,0) along z already
     * passes through (0,1,5) */
    j = aim_job(rune_v3(0, 1, 5));
    j.offset = rune_v3(0, 1, 0);
    rune_ik_aim(&j, &r);
    near_q(r.delta, rune_q_identity(), 1e-6);
    /* offset sideways (1,0,0), target (0,0,5): the local ray o + l f with
     * |o + l f| = 5 is (1, 0, sqrt 24); it must point at z: a turn of
     * -asin(1/5) about y */
    j = aim_job(rune_v3(0, 0, 5));
    j.offset = rune_v3(1, 0, 0);
    rune_ik_aim(&j, &r);
    near_q(r.delta, rune_q(0, sinf(-0.5f * asinf(0.2f)), 0, cosf(0.5f * asinf(0.2f))), 1e-6);
    /* up toward the pole: looking along x with pole z, up (y) becomes z:
     * the frame maps z -> x, y -> z */
    j = aim_job(rune_v3(5, 0, 0));
    j.pole = rune_v3(0, 0, 1);
    rune_ik_aim(&j, &r);
    near_v(rune_q_rotate(r.delta, rune_v3(0, 0, 1)), rune_v3(1, 0, 0), 1e-6);
    near_v(rune_q_rotate(r.delta, rune_v3(0, 1, 0)), rune_v3(0, 0, 1), 1e-6);
    /* degenerate: the target on the joint turns nothing; a pole along the
     * aim keeps the joint's up as near as it can */
    j = aim_job(rune_v3(0, 0, 0));
    rune_ik_aim(&j, &r);
    near_q(r.delta, rune_q_identity(), 0);
    j = aim_job(rune_v3(0, 4, 0));
    rune_ik_aim(&j, &r);
    assert_true(finite_q(r.delta));
    near_v(rune_q_rotate(r.delta, rune_v3(0, 0, 1)), rune_v3(0, 1, 0), 1e-6);
}

static void test_aim_random(void **state)
{
    (void)state;
    uint32_t seed = 11;
    for (int i = 0; i < 20000; i++) {
        rune_ik_aim_job j = aim_job(random_point(&seed, 10));
        j.position = random_point(&seed, 10);
        j.rotation = rune_q_normalize(rune_q(test_random(&seed), test_random(&seed), test_random(&seed),
                                             test_random(&seed) + 1.5f));
        j.forward = random_point(&seed, 1);
        j.up = rune_v3_cross(j.forward, random_point(&seed, 1));
        j.pole = random_point(&seed, 1);
        if (i % 5 == 0)
            j.target = j.position;
        rune_ik_aim_result r;
        rune_ik_aim(&j, &r);
        assert_true(finite_q(r.delta));
        rune_vec3 to = rune_v3_sub(j.target, j.position);
        float len = sqrtf(rune_v3_dot(to, to)), fl = sqrtf(rune_v3_dot(j.forward, j.forward));
        if (len > 1e-3f && fl > 1e-3f && rune_v3_dot(j.up, j.up) > 1e-6f) {
            rune_quat now = rune_q_mul(r.delta, j.rotation);
            rune_vec3 f = rune_q_rotate(now, rune_v3_scale(j.forward, 1 / fl)), dir = rune_v3_scale(to, 1 / len);
            near_v(f, dir, 2e-5);
            /* up as close to the pole as the aim allows: across dir, the
             * two point the same way */
            rune_vec3 u = rune_q_rotate(now, j.up);
            rune_vec3 uu = rune_v3_sub(u, rune_v3_scale(dir, rune_v3_dot(u, dir)));
            rune_vec3 pp = rune_v3_sub(j.pole, rune_v3_scale(dir, rune_v3_dot(j.pole, dir)));
            float lu = sqrtf(rune_v3_dot(uu, uu)), lp = sqrtf(rune_v3_dot(pp, pp));
            if (lu > 1e-2f && lp > 1e-2f)
                near(rune_v3_dot(uu, pp) / (lu * lp), 1, 1e-4);
        }
    }
}

static void test_chain(void **state)
{
    (void)state;
    /* out of reach: straight at the target */
    rune_vec3 p[3] = {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}};
    rune_ik_chain_job j = {p, 3, rune_v3(0, 0, 5), 0, 0.0f};
    rune_ik_chain_result r;
    rune_ik_chain(&j, &r);
    near_v(p[1], rune_v3(0, 0, 1), 1e-6);
    near_v(p[2], rune_v3(0, 0, 2), 1e-6);
    assert_false(r.reached);
    /* the rotations that take the bones there: a quarter turn about x for
     * the root, which carries the next bone along */
    rune_vec3 before[3] = {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}};
    rune_quat q[3];
    rune_ik_chain_rotations(before, p, 3, q);
    near_q(q[0], rune_q(0.70710678f, 0, 0, 0.70710678f), 1e-6);
    near_q(q[1], q[0], 1e-6);
    near_q(q[2], q[1], 0);
    /* four unit bones reaching (2, 1, 0): reached within tolerance, the
     * root in place */
    rune_vec3 s[5] = {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 3, 0}, {0, 4, 0}};
    rune_ik_chain_job k = {s, 5, rune_v3(2, 1, 0), 50, 1e-5f};
    rune_ik_chain(&k, &r);
    assert_true(r.reached);
    near_v(s[4], rune_v3(2, 1, 0), 1e-5);
    near_v(s[0], rune_v3(0, 0, 0), 0);
    for (int i = 0; i < 4; i++)
        near(dist(s[i + 1], s[i]), 1, 1e-6);
}

static void test_chain_random(void **state)
{
    (void)state;
    uint32_t seed = 3;
    rune_vec3 p[8], before[8];
    rune_quat q[8];
    for (int i = 0; i < 5000; i++) {
        size_t n = 2 + (size_t)(6.0f * (test_random(&seed) + 1.0f) / 2.0f);
        n = n > 8 ? 8 : n;
        p[0] = random_point(&seed, 1);
        for (size_t k = 1; k < n; k++)
            p[k] = i % 19 == 0 && k == 1 ? p[0] : rune_v3_add(p[k - 1], random_point(&seed, 1));
        for (size_t k = 0; k < n; k++)
            before[k] = p[k];
        rune_vec3 target = i % 23 == 0 ? p[0] : random_point(&seed, 3);
        rune_ik_chain_job j = {p, n, target, 0, 0.0f};
        rune_ik_chain_result r;
        rune_ik_chain(&j, &r);
        near_v(p[0], before[0], 0);
        for (size_t k = 0; k + 1 < n; k++) {
            assert_true(finite_v(p[k + 1]));
            near(dist(p[k + 1], p[k]), dist(before[k + 1], before[k]), 2e-6 * (1 + dist(before[k + 1], before[k])));
        }
        rune_ik_chain_rotations(before, p, n, q);
        /* the rotations carry every bone onto its solved direction */
        rune_vec3 at = before[0];
        for (size_t k = 0; k + 1 < n; k++) {
            assert_true(finite_q(q[k]));
            at = rune_v3_add(at, rune_q_rotate(q[k], rune_v3_sub(before[k + 1], before[k])));
            near_v(at, p[k + 1], 1e-4);
        }
    }
}

static void test_spring(void **state)
{
    (void)state;
    /* from 0 toward 1 with smooth_time 1 (w = 2): after 0.5 s,
     * y = (-1 + (0 - 2) 0.5) e^-1 = -2/e, x = 1 - 2/e = 0.264241118 */
    float x = 0, v = 0, g = 1;
    rune_ik_spring(&x, &v, &g, 1, 1.0f, 0.5f);
    near(x, 0.264241118, 1e-6);
    /* frame-rate independent: ten steps of 0.05 land at the same place */
    float y = 0, w = 0;
    for (int i = 0; i < 10; i++)
        rune_ik_spring(&y, &w, &g, 1, 1.0f, 0.05f);
    near(y, x, 1e-6);
    near(w, v, 1e-5);
    /* smooth_time 0: at the goal at once */
    rune_ik_spring(&y, &w, &g, 1, 0.0f, 0.01f);
    near(y, 1, 0);
    near(w, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_bone_full_extension), cmocka_unit_test(test_two_bone_three_four_five),
        cmocka_unit_test(test_two_bone_keeps_a_solved_pose), cmocka_unit_test(test_two_bone_soften_and_reach),
        cmocka_unit_test(test_two_bone_twist),           cmocka_unit_test(test_two_bone_degenerate),
        cmocka_unit_test(test_two_bone_random),          cmocka_unit_test(test_aim),
        cmocka_unit_test(test_aim_random),               cmocka_unit_test(test_chain),
        cmocka_unit_test(test_chain_random),             cmocka_unit_test(test_spring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
