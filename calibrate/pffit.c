/* pffit.c - calibration of the RFC/LTRF closed form (seed 004; model in
 * analytic/prefetch.c, calibrate/extrapolate.c pf_apply and
 * analytic/ipc.c), two ways: from full runs (rf_pffit_sample_seeds and
 * rf_pffit_fit, the reproduction report's seed 004, results/repro_004.c),
 * and from short windows only (rf_pffit_calibrate, rfkit calibrate
 * --design rfc|ltrf; "windows only" below).
 *
 * Full runs.
 * Samples: full sampler runs of the kernel on seven design points that span
 * what the model separates: the main file's capacity (configuration #1,
 * 1x, against the 8x files), its latency (the fastest 8x file #2, 1.25x,
 * and the slowest #7, 6.3x), LTRF against LTRF+ (#5, 2.8x) and RFC
 * against LTRF:
 *   LTRF #1, LTRF #2, LTRF #7, LTRF+ #5, RFC #1, RFC #2, RFC #7.
 * Fit: theta = (lat_scale, mem_scale, pf_scale, pf_reg, rfc_hit,
 * rfc_scale, ltrf_conflict) minimises
 *   sum_i ((IPC_model_i - IPC_i) / (0.02 IPC_i))^2 + sum_j ((theta_j - d_j) / w_j)^2
 * (2% noise per sample, priors of widths w = 1, 1, 1, 2, 0.3, 1, 1 around
 * the defaults d_j) in the bounds of rf_ipc_mparams with GSL
 * (calibrate/fit.c).  ltrf_conflict (analytic/prefetch.c) scales the bank
 * queue of LTRF's register cache only, so the four LTRF samples set it
 * without moving RFC's level; conflict_scale, shared with RFC, stays as
 * the caller's calibration has it (with it fitted instead, sgemm RFC #3
 * went 9.6% off).
 * The model of a sample is rfkit estimate's whole-kernel IPC of the same
 * launch on one SM (calibrate/extrapolate.c).
 * Output: an rf_calib whose parameters rfkit estimate uses for any RFC or
 * LTRF design point of the kernel (other configurations, latencies, LTRF+,
 * interval sizes).  rf_pffit_sample_seeds averages each sample over
 * several sampler seeds: a full run's IPC moves with the seed (branch and
 * cache draws, which warps form the grid's tail), by up to 20-30% on kmeans
 * and bfs, more than the model's error.  Measured
 * (tests/bench_ltrf_calib.c, samples and truth the mean of 5 seeds): mean
 * |IPC error| 0.53%, worst 2.3% (kmeans RFC #5), on nine unsampled points
 * of each bundled kernel; 0.89% and 8.6% (sgemm LTRF+ N = 24) without
 * ltrf_conflict and the LTRF write race (analytic/prefetch.c).  (An earlier
 * one-seed measurement: mean 1.3%, worst 12%, kmeans LTRF #3, whose single
 * run lies 25% above the mean of its other seeds.)
 */
#include "pffit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/kchar.h"
#include "../common/pool.h"
#include "calibrate.h"
#include "extrapolate.h"
#include "fit.h"

#define NOISE 0.02

static const char *const names[RF_PFFIT_P] = {"lat_scale", "mem_scale", "pf_scale", "pf_reg",
                                              "rfc_hit", "rfc_scale", "ltrf_conflict"};
static const double prior[RF_PFFIT_P] = {1.0, 1.0, 1.0, 2.0, 0.3, 1.0, 1.0};

void rf_pffit_points(const rf_design *d, rf_design pts[RF_PFFIT_N])
{
    static const struct {
        int kind, config;
        bool plus;
    } p[RF_PFFIT_N] = {
        {RF_DESIGN_LTRF, 1, false}, {RF_DESIGN_LTRF, 2, false}, {RF_DESIGN_LTRF, 7, false},
        {RF_DESIGN_LTRF, 5, true},  {RF_DESIGN_RFC, 1, false},  {RF_DESIGN_RFC, 2, false},
        {RF_DESIGN_RFC, 7, false},
    };
    for (int i = 0; i < RF_PFFIT_N; i++) {
        pts[i] = *d;
        pts[i].kind = p[i].kind;
        pts[i].rf_config = p[i].config;
        pts[i].plus = p[i].plus;
        pts[i].latency_x = 0;
    }
}

