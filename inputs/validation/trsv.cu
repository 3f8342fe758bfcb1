// trsv.cu -- forward substitution L x = b for many independent 64x64 lower
// triangular systems, one system per CTA of 64 threads: on step i, thread
// i finishes x[i] and every thread j > i subtracts L[j][i] * x[i].
//
// Triangular solve: a 64-step loop with two barriers per step and a shrinking
// active set (the guard j > i masks more threads each step), column loads
// of L from global memory, and one division per step.

#define N 64

extern "C" __global__ void __launch_bounds__(N)
trsv(const float *__restrict__ L, const float *__restrict__ b, float *__restrict__ x)
{
    __shared__ float xs[N];
    const int j = threadIdx.x;
    const float *Ls = L + (size_t)blockIdx.x * N * N;
    float acc = b[blockIdx.x * N + j];
#pragma unroll 1
    for (int i = 0; i < N; ++i) {
        if (j == i)
            xs[i] = acc / Ls[i * N + i];
        __syncthreads();
        if (j > i)
            acc -= Ls[j * N + i] * xs[i];
        __syncthreads();
    }
    x[blockIdx.x * N + j] = xs[j];
}
