/* test_pfplan.c - the register-cache calibration from windows (calibrate
 * --design rfc|ltrf): its plan (rf_plan_make_pf, calibrate/plan.c) on a
 * small hand-built kernel, and the fit of rf_pffit_fit_windows
 * (calibrate/pffit.c): the ratios, their measured noise and the priors,
 * the level of rf_pffit_level, and what the baseline windows say of it
 * (rf_pffit_window_level: the level's variance, the shrink weight, the
 * record's level_var row and the interval it widens). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/pffit.h"
#include "../calibrate/plan.h"
#include "../calibrate/record.h"
#include "support/simfix.h"

/* maxwell-ltrf (dram_latency 350 cycles, 2048 threads, 64 K registers and
 * 32 CTAs per SM) and a straight-line kernel of 40 ALU instructions over
 * 16 registers, CTAs of 256 threads at 32 registers: 8 resident CTAs
 * (2048 / 256 = 8 by threads, 65536 / (32 x 256) = 8 by registers). */
typedef struct fixture {
    simfix sf;
    rf_ipc_kernel kc;
    rf_design tmpl;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    rf_err err = {0};
    simfix_init(&fx.sf);
    if (rf_gpu_load("maxwell-ltrf", &fx.sf.gpu, NULL, &err))
        return -1;
    for (int i = 0; i < 40; i++)
        simfix_add(&fx.sf, RF_OC_ALU, (int[]){i % 16, -1}, (int[]){(i + 3) % 16, (i + 7) % 16, -1});
    simfix_finish(&fx.sf);
    fx.sf.kernel.launch.block[0] = 256;
    fx.sf.kernel.launch.grid[0] = 410;
    if (rf_kchar_compute(&fx.sf.gpu, &fx.sf.kernel, &fx.kc, &err))
        return -1;
    rf_design_init(&fx.tmpl);
    fx.tmpl.kind = RF_DESIGN_LTRF;
    fx.tmpl.interval_regs = 12;       /* kept by every window */
    *state = &fx;
    return 0;
}

static void make(fixture *fx, uint64_t budget, rf_plan *p)
{
    rf_err err = {0};
    assert_int_equal(rf_plan_make_pf(&fx->sf.gpu, &fx->sf.kernel, &fx->kc, &fx->tmpl, budget, p,
                                     &err), 0);
}

/* Budget 60,000 cycles.  Timed warm-up: 1000 cycles (more than one DRAM
 * latency, 350).  A sample is at least 1000 + 1000 = 2000 cycles: 60000 /
 * 2000 = 30 samples, 10 positions of 3, capped at 4.  12 samples share the
 * budget: 60000 / 12 = 5000 cycles each, 1000 of warm-up and a window of
 * 4000.  Positions 30%, 50%, 70%, 40% of 410 CTAs = 123, 205, 287, 164,
 * rounded down to whole waves of 8: 120, 200, 280, 160; functional warming
 * walks 4 turnovers x 8 = 32 CTAs before each.  Per position the baseline,
 * RFC #7 and LTRF #7, all on the same CTAs, each keeping the template's
 * interval size. */
static void full_plan(void **state)
{
    fixture *fx = *state;
    rf_plan p;
    make(fx, 60000, &p);
    assert_int_equal(p.resident, 8);
    assert_int_equal(p.n, 12);
    assert_int_equal(p.ndesign, 2);
    assert_float_equal(p.budget, 60000, 1e-9);
    assert_float_equal(p.cost, 60000, 1e-9);
    const uint64_t skip[4] = {120, 200, 280, 160};
    const int kind[3] = {RF_DESIGN_BASELINE, RF_DESIGN_RFC, RF_DESIGN_LTRF};
    const int config[3] = {6, 7, 7};   /* the baseline keeps the default's #6 */
    for (int g = 0; g < 4; g++)
        for (int j = 0; j < 3; j++) {
            const rf_plan_point *pt = &p.pt[g * 3 + j];
            assert_int_equal(pt->skip_ctas, skip[g]);
            assert_int_equal(pt->warm_ctas, 32);
            assert_int_equal(pt->warmup, 1000);
            assert_int_equal(pt->cycles, 4000);
            assert_int_equal(pt->design.kind, kind[j]);
            assert_int_equal(pt->design.rf_config, config[j]);
            assert_false(pt->design.plus);
            assert_int_equal(pt->design.interval_regs, 12);
        }
    assert_string_equal(p.pt[0].label, "baseline at 30%");
    assert_string_equal(p.pt[5].label, "ltrf #7 at 50%");
}

