/* The C API under misuse (docs/reliability.md, "Misuse of the C API"):
 * a NULL where a function returning rune_status needs a pointer is
 * RUNE_E_INVALID with a message naming the function and the argument,
 * never a crash; a batch run skips NULL entries and updates a character
 * listed twice once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rune/io.h"

#define SCENARIO RUNE_TEST_DATA "/scenarios/cubic_inout.json"

/* The status is RUNE_E_INVALID and the message is exactly `want`. */
static void expect_invalid(rune_status st, const rune_error *err, const char *want)
{
    assert_int_equal(st, RUNE_E_INVALID);
    assert_int_equal(err->status, RUNE_E_INVALID);
    assert_string_equal(err->message, want);
}

static void test_null_arguments(void **state)
{
    (void)state;
    rune_error err;
    rune_scenario *doc;
    rune_library *lib;
    expect_invalid(rune_scenario_load_file(SCENARIO, NULL, NULL, &err), &err, "rune_scenario_load_file: out is NULL");
    expect_invalid(rune_scenario_load_file(NULL, NULL, &doc, &err), &err, "rune_scenario_load_file: path is NULL");
    expect_invalid(rune_scenario_library(NULL, NULL, &lib, &err), &err, "rune_scenario_library: scenario is NULL");
    expect_invalid(rune_library_create(NULL, 5, NULL, &lib, &err), &err,
                   "rune_library_create: joints is NULL but joint_count is 5");
    expect_invalid(rune_character_update(NULL, 0.1f, &err), &err, "rune_character_update: ch is NULL");
    rune_character_desc none = {0};
    rune_character *ch;
    expect_invalid(rune_character_create(&none, NULL, &ch, &err), &err, "rune_character_create: desc->lib is NULL");
    expect_invalid(rune_clip_compile(NULL, NULL, NULL, &err), &err, "rune_clip_compile: desc is NULL");
    /* with a character: a NULL control, NULL matrices */
    assert_int_equal(rune_scenario_load_file(SCENARIO, NULL, &doc, &err), RUNE_OK);
    assert_int_equal(rune_scenario_library(doc, NULL, &lib, &err), RUNE_OK);
    rune_scenario_destroy(doc);
    rune_character_desc d = {.lib = lib, .root_joint = RUNE_NO_ROOT};
    assert_int_equal(rune_character_create(&d, NULL, &ch, &err), RUNE_OK);
    expect_invalid(rune_character_set_control(ch, NULL, &err), &err, "rune_character_set_control: control is NULL");
    rune_mat4 out[64];
    assert_false(rune_character_skinning_matrices(ch, NULL, false, out));
    /* a NULL error report is allowed everywhere */
    assert_int_equal(rune_character_update(NULL, 0.1f, NULL), RUNE_E_INVALID);
    rune_character_destroy(ch);
    rune_library_destroy(lib);
}

/* A batch of [a, NULL, a, b]: a and b advance one step each (as two
 * characters updated alone do), the NULL and the repeat count as failed;
 * a NULL list with a count is an empty run. */
static void test_batch_misuse(void **state)
{
    (void)state;
    rune_error err;
    rune_scenario *doc;
    rune_library *lib;
    assert_int_equal(rune_scenario_load_file(SCENARIO, NULL, &doc, &err), RUNE_OK);
    assert_int_equal(rune_scenario_library(doc, NULL, &lib, &err), RUNE_OK);
    rune_scenario_destroy(doc);
    rune_character_desc d = {.lib = lib, .root_joint = RUNE_NO_ROOT};
    rune_character *a, *b, *alone;
    assert_int_equal(rune_character_create(&d, NULL, &a, &err), RUNE_OK);
    assert_int_equal(rune_character_create(&d, NULL, &b, &err), RUNE_OK);
    assert_int_equal(rune_character_create(&d, NULL, &alone, &err), RUNE_OK);
    uint32_t h;
    for (rune_character **c = (rune_character *[]){a, b, alone}, **end = c + 3; c < end; c++)
        assert_int_equal(rune_character_play_clip(*c, 0, NULL, &h, &err), RUNE_OK);
    rune_batch *batch;
    assert_int_equal(rune_batch_create(1, NULL, &batch, &err), RUNE_OK);
    rune_character *list[4] = {a, NULL, a, b};
    for (int frame = 0; frame < 3; frame++) {
        assert_int_equal(rune_batch_run(batch, list, 4, 0.25f), 2);
        assert_int_equal(rune_character_update(alone, 0.25f, &err), RUNE_OK);
    }
    assert_int_equal(rune_batch_run(batch, NULL, 4, 0.25f), 0);
    const rune_pose *pa = rune_character_pose(a), *pb = rune_character_pose(b), *p = rune_character_pose(alone);
    for (size_t j = 0; j < p->count; j++) {
        assert_memory_equal(&pa->qx[j], &p->qx[j], sizeof(float));
        assert_memory_equal(&pb->qx[j], &p->qx[j], sizeof(float));
        assert_memory_equal(&pa->tx[j], &p->tx[j], sizeof(float));
    }
    rune_batch_destroy(batch);
    rune_character_destroy(a);
    rune_character_destroy(b);
    rune_character_destroy(alone);
    rune_library_destroy(lib);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_batch_misuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
