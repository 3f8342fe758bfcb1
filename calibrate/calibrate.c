/* calibrate.c - fit the IPC model to short sampler runs.
 *
 * 1. Plan (calibrate/plan.c): four design points, one window each, at four
 *    positions in the grid; fewer on a kernel too short for four within
 *    the default budget, and none on one too short for a single window
 *    (the record then keeps the defaults: estimates stay uncalibrated).
 * 2. Samples: rf_sim_run on one SM with the window's skip_ctas, warm-up and
 *    length; y_i = the window's IPC.  The baseline windows also give the
 *    measured register reads and writes per instruction, which replace the
 *    static figures from then on (they include what the static walk cannot
 *    see, e.g. operands of instructions on untaken paths).
 * 3. Model of a window: the CTA population model (analytic/waves.c) run from
 *    the same cold start, with the very CTAs the window ran (their paths and
 *    cache outcomes replayed with the sampler's seed, analytic/kchar.c) and
 *    the steady-state IPC model (analytic/ipc.c) of the window's design as
 *    the rate at each number of issuing warps.
 * 4. Fit: minimise
 *      sum_i ((f_i(theta) - y_i) / (s y_i))^2 + sum_j ((theta_j - d_j) / w_j)^2
 *    (window errors relative to the window noise s, plus a prior keeping each
 *    parameter near its default d_j within w_j) over theta = gto_share (the
 *    population model's scheduler share: the level), conflict_scale,
 *    steal_cand and dead_reg (read and write stealing, analytic/conflict.c;
 *    the stealing window has both on, the priors share its gain between
 *    them) and coll_base (the collector hold: how far the windows sit
 *    from the collector and issue caps; prior 2 +- 0.2 cycles) (and, with
 *    HI-RF windows, rc_stall, rc_burst and, with a TEA window,
 *    rc_miss_wait, after the register-cache locality is set from their
 *    conflict rates: rc_locality for the concatenated index and
 *    rc_locality_tea for TEA and fully associative, each shrunk toward
 *    their joint fit, rf_rcc_locality_one, and the reads' locality of
 *    each index from its window's read misses, rc_rloc and rc_rloc_tea,
 *    analytic/rccollide.c; and, when
 *    they are short, a factor on the two HI-RF windows and the baseline
 *    window at their position, prior 1 +-
 *    the window noise) (windows shorter than SHORT_LATS DRAM latencies
 *    count as noisier), bounded as
 *    rf_ipc_mparams says, with GSL (calibrate/fit.c: error handler off,
 *    every status checked).  Parameter covariance from the fit; the record
 *    keeps it and the windows' relative rms residual per degree of freedom
 *    for prediction intervals.
 * Functional warming (the default; opts->cold turns it off): the windows start
 *    a few CTA turnovers earlier in the grid, walked untimed by the sampler
 *    and by the window model alike (rf_plan_warm, calibrate/plan.c), so they
 *    see the mid-run mix of CTA ages instead of a cold start's; one more
 *    fitted factor, the rate r (prior 1 +- 0.05, bounds 0.5..2), multiplies
 *    every window's model IPC and the level below: the mid-run level the
 *    parameters above do not set.
 * Design windows (calibrate --design finereg, calibrate/plan.c): the
 *    window model evaluates the design as the estimate does (rf_extrap_sw:
 *    the design's CTAs per wave for the population model, the share of
 *    its issuing warps the switching lets issue, Reg+DRAM's context bytes);
 *    the ordinary fit above runs on the ordinary windows alone, then
 *    sw_sync and sw_cost are fitted on the design's windows with the rest
 *    held (rf_calib_fit_sw; priors PRIOR_SW_SYNC, PRIOR_SW_COST).
 * 5. Level: the whole grid run through the population model at the default
 *    design and the fitted parameters (averaged over draws of the CTAs'
 *    paths until the mean's standard error is 1%), over the wave
 *    formula's IPC there; estimates multiply by it (calibrate/extrapolate.c).
 * 6. Shrinkage: the weight on the calibrated correction, from the
 *    corrections of the whole-kernel estimates at the sampled designs and
 *    the windows' rms residual (shrink_weight below; the model:
 *    calibrate/extrapolate.c).
 */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/kchar.h"
#include "../analytic/occupancy.h"
#include "../analytic/waves.h"
#include "../sampler/sim.h"
#include "extrapolate.h"

/* Relative noise of one window's IPC against the window model replaying
 * the same CTAs, and the prior widths of the fitted parameters around their
 * defaults: the windows move a parameter only as far as they consistently
 * ask.  The noise is measured: the plan's windows of the nine bundled
 * kernels on fermi-gtx480 under sampler seeds 1-8, the spread of sampled
 * over modelled IPC at the default parameters, 6.0% rms over the 36 windows
 * (1-13% by kernel; windows of 1,000-25,000 cycles).
 * The priors on the structure (conflict_scale +- 0.3, steal_cand and
 * dead_reg +- 0.1, coll_base +- 0.2 cycles) and the rate (+- 0.05) are
 * tight because the windows mislead them: the earlier plan's three paired
 * windows (one position) differ
 * from their mean by 2.9% rms between sampler seeds and the two positions
 * by another 2.9% (same measurement, seeds 1-6), as large as the design
 * differences the structure parameters would follow, so wide priors let one
 * seed's window noise bend the design response at points never sampled.
 * bench_accuracy, mean / worst |error| averaged over calibration seeds 1-6:
 * 2.78% / 11.55% with the earlier wide priors (+- 2, 0.3, 0.5, 0.1),
 * 2.66% / 8.98% with tight structure priors, 2.44% / 9.01% with the rate's
 * too (the uncalibrated model: 4.18% / 14.28%); 2.58% / 8.54% since the
 * pipe queue is bounded by the class's collectors (analytic/ipc.c); 1.82% / 7.05% with
 * the windows at four positions, the collector window and the stealing
 * model of analytic/conflict.c (calibrate/plan.c).  Chosen on the bundled
 * kernels on fermi-gtx480; checked on maxwell-gtx980, where they were not
 * chosen (RF_BENCH_GPU): 3.73% / 14.92% against 4.11% / 19.60% with the
 * wide priors; 2.95% / 16.50% with today's plan (sgemm's worst points,
 * 19-21%, are 22% off uncalibrated: the model's structure, not the fit). */