/* Budget 6,000: 6000 / 2000 = 3 samples, one position of three, 2000
 * cycles each (1000 + 1000).  Budget 4,000: 2 samples, less than a
 * position: the pair baseline and RFC #7 at 30%, 2000 cycles each.
 * Budget 1,900: not one sample of 2000 cycles: no windows. */
static void small_budgets(void **state)
{
    fixture *fx = *state;
    rf_plan p;
    make(fx, 6000, &p);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.ndesign, 2);
    assert_int_equal(p.pt[2].cycles, 1000);
    assert_int_equal(p.pt[2].skip_ctas, 120);
    make(fx, 4000, &p);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.ndesign, 1);
    assert_int_equal(p.pt[0].design.kind, RF_DESIGN_BASELINE);
    assert_int_equal(p.pt[1].design.kind, RF_DESIGN_RFC);
    assert_int_equal(p.pt[1].skip_ctas, p.pt[0].skip_ctas);
    assert_int_equal(p.pt[1].warmup + p.pt[1].cycles, 2000);
    assert_float_equal(p.cost, 4000, 1e-9);
    make(fx, 1900, &p);
    assert_int_equal(p.n, 0);
}

/* A grid of 20 CTAs, budget 24,000 (12 samples: four positions of 3):
 * 30%, 50%, 70%, 40% are CTAs 6, 10, 14, 8, rounded down to whole waves
 * of 8: 0, 8, 8, 8.  Two distinct positions, 0 and 8, get a pair each
 * (24000 / 6 = 4000 cycles per sample); the first has nothing to walk
 * before it (warm_ctas 0) and reads the kernel's start-up in a window of
 * 3000 cycles, the second walks the 8 CTAs before it.  A grid of 15 CTAs
 * is under two waves of 8 (RF_PLAN_PF_MIN_WAVES): no mid-run, no windows
 * at any budget; 16 CTAs are two waves and get them. */
static void short_grid(void **state)
{
    fixture *fx = *state;
    rf_plan p;
    fx->sf.kernel.launch.grid[0] = 15;
    make(fx, 24000, &p);
    assert_int_equal(p.n, 0);
    fx->sf.kernel.launch.grid[0] = 16;
    make(fx, 24000, &p);
    assert_true(p.n > 0);
    fx->sf.kernel.launch.grid[0] = 20;
    make(fx, 24000, &p);
    fx->sf.kernel.launch.grid[0] = 410;
    assert_int_equal(p.n, 6);
    for (int i = 0; i < p.n; i++) {
        assert_int_equal(p.pt[i].skip_ctas, i < 3 ? 0 : 8);
        assert_int_equal(p.pt[i].warm_ctas, i < 3 ? 0 : 8);
        assert_int_equal(p.pt[i].cycles, 3000);
    }
    assert_string_equal(p.pt[3].label, "baseline at 50%");
}

static double model_ipc(fixture *fx, const rf_design *d, const rf_calib *cal)
{
    rf_kernel *k = &fx->sf.kernel;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_estimate e;
    rf_err err = {0};
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, d, &fx->kc, &shape, cal, &e, &err), 0);
    return e.ipc;
}

/* Windows that read exactly the model's ratios at the defaults, at two
 * positions whose levels differ by 20%: the position cancels in the
 * pairs, so the log ratios' spread is 0 and the noise is the floor,
 * sqrt(0 / 2 + 0.02^2) = 2%; the fit stays at the defaults. */
