// bfs_pull.cu -- one bottom-up (pull) BFS level over a CSR graph of
// in-edges: each unvisited vertex scans its in-neighbours and stops at the
// first one found in the current frontier bitmap.
//
// Data-dependent graph traversal: the loop exits early on a hit (the trip
// count depends on where the parent sits in the adjacency list), visited
// vertices leave at once, and every test is a gather from a bitmap.

extern "C" __global__ void __launch_bounds__(128)
bfs_pull(const int *__restrict__ rowPtr, const int *__restrict__ colIdx,
         const unsigned *__restrict__ frontier, int *level, int *parent,
         unsigned *next, int nverts, int curLevel)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nverts || level[v] != -1)
        return;
    const int begin = rowPtr[v], end = rowPtr[v + 1];
#pragma unroll 1
    for (int e = begin; e < end; ++e) {
        const int u = colIdx[e];
        if (frontier[u >> 5] & (1u << (u & 31))) {
            level[v] = curLevel + 1;
            parent[v] = u;
            atomicOr(&next[v >> 5], 1u << (v & 31));
            break;
        }
    }
}
