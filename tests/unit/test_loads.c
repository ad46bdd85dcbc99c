/* Loads at 100,000 names: a rig, its lookups (unique, ambiguous and
 * duplicate names), a keyframe of 100,000 float curves read from JSON, a
 * clip of 100,000 tracks bound by name, and a retarget mapping of
 * 100,000 joints onto 100,000 by name. Each once took a linear scan per
 * name (minutes at this size); the answers are checked here, and the
 * bound on the time is this test's CTest TIMEOUT (growth figures:
 * `rune bench --only loads`). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rune/io.h"
#include "rig/rig_internal.h"

enum { N = 100000, NAME = 24 };

/* N joints: "J0" and N/2 - 1 arms "A1".. under it, each with a "Hand"
 * (repeated part names, unique parent/part pairs). */
typedef struct big_rig {
    char (*names)[NAME];
    rune_joint_desc *joints;
    size_t count;
} big_rig;

static void big_rig_make(big_rig *r)
{
    r->names = calloc(N, sizeof *r->names);
    r->joints = calloc(N, sizeof *r->joints);
    assert_non_null(r->names);
    assert_non_null(r->joints);
    r->count = 0;
    rune_xform rest = {{0, 1, 0}, {0, 0, 0, 1}};
    snprintf(r->names[0], NAME, "J0");
    r->joints[r->count++] = (rune_joint_desc){r->names[0], NULL, rest, {1, 1, 1}, false};
    for (size_t a = 1; r->count + 1 < N; a++) {
        size_t arm = r->count;
        snprintf(r->names[arm], NAME, "A%zu", a);
        r->joints[r->count++] = (rune_joint_desc){r->names[arm], "J0", rest, {1, 1, 1}, false};
        r->joints[r->count++] = (rune_joint_desc){"Hand", r->names[arm], rest, {1, 1, 1}, false};
    }
}

static void big_rig_free(big_rig *r)
{
    free(r->names);
    free(r->joints);
}

static void test_rig_lookups(void **state)
{
    (void)state;
    big_rig r;
    big_rig_make(&r);
    rune_rig *rig;
    rune_error err;
    assert_int_equal(rune_rig_create(r.joints, r.count, NULL, &rig, &err), RUNE_OK);
    assert_int_equal(rune_rig_joint_count(rig), r.count);
    /* A7 is joint 13 (J0, then A1 Hand A2 Hand ...), its Hand 14 */
    assert_int_equal(rune_rig_find(rig, "A7"), 13);
    assert_int_equal(rune_rig_find(rig, "A7/Hand"), 14);
    assert_int_equal(rune_rig_find(rig, "Hand"), -1); /* ambiguous */
    assert_int_equal(rune_rig_find(rig, "A7/Foot"), -1);
    /* a last joint under "Hand" is ambiguous; under "A7/Hand" it is not;
     * a second A7/Hand is a duplicate */
    rune_joint_desc more = {"Finger", "Hand", {{0, 0, 0}, {0, 0, 0, 1}}, {1, 1, 1}, false};
    assert_int_equal(rune_rig_add_joint(rig, &more, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "ambiguous"));
    more.parent = "A7/Hand";
    assert_int_equal(rune_rig_add_joint(rig, &more, &err), RUNE_OK);
    assert_int_equal(rune_rig_find(rig, "Hand/Finger"), (int32_t)r.count);
    more = (rune_joint_desc){"Hand", "A7", {{0, 0, 0}, {0, 0, 0, 1}}, {1, 1, 1}, false};
    assert_int_equal(rune_rig_add_joint(rig, &more, &err), RUNE_E_INVALID);
    assert_non_null(strstr(err.message, "duplicate joint \"A7/Hand\""));
    rune_rig_destroy(rig);
    big_rig_free(&r);
}

/* One keyframe of N curves "c0".. (c_k = k / N) in a scenario document:
 * every curve joins the library's rig, each found by name. */