int rf_pffit_sample(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                    const rf_sim_opts *opts, rf_pffit_obs obs[RF_PFFIT_N], rf_err *err)
{
    return rf_pffit_sample_seeds(gpu, d, k, opts, 1, obs, err);
}

int rf_pffit_sample_seeds(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                          const rf_sim_opts *opts, int seeds, rf_pffit_obs obs[RF_PFFIT_N],
                          rf_err *err)
{
    rf_design pts[RF_PFFIT_N];
    rf_pffit_points(d, pts);
    if (seeds < 1)
        seeds = 1;
    for (int i = 0; i < RF_PFFIT_N; i++) {
        obs[i].design = pts[i];
        obs[i].ipc = 0;
        obs[i].cycles = 0;
        for (int s = 0; s < seeds; s++) {
            rf_sim_opts o = *opts;
            o.seed = opts->seed + (uint64_t)s;
            rf_sim_stats st;
            int rc = rf_sim_run(gpu, &pts[i], k, &o, &st, err);
            if (rc)
                return rc;
            obs[i].ipc += st.ipc / seeds;
            obs[i].cycles += st.cycles;
        }
    }
    return 0;
}

typedef struct fit_ctx {
    const rf_gpu *gpu;
    const rf_kernel *k;
    const rf_ipc_kernel *kc;
    const rf_pffit_obs *obs;
    int idx[RF_PFFIT_P];
    rf_calib cal;
} fit_ctx;

static int fit_fn(const double *th, size_t i, double *v, void *ctx)
{
    fit_ctx *c = ctx;
    if (i >= RF_PFFIT_N) {          /* prior pseudo-observation */
        *v = th[i - RF_PFFIT_N];
        return 0;
    }
    for (int j = 0; j < RF_PFFIT_P; j++)
        rf_mparam_put(&rf_ipc_mparams[c->idx[j]], &c->cal.params, th[j]);
    const rf_kernel *k = c->k;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_estimate e;
    if (rf_extrap_estimate(c->gpu, &c->obs[i].design, c->kc, &shape, &c->cal, &e, NULL))
        return RF_EFIT;
    *v = e.ipc;
    return 0;
}

int rf_pffit_fit(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                 const rf_pffit_obs obs[RF_PFFIT_N], rf_calib *cal, rf_err *err)
{
    fit_ctx c;
    memset(&c, 0, sizeof c);
    c.gpu = gpu;
    c.k = k;
    c.kc = kc;
    c.obs = obs;
    c.cal = *cal;
    c.cal.nfit = 0;                 /* the estimates inside the fit need no interval */
    enum { NOBS = RF_PFFIT_N + RF_PFFIT_P };
    double y[NOBS], sig[NOBS], lo[RF_PFFIT_P], hi[RF_PFFIT_P], start[RF_PFFIT_P];
    for (int i = 0; i < RF_PFFIT_N; i++) {
        if (!(obs[i].ipc > 0))
            return rf_err_set(err, RF_EFIT, NULL, 0, 0, k->name, "sample %d has no IPC", i);
        y[i] = obs[i].ipc;
        sig[i] = NOISE * obs[i].ipc;
    }
    for (int j = 0; j < RF_PFFIT_P; j++) {
        c.idx[j] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, names[j]);
        if (c.idx[j] < 0)
            return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, names[j], "no such model parameter");
        const rf_mparam *mp = &rf_ipc_mparams[c.idx[j]];
        lo[j] = mp->lo;
        hi[j] = mp->hi;
        start[j] = mp->def;
        y[RF_PFFIT_N + j] = mp->def;
        sig[RF_PFFIT_N + j] = prior[j];
    }
    rf_fit_problem pb = {NOBS, RF_PFFIT_P, y, sig, lo, hi, start, fit_fn, &c, 0};
    rf_fit_result fr;
    int rc = rf_fit_run(&pb, &fr, err);
    if (rc)
        return rc;
    for (int j = 0; j < RF_PFFIT_P; j++)
        rf_mparam_put(&rf_ipc_mparams[c.idx[j]], &c.cal.params, fr.theta[j]);
    c.cal.nfit = RF_PFFIT_P;
    for (int a = 0; a < RF_PFFIT_P; a++) {
        c.cal.fit_idx[a] = c.idx[a];
        for (int b = 0; b < RF_PFFIT_P; b++)
            c.cal.cov[a][b] = fr.cov[a][b];
    }
    c.cal.dof = fr.dof;
    c.cal.rms_rel = NOISE * sqrt(fr.chisq / (double)NOBS);
    c.cal.samples = RF_PFFIT_N;
    c.cal.sample_cycles = 0;
    for (int i = 0; i < RF_PFFIT_N; i++)
        c.cal.sample_cycles += (double)obs[i].cycles;
    *cal = c.cal;
    return 0;
}

