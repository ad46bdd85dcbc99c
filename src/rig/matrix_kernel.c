/* Local joint matrices for a chunk of joints in one branch-free loop, which
 * the compiler vectorizes; CMake builds this file once per instruction set.
 * The arithmetic is rune_xform_mul followed by rune_mat4_from_xform,
 * written out lane-wise in the same order, so every build and the scalar
 * helpers agree. */
#include "matrix_kernel.h"
#include "../math/lane_quat.h"

void KERNEL(rune__local_matrices)(const local_in *restrict in, local_out *restrict out, size_t n)
{
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        float ax = in->fqx[i], ay = in->fqy[i], az = in->fqz[i], aw = in->fqw[i];
        /* frame rotation * pose rotation, normalized */
        rune_quat q = lane_q_normalize(
            rune_q_mul(rune_q(ax, ay, az, aw), rune_q(in->qx[i], in->qy[i], in->qz[i], in->qw[i])));
        float x = q.x, y = q.y, z = q.z, w = q.w;
        /* frame translation + frame rotation applied to the pose's
         * translation (rune_q_rotate: v + 2w (u x v) + 2 u x (u x v)) */
        float vx = in->tx[i], vy = in->ty[i], vz = in->tz[i];
        float cx = ay * vz - az * vy, cy = az * vx - ax * vz, cz = ax * vy - ay * vx;
        float ccx = ay * cz - az * cy, ccy = az * cx - ax * cz, ccz = ax * cy - ay * cx;
        float w2 = 2.0f * aw;
        float px = vx + (cx * w2 + ccx * 2.0f) + in->fx[i];
        float py = vy + (cy * w2 + ccy * 2.0f) + in->fy[i];
        float pz = vz + (cz * w2 + ccz * 2.0f) + in->fz[i];
        /* rune_mat4_from_xform */
        float xx = x * x, yy = y * y, zz = z * z;
        float xy = x * y, xz = x * z, yz = y * z;
        float wx = w * x, wy = w * y, wz = w * z;
        out->m[0][i] = 1 - 2 * (yy + zz);
        out->m[1][i] = 2 * (xy + wz);
        out->m[2][i] = 2 * (xz - wy);
        out->m[3][i] = 2 * (xy - wz);
        out->m[4][i] = 1 - 2 * (xx + zz);
        out->m[5][i] = 2 * (yz + wx);
        out->m[6][i] = 2 * (xz + wy);
        out->m[7][i] = 2 * (yz - wx);
        out->m[8][i] = 1 - 2 * (xx + yy);
        out->m[9][i] = px;
        out->m[10][i] = py;
        out->m[11][i] = pz;
    }
}
