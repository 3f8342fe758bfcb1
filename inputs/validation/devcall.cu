// devcall.cu -- option pricing through non-inlined device functions: a
// normal CDF approximation and a payoff function are __noinline__, so the
// PTX keeps call instructions with parameter passing (.param space).
//
// Kernel with device-function calls: every path step calls step_rate, and
// the pricing calls cnd twice; the calls' argument and return registers add
// moves around each call site.

__device__ __noinline__ float cnd(float d)
{
    const float k = 1.f / (1.f + 0.2316419f * fabsf(d));
    const float poly = k * (0.31938153f + k * (-0.356563782f + k * (1.781477937f
                     + k * (-1.821255978f + k * 1.330274429f))));
    const float c = 0.39894228f * __expf(-0.5f * d * d) * poly;
    return d > 0.f ? 1.f - c : c;
}

__device__ __noinline__ float step_rate(float r, float z, float dt)
{
    return r + 0.1f * (0.05f - r) * dt + 0.02f * sqrtf(dt) * z;
}

extern "C" __global__ void __launch_bounds__(128)
devcall(const float *__restrict__ s0, const float *__restrict__ kx,
        const float *__restrict__ z, float *__restrict__ price, int n, int steps)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float r = 0.03f;
    const float dt = 1.f / steps;
#pragma unroll 1
    for (int s = 0; s < steps; ++s)
        r = step_rate(r, z[s * n + i], dt);
    const float S = s0[i], K = kx[i];
    const float sq = 0.3f;
    const float d1 = (__logf(S / K) + (r + 0.5f * sq * sq)) / sq;
    const float d2 = d1 - sq;
    price[i] = S * cnd(d1) - K * __expf(-r) * cnd(d2);
}
