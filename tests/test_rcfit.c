/* test_rcfit.c - HI-RF calibration (calibrate/rcfit.c): the fit recovers
 * the locality exactly and reproduces the sampled IPCs when the samples
 * come from the model itself; one short sampler round trip. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/kchar.h"
#include "../analytic/occupancy.h"
#include "../analytic/rccollide.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/rcfit.h"

typedef struct fixture {
    rf_gpu gpu;
    rf_kernel *k;
    rf_ipc_kernel kc;
} fixture;

static int setup(void **state)
{
    static fixture fx;
    rf_err err = {0};
    if (rf_gpu_load("volta-hirf", &fx.gpu, NULL, &err))
        return -1;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.grid = "64";
    o.no_ptxas = true;
    if (rf_kernel_load("inputs/kernels/hotspot.spec", &o, &fx.k, &err))
        return -1;
    if (rf_kchar_compute(&fx.gpu, fx.k, &fx.kc, &err))
        return -1;
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    rf_kernel_destroy(fx->k);
    return 0;
}

static double model_ipc(fixture *fx, const rf_design *d, const rf_calib *cal, rf_rcc_result *rc)
{
    rf_shape shape = {fx->k->regs, rf_kernel_threads(fx->k),
                      fx->k->smem_static + fx->k->launch.smem, rf_kernel_ctas(fx->k), 1};
    rf_estimate e;
    rf_err err = {0};
    assert_int_equal(rf_extrap_estimate(&fx->gpu, d, &fx->kc, &shape, cal, &e, &err), 0);
    if (rc)
        *rc = e.rc;
    return e.ipc;
}

/* Observations made by the model at lat_scale 1.3, conflict_scale 1.5,
 * rc_stall 0.8 and locality 0.3: the locality comes back exactly (the
 * conflict rates are linear in it), and the fitted model meets the
 * sampled IPCs within 1% (the prior pulls the parameters slightly). */
static void recovers_model(void **state)
{
    fixture *fx = *state;
    rf_calib truth;
    rf_calib_init(&truth, "volta-hirf", fx->k->name);
    truth.params.lat_scale = truth.params.mem_scale = 1.3;
    truth.params.conflict.scale = 1.5;
    truth.params.rc_stall = 0.8;
    truth.params.rc_locality = 0.3;
    rf_design hirf;
    rf_design_init(&hirf);
    hirf.kind = RF_DESIGN_HIRF;
    rf_rcfit_obs obs[RF_RCFIT_N];
    rf_design pts[RF_RCFIT_N];
    rf_rcfit_points(&hirf, pts);
    assert_int_equal(pts[0].kind, RF_DESIGN_BASELINE);
    assert_int_equal(pts[2].index, RF_RC_TEA);
    assert_int_equal(pts[3].assign, RF_ASSIGN_WORST);
    for (int i = 0; i < RF_RCFIT_N; i++) {
        rf_rcc_result rc;
        obs[i].design = pts[i];
        obs[i].ipc = model_ipc(fx, &pts[i], &truth, &rc);
        obs[i].conflict = rc.conflict;
        obs[i].cycles = 1000;
    }
    rf_calib cal;
    rf_calib_init(&cal, "volta-hirf", fx->k->name);
    rf_err err = {0};
    assert_int_equal(rf_rcfit_fit(&fx->gpu, fx->k, &fx->kc, obs, &cal, &err), 0);
    assert_true(fabs(cal.params.rc_locality - 0.3) < 1e-6);
    for (int i = 0; i < RF_RCFIT_N; i++) {
        double ipc = model_ipc(fx, &pts[i], &cal, NULL);
        assert_true(fabs(ipc - obs[i].ipc) < 0.01 * obs[i].ipc);
    }
    assert_int_equal(cal.nfit, 3);
    assert_int_equal(cal.samples, RF_RCFIT_N);
    assert_true(cal.sample_cycles == 1000.0 * RF_RCFIT_N);
}

/* Sampler round trip on a 64-CTA grid: four runs, positive IPCs, conflict
 * rates only for the HI-RF points, and a fit that goes through. */
static void sampler_round_trip(void **state)
{
    fixture *fx = *state;
    rf_design hirf;
    rf_design_init(&hirf);
    hirf.kind = RF_DESIGN_HIRF;
    rf_sim_opts o;
    rf_sim_opts_init(&o);
    rf_rcfit_obs obs[RF_RCFIT_N];
    rf_err err = {0};
    assert_int_equal(rf_rcfit_sample(&fx->gpu, &hirf, fx->k, &o, obs, &err), 0);
    assert_true(obs[0].ipc > 0 && obs[1].ipc > 0 && obs[2].ipc > 0 && obs[3].ipc > 0);
    assert_true(obs[0].conflict == 0);
    assert_true(obs[1].conflict > 0 && obs[1].conflict < 1);
    rf_calib cal;
    rf_calib_init(&cal, "volta-hirf", fx->k->name);
    assert_int_equal(rf_rcfit_fit(&fx->gpu, fx->k, &fx->kc, obs, &cal, &err), 0);
    assert_true(cal.params.rc_locality >= 0 && cal.params.rc_locality <= 0.95);
}

/* The register cache's population is the warps not exited: a record's
 * meas_live replaces the walk's share (analytic/kchar.c), and the
 * estimate's rates are rf_rcc_apply's with it at the resident warps (fewer
 * warps competing for the lines: fewer conflicts). */
static void live_warps_fill_the_cache(void **state)
{
    fixture *fx = *state;
    rf_design hirf;
    rf_design_init(&hirf);
    hirf.kind = RF_DESIGN_HIRF;
    hirf.index = RF_RC_TEA;
    rf_calib all, part;
    rf_calib_init(&all, "volta-hirf", fx->k->name);
    rf_calib_init(&part, "volta-hirf", fx->k->name);
    all.meas_live = 1.0;
    part.meas_live = 0.25;
    rf_rcc_result ra, rp;
    model_ipc(fx, &hirf, &all, &ra);
    model_ipc(fx, &hirf, &part, &rp);
    assert_true(rp.conflict < ra.conflict);
    rf_occ_input in = {fx->k->regs, rf_kernel_threads(fx->k),
                       fx->k->smem_static + fx->k->launch.smem};
    rf_occ occ;
    rf_err err = {0};
    assert_int_equal(rf_occ_compute(&fx->gpu, &hirf, &in, &occ, &err), 0);
    int resident = occ.active_ctas > 0 ? occ.active_ctas : occ.ctas_per_sm;
    rf_ipc_machine m;
    rf_extrap_machine(&fx->gpu, &hirf, &occ, &m);
    rf_ipc_kernel kk;
    rf_ipc_params p;
    rf_extrap_setup(&fx->kc, &part, &kk, &p);
    assert_float_equal(kk.live_frac, 0.25, 0.0);
    rf_rcc_result r;
    assert_int_equal(rf_rcc_apply(&fx->gpu, &hirf, resident * kk.warps_per_cta, &p, &m, &kk, &r,
                                  &err), 0);
    assert_float_equal(r.conflict, rp.conflict, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recovers_model),
        cmocka_unit_test(sampler_round_trip),
        cmocka_unit_test(live_warps_fill_the_cache),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
