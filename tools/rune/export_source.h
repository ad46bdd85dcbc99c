/* What `rune export` writes (cmd_export.c): a rig, its clips and meshes,
 * from a .rune or a scenario, and the samples of a clip as glTF-style
 * node transforms. The writers: export_gltf.c, export_bvh.c. */
#ifndef RUNE_TOOLS_EXPORT_SOURCE_H
#define RUNE_TOOLS_EXPORT_SOURCE_H

#include "rune/rune.h"

#include <stdio.h>

typedef struct export_source {
    const rune_rig *rig;
    const rune_clip *const *clips; /* the ones to write */
    size_t clip_count;
    const rune_mesh *meshes;
    size_t mesh_count;
    float fps; /* resampling rate asked for (--fps), or 0: the clip's own */
    const char *const *names; /* per joint: its node name (the part, made unique) */
} export_source;

/* A clip as channels: per joint, key times and the local transform (rest
 * frame composed with the pose: translation ft + R(fr)(fs * t), rotation
 * fr q, scale fs * s) at each. Exact clips of linear keys keep their own
 * key times, a joint's track's; others (eased keys, compressed clips) are
 * sampled every 1 / fps seconds (the clip's sample rate when compressed,
 * else 30, unless --fps), end included. Joints the clip does not move
 * have no times. */
typedef struct export_channel {
    float *time;
    rune_vec3 *t, *s;
    rune_quat *r;
    size_t count;
    bool scaled; /* some key scales */
} export_channel;

typedef struct export_clip {
    export_channel *joints; /* per joint */
    size_t joint_count;
    float rate; /* resampling rate used (0: the clip's keys) */
} export_clip;

/* Builds the channels of clip `c`; false when out of memory. */
bool export_clip_make(const export_source *src, const rune_clip *c, export_clip *out);
void export_clip_free(export_clip *x);

/* Writes a .glb (binary) or .gltf (one JSON file, its buffer inline):
 * false with a message. */
bool export_gltf(const export_source *src, FILE *f, bool binary, char *msg, size_t msg_size);
/* Writes a .bvh of clip src->clips[0]: false with a message. */
bool export_bvh(const export_source *src, FILE *f, char *msg, size_t msg_size);

#endif