#define WINDOW_NOISE 0.06
#define PRIOR_CONFLICT 0.3
#define PRIOR_STEAL 0.1
#define PRIOR_GTO 0.3
#define PRIOR_RC_STALL 0.5
#define PRIOR_COLL 0.2
/* HI-RF windows: rc_stall (the write-back wait's share on a warp's path)
 * and rc_burst (the factor on the write-backs' index of dispersion in the
 * NVM bank queue, analytic/rccollide.c), each +- 0.5 around 1.  Why
 * rc_burst: the HI-RF windows' misfit is in the NVM queue, where rc_stall
 * does not reach.  bench_hirf, whole grids, fitted at the defaults,
 * moving rc_stall over 0..2.5 moves sgemm HI by 0.8 points and kmeans HI
 * by 1.2, hotspot's by 0.4, while their windows sat 5.0% above, 14.4% and
 * 3.5% below the fit (sgemm's, the model too fast at concat: NVM queue too
 * short; kmeans', too slow); rc_burst 0.3 / 1 / 2 gives sgemm HI +32.7% /
 * +9.2% / +0.9% against the full run.  The windows set it: Table 5
 * (windowed plan, 90 HI-RF points) 3.03% / 13.0% mean / worst without it,
 * 2.67% / 10.1% with it (+- 0.5); sampler seeds 1-5, mean / worst
 * averaged: 3.45% / 14.9% without, 2.83% / 10.6% at +- 0.5, 2.84% / 12.4%
 * at +- 0.7, 2.90% / 13.8% at +- 1 (a wide prior lets one seed's window
 * noise through: kmeans' rc_burst went to 0.24 at +- 1, and its Worst
 * point, which no window runs, to +8.7%).  Fitting the HI-RF windows as
 * ratios to the baseline window at the same grid position (they share its
 * CTAs) instead of absolute levels was worse: 3.09% / 16.9% with 3% noise
 * on the ratio (seed 1): a kmeans window's ratio is 8% off its full run's
 * (1.085 against 1.006) and the ratio pulled gto_share, the level. */
#define PRIOR_RC_BURST 0.5
/* rc_miss_wait (a TEA read miss's wait for its register's write-back,
 * analytic/rccollide.c), fitted on the TEA window: +- 1 cycle around its
 * default (0.5); the kernels' gaps between the sampler's and the model's
 * TEA read waits run 0.08-0.57 cycles.  Table 5 (window seeds 1-20 against
 * full runs averaged over seeds 1-5, worst averaged): 8.31% at +- 1 with
 * the default 0.3, 8.06% at +- 0.5 with 0.6, 7.89% at +- 1 with 0.5. */
#define PRIOR_RC_MISS 1.0
/* The rate's prior: +- 0.03 and 0.02 measure as +- 0.05 on bench_hirf's
 * Table 5 (window seeds 1-20, worst averaged 8.40% and 8.44% against
 * 8.39%): what lifts the HI-RF levels is the windows' misfit, not the
 * rate's freedom (analytic/conflict.c, sampler/dispatcher.c).  A factor of
 * its own on the structure windows (2 banks, stealing, half the
 * collectors; prior +- WINDOW_NOISE), so that their misfit stays off the
 * level: sgemm's SRAM bias +4.7% -> +2.7%, worst averaged 8.60%. */
#define PRIOR_RATE 0.05
/* Locality by index.  Full runs on volta-hirf put it apart by index: the
 * conflict rates sampled under concat W3R3 / TEA / TEA_Worst / fully
 * associative ask for 0.77 / 0.44 / 0.44 / 0.46 on kmeans (sgemm: concat
 * insensitive, 0.69 / 0.73 / 0.66), where one joint least-squares lambda,
 * led by TEA's steeper rate, overrated kmeans' concat conflicts (45.3%
 * against 40.9%, HI 6% low).  One window per index sets each, shrunk
 * toward the joint fit (+- PRIOR_LOC) by the window's conflict-rate noise,
 * binomial over its cache writes times LOC_OVERDISP: over sampler seeds
 * 1-10 the windows' rates scatter 0.5-3.4 times (median 1.1) that noise at
 * 12 (kmeans concat: sd 0.061 over 850 writes; unshrunk, its lambda hit the
 * 0.95 bound on half the seeds, concat's rate moving only 0.15 over it).
 * Table 5 (window seeds 1-10, full runs at seed 1): mean / worst averaged
 * 2.65% / 12.88% with the joint lambda, 2.65% / 11.70% per index. */
#define PRIOR_LOC 0.25
#define LOC_OVERDISP 12.0
/* Short windows.  A window under SHORT_LATS DRAM latencies (kmeans on
 * volta-hirf: 677 cycles, 1.7 latencies) sees each warp through one or two
 * memory waits (the sampler's 2,000-cycle windows of kmeans step by up to
 * 11% from one to the next, the window model's by 0-9% and not in step):
 * its noise is taken as WINDOW_NOISE sqrt(SHORT_LATS latencies / length).  No
 * fermi-gtx480 window is that short (kmeans: 4.9 latencies): bench_accuracy
 * does not change.  Table 5 (as above) 2.80% / 13.66% without, 2.65% /
 * 11.70% with.
 * The short windows' position factor: the HI-RF windows run the baseline
 * window's CTAs at its position, and at 677 cycles that position's CTAs
 * move all three alike (kmeans' baseline window reads 0.85-1.15 of the
 * window model replaying the same CTAs over seeds 1-10, its HI and TEA
 * windows within 8% of the same ratio).  Counted three times, that noise
 * set the rate, or, given to the HI-RF terms, moved rc_burst (0.29-1.22
 * over seeds 1-10, the bound 0.05 at two) and every HI-RF estimate with
 * it.  On windows under SHORT_LATS DRAM latencies one factor on the three
 * (prior 1 +- the short window's noise) takes it once; rc_burst and
 * rc_stall keep what concat and TEA read apart from the baseline.
 * Longer windows keep their common part for rc_stall: libor's full runs
 * put it at 0.16 (its HI_Worst 10% low at two window seeds with a factor
 * there).  Table 5 against full runs averaged over sampler seeds 1-5,
 * window seeds 1-20, mean / worst averaged: 2.98% / 13.28% without the
 * factor; 2.52% / 10.20% on the HI-RF pair alone (prior +- WINDOW_NOISE),
 * 2.63% / 10.46% on every HI-RF pair, 2.71% / 11.10% on every pair with
 * its baseline window (sgemm's 2-bank window then sets the rate); with the
 * live warps below (as the first warps), 2.27% / 8.79% on the short
 * pair, 2.22% / 8.38% on the short three (against seed 1's full runs,
 * window seeds 1-10: 2.46% / 8.88% -> 2.38% / 8.36%; prior +- 0.06 or
 * 0.12 instead of the short noise, 0.09 on kmeans: 8.49% and 8.43%). */
