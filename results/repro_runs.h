/* repro_runs.h - the runs a reproduction experiment is made of, and how a
 * measured figure is judged against a published one.
 *
 * A bundled kernel is loaded as `estimate` and `simulate` load it (spilled
 * to the GPU's register limit), with the spec's register count and no
 * ptxas run, so that the figures do not depend on the tools installed.
 * Estimates are calibrated closed forms (rfkit calibrate, then estimate)
 * on one SM running the whole grid, the same machine the sampler's full
 * run (`simulate --full`) is, so that an estimate and its ground truth
 * compare one for one.
 */
#ifndef RF_REPRO_RUNS_H
#define RF_REPRO_RUNS_H

#include <stdint.h>

#include "../analytic/design.h"
#include "../analytic/ipc.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/record.h"
#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"
#include "repro.h"

/* One bundled kernel on one GPU, ready for estimates. */
typedef struct rf_rr_kernel {
    rf_kernel *k;         /* owned */
    rf_ipc_kernel kc;     /* its characteristics on the GPU */
    rf_calib cal;         /* fitted parameters (calibrated: 1) */
    int calibrated;
} rf_rr_kernel;

/* Load bundled kernel `name` (rf_repro_bundled) for gpu: the kernel and its
 * characteristics; with calibrate, also its calibration (rfkit calibrate's
 * plan, sampler seed o->seed).  Errors name the spec file. */
int rf_rr_open(const rf_repro_opts *o, const rf_gpu *gpu, const char *name, int calibrate,
               rf_rr_kernel *rk, rf_err *err);
void rf_rr_close(rf_rr_kernel *rk);

/* The calibrated estimate of design d, on one SM (rf_shape.sms = 1). */
int rf_rr_estimate(const rf_gpu *gpu, const rf_design *d, const rf_rr_kernel *rk,
                   rf_estimate *e, rf_err *err);
/* The same with the grid spread over sms SMs sharing DRAM (`--sms N`). */
int rf_rr_estimate_on(const rf_gpu *gpu, const rf_design *d, const rf_rr_kernel *rk, int sms,
                      rf_estimate *e, rf_err *err);

/* A full sampler run of design d (every CTA of the grid, sampler seed). */
int rf_rr_simulate(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k, uint64_t seed,
                   rf_sim_stats *st, rf_err *err);

/* The verdict on a relative effect (published -0.062 for "6.2% fewer"):
 * reproduced when the measured effect has the published sign and lies
 * within a factor of two of it, [p/2, 2p].  A published effect of no change
 * (|p| <= flat) is reproduced when |measured| <= flat. */
rf_verdict rf_rr_effect(double measured, double published, double flat);

/* The verdict on a level: reproduced when |measured - published| <= tol. */
rf_verdict rf_rr_level(double measured, double published, double tol);

/* "reproduced" / "differs". */
const char *rf_rr_verdict_name(rf_verdict v);

/* Geometric mean of x[0..n) (> 0); NaN when n is 0. */
double rf_rr_geomean(const double *x, int n);

#endif /* RF_REPRO_RUNS_H */
