// libor.cu -- LIBOR market model Monte Carlo: path generation, swaption
// portfolio payoff and pathwise (adjoint) sensitivities, one path per thread.
//
// Register-limited workload shaped like the "LIB" LIBOR benchmark used in
// GPU register-file studies: each thread evolves a vector of LR_N forward
// rates over `nsteps` time steps.  The forward-rate vector, the discount
// factors, the annuities and the adjoint vector are fixed-size arrays whose
// loops are fully unrolled, so they live in registers (dozens of live floats
// per thread).  The time-step loop has a runtime trip count and the inner
// updates are predicated on the time step (rates that have already fixed are
// frozen), giving a loop with many data-independent conditionals.

#define LR_N    16   // forward rates per path
#define LR_NOPT 8    // swaptions in the portfolio

__constant__ float c_lambda[LR_N];      // volatilities by time-to-maturity
__constant__ float c_strike[LR_NOPT];   // swaption strikes

extern "C" __global__ void __launch_bounds__(128)
libor(const float *__restrict__ z,      // [nsteps][npath] normal draws
      float *__restrict__ value,        // [npath] discounted portfolio value
      float *__restrict__ delta_out,    // [LR_N][npath] dV/dL0
      int npath, int nsteps, float delta, float L0)
{
    const int path = blockIdx.x * blockDim.x + threadIdx.x;
    if (path >= npath)
        return;

    float L[LR_N];
#pragma unroll
    for (int i = 0; i < LR_N; ++i)
        L[i] = L0 + 0.0005f * (float)i;

    const float sqdt = sqrtf(delta);
    float drift_scale = 1.0f;

    // ---- path generation: runtime loop over time steps ------------------
#pragma unroll 1
    for (int n = 0; n < nsteps; ++n) {
        const float dW = sqdt * z[(size_t)n * npath + path];
        float v = 0.0f;
#pragma unroll
        for (int i = 0; i < LR_N; ++i) {
            if (i > n) {
                const float lam  = c_lambda[i - n - 1];
                const float dlam = delta * lam;
                v += dlam * L[i] / (1.0f + delta * L[i]);
                const float growth = __expf(lam * (v * delta + dW - 0.5f * dlam * lam) * drift_scale);
                L[i] *= growth;
            }
        }
        drift_scale = drift_scale * 0.999f + 0.001f;
    }

    // ---- discount factors and annuities after the last fixing -----------
    float Bd[LR_N], S[LR_N];
    float b = 1.0f, s = 0.0f;
#pragma unroll
    for (int i = 0; i < LR_N; ++i) {
        if (i >= nsteps) {
            b = b / (1.0f + delta * L[i]);
            s = s + delta * b;
        }
        Bd[i] = b;
        S[i] = s;
    }

    // ---- swaption portfolio: option m exercises into the swap ending at
    //      LR_N - LR_NOPT + m; payoff only when the swap is in the money ---
    float V = 0.0f;
    float Bbar[LR_N], Sbar[LR_N];
#pragma unroll
    for (int i = 0; i < LR_N; ++i) {
        Bbar[i] = 0.0f;
        Sbar[i] = 0.0f;
    }
#pragma unroll
    for (int m = 0; m < LR_NOPT; ++m) {
        const int i = LR_N - LR_NOPT + m;
        const float swapval = Bd[i] + c_strike[m] * S[i] - 1.0f;
        if (swapval < 0.0f) {
            V += -100.0f * swapval;
            Bbar[i] += -100.0f;
            Sbar[i] += -100.0f * c_strike[m];
        }
    }
    V *= b;

    // ---- adjoint sweep: propagate dV/dB, dV/dS back to dV/dL -------------
    float Lbar[LR_N];
    float sAcc = 0.0f;   // sum_{j>=i} Sbar[j]
    float bAcc = 0.0f;   // sum_{j>=i} (Bbar[j] + delta * sAcc_j) * B[j]
#pragma unroll
    for (int i = LR_N - 1; i >= 0; --i) {
        float lb = 0.0f;
        if (i >= nsteps) {
            sAcc += Sbar[i];
            bAcc += (Bbar[i] + delta * sAcc) * Bd[i];
            lb = -bAcc * delta / (1.0f + delta * L[i]) + V * (L[i] - L0);
        }
        Lbar[i] = lb;
    }

    value[path] = V;
#pragma unroll
    for (int i = 0; i < LR_N; ++i)
        delta_out[(size_t)i * npath + path] = Lbar[i];
}