#define SHORT_LATS 4.0
/* On short windows rc_stall and rc_burst keep priors of +- 0.25 instead of
 * 0.5: with the pair's factor free, two 677-cycle windows of kmeans moved
 * rc_burst over 0.44-1.07 by window seed and its HI family over -12% ..
 * +4% with it.  Table 5 as above (16 level seeds): 9.55% -> 9.02% worst
 * averaged (kmeans' points over 8%: 23 -> 15 of 200; against seed 1's full
 * runs 9.91% -> 9.03%); 0.1 and 0.05 measure the same (9.07%, 9.08%): the
 * windows barely inform them at that length. */
#define PRIOR_RC_SHORT 0.25
/* Switching designs' windows (calibrate --design finereg, calibrate/
 * plan.c): sw_sync (prior 0.75 +- 0.5) and sw_cost (prior 1 +- 0.1) of
 * analytic/switching.c, fitted on the design's two windows alone
 * (rf_calib_fit_sw), each window's pull weighed by WINDOW_NOISE.  The
 * widths are chosen on the nine bundled kernels (bench_occdesigns, FineReg
 * on maxwell-gtx980 against simulate --full).  The cost's prior is narrow
 * because the windows ask for a dearer switch than whole runs show; sync's
 * is wide, so the windows set it and it may reach its bounds.  The other
 * switching designs keep their priors (rf_calib_sw_fitted): fits on their
 * windows do not improve the validation kernels' figures. */
#define PRIOR_SW_SYNC 0.5
#define PRIOR_SW_COST 0.1
/* The fit stops at a step of FIT_XTOL in the logistic coordinate (a
 * parameter moving by at most 1/4000 of its range, far inside its standard
 * error from four windows) or a gradient or relative chi^2 change under
 * FIT_GTOL. */
#define FIT_XTOL 1e-3
#define FIT_GTOL 1e-4
#define RATE_LO 0.5
#define RATE_HI 2.0
#define LEVEL_MAX_CTAS 4096
/* The level estimates the full run's expected IPC, not one seed's: a full
 * run is one draw of the CTAs' paths and cache outcomes, and the population
 * model replaying seed s follows the full run at seed s closely (reduce on
 * volta-hirf at the default parameters, seeds 1-5: 0.319 / 0.324 / 0.309 /
 * 0.317 / 0.333 against full runs 0.324 / 0.326 / 0.311 / 0.318 / 0.332),
 * so a level from the windows' seed alone carried that seed's 2.4% (sd)
 * into every estimate.  Averaged over seeds s..s+15: Table 5 of bench_hirf
 * (window seeds 1-20 against full runs averaged over seeds 1-5) 2.52% /
 * 10.20% -> 2.44% / 9.55% (mean / worst, averaged; 4 seeds 9.90%, 8
 * 9.75%), and against the full run of seed 1 alone too (window seeds 1-10:
 * 10.63% -> 9.91%); bench_accuracy (fermi-gtx480) 1.80% / 7.47% -> 1.88% /
 * 7.49% over calibration seeds 1-6.
 * Seeds are added until the standard error of their mean (sample standard
 * deviation / sqrt(seeds)) is at most LEVEL_REL_SE of it, from
 * LEVEL_MIN_SEEDS up to LEVEL_SEEDS: a kernel whose paths hardly depend on
 * the draws stops at three, one with data-dependent paths runs up to
 * sixteen.  LEVEL_REL_SE = 1%: the windows set the level to their own
 * noise, s / sqrt(n) (several percent, calibrate/extrapolate.c), so a
 * finer mean of the draws buys no accuracy.
 * Deterministic: the same seeds in the same order. */
#define LEVEL_SEEDS 16
#define LEVEL_MIN_SEEDS 3
#define LEVEL_REL_SE 0.01

int rf_calib_window_ipc(const rf_gpu *gpu, const rf_design *d, const rf_kernel *kern,
                        const rf_ipc_kernel *k, const rf_ctaset *cs, const rf_ipc_params *p,
                        uint64_t skip, uint64_t warm, uint64_t warmup, uint64_t cycles,
                        double *ipc, rf_err *err)
{
    rf_occ_input in = {kern->regs, rf_kernel_threads(kern), kern->smem_static + kern->launch.smem};
    rf_occ occ;
    int rc = rf_occ_compute(gpu, d, &in, &occ, err);
    if (rc)
        return rc;
    rf_ipc_machine m;
    rf_extrap_machine(gpu, d, &occ, &m);
    int resident = occ.active_ctas > 0 ? occ.active_ctas : occ.ctas_per_sm;
    rf_ipc_kernel kd = *k;
    /* Occupancy-raising designs (analytic/switching.c), as the estimate
     * takes them (rf_extrap_sw): the population model runs the design's
     * CTAs per wave, and of the warps it finds issuing, the share the
     * switching or the pool lets issue (the effective CTAs over those
     * resident) is what the IPC model sees; Reg+DRAM's context bytes join
     * the kernel's DRAM traffic.  Other designs: as before. */
    double issue = 1.0;
    if (rf_sw_is_switching(d->kind) || d->kind == RF_DESIGN_SHARING) {
        rf_shape sh = {kern->regs, in.threads, in.smem, rf_kernel_ctas(kern), 1};
        rf_sw_input si;
        rf_sw_state st;
        double act0 = kd.active_frac > 0 ? kd.active_frac : 1.0;
        rc = rf_extrap_sw(gpu, d, &occ, &sh, &kd, p, &m, &si, &st, err);
        if (rc < 0)
            return rc;
        rc = RF_OK;
        if (st.resident > 0)
            resident = st.resident;
        issue = kd.active_frac > 0 ? kd.active_frac / act0 : 1.0;
        kd.active_frac = k->active_frac;
        k = &kd;
    }
    int nw = resident * cs->wpc;
    /* HI-RF: register-cache terms of the design (analytic/rccollide.c). */
    if (d->kind == RF_DESIGN_HIRF) {
        rc = rf_rcc_apply(gpu, d, nw, p, &m, &kd, NULL, err);
        if (rc)
            return rc;
        k = &kd;
    }
    if (nw > RF_WAVES_MAXW)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, NULL,
                          "%d warps per SM: the window model takes %d", nw, RF_WAVES_MAXW);
    double *tab = malloc(sizeof *tab * (size_t)(2 * nw + 2));
    if (!tab)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "window model: out of memory");
    double *fair = tab + nw + 1;
    tab[0] = fair[0] = 0;
    for (int a = 1; a <= nw; a++) {
        rf_ipc_result r;
        m.warps = a * issue;
        rf_ipc_steady(k, &m, p, &r);
        tab[a] = r.ipc;
        fair[a] = r.bound >= 1 && r.bound <= 3 ? 1.0 : 0.0;
    }
    if (warm > skip)
        warm = skip;
    long ctas = rf_kernel_ctas(kern) - (long)(skip - warm);
    int policy = d->scheduler > 0 ? d->scheduler - 1 : gpu->sched_policy;
    rf_waves_run run = {resident, 0, ctas > 0 ? ctas : 1, (double)warmup,
                        cycles > 0 ? (double)(warmup + cycles) : 0.0,
                        policy == RF_SCHED_LRR ? 0.0 : p->gto_share, (long)warm, fair};
    rf_waves_out o;
    rc = rf_waves_sim(cs, tab, k->drain, &run, &o);
    free(tab);
    if (rc)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "window model: out of memory");
    *ipc = o.ipc;
    return RF_OK;
}

