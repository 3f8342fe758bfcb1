// transpose.cu -- out-of-place matrix transpose through a padded 32x33
// shared tile, 32x8 threads per CTA, each thread moving 4 elements.
//
// Transpose: coalesced loads into the tile, one barrier, coalesced stores
// of the transposed tile; the padding column avoids shared bank conflicts.
// Almost no arithmetic: a memory-bound kernel with a barrier in the middle.

#define TD 32
#define RW 8

extern "C" __global__ void __launch_bounds__(TD * RW)
transpose(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x;
    int y = blockIdx.y * TD + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TD; j += RW)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x;
    y = blockIdx.x * TD + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TD; j += RW)
        out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