/* ---- windows only --------------------------------------------------------
 *
 * Samples (rf_plan_make_pf, calibrate/plan.c): at each of up to four grid
 * positions a baseline window and RFC #7 and LTRF #7 windows on the same
 * CTAs after the same functional warming and sampler seed, at one
 * two-level pool (the template's: the record serves that pool; the RFC
 * model's error differs between pools, sgemm's RFC #7 -6% uncalibrated at
 * rfkit's preferred pool and -24% at the preset's 8 warps).
 * Observations: for register-cache point j, the log of its window's IPC
 * over the baseline window at the same position, averaged over the
 * positions,
 *   y_j = mean_g ln(IPC_gj / IPC_g0),
 * so the position's own level (which CTAs, at what age) cancels.  Its
 * noise is measured on the windows: the spread of that log ratio over the
 * positions, s_j (sample standard deviation; WIN_NOISE_ONE where only one
 * position ran, its spread unmeasured), as a standard error, plus
 * WIN_FLOOR for what a window pair reads apart from the whole run's ratio,
 *   sigma_j^2 = s_j^2 / n_pos + WIN_FLOOR^2.
 * Model: the same ratio of rfkit estimate's whole-kernel IPC on one SM,
 *   f_j(theta) = ln(IPC(d_j; theta) / IPC(baseline; theta)).
 * Fit: theta = (pf_scale, rfc_scale) minimises
 *   sum_j ((f_j - y_j) / sigma_j)^2 + sum_k ((theta_k - d_k) / w_k)^2
 * (d_k the defaults, w_k = win_prior): where the windows are noisy the
 * priors hold the parameters at the uncalibrated model's values.  One
 * parameter per ratio: rfc_hit scales RFC's miss stall with the main
 * file's latency as rfc_scale does, and pf_reg moves LTRF #7's ratio as
 * pf_scale does, so two ratios cannot set them apart; they, ltrf_conflict,
 * lat_scale and mem_scale keep their defaults (lat_scale and mem_scale,
 * the level of every design alike, cancel in the ratios).
 * Level (rf_pffit_level): what the model misses on the baseline is mostly
 * the whole run's start-up and tail (full run over the model's steady state
 * 0.70-1.01 on bench_ltrf_calib's kernels, where the windows, which read
 * the mid-run rate, sit at 0.86-1.22 of it: a level set from them made the
 * baseline worse, 13.0% -> 18.6% mean |error| over both sets).  The CTA
 * population model (analytic/waves.c, as calibrate/calibrate.c's level)
 * runs the whole grid from CTA 0 with the CTAs' own paths: its IPC over
 * the wave formula's is the record's level.  It is not applied to the
 * estimates (its weight wl, level_shrink, is 0: "weights" below): its log,
 * the distance between the two models of the whole run, enters the
 * interval (calibrate/extrapolate.c, ((1 - wl) ln level)^2) beside
 * level_var, how well the baseline windows find the population model.  One
 * draw of the paths (the sampler's seed); it needs no window, so a kernel
 * too short for a pair gets it too (its record has no samples: its
 * estimates are reported uncalibrated, at level 1 with LV_SD_NONE).  A short run
 * (rf_calib_short_run: at most 16 waves of at most RF_IPC_NLONE CTAs,
 * every CTA's lone time known to the estimate's run model, which then
 * takes the run's start and tail CTA by CTA) keeps level 1, as the
 * ordinary calibration takes no population level there.
 * Then the baseline windows check that level (rf_pffit_window_level,
 * "level from the windows" below): its variance joins the interval, and
 * the ratios' correction is shrunk toward the uncalibrated estimate by the
 * windows' noise.
 * WIN_FLOOR and WIN_NOISE_ONE (with its prior width) are chosen on the nine
 * tuning kernels, by the summed mean |error| of both pools
 * (tests/bench_ltrf_calib.c, which reports the figures on both sets).
 */

/* The fit stops at a step of WIN_XTOL in the logistic coordinate or a
 * gradient or relative chi^2 change under WIN_GTOL (as calibrate.c: far
 * inside the parameters' standard errors from a few ratios). */
