// md_lj.cu -- Lennard-Jones forces from a neighbour list (ELL layout, one
// column of neighbours per slot): each thread gathers its neighbours'
// positions, and those within the cut-off contribute 24 eps (2 (s/r)^12 -
// (s/r)^6) / r^2 times the separation.
//
// Particle method (molecular dynamics): irregular gathers of float4
// positions through the neighbour list, a cut-off branch, a division, and
// a neighbour-count-dependent loop.

extern "C" __global__ void __launch_bounds__(128)
md_lj(const float4 *__restrict__ pos, const int *__restrict__ nbr,
      const int *__restrict__ nnbr, float4 *__restrict__ force, int natoms,
      float cut2, float sig2, float eps)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= natoms)
        return;
    const float4 p = pos[i];
    const int cnt = nnbr[i];
    float fx = 0.f, fy = 0.f, fz = 0.f;
#pragma unroll 1
    for (int k = 0; k < cnt; ++k) {
        const float4 q = pos[nbr[k * natoms + i]];
        const float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
        const float r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < cut2) {
            const float ir2 = 1.f / r2;
            const float sr6 = sig2 * ir2 * sig2 * ir2 * sig2 * ir2;
            const float f = 24.f * eps * ir2 * sr6 * (2.f * sr6 - 1.f);
            fx += dx * f;
            fy += dy * f;
            fz += dz * f;
        }
    }
    force[i] = make_float4(fx, fy, fz, 0.f);
}
