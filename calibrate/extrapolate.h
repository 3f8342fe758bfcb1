/* extrapolate.h - whole-kernel estimates at any design point: occupancy,
 * IPC (with a prediction interval when calibrated), cycles, energy, area.
 * (Formulas: calibrate/extrapolate.c.)
 */
#ifndef RF_EXTRAPOLATE_H
#define RF_EXTRAPOLATE_H

#include <stdbool.h>

#include "../analytic/area.h"
#include "../analytic/design.h"
#include "../analytic/energy.h"
#include "../analytic/ipc.h"
#include "../analytic/occupancy.h"
#include "../analytic/prefetch.h"
#include "../analytic/switching.h"
#include "../common/error.h"
#include "../inputs/gpu.h"
#include "record.h"

/* Launch shape the estimate uses (kernel's own, or batch overrides). */
typedef struct rf_shape {
    int regs;            /* registers per thread */
    int threads;         /* threads per CTA */
    int smem;            /* bytes of shared memory per CTA */
    long ctas;           /* CTAs in the grid */
    int sms;             /* SMs the grid is spread over; 0 = the GPU's (1 = as the
                          * sampler's single-SM full run) */
} rf_shape;

/* A register cache's expected counts on the busiest SM, under the names and
 * meanings of the sampler's counters (`simulate --csv`): reads served by
 * the cache (RFC, HI-RF; every LTRF operand is in its partition) and not,
 * results written into it and evictions to the main file (HI-RF; the
 * sampler counts neither for RFC and LTRF).  Zero for other designs. */
typedef struct rf_rc_counts {
    double rc_hits, rc_misses, rc_writes, rc_conflicts;
} rf_rc_counts;

/* Their CSV columns, in output order: X(column, field). */
#define RF_RC_COUNTER_COLUMNS(X)                                              \
    X(rc_hits, rc_hits) X(rc_misses, rc_misses) X(rc_writes, rc_writes)         \
    X(rc_conflicts, rc_conflicts)
#define RF_RC_NCOUNTERS 4

typedef struct rf_estimate {
    rf_occ occ;
    rf_ipc_result steady;   /* full-wave steady state */
    long ctas_per_sm;       /* CTAs the busiest SM runs */
    double ipc;             /* whole-kernel warp instructions per cycle per SM */
    double ipc_lo, ipc_hi;  /* 95% prediction interval (NaN when uncalibrated) */
    double cycles;          /* whole-kernel cycles */
    double cycles_lo, cycles_hi;
    double insts;           /* warp instructions of the busiest SM */
    rf_area area;           /* per SM */
    double area_mm2;        /* register file area per SM, mm^2 */
    rf_energy energy;       /* all SMs in use */
    double energy_nj;       /* register file energy of the kernel, nJ */
    bool calibrated;
    rf_rcc_result rc;       /* HI-RF register-cache rates (zero for other designs) */
    rf_pf_terms pf;         /* RFC and LTRF terms (analytic/prefetch.c; zero for others) */
    rf_rc_counts rcc;       /* the register cache's counts (zero without one) */
    double pool_warps;      /* a two-level scheduler's pool per SM (0: none) */
    double pool_balance;    /* the share of its places that issue (analytic/kchar.c pool
                             * balance; 0: no pool) */
    rf_sw_counters occc;    /* occupancy-raising designs' counters (analytic/switching.c) */
} rf_estimate;

/* Shrinkage weight of a calibration (calibrate/extrapolate.c, 3.): from
 * the corrections c[0..m) = log(IPC_cal / IPC_unc) at the sampled designs
 * and the windows' relative noise s over n windows,
 *     w = D^2 / (D^2 + s^2 / n),  D^2 = max(0, mean c_k^2 - s^2 / n);
 * 1 when there is neither correction nor noise. */
double rf_extrap_shrink_weight(const double *c, int m, double s, int n);

/* The prior width of the calibrated correction, log(IPC_cal / IPC_unc):
 * the uncalibrated model's error, as a normal prior of the true
 * correction (calibrate/extrapolate.c, 3.), of the order of the nine
 * tuning kernels' uncalibrated errors (mean |error| 3.8% with the whole
 * grid on one SM, 3.0% at the default share of 15 SMs, up to 13%).
 * Chosen on the nine on fermi-gtx480 (bench_validation, both run kinds,
 * calibration seeds 1-4): 0.05 and 0.07 give the least sum of their
 * calibrated mean |error|, 0.07 the narrower intervals.  The
 * register-cache records take the same width (calibrate/pffit.c). */
