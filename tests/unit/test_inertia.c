/* Unit tests of inertialization (src/mix/inertia.c, the character's and the
 * graph's use of it): the decay's polynomial at hand-worked points, and on
 * a character switching between two hand-made clips -- no pop, no velocity
 * jump, exactly the destination after the blend time, interruption,
 * coverage of a joint one side lacks, the same pose by the scenario, the C
 * API and a graph, and no NaN or allocation on any frame.
 *
 * Clip A moves joint Arm along x 0 -> 1 -> 0 and turns it 0 -> 1 -> 0 rad
 * about z, linearly over 0.5 s each way (2 m/s, 2 rad/s), and holds Hand;
 * clip B holds Arm at x 3 turned -1 rad and has no Hand. Frame f shows time
 * (f + 1) dt with dt 1/60; the switch is a command at frame 20. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rune/io.h"
#include "rune/character.h"
#include "counting_alloc.h"
#include "../../src/mix/inertia.h"

#define FRAMES 90
#define SWITCH 20
#define BLEND 0.5f
#define DT (1.0 / 60.0)
/* frames from the switch until the blend time has passed */
#define SETTLED (SWITCH + 30)

static const char *const clips =
    "\"rig\": {\"joints\": [{\"part\": \"Root\"}, {\"part\": \"Arm\", \"parent\": \"Root\", \"frame\": {\"t\": [0, 1, 0]}},"
    " {\"part\": \"Hand\", \"parent\": \"Arm\"}]},"
    "\"clips\": ["
    " {\"id\": \"A\", \"loop\": true, \"keyframes\": ["
    "  {\"time\": 0, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [0, 0, 0]},"
    "                          {\"parent\": \"Arm\", \"part\": \"Hand\", \"t\": [0, 0.5, 0]}]},"
    "  {\"time\": 0.5, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [1, 0, 0],"
    "                            \"r\": [0, 0, 0.479425539, 0.877582562]}]},"
    "  {\"time\": 1, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [0, 0, 0]},"
    "                          {\"parent\": \"Arm\", \"part\": \"Hand\", \"t\": [0, 0.5, 0]}]}]},"
    " {\"id\": \"B\", \"loop\": true, \"keyframes\": ["
    "  {\"time\": 0, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [3, 0, 0],"
    "                          \"r\": [0, 0, -0.479425539, 0.877582562]}]},"
    "  {\"time\": 1, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [3, 0, 0],"
    "                          \"r\": [0, 0, -0.479425539, 0.877582562]}]}]}]";

/* What a run showed of Arm and Hand, frame by frame. */
typedef struct track_log {
    float x[FRAMES], angle[FRAMES], hand_cov[FRAMES];
    float t[FRAMES][3], q[FRAMES][4];
    float left[FRAMES], offset_angle[FRAMES];
    bool finite;
} track_log;

static rune_status log_frame(void *user, const rune_frame_report *r)
{
    track_log *log = user;
    const rune_pose *p = r->pose;
    int f = r->frame;
    log->x[f] = p->tx[1];
    log->angle[f] = 2.0f * atan2f(p->qz[1], p->qw[1]);
    log->hand_cov[f] = p->coverage[2];
    float t[3] = {p->tx[1], p->ty[1], p->tz[1]}, q[4] = {p->qx[1], p->qy[1], p->qz[1], p->qw[1]};
    memcpy(log->t[f], t, sizeof t);
    memcpy(log->q[f], q, sizeof q);
    log->left[f] = r->inertia_left;
    log->offset_angle[f] = r->inertia_angle;
    log->finite &= rune_frame_report_finite(r, NULL, 0);
    return RUNE_OK;
}

/* Runs the clips with `commands` (a JSON array's items) and logs them. */
static void run(const char *commands, const char *graphs, track_log *log)
{
    static char doc[16384];
    snprintf(doc, sizeof doc, "{%s, %s%s%s \"dt\": %.17g, \"frames\": %d, \"commands\": [%s]}", clips,
             graphs ? "\"graphs\": " : "", graphs ? graphs : "", graphs ? "," : "", DT, FRAMES, commands);
    rune_scenario *s = NULL;
    rune_error err = {0};
    if (rune_scenario_load_string(doc, strlen(doc), "inertia.json", RUNE_SCENARIO_STRICT, NULL, &s, &err))
        fail_msg("%s", err.message);
    memset(log, 0, sizeof *log);
    log->finite = true;
    if (rune_scenario_run(s, NULL, log_frame, log, &err))
        fail_msg("%s", err.message);
    rune_scenario_destroy(s);
    assert_true(log->finite);
}

