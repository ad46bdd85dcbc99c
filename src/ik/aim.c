/* Aim (look-at) IK (docs/semantics.md, "aim"): the joint's new rotation
 * maps a local frame (the aimed ray's direction, `up` made perpendicular
 * to it) onto a model frame (the direction to the target, `pole` made
 * perpendicular to that), which points the ray at the target and keeps
 * `up` as close to the pole as the aim allows; then the turn is limited. */
#include "rune/ik.h"
#include "ik_math.h"

/* The rotation whose matrix has columns x, y, x cross y (orthonormal). */
static dquat from_basis(dvec x, dvec y)
{
    dvec z = dv_cross(x, y);
    double m00 = x.x, m11 = y.y, m22 = z.z, tr = m00 + m11 + m22;
    dquat q;
    if (tr > 0.0) {
        double s = 2.0 * sqrt(1.0 + tr);
        q = (dquat){(y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, 0.25 * s};
    } else if (m00 >= m11 && m00 >= m22) {
        double s = 2.0 * sqrt(1.0 + m00 - m11 - m22);
        q = (dquat){0.25 * s, (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s};
    } else if (m11 >= m22) {
        double s = 2.0 * sqrt(1.0 + m11 - m00 - m22);
        q = (dquat){(y.x + x.y) / s, 0.25 * s, (z.y + y.z) / s, (z.x - x.z) / s};
    } else {
        double s = 2.0 * sqrt(1.0 + m22 - m00 - m11);
        q = (dquat){(z.x + x.z) / s, (z.y + y.z) / s, 0.25 * s, (x.y - y.x) / s};
    }
    return dq_unit(q);
}

/* The local direction of the aimed ray: from `offset` along `forward`
 * until it is `dist` (local units) from the joint, o + l f with
 * l = -(o.f) + sqrt(dist^2 - |o|^2 + (o.f)^2); forward alone when the
 * target is inside the offset or behind it. */
static dvec aimed_ray(dvec f, dvec o, double dist)
{
    double of = dv_dot(o, f), disc = dist * dist - dv_dot(o, o) + of * of;
    if (disc < 0.0)
        return f;
    double l = -of + sqrt(disc);
    dvec ray = dv_add(o, dv_scale(f, l));
    return l > 0.0 && dv_len(ray) > IK_TINY ? dv_unit(ray, 0.0) : f;
}

void rune_ik_aim(const rune_ik_aim_job *job, rune_ik_aim_result *out)
{
    *out = (rune_ik_aim_result){rune_q_identity(), 0.0f, false};
    dvec to = dv_sub(dv_of(job->target), dv_of(job->position));
    double dist = dv_len(to);
    dvec f = dv_unit(dv_of(job->forward), IK_TINY);
    if (dist <= IK_TINY * (1.0 + dv_len(dv_of(job->position))) || dv_len(f) == 0.0)
        return; /* a target on the joint gives no direction */
    dquat r = dq_unit(dq_of(job->rotation));
    double scale = job->scale > 0.0f && isfinite(job->scale) ? (double)job->scale : 1.0;
    dvec ray = aimed_ray(f, dv_of(job->offset), dist / scale);
    dvec dir = dv_scale(to, 1.0 / dist);

    /* local frame: the ray, up perpendicular to it; model frame: the
     * direction, the pole perpendicular to it (the joint's own up when
     * the pole lies along the aim) */
    dvec up_l = dv_unit(dv_reject(dv_of(job->up), ray), 1e-9);
    dvec up_m = dv_unit(dv_reject(dv_of(job->pole), dir), 1e-9);
    if (dv_len(up_m) == 0.0 && dv_len(up_l) > 0.0)
        up_m = dv_unit(dv_reject(dq_rotate(r, up_l), dir), 1e-9);
    dquat delta;
    if (dv_len(up_l) == 0.0 || dv_len(up_m) == 0.0) /* no roll to keep: the shortest turn */
        delta = dq_from_to(dq_rotate(r, ray), dir, dv(0, 0, 0));
    else /* new rotation = model frame * local frame^-1; delta = that * r^-1 */
        delta = dq_mul(dq_mul(from_basis(dir, up_m), dq_conj(from_basis(ray, up_l))), dq_conj(r));
    if (delta.w < 0.0)
        delta = (dquat){-delta.x, -delta.y, -delta.z, -delta.w};
    double angle = dq_angle(delta);
    if (job->limit >= 0.0f && angle > (double)job->limit) {
        /* the same axis, the limit's angle */
        dvec axis = dv_unit(dv(delta.x, delta.y, delta.z), 0.0);
        delta = dq_axis_angle(axis, (double)job->limit);
        angle = (double)job->limit;
        out->limited = true;
    }
    out->delta = dq_out(dq_unit(delta));
    out->angle = (float)angle;
}
