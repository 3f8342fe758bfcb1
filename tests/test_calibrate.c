/* test_calibrate.c - the sampling plan, a calibration against the sampler
 * on a bundled kernel (small budget), the record written and read back, and
 * calibrated estimates with prediction intervals (calibrate/). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/record.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"

typedef struct fix {
    rf_gpu gpu;
    rf_kernel *k;
    rf_ipc_kernel kc;
} fix;

static int setup(void **state)
{
    fix *f = calloc(1, sizeof *f);
    rf_err err;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    if (!f || rf_gpu_load("fermi-gtx480", &f->gpu, NULL, &err)
        || rf_kernel_load("inputs/kernels/hotspot.spec", &ko, &f->k, &err)
        || rf_kchar_compute(&f->gpu, f->k, &f->kc, &err))
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fix *f = *state;
    rf_kernel_destroy(f->k);
    free(f);
    return 0;
}

static void plan_spends_the_budget(void **state)
{
    fix *f = *state;
    rf_plan pl;
    rf_err err;
    assert_int_equal(rf_plan_make(&f->gpu, f->k, &f->kc, 40000, &pl, &err), RF_OK);
    assert_int_equal(pl.n, 4);
    assert_float_equal(pl.budget, 40000, 0);
    /* Four samples of 10000 cycles, warm-up included. */
    assert_float_equal(pl.cost, 40000, 4);
    assert_true(pl.full_cycles > 0);
    /* Four grid positions stratifying hotspot's 32 x 32 = 1,024 CTAs, the
     * middles of four strata: (j + 1/2) x 1024 / 4 = 128, 384, 640, 896
     * (4 resident CTAs: 26 registers x 256 threads = 6,656 of Fermi's
     * 32,768). */
    assert_int_equal(pl.resident, 4);
    assert_int_equal((int)pl.pt[0].skip_ctas, 128);
    assert_int_equal((int)pl.pt[1].skip_ctas, 384);
    assert_int_equal((int)pl.pt[2].skip_ctas, 640);
    assert_int_equal((int)pl.pt[3].skip_ctas, 896);
    /* Designs: 16 banks, 16 / 4 banks, stealing on 16 / 2, 16 / 2 collectors. */
    assert_int_equal(pl.pt[0].design.banks, 16);
    assert_int_equal(pl.pt[1].design.banks, 4);
    assert_int_equal(pl.pt[2].design.kind, RF_DESIGN_STEALING);
    assert_int_equal(pl.pt[2].design.banks, 8);
    assert_true(pl.pt[2].design.read_steal && pl.pt[2].design.write_steal);
    assert_int_equal(pl.pt[3].design.kind, RF_DESIGN_BASELINE);
    assert_int_equal(pl.pt[3].design.collectors, 8);
    /* Default budget: 4.25% of the estimated full run. */
    assert_int_equal(rf_plan_make(&f->gpu, f->k, &f->kc, 0, &pl, &err), RF_OK);
    assert_float_equal(pl.budget, 0.0425 * pl.full_cycles, 1e-6 * pl.full_cycles);
}

static void calibrates_and_round_trips(void **state)
{
    fix *f = *state;
    rf_calib cal;
    static rf_calib_report rep;
    rf_err err;
    rf_calib_opts co = {40000, 1, NULL, true, NULL, 1};     /* cold windows */
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", f->k, &f->kc, &co, &cal, &rep, &err),
                     RF_OK);
    assert_int_equal(rep.n, 4);
    assert_true(rep.sim_cycles <= 40000 + 8);
    assert_int_equal(cal.samples, 4);
    /* gto_share, conflict_scale, steal_cand, dead_reg and coll_base (the
     * collector hold joined the fit with the per-class collector caps; the
     * dead-register chance with the write-stealing form of conflict.c). */
    assert_int_equal(cal.nfit, 5);
    for (int j = 0; j < cal.nfit; j++) {
        const rf_mparam *mp = &rf_ipc_mparams[cal.fit_idx[j]];
        double v = rf_mparam_get(mp, &cal.params);
        assert_true(v >= mp->lo && v <= mp->hi);
        assert_true(cal.cov[j][j] >= 0);
    }
    for (int i = 0; i < rep.n; i++) {
        assert_true(rep.s[i].ipc > 0);
        /* The fit explains each window within 15%. */
        assert_true(fabs(rep.s[i].ipc_fit - rep.s[i].ipc) < 0.15 * rep.s[i].ipc);
    }
    assert_true(cal.level > 0.5 && cal.level < 2.0);
    /* The level is the run's own CTAs: hotspot's 1,024 (at most
     * LEVEL_MAX_CTAS = 4,096, 256 waves of 4: not a short run) in one
     * population-model run. */
    assert_int_equal(rep.level_draws, 1);
    assert_int_equal(rep.level_ctas, 1024);
    assert_true(cal.has_meas && cal.meas_reads > 0);
    /* The baseline windows' share of warps not exited (the sampler's mean
     * resident warps over the slots of the resident CTAs). */
    assert_true(cal.meas_live > 0 && cal.meas_live <= 1);

    char path[] = "/tmp/rfkit-test-calXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(rf_record_save(path, &cal, &err), RF_OK);
    rf_calib back;
    assert_int_equal(rf_record_load_kernel(path, "fermi-gtx480", f->k, &back, &err), RF_OK);
    assert_true(back.digest == f->k->digest);
    unlink(path);
    assert_int_equal(back.nfit, cal.nfit);
    assert_float_equal(back.level, cal.level, 1e-15);
    assert_float_equal(back.params.gto_share, cal.params.gto_share, 1e-15);

    /* Calibrated estimate: an interval around the IPC, cycles inside theirs. */
    rf_design d;
    rf_design_init(&d);
    rf_design_set_kind(&d, "stealing", &err);
    d.banks = 8;
    rf_shape sh = {f->k->regs, rf_kernel_threads(f->k), f->k->smem_static + f->k->launch.smem,
                   rf_kernel_ctas(f->k), 1};
    rf_estimate e, u;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, &back, &e, &err), RF_OK);
    assert_true(e.calibrated);
    assert_true(e.ipc_lo < e.ipc && e.ipc < e.ipc_hi);
    assert_true(e.cycles_lo < e.cycles && e.cycles < e.cycles_hi);
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, NULL, &u, &err), RF_OK);
    assert_false(u.calibrated);
    assert_true(isnan(u.ipc_lo) && isnan(u.ipc_hi));
}

