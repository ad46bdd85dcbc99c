/* Unit tests of src/scenario: the scenario loader's error reports (one per class
 * of bad input), defaults, and that a failed load leaks nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rune/io.h"
#include "counting_alloc.h"

static void expect_error(const char *doc, const char *fragment)
{
    rune_scenario *s = (rune_scenario *)1;
    rune_error err = {0};
    counting_alloc ca;
    counting_alloc_init(&ca);
    rune_status st = rune_scenario_load_string(doc, strlen(doc), "t.json", 0, &ca.iface, &s, &err);
    if (st == RUNE_OK || !strstr(err.message, fragment))
        fail_msg("expected an error containing \"%s\", got status %d: %s", fragment, st, err.message);
    assert_null(s);
    assert_int_equal(ca.live_bytes, 0); /* nothing half-loaded survives */
    assert_int_equal(strncmp(err.message, "t.json", 6), 0);
}

#define RIG "\"rig\": {\"joints\": [{\"part\": \"Root\"}, {\"part\": \"Arm\", \"parent\": \"Root\"}]}"

static void test_error_classes(void **state)
{
    (void)state;
    expect_error("{\"rig\": ", "t.json:1:");                                  /* syntax */
    expect_error("{" RIG ", \"dt\": \"fast\"}", "t.json: dt: expected a number"); /* wrong type */
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\", \"keyframes\": [{\"time\": 0, \"poses\": "
                 "[{\"part\": \"Arm\", \"easing\": \"cubc\"}]}]}]}",
                 "clips[0].keyframes[0].poses[0].easing: unknown style \"cubc\"");
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\", \"keyframes\": [{\"time\": 0, \"poses\": "
                 "[{\"part\": \"Arm\", \"direction\": \"up\"}]}]}]}",
                 "poses[0].direction: unknown direction \"up\"");
    /* non-finite: JSON has no NaN literal; an overflowing literal is refused */
    expect_error("{" RIG ", \"dt\": NaN}", "t.json:1:");
    expect_error("{" RIG ", \"dt\": 1e999}", "t.json:1:");
    expect_error("{" RIG ", \"dt\": 1e300}", "dt: number out of float range");
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\", \"keyframes\": [{\"time\": 0, \"poses\": "
                 "[{\"parent\": \"Root\"}]}]}]}",
                 "clips[0].keyframes[0].poses[0].part: missing");
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\", \"keyframes\": [{\"time\": 0, \"poses\": "
                 "[{\"part\": \"Arm\", \"r\": [0, 0, 0, 0]}]}]}]}",
                 "poses[0].r: zero-length quaternion");
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\", \"keyframes\": [{\"time\": 0, \"poses\": "
                 "[{\"part\": \"Arm\", \"t\": [0, \"x\", 0]}]}]}]}",
                 "poses[0].t[1]: expected a number");
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\", \"keyframes\": [{\"poses\": []}]}]}",
                 "clips[0].keyframes[0].time: missing");
    expect_error("{\"clips\": []}", "rig: missing");
    expect_error("{" RIG ", \"commands\": [{\"frame\": 0, \"play\": \"nope\"}]}",
                 "commands[0].play: unknown clip or motion \"nope\"");
    expect_error("{" RIG ", \"commands\": [{\"frame\": 0, \"stop\": \"w\"}]}",
                 "commands[0].stop: no play or graph command before it (by frame, then document order) starts \"w\"");
    /* names resolve in the order commands run (frame, then document):
     * a set at frame 0 on an instance that a graph command starts at frame
     * 2, listed earlier in the document, would never act */
    expect_error("{" RIG ", \"graphs\": [{\"id\": \"g\", \"params\": [{\"name\": \"p\"}], \"layers\": [{\"states\": [{\"name\": \"S\", \"motion\": \"c\"}]}]}], \"clips\": [{\"id\": \"c\"}], "
                 "\"commands\": [{\"frame\": 2, \"graph\": \"g\", \"instance\": \"i\"}, "
                 "{\"frame\": 0, \"set\": \"i\", \"param\": \"p\", \"value\": 1}]}",
                 "commands[1].set: no graph command before it (by frame, then document order) starts instance \"i\"");
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\"}], \"commands\": [{\"frame\": 3, \"play\": \"c\"}, "
                 "{\"frame\": 1, \"adjust\": \"c\", \"weight\": 0.5}]}",
                 "commands[1].adjust: no play or graph command before it");
    /* bool parameters take true, false, 0 or 1 only */
    expect_error("{" RIG ", \"graphs\": [{\"id\": \"g\", \"params\": [{\"name\": \"b\", \"type\": \"bool\"}], "
                 "\"layers\": [{\"states\": [{\"name\": \"S\", \"motion\": \"c\"}]}]}], \"clips\": [{\"id\": \"c\"}], \"commands\": [{\"frame\": 0, \"graph\": \"g\"}, "
                 "{\"frame\": 0, \"set\": \"g\", \"param\": \"b\", \"value\": 5}]}",
                 "commands[1].value: 5 for a bool parameter");
    expect_error("{" RIG ", \"graphs\": [{\"id\": \"g\", \"params\": [{\"name\": \"b\", \"type\": \"bool\", "
                 "\"value\": 2}], \"layers\": [{\"states\": [{\"name\": \"S\", \"motion\": \"c\"}]}]}], \"clips\": [{\"id\": \"c\"}]}",
                 "graphs[0].params[0].value: 2 for a bool parameter");
    expect_error("{" RIG ", \"commands\": [{\"frame\": 0}]}", "commands[0]: no action");
    expect_error("{" RIG ", \"commands\": [{\"frame\": -1, \"stop\": \"w\"}]}", "commands[0].frame");
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\"}, {\"id\": \"c\"}]}", "clips[1].id: \"c\" is already");
    expect_error("{" RIG ", \"clips\": [{\"id\": \"c\", \"priority\": \"urgent\"}]}",
                 "clips[0].priority: unknown priority \"urgent\"");
    expect_error("{" RIG ", \"dt\": 0.1, \"dt\": 0.2}", "t.json:1:"); /* duplicate key */
}

