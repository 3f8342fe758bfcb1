/* calibrate.c - fit the IPC model to short sampler runs.
 *
 * 0. Worth: a default budget whose ordinary windows would carry a weight
 *    under RF_CALIB_WEIGHT_MIN on the estimates (rf_calib_plan_weight: the
 *    shrinkage of step 6 at the noise the fit gives them) runs none of them
 *    (below).
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
 *    cache outcomes replayed with the sampler's seed, analytic/kchar.c;
 *    windows whose CTAs overlap share one walk; CTAs among the level's
 *    first draw, step 5, walked before them, are its slices) and the
 *    steady-state IPC
 *    model (analytic/ipc.c) of the window's design as the rate at each
 *    number of issuing warps.  The start (and its functional warming) does
 *    not depend on the parameters: each window prepares it once
 *    (rf_waves_prepare) and every evaluation runs from a copy.
 * 4. Fit: minimise
 *      sum_i ((f_i(theta) - y_i) / (s y_i))^2 + sum_j ((theta_j - d_j) / w_j)^2
 *    (window errors relative to the window noise s, plus a prior keeping each
 *    parameter near its default d_j within w_j) over theta = gto_share (the
 *    population model's scheduler share: the level), conflict_scale,
 *    steal_cand and dead_reg (read and write stealing, analytic/conflict.c;
 *    the stealing window has both on, the priors share its gain between
 *    them) and coll_base (the collector hold: how far the windows sit
 *    from the collector and issue caps; prior 2 +- 0.2 cycles) (and, with
 *    HI-RF windows, rc_stall and rc_burst, after the register-cache
 *    locality rc_locality is set from the concatenated and TEA windows'
 *    conflict rates, analytic/rccollide.c; the fully associative window
 *    sets its own ratio correction alone, FULL_FIT_NOISE) (windows
 *    shorter than SHORT_LATS DRAM latencies or one CTA lifetime count as
 *    noisier), bounded as
 *    rf_ipc_mparams says, by successive linearisations of the window model
 *    (fit_windows), each linear surrogate fitted with GSL (calibrate/fit.c:
 *    error handler off, every status checked); after the first, a centre
 *    takes the windows' values alone and keeps the slopes (Broyden's
 *    update) where the values are what the previous surrogate predicted
 *    (LIN_AGREE).  Parameter covariance from the last surrogate's fit at
 *    the result; the record
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
 *    design and the fitted parameters (the run's own CTAs, those of the
 *    kernel's draws; on a grid longer than LEVEL_MAX_CTAS, averaged over
 *    draws of them until the mean's standard error is LEVEL_REL_SE, or half
 *    the windows' own noise on the level where that is wider, or the first
 *    draw alone when its batches of CTAs agree; a long grid's steady middle
 *    at the rate of its first CTAs, level_split), over the wave formula's IPC there;
 *    estimates multiply by it (calibrate/extrapolate.c).  A short run
 *    (SHORT_LEVEL_WAVES) takes the fitted rate alone.
 * 6. Shrinkage: the weight on the calibrated correction, from the prior
 *    width of the correction (RF_EXTRAP_PRIOR_CORR) and the windows' noise on the
 *    level (rf_calib_window_noise; shrink_weight below; the model:
 *    calibrate/extrapolate.c); the windows' mean residual about the fit
 *    and its standard error go into the record for the interval.
 * 7. HI-RF plans: the HI-RF windows' ratio to the baseline window beside
 *    the estimates' (hirf_ratio_check): the interval's level variance, and
 *    the ratio correction of the HI-RF estimates (its disagreement per
 *    window index and its weight, into the record).
 */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/kchar.h"
#include "../analytic/occupancy.h"
#include "../analytic/waves.h"
#include "../common/pool.h"
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
 * tight because the windows' own noise is as large as the design
 * differences the structure parameters follow: paired windows at one
 * position differ by 2.9% rms between sampler seeds, and positions by
 * another 2.9%, so wide priors let one seed's window noise bend the
 * design response at points never sampled.  Chosen on the nine bundled
 * kernels on fermi-gtx480 (bench_accuracy, bench_validation). */
#define WINDOW_NOISE 0.06
/* The fully associative HI-RF window's noise in the fit, times its own:
 * it sets its index's ratio correction (hirf_ratio_check) and not the
 * fitted parameters, since its closed form (the characteristic-time LRU
 * approximation, analytic/rccollide.c) misses its conflicts in both
 * directions by up to 4x where the direct-mapped ones' stay within a few
 * points (calibrate/plan.c). */
#define FULL_FIT_NOISE 1e6
#define PRIOR_CONFLICT 0.3
#define PRIOR_STEAL 0.1
#define PRIOR_GTO 0.3
#define PRIOR_RC_STALL 0.5
#define PRIOR_COLL 0.2
/* HI-RF windows: rc_stall (the write-back wait's share on a warp's path)
 * and rc_burst (the factor on the write-backs' index of dispersion in the
 * NVM bank queue, analytic/rccollide.c), each +- 0.5 around 1: the two
 * HI-RF windows read concat and TEA apart from the baseline, and rc_burst
 * reaches the NVM queue, where rc_stall does not.  Widths chosen on the
 * nine tuning kernels (bench_hirf, windowed plan against full runs). */
#define PRIOR_RC_BURST 0.5
/* The rate's prior: one factor on every window and the level (mid-run
 * level the parameters do not set), +- 0.05. */
#define PRIOR_RATE 0.05
/* Short windows.  A window reads the level of the stretch it covers: under
 * SHORT_LATS DRAM latencies (kmeans on volta-hirf: 677 cycles, 1.7
 * latencies) it sees each warp through one or two memory waits, and under
 * one CTA lifetime (the estimated full run x resident CTAs / CTAs, at the
 * default design) it sees the CTAs through part of their lives only: a
 * phase, or (on a short run, whose windows start at the few CTA
 * dispatches there are) the CTAs' prologues.  Its noise is taken as
 * WINDOW_NOISE sqrt(span / length), span the longer of SHORT_LATS DRAM
 * latencies and one CTA lifetime (short_factor): the noise of the mean of
 * span / length independent stretches.  The HI-RF write-back terms keep
 * priors of +- PRIOR_RC_SHORT instead of 0.5 under SHORT_LATS latencies,
 * since such windows barely inform them.  The lifetime's factor (1) is
 * chosen on the nine tuning kernels on fermi-gtx480, whole grid on one SM
 * and the default share of 15 SMs (bench_validation, calibration seeds
 * 1-4); the design windows (rf_calib_fit_sw) keep the latencies alone. */
#define SHORT_LATS 4.0
#define SHORT_LIVES 1.0
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
/* A fitted parameter within BOUND_TOL of its range from a bound sits at
 * it (rf_calib_hirf_window_check). */
#define BOUND_TOL 1e-3
#define FIT_GTOL 1e-4
#define RATE_LO 0.5
#define RATE_HI 2.0
#define LEVEL_MAX_CTAS 4096
#define WINDOW_MAX_CTAS 4096
/* The level describes the run the record is for: the kernel's draws
 * (rf_profile.seed, calibrate --seed), whose CTAs' paths and cache outcomes
 * the estimate walks too.  The population model replaying a draw's CTAs
 * follows that draw's full run closely (reduce on volta-hirf at the
 * default parameters, seeds 1-5: 0.319 / 0.324 / 0.309 / 0.317 / 0.333
 * against full runs 0.324 / 0.326 / 0.311 / 0.318 / 0.332), so the run's
 * own CTAs are its level.  Draw 0 is the grid's n CTAs (n = min(grid,
 * LEVEL_MAX_CTAS)) under the run's seed: on a grid of at most
 * LEVEL_MAX_CTAS CTAs the whole run, and the level is that draw's alone.
 * On a longer grid draw s is the next n, CTAs s n .. (s + 1) n - 1 (a
 * CTA's paths and cache outcomes depend on its index and the seed alone,
 * and the CTAs the characterisation walked, rf_kchar_compute_walked, serve
 * again), and draws are added until the standard error of their mean
 * (one draw's standard deviation / sqrt(draws)) is at most LEVEL_REL_SE of
 * it, up to LEVEL_SEEDS; the deviation is the draws' own, from
 * LEVEL_MIN_SEEDS draws, or pooled with the first draw's batches where a
 * long grid has them (LEVEL_BATCH_INFLATE).  A draw costs a walk and a
 * population-model run, 4-16% of a full sampler run's CPU time.
 * LEVEL_REL_SE = 2%: the windows set the level to their own noise, s /
 * sqrt(n) (several percent, calibrate/extrapolate.c), so a finer mean of
 * the draws buys no accuracy (chosen on the nine, calibration seeds 1-4).
 * Deterministic: the same draws in the same order. */
#define LEVEL_SEEDS 8
#define LEVEL_MIN_SEEDS 3
#define LEVEL_REL_SE 0.02
/* The draws need not be finer than the windows allow: the level carries
 * the windows' own noise, s / sqrt(n) (rms_rel over the n samples), and a
 * draws' standard error of LEVEL_WINDOW_SHARE of that adds
 * sqrt(1 + 0.5^2) - 1 = 12% to it in quadrature.  The draws stop at
 * max(LEVEL_REL_SE, LEVEL_WINDOW_SHARE s / sqrt(n)) of their mean, still
 * after LEVEL_MIN_SEEDS draws at least (a grid longer than LEVEL_MAX_CTAS:
 * a shorter one's level is its one draw).  Where the windows are noisy
 * (s 4-50%) three draws serve where up to eight would run.  Chosen on the nine tuning kernels
 * (bench_validation, fermi-gtx480, calibration seeds 1-4). */
