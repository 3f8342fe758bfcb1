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
    /* Four grid positions, 30/40/50/60% of hotspot's 32 x 32 = 1,024 CTAs
     * rounded down to whole waves of 4 resident CTAs (26 registers x 256
     * threads = 6,656 of Fermi's 32,768): 307 -> 304, 409 -> 408, 512,
     * 614 -> 612. */
    assert_int_equal(pl.resident, 4);
    assert_int_equal((int)pl.pt[0].skip_ctas, 304);
    assert_int_equal((int)pl.pt[1].skip_ctas, 408);
    assert_int_equal((int)pl.pt[2].skip_ctas, 512);
    assert_int_equal((int)pl.pt[3].skip_ctas, 612);
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
    rf_calib_opts co = {40000, 1, NULL, true, NULL};     /* cold windows */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_spends_the_budget),
        cmocka_unit_test(calibrates_and_round_trips),
    };
    return cmocka_run_group_tests_name("calibrate", tests, setup, teardown);
}
