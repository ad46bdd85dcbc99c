/* Rigid transforms and their column-major matrices. */
#include "rune/math.h"

rune_xform rune_xform_inverse(rune_xform a)
{
    rune_xform r;
    r.r = rune_q_conjugate(a.r);
    r.t = rune_v3_scale(rune_q_rotate(r.r, a.t), -1.0f);
    return r;
}

rune_mat4 rune_mat4_identity(void)
{
    rune_mat4 m = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}};
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
