/* Root-motion extraction: root-track travel across loop boundaries, the
 * weighted travel of plays, conversion through the root frame, and removal
 * of horizontal travel and yaw from the root pose. */
#include "rune/root.h"
#include "root_internal.h"
#include "../clip/sample_dest.h" /* rune__sample_cache_lane_transform */

#include <string.h>

#define PI_D 3.14159265358979323846

static double wrap_angle(double a)
{
    a += PI_D;
    if (a >= 0.0 && a < 2.0 * PI_D) /* what fmod would return: most frames' turns */
        return a - PI_D;
    a = fmod(a, 2.0 * PI_D);
    if (a < 0.0)
        a += 2.0 * PI_D;
    return a - PI_D;
}

/* atan(k / 8), k = 0..8 (each to 17 digits), the table atan2 below
 * reduces its argument by. */
static const double ATAN_EIGHTHS[9] = {0.0,
                                       0.12435499454676144,
                                       0.24497866312686414,
                                       0.35877067027057225,
                                       0.46364760900080609,
                                       0.55859931534356244,
                                       0.64350110879328437,
                                       0.71882999962162453,
                                       0.78539816339744828};

/* atan2(y, x) within 5e-16 of libm's (tested), for what root travel asks
 * of it: one a play's leaf and frame. libm's atan2 rounds correctly,
 * which costs it about 100 instructions and branches on its argument's
 * range (a quarter of a crowd character's root travel); here r = min / max
 * of |x|, |y| in [0, 1] is taken to its nearest eighth c, and
 * atan(r) = atan(c) + atan(d), d = (r - c) / (1 + r c), |d| <= 1/16, is
 * six terms of atan's series (the next is below 2e-17). The octant is
 * restored by selects. NaN in, NaN out; (0, 0) gives 0. */
static double yaw_atan2(double y, double x)
{
    if (isnan(x) || isnan(y))
        return NAN;
    double ax = fabs(x), ay = fabs(y);
    double hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
    double r = hi > 0.0 ? lo / hi : 0.0; /* infinities: lo / hi is NaN or 0 */
    r = r <= 1.0 ? r : 1.0;
    int k = (int)(r * 8.0 + 0.5);
    double c = 0.125 * k, d = (r - c) / (1.0 + r * c), d2 = d * d;
    double series = 1.0 + d2 * (-1.0 / 3.0 + d2 * (1.0 / 5.0 + d2 * (-1.0 / 7.0 + /* atan(d) / d */
                                d2 * (1.0 / 9.0 + d2 * (-1.0 / 11.0)))));
    double a = ATAN_EIGHTHS[k] + d * series;
    a = ay > ax ? PI_D / 2.0 - a : a;
    a = x < 0.0 ? PI_D - a : a;
    return copysign(a, y);
}

/* Twist angle of q about the unit axis (radians, in (-2pi, 2pi]). */
static double twist_angle(rune_quat q, rune_vec3 axis)
{
    double along = (double)q.x * axis.x + (double)q.y * axis.y + (double)q.z * axis.z;
    return 2.0 * yaw_atan2(along, (double)q.w);
}

rune_vec3 rune_root_up_axis(rune_xform frame)
{
    return rune_q_rotate(rune_q_conjugate(frame.r), rune_v3(0.0f, 1.0f, 0.0f));
}

typedef struct root_sample {
    rune_vec3 t;
    double yaw;
    uint32_t key; /* where the search for the next sample starts */
} root_sample;

