/* plan.h - the sampling plan of a calibration: which design points, where in
 * the kernel, how long a warm-up and window.  (Choices: calibrate/plan.c.)
 */
#ifndef RF_PLAN_H
#define RF_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "../analytic/design.h"
#include "../analytic/ipc.h"
#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"

#define RF_PLAN_MAX 16
#define RF_PLAN_ORD 7       /* ordinary points at most (HI-RF GPUs) */
#define RF_PLAN_DESIGN 2    /* windows of the design given to rf_plan_make_design */

typedef struct rf_plan_point {
    rf_design design;
    char label[64];          /* "baseline banks=4" */
    uint64_t skip_ctas;      /* start of the window in the grid */
    uint64_t warm_ctas;      /* functional warming: CTAs walked untimed before
                                skip_ctas (rf_sim_opts.warm_ctas; at most skip_ctas;
                                not part of the cycle cost) */
    uint64_t warmup;         /* cycles before the window */
    uint64_t cycles;         /* window length */
} rf_plan_point;

typedef struct rf_plan {
    int n;
    rf_plan_point pt[RF_PLAN_MAX];
    double full_cycles;      /* cycles of one full single-SM run (uncalibrated model) */
    double budget;           /* cycles the samples may cost (warm-ups included) */
    double cost;             /* sum of warm-ups and windows */
    int resident;            /* CTAs per SM at the default design */
    double settle;           /* cycles: a settled plan's timed warm-up, 1.5 CTA
                                lifetimes (at most half a sample), which
                                rf_plan_warm keeps (0: none; calibrate/plan.c) */
    int ndesign;             /* the last ndesign points: windows of the design given to
                                rf_plan_make_design */
    bool one_state;          /* settled with one sample: every CTA of the run runs
                                one path (calibrate/plan.c one_state) */
} rf_plan;

/* The estimated CTA lifetime of the plan's run of `ctas` CTAs: its full
 * run's cycles x resident CTAs / CTAs (0 when either count is not
 * positive). */
double rf_plan_cta_life(const rf_plan *plan, long ctas);

/* Build the plan for kernel k (characteristics kc) on gpu.  budget_cycles
 * 0 means 4.25% of the estimated full run (5% with room for its error), and
 * a kernel too short for every point then gets fewer samples, or none
 * (plan->n = 0).  Errors: the kernel does not fit. */
int rf_plan_make(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                 uint64_t budget_cycles, rf_plan *plan, rf_err *err);

/* rf_plan_make with RF_PLAN_DESIGN windows of design dd besides the
 * ordinary points, all within the same budget (calibrate/plan.c);
 * dd NULL: rf_plan_make. */
int rf_plan_make_design(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                        uint64_t budget_cycles, const rf_design *dd, rf_plan *plan,
                        rf_err *err);

/* Functional warming (opt-in; calibrate/plan.c): every point starts a few
 * CTA turnovers earlier in the grid, walked untimed (warm_ctas), and its
 * timed warm-up shrinks to a pipeline fill, the window taking the rest. */
void rf_plan_warm(const rf_gpu *gpu, rf_plan *plan);

/* Register-cache plan (calibrate --design rfc|ltrf, seed 004;
 * calibrate/plan.c): at up to RF_PLAN_PF_POS grid positions, a baseline
 * window and RF_PLAN_PF_PTS - 1 register-cache windows on the same CTAs
 * (same skip_ctas and warm_ctas: a pair), functionally warmed, within the
 * budget (0: 3% of the estimated full run of the baseline).  Points in
 * position order, the baseline first in each: pt[g * per + j], per =
 * plan->ndesign + 1 points per position (ndesign: register-cache windows
 * per position).  tmpl gives what the windows keep (active_warps,
 * interval_regs, rc_entries, scheduler).  A kernel too short for one pair,
 * or whose grid holds fewer than two waves of resident CTAs (no mid-run
 * to sample), gets none (plan->n = 0). */
#define RF_PLAN_PF_POS 4
#define RF_PLAN_PF_PTS 3
/* Register-cache windows need a mid-run: a grid of fewer waves of the
 * resident CTAs gets none (no window may read a kernel's start-up; none
 * of the nine tuning kernels' runs is that short, so the nine do not set
 * it: two waves are the least with a CTA that starts and ends mid-run). */
#define RF_PLAN_PF_MIN_WAVES 2

/* True where a grid of ctas CTAs holds fewer than RF_PLAN_PF_MIN_WAVES
 * waves of `resident` (0: unknown, never). */
bool rf_plan_pf_few_waves(long ctas, int resident);
int rf_plan_make_pf(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                    const rf_design *tmpl, uint64_t budget_cycles, rf_plan *plan, rf_err *err);

/* Whether the ordinary plan runs HI-RF windows on gpu (an NVM main file
 * under a register cache, seed 002). */
bool rf_plan_has_hirf(const rf_gpu *gpu);

#endif /* RF_PLAN_H */
