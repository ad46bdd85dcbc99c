/* Unit tests of src/blend: 1D and 2D gradient-band weights worked out by
 * hand, nested speed multiplication, shared cycle duration and phase. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rune/blend.h"
#include "counting_alloc.h"
#include "test_random.h"
#include "blend/blend_internal.h"

#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))

static void expect_weights(const float *got, const float *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fabsf(got[i] - want[i]) > 1e-5f)
            fail_msg("weight %zu: got %.7g want %.7g", i, got[i], want[i]);
}

static void test_1d(void **state)
{
    (void)state;
    const float th[] = {3, 0, 1}; /* any order */
    float w[3];
    rune_blend1d_weights(th, 3, 0.0f, w); /* on a threshold */
    expect_weights(w, (float[]){0, 1, 0}, 3);
    rune_blend1d_weights(th, 3, 0.5f, w); /* between 0 and 1: a = .5 */
    expect_weights(w, (float[]){0, 0.5f, 0.5f}, 3);
    rune_blend1d_weights(th, 3, 2.5f, w); /* between 1 and 3: a = 1.5/2 = .75 */
    expect_weights(w, (float[]){0.75f, 0, 0.25f}, 3);
    rune_blend1d_weights(th, 3, -4.0f, w); /* below: nearest end */
    expect_weights(w, (float[]){0, 1, 0}, 3);
    rune_blend1d_weights(th, 3, 9.0f, w); /* above */
    expect_weights(w, (float[]){1, 0, 0}, 3);
    /* duplicated threshold 1: its weight splits evenly */
    const float dup[] = {0, 1, 1, 2};
    float d[4];
    rune_blend1d_weights(dup, 4, 0.5f, d); /* 0: .5; each 1: .25 */
    expect_weights(d, (float[]){0.5f, 0.25f, 0.25f, 0}, 4);
    rune_blend1d_weights(dup, 4, 1.0f, d);
    expect_weights(d, (float[]){0, 0.5f, 0.5f, 0}, 4);
    rune_blend1d_weights(dup, 4, 1.5f, d);
    expect_weights(d, (float[]){0, 0.25f, 0.25f, 0.5f}, 4);
}

/* Corners A(-1,-1) B(1,-1) C(-1,1) D(1,1) and centre E(0,0). Influence of
 * sample i: h_i = min_j 1 - <p - p_i, p_j - p_i> / |p_j - p_i|^2. */
static const rune_vec2 square[] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}, {0, 0}};

static void test_2d_cartesian(void **state)
{
    (void)state;
    float w[6];
    /* p = (.5, .5):
     * D: vs A 1 - 2/8 = .75, vs B 1 - 1/4 = .75, vs C .75, vs E 1 - 1/2 = .5 -> .5
     * E: vs A 1 + 1/2 = 1.5, vs B 1, vs C 1, vs D 1 - 1/2 = .5 -> .5
     * B: vs E 1 - <(-.5, 1.5), (-1, 1)>/2 = 1 - 2/2 = 0 -> 0; C likewise 0
     * A: vs E 1 - <(1.5, 1.5), (1, 1)>/2 = -.5 -> 0
     * normalized: D .5, E .5 */
    rune_blend2d_weights(square, 5, (rune_vec2){0.5f, 0.5f}, RUNE_BLEND2D_CARTESIAN, w);
    expect_weights(w, (float[]){0, 0, 0, 0.5f, 0.5f}, 5);
    /* p = (.5, 0):
     * E: vs B 1 - .5/2 = .75, vs D .75, vs A/C 1.25 -> .75
     * D: vs A 1 - 3/8, vs B 1 - 2/4 = .5, vs C .75, vs E 1 - 1.5/2 = .25 -> .25
     * B: by symmetry .25; A: vs E 1 - 2.5/2 < 0 -> 0; C 0
     * sum 1.25: E .6, D .2, B .2 */
    rune_blend2d_weights(square, 5, (rune_vec2){0.5f, 0.0f}, RUNE_BLEND2D_CARTESIAN, w);
    expect_weights(w, (float[]){0, 0.2f, 0, 0.2f, 0.6f}, 5);
    /* outside, p = (2, 0): E vs B: 1 - 2/2 = 0; D: min(1, .5, 1.5, 1) = .5;
     * B .5; A, C negative -> 0 */
    rune_blend2d_weights(square, 5, (rune_vec2){2.0f, 0.0f}, RUNE_BLEND2D_CARTESIAN, w);
    expect_weights(w, (float[]){0, 0.5f, 0, 0.5f, 0}, 5);
    /* exactly on a sample */
    rune_blend2d_weights(square, 5, (rune_vec2){1.0f, 1.0f}, RUNE_BLEND2D_CARTESIAN, w);
    expect_weights(w, (float[]){0, 0, 0, 1, 0}, 5);
    /* a duplicate of D: exact input shares between the two */
    const rune_vec2 dup[] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}, {0, 0}, {1, 1}};
    rune_blend2d_weights(dup, 6, (rune_vec2){1.0f, 1.0f}, RUNE_BLEND2D_CARTESIAN, w);
    expect_weights(w, (float[]){0, 0, 0, 0.5f, 0, 0.5f}, 6);
    /* ... and elsewhere the duplicates get equal influence: at (.5, .5)
     * D and F each .5 raw, E .5: thirds */
    rune_blend2d_weights(dup, 6, (rune_vec2){0.5f, 0.5f}, RUNE_BLEND2D_CARTESIAN, w);
    expect_weights(w, (float[]){0, 0, 0, 1.0f / 3, 1.0f / 3, 1.0f / 3}, 6);
}

