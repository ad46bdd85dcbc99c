/* A sweep of hostile numbers through whole scenarios (clip and motion
 * tracks, a two-layer graph with a cross-fade, blend-space parameters):
 * speeds, steps, clip lengths, weights, fades and transition durations,
 * key values and blend inputs from 0 and denormals to the ends of float
 * range, one class at a time and then at random together. Every input
 * must load (or be rejected with a one-line message), run in bounded time
 * and report only finite numbers. The counts per class are the figures of
 * docs/reliability.md. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "rune/io.h"
#include "test_random.h"

/* The knobs of one input. */
typedef struct knobs {
    double speed, dt, length, play_weight, key_weight, key_t, layer_weight, graph_weight, fade, duration,
        state_speed, px, py;
    int easing;
} knobs;

static const knobs base = {1, 1.0 / 30, 1, 1, 1, 1, 1, 1, 0.1, 0.2, 1, 0.3, 0.7, 0};

static const double speeds[] = {0, 1e-30, -1e-30, 1e-6, 1, -1, 7, 1e6, -1e6, 1e17, -1e17, 1e30, -1e30, 3.4e38, -3.4e38};
static const double steps[] = {0, 1e-40, -1e-40, 1e-20, 1e-3, 1.0 / 60, -1.0 / 60, 1, 1e9, -1e9, 1e20, 1e30, 1e36};
static const double lengths[] = {0, 1e-38, 1e-20, 1e-6, 0.7, 1, 1e6, 1e18};
static const double weights[] = {0, 1e-45, 1e-40, 1e-39, 1e-20, 1e-12, 1e-7, 0.5, 1, 5, 1e30, 3.4e38, -1, -3.4e38};
static const double fades[] = {0, 1e-45, 1e-40, 1e-20, 0.1, 1e20, 3.4e38};
static const double values[] = {0, 1e-40, -1e-40, 1e-7, 1, -1, 1e9, 1e18, -1e18, 1e30, -3.4e38};
static const double inputs[] = {0, 1e-40, -1e-40, 1e-6, 0.5, -1, 3, 1e18, 1e30, -3.4e38, 3.4e38};

static const char *const easings[] = {"linear", "constant", "sine", "quad", "cubic", "quart", "quint",
                                      "exponential", "circular", "back", "elastic", "bounce"};
static const char *const directions[] = {"in", "out", "inout"};

