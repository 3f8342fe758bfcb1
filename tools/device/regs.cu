// Kernels whose register counts span the range an SM's register file is
// divided by, for occprobe: regs_K keeps K values live across a dependent
// chain, so ptxas gives each one a different count (read back from the
// function, not assumed).
template <int K>
__device__ void chain(const float *__restrict__ in, float *__restrict__ out)
{
    float v[K];
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < K; i++)
        v[i] = in[threadIdx.x + i * 1024];
#pragma unroll
    for (int r = 0; r < 3; r++)
#pragma unroll
        for (int i = 0; i < K; i++)
            s = s * v[(i + r) % K] + v[K - 1 - i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

#define REGS_KERNEL(K)                                                        \
    extern "C" __global__ void regs_##K(const float *in, float *out)         \
    {                                                                         \
        chain<K>(in, out);                                                    \
    }

REGS_KERNEL(8)
REGS_KERNEL(20)
REGS_KERNEL(36)
REGS_KERNEL(52)
REGS_KERNEL(70)
REGS_KERNEL(100)
REGS_KERNEL(130)
REGS_KERNEL(160)
REGS_KERNEL(200)
REGS_KERNEL(240)
