// launch_all: one launch of every kernel named in a manifest (kernels.txt),
// at its spec's grid, block and dynamic shared memory, with the manifest's
// arguments, for Nsight Compute to export every kernel's source page.
// Run by check.sh.
//
// usage: launch_all MANIFEST DIR   (DIR/K.cubin, DIR/K.launch: "gx gy gz bx by bz smem")
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAUNCH_BUFFER (128u << 20)
#define MAXARGS 16

static int ck(CUresult rc, const char *what, const char *k)
{
    if (rc == CUDA_SUCCESS)
        return 0;
    const char *msg = "?";
    cuGetErrorString(rc, &msg);
    fprintf(stderr, "launch_all: %s: %s: %s\n", k, what, msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: launch_all MANIFEST DIR\n");
        return 2;
    }
    CUdevice dev;
    CUcontext ctx;
    if (ck(cuInit(0), "init", "-") || ck(cuDeviceGet(&dev, 0), "device", "-") ||
        ck(cuDevicePrimaryCtxRetain(&ctx, dev), "context", "-") ||
        ck(cuCtxSetCurrent(ctx), "context", "-"))
        return 1;
    FILE *mf = fopen(argv[1], "r");
    if (!mf) {
        perror(argv[1]);
        return 1;
    }
    char line[1024];
    int failed = 0;
    while (fgets(line, sizeof line, mf)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *save = NULL, *name = strtok_r(line, " \t\n", &save);
        char path[1024];
        int g[3], b[3], smem;
        snprintf(path, sizeof path, "%s/%s.launch", argv[2], name);
        FILE *lf = fopen(path, "r");
        if (!lf || fscanf(lf, "%d %d %d %d %d %d %d", &g[0], &g[1], &g[2], &b[0], &b[1], &b[2],
                          &smem) != 7) {
            fprintf(stderr, "launch_all: %s: no launch in %s\n", name, path);
            failed++;
            if (lf)
                fclose(lf);
            continue;
        }
        fclose(lf);
        snprintf(path, sizeof path, "%s/%s.cubin", argv[2], name);
        CUmodule mod;
        CUfunction fn;
        if (ck(cuModuleLoad(&mod, path), "load", name) ||
            ck(cuModuleGetFunction(&fn, mod, name), "function", name)) {
            failed++;
            continue;
        }
        /* Arguments: each checked against the function's own parameter
         * sizes (cuFuncGetParamInfo). */
        CUdeviceptr bufs[MAXARGS];
        int ival[MAXARGS], nb = 0, n = 0, bad = 0;
        float fval[MAXARGS];
        void *args[MAXARGS];
        for (char *t; (t = strtok_r(NULL, " \t\n", &save)) && n < MAXARGS; n++) {
            size_t off, size;
            if (ck(cuFuncGetParamInfo(fn, (size_t)n, &off, &size), "param info", name)) {
                bad = 1;
                break;
            }
            if (strcmp(t, "p") == 0) {
                if (size != 8 || ck(cuMemAlloc(&bufs[nb], LAUNCH_BUFFER), "alloc", name) ||
                    ck(cuMemsetD8(bufs[nb], 0, LAUNCH_BUFFER), "memset", name)) {
                    fprintf(stderr, "launch_all: %s: argument %d: %zu bytes, not a pointer\n",
                            name, n, size);
                    bad = 1;
                    break;
                }
                args[n] = &bufs[nb++];
            } else if (strpbrk(t, ".e")) {
                fval[n] = strtof(t, NULL);
                args[n] = &fval[n];
                bad |= size != 4;
            } else {
                ival[n] = atoi(t);
                args[n] = &ival[n];
                bad |= size != 4;
            }
        }
        size_t off, size;
        if (!bad && cuFuncGetParamInfo(fn, (size_t)n, &off, &size) == CUDA_SUCCESS) {
            fprintf(stderr, "launch_all: %s: the kernel takes more than %d arguments\n", name, n);
            bad = 1;
        }
        if (!bad && !ck(cuLaunchKernel(fn, g[0], g[1], g[2], b[0], b[1], b[2], smem, NULL,
                                       args, NULL), "launch", name) &&
            !ck(cuCtxSynchronize(), "run", name))
            printf("launch_all: %s ran\n", name);
        else
            failed++;
        for (int i = 0; i < nb; i++)
            cuMemFree(bufs[i]);
        cuModuleUnload(mod);
    }
    fclose(mf);
    cuDevicePrimaryCtxRelease(dev);
    return failed ? 1 : 0;
}
