/* Chain IK by FABRIK (Aristidou and Lasenby 2011; docs/semantics.md,
 * "chain"), and the rotations that carry a chain's bones from their old
 * positions to their solved ones. Each joint is placed in double at its
 * bone's length, read once from the input, so lengths stay exact to float
 * precision however many passes run. */
#include "rune/ik.h"
#include "ik_math.h"

/* The point at distance `len` from `from` toward p (along `keep` when p
 * lies on `from`). */
static rune_vec3 place(rune_vec3 from, rune_vec3 p, double len, dvec keep)
{
    dvec d = dv_sub(dv_of(p), dv_of(from));
    double l = dv_len(d);
    dvec dir = l > IK_TINY * (len + 1.0) ? dv_scale(d, 1.0 / l) : keep;
    return dv_out(dv_add(dv_of(from), dv_scale(dir, len)));
}

static double distance(rune_vec3 a, rune_vec3 b) { return dv_len(dv_sub(dv_of(a), dv_of(b))); }

/* One pass: the end onto the target and each joint onto its bone's length
 * from the one after it, then the root back in place and each joint onto
 * its length from the one before. A joint that lands on its neighbour
 * keeps its bone's old direction. */
static void pass(rune_vec3 *p, size_t n, const double *len, rune_vec3 root, rune_vec3 target)
{
    rune_vec3 old = p[n - 1];
    p[n - 1] = target;
    for (size_t i = n - 1; i-- > 0;) {
        dvec keep = dv_unit(dv_sub(dv_of(p[i]), dv_of(old)), 0.0);
        old = p[i];
        p[i] = place(p[i + 1], p[i], len[i], keep);
    }
    old = p[0];
    p[0] = root;
    for (size_t i = 0; i + 1 < n; i++) {
        dvec keep = dv_unit(dv_sub(dv_of(p[i + 1]), dv_of(old)), 0.0);
        old = p[i + 1];
        p[i + 1] = place(p[i], p[i + 1], len[i], keep);
    }
}

void rune_ik_chain(const rune_ik_chain_job *job, rune_ik_chain_result *out)
{
    rune_vec3 *p = job->positions;
    size_t n = job->count;
    *out = (rune_ik_chain_result){0, 0.0f, false};
    if (!p || n < 2 || n > RUNE_IK_MAX_CHAIN)
        return;
    double len[RUNE_IK_MAX_CHAIN], total = 0.0;
    for (size_t i = 0; i + 1 < n; i++)
        total += len[i] = distance(p[i + 1], p[i]);
    rune_vec3 root = p[0], target = job->target;
    double tol = job->tolerance > 0.0f && isfinite(job->tolerance) ? (double)job->tolerance : 1e-4 * total;
    uint32_t passes = job->iterations ? job->iterations : 16;
    double dist = distance(p[n - 1], target);
    if (total > IK_TINY && dist > tol && distance(target, root) >= total) {
        /* out of reach: straight at it */
        dvec dir = dv_unit(dv_sub(dv_of(target), dv_of(root)), IK_TINY);
        for (size_t i = 0; i + 1 < n; i++)
            p[i + 1] = place(p[i], dv_out(dv_add(dv_of(p[i]), dir)), len[i], dir);
        out->iterations = 1;
        dist = distance(p[n - 1], target);
    }
    while (total > IK_TINY && dist > tol && out->iterations < passes) {
        out->iterations++;
        pass(p, n, len, root, target);
        dist = distance(p[n - 1], target);
    }
    out->distance = (float)dist;
    out->reached = dist <= tol;
}

void rune_ik_chain_rotations(const rune_vec3 *before, const rune_vec3 *after, size_t count, rune_quat *out)
{
    dquat acc = dq_identity(); /* the parent's turn */
    for (size_t i = 0; i + 1 < count; i++) {
        dvec old = dq_rotate(acc, dv_sub(dv_of(before[i + 1]), dv_of(before[i])));
        dvec now = dv_sub(dv_of(after[i + 1]), dv_of(after[i]));
        acc = dq_unit(dq_mul(dq_from_to(old, now, dv(0, 0, 0)), acc));
        out[i] = dq_out(acc);
    }
    if (count)
        out[count - 1] = count > 1 ? out[count - 2] : rune_q_identity();
}