static char *switch_to(const char *clip, int frame, const char *blend, char *buf, size_t size)
{
    snprintf(buf, size, "{\"frame\": %d, \"play\": \"%s\", \"track\": \"m\", \"fade\": %g, \"blend\": \"%s\"}",
             frame, clip, (double)BLEND, blend);
    return buf;
}

static void run_switch(const char *blend, track_log *log)
{
    char cmd[512], b[256];
    snprintf(cmd, sizeof cmd, "{\"frame\": 0, \"play\": \"A\", \"track\": \"m\", \"fade\": 0}, %s",
             switch_to("B", SWITCH, blend, b, sizeof b));
    run(cmd, NULL, log);
}

static double second_difference(const float *v, int f) { return (double)v[f + 1] - 2.0 * v[f] + v[f - 1]; }

/* The decay's weights, worked by hand: p0 = (1-u)^3 (1 + 3u + 6u^2),
 * p1 = u (1-u)^3 (1 + 3u), p2 = u^2 (1-u)^3 / 2; and their second
 * derivatives. */
static void test_decay_weights(void **state)
{
    (void)state;
    float w[3], d2[3];
    rune__inertia_weights(0.0f, false, w);
    assert_float_equal(w[0], 1.0f, 0.0f);
    assert_float_equal(w[1], 0.0f, 0.0f);
    assert_float_equal(w[2], 0.0f, 0.0f);
    rune__inertia_weights(0.5f, false, w);
    assert_float_equal(w[0], 0.5f, 1e-7f);     /* 0.125 * 4 */
    assert_float_equal(w[1], 0.15625f, 1e-7f); /* 0.5 * 0.125 * 2.5 */
    assert_float_equal(w[2], 0.015625f, 1e-7f); /* 0.25 * 0.125 / 2 */
    rune__inertia_weights(0.25f, false, w);
    assert_float_equal(w[0], 0.896484375f, 1e-7f); /* 0.421875 * 2.125 */
    assert_float_equal(w[1], 0.184570313f, 1e-7f); /* 0.25 * 0.421875 * 1.75 */
    rune__inertia_weights(1.0f, false, w);
    for (int k = 0; k < 3; k++)
        assert_float_equal(w[k], 0.0f, 0.0f);
    /* second derivatives: 0, 0, 1 at the start; 0 at the end; at 0.5:
     * -30 + 45 - 15 = 0, -18 + 24 - 7.5 = -1.5, 1 - 4.5 + 4.5 - 1.25 */
    rune__inertia_weights(0.0f, true, d2);
    assert_float_equal(d2[0], 0.0f, 0.0f);
    assert_float_equal(d2[1], 0.0f, 0.0f);
    assert_float_equal(d2[2], 1.0f, 0.0f);
    rune__inertia_weights(0.5f, true, d2);
    assert_float_equal(d2[0], 0.0f, 1e-6f);
    assert_float_equal(d2[1], -1.5f, 1e-6f);
    assert_float_equal(d2[2], -0.25f, 1e-6f);
    rune__inertia_weights(1.0f, true, d2);
    for (int k = 0; k < 3; k++)
        assert_float_equal(d2[k], 0.0f, 1e-6f);
    /* first derivatives by differences: p0' = 0, p1' = 1, p2' = 0 at the
     * start, all 0 at the end */
    const double h = 1e-3;
    float a[3], b[3];
    rune__inertia_weights(0.0f, false, a);
    rune__inertia_weights((float)h, false, b);
    assert_float_equal((b[0] - a[0]) / h, 0.0, 2e-3);
    assert_float_equal((b[1] - a[1]) / h, 1.0, 2e-3);
    assert_float_equal((b[2] - a[2]) / h, 0.0, 2e-3);
    rune__inertia_weights((float)(1 - h), false, b);
    for (int k = 0; k < 3; k++)
        assert_float_equal(b[k] / h, 0.0, 1e-3);
}

/* The switch from A (moving 2 m/s, 2 rad/s) to B (still): the switch
 * frame steps no more than A does in a frame, and the second difference
 * around it is a tenth of a linear cross-fade's velocity jump at most,
 * |A - B| dt / blend, which the cross-fade run shows. */
