/* test_plan_warm.c - functional warming of calibration windows: the
 * sampler's opt-in walk (rf_sim_opts.warm_ctas, sampler/dispatcher.c), the
 * plan's warmed points (rf_plan_warm, calibrate/plan.c) and a warmed
 * calibration (the default of rf_calib_opts, calibrate/calibrate.c); the
 * default budget's window count and sizes on short kernels, the shrinkage
 * of the calibrated correction and the prediction interval's variance
 * (calibrate/extrapolate.c). */
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
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"

typedef struct fix {
    rf_gpu gpu;
    rf_kernel *k;        /* kmeans cut to 64 CTAs (8 resident on Fermi) */
    rf_ipc_kernel kc;
} fix;

static int setup(void **state)
{
    fix *f = calloc(1, sizeof *f);
    rf_err err;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    ko.grid = "64";
    if (!f || rf_gpu_load("fermi-gtx480", &f->gpu, NULL, &err)
        || rf_kernel_load("inputs/kernels/kmeans.spec", &ko, &f->k, &err)
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

/* Full run (or window) from CTA skip with warm CTAs walked first. */
static rf_sim_stats run(const fix *f, uint64_t skip, uint64_t warm, uint64_t cycles)
{
    rf_design d;
    rf_design_init(&d);
    rf_sim_opts o;
    rf_sim_opts_init(&o);
    o.skip_ctas = skip;
    o.warm_ctas = warm;
    o.cycles = cycles;
    rf_sim_stats st;
    rf_err err;
    assert_int_equal(rf_sim_run(&f->gpu, &d, f->k, &o, &st, &err), RF_OK);
    return st;
}

static void walk_changes_nothing_at_the_grid_start(void **state)
{
    const fix *f = *state;
    /* Off by default; at CTA 0 there is nothing before to walk. */
    rf_sim_stats a = run(f, 0, 0, 0), b = run(f, 0, 16, 0);
    assert_int_equal(a.warp_insts, b.warp_insts);
    assert_int_equal(a.cycles, b.cycles);
    assert_int_equal(a.ctas_done, 64);
    assert_int_equal(b.ctas_done, 64);
}

static void walk_starts_the_window_mid_run(void **state)
{
    const fix *f = *state;
    /* From CTA 32 with 16 walked: the CTAs 32..63 run in full, and the up
     * to 7 walked CTAs still resident when CTA 32 started run their rest,
     * so more instructions than a cold start at 32 and fewer than one at 16
     * (all of 16..31 in full). */
    rf_sim_stats cold32 = run(f, 32, 0, 0), cold16 = run(f, 16, 0, 0);
    rf_sim_stats w = run(f, 32, 16, 0), w2 = run(f, 32, 16, 0);
    assert_true(w.warp_insts > cold32.warp_insts);
    assert_true(w.warp_insts < cold16.warp_insts);
    /* CTAs finished in the timed run: 32..63 and the resident walked ones. */
    assert_true(w.ctas_done > 32 && w.ctas_done <= 32 + 7);
    assert_int_equal(w.warp_insts, w2.warp_insts);   /* deterministic */
    assert_int_equal(w.cycles, w2.cycles);
    assert_int_equal(w.chk_issued, w.chk_retired);
    /* More CTAs to walk than precede the window: from CTA 0. */
    rf_sim_stats c1 = run(f, 8, 8, 2000), c2 = run(f, 8, 100, 2000);
    assert_int_equal(c1.warp_insts, c2.warp_insts);
    assert_int_equal(c1.cycles, 2000);
}

static void plan_walks_four_turnovers(void **state)
{
    const fix *f = *state;
    rf_plan pl, w;
    rf_err err;
    assert_int_equal(rf_plan_make(&f->gpu, f->k, &f->kc, 40000, &pl, &err), RF_OK);
    w = pl;
    rf_plan_warm(&f->gpu, &w);
    assert_int_equal(pl.resident, 8);
    assert_float_equal(w.cost, pl.cost, 1e-9);
    for (int i = 0; i < pl.n; i++) {
        assert_int_equal(pl.pt[i].warm_ctas, 0);
        /* 4 turnovers of 8 slots, at most the CTAs before the window. */
        uint64_t want = pl.pt[i].skip_ctas < 32 ? pl.pt[i].skip_ctas : 32;
        assert_int_equal(w.pt[i].warm_ctas, want);
        assert_int_equal(w.pt[i].skip_ctas, pl.pt[i].skip_ctas);
        /* Same span; the timed warm-up at most two DRAM latencies. */
        assert_int_equal(w.pt[i].warmup + w.pt[i].cycles, pl.pt[i].warmup + pl.pt[i].cycles);
        assert_true(w.pt[i].warmup <= (uint64_t)(2 * f->gpu.dram_latency));
        assert_true(w.pt[i].warmup <= pl.pt[i].warmup);
    }
}

static void warmed_calibration_fits(void **state)
{
    const fix *f = *state;
    rf_calib cal;
    rf_calib_report rep;
    rf_err err;
    rf_calib_opts co = {40000, 1, NULL, false, NULL, 1};
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", f->k, &f->kc, &co, &cal, &rep, &err),
                     RF_OK);
    assert_true(rep.plan.pt[0].warm_ctas > 0);
    assert_float_equal(rep.sim_cycles, rep.plan.cost, 1e-6);
    assert_true(cal.level >= 0.5 && cal.level <= 2.0);
    for (int i = 0; i < rep.n; i++) {
        assert_true(rep.s[i].ipc > 0);
        /* The fit follows the windows within their assumed noise scale. */
        assert_true(fabs(rep.s[i].ipc_fit - rep.s[i].ipc) < 0.2 * rep.s[i].ipc);
    }
    /* The record keeps the ordinary windows' mean residual about the fit
     * (rf_calib_window_noise); the shrink weight is PRIOR_CORR^2 /
     * (PRIOR_CORR^2 + v) with v at least the noise of four windows of
     * WINDOW_NOISE each, 0.06^2 / 4 = 0.0009 (calibrate/calibrate.c):
     * w <= 0.04 / 0.0409.  The report's corr_default is the unshrunk
     * record's correction at the default design (one SM, the whole grid). */
    int nord = rep.plan.n - rep.plan.ndesign;
    double bias = 0;
    for (int i = 0; i < nord; i++)
        bias += (rep.s[i].ipc_fit - rep.s[i].ipc) / rep.s[i].ipc / nord;
    assert_true(cal.has_win);
    assert_float_equal(cal.win_bias, bias, 1e-12);
    assert_true(cal.win_se > 0);
    assert_true(cal.shrink > 0 && cal.shrink <= 0.04 / (0.04 + 0.0036 / nord) + 1e-12);
    rf_calib unshrunk = cal;
    unshrunk.shrink = 1.0;
    rf_shape sh = {f->k->regs, rf_kernel_threads(f->k), f->k->smem_static + f->k->launch.smem,
                   rf_kernel_ctas(f->k), 1};
    rf_design d0;
    rf_design_init(&d0);
    rf_estimate ec, eu;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d0, &f->kc, &sh, &unshrunk, &ec, &err), RF_OK);
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d0, &f->kc, &sh, NULL, &eu, &err), RF_OK);
    assert_float_equal(rep.corr_default, log(ec.ipc / eu.ipc), 1e-12);
}

