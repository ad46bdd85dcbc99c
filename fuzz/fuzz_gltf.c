/* libFuzzer target: rune's own glTF reading (sampler modes, accessors, base64
 * data URIs, GLB chunks, morph target weights with their names) on
 * arbitrary bytes written as a .gltf or .glb file.
 * assimp's glTF loader is not involved: its bugs are not ours to find here. */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "../src/import/gltf_interpolation.h"
#include "../src/import/gltf_weights.h"

#include <string.h>

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
    gltf_weights *w;
    size_t nw = rune__gltf_weight_channels(path, &arena, &w, &nomem);
    for (size_t i = 0; i < nw; i++) {
        if (!w[i].readable)
            continue;
        size_t per_key = w[i].mode == GLTF_CUBIC ? 3 : 1;
        for (size_t k = 0; k < w[i].keys; k++)
            sum += w[i].times[k];
        for (size_t k = 0; k < w[i].keys * per_key * w[i].targets; k++)
            sum += w[i].values[k];
        for (size_t t = 0; t < w[i].targets; t++)
            sum += (float)strlen(w[i].names[t]);
    }
    (void)sum;
    rune__arena_release(&arena);
    remove(path);
    return 0;
}