static void test_no_pop_no_velocity_jump(void **state)
{
    (void)state;
    static track_log in, cross;
    run_switch("inertialize", &in);
    run_switch("crossfade", &cross);
    double step = 2.0 * DT; /* A's motion in a frame, metres and radians alike */
    assert_true(fabsf(in.x[SWITCH] - in.x[SWITCH - 1]) <= step * 1.001);
    assert_true(fabsf(in.angle[SWITCH] - in.angle[SWITCH - 1]) <= step * 1.001);
    /* A at the switch: time 20/60 s, x 2/3, angle 2/3; B: 3 and -1 */
    double jump_x = fabs(2.0 / 3.0 - 3.0) * DT / BLEND, jump_angle = fabs(2.0 / 3.0 + 1.0) * DT / BLEND;
    assert_true(fabs(second_difference(cross.x, SWITCH - 1)) >= 0.9 * jump_x);
    assert_true(fabs(second_difference(cross.angle, SWITCH - 1)) >= 0.9 * jump_angle);
    for (int f = SWITCH - 1; f <= SWITCH + 1; f++) {
        if (fabs(second_difference(in.x, f)) > 0.1 * jump_x || fabs(second_difference(in.angle, f)) > 0.1 * jump_angle)
            fail_msg("frame %d: second differences %g m, %g rad (limits %g, %g)", f, second_difference(in.x, f),
                     second_difference(in.angle, f), 0.1 * jump_x, 0.1 * jump_angle);
    }
    /* the tools' view: an offset decaying over the blend, none after */
    assert_true(in.left[SWITCH + 1] > 0.4f && in.left[SWITCH + 1] <= BLEND);
    assert_true(in.offset_angle[SWITCH + 1] > 90.0f); /* 5/3 rad, about 95 degrees */
    assert_float_equal(in.left[SETTLED], 0.0f, 0.0f);
    assert_float_equal(cross.left[SWITCH + 1], 0.0f, 0.0f);
}

static void assert_same_arm(const track_log *a, const track_log *b, int from, int to)
{
    for (int f = from; f < to; f++)
        if (memcmp(a->t[f], b->t[f], sizeof a->t[f]) || memcmp(a->q[f], b->q[f], sizeof a->q[f]))
            fail_msg("frame %d: (%g %g %g) (%g %g %g %g) vs (%g %g %g) (%g %g %g %g)", f, a->t[f][0], a->t[f][1],
                     a->t[f][2], a->q[f][0], a->q[f][1], a->q[f][2], a->q[f][3], b->t[f][0], b->t[f][1], b->t[f][2],
                     b->q[f][0], b->q[f][1], b->q[f][2], b->q[f][3]);
}

/* After the blend time the pose is the destination's, bit for bit: a run
 * cutting to B shows the same; so is B's own pose (x 3, -1 rad). */
static void test_exactly_the_destination_after(void **state)
{
    (void)state;
    static track_log in, cut;
    run_switch("inertialize", &in);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "{\"frame\": 0, \"play\": \"A\", \"track\": \"m\", \"fade\": 0},"
                              "{\"frame\": %d, \"play\": \"B\", \"track\": \"m\", \"fade\": 0}", SWITCH);
    run(cmd, NULL, &cut);
    assert_same_arm(&in, &cut, SETTLED, FRAMES);
    assert_same_arm(&in, &cut, 0, SWITCH);
    assert_float_equal(in.x[SETTLED], 3.0f, 1e-6f);
    assert_float_equal(in.angle[SETTLED], -1.0f, 1e-6f);
    /* and not before: the blend is under way */
    assert_true(fabsf(in.x[SETTLED - 10] - 3.0f) > 1e-3f);
}

/* A second switch (back to A) ten frames into the first blend starts from
 * what the character showed, moving on at its velocity and acceleration:
 * no pop, no velocity jump, and the pose settles on A, bit for bit what a
 * cut to A shows. */
