// stream.cu -- STREAM-style triad a[i] = b[i] + s * c[i].
//
// Memory-bound workload: a grid-stride loop with two streaming loads, one
// FMA and one streaming store per element; no data reuse, so L1 hits are
// essentially zero and DRAM bandwidth is the limit.

extern "C" __global__ void __launch_bounds__(256)
stream(float *__restrict__ a, const float *__restrict__ b,
       const float *__restrict__ c, float s, int n)
{
    const int stride = gridDim.x * blockDim.x;
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        a[i] = fmaf(s, c[i], b[i]);
}