static void ratios_at_the_defaults(void **state)
{
    fixture *fx = *state;
    rf_plan p;
    make(fx, 12000, &p);       /* 12000 / 2000 = 6 samples: two positions */
    assert_int_equal(p.n, 6);
    rf_calib def;
    rf_calib_init(&def, "maxwell-ltrf", "simfix");
    rf_pffit_win w[RF_PLAN_MAX];
    memset(w, 0, sizeof w);
    double m[3];
    for (int j = 0; j < 3; j++)
        m[j] = model_ipc(fx, &p.pt[j].design, NULL);
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < 3; j++) {
            w[g * 3 + j].ipc = (g ? 1.2 : 1.0) * m[j];
            w[g * 3 + j].warmup = 1000;
            w[g * 3 + j].cycles = 1000;
        }
    rf_calib cal = def;
    rf_pffit_wrep rep;
    rf_err err = {0};
    assert_int_equal(rf_pffit_fit_windows(&fx->sf.gpu, &fx->sf.kernel, &fx->kc, &p, w, &cal,
                                          &rep, &err), 0);
    assert_int_equal(rep.npos, 2);
    assert_int_equal(rep.per, 3);
    assert_float_equal(rep.sim_cycles, 6 * 2000, 1e-9);
    for (int j = 1; j < 3; j++) {
        assert_float_equal(rep.ratio[j], m[j] / m[0], 1e-12);
        assert_float_equal(rep.noise[j], 0.02, 1e-12);
        assert_float_equal(rep.model0[j], m[j] / m[0], 1e-12);
        assert_float_equal(rep.model[j], m[j] / m[0], 1e-3);
    }
    assert_int_equal(cal.nfit, 2);   /* pf_scale, rfc_scale */
    assert_int_equal(cal.samples, 6);
    for (int j = 0; j < cal.nfit; j++) {
        const rf_mparam *mp = &rf_ipc_mparams[cal.fit_idx[j]];
        assert_float_equal(rf_mparam_get(mp, &cal.params), mp->def, 0.02);
    }
}

/* The noise is the spread of the log ratio over the positions: RFC #7's
 * windows read 0.9 and 1.1 of the baseline at the two positions, LTRF's
 * the model's ratio; the RFC log ratios ln 0.9 = -0.10536 and ln 1.1 =
 * 0.09531 have mean -0.005025 (ratio 0.99499) and sample standard
 * deviation |ln 1.1 - ln 0.9| / sqrt 2 = 0.141896, so sigma =
 * sqrt(0.141896^2 / 2 + 0.02^2) = 0.102309.  With one position the spread
 * is not measured: sqrt(0.20^2 / 1 + 0.02^2) = 0.200998. */
static void measured_noise(void **state)
{
    fixture *fx = *state;
    rf_plan p;
    make(fx, 12000, &p);
    rf_pffit_win w[RF_PLAN_MAX];
    memset(w, 0, sizeof w);
    double m[3];
    for (int j = 0; j < 3; j++)
        m[j] = model_ipc(fx, &p.pt[j].design, NULL);
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < 3; j++) {
            w[g * 3 + j].ipc = j == 1 ? (g ? 1.1 : 0.9) * m[0] : m[j];
            w[g * 3 + j].warmup = 1000;
            w[g * 3 + j].cycles = 1000;
        }
    rf_calib cal;
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    rf_pffit_wrep rep;
    rf_err err = {0};
    assert_int_equal(rf_pffit_fit_windows(&fx->sf.gpu, &fx->sf.kernel, &fx->kc, &p, w, &cal,
                                          &rep, &err), 0);
    assert_float_equal(rep.ratio[1], 0.99499, 1e-5);
    assert_float_equal(rep.noise[1], 0.102309, 1e-6);
    assert_float_equal(rep.noise[2], 0.02, 1e-12);
    make(fx, 6000, &p);
    assert_int_equal(p.n, 3);
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    assert_int_equal(rf_pffit_fit_windows(&fx->sf.gpu, &fx->sf.kernel, &fx->kc, &p, w, &cal,
                                          &rep, &err), 0);
    assert_float_equal(rep.noise[1], 0.200998, 1e-6);
}

/* No windows (too short a kernel): the record keeps the defaults and no
 * samples, so estimates from it are uncalibrated. */
static void no_windows(void **state)
{
    fixture *fx = *state;
    rf_plan p;
    make(fx, 1900, &p);
    rf_pffit_win w[RF_PLAN_MAX];
    memset(w, 0, sizeof w);
    rf_calib cal;
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    rf_pffit_wrep rep;
    rf_err err = {0};
    assert_int_equal(rf_pffit_fit_windows(&fx->sf.gpu, &fx->sf.kernel, &fx->kc, &p, w, &cal,
                                          &rep, &err), 0);
    assert_int_equal(cal.samples, 0);
    assert_int_equal(cal.nfit, 0);
    assert_float_equal(cal.full_cycles, p.full_cycles, 1e-9);
}