#define WIN_XTOL 1e-3
#define WIN_GTOL 1e-4
#define WIN_ITER 4
#define WIN_FLOOR 0.02
#define WIN_NOISE_ONE 0.20
/* The level's one draw covers at most LEVEL_MAX_CTAS CTAs, as calibrate.c. */
#define LEVEL_MAX_CTAS 4096

static const char *const win_names[] = {"pf_scale", "rfc_scale"};
static const double win_prior[] = {1.0, 1.0};
#define WIN_P ((int)(sizeof win_names / sizeof win_names[0]))

int rf_pffit_run_windows(const rf_gpu *gpu, const rf_kernel *k, const rf_plan *plan,
                         uint64_t seed, int jobs, rf_pffit_win w[RF_PLAN_MAX],
                         double *sim_cycles, rf_err *err)
{
    *sim_cycles = 0;
    if (plan->n <= 0)
        return RF_OK;
    rf_calib_windows *wj;
    rf_pool pool;
    int rc = rf_calib_windows_start(gpu, k, plan, seed, jobs, &pool, &wj, err);
    if (rc)
        return rc;
    for (int i = 0; i < plan->n; i++) {
        const rf_plan_point *pt = &plan->pt[i];
        const rf_sim_stats *st = &wj->st[i];
        if ((rc = rf_calib_window_wait(&pool, wj, i)) != RF_OK) {
            *err = wj->err[i];
            break;
        }
        if (!(st->ipc > 0)) {
            rc = rf_err_set(err, RF_EFIT, NULL, 0, 0, k->name,
                            "window '%s' retired no instructions in %llu cycles", pt->label,
                            (unsigned long long)st->cycles);
            break;
        }
        w[i].ipc = st->ipc;
        w[i].warmup = pt->warmup;
        w[i].cycles = st->cycles;
        *sim_cycles += (double)(pt->warmup + st->cycles);
    }
    rf_pool_finish(&pool);
    free(wj);
    return rc;
}

typedef struct win_ctx {
    const rf_gpu *gpu;
    const rf_kernel *k;
    const rf_ipc_kernel *kc;
    const rf_plan *plan;
    int per;                    /* points per position */
    int idx[WIN_P];
    rf_calib cal;
    /* Each point's last estimate and the parameters it read (those its
     * design does not use zeroed): a finite-difference step in another
     * design's parameter reuses it. */
    rf_pf_kernel pk[RF_PLAN_PF_PTS]; /* each point's code figures (rf_extrap_pf_kernel) */
    bool memo_ok[RF_PLAN_PF_PTS];
    double memo_key[RF_PLAN_PF_PTS][WIN_P];
    double memo_ipc[RF_PLAN_PF_PTS];
} win_ctx;

/* Whether the estimate of design kind reads the fitted parameter named:
 * RFC the rfc_ terms, LTRF the PREFETCH terms and its bank queue, the
 * baseline none of them (calibrate/extrapolate.c pf_apply). */
static bool win_uses(int kind, const char *name)
{
    if (!strncmp(name, "rfc_", 4))
        return kind == RF_DESIGN_RFC;
    return kind == RF_DESIGN_LTRF;
}

/* ln(IPC(d_j) / IPC(baseline)) of the whole launch on one SM at theta. */
static int win_ratios(win_ctx *c, const double *th, double *out)
{
    for (int j = 0; j < WIN_P; j++)
        rf_mparam_put(&rf_ipc_mparams[c->idx[j]], &c->cal.params, th[j]);
    const rf_kernel *k = c->k;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    double ipc[RF_PLAN_PF_PTS];
    for (int j = 0; j < c->per; j++) {
        const rf_design *d = &c->plan->pt[j].design;
        double key[WIN_P];
        for (int q = 0; q < WIN_P; q++)
            key[q] = win_uses(d->kind, win_names[q]) ? th[q] : 0.0;
        if (c->memo_ok[j] && !memcmp(key, c->memo_key[j], sizeof key)) {
            ipc[j] = c->memo_ipc[j];
            continue;
        }
        rf_estimate e;
        if (rf_extrap_estimate_pk(c->gpu, d, c->kc, &shape, &c->cal, &c->pk[j], &e, NULL)
            || !(e.ipc > 0))
            return RF_EFIT;
        ipc[j] = c->memo_ipc[j] = e.ipc;
        memcpy(c->memo_key[j], key, sizeof key);
        c->memo_ok[j] = true;
    }
    for (int j = 1; j < c->per; j++)
        out[j - 1] = log(ipc[j] / ipc[0]);
    return RF_OK;
}