#define LEVEL_WINDOW_SHARE 0.5
/* The first draw's batches: on a grid of LEVEL_BATCH_WAVES waves or more,
 * the first draw's run is cut into LEVEL_BATCHES batches of CTAs
 * (rf_waves_run.batches), and the standard error of their mean IPC, times
 * LEVEL_BATCH_INFLATE, is a prior on one draw's relative spread worth
 * LEVEL_BATCH_DOF degrees of freedom (below).  The draws' own spread is pooled
 * with it (var = (nu0 sb^2 + ss) / (nu0 + draws - 1)), so that one draw
 * ends the level when the batches put its standard error under the
 * target, and a second or third ends it on the pooled estimate, where
 * without batches LEVEL_MIN_SEEDS draws must show it alone.  The batches
 * understate the spread between draws: the inflation is the root mean
 * square of (draws' standard deviation / a draw's batch standard error)
 * over the nine tuning kernels at --sms 1 (8 draws each, every draw's
 * batches; per kernel 0.5-2.3).  That ratio's scatter from kernel to
 * kernel sets the prior's worth, LEVEL_BATCH_DOF degrees of freedom, not
 * the batches' LEVEL_BATCHES - 1: a variance estimate of nu degrees of
 * freedom scatters as var(ln s^2) ~ 2 / nu, and ln(ratio^2) scattered by
 * 1.04 rms over the 31 batched runs of bench_validation (33 kernels, both
 * runs, 8 draws each, whose own spread's 7 degrees of freedom account for
 * 0.29 of the 1.09 variance): nu ~ 2.5, taken as 2.  So the draws' own
 * spread outweighs the batches from the third draw on. */
#define LEVEL_BATCHES 8
#define LEVEL_BATCH_INFLATE 1.6
#define LEVEL_BATCH_WAVES 32
#define LEVEL_BATCH_DOF 2
/* Short runs: a run of at most SHORT_LEVEL_WAVES waves whose every CTA the
 * estimate's run model knows (at most RF_IPC_NLONE CTAs: analytic/ipc.c's
 * CTA fluid and critical CTAs take its start and its tail CTA by CTA)
 * takes the level from the windows' rate alone, level = r: the population
 * model's whole-run IPC would stand in for the run model's start and tail
 * where those are the run model's own (trsv's default-run share, 35 CTAs
 * of 129 barrier phases each: the population model's level 1.25 against a
 * run model within 2% of the full run), and needs no draws.  16 waves
 * chosen on the nine tuning kernels (bench_validation, both run kinds,
 * calibration seeds 1-4, summed calibrated means: none 4.84, 8 waves 4.80,
 * 16 waves 4.77, 32 waves 4.75, every run of at most RF_IPC_NLONE CTAs
 * 4.82; 16 and 32 are within the seeds' noise, and 32 reaches the
 * whole-grid runs of 256 CTAs on 8 slots, whose level the population
 * model sets well). */
#define SHORT_LEVEL_WAVES 16
/* Slots of the HI-RF flow memo: a plan's HI-RF designs (index families and
 * assignments) and room to spare. */
#define CALIB_RC_MEMO 8

/* The factor on the noise of a window of len cycles on gpu, for CTAs of
 * an estimated life cycles (0: unknown): the short-window rule above,
 * sqrt(span / len), at least 1. */
static double short_factor(const rf_gpu *gpu, double life, double len)
{
    double span = SHORT_LATS * (gpu->dram_latency > 0 ? gpu->dram_latency : 0);
    if (SHORT_LIVES * life > span)
        span = SHORT_LIVES * life;
    return len > 0 && span > len ? sqrt(span / len) : 1.0;
}

double rf_calib_plan_weight(const rf_gpu *gpu, const rf_kernel *k, const rf_plan *plan)
{
    double life = rf_plan_cta_life(plan, rf_kernel_ctas(k));
    double inv = 0;
    for (int i = 0; i < plan->n; i++) {
        double sg = WINDOW_NOISE * short_factor(gpu, life, (double)plan->pt[i].cycles);
        inv += 1.0 / (sg * sg);
    }
    return inv > 0 ? rf_extrap_shrink_prior(RF_EXTRAP_PRIOR_CORR, 1.0 / inv) : 0.0;
}

/* Windows worth running (step 0).  A window's noise on the level grows as
 * it covers less of a CTA lifetime (short_factor), so the windows a budget
 * B buys know the level to v ~ WINDOW_NOISE^2 life / B however B is cut
 * into windows; where v exceeds D^2 (w < 1/2: the windows know the level
 * less well than the uncalibrated model's own error, RF_EXTRAP_PRIOR_CORR)
 * the calibration would move the estimates by less than half of what the
 * windows read, at the windows' cost.  Such a plan runs no windows: the
 * record keeps no samples, as one of a kernel too short for a window, and
 * estimates from it are uncalibrated with the uncalibrated model's
 * interval.  The busiest SM's share of a grid spread over many SMs (the
 * default run) is the usual case: few CTAs, whose lifetimes are a large
 * part of the share's run.  Only a default budget, only ordinary plans: a
 * budget the caller gives, design windows and HI-RF windows (whose ratio
 * check weighs them apart, step 7) always run.  1/2 chosen on the nine
 * tuning kernels (bench_validation, both run kinds, calibration seeds 1-4:
 * their calibrated means do not rise up to it). */
static bool plan_worth(const rf_gpu *gpu, const rf_kernel *k, const rf_plan *plan,
                       const rf_calib_opts *opts, double *w)
{
    *w = rf_calib_plan_weight(gpu, k, plan);
    if (plan->n == 0 || plan->ndesign > 0 || (opts && opts->budget_cycles > 0))
        return true;
    for (int i = 0; i < plan->n; i++)
        if (plan->pt[i].design.kind == RF_DESIGN_HIRF)
            return true;
    return *w >= RF_CALIB_WEIGHT_MIN;
}

/* rf_calib_window_ipc with the population model's start kept in *ws
 * (prepared on the first call, reused while the window's start is the
 * same: the start does not depend on the parameters), or none (ws NULL).
 * part (NULL: none), a part of a run (the level's split head and tail,
 * level_split): its ctas > 0 the run's CTAs (else the grid's after skip -
 * warm), and its steady batches (mark_cta .. stop_before) taken over. */
static int window_ipc_part(const rf_gpu *gpu, const rf_design *d, const rf_kernel *kern,
                           const rf_ipc_kernel *k, const rf_ctaset *cs, const rf_ipc_params *p,
                           uint64_t skip, uint64_t warm, uint64_t warmup, uint64_t cycles,
                           rf_waves_state **ws, int batches, const rf_waves_run *part,
                           rf_waves_out *wo, double *ipc, rf_err *err)
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
    /* Under a two-level scheduler the pool's places are those that issue
     * (its balance), as in the estimate (rf_extrap_pool_balance). */
    rf_extrap_pool_balance(k, &occ, &m);
    for (int a = 1; a <= nw; a++) {
        rf_ipc_result r;
        m.warps = a * issue;
        rf_ipc_steady(k, &m, p, &r);
        tab[a] = r.ipc;
        fair[a] = r.bound >= 1 && r.bound <= 3 ? 1.0 : 0.0;
    }
    if (warm > skip)
        warm = skip;
    long ctas = part && part->ctas > 0 ? part->ctas : rf_kernel_ctas(kern) - (long)(skip - warm);
    int policy = d->scheduler > 0 ? d->scheduler - 1 : gpu->sched_policy;
    rf_waves_run run = {.resident = resident,
                        .ctas = ctas > 0 ? ctas : 1,
                        .t_start = (double)warmup,
                        .t_end = cycles > 0 ? (double)(warmup + cycles) : 0.0,
                        .oldest_first = policy == RF_SCHED_LRR ? 0.0 : p->gto_share,
                        .warm_ctas = (long)warm,
                        .stretch = fair,
                        .batches = batches};
    if (part) {
        run.mark_cta = part->mark_cta;
        run.batch_ctas = part->batch_ctas;
        run.min_batches = part->min_batches;
        run.stop_se = part->stop_se;
        run.stop_drift = part->stop_drift;
        run.stop_before = part->stop_before;
    }
    rf_waves_out o;
    if (ws && !rf_waves_state_matches(*ws, cs, k->drain, &run)) {
        rf_waves_state_free(*ws);
        rc = rf_waves_prepare(cs, k->drain, &run, ws);
    }
    if (!rc)
        rc = ws ? rf_waves_sim_from(*ws, tab, &run, &o) : rf_waves_sim(cs, tab, k->drain, &run, &o);
    free(tab);
    if (rc)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "window model: out of memory");
    *ipc = o.ipc;
    if (wo)
        *wo = o;
    return RF_OK;
}

static int window_ipc(const rf_gpu *gpu, const rf_design *d, const rf_kernel *kern,
                      const rf_ipc_kernel *k, const rf_ctaset *cs, const rf_ipc_params *p,
                      uint64_t skip, uint64_t warm, uint64_t warmup, uint64_t cycles,
                      rf_waves_state **ws, int batches, rf_waves_out *wo, double *ipc,
                      rf_err *err)
{
    return window_ipc_part(gpu, d, kern, k, cs, p, skip, warm, warmup, cycles, ws, batches, NULL,
                           wo, ipc, err);
}

int rf_calib_window_ipc(const rf_gpu *gpu, const rf_design *d, const rf_kernel *kern,
                        const rf_ipc_kernel *k, const rf_ctaset *cs, const rf_ipc_params *p,
                        uint64_t skip, uint64_t warm, uint64_t warmup, uint64_t cycles,
                        double *ipc, rf_err *err)
{
    return window_ipc(gpu, d, kern, k, cs, p, skip, warm, warmup, cycles, NULL, 0, NULL, ipc,
                      err);
}