static void test_interruption(void **state)
{
    (void)state;
    static track_log in, cut;
    const int second = SWITCH + 10;
    char cmd[1024], b1[256], b2[256];
    snprintf(cmd, sizeof cmd, "{\"frame\": 0, \"play\": \"A\", \"track\": \"m\", \"fade\": 0}, %s, %s",
             switch_to("B", SWITCH, "inertialize", b1, sizeof b1), switch_to("A", second, "inertialize", b2, sizeof b2));
    run(cmd, NULL, &in);
    snprintf(cmd, sizeof cmd, "{\"frame\": 0, \"play\": \"A\", \"track\": \"m\", \"fade\": 0}, %s,"
                              "{\"frame\": %d, \"play\": \"A\", \"track\": \"m\", \"fade\": 0}",
             switch_to("B", SWITCH, "inertialize", b1, sizeof b1), second);
    run(cmd, NULL, &cut);
    /* mid-blend the character accelerates by its offset's decay: the
     * second switch steps by the last step and that acceleration, and adds
     * to the acceleration a tenth at most of the velocity jump a cross-fade
     * from the pose shown to A's fresh start (x 1/60) would make */
    double jump_x = fabs(in.x[second - 1] - DT) * DT / BLEND, accel = 0.0;
    for (int f = second - 4; f <= second - 2; f++)
        accel = fmax(accel, fabs(second_difference(in.x, f)));
    assert_true(fabsf(in.x[second] - in.x[second - 1]) <= fabsf(in.x[second - 1] - in.x[second - 2]) + 1.01 * accel);
    for (int f = second - 1; f <= second + 1; f++)
        if (fabs(second_difference(in.x, f)) > accel + 0.1 * jump_x)
            fail_msg("frame %d: second difference %g (the blend's own %g, a cross-fade's jump %g)", f,
                     second_difference(in.x, f), accel, jump_x);
    assert_same_arm(&in, &cut, second + 30, FRAMES);
    assert_float_equal(in.x[FRAMES - 1], cut.x[FRAMES - 1], 0.0f);
}

/* Hand is A's alone: after the switch to B its coverage falls from 1 to
 * exactly 0 at the blend time, never rising on the way (the offset's
 * decay without velocity). */
static void test_coverage_of_one_side(void **state)
{
    (void)state;
    static track_log in;
    run_switch("inertialize", &in);
    assert_float_equal(in.hand_cov[SWITCH - 1], 1.0f, 0.0f);
    assert_float_equal(in.hand_cov[SWITCH], 1.0f, 0.0f);
    for (int f = SWITCH + 1; f < FRAMES; f++)
        assert_true(in.hand_cov[f] <= in.hand_cov[f - 1]);
    assert_true(in.hand_cov[SWITCH + 15] > 0.0f && in.hand_cov[SWITCH + 15] < 1.0f);
    for (int f = SETTLED; f < FRAMES; f++)
        assert_float_equal(in.hand_cov[f], 0.0f, 0.0f);
}

/* The same switch as a graph transition: the layer cuts to B and the
 * character inertializes; the pose is the scenario play's, frame for
 * frame once the graph's state B and the play of B have the same time
 * (the graph's transition fires after its update, a command before). */
static void test_graph_transition(void **state)
{
    (void)state;
    static track_log graph, cut;
    const char *graphs =
        "[{\"id\": \"g\", \"params\": [{\"name\": \"go\", \"type\": \"trigger\"}],"
        "  \"layers\": [{\"name\": \"base\", \"states\": [{\"name\": \"a\", \"motion\": \"A\"}, {\"name\": \"b\", \"motion\": \"B\"}],"
        "   \"transitions\": [{\"from\": \"a\", \"to\": \"b\", \"duration\": 0.5, \"blend\": \"inertialize\","
        "                      \"conditions\": [{\"param\": \"go\"}]}]}]}]";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "{\"frame\": 0, \"graph\": \"g\", \"instance\": \"i\", \"fade\": 0},"
                              "{\"frame\": %d, \"trigger\": \"i\", \"param\": \"go\"}", SWITCH);
    run(cmd, graphs, &graph);
    const char *cut_graphs =
        "[{\"id\": \"g\", \"params\": [{\"name\": \"go\", \"type\": \"trigger\"}],"
        "  \"layers\": [{\"name\": \"base\", \"states\": [{\"name\": \"a\", \"motion\": \"A\"}, {\"name\": \"b\", \"motion\": \"B\"}],"
        "   \"transitions\": [{\"from\": \"a\", \"to\": \"b\", \"duration\": 0, \"conditions\": [{\"param\": \"go\"}]}]}]}]";
    run(cmd, cut_graphs, &cut);
    assert_same_arm(&graph, &cut, 0, SWITCH);
    assert_same_arm(&graph, &cut, SETTLED + 1, FRAMES);
    double step = 2.0 * DT, jump_x = fabs(2.0 / 3.0 - 3.0) * DT / BLEND;
    assert_true(fabsf(graph.x[SWITCH] - graph.x[SWITCH - 1]) <= step * 1.001);
    for (int f = SWITCH - 1; f <= SWITCH + 1; f++)
        assert_true(fabs(second_difference(graph.x, f)) <= 0.1 * jump_x);
    assert_true(graph.left[SWITCH + 2] > 0.0f);
}

