// gemv_warp.cu -- y = A x, one warp per row of a 2048 x 1024 row-major
// matrix; lanes stride over the columns, a shfl.down tree sums the lanes.
#define NCOL 1024
extern "C" __global__ void gemv_warp(const float *A, const float *x, float *y, int nrow)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= nrow)
        return;
    const float *a = A + (long)row * NCOL;
    float s = 0.0f;
#pragma unroll 1
    for (int c = lane; c < NCOL; c += 32)
        s += a[c] * x[c];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0)
        y[row] = s;
}