/* The banked file's response at the prior parameters is the model's,
 * damped (calibrate/extrapolate.c bank_response): with a record that holds
 * the defaults as fitted values (nfit > 0, shrink 1, level 1: the raw
 * model), the uncalibrated log ratio to the GPU's own 16-bank file is 0.88
 * of the record's, at 4 banks and at 8 collectors; the GPU's own file is
 * not damped (both give the same IPC):
 *     ln(IPC_unc(d) / IPC_unc(16)) = 0.88 ln(IPC_raw(d) / IPC_raw(16)). */
static void bank_response_is_damped(void **state)
{
    fix *f = *state;
    rf_err err;
    rf_calib raw;
    rf_calib_init(&raw, "fermi-gtx480", "hotspot");
    rf_ipc_params_default(&raw.params);
    raw.nfit = 1;
    raw.fit_idx[0] = 0;
    raw.cov[0][0] = 0;
    raw.samples = 1;
    raw.shrink = 1.0;
    raw.level = 1.0;
    rf_shape sh = {f->k->regs, rf_kernel_threads(f->k), f->k->smem_static + f->k->launch.smem,
                   rf_kernel_ctas(f->k), 1};
    rf_design d0;
    rf_design_init(&d0);
    rf_estimate u0, r0;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d0, &f->kc, &sh, NULL, &u0, &err), RF_OK);
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d0, &f->kc, &sh, &raw, &r0, &err), RF_OK);
    assert_float_equal(u0.ipc, r0.ipc, 1e-12 * r0.ipc);
    for (int i = 0; i < 2; i++) {
        rf_design d;
        rf_design_init(&d);
        if (i == 0)
            d.banks = 4;
        else
            d.collectors = 8;
        rf_estimate u, r;
        assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, NULL, &u, &err), RF_OK);
        assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, &raw, &r, &err), RF_OK);
        assert_true(r.ipc < 0.97 * r0.ipc);         /* a response worth damping */
        assert_float_equal(log(u.ipc / u0.ipc), 0.88 * log(r.ipc / r0.ipc), 1e-9);
        assert_float_equal(u.cycles * u.ipc, r.cycles * r.ipc, 1e-6 * r.cycles * r.ipc);
    }
}

/* calibrate --design finereg's plan: two FineReg windows after the
 * ordinary four, the same budget shared six ways. */
/* rf_calib_run_walked with the characterisation's walk (the run's first
 * CTAs under seed 1: the windows' CTAs and the level's first draw among
 * them) gives rf_calib_run's record to the bit. */
static void walked_calibration_is_the_same(void **state)
{
    fix *f = *state;
    static rf_calib_report rep;
    rf_calib a, b;
    rf_err err;
    rf_ipc_kernel kc;
    rf_ctaset *walked = NULL;
    assert_int_equal(rf_kchar_compute_walked(&f->gpu, f->k, &kc, &walked, &err), RF_OK);
    assert_memory_equal(&kc, &f->kc, sizeof kc);
    assert_non_null(walked);
    assert_int_equal(walked->nctas, rf_kernel_ctas(f->k));
    rf_calib_opts co = {40000, 1, NULL, false, NULL, 1};
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", f->k, &f->kc, &co, &a, &rep, &err),
                     RF_OK);
    assert_int_equal(rf_calib_run_walked(&f->gpu, "fermi-gtx480", f->k, &kc, walked, &co, &b,
                                         &rep, &err),
                     RF_OK);
    assert_true(a.level == b.level);
    assert_true(a.shrink == b.shrink);
    assert_true(a.rms_rel == b.rms_rel);
    assert_memory_equal(&a.params, &b.params, sizeof a.params);
    assert_memory_equal(a.cov, b.cov, sizeof a.cov);
    rf_kchar_ctaset_free(walked);
}

/* Windows of another seed than the run's (the kernel's draws, seed 1):
 * the level still takes the run's CTAs, from the characterisation's walk
 * where it is given (a view of its rows) or walked anew, the same record
 * either way. */
static void level_takes_the_runs_ctas(void **state)
{
    fix *f = *state;
    static rf_calib_report rep;
    rf_calib a, b;
    rf_err err;
    rf_ipc_kernel kc;
    rf_ctaset *walked = NULL;
    assert_int_equal(rf_kchar_compute_walked(&f->gpu, f->k, &kc, &walked, &err), RF_OK);
    assert_int_equal((int)walked->seed, 1);
    rf_calib_opts co = {40000, 2, NULL, false, NULL, 1};
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", f->k, &f->kc, &co, &a, &rep, &err),
                     RF_OK);
    assert_int_equal(rep.level_draws, 1);
    assert_int_equal(rep.level_ctas, 1024);
    assert_int_equal(rf_calib_run_walked(&f->gpu, "fermi-gtx480", f->k, &kc, walked, &co, &b,
                                         &rep, &err),
                     RF_OK);
    assert_true(a.level == b.level);
    assert_memory_equal(&a.params, &b.params, sizeof a.params);
    rf_kchar_ctaset_free(walked);
}

/* Options without a seed sample the kernel's own run (rf_profile.seed):
 * on a kernel loaded as run 2 they give the record of seed 2's windows. */
static void windows_default_to_the_runs_seed(void **state)
{
    fix *f = *state;
    static rf_calib_report rep;
    rf_calib a, b;
    rf_err err;
    uint64_t was = f->k->profile.seed;
    f->k->profile.seed = 2;
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&f->gpu, f->k, &kc, &err), RF_OK);
    rf_calib_opts c0 = {40000, 0, NULL, false, NULL, 1}, c2 = {40000, 2, NULL, false, NULL, 1};
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", f->k, &kc, &c0, &a, &rep, &err), RF_OK);
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", f->k, &kc, &c2, &b, &rep, &err), RF_OK);
    f->k->profile.seed = was;
    assert_true(a.level == b.level);
    assert_true(a.rms_rel == b.rms_rel);
    assert_memory_equal(&a.params, &b.params, sizeof a.params);
}