/* The level: the CTA population model's whole-grid IPC of the baseline
 * (rf_calib_window_ipc from CTA 0, the paths drawn with the sampler seed)
 * over the wave formula's (rf_extrap_estimate at level 1), one draw.  The
 * fixture's estimated run (40 ALU instructions per warp) is too short for
 * a pair of windows within 3% of it, so rf_pffit_calibrate leaves the
 * record without samples (its estimates are reported uncalibrated) at
 * level 1: a level no window checked is not applied. */
static void level(void **state)
{
    fixture *fx = *state;
    rf_kernel *k = &fx->sf.kernel;
    rf_design base = fx->tmpl;
    base.kind = RF_DESIGN_BASELINE;
    rf_err err = {0};
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&fx->sf.gpu, k->func, &k->profile, fx->kc.warps_per_cta, 0,
                                     410, 1, 7, &cs, &err), 0);
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    double pop = 0;
    assert_int_equal(rf_calib_window_ipc(&fx->sf.gpu, &base, k, &fx->kc, cs, &p, 0, 0, 0, 0,
                                         &pop, &err), 0);
    rf_kchar_ctaset_free(cs);
    double wave = model_ipc(fx, &base, NULL);
    assert_true(pop > 0 && wave > 0);
    rf_calib cal;
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    assert_int_equal(rf_pffit_level(&fx->sf.gpu, k, &fx->kc, &base, 7, &cal, &err), 0);
    assert_float_equal(cal.level, fmin(2.0, fmax(0.5, pop / wave)), 1e-12);

    rf_plan plan;
    rf_pffit_win w[RF_PLAN_MAX];
    rf_pffit_wrep rep;
    rf_calib c2;
    rf_calib_init(&c2, "maxwell-ltrf", "simfix");
    assert_int_equal(rf_pffit_calibrate(&fx->sf.gpu, k, &fx->kc, &fx->tmpl, 0, 7, 2, &plan, w, &c2,
                                        &rep, &err), 0);
    assert_int_equal(plan.n, 0);
    assert_int_equal(c2.samples, 0);
    assert_int_equal(c2.nfit, 0);
    /* No window checked it: level 1, its variance 0.114^2. */
    assert_float_equal(c2.level, 1.0, 0.0);
    assert_float_equal(c2.level_var, 0.012996, 1e-12);
}

/* The level's variance, 0.5^2 (m^2 + se^2) + 0.04^2:
 *   m = 0.10, se = 0.02: 0.25 (0.01 + 0.0004) + 0.0016 = 0.0042;
 *   m = se = 0: the floor alone, 0.0016.
 * The shrink weight against N = level_var + mean_j (noise_j^2 + 0.05^2)
 * over the design windows j = 1, 2, w = D^2 / (D^2 + N), D = 0.07:
 *   noise 0.03, 0.04, level_var 0.0042: N = 0.0042 + ((0.0009 + 0.0025)
 *   + (0.0016 + 0.0025)) / 2 = 0.0042 + 0.00375 = 0.00795,
 *   w = 0.0049 / 0.01285 = 0.381323;
 *   level_var 0: N = 0.00375, w = 0.0049 / 0.00865 = 0.566474. */
static void level_variance_and_shrink(void **state)
{
    (void)state;
    assert_float_equal(rf_pffit_level_var(0.10, 0.02), 0.0042, 1e-15);
    assert_float_equal(rf_pffit_level_var(-0.10, 0.02), 0.0042, 1e-15);
    assert_float_equal(rf_pffit_level_var(0, 0), 0.0016, 1e-15);
    const double noise[3] = {0, 0.03, 0.04};
    assert_float_equal(rf_pffit_shrink(3, noise, 0.0042), 0.0049 / 0.01285, 1e-12);
    assert_float_equal(rf_pffit_shrink(3, noise, 0), 0.0049 / 0.00865, 1e-12);
}

/* The interval of a record with level_var 0.01 (samples 6, no fitted
 * parameters, no residual, no shrinkage): v = SIGMA_PRED^2 + level_var =
 * 0.003^2 + 0.01 = 0.010009, half width 1.959964 sqrt(0.010009) =
 * 0.196085 of the estimate (0.003 x 1.959964 = 0.005880 without it).  A
 * record without samples: the uncalibrated model's 4.5% and the level's,
 * 1.959964 sqrt(0.045^2 + 0.01) = 0.214927. */