/* A library and a character from the clips, A playing and warmed up. */
typedef struct rig_run {
    rune_scenario *s;
    rune_library *lib;
    rune_character *ch;
    uint32_t a;
} rig_run;

static void rig_open(rig_run *r, const rune_allocator *alloc, const char *extra_clips)
{
    static char doc[16384];
    snprintf(doc, sizeof doc, "{%s%s}", clips, extra_clips ? extra_clips : "");
    rune_error err = {0};
    if (rune_scenario_load_string(doc, strlen(doc), "inertia.json", 0, NULL, &r->s, &err) ||
        rune_scenario_library(r->s, NULL, &r->lib, &err))
        fail_msg("%s", err.message);
    rune_character_desc d = {.lib = r->lib, .root_joint = RUNE_NO_ROOT};
    if (rune_character_create(&d, alloc, &r->ch, &err))
        fail_msg("%s", err.message);
    rune_play_params p = rune_play_defaults();
    p.fade = 0.0f;
    assert_true(rune_character_inertialize(r->ch, 0.0f)); /* keep the poses from the start */
    assert_int_equal(rune_character_play_clip(r->ch, 0, &p, &r->a, NULL), RUNE_OK);
}

static void rig_close(rig_run *r)
{
    rune_character_destroy(r->ch);
    rune_library_destroy(r->lib);
    rune_scenario_destroy(r->s);
}

static bool pose_finite(const rune_pose *p)
{
    for (size_t j = 0; j < p->count; j++) {
        float v[11] = {p->tx[j], p->ty[j], p->tz[j], p->qx[j], p->qy[j], p->qz[j], p->qw[j],
                       p->sx[j], p->sy[j], p->sz[j], p->coverage[j]};
        for (int k = 0; k < 11; k++)
            if (!isfinite(v[k]))
                return false;
    }
    return true;
}

/* Two paths to the same switch through the C API -- a play whose blend
 * inertializes, and a play with fade 0 followed by
 * rune_character_inertialize -- give the same pose, bit for bit. */
static void test_two_paths_one_pose(void **state)
{
    (void)state;
    rig_run one, two;
    rig_open(&one, NULL, NULL);
    rig_open(&two, NULL, NULL);
    for (int f = 0; f < 60; f++) {
        if (f == SWITCH) {
            rune_play_params p = rune_play_defaults();
            p.fade = BLEND;
            p.blend = RUNE_BLEND_INERTIALIZE;
            assert_true(rune_character_stop(one.ch, one.a, 0.0f));
            assert_int_equal(rune_character_play_clip(one.ch, 1, &p, NULL, NULL), RUNE_OK);
            p.fade = 0.0f;
            p.blend = RUNE_BLEND_CROSSFADE;
            assert_true(rune_character_stop(two.ch, two.a, 0.0f));
            assert_int_equal(rune_character_play_clip(two.ch, 1, &p, NULL, NULL), RUNE_OK);
            assert_true(rune_character_inertialize(two.ch, BLEND));
        }
        assert_int_equal(rune_character_update(one.ch, (float)DT, NULL), RUNE_OK);
        assert_int_equal(rune_character_update(two.ch, (float)DT, NULL), RUNE_OK);
        const rune_pose *a = rune_character_pose(one.ch), *b = rune_character_pose(two.ch);
        assert_memory_equal(a->tx, b->tx, a->count * sizeof(float));
        assert_memory_equal(a->qz, b->qz, a->count * sizeof(float));
        assert_memory_equal(a->coverage, b->coverage, a->count * sizeof(float));
    }
    rig_close(&one);
    rig_close(&two);
}

/* Hostile frames: steps of no time in the middle of a switch, a clip
 * whose joint jumps 1e15 m within a millisecond (a huge velocity when the
 * switch comes), a blend time of 0 (a cut: the pose of a fade-0 switch),
 * and refused blend times. Every pose finite. */