typedef struct fit_ctx {
    const rf_gpu *gpu;
    const rf_kernel *kern;
    const rf_ipc_kernel *k;
    const rf_plan *plan;
    int nobs;                    /* windows in the fit: the plan's first nobs */
    rf_ipc_params base;          /* parameters not fitted (HI-RF locality) */
    rf_ctaset *cs[RF_PLAN_MAX];  /* the CTAs each window ran */
    const double *window;        /* measured window lengths */
    int idx[RF_FIT_MAXP];
    int np;                      /* model parameters fitted */
    bool rate;                   /* theta[np] is the rate (warmed windows) */
    int npair;                   /* short HI-RF windows and the baseline window at their
                                  * position; with 2 or more theta[np + rate] is their
                                  * position factor */
    bool pair[RF_PLAN_MAX];
    /* Last model value of each window and the parameters it depends on
     * (those of other designs zeroed): a finite-difference step in a
     * parameter the window's design does not use, or in the rate or the
     * position factor (applied outside the window model), reuses it. */
    bool memo_ok[RF_PLAN_MAX];
    double memo_key[RF_PLAN_MAX][RF_FIT_MAXP];
    double memo_v[RF_PLAN_MAX];
    rf_err *err;
} fit_ctx;

static int window_of(const fit_ctx *c, size_t i, const rf_ipc_params *p, double *v)
{
    const rf_plan_point *pt = &c->plan->pt[i];
    return rf_calib_window_ipc(c->gpu, &pt->design, c->kern, c->k, c->cs[i], p, pt->skip_ctas,
                               pt->warm_ctas, pt->warmup, (uint64_t)c->window[i], v, c->err);
}

/* Whether the window model of design d reads the fitted parameter named:
 * the stealing terms act only with read or write stealing on
 * (analytic/conflict.h), the register-cache terms only for HI-RF
 * (rf_calib_window_ipc). */
static bool uses_param(const rf_design *d, const char *name)
{
    if (!strcmp(name, "steal_cand") || !strcmp(name, "dead_reg"))
        return d->kind == RF_DESIGN_STEALING && (d->read_steal || d->write_steal);
    if (!strncmp(name, "rc_", 3))
        return d->kind == RF_DESIGN_HIRF;
    if (!strncmp(name, "sw_", 3))
        return rf_sw_is_switching(d->kind);
    return true;
}

static int model_fn(const double *theta, size_t i, double *v, void *data)
{
    fit_ctx *c = data;
    if (i >= (size_t)c->nobs) {
        /* Prior observation of parameter i - n. */
        *v = theta[i - (size_t)c->nobs];
        return RF_OK;
    }
    rf_ipc_params p = c->base;
    double key[RF_FIT_MAXP];
    for (int j = 0; j < c->np; j++) {
        rf_mparam_put(&rf_ipc_mparams[c->idx[j]], &p, theta[j]);
        key[j] = uses_param(&c->plan->pt[i].design, rf_ipc_mparams[c->idx[j]].name) ? theta[j]
                                                                                    : 0.0;
    }
    int rc = RF_OK;
    if (c->memo_ok[i] && !memcmp(key, c->memo_key[i], sizeof key[0] * (size_t)c->np)) {
        *v = c->memo_v[i];
    } else {
        rc = window_of(c, i, &p, v);
        c->memo_ok[i] = rc == RF_OK;
        memcpy(c->memo_key[i], key, sizeof key[0] * (size_t)c->np);
        c->memo_v[i] = *v;
    }
    if (c->rate)
        *v *= theta[c->np];
    if (c->npair > 1 && c->pair[i])
        *v *= theta[c->np + (c->rate ? 1 : 0)];
    return rc;
}

static void free_sets(fit_ctx *c)
{
    for (int i = 0; i < RF_PLAN_MAX; i++) {
        rf_kchar_ctaset_free(c->cs[i]);
        c->cs[i] = NULL;
    }
}

/* CTAs a window can run: those of the functional warming, the resident
 * ones plus those started in the warm-up and window, at the estimated CTA
 * turnaround, with a margin. */
static int window_ctas(const rf_plan *plan, const rf_kernel *k, int resident,
                       const rf_plan_point *pt, uint64_t span)
{
    long total = rf_kernel_ctas(k);
    double waves = resident > 0 ? (double)total / resident : 1.0;
    double per_wave = waves > 0 ? plan->full_cycles / waves : plan->full_cycles;
    double n = (double)pt->warm_ctas + resident * (2.0 + (per_wave > 0 ? span / per_wave : 1.0)) + 8;
    return n > 4096 ? 4096 : (int)n;
}

/* level = whole-grid IPC of the population model / that of the wave
 * formula, default design, calibrated parameters (single SM, as the
 * sampler's full run), the population model's IPC averaged over the CTA
 * paths and cache outcomes of LEVEL_MIN_SEEDS to LEVEL_SEEDS sampler seeds. */
