/* Rigid transforms and their column-major matrices. */
#include "rune/math.h"

rune_xform rune_xform_mul(rune_xform a, rune_xform b)
{
    rune_xform r;
    r.r = rune_q_normalize(rune_q_mul(a.r, b.r));
    r.t = rune_v3_add(rune_q_rotate(a.r, b.t), a.t);
    return r;
}

rune_xform rune_xform_inverse(rune_xform a)
{
    rune_xform r;
    r.r = rune_q_conjugate(a.r);
    r.t = rune_v3_scale(rune_q_rotate(r.r, a.t), -1.0f);
    return r;
}

rune_vec3 rune_xform_point(rune_xform a, rune_vec3 p)
{
    return rune_v3_add(rune_q_rotate(a.r, p), a.t);
}

rune_mat4 rune_mat4_identity(void)
{
    rune_mat4 m = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
    return m;
}

rune_mat4 rune_mat4_from_xform(rune_xform x)
{
    rune_quat q = x.r;
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    rune_mat4 m;
    m.m[0] = 1 - 2 * (yy + zz);
    m.m[1] = 2 * (xy + wz);
    m.m[2] = 2 * (xz - wy);
    m.m[3] = 0;
    m.m[4] = 2 * (xy - wz);
    m.m[5] = 1 - 2 * (xx + zz);
    m.m[6] = 2 * (yz + wx);
    m.m[7] = 0;
    m.m[8] = 2 * (xz + wy);
    m.m[9] = 2 * (yz - wx);
    m.m[10] = 1 - 2 * (xx + yy);
    m.m[11] = 0;
    m.m[12] = x.t.x;
    m.m[13] = x.t.y;
    m.m[14] = x.t.z;
    m.m[15] = 1;
    return m;
}

rune_mat4 rune_mat4_mul(const rune_mat4 *a, const rune_mat4 *b)
{
    rune_mat4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a->m[k * 4 + row] * b->m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}
