/* calibrate.h - run a sampling plan on the sampler and fit the IPC model's
 * free parameters to the samples.  (Method: calibrate/calibrate.c.)
 */
#ifndef RF_CALIBRATE_H
#define RF_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../analytic/ipc.h"
#include "../analytic/kchar.h"
#include "../common/error.h"
#include "../common/pool.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"
#include "fit.h"
#include "plan.h"
#include "record.h"

typedef struct rf_calib_sample {
    char label[64];
    uint64_t skip_ctas, warmup, cycles;
    double ipc;            /* measured by the sampler in the window */
    double ipc_fit;        /* model at the fitted parameters */
    double ipc_default;    /* model at the defaults (uncalibrated) */
    double resident_warps; /* mean resident warps in the window */
    double conflict;       /* register-cache write-backs per register write (HI-RF) */
} rf_calib_sample;

typedef struct rf_calib_report {
    rf_plan plan;
    int n;
    rf_calib_sample s[RF_PLAN_MAX];
    rf_fit_result fit;
    double sim_cycles;     /* cycles the sampler simulated (warm-ups included) */
    double corr_default;   /* log(IPC_cal / IPC_unc) at the default design, unshrunk:
                              the correction the shrink weight scales */
    double level_noise;    /* the windows' noise variance on the level they set (v of the
                              shrink weight w = D^2 / (D^2 + v), rf_calib_window_noise) */
    double hirf_bias;      /* HI-RF plans, fit at a bound: the windows' mean log residual,
                              counted in the shrinkage noise (0: none) */
    double hirf_ratio_var; /* HI-RF plans: mean squared log difference of the windows' and
                              the estimates' HI-RF-to-baseline ratios (less the windows'
                              noise on them, it joins the level variance) */
    double plan_weight;    /* the weight the plan's windows would carry on the estimates,
                              before they ran (rf_calib_plan_weight; 0: no windows) */
    int not_run;           /* windows the default budget bought and the calibration did
                              not run: their weight under RF_CALIB_WEIGHT_MIN */
    int level_draws;       /* population-model runs the level took (0: a short run's,
                              the fitted rate; 1 on a grid of at most LEVEL_MAX_CTAS
                              CTAs: the run's own) */
    long level_ctas;       /* CTAs of each (the grid, at most LEVEL_MAX_CTAS) */
    long level_run_ctas;   /* of a split draw, the CTAs the population model ran
                              (its head and tail; calibrate/calibrate.c
                              level_split), else level_ctas */
} rf_calib_report;

typedef struct rf_calib_opts {
    uint64_t budget_cycles;  /* 0 = 4.25% of the estimated full run */
    uint64_t seed;           /* the windows' sampler seed (0: the kernel's run,
                                rf_profile.seed) */
    FILE *progress;          /* one line per sample, or NULL */
    bool cold;               /* windows from a cold start; false (the default):
                                functional warming of the windows and a fitted
                                rate (rf_plan_warm; calibrate/calibrate.c) */
    const rf_design *design; /* NULL: the ordinary plan; a switching design (vt,
                                regdram, finereg, regmutex): its windows join the
                                plan within the same budget and fit sw_sync and
                                sw_cost (calibrate/calibrate.c) */
    int jobs;                /* threads running the windows' sampler runs, the fit's
                                window models, the level's draws and the CTA walks
                                of the windows and the level's first draw (<= 1:
                                the calling thread alone); the record is the same
                                on any number */
} rf_calib_opts;

/* Calibrate kernel k (characteristics kc) on gpu (named gpu_name in the
 * record).  Fills *out (ready for rf_record_save) and *rep. */
int rf_calib_run(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                 const rf_ipc_kernel *kc, const rf_calib_opts *opts, rf_calib *out,
                 rf_calib_report *rep, rf_err *err);

/* rf_calib_run taking the CTAs its walks need (the windows', the level's
 * draws, calibrate/calibrate.c) from walked where it holds them (may be
 * NULL): the characterisation's sample (rf_kchar_compute_walked), so that
 * no CTA is walked twice.  The same result as rf_calib_run. */
