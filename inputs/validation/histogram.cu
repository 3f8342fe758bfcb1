// histogram.cu -- 256-bin byte histogram: per-CTA sub-histograms in shared
// memory built with shared atomics over a grid-stride loop, then merged into
// the global histogram with one global atomic per bin.
//
// Histogram with atomics: the loop body is a 4-byte word split into four
// bins, each an atom.shared.add; a barrier separates the clear, count and
// merge phases.

#define BINS 256

extern "C" __global__ void __launch_bounds__(256)
histogram(const unsigned *__restrict__ data, int nwords, unsigned *__restrict__ hist)
{
    __shared__ unsigned h[BINS];
    h[threadIdx.x] = 0;
    __syncthreads();
    const int stride = gridDim.x * blockDim.x;
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += stride) {
        const unsigned w = data[i];
        atomicAdd(&h[w & 0xffu], 1u);
        atomicAdd(&h[(w >> 8) & 0xffu], 1u);
        atomicAdd(&h[(w >> 16) & 0xffu], 1u);
        atomicAdd(&h[w >> 24], 1u);
    }
    __syncthreads();
    const unsigned c = h[threadIdx.x];
    if (c)
        atomicAdd(&hist[threadIdx.x], c);
}
