// bfs.cu -- one level of top-down breadth-first search over a CSR graph.
//
// Scheduling-limited workload shaped like the "bfs" graph benchmark: one
// thread per frontier vertex, small 64-thread blocks, very few registers,
// data-dependent trip counts (vertex degree) and branches (already visited or
// not), irregular gathers from the edge and level arrays, and global atomics
// to claim vertices and append them to the next frontier.

extern "C" __global__ void __launch_bounds__(64)
bfs(const int *__restrict__ rowPtr,     // [nverts+1] CSR offsets
    const int *__restrict__ colIdx,     // [nedges]   neighbour ids
    const int *__restrict__ frontier,   // [frontierSize] current level
    int frontierSize,
    int *level,                         // [nverts] -1 = unvisited
    int *parent,                        // [nverts]
    int *nextFrontier,                  // output queue
    int *nextSize,                      // output queue length (atomic)
    int curLevel)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= frontierSize)
        return;

    const int u = frontier[t];
    const int begin = rowPtr[u];
    const int end = rowPtr[u + 1];

#pragma unroll 1
    for (int e = begin; e < end; ++e) {
        const int v = colIdx[e];
        // Cheap non-atomic test first; most neighbours are already visited.
        if (level[v] != -1)
            continue;
        if (atomicCAS(&level[v], -1, curLevel + 1) == -1) {
            parent[v] = u;
            const int slot = atomicAdd(nextSize, 1);
            nextFrontier[slot] = v;
        }
    }
}
