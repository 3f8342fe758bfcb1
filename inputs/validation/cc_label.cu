// cc_label.cu -- one round of connected-components label propagation:
// every vertex takes the minimum label among itself and its neighbours
// (min-label hooking) and lowers the neighbours' labels with atomicMin.
//
// Data-dependent graph traversal with a write on change: degree-dependent
// loop, gathers of neighbour labels, a changed flag set with a plain store.

extern "C" __global__ void __launch_bounds__(256)
cc_label(const int *__restrict__ rowPtr, const int *__restrict__ colIdx,
         int *label, int *changed, int nverts)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= nverts)
        return;
    int best = label[v];
    const int begin = rowPtr[v], end = rowPtr[v + 1];
#pragma unroll 1
    for (int e = begin; e < end; ++e) {
        const int l = label[colIdx[e]];
        best = l < best ? l : best;
    }
    if (best < label[v]) {
        atomicMin(&label[v], best);
        *changed = 1;
    }
}
