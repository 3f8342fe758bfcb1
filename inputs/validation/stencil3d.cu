// stencil3d.cu -- 7-point 3D Laplacian, 128 x 128 x 32 grid: each thread of
// a 32 x 8 block owns one (x, y) column and marches along z, keeping the
// column's z - 1, z, z + 1 values in registers; x and y neighbours from
// global memory (mostly L1 hits).
#define NX 128
#define NY 128
#define NZ 32
extern "C" __global__ void stencil3d(const float *in, float *out, float c0, float c1)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= NX - 1 || y >= NY - 1)
        return;
    const long plane = (long)NX * NY;
    long i = (long)y * NX + x;
    float below = in[i], cur = in[i + plane];
#pragma unroll 1
    for (int z = 1; z < NZ - 1; z++) {
        long j = i + z * plane;
        float above = in[j + plane];
        float s = in[j - 1] + in[j + 1] + in[j - NX] + in[j + NX] + below + above;
        out[j] = c0 * cur + c1 * s;
        below = cur;
        cur = above;
    }
}
