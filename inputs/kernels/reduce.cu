// reduce.cu -- sum reduction: grid-stride accumulation, shared-memory tree,
// warp-shuffle tail, one atomic per block.
//
// Synchronisation-heavy workload: a runtime grid-stride loop (memory bound)
// followed by an unrolled shared-memory tree with __syncthreads between
// levels, a __shfl_down_sync warp reduction and a float atomicAdd to combine
// block results.  Block size is fixed at RD_B threads.

#define RD_B 256

extern "C" __global__ void __launch_bounds__(RD_B)
reduce(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float part[RD_B];

    const int tid = threadIdx.x;
    const int stride = gridDim.x * RD_B;
    float sum = 0.0f;
#pragma unroll 1
    for (int i = blockIdx.x * RD_B + tid; i < n; i += stride)
        sum += in[i];

    part[tid] = sum;
    __syncthreads();

#pragma unroll
    for (int s = RD_B / 2; s >= 32; s >>= 1) {
        if (tid < s)
            part[tid] += part[tid + s];
        __syncthreads();
    }

    if (tid < 32) {
        float v = part[tid];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (tid == 0)
            atomicAdd(out, v);
    }
}
