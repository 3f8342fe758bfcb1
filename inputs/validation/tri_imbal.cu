// tri_imbal.cu -- lower-triangular matrix-vector product, one CTA per
// 64-row band: band b sums over (b + 1) * 64 columns, so the first CTA does
// one tile of work and the last does 64 (strong per-CTA imbalance).
//
// Per-CTA imbalance: the tile loop's trip count is blockIdx.x + 1; each tile
// stages 64 x values in shared memory between two barriers and each thread
// runs a 64-long unrolled-by-8 dot product over its row.

#define TB 64

extern "C" __global__ void __launch_bounds__(TB)
tri_imbal(const float *__restrict__ L, const float *__restrict__ x,
          float *__restrict__ y, int n)
{
    __shared__ float xs[TB];
    const int row = blockIdx.x * TB + threadIdx.x;
    float sum = 0.f;
#pragma unroll 1
    for (int t = 0; t <= (int)blockIdx.x; ++t) {
        xs[threadIdx.x] = x[t * TB + threadIdx.x];
        __syncthreads();
        const float *lr = L + (size_t)row * n + t * TB;
#pragma unroll 8
        for (int j = 0; j < TB; ++j)
            sum += lr[j] * xs[j];
        __syncthreads();
    }
    y[row] = sum;
}
