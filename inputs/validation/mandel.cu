// mandel.cu -- escape-time Mandelbrot image: one thread per pixel,
// iterate z = z^2 + c until |z| > 2 or 256 iterations.
//
// Per-CTA imbalance through data: CTAs over the set's interior run all 256
// iterations, CTAs outside it leave after a few, and warps diverge along
// the set's boundary.

extern "C" __global__ void __launch_bounds__(256)
mandel(int *__restrict__ img, int w, int h, float x0, float y0, float dx)
{
    const int px = blockIdx.x * 16 + (threadIdx.x & 15);
    const int py = blockIdx.y * 16 + (threadIdx.x >> 4);
    const float cr = x0 + px * dx, ci = y0 + py * dx;
    float zr = 0.f, zi = 0.f;
    int it = 0;
#pragma unroll 1
    while (it < 256 && zr * zr + zi * zi <= 4.f) {
        const float t = zr * zr - zi * zi + cr;
        zi = 2.f * zr * zi + ci;
        zr = t;
        ++it;
    }
    img[py * w + px] = it;
}
