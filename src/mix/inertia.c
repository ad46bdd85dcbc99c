/* Inertialization (docs/semantics.md, "Inertialization"): the offset from
 * what the character showed to what its plays give, carried on with its
 * velocity and decayed to zero over the blend time, so a switch evaluates
 * only the new side.
 *
 * A switch takes two frames. At the first (PENDING), the destination is
 * known at that instant but its velocity is not: the frame shows the
 * shown pose carried on by its own motion, and the offset from the
 * destination is taken there. At the second, the destination's step
 * gives its velocity, so the offset's start velocity is the shown pose's
 * minus the destination's, and the decay runs (ACTIVE) from the first
 * frame's time. Position and velocity are continuous through the switch,
 * and the offset is exactly 0 at the blend time.
 *
 * The shown pose's motion is its last step (the velocity of the last two
 * poses shown) and, when the switch interrupts a decay, that decay's own
 * acceleration, which the new offset starts with: an interruption keeps
 * the acceleration the character had from its offset, and a fresh switch
 * starts with none. */
#include "inertia.h"
#include "inertia_kernel.h"
#include "../math/stream_kernel.h"
#include "../base/alloc.h"
#include "../base/prefetch.h"
#include "../rig/rig_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

enum { IDLE, PENDING, ACTIVE };

/* Lanes per joint: the offset (x0: translation, rotation vector, scale,
 * coverage), and for all but coverage the start velocity times the blend
 * time (w) and start acceleration times its square (a). While PENDING, w
 * and a hold the shown pose's own velocity and acceleration. */
enum { L_TX, L_TY, L_TZ, L_RX, L_RY, L_RZ, L_SX, L_SY, L_SZ, L_C, L_COUNT };
#define M_COUNT 9 /* moving lanes: every lane but coverage, whose offset decays by p0 alone */

/* Offsets and their rates are held within this (a difference of two
 * finite floats may not be): added to any float a pose holds, they stay
 * finite. */
#define MAX_OFFSET 1e30f

#define PI_D 3.14159265358979323846

struct rune_inertia {
    rune_allocator alloc;
    size_t joints, curves, stride;
    rune_pose shown[2]; /* shown[latest]: the last frame's pose; the other, the one before */
    int latest, history; /* history: how many of them hold a frame (0..2) */
    float shown_dt;      /* seconds between them */
    bool lent;           /* the last step's pose is still the caller's (rune__inertia_take_slot) */
    float lent_dt;       /* and the step it took */
    int phase;
    float request;       /* blend time asked for the next step (0: none) */
    float elapsed, duration;
    bool scaled;         /* the offset has scale lanes */
    bool accelerating;   /* its a lanes are live (it interrupted a decay) */
    float *x0[L_COUNT], *w[M_COUNT], *a[M_COUNT];
    float *curve_x0, *curve_w, *curve_a, *curve_c0;
    float *block;
    size_t block_floats;
};

/* One build's step kernel. */
typedef void (*inertia_step_fn)(const inertia_lanes *, const mix_view *, inertia_weights, size_t);
#define INERTIA_STEP(isa) rune__inertia_step_##isa
static inertia_step_fn step_kernel(rune_simd_level level) { KERNEL_PICK(rune_simd_resolve(level), INERTIA_STEP) }
/* The poses an inertialization keeps are read only at a switch: streamed
 * (math/stream_kernel.h). */
typedef void (*inertia_keep_fn)(float *const *, const float *const *, int, size_t);
#define INERTIA_KEEP(isa) rune__stream_floats_##isa
static inertia_keep_fn keep_kernel(rune_simd_level level) { KERNEL_PICK(rune_simd_resolve(level), INERTIA_KEEP) }

void rune__inertia_weights(float u, bool second, float w[3])
{
    u = u > 0.0f ? (u < 1.0f ? u : 1.0f) : 0.0f;
    if (second) {
        w[0] = u * (-60.0f + u * (180.0f - 120.0f * u));
        w[1] = u * (-36.0f + u * (96.0f - 60.0f * u));
        w[2] = 1.0f + u * (-9.0f + u * (18.0f - 10.0f * u));
        return;
    }
    float v = 1.0f - u, v3 = v * v * v;
    w[0] = v3 * (1.0f + u * (3.0f + 6.0f * u));
    w[1] = u * v3 * (1.0f + 3.0f * u);
    w[2] = 0.5f * u * u * v3;
}

