// launch: one launch each of the bundled hotspot and stream kernels at their
// spec's launch (inputs/kernels/*.spec), for Nsight Compute to export the
// raw and source pages that `rfkit profile` reads.  Run by check.sh.
#include <cstdio>
#include <cuda_runtime.h>

#include "../../inputs/kernels/hotspot.cu"
#include "../../inputs/kernels/stream.cu"

#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t e_ = (call);                                              \
        if (e_ != cudaSuccess) {                                              \
            fprintf(stderr, "launch: %s: %s\n", #call, cudaGetErrorString(e_)); \
            return 1;                                                         \
        }                                                                     \
    } while (0)

int main()
{
    const int cols = 256, rows = 256, steps = 4;
    const int n = 4194304;
    float *power, *tin, *tout, *a, *b, *c;

    CK(cudaMalloc(&power, cols * rows * sizeof(float)));
    CK(cudaMalloc(&tin, cols * rows * sizeof(float)));
    CK(cudaMalloc(&tout, cols * rows * sizeof(float)));
    CK(cudaMemset(power, 0, cols * rows * sizeof(float)));
    CK(cudaMemset(tin, 0, cols * rows * sizeof(float)));
    /* grid and block of inputs/kernels/hotspot.spec */
    hotspot<<<dim3(32, 32, 1), dim3(16, 16, 1)>>>(power, tin, tout, cols, rows, steps, 0.5f,
                                                  0.1f, 0.1f, 0.01f, 0.001f, 80.0f);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&b, n * sizeof(float)));
    CK(cudaMalloc(&c, n * sizeof(float)));
    CK(cudaMemset(b, 0, n * sizeof(float)));
    CK(cudaMemset(c, 0, n * sizeof(float)));
    /* grid and block of inputs/kernels/stream.spec */
    stream<<<960, 256>>>(a, b, c, 3.0f, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("launch: hotspot and stream ran\n");
    return 0;
}