typedef struct fit_ctx {
    const rf_gpu *gpu;
    const rf_kernel *kern;
    const rf_ipc_kernel *k;
    const rf_plan *plan;
    int nobs;                    /* windows in the fit: the plan's first nobs */
    rf_ipc_params base;          /* parameters not fitted (HI-RF locality) */
    rf_ctaset *cs[RF_PLAN_MAX];  /* the CTAs each window ran */
    rf_waves_state *ws[RF_PLAN_MAX]; /* each window's population model start */
    const double *window;        /* measured window lengths */
    int idx[RF_FIT_MAXP];
    int np;                      /* model parameters fitted */
    bool rate;                   /* theta[np] is the rate (warmed windows) */
    int jobs;                    /* threads for the windows' evaluations (linearise) */
    rf_err *err;
} fit_ctx;

static int window_of(fit_ctx *c, size_t i, const rf_ipc_params *p, double *v)
{
    const rf_plan_point *pt = &c->plan->pt[i];
    return window_ipc(c->gpu, &pt->design, c->kern, c->k, c->cs[i], p, pt->skip_ctas,
                      pt->warm_ctas, pt->warmup, (uint64_t)c->window[i], &c->ws[i],
                      0, NULL, v, c->err);
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

/* The fit of the ordinary windows, by successive linearisations of the
 * window model (a Gauss-Newton outer loop): at theta_k every window's model
 * value w_i and its forward differences in each model parameter it reads
 * (uses_param; step LIN_STEP prior widths) give
 *     w_i(theta) ~ w_i(theta_k) + sum_j J_ij (theta_j - theta_kj),
 * and the bounded fit (calibrate/fit.c) of that surrogate, the rate
 * applied exactly, gives theta_k+1; until no parameter
 * moves by LIN_TOL of its prior width, at most LIN_MAX times.  At the
 * fixed point the surrogate's value and slope are the model's, so the
 * solution is the least-squares point of the model itself: what the fit
 * on the model found, within its step tolerance, at a fraction of the
 * model evaluations (a window evaluation is a population-model run,
 * analytic/waves.c; the fit on the model asked for one per parameter and
 * window at each of its 10-15 iterations).
 * At every centre after the first the windows' values come first (one run
 * each).  Where each window's value is what the previous surrogate
 * predicted there, within LIN_AGREE of the window's noise sigma_i (the
 * rate applied), the slopes are kept, corrected by Broyden's rank-one
 * update so that the surrogate passes through both centres:
 *     J_i += e_i s^T D / (s^T D s),  e_i the miss, s the step,
 * D = diag(1 / width_j^2) over the parameters window i reads (the step
 * measured in prior widths); else the forward differences are taken anew.
 * The bound: a slope error dJ moves the surrogate's minimum by about
 * dJ r / J^2 with residuals r ~ sigma and J ~ sigma per standard error;
 * a quadratic model that misses by e over a step s has a slope error
 * e / |s| at the new centre, so the next step (and the stop, a step under
 * LIN_TOL) is off by about e / sigma standard errors: LIN_AGREE = 0.1
 * keeps the result within a tenth of the standard error the record
 * carries for it.  A centre that only confirms convergence thus costs one
 * run per window, not one per window and parameter read. */
#define LIN_STEP 0.01
#define LIN_TOL 0.02
#define LIN_MAX 6
#define LIN_AGREE 0.1

typedef struct lin_ctx {
    const fit_ctx *c;
    double th0[RF_FIT_MAXP];                 /* the linearisation point */
    double w0[RF_PLAN_MAX];                  /* window model values there */
    double jac[RF_PLAN_MAX][RF_FIT_MAXP];    /* their slopes in the model parameters */
} lin_ctx;

static int lin_model(const double *theta, size_t i, double *v, void *data)
{
    const lin_ctx *L = data;
    const fit_ctx *c = L->c;
    if (i >= (size_t)c->nobs) {
        /* Prior observation of parameter i - n. */
        *v = theta[i - (size_t)c->nobs];
        return RF_OK;
    }
    double w = L->w0[i];
    for (int j = 0; j < c->np; j++)
        w += L->jac[i][j] * (theta[j] - L->th0[j]);
    if (c->rate)
        w *= theta[c->np];
    *v = w;
    return RF_OK;
}

/* What linearise evaluates at its centre: the values and the slopes, the
 * values alone (the slopes kept), or the slopes alone (the values already
 * in L->w0). */
enum { LIN_ALL, LIN_VALUES, LIN_SLOPES };

/* One window's model value and slopes (linearise): job i of its pool
 * evaluates window i at p and at each q_j = p with parameter j moved by
 * h[j], in that order (as what asks), with window i's own
 * population-model start (c->ws[i]), and writes row i of L. */
typedef struct lin_job {
    fit_ctx *c;
    lin_ctx *L;
    rf_ipc_params p;
    double h[RF_FIT_MAXP];
    int what;                                /* LIN_ALL, LIN_VALUES or LIN_SLOPES */
    rf_err err[RF_PLAN_MAX];
} lin_job;

static int lin_window(int i, void *ctx)
{
    lin_job *J = ctx;
    fit_ctx *c = J->c;
    const rf_plan_point *pt = &c->plan->pt[i];
    rf_err *err = &J->err[i];
    rf_err_clear(err);
    int rc = RF_OK;
    if (J->what != LIN_SLOPES)
        rc = window_ipc(c->gpu, &pt->design, c->kern, c->k, c->cs[i], &J->p, pt->skip_ctas,
                        pt->warm_ctas, pt->warmup, (uint64_t)c->window[i], &c->ws[i], 0, NULL,
                        &J->L->w0[i], err);
    if (J->what == LIN_VALUES)
        return rc;
    for (int j = 0; j < c->np && !rc; j++) {
        const rf_mparam *mp = &rf_ipc_mparams[c->idx[j]];
        J->L->jac[i][j] = 0;
        if (!uses_param(&pt->design, mp->name))
            continue;
        rf_ipc_params q = J->p;
        rf_mparam_put(mp, &q, J->L->th0[j] + J->h[j]);
        double w;
        rc = window_ipc(c->gpu, &pt->design, c->kern, c->k, c->cs[i], &q, pt->skip_ctas,
                        pt->warm_ctas, pt->warmup, (uint64_t)c->window[i], &c->ws[i], 0, NULL,
                        &w, err);
        if (!rc)
            J->L->jac[i][j] = (w - J->L->w0[i]) / J->h[j];
    }
    return rc;
}

/* The window model's values and slopes at theta, or either alone (what;
 * lo, hi: the bounds, width: the priors' widths of the model parameters),
 * the windows on c->jobs threads (each window's evaluations on one, as
 * lin_window). */
static int linearise(fit_ctx *c, const double *theta, const double *lo, const double *hi,
                     const double *width, int what, lin_ctx *L)
{
    L->c = c;
    lin_job *J = calloc(1, sizeof *J);
    if (!J)
        return rf_err_set(c->err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    J->c = c;
    J->L = L;
    J->p = c->base;
    J->what = what;
    for (int j = 0; j < c->np; j++) {
        L->th0[j] = theta[j];
        rf_mparam_put(&rf_ipc_mparams[c->idx[j]], &J->p, theta[j]);
        double h = LIN_STEP * width[j];
        if (theta[j] + h > hi[j])
            h = -h;
        if (theta[j] + h < lo[j])
            h = 0.5 * (hi[j] - lo[j]) * LIN_STEP;
        J->h[j] = h;
    }
    rf_pool pool;
    int rc = rf_pool_start(&pool, c->jobs, c->nobs, lin_window, J, c->err);
    if (!rc) {
        rf_pool_release(&pool, c->nobs);
        for (int i = 0; i < c->nobs && !rc; i++) {
            rc = rf_pool_wait(&pool, i);
            if (rc && c->err)
                *c->err = J->err[i];
        }
        rf_pool_finish(&pool);
    }
    free(J);
    return rc;
}

/* The surrogate at a new centre (above): L holds the previous surrogate;
 * the windows' values at theta, then the slopes kept and updated (Broyden)
 * where every window's value agrees with the previous surrogate's
 * prediction within LIN_AGREE of its noise (sigma: the windows' scales;
 * the rate, applied exactly, theta[np] where c->rate), else taken anew. */
static int relinearise(fit_ctx *c, const double *theta, const double *lo, const double *hi,
                       const double *width, const double *sigma, lin_ctx *L)
{
    double pred[RF_PLAN_MAX], s[RF_FIT_MAXP];
    for (int i = 0; i < c->nobs; i++) {
        pred[i] = L->w0[i];
        for (int j = 0; j < c->np; j++)
            pred[i] += L->jac[i][j] * (theta[j] - L->th0[j]);
    }
    for (int j = 0; j < c->np; j++)
        s[j] = theta[j] - L->th0[j];
    int rc = linearise(c, theta, lo, hi, width, LIN_VALUES, L);
    if (rc)
        return rc;
    double rate = c->rate ? theta[c->np] : 1.0;
    bool agree = true;
    for (int i = 0; i < c->nobs; i++)
        agree = agree && fabs(rate * (L->w0[i] - pred[i])) <= LIN_AGREE * sigma[i];
    if (!agree)
        return linearise(c, theta, lo, hi, width, LIN_SLOPES, L);
    for (int i = 0; i < c->nobs; i++) {
        const rf_design *d = &c->plan->pt[i].design;
        double ss = 0;
        for (int j = 0; j < c->np; j++)
            if (uses_param(d, rf_ipc_mparams[c->idx[j]].name))
                ss += s[j] * s[j] / (width[j] * width[j]);
        if (!(ss > 0))
            continue;
        double e = L->w0[i] - pred[i];
        for (int j = 0; j < c->np; j++)
            if (uses_param(d, rf_ipc_mparams[c->idx[j]].name))
                L->jac[i][j] += e * s[j] / (width[j] * width[j]) / ss;
    }
    return RF_OK;
}

/* Fit pb (its model: the windows of c, then the priors) by successive
 * linearisations (above).  A centre whose chi^2 (the model's, the
 * surrogate being exact there) exceeds the best centre's so far is
 * rejected, and the next centre is halfway back to the best one (the
 * window model is piecewise smooth: its events move with the parameters).
 * The result is the best centre, with the covariance of its surrogate's
 * fit; out as rf_fit_run_tol fills it, chisq0 at the start point, chisq at
 * the result, iters the centres; w_start and w_best the window
 * model's values (rate not applied) at the start and
 * at the result. */
static int fit_windows(fit_ctx *c, const rf_fit_problem *pb, double xtol, double gtol,
                       rf_fit_result *out, double *w_start, double *w_best, rf_err *err)
{
    double theta[RF_FIT_MAXP], best[RF_FIT_MAXP], next[RF_FIT_MAXP];
    for (size_t j = 0; j < pb->p; j++)
        theta[j] = pb->start[j];
    const double *width = pb->sigma + c->nobs;
    lin_ctx L;
    rf_fit_result r;
    double chisq0 = 0, best_chi = INFINITY;
    int k = 0;
    for (;;) {
        int rc = k == 0 ? linearise(c, theta, pb->lo, pb->hi, width, LIN_ALL, &L)
                        : relinearise(c, theta, pb->lo, pb->hi, width, pb->sigma, &L);
        if (rc)
            return rc;
        rf_fit_problem lp = *pb;
        lp.f = lin_model;
        lp.ctx = &L;
        lp.start = theta;
        rc = rf_fit_run_tol(&lp, xtol, gtol, &r, err);
        if (rc)
            return rc;
        if (k == 0) {
            chisq0 = r.chisq0;
            memcpy(w_start, L.w0, sizeof L.w0[0] * (size_t)c->nobs);
        }
        k++;
        if (r.chisq0 <= best_chi) {
            best_chi = r.chisq0;
            *out = r;
            memcpy(w_best, L.w0, sizeof L.w0[0] * (size_t)c->nobs);
            for (size_t j = 0; j < pb->p; j++) {
                best[j] = theta[j];
                next[j] = r.theta[j];
            }
        } else {
            for (size_t j = 0; j < pb->p; j++)
                next[j] = 0.5 * (best[j] + theta[j]);
        }
        double move = 0;
        for (size_t j = 0; j < pb->p; j++) {
            double m = fabs(next[j] - theta[j]) / width[j];
            move = m > move ? m : move;
            theta[j] = next[j];
        }
        if (move < LIN_TOL || k >= LIN_MAX)
            break;
    }
    /* The best centre, its covariance that of the surrogate fit there
     * (rescaled from the surrogate's chi^2 at its minimum to the model's
     * at the centre, as rf_fit_run_tol scales by chi^2 / dof). */
    double scale = out->chisq > 0 ? best_chi / out->chisq : 1.0;
    for (size_t j = 0; j < pb->p; j++) {
        out->theta[j] = best[j];
        for (size_t l = 0; l < pb->p; l++)
            out->cov[j][l] *= scale;
        out->se[j] = out->cov[j][j] > 0 ? sqrt(out->cov[j][j]) : 0.0;
    }
    out->chisq = best_chi;
    out->chisq0 = chisq0;
    out->iters = (size_t)k;
    return RF_OK;
}

static void free_sets(fit_ctx *c)
{
    for (int i = 0; i < RF_PLAN_MAX; i++) {
        rf_kchar_ctaset_free(c->cs[i]);
        c->cs[i] = NULL;
        rf_waves_state_free(c->ws[i]);
        c->ws[i] = NULL;
    }
}

/* CTAs a window can run: those of the functional warming, the resident
 * ones plus those started in the warm-up and window, at the estimated CTA
 * turnaround, with a margin; never past the run's last CTA (the population
 * model launches none beyond it, window_ipc), at least one. */
static int window_ctas(const rf_plan *plan, const rf_kernel *k, int resident,
                       const rf_plan_point *pt, uint64_t span)
{
    long total = rf_kernel_ctas(k);
    double waves = resident > 0 ? (double)total / resident : 1.0;
    double per_wave = waves > 0 ? plan->full_cycles / waves : plan->full_cycles;
    double n = (double)pt->warm_ctas + resident * (2.0 + (per_wave > 0 ? span / per_wave : 1.0)) + 8;
    double left = (double)total - ((double)pt->skip_ctas - (double)pt->warm_ctas);
    if (n > left)
        n = left;
    return n > WINDOW_MAX_CTAS ? WINDOW_MAX_CTAS : n < 1 ? 1 : (int)n;
}

/* The CTAs each window ran (window_ctas of them from its first, warming
 * included), walked with the sampler's streams for `seed`.  Windows whose
 * ranges overlap share one walk of their union (the plan's windows sit a
 * few waves apart: on a short grid their warming and windows cover the same
 * CTAs), each taking its slice (rf_kchar_ctaset_slice: the same CTAs). */
static int window_sets(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kuse,
                       const rf_plan *plan, const int *resident, const double *window,
                       uint64_t seed, const rf_ctaset *const *have, int nhave, int jobs,
                       rf_ctaset **cs, rf_err *err)
{
    long first[RF_PLAN_MAX], end[RF_PLAN_MAX];
    bool done[RF_PLAN_MAX];
    for (int i = 0; i < plan->n; i++) {
        const rf_plan_point *pt = &plan->pt[i];
        first[i] = (long)pt->skip_ctas - (long)pt->warm_ctas;
        end[i] = first[i] + window_ctas(plan, k, resident[i], pt, pt->warmup + (uint64_t)window[i]);
        done[i] = false;
    }
    int rc = RF_OK;
    for (int i = 0; i < plan->n && !rc; i++) {
        if (done[i])
            continue;
        /* The union of the windows overlapping window i's range, grown
         * until no other window overlaps it. */
        long lo = first[i], hi = end[i];
        bool in[RF_PLAN_MAX] = {false};
        in[i] = true;
        for (bool grew = true; grew;) {
            grew = false;
            for (int j = 0; j < plan->n; j++)
                if (!done[j] && !in[j] && first[j] < hi && end[j] > lo
                    && (end[j] > hi ? end[j] : hi) - (first[j] < lo ? first[j] : lo)
                           <= WINDOW_MAX_CTAS) {
                    in[j] = grew = true;
                    lo = first[j] < lo ? first[j] : lo;
                    hi = end[j] > hi ? end[j] : hi;
                }
        }
        rf_ctaset *all = NULL;
        rc = rf_kchar_ctaset_reuse_jobs(have, nhave, gpu, k->func, &k->profile,
                                        kuse->warps_per_cta, lo, (int)(hi - lo), rf_kernel_sms(k),
                                        seed, jobs, &all, err);
        for (int j = 0; j < plan->n && !rc; j++)
            if (in[j]) {
                /* all is freed below: a view only where its rows are a
                 * holder's. */
                rc = (all->view ? rf_kchar_ctaset_view : rf_kchar_ctaset_slice)(
                    all, (int)(first[j] - lo), (int)(end[j] - first[j]), &cs[j], err);
                done[j] = true;
            }
        rf_kchar_ctaset_free(all);
    }
    return rc;
}

/* CTAs in one draw of the level: the grid (SM 0's share), at most
 * LEVEL_MAX_CTAS. */
static int level_ctas(const rf_kernel *k)
{
    long total = rf_kernel_ctas(k);
    return total > LEVEL_MAX_CTAS ? LEVEL_MAX_CTAS : total < 1 ? 1 : (int)total;
}

/* The fewest draws, more than `used`, the level's stopping rule can stop
 * at, knowing one draw's spread from the first draw's batches (sb, nu0
 * degrees of freedom): the draws' own spread adds a sum of squares ss >= 0
 * to the pooled variance, so the rule's test with ss = 0 (the same
 * floating-point steps, each monotone) passes wherever it can pass.
 * LEVEL_SEEDS where it cannot before the last draw. */
static int level_need(int nu0, double sb, double target, int used)
{
    for (int u = used + 1; u < LEVEL_SEEDS; u++) {
        if (!(nu0 > 0 || u >= LEVEL_MIN_SEEDS))
            continue;
        double var = nu0 + u - 1 > 0 ? (nu0 * sb * sb + 0.0) / (nu0 + u - 1) : 0.0;
        if (sqrt(var / u) <= target)
            return u;
    }
    return LEVEL_SEEDS;
}

/* The level's draws (whole_kernel_level), each an independent job of
 * its pool writing its own slot: draw s > 0 walks CTAs
 * [s n, (s + 1) n) with the sampler's streams for `seed` (from walked
 * where it holds them); draw 0 is draw0, run in batches when `batched`. */
typedef struct level_job {
    const rf_gpu *gpu;
    const rf_kernel *k;
    const rf_ipc_kernel *kuse;
    const rf_design *d;
    const rf_ipc_params *p;
    const rf_ctaset *draw0, *walked;
    uint64_t seed;
    int n;                      /* CTAs per draw (level_ctas) */
    bool batched;
    double one[LEVEL_SEEDS];    /* draw s's whole-grid IPC */
    rf_waves_out wo0;           /* draw 0's batches */
    rf_err err[LEVEL_SEEDS];
} level_job;

/* The split of a long whole-grid draw (its steady middle not run).  The
 * population model's run of n CTAs is a start (the first CTAs, fresh
 * together), a steady middle, and a tail (the last waves, the partial
 * one, the drains).  The head runs the draw from CTA 0 and, from the
 * launch of its CTA SPLIT_MARK_WAVES r (r the resident CTAs, a wave),
 * cuts the run into batches of SPLIT_BATCH_WAVES r CTAs; it stops at a
 * batch's end once at least SPLIT_MIN_BATCHES have run, the standard error
 * of their IPCs is at most SPLIT_SE of their mean and the rates of the
 * batches' two halves differ by at most SPLIT_DRIFT, while CTA n -
 * (SPLIT_TAIL_WAVES + SPLIT_WARM_WAVES) r has not launched; else it runs
 * to the end, the exact draw (analytic/waves.c rf_waves_run.batch_ctas).
 * The tail runs the last SPLIT_TAIL_WAVES r CTAs to the end after the
 * SPLIT_WARM_WAVES r before them, functionally warmed (as the windows
 * start), at the draw's lone CPI.  The instructions neither retired run
 * at the head's steady rate (rf_waves_split_ipc).  The two are
 * independent jobs: the same result on any number of threads.
 * Assumption: the middle runs at the head's steady rate (the CTAs' paths
 * are drawn alike at every index, analytic/kchar.c); the batches' spread
 * and the halves check it, and a draw of fewer than SPLIT_MIN_WAVES waves
 * is run whole.  Measured on both sets (39 kernels, fermi-gtx480,
 * maxwell-gtx980 and volta-hirf, one SM, the calibrated parameters), the
 * split level against the whole draw's: 36 draws split, mean |difference|
 * 0.08%, at most 1.17% (maxwell-gtx980 softmax_row, whose rate rises
 * 2% over its run after a flat start), within LEVEL_REL_SE; the nine
 * alone at most 0.85% (kmeans).  Without the halves' check, or at a
 * SPLIT_SE of 1%, lu_update stops on a flat start and its level is 2.9%
 * low.  The draws split run a quarter of their CTAs (scan on
 * fermi-gtx480: 109 of 1024).  The register-cache level (calibrate/pffit.c,
 * not applied to the estimates) under maxwell-ltrf's 8-warp pool: scan
 * -0.47%, softmax_row -1.5%, hotspot +0.85%, transpose -0.01%. */
#define SPLIT_MARK_WAVES 2
#define SPLIT_BATCH_WAVES 2
#define SPLIT_MIN_BATCHES 6
#define SPLIT_SE 0.005
#define SPLIT_DRIFT 0.01
#define SPLIT_TAIL_WAVES 4
#define SPLIT_WARM_WAVES 2
#define SPLIT_MIN_WAVES 64

static bool level_split(long n, long res)
{
    return res > 0 && n >= SPLIT_MIN_WAVES * res;
}

typedef struct split_job {
    const rf_gpu *gpu;
    const rf_design *d;
    const rf_kernel *k;
    const rf_ipc_kernel *kc;
    const rf_ctaset *cs;        /* the run's CTAs */
    const rf_ipc_params *p;
    long res;                   /* resident CTAs: a wave */
    double ipc;                 /* the head's IPC */
    rf_waves_out head, tail;
    rf_err err[2];
} split_job;

/* The split's head (job 0: the run from its start) or tail (job 1). */
static int split_part(int t, void *ctx)
{
    split_job *j = ctx;
    rf_err *err = &j->err[t];
    rf_err_clear(err);
    long n = j->cs->nctas, r = j->res;
    long tail = SPLIT_TAIL_WAVES * r, warm = SPLIT_WARM_WAVES * r;
    double ipc;
    if (!t) {
        rf_waves_run head = {.mark_cta = SPLIT_MARK_WAVES * r,
                             .batch_ctas = SPLIT_BATCH_WAVES * r,
                             .min_batches = SPLIT_MIN_BATCHES,
                             .stop_se = SPLIT_SE,
                             .stop_drift = SPLIT_DRIFT,
                             .stop_before = n - tail - warm};
        return window_ipc_part(j->gpu, j->d, j->k, j->kc, j->cs, j->p, 0, 0, 0, 0, NULL, 0, &head,
                               &j->head, &j->ipc, err);
    }
    rf_ctaset *cs = NULL;
    int rc = rf_kchar_ctaset_view(j->cs, (int)(n - tail - warm), (int)(tail + warm), &cs, err);
    if (rc)
        return rc;
    /* The run's own lone CPI (a slice takes its CTAs'): the rates the
     * whole run goes at. */
    cs->cpi_lone = j->cs->cpi_lone;
    rf_waves_run part = {.ctas = tail + warm};
    rc = window_ipc_part(j->gpu, j->d, j->k, j->kc, cs, j->p, (uint64_t)warm, (uint64_t)warm, 0,
                         0, NULL, 0, &part, &j->tail, &ipc, err);
    rf_kchar_ctaset_free(cs);
    return rc;
}

int rf_calib_run_ipc(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                     const rf_ipc_kernel *kc, const rf_ctaset *cs, const rf_ipc_params *p,
                     int jobs, double *ipc, long *run_ctas, rf_err *err)
{
    *ipc = 0;
    if (run_ctas)
        *run_ctas = cs->nctas;
    rf_occ_input in = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem};
    rf_occ occ;
    int rc = rf_occ_compute(gpu, d, &in, &occ, err);
    if (rc)
        return rc;
    long res = occ.active_ctas > 0 ? occ.active_ctas : occ.ctas_per_sm;
    rf_waves_run whole = {.ctas = cs->nctas};
    if (!level_split(cs->nctas, res))
        return window_ipc_part(gpu, d, k, kc, cs, p, 0, 0, 0, 0, NULL, 0, &whole, NULL, ipc, err);
    split_job *j = calloc(1, sizeof *j);
    if (!j)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    j->gpu = gpu;
    j->d = d;
    j->k = k;
    j->kc = kc;
    j->cs = cs;
    j->p = p;
    j->res = res;
    /* The head and the tail, on two threads where there are two; on one,
     * the tail only where the head stopped (the same result). */
    if (jobs > 1) {
        rc = rf_pool_run(jobs, 2, split_part, j, j->err, err);
    } else {
        int t = 0;
        rc = split_part(t, j);
        if (!rc && j->head.stopped)
            rc = split_part(t = 1, j);
        if (rc && err)
            *err = j->err[t];
    }
    if (!rc && j->head.stopped) {
        double all = 0;
        for (long c = 0; c < cs->nctas; c++)
            all += rf_ctaset_cta_insts(cs, c);
        *ipc = rf_waves_split_ipc(all, &j->head, &j->tail);
        if (run_ctas)
            *run_ctas = j->head.launched + SPLIT_TAIL_WAVES * res;
    } else if (!rc) {
        *ipc = j->ipc;      /* the head ran to the end: the whole run */
    }
    free(j);
    return rc;
}

static int level_draw(int s, void *ctx)
{
    level_job *j = ctx;
    rf_err *err = &j->err[s];
    rf_err_clear(err);
    rf_ctaset *cs = NULL;
    int rc = RF_OK;
    if (s > 0)
        rc = rf_kchar_ctaset_reuse(&j->walked, 1, j->gpu, j->k->func, &j->k->profile,
                                   j->kuse->warps_per_cta, (long)s * j->n, j->n,
                                   rf_kernel_sms(j->k), j->seed, &cs, err);
    rf_waves_out wo;
    if (!rc)
        rc = window_ipc(j->gpu, j->d, j->k, j->kuse, s > 0 ? cs : j->draw0, j->p, 0, 0, 0, 0,
                        NULL, s == 0 && j->batched ? LEVEL_BATCHES : 0, s == 0 ? &j->wo0 : &wo,
                        &j->one[s], err);
    rf_kchar_ctaset_free(cs);
    return rc;
}

/* The level's draws on a grid longer than LEVEL_MAX_CTAS (whole_kernel_level):
 * their mean population-model IPC in *fluid, draw 0 the run's own CTAs
 * (draw0), the rest walked (from walked where it holds them). */
static int level_draws(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kuse,
                       const rf_design *d, const rf_calib *out, uint64_t run,
                       const rf_ctaset *draw0, const rf_ctaset *walked, long res, int jobs,
                       double *fluid, rf_calib_report *rep, rf_err *err)
{
    long total = rf_kernel_ctas(k);
    level_job *j = calloc(1, sizeof *j);
    if (!j)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    j->gpu = gpu;
    j->k = k;
    j->kuse = kuse;
    j->d = d;
    j->p = &out->params;
    j->draw0 = draw0;
    j->walked = walked;
    j->seed = run;
    j->n = level_ctas(k);
    j->batched = res > 0 && total >= LEVEL_BATCH_WAVES * res;
    rf_pool pool;
    int rc = rf_pool_start(&pool, jobs, LEVEL_SEEDS, level_draw, j, err);
    if (rc) {
        free(j);
        return rc;
    }
    /* Draws the rule takes at least: before the first, one where its
     * batches may settle it, else LEVEL_MIN_SEEDS. */
    int need = j->batched ? 1 : LEVEL_MIN_SEEDS;
    double ones[LEVEL_SEEDS];
    int used = 0;
    /* The draws' target: LEVEL_REL_SE, or the share of the windows' noise
     * on the level when that is wider. */
    double wn = out->samples > 0
                    ? LEVEL_WINDOW_SHARE * out->rms_rel / sqrt((double)out->samples) : 0.0;
    double target = wn > LEVEL_REL_SE ? wn : LEVEL_REL_SE;
    /* One draw's relative spread from the first draw's batches (sb, nu0
     * degrees of freedom; 0: none). */
    double sb = 0;
    int nu0 = 0;
    for (int s = 0; s < LEVEL_SEEDS && !rc; s++) {
        int ahead = s == 0 ? 1 : s + jobs;
        rf_pool_release(&pool, need > ahead ? need : ahead);
        rc = rf_pool_wait(&pool, s);
        if (rc) {
            if (err)
                *err = j->err[s];
            break;
        }
        ones[used++] = j->one[s];
        const rf_waves_out *wo = &j->wo0;
        if (s == 0 && j->batched && wo->nbatch == LEVEL_BATCHES) {
            double m = 0, ss = 0;
            for (int b = 0; b < wo->nbatch; b++)
                m += wo->batch_ipc[b] / wo->nbatch;
            for (int b = 0; b < wo->nbatch; b++)
                ss += (wo->batch_ipc[b] - m) * (wo->batch_ipc[b] - m);
            if (m > 0) {
                sb = LEVEL_BATCH_INFLATE * sqrt(ss / (wo->nbatch - 1) / wo->nbatch) / m;
                nu0 = LEVEL_BATCH_DOF;
            }
        }
        *fluid = 0;
        for (int i = 0; i < used; i++)
            *fluid += ones[i] / used;
        /* One draw's relative variance: the batches' prior pooled with the
         * draws' own spread; the level's, that over the draws. */
        double ss = 0;
        for (int i = 0; i < used && *fluid > 0; i++)
            ss += (ones[i] - *fluid) * (ones[i] - *fluid) / (*fluid * *fluid);
        double var = nu0 + used - 1 > 0 ? (nu0 * sb * sb + ss) / (nu0 + used - 1) : 0.0;
        if ((nu0 > 0 || used >= LEVEL_MIN_SEEDS) && sqrt(var / used) <= target)
            break;
        if (s == 0)
            need = level_need(nu0, sb, target, used);
    }
    rf_pool_finish(&pool);
    rep->level_draws = used;
    rep->level_ctas = rep->level_run_ctas = j->n;
    free(j);
    return rc;
}

/* level = whole-grid IPC of the population model / that of the wave
 * formula, default design, calibrated parameters (single SM, as the
 * sampler's full run), the population model's IPC of the run's CTAs
 * (draw0 where the windows' seed is the run's, else walked anew; on a grid
 * longer than LEVEL_MAX_CTAS averaged over the paths and cache outcomes of
 * up to LEVEL_SEEDS draws, the rest from walked where it holds them),
 * until their standard error,
 * from their spread pooled with the first draw's batches (after one draw
 * where the grid has batches, else LEVEL_MIN_SEEDS), meets LEVEL_REL_SE
 * or LEVEL_WINDOW_SHARE.  Reads
 * out->rms_rel and out->samples: the fit's, set before.
 * On `jobs` threads the draws run ahead of the stopping rule: at once
 * those it takes whatever they give (level_need), then, after the first
 * draw, `jobs` at a time; the rule still takes them one by one in order,
 * so the level is the same on any number of threads (a draw run ahead and
 * not taken costs CPU time, not wall). */
int rf_calib_short_run(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kuse,
                       bool *is_short, long *resident, rf_err *err)
{
    *is_short = false;
    long total = rf_kernel_ctas(k);
    rf_design d;
    rf_design_init(&d);
    rf_occ_input in = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem};
    rf_occ occ;
    int rc = rf_occ_compute(gpu, &d, &in, &occ, err);
    if (rc)
        return rc;
    long res = occ.active_ctas > 0 ? occ.active_ctas : occ.ctas_per_sm;
    *is_short = kuse->nlone == total && total <= RF_IPC_NLONE && total <= SHORT_LEVEL_WAVES * res;
    if (resident)
        *resident = res;
    return RF_OK;
}