/* The document for one input. */
static int write_doc(char *buf, size_t size, const knobs *k)
{
    const char *style = easings[k->easing % 12], *dir = directions[(k->easing / 12) % 3];
    return snprintf(
        buf, size,
        "{\"rig\": {\"joints\": [{\"part\": \"Root\"}, {\"part\": \"Arm\", \"parent\": \"Root\"},"
        " {\"part\": \"Leg\", \"parent\": \"Root\"}]},"
        "\"clips\": ["
        "{\"id\": \"c\", \"loop\": true, \"keyframes\": ["
        "  {\"time\": 0, \"poses\": [{\"part\": \"Root\", \"t\": [0, 0, 0]}, {\"parent\": \"Root\", \"part\": \"Arm\", \"weight\": %.9g}]},"
        "  {\"time\": %.9g, \"poses\": [{\"part\": \"Root\", \"t\": [%.9g, 0, %.9g], \"r\": [0, 0.6, 0, 0.8],"
        "    \"easing\": \"%s\", \"direction\": \"%s\"}, {\"parent\": \"Root\", \"part\": \"Arm\", \"t\": [%.9g, 1, 0], \"weight\": %.9g,"
        "    \"easing\": \"%s\", \"direction\": \"%s\"}]}],"
        "  \"markers\": [{\"time\": 0, \"name\": \"a\"}, {\"time\": %.9g, \"name\": \"b\"}, {\"time\": %.9g, \"name\": \"c\"}]},"
        "{\"id\": \"d\", \"keyframes\": [{\"time\": 0, \"poses\": [{\"parent\": \"Root\", \"part\": \"Leg\", \"t\": [1, 0, 0]}]},"
        "  {\"time\": %.9g, \"poses\": [{\"parent\": \"Root\", \"part\": \"Leg\", \"r\": [1, 0, 0, 0]}]}],"
        "  \"markers\": [{\"time\": %.9g, \"name\": \"m\"}]}],"
        "\"motions\": [{\"id\": \"dirs\", \"type\": \"blend2d\", \"mode\": \"directional\", \"params\": [\"x\", \"y\"],"
        "  \"samples\": [{\"clip\": \"c\", \"position\": [0, 0]}, {\"clip\": \"d\", \"position\": [0, 1], \"speed\": %.9g},"
        "    {\"clip\": \"c\", \"position\": [1, 0]}]},"
        " {\"id\": \"line\", \"type\": \"blend1d\", \"param\": \"x\", \"samples\": [{\"motion\": \"dirs\", \"threshold\": 0},"
        "    {\"clip\": \"d\", \"threshold\": 1}]}],"
        "\"graphs\": [{\"id\": \"g\", \"params\": [{\"name\": \"x\"}, {\"name\": \"y\"}, {\"name\": \"go\", \"type\": \"trigger\"}],"
        "  \"layers\": [{\"states\": [{\"name\": \"A\", \"motion\": \"c\", \"speed\": %.9g, \"sync\": \"s\"},"
        "      {\"name\": \"B\", \"motion\": \"line\", \"speed\": %.9g, \"sync\": \"s\"}],"
        "    \"transitions\": [{\"from\": \"A\", \"to\": \"B\", \"duration\": %.9g, \"conditions\": [{\"param\": \"go\"}]},"
        "      {\"from\": \"B\", \"to\": \"A\", \"duration\": %.9g, \"exit_time\": 0.5}]},"
        "   {\"blend\": \"additive\", \"weight\": %.9g, \"mask\": [{\"joint\": \"Root\", \"propagate\": true}],"
        "    \"states\": [{\"name\": \"D\", \"motion\": \"d\"}]}]}],"
        "\"dt\": %.9g, \"frames\": 6,"
        "\"commands\": ["
        " {\"frame\": 0, \"play\": \"c\", \"speed\": %.9g, \"weight\": %.9g, \"fade\": %.9g},"
        " {\"frame\": 0, \"play\": \"line\", \"track\": \"m\", \"speed\": %.9g, \"weight\": %.9g},"
        " {\"frame\": 0, \"set\": \"m\", \"param\": \"x\", \"value\": %.9g},"
        " {\"frame\": 0, \"set\": \"m\", \"param\": \"y\", \"value\": %.9g},"
        " {\"frame\": 0, \"graph\": \"g\", \"weight\": %.9g, \"fade\": %.9g},"
        " {\"frame\": 1, \"set\": \"g\", \"param\": \"x\", \"value\": %.9g},"
        " {\"frame\": 1, \"trigger\": \"g\", \"param\": \"go\"},"
        " {\"frame\": 2, \"control\": \"look\", \"joint\": \"Root/Arm\", \"t\": [%.9g, 0, 0], \"weight\": %.9g},"
        " {\"frame\": 3, \"stop\": \"c\", \"fade\": %.9g},"
        " {\"frame\": 4, \"adjust\": \"m\", \"speed\": %.9g}]}",
        k->key_weight, k->length, k->key_t, -k->key_t, style, dir, k->key_t, k->key_weight, style, dir, k->length / 2,
        k->length, k->length, k->length / 3, k->state_speed, k->state_speed, k->state_speed, k->duration,
        k->duration, k->layer_weight, k->dt, k->speed, k->play_weight, k->fade, k->speed, k->play_weight, k->px, k->py,
        k->graph_weight, k->fade, k->px, k->key_t, k->layer_weight, k->fade, -k->speed);
}

typedef struct tally {
    size_t inputs, rejected, frames;
    double slowest;
} tally;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static rune_status check_frame(void *user, const rune_frame_report *r)
{
    tally *t = user;
    char what[160];
    if (!rune_frame_report_finite(r, what, sizeof what))
        fail_msg("frame %d: non-finite %s", r->frame, what);
    t->frames++;
    return RUNE_OK;
}

