/* BVH export (export_source.h): one clip, the rig as the hierarchy, each
 * joint's OFFSET its rest translation (the root's 0: its position
 * channels carry all of it, as in motion capture files), rotation channels
 * Zrotation Xrotation Yrotation holding the whole local rotation (BVH has
 * no rest rotation: R = Rz Rx Ry, degrees), one frame every 1 / rate
 * seconds. The root, and any joint whose translation moves (a Mixamo
 * armature's hips), also has position channels holding its whole
 * translation, and OFFSET 0 (assimp takes positions as the translation,
 * three.js adds the offset to them: with 0 both read the same). BVH holds no scale: uniform rest scales are
 * baked into the offsets and positions below them (a skeleton of rigid
 * joints in the same places), other scales are refused. */
#include "export_source.h"
#include "cli.h"
#include "rig/rig_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEG (180.0 / 3.14159265358979323846)

/* Z, X, Y angles (degrees) with R(q) = Rz(z) Rx(x) Ry(y). */
static void euler_zxy(rune_quat q, double out[3])
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    double r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
    double r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z);
    double r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
    (void)r02;
    double sx = fmax(-1.0, fmin(1.0, r21));
    double ax = asin(sx), az, ay;
    if (fabs(sx) < 0.9999999) {
        ay = atan2(-r20, r22);
        az = atan2(-r01, r11);
    } else { /* gimbal: Y folds into Z */
        ay = 0.0;
        az = atan2(r10, r00);
    }
    out[0] = az * DEG, out[1] = ax * DEG, out[2] = ay * DEG;
}

static void indent(FILE *f, int depth)
{
    for (int i = 0; i < depth; i++)
        fputc('\t', f);
}

/* The uniform scale a joint's rest frames up to it apply (its own
 * included): what its children's offsets are multiplied by. */
static double scale_down_to(const rune_rig *rig, int32_t j)
{
    double k = 1.0;
    for (; j >= 0; j = rune_rig_parent(rig, (size_t)j))
        k *= rune_rig_frame_scale(rig, (size_t)j).x;
    return k;
}

static void write_joint(const export_source *src, const bool *moves, FILE *f, size_t j, int depth)
{
    const rune_rig *rig = src->rig;
    bool root = rune_rig_parent(rig, j) < 0;
    rune_xform fr = rune_rig_frame(rig, j);
    double k = scale_down_to(rig, rune_rig_parent(rig, j));
    indent(f, depth);
    fprintf(f, "%s %s\n", root ? "ROOT" : "JOINT", src->names[j]);
    indent(f, depth), fputs("{\n", f);
    indent(f, depth + 1);
    if (root || moves[j]) /* positions whole (readers differ on adding the offset to them: 0 agrees) */
        fputs("OFFSET 0 0 0\n", f);
    else
        fprintf(f, "OFFSET %.9g %.9g %.9g\n", k * fr.t.x, k * fr.t.y, k * fr.t.z);
    indent(f, depth + 1);
    fputs(root || moves[j] ? "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                           : "CHANNELS 3 Zrotation Xrotation Yrotation\n",
          f);
    bool leaf = true;
    for (size_t c = j + 1; c < rune_rig_joint_count(rig); c++)
        if (rune_rig_parent(rig, c) == (int32_t)j) {
            write_joint(src, moves, f, c, depth + 1);
            leaf = false;
        }
    if (leaf) {
        indent(f, depth + 1), fputs("End Site\n", f);
        indent(f, depth + 1), fputs("{\n", f);
        indent(f, depth + 2), fputs("OFFSET 0 0 0\n", f);
        indent(f, depth + 1), fputs("}\n", f);
    }
    indent(f, depth), fputs("}\n", f);
}

/* The rate frames are written at: --fps, a compressed clip's, the clip's
 * own keys' when every track is keyed every 1/r seconds, else 30. */
static float frame_rate(const export_source *src, const rune_clip *c)
{
    rune_clip_compression z;
    if (src->fps)
        return src->fps;
    if (rune_clip_compressed(c, &z) && z.dt > 0.0f)
        return 1.0f / z.dt;
    double step = 0.0;
    for (size_t k = 0; k < rune_clip_track_count(c); k++)
        for (size_t i = 1; i < rune_clip_track_key_count(c, k); i++) {
            double d = (double)rune_clip_track_key_time(c, k, i) - rune_clip_track_key_time(c, k, i - 1);
            if (step == 0.0)
                step = d;
            if (!(d > 0.0) || fabs(d - step) > 1e-4 * step)
                return 30.0f;
        }
    return step > 0.0 ? (float)(1.0 / step) : 30.0f;
}