static void plan_adds_design_windows(void **state)
{
    fix *f = *state;
    rf_plan pl;
    rf_err err;
    rf_design d;
    rf_design_init(&d);
    assert_int_equal(rf_design_set_kind(&d, "finereg", &err), RF_OK);
    assert_int_equal(rf_plan_make_design(&f->gpu, f->k, &f->kc, 60000, &d, &pl, &err), RF_OK);
    assert_int_equal(pl.n, 6);
    assert_int_equal(pl.ndesign, 2);
    /* Six samples of 60000 / 6 = 10000 cycles, warm-up included. */
    assert_float_equal(pl.cost, 60000, 6);
    for (int i = 0; i < 4; i++)
        assert_true(pl.pt[i].design.kind != RF_DESIGN_FINEREG);
    /* The ordinary points keep their positions (128, 384, 640, 896, as
     * plan_spends_the_budget); the design's two sit at the level's (128)
     * and the stealing window's (640). */
    assert_int_equal((int)pl.pt[0].skip_ctas, 128);
    assert_int_equal((int)pl.pt[3].skip_ctas, 896);
    assert_int_equal(pl.pt[4].design.kind, RF_DESIGN_FINEREG);
    assert_int_equal(pl.pt[5].design.kind, RF_DESIGN_FINEREG);
    assert_int_equal((int)pl.pt[4].skip_ctas, 128);
    assert_int_equal((int)pl.pt[5].skip_ctas, 640);
    /* Without a design: the ordinary plan, no design windows. */
    assert_int_equal(rf_plan_make_design(&f->gpu, f->k, &f->kc, 40000, NULL, &pl, &err), RF_OK);
    assert_int_equal(pl.n, 4);
    assert_int_equal(pl.ndesign, 0);
}

/* The window model of FineReg at sw_sync = s for the plan's two design
 * windows (their CTAs walked with seed 1). */
static void finereg_windows(const fix *f, rf_plan *pl, rf_ctaset *cs[2], rf_calib_swwin w[2])
{
    rf_err err;
    rf_design d;
    rf_design_init(&d);
    assert_int_equal(rf_design_set_kind(&d, "finereg", &err), RF_OK);
    assert_int_equal(rf_plan_make_design(&f->gpu, f->k, &f->kc, 60000, &d, pl, &err), RF_OK);
    rf_plan_warm(&f->gpu, pl);
    for (int j = 0; j < 2; j++) {
        const rf_plan_point *pt = &pl->pt[4 + j];
        long first = (long)pt->skip_ctas - (long)pt->warm_ctas;
        assert_int_equal(rf_kchar_ctaset(&f->gpu, f->k->func, &f->k->profile, f->kc.warps_per_cta,
                                         first, 256, 1, 1, &cs[j], &err),
                         RF_OK);
        w[j] = (rf_calib_swwin){pt, cs[j], (double)pt->cycles, 0};
    }
}

static double window_at(const fix *f, const rf_calib_swwin *w, double sync, double cost)
{
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.sw.sync = sync;
    p.sw.cost_scale = cost;
    rf_err err;
    double v = 0;
    assert_int_equal(rf_calib_window_ipc(&f->gpu, &w->pt->design, f->k, &f->kc, w->cs, &p,
                                         w->pt->skip_ctas, w->pt->warm_ctas, w->pt->warmup,
                                         (uint64_t)w->cycles, &v, &err),
                     RF_OK);
    return v;
}

/* The fit of the switching parameters recovers sw_sync from "windows"
 * whose IPC the window model itself gives at sw_sync = 0.3, sw_cost held
 * at 1 (prior width 1e-6; sw_sync and sw_cost move two windows of one
 * design almost alike, so both free is a valley, not a point).  FineReg on
 * maxwell-gtx980 with spmv, where its windows move with sw_sync (about
 * 0.5 IPC per unit).  With a negligible window noise (1e-4) the prior does
 * not pull; at the measured noise (6%) the fit lands where the linearised
 * shrinkage toward the prior (0.75 +- 0.5) puts it. */
static void fit_sw_recovers_sync(void **state)
{
    (void)state;
    fix fx, *f = &fx;
    rf_err err;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    assert_int_equal(rf_gpu_load("maxwell-gtx980", &f->gpu, NULL, &err), RF_OK);
    assert_int_equal(rf_kernel_load("inputs/kernels/spmv.spec", &ko, &f->k, &err), RF_OK);
    assert_int_equal(rf_kchar_compute(&f->gpu, f->k, &f->kc, &err), RF_OK);
    rf_plan pl;
    rf_ctaset *cs[2];
    rf_calib_swwin w[2];
    finereg_windows(f, &pl, cs, w);
    const double truth = 0.3, h = 0.01;
    double g[2];
    for (int j = 0; j < 2; j++) {
        w[j].ipc = window_at(f, &w[j], truth, 1.0);
        g[j] = (window_at(f, &w[j], truth + h, 1.0) - w[j].ipc) / h;
        assert_true(w[j].ipc > 0);
        /* The windows see sw_sync: over 0.1 IPC per unit. */
        assert_true(g[j] > 0.1);
    }
    const double width[2] = {0.5, 1e-6};
    rf_ipc_params p;
    double cov[2][2];
    rf_ipc_params_default(&p);
    assert_int_equal(rf_calib_fit_sw(&f->gpu, f->k, &f->kc, w, 2, 1.0, 1e-4, width, &p, cov, &err),
                     RF_OK);
    assert_float_equal(p.sw.sync, truth, 0.005);
    assert_float_equal(p.sw.cost_scale, 1.0, 1e-5);
    assert_true(cov[0][0] > 0 && cov[0][0] < 0.01 * 0.01);

    /* At 6% noise: a = sum (g_i / (0.06 y_i))^2 (the windows' weight on
     * sw_sync), and the posterior mean of one linear parameter,
     *   sync = (0.75 / 0.5^2 + a 0.3) / (1 / 0.5^2 + a). */
    double a = 0;
    for (int j = 0; j < 2; j++)
        a += (g[j] / (0.06 * w[j].ipc)) * (g[j] / (0.06 * w[j].ipc));
    double expect = (0.75 / 0.25 + a * truth) / (1 / 0.25 + a);
    rf_ipc_params_default(&p);
    assert_int_equal(rf_calib_fit_sw(&f->gpu, f->k, &f->kc, w, 2, 1.0, 0.06, width, &p, cov, &err),
                     RF_OK);
    assert_true(p.sw.sync > truth && p.sw.sync < 0.75);
    assert_float_equal(p.sw.sync, expect, 0.02);
    /* The posterior variance: 1 / (1 / 0.5^2 + a). */
    assert_float_equal(cov[0][0], 1 / (1 / 0.25 + a), 0.3 / (1 / 0.25 + a));
    /* Windows that retired nothing are left out: none left, no change. */
    w[0].ipc = w[1].ipc = 0;
    rf_ipc_params_default(&p);
    assert_int_equal(rf_calib_fit_sw(&f->gpu, f->k, &f->kc, w, 2, 1.0, 0.06, width, &p, cov, &err),
                     RF_OK);
    assert_float_equal(p.sw.sync, 0.75, 0);
    assert_float_equal(cov[0][0], 0, 0);
    rf_kchar_ctaset_free(cs[0]);
    rf_kchar_ctaset_free(cs[1]);
    rf_kernel_destroy(f->k);
}