int rf_calib_run_walked(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                        const rf_ipc_kernel *kc, const rf_ctaset *walked,
                        const rf_calib_opts *opts, rf_calib *out, rf_calib_report *rep,
                        rf_err *err);

/* The plan's windows as pool jobs (common/pool.h): job i runs window i on
 * the sampler (one SM, sampler seed `seed`, its warm-up, length, skipped
 * and warmed CTAs) into st[i], err[i] on failure; each job writes its own
 * slots, so the caller reads them in plan order on any number of threads. */
typedef struct rf_calib_windows {
    const rf_gpu *gpu;
    const rf_kernel *k;
    const rf_plan *plan;
    uint64_t seed;
    int window[RF_PLAN_MAX];    /* job j runs window window[j] */
    int job[RF_PLAN_MAX];       /* window i is job job[i] */
    rf_sim_stats st[RF_PLAN_MAX];
    rf_err err[RF_PLAN_MAX];
} rf_calib_windows;

int rf_calib_window_job(int j, void *ctx);

/* The plan's windows started on a pool of up to `jobs` threads, every one
 * released, the register-cache designs' first (their windows cost the most
 * per cycle: the threads end closer together); *out (the caller frees it
 * after rf_pool_finish) holds their results by window, and
 * rf_calib_window_wait waits for window i.  0, or RF_ENOMEM (nothing to
 * finish or free). */
int rf_calib_windows_start(const rf_gpu *gpu, const rf_kernel *k, const rf_plan *plan,
                           uint64_t seed, int jobs, rf_pool *pool, rf_calib_windows **out,
                           rf_err *err);
int rf_calib_window_wait(rf_pool *pool, const rf_calib_windows *w, int i);

/* IPC the model gives for a sampler window of design d: the CTA population
 * model (analytic/waves.c) from a start at CTA `skip` (cs: the CTAs from
 * `skip - warm` on, rf_kchar_ctaset with the sampler's seed), cold
 * (warm = 0) or after functional warming from CTA skip - warm, over
 * [warmup, warmup + cycles), with the steady-state IPC model (kernel figures
 * k, parameters p) giving the rate at each number of issuing warps.
 * cycles = 0: the whole grid from `skip` on (IPC of the full run). */
int rf_calib_window_ipc(const rf_gpu *gpu, const rf_design *d, const rf_kernel *kern,
                        const rf_ipc_kernel *k, const rf_ctaset *cs, const rf_ipc_params *p,
                        uint64_t skip, uint64_t warm, uint64_t warmup, uint64_t cycles,
                        double *ipc, rf_err *err);

/* The CTA population model's IPC of design d over the whole run of the
 * CTAs in cs (the run's first cs->nctas CTAs, from a cold start): a run of
 * at least 64 waves split into its first CTAs until the rate is steady and
 * its last waves, the middle at the steady rate (calibrate/calibrate.c
 * level_split), on up to two of jobs threads; the same result on any
 * number.  *run_ctas (may be NULL): the CTAs the model ran. */
int rf_calib_run_ipc(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                     const rf_ipc_kernel *kc, const rf_ctaset *cs, const rf_ipc_params *p,
                     int jobs, double *ipc, long *run_ctas, rf_err *err);

/* A short run (calibrate/calibrate.c SHORT_LEVEL_WAVES): at most
 * SHORT_LEVEL_WAVES waves of the default design's resident CTAs and at most
 * RF_IPC_NLONE CTAs, every one of whose lone cycles the estimate's run model
 * knows (kuse->nlone), so that the run model takes its start and tail CTA by
 * CTA and a calibration takes no population level.  resident (may be NULL):
 * the default design's resident CTAs per SM. */
int rf_calib_short_run(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kuse,
                       bool *is_short, long *resident, rf_err *err);