#define RF_EXTRAP_PRIOR_CORR 0.07

/* Shrinkage weight of a window calibration (calibrate/extrapolate.c, 3.):
 * prior width d of the correction, noise variance v of the calibrated
 * level (relative), w = d^2 / (d^2 + v); 1 when both are 0. */
double rf_extrap_shrink_prior(double d, double v);

/* Relative variance of a window calibration's estimate (calibrate/
 * extrapolate.c, 4.): the windows' mean residual about the fit (bias) and
 * its standard error se, shrinkage weight w, correction c at the point,
 * the fitted parameters' variance vfit_rel and the uncalibrated model's
 * error sigma_unc (rf_extrap_sigma_unc),
 *     SIGMA_PRED^2 + min(bias^2 + se^2 + ((1 - w) c)^2, sigma_unc^2)
 *     + w^2 vfit_rel. */
double rf_extrap_rel_var_win(double bias, double se, double w, double c, double vfit_rel,
                             double sigma_unc);

/* The uncalibrated model's relative error for design d (calibrate/
 * extrapolate.c): 0.045 for the whole grid on one SM, 0.030 for one SM's
 * share of a grid spread over several; HI-RF designs 0.0505 and 0.058. */
double rf_extrap_sigma_unc(const rf_gpu *gpu, const rf_design *d, const rf_shape *shape);

/* Relative variance of a calibrated estimate (calibrate/extrapolate.c, 4.)
 * with windows' noise s over n windows, shrinkage weight w, correction c
 * at the point and the fitted parameters' variance vfit_rel (g^T C g /
 * IPC_cal^2), for records without the windows' bias (register-cache
 * records, older records). */
double rf_extrap_rel_var(double s, int n, double w, double c, double vfit_rel);

/* HI-RF windows' noise on their log ratio to the baseline window at the
 * same CTAs, ln(y_h / y_b) (calibrate/calibrate.c hirf_ratio_check): 0.026
 * rms against the full runs' ratio on the nine tuning kernels over
 * calibration seeds 1-6 on volta-hirf (the spread over the seeds alone:
 * 0.025).  The pair shares its CTAs, warming and sampler seed, so the
 * ratio's noise is well under a window's own (6%). */
#define RF_EXTRAP_HIRF_RATIO_NOISE 0.025

/* The HI-RF ratio correction of a calibrated estimate at design d
 * (calibrate/extrapolate.c, 3.): with the record's disagreement d_f for
 * d's index family (concat windows for the concat index, whatever its
 * assignment; the TEA window for TEA; the mean of both for the fully
 * associative cache) and its weight w_r, *corr = w_r d_f, the log factor
 * on the estimate, and *var = ((1 - w_r) d_f)^2 + w_r^2 N^2 (N =
 * RF_EXTRAP_HIRF_RATIO_NOISE), the correction's relative variance.  False
 * (both 0) for other designs and records without the correction. */
bool rf_extrap_hirf_ratio(const rf_calib *cal, const rf_design *d, double *corr, double *var);

/* RFC: the warps whose registers share the cache (analytic/prefetch.c).
 * Of the `warps` resident warps that issue (resident warps times the
 * kernel's active fraction), a share r = busy / (busy + mem) is not waiting
 * on memory: busy the cycles a warp spends per instruction on its own
 * dependences and stalls, mem its memory stall per instruction.  Where the
 * kernel's DRAM cap (instructions per cycle; INFINITY without DRAM) holds
 * the SM below what those warps would issue, Little's law bounds the warps
 * not waiting on memory by dram_cap x busy (the rest queue for DRAM), and
 * where that bound is below both the pool and warps x r, r is taken from
 * it: r = dram_cap busy / warps.  Under a two-level pool of `pool` warps:
 * within one stay in the pool the warps in it, *pool_in = min(pool,
 * warps r) (the pool takes only warps not waiting on memory); over a
 * reuse that spans a pool exit those that take turns in it, *sharing =
 * min(pool / r, warps).  Without a pool: *sharing = min(pool, warps),
 * *pool_in = 0. */
void rf_extrap_rfc_warps(double pool, double warps, double busy, double mem, double dram_cap,
                         bool two_level, double *pool_in, double *sharing);

