// nbody.cu -- all-pairs gravitational accelerations: each CTA of 128 threads
// walks the bodies in 128-body tiles staged in shared memory, and each
// thread accumulates the softened interactions of its body with the tile.
//
// Particle method (n-body): compute-bound, a runtime tile loop with a
// barrier pair and an inner loop unrolled by 4 of 128 interactions, each
// 3 subtracts, 3 FMAs for r^2, an rsqrt and 4 more FMAs.

#define TB 128

extern "C" __global__ void __launch_bounds__(TB)
nbody(const float4 *__restrict__ pos, float4 *__restrict__ acc, int n, float eps2)
{
    __shared__ float4 sh[TB];
    const int i = blockIdx.x * TB + threadIdx.x;
    const float4 p = pos[i];
    float ax = 0.f, ay = 0.f, az = 0.f;
#pragma unroll 1
    for (int tile = 0; tile < n; tile += TB) {
        sh[threadIdx.x] = pos[tile + threadIdx.x];
        __syncthreads();
#pragma unroll 4
        for (int j = 0; j < TB; ++j) {
            const float4 q = sh[j];
            const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            const float r2 = dx * dx + dy * dy + dz * dz + eps2;
            const float inv = rsqrtf(r2);
            const float s = q.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    acc[i] = make_float4(ax, ay, az, 0.f);
}
