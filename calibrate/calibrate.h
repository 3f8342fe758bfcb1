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
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
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
} rf_calib_report;

typedef struct rf_calib_opts {
    uint64_t budget_cycles;  /* 0 = 4.25% of the estimated full run */
    uint64_t seed;           /* sampler seed */
    FILE *progress;          /* one line per sample, or NULL */
    bool cold;               /* windows from a cold start; false (the default):
                                functional warming of the windows and a fitted
                                rate (rf_plan_warm; calibrate/calibrate.c) */
} rf_calib_opts;

/* Calibrate kernel k (characteristics kc) on gpu (named gpu_name in the
 * record).  Fills *out (ready for rf_record_save) and *rep. */
int rf_calib_run(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                 const rf_ipc_kernel *kc, const rf_calib_opts *opts, rf_calib *out,
                 rf_calib_report *rep, rf_err *err);

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

#endif /* RF_CALIBRATE_H */
