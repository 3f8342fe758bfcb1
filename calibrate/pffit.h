/* pffit.h - calibration of the RFC/LTRF closed form (seed 004) from seven
 * full sampler runs of a kernel, or from paired windows of the baseline and
 * the register caches (rfkit calibrate --design rfc|ltrf).  (Methods:
 * calibrate/pffit.c.)
 */
#ifndef RF_PFFIT_H
#define RF_PFFIT_H

#include "../analytic/ipc.h"
#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"
#include "plan.h"
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

/* ---- windows only (calibrate --design rfc|ltrf; calibrate/pffit.c) ---- */

/* One window of the register-cache plan (rf_plan_make_pf) as run. */
typedef struct rf_pffit_win {
    double ipc;               /* warp instructions per cycle in the window */
    uint64_t warmup, cycles;  /* timed warm-up and window run (cycles) */
} rf_pffit_win;

/* What the window fit saw, per register-cache point of a position. */
typedef struct rf_pffit_wrep {
    int npos, per;            /* positions, points per position (baseline first) */
    double ratio[RF_PLAN_PF_PTS];   /* geometric mean over positions of the window's
                                       IPC over its baseline window's ([0]: 1) */
    double noise[RF_PLAN_PF_PTS];   /* relative noise taken on it */
    double model0[RF_PLAN_PF_PTS];  /* the model's ratio at the defaults */
    double model[RF_PLAN_PF_PTS];   /* ... at the fitted parameters */
    double sim_cycles;        /* cycles simulated (warm-ups included) */
} rf_pffit_wrep;

/* Run the plan's windows on the sampler (one SM, sampler seed `seed`);
 * *sim_cycles: the cycles simulated, warm-ups included. */
int rf_pffit_run_windows(const rf_gpu *gpu, const rf_kernel *k, const rf_plan *plan,
                         uint64_t seed, rf_pffit_win w[RF_PLAN_MAX], double *sim_cycles,
                         rf_err *err);

/* Fit the register-cache parameters to the windows' paired ratios (method:
 * calibrate/pffit.c).  cal (initialised by the caller) gets the parameters,
 * nfit/fit_idx/cov, dof, rms_rel, samples, sample_cycles and full_cycles;
 * a plan without windows leaves the defaults (samples 0: uncalibrated). */
int rf_pffit_fit_windows(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                         const rf_plan *plan, const rf_pffit_win w[RF_PLAN_MAX],
                         rf_calib *cal, rf_pffit_wrep *rep, rf_err *err);

/* cal->level: the whole grid's IPC of the CTA population model
 * (analytic/waves.c via rf_calib_window_ipc, from CTA 0, its paths and
 * cache outcomes drawn with the sampler seed `seed`) over the wave
 * formula's, design base at cal's parameters, bounded to [0.5, 2]
 * (calibrate/pffit.c). */
int rf_pffit_level(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                   const rf_design *base, uint64_t seed, rf_calib *cal, rf_err *err);

/* Plan (template tmpl, budget_cycles 0: the default), windows, fit and the
 * level (rf_pffit_level at the template's baseline; also when the kernel is
 * too short for windows: the record then has no samples, its estimates are
 * reported uncalibrated, and the level still applies). */
int rf_pffit_calibrate(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                       const rf_design *tmpl, uint64_t budget_cycles, uint64_t seed,
                       rf_plan *plan, rf_pffit_win w[RF_PLAN_MAX], rf_calib *cal,
                       rf_pffit_wrep *rep, rf_err *err);

#endif /* RF_PFFIT_H */
