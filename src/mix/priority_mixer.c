/* Per-joint priority composition: weighted means per rank, overlaid from the
 * lowest rank up by each rank's coverage. */
#include "rune/mix.h"

static int rank_of(const rune_contribution *c)
{
    int p = c->priority;
    return p < 0 ? 0 : (p >= RUNE_PRIORITY_COUNT ? RUNE_PRIORITY_COUNT - 1 : p);
}

void rune_mix_overlay_joint(rune_pose *pose, size_t j, rune_vec3 t, rune_quat r, float coverage)
{
    float c = rune_clamp01(coverage);
    if (c <= 0.0f)
        return;
    if (c >= 1.0f) { /* a full overlay replaces: slerp(a, b, 1) is b */
        pose->t[j] = t;
        pose->r[j] = r;
        pose->coverage[j] = 1.0f;
        return;
    }
    pose->t[j] = rune_v3_lerp(pose->t[j], t, c);
    pose->r[j] = rune_q_slerp(pose->r[j], r, c);
    pose->coverage[j] += c * (1.0f - pose->coverage[j]);
}

void rune_mix_accum_reset(rune_pose *acc)
{
    for (size_t j = 0; j < acc->count; j++) {
        acc->t[j] = rune_v3(0.0f, 0.0f, 0.0f);
        acc->r[j] = rune_q(0.0f, 0.0f, 0.0f, 0.0f);
        acc->coverage[j] = 0.0f;
    }
}

void rune_mix_accumulate(rune_pose *acc, const rune_pose *pose, float weight)
{
    float w = isfinite(weight) ? weight : 0.0f;
    size_t n = acc->count < pose->count ? acc->count : pose->count;
    for (size_t j = 0; j < n; j++) {
        float s = rune_clamp01(w * pose->coverage[j]);
        rune_quat q = pose->r[j];
        rune_quat *a = &acc->r[j];
        /* flip q into the running sum's hemisphere; a select, not a branch */
        float ss = rune_q_dot(*a, q) < 0.0f ? -s : s;
        a->x += ss * q.x;
        a->y += ss * q.y;
        a->z += ss * q.z;
        a->w += ss * q.w;
        acc->t[j].x += s * pose->t[j].x;
        acc->t[j].y += s * pose->t[j].y;
        acc->t[j].z += s * pose->t[j].z;
        acc->coverage[j] += s;
    }
}

/* Mean of joint j of an accumulator; false when nothing covered it. */
static bool joint_mean(const rune_pose *acc, size_t j, rune_vec3 *t, rune_quat *r, float *c)
{
    float sum = acc->coverage[j];
    if (!(sum > 0.0f))
        return false;
    *t = rune_v3_scale(acc->t[j], 1.0f / sum);
    *r = rune_q_normalize(acc->r[j]);
    *c = sum > 1.0f ? 1.0f : sum;
    return true;
}

void rune_mix_accum_mean(const rune_pose *acc, rune_pose *out)
{
    size_t n = acc->count < out->count ? acc->count : out->count;
    for (size_t j = 0; j < n; j++) {
        if (!joint_mean(acc, j, &out->t[j], &out->r[j], &out->coverage[j])) {
            out->t[j] = rune_v3(0.0f, 0.0f, 0.0f);
            out->r[j] = rune_q_identity();
            out->coverage[j] = 0.0f;
        }
    }
}

void rune_mix_compose(const rune_contribution *cs, size_t count, size_t *order, rune_pose *acc, rune_pose *sample,
                      rune_pose *out)
{
    rune_pose_reset(out);
    /* stable insertion sort of indexes by rank: contribution lists are short */
    for (size_t i = 0; i < count; i++) {
        size_t k = i;
        while (k > 0 && rank_of(&cs[order[k - 1]]) > rank_of(&cs[i])) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    for (size_t lo = 0; lo < count;) {
        size_t hi = lo + 1;
        while (hi < count && rank_of(&cs[order[hi]]) == rank_of(&cs[order[lo]]))
            hi++;
        rune_mix_accum_reset(acc);
        for (size_t k = lo; k < hi; k++) {
            const rune_contribution *c = &cs[order[k]];
            const rune_pose *p = c->pose;
            if (!p && c->track && sample) {
                rune_track_sample(c->track, sample);
                p = sample;
            }
            if (p)
                rune_mix_accumulate(acc, p, c->weight);
        }
        for (size_t j = 0; j < out->count; j++) {
            rune_vec3 t;
            rune_quat r;
            float c;
            if (joint_mean(acc, j, &t, &r, &c))
                rune_mix_overlay_joint(out, j, t, r, c);
        }
        lo = hi;
    }
}