static void interval_takes_level_var(void **state)
{
    fixture *fx = *state;
    rf_design base = fx->tmpl;
    base.kind = RF_DESIGN_BASELINE;
    rf_kernel *k = &fx->sf.kernel;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_calib cal;
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    cal.samples = 6;
    rf_estimate e;
    rf_err err = {0};
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &base, &fx->kc, &shape, &cal, &e, &err), 0);
    assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, 0.005880, 1e-6);
    cal.level_var = 0.01;
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &base, &fx->kc, &shape, &cal, &e, &err), 0);
    assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, 0.196085, 1e-6);
    assert_float_equal((e.ipc - e.ipc_lo) / e.ipc, 0.196085, 1e-6);
    cal.samples = 0;
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &base, &fx->kc, &shape, &cal, &e, &err), 0);
    assert_false(e.calibrated);
    assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, 0.214927, 1e-6);
}

/* A record whose level has its own weight (level_apart): level 1.05 at
 * weight 0.5, the parameters at their defaults (no correction beside the
 * level), samples 6, no residual: IPC = IPC_unc 1.05^0.5 = 1.0246951
 * IPC_unc, whatever the other weight; the interval adds the level's
 * correction given up, ((1 - 0.5) ln 1.05)^2 = 0.0243951^2 = 0.0005951:
 * v = 0.003^2 + 0.0005951 = 0.0006041, half width 1.959964 sqrt(v) =
 * 0.0481737 of the estimate.  Level 1.2: ((1 - 0.5) ln 1.2)^2 = 0.0083103
 * exceeds the uncalibrated model's 0.045^2 = 0.002025, which stands in
 * for it (calibrate/extrapolate.c, 4.): v = 0.000009 + 0.002025 =
 * 0.002034, half width 1.959964 x 0.0450999 = 0.0883942.  Weight 1: the
 * whole level, 1.2 IPC_unc, and the floor's 0.005880 alone. */
static void level_weighed_apart(void **state)
{
    fixture *fx = *state;
    rf_design base = fx->tmpl;
    base.kind = RF_DESIGN_BASELINE;
    rf_kernel *k = &fx->sf.kernel;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_err err = {0};
    rf_estimate u, e;
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &base, &fx->kc, &shape, NULL, &u, &err), 0);
    rf_calib cal;
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    cal.samples = 6;
    cal.level = 1.05;
    cal.level_apart = true;
    cal.level_shrink = 0.5;
    for (int i = 0; i < 2; i++) {
        cal.shrink = i ? 0.3 : 1.0;
        assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &base, &fx->kc, &shape, &cal, &e, &err),
                         0);
        assert_float_equal(e.ipc / u.ipc, 1.0246951, 1e-7);
        assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, 0.0481737, 1e-6);
    }
    cal.level = 1.2;
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &base, &fx->kc, &shape, &cal, &e, &err), 0);
    assert_float_equal(e.ipc / u.ipc, 1.0954451, 1e-7);
    assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, 0.0883942, 1e-6);
    cal.level_shrink = 1.0;
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &base, &fx->kc, &shape, &cal, &e, &err), 0);
    assert_float_equal(e.ipc / u.ipc, 1.2, 1e-12);
    assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, 0.005880, 1e-6);
}

/* The interval of a register-cache record carries its fitted parameters'
 * covariance: rfc_scale fitted with variance 0.04 (sd 0.2), shrink 1, no
 * residual.  RFC #7's estimate moves with rfc_scale through its miss
 * stall, g = dIPC / d rfc_scale (forward difference over h = 1e-4 x the
 * parameter's range, 8: 8e-4), so v = 0.003^2 + g^2 0.04 / IPC^2; the
 * baseline's does not move (v = 0.003^2, half width 0.005880).  Shrink 0:
 * the term is weighed by w^2 = 0, and the interval is the floor's plus
 * the correction given up (none: the parameters at their defaults). */