rune_status rune__inertia_create(const rune_pose *like, const rune_allocator *alloc, rune_inertia **out,
                                 rune_error *err)
{
    alloc = rune__alloc_or_default(alloc);
    *out = NULL;
    rune_inertia *in = rune__calloc(alloc, 1, sizeof *in);
    if (!in)
        return rune_fail(err, RUNE_E_NOMEM, "out of memory for an inertialization");
    in->alloc = *alloc;
    in->joints = like->count;
    in->curves = like->curve_count;
    in->stride = like->stride;
    in->block_floats = (L_COUNT + 2 * M_COUNT) * in->stride + 4 * in->curves;
    in->block = rune__calloc(alloc, in->block_floats, sizeof(float));
    rune_status st = in->block ? RUNE_OK : rune_fail(err, RUNE_E_NOMEM, "out of memory for an inertialization");
    for (int k = 0; !st && k < 2; k++)
        st = rune_pose_init_curves(&in->shown[k], in->joints, in->curves, alloc, err);
    if (st) {
        rune__inertia_destroy(in);
        return st;
    }
    float *lane = in->block;
    for (int k = 0; k < L_COUNT; k++, lane += in->stride)
        in->x0[k] = lane;
    for (int k = 0; k < M_COUNT; k++, lane += 2 * in->stride)
        in->w[k] = lane, in->a[k] = lane + in->stride;
    in->curve_x0 = lane;
    in->curve_w = lane + in->curves;
    in->curve_a = lane + 2 * in->curves;
    in->curve_c0 = lane + 3 * in->curves;
    *out = in;
    return RUNE_OK;
}

void rune__inertia_destroy(rune_inertia *in)
{
    if (!in)
        return;
    rune_pose_release(&in->shown[0]);
    rune_pose_release(&in->shown[1]);
    rune__free(&in->alloc, in->block, in->block_floats, sizeof(float));
    rune_allocator a = in->alloc;
    rune__free(&a, in, 1, sizeof *in);
}

void rune__inertia_seed(rune_inertia *in, const rune_pose *shown)
{
    in->latest = 0;
    rune_pose_copy(&in->shown[0], shown);
    in->history = 1;
    in->shown_dt = 0.0f;
}

void rune__inertia_request(rune_inertia *in, float blend_time)
{
    if (blend_time > in->request && blend_time <= FLT_MAX)
        in->request = blend_time;
}

/* ---- the algebra of a switch (scalar: once a switch) ---- */

static float held(float x) { return isfinite(x) ? fmaxf(-MAX_OFFSET, fminf(MAX_OFFSET, x)) : 0.0f; }

static rune_quat pose_q(const rune_pose *p, size_t j) { return rune_q(p->qx[j], p->qy[j], p->qz[j], p->qw[j]); }

/* The rotation vector (axis times angle, angle in [0, pi]) of q, taken
 * in the hemisphere of w >= 0: the shortest arc. */
static rune_vec3 q_log(rune_quat q)
{
    if (q.w < 0.0f)
        q = rune_q_negate(q);
    float s = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(s > 1e-12f) || !isfinite(s))
        return rune_v3(2.0f * q.x, 2.0f * q.y, 2.0f * q.z); /* small angle: 2 sin(a/2) ~ a */
    float k = 2.0f * atan2f(s, q.w) / s;
    return rune_v3(q.x * k, q.y * k, q.z * k);
}

/* exp of a rotation vector r: the rotation by |r| about r. */
static rune_quat q_exp(rune_vec3 r)
{
    float a = sqrtf(rune_v3_dot(r, r));
    if (!(a > 1e-12f) || !isfinite(a))
        return rune_q_normalize(rune_q(0.5f * r.x, 0.5f * r.y, 0.5f * r.z, 1.0f));
    float k = sinf(0.5f * a) / a;
    return rune_q(r.x * k, r.y * k, r.z * k, cosf(0.5f * a));
}

/* The rotation vector from b to a: log(a b^-1) (a = exp(r) b). */
static rune_vec3 q_offset(rune_quat a, rune_quat b) { return q_log(rune_q_mul(a, rune_q_conjugate(b))); }

/* r, or the same rotation the other way round the circle when that is
 * nearer `near` (offsets near pi apart from one frame to the next). */
