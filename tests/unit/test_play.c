/* Unit tests of src/play: time wrapping, crossed-interval marker rules,
 * loop-signal caps, bounded traversal, fades, and stop vs removal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rune/play.h"
#include "play/play_internal.h"

#define near(a, b, eps) assert_true(fabsf((float)(a) - (float)(b)) <= (eps))

typedef struct fixture {
    rune_rig *rig;
    rune_clip *clip;
    rune_binding *binding;
    rune_signal_queue q;
} fixture;

/* A 1 s clip on one joint with markers A at .25, B at .5, C at .75. */
static void setup_fixture(fixture *f, bool loop)
{
    static const rune_joint_desc joints[] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}}};
    static rune_key_pose_desc p0[1], p1[1];
    p0[0] = (rune_key_pose_desc){"", "Root", {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
    p1[0] = p0[0];
    p1[0].t.x = 1;
    static rune_keyframe_desc kf[2];
    kf[0] = (rune_keyframe_desc){0.0f, p0, 1};
    kf[1] = (rune_keyframe_desc){1.0f, p1, 1};
    static const rune_marker_desc m[] = {{0.25f, "A", "a"}, {0.5f, "B", "b"}, {0.75f, "C", "c"}};
    rune_sequence_desc d = {"clip", 0, loop, RUNE_PRIORITY_MOVEMENT, kf, 2, m, 3};
    assert_int_equal(rune_rig_create(joints, 1, NULL, &f->rig, NULL), RUNE_OK);
    assert_int_equal(rune_clip_compile(&d, NULL, &f->clip, NULL), RUNE_OK);
    assert_int_equal(rune_binding_create(f->rig, f->clip, 0, NULL, &f->binding, NULL), RUNE_OK);
    assert_int_equal(rune_signal_queue_init(&f->q, 64, NULL, NULL), RUNE_OK);
}

static void teardown_fixture(fixture *f)
{
    rune_signal_queue_release(&f->q);
    rune_binding_destroy(f->binding);
    rune_clip_destroy(f->clip);
    rune_rig_destroy(f->rig);
}

static rune_track start(fixture *f, float speed, float time)
{
    rune_track t;
    rune_play_params p = {.fade = 0.0f, .weight = 1.0f, .speed = speed, .time = time};
    rune_track_start(&t, f->binding, NULL, &p, 1);
    return t;
}

static void expect_markers(fixture *f, const char *names)
{
    char got[64] = "";
    for (size_t i = 0; i < f->q.count; i++)
        if (f->q.events[i].kind == RUNE_EVENT_MARKER)
            strncat(got, f->q.events[i].name, sizeof got - strlen(got) - 1);
    assert_string_equal(got, names);
    rune_signal_queue_clear(&f->q);
}

static size_t loops(fixture *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->q.count; i++)
        n += f->q.events[i].kind == RUNE_EVENT_LOOP;
    return n;
}

static void test_wrap(void **state)
{
    (void)state;
    near(rune_wrap_time(-0.25, 1.0f), 0.75f, 0);
    near(rune_wrap_time(2.5, 1.0f), 0.5f, 0);
    near(rune_wrap_time(-3.0, 1.5f), 0.0f, 0);
    near(rune_wrap_time(1.0, 0.0f), 0.0f, 0);
    near(rune_wrap_time(1e300, 1.0f), rune_wrap_time(1e300, 1.0f), 0);
    assert_true(rune_wrap_time(1e300, 1.0f) < 1.0f);
}

static void test_negative_speed_wraps(void **state)
{
    (void)state;
    fixture f;
    setup_fixture(&f, true);
    rune_track t = start(&f, -1.0f, 0.0f);
    rune_track_advance(&t, 0.25f, &f.q);
    near(t.time, 0.75f, 0); /* -0.25 on a 1 s loop */
    assert_int_equal(loops(&f), 1);
    teardown_fixture(&f);
}

static void test_marker_at_boundary_fires_once(void **state)
{
    (void)state;
    fixture f;
    setup_fixture(&f, true);
    rune_track t = start(&f, 1.0f, 0.0f);
    rune_track_advance(&t, 0.25f, &f.q); /* (0, .25] contains A */
    expect_markers(&f, "A");
    rune_track_advance(&t, 0.25f, &f.q); /* (.25, .5]: not A again, B */
    expect_markers(&f, "B");
    rune_track_advance(&t, 0.1f, &f.q); /* (.5, .6] */
    expect_markers(&f, "");
    teardown_fixture(&f);
}

static void test_reverse_order_and_loop(void **state)
{
    (void)state;
    fixture f;
    setup_fixture(&f, true);
    rune_track t = start(&f, -1.0f, 0.9f);
    /* [0.9 - 1.0 = -0.1, 0.9): C .75, B .5, A .25, (0 not a marker) then
     * wraps: nothing in [-0.1, 0) of the previous cycle (.9 .. 1) */
    rune_track_advance(&t, 1.0f, &f.q);
    assert_int_equal(loops(&f), 1);
    expect_markers(&f, "CBA");
    near(t.time, 0.9f, 1e-6f);
    /* backwards from .9 to .5 (inclusive): C then B */
    rune_track_advance(&t, 0.4f, &f.q);
    expect_markers(&f, "CB");
    teardown_fixture(&f);
}

static void test_forward_across_loop(void **state)
{
    (void)state;
    fixture f;
    setup_fixture(&f, true);
    rune_track t = start(&f, 1.0f, 0.6f);
    rune_track_advance(&t, 0.8f, &f.q); /* (.6, 1.4]: C, wrap, A */
    expect_markers(&f, "CA");
    near(t.time, 0.4f, 1e-6f);
    teardown_fixture(&f);
}