/* Default budget on short kernels (calibrate/plan.c): 4.25% of the
 * estimated full run, as many samples of at least two DRAM latencies
 * (2 x 330 = 660 cycles on fermi-gtx480) as fit. */
static void short_kernel_plan_fits_the_budget(void **state)
{
    const fix *f = *state;
    rf_kernel *k;
    rf_err err;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    ko.grid = "160";
    assert_int_equal(rf_kernel_load("inputs/kernels/kmeans.spec", &ko, &k, &err), RF_OK);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&f->gpu, k, &kc, &err), RF_OK);
    rf_plan pl;
    assert_int_equal(rf_plan_make(&f->gpu, k, &kc, 0, &pl, &err), RF_OK);
    /* kmeans on 160 CTAs: the model puts the run at about 31,825 cycles
     * (its long CTAs through the CTA fluid, analytic/ipc.c: the sampler's
     * full run takes 36,354), so the budget is 0.0425 x 31,825 = 1,352.6
     * cycles: 1352.6 / 660 = 2.05, two samples (the level's baseline window
     * and the 4-bank one) of (int)(1352.6 / 2) = 676 cycles.  Warm-up: one
     * CTA lifetime, 31,825 x 8 resident / 160 CTAs = 1,591 cycles, capped
     * at half the sample, (int)338.1 = 338; window 676 - 338 = 338.  Positions: the
     * middles of two strata of 160 CTAs, 0.25 x 160 = 40 and 0.75 x 160 =
     * 120. */
    assert_float_equal(pl.full_cycles, 31825, 200);
    assert_float_equal(pl.budget, 0.0425 * pl.full_cycles, 1e-9);
    assert_int_equal(pl.n, 2);
    assert_int_equal(pl.resident, 8);
    assert_int_equal(pl.pt[0].design.kind, RF_DESIGN_BASELINE);
    assert_int_equal(pl.pt[0].design.banks, 16);
    assert_int_equal(pl.pt[1].design.kind, RF_DESIGN_BASELINE);
    assert_int_equal(pl.pt[1].design.banks, 4);
    assert_int_equal((int)pl.pt[0].skip_ctas, 40);
    assert_int_equal((int)pl.pt[1].skip_ctas, 120);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pl.pt[i].warmup, 338);
        assert_int_equal(pl.pt[i].cycles, 338);
    }
    assert_float_equal(pl.cost, 1352, 0);
    assert_true(pl.cost <= 0.0425 * pl.full_cycles);
    /* Warmed: 4 turnovers of 8 slots (32 CTAs, all before each window), the
     * timed warm-up one DRAM latency (330 cycles), the rest window:
     * 676 - 330 = 346. */
    rf_plan_warm(&f->gpu, &pl);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pl.pt[i].warm_ctas, 32);
        assert_int_equal(pl.pt[i].warmup, 330);
        assert_int_equal(pl.pt[i].cycles, 346);
    }
    rf_kernel_destroy(k);
}

