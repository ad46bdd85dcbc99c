/* Two-bone IK (docs/semantics.md, "two_bone"): the mid joint bends about
 * its hinge until the chain spans the (softened, clamped) distance to the
 * target, the root turns the chain onto the target, then about the
 * root-to-target axis so that the mid joint lies toward the pole (or in
 * the plane closest to its current one), then by the twist. No
 * trigonometry but for the twist: rotations come from vectors. */
#include "rune/ik.h"
#include "ik_math.h"

/* The distance the chain spans for a target at distance d: soften < 1
 * eases the last (1 - soften) of the length, d_eff = s + r (1 - e^-((d -
 * s) / r)) with s = soften L, r = L - s, continuous with its slope at s
 * and approaching L; then clamped to what the bones can span. */
static double reach(double d, double l1, double l2, double soften)
{
    double len = l1 + l2;
    double start = len * (soften < 0.0 ? 0.0 : (soften > 1.0 ? 1.0 : soften)), rest = len - start;
    if (rest > 0.0 && d > start)
        d = start + rest * (1.0 - exp(-(d - start) / rest));
    double lo = fabs(l1 - l2);
    return d < lo ? lo : (d > len ? len : d);
}

void rune_ik_two_bone(const rune_ik_two_bone_job *job, rune_ik_two_bone_result *out)
{
    dvec a = dv_of(job->root), b = dv_of(job->mid), c = dv_of(job->end), t = dv_of(job->target);
    dvec ab = dv_sub(b, a), bc = dv_sub(c, b);
    double l1 = dv_len(ab), l2 = dv_len(bc), len = l1 + l2;
    *out = (rune_ik_two_bone_result){rune_q_identity(), rune_q_identity(), job->end, false};
    if (!(l1 > IK_TINY * (len + 1.0)) || !(l2 > IK_TINY * (len + 1.0)))
        return; /* a zero-length bone has no direction to turn */
    double tiny = IK_TINY * len;

    /* the hinge: the normal of the chain's plane; a straight (or folded)
     * chain bends toward the pole, or without one about the mid joint's
     * local X axis */
    dvec hinge = dv_cross(ab, bc);
    dvec pole_side = job->has_pole ? dv_reject(dv_sub(dv_of(job->pole), a), dv_scale(ab, 1.0 / l1)) : dv(0, 0, 0);
    if (dv_len(hinge) <= 1e-9 * l1 * l2 && dv_len(pole_side) > IK_TINY * len) {
        /* the lower bone swings away from the pole side (k = e x hinge =
         * -side), which puts the mid on it: no roll at the root */
        hinge = dv_cross(dv_scale(ab, -1.0 / l1), pole_side);
    } else if (dv_len(hinge) <= 1e-9 * l1 * l2) {
        hinge = dv_reject(dq_rotate(dq_of(job->mid_rotation), dv(1, 0, 0)), dv_scale(ab, 1.0 / l1));
        if (dv_len(hinge) <= 1e-9)
            hinge = dv_reject(dq_rotate(dq_of(job->mid_rotation), dv(0, 0, 1)), dv_scale(ab, 1.0 / l1));
        if (dv_len(hinge) <= 1e-9) /* the bone lies along both: any perpendicular */
            hinge = dv_cross(ab, fabs(ab.x) < fabs(ab.y) ? dv(1, 0, 0) : dv(0, 1, 0));
    }
    hinge = dv_unit(hinge, 0.0);

    /* the direction to the target; a target on the root keeps the chain's */
    dvec at = dv_sub(t, a);
    double d = dv_len(at);
    dvec u = d > tiny ? dv_scale(at, 1.0 / d) : dv_unit(dv_sub(c, a), tiny);
    if (dv_len(u) == 0.0)
        u = dv_scale(ab, 1.0 / l1);
    double span = reach(d, l1, l2, job->soften);

    /* 1. bend at the mid joint: the lower bone at interior angle theta,
     * cos theta = (l1^2 + l2^2 - span^2) / (2 l1 l2), on the side the
     * hinge turns it to */
    dvec e = dv_scale(ab, -1.0 / l1);
    dvec k = dv_unit(dv_cross(e, hinge), 0.0);
    double ct = (l1 * l1 + l2 * l2 - span * span) / (2.0 * l1 * l2);
    ct = ct < -1.0 ? -1.0 : (ct > 1.0 ? 1.0 : ct);
    dvec lower = dv_add(dv_scale(e, ct), dv_scale(k, sqrt(1.0 - ct * ct)));
    dquat bend = dq_about(hinge, bc, lower);
    dvec c2 = dv_add(b, dv_scale(lower, l2));

    /* 2. the root turns the end onto the target's direction */
    dquat aim = dq_from_to(dv_sub(c2, a), u, hinge);

    /* 3. about that direction: the mid joint toward the pole, or into the
     * plane nearest the chain's own (normal = the hinge made
     * perpendicular to u; the mid lies on the side u x normal) */
    dvec mid = dv_reject(dq_rotate(aim, ab), u);
    dvec side = dv(0, 0, 0);
    if (job->has_pole)
        side = dv_reject(dv_sub(dv_of(job->pole), a), u);
    if (dv_len(side) <= tiny) {
        dvec n = dv_reject(hinge, u);
        side = dv_len(n) > 1e-9 ? dv_cross(u, dv_unit(n, 0.0)) : mid;
    }
    dquat swing = dv_len(mid) > tiny ? dq_about(u, mid, side) : dq_identity();
    dquat twist = dq_axis_angle(u, (double)job->twist);
    dquat root = dq_unit(dq_mul(twist, dq_mul(swing, aim)));

    out->root_delta = dq_out(root);
    out->mid_delta = dq_out(bend);
    dvec end = dv_add(a, dq_rotate(root, dv_sub(c2, a)));
    out->end = dv_out(end);
    out->reached = dv_len(dv_sub(end, t)) <= 1e-5 * len;
}
