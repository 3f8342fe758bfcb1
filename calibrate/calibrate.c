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
 *    HI-RF windows, rc_stall and rc_burst, after the register-cache
 *    locality rc_locality is set from their conflict rates, analytic/
 *    rccollide.c) (windows shorter than SHORT_LATS DRAM latencies
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
 * NVM bank queue, analytic/rccollide.c), each +- 0.5 around 1: the two
 * HI-RF windows read concat and TEA apart from the baseline, and rc_burst
 * reaches the NVM queue, where rc_stall does not.  Widths chosen on the
 * nine tuning kernels (bench_hirf, windowed plan against full runs). */
#define PRIOR_RC_BURST 0.5
/* The rate's prior: one factor on every window and the level (mid-run
 * level the parameters do not set), +- 0.05. */
#define PRIOR_RATE 0.05
/* Short windows.  A window under SHORT_LATS DRAM latencies (kmeans on
 * volta-hirf: 677 cycles, 1.7 latencies) sees each warp through one or two
 * memory waits: its noise is taken as WINDOW_NOISE sqrt(SHORT_LATS
 * latencies / length), and the HI-RF write-back terms keep priors of
 * +- PRIOR_RC_SHORT instead of 0.5, since such windows barely inform them. */
#define SHORT_LATS 4.0
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
    /* Last model value of each window and the parameters it depends on
     * (those of other designs zeroed): a finite-difference step in a
     * parameter the window's design does not use, or in the rate (applied
     * outside the window model), reuses it. */
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
    double y[RF_PLAN_MAX], window[RF_PLAN_MAX], conflict[RF_PLAN_MAX];
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
            conflict[i] = 0;
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
     * rate is linear in it, one locality for every index), then the
     * write-back terms join the fit. */
    rf_ipc_params_default(&c.base);
    int nhirf = 0;
    rf_rcc_result res[RF_PLAN_MAX];
    double meas[RF_PLAN_MAX];
    for (int i = 0; i < plan->n && !rc; i++) {
        const rf_plan_point *pt = &plan->pt[i];
        if (pt->design.kind != RF_DESIGN_HIRF)
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
    return rc;
}
