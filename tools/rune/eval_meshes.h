/* `rune eval --vertices N`: the skinned meshes of what is evaluated, every
 * N-th vertex of each in model space after morphs and skinning, and with
 * --previous the same vertices skinned with the previous frame's matrices
 * (docs/eval-output.md, "Meshes"). */
#ifndef RUNE_TOOLS_EVAL_MESHES_H
#define RUNE_TOOLS_EVAL_MESHES_H

#include "rune/io.h"
#include "rune/skin.h"

#include <stdio.h>

typedef struct eval_meshes eval_meshes;

/* The meshes of `file` (a .rune, an importable file, or a scenario whose
 * rig came from an asset) as `s` plays them: NULL with a message when
 * there are none or they cannot be read (*rc set), or out of memory. */
eval_meshes *eval_meshes_open(const char *file, const rune_scenario *s, size_t every, rune_skin_method method,
                              bool previous, char *msg, size_t msg_size, int *rc);
/* Skins this frame's pose and writes `, "meshes": {...}` (and
 * `"previous"`) to f; with f NULL (a frame not printed) only keeps its
 * matrices for the next. False when a skinning job fails. */
bool eval_meshes_frame(eval_meshes *m, const rune_frame_report *r, FILE *f);
void eval_meshes_close(eval_meshes *m);
/* The meshes found (owned by m) and how many. */
const rune_mesh *eval_meshes_list(const eval_meshes *m, size_t *count);

#endif
