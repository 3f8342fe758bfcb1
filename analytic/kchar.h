/* kchar.h - kernel characteristics for the IPC model, from the kernel IR
 * weighted by the profile.  (Formulas and assumptions: analytic/kchar.c.)
 */
#ifndef RF_KCHAR_H
#define RF_KCHAR_H

#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "ipc.h"

/* Expected executions of each block per warp (entry block = 1), from the
 * profile's branch probabilities.  freq has f->nblocks entries. */
int rf_kchar_block_freq(const rf_func *f, const rf_profile *prof, double *freq,
                        rf_err *err);

/* Mean latency of a global load under the profile's hit rates, cycles. */
double rf_kchar_mem_latency(const rf_gpu *gpu, const rf_profile *prof);

/* Fill *out for kernel k on gpu (physical function k->func). */
int rf_kchar_compute(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out,
                     rf_err *err);

/* Same from a bare function, profile and CTA shape (tests, tools). */
int rf_kchar_func(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                  int threads_per_cta, rf_ipc_kernel *out, rf_err *err);

#endif /* RF_KCHAR_H */