/* One input: loads or is rejected with one line; runs in bounded time;
 * reports only finite numbers. */
static void run_one(const knobs *k, tally *t)
{
    static char doc[8192];
    int n = write_doc(doc, sizeof doc, k);
    assert_true(n > 0 && (size_t)n < sizeof doc);
    rune_scenario *s;
    rune_error err = {0};
    t->inputs++;
    double t0 = now();
    rune_status st = rune_scenario_load_string(doc, (size_t)n, "hostile.json", 0, NULL, &s, &err);
    if (!st) {
        st = rune_scenario_run(s, NULL, check_frame, t, &err);
        rune_scenario_destroy(s);
    }
    double spent = now() - t0;
    t->slowest = spent > t->slowest ? spent : t->slowest;
    if (st) {
        t->rejected++;
        if (st != RUNE_E_INVALID || !err.message[0] || strchr(err.message, '\n'))
            fail_msg("status %d, message \"%s\" for:\n%s", st, err.message, doc);
    }
    if (spent > 1.0)
        fail_msg("%.2f s for one input (bounded work per step):\n%s", spent, doc);
}

#define SWEEP(field, list)                                                                                            \
    do {                                                                                                              \
        for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {                                                   \
            knobs k = base;                                                                                           \
            k.field = list[i];                                                                                        \
            run_one(&k, &t);                                                                                          \
        }                                                                                                             \
    } while (0)

static double pick(const double *list, size_t n, uint32_t *seed)
{
    return list[(size_t)((test_random(seed) + 1.0f) * 0.5f * (float)n) % n];
}

static void report(const char *what, const tally *t)
{
    print_message("%-34s %5zu inputs, %4zu rejected (one line each), %6zu frames, slowest %.1f ms, "
                  "0 crashes, 0 hangs, 0 non-finite\n",
                  what, t->inputs, t->rejected, t->frames, 1e3 * t->slowest);
}

static void test_one_knob_at_a_time(void **state)
{
    (void)state;
    tally t = {0};
    SWEEP(speed, speeds);
    SWEEP(state_speed, speeds);
    report("speeds (tracks, motions, states)", &t);
    t = (tally){0};
    SWEEP(dt, steps);
    report("steps (dt)", &t);
    t = (tally){0};
    SWEEP(length, lengths);
    report("clip lengths", &t);
    t = (tally){0};
    SWEEP(play_weight, weights);
    SWEEP(key_weight, weights);
    SWEEP(layer_weight, weights);
    SWEEP(graph_weight, weights);
    report("weights (play, key, layer, graph)", &t);
    t = (tally){0};
    SWEEP(fade, fades);
    SWEEP(duration, fades);
    report("fades and transition durations", &t);
    t = (tally){0};
    SWEEP(key_t, values);
    SWEEP(px, inputs);
    SWEEP(py, inputs);
    report("key values and blend inputs", &t);
    t = (tally){0};
    for (int e = 0; e < 36; e++) {
        knobs k = base;
        k.easing = e;
        k.key_t = 1e18;
        run_one(&k, &t);
    }
    report("easings at the largest keys", &t);
}

static void test_random_combinations(void **state)
{
    (void)state;
    tally t = {0};
    uint32_t seed = 12345;
#define N(list) (sizeof list / sizeof list[0])
    for (int i = 0; i < 2000; i++) {
        knobs k = {pick(speeds, N(speeds), &seed),         pick(steps, N(steps), &seed),
                   pick(lengths, N(lengths), &seed),       pick(weights, N(weights), &seed),
                   pick(weights, N(weights), &seed),       pick(values, N(values), &seed),
                   pick(weights, N(weights), &seed),       pick(weights, N(weights), &seed),
                   pick(fades, N(fades), &seed),           pick(fades, N(fades), &seed),
                   pick(speeds, N(speeds), &seed),         pick(inputs, N(inputs), &seed),
                   pick(inputs, N(inputs), &seed),         (int)((test_random(&seed) + 1.0f) * 18.0f) % 36};
        run_one(&k, &t);
    }
#undef N
    report("random combinations", &t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_knob_at_a_time),
        cmocka_unit_test(test_random_combinations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