static void too_short_a_kernel_stays_uncalibrated(void **state)
{
    const fix *f = *state;
    rf_plan pl;
    rf_err err;
    /* kmeans' default run on fermi-gtx480: the busiest of 15 SMs, 69 of
     * 1,024 CTAs, an estimated 9,604 cycles, a budget of 0.0425 x 9,604
     * = 408 cycles: not one sample of two DRAM latencies (660 cycles). */
    rf_kernel *k;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    assert_int_equal(rf_kernel_load("inputs/kernels/kmeans.spec", &ko, &k, &err), RF_OK);
    rf_kernel_spread(k, 15);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&f->gpu, k, &kc, &err), RF_OK);
    assert_int_equal(rf_plan_make(&f->gpu, k, &kc, 0, &pl, &err), RF_OK);
    assert_true(pl.budget < 660);
    assert_int_equal(pl.n, 0);
    assert_float_equal(pl.cost, 0, 0);
    rf_calib cal;
    rf_calib_report rep;
    rf_calib_opts co = {0, 1, NULL, false, NULL, 1};
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", k, &kc, &co, &cal, &rep, &err),
                     RF_OK);
    assert_int_equal(rep.n, 0);
    assert_float_equal(rep.sim_cycles, 0, 0);
    assert_int_equal(cal.samples, 0);
    assert_int_equal(cal.nfit, 0);
    assert_float_equal(cal.level, 1.0, 0);
    /* The estimate from that record is the uncalibrated one, with the
     * uncalibrated model's interval: IPC (1 +- 1.96 x 0.045) =
     * IPC x [0.911802, 1.088198]. */
    rf_design d;
    rf_design_init(&d);
    rf_shape sh = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                   rf_kernel_ctas(k), 1};
    rf_estimate e, u;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &kc, &sh, &cal, &e, &err), RF_OK);
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &kc, &sh, NULL, &u, &err), RF_OK);
    assert_false(e.calibrated);
    assert_float_equal(e.ipc, u.ipc, 1e-12);
    assert_float_equal(e.ipc_lo, 0.911802 * u.ipc, 1e-6 * u.ipc);
    assert_float_equal(e.ipc_hi, 1.088198 * u.ipc, 1e-6 * u.ipc);
    /* Saved and read back, the record still holds no samples. */
    char path[] = "/tmp/rfkit-test-nosampleXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(rf_record_save(path, &cal, &err), RF_OK);
    rf_calib back;
    assert_int_equal(rf_record_load_kernel(path, "fermi-gtx480", k, &back, &err), RF_OK);
    unlink(path);
    assert_int_equal(back.samples, 0);
    assert_int_equal(back.nfit, 0);
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &kc, &sh, &back, &e, &err), RF_OK);
    assert_false(e.calibrated);
    assert_float_equal(e.ipc, u.ipc, 1e-12);
    rf_kernel_destroy(k);
}