static bool same_v3(rune_vec3 a, rune_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

void rune_root_memo_reset(rune_root_memo *memo) { memset(memo, 0, sizeof *memo); }

/* The memo, emptied first when its entries were taken about another up
 * axis (a zeroed memo holds none). */
static rune_root_memo *memo_for(rune_root_memo *memo, rune_vec3 up)
{
    if (memo && !same_v3(memo->up, up)) {
        rune_root_memo_reset(memo);
        memo->up = up;
    }
    return memo;
}

/* Where a root sample is taken: the clip's root track, or first -- where
 * a play's sampler is given -- the sampler's row (the same bits). */
typedef struct root_source {
    const rune_clip *clip;
    int32_t track;
    const rune_sample_cache *sampler; /* NULL: the clip alone */
    size_t lane;                      /* the root joint's lane in it */
} root_source;

static root_sample sample_track(const root_source *src, rune_vec3 up, float t, uint32_t key)
{
    rune_vec3 at;
    rune_quat r;
    if (!src->sampler ||
        !rune__sample_cache_lane_transform(src->sampler, src->lane, src->clip, src->track, t, &key, &at, &r))
        rune_clip_sample_transform_near(src->clip, (size_t)src->track, t, &key, &at, &r);
    return (root_sample){at, twist_angle(r, up), key};
}

/* The root sample at clip time t: from the memo when `look` and it holds
 * it (newest entries first: the start of a frame's interval is the end
 * of the last frame's), else taken -- searching from `key` -- and kept.
 * The end of an interval is not looked up: it is the next frame's start,
 * not an earlier sample (a play starting where another of the same clip
 * ends in the same frame is all it would find), and the sample taken has
 * the same bits as the one it would have found. */
static root_sample sample(const root_source *src, rune_vec3 up, double time, uint32_t key, rune_root_memo *memo,
                          bool look)
{
    float t = (float)time;
    if (!memo)
        return sample_track(src, up, t, key);
    uint64_t serial = rune_clip_serial(src->clip);
    for (size_t i = 1; look && i <= RUNE_ROOT_MEMO_SAMPLES; i++) {
        const struct rune_root_memo_sample *e = &memo->sample[(memo->next_sample - i) % RUNE_ROOT_MEMO_SAMPLES];
        if (e->serial == serial && e->track == src->track && e->time == t)
            return (root_sample){e->t, e->yaw, e->key};
    }
    root_sample r = sample_track(src, up, t, key);
    struct rune_root_memo_sample *e = &memo->sample[memo->next_sample++ % RUNE_ROOT_MEMO_SAMPLES];
    *e = (struct rune_root_memo_sample){
        .serial = serial, .yaw = r.yaw, .t = r.t, .track = src->track, .time = t, .key = r.key};
    return r;
}

/* Steps that measure a cycle's yaw: the twist is unwrapped step by step,
 * so a clip that turns more than half a turn (a 180 or 360 degree spin)
 * reports its whole turn, which one wrapped end-minus-start cannot. */
#define CYCLE_YAW_STEPS 64

static struct rune_root_memo_cycle measure_cycle(const rune_clip *clip, int32_t track, rune_vec3 up, double len)
{
    root_source src = {clip, track, NULL, 0};
    root_sample start = sample(&src, up, 0.0, 0, NULL, false);
    struct rune_root_memo_cycle c = {rune_clip_serial(clip), track, start.t, sample(&src, up, len, 0, NULL, false).t,
                                     0.0};
    double prev = start.yaw;
    uint32_t key = start.key;
    for (int i = 1; i <= CYCLE_YAW_STEPS; i++) {
        root_sample s = sample(&src, up, len * i / CYCLE_YAW_STEPS, key, NULL, false);
        c.yaw += wrap_angle(s.yaw - prev);
        prev = s.yaw;
        key = s.key;
    }
    return c;
}

/* A looping clip's travel and turn over one whole cycle, from the memo
 * when it holds them. */
static struct rune_root_memo_cycle cycle_of(const rune_clip *clip, int32_t track, rune_vec3 up, double len,
                                            rune_root_memo *memo)
{
    if (!memo)
        return measure_cycle(clip, track, up, len);
    uint64_t serial = rune_clip_serial(clip);
    for (size_t i = 0; i < RUNE_ROOT_MEMO_CYCLES; i++) {
        const struct rune_root_memo_cycle *e = &memo->cycle[i];
        if (e->serial == serial && e->track == track)
            return *e;
    }
    struct rune_root_memo_cycle *e = &memo->cycle[memo->next_cycle++ % RUNE_ROOT_MEMO_CYCLES];
    *e = measure_cycle(clip, track, up, len);
    return *e;
}

rune_root_travel rune_root_clip_travel(const rune_binding *b, int32_t root, rune_vec3 up, double from, double to)
{
    return rune_root_clip_travel_memo(b, root, up, from, to, NULL);
}

/* rune_root_clip_travel_memo, its samples taken from `sampler` (the play
 * of the binding's clip) where it can give them. */
static rune_root_travel clip_travel(const rune_binding *b, const rune_sample_cache *sampler, int32_t root,
                                    rune_vec3 up, double from, double to, rune_root_memo *memo)
{
    rune_root_travel out = {{0.0f, 0.0f, 0.0f}, 0.0f};
    root_source src = {rune_binding_clip(b), rune_binding_track_of(b, root), sampler, (size_t)root};
    double len = rune_clip_length(src.clip);
    if (src.track < 0 || !isfinite(from) || !isfinite(to) || from == to)
        return out;
    double cycles = 0.0;
    if (rune_clip_loops(src.clip) && len > 0.0) {
        double ca = floor(from / len), cb = floor(to / len);
        cycles = cb - ca;
        from -= ca * len;
        to -= cb * len;
    } else {
        from = fmin(fmax(from, 0.0), len);
        to = fmin(fmax(to, 0.0), len);
    }
    memo = memo_for(memo, up);
    root_sample a = sample(&src, up, from, 0, memo, true), b2 = sample(&src, up, to, a.key, memo, false);
    double yaw = wrap_angle(b2.yaw - a.yaw);
    double dx = (double)b2.t.x - a.t.x, dy = (double)b2.t.y - a.t.y, dz = (double)b2.t.z - a.t.z;
    if (cycles != 0.0) {
        struct rune_root_memo_cycle c = cycle_of(src.clip, src.track, up, len, memo);
        dx += cycles * ((double)c.end.x - c.start.x);
        dy += cycles * ((double)c.end.y - c.start.y);
        dz += cycles * ((double)c.end.z - c.start.z);
        yaw += cycles * c.yaw;
    }
    out.t = rune_v3((float)dx, (float)dy, (float)dz);
    out.yaw = (float)yaw;
    return out;
}

rune_root_travel rune_root_clip_travel_memo(const rune_binding *b, int32_t root, rune_vec3 up, double from, double to,
                                            rune_root_memo *memo)
{
    return clip_travel(b, NULL, root, up, from, to, memo);
}

void rune_root_motion_travel(const rune_motion_player *p, int32_t root, rune_vec3 up, double from, double to,
                             float weight, rune_root_memo *memo, rune_root_travel *acc)
{
    size_t n = rune_motion_player_leaf_count(p);
    for (size_t i = 0; i < n; i++) {
        float w = weight * rune_motion_player_leaf_share(p, i);
        if (!(w > 0.0f))
            continue;
        rune_root_travel t = clip_travel(rune_motion_player_leaf_binding(p, i), rune_motion_player_leaf_sampler(p, i),
                                         root, up, rune_motion_player_leaf_clock(p, i, from),
                                         rune_motion_player_leaf_clock(p, i, to), memo);
        acc->t = rune_v3_add(acc->t, rune_v3_scale(t.t, w));
        acc->yaw += w * t.yaw;
    }
}

rune_root_delta rune_root_to_model(rune_xform frame, rune_root_travel travel)
{
    rune_vec3 m = rune_q_rotate(frame.r, travel.t);
    rune_root_delta d = {m.x, m.z, travel.yaw};
    if (!isfinite(d.dx) || !isfinite(d.dz) || !isfinite(d.yaw))
        d.dx = d.dz = d.yaw = 0.0f;
    return d;
}

static bool in_rig(const rune_rig *rig, int32_t j) { return j >= 0 && (size_t)j < rune_rig_joint_count(rig); }

rune_quat rune_root_rest_rotation(const rune_rig *rig, int32_t root)
{
    rune_quat r = rune_q(0.0f, 0.0f, 0.0f, 1.0f);
    const int32_t *parents = rune_rig_parents(rig);
    for (int32_t j = root; in_rig(rig, j); j = parents[j])
        r = rune_q_mul(rune_rig_frame(rig, (size_t)j).r, r);
    return rune_q_normalize(r);
}

rune_root_delta rune_root_rig_to_model(const rune_rig *rig, int32_t root, rune_root_travel travel)
{
    rune_root_delta d = {0.0f, 0.0f, 0.0f};
    if (!in_rig(rig, root))
        return d;
    /* parents are listed before children, so the walk up ends */
    const int32_t *parents = rune_rig_parents(rig);
    rune_vec3 v = travel.t;
    for (int32_t j = root; in_rig(rig, j); j = parents[j]) {
        rune_vec3 s = rune_rig_frame_scale(rig, (size_t)j);
        v = rune_q_rotate(rune_rig_frame(rig, (size_t)j).r, rune_v3(s.x * v.x, s.y * v.y, s.z * v.z));
    }
    d = (rune_root_delta){v.x, v.z, travel.yaw};
    if (!isfinite(d.dx) || !isfinite(d.dz) || !isfinite(d.yaw))
        d.dx = d.dz = d.yaw = 0.0f;
    return d;
}

void rune_root_strip(rune_pose *pose, int32_t root, rune_xform frame)
{
    if (root < 0 || (size_t)root >= pose->count)
        return;
    rune_vec3 up = rune_root_up_axis(frame);
    size_t j = (size_t)root;
    /* keep only the translation along the model up axis */
    rune_pose_set_t(pose, j, rune_v3_scale(up, rune_v3_dot(rune_pose_t(pose, j), up)));
    /* swing-twist: the twist is q projected onto the axis; the heading is
     * applied outermost, so what remains is twist^-1 * q */
    rune_quat q = rune_pose_r(pose, j);
    float along = q.x * up.x + q.y * up.y + q.z * up.z;
    rune_quat twist = rune_q_normalize(rune_q(up.x * along, up.y * along, up.z * along, q.w));
    rune_pose_set_r(pose, j, rune_q_normalize(rune_q_mul(rune_q_conjugate(twist), q)));
}
