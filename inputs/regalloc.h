/* regalloc.h - a kernel's register allocation fitted to a GPU's
 * per-thread register limit.
 *
 * The allocator itself (rf_regalloc, rf_regalloc_cap) is declared in
 * kir.h with the IR it works on; this header ties it to a loaded kernel
 * and a GPU.
 */
#ifndef RF_REGALLOC_H
#define RF_REGALLOC_H

#include "../common/error.h"
#include "gpu.h"
#include "kernel.h"

/* When a PTX kernel needs more registers per thread than the GPU allows
 * (k->regs > gpu->max_regs_per_thread: rfkit's count, the spec's or
 * ptxas's for another target), do what nvcc does when it compiles for that
 * GPU: allocate again capped at the limit, with the excess spilled to local
 * memory (k->func gets the spill loads and stores, k->func->spill_words
 * says how many words), and use the limit as the kernel's register count.
 * A kernel within the limit, or given as SASS (registers fixed by its
 * compiler), is left as it is.  0 or a negative rf_err code. */
int rf_kernel_fit_regs(rf_kernel *k, const rf_gpu *gpu, rf_err *err);

/* The register budget of a GPU for the allocator (RF_REGALLOC_BUDGET in
 * kir.h): registers per SM / most threads per SM. */
int rf_regalloc_budget(const rf_gpu *gpu);

/* The target ptxas compiles for, as compute capability * 10 (75 = sm_75).
 * rf_regalloc and rf_regalloc_cap allocate for sm_75, the target of the
 * bundled kernels' PTX. */
#define RF_REGALLOC_SM 75

/* rf_regalloc_cap for target sm (RF_REGALLOC_SM's units): ptxas's code
 * differs by target (loop-invariant pointers in register pairs from sm_90
 * on, a shorter issue-slot stretch at sm_80; inputs/regalloc.c). */
int rf_regalloc_target(const rf_func *virt, int max_regs, int budget, int sm,
                       rf_func **out, rf_err *err);

/* The target a module's code is compiled for: its PTX .target ("sm_NN",
 * "sm_90a"), as compute capability * 10; RF_REGALLOC_SM where it names
 * none (SASS, a generic target).  ptxas -v compiles for the same target
 * (inputs/ptxas.c), so rfkit's count and ptxas's answer one question. */
int rf_regalloc_module_sm(const rf_module *m);

/* The budget (RF_REGALLOC_BUDGET) of target sm: registers per SM / most
 * threads per SM on that compute capability (CUDA C Programming Guide,
 * "Compute Capabilities"): 64 K registers everywhere from sm_50 on; 2,048
 * threads, 1,024 on sm_75, 1,536 on sm_86 and sm_89: 32, 64 and 42. */
int rf_regalloc_sm_budget(int sm);

/* Registers a kernel is allocated beyond the highest one its SASS names, on
 * target sm: 2 from sm_70 on (the driver's count, CU_FUNC_ATTRIBUTE_NUM_REGS,
 * is the highest register + 3 for all 33 bundled kernels built for sm_90
 * and read on an H200, tests/fixtures/silicon/; NVIDIA's nvdisasm examples
 * for sm_70 show the same SHI_REGISTERS); 0 before sm_70, for want of a
 * listing of those to check it on. */
int rf_regalloc_reserved(int sm);

#endif /* RF_REGALLOC_H */