/* The weight a plan's windows would carry (rf_calib_plan_weight,
 * calibrate/calibrate.c): w = D^2 / (D^2 + v), D = 0.07, v = 1 / sum
 * 1/sigma_i^2, sigma_i = 0.06 sqrt(span / window_i) (at least 0.06), span
 * the longer of four DRAM latencies (4 x 330 = 1,320 cycles on
 * fermi-gtx480) and one CTA lifetime, full_cycles x resident / CTAs.  The
 * fixture's kernel has 64 CTAs. */
static void plan_weight_by_hand(void **state)
{
    const fix *f = *state;
    rf_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.resident = 8;
    /* CTA lifetime 320,000 x 8 / 64 = 40,000 cycles; two windows of 1,600:
     * sigma = 0.06 sqrt(40,000 / 1,600) = 0.3, v = 1 / (2 / 0.09) = 0.045,
     * w = 0.0049 / 0.0499 = 0.0981964. */
    pl.full_cycles = 320000;
    pl.n = 2;
    pl.pt[0].cycles = pl.pt[1].cycles = 1600;
    assert_float_equal(rf_calib_plan_weight(&f->gpu, f->k, &pl), 0.0049 / 0.0499, 1e-12);
    /* Four windows of 40,000 cycles (one lifetime each): sigma = 0.06,
     * v = 0.0036 / 4 = 0.0009, w = 0.0049 / 0.0058 = 0.844828. */
    pl.n = 4;
    for (int i = 0; i < 4; i++)
        pl.pt[i].cycles = 40000;
    assert_float_equal(rf_calib_plan_weight(&f->gpu, f->k, &pl), 0.0049 / 0.0058, 1e-12);
    /* CTA lifetime 32,000 x 8 / 64 = 4,000 cycles; four windows of 1,000:
     * sigma = 0.06 sqrt(4) = 0.12, v = 0.0144 / 4 = 0.0036, w = 0.0049 /
     * 0.0085 = 0.576471. */
    pl.full_cycles = 32000;
    for (int i = 0; i < 4; i++)
        pl.pt[i].cycles = 1000;
    assert_float_equal(rf_calib_plan_weight(&f->gpu, f->k, &pl), 0.0049 / 0.0085, 1e-12);
    /* Lifetime 160 x 8 / 64 = 20 cycles, under four DRAM latencies: the
     * span is 1,320 cycles; one window of 330: sigma = 0.06 sqrt(4) = 0.12,
     * v = 0.0144, w = 0.0049 / 0.0193 = 0.253886.  No windows: 0. */
    pl.full_cycles = 160;
    pl.n = 1;
    pl.pt[0].cycles = 330;
    assert_float_equal(rf_calib_plan_weight(&f->gpu, f->k, &pl), 0.0049 / 0.0193, 1e-12);
    pl.n = 0;
    assert_float_equal(rf_calib_plan_weight(&f->gpu, f->k, &pl), 0.0, 0);
}

/* A default budget whose windows would weigh under RF_CALIB_WEIGHT_MIN
 * (1/2) runs none (calibrate/calibrate.c, step 0); a budget the caller
 * gives runs them.  libor's default run on fermi-gtx480: the busiest of 15
 * SMs, 18 of 256 CTAs of lifetimes near the share's run / 4.5 waves. */
