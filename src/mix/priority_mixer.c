/* Per-joint priority composition: weighted means per rank, overlaid from the
 * lowest rank up by each rank's coverage. */
#include "rune/mix.h"

static float clamp01(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

static int rank_of(const rune_contribution *c)
{
    int p = c->priority;
    return p < 0 ? 0 : (p >= RUNE_PRIORITY_COUNT ? RUNE_PRIORITY_COUNT - 1 : p);
}

void rune_mix_overlay_joint(rune_pose *pose, size_t j, rune_vec3 t, rune_quat r, float coverage)
{
    float c = clamp01(coverage);
    if (c <= 0.0f)
        return;
    pose->t[j] = rune_v3_lerp(pose->t[j], t, c);
    pose->r[j] = rune_q_slerp(pose->r[j], r, c);
    pose->coverage[j] += c * (1.0f - pose->coverage[j]);
}

/* Weighted mean of one joint over contributions order[lo..hi). */
static void rank_mean(const rune_contribution *cs, const size_t *order, size_t lo, size_t hi, size_t j,
                      rune_pose *out)
{
    float sum = 0.0f;
    rune_vec3 at = {0.0f, 0.0f, 0.0f};
    rune_quat aq = {0.0f, 0.0f, 0.0f, 0.0f};
    for (size_t k = lo; k < hi; k++) {
        const rune_contribution *c = &cs[order[k]];
        float w = isfinite(c->weight) ? c->weight : 0.0f;
        float s = clamp01(w * c->pose->coverage[j]);
        if (s <= 0.0f)
            continue;
        rune_quat q = c->pose->r[j];
        /* sign-align without a branch: flip q when it faces away from the sum */
        float sign = rune_q_dot(aq, q) < 0.0f ? -1.0f : 1.0f;
        aq.x += s * sign * q.x;
        aq.y += s * sign * q.y;
        aq.z += s * sign * q.z;
        aq.w += s * sign * q.w;
        at = rune_v3_add(at, rune_v3_scale(c->pose->t[j], s));
        sum += s;
    }
    if (sum <= 0.0f)
        return;
    rune_mix_overlay_joint(out, j, rune_v3_scale(at, 1.0f / sum), rune_q_normalize(aq), sum > 1.0f ? 1.0f : sum);
}

void rune_mix_compose(const rune_contribution *cs, size_t count, size_t *order, rune_pose *out)
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
        for (size_t j = 0; j < out->count; j++)
            rank_mean(cs, order, lo, hi, j, out);
        lo = hi;
    }
}