static int win_fn(const double *th, size_t i, double *v, void *ctx)
{
    win_ctx *c = ctx;
    size_t nr = (size_t)c->per - 1;
    if (i >= nr) {                  /* prior pseudo-observation */
        *v = th[i - nr];
        return RF_OK;
    }
    double r[RF_PLAN_PF_PTS];
    int rc = win_ratios(c, th, r);
    *v = r[i];
    return rc;
}

int rf_pffit_fit_windows(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                         const rf_plan *plan, const rf_pffit_win w[RF_PLAN_MAX],
                         rf_calib *cal, rf_pffit_wrep *rep, rf_err *err)
{
    memset(rep, 0, sizeof *rep);
    cal->full_cycles = plan->full_cycles;
    if (plan->n <= 0)
        return RF_OK;
    int per = plan->ndesign + 1;
    int npos = plan->n / per;
    rep->per = per;
    rep->npos = npos;
    for (int i = 0; i < plan->n; i++)
        rep->sim_cycles += (double)(w[i].warmup + w[i].cycles);
    win_ctx c;
    memset(&c, 0, sizeof c);
    c.gpu = gpu;
    c.k = k;
    c.kc = kc;
    c.plan = plan;
    c.per = per;
    c.cal = *cal;
    c.cal.nfit = 0;
    c.cal.samples = 0;
    enum { NMAX = RF_PLAN_PF_PTS + WIN_P };
    double y[NMAX], sig[NMAX], lo[WIN_P], hi[WIN_P], start[WIN_P];
    int nr = per - 1;
    rep->ratio[0] = 1.0;
    for (int j = 1; j < per; j++) {
        double m = 0, ss = 0;
        for (int g = 0; g < npos; g++)
            m += log(w[g * per + j].ipc / w[g * per].ipc) / npos;
        for (int g = 0; g < npos; g++) {
            double d = log(w[g * per + j].ipc / w[g * per].ipc) - m;
            ss += d * d;
        }
        double s = npos > 1 ? sqrt(ss / (npos - 1)) : WIN_NOISE_ONE;
        y[j - 1] = m;
        sig[j - 1] = sqrt(s * s / npos + WIN_FLOOR * WIN_FLOOR);
        rep->ratio[j] = exp(m);
        rep->noise[j] = sig[j - 1];
    }
    for (int j = 0; j < WIN_P; j++) {
        c.idx[j] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, win_names[j]);
        if (c.idx[j] < 0)
            return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, win_names[j],
                              "no such model parameter");
        const rf_mparam *mp = &rf_ipc_mparams[c.idx[j]];
        lo[j] = mp->lo;
        hi[j] = mp->hi;
        start[j] = rf_mparam_get(mp, &cal->params);
        y[nr + j] = start[j];
        sig[nr + j] = win_prior[j];
    }
    /* The code's register-cache figures take no parameter: walked once per
     * point, not at every evaluation of the fit. */
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    for (int j = 0; j < per; j++) {
        int rc = rf_extrap_pf_kernel(gpu, &plan->pt[j].design, kc, &shape, &c.pk[j], err);
        if (rc)
            return rc;
    }
    double r0[RF_PLAN_PF_PTS];
    if (win_ratios(&c, start, r0))
        return rf_err_set(err, RF_EFIT, NULL, 0, 0, k->name,
                          "the register-cache model gives no IPC at the defaults");
    for (int j = 1; j < per; j++)
        rep->model0[j] = exp(r0[j - 1]);
    rep->model0[0] = rep->model[0] = 1.0;
    rf_fit_problem pb = {(size_t)(nr + WIN_P), WIN_P, y, sig, lo, hi, start, win_fn, &c, WIN_ITER};
    rf_fit_result fr;
    int rc = rf_fit_run_tol(&pb, WIN_XTOL, WIN_GTOL, &fr, err);
    if (rc)
        return rc;
    double r1[RF_PLAN_PF_PTS];
    if (win_ratios(&c, fr.theta, r1))
        return rf_err_set(err, RF_EFIT, NULL, 0, 0, k->name,
                          "the register-cache model gives no IPC at the fit");
    double ss = 0;
    for (int j = 1; j < per; j++) {
        rep->model[j] = exp(r1[j - 1]);
        ss += (r1[j - 1] - y[j - 1]) * (r1[j - 1] - y[j - 1]);
    }
    /* Covariance at the windows' measured noise, not rescaled by chi^2 /
     * dof: a few ratios that happen to agree do not make the parameters
     * better known than their noise allows. */
    double unscale = fr.chisq > 0 && fr.dof > 0 ? fr.dof / fr.chisq : 1.0;
    c.cal.nfit = WIN_P;
    for (int a = 0; a < WIN_P; a++) {
        c.cal.fit_idx[a] = c.idx[a];
        for (int b = 0; b < WIN_P; b++)
            c.cal.cov[a][b] = fr.cov[a][b] * unscale;
    }
    c.cal.dof = nr;
    c.cal.rms_rel = sqrt(ss / nr);
    c.cal.samples = plan->n;
    c.cal.sample_cycles = rep->sim_cycles;
    c.cal.full_cycles = plan->full_cycles;
    *cal = c.cal;
    return RF_OK;
}