/* Idle at the origin, walks at 0 deg (forward, +y), 90 deg (right, +x),
 * 180 deg (back), -90 deg (left). Directional bands (docs/semantics.md):
 * between two walks (relative speed, 2 x signed angle); between the idle
 * and a walk s, (relative speed, angle of the input from s). Speeds are
 * relative to the pair's mean magnitude m. */
static const rune_vec2 compass[] = {{0, 0}, {0, 1}, {1, 0}, {0, -1}, {-1, 0}};

static void test_2d_directional(void **state)
{
    (void)state;
    float w[5];
    /* p at 45 deg, speed 1 (m = .5 for idle pairs, 1 between walks):
     * idle: vs forward (2, pi/4).(2, 0) = 4 over 4 + pi^2/16 -> .133610;
     *   vs right the same; vs back/left (2, 3pi/4) -> .581225: .133610
     * forward: vs idle (-2, pi/4).(0, pi/4) -> 1 - .133610 = .866390;
     *   vs right (0, -pi).(0, -pi/2) = pi^2/2 over pi^2 -> .5;
     *   vs back (opposite: unsigned) (0, 2pi).(0, pi/2) -> .75;
     *   vs left (0, pi).(0, -pi/2) -> 1.5: .5
     * right: .5 by symmetry; back: vs right (0, pi).(0, 3pi/2) -> -.5: 0;
     * left likewise 0. Sum 1.133610: idle .117863, forward/right .441069 */
    rune_blend2d_weights(compass, 5, (rune_vec2){0.70710678f, 0.70710678f}, RUNE_BLEND2D_DIRECTIONAL, w);
    expect_weights(w, (float[]){0.117863f, 0.441069f, 0.441069f, 0, 0}, 5);
    /* halfway in angle between two equal-speed walks: an even split */
    assert_true(fabsf(w[1] - w[2]) < 1e-6f);
    /* p = (0, .5), half speed forward:
     * idle: vs forward (2, 0).(1, 0)/4 -> .5; vs right (2, pi/2) -> 1 - 2/(4 + pi^2/4) > .5
     * forward: vs idle (-2, 0).(-1, 0)/4 -> .5; vs right (0, -pi).(-.5, 0) = 0 -> 1
     * right: vs forward (0, pi).(-.5, pi)/pi^2 = 1 -> 0; left, back 0
     * -> idle .5, forward .5 (the idle sample constrains speed) */
    rune_blend2d_weights(compass, 5, (rune_vec2){0.0f, 0.5f}, RUNE_BLEND2D_DIRECTIONAL, w);
    expect_weights(w, (float[]){0.5f, 0.5f, 0, 0, 0}, 5);
    /* Cartesian mode on the same layout differs: at 45 deg the idle sample
     * and the neighbours share differently (sanity: not equal to above) */
    float c[5];
    rune_blend2d_weights(compass, 5, (rune_vec2){0.70710678f, 0.70710678f}, RUNE_BLEND2D_CARTESIAN, c);
    assert_true(fabsf(c[0] - w[0]) > 1e-3f || fabsf(c[1] - 0.5f) > 1e-3f);
}

