// jacobi9.cu -- two-phase 2D Jacobi smoother with a 9-point operator: a
// smoothing sweep and a residual sweep over one 16x16 shared tile per CTA,
// repeated for a few iterations with barriers between the phases.
//
// Multi-step stencil with barriers and two different phase bodies (the
// IPC changes between the phases): phase 1 writes the smoothed tile, phase 2
// computes the residual norm contribution of each cell and folds it into a
// per-thread accumulator; the halo cells only load.

#define B 16

extern "C" __global__ void __launch_bounds__(B * B)
jacobi9(const float *__restrict__ u, const float *__restrict__ f,
        float *__restrict__ uout, float *__restrict__ res, int nx, int iters)
{
    __shared__ float a[B + 2][B + 2];
    __shared__ float r[B][B];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int gx = blockIdx.x * B + tx, gy = blockIdx.y * B + ty;
    const int idx = gy * nx + gx;
    a[ty + 1][tx + 1] = u[idx];
    if (tx == 0)
        a[ty + 1][0] = gx > 0 ? u[idx - 1] : 0.f;
    if (tx == B - 1)
        a[ty + 1][B + 1] = gx < nx - 1 ? u[idx + 1] : 0.f;
    if (ty == 0)
        a[0][tx + 1] = gy > 0 ? u[idx - nx] : 0.f;
    if (ty == B - 1)
        a[B + 1][tx + 1] = u[idx + nx];
    const float rhs = f[idx];
    float acc = 0.f;
    __syncthreads();

#pragma unroll 1
    for (int it = 0; it < iters; ++it) {
        const float s = a[ty][tx] + a[ty][tx + 2] + a[ty + 2][tx] + a[ty + 2][tx + 2];
        const float e = a[ty][tx + 1] + a[ty + 2][tx + 1] + a[ty + 1][tx] + a[ty + 1][tx + 2];
        const float nv = (rhs + 0.5f * e + 0.25f * s) * (1.0f / 3.0f);
        __syncthreads();
        a[ty + 1][tx + 1] = nv;
        __syncthreads();
        const float lap = 8.f * a[ty + 1][tx + 1]
                        - (a[ty][tx + 1] + a[ty + 2][tx + 1] + a[ty + 1][tx] + a[ty + 1][tx + 2])
                        - (a[ty][tx] + a[ty][tx + 2] + a[ty + 2][tx] + a[ty + 2][tx + 2]);
        const float d = rhs - lap;
        r[ty][tx] = d * d;
        __syncthreads();
        if (tx < B / 2)
            r[ty][tx] += r[ty][tx + B / 2];
        acc += r[ty][tx];
        __syncthreads();
    }
    uout[idx] = a[ty + 1][tx + 1];
    res[idx] = acc;
}