static void interval_takes_pf_covariance(void **state)
{
    fixture *fx = *state;
    rf_kernel *k = &fx->sf.kernel;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_calib cal;
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    cal.samples = 6;
    cal.nfit = 1;
    cal.fit_idx[0] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "rfc_scale");
    assert_true(cal.fit_idx[0] >= 0);
    cal.cov[0][0] = 0.04;
    rf_err err = {0};
    rf_design d = fx->tmpl;
    d.kind = RF_DESIGN_RFC;
    d.rf_config = 7;
    rf_estimate e, e2;
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &d, &fx->kc, &shape, &cal, &e, &err), 0);
    rf_calib c2 = cal;
    c2.nfit = 0;
    const rf_mparam *mp = &rf_ipc_mparams[cal.fit_idx[0]];
    double h = 1e-4 * (mp->hi - mp->lo);
    rf_mparam_put(mp, &c2.params, rf_mparam_get(mp, &c2.params) + h);
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &d, &fx->kc, &shape, &c2, &e2, &err), 0);
    double g = (e2.ipc - e.ipc) / h;
    assert_true(g < 0);     /* a larger miss stall, a lower IPC */
    double half = 1.959963984540054 * sqrt(0.003 * 0.003 + g * g * 0.04 / (e.ipc * e.ipc));
    assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, half, 1e-9);
    assert_true(half > 0.005880);
    cal.shrink = 0;
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &d, &fx->kc, &shape, &cal, &e, &err), 0);
    assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, 0.005880, 1e-6);
    cal.shrink = 1;
    d.kind = RF_DESIGN_BASELINE;
    assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &d, &fx->kc, &shape, &cal, &e, &err), 0);
    assert_float_equal((e.ipc_hi - e.ipc) / e.ipc, 0.005880, 1e-6);
}

/* rf_extrap_estimate_pk with the figures rf_extrap_pf_kernel gives is
 * rf_extrap_estimate, to the bit: for RFC #7 and LTRF #7 (the walked
 * figures: the miss path's extra stall, the intervals), uncalibrated and
 * under a record whose shrinkage re-estimates uncalibrated inside; the
 * baseline's figures are zero. */
static void estimate_with_pf_kernel(void **state)
{
    fixture *fx = *state;
    rf_kernel *k = &fx->sf.kernel;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_calib cal;
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    cal.samples = 6;
    cal.level = 1.1;
    cal.shrink = 0.4;
    rf_err err = {0};
    const int kinds[3] = {RF_DESIGN_RFC, RF_DESIGN_LTRF, RF_DESIGN_BASELINE};
    for (int i = 0; i < 3; i++) {
        rf_design d = fx->tmpl;
        d.kind = kinds[i];
        d.rf_config = 7;
        rf_pf_kernel pk;
        assert_int_equal(rf_extrap_pf_kernel(&fx->sf.gpu, &d, &fx->kc, &shape, &pk, &err), 0);
        if (kinds[i] == RF_DESIGN_RFC)
            assert_true(pk.miss_delay > 0);
        if (kinds[i] == RF_DESIGN_BASELINE)
            assert_float_equal(pk.miss_delay, 0.0, 0.0);
        for (int c = 0; c < 2; c++) {
            rf_estimate a, b;
            const rf_calib *cp = c ? &cal : NULL;
            assert_int_equal(rf_extrap_estimate(&fx->sf.gpu, &d, &fx->kc, &shape, cp, &a, &err),
                             0);
            assert_int_equal(rf_extrap_estimate_pk(&fx->sf.gpu, &d, &fx->kc, &shape, cp, &pk, &b,
                                                   &err), 0);
            assert_true(a.ipc == b.ipc);
            assert_true(a.cycles == b.cycles);
            assert_true(a.ipc_hi == b.ipc_hi || (isnan(a.ipc_hi) && isnan(b.ipc_hi)));
        }
    }
}

/* The baseline windows against the population model at the same windows:
 * two positions, the baseline windows reading 1.1 and 1.2 times the
 * model's replay there (rep.base_model, which the windows' IPCs do not
 * move), the design windows the model's ratios.  d = ln 1.1 = 0.0953102,
 * ln 1.2 = 0.1823216; m = 0.1388159; sd = (d2 - d1) / sqrt 2 = 0.0615263,
 * se = sd / sqrt 2 = 0.0435057; level_var = 0.25 (0.1388159^2 +
 * 0.0435057^2) + 0.0016 = 0.0068906.  The level is the population
 * model's, not moved by the windows.  The shrink weight of the
 * corrections beside it: D^2 / (D^2 + N), D = 0.07, N = the design
 * windows' mean (noise^2 + 0.05^2), their ratios' noise 2% (the floor):
 * 0.0049 / (0.0049 + 0.0004 + 0.0025) = 0.628205; the level's own
 * weight 0.05^2 / (0.05^2 + level_var) = 0.266222.  No windows: level_var 0.114^2 =
 * 0.012996, shrink 1, level 1 (from 1.2 or 1.05 alike). */