/* A slow sample in one direction must not cut off the idle in the others:
 * idle (0,0), run forward (0,3), walk back (0,-1), input (0,1).
 * idle: vs forward (m 1.5) (2, 0).(2/3, 0)/4 -> 2/3; vs back (m .5)
 *   (2, pi).(2, 0) -> 1 - 4/(4 + pi^2) = .711600: 2/3
 * forward: vs idle (-2, 0).(-4/3, 0)/4 -> 1/3; vs back (m 2, opposite)
 *   (-1, 2pi).(-1, 0) -> 1 - 1/(1 + 4pi^2) = .975296: 1/3
 * back: vs idle (-2, pi).(0, pi) -> 4/(4 + pi^2) = .288400; vs forward
 *   (1, 2pi).(0, 2pi) -> 1/(1 + 4pi^2) = .024704: .024704
 * Sum 1.024704: idle .650596, forward .325298, back .024108. */
static void test_2d_directional_idle_not_cut_off(void **state)
{
    (void)state;
    const rune_vec2 layout[] = {{0, 0}, {0, 3}, {0, -1}};
    float w[3];
    rune_blend2d_weights(layout, 3, (rune_vec2){0.0f, 1.0f}, RUNE_BLEND2D_DIRECTIONAL, w);
    expect_weights(w, (float[]){0.650596f, 0.325298f, 0.024108f}, 3);
    /* weights sum to 1; exact positions select their sample */
    near(w[0] + w[1] + w[2], 1.0f, 1e-6f);
    rune_blend2d_weights(layout, 3, (rune_vec2){0.0f, -1.0f}, RUNE_BLEND2D_DIRECTIONAL, w);
    expect_weights(w, (float[]){0, 0, 1}, 3);
    rune_blend2d_weights(layout, 3, (rune_vec2){0.0f, 0.0f}, RUNE_BLEND2D_DIRECTIONAL, w);
    expect_weights(w, (float[]){1, 0, 0}, 3);
}

static void test_2d_nonfinite_input(void **state)
{
    (void)state;
    /* a non-finite input is treated as the origin: selects the sample there */
    float w[5];
    rune_blend2d_weights(compass, 5, (rune_vec2){NAN, 1.0f}, RUNE_BLEND2D_DIRECTIONAL, w);
    expect_weights(w, (float[]){1, 0, 0, 0, 0}, 5);
}

/* A rig with one joint and clips of the given lengths; x goes 0 -> 1
 * (length 1) or 0 -> 3 (length 1.5), so x / length is constant per clip. */
typedef struct bench {
    rune_rig *rig;
    rune_clip *clips[3];
    rune_binding *bind[3];
} bench;

