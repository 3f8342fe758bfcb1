// spmv.cu -- sparse matrix-vector product y = alpha*A*x + beta*y, CSR format.
//
// Memory-bound workload ("scalar CSR"): one thread per row, a runtime loop
// over the row's nonzeros with coalescing that depends on the row lengths,
// and indirect (gathered) loads from x through the column indices.

extern "C" __global__ void __launch_bounds__(128)
spmv(int nrows, const int *__restrict__ rowPtr, const int *__restrict__ colIdx,
     const float *__restrict__ vals, const float *__restrict__ x,
     float *__restrict__ y, float alpha, float beta)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < nrows) {
        const int begin = rowPtr[row];
        const int end = rowPtr[row + 1];
        float sum = 0.0f;
#pragma unroll 1
        for (int j = begin; j < end; ++j)
            sum = fmaf(vals[j], x[colIdx[j]], sum);
        float out = alpha * sum;
        if (beta != 0.0f)
            out = fmaf(beta, y[row], out);
        y[row] = out;
    }
}