/* Unknown keys: warnings with the JSON path and the closest known key, or
 * with RUNE_SCENARIO_STRICT the first one as the error. A key holding a
 * newline (found by fuzz_load) stays one line, escaped. */
static void test_unknown_keys(void **state)
{
    (void)state;
    const char *doc = "{" RIG ", \"framez\": 3, \"clips\": [{\"id\": \"c\", \"lop\": true}],"
                      " \"comm\\nds\": []}";
    rune_scenario *s;
    rune_error err;
    assert_int_equal(rune_scenario_load_string(doc, strlen(doc), "t.json", 0, NULL, &s, &err), RUNE_OK);
    assert_int_equal(s->warning_count, 3);
    const char *want[3] = {"t.json: framez: unknown key (did you mean \"frames\"?)",
                           "t.json: comm\\x0ads: unknown key (did you mean \"commands\"?)",
                           "t.json: clips[0].lop: unknown key (did you mean \"loop\"?)"};
    for (size_t i = 0; i < 3; i++) {
        bool found = false;
        for (size_t k = 0; k < s->warning_count; k++)
            found |= strcmp(s->warnings[k], want[i]) == 0;
        if (!found)
            fail_msg("missing warning: %s", want[i]);
    }
    rune_scenario_destroy(s);
    assert_int_equal(rune_scenario_load_string(doc, strlen(doc), "t.json", RUNE_SCENARIO_STRICT, NULL, &s, &err),
                     RUNE_E_INVALID);
    assert_null(strchr(err.message, '\n'));
    assert_non_null(strstr(err.message, "unknown key"));
}

static void test_defaults_and_negative_key_time(void **state)
{
    (void)state;
    const char *doc = "{" RIG ", \"clips\": [{\"id\": \"c\", \"keyframes\": [{\"time\": -0.5, \"poses\": "
                      "[{\"parent\": \"Root\", \"part\": \"Arm\"}]}]}], "
                      "\"commands\": [{\"frame\": 2, \"play\": \"c\"}, {\"frame\": 1, \"play\": \"c\", \"track\": \"x\"}]}";
    rune_scenario *s;
    rune_error err;
    assert_int_equal(rune_scenario_load_string(doc, strlen(doc), "t.json", 0, NULL, &s, &err), RUNE_OK);
    assert_int_equal(s->frames, 1);
    assert_true(fabsf(s->dt - 1.0f / 30.0f) < 1e-9f);
    const rune_key_pose_desc *p = &s->clips[0].keyframes[0].poses[0];
    assert_true(p->weight == 1.0f && p->mask_weight == 0.0f);
    assert_int_equal(p->easing, RUNE_EASE_LINEAR);
    assert_int_equal(p->direction, RUNE_EASE_IN);
    assert_int_equal(s->clips[0].priority, RUNE_PRIORITY_CORE);
    /* commands sorted by frame */
    assert_int_equal(s->commands[0].frame, 1);
    assert_string_equal(s->commands[0].track, "x");
    assert_string_equal(s->commands[1].track, "c"); /* track defaults to the clip id */
    assert_true(s->commands[1].play.fade == 0.1f && s->commands[1].play.weight == 1.0f &&
                s->commands[1].play.speed == 1.0f);
    rune_scenario_destroy(s);
}

static void test_run_errors_name_the_command(void **state)
{
    (void)state;
    const char *doc = "{" RIG ", \"commands\": [{\"frame\": 0, \"control\": \"look\", \"joint\": \"Root/Neck\"}]}";
    rune_scenario *s;
    rune_error err;
    assert_int_equal(rune_scenario_load_string(doc, strlen(doc), "t.json", 0, NULL, &s, &err), RUNE_OK);
    assert_int_equal(rune_scenario_run(s, NULL, NULL, NULL, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "t.json: commands[0].joint: no joint \"Root/Neck\""));
    rune_scenario_destroy(s);

    const char *bad_rig = "{\"rig\": {\"joints\": [{\"part\": \"Hand\", \"parent\": \"Arm\"}]}}";
    assert_int_equal(rune_scenario_load_string(bad_rig, strlen(bad_rig), "r.json", 0, NULL, &s, &err), RUNE_OK);
    assert_int_equal(rune_scenario_run(s, NULL, NULL, NULL, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "r.json: rig.joints[0].parent"));
    rune_scenario_destroy(s);
}

