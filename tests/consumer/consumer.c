/* A program that uses an installed rune, as a new user's would: a rig and
 * a clip built through the API, a character playing it, the clip
 * compressed through rune_compress, and (with RUNE_CONSUMER_IO) a scenario
 * document run through rune_io. Exits 0 when the arm moved where the clip
 * says and the compressed clip came back compressed. */
#include <rune/rune.h>
#include <rune/compress.h>
#ifdef RUNE_CONSUMER_IO
#include <rune/io.h>
#endif

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    rune_joint_desc joints[2] = {{"Root", NULL, {{0, 0, 0}, {0, 0, 0, 1}}}, {"Arm", "Root", {{0, 1, 0}, {0, 0, 0, 1}}}};
    rune_key_pose_desc a = {"Root", "Arm", {0, 0, 0}, {0, 0, 0, 1}, 1, 0, RUNE_EASE_LINEAR, RUNE_EASE_IN};
    rune_key_pose_desc b = a;
    b.t.x = 2.0f;
    rune_keyframe_desc keys[2] = {{0.0f, &a, 1}, {1.0f, &b, 1}};
    rune_sequence_desc clip = {"reach", 1, false, RUNE_PRIORITY_ACTION, keys, 2, NULL, 0};
    rune_error err;
    rune_library *lib;
    rune_character *ch;
    uint32_t reach;
    if (rune_library_create(joints, 2, NULL, &lib, &err) || rune_library_add_clip(lib, &clip, &reach, &err)) {
        fprintf(stderr, "consumer: %s\n", err.message);
        return 1;
    }
    rune_character_desc desc = {.lib = lib, .root_joint = RUNE_NO_ROOT};
    rune_play_params p = rune_play_defaults();
    p.fade = 0.0f;
    if (rune_character_create(&desc, NULL, &ch, &err) || rune_character_play_clip(ch, reach, &p, NULL, &err) ||
        rune_character_update(ch, 0.5f, &err)) {
        fprintf(stderr, "consumer: %s\n", err.message);
        return 1;
    }
    float x = rune_character_pose(ch)->tx[1]; /* half way: 1 */
    printf("rune %s: Root/Arm x = %g after 0.5 s\n", RUNE_VERSION_STRING, (double)x);
    rune_character_destroy(ch);
    int rc = fabsf(x - 1.0f) < 1e-6f ? 0 : 1;
    /* offline: the same clip compressed for the library's rig */
    rune_clip *exact = NULL, *packed = NULL;
    if (rune_clip_compile(&clip, NULL, &exact, &err) ||
        rune_clip_compress(exact, rune_library_rig(lib), NULL, NULL, &packed, &err)) {
        fprintf(stderr, "consumer: %s\n", err.message);
        return 1;
    }
    rc |= rune_clip_compressed(packed, NULL) ? 0 : 1;
    rune_clip_info info = rune_clip_describe(packed);
    printf("compressed %s: %zu bytes\n", info.id, info.bytes);
    rune_clip_destroy(packed);
    rune_clip_destroy(exact);
    rune_library_destroy(lib);
#ifdef RUNE_CONSUMER_IO
    if (argc > 1) {
        rune_scenario *s;
        if (rune_scenario_load_file(argv[1], NULL, &s, &err) || rune_scenario_run(s, NULL, NULL, NULL, &err)) {
            fprintf(stderr, "consumer: %s\n", err.message);
            return 1;
        }
        printf("ran %s: %d frames\n", argv[1], s->frames);
        rune_scenario_destroy(s);
    }
#else
    (void)argc;
    (void)argv;
#endif
    return rc;
}