/* The weight the plan's windows would carry on the estimates, before any
 * of them runs: the shrinkage weight w = D^2 / (D^2 + v) (D =
 * RF_EXTRAP_PRIOR_CORR) at v = 1 / sum_i 1/sigma_i^2, the noise variance of
 * the level the windows set when they scatter as the fit expects, sigma_i
 * the noise the fit gives window i (WINDOW_NOISE, widened for windows
 * shorter than a CTA lifetime or a few DRAM latencies; calibrate/
 * calibrate.c).  k: the kernel's run (its CTAs and the plan's full-run
 * cycles give the CTA lifetime).  0 for a plan without windows. */
double rf_calib_plan_weight(const rf_gpu *gpu, const rf_kernel *k, const rf_plan *plan);

/* The least weight for which a default budget's ordinary windows run
 * (calibrate/calibrate.c, step 0). */
#define RF_CALIB_WEIGHT_MIN 0.5

/* The ordinary windows' agreement with the fitted model (calibrate/
 * calibrate.c, step 6): r[0..n) their relative residuals (fit - sampled) /
 * sampled, sig[0..n) their relative noise as the fit takes it.
 *   *bias = mean r;
 *   *se   = its standard error, sqrt(sum (r_i - bias)^2 / ((n - 1) n)),
 *           or sig[0] for one window;
 *   *v    = the noise variance of the level the windows set together,
 *           1 / sum 1/sig_i^2, times max(1, sum (r_i / sig_i)^2 / (n - 1))
 *           (the windows scattering more than their noise says; n >= 2).
 * n = 0: all three 0. */
void rf_calib_window_noise(const double *r, const double *sig, int n, double *bias, double *se,
                           double *v);

/* HI-RF plans' windows against their own fit (calibrate/calibrate.c):
 * when the fit stopped at a parameter's bound (at_bound), the mean log
 * residual of the nord ordinary windows, r = mean ln(ipc / ipc_fit),
 * goes to rep->hirf_bias and joins the level's noise v in the shrinkage,
 * out->shrink = rf_extrap_shrink_prior(RF_EXTRAP_PRIOR_CORR, v + r^2);
 * otherwise nothing changes. */
void rf_calib_hirf_window_check(rf_calib_report *rep, int nord, bool at_bound, double v,
                                rf_calib *out);

/* One window of a switching design for rf_calib_fit_sw. */
typedef struct rf_calib_swwin {
    const rf_plan_point *pt;    /* its design, place and length as planned */
    const rf_ctaset *cs;        /* the CTAs it ran (rf_kchar_ctaset) */
    double cycles;              /* window length run */
    double ipc;                 /* sampled IPC (<= 0: left out) */
} rf_calib_swwin;

/* Fit sw_sync and sw_cost (analytic/switching.c) to n windows of a
 * switching design, the other parameters held at *p and every window's
 * model IPC multiplied by rate:
 *   min sum_i ((rate f_i - y_i) / (s_i y_i))^2 + sum_j ((theta_j - d_j) / w_j)^2
 * s_i = noise (relative, per window; more on windows under SHORT_LATS DRAM
 * latencies), d_j the defaults (0.75, 1), w_j = width[j] (calibration:
 * PRIOR_SW_SYNC, PRIOR_SW_COST of calibrate/calibrate.c).  Writes the
 * fitted values into *p and their covariance into cov; no usable window:
 * *p unchanged, cov 0. */
int rf_calib_fit_sw(const rf_gpu *gpu, const rf_kernel *kern, const rf_ipc_kernel *k,
                    const rf_calib_swwin *w, int n, double rate, double noise,
                    const double width[2], rf_ipc_params *p, double cov[2][2], rf_err *err);

/* Whether calibration keeps the switching parameters fitted on design
 * windows of design kind (those that improved the estimates measured by
 * bench_occdesigns; the others run their windows and fit nothing). */
bool rf_calib_sw_fitted(int kind);

#endif /* RF_CALIBRATE_H */