static void test_hostile_frames(void **state)
{
    (void)state;
    rig_run r, cut;
    rig_open(&r, NULL, NULL);
    rig_open(&cut, NULL, NULL);
    assert_false(rune_character_inertialize(r.ch, -1.0f));
    assert_false(rune_character_inertialize(r.ch, NAN));
    assert_false(rune_character_inertialize(r.ch, INFINITY));
    rune_play_params p = rune_play_defaults();
    for (int f = 0; f < 40; f++) {
        if (f == 10) { /* blend time 0: a cut */
            p.fade = 0.0f;
            p.blend = RUNE_BLEND_INERTIALIZE;
            rune_character_stop(r.ch, r.a, 0.0f);
            assert_int_equal(rune_character_play_clip(r.ch, 1, &p, NULL, NULL), RUNE_OK);
            p.blend = RUNE_BLEND_CROSSFADE;
            rune_character_stop(cut.ch, cut.a, 0.0f);
            assert_int_equal(rune_character_play_clip(cut.ch, 1, &p, NULL, NULL), RUNE_OK);
        }
        if (f == 20) { /* a switch, then steps of no time */
            p.fade = BLEND;
            p.blend = RUNE_BLEND_INERTIALIZE;
            assert_int_equal(rune_character_play_clip(r.ch, 0, &p, NULL, NULL), RUNE_OK);
        }
        float dt = f >= 20 && f < 24 ? 0.0f : (float)DT;
        assert_int_equal(rune_character_update(r.ch, dt, NULL), RUNE_OK);
        assert_true(pose_finite(rune_character_pose(r.ch)));
        if (f < 20) {
            assert_int_equal(rune_character_update(cut.ch, dt, NULL), RUNE_OK);
            const rune_pose *a = rune_character_pose(r.ch), *b = rune_character_pose(cut.ch);
            assert_memory_equal(a->tx, b->tx, a->count * sizeof(float));
            assert_memory_equal(a->qz, b->qz, a->count * sizeof(float));
        }
    }
    rig_close(&r);
    rig_close(&cut);
    /* the huge velocity: C jumps 1e15 m in a millisecond; the switch to B
     * comes with dt 1 ms right after the jump */
    static char doc[8192];
    snprintf(doc, sizeof doc,
             "{\"rig\": {\"joints\": [{\"part\": \"Root\"}, {\"part\": \"Arm\", \"parent\": \"Root\"}]},"
             "\"clips\": [{\"id\": \"C\", \"keyframes\": ["
             " {\"time\": 0, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [0, 0, 0]}]},"
             " {\"time\": 0.009, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [0, 0, 0],"
             "   \"r\": [1, 0, 0, 0]}]},"
             " {\"time\": 0.010, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [1e15, -1e15, 1e15],"
             "   \"r\": [0, 0, 0, 1]}]}]},"
             " {\"id\": \"D\", \"keyframes\": [{\"time\": 0, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\","
             "   \"t\": [-1e15, 0, 0], \"r\": [0, 1, 0, 0]}]}]}],"
             "\"dt\": 0.001, \"frames\": 40, \"commands\": [{\"frame\": 0, \"play\": \"C\", \"track\": \"m\", \"fade\": 0},"
             " {\"frame\": 10, \"play\": \"D\", \"track\": \"m\", \"fade\": 0.5, \"blend\": \"inertialize\"},"
             " {\"frame\": 12, \"play\": \"C\", \"track\": \"m\", \"fade\": 1e30, \"blend\": \"inertialize\"}]}");
    rune_scenario *s = NULL;
    rune_error err = {0};
    if (rune_scenario_load_string(doc, strlen(doc), "jump.json", 0, NULL, &s, &err))
        fail_msg("%s", err.message);
    track_log log;
    memset(&log, 0, sizeof log);
    log.finite = true;
    if (rune_scenario_run(s, NULL, log_frame, &log, &err))
        fail_msg("%s", err.message);
    assert_true(log.finite);
    rune_scenario_destroy(s);
}

/* Controls run on the inertialized pose and the poses kept are the ones
 * before the controls: a character with an override control (Arm's
 * translation halfway to (5, 0, 0)) shows exactly that control applied
 * to what the same character without it shows, through a switch. The
 * first keeps its poses by copying them (its controls would change the
 * pose in place), the second by lending its own (no control). */
