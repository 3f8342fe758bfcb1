// conv_row.cu -- row pass of a separable convolution with a 17-tap filter
// in constant memory: each CTA loads a 128-pixel row segment plus an 8-pixel
// apron each side into shared memory, then every thread sums 17 products.
//
// Convolution (1D, constant-memory coefficients): a fully unrolled 17-tap
// multiply-add chain reading shared memory with unit-stride offsets, one
// barrier between the load and compute phases; apron loads by a few lanes.

#define RAD 8
#define W 128

__constant__ float taps[2 * RAD + 1];

extern "C" __global__ void __launch_bounds__(W)
conv_row(const float *__restrict__ in, float *__restrict__ out, int width)
{
    __shared__ float s[W + 2 * RAD];
    const int x = blockIdx.x * W + threadIdx.x;
    const int row = blockIdx.y * width;
    s[threadIdx.x + RAD] = in[row + x];
    if (threadIdx.x < RAD) {
        const int l = x - RAD, r = x + W;
        s[threadIdx.x] = l >= 0 ? in[row + l] : 0.f;
        s[threadIdx.x + W + RAD] = r < width ? in[row + r] : 0.f;
    }
    __syncthreads();
    float acc = 0.f;
#pragma unroll
    for (int k = -RAD; k <= RAD; ++k)
        acc += taps[RAD + k] * s[threadIdx.x + RAD + k];
    out[row + x] = acc;
}
