// spmv_csrvec.cu -- vector CSR SpMV: one warp per row, the lanes stride
// through the row's non-zeros and the partial sums are reduced with five
// warp shuffles; lane 0 writes the result.
//
// Sparse kernel (CSR, warp per row): a row-length-dependent strided loop,
// gathers of x, then a shfl.down butterfly and a lane-0 branch.

extern "C" __global__ void __launch_bounds__(128)
spmv_csrvec(const int *__restrict__ rowPtr, const int *__restrict__ col,
            const float *__restrict__ val, const float *__restrict__ x,
            float *__restrict__ y, int nrows)
{
    const int lane = threadIdx.x & 31;
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (row >= nrows)
        return;
    float sum = 0.f;
#pragma unroll 1
    for (int e = rowPtr[row] + lane; e < rowPtr[row + 1]; e += 32)
        sum += val[e] * x[col[e]];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (lane == 0)
        y[row] = sum;
}