static void windows_not_worth_running(void **state)
{
    const fix *f = *state;
    rf_kernel *k;
    rf_err err;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    assert_int_equal(rf_kernel_load("inputs/kernels/libor.spec", &ko, &k, &err), RF_OK);
    rf_kernel_spread(k, 15);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&f->gpu, k, &kc, &err), RF_OK);
    rf_plan pl;
    assert_int_equal(rf_plan_make(&f->gpu, k, &kc, 0, &pl, &err), RF_OK);
    rf_plan_warm(&f->gpu, &pl);
    assert_true(pl.n > 0);
    /* The weight by the formula above, from the plan's own figures. */
    double life = pl.full_cycles * pl.resident / (double)rf_kernel_ctas(k), inv = 0;
    for (int i = 0; i < pl.n; i++) {
        double span = life > 1320 ? life : 1320;
        double sg = span > (double)pl.pt[i].cycles ? 0.06 * sqrt(span / pl.pt[i].cycles) : 0.06;
        inv += 1.0 / (sg * sg);
    }
    double w = 0.0049 / (0.0049 + 1.0 / inv);
    assert_float_equal(rf_calib_plan_weight(&f->gpu, k, &pl), w, 1e-12);
    assert_true(w < RF_CALIB_WEIGHT_MIN);
    rf_calib cal;
    rf_calib_report *rep = calloc(1, sizeof *rep);
    assert_non_null(rep);
    rf_calib_opts co = {0, 1, NULL, false, NULL, 1};
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", k, &kc, &co, &cal, rep, &err), RF_OK);
    assert_int_equal(rep->n, 0);
    assert_int_equal(rep->not_run, pl.n);
    assert_float_equal(rep->plan_weight, w, 1e-12);
    assert_float_equal(rep->sim_cycles, 0, 0);
    assert_int_equal(cal.samples, 0);
    assert_int_equal(cal.nfit, 0);
    /* The same budget given: the windows run (every point, at its least
     * sample: calibrate/plan.c). */
    co.budget_cycles = (uint64_t)pl.budget;
    assert_int_equal(rf_calib_run(&f->gpu, "fermi-gtx480", k, &kc, &co, &cal, rep, &err), RF_OK);
    assert_true(rep->n >= pl.n);
    assert_int_equal(rep->not_run, 0);
    assert_true(cal.samples > 0);
    free(rep);
    rf_kernel_destroy(k);
}

/* Calibrated interval (calibrate/extrapolate.c) of a record with no fitted
 * parameters and no shrinkage: v = 0.003^2 + s^2 / n = 0.000009 +
 * 0.04^2 / 4 = 0.000409, half width 1.959964 x sqrt(0.000409) = 1.959964 x
 * 0.0202237 = 0.0396378 of the IPC. */
static void interval_from_the_windows_noise(void **state)
{
    const fix *f = *state;
    rf_calib cal;
    rf_calib_init_kernel(&cal, "fermi-gtx480", f->k);
    cal.samples = 4;
    cal.rms_rel = 0.04;
    rf_design d;
    rf_design_init(&d);
    rf_shape sh = {f->k->regs, rf_kernel_threads(f->k), f->k->smem_static + f->k->launch.smem,
                   rf_kernel_ctas(f->k), 1};
    rf_estimate e;
    rf_err err;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, &cal, &e, &err), RF_OK);
    assert_true(e.calibrated);
    assert_float_equal(e.ipc_lo, (1 - 0.0396378) * e.ipc, 1e-6 * e.ipc);
    assert_float_equal(e.ipc_hi, (1 + 0.0396378) * e.ipc, 1e-6 * e.ipc);
    assert_float_equal(e.cycles_lo, e.insts / e.ipc_hi, 1e-9 * e.cycles);
}

/* The shrinkage weight w = D^2 / (D^2 + s^2 / n), D^2 = max(0, mean c^2 -
 * s^2 / n), for made-up corrections at four sampled designs with windows'
 * noise s = 0.06 (n = 4: s^2 / n = 0.0009):
 *   c = 0.10, 0.06, 0.08, 0.04: mean c^2 = (0.01 + 0.0036 + 0.0064 +
 *     0.0016) / 4 = 0.0054, D^2 = 0.0045, w = 0.0045 / 0.0054 = 5/6;
 *   c = 0.02, -0.01, 0.01, 0: mean c^2 = 0.0006 / 4 = 0.00015 < 0.0009:
 *     within the noise, D^2 = 0, w = 0;
 *   no correction and no noise: w = 1 (nothing to shrink). */