static int whole_kernel_level(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kuse,
                              rf_calib *out, double rate, uint64_t seed, rf_err *err)
{
    long total = rf_kernel_ctas(k);
    int n = total > LEVEL_MAX_CTAS ? LEVEL_MAX_CTAS : (int)total;
    double ones[LEVEL_SEEDS], fluid = 0;
    int used = 0, rc = RF_OK;
    rf_design d;
    rf_design_init(&d);
    for (int s = 0; s < LEVEL_SEEDS && !rc; s++) {
        rf_ctaset *cs = NULL;
        rc = rf_kchar_ctaset(gpu, k->func, &k->profile, kuse->warps_per_cta, 0, n,
                             seed + (uint64_t)s, &cs, err);
        double one = 0;
        if (!rc)
            rc = rf_calib_window_ipc(gpu, &d, k, kuse, cs, &out->params, 0, 0, 0, 0, &one, err);
        rf_kchar_ctaset_free(cs);
        if (rc)
            break;
        ones[used++] = one;
        fluid = 0;
        for (int i = 0; i < used; i++)
            fluid += ones[i] / used;
        if (used >= LEVEL_MIN_SEEDS) {
            double ss = 0;
            for (int i = 0; i < used; i++)
                ss += (ones[i] - fluid) * (ones[i] - fluid);
            if (sqrt(ss / (used - 1) / used) <= LEVEL_REL_SE * fluid)
                break;
        }
    }
    if (rc)
        return rc;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem, total, 1};
    rf_estimate e;
    out->level = 1.0;
    rc = rf_extrap_estimate(gpu, &d, kuse, &shape, out, &e, err);
    if (rc)
        return rc;
    if (e.ipc > 0 && fluid > 0) {
        double lv = rate * fluid / e.ipc;
        out->level = lv < 0.5 ? 0.5 : lv > 2.0 ? 2.0 : lv;
    }
    return RF_OK;
}

/* Design windows of a switching design (the plan's last ndesign points):
 * sw_sync and sw_cost fitted on them alone, the ordinary parameters and the
 * rate held at the ordinary windows' fit, so that the design windows
 * cannot move the baseline's level or the bank terms (rf_calib_fit_sw).
 * Which designs keep the fit: rf_calib_sw_fitted. */
typedef struct sw_ctx {
    const rf_gpu *gpu;
    const rf_kernel *kern;
    const rf_ipc_kernel *k;
    const rf_calib_swwin *w;
    int n;
    int idx[2];                 /* sw_sync, sw_cost in rf_ipc_mparams */
    rf_ipc_params p;
    double rate;
    rf_err *err;
} sw_ctx;

static int sw_window(const sw_ctx *x, int i, const rf_ipc_params *p, double *v)
{
    const rf_plan_point *pt = x->w[i].pt;
    int rc = rf_calib_window_ipc(x->gpu, &pt->design, x->kern, x->k, x->w[i].cs, p,
                                 pt->skip_ctas, pt->warm_ctas, pt->warmup,
                                 (uint64_t)x->w[i].cycles, v, x->err);
    *v *= x->rate;
    return rc;
}

static int sw_model(const double *theta, size_t i, double *v, void *data)
{
    sw_ctx *x = data;
    if (i >= (size_t)x->n) {
        *v = theta[i - (size_t)x->n];
        return RF_OK;
    }
    rf_ipc_params p = x->p;
    rf_mparam_put(&rf_ipc_mparams[x->idx[0]], &p, theta[0]);
    rf_mparam_put(&rf_ipc_mparams[x->idx[1]], &p, theta[1]);
    return sw_window(x, (int)i, &p, v);
}

bool rf_calib_sw_fitted(int kind)
{
    return kind == RF_DESIGN_FINEREG;
}

int rf_calib_fit_sw(const rf_gpu *gpu, const rf_kernel *kern, const rf_ipc_kernel *k,
                    const rf_calib_swwin *w, int n, double rate, double noise,
                    const double width[2], rf_ipc_params *p, double cov[2][2], rf_err *err)
{
    sw_ctx x = {gpu, kern, k, w, 0, {0, 0}, *p, rate, err};
    x.idx[0] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "sw_sync");
    x.idx[1] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "sw_cost");
    if (x.idx[0] < 0 || x.idx[1] < 0)
        return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, "sw_sync", "no such model parameter");
    memset(cov, 0, sizeof(double[2][2]));
    if (n > RF_PLAN_MAX)
        n = RF_PLAN_MAX;
    double yy[RF_PLAN_MAX + 2], sg[RF_PLAN_MAX + 2], lo[2], hi[2], start[2];
    rf_calib_swwin use[RF_PLAN_MAX];
    for (int i = 0; i < n; i++) {
        if (!(w[i].ipc > 0))
            continue;
        double nz = noise;
        if (gpu->dram_latency > 0 && w[i].cycles > 0 && SHORT_LATS * gpu->dram_latency > w[i].cycles)
            nz *= sqrt(SHORT_LATS * gpu->dram_latency / w[i].cycles);
        yy[x.n] = w[i].ipc;
        sg[x.n] = nz * w[i].ipc;
        use[x.n++] = w[i];
    }
    x.w = use;
    if (x.n == 0)
        return RF_OK;
    for (int j = 0; j < 2; j++) {
        const rf_mparam *mp = &rf_ipc_mparams[x.idx[j]];
        lo[j] = mp->lo;
        hi[j] = mp->hi;
        start[j] = mp->def;
        yy[x.n + j] = mp->def;
        sg[x.n + j] = width[j];
    }
    rf_fit_problem pb = {(size_t)x.n + 2, 2, yy, sg, lo, hi, start, sw_model, &x, 0};
    rf_fit_result fr;
    int rc = rf_fit_run_tol(&pb, FIT_XTOL, FIT_GTOL, &fr, err);
    if (rc)
        return rc;
    /* Covariance at the windows' measured noise (as for the ordinary fit,
     * not rescaled by chi^2 / dof). */
    double unscale = fr.chisq > 0 && fr.dof > 0 ? fr.dof / fr.chisq : 1.0;
    for (int j = 0; j < 2; j++) {
        rf_mparam_put(&rf_ipc_mparams[x.idx[j]], p, fr.theta[j]);
        for (int l = 0; l < 2; l++)
            cov[j][l] = fr.cov[j][l] * unscale;
    }
    return RF_OK;
}

/* The design windows of the run: fit (designs rf_calib_sw_fitted keeps),
 * the record's fitted list and covariance extended, the report's model
 * values. */
static int fit_design(fit_ctx *c, int first, const double *y, double rate, rf_calib *out,
                      rf_calib_report *rep)
{
    const rf_plan *plan = c->plan;
    rf_calib_swwin w[RF_PLAN_MAX];
    int n = 0;
    for (int i = first; i < plan->n; i++)
        w[n++] = (rf_calib_swwin){&plan->pt[i], c->cs[i], c->window[i], y[i]};
    int rc = RF_OK;
    if (n > 0 && rf_calib_sw_fitted(plan->pt[first].design.kind)
        && out->nfit + 2 <= RF_FIT_MAXP) {
        double cov[2][2];
        const double width[2] = {PRIOR_SW_SYNC, PRIOR_SW_COST};
        rc = rf_calib_fit_sw(c->gpu, c->kern, c->k, w, n, rate, WINDOW_NOISE, width,
                             &out->params, cov, c->err);
        if (rc)
            return rc;
        int at = out->nfit;
        out->fit_idx[at] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "sw_sync");
        out->fit_idx[at + 1] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "sw_cost");
        for (int j = 0; j < 2; j++)
            for (int l = 0; l < 2; l++)
                out->cov[at + j][at + l] = cov[j][l];
        out->nfit = at + 2;
    }
    rf_ipc_params def = c->base;
    for (int i = first; i < plan->n && !rc; i++) {
        rc = window_of(c, (size_t)i, &def, &rep->s[i].ipc_default);
        if (!rc)
            rc = window_of(c, (size_t)i, &out->params, &rep->s[i].ipc_fit);
        rep->s[i].ipc_fit *= rate;
    }
    return rc;
}