/* A calibration with FineReg windows: six windows within the budget, the
 * five ordinary parameters and then sw_sync and sw_cost fitted, their
 * covariance a block of its own; the record keeps them and FineReg's
 * estimate uses them.  Sharing (no free parameter) is refused. */
static void design_windows_fit_sw_only(void **state)
{
    fix *f = *state;
    static rf_calib_report rep;
    rf_calib cal;
    rf_err err;
    rf_design d;
    rf_design_init(&d);
    assert_int_equal(rf_design_set_kind(&d, "finereg", &err), RF_OK);
    rf_calib_opts co = {60000, 1, NULL, false, &d, 1};
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", f->k, &f->kc, &co, &cal, &rep, &err),
                     RF_OK);
    assert_int_equal(rep.n, 6);
    assert_true(rep.sim_cycles <= 60000 + 12);
    /* Five ordinary parameters, then sw_sync and sw_cost. */
    assert_int_equal(cal.nfit, 7);
    assert_string_equal(rf_ipc_mparams[cal.fit_idx[5]].name, "sw_sync");
    assert_string_equal(rf_ipc_mparams[cal.fit_idx[6]].name, "sw_cost");
    assert_float_equal(cal.cov[0][5], 0, 0);
    assert_true(cal.cov[5][5] > 0 && cal.cov[6][6] > 0);
    for (int i = 4; i < 6; i++)
        assert_true(rep.s[i].ipc > 0 && rep.s[i].ipc_fit > 0);
    /* Saved and read back, the estimate of FineReg uses the fitted values. */
    char path[] = "/tmp/rfkit-test-calswXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(rf_record_save(path, &cal, &err), RF_OK);
    rf_calib back;
    assert_int_equal(rf_record_load_kernel(path, "fermi-gtx480", f->k, &back, &err), RF_OK);
    unlink(path);
    assert_int_equal(back.nfit, 7);
    assert_float_equal(back.params.sw.sync, cal.params.sw.sync, 1e-15);
    assert_float_equal(back.params.sw.cost_scale, cal.params.sw.cost_scale, 1e-15);
    rf_shape sh = {f->k->regs, rf_kernel_threads(f->k), f->k->smem_static + f->k->launch.smem,
                   rf_kernel_ctas(f->k), 1};
    rf_estimate e, e0;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, &back, &e, &err), RF_OK);
    rf_calib prior = back;
    prior.params.sw.sync = 0.75;
    prior.params.sw.cost_scale = 1.0;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, &prior, &e0, &err), RF_OK);
    assert_true(e.calibrated && e.ipc_lo < e.ipc && e.ipc < e.ipc_hi);
    if (fabs(back.params.sw.sync - 0.75) > 1e-3 || fabs(back.params.sw.cost_scale - 1) > 1e-3)
        assert_true(e.ipc != e0.ipc);

    /* VT's windows run but fit nothing kept; sharing is refused. */
    assert_false(rf_calib_sw_fitted(RF_DESIGN_VT));
    assert_true(rf_calib_sw_fitted(RF_DESIGN_FINEREG));
    rf_design_set_kind(&d, "sharing", &err);
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", f->k, &f->kc, &co, &cal, &rep, &err),
                     RF_EUSAGE);
    assert_non_null(strstr(err.msg, "no free parameter"));
}

/* rf_extrap_hirf_ratio by hand: w_r = 0.5, d = -0.16 (concat window) and
 * -0.20 (TEA window), N = 0.025, so (N w_r)^2 = 0.0125^2 = 0.00015625:
 *   concat, base or Worst assignment: corr = 0.5 (-0.16) = -0.08,
 *     var = (0.5 (-0.16))^2 + 0.00015625 = 0.0064 + 0.00015625 = 0.00655625
 *   TEA: corr = -0.10, var = 0.01 + 0.00015625 = 0.01015625
 *   fully associative, the mean d = -0.18: corr = -0.09,
 *     var = 0.0081 + 0.00015625 = 0.00825625
 * A fully associative window of its own, d = -0.30, takes its place:
 *   corr = -0.15, var = 0.0225 + 0.00015625 = 0.02265625.
 * With the concat window alone: concat as above, TEA and fully associative
 * none; no weight (an older record), no record or a baseline design: none. */
static void hirf_ratio_by_hand(void **state)
{
    (void)state;
    rf_calib c;
    rf_calib_init(&c, "volta-hirf", "k");
    c.hirf_ratio_w = 0.5;
    c.hirf_ratio_d[RF_RC_CONCAT] = -0.16;
    c.hirf_ratio_d[RF_RC_TEA] = -0.20;
    c.hirf_ratio_has[RF_RC_CONCAT] = c.hirf_ratio_has[RF_RC_TEA] = true;
    rf_design d;
    rf_design_init(&d);
    double corr, var;
    assert_false(rf_extrap_hirf_ratio(&c, &d, &corr, &var));
    assert_true(corr == 0 && var == 0);
    d.kind = RF_DESIGN_HIRF;
    const struct {
        int index, assign;
        double corr, var;
    } want[] = {
        {RF_RC_CONCAT, RF_ASSIGN_BASE, -0.08, 0.00655625},
        {RF_RC_CONCAT, RF_ASSIGN_WORST, -0.08, 0.00655625},
        {RF_RC_TEA, RF_ASSIGN_BASE, -0.10, 0.01015625},
        {RF_RC_FULL, RF_ASSIGN_BASE, -0.09, 0.00825625},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        d.index = want[i].index;
        d.assign = want[i].assign;
        assert_true(rf_extrap_hirf_ratio(&c, &d, &corr, &var));
        assert_float_equal(corr, want[i].corr, 1e-15);
        assert_float_equal(var, want[i].var, 1e-15);
    }
    c.hirf_ratio_d[RF_RC_FULL] = -0.30;
    c.hirf_ratio_has[RF_RC_FULL] = true;
    d.index = RF_RC_FULL;
    assert_true(rf_extrap_hirf_ratio(&c, &d, &corr, &var));
    assert_float_equal(corr, -0.15, 1e-15);
    assert_float_equal(var, 0.02265625, 1e-15);
    c.hirf_ratio_has[RF_RC_FULL] = false;
    c.hirf_ratio_has[RF_RC_TEA] = false;
    d.index = RF_RC_CONCAT;
    assert_true(rf_extrap_hirf_ratio(&c, &d, &corr, &var));
    assert_float_equal(corr, -0.08, 1e-15);
    d.index = RF_RC_TEA;
    assert_false(rf_extrap_hirf_ratio(&c, &d, &corr, &var));
    d.index = RF_RC_FULL;
    assert_false(rf_extrap_hirf_ratio(&c, &d, &corr, &var));
    d.index = RF_RC_CONCAT;
    c.hirf_ratio_w = 0;
    assert_false(rf_extrap_hirf_ratio(&c, &d, &corr, &var));
    assert_false(rf_extrap_hirf_ratio(NULL, &d, &corr, &var));
}