static rune_vec3 nearest_turn(rune_vec3 r, rune_vec3 near)
{
    float a = sqrtf(rune_v3_dot(r, r));
    if (!(a > 1e-6f))
        return r;
    rune_vec3 other = rune_v3_scale(r, (a - 2.0f * (float)PI_D) / a);
    rune_vec3 d1 = rune_v3_sub(r, near), d2 = rune_v3_sub(other, near);
    return rune_v3_dot(d2, d2) < rune_v3_dot(d1, d1) ? other : r;
}

static const rune_pose *latest(const rune_inertia *in) { return &in->shown[in->latest]; }
static const rune_pose *before(const rune_inertia *in) { return &in->shown[1 - in->latest]; }

/* The shown pose's motion for a switch, per moving lane: its velocity at
 * the latest pose and its acceleration (that of the decay under way, if
 * any). Lane k of joint (or curve) i: one number each. */
typedef struct motion {
    bool moving;      /* two poses a step of time apart are known */
    float inv_dt, dt; /* that step */
    float acc_w[3];   /* the decay under way's acceleration weights over T^2 (0: none) */
} motion;

static motion shown_motion(const rune_inertia *in)
{
    motion m = {in->history == 2 && in->shown_dt > 0.0f, 0.0f, in->shown_dt, {0.0f, 0.0f, 0.0f}};
    m.inv_dt = m.moving ? 1.0f / in->shown_dt : 0.0f;
    if (in->phase == ACTIVE) {
        float T2 = in->duration * in->duration;
        rune__inertia_weights(in->elapsed / in->duration, true, m.acc_w);
        for (int k = 0; k < 3; k++)
            m.acc_w[k] /= T2;
    }
    return m;
}

/* The acceleration of moving lane k of joint j under the decay in `in`
 * (read before the switch overwrites it). */
static float lane_acc(const rune_inertia *in, const motion *m, int k, size_t j)
{
    float a = in->accelerating ? in->a[k][j] * m->acc_w[2] : 0.0f;
    return held(in->x0[k][j] * m->acc_w[0] + in->w[k][j] * m->acc_w[1] + a);
}

/* One linear lane (translation, scale, curve) at the first frame of a
 * switch: from its latest value v0 and the one before v1, with
 * acceleration acc, its velocity at v0 into *vel, and where it has moved
 * to dt later (the value this frame shows). */
static float carry(const motion *m, float v0, float v1, float acc, float dt, float *vel)
{
    *vel = m->moving ? held((v0 - v1) * m->inv_dt + 0.5f * acc * m->dt) : 0.0f;
    return held(v0 + (*vel + 0.5f * acc * dt) * dt);
}

/* The first frame of a switch: the shown pose carried on by its motion
 * over dt becomes this frame's pose; x0 = that minus the destination. */
