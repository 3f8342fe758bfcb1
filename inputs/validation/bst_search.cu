// bst_search.cu -- batched lookups in an implicit (array-laid-out) binary
// search tree: each thread descends from the root, going left or right by
// comparing its key, until it finds the key or falls off a leaf.
//
// Tree search: a data-dependent descent of up to 20 levels with divergent
// left/right choices and an early exit on a match; the top levels of the
// tree are shared by all threads (cache hits), the deep levels are not.

extern "C" __global__ void __launch_bounds__(128)
bst_search(const int *__restrict__ tree, int nnodes, const int *__restrict__ keys,
           int *__restrict__ found, int nkeys)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nkeys)
        return;
    const int key = keys[t];
    int node = 0, res = -1;
#pragma unroll 1
    while (node < nnodes) {
        const int nk = tree[node];
        if (nk == key) {
            res = node;
            break;
        }
        node = 2 * node + (key < nk ? 1 : 2);
    }
    found[t] = res;
}