static void test_controls_follow_the_offset(void **state)
{
    (void)state;
    rig_run with, without;
    rig_open(&with, NULL, NULL);
    rig_open(&without, NULL, NULL);
    rune_control c = rune_control_defaults(RUNE_CONTROL_OVERRIDE);
    c.id = 1, c.joint = 1, c.weight = 0.5f, c.drive_t = true;
    c.xform.t = rune_v3(5.0f, 0.0f, 0.0f);
    assert_int_equal(rune_character_set_control(with.ch, &c, NULL), RUNE_OK);
    rune_play_params p = rune_play_defaults();
    p.fade = BLEND;
    p.blend = RUNE_BLEND_INERTIALIZE;
    for (int f = 0; f < SETTLED + 5; f++) {
        if (f == SWITCH) {
            assert_true(rune_character_stop(with.ch, with.a, 0.0f) && rune_character_stop(without.ch, without.a, 0.0f));
            assert_int_equal(rune_character_play_clip(with.ch, 1, &p, NULL, NULL), RUNE_OK);
            assert_int_equal(rune_character_play_clip(without.ch, 1, &p, NULL, NULL), RUNE_OK);
        }
        assert_int_equal(rune_character_update(with.ch, (float)DT, NULL), RUNE_OK);
        assert_int_equal(rune_character_update(without.ch, (float)DT, NULL), RUNE_OK);
        const rune_pose *a = rune_character_pose(with.ch), *b = rune_character_pose(without.ch);
        assert_float_equal(a->tx[1], 0.5f * b->tx[1] + 2.5f, 1e-5f);
        assert_float_equal(a->qz[1], b->qz[1], 0.0f);
    }
    rig_close(&with);
    rig_close(&without);
}

/* A character that lends its pose to its inertialization gets an older
 * frame's channels back each frame: when its last play stops, every
 * frame still shows the rest pose, not a frame from before. */
static void test_rest_after_the_last_play(void **state)
{
    (void)state;
    rig_run r;
    rig_open(&r, NULL, NULL);
    for (int f = 0; f < 10; f++)
        assert_int_equal(rune_character_update(r.ch, (float)DT, NULL), RUNE_OK);
    assert_true(rune_character_pose(r.ch)->tx[1] > 0.3f); /* clip A's Arm at 2 m/s */
    assert_true(rune_character_stop(r.ch, r.a, 0.0f));
    for (int f = 0; f < 4; f++) {
        assert_int_equal(rune_character_update(r.ch, (float)DT, NULL), RUNE_OK);
        const rune_pose *p = rune_character_pose(r.ch);
        for (size_t j = 0; j < p->count; j++) {
            assert_float_equal(p->tx[j], 0.0f, 0.0f);
            assert_float_equal(p->qz[j], 0.0f, 0.0f);
            assert_float_equal(p->qw[j], 1.0f, 0.0f);
            assert_float_equal(p->coverage[j], 0.0f, 0.0f);
        }
    }
    rig_close(&r);
}

/* The inertializer on its own, over 40 joints: joints 3 and 37 (in the
 * first and the last vector of lanes) make the same motion and the same
 * switch, the rest hold still. Each frame joint 37 shows
 * exactly what joint 3 shows and the others exactly the destination; and
 * an inertializer the caller lends its pose to (taking the older frame's
 * channels back each frame) gives bit for bit the same poses as one that
 * copies them. */
enum { WIDE = 40 };
static void wide_frame(rune_pose *p, int f)
{
    float t = (float)(f + 1) * (float)DT, after = f >= SWITCH;
    for (size_t j = 0; j < WIDE; j++) {
        rune_pose_set(p, j, rune_v3(0.0f, 0.0f, 0.0f), rune_q(0.0f, 0.0f, 0.0f, 1.0f), 1.0f);
        if (j == 3 || j == 37) {
            float x = after ? 3.0f : 2.0f * t, angle = after ? -1.0f : 2.0f * t;
            rune_quat r = rune_q(0.0f, 0.0f, sinf(0.5f * angle), cosf(0.5f * angle));
            rune_pose_set(p, j, rune_v3(x, 0.5f * x, 0.0f), r, 1.0f);
        }
    }
}

