/* pffit.h - calibration of the RFC/LTRF closed form (seed 004) from seven
 * sampler runs of a kernel.  (Method: calibrate/pffit.c.)
 */
#ifndef RF_PFFIT_H
#define RF_PFFIT_H

#include "../analytic/ipc.h"
#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"
#include "record.h"

#define RF_PFFIT_N 7          /* samples */
#define RF_PFFIT_P 7          /* fitted parameters */

typedef struct rf_pffit_obs {
    rf_design design;         /* the sampled design point */
    double ipc;               /* warp instructions per cycle */
    uint64_t cycles;          /* cycles simulated */
} rf_pffit_obs;

/* The sampled points for template d (its active_warps, interval_regs,
 * rc_entries and scheduler are kept): LTRF on configurations #1, #2 and
 * #7, LTRF+ on #5, RFC on #1, #2 and #7. */
void rf_pffit_points(const rf_design *d, rf_design pts[RF_PFFIT_N]);

/* Run the sampler on the points (opts: full runs for rf_pffit_fit). */
int rf_pffit_sample(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                    const rf_sim_opts *opts, rf_pffit_obs obs[RF_PFFIT_N], rf_err *err);

/* The same with each sample the mean IPC of `seeds` runs (seeds opts->seed,
 * opts->seed + 1, ...; cycles summed): the sampler's seed-to-seed spread
 * (branch and cache draws, the grid's tail) falls by sqrt(seeds). */
int rf_pffit_sample_seeds(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                          const rf_sim_opts *opts, int seeds, rf_pffit_obs obs[RF_PFFIT_N],
                          rf_err *err);

/* Fit lat_scale, mem_scale, pf_scale, pf_reg, rfc_hit, rfc_scale and
 * ltrf_conflict to the observations; cal (initialised by the caller) gets the parameters,
 * nfit/fit_idx/cov, dof, rms_rel, samples and sample_cycles.  The model of a
 * sample is the whole launch of k on one SM, as the sampler's full run. */
int rf_pffit_fit(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                 const rf_pffit_obs obs[RF_PFFIT_N], rf_calib *cal, rf_err *err);

#endif /* RF_PFFIT_H */
