// occprobe: the CUDA driver's occupancy answer for every entry of the cubins
// named on the command line, over a sweep of block sizes and dynamic shared
// memory, as CSV.  Run on a GPU machine by tools/device/check.sh; the CSV is
// the ground truth that tests/test_silicon.c holds rfkit's occupancy rules to.
//
// usage: occprobe FILE.cubin ENTRY [FILE.cubin ENTRY ...]
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(call)                                                              \
    do {                                                                      \
        CUresult rc_ = (call);                                                \
        if (rc_ != CUDA_SUCCESS) {                                            \
            const char *msg_ = "?";                                           \
            cuGetErrorString(rc_, &msg_);                                     \
            fprintf(stderr, "occprobe: %s: %s\n", #call, msg_);               \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

static int attr(CUdevice dev, CUdevice_attribute a)
{
    int v = 0;
    CK(cuDeviceGetAttribute(&v, a, dev));
    return v;
}

int main(int argc, char **argv)
{
    CUdevice dev;
    CUcontext ctx;
    char name[256];

    if (argc < 3 || (argc - 1) % 2 != 0) {
        fprintf(stderr, "usage: occprobe FILE.cubin ENTRY [FILE.cubin ENTRY ...]\n");
        return 2;
    }
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuDeviceGetName(name, sizeof name, dev));
    printf("# device: %s, cc %d.%d, %d SMs, %d regs/SM, %d B smem/SM, %d B reserved/CTA, "
           "%d threads/SM, %d CTAs/SM\n",
           name, attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
           attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
           attr(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
           attr(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
           attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
           attr(dev, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK),
           attr(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
           attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR));
    printf("function,regs,static_smem,dyn_smem,block,ctas_per_sm\n");
    for (int i = 1; i + 1 < argc; i += 2) {
        CUmodule mod;
        CUfunction fn;
        int regs, smem, maxthr;
        static const int dyn[] = {0, 5000, 20000, 45000};

        CK(cuModuleLoad(&mod, argv[i]));
        CK(cuModuleGetFunction(&fn, mod, argv[i + 1]));
        CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
        CK(cuFuncGetAttribute(&smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn));
        CK(cuFuncGetAttribute(&maxthr, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn));
        for (int d = 0; d < 4; d++)
            for (int b = 32; b <= maxthr; b += (b < 256 ? 32 : 128)) {
                int n = -1;
                CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, b, (size_t)dyn[d]));
                printf("%s,%d,%d,%d,%d,%d\n", argv[i + 1], regs, smem, dyn[d], b, n);
            }
        CK(cuModuleUnload(mod));
    }
    CK(cuDevicePrimaryCtxRelease(dev));
    return 0;
}