static void shrink_weight_by_hand(void **state)
{
    (void)state;
    const double big[4] = {0.10, 0.06, 0.08, 0.04}, small[4] = {0.02, -0.01, 0.01, 0.0};
    const double none[4] = {0, 0, 0, 0};
    assert_float_equal(rf_extrap_shrink_weight(big, 4, 0.06, 4), 5.0 / 6.0, 1e-12);
    assert_float_equal(rf_extrap_shrink_weight(small, 4, 0.06, 4), 0.0, 0.0);
    assert_float_equal(rf_extrap_shrink_weight(none, 4, 0.0, 4), 1.0, 0.0);
    /* A larger noise shrinks more: s = 0.12, s^2 / n = 0.0036, D^2 =
     * 0.0018, w = 0.0018 / 0.0054 = 1/3. */
    assert_float_equal(rf_extrap_shrink_weight(big, 4, 0.12, 4), 1.0 / 3.0, 1e-12);
}

/* The windows' agreement with the fit (rf_calib_window_noise), by hand.
 * Residuals 0.02, -0.01, 0.03, 0 with noise 0.06, 0.06, 0.06, 0.12:
 *   bias = 0.04 / 4 = 0.01;
 *   se = sqrt((0.01^2 + 0.02^2 + 0.02^2 + 0.01^2) / (3 x 4))
 *      = sqrt(0.001 / 12) = 0.00912871;
 *   v = 1 / (3 / 0.0036 + 1 / 0.0144) = 0.0144 / 13 = 0.00110769, the
 *     scatter within the noise (chi^2 / 3 = (0.0014 / 0.0036) / 3 =
 *     0.1296 < 1).
 * Residuals +-0.10 about 0 with noise 0.06 each: bias 0, se = sqrt(0.04 /
 * 12) = 0.0577350, chi^2 / 3 = (0.04 / 0.0036) / 3 = 3.7037, v = 0.0036 /
 * 4 x 3.7037 = 0.01 / 3.
 * One window, residual 0.05, noise 0.2: bias 0.05, se = v^0.5 = 0.2. */
static void window_noise_by_hand(void **state)
{
    (void)state;
    const double r1[4] = {0.02, -0.01, 0.03, 0.0}, s1[4] = {0.06, 0.06, 0.06, 0.12};
    const double r2[4] = {0.10, -0.10, 0.10, -0.10}, s2[4] = {0.06, 0.06, 0.06, 0.06};
    const double r3[1] = {0.05}, s3[1] = {0.2};
    double b, se, v;
    rf_calib_window_noise(r1, s1, 4, &b, &se, &v);
    assert_float_equal(b, 0.01, 1e-15);
    assert_float_equal(se, 0.00912871, 1e-8);
    assert_float_equal(v, 0.0144 / 13, 1e-15);
    rf_calib_window_noise(r2, s2, 4, &b, &se, &v);
    assert_float_equal(b, 0.0, 1e-15);
    assert_float_equal(se, 0.0577350, 1e-7);
    assert_float_equal(v, 0.01 / 3, 1e-15);
    rf_calib_window_noise(r3, s3, 1, &b, &se, &v);
    assert_float_equal(b, 0.05, 1e-15);
    assert_float_equal(se, 0.2, 1e-15);
    assert_float_equal(v, 0.04, 1e-15);
    rf_calib_window_noise(r3, s3, 0, &b, &se, &v);
    assert_true(b == 0 && se == 0 && v == 0);
}

/* The prior weight w = D^2 / (D^2 + V): D = 0.2 against V = 0.0144 / 13
 * (the first windows above): 0.04 / (0.04 + 0.0144 / 13) = 0.52 / 0.5344
 * = 325 / 334 = 0.973054; against V = 0.04: 1/2; no noise: 1; no prior
 * width and no noise: 1 (nothing to weigh); no prior width: 0. */
static void shrink_prior_by_hand(void **state)
{
    (void)state;
    assert_float_equal(rf_extrap_shrink_prior(0.2, 0.0144 / 13), 325.0 / 334.0, 1e-15);
    assert_float_equal(rf_extrap_shrink_prior(0.2, 0.04), 0.5, 1e-15);
    assert_float_equal(rf_extrap_shrink_prior(0.2, 0.0), 1.0, 0.0);
    assert_float_equal(rf_extrap_shrink_prior(0.0, 0.0), 1.0, 0.0);
    assert_float_equal(rf_extrap_shrink_prior(0.0, 0.01), 0.0, 0.0);
}