static void make_bench(bench *b, const rune_allocator *alloc)
{
    static const rune_joint_desc joints[] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}}};
    assert_int_equal(rune_rig_create(joints, 1, alloc, &b->rig, NULL), RUNE_OK);
    const float len[3] = {1.0f, 1.5f, 2.0f}, end[3] = {1.0f, 3.0f, 2.0f};
    for (int i = 0; i < 3; i++) {
        rune_key_pose_desc p0 = {"", "Root", {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
        rune_key_pose_desc p1 = p0;
        p1.t.x = end[i];
        rune_keyframe_desc kf[2] = {{0.0f, &p0, 1}, {len[i], &p1, 1}};
        rune_marker_desc mk[1] = {{0.5f * len[i], "half", ""}};
        rune_sequence_desc d = {i == 0 ? "a" : (i == 1 ? "b" : "c"), 0, true, 0, kf, 2, mk, 1};
        assert_int_equal(rune_clip_compile(&d, alloc, &b->clips[i], NULL), RUNE_OK);
        assert_int_equal(rune_binding_create(b->rig, b->clips[i], 0, alloc, &b->bind[i], NULL), RUNE_OK);
    }
}

static void free_bench(bench *b)
{
    for (int i = 0; i < 3; i++) {
        rune_binding_destroy(b->bind[i]);
        rune_clip_destroy(b->clips[i]);
    }
    rune_rig_destroy(b->rig);
}

static void test_nested_speeds(void **state)
{
    (void)state;
    bench b;
    make_bench(&b, NULL);
    /* root: 1D on param 0: clip 0 at 0 (speed 1), node 1 at 1 (speed 2);
     * node 1: 1D on param 1: clip 1 at 0 (speed 1.5), clip 2 at 1 (speed 1) */
    rune_motion_sample_desc root_s[] = {{-1, 0, 0, {0, 0}, 1.0f}, {1, 0, 1, {0, 0}, 2.0f}};
    rune_motion_sample_desc inner_s[] = {{-1, 1, 0, {0, 0}, 1.5f}, {-1, 2, 1, {0, 0}, 1.0f}};
    rune_motion_node_desc nodes[] = {{RUNE_MOTION_BLEND1D, 0, 0, 0, root_s, 2},
                                     {RUNE_MOTION_BLEND1D, 1, 0, 0, inner_s, 2}};
    rune_motion *m;
    assert_int_equal(rune_motion_create(nodes, 2, 2, 3, NULL, &m, NULL), RUNE_OK);
    assert_int_equal(rune_motion_leaf_count(m), 3);
    rune_motion_player *p;
    const rune_binding *binds[3] = {b.bind[0], b.bind[1], b.bind[2]};
    assert_int_equal(rune_motion_player_create(m, binds, NULL, &p, NULL), RUNE_OK);
    /* params (.5, .25): root [.5, .5]; inner [.75, .25]
     * leaves: clip0 w .5 s 1; clip1 w .5*.75 = .375, s 2*1.5 = 3;
     *         clip2 w .5*.25 = .125, s 2*1 = 2 */
    rune_motion_player_set_params(p, (float[]){0.5f, 0.25f});
    near(rune_motion_player_leaf_weight(p, 0), 0.5f, 1e-6f);
    near(rune_motion_player_leaf_speed(p, 0), 1.0f, 0);
    near(rune_motion_player_leaf_weight(p, 1), 0.375f, 1e-6f);
    near(rune_motion_player_leaf_speed(p, 1), 3.0f, 1e-6f);
    near(rune_motion_player_leaf_weight(p, 2), 0.125f, 1e-6f);
    near(rune_motion_player_leaf_speed(p, 2), 2.0f, 1e-6f);
    assert_int_equal(rune_motion_player_leaf_clip(p, 2), 2);
    /* duration: (.5 * 1/1 + .375 * 1.5/3 + .125 * 2/2) / 1 = .5 + .1875 + .125 = .8125 */
    near(rune_motion_player_cycle_duration(p), 0.8125f, 1e-6f);
    rune_motion_player_destroy(p);
    rune_motion_destroy(m);
    free_bench(&b);
}

static rune_motion *two_clip_motion(float speed_a)
{
    rune_motion_sample_desc s[] = {{-1, 0, 0, {0, 0}, speed_a}, {-1, 1, 1, {0, 0}, 1.0f}};
    rune_motion_node_desc nodes[] = {{RUNE_MOTION_BLEND1D, 0, 0, 0, s, 2}};
    rune_motion *m;
    assert_int_equal(rune_motion_create(nodes, 1, 1, 2, NULL, &m, NULL), RUNE_OK);
    return m;
}

static void test_cycle_duration_and_phase(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    bench b;
    make_bench(&b, &ca.iface);
    const rune_binding *binds[2] = {b.bind[0], b.bind[1]};
    rune_motion *m = two_clip_motion(1.0f);
    rune_motion_player *p;
    assert_int_equal(rune_motion_player_create(m, binds, &ca.iface, &p, NULL), RUNE_OK);
    /* 1.0 s and 1.5 s clips at 50/50: (.5 * 1 + .5 * 1.5) = 1.25 s */
    rune_motion_player_set_params(p, (float[]){0.5f});
    near(rune_motion_player_cycle_duration(p), 1.25f, 1e-6f);
    /* advancing .625 s = half a cycle puts both clips at half their length:
     * a at .5 (x = .5), b at .75 (x = 1.5); pose mean (.5 + 1.5) / 2 = 1 */
    rune_signal_queue q;
    assert_int_equal(rune_signal_queue_init(&q, 16, &ca.iface, NULL), RUNE_OK);
    size_t before = ca.allocs;
    rune_motion_player_advance(p, 0.625f, 1.0f, &q, 9);
    near(rune_motion_player_progress(p), 0.5, 1e-6);
    near(rune_motion_player_leaf_time(p, 0), 0.5f, 1e-6f);
    near(rune_motion_player_leaf_time(p, 1), 0.75f, 1e-6f);
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, 1, NULL, NULL), RUNE_OK);
    rune_motion_player_sample(p, &pose);
    near(pose.tx[0], 1.0f, 1e-6f);
    near(pose.coverage[0], 1.0f, 1e-6f);
    /* the dominant leaf (a tie: the first, clip a) crossed its "half" marker at
     * .5 exactly: one marker */
    assert_int_equal(q.count, 1);
    assert_string_equal(q.events[0].name, "half");
    assert_int_equal(ca.allocs, before); /* updates never allocate */
    /* a negligible leaf is excluded from timing: all weight on a -> 1 s */
    rune_motion_player_set_params(p, (float[]){0.0f});
    near(rune_motion_player_cycle_duration(p), 1.0f, 1e-6f);
    rune_pose_release(&pose);
    rune_signal_queue_release(&q);
    rune_motion_player_destroy(p);
    rune_motion_destroy(m);

    /* leaf a at speed 2: .5 * (1 / 2) + .5 * 1.5 = 1.0 s */
    m = two_clip_motion(2.0f);
    assert_int_equal(rune_motion_player_create(m, binds, &ca.iface, &p, NULL), RUNE_OK);
    rune_motion_player_set_params(p, (float[]){0.5f});
    near(rune_motion_player_cycle_duration(p), 1.0f, 1e-6f);
    rune_motion_player_destroy(p);
    rune_motion_destroy(m);
    free_bench(&b);
    assert_int_equal(ca.live_bytes, 0);
}