bool export_bvh(const export_source *src, FILE *f, char *msg, size_t msg_size)
{
    const rune_rig *rig = src->rig;
    size_t n = rune_rig_joint_count(rig);
    const rune_clip *c = src->clips[0];
    for (size_t j = 0; j < n; j++) {
        rune_vec3 s = rune_rig_frame_scale(rig, j);
        if (s.x != s.y || s.x != s.z || !(s.x > 0.0f)) {
            snprintf(msg, msg_size, "BVH holds no scale, and joint \"%s\" has a rest scale of %g %g %g (a uniform "
                                    "one is baked into the offsets; this is not): export to .glb instead",
                     src->names[j], s.x, s.y, s.z);
            return false;
        }
    }
    export_source at_rate = *src;
    at_rate.fps = frame_rate(src, c);
    export_clip x;
    if (!export_clip_make(&at_rate, c, &x)) {
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    size_t frames = 0;
    bool *moves = calloc(n ? n : 1, sizeof *moves);
    if (!moves) {
        export_clip_free(&x);
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    for (size_t j = 0; j < n; j++) {
        frames = x.joints[j].count > frames ? x.joints[j].count : frames;
        rune_vec3 rest_s = rune_rig_frame_scale(rig, j);
        bool rescaled = false; /* keys scaling other than the rest's */
        for (size_t i = 0; i < x.joints[j].count; i++)
            rescaled |= x.joints[j].s[i].x != rest_s.x || x.joints[j].s[i].y != rest_s.y ||
                        x.joints[j].s[i].z != rest_s.z;
        if (rescaled) {
            snprintf(msg, msg_size, "BVH holds no scale, and clip \"%s\" scales joint \"%s\": export to .glb instead",
                     rune_clip_id(c), src->names[j]);
            export_clip_free(&x);
            free(moves);
            return false;
        }
        /* below the root, a joint whose translation moves gets positions */
        rune_xform fr = rune_rig_frame(rig, j);
        for (size_t i = 0; rune_rig_parent(rig, j) >= 0 && i < x.joints[j].count; i++) {
            rune_vec3 d = rune_v3_sub(x.joints[j].t[i], fr.t);
            moves[j] |= rune_v3_dot(d, d) > 1e-12f * rune_rig_height(rig) * rune_rig_height(rig);
        }
    }
    frames = frames ? frames : 1;
    fputs("HIERARCHY\n", f);
    for (size_t j = 0; j < n; j++)
        if (rune_rig_parent(rig, j) < 0)
            write_joint(src, moves, f, j, 0);
    fprintf(f, "MOTION\nFrames: %zu\nFrame Time: %.9g\n", frames, 1.0 / at_rate.fps);
    /* each frame's channels in the hierarchy's order: depth first */
    size_t *stack = malloc((n ? n : 1) * sizeof *stack);
    if (!stack) {
        free(moves);
        export_clip_free(&x);
        snprintf(msg, msg_size, "out of memory");
        return false;
    }
    for (size_t i = 0; i < frames; i++) {
        bool first = true;
        size_t top = 0;
        for (size_t r = n; r-- > 0;)
            if (rune_rig_parent(rig, r) < 0)
                stack[top++] = r;
        while (top) {
            size_t j = stack[--top];
            const export_channel *ch = &x.joints[j];
            rune_xform fr = rune_rig_frame(rig, j);
            size_t key = i < ch->count ? i : ch->count - 1;
            rune_vec3 t = ch->count ? ch->t[key] : fr.t;
            double e[3];
            euler_zxy(ch->count ? ch->r[key] : fr.r, e);
            if (rune_rig_parent(rig, j) < 0 || moves[j]) { /* in the units of the model, scales baked */
                double k = scale_down_to(rig, rune_rig_parent(rig, j));
                fprintf(f, "%s%.9g %.9g %.9g", first ? "" : " ", k * t.x, k * t.y, k * t.z);
                first = false;
            }
            fprintf(f, "%s%.9g %.9g %.9g", first ? "" : " ", e[0], e[1], e[2]);
            first = false;
            for (size_t c2 = n; c2-- > j + 1;) /* children, the first on top */
                if (rune_rig_parent(rig, c2) == (int32_t)j)
                    stack[top++] = c2;
        }
        fputc('\n', f);
    }
    free(stack);
    free(moves);
    export_clip_free(&x);
    return true;
}
