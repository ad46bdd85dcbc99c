/* libFuzzer target: rune's own glTF reading (sampler modes, accessors, base64
 * data URIs, GLB chunks) on arbitrary bytes written as a .gltf or .glb file.
 * assimp's glTF loader is not involved: its bugs are not ours to find here. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "../src/import/gltf_interpolation.h"

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    /* the first byte picks the container; the rest is the file */
    snprintf(path, sizeof path, "/tmp/rune-fuzz-%d.%s", (int)getpid(), size && (data[0] & 1) ? "glb" : "gltf");
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    if (size > 1)
        fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    rune__arena arena;
    rune__arena_init(&arena, NULL);
    gltf_channel_mode *m;
    bool nomem;
    size_t n = rune__gltf_channel_modes(path, &arena, &m, &nomem);
    /* read every time and value: an array shorter than it claims shows up
     * under ASan */
    volatile float sum = 0.0f;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; m[i].times && k < m[i].keys; k++)
            sum += m[i].times[k];
        for (size_t k = 0; m[i].values && k < 3 * m[i].keys * (size_t)m[i].width; k++)
            sum += m[i].values[k];
    }
    (void)sum;
    rune__arena_release(&arena);
    remove(path);
    return 0;
}