/* HI-RF plans (calibrate/calibrate.c, rf_calib_hirf_window_check and
 * hirf_ratio_check): transpose on volta-hirf, whole grid on one SM, at a
 * given budget of 32,471 cycles (a given budget keeps all seven points,
 * where the default one settles transpose on two, calibrate/plan.c), and
 * reduce at the default budget.  By hand from the report: the design
 * response's disagreement D2 = mean_h d_h^2 over the three HI-RF windows,
 * d_h = ln(y_h / y_b) - ln(IPC(d_h) / IPC(baseline)) (y_b the baseline
 * window at the same CTAs, the IPCs the calibrated whole-kernel
 * estimates); the record's level_var = D2 less the windows' noise on the
 * ratio.  transpose's seven windows read the lock-stepped CTAs' issue
 * phase, far above the model; the fit takes gto_share to its bound 1 and
 * leaves a mean log residual r = mean_i ln(y_i / f_i), so its weight is
 *   w = D^2 / (D^2 + v + r^2),  D = PRIOR_CORR = 0.07
 * (v the windows' noise on the level, rep->level_noise).  A kernel whose
 * fit stays inside its bounds (reduce) keeps w = D^2 / (D^2 + v). */
static double ratio_disagreement(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                                 const rf_calib_report *rep, const rf_calib *cal)
{
    rf_calib c = *cal;
    c.nfit = 0;
    c.shrink = 1.0;
    c.level_var = 0;
    c.hirf_ratio_w = 0;   /* the estimates before the ratio correction */
    rf_shape sh = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                   rf_kernel_ctas(k), 1};
    rf_err err;
    rf_estimate e0, e;
    rf_design d0;
    rf_design_init(&d0);
    assert_int_equal(rf_extrap_estimate(gpu, &d0, kc, &sh, &c, &e0, &err), RF_OK);
    /* The level window (baseline, the GPU's banks) is sample 0; the
     * three HI-RF windows run its CTAs. */
    assert_int_equal(rep->plan.pt[0].design.kind, RF_DESIGN_BASELINE);
    double d2 = 0;
    int n = 0;
    for (int i = 0; i < rep->n; i++) {
        if (rep->plan.pt[i].design.kind != RF_DESIGN_HIRF)
            continue;
        assert_int_equal(rep->plan.pt[i].skip_ctas, rep->plan.pt[0].skip_ctas);
        assert_int_equal(rf_extrap_estimate(gpu, &rep->plan.pt[i].design, kc, &sh, &c, &e, &err),
                         RF_OK);
        double d = log(rep->s[i].ipc / rep->s[0].ipc) - log(e.ipc / e0.ipc);
        d2 += d * d;
        n++;
    }
    assert_int_equal(n, 3);
    return d2 / n;
}

/* The ratio correction of a real record (calibrate/calibrate.c
 * hirf_ratio_check, calibrate/extrapolate.c 3. and 4.), by hand from the
 * report: for each HI-RF window h (index concat, TEA or fully associative)
 *     d = ln(y_h / y_b) - ln(IPC_w(h) / IPC_w(baseline)),
 * IPC_w the record's shrunk estimates without the correction (weight 0),
 * and w_r = D_r^2 / (D_r^2 + N^2) = 0.0274^2 / (0.0274^2 + 0.025^2)
 * = 0.00075076 / 0.00137576 = 0.545705... .  A HI-RF estimate of the
 * window's index (any assignment) is the uncorrected one times
 * exp(w_r d); its 95% interval's relative half-width h = 1.96 sqrt(v)
 * has v = v0 - level_var + ((1 - w_r) d)^2 + (w_r 0.025)^2, v0 the
 * uncorrected one's.  The baseline's estimate does not move. */
static void check_ratio_correction(const rf_gpu *gpu, const rf_kernel *k,
                                   const rf_ipc_kernel *kc, const rf_calib_report *rep,
                                   const rf_calib *cal)
{
    double wr = 0.0274 * 0.0274 / (0.0274 * 0.0274 + 0.025 * 0.025);
    assert_float_equal(cal->hirf_ratio_w, wr, 1e-12);
    assert_float_equal(wr, 0.545705, 1e-6);
    rf_calib c0 = *cal;
    c0.hirf_ratio_w = 0;
    rf_shape sh = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                   rf_kernel_ctas(k), 1};
    rf_err err;
    rf_estimate b0, b1, e0, e1;
    rf_design d0;
    rf_design_init(&d0);
    assert_int_equal(rf_extrap_estimate(gpu, &d0, kc, &sh, &c0, &b0, &err), RF_OK);
    assert_int_equal(rf_extrap_estimate(gpu, &d0, kc, &sh, cal, &b1, &err), RF_OK);
    assert_true(b1.ipc == b0.ipc && b1.ipc_lo == b0.ipc_lo && b1.ipc_hi == b0.ipc_hi);
    for (int i = 0; i < rep->n; i++) {
        if (rep->plan.pt[i].design.kind != RF_DESIGN_HIRF)
            continue;
        rf_design dh = rep->plan.pt[i].design;
        int ix = dh.index;
        assert_true(cal->hirf_ratio_has[ix]);
        assert_int_equal(rf_extrap_estimate(gpu, &dh, kc, &sh, &c0, &e0, &err), RF_OK);
        double d = log(rep->s[i].ipc / rep->s[0].ipc) - log(e0.ipc / b0.ipc);
        assert_float_equal(cal->hirf_ratio_d[ix], d, 1e-12);
        /* The window's design and, for concat, another assignment. */
        for (int a = 0; a < (ix == RF_RC_CONCAT ? 2 : 1); a++) {
            if (a == 1) {
                dh.assign = RF_ASSIGN_CAC;
                assert_int_equal(rf_extrap_estimate(gpu, &dh, kc, &sh, &c0, &e0, &err), RF_OK);
            }
            assert_int_equal(rf_extrap_estimate(gpu, &dh, kc, &sh, cal, &e1, &err), RF_OK);
            assert_float_equal(e1.ipc, e0.ipc * exp(wr * d), 1e-9 * e0.ipc);
            double h0 = (e0.ipc_hi - e0.ipc) / e0.ipc / 1.959963984540054;
            double h1 = (e1.ipc_hi - e1.ipc) / e1.ipc / 1.959963984540054;
            double gave = (1 - wr) * d, noise = wr * 0.025;
            assert_float_equal(h1 * h1, h0 * h0 - cal->level_var + gave * gave + noise * noise,
                               1e-9);
        }
    }
}

