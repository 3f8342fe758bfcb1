// nw_wave.cu -- Needleman-Wunsch alignment of one 32x32 block of the score
// matrix per CTA, filled along anti-diagonals: on diagonal d, thread t
// computes cell (t, d - t) from its north, west and north-west neighbours.
//
// Wavefront dynamic programming: 63 diagonals, each ending in a barrier;
// the number of active threads grows from 1 to 32 and shrinks back, so most
// of the CTA idles at the barriers (one warp of work per 32-thread CTA).

#define BS 32

extern "C" __global__ void __launch_bounds__(BS)
nw_wave(const int *__restrict__ ref, int *__restrict__ score, int n, int penalty)
{
    __shared__ int s[BS + 1][BS + 1];
    __shared__ int r[BS][BS];
    const int t = threadIdx.x;
    const int bx = blockIdx.x, by = blockIdx.y;
    const int org = (by * BS) * (n + 1) + bx * BS;
#pragma unroll 1
    for (int i = 0; i < BS; ++i)
        r[i][t] = ref[org + (i + 1) * (n + 1) + t + 1];
    s[t + 1][0] = score[org + (t + 1) * (n + 1)];
    s[0][t + 1] = score[org + t + 1];
    if (t == 0)
        s[0][0] = score[org];
    __syncthreads();
#pragma unroll 1
    for (int d = 0; d < 2 * BS - 1; ++d) {
        const int j = d - t;
        if (j >= 0 && j < BS) {
            const int nw = s[t][j] + r[t][j];
            const int w = s[t + 1][j] - penalty;
            const int no = s[t][j + 1] - penalty;
            s[t + 1][j + 1] = max(nw, max(w, no));
        }
        __syncthreads();
    }
#pragma unroll 1
    for (int i = 0; i < BS; ++i)
        score[org + (i + 1) * (n + 1) + t + 1] = s[i + 1][t + 1];
}
