// bscholes.cu -- Black-Scholes call and put prices, one option per thread:
// log, sqrt, exp and a polynomial normal CDF; no loops, SFU-heavy.
__device__ __forceinline__ float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = 0.3989422804f * __expf(-0.5f * d * d) *
              (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0 ? 1.0f - c : c;
}
extern "C" __global__ void bscholes(const float *S, const float *X, const float *T,
                                    float *call, float *put, float r, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = S[i], x = X[i], t = T[i];
    float sq = sqrtf(t);
    float d1 = (__logf(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
    float d2 = d1 - v * sq;
    float e = __expf(-r * t);
    float c1 = cnd(d1), c2 = cnd(d2);
    call[i] = s * c1 - x * e * c2;
    put[i] = x * e * (1.0f - c2) - s * (1.0f - c1);
}
