/* Two-bone IK (docs/semantics.md, "two_bone"): the mid joint bends about
 * its hinge until the chain spans the (softened, clamped) distance to the
 * target, the root turns the chain onto the target, then about the
 * root-to-target axis so that the mid joint lies toward the pole (or in
 * the plane closest to its current one), then by the twist. Rotations
 * come from vectors by half-angle identities: no trigonometry but for a
 * non-zero twist, and a dozen square roots. */
#include "rune/ik.h"
#include "ik_math.h"

/* The distance the chain spans for a target at distance d: soften < 1
 * eases the last (1 - soften) of the length, d' = s + r (1 - e^-((d -
 * s) / r)) with s = soften L, r = L - s, continuous with its slope at s
 * and approaching L; then clamped to what the bones can span. */
static double reach(double d, double l1, double l2, double soften)
{
    double len = l1 + l2;
    if (soften < 1.0) {
        double start = len * (soften > 0.0 ? soften : 0.0), rest = len - start;
        if (d > start)
            d = start + rest * (1.0 - exp(-(d - start) / rest));
    }
    double lo = fabs(l1 - l2);
    return d < lo ? lo : (d > len ? len : d);
}

/* The rotation about unit n taking a to b, both perpendicular to n:
 * (n (a x b).n, |a||b| + a.b) normalized; half a turn when opposite,
 * identity when either is zero. */
static dquat turn_about(dvec n, dvec a, dvec b)
{
    double ab = sqrt(dv_dot(a, a) * dv_dot(b, b));
    double s = dv_dot(dv_cross(a, b), n), w = ab + dv_dot(a, b);
    double len2 = s * s + w * w;
    if (!(ab > 0.0))
        return dq_identity();
    if (len2 <= 1e-24 * ab * ab)
        return (dquat){n.x, n.y, n.z, 0.0};
    double k = 1.0 / sqrt(len2);
    return (dquat){n.x * s * k, n.y * s * k, n.z * s * k, w * k};
}

/* The hinge of a straight (or folded) chain along unit e_ab: toward the
 * pole's side when there is one (the lower bone then swings away from it,
 * which puts the mid on it, so the root need not roll), else the mid
 * joint's local X axis (Z when X lies along the bone). */
static dvec straight_hinge(const rune_ik_two_bone_job *job, dvec a, dvec e_ab, double tiny)
{
    if (job->has_pole) {
        /* the hinge itself is tested: a pole on the chain's line leaves
         * a rounding residue along the bone, whose cross product with it
         * can be exactly 0 (found by fuzz_ik) */
        dvec side = dv_reject(dv_sub(dv_of(job->pole), a), e_ab);
        dvec h = dv_cross(dv_scale(e_ab, -1.0), side);
        if (dv_dot(h, h) > tiny * tiny)
            return h;
    }
    dquat m = dq_of(job->mid_rotation);
    dvec h = dv_reject(dq_rotate(m, dv(1, 0, 0)), e_ab);
    if (dv_dot(h, h) <= 1e-18)
        h = dv_reject(dq_rotate(m, dv(0, 0, 1)), e_ab);
    if (dv_dot(h, h) <= 1e-18) /* the bone lies along both: any perpendicular */
        h = dv_cross(e_ab, fabs(e_ab.x) < fabs(e_ab.y) ? dv(1, 0, 0) : dv(0, 1, 0));
    return h;
}

void rune_ik_two_bone(const rune_ik_two_bone_job *job, rune_ik_two_bone_result *out)
{
    dvec a = dv_of(job->root), b = dv_of(job->mid), c = dv_of(job->end), t = dv_of(job->target);
    dvec ab = dv_sub(b, a), bc = dv_sub(c, b);
    double l1 = sqrt(dv_dot(ab, ab)), l2 = sqrt(dv_dot(bc, bc)), len = l1 + l2;
    *out = (rune_ik_two_bone_result){rune_q_identity(), rune_q_identity(), job->end, false};
    if (!(l1 > IK_TINY * (len + 1.0)) || !(l2 > IK_TINY * (len + 1.0)))
        return; /* a zero-length bone has no direction to turn */
    double tiny = IK_TINY * len, inv1 = 1.0 / l1, inv2 = 1.0 / l2;
    dvec e_ab = dv_scale(ab, inv1);

    /* the hinge: the normal of the chain's plane */
    dvec hinge = dv_cross(ab, bc);
    double h2 = dv_dot(hinge, hinge);
    if (h2 <= 1e-18 * l1 * l1 * l2 * l2) {
        hinge = straight_hinge(job, a, e_ab, tiny);
        h2 = dv_dot(hinge, hinge);
    }
    hinge = dv_scale(hinge, 1.0 / sqrt(h2));

    /* the direction to the target; a target on the root keeps the chain's */
    dvec at = dv_sub(t, a);
    double d = sqrt(dv_dot(at, at));
    dvec u;
    if (d > tiny) {
        u = dv_scale(at, 1.0 / d);
    } else {
        u = dv_unit(dv_sub(c, a), tiny);
        if (dv_dot(u, u) == 0.0)
            u = e_ab;
    }
    double span = reach(d, l1, l2, job->soften);

    /* 1. bend at the mid joint: the lower bone at interior angle theta,
     * cos theta = (l1^2 + l2^2 - span^2) / (2 l1 l2), on the side the
     * hinge turns it to (k = e x hinge is unit: e is perpendicular to it) */
    dvec e = dv_scale(e_ab, -1.0), k = dv_cross(e, hinge);
    double ct = (l1 * l1 + l2 * l2 - span * span) * 0.5 * inv1 * inv2;
    ct = ct < -1.0 ? -1.0 : (ct > 1.0 ? 1.0 : ct);
    dvec lower = dv_add(dv_scale(e, ct), dv_scale(k, sqrt(1.0 - ct * ct)));
    dquat bend = dq_unit_arc(dv_scale(bc, inv2), lower, hinge);
    dvec ac2 = dv_add(ab, dv_scale(lower, l2)); /* the end after the bend, from a: |ac2| = span */

    /* 2. the root turns the end onto u (half a turn about the hinge when
     * it points away); a span of 0 (folded onto the root) has no
     * direction to turn */
    dquat aim = span > tiny ? dq_unit_arc(dv_scale(ac2, 1.0 / span), u, hinge) : dq_identity();

    /* 3. about u: the mid toward the pole, or into the plane nearest the
     * chain's own (normal: the hinge made perpendicular to u; the mid lies
     * on the side u x normal) */
    dvec mid = dv_reject(dq_rotate(aim, ab), u);
    dvec side = dv(0, 0, 0);
    if (job->has_pole)
        side = dv_reject(dv_sub(dv_of(job->pole), a), u);
    if (dv_dot(side, side) <= tiny * tiny) {
        dvec n = dv_reject(hinge, u);
        side = dv_dot(n, n) > 1e-18 ? dv_cross(u, n) : mid;
    }
    dquat root = dv_dot(mid, mid) > tiny * tiny ? dq_mul(turn_about(u, mid, side), aim) : aim;
    if (job->twist != 0.0f)
        root = dq_mul(dq_axis_angle(u, (double)job->twist), root);

    /* the half-angle arcs are unit only as far as their vectors are:
     * renormalized once at the end */
    root = dq_unit(root);
    out->root_delta = dq_out(root);
    out->mid_delta = dq_out(dq_unit(bend));
    dvec end = dv_add(a, dq_rotate(root, ac2));
    out->end = dv_out(end);
    dvec miss = dv_sub(end, t);
    out->reached = dv_dot(miss, miss) <= 1e-10 * len * len;
}
