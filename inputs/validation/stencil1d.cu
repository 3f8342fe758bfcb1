// stencil1d.cu -- several explicit diffusion steps of a 1D 7-point stencil
// inside one CTA, ping-ponging between two shared-memory buffers.
//
// Multi-step stencil with barriers: every step reads the neighbours written
// by other warps in the previous step, so each step ends in __syncthreads.
// The halo shrinks by 3 cells per step (the valid region of the tile), so
// the compute guard masks more threads as the steps go on.

#define TILE 256
#define R 3

extern "C" __global__ void __launch_bounds__(TILE)
stencil1d(const float *__restrict__ in, float *__restrict__ out, int n, int steps)
{
    __shared__ float buf[2][TILE];
    const int out_w = TILE - 2 * R * steps;          // cells a tile produces
    const int base = blockIdx.x * out_w - R * steps;  // first cell loaded
    const int t = threadIdx.x;
    int g = base + t;
    g = g < 0 ? 0 : (g >= n ? n - 1 : g);
    buf[0][t] = in[g];
    __syncthreads();

    int cur = 0;
#pragma unroll 1
    for (int s = 1; s <= steps; ++s) {
        float v = buf[cur][t];
        if (t >= R * s && t < TILE - R * s) {
            const float *b = buf[cur];
            v = 0.40f * b[t] + 0.20f * (b[t - 1] + b[t + 1])
              + 0.07f * (b[t - 2] + b[t + 2]) + 0.03f * (b[t - 3] + b[t + 3]);
        }
        buf[cur ^ 1][t] = v;
        cur ^= 1;
        __syncthreads();
    }
    if (t >= R * steps && t < TILE - R * steps && base + t < n)
        out[base + t] = buf[cur][t];
}