/* The shrinkage weight (calibrate/extrapolate.c, 3.): the corrections
 * log(IPC_cal / IPC_unc) of the whole-kernel estimates (one SM, the whole
 * grid, as the windows run) at the sampled designs, against the windows'
 * noise on the level they set: their rms residual about the fit over the
 * samples (rf_extrap_shrink_weight). */
static int shrink_weight(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                         rf_calib *out, rf_calib_report *rep, rf_err *err)
{
    const rf_plan *plan = &rep->plan;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    double corr[RF_PLAN_MAX], c2 = 0;
    out->shrink = 1.0;
    for (int i = 0; i < plan->n; i++) {
        rf_estimate ec, eu;
        int rc = rf_extrap_estimate(gpu, &plan->pt[i].design, kc, &shape, out, &ec, err);
        if (!rc)
            rc = rf_extrap_estimate(gpu, &plan->pt[i].design, kc, &shape, NULL, &eu, err);
        if (rc)
            return rc;
        corr[i] = log(ec.ipc / eu.ipc);
        c2 += corr[i] * corr[i] / plan->n;
    }
    rep->corr_rms = sqrt(c2);
    out->shrink = rf_extrap_shrink_weight(corr, plan->n, out->rms_rel, out->samples);
    return RF_OK;
}

int rf_calib_run(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                 const rf_ipc_kernel *kc, const rf_calib_opts *opts, rf_calib *out,
                 rf_calib_report *rep, rf_err *err)
{
    rf_fit_gsl_quiet();
    memset(rep, 0, sizeof *rep);
    rf_calib_init_kernel(out, gpu_name, k);
    const rf_design *dd = opts ? opts->design : NULL;
    if (dd && !rf_sw_is_switching(dd->kind))
        return rf_err_set(err, RF_EUSAGE, NULL, 0, 0, "design",
                          "design windows are for vt, regdram, finereg or regmutex (got %s; "
                          "sharing's closed form has no free parameter)",
                          rf_design_name(dd->kind));
    int rc = rf_plan_make_design(gpu, k, kc, opts ? opts->budget_cycles : 0, dd, &rep->plan,
                                 err);
    if (rc)
        return rc;
    bool warmed = !opts || !opts->cold;
    if (warmed)
        rf_plan_warm(gpu, &rep->plan);
    const rf_plan *plan = &rep->plan;
    uint64_t seed = opts && opts->seed ? opts->seed : 1;
    out->full_cycles = plan->full_cycles;
    if (plan->n == 0) {
        /* Too short a kernel for one sample within the budget: the record
         * keeps the defaults and no samples, and estimates from it are
         * uncalibrated (calibrate/extrapolate.c). */
        if (opts && opts->progress)
            fprintf(opts->progress,
                    "calibrate: the kernel's estimated %.0f cycles leave no sample of at least "
                    "1000 cycles within the budget: no samples, estimates stay uncalibrated\n",
                    plan->full_cycles);
        return RF_OK;
    }

    /* Samples. */
    double y[RF_PLAN_MAX], window[RF_PLAN_MAX], conflict[RF_PLAN_MAX], wr[RF_PLAN_MAX];
    double rmiss[RF_PLAN_MAX];
    int resident[RF_PLAN_MAX];
    double reads = 0, writes = 0, base_insts = 0, live = 0;
    int nlive = 0;
    for (int i = 0; i < plan->n; i++) {
        const rf_plan_point *pt = &plan->pt[i];
        rf_sim_opts so;
        rf_sim_opts_init(&so);
        so.seed = seed;
        so.warmup = pt->warmup;
        so.cycles = pt->cycles;
        so.skip_ctas = pt->skip_ctas;
        so.warm_ctas = pt->warm_ctas;
        so.sms = 1;
        rf_sim_stats st;
        rc = rf_sim_run(gpu, &pt->design, k, &so, &st, err);
        if (rc)
            return rc;
        rf_calib_sample *s = &rep->s[i];
        snprintf(s->label, sizeof s->label, "%s", pt->label);
        s->skip_ctas = pt->skip_ctas;
        s->warmup = pt->warmup;
        s->cycles = st.cycles;
        s->ipc = st.ipc;
        s->resident_warps = st.mean_resident_warps;
        resident[i] = st.ctas_per_sm;
        rep->sim_cycles += (double)(pt->warmup + st.cycles);
        if (!(st.ipc > 0) && i >= plan->n - plan->ndesign) {
            /* A design window that retires nothing (RegMutex's pool taken
             * by warps that wait on each other at the window's start) says
             * nothing the closed form can follow: left out of the fit. */
            y[i] = 0;
            window[i] = (double)st.cycles;
            conflict[i] = wr[i] = 0;
            rmiss[i] = -1;
            if (opts && opts->progress)
                fprintf(opts->progress, "calibrate: sample %d/%d %s retired no instructions: "
                        "left out of the fit\n", i + 1, plan->n, pt->label);
            continue;
        }
        if (!(st.ipc > 0))
            return rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL,
                              "sample '%s' retired no instructions in %llu cycles", pt->label,
                              (unsigned long long)st.cycles);
        y[i] = st.ipc;
        window[i] = (double)st.cycles;
        conflict[i] = st.rc_writes ? (double)st.rc_conflicts / (double)st.rc_writes : 0.0;
        wr[i] = (double)st.rc_writes;
        rmiss[i] = st.rc_hits + st.rc_misses > 0
                       ? (double)st.rc_misses / (double)(st.rc_hits + st.rc_misses) : -1.0;
        s->conflict = conflict[i];
        if (pt->design.kind == RF_DESIGN_BASELINE && st.warp_insts > 0) {
            if (st.ctas_per_sm > 0) {
                live += st.mean_resident_warps / ((double)st.ctas_per_sm * kc->warps_per_cta);
                nlive++;
            }
            reads += (double)st.operand_reads;
            writes += (double)st.bank_writes;
            base_insts += (double)st.warp_insts;
        }
        if (opts && opts->progress)
            fprintf(opts->progress,
                    "calibrate: sample %d/%d %-32s skip %llu ctas, %llu+%llu cycles: IPC %.4f\n",
                    i + 1, plan->n, pt->label, (unsigned long long)pt->skip_ctas,
                    (unsigned long long)pt->warmup, (unsigned long long)st.cycles, st.ipc);
    }
    rep->n = plan->n;

    rf_ipc_kernel kuse = *kc;
    if (base_insts > 0) {
        out->has_meas = true;
        out->meas_reads = reads / base_insts;
        out->meas_writes = writes / base_insts;
        kuse.reads = out->meas_reads;
        kuse.writes = out->meas_writes;
    }
    if (nlive > 0 && live > 0) {
        /* The warps not exited, as the baseline windows count them: the
         * register cache's population (analytic/rccollide.c,
         * rf_rcc_rates_live).  All resident warps were counted before,
         * where sfu's 64 slots hold 14.6 live warps on average (HI_Full:
         * 14% conflicts in the model against 1% sampled: the live warps'
         * registers fit).  The walk of analytic/kchar.c estimates the share
         * without samples (kmeans 1.00 where its windows count 0.86-0.92).
         * Table 5 of bench_hirf (window seeds 1-20 against full runs
         * averaged over seeds 1-5), mean / worst averaged: 2.42% / 9.02%
         * with every resident warp, 2.27% / 8.79% with the measured share
         * as the first warps of the SM (2.27% / 8.88% with the walk's),
         * and with the short windows' position factor 2.22% / 8.38%
         * that way, 2.33% / 8.39% as any warps (rf_rcc_rates_live: the
         * sampler's live warps are spread over the slots, so they share
         * lines the first ones would not: sfu's TEA windows sample 9.7%
         * conflicts, the first 14 warps have a line each); kept for the
         * conflict rates, which the energy model prices: Table 4's
         * estimated rates are off by 2.5 points on average against 7.3.
         * The active fraction instead (warps at a barrier left out): 2.30%
         * / 8.76%, but hotspot's worst 2.9% -> 4.6%: its warps keep their
         * registers through the barriers. */
        out->meas_live = live / nlive > 1.0 ? 1.0 : live / nlive;
        kuse.live_frac = out->meas_live;
    }

    /* The CTAs each window ran, walked with the sampler's random streams. */
    fit_ctx c;
    memset(&c, 0, sizeof c);
    c.gpu = gpu;
    c.kern = k;
    c.k = &kuse;
    c.plan = plan;
    c.window = window;
    c.err = err;
    for (int i = 0; i < plan->n && !rc; i++) {
        const rf_plan_point *pt = &plan->pt[i];
        int n = window_ctas(plan, k, resident[i], pt, pt->warmup + (uint64_t)window[i]);
        long first = (long)pt->skip_ctas - (long)pt->warm_ctas;
        rc = rf_kchar_ctaset(gpu, k->func, &k->profile, kuse.warps_per_cta, first, n, seed,
                             &c.cs[i], err);
    }
    if (rc) {
        free_sets(&c);
        return rc;
    }

    /* HI-RF windows: the locality from their conflict rates (the model's
     * rate is linear in it), then the write-back stall share joins the fit. */
    rf_ipc_params_default(&c.base);
    int nhirf = 0;
    rf_rcc_result res[RF_PLAN_MAX];
    double meas[RF_PLAN_MAX];
    bool istea[RF_PLAN_MAX];
    double nwr[RF_PLAN_MAX];
    for (int i = 0; i < plan->n && !rc; i++) {
        const rf_plan_point *pt = &plan->pt[i];
        if (pt->design.kind != RF_DESIGN_HIRF)
            continue;
        rf_calib at0;
        rf_calib_init_kernel(&at0, gpu_name, k);
        at0.params.rc_locality = 0;
        at0.params.rc_locality_tea = -1;
        rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                          rf_kernel_ctas(k), 1};
        rf_estimate e;
        rc = rf_extrap_estimate(gpu, &pt->design, &kuse, &shape, &at0, &e, err);
        istea[nhirf] = pt->design.index == RF_RC_TEA;
        /* The read locality of the window's index from its read misses
         * (the model's miss rate is linear in it; an index whose misses
         * hardly depend on it, concat on sgemm, keeps the write locality). */
        if (!rc && rmiss[i] >= 0 && e.rc.miss_indep - e.rc.miss_intra > 0.02) {
            double lr = (e.rc.miss_indep - rmiss[i]) / (e.rc.miss_indep - e.rc.miss_intra);
            lr = lr < 0 ? 0 : lr > 0.95 ? 0.95 : lr;
            if (istea[nhirf])
                c.base.rc_rloc_tea = out->params.rc_rloc_tea = lr;
            else
                c.base.rc_rloc = out->params.rc_rloc = lr;
        }
        nwr[nhirf] = wr[i];
        res[nhirf] = e.rc;
        meas[nhirf++] = conflict[i];
    }
    if (nhirf > 0 && !rc) {
        double lam = rf_rcc_fit_locality(res, meas, nhirf);
        if (lam >= 0)
            c.base.rc_locality = out->params.rc_locality = lam;
        /* Then each index its own, shrunk toward the joint one. */
        double l0 = lam >= 0 ? lam : 0.5;
        for (int i = 0; i < nhirf; i++) {
            double li = rf_rcc_locality_one(&res[i], meas[i], nwr[i], LOC_OVERDISP, l0, PRIOR_LOC);
            if (istea[i])
                c.base.rc_locality_tea = out->params.rc_locality_tea = li;
            else
                c.base.rc_locality = out->params.rc_locality = li;
        }
    }
    if (rc) {
        free_sets(&c);
        return rc;
    }

    /* The ordinary windows (the design's, plan->ndesign of them, come last
     * and are fitted after these, below). */
    int nord = plan->n - plan->ndesign;
    c.nobs = nord;
    /* Parameters to fit, with the width of their prior around the default. */
    const char *names[8] = {"gto_share", "conflict_scale", "steal_cand", "dead_reg", "coll_base",
                            "rc_stall", "rc_burst", "rc_miss_wait"};
    double prior[8] = {PRIOR_GTO, PRIOR_CONFLICT, PRIOR_STEAL, PRIOR_STEAL, PRIOR_COLL,
                       PRIOR_RC_STALL, PRIOR_RC_BURST, PRIOR_RC_MISS};
    bool tea_window = false;
    for (int i = 0; i < nhirf; i++)
        tea_window |= istea[i];
    /* Short HI-RF windows: the write-back terms held nearer their defaults
     * (PRIOR_RC_SHORT). */
    double span = SHORT_LATS * gpu->dram_latency;
    for (int i = 0; i < nord; i++)
        if (plan->pt[i].design.kind == RF_DESIGN_HIRF && window[i] < span)
            prior[5] = prior[6] = prior[7] = PRIOR_RC_SHORT;
    int nnames = nhirf > 0 ? (tea_window ? 8 : 7) : 5;

    double lo[RF_FIT_MAXP], hi[RF_FIT_MAXP], start[RF_FIT_MAXP];
    double y_all[RF_PLAN_MAX + RF_FIT_MAXP], sigma[RF_PLAN_MAX + RF_FIT_MAXP];
    for (int j = 0; j < nnames; j++) {
        int ix = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, names[j]);
        if (ix < 0) {
            free_sets(&c);
            return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, names[j], "no such model parameter");
        }
        c.idx[c.np] = ix;
        lo[c.np] = rf_ipc_mparams[ix].lo;
        hi[c.np] = rf_ipc_mparams[ix].hi;
        start[c.np] = rf_mparam_get(&rf_ipc_mparams[ix], &c.base);
        y_all[nord + c.np] = start[c.np];
        sigma[nord + c.np] = prior[j];
        c.np++;
    }
    /* Warmed windows: the rate, one factor on every window, the mid-run
     * level the parameters above do not set (without it the fit moved the
     * collector hold, which the windows do not vary, to reach the level). */
    c.rate = warmed;
    lo[c.np] = RATE_LO;
    hi[c.np] = RATE_HI;
    start[c.np] = 1.0;
    y_all[nord + c.np] = 1.0;
    sigma[nord + c.np] = PRIOR_RATE;
    int nrate = c.rate ? 1 : 0;
    /* Short HI-RF windows' position factor: they run the baseline window's
     * CTAs at its position, so what that position reads off the mid-run
     * level all three read; one factor on them (and on the baseline window
     * there), prior 1 +- the short window's noise (SHORT_LATS above). */
    double pair_noise = WINDOW_NOISE;
    for (int i = 0; i < nord; i++) {
        c.pair[i] = plan->pt[i].design.kind == RF_DESIGN_HIRF && window[i] < span;
        if (c.pair[i]) {
            c.npair++;
            double nz = WINDOW_NOISE * sqrt(span / window[i]);
            pair_noise = nz > pair_noise ? nz : pair_noise;
        }
    }
    if (c.npair > 1) {
        for (int i = 0; i < nord; i++) {
            bool at = false;
            for (int j = 0; j < nord && !at; j++)
                at = c.pair[j] && plan->pt[j].skip_ctas == plan->pt[i].skip_ctas;
            if (at && plan->pt[i].design.kind == RF_DESIGN_BASELINE && !c.pair[i]) {
                c.pair[i] = true;
                c.npair++;
            }
        }
        int j = c.np + nrate;
        lo[j] = RATE_LO;
        hi[j] = RATE_HI;
        start[j] = 1.0;
        y_all[nord + j] = 1.0;
        sigma[nord + j] = pair_noise;
        nrate++;
    }
    for (int i = 0; i < nord; i++) {
        y_all[i] = y[i];
        double nz = window[i] > 0 && span > window[i] ? WINDOW_NOISE * sqrt(span / window[i])
                                                      : WINDOW_NOISE;
        sigma[i] = nz * y[i];
    }

    rf_ipc_params def = c.base;
    for (int i = 0; i < nord && !rc; i++)
        rc = window_of(&c, (size_t)i, &def, &rep->s[i].ipc_default);
    rf_fit_problem pb = {(size_t)(nord + c.np + nrate), (size_t)(c.np + nrate), y_all, sigma,
                         lo, hi, start, model_fn, &c, 0};
    if (!rc)
        rc = rf_fit_run_tol(&pb, FIT_XTOL, FIT_GTOL, &rep->fit, err);
    if (rc) {
        free_sets(&c);
        return rc;
    }

    out->nfit = c.np;
    /* Covariance at the windows' measured noise (WINDOW_NOISE), not rescaled
     * by chi^2 / dof as fit.c does for unknown noise: four windows that
     * happen to agree do not make the level better known than their noise
     * allows.  (Rescaled, maxwell-gtx980's sfu points fell inside their
     * 95% intervals 12 times in 20, 172 of 180 in all; at the measured
     * noise 180 of 180, and fermi-gtx480's 180 of 180 stay.) */
    double unscale = rep->fit.chisq > 0 && rep->fit.dof > 0 ? rep->fit.dof / rep->fit.chisq : 1.0;
    for (int j = 0; j < c.np; j++) {
        out->fit_idx[j] = c.idx[j];
        rf_mparam_put(&rf_ipc_mparams[c.idx[j]], &out->params, rep->fit.theta[j]);
        for (int l = 0; l < c.np; l++)
            out->cov[j][l] = rep->fit.cov[j][l] * unscale;
    }
    /* The priors pin the parameters the windows leave free; the windows' own
     * degrees of freedom: n - 1 (the level). */
    out->dof = nord > 1 ? nord - 1 : 1;
    double ss = 0;
    out->samples = plan->n;
    out->sample_cycles = rep->sim_cycles;
    out->full_cycles = plan->full_cycles;
    for (int i = 0; i < nord && !rc; i++) {
        rc = window_of(&c, (size_t)i, &out->params, &rep->s[i].ipc_fit);
        if (c.rate)
            rep->s[i].ipc_fit *= rep->fit.theta[c.np];
        if (c.npair > 1 && c.pair[i])
            rep->s[i].ipc_fit *= rep->fit.theta[c.np + (c.rate ? 1 : 0)];
        double r = (rep->s[i].ipc_fit - y[i]) / y[i];
        ss += r * r;
    }
    /* Relative scatter of the windows about the fit, per degree of freedom. */
    out->rms_rel = sqrt(ss / out->dof);
    if (!rc && plan->ndesign > 0)
        rc = fit_design(&c, nord, y, c.rate ? rep->fit.theta[c.np] : 1.0, out, rep);
    free_sets(&c);
    if (!rc)
        rc = whole_kernel_level(gpu, k, &kuse, out, c.rate ? rep->fit.theta[c.np] : 1.0, seed,
                                err);
    if (!rc)
        rc = shrink_weight(gpu, k, kc, out, rep, err);
    return rc;
}
