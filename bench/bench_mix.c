/* Sample + mix n clips on an animator, and the naive reference doing the
 * same, timed: the measure behind the (b) rows, the kernel-level rows and
 * the cost growth table. */
#include "bench.h"
#include "mix/mix_internal.h"

#include <string.h>

typedef struct mix_ctx {
    rune_animator *anim;
    bench_ref_input in[8];
    size_t n;
    rune_pose scratch[8], out;
} mix_ctx;

static void mix_fast(void *p)
{
    mix_ctx *c = p;
    rune_animator_advance(c->anim, BENCH_DT);
    rune_animator_evaluate(c->anim, NULL, 0, NULL);
    rune_animator_deliver(c->anim, NULL, NULL);
}

static void mix_naive(void *p)
{
    mix_ctx *c = p;
    for (size_t i = 0; i < c->n; i++)
        c->in[i].time += BENCH_DT;
    bench_ref_sample_mix(c->in, c->n, c->scratch, &c->out);
}

/* plays i at weight 1 / (i + 1), starting 0.1 s apart */
static int mix_setup(mix_ctx *c, const rune_rig *rig, const rune_binding *const *bindings, size_t n,
                     rune_simd_level level)
{
    size_t joints = rune_rig_joint_count(rig);
    c->n = n;
    if (rune_animator_create(rig, 0, NULL, &c->anim, NULL) || rune_pose_init(&c->out, joints, NULL, NULL))
        return 1;
    rune_animator_set_simd(c->anim, level);
    for (size_t i = 0; i < n; i++) {
        float w = 1.0f / (float)(i + 1);
        rune_play_params pp = {.fade = 0.0f, .weight = w, .speed = 1.0f, .time = 0.1f * (float)i};
        if (rune_animator_play(c->anim, bindings[i], &pp, NULL, NULL) ||
            rune_pose_init(&c->scratch[i], joints, NULL, NULL))
            return 1;
        c->in[i] = (bench_ref_input){bindings[i], 0.1f * (float)i, w, rune_clip_priority(rune_binding_clip(bindings[i]))};
    }
    return 0;
}

int bench_mix_measure(const bench_plan *p, const rune_rig *rig, const rune_binding *const *bindings, size_t n,
                      rune_simd_level level, bench_row *row)
{
    mix_ctx c;
    memset(&c, 0, sizeof c);
    if (n > 8)
        n = 8;
    int rc = mix_setup(&c, rig, bindings, n, level);
    if (!rc) {
        double per = 1e9 / (double)rune_rig_joint_count(rig);
        bench_timing fast = bench_measure(mix_fast, &c, p->samples, p->sample_s, false);
        bench_timing naive = bench_measure(mix_naive, &c, p->samples / 2 + 1, p->sample_s, false);
        row->median = fast.median * per;
        row->min = fast.min * per;
        row->naive = naive.median * per;
    }
    rune_animator_destroy(c.anim);
    for (size_t i = 0; i < c.n; i++)
        rune_pose_release(&c.scratch[i]);
    rune_pose_release(&c.out);
    return rc;
}
