/* Embedding rune: one character with a locomotion graph and an upper-body
 * action on top, driven frame by frame as a game would.
 *
 *     character [examples/locomotion.json]
 *
 * The scenario file supplies the rig, the clips, the "loco" blend space
 * and the "locomotion" graph (its timeline is not used: this program is
 * the game). Prints a joint, the root travel and the signals. */
#include <rune/rune.h>
#include <rune/io.h>

#include <stdio.h>

#ifndef EXAMPLE_DATA
#define EXAMPLE_DATA "examples"
#endif

static void on_signal(void *user, const rune_event *e)
{
    int frame = *(const int *)user;
    if (e->kind == RUNE_EVENT_MARKER)
        printf("  frame %3d: marker %s = %s (play %u)\n", frame, e->name, e->value, e->source);
    else
        printf("  frame %3d: %s (play %u)\n", frame, e->kind == RUNE_EVENT_LOOP ? "loop" : "stopped", e->source);
}

static int fail(const rune_error *err)
{
    fprintf(stderr, "character: %s\n", err->message);
    return 1;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : EXAMPLE_DATA "/locomotion.json";
    rune_error err;

    /* 1. What the rig can play: a library, here built from a scenario
     *    document (rune_library_add_clip & co. build one by hand). */
    rune_scenario *doc;
    if (rune_scenario_load_file(path, NULL, &doc, &err))
        return fail(&err);
    rune_library *lib;
    rune_status st = rune_scenario_library(doc, NULL, &lib, &err);
    rune_scenario_destroy(doc); /* the library keeps what it needs */
    if (st)
        return fail(&err);

    /* 2. Names are looked up once; a misspelt one fails here, not later. */
    uint32_t locomotion, speed, wave;
    int32_t hips, arm;
    if (rune_library_find_graph(lib, "locomotion", &locomotion, &err) ||
        rune_graph_find_param(rune_library_graph(lib, locomotion), "speed", &speed, &err) ||
        rune_library_find_clip(lib, "wave", &wave, &err) || rune_library_find_joint(lib, "Hips", &hips, &err) ||
        rune_library_find_joint(lib, "Chest/ArmR", &arm, &err))
        return fail(&err);

    /* 3. One character: root motion read from (and removed at) the hips. */
    rune_character_desc desc = {.lib = lib, .root_joint = hips};
    rune_character *ch;
    if (rune_character_create(&desc, NULL, &ch, &err))
        return fail(&err);
    uint32_t legs;
    if (rune_character_start_graph(ch, locomotion, NULL, &legs, &err))
        return fail(&err);

    /* 4. The game loop. */
    const float dt = 1.0f / 60.0f;
    float travel = 0.0f;
    for (int frame = 0; frame < 120; frame++) {
        if (frame == 10)
            rune_character_set_param(ch, legs, speed, 2.0f); /* start walking */
        if (frame == 60) {
            /* an upper-body action above locomotion: the clip keys only the
             * arms, so the legs keep walking underneath */
            rune_play_params p = rune_play_defaults();
            p.fade = 0.15f;
            if (rune_character_play_clip(ch, wave, &p, NULL, &err))
                return fail(&err);
        }
        if (rune_character_update(ch, dt, &err))
            return fail(&err);
        rune_character_deliver(ch, on_signal, &frame);
        rune_root_delta d = rune_character_root_delta(ch);
        travel += d.dz;
        if (frame % 30 == 29) {
            const rune_pose *pose = rune_character_pose(ch);
            rune_quat q = rune_pose_r(pose, arm);
            printf("frame %3d: Chest/ArmR r = [%.3f %.3f %.3f %.3f], root dz %.4f m, travelled %.3f m\n", frame, q.x,
                   q.y, q.z, q.w, d.dz, travel);
        }
    }

    /* 5. Characters first, then the library they borrow. */
    rune_character_destroy(ch);
    rune_library_destroy(lib);
    return travel > 0.5f ? 0 : 1; /* it walked */
}