int rf_pffit_level(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                   const rf_design *base, uint64_t seed, rf_calib *cal, rf_err *err)
{
    return rf_pffit_level_walked(gpu, k, kc, base, seed, 1, cal, NULL, err);
}

int rf_pffit_level_walked(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                          const rf_design *base, uint64_t seed, int jobs, rf_calib *cal,
                          rf_ctaset **walked, rf_err *err)
{
    if (walked)
        *walked = NULL;
    long total = rf_kernel_ctas(k);
    int n = total > LEVEL_MAX_CTAS ? LEVEL_MAX_CTAS : (int)total;
    rf_ctaset *cs = NULL;
    int rc = rf_kchar_ctaset_reuse_jobs(NULL, 0, gpu, k->func, &k->profile, kc->warps_per_cta, 0,
                                        n, rf_kernel_sms(k), seed, jobs, &cs, err);
    bool is_short = false;
    if (!rc)
        rc = rf_calib_short_run(gpu, k, kc, &is_short, NULL, err);
    double pop = 0;
    if (!rc && !is_short)
        rc = rf_calib_run_ipc(gpu, base, k, kc, cs, &cal->params, jobs, &pop, NULL, err);
    if (!rc && walked)
        *walked = cs;
    else
        rf_kchar_ctaset_free(cs);
    if (rc)
        return rc;
    if (is_short) {             /* the run model's own start and tail */
        cal->level = 1.0;
        return RF_OK;
    }
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem, total, 1};
    rf_calib c0 = *cal;
    c0.level = 1.0;
    c0.nfit = 0;
    rf_estimate e;
    rc = rf_extrap_estimate(gpu, base, kc, &shape, &c0, &e, err);
    if (rc)
        return rc;
    double lv = e.ipc > 0 && pop > 0 ? pop / e.ipc : 1.0;
    cal->level = lv < 0.5 ? 0.5 : lv > 2.0 ? 2.0 : lv;
    return RF_OK;
}

int rf_pffit_calibrate(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                       const rf_design *tmpl, uint64_t budget_cycles, uint64_t seed, int jobs,
                       rf_plan *plan, rf_pffit_win w[RF_PLAN_MAX], rf_calib *cal,
                       rf_pffit_wrep *rep, rf_err *err)
{
    int rc = rf_plan_make_pf(gpu, k, kc, tmpl, budget_cycles, plan, err);
    double cyc = 0;
    if (!rc)
        rc = rf_pffit_run_windows(gpu, k, plan, seed, jobs, w, &cyc, err);
    if (!rc)
        rc = rf_pffit_fit_windows(gpu, k, kc, plan, w, cal, rep, err);
    rf_design base = *tmpl;
    base.kind = RF_DESIGN_BASELINE;
    rf_ctaset *walked = NULL;
    if (!rc)
        rc = rf_pffit_level_walked(gpu, k, kc, &base, seed, jobs, cal, &walked, err);
    if (!rc)
        rc = rf_pffit_window_level_from(gpu, k, kc, plan, w, seed, walked, cal, rep, err);
    rf_kchar_ctaset_free(walked);
    return rc;
}

