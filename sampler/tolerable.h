/* tolerable.h - maximum tolerable main-register-file latency (seed 004
 * Section 6.3) by sampler sweeps.  (Method: sampler/tolerable.c.)
 */
#ifndef RF_TOLERABLE_H
#define RF_TOLERABLE_H

#include <stdbool.h>

#include "sim.h"

#define RF_TOL_MAXPTS 128

typedef struct rf_tol_opts {
    double loss;           /* allowed IPC loss, fraction (seed 004: 0.05) */
    double step;           /* latency multiplier step of the sweep */
    double max_x;          /* largest multiplier tried */
    int seeds;             /* runs per point, seeds opts->seed, opts->seed + 1, ...
                              (IPC averaged; 1 by default) */
} rf_tol_opts;

void rf_tol_opts_init(rf_tol_opts *o);

typedef struct rf_tol_point {
    double latency_x;      /* main-RF latency multiplier */
    double ipc;            /* sampler IPC, warp insts/cycle/SM (mean over the seeds) */
} rf_tol_point;

typedef struct rf_tolerable {
    double ref_ipc;        /* banked file of the same capacity at 1x latency
                              (baseline for capacity 1x, else ideal) */
    double self_ipc;       /* the design itself at 1x */
    double tol_self;       /* largest multiplier with IPC >= (1 - loss) self_ipc */
    double tol_ref;        /* ... >= (1 - loss) ref_ipc; 0 when even 1x loses more */
    bool capped_self, capped_ref; /* no loss up to max_x (the value is a lower bound) */
    int n;
    rf_tol_point pt[RF_TOL_MAXPTS];
} rf_tolerable;

/* Sweep latency_x = 1, 1 + step, ... for design d (rfc or ltrf; its
 * rf_config sets capacity and banks) until both thresholds are crossed or
 * max_x is reached.  Each point is the mean IPC of to->seeds rf_sim_runs
 * with opts. */
int rf_sim_tolerable(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                     const rf_sim_opts *opts, const rf_tol_opts *to, rf_tolerable *out,
                     rf_err *err);

#endif /* RF_TOLERABLE_H */