static void test_loop_cap_and_bounded_markers(void **state)
{
    (void)state;
    fixture f;
    setup_fixture(&f, true);
    rune_track t = start(&f, 1.0f, 0.0f);
    rune_track_advance(&t, 100.0f, &f.q);
    assert_int_equal(loops(&f), RUNE_MAX_LOOP_EVENTS_PER_STEP); /* 100 wraps -> 16 */
    /* markers: only the last RUNE_MARKER_CYCLE_SPAN (2) cycles: 2 x ABC */
    expect_markers(&f, "ABCABC");
    /* a 1e6 s jump: same bounded count */
    rune_track_advance(&t, 1e6f, &f.q);
    assert_int_equal(loops(&f), 16);
    assert_int_equal(f.q.count, 16 + 6);
    rune_signal_queue_clear(&f.q);
    /* reverse huge jump, too */
    t.speed = -1.0f;
    rune_track_advance(&t, 1e6f, &f.q);
    assert_int_equal(loops(&f), 16);
    expect_markers(&f, "CBACBA");
    teardown_fixture(&f);
}

static void test_nonloop_clamps_and_holds(void **state)
{
    (void)state;
    fixture f;
    setup_fixture(&f, false);
    rune_track t = start(&f, 1.0f, 0.0f);
    rune_track_advance(&t, 5.0f, &f.q);
    near(t.time, 1.0f, 0);
    expect_markers(&f, "ABC");
    assert_int_equal(loops(&f), 0);
    rune_track_advance(&t, 5.0f, &f.q);
    expect_markers(&f, "");
    /* stopping fades but keeps holding the end */
    rune_fade_stop(&t.fade, 0.5f);
    assert_false(rune_fade_finished(&t.fade));
    rune_track_advance(&t, 0.25f, &f.q);
    near(t.fade.weight, 0.5f, 1e-6f);
    near(t.time, 1.0f, 0);
    rune_pose pose;
    assert_int_equal(rune_pose_init(&pose, 1, NULL, NULL), RUNE_OK);
    rune_track_sample(&t, &pose);
    near(pose.tx[0], 1, 0);
    rune_track_advance(&t, 0.25f, &f.q);
    assert_true(rune_fade_finished(&t.fade));
    rune_pose_release(&pose);
    teardown_fixture(&f);
}

static void test_fades(void **state)
{
    (void)state;
    fixture f;
    setup_fixture(&f, true);
    rune_track t;
    rune_play_params p = {.fade = 0.2f, .weight = 0.8f, .speed = 1.0f, .time = 0.0f};
    rune_track_start(&t, f.binding, NULL, &p, 3);
    near(t.fade.weight, 0, 0);
    rune_track_advance(&t, 0.1f, &f.q); /* .8 / .2 s = 4 per s -> .4 */
    near(t.fade.weight, 0.4f, 1e-6f);
    rune_track_advance(&t, 0.5f, &f.q); /* clamps at the target */
    near(t.fade.weight, 0.8f, 0);
    rune_fade_to(&t.fade, 0.0f, 0.0f); /* fade 0: at once */
    near(t.fade.weight, 0.0f, 0);
    assert_false(rune_fade_finished(&t.fade)); /* weight 0 is not a stop */
    rune_fade_to(&t.fade, -3.0f, 0.0f);     /* negative weight -> 0 */
    near(t.fade.target, 0.0f, 0);
    assert_int_equal(t.priority, RUNE_PRIORITY_MOVEMENT);
    teardown_fixture(&f);
}

static void test_queue_overflow_counted(void **state)
{
    (void)state;
    rune_signal_queue q;
    assert_int_equal(rune_signal_queue_init(&q, 2, NULL, NULL), RUNE_OK);
    rune_event e = {RUNE_EVENT_LOOP, 1, NULL, NULL, 0};
    assert_true(rune_signal_queue_push(&q, &e));
    assert_true(rune_signal_queue_push(&q, &e));
    assert_false(rune_signal_queue_push(&q, &e));
    assert_int_equal(q.dropped, 1);
    rune_signal_queue_release(&q);
}

/* Ten hours at 60 Hz (and a million frames at dt .036) of a looping
 * track at speed .7: the track's time stays within 1 us of the exact
 * phase of the sum of the steps given (each step's float dt and speed,
 * added up exactly), because the time is a double reduced every step. */
static void test_no_phase_drift(void **state)
{
    (void)state;
    fixture f;
    setup_fixture(&f, true);
    const struct {
        float dt;
        long frames;
    } runs[] = {{1.0f / 60.0f, 10L * 3600 * 60}, {0.036f, 1000000}};
    for (size_t r = 0; r < 2; r++) {
        rune_track t = start(&f, 0.7f, 0.0f);
        for (long n = 0; n < runs[r].frames; n++)
            rune_track_advance(&t, runs[r].dt, NULL);
        long double step = (long double)0.7f * (long double)runs[r].dt;
        double exact = (double)fmodl(step * (long double)runs[r].frames, 1.0L);
        print_message("%ld frames at dt %g: drift %.3g s\n", runs[r].frames, (double)runs[r].dt, fabs(t.time - exact));
        assert_true(fabs(t.time - exact) < 1e-6);
    }
    teardown_fixture(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_no_phase_drift),
        cmocka_unit_test(test_negative_speed_wraps),
        cmocka_unit_test(test_marker_at_boundary_fires_once),
        cmocka_unit_test(test_reverse_order_and_loop),
        cmocka_unit_test(test_forward_across_loop),
        cmocka_unit_test(test_loop_cap_and_bounded_markers),
        cmocka_unit_test(test_nonloop_clamps_and_holds),
        cmocka_unit_test(test_fades),
        cmocka_unit_test(test_queue_overflow_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
