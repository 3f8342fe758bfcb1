// conv2d.cu -- direct 2D convolution of a single-channel image with a 5x5
// filter held in registers (loaded once per thread from global memory), a
// 20x20 shared input tile per 16x16 output tile, and 4 output channels.
//
// Convolution (2D, several filters): the outer runtime loop runs over the
// output channels; per channel 25 filter taps are fetched and 25 fused
// multiply-adds read the shared tile.  Register pressure comes from the
// unrolled 5x5 window.

#define T 16
#define K 5
#define H (K / 2)

extern "C" __global__ void __launch_bounds__(T * T)
conv2d(const float *__restrict__ img, const float *__restrict__ filt,
       float *__restrict__ out, int w, int h, int nout)
{
    __shared__ float s[T + K - 1][T + K - 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int ox = blockIdx.x * T, oy = blockIdx.y * T;
#pragma unroll 1
    for (int i = ty * T + tx; i < (T + K - 1) * (T + K - 1); i += T * T) {
        const int sy = i / (T + K - 1), sx = i % (T + K - 1);
        int gx = ox + sx - H, gy = oy + sy - H;
        gx = gx < 0 ? 0 : (gx >= w ? w - 1 : gx);
        gy = gy < 0 ? 0 : (gy >= h ? h - 1 : gy);
        s[sy][sx] = img[gy * w + gx];
    }
    __syncthreads();
#pragma unroll 1
    for (int c = 0; c < nout; ++c) {
        const float *f = filt + c * K * K;
        float acc = 0.f;
#pragma unroll
        for (int dy = 0; dy < K; ++dy)
#pragma unroll
            for (int dx = 0; dx < K; ++dx)
                acc += f[dy * K + dx] * s[ty + dy][tx + dx];
        out[(c * h + oy + ty) * w + ox + tx] = acc;
    }
}