static int whole_kernel_level(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kuse,
                              rf_calib *out, double rate, uint64_t seed, const rf_ctaset *draw0,
                              const rf_ctaset *walked, int jobs, rf_calib_report *rep,
                              rf_err *err)
{
    rep->level_draws = 0;
    rep->level_ctas = 0;
    rep->level_run_ctas = 0;
    bool is_short;
    long res;
    int rc = rf_calib_short_run(gpu, k, kuse, &is_short, &res, err);
    if (rc)
        return rc;
    if (is_short) {
        out->level = rate;     /* a short run (SHORT_LEVEL_WAVES) */
        return RF_OK;
    }
    long total = rf_kernel_ctas(k);
    /* The run the record describes (the kernel's draws, estimate --seed):
     * its CTAs, the windows' first draw where the windows ran it too. */
    uint64_t run = k->profile.seed;
    rf_ctaset *own = NULL;
    if (run != seed) {
        rc = rf_kchar_ctaset_reuse_jobs(&walked, 1, gpu, k->func, &k->profile,
                                        kuse->warps_per_cta, 0, level_ctas(k), rf_kernel_sms(k),
                                        run, jobs, &own, err);
        if (rc)
            return rc;
        draw0 = own;
    }
    rf_design d;
    rf_design_init(&d);
    double fluid = 0;
    if (total <= LEVEL_MAX_CTAS) {
        /* Draw 0 is the whole run: its population-model run (split where
         * long, rf_calib_run_ipc). */
        rc = rf_calib_run_ipc(gpu, &d, k, kuse, draw0, &out->params, jobs, &fluid,
                              &rep->level_run_ctas, err);
        rep->level_draws = 1;
        rep->level_ctas = level_ctas(k);
    } else {
        rc = level_draws(gpu, k, kuse, &d, out, run, draw0, walked, res, jobs, &fluid, rep, err);
    }
    rf_kchar_ctaset_free(own);
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
        double nz = noise * short_factor(gpu, 0, w[i].cycles);
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


void rf_calib_window_noise(const double *r, const double *sig, int n, double *bias, double *se,
                           double *v)
{
    *bias = *se = *v = 0;
    if (n <= 0)
        return;
    double inv = 0, chi = 0;
    for (int i = 0; i < n; i++) {
        *bias += r[i] / n;
        inv += 1.0 / (sig[i] * sig[i]);
        chi += r[i] * r[i] / (sig[i] * sig[i]);
    }
    *v = 1.0 / inv;
    if (n == 1) {
        *se = sig[0];
        return;
    }
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (r[i] - *bias) * (r[i] - *bias);
    *se = sqrt(ss / ((n - 1) * (double)n));
    if (chi / (n - 1) > 1)
        *v *= chi / (n - 1);
}

typedef struct corr_job {
    const rf_gpu *gpu;
    const rf_ipc_kernel *kc;
    const rf_calib *cal;
    rf_shape shape;
    rf_design d;                /* the default design */
    double ipc[2];              /* its calibrated and uncalibrated estimates */
    rf_err err[2];
} corr_job;

/* Estimate i of the default design: 0 under the record, 1 uncalibrated (a
 * job of shrink_weight's pool: the estimates only read the kernel, its
 * frozen memo and the record). */
static int corr_of(int i, void *ctx)
{
    corr_job *j = ctx;
    rf_err_clear(&j->err[i]);
    rf_estimate e;
    int rc = rf_extrap_estimate(j->gpu, &j->d, j->kc, &j->shape, i == 0 ? j->cal : NULL, &e,
                                &j->err[i]);
    j->ipc[i] = rc ? 0.0 : e.ipc;
    return rc;
}

/* The shrinkage weight (calibrate/extrapolate.c, 3.): the prior width
 * RF_EXTRAP_PRIOR_CORR against v, the noise variance of the level the ordinary
 * windows set (rf_calib_window_noise).  The report keeps the correction
 * log(IPC_cal / IPC_unc) of the whole-kernel estimate (one SM, the whole
 * grid, as the windows run) at the default design, unshrunk. */
static int shrink_weight(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                         double v, int jobs, rf_calib *out, rf_calib_report *rep, rf_err *err)
{
    out->shrink = 1.0;
    corr_job *j = calloc(1, sizeof *j);
    if (!j)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    j->gpu = gpu;
    j->kc = kc;
    j->cal = out;
    j->shape = (rf_shape){k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                          rf_kernel_ctas(k), 1};
    rf_design_init(&j->d);
    int rc = rf_pool_run(jobs, 2, corr_of, j, j->err, err);
    double c = !rc && j->ipc[0] > 0 && j->ipc[1] > 0 ? log(j->ipc[0] / j->ipc[1]) : 0.0;
    free(j);
    if (rc)
        return rc;
    rep->corr_default = c;
    rep->level_noise = v;
    out->shrink = rf_extrap_shrink_prior(RF_EXTRAP_PRIOR_CORR, v);
    return RF_OK;
}

/* HI-RF plans: the design response's check.  Each HI-RF window's ratio to
 * the baseline window at its CTAs (the same warming and sampler seed) is
 * set beside the same ratio of the calibrated whole-kernel estimates (one
 * SM, the whole grid),
 *     d_h = ln(y_h / y_b) - ln(IPC(d_h) / IPC(baseline)),
 * and the mean of d_h^2, less the windows' own noise on the ratio
 * (N^2, N = RF_EXTRAP_HIRF_RATIO_NOISE), joins the record's level
 * variance: the interval of every estimate widens where the windows and
 * the estimate disagree on what the register cache costs (trsv on
 * volta-hirf: windows 0.867 and 0.848 for concat and TEA, estimates 0.890
 * and 0.916, full runs 0.852 and 0.878).  d_h is the estimate's error on
 * the ratio plus the windows' noise on it, so E[d_h^2] = error^2 + N^2,
 * and the difference (at least 0) is the error's variance.
 * The ratio correction.  The fitted register-cache terms (rc_stall,
 * rc_burst) barely move with such a disagreement: their priors hold them
 * and the level's windows outnumber the HI-RF ones.  The record
 * therefore also keeps, per window index (concat, TEA, fully associative),
 * the disagreement with the estimate it will correct, the record's own
 * (shrunk, 3. of calibrate/extrapolate.c),
 *     d = ln(y_h / y_b) - ln(IPC_w(d_h) / IPC_w(baseline)),
 * and the weight w_r = D_r^2 / (D_r^2 + N^2) on it: the true ratio error
 * e as a normal prior of width D_r, d = e + noise of variance N^2, so
 * w_r d is e's posterior mean (calibrate/extrapolate.c applies it to the
 * HI-RF designs of the window's index family). */
/* HIRF_RATIO_PRIOR: D_r, the estimate's rms error on the HI-RF-to-
 * baseline log ratio, from the nine tuning kernels on volta-hirf over
 * calibration seeds 1-6 (84 windows, concat and TEA): mean d^2 = 0.00138
 * less N^2 = 0.000625 gives D_r^2 = 0.00075, D_r = 0.0274 (w_r = 0.55).
 * Pooled over the nine: a kernel's own two windows are too few to set it. */
#define HIRF_RATIO_PRIOR 0.0274
static int hirf_ratio_check(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                            rf_calib_report *rep, rf_calib *out, rf_err *err)
{
    const rf_plan *plan = &rep->plan;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    /* cal: the calibrated estimate (shrink 1), for the level variance;
     * cw: the record's estimate (shrunk), before any ratio correction. */
    rf_calib cal = *out, cw = *out;
    cal.nfit = 0;
    cal.shrink = 1.0;
    cal.hirf_ratio_w = 0;
    cw.nfit = 0;
    cw.hirf_ratio_w = 0;
    double d2 = 0, base = 0, base_w = 0;
    int n = 0;
    for (int i = 0; i < rep->n; i++) {
        if (plan->pt[i].design.kind != RF_DESIGN_HIRF || !(rep->s[i].ipc > 0))
            continue;
        for (int b = 0; b < rep->n; b++) {
            const rf_design *db = &plan->pt[b].design;
            if (db->kind != RF_DESIGN_BASELINE || db->collectors != 0
                || plan->pt[b].skip_ctas != plan->pt[i].skip_ctas || !(rep->s[b].ipc > 0))
                continue;
            rf_estimate e, ew;
            int rc;
            if (base == 0) {
                rf_design d0;
                rf_design_init(&d0);
                rc = rf_extrap_estimate(gpu, &d0, kc, &shape, &cal, &e, err);
                if (!rc)
                    rc = rf_extrap_estimate(gpu, &d0, kc, &shape, &cw, &ew, err);
                if (rc)
                    return rc;
                base = e.ipc;
                base_w = ew.ipc;
            }
            rc = rf_extrap_estimate(gpu, &plan->pt[i].design, kc, &shape, &cal, &e, err);
            if (!rc)
                rc = rf_extrap_estimate(gpu, &plan->pt[i].design, kc, &shape, &cw, &ew, err);
            if (rc)
                return rc;
            if (e.ipc > 0 && base > 0) {
                double y = log(rep->s[i].ipc / rep->s[b].ipc);
                double d = y - log(e.ipc / base);
                d2 += d * d;
                n++;
                int ix = plan->pt[i].design.index;
                double dw = ew.ipc > 0 && base_w > 0 ? y - log(ew.ipc / base_w) : NAN;
                /* A disagreement of a factor e or more (or none computed)
                 * is no ratio error of the model's: no correction. */
                if (ix >= 0 && ix < RF_NRCINDEX && fabs(dw) < 1) {
                    out->hirf_ratio_d[ix] = dw;
                    out->hirf_ratio_has[ix] = true;
                }
            }
            break;
        }
    }
    if (n > 0) {
        double nn = RF_EXTRAP_HIRF_RATIO_NOISE * RF_EXTRAP_HIRF_RATIO_NOISE;
        rep->hirf_ratio_var = d2 / n;
        out->level_var += fmax(0.0, d2 / n - nn);
    }
    bool any = false;
    for (int ix = 0; ix < RF_NRCINDEX; ix++)
        any |= out->hirf_ratio_has[ix];
    if (any)
        out->hirf_ratio_w = rf_extrap_shrink_prior(HIRF_RATIO_PRIOR,
                                                   RF_EXTRAP_HIRF_RATIO_NOISE
                                                       * RF_EXTRAP_HIRF_RATIO_NOISE);
    return RF_OK;
}

/* HI-RF plans (calibrate/plan.c, an NVM-backed GPU): the windows' check
 * against their own model.  When the fit stops at a bound of a parameter
 * (at_bound), the model cannot follow the windows further at any
 * parameter, and what it leaves, the mean log residual of the windows,
 *     r = mean_i ln(y_i / f_i(theta)),
 * is a disagreement of model and windows, not window noise: the windows
 * see a stretch of the run the model does not reproduce (transpose on
 * volta-hirf: its CTAs run in lock step, and windows of 5,000 cycles
 * starting after the functional warming, where a wave starts, read its
 * issue phase against the whole run's level; the fit takes gto_share to
 * its bound 1 and leaves r near +0.2).  Such windows measure the level
 * with a bias their scatter does not show, so r^2 joins the noise v of
 * the level they set: the weight is taken again as
 *     w = D^2 / (D^2 + v + r^2)            (rf_extrap_shrink_prior).
 * The interval counts the windows' mean residual already (the record's
 * win_bias, calibrate/extrapolate.c).  A residual the priors leave (the fit inside its
 * bounds) is not counted: there the windows' level is right more often
 * than not. */
void rf_calib_hirf_window_check(rf_calib_report *rep, int nord, bool at_bound, double v,
                                rf_calib *out)
{
    if (!at_bound)
        return;
    double r = 0;
    int n = 0;
    for (int i = 0; i < nord; i++)
        if (rep->s[i].ipc > 0 && rep->s[i].ipc_fit > 0) {
            r += log(rep->s[i].ipc / rep->s[i].ipc_fit);
            n++;
        }
    if (n == 0)
        return;
    r /= n;
    out->shrink = rf_extrap_shrink_prior(RF_EXTRAP_PRIOR_CORR, v + r * r);
    rep->hirf_bias = r;
}

/* The windows' sampler runs (step 2), each an independent job of
 * calib_run's pool writing its own slot.  rf_sim_run reads the GPU, the
 * kernel, the design and its options only (it builds its program and
 * state per run), so the jobs share them. */
int rf_calib_window_job(int j, void *ctx)
{
    rf_calib_windows *w = ctx;
    int i = w->window[j];
    const rf_plan_point *pt = &w->plan->pt[i];
    rf_sim_opts so;
    rf_sim_opts_init(&so);
    so.seed = w->seed;
    so.warmup = pt->warmup;
    so.cycles = pt->cycles;
    so.skip_ctas = pt->skip_ctas;
    so.warm_ctas = pt->warm_ctas;
    so.sms = 1;
    rf_err_clear(&w->err[i]);
    return rf_sim_run(w->gpu, &pt->design, w->k, &so, &w->st[i], &w->err[i]);
}

int rf_calib_windows_start(const rf_gpu *gpu, const rf_kernel *k, const rf_plan *plan,
                           uint64_t seed, int jobs, rf_pool *pool, rf_calib_windows **out,
                           rf_err *err)
{
    rf_calib_windows *wj = calloc(1, sizeof *wj);
    *out = NULL;
    if (!wj)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    wj->gpu = gpu;
    wj->k = k;
    wj->plan = plan;
    wj->seed = seed;
    int nj = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < plan->n; i++) {
            rf_design_kind kd = plan->pt[i].design.kind;
            bool cache = kd == RF_DESIGN_HIRF || kd == RF_DESIGN_RFC || kd == RF_DESIGN_LTRF;
            if (cache == (pass == 0)) {
                wj->job[i] = nj;
                wj->window[nj++] = i;
            }
        }
    int rc = rf_pool_start(pool, jobs, plan->n, rf_calib_window_job, wj, err);
    if (rc) {
        free(wj);
        return rc;
    }
    rf_pool_release(pool, plan->n);
    *out = wj;
    return RF_OK;
}