static void begin(rune_inertia *in, rune_pose *pose, float dt)
{
    const rune_pose *s0 = latest(in), *s1 = before(in);
    motion m = shown_motion(in);
    in->scaled = pose->scaled || s0->scaled;
    for (size_t j = 0; j < in->joints; j++) {
        const float t0[3] = {s0->tx[j], s0->ty[j], s0->tz[j]}, t1[3] = {s1->tx[j], s1->ty[j], s1->tz[j]};
        const float c0[3] = {s0->sx[j], s0->sy[j], s0->sz[j]}, c1[3] = {s1->sx[j], s1->sy[j], s1->sz[j]};
        float *pt[3] = {&pose->tx[j], &pose->ty[j], &pose->tz[j]}, *ps[3] = {&pose->sx[j], &pose->sy[j], &pose->sz[j]};
        for (int k = 0; k < 3; k++) {
            float acc = lane_acc(in, &m, L_TX + k, j), vel;
            float src = carry(&m, t0[k], t1[k], acc, dt, &vel);
            in->x0[L_TX + k][j] = held(src - *pt[k]);
            in->w[L_TX + k][j] = vel, in->a[L_TX + k][j] = acc;
            *pt[k] = src;
            acc = in->scaled ? lane_acc(in, &m, L_SX + k, j) : 0.0f;
            src = in->scaled ? carry(&m, c0[k], c1[k], acc, dt, &vel) : (vel = 0.0f, 1.0f);
            in->x0[L_SX + k][j] = in->scaled ? held(src - *ps[k]) : 0.0f;
            in->w[L_SX + k][j] = vel, in->a[L_SX + k][j] = acc;
            if (in->scaled)
                *ps[k] = src;
        }
        /* rotation: the last step as a rotation vector, per second */
        rune_vec3 step = m.moving ? q_offset(pose_q(s0, j), pose_q(s1, j)) : rune_v3(0.0f, 0.0f, 0.0f);
        float acc[3], omega[3], turn[3];
        for (int k = 0; k < 3; k++) {
            acc[k] = lane_acc(in, &m, L_RX + k, j);
            omega[k] = m.moving ? held((&step.x)[k] * m.inv_dt + 0.5f * acc[k] * m.dt) : 0.0f;
            turn[k] = (omega[k] + 0.5f * acc[k] * dt) * dt;
        }
        rune_quat src = rune_q_normalize(rune_q_mul(q_exp(rune_v3(turn[0], turn[1], turn[2])), pose_q(s0, j)));
        rune_vec3 r = q_offset(src, pose_q(pose, j));
        for (int k = 0; k < 3; k++) {
            in->x0[L_RX + k][j] = (&r.x)[k];
            in->w[L_RX + k][j] = omega[k], in->a[L_RX + k][j] = acc[k];
        }
        pose->qx[j] = src.x, pose->qy[j] = src.y, pose->qz[j] = src.z, pose->qw[j] = src.w;
        in->x0[L_C][j] = s0->coverage[j] - pose->coverage[j];
        pose->coverage[j] = s0->coverage[j];
    }
    for (size_t k = 0; k < in->curves; k++) {
        float acc = held(in->curve_x0[k] * m.acc_w[0] + in->curve_w[k] * m.acc_w[1] +
                         (in->accelerating ? in->curve_a[k] * m.acc_w[2] : 0.0f));
        float vel, src = carry(&m, s0->curve[k], s1->curve[k], acc, dt, &vel);
        in->curve_x0[k] = held(src - pose->curve[k]);
        in->curve_w[k] = vel, in->curve_a[k] = acc;
        pose->curve[k] = src;
        in->curve_c0[k] = s0->curve_cov[k] - pose->curve_cov[k];
        pose->curve_cov[k] = s0->curve_cov[k];
    }
    pose->scaled = in->scaled;
    in->accelerating = in->phase == ACTIVE;
    in->phase = PENDING;
    in->elapsed = 0.0f;
}

/* One linear lane at the second frame: the shown value v0 carried on by
 * velocity *w and acceleration *a (the shown lane's, at the first frame,
 * dt1 before) over dt, against the destination's new value d, gives the
 * offset's start velocity; *w and *a become velocity T and
 * acceleration T^2 of the decay from x0. */
static void settle_lane(float x0, float v0, float d, float dt1, float dt, float T, float *w, float *a)
{
    float vel = held(*w + *a * dt1), acc = *a;
    float moved = held(v0 + (vel + 0.5f * acc * dt) * dt - d);
    float v = held((moved - x0) / dt - 0.5f * acc * dt);
    *w = held(v * T);
    *a = held(acc * T * T);
}

/* The second frame: the shown pose carried on by another dt against the
 * destination's new pose gives the offset's velocity. */
