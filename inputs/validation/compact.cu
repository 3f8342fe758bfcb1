// compact.cu -- stream compaction: keep the values above a threshold.
// Each warp counts its survivors with a ballot, lane 0 reserves space with
// one global atomicAdd, and the base is broadcast with a shuffle.
extern "C" __global__ void compact(const float *in, float *out, int *count, float thr, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float v = i < n ? in[i] : 0.0f;
    bool keep = i < n && v > thr;
    unsigned m = __ballot_sync(0xffffffffu, keep);
    int base = 0;
    if (lane == 0 && m != 0)
        base = atomicAdd(count, __popc(m));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep)
        out[base + __popc(m & ((1u << lane) - 1u))] = v;
}