int rf_calib_window_wait(rf_pool *pool, const rf_calib_windows *w, int i)
{
    return rf_pool_wait(pool, w->job[i]);
}

static int calib_run(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                     rf_ipc_kernel *kc, const rf_ctaset *walked, rf_ctaset **draw0,
                     const rf_calib_opts *opts, rf_calib *out, rf_calib_report *rep,
                     rf_err *err);

int rf_calib_run(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                 const rf_ipc_kernel *kc, const rf_calib_opts *opts, rf_calib *out,
                 rf_calib_report *rep, rf_err *err)
{
    return rf_calib_run_walked(gpu, gpu_name, k, kc, NULL, opts, out, rep, err);
}

int rf_calib_run_walked(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                        const rf_ipc_kernel *kc, const rf_ctaset *walked,
                        const rf_calib_opts *opts, rf_calib *out, rf_calib_report *rep,
                        rf_err *err)
{
    /* The kernel figures with a memo of the HI-RF flows (the windows'
     * designs, computed once and shared by the fit's threads: a flow
     * depends on the code and the cache's geometry alone, not on the
     * parameters the fit moves). */
    rf_ipc_kernel *km = malloc(sizeof *km);
    rf_rcc_memo memo;
    int rc = km ? rf_rcc_memo_init(&memo, CALIB_RC_MEMO, err)
                : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    if (rc) {
        free(km);
        return rc;
    }
    *km = *kc;
    km->rcw.memo = &memo;
    rf_ctaset *draw0 = NULL;
    rc = calib_run(gpu, gpu_name, k, km, walked, &draw0, opts, out, rep, err);
    rf_kchar_ctaset_free(draw0);
    rf_rcc_memo_free(&memo);
    free(km);
    return rc;
}