/* The relative variance of a window calibration's estimate, v = 0.003^2 +
 * min(b^2 + se^2 + ((1 - w) c)^2, sigma_u^2) + w^2 vfit, at the first
 * windows above (b = 0.01, se = 0.00912871), w = 325 / 334, c = ln 1.1 =
 * 0.0953102, vfit = 0.0004, sigma_u = 0.045: 0.000009 + 0.0001 +
 * 0.0000833333 + 0.000378734 + (9 / 334 x 0.0953102)^2 = 0.000009 +
 * 0.0001 + 0.0000833333 + 0.000378734 + 0.0000065958 = 0.000577663. */
static void window_interval_variance_by_hand(void **state)
{
    (void)state;
    assert_float_equal(rf_extrap_rel_var_win(0.01, sqrt(0.001 / 12), 325.0 / 334.0, log(1.1),
                                             0.0004, 0.045), 0.000577663, 1e-9);
    /* The sign of the bias does not matter; unshrunk, no covariance:
     * 0.000009 + 0.0001 + 0.0000833333. */
    assert_float_equal(rf_extrap_rel_var_win(-0.01, sqrt(0.001 / 12), 1.0, log(1.1), 0.0, 0.045),
                       0.000009 + 0.0001 + 0.001 / 12, 1e-15);
    /* Windows that read the level farther from the fit than the
     * uncalibrated model's error: b = 0.05, se = 0.03 give 0.0025 + 0.0009
     * = 0.0034 > 0.045^2 = 0.002025, which stands in for them:
     * 0.000009 + 0.002025 = 0.002034.  For an SM's share of a spread
     * grid the uncalibrated model's error is 0.037: 0.000009 + 0.001369 =
     * 0.001378. */
    assert_float_equal(rf_extrap_rel_var_win(0.05, 0.03, 1.0, 0.0, 0.0, 0.045), 0.002034, 1e-15);
    assert_float_equal(rf_extrap_rel_var_win(0.05, 0.03, 1.0, 0.0, 0.0, 0.037), 0.001378, 1e-15);
    rf_gpu gpu;
    rf_err err;
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_shape one = {.sms = 1}, spread = {.sms = 15}, dflt = {.sms = 0};
    rf_design base, hirf;
    rf_design_init(&base);
    rf_design_init(&hirf);
    hirf.kind = RF_DESIGN_HIRF;
    assert_float_equal(rf_extrap_sigma_unc(&gpu, &base, &one), 0.045, 0);
    assert_float_equal(rf_extrap_sigma_unc(&gpu, &base, &spread), 0.037, 0);
    assert_float_equal(rf_extrap_sigma_unc(&gpu, &base, &dflt), 0.037, 0);
    /* HI-RF designs: their own model's rms on the nine (volta-hirf). */
    assert_float_equal(rf_extrap_sigma_unc(&gpu, &hirf, &one), 0.0505, 0);
    assert_float_equal(rf_extrap_sigma_unc(&gpu, &hirf, &dflt), 0.058, 0);
}

/* The relative variance of a calibrated estimate, v = 0.003^2 + s^2 / n +
 * w^2 vfit + ((1 - w) c)^2, at s = 0.06, n = 4, w = 5/6, c = ln 1.1 =
 * 0.0953102, vfit = 0.0004: 0.000009 + 0.0009 + 0.000277778 +
 * (0.0158850)^2 = 0.000009 + 0.0009 + 0.000277778 + 0.000252334 =
 * 0.00143911. */
static void interval_variance_by_hand(void **state)
{
    (void)state;
    assert_float_equal(rf_extrap_rel_var(0.06, 4, 5.0 / 6.0, log(1.1), 0.0004), 0.00143911,
                       1e-8);
    /* Unshrunk (w = 1): the correction's part is gone, the covariance's
     * whole: 0.000009 + 0.0009 + 0.0004 = 0.001309. */
    assert_float_equal(rf_extrap_rel_var(0.06, 4, 1.0, log(1.1), 0.0004), 0.001309, 1e-12);
}