/* A 2D node's polar forms and pair bands are worked out once
 * per motion; a player's weights from them must be rune_blend2d_weights'
 * bits at any input: both modes, an idle, a pair within 1 degree of
 * opposite, two samples at one position, inputs on samples, far outside,
 * at the origin and not finite. A player's leaf weight is 1 x the node's. */
static void test_prepared_bands_match_weights(void **state)
{
    (void)state;
    bench b;
    make_bench(&b, NULL);
    const rune_binding *binds[3] = {b.bind[0], b.bind[1], b.bind[2]};
    rune_motion_sample_desc smp[] = {{-1, 0, 0, {0, 0}, 1},        {-1, 1, 0, {0, 1}, 1},     {-1, 2, 0, {1, 0}, 1},
                                     {-1, 0, 0, {-1, 0.01f}, 1},   {-1, 1, 0, {0, -2}, 1},    {-1, 2, 0, {0.5f, 0.5f}, 1},
                                     {-1, 0, 0, {0.5f, 0.5f}, 1},  {-1, 1, 0, {-0.7f, -0.6f}, 1}};
    enum { N = sizeof smp / sizeof smp[0] };
    rune_vec2 pos[N];
    for (size_t k = 0; k < N; k++)
        pos[k] = smp[k].position;
    uint32_t seed = 5u;
    for (int mode = 0; mode < 2; mode++) {
        rune_motion_node_desc node = {RUNE_MOTION_BLEND2D, 0, 1, (rune_blend2d_mode)mode, smp, N};
        rune_motion *m;
        rune_motion_player *p;
        assert_int_equal(rune_motion_create(&node, 1, 2, 3, NULL, &m, NULL), RUNE_OK);
        assert_int_equal(rune_motion_player_create(m, binds, NULL, &p, NULL), RUNE_OK);
        for (int i = 0; i < 400; i++) {
            rune_vec2 at = {1.5f * test_random(&seed), 1.5f * test_random(&seed)};
            if (i < N)
                at = pos[i];
            else if (i == N)
                at = (rune_vec2){0.0f, 0.0f};
            else if (i == N + 1)
                at = (rune_vec2){NAN, 1.0f};
            else if (i == N + 2)
                at = (rune_vec2){40.0f, -3.0f};
            float want[N];
            rune_blend2d_weights(pos, N, at, (rune_blend2d_mode)mode, want);
            rune_motion_player_set_params(p, (float[]){at.x, at.y});
            for (size_t k = 0; k < N; k++) {
                float got = rune_motion_player_leaf_weight(p, k);
                if (memcmp(&got, &want[k], sizeof got) != 0)
                    fail_msg("mode %d input (%g, %g) leaf %zu: %.9g, not %.9g", mode, at.x, at.y, k, got, want[k]);
            }
        }
        rune_motion_player_destroy(p);
        rune_motion_destroy(m);
    }
    free_bench(&b);
}

