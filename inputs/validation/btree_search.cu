// btree_search.cu -- lookups in a B-tree with 16 keys per node, one warp
// per query: the lanes of a half-warp compare the query with the node's
// keys, a ballot counts the keys below it, and that count picks the child.
//
// Tree search with warp-cooperative nodes: the descent loop (tree height
// trips) carries vote.ballot and popc; each level is one coalesced 64-byte
// node load followed by a dependent child-pointer load.

#define FAN 16

extern "C" __global__ void __launch_bounds__(128)
btree_search(const int *__restrict__ keys, const int *__restrict__ child,
             const int *__restrict__ queries, int *__restrict__ out,
             int height, int nq)
{
    const int lane = threadIdx.x & 31;
    const int q = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (q >= nq)
        return;
    const int key = queries[q];
    int node = 0;
#pragma unroll 1
    for (int h = 0; h < height; ++h) {
        const int k = keys[node * FAN + (lane & (FAN - 1))];
        const unsigned below = __ballot_sync(0xffffffffu, lane < FAN && k <= key);
        const int slot = __popc(below);
        node = child[node * (FAN + 1) + slot];
    }
    if (lane == 0)
        out[q] = node;
}
