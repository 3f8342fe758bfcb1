// short_poly.cu -- evaluate a degree-8 polynomial (Horner) and its
// derivative at 8192 points, 32 CTAs of 256 threads: a short kernel with
// a little arithmetic per load.
//
// Short kernel: one wave on a Fermi SM pair, a fully unrolled 8-step Horner
// chain with constant-memory coefficients, and a one-point Newton update.

__constant__ float coef[9];

extern "C" __global__ void __launch_bounds__(256)
short_poly(const float *__restrict__ x, float *__restrict__ y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float v = x[i];
    float p = coef[8], dp = 0.f;
#pragma unroll
    for (int k = 7; k >= 0; --k) {
        dp = dp * v + p;
        p = p * v + coef[k];
    }
    y[i] = v - p / (dp + 1e-6f);
}