/* A player keeps what set_params worked out while the
 * parameters hold still; any change (values, not the array's address;
 * NaN to NaN is no change, NULL is its own input) works it out again.
 * Clips a (1 s) at 0 and b (1.5 s) at 1 on one axis: at .5 the cycle is
 * (.5 x 1 + .5 x 1.5) = 1.25 s and the dominant leaf a (a tie: the
 * first); at 0 or at a NaN (read as 0) it is a's 1 s, at 1 b's 1.5 s. */
static void test_params_held_and_changed(void **state)
{
    (void)state;
    bench b;
    make_bench(&b, NULL);
    const rune_binding *binds[2] = {b.bind[0], b.bind[1]};
    rune_motion *m = two_clip_motion(1.0f);
    rune_motion_player *p;
    assert_int_equal(rune_motion_player_create(m, binds, NULL, &p, NULL), RUNE_OK);
    near(rune_motion_player_cycle_duration(p), 1.0f, 1e-6f); /* created as set_params(NULL): x = 0 */
    float x[1] = {0.5f};
    const float steps[] = {0.5f, 0.5f, 1.0f, 1.0f, NAN, NAN, 0.5f};
    const float want[] = {1.25f, 1.25f, 1.5f, 1.5f, 1.0f, 1.0f, 1.25f};
    const int32_t dominant[] = {0, 0, 1, 1, 0, 0, 0};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        x[0] = steps[i]; /* the same array changed in place */
        rune_motion_player_set_params(p, x);
        near(rune_motion_player_cycle_duration(p), want[i], 1e-6f);
        assert_int_equal(rune_motion_player_dominant_leaf(p), dominant[i]);
        near(rune_motion_player_leaf_weight(p, 1), isnan(steps[i]) ? 0.0f : steps[i], 1e-6f);
    }
    rune_motion_player_set_params(p, (float[]){1.0f}); /* another array, new values */
    near(rune_motion_player_cycle_duration(p), 1.5f, 1e-6f);
    rune_motion_player_set_params(p, NULL);
    near(rune_motion_player_cycle_duration(p), 1.0f, 1e-6f);
    rune_motion_player_set_params(p, (float[]){1.0f});
    rune_motion_player_reset(p); /* a reset is set_params(NULL) */
    near(rune_motion_player_cycle_duration(p), 1.0f, 1e-6f);
    rune_motion_player_destroy(p);
    rune_motion_destroy(m);
    free_bench(&b);
}

/* A leaf at or below RUNE_MOTION_EPSILON is not sampled, but the
 * kept leaves carry its weight. 1D over clips a (x 0 -> 1 in 1 s) at 0 and
 * b (x 0 -> 3 in 1.5 s) at 1, param .99995: weights .00005 and .99995;
 * a is skipped, b's share is 1, so the pose is b's alone with coverage 1
 * (before the fix: coverage .99995, x shrunk toward rest by that much).
 * At progress .5 b is at .75 s: x = 1.5. */
