// scan.cu -- block-wide exclusive prefix sum (Blelloch work-efficient scan)
// of 512 elements per CTA with 256 threads: an up-sweep and a down-sweep
// over a shared array, one barrier per tree level, plus the block total.
//
// Scan: 9 up-sweep and 9 down-sweep levels (loops with halving/doubling
// active thread counts, so the guard masks more threads each level).

#define N 512

extern "C" __global__ void __launch_bounds__(N / 2)
scan(const int *__restrict__ in, int *__restrict__ out, int *__restrict__ sums)
{
    __shared__ int s[N];
    const int t = threadIdx.x;
    const int base = blockIdx.x * N;
    s[2 * t] = in[base + 2 * t];
    s[2 * t + 1] = in[base + 2 * t + 1];
    int off = 1;
#pragma unroll 1
    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            const int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        off <<= 1;
    }
    if (t == 0) {
        sums[blockIdx.x] = s[N - 1];
        s[N - 1] = 0;
    }
#pragma unroll 1
    for (int d = 1; d < N; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            const int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            const int x = s[ai];
            s[ai] = s[bi];
            s[bi] += x;
        }
    }
    __syncthreads();
    out[base + 2 * t] = s[2 * t];
    out[base + 2 * t + 1] = s[2 * t + 1];
}