static void hirf_windows_checked(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    assert_int_equal(rf_gpu_load("volta-hirf", &gpu, NULL, &err), RF_OK);
    const char *paths[2] = {"inputs/validation/transpose.spec", "inputs/kernels/reduce.spec"};
    for (int q = 0; q < 2; q++) {
        rf_kernel *k = NULL;
        rf_ipc_kernel kc;
        assert_int_equal(rf_kernel_load(paths[q], &ko, &k, &err), RF_OK);
        assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), RF_OK);
        rf_calib cal;
        rf_calib_report *rep = malloc(sizeof *rep);
        assert_non_null(rep);
        rf_calib_opts co = {q == 0 ? 32471 : 0, 1, NULL, false, NULL, 1};
        assert_int_equal(rf_calib_run(&gpu, "volta-hirf", k, &kc, &co, &cal, rep, &err), RF_OK);
        /* Four ordinary windows and the three HI-RF ones (concat, TEA,
         * fully associative), each with its ratio disagreement. */
        int nhirf = 0;
        for (int i = 0; i < rep->n; i++)
            nhirf += rep->plan.pt[i].design.kind == RF_DESIGN_HIRF;
        assert_int_equal(rep->n, 7);
        assert_int_equal(nhirf, 3);
        for (int ix = 0; ix < RF_NRCINDEX; ix++)
            assert_true(cal.hirf_ratio_has[ix]);
        double D2 = ratio_disagreement(&gpu, k, &kc, rep, &cal);
        assert_true(D2 > 0);
        /* The disagreement less the windows' noise on the ratio,
         * RF_EXTRAP_HIRF_RATIO_NOISE^2 = 0.025^2 = 0.000625. */
        assert_float_equal(cal.level_var, fmax(0.0, D2 - 0.000625), 1e-12);
        if (q == 0) {
            assert_float_equal(cal.params.gto_share, 1.0, 1e-3);
            double r = 0;
            for (int i = 0; i < rep->n; i++)
                r += log(rep->s[i].ipc / rep->s[i].ipc_fit) / rep->n;
            assert_true(r > 0.1);
            assert_float_equal(rep->hirf_bias, r, 1e-12);
            assert_float_equal(cal.shrink, 0.0049 / (0.0049 + rep->level_noise + r * r), 1e-12);
        } else {
            assert_true(cal.params.gto_share < 0.99);
            assert_float_equal(rep->hirf_bias, 0, 0);
            assert_float_equal(cal.shrink, 0.0049 / (0.0049 + rep->level_noise), 1e-12);
        }
        check_ratio_correction(&gpu, k, &kc, rep, &cal);
        free(rep);
        rf_kernel_destroy(k);
    }
}

/* The window check by hand: three ordinary windows read 1.10, 0.95 and
 * 1.20 against fits of 1.00, 1.00 and 1.00 (a HI-RF window after them
 * does not count), so r = (ln 1.1 + ln 0.95 + ln 1.2) / 3 = (0.0953102 -
 * 0.0512933 + 0.1823216) / 3 = 0.0754462.  At a bound, with v = 0.0004:
 * w = 0.0049 / (0.0049 + 0.0004 + 0.0754462^2) = 0.0049 / 0.0109921 =
 * 0.445774, and the bias is recorded; inside the bounds nothing moves. */
static void hirf_window_check_by_hand(void **state)
{
    (void)state;
    rf_calib_report *rep = calloc(1, sizeof *rep);
    assert_non_null(rep);
    const double y[4] = {1.10, 0.95, 1.20, 0.5};
    for (int i = 0; i < 4; i++) {
        rep->s[i].ipc = y[i];
        rep->s[i].ipc_fit = 1.0;
    }
    rep->n = 4;
    rf_calib cal;
    memset(&cal, 0, sizeof cal);
    cal.shrink = 0.9;
    rf_calib_hirf_window_check(rep, 3, false, 0.0004, &cal);
    assert_float_equal(cal.shrink, 0.9, 0);
    assert_float_equal(rep->hirf_bias, 0, 0);
    rf_calib_hirf_window_check(rep, 3, true, 0.0004, &cal);
    double r = (log(1.1) + log(0.95) + log(1.2)) / 3;
    assert_float_equal(r, 0.0754462, 1e-7);
    assert_float_equal(rep->hirf_bias, r, 1e-15);
    assert_float_equal(cal.shrink, 0.0049 / (0.0049 + 0.0004 + r * r), 1e-15);
    assert_float_equal(cal.shrink, 0.445774, 1e-6);
    free(rep);
}

/* The record file rf_record_save writes for cal, read back whole (n bytes). */
static char *record_bytes(const rf_calib *cal, size_t *n)
{
    char path[] = "/tmp/rfkit-test-caljobsXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    rf_err err;
    assert_int_equal(rf_record_save(path, cal, &err), RF_OK);
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    *n = fread(buf, 1, (1 << 16) - 1, fp);
    fclose(fp);
    unlink(path);
    assert_true(*n > 0);
    return buf;
}

/* A short run's level (calibrate/calibrate.c SHORT_LEVEL_WAVES): reduce's
 * default-run share on fermi-gtx480, ceil(512 / 15) = 35 CTAs, 6 resident
 * (256 threads of 1,536): 35 <= 16 x 6 waves and <= RF_IPC_NLONE CTAs, so
 * the level is the fitted rate itself, no population-model draw, while the
 * whole grid on one SM (512 CTAs, 85 waves) takes the population model's. */