static void test_skipped_leaf_keeps_coverage(void **state)
{
    (void)state;
    bench b;
    make_bench(&b, NULL);
    rune_motion *m = two_clip_motion(1.0f);
    rune_motion_player *p;
    const rune_binding *binds[2] = {b.bind[0], b.bind[1]};
    assert_int_equal(rune_motion_player_create(m, binds, NULL, &p, NULL), RUNE_OK);
    rune_motion_player_set_params(p, (float[]){0.99995f});
    near(rune_motion_player_leaf_weight(p, 0), 0.00005f, 1e-6f);
    near(rune_motion_player_leaf_share(p, 0), 0.0f, 0);
    near(rune_motion_player_leaf_share(p, 1), 1.0f, 1e-7f);
    rune_motion_player_set_progress(p, 0.5);
    rune_pose pose;
    assert_int_equal(rune_pose_init_rig(&pose, b.rig, NULL, NULL), RUNE_OK);
    rune_motion_player_sample(p, &pose);
    near(pose.coverage[0], 1.0f, 1e-7f);
    near(pose.tx[0], 1.5f, 1e-5f);
    /* a split above the epsilon keeps both leaves at their own weights */
    rune_motion_player_set_params(p, (float[]){0.25f});
    near(rune_motion_player_leaf_share(p, 0), 0.75f, 1e-7f);
    near(rune_motion_player_leaf_share(p, 1), 0.25f, 1e-7f);
    rune_pose_release(&pose);
    rune_motion_player_destroy(p);
    rune_motion_destroy(m);
    free_bench(&b);
}

/* A player without time-0 samplers (rune_motion_player_create_live)
 * holds half the samplers and gives the same bits as one with them:
 * the reference (sampled through its live samplers) and the live pose
 * after it, frame after frame. Worked by hand at .5 between a (x 0 -> 1
 * in 1 s) and b (x 0 -> 3 in 1.5 s): the reference is the clips' first
 * keys, x 0. */
