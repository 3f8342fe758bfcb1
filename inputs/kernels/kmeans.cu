// kmeans.cu -- k-means assignment step: nearest centroid for every point.
//
// Scheduling-limited workload shaped like the "kmeans" clustering benchmark:
// one thread per point, small 64-thread blocks, a runtime loop over the
// centroids with a data-dependent compare/select, and a fully unrolled
// distance computation over KM_F features.  Features are stored
// feature-major ([f][npts]) so the per-point loads coalesce; centroid loads
// are uniform across the warp (broadcast).  A block-wide
// __syncthreads_count gathers how many memberships changed.

#define KM_F 16   // features per point

extern "C" __global__ void __launch_bounds__(64)
kmeans(const float *__restrict__ feat,       // [KM_F][npts]
       const float *__restrict__ centroids,  // [nclusters][KM_F]
       int *__restrict__ membership,         // [npts], in/out
       int *__restrict__ changed,            // global change counter
       int npts, int nclusters)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = p < npts;

    int moved = 0;
    if (valid) {
        float x[KM_F];
#pragma unroll
        for (int f = 0; f < KM_F; ++f)
            x[f] = feat[(size_t)f * npts + p];

        int best = 0;
        float bestDist = 3.0e38f;
#pragma unroll 1
        for (int c = 0; c < nclusters; ++c) {
            const float *cp = centroids + c * KM_F;
            float d = 0.0f;
#pragma unroll
            for (int f = 0; f < KM_F; ++f) {
                const float diff = x[f] - cp[f];
                d = fmaf(diff, diff, d);
            }
            if (d < bestDist) {
                bestDist = d;
                best = c;
            }
        }

        if (membership[p] != best) {
            membership[p] = best;
            moved = 1;
        }
    }

    const int nMoved = __syncthreads_count(moved);
    if (threadIdx.x == 0 && nMoved > 0)
        atomicAdd(changed, nMoved);
}