static void short_run_level_is_the_rate(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err;
    assert_int_equal(rf_gpu_load("fermi-gtx480", &gpu, NULL, &err), RF_OK);
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    rf_kernel *k;
    assert_int_equal(rf_kernel_load("inputs/kernels/reduce.spec", &ko, &k, &err), RF_OK);
    rf_kernel_spread(k, 15);
    assert_int_equal(rf_kernel_ctas(k), 35);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), RF_OK);
    assert_int_equal(kc.nlone, 35);
    rf_calib cal;
    rf_calib_report *rep = malloc(sizeof *rep);
    assert_non_null(rep);
    /* A budget given: the default budget's windows on this share would
     * weigh under 1/2 and not run (calibrate/calibrate.c, step 0). */
    rf_calib_opts co = {6000, 1, NULL, false, NULL, 1};
    assert_int_equal(rf_calib_run(&gpu, "fermi-gtx480", k, &kc, &co, &cal, rep, &err), RF_OK);
    assert_true(rep->n >= 1);
    assert_true(cal.level == rep->fit.theta[cal.nfit]);
    assert_int_equal(rep->level_draws, 0);
    rf_kernel_destroy(k);

    assert_int_equal(rf_kernel_load("inputs/kernels/reduce.spec", &ko, &k, &err), RF_OK);
    assert_int_equal(rf_kernel_ctas(k), 512);
    assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), RF_OK);
    /* The whole grid's lone times: its last RF_IPC_NLONE CTAs (for the
     * run model's fluid of the tail), the last of them the last critical
     * record (found from the end, so always kept). */
    assert_int_equal(kc.nlone, RF_IPC_NLONE);
    assert_int_equal(kc.crit_pos[kc.ncrit - 1], 511);
    assert_float_equal(kc.lone[RF_IPC_NLONE - 1], kc.crit_cycles[kc.ncrit - 1], 1e-3);
    assert_int_equal(rf_calib_run(&gpu, "fermi-gtx480", k, &kc, &co, &cal, rep, &err), RF_OK);
    assert_true(cal.level != rep->fit.theta[cal.nfit]);
    free(rep);
    rf_kernel_destroy(k);
}

/* The windows' sampler runs and the level's draws on 1, 2 and 4 threads give
 * the same record, byte for byte, and the same samples (and the
 * characterisation, its CTA walks on those threads, the same figures and
 * walked CTAs): hotspot (four
 * windows of a 40,000-cycle plan, the level settled by its first draw's
 * batches), kmeans (the level over four draws, the last ones run ahead)
 * and histogram (a grid without batches: three draws at once). */
static void threads_give_the_same_record(void **state)
{
    (void)state;
    const char *specs[3] = {"inputs/kernels/hotspot.spec", "inputs/kernels/kmeans.spec",
                            "inputs/validation/histogram.spec"};
    const uint64_t budget[3] = {40000, 0, 0};
    rf_gpu gpu;
    rf_err err;
    assert_int_equal(rf_gpu_load("fermi-gtx480", &gpu, NULL, &err), RF_OK);
    rf_calib_report *rep = malloc(2 * sizeof *rep);
    assert_non_null(rep);
    for (int q = 0; q < 3; q++) {
        rf_kernel_opts ko;
        memset(&ko, 0, sizeof ko);
        rf_kernel *k;
        rf_ipc_kernel kc;
        assert_int_equal(rf_kernel_load(specs[q], &ko, &k, &err), RF_OK);
        assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), RF_OK);
        rf_calib one, many;
        rf_calib_opts co = {budget[q], 1, NULL, false, NULL, 1};
        assert_int_equal(rf_calib_run(&gpu, "fermi-gtx480", k, &kc, &co, &one, &rep[0], &err),
                         RF_OK);
        assert_true(rep[0].n >= 4);
        size_t n1;
        char *b1 = record_bytes(&one, &n1);
        rf_ipc_kernel kc1;
        rf_ctaset *w1 = NULL;
        memset(&kc1, 0, sizeof kc1);
        assert_int_equal(rf_kchar_compute_walked_jobs(&gpu, k, &kc1, &w1, 1, &err), RF_OK);
        for (int jobs = 2; jobs <= 4; jobs += 2) {
            co.jobs = jobs;
            /* The characterisation and its walked CTAs, walked on threads. */
            rf_ipc_kernel kcn;
            rf_ctaset *wn = NULL;
            memset(&kcn, 0, sizeof kcn);
            assert_int_equal(rf_kchar_compute_walked_jobs(&gpu, k, &kcn, &wn, jobs, &err), RF_OK);
            assert_memory_equal(&kcn, &kc1, sizeof kc1);
            assert_int_equal(wn->nctas, w1->nctas);
            assert_int_equal(wn->maxph, w1->maxph);
            size_t rows = rf_ctaset_nrows(w1);
            assert_memory_equal(wn->off, w1->off, sizeof *w1->off * (size_t)w1->nctas);
            assert_memory_equal(wn->insts, w1->insts, sizeof *w1->insts * rows);
            assert_memory_equal(wn->time, w1->time, sizeof *w1->time * rows);
            assert_memory_equal(wn->run, w1->run, sizeof *w1->run * 4 * (size_t)w1->nctas);
            assert_memory_equal(wn->cta_crit, w1->cta_crit,
                                sizeof *w1->cta_crit * 3 * (size_t)w1->nctas);
            assert_true(wn->s_mem == w1->s_mem && wn->s_dep == w1->s_dep
                        && wn->turn_insts == w1->turn_insts && wn->drain == w1->drain);
            rf_kchar_ctaset_free(wn);
            assert_int_equal(rf_calib_run(&gpu, "fermi-gtx480", k, &kc, &co, &many, &rep[1],
                                          &err),
                             RF_OK);
            size_t nn;
            char *bn = record_bytes(&many, &nn);
            assert_int_equal(nn, n1);
            assert_memory_equal(bn, b1, n1);
            free(bn);
            assert_int_equal(rep[1].n, rep[0].n);
            assert_true(rep[1].sim_cycles == rep[0].sim_cycles);
            for (int i = 0; i < rep[0].n; i++) {
                assert_string_equal(rep[1].s[i].label, rep[0].s[i].label);
                assert_true(rep[1].s[i].ipc == rep[0].s[i].ipc);
                assert_true(rep[1].s[i].cycles == rep[0].s[i].cycles);
                assert_true(rep[1].s[i].ipc_fit == rep[0].s[i].ipc_fit);
            }
            assert_true(many.level == one.level);
            assert_true(many.shrink == one.shrink);
            assert_memory_equal(&many.params, &one.params, sizeof one.params);
        }
        free(b1);
        rf_kchar_ctaset_free(w1);
        rf_kernel_destroy(k);
    }
    free(rep);
}

/* RFC's read misses skip the cache's banks (calibrate/extrapolate.c,
 * pf_apply): the IPC model's bank load counts the hits alone, while the
 * energy still sends every operand through the crossbar, as LTRF's does,
 * so the two designs' crossbar energy on one main file (#6) is the same:
 * the kernel's reads at one transfer energy. */