static void window_level(void **state)
{
    fixture *fx = *state;
    rf_kernel *k = &fx->sf.kernel;
    rf_plan p;
    make(fx, 12000, &p);
    assert_int_equal(p.n, 6);
    rf_pffit_win w[RF_PLAN_MAX];
    memset(w, 0, sizeof w);
    double m[3];
    for (int j = 0; j < 3; j++)
        m[j] = model_ipc(fx, &p.pt[j].design, NULL);
    for (int i = 0; i < 6; i++) {
        w[i].ipc = m[i % 3];
        w[i].warmup = 1000;
        w[i].cycles = 1000;
    }
    rf_design base = fx->tmpl;
    base.kind = RF_DESIGN_BASELINE;
    rf_calib cal;
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    rf_pffit_wrep rep;
    rf_err err = {0};
    assert_int_equal(rf_pffit_fit_windows(&fx->sf.gpu, k, &fx->kc, &p, w, &cal, &rep, &err), 0);
    assert_int_equal(rf_pffit_level(&fx->sf.gpu, k, &fx->kc, &base, 3, &cal, &err), 0);
    rf_calib c0 = cal;
    assert_int_equal(rf_pffit_window_level(&fx->sf.gpu, k, &fx->kc, &p, w, 3, &cal, &rep, &err),
                     0);
    double mod[2] = {rep.base_model[0], rep.base_model[1]};
    assert_true(mod[0] > 0 && mod[1] > 0);
    for (int g = 0; g < 2; g++)
        for (int j = 0; j < 3; j++)
            w[g * 3 + j].ipc = (g ? 1.2 : 1.1) * mod[g] * m[j] / m[0];
    cal = c0;
    assert_int_equal(rf_pffit_fit_windows(&fx->sf.gpu, k, &fx->kc, &p, w, &cal, &rep, &err), 0);
    cal.level = c0.level;
    assert_int_equal(rf_pffit_window_level(&fx->sf.gpu, k, &fx->kc, &p, w, 3, &cal, &rep, &err),
                     0);
    assert_float_equal(rep.base_model[0], mod[0], 1e-12);
    assert_float_equal(rep.base_model[1], mod[1], 1e-12);
    /* The windows' CTAs sliced from the level's walk (on 3 threads: the
     * same set): the same CTAs under the same seed, the same replay. */
    rf_calib cw = c0;
    rf_ctaset *walked = NULL;
    assert_int_equal(rf_pffit_level_walked(&fx->sf.gpu, k, &fx->kc, &base, 3, 3, &cw, &walked, &err),
                     0);
    assert_non_null(walked);
    assert_float_equal(cw.level, c0.level, 0.0);
    rf_pffit_wrep rw;
    cw = cal;
    assert_int_equal(rf_pffit_fit_windows(&fx->sf.gpu, k, &fx->kc, &p, w, &cw, &rw, &err), 0);
    cw.level = c0.level;
    assert_int_equal(rf_pffit_window_level_from(&fx->sf.gpu, k, &fx->kc, &p, w, 3, walked, &cw,
                                                &rw, &err), 0);
    rf_kchar_ctaset_free(walked);
    assert_float_equal(rw.base_model[0], mod[0], 1e-12);
    assert_float_equal(rw.base_model[1], mod[1], 1e-12);
    assert_float_equal(cw.level_var, cal.level_var, 1e-15);
    assert_float_equal(rep.lv_mean, 0.1388159, 1e-7);
    assert_float_equal(rep.lv_noise, 0.0435057, 1e-7);
    assert_float_equal(cal.level_var, 0.0068906, 1e-7);
    assert_float_equal(cal.level, c0.level, 0.0);
    assert_float_equal(rep.noise[1], 0.02, 1e-12);
    assert_float_equal(rep.noise[2], 0.02, 1e-12);
    assert_float_equal(cal.shrink, 0.0049 / 0.0078, 1e-12);
    assert_true(cal.shrink >= 0 && cal.shrink <= 1);
    /* The level is weighed apart and not applied: its weight is 0 (its
     * log enters the interval beside level_var). */
    assert_true(cal.level_apart);
    assert_float_equal(cal.level_shrink, 0.0, 0.0);

    make(fx, 1900, &p);
    assert_int_equal(p.n, 0);
    rf_calib_init(&cal, "maxwell-ltrf", "simfix");
    cal.shrink = 0.5;
    cal.level = 1.2;
    assert_int_equal(rf_pffit_window_level(&fx->sf.gpu, k, &fx->kc, &p, w, 3, &cal, &rep, &err),
                     0);
    assert_float_equal(cal.level_var, 0.012996, 1e-12);
    assert_float_equal(cal.shrink, 1.0, 0.0);
    assert_float_equal(cal.level, 1.0, 0.0);
    cal.level = 1.05;
    assert_int_equal(rf_pffit_window_level(&fx->sf.gpu, k, &fx->kc, &p, w, 3, &cal, &rep, &err),
                     0);
    assert_float_equal(cal.level, 1.0, 1e-15);
}

