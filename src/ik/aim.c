/* Aim (look-at) IK (docs/semantics.md, "aim"): the shortest turn that
 * points the aimed ray at the target, then a roll about the direction to
 * the target that brings `up` as close to `pole` as the aim allows. The
 * two together are the rotation mapping the local frame (ray, up) onto
 * the model frame (direction, pole), found with three square roots and no
 * trigonometry on the usual path; a limit, when set, shortens the turn. */
#include "rune/ik.h"
#include "ik_math.h"

/* The local direction of the aimed ray: from `offset` along unit f until
 * it is `dist` (local units) from the joint, o + l f with
 * l = -(o.f) + sqrt(dist^2 - |o|^2 + (o.f)^2), whose length is dist by
 * construction; f alone when the target is inside the offset or behind
 * it. */
static dvec aimed_ray(dvec f, dvec o, double dist)
{
    double oo = dv_dot(o, o);
    if (oo == 0.0)
        return f;
    double of = dv_dot(o, f), disc = dist * dist - oo + of * of;
    if (disc < 0.0)
        return f;
    double l = -of + sqrt(disc);
    return l > 0.0 && dist > IK_TINY ? dv_scale(dv_add(o, dv_scale(f, l)), 1.0 / dist) : f;
}

void rune_ik_aim(const rune_ik_aim_job *job, rune_ik_aim_result *out)
{
    *out = (rune_ik_aim_result){rune_q_identity(), false};
    dvec to = dv_sub(dv_of(job->target), dv_of(job->position)), f = dv_of(job->forward);
    double dist2 = dv_dot(to, to), f2 = dv_dot(f, f), p2 = dv_dot(dv_of(job->position), dv_of(job->position));
    if (!(dist2 > IK_TINY * IK_TINY * (1.0 + p2)) || !(f2 > 0.0))
        return; /* a target on the joint gives no direction, nor a zero forward */
    double dist = sqrt(dist2);
    dquat r = dq_of(job->rotation);
    /* rotating by a quaternion of norm n scales by n: its rotations are
     * divided by n instead of normalizing it */
    double rn = 1.0 / (r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    double scale = job->scale > 0.0f && isfinite(job->scale) ? (double)job->scale : 1.0;
    dvec ray = aimed_ray(dv_scale(f, 1.0 / sqrt(f2)), dv_of(job->offset), dist / scale);
    dvec dir = dv_scale(to, 1.0 / dist);

    /* 1. the shortest turn of the ray (in model space) onto dir:
     * (ray x dir, 1 + ray.dir), left unnormalized (norm^2 = 2w, so it
     * rotates and scales by 2w: the roll below does not mind, and the
     * final normalization takes both); when it points away, half a turn
     * about the joint's up */
    /* forward and up are directions of any length (1e-30 or 1e18): unit */
    dvec up = dv_scale(dq_rotate(r, dv_unit(dv_of(job->up), 0.0)), rn), ray_m = dv_scale(dq_rotate(r, ray), rn);
    double w1 = 1.0 + dv_dot(ray_m, dir), grow = 2.0 * w1;
    dquat turn;
    if (w1 > 1e-6) {
        dvec x = dv_cross(ray_m, dir);
        turn = (dquat){x.x, x.y, x.z, w1};
    } else {
        turn = dq_from_to(ray_m, dir, dv_unit(dv_reject(up, dir), 1e-9));
        grow = 1.0;
    }
    /* 2. the roll about dir from where up went to the pole (both made
     * perpendicular to dir): (dir s, |u||p| + u.p) with s = (u x p).dir;
     * none when either lies along dir (the pole along the aim keeps the
     * joint's own up) */
    dvec from = dv_reject(dq_sandwich(turn, up), dir), pole = dv_reject(dv_of(job->pole), dir);
    double fp = dv_dot(from, from) * dv_dot(pole, pole);
    dquat delta = turn;
    if (fp > 1e-18 * grow * grow * (1.0 + dv_dot(up, up)) * (1.0 + dv_dot(dv_of(job->pole), dv_of(job->pole)))) {
        double s = dv_dot(dv_cross(from, pole), dir), w = sqrt(fp) + dv_dot(from, pole);
        dquat roll = s * s + w * w > 1e-30 * fp ? (dquat){dir.x * s, dir.y * s, dir.z * s, w}
                                                 : (dquat){dir.x, dir.y, dir.z, 0.0};
        delta = dq_mul(roll, turn);
    }
    delta = dq_unit(delta);
    if (delta.w < 0.0)
        delta = (dquat){-delta.x, -delta.y, -delta.z, -delta.w};
    /* 3. the limit: the turn's angle is 2 acos(w); beyond the limit, the
     * same axis and the limit's angle */
    if (job->limit >= 0.0f && delta.w < cos(0.5 * (double)job->limit)) {
        dvec axis = dv_unit(dv(delta.x, delta.y, delta.z), 0.0);
        delta = dq_axis_angle(axis, (double)job->limit);
        out->limited = true;
    }
    out->delta = dq_out(delta);
}