static void complete(rune_inertia *in, const rune_pose *pose, float dt)
{
    const rune_pose *s0 = latest(in);
    float T = in->duration, dt1 = in->shown_dt;
    for (size_t j = 0; j < in->joints; j++) {
        const float t0[3] = {s0->tx[j], s0->ty[j], s0->tz[j]}, dest[3] = {pose->tx[j], pose->ty[j], pose->tz[j]};
        const float c0[3] = {s0->sx[j], s0->sy[j], s0->sz[j]}, dests[3] = {pose->sx[j], pose->sy[j], pose->sz[j]};
        for (int k = 0; k < 3; k++) {
            settle_lane(in->x0[L_TX + k][j], t0[k], dest[k], dt1, dt, T, &in->w[L_TX + k][j], &in->a[L_TX + k][j]);
            if (in->scaled)
                settle_lane(in->x0[L_SX + k][j], c0[k], dests[k], dt1, dt, T, &in->w[L_SX + k][j],
                            &in->a[L_SX + k][j]);
        }
        float omega[3], acc[3], turn[3];
        for (int k = 0; k < 3; k++) {
            acc[k] = in->a[L_RX + k][j];
            omega[k] = held(in->w[L_RX + k][j] + acc[k] * dt1);
            turn[k] = (omega[k] + 0.5f * acc[k] * dt) * dt;
        }
        rune_vec3 r0 = rune_v3(in->x0[L_RX][j], in->x0[L_RY][j], in->x0[L_RZ][j]);
        rune_quat src = rune_q_normalize(rune_q_mul(q_exp(rune_v3(turn[0], turn[1], turn[2])), pose_q(s0, j)));
        rune_vec3 r1 = nearest_turn(q_offset(src, pose_q(pose, j)), r0);
        for (int k = 0; k < 3; k++) {
            float v = held(((&r1.x)[k] - (&r0.x)[k]) / dt - 0.5f * acc[k] * dt);
            in->w[L_RX + k][j] = held(v * T);
            in->a[L_RX + k][j] = held(acc[k] * T * T);
        }
    }
    for (size_t k = 0; k < in->curves; k++)
        settle_lane(in->curve_x0[k], s0->curve[k], pose->curve[k], dt1, dt, T, &in->curve_w[k], &in->curve_a[k]);
    in->phase = ACTIVE;
}

/* Adds the offset with the decay's weights `k` to `pose`. */
static void add_offset(rune_inertia *in, rune_pose *pose, const float k[3], rune_simd_level level)
{
    inertia_lanes lanes = {
        in->x0[L_TX], in->x0[L_TY], in->x0[L_TZ], in->x0[L_RX], in->x0[L_RY], in->x0[L_RZ], in->x0[L_SX],
        in->x0[L_SY], in->x0[L_SZ], in->x0[L_C],  in->w[L_TX],  in->w[L_TY],  in->w[L_TZ],  in->w[L_RX],
        in->w[L_RY],  in->w[L_RZ],  in->w[L_SX],  in->w[L_SY],  in->w[L_SZ],  in->a[L_TX],  in->a[L_TY],
        in->a[L_TZ],  in->a[L_RX],  in->a[L_RY],  in->a[L_RZ],  in->a[L_SX],  in->a[L_SY],  in->a[L_SZ]};
    if (!in->accelerating) /* a fresh switch: the kernel leaves the a lanes unread */
        lanes.atx = lanes.aty = lanes.atz = lanes.arx = lanes.ary = lanes.arz = lanes.asx = lanes.asy = lanes.asz = NULL;
    if (in->scaled) /* an unscaled destination's scale lanes are 1: they become live */
        pose->scaled = true;
    mix_view out = {pose->tx, pose->ty, pose->tz, pose->qx, pose->qy, pose->qz, pose->qw,
                    pose->sx, pose->sy, pose->sz, pose->coverage, in->scaled};
    step_kernel(level)(&lanes, &out, (inertia_weights){k[0], k[1], k[2]}, kernel_lanes(in->joints));
    for (size_t c = 0; c < in->curves; c++) {
        pose->curve[c] += in->curve_x0[c] * k[0] + in->curve_w[c] * k[1] + (in->accelerating ? in->curve_a[c] * k[2] : 0.0f);
        pose->curve_cov[c] = rune_clamp01(pose->curve_cov[c] + in->curve_c0[c] * k[0]);
    }
}

/* Which slot the latest pose shown goes into, dt after the one before:
 * the oldest, or for a step of no time the latest, which it replaces. */
static int slot_after(const rune_inertia *in, float dt)
{
    return dt > 0.0f || in->history == 0 ? 1 - in->latest : in->latest;
}

/* That slot, made the latest. */
static rune_pose *next_slot(rune_inertia *in, float dt)
{
    if (slot_after(in, dt) != in->latest) {
        in->latest = 1 - in->latest;
        in->shown_dt = dt;
        in->history += in->history < 2;
    }
    return &in->shown[in->latest];
}

/* Keeps a copy of `pose` as the latest pose shown, dt after the one
 * before: the channels a switch reads (scale only when some lane is not
 * 1), the least a frame can move through memory. */
