// softmax_row.cu -- row softmax of a 512 x 1024 matrix, one 256-thread CTA
// per row, 4 elements per thread: a shared-memory max reduction, exp and a
// sum reduction (a barrier per tree level), then the normalised row.
#define NCOL 1024
#define NT 256
extern "C" __global__ void __launch_bounds__(NT) softmax_row(const float *in, float *out)
{
    __shared__ float red[NT];
    const float *a = in + (long)blockIdx.x * NCOL;
    float *o = out + (long)blockIdx.x * NCOL;
    int t = threadIdx.x;
    float v[4];
    float m = -1e30f;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        v[k] = a[t + k * NT];
        m = fmaxf(m, v[k]);
    }
    red[t] = m;
    __syncthreads();
#pragma unroll 1
    for (int s = NT / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        v[k] = __expf(v[k] - m);
        sum += v[k];
    }
    red[t] = sum;
    __syncthreads();
#pragma unroll 1
    for (int s = NT / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
#pragma unroll
    for (int k = 0; k < 4; k++)
        o[t + k * NT] = v[k] * inv;
}