static void test_lent_and_copied_poses(void **state)
{
    (void)state;
    rune_pose copied, lent;
    rune_inertia *keeps = NULL, *borrows = NULL;
    assert_int_equal(rune_pose_init(&copied, WIDE, NULL, NULL), RUNE_OK);
    assert_int_equal(rune_pose_init(&lent, WIDE, NULL, NULL), RUNE_OK);
    assert_int_equal(rune__inertia_create(&copied, NULL, &keeps, NULL), RUNE_OK);
    assert_int_equal(rune__inertia_create(&lent, NULL, &borrows, NULL), RUNE_OK);
    for (int f = 0; f < SETTLED + 5; f++) {
        if (f == SWITCH) {
            rune__inertia_request(keeps, BLEND);
            rune__inertia_request(borrows, BLEND);
        }
        rune_pose *older = rune__inertia_take_slot(borrows);
        assert_true((older != NULL) == (f > 0));
        if (older) {
            rune_pose swap = *older;
            *older = lent, lent = swap;
        }
        wide_frame(&copied, f);
        wide_frame(&lent, f);
        rune__inertia_step(keeps, &copied, (float)DT, false, RUNE_SIMD_AUTO);
        rune__inertia_step(borrows, &lent, (float)DT, true, RUNE_SIMD_AUTO);
        float *const ch[] = {copied.tx, copied.ty, copied.tz, copied.qx,
                             copied.qy, copied.qz, copied.qw, copied.coverage};
        float *const other[] = {lent.tx, lent.ty, lent.tz, lent.qx, lent.qy, lent.qz, lent.qw, lent.coverage};
        for (size_t c = 0; c < sizeof ch / sizeof ch[0]; c++) {
            assert_memory_equal(ch[c], other[c], WIDE * sizeof(float));
            assert_float_equal(ch[c][37], ch[c][3], 0.0f);
            for (size_t j = 0; j < WIDE; j++)
                if (j != 3 && j != 37)
                    assert_float_equal(ch[c][j], c == 6 || c == 7 ? 1.0f : 0.0f, 0.0f);
        }
        if (f == SWITCH + 1) /* mid-blend: the offset shows */
            assert_true(fabsf(copied.tx[37] - 3.0f) > 0.1f);
    }
    assert_float_equal(copied.tx[37], 3.0f, 0.0f);
    rune__inertia_destroy(keeps);
    rune__inertia_destroy(borrows);
    rune_pose_release(&copied);
    rune_pose_release(&lent);
}

/* After warm-up, switching back and forth allocates nothing: not the
 * updates, not the plays. */
static void test_no_allocation(void **state)
{
    (void)state;
    counting_alloc ca;
    counting_alloc_init(&ca);
    rig_run r;
    rig_open(&r, &ca.iface, NULL);
    rune_play_params p = rune_play_defaults();
    p.fade = BLEND;
    p.blend = RUNE_BLEND_INERTIALIZE;
    uint32_t h = r.a;
    size_t after_warmup = 0;
    for (int f = 0; f < 200; f++) {
        if (f % 10 == 5) {
            rune_character_stop(r.ch, h, 0.0f);
            assert_int_equal(rune_character_play_clip(r.ch, (uint32_t)(f / 10 % 2), &p, &h, NULL), RUNE_OK);
        }
        if (f == 50)
            after_warmup = ca.allocs;
        assert_int_equal(rune_character_update(r.ch, (float)DT, NULL), RUNE_OK);
    }
    assert_int_equal(ca.allocs, after_warmup);
    rig_close(&r);
    assert_int_equal(ca.live_bytes, 0);
}

/* The scenario's blend key: only the two names. */
static void test_blend_names(void **state)
{
    (void)state;
    static char doc[16384];
    snprintf(doc, sizeof doc, "{%s, \"commands\": [{\"frame\": 0, \"play\": \"A\", \"blend\": \"inertial\"}]}", clips);
    rune_scenario *s = NULL;
    rune_error err = {0};
    assert_int_equal(rune_scenario_load_string(doc, strlen(doc), "t.json", 0, NULL, &s, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "commands[0].blend: unknown blend \"inertial\" (expected \"crossfade\" or "
                                        "\"inertialize\")"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decay_weights),
        cmocka_unit_test(test_no_pop_no_velocity_jump),
        cmocka_unit_test(test_exactly_the_destination_after),
        cmocka_unit_test(test_interruption),
        cmocka_unit_test(test_coverage_of_one_side),
        cmocka_unit_test(test_graph_transition),
        cmocka_unit_test(test_two_paths_one_pose),
        cmocka_unit_test(test_hostile_frames),
        cmocka_unit_test(test_controls_follow_the_offset),
        cmocka_unit_test(test_rest_after_the_last_play),
        cmocka_unit_test(test_lent_and_copied_poses),
        cmocka_unit_test(test_no_allocation),
        cmocka_unit_test(test_blend_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
