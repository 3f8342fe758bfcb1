/* rcfit.h - calibration of the HI-RF closed form (seed 002) from four
 * sampler runs of a kernel: the plain SRAM file, HI-RF with the
 * concatenated index and HI-RF with the TEA index (base assignment), and
 * HI-RF concatenated with the Worst assignment.
 * (Method: calibrate/rcfit.c.)
 */
#ifndef RF_RCFIT_H
#define RF_RCFIT_H

#include "../analytic/ipc.h"
#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"
#include "record.h"

#define RF_RCFIT_N 4

/* What one sample measured. */
typedef struct rf_rcfit_obs {
    rf_design design;     /* the sampled design point */
    double ipc;           /* warp instructions per cycle */
    double conflict;      /* register-cache conflicts per register write (HI-RF) */
    uint64_t cycles;      /* cycles simulated */
} rf_rcfit_obs;

/* The design points sampled: baseline, hirf concat (the design's
 * wbits/rbits/rc_entries) and hirf tea with base assignment, hirf concat
 * with Worst assignment. */
void rf_rcfit_points(const rf_design *hirf, rf_design pts[RF_RCFIT_N]);

/* Run the sampler on the points (opts: window or full run). */
int rf_rcfit_sample(const rf_gpu *gpu, const rf_design *hirf, const rf_kernel *k,
                    const rf_sim_opts *opts, rf_rcfit_obs obs[RF_RCFIT_N], rf_err *err);

/* Fit rc_locality, then lat_scale (with mem_scale), conflict_scale and
 * rc_stall to the observations; cal (initialised by the caller, e.g.
 * rf_calib_init) gets the parameters, nfit/fit_idx/cov of the IPC fit,
 * samples and sample_cycles.  The model of a sample is the whole launch
 * of k on one SM, as the sampler's full run. */
int rf_rcfit_fit(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                 const rf_rcfit_obs obs[RF_RCFIT_N], rf_calib *cal, rf_err *err);

#endif /* RF_RCFIT_H */