/* ---- level from the windows ----------------------------------------------
 *
 * The baseline window at each position is replayed by the CTA population
 * model (rf_calib_window_ipc: the same CTAs from the same warming, their
 * paths and cache outcomes drawn with the sampler's seed, the window's
 * warm-up and measured length, cal's parameters), as calibrate/calibrate.c
 * models its windows.  The population model measures the record's level
 * (rf_pffit_level), so its log ratio to the sampler at the windows,
 *     d_g = ln(IPC_window_g / IPC_model_g),
 * is how far that measure is from the sampler where it can be checked:
 * m = mean_g d_g, se = sd_g(d_g) / sqrt(npos) (LV_NOISE_ONE in place of
 * the sd where one position ran).
 * Level variance (rf_pffit_level_var), added to the interval's variance
 * (calibrate/extrapolate.c, 4.):
 *     level_var = LV_SCALE^2 (m^2 + se^2) + LV_FLOOR^2.
 * The windows' disagreement overstates the whole run's level error (stream:
 * -9.3% at the windows, +0.8% over the whole run; the replay starts from a
 * warmed mid-run state the model sees coarsely), hence LV_SCALE; LV_FLOOR
 * is what the whole run has that mid-run windows do not see (start-up,
 * tail).  A record without windows takes LV_SD_NONE^2, the population
 * level's rms error on the nine tuning kernels' baseline full runs
 * (bench_ltrf_calib, both pools: 11.4%), at level 1.
 * Weights: the level and the fitted parameters come from different
 * measurements (the population model checked by the baseline windows; the
 * paired windows' ratios), so each is weighed apart (calibrate/
 * extrapolate.c, level_apart).  The level's weight wl is 0: the estimates
 * keep the wave formula's level, and the population model's distance from
 * it is an uncertainty of the interval (with level_var, at most the
 * uncalibrated model's own error), not a correction.  The record's
 * shrink (rf_pffit_shrink) of the
 * corrections beside the level, a correction of prior width D =
 * RF_EXTRAP_PRIOR_CORR (the ordinary calibration's) measured with noise,
 * c_j = ln(IPC_cal / (level IPC_unc)) of the whole-kernel estimates at the
 * windows' designs, against
 *     N = mean_j (sigma_j^2 + SH_FLOOR^2),
 * sigma_j the ratios' noise as fitted (one position: LV_NOISE_ONE and
 * WIN_FLOOR, not the fit's WIN_NOISE_ONE, a prior width), SH_FLOOR what a
 * window pair's ratio reads apart from the whole run's (sgemm at 8 warps:
 * RFC #7 0.68 in the windows, 0.62 in full runs); then
 *     w = D^2 / (D^2 + N).
 * LV_SCALE, LV_FLOOR, SH_FLOOR and LV_NOISE_ONE are chosen on the nine
 * tuning kernels (bench_ltrf_calib, both pools: mean |IPC error|, coverage
 * of the 95% interval, kernel-pools made worse than uncalibrated).
 */
#define LV_MAX_CTAS 4096
#define LV_SCALE 0.5
#define LV_FLOOR 0.04
#define LV_NOISE_ONE 0.05
#define LV_SD_NONE 0.114
#define SH_FLOOR 0.05

double rf_pffit_level_var(double m, double se)
{
    return LV_SCALE * LV_SCALE * (m * m + se * se) + LV_FLOOR * LV_FLOOR;
}

double rf_pffit_shrink(int m, const double *noise, double level_var)
{
    double r2 = 0;
    for (int j = 1; j < m; j++)
        r2 += (noise[j] * noise[j] + SH_FLOOR * SH_FLOOR) / (m - 1);
    return rf_extrap_shrink_prior(RF_EXTRAP_PRIOR_CORR, level_var + r2);
}

/* The population model's IPC at baseline window pt (measured length
 * cycles): the CTAs from its warming on, as many as it can start (the
 * resident ones and those started in the warm-up and window at the
 * estimated turnaround, with a margin; calibrate/calibrate.c window_ctas). */
