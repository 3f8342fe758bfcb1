// nearest.cu -- nearest reference point for each query (3D): 256
// reference points staged through shared memory in tiles of 128, a
// distance per pair and a data-dependent update of the best.
#define NREF 256
#define TILE 128
extern "C" __global__ void __launch_bounds__(TILE) nearest(const float4 *q, const float4 *ref, int *best)
{
    __shared__ float4 r[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    float4 p = q[i];
    float bd = 3.4e38f;
    int bi = -1;
#pragma unroll 1
    for (int t0 = 0; t0 < NREF; t0 += TILE) {
        __syncthreads();
        r[threadIdx.x] = ref[t0 + threadIdx.x];
        __syncthreads();
#pragma unroll 1
        for (int j = 0; j < TILE; j++) {
            float dx = r[j].x - p.x, dy = r[j].y - p.y, dz = r[j].z - p.z;
            float d = dx * dx + dy * dy + dz * dz;
            if (d < bd) {
                bd = d;
                bi = t0 + j;
            }
        }
    }
    best[i] = bi;
}
