/* libFuzzer target: the solver controls on fuzzed geometry. The input's
 * bytes become a 6-joint rig (rest frames, scales), a pose and up to four
 * controls of any type with any settings; controls that rune_control_check
 * accepts run through rune_controls_apply. Every pose channel and model
 * matrix must stay finite (finite input, finite output), and one input's
 * work must stay bounded. The solvers are also fed the raw geometry
 * directly, degenerate cases included (coincident joints, targets on the
 * root, poles on the chain's line). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "rune/mix.h"
#include "mix/mix_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

/* A finite float from the next bytes: small integers and halves (so
 * coincident points happen), or a raw float clamped to +-1e6. */
static float next(reader *r)
{
    if (r->n == 0)
        return 0.0f;
    uint8_t tag = *r->p++;
    r->n--;
    if (tag < 128 || r->n < 4)
        return (float)((int)(tag & 15) - 8) * 0.5f;
    float v;
    memcpy(&v, r->p, 4);
    r->p += 4, r->n -= 4;
    return isfinite(v) ? fmaxf(-1e6f, fminf(1e6f, v)) : 1.0f;
}

static rune_vec3 vec(reader *r) { return rune_v3(next(r), next(r), next(r)); }
static rune_quat quat(reader *r) { return rune_q(next(r), next(r), next(r), next(r)); }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void check(bool ok)
{
    if (!ok)
        __builtin_trap();
}

static bool finite_q(rune_quat q) { return isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    double t0 = now();
    static const char *parts[6] = {"A", "B", "C", "D", "E", "F"};
    rune_joint_desc j[6];
    for (int i = 0; i < 6; i++) {
        float s = fabsf(next(&r));
        j[i] = (rune_joint_desc){parts[i], i ? parts[i - 1] : NULL, {vec(&r), quat(&r)},
                                 rune_v3(s, s, s), s > 0.0f && s < 100.0f};
    }
    rune_rig *rig = NULL;
    if (rune_rig_create(j, 6, NULL, &rig, NULL) != RUNE_OK)
        return 0;
    rune_pose pose;
    if (rune_pose_init(&pose, 6, NULL, NULL) != RUNE_OK) {
        rune_rig_destroy(rig);
        return 0;
    }
    for (size_t i = 0; i < 6; i++) {
        rune_quat q = quat(&r);
        float n = sqrtf(rune_q_dot(q, q));
        rune_pose_set(&pose, i, vec(&r), n > 1e-6f && isfinite(n) ? rune_q_normalize(q) : rune_q_identity(), 1.0f);
    }
    rune_control cs[4];
    size_t count = 0;
    for (int k = 0; k < 4 && r.n > 0; k++) {
        int mode = (int)fabsf(next(&r)) % RUNE_CONTROL_MODE_COUNT;
        rune_control c = rune_control_defaults((rune_control_mode)mode);
        c.id = (uint32_t)k + 1;
        c.joint = (int32_t)fabsf(next(&r)) % 6;
        c.root = (int32_t)next(&r) % 6;
        c.priority = (int)next(&r);
        c.weight = next(&r);
        c.target = vec(&r), c.target_r = quat(&r), c.has_target_r = next(&r) > 0.0f;
        c.pole = vec(&r), c.has_pole = next(&r) > 0.0f;
        c.soften = fabsf(next(&r)) / 4.0f, c.twist = next(&r);
        c.forward = vec(&r), c.up = vec(&r), c.offset = vec(&r), c.limit = next(&r);
        c.iterations = 1u + (uint32_t)fabsf(next(&r)) % 64u, c.tolerance = 1e-4f + fabsf(next(&r)) / 1e7f;
        c.xform = (rune_xform){vec(&r), quat(&r)};
        if (rune_control_check(rig, &c, NULL) == RUNE_OK)
            cs[count++] = c;
    }
    void *scratch = calloc(1, rune_controls_scratch_bytes(rig));
    size_t order[4];
    if (scratch) {
        rune_controls_apply(rig, cs, count, order, scratch, &pose);
        for (size_t i = 0; i < 6; i++) {
            check(finite_q(rune_pose_r(&pose, i)) && isfinite(pose.tx[i]) && isfinite(pose.coverage[i]));
            check(fabsf(rune_q_dot(rune_pose_r(&pose, i), rune_pose_r(&pose, i)) - 1.0f) < 1e-3f);
        }
        for (size_t k = 0; k < count; k++) {
            rune_control_state st;
            rune_control_measure(rig, &pose, &cs[k], scratch, &st);
            check(isfinite(st.error) && isfinite(st.effector.x));
        }
    }
    /* the solvers on the raw geometry */
    rune_ik_two_bone_job tb = {vec(&r), vec(&r), vec(&r), quat(&r), vec(&r), vec(&r), next(&r) > 0, 0.5f, next(&r)};
    rune_ik_two_bone_result tr;
    rune_ik_two_bone(&tb, &tr);
    check(finite_q(tr.root_delta) && finite_q(tr.mid_delta) && isfinite(tr.end.x));
    rune_ik_aim_job aj = {vec(&r), rune_q_identity(), 1.0f, vec(&r), vec(&r), vec(&r), vec(&r), vec(&r), next(&r)};
    rune_ik_aim_result ar;
    rune_ik_aim(&aj, &ar);
    check(finite_q(ar.delta));
    free(scratch);
    rune_pose_release(&pose);
    rune_rig_destroy(rig);
    check(now() - t0 < 1.0);
    return 0;
}