/* Fails allocation k of load + prepare + run, for every k until the run
 * succeeds: each failure is an error, never a crash, and frees everything.
 * Returns how many allocation sites were exercised. */
static size_t fail_every_allocation(const char *doc)
{
    for (size_t k = 1;; k++) {
        counting_alloc ca;
        counting_alloc_init(&ca);
        ca.fail_at = k;
        rune_scenario *s = NULL;
        rune_status st = rune_scenario_load_string(doc, strlen(doc), "t.json", 0, &ca.iface, &s, NULL);
        if (!st) {
            st = rune_scenario_run(s, &ca.iface, NULL, NULL, NULL);
            rune_scenario_destroy(s);
        }
        assert_true(st == RUNE_OK || st == RUNE_E_NOMEM);
        if (ca.live_bytes) {
            print_message("%zu bytes leaked when allocation %zu failed\n", ca.live_bytes, k);
            counting_alloc_report(&ca);
        }
        assert_int_equal(ca.live_bytes, 0);
        if (st == RUNE_OK && ca.attempts < k)
            return k - 1;
    }
}

static void test_graph_scenario_allocation_failures(void **state)
{
    (void)state;
    const char *doc =
        "{" RIG ", \"clips\": ["
        "{\"id\": \"a\", \"loop\": true, \"keyframes\": [{\"time\": 0, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\"}]},"
        "  {\"time\": 1, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [1,0,0]}]}], \"markers\": [{\"time\": 0.5, \"name\": \"m\"}]},"
        "{\"id\": \"b\", \"loop\": true, \"keyframes\": [{\"time\": 0, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [0,1,0]}]},"
        "  {\"time\": 2, \"poses\": [{\"part\": \"Root\", \"t\": [0,0,2]}]}]}],"
        "\"motions\": [{\"id\": \"mix\", \"type\": \"blend1d\", \"param\": \"speed\", \"samples\": ["
        "  {\"clip\": \"a\", \"threshold\": 0}, {\"clip\": \"b\", \"threshold\": 1}]}],"
        "\"graphs\": [{\"id\": \"g\", \"params\": [{\"name\": \"speed\"}, {\"name\": \"go\", \"type\": \"trigger\"}],"
        "  \"layers\": [{\"states\": [{\"name\": \"A\", \"motion\": \"a\", \"sync\": \"s\"}, {\"name\": \"M\", \"motion\": \"mix\", \"sync\": \"s\"}],"
        "    \"transitions\": [{\"from\": \"A\", \"to\": \"M\", \"duration\": 0.3, \"conditions\": [{\"param\": \"go\"}]}]},"
        "   {\"blend\": \"additive\", \"weight\": 0.5, \"mask\": [{\"joint\": \"Root\", \"propagate\": true}],"
        "    \"states\": [{\"name\": \"B\", \"motion\": \"b\"}]}]}],"
        "\"frames\": 100,"
        "\"commands\": [{\"frame\": 0, \"graph\": \"g\", \"instance\": \"g1\"}, {\"frame\": 0, \"play\": \"mix\", \"track\": \"m\"},"
        "  {\"frame\": 2, \"set\": \"m\", \"param\": \"speed\", \"value\": 0.5}, {\"frame\": 3, \"trigger\": \"g1\", \"param\": \"go\"},"
        "  {\"frame\": 40, \"travel\": \"g1\", \"state\": \"A\"}, {\"frame\": 60, \"stop\": \"g1\"}]}";
    rune_scenario *s;
    rune_error err;
    assert_int_equal(rune_scenario_load_string(doc, strlen(doc), "t.json", 0, NULL, &s, &err), RUNE_OK);
    rune_scenario_destroy(s);
    assert_true(fail_every_allocation(doc) > 40);
}

static void test_load_and_run_allocation_failures(void **state)
{
    (void)state;
    const char *doc = "{" RIG ", \"clips\": [{\"id\": \"c\", \"loop\": true, \"keyframes\": ["
                      "{\"time\": 0, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\"}]},"
                      "{\"time\": 1, \"poses\": [{\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [1,0,0]}]}],"
                      "\"markers\": [{\"time\": 0.5, \"name\": \"m\"}]}], \"frames\": 100,"
                      "\"commands\": [{\"frame\": 0, \"play\": \"c\"}, {\"frame\": 3, \"play\": \"c\", \"track\": \"b\"},"
                      "{\"frame\": 5, \"control\": \"k\", \"joint\": \"Root/Arm\"}, {\"frame\": 50, \"stop\": \"b\"}]}";
    assert_true(fail_every_allocation(doc) > 10); /* every allocation site was failed once */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_classes),
        cmocka_unit_test(test_unknown_keys),
        cmocka_unit_test(test_defaults_and_negative_key_time),
        cmocka_unit_test(test_run_errors_name_the_command),
        cmocka_unit_test(test_load_and_run_allocation_failures),
        cmocka_unit_test(test_graph_scenario_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