/* The plan's windows on 1 and on 3 threads: the same IPCs, cycles and
 * simulated cycles, window by window (each runs on its own sampler). */
static void windows_on_threads(void **state)
{
    fixture *fx = *state;
    rf_plan p;
    make(fx, 12000, &p);
    assert_int_equal(p.n, 6);
    rf_pffit_win w1[RF_PLAN_MAX], w3[RF_PLAN_MAX];
    memset(w1, 0, sizeof w1);
    memset(w3, 0, sizeof w3);
    double c1 = 0, c3 = 0;
    rf_err err = {0};
    assert_int_equal(rf_pffit_run_windows(&fx->sf.gpu, &fx->sf.kernel, &p, 5, 1, w1, &c1, &err),
                     RF_OK);
    assert_int_equal(rf_pffit_run_windows(&fx->sf.gpu, &fx->sf.kernel, &p, 5, 3, w3, &c3, &err),
                     RF_OK);
    assert_true(c1 > 0);
    assert_float_equal(c3, c1, 0.0);
    for (int i = 0; i < p.n; i++) {
        assert_true(w1[i].ipc > 0);
        assert_float_equal(w3[i].ipc, w1[i].ipc, 0.0);
        assert_true(w3[i].cycles == w1[i].cycles);
        assert_true(w3[i].warmup == w1[i].warmup);
    }
}

/* The record's level_var row: saved and read back exactly; a record
 * without it (every ordinary one: the row is written only when non-zero)
 * reads as 0; a value outside [0, 1) is an error naming file, line and
 * key. */
static void record_level_var(void **state)
{
    (void)state;
    char path[] = "/tmp/rfkit-test-lvarXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    rf_err err = {0};
    rf_calib c, got;
    rf_calib_init(&c, "maxwell-ltrf", "sgemm");
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    char buf[65536];
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    assert_null(strstr(buf, "level_var"));
    assert_int_equal(rf_record_load(path, "maxwell-ltrf", "sgemm", &got, &err), RF_OK);
    assert_float_equal(got.level_var, 0.0, 0.0);
    c.level_var = 0.0068906475557629946;
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "maxwell-ltrf", "sgemm", &got, &err), RF_OK);
    assert_true(got.level_var == c.level_var);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("gpu,kernel,key,value\nv100,sgemm,level,1\nv100,sgemm,level_var,-0.1\n", fp);
    fclose(fp);
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, ":3"));
    assert_non_null(strstr(err.msg, "level_var"));
    /* level_shrink: absent, the level is weighed with the rest; saved and
     * read back exactly; outside [0, 1] an error naming file, line and key. */
    assert_false(got.level_apart);
    c.level_apart = true;
    c.level_shrink = 0.60903884470785211;
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "maxwell-ltrf", "sgemm", &got, &err), RF_OK);
    assert_true(got.level_apart);
    assert_true(got.level_shrink == c.level_shrink);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("gpu,kernel,key,value\nv100,sgemm,level,1\nv100,sgemm,level_shrink,1.5\n", fp);
    fclose(fp);
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, ":3"));
    assert_non_null(strstr(err.msg, "level_shrink"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_plan),
        cmocka_unit_test(small_budgets),
        cmocka_unit_test(short_grid),
        cmocka_unit_test(ratios_at_the_defaults),
        cmocka_unit_test(measured_noise),
        cmocka_unit_test(no_windows),
        cmocka_unit_test(level),
        cmocka_unit_test(level_variance_and_shrink),
        cmocka_unit_test(interval_takes_level_var),
        cmocka_unit_test(level_weighed_apart),
        cmocka_unit_test(estimate_with_pf_kernel),
        cmocka_unit_test(interval_takes_pf_covariance),
        cmocka_unit_test(window_level),
        cmocka_unit_test(windows_on_threads),
        cmocka_unit_test(record_level_var),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
