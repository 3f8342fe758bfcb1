// lu_update.cu -- one right-looking LU elimination step on a dense
// matrix: the CTAs update the trailing submatrix A[i][j] -= L[i] * U[j]
// with 16x16 tiles, where the pivot column L and pivot row U are staged in
// shared memory; row k's multipliers L[i] = A[i][k] / A[k][k] are formed by
// the first row of threads.
//
// LU decomposition (trailing update): a division per tile row, a barrier,
// then a runtime loop of 4 cells per thread (the tile is 16 wide, 64 tall).

#define TB 16

extern "C" __global__ void __launch_bounds__(TB * TB)
lu_update(float *a, int n, int k)
{
    __shared__ float l[4 * TB];
    __shared__ float u[TB];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = k + 1 + blockIdx.x * TB + tx;
    const int row0 = k + 1 + blockIdx.y * 4 * TB;
    const float piv = a[k * n + k];
    if (ty == 0) {
        u[tx] = col < n ? a[k * n + col] : 0.f;
#pragma unroll 1
        for (int r = tx; r < 4 * TB; r += TB) {
            const int row = row0 + r;
            l[r] = row < n ? a[row * n + k] / piv : 0.f;
        }
    }
    __syncthreads();
    if (col >= n)
        return;
#pragma unroll 1
    for (int r = ty; r < 4 * TB; r += TB) {
        const int row = row0 + r;
        if (row < n)
            a[row * n + col] -= l[r] * u[tx];
    }
}
