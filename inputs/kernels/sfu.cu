// sfu.cu -- transcendental-heavy iteration (special function unit bound).
//
// Compute-bound workload: each thread iterates four coupled recurrences built
// from the fast-math intrinsics __sinf, __cosf, __expf, __logf, rsqrtf and
// __fdividef, which compile to MUFU (SFU) instructions.  One load and one
// store per thread; the loop has a runtime trip count and a data-dependent
// branch that picks between two update rules.

extern "C" __global__ void __launch_bounds__(256)
sfu(const float *__restrict__ in, float *__restrict__ out, int n, int iters)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;

    float a = in[i];
    float b = 0.5f * a + 1.0f;
    float c = 1.0f - 0.25f * a;
    float d = 0.125f * a * a;

#pragma unroll 1
    for (int k = 0; k < iters; ++k) {
        const float sa = __sinf(a);
        const float eb = __expf(-b * b);
        const float rc = rsqrtf(fabsf(c) + 1.0f);
        const float ld = __logf(fabsf(d) + 1.0f);
        a = fmaf(sa, 1.5f, eb);
        b = rc + ld;
        if (a > b)
            c = __cosf(d) + a * b;
        else
            c = __fdividef(a - b, 1.0f + d * d);
        d = fmaf(c, 0.5f, sa * rc);
    }
    out[i] = a + b + c + d;
}
