/* A crowd: many characters, each running the locomotion graph at its own
 * speed, updated together by a batch (the calling thread plus workers).
 *
 *     crowd [CHARACTERS [FRAMES [WORKERS]]]     defaults 1000 120 1
 *
 * Prints the time of each 30th frame and the mean. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <rune/rune.h>
#include <rune/io.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef EXAMPLE_DATA
#define EXAMPLE_DATA "examples"
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    size_t count = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
    int frames = argc > 2 ? atoi(argv[2]) : 120;
    size_t workers = argc > 3 ? strtoul(argv[3], NULL, 10) : 1;
    rune_error err;
    rune_scenario *doc;
    rune_library *lib = NULL;
    if (rune_scenario_load_file(EXAMPLE_DATA "/locomotion.json", NULL, &doc, &err) ||
        rune_scenario_library(doc, NULL, &lib, &err)) {
        fprintf(stderr, "crowd: %s\n", err.message);
        return 1;
    }
    rune_scenario_destroy(doc);
    uint32_t graph, speed;
    int32_t hips;
    rune_batch *batch;
    rune_character **crowd = calloc(count ? count : 1, sizeof *crowd);
    if (!crowd || rune_library_find_graph(lib, "locomotion", &graph, &err) ||
        rune_graph_find_param(rune_library_graph(lib, graph), "speed", &speed, &err) ||
        rune_library_find_joint(lib, "Hips", &hips, &err) || rune_batch_create(workers, NULL, &batch, &err)) {
        fprintf(stderr, "crowd: %s\n", crowd ? err.message : "out of memory");
        return 1;
    }
    /* matrices every frame, streamed: a game reads them after the whole
     * crowd updated (skinning, an upload), not right after each character */
    rune_character_desc desc = {.lib = lib, .root_joint = hips, .matrices = true, .stream_matrices = true};
    for (size_t i = 0; i < count; i++) {
        uint32_t h;
        rune_play_params p = rune_play_defaults();
        p.fade = 0.0f;
        p.speed = 0.9f + 0.2f * (float)(i % 7) / 7.0f; /* not in lockstep */
        if (rune_character_create(&desc, NULL, &crowd[i], &err) ||
            rune_character_start_graph(crowd[i], graph, &p, &h, &err)) {
            fprintf(stderr, "crowd: %s\n", err.message);
            return 1;
        }
        rune_character_set_param(crowd[i], h, speed, 0.5f + 3.5f * (float)(i % 10) / 10.0f);
    }
    double total = 0.0;
    for (int f = 0; f < frames; f++) {
        double t0 = now();
        size_t failed = rune_batch_run(batch, crowd, count, 1.0f / 60.0f);
        double t = now() - t0;
        total += t;
        for (size_t i = 0; i < count; i++)
            rune_character_deliver(crowd[i], NULL, NULL);
        if (failed) {
            fprintf(stderr, "crowd: %zu updates failed\n", failed);
            return 1;
        }
        if (f % 30 == 29)
            printf("frame %3d: %zu characters in %.2f ms\n", f, count, 1e3 * t);
    }
    printf("mean %.2f ms per frame (%zu characters, %zu worker%s + caller, matrices included)\n",
           frames ? 1e3 * total / frames : 0.0, count, workers, workers == 1 ? "" : "s");
    rune_batch_destroy(batch);
    for (size_t i = 0; i < count; i++)
        rune_character_destroy(crowd[i]);
    free(crowd);
    rune_library_destroy(lib);
    return 0;
}