static void test_curves_in_one_key(void **state)
{
    (void)state;
    size_t cap = (size_t)N * 32 + 256, len = 0;
    char *doc = malloc(cap);
    assert_non_null(doc);
    len += (size_t)snprintf(doc + len, cap - len,
                            "{\"rig\": {\"joints\": [{\"part\": \"Root\"}]}, \"clips\": [{\"id\": \"c\", "
                            "\"keyframes\": [{\"time\": 0, \"curves\": {");
    for (size_t k = 0; k < N; k++)
        len += (size_t)snprintf(doc + len, cap - len, "%s\"c%zu\": %.9g", k ? ", " : "", k, (double)k / N);
    len += (size_t)snprintf(doc + len, cap - len, "}}]}]}");
    rune_scenario *s;
    rune_library *lib;
    rune_error err;
    assert_int_equal(rune_scenario_load_string(doc, len, "curves.json", 0, NULL, &s, &err), RUNE_OK);
    assert_int_equal(rune_scenario_library(s, NULL, &lib, &err), RUNE_OK);
    assert_int_equal(rune_rig_curve_count(rune_library_rig(lib)), N);
    uint32_t c;
    assert_int_equal(rune_library_find_curve(lib, "c99999", &c, &err), RUNE_OK);
    assert_string_equal(rune_rig_curve_name(rune_library_rig(lib), c), "c99999");
    rune_curve_sample v;
    const rune_clip *clip = rune_library_clip(lib, 0);
    rune_clip_sample_curve(clip, (size_t)rune_clip_find_curve(clip, "c99999"), 0.0f, &v);
    assert_float_equal(v.value, 0.99999f, 1e-6f);
    rune_library_destroy(lib);
    rune_scenario_destroy(s);
    free(doc);
}

/* A clip keying every joint by parent and part binds all of them; a
 * retarget mapping of the rig onto a copy of itself pairs every joint
 * with its namesake (exact names). */
static void test_bind_and_retarget(void **state)
{
    (void)state;
    big_rig r;
    big_rig_make(&r);
    rune_rig *rig, *copy;
    assert_int_equal(rune_rig_create(r.joints, r.count, NULL, &rig, NULL), RUNE_OK);
    assert_int_equal(rune_rig_create(r.joints, r.count, NULL, &copy, NULL), RUNE_OK);
    rune_key_pose_desc *poses = calloc(r.count, sizeof *poses);
    assert_non_null(poses);
    for (size_t j = 0; j < r.count; j++)
        poses[j] = (rune_key_pose_desc){r.joints[j].parent ? r.joints[j].parent : "", r.joints[j].part,
                                        {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN,
                                        {1, 1, 1}, false};
    rune_keyframe_desc key = {0.0f, poses, r.count, NULL, 0};
    rune_sequence_desc seq = {"all", 1, false, 0, &key, 1, NULL, 0, 0.0f};
    rune_clip *clip;
    rune_binding *b;
    rune_retarget *rt;
    rune_error err;
    assert_int_equal(rune_clip_compile(&seq, NULL, &clip, &err), RUNE_OK);
    assert_int_equal(rune_binding_create(rig, clip, NULL, NULL, &b, &err), RUNE_OK);
    assert_int_equal(rune_binding_bound_count(b), r.count);
    assert_int_equal(rune_retarget_create(&(rune_retarget_desc){copy, rig, NULL, 0, false}, NULL, &rt, &err), RUNE_OK);
    assert_int_equal(rune_retarget_mapped_count(rt), r.count);
    assert_int_equal(rune_retarget_source_of(rt, 14), 14);
    assert_int_equal(rune_retarget_how(rt, 14), RUNE_RETARGET_EXACT);
    rune_retarget_destroy(rt);
    rune_binding_destroy(b);
    rune_clip_destroy(clip);
    free(poses);
    rune_rig_destroy(copy);
    rune_rig_destroy(rig);
    big_rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rig_lookups),
        cmocka_unit_test(test_curves_in_one_key),
        cmocka_unit_test(test_bind_and_retarget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