static void remember(rune_inertia *in, const rune_pose *pose, float dt, rune_simd_level level)
{
    rune_pose *to = next_slot(in, dt);
    float *const dst[11] = {to->tx, to->ty, to->tz, to->qx, to->qy, to->qz, to->qw, to->coverage, to->sx, to->sy, to->sz};
    const float *const src[11] = {pose->tx, pose->ty, pose->tz, pose->qx, pose->qy, pose->qz, pose->qw, pose->coverage,
                                  pose->sx, pose->sy, pose->sz};
    keep_kernel(level)(dst, src, pose->scaled ? 11 : 8, in->stride);
    if (!pose->scaled && to->scaled) /* an unscaled pose's scale lanes read as 1 */
        for (size_t j = 0; j < in->stride; j++)
            to->sx[j] = to->sy[j] = to->sz[j] = 1.0f;
    to->scaled = pose->scaled;
    if (in->curves) {
        memcpy(to->curve, pose->curve, in->curves * sizeof(float));
        memcpy(to->curve_cov, pose->curve_cov, in->curves * sizeof(float));
    }
}

bool rune__inertia_lent(const rune_inertia *in) { return in->lent; }

rune_pose *rune__inertia_take_slot(rune_inertia *in)
{
    if (!in->lent)
        return NULL;
    in->lent = false;
    return next_slot(in, in->lent_dt);
}

void rune__inertia_step(rune_inertia *in, rune_pose *pose, float dt, bool lend, rune_simd_level level)
{
    dt = isfinite(dt) ? fabsf(dt) : 0.0f;
    if (in->request > 0.0f && in->history > 0) {
        in->duration = in->request;
        begin(in, pose, dt);
    } else if (in->phase == PENDING) {
        static const float start[3] = {1.0f, 0.0f, 0.0f};
        if (dt > 0.0f)
            complete(in, pose, dt);
        else
            add_offset(in, pose, start, level); /* no time: the offset as it was */
    }
    in->request = 0.0f;
    if (in->phase == ACTIVE) {
        in->elapsed += dt;
        if (in->elapsed >= in->duration) {
            in->phase = IDLE;
        } else {
            float k[3];
            rune__inertia_weights(in->elapsed / in->duration, false, k);
            add_offset(in, pose, k, level);
        }
    }
    if (lend)
        in->lent = true, in->lent_dt = dt;
    else
        remember(in, pose, dt, level);
}

rune_inertia_view rune__inertia_view(const rune_inertia *in)
{
    rune_inertia_view v = {in->phase != IDLE, in->elapsed, in->duration, 0.0f, 0.0f};
    if (!v.active)
        return v;
    float k[3] = {1.0f, 0.0f, 0.0f};
    if (in->phase == ACTIVE)
        rune__inertia_weights(in->elapsed / in->duration, false, k);
    for (size_t j = 0; j < in->joints; j++) {
        float r[3], t[3];
        for (int c = 0; c < 3; c++) {
            float ka = in->accelerating ? k[2] : 0.0f;
            r[c] = in->x0[L_RX + c][j] * k[0] + in->w[L_RX + c][j] * k[1] + in->a[L_RX + c][j] * ka;
            t[c] = in->x0[L_TX + c][j] * k[0] + in->w[L_TX + c][j] * k[1] + in->a[L_TX + c][j] * ka;
        }
        v.angle = fmaxf(v.angle, fminf(sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]), (float)PI_D));
        v.distance = fmaxf(v.distance, sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]));
    }
    v.angle *= (float)(180.0 / PI_D);
    return v;
}

void rune__inertia_prefetch(const rune_inertia *in, int stage)
{
    if (stage == 0) {
        rune__prefetch_range(in, sizeof *in, false);
        return;
    }
    /* a pose lent to the caller comes back for the channels of the one
     * the caller writes next; copied poses are written with streaming
     * stores: not fetched */
    if (in->lent)
        rune_pose_prefetch(&in->shown[slot_after(in, in->lent_dt)], true);
    if (in->phase == IDLE)
        return;
    size_t bytes = in->stride * sizeof(float);
    static const int read[] = {L_TX, L_TY, L_TZ, L_RX, L_RY, L_RZ, L_C};
    for (size_t c = 0; c < sizeof read / sizeof read[0]; c++)
        rune__prefetch_range(in->x0[read[c]], bytes, false);
    for (int c = L_TX; c <= L_RZ; c++) {
        rune__prefetch_range(in->w[c], bytes, false);
        if (in->accelerating)
            rune__prefetch_range(in->a[c], bytes, false);
    }
}
