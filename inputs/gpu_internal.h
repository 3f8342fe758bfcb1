/* gpu_internal.h - shared between inputs/gpu.c and inputs/gpuconfig.c. */
#ifndef RF_GPU_INTERNAL_H
#define RF_GPU_INTERNAL_H

#include "gpu.h"

/* rf_gpu_check, naming the line where the offending field was set:
 * lines[i] is the line of rf_gpu_params[i] in the file gpu->name (0 when the
 * value did not come from the file); lines may be NULL. */
int rf_gpu_check_at(const rf_gpu *gpu, const int *lines, rf_err *err);

#endif /* RF_GPU_INTERNAL_H */