static int base_window_model(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                             const rf_plan *plan, const rf_plan_point *pt, uint64_t cycles,
                             uint64_t seed, const rf_ctaset *walked, const rf_ipc_params *p,
                             double *ipc, rf_err *err)
{
    long total = rf_kernel_ctas(k);
    long first = (long)pt->skip_ctas - (long)pt->warm_ctas;
    int res = plan->resident > 0 ? plan->resident : 1;
    double waves = (double)total / res;
    double per_wave = waves > 0 ? plan->full_cycles / waves : plan->full_cycles;
    double span = (double)(pt->warmup + cycles);
    double n = (double)pt->warm_ctas + res * (2.0 + (per_wave > 0 ? span / per_wave : 1.0)) + 8;
    if (n > LV_MAX_CTAS)
        n = LV_MAX_CTAS;
    if (n > (double)(total - first))
        n = (double)(total - first);
    rf_ctaset *cs = NULL;
    int rc = rf_kchar_ctaset_reuse(&walked, walked ? 1 : 0, gpu, k->func, &k->profile,
                                   kc->warps_per_cta, first, (int)n, rf_kernel_sms(k), seed, &cs,
                                   err);
    if (!rc)
        rc = rf_calib_window_ipc(gpu, &pt->design, k, kc, cs, p, pt->skip_ctas, pt->warm_ctas,
                                 pt->warmup, cycles, ipc, err);
    rf_kchar_ctaset_free(cs);
    return rc;
}

int rf_pffit_window_level(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                          const rf_plan *plan, const rf_pffit_win w[RF_PLAN_MAX],
                          uint64_t seed, rf_calib *cal, rf_pffit_wrep *rep, rf_err *err)
{
    return rf_pffit_window_level_from(gpu, k, kc, plan, w, seed, NULL, cal, rep, err);
}

int rf_pffit_window_level_from(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                               const rf_plan *plan, const rf_pffit_win w[RF_PLAN_MAX],
                               uint64_t seed, const rf_ctaset *walked, rf_calib *cal,
                               rf_pffit_wrep *rep, rf_err *err)
{
    cal->shrink = 1.0;
    cal->level_apart = false;
    cal->level_shrink = 1.0;
    rep->lv_mean = rep->lv_noise = rep->corr_rms = 0;
    if (plan->n <= 0) {
        /* No window checks the level: not applied (level 1), the
         * population level's rms error LV_SD_NONE in the interval. */
        cal->level_var = LV_SD_NONE * LV_SD_NONE;
        cal->level = 1.0;
        return RF_OK;
    }
    int per = plan->ndesign + 1, npos = plan->n / per;
    double d[RF_PLAN_PF_POS], m = 0, ss = 0;
    for (int g = 0; g < npos; g++) {
        const rf_plan_point *pt = &plan->pt[g * per];
        double mod = 0;
        int rc = base_window_model(gpu, k, kc, plan, pt, w[g * per].cycles, seed, walked,
                                   &cal->params, &mod, err);
        if (rc)
            return rc;
        if (!(mod > 0))
            return rf_err_set(err, RF_EFIT, NULL, 0, 0, k->name,
                              "the population model gives no IPC at window '%s'", pt->label);
        rep->base_model[g] = mod;
        d[g] = log(w[g * per].ipc / mod);
        m += d[g] / npos;
    }
    for (int g = 0; g < npos; g++)
        ss += (d[g] - m) * (d[g] - m);
    double se = npos > 1 ? sqrt(ss / (npos - 1) / npos) : LV_NOISE_ONE;
    cal->level_var = rf_pffit_level_var(m, se);
    rep->lv_mean = m;
    rep->lv_noise = se;
    /* The corrections at the windows' designs beside the level, whole
     * kernel on one SM. */
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    double c[RF_PLAN_PF_PTS], c2 = 0;
    for (int j = 0; j < per; j++) {
        rf_estimate ec, eu;
        rf_pf_kernel pk;
        int rc = rf_extrap_pf_kernel(gpu, &plan->pt[j].design, kc, &shape, &pk, err);
        if (!rc)
            rc = rf_extrap_estimate_pk(gpu, &plan->pt[j].design, kc, &shape, cal, &pk, &ec, err);
        if (!rc)
            rc = rf_extrap_estimate_pk(gpu, &plan->pt[j].design, kc, &shape, NULL, &pk, &eu, err);
        if (rc)
            return rc;
        c[j] = log(ec.ipc / eu.ipc) - log(cal->level);
        c2 += c[j] * c[j] / per;
    }
    rep->corr_rms = sqrt(c2);
    double rn[RF_PLAN_PF_PTS];
    for (int j = 0; j < per; j++)
        rn[j] = npos > 1 ? rep->noise[j] : sqrt(LV_NOISE_ONE * LV_NOISE_ONE + WIN_FLOOR * WIN_FLOOR);
    cal->shrink = rf_pffit_shrink(per, rn, 0);
    cal->level_apart = true;
    cal->level_shrink = 0.0;    /* the level is not applied (weights, above) */
    return RF_OK;
}
