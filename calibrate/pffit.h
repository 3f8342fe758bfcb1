/* pffit.h - calibration of the RFC/LTRF closed form (seed 004) from seven
 * full sampler runs of a kernel, or from paired windows of the baseline and
 * the register caches (rfkit calibrate --design rfc|ltrf).  (Methods:
 * calibrate/pffit.c.)
 */
#ifndef RF_PFFIT_H
#define RF_PFFIT_H

#include "../analytic/ipc.h"
#include "../analytic/kchar.h"
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
    /* The baseline windows against the population model at the same
     * windows (rf_pffit_window_level). */
    double base_model[RF_PLAN_PF_POS]; /* the model's IPC at position g's baseline window */
    double lv_mean;           /* mean over positions of ln(window / model) */
    double lv_noise;          /* its standard error (sd over positions / sqrt(npos)) */
    double corr_rms;          /* rms of ln(IPC_cal / IPC_unc) at the windows' designs */
} rf_pffit_wrep;

/* Run the plan's windows on the sampler (one SM, sampler seed `seed`), on
 * up to `jobs` threads (the same results on any number); *sim_cycles: the
 * cycles simulated, warm-ups included. */
int rf_pffit_run_windows(const rf_gpu *gpu, const rf_kernel *k, const rf_plan *plan,
                         uint64_t seed, int jobs, rf_pffit_win w[RF_PLAN_MAX],
                         double *sim_cycles, rf_err *err);

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
/* rf_pffit_level, its CTAs walked on up to `jobs` threads (the same set on
 * any number), handing back the CTAs it walked in *walked (the caller
 * frees them; NULL on error) for rf_pffit_window_level_from to slice. */
int rf_pffit_level_walked(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                          const rf_design *base, uint64_t seed, int jobs, rf_calib *cal,
                          rf_ctaset **walked, rf_err *err);

/* What the baseline windows say of the level (calibrate/pffit.c, "level
 * from the windows"): the population model replays each baseline window's
 * CTAs (rf_calib_window_ipc, sampler seed `seed`) at cal's parameters;
 * the windows' log ratio to it sets cal->level_var; the level's own
 * weight cal->level_shrink (cal->level_apart) is 0 (not applied: its log
 * enters the interval) and cal->shrink is the weight of the corrections
 * beside the level
 * (rf_pffit_shrink with level_var 0).
 * A plan without windows: cal->level_var the prior of a level no window
 * checked, level 1, shrink 1.  Call after rf_pffit_fit_windows and
 * rf_pffit_level. */
int rf_pffit_window_level(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                          const rf_plan *plan, const rf_pffit_win w[RF_PLAN_MAX],
                          uint64_t seed, rf_calib *cal, rf_pffit_wrep *rep, rf_err *err);
/* rf_pffit_window_level, each window's CTAs sliced from `walked` (the
 * level's walk, rf_pffit_level_walked: the same CTAs under the same seed)
 * where it holds them, else walked (rf_kchar_ctaset_reuse); NULL: walked. */
int rf_pffit_window_level_from(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                               const rf_plan *plan, const rf_pffit_win w[RF_PLAN_MAX],
                               uint64_t seed, const rf_ctaset *walked, rf_calib *cal,
                               rf_pffit_wrep *rep, rf_err *err);

/* The level's relative variance from the windows' mean log ratio m to the
 * population model and its standard error se:
 *     LV_SCALE^2 (m^2 + se^2) + LV_FLOOR^2   (0.5, 0.04). */
double rf_pffit_level_var(double m, double se);

/* The shrink weight of a register-cache record's corrections beside the
 * level, against the noise of what set them (m windows at a position, the
 * baseline first),
 *     N = level_var + mean_{j=1..m-1} (noise[j]^2 + SH_FLOOR^2)   (0.05),
 *     w = D^2 / (D^2 + N),  D = RF_EXTRAP_PRIOR_CORR
 * (noise[j]: design window j's ratio noise; noise[0], the baseline's,
 * unused; rf_pffit_window_level passes level_var 0). */
double rf_pffit_shrink(int m, const double *noise, double level_var);

/* Plan (template tmpl, budget_cycles 0: the default), windows (on up to
 * `jobs` threads), fit, the
 * level (rf_pffit_level at the template's baseline, then
 * rf_pffit_window_level; also when the kernel is
 * too short for windows: the record then has no samples, its estimates are
 * reported uncalibrated, and the level still applies). */
int rf_pffit_calibrate(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                       const rf_design *tmpl, uint64_t budget_cycles, uint64_t seed, int jobs,
                       rf_plan *plan, rf_pffit_win w[RF_PLAN_MAX], rf_calib *cal,
                       rf_pffit_wrep *rep, rf_err *err);

#endif /* RF_PFFIT_H */
