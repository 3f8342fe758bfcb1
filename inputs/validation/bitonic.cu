// bitonic.cu -- bitonic sort of 1024 keys per CTA in shared memory, 512
// threads, each thread owning one compare-exchange pair per stage.
//
// Sort network: 10 merge levels x up to 10 stages = 55 compare-exchange
// stages, each ending in a barrier; the direction of each exchange depends
// on the thread's position, so half of each warp swaps and half does not.

#define N 1024

extern "C" __global__ void __launch_bounds__(N / 2)
bitonic(unsigned *keys)
{
    __shared__ unsigned s[N];
    const int t = threadIdx.x;
    unsigned *g = keys + blockIdx.x * N;
    s[t] = g[t];
    s[t + N / 2] = g[t + N / 2];
#pragma unroll 1
    for (int size = 2; size <= N; size <<= 1) {
#pragma unroll 1
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            __syncthreads();
            const int pos = 2 * t - (t & (stride - 1));
            const bool up = ((pos & size) == 0);
            const unsigned a = s[pos], b = s[pos + stride];
            if ((a > b) == up) {
                s[pos] = b;
                s[pos + stride] = a;
            }
        }
    }
    __syncthreads();
    g[t] = s[t];
    g[t + N / 2] = s[t + N / 2];
}