/* RFC: the share of a run's warp instructions issued while n of its CTAs
 * are resident, share[n] for n = 0 .. slots (share[0] = 0), where the
 * estimate knows the CTAs' lone cycles (k->lone, k->lone_insts of the
 * run's last k->nlone CTAs, for a run of k->crit_ctas = ctas CTAs on the
 * SM).  The known CTAs are taken in run order into `slots` places, the
 * first `slots` at once, each for its lone cycles: the CTA fluid of
 * analytic/ipc.c advances every resident CTA through its lone time at one
 * rate, so they end in this schedule's order and the resident count
 * follows it.  A CTA issues its instructions evenly over its stay; the
 * run's CTAs before the known ones count at `slots`.  False, share
 * untouched, where the lone cycles are not known. */
bool rf_extrap_resident_shares(const rf_ipc_kernel *k, long ctas, int slots, double *share);

/* CTAs the busiest SM runs: ceil(ctas / sms), sms <= 0 meaning the GPU's. */
long rf_extrap_ctas_per_sm(const rf_gpu *gpu, long ctas, int sms);

/* The two-level pool's places that issue (analytic/kchar.c pool_eff):
 * m->pool scaled by the kernel's pool balance at the design's resident
 * CTAs; no change without a pool. */
void rf_extrap_pool_balance(const rf_ipc_kernel *k, const rf_occ *occ, rf_ipc_machine *m);

/* The two-level pool's places per scheduler under design d (the sampler's
 * split, sampler/sim.c); 0 where d's scheduler has no pool. */
int rf_extrap_pool_per_sched(const rf_gpu *gpu, const rf_design *d);

/* The SM as the IPC model sees it under design d with occupancy occ. */
void rf_extrap_machine(const rf_gpu *gpu, const rf_design *d, const rf_occ *occ,
                       rf_ipc_machine *m);


/* The occupancy-raising designs' terms (analytic/switching.c) at design d
 * with occupancy occ: fills si and st, scales k->active_frac by the
 * effective CTAs over st->resident (the CTAs per wave) and adds Reg+DRAM's
 * context bytes to k->dram_bytes; other designs: st->resident = the active
 * CTAs, k unchanged.  Needs k->func and k->prof. */
int rf_extrap_sw(const rf_gpu *gpu, const rf_design *d, const rf_occ *occ,
                 const rf_shape *shape, rf_ipc_kernel *k, const rf_ipc_params *p,
                 const rf_ipc_machine *m, rf_sw_input *si, rf_sw_state *st, rf_err *err);

/* Parameters and kernel figures to use: calibrated when cal != NULL. */
void rf_extrap_setup(const rf_ipc_kernel *kc, const rf_calib *cal, rf_ipc_kernel *k_used,
                     rf_ipc_params *p_used);

/* Full estimate.  cal may be NULL (uncalibrated defaults). */
int rf_extrap_estimate(const rf_gpu *gpu, const rf_design *d, const rf_ipc_kernel *kc,
                       const rf_shape *shape, const rf_calib *cal, rf_estimate *out,
                       rf_err *err);


/* The register-cache figures of the kernel's code for RFC or LTRF design d
 * at shape's CTA size (analytic/prefetch.c: register-intervals, reuse
 * profile, the miss-path walk), which no model parameter enters; zeroed
 * for other designs.  rf_extrap_estimate_pk takes them (NULL: computed),
 * so that a caller estimating one design at many parameter values (a fit)
 * walks the code once; pk must be rf_extrap_pf_kernel's for the same d,
 * kc and shape. */
int rf_extrap_pf_kernel(const rf_gpu *gpu, const rf_design *d, const rf_ipc_kernel *kc,
                        const rf_shape *shape, rf_pf_kernel *pk, rf_err *err);
/* The same from the kernel's code and profile alone (no characteristics
 * needed first), its walks on up to jobs threads (the same figures). */
int rf_extrap_pf_code(const rf_gpu *gpu, const rf_design *d, const rf_func *f,
                      const rf_profile *prof, const rf_shape *shape, int jobs, rf_pf_kernel *pk,
                      rf_err *err);
int rf_extrap_estimate_pk(const rf_gpu *gpu, const rf_design *d, const rf_ipc_kernel *kc,
                          const rf_shape *shape, const rf_calib *cal, const rf_pf_kernel *pk,
                          rf_estimate *out, rf_err *err);

#endif /* RF_EXTRAPOLATE_H */
