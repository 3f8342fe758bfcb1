// spmv_ell.cu -- sparse matrix-vector product y = A x with A in ELLPACK
// format (column-major slots, padded with column -1): one thread per row,
// every row walks the same number of slots and skips the padding.
//
// Sparse kernel (ELL): coalesced value/index loads slot by slot, a gather
// of x through the column index, and a padding branch.

extern "C" __global__ void __launch_bounds__(256)
spmv_ell(const float *__restrict__ val, const int *__restrict__ col,
         const float *__restrict__ x, float *__restrict__ y, int nrows, int width)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrows)
        return;
    float sum = 0.f;
#pragma unroll 1
    for (int k = 0; k < width; ++k) {
        const int c = col[k * nrows + r];
        if (c >= 0)
            sum += val[k * nrows + r] * x[c];
    }
    y[r] = sum;
}