static void test_live_player_same_bits(void **state)
{
    (void)state;
    bench b;
    make_bench(&b, NULL);
    rune_motion *m = two_clip_motion(1.0f);
    const rune_binding *binds[2] = {b.bind[0], b.bind[1]};
    counting_alloc full_alloc, live_alloc;
    counting_alloc_init(&full_alloc);
    counting_alloc_init(&live_alloc);
    rune_motion_player *full, *live;
    assert_int_equal(rune_motion_player_create(m, binds, &full_alloc.iface, &full, NULL), RUNE_OK);
    assert_int_equal(rune_motion_player_create_live(m, binds, &live_alloc.iface, &live, NULL), RUNE_OK);
    assert_int_equal(live_alloc.allocs + 2, full_alloc.allocs); /* one sampler a leaf fewer */
    rune_pose pf, pl;
    assert_int_equal(rune_pose_init_rig(&pf, b.rig, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init_rig(&pl, b.rig, NULL, NULL), RUNE_OK);
    rune_motion_player *players[2] = {full, live};
    for (int i = 0; i < 2; i++)
        rune_motion_player_set_params(players[i], (float[]){0.5f});
    for (int f = 0; f < 50; f++) {
        for (int i = 0; i < 2; i++)
            rune_motion_player_advance(players[i], 1.0f / 30.0f, 1.0f, NULL, 0);
        rune_motion_player_sample_reference(full, &pf);
        rune_motion_player_sample_reference(live, &pl);
        assert_memory_equal(pf.tx, pl.tx, 7 * pf.stride * sizeof(float));
        near(pl.tx[0], 0.0f, 0.0f);
        rune_motion_player_sample(full, &pf);
        rune_motion_player_sample(live, &pl);
        assert_memory_equal(pf.tx, pl.tx, 7 * pf.stride * sizeof(float));
        assert_memory_equal(pf.coverage, pl.coverage, pf.count * sizeof(float));
    }
    rune_pose_release(&pf);
    rune_pose_release(&pl);
    rune_motion_player_destroy(full);
    rune_motion_player_destroy(live);
    assert_int_equal(full_alloc.live_bytes, 0);
    assert_int_equal(live_alloc.live_bytes, 0);
    rune_motion_destroy(m);
    free_bench(&b);
}

static void test_motion_validation(void **state)
{
    (void)state;
    rune_motion *m;
    rune_error err;
    rune_motion_sample_desc cyc[] = {{0, 0, 0, {0, 0}, 1}};
    rune_motion_node_desc n1[] = {{RUNE_MOTION_BLEND1D, 0, 0, 0, cyc, 1}};
    assert_int_equal(rune_motion_create(n1, 1, 1, 1, NULL, &m, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "nodes[0].samples[0].child"));
    rune_motion_sample_desc badclip[] = {{-1, 5, 0, {0, 0}, 1}};
    rune_motion_node_desc n2[] = {{RUNE_MOTION_BLEND1D, 0, 0, 0, badclip, 1}};
    assert_int_equal(rune_motion_create(n2, 1, 1, 1, NULL, &m, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "clip: index 5"));
    rune_motion_node_desc n3[] = {{RUNE_MOTION_BLEND2D, 0, 3, 0, badclip, 1}};
    assert_int_equal(rune_motion_create(n3, 1, 1, 9, NULL, &m, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "param_y"));
    /* a 9-level binary tree expands to 512 leaves: refused */
    rune_motion_sample_desc s[9][2];
    rune_motion_node_desc deep[9];
    for (int i = 0; i < 9; i++) {
        for (int k = 0; k < 2; k++)
            s[i][k] = (rune_motion_sample_desc){i < 8 ? i + 1 : -1, 0, (float)k, {0, 0}, 1};
        deep[i] = (rune_motion_node_desc){RUNE_MOTION_BLEND1D, 0, 0, 0, s[i], 2};
    }
    assert_int_equal(rune_motion_create(deep, 9, 1, 1, NULL, &m, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "leaves"));
}

/* Ten hours at 60 Hz of a motion on a 1.5 s clip at speed .7: the leaf's
 * clip time stays within 1 us of the exact phase (progress is a cycle
 * count and a phase reduced every advance). */
static void test_motion_no_phase_drift(void **state)
{
    (void)state;
    bench b;
    make_bench(&b, NULL);
    rune_motion_sample_desc one = {-1, 1, 0, {0, 0}, 1.0f};
    rune_motion_node_desc node = {RUNE_MOTION_CLIP, 0, 0, RUNE_BLEND2D_CARTESIAN, &one, 1};
    rune_motion *m;
    rune_motion_player *p;
    assert_int_equal(rune_motion_create(&node, 1, 0, 3, NULL, &m, NULL), RUNE_OK);
    const rune_binding *binds[3] = {b.bind[0], b.bind[1], b.bind[2]};
    assert_int_equal(rune_motion_player_create(m, binds, NULL, &p, NULL), RUNE_OK);
    rune_motion_player_set_params(p, NULL);
    const float dt = 1.0f / 60.0f;
    const long frames = 10L * 3600 * 60;
    for (long n = 0; n < frames; n++)
        rune_motion_player_advance(p, dt, 0.7f, NULL, 0);
    /* each advance moves progress by .7 dt / 1.5 (the cycle duration) */
    long double step = (long double)(double)((double)0.7f * (double)dt / (double)1.5f);
    double exact = (double)fmodl(step * frames, 1.0L) * 1.5;
    double got = rune_motion_player_leaf_time(p, 0);
    print_message("motion: drift %.3g s after %ld frames\n", fabs(got - exact), frames);
    assert_true(fabs(got - exact) < 1e-6 + 1.5 * 6e-8); /* and the float clip time's own rounding */
    rune_motion_player_destroy(p);
    rune_motion_destroy(m);
    free_bench(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1d),
        cmocka_unit_test(test_2d_cartesian),
        cmocka_unit_test(test_2d_directional),
        cmocka_unit_test(test_2d_directional_idle_not_cut_off),
        cmocka_unit_test(test_skipped_leaf_keeps_coverage),
        cmocka_unit_test(test_2d_nonfinite_input),
        cmocka_unit_test(test_motion_no_phase_drift),
        cmocka_unit_test(test_nested_speeds),
        cmocka_unit_test(test_cycle_duration_and_phase),
        cmocka_unit_test(test_params_held_and_changed),
        cmocka_unit_test(test_live_player_same_bits),
        cmocka_unit_test(test_prepared_bands_match_weights),
        cmocka_unit_test(test_motion_validation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