static void rfc_misses_skip_cache_banks(void **state)
{
    (void)state;
    rf_err err = {0};
    rf_gpu gpu;
    assert_int_equal(rf_gpu_preset("maxwell-ltrf", &gpu, &err), 0);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    assert_int_equal(rf_kernel_load("inputs/kernels/libor.spec", &o, &k, &err), 0);
    rf_kernel_spread(k, 1);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), 0);
    rf_shape sh = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                   rf_kernel_ctas(k), 1};
    rf_design rfc, ltrf;
    rf_design_init(&rfc);
    rf_design_init(&ltrf);
    rfc.kind = RF_DESIGN_RFC;
    ltrf.kind = RF_DESIGN_LTRF;
    rf_estimate er, el;
    assert_int_equal(rf_extrap_estimate(&gpu, &rfc, &kc, &sh, NULL, &er, &err), RF_OK);
    assert_int_equal(rf_extrap_estimate(&gpu, &ltrf, &kc, &sh, NULL, &el, &err), RF_OK);
    assert_true(er.energy.xbar_nj > 0);
    assert_float_equal(er.energy.xbar_nj, el.energy.xbar_nj, 1e-9 * el.energy.xbar_nj);
    rf_kernel_destroy(k);
}

/* RFC's warps sharing the cache (rf_extrap_rfc_warps), by hand.
 * pool 32, 64 issuing warps, busy 3 and mem 3 cycles per instruction:
 * r = 3 / 6 = 0.5; without DRAM pool_in = min(32, 64 x 0.5) = 32 and
 * sharing = min(32 / 0.5, 64) = 64.  With a DRAM cap of 1 instruction a
 * cycle, 1 x 3 = 3 warps at most are not waiting on memory (3 < 32):
 * r = 3 / 64, pool_in = 3, sharing = min(32 / (3 / 64), 64) = 64.
 * pool 8, busy 3, mem 1: r = 0.75, warps r = 48; a cap of 4 bounds them
 * by 12, above the pool: pool_in = 8, sharing = 8 / 0.75 = 10.667; a cap
 * of 2 bounds them by 6: r = 6 / 64, pool_in = 6, sharing = min(85.3, 64)
 * = 64.  Without a pool: sharing = min(pool, warps), pool_in = 0. */
static void rfc_warps_by_hand(void **state)
{
    (void)state;
    double in, sh;
    rf_extrap_rfc_warps(32, 64, 3, 3, INFINITY, true, &in, &sh);
    assert_float_equal(in, 32, 1e-12);
    assert_float_equal(sh, 64, 1e-12);
    rf_extrap_rfc_warps(32, 64, 3, 3, 1.0, true, &in, &sh);
    assert_float_equal(in, 3, 1e-12);
    assert_float_equal(sh, 64, 1e-12);
    rf_extrap_rfc_warps(8, 64, 3, 1, 4.0, true, &in, &sh);
    assert_float_equal(in, 8, 1e-12);
    assert_float_equal(sh, 8 / 0.75, 1e-12);
    rf_extrap_rfc_warps(8, 64, 3, 1, 2.0, true, &in, &sh);
    assert_float_equal(in, 6, 1e-12);
    assert_float_equal(sh, 64, 1e-12);
    rf_extrap_rfc_warps(48, 40, 3, 1, 0.5, false, &in, &sh);
    assert_float_equal(in, 0, 1e-12);
    assert_float_equal(sh, 40, 1e-12);
}

/* The share of a run's instructions at each resident count
 * (rf_extrap_resident_shares), by hand.  Three known CTAs of lone cycles
 * 10, 20, 30 and instructions 100, 100, 300 (rates 10, 5, 10 per cycle)
 * in 2 places: CTA 0 in [0, 10], CTA 1 in [0, 20], CTA 2 from CTA 0's end,
 * [10, 40].  2 resident over [0, 20] at rate 15: 300 instructions; then
 * CTA 2 alone over [20, 40] at rate 10: 200.  So share[1] = 200 / 500 =
 * 0.4, share[2] = 0.6.  As the last 3 of a run of 5 CTAs, the 2 before
 * count at 2 places with the known ones' mean, 500 / 3 each: share[1] =
 * 200 / (500 + 1000 / 3) = 0.24, share[2] = 0.76.  A run whose CTAs the
 * estimate does not know (crit_ctas another run's) gives none. */
static void resident_shares_by_hand(void **state)
{
    (void)state;
    static rf_ipc_kernel k;
    memset(&k, 0, sizeof k);
    k.nlone = 3;
    k.crit_ctas = 3;
    k.lone[0] = 10, k.lone[1] = 20, k.lone[2] = 30;
    k.lone_insts[0] = 100, k.lone_insts[1] = 100, k.lone_insts[2] = 300;
    double sh[3];
    assert_true(rf_extrap_resident_shares(&k, 3, 2, sh));
    assert_float_equal(sh[0], 0, 1e-12);
    assert_float_equal(sh[1], 0.4, 1e-12);
    assert_float_equal(sh[2], 0.6, 1e-12);
    k.crit_ctas = 5;
    assert_true(rf_extrap_resident_shares(&k, 5, 2, sh));
    assert_float_equal(sh[1], 0.24, 1e-12);
    assert_float_equal(sh[2], 0.76, 1e-12);
    assert_false(rf_extrap_resident_shares(&k, 6, 2, sh));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_spends_the_budget),
        cmocka_unit_test(calibrates_and_round_trips),
        cmocka_unit_test(bank_response_is_damped),
        cmocka_unit_test(rfc_misses_skip_cache_banks),
        cmocka_unit_test(rfc_warps_by_hand),
        cmocka_unit_test(resident_shares_by_hand),
        cmocka_unit_test(walked_calibration_is_the_same),
        cmocka_unit_test(level_takes_the_runs_ctas),
        cmocka_unit_test(windows_default_to_the_runs_seed),
        cmocka_unit_test(short_run_level_is_the_rate),
        cmocka_unit_test(threads_give_the_same_record),
        cmocka_unit_test(plan_adds_design_windows),
        cmocka_unit_test(fit_sw_recovers_sync),
        cmocka_unit_test(design_windows_fit_sw_only),
        cmocka_unit_test(hirf_ratio_by_hand),
        cmocka_unit_test(hirf_windows_checked),
        cmocka_unit_test(hirf_window_check_by_hand),
    };
    return cmocka_run_group_tests_name("calibrate", tests, setup, teardown);
}