/* The calibration (the steps at the top of this file); *draw0 receives the
 * grid's CTAs under the windows' seed (the level's first draw where that
 * is the run's), walked before the windows' sets, which slice it. */
static int calib_run(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                     rf_ipc_kernel *kc, const rf_ctaset *walked, rf_ctaset **draw0,
                     const rf_calib_opts *opts, rf_calib *out, rf_calib_report *rep,
                     rf_err *err)
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
    uint64_t seed = opts && opts->seed ? opts->seed : k->profile.seed;
    out->full_cycles = plan->full_cycles;
    if (!plan_worth(gpu, k, plan, opts, &rep->plan_weight)) {
        if (opts && opts->progress)
            fprintf(opts->progress,
                    "calibrate: the budget's %d window%s of %llu cycles would weigh %.2f on "
                    "the estimates (under %.2f: CTA lifetimes of %.0f cycles): none run, "
                    "estimates stay uncalibrated (--budget-cycles runs them)\n",
                    plan->n, plan->n == 1 ? "" : "s", (unsigned long long)plan->pt[0].cycles,
                    rep->plan_weight,
                    RF_CALIB_WEIGHT_MIN, rf_plan_cta_life(plan, rf_kernel_ctas(k)));
        rep->not_run = plan->n;
        rep->plan.n = 0;
        rep->plan.cost = 0;
    }
    if (plan->n == 0) {
        /* Too short a kernel for one sample within the budget, or windows
         * not worth running: the record keeps the defaults and no samples,
         * and estimates from it are uncalibrated (calibrate/extrapolate.c). */
        if (opts && opts->progress && rep->not_run == 0)
            fprintf(opts->progress,
                    "calibrate: the kernel's estimated %.0f cycles leave no sample (two DRAM "
                    "latencies, four for a share of a spread grid) within the budget: no "
                    "samples, estimates stay uncalibrated\n",
                    plan->full_cycles);
        return RF_OK;
    }

    /* Samples: the windows' sampler runs on the pool's threads, taken
     * here in the plan's order. */
    int jobs = opts && opts->jobs > 1 ? opts->jobs : 1;
    double y[RF_PLAN_MAX], window[RF_PLAN_MAX], conflict[RF_PLAN_MAX];
    int resident[RF_PLAN_MAX];
    double reads = 0, writes = 0, base_insts = 0, live = 0;
    int nlive = 0;
    rf_calib_windows *wj;
    rf_pool pool;
    rc = rf_calib_windows_start(gpu, k, plan, seed, jobs, &pool, &wj, err);
    if (rc)
        return rc;
    for (int i = 0; i < plan->n; i++) {
        const rf_plan_point *pt = &plan->pt[i];
        rc = rf_calib_window_wait(&pool, wj, i);
        if (rc) {
            if (err)
                *err = wj->err[i];
            break;
        }
        const rf_sim_stats st = wj->st[i];
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
            conflict[i] = 0;
            if (opts && opts->progress)
                fprintf(opts->progress, "calibrate: sample %d/%d %s retired no instructions: "
                        "left out of the fit\n", i + 1, plan->n, pt->label);
            continue;
        }
        if (!(st.ipc > 0)) {
            rc = rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL,
                            "sample '%s' retired no instructions in %llu cycles", pt->label,
                            (unsigned long long)st.cycles);
            break;
        }
        y[i] = st.ipc;
        window[i] = (double)st.cycles;
        conflict[i] = st.rc_writes ? (double)st.rc_conflicts / (double)st.rc_writes : 0.0;
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
    rf_pool_finish(&pool);
    free(wj);
    if (rc)
        return rc;
    rep->n = plan->n;
    /* The windows' HI-RF flows into the memo, which the fit's threads then
     * only read. */
    for (int i = 0; i < plan->n && !rc; i++)
        rc = rf_rcc_memo_prepare(&kc->rcw, gpu, &plan->pt[i].design, err);
    if (rc)
        return rc;
    if (kc->rcw.memo)
        kc->rcw.memo->frozen = true;

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
         * rf_rcc_rates_live), spread over the warp slots as the sampler's
         * live warps are.  Warps waiting at a barrier count: they keep
         * their registers. */
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
    c.jobs = jobs;
    c.err = err;
    /* The grid's CTAs under the windows' seed, walked now: the windows'
     * CTAs are among them, and where the windows' seed is the run's
     * (calibrate --seed) they are the level's first draw
     * (whole_kernel_level). */
    rc = rf_kchar_ctaset_reuse_jobs(&walked, 1, gpu, k->func, &k->profile, kuse.warps_per_cta, 0,
                                    level_ctas(k), rf_kernel_sms(k), seed, jobs, draw0, err);
    if (rc)
        return rc;
    const rf_ctaset *have[2] = {*draw0, walked};
    rc = window_sets(gpu, k, &kuse, plan, resident, window, seed, have, 2, jobs, c.cs, err);
    if (rc) {
        free_sets(&c);
        return rc;
    }

    /* HI-RF windows: the locality from their conflict rates (the model's
     * rate is linear in it, one locality for every index), then the
     * write-back terms join the fit. */
    rf_ipc_params_default(&c.base);
    int nhirf = 0;
    rf_rcc_result res[RF_PLAN_MAX];
    double meas[RF_PLAN_MAX];
    for (int i = 0; i < plan->n && !rc; i++) {
        const rf_plan_point *pt = &plan->pt[i];
        if (pt->design.kind != RF_DESIGN_HIRF || pt->design.index == RF_RC_FULL)
            continue;
        rf_calib at0;
        rf_calib_init_kernel(&at0, gpu_name, k);
        at0.params.rc_locality = 0;
        rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                          rf_kernel_ctas(k), 1};
        rf_estimate e;
        rc = rf_extrap_estimate(gpu, &pt->design, &kuse, &shape, &at0, &e, err);
        res[nhirf] = e.rc;
        meas[nhirf++] = conflict[i];
    }
    if (nhirf > 0 && !rc) {
        double lam = rf_rcc_fit_locality(res, meas, nhirf);
        if (lam >= 0)
            c.base.rc_locality = out->params.rc_locality = lam;
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
    const char *names[7] = {"gto_share", "conflict_scale", "steal_cand", "dead_reg", "coll_base",
                            "rc_stall", "rc_burst"};
    double prior[7] = {PRIOR_GTO, PRIOR_CONFLICT, PRIOR_STEAL, PRIOR_STEAL, PRIOR_COLL,
                       PRIOR_RC_STALL, PRIOR_RC_BURST};
    /* Short HI-RF windows: the write-back terms held nearer their defaults
     * (PRIOR_RC_SHORT). */
    double span = SHORT_LATS * gpu->dram_latency;
    for (int i = 0; i < nord; i++)
        if (plan->pt[i].design.kind == RF_DESIGN_HIRF && window[i] < span)
            prior[5] = prior[6] = PRIOR_RC_SHORT;
    int nnames = nhirf > 0 ? 7 : 5;

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
    double life = rf_plan_cta_life(plan, rf_kernel_ctas(k));
    for (int i = 0; i < nord; i++) {
        y_all[i] = y[i];
        sigma[i] = WINDOW_NOISE * short_factor(gpu, life, window[i]) * y[i];
        if (plan->pt[i].design.kind == RF_DESIGN_HIRF && plan->pt[i].design.index == RF_RC_FULL)
            sigma[i] *= FULL_FIT_NOISE;
    }

    rf_fit_problem pb = {(size_t)(nord + c.np + nrate), (size_t)(c.np + nrate), y_all, sigma,
                         lo, hi, start, NULL, NULL, 0};   /* model: fit_windows */
    double w_def[RF_PLAN_MAX], w_fit[RF_PLAN_MAX];
    if (!rc)
        rc = fit_windows(&c, &pb, FIT_XTOL, FIT_GTOL, &rep->fit, w_def, w_fit, err);
    if (rc) {
        free_sets(&c);
        return rc;
    }

    out->nfit = c.np;
    /* Whether the fit stopped at a bound (within BOUND_TOL of the range). */
    bool at_bound = false;
    for (int j = 0; j < c.np + nrate; j++) {
        double tol = BOUND_TOL * (hi[j] - lo[j]);
        at_bound = at_bound || rep->fit.theta[j] <= lo[j] + tol || rep->fit.theta[j] >= hi[j] - tol;
    }
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
    double ss = 0, resid[RF_PLAN_MAX], sig[RF_PLAN_MAX];
    out->samples = plan->n;
    out->sample_cycles = rep->sim_cycles;
    out->full_cycles = plan->full_cycles;
    for (int i = 0; i < nord && !rc; i++) {
        /* The fit starts at the defaults and ends at a centre where it
         * evaluated every window. */
        rep->s[i].ipc_default = w_def[i];
        rep->s[i].ipc_fit = w_fit[i];
        if (c.rate)
            rep->s[i].ipc_fit *= rep->fit.theta[c.np];
        double r = (rep->s[i].ipc_fit - y[i]) / y[i];
        ss += r * r;
        resid[i] = r;
        sig[i] = sigma[i] / y[i];
    }
    /* Relative scatter of the windows about the fit, per degree of freedom. */
    out->rms_rel = sqrt(ss / out->dof);
    /* Their mean residual, its standard error and their noise on the level
     * (step 6). */
    double vwin;
    rf_calib_window_noise(resid, sig, nord, &out->win_bias, &out->win_se, &vwin);
    out->has_win = nord > 0;
    if (!rc && plan->ndesign > 0)
        rc = fit_design(&c, nord, y, c.rate ? rep->fit.theta[c.np] : 1.0, out, rep);
    free_sets(&c);
    if (!rc)
        rc = whole_kernel_level(gpu, k, &kuse, out, c.rate ? rep->fit.theta[c.np] : 1.0, seed,
                                *draw0, walked, jobs, rep, err);
    if (!rc)
        rc = shrink_weight(gpu, k, kc, vwin, jobs, out, rep, err);
    if (!rc && nhirf > 0)
        rf_calib_hirf_window_check(rep, nord, at_bound, vwin, out);
    if (!rc && nhirf > 0)
        rc = hirf_ratio_check(gpu, k, kc, rep, out, err);
    return rc;
}