/* A record whose level is 1.1 at the default parameters (no fitted ones)
 * calibrates IPC to 1.1 x the uncalibrated one; with w = 5/6 the estimate
 * is IPC_unc x 1.1^(5/6) = 1.0826645 IPC_unc, cycles = instructions / IPC,
 * and its interval v = 0.003^2 + 0.06^2 / 4 + ((1 - 5/6) ln 1.1)^2 =
 * 0.000009 + 0.0009 + 0.000252334 = 0.00116133, half width 1.959964 x
 * 0.0340784 = 0.0667923 of the estimate. */
static void shrunk_estimate_and_interval(void **state)
{
    const fix *f = *state;
    rf_calib cal;
    rf_calib_init_kernel(&cal, "fermi-gtx480", f->k);
    cal.samples = 4;
    cal.rms_rel = 0.06;
    cal.level = 1.1;
    cal.shrink = 5.0 / 6.0;
    rf_design d;
    rf_design_init(&d);
    rf_shape sh = {f->k->regs, rf_kernel_threads(f->k), f->k->smem_static + f->k->launch.smem,
                   rf_kernel_ctas(f->k), 1};
    rf_estimate e, u;
    rf_err err;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, &cal, &e, &err), RF_OK);
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, NULL, &u, &err), RF_OK);
    assert_true(e.calibrated);
    assert_float_equal(e.ipc, 1.0826645 * u.ipc, 1e-6 * u.ipc);
    assert_float_equal(e.cycles, e.insts / e.ipc, 1e-9 * e.cycles);
    assert_float_equal(e.ipc_lo, (1 - 0.0667923) * e.ipc, 1e-6 * e.ipc);
    assert_float_equal(e.ipc_hi, (1 + 0.0667923) * e.ipc, 1e-6 * e.ipc);
    /* w = 0: the uncalibrated estimate itself. */
    cal.shrink = 0;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, &cal, &e, &err), RF_OK);
    assert_float_equal(e.ipc, u.ipc, 1e-12 * u.ipc);
    /* A window calibration's record (win_bias 0.02, win_se 0.01) with w =
     * 1/2: IPC_unc x 1.1^0.5 = 1.0488088 IPC_unc; the level's part, 0.02^2
     * + 0.01^2 + (0.5 ln 1.1)^2 = 0.0004 + 0.0001 + 0.00227101 = 0.00277101,
     * exceeds 0.045^2 = 0.002025, which stands in for it: v = 0.000009 +
     * 0.002025 = 0.002034, half width 1.959964 x 0.0450999 = 0.0883942 of
     * the estimate (rms_rel no longer enters). */
    cal.shrink = 0.5;
    cal.has_win = true;
    cal.win_bias = 0.02;
    cal.win_se = 0.01;
    assert_int_equal(rf_extrap_estimate(&f->gpu, &d, &f->kc, &sh, &cal, &e, &err), RF_OK);
    assert_float_equal(e.ipc, 1.0488088 * u.ipc, 1e-6 * u.ipc);
    assert_float_equal(e.ipc_lo, (1 - 0.0883942) * e.ipc, 1e-6 * e.ipc);
    assert_float_equal(e.ipc_hi, (1 + 0.0883942) * e.ipc, 1e-6 * e.ipc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_changes_nothing_at_the_grid_start),
        cmocka_unit_test(walk_starts_the_window_mid_run),
        cmocka_unit_test(plan_walks_four_turnovers),
        cmocka_unit_test(warmed_calibration_fits),
        cmocka_unit_test(short_kernel_plan_fits_the_budget),
        cmocka_unit_test(too_short_a_kernel_stays_uncalibrated),
        cmocka_unit_test(plan_weight_by_hand),
        cmocka_unit_test(windows_not_worth_running),
        cmocka_unit_test(interval_from_the_windows_noise),
        cmocka_unit_test(shrink_weight_by_hand),
        cmocka_unit_test(window_noise_by_hand),
        cmocka_unit_test(shrink_prior_by_hand),
        cmocka_unit_test(window_interval_variance_by_hand),
        cmocka_unit_test(interval_variance_by_hand),
        cmocka_unit_test(shrunk_estimate_and_interval),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
