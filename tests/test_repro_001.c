/* test_repro_001.c - seed 001's reproduction figures (results/repro_001.c)
 * and the verdict rules every experiment uses (results/repro_runs.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../results/repro_001.h"
#include "../results/repro_runs.h"

/* An effect is reproduced with the published sign within a factor of two.
 * Published -5% (seed 001 Fig. 2): the band is [-10%, -2.5%]. */
static void effect_factor_of_two(void **state)
{
    (void)state;
    assert_int_equal(rf_rr_effect(-0.030, -0.05, 0.01), RF_REPRODUCED);
    assert_int_equal(rf_rr_effect(-0.025, -0.05, 0.01), RF_REPRODUCED);   /* edge p/2 */
    assert_int_equal(rf_rr_effect(-0.100, -0.05, 0.01), RF_REPRODUCED);   /* edge 2p */
    assert_int_equal(rf_rr_effect(-0.020, -0.05, 0.01), RF_DIFFERS);      /* too small */
    assert_int_equal(rf_rr_effect(-0.110, -0.05, 0.01), RF_DIFFERS);      /* too large */
    assert_int_equal(rf_rr_effect(+0.030, -0.05, 0.01), RF_DIFFERS);      /* wrong sign */
    /* Published +7% (Fig. 12), rfkit's measured -1.9%: differs. */
    assert_int_equal(rf_rr_effect(-0.019, 0.07, 0.01), RF_DIFFERS);
    assert_int_equal(rf_rr_effect(0.006, 0.07, 0.01), RF_DIFFERS);
    assert_int_equal(rf_rr_effect(0.050, 0.07, 0.01), RF_REPRODUCED);
    assert_int_equal(rf_rr_effect(NAN, 0.07, 0.01), RF_DIFFERS);
}

/* A published "no change" (16 banks almost the same as 32) is reproduced
 * within the flat band only. */
static void effect_flat(void **state)
{
    (void)state;
    assert_int_equal(rf_rr_effect(0.007, 0.0, 0.02), RF_REPRODUCED);
    assert_int_equal(rf_rr_effect(-0.02, 0.0, 0.02), RF_REPRODUCED);
    assert_int_equal(rf_rr_effect(0.03, 0.0, 0.02), RF_DIFFERS);
    /* flat 0: every published effect is judged by its factor of two */
    assert_int_equal(rf_rr_effect(-0.010, -0.018, 0), RF_REPRODUCED);
    assert_int_equal(rf_rr_effect(-0.006, -0.018, 0), RF_DIFFERS);
}

/* Levels: seed 002 Fig. 8, HI_CAC at 0.269 of SRAM, tolerance 0.10. */
static void level(void **state)
{
    (void)state;
    assert_int_equal(rf_rr_level(0.35, 0.269, 0.10), RF_REPRODUCED);
    assert_int_equal(rf_rr_level(0.45, 0.269, 0.10), RF_DIFFERS);
    assert_int_equal(rf_rr_level(0.16, 0.269, 0.10), RF_DIFFERS);
    assert_string_equal(rf_rr_verdict_name(RF_REPRODUCED), "reproduced");
    assert_string_equal(rf_rr_verdict_name(RF_DIFFERS), "differs");
}

/* geomean(0.5, 2) = 1; geomean(1, 4) = 2; geomean(0.8, 0.9, 1.25) =
 * (0.9)^(1/3) = 0.96549. */
static void geomean(void **state)
{
    (void)state;
    assert_float_equal(rf_rr_geomean((double[]){0.5, 2}, 2), 1.0, 1e-12);
    assert_float_equal(rf_rr_geomean((double[]){1, 4}, 2), 2.0, 1e-12);
    assert_float_equal(rf_rr_geomean((double[]){0.8, 0.9, 1.25}, 3), 0.965489, 1e-6);
    assert_true(isnan(rf_rr_geomean(NULL, 0)));
}

/* Hand-made runs: IPC 1.6 at 16 banks; 1.2, 1.3, 1.25, 1.4 at 8 banks
 * straight, read, write, both.  r8 = 0.75, 0.8125, 0.78125, 0.875.  The
 * R+W run: 3,000 reads + 1,000 writes over 1,000 warp instructions = 4
 * accesses per instruction; at the 16-bank IPC that is 4 x 1.6 = 6.4
 * accesses per cycle, 0.8 of 8 banks. */
static void figures_by_hand(void **state)
{
    (void)state;
    rf_sim_stats s16, s8[4];
    memset(&s16, 0, sizeof s16);
    memset(s8, 0, sizeof s8);
    s16.ipc = 1.6;
    const double ipc8[4] = {1.2, 1.3, 1.25, 1.4};
    for (int m = 0; m < 4; m++)
        s8[m].ipc = ipc8[m];
    s8[3].bank_reads = 3000;
    s8[3].bank_writes = 1000;
    s8[3].warp_insts = 1000;
    const rf_sim_stats *p8[4] = {&s8[0], &s8[1], &s8[2], &s8[3]};
    double r8[4], load8;
    rf_repro001_figures(&s16, p8, r8, &load8);
    assert_float_equal(r8[0], 0.75, 1e-12);
    assert_float_equal(r8[1], 0.8125, 1e-12);
    assert_float_equal(r8[2], 0.78125, 1e-12);
    assert_float_equal(r8[3], 0.875, 1e-12);
    assert_float_equal(load8, 0.8, 1e-12);
    /* A run that retired nothing has no load. */
    s8[3].warp_insts = 0;
    rf_repro001_figures(&s16, p8, r8, &load8);
    assert_true(isnan(load8));
}

/* On real full runs of a bundled kernel (bfs, the shortest), load8 is the
 * utilisation the sampler's bank counters give, scaled to the 16-bank
 * speed: each access holds a single-ported bank one cycle, so
 * bank_util x banks x cycles = bank_reads + bank_writes, and
 *     load8 = util_8 x IPC_16 / IPC_8   (R+W run at 8 banks). */
static void load_is_bank_utilisation(void **state)
{
    (void)state;
    rf_repro_opts o;
    memset(&o, 0, sizeof o);
    o.kernels = "inputs/kernels";
    o.seed = 1;
    rf_gpu gpu;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_gpu_load("fermi-gtx480", &gpu, NULL, &err), 0);
    rf_rr_kernel rk;
    int rc = rf_rr_open(&o, &gpu, "bfs", 0, &rk, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);
    rf_design d16, d8;
    rf_design_init(&d16);
    d16.banks = 16;
    rf_design_init(&d8);
    d8.kind = RF_DESIGN_STEALING;
    d8.banks = 8;
    d8.read_steal = d8.write_steal = true;
    rf_sim_stats s16, s8;
    assert_int_equal(rf_rr_simulate(&gpu, &d16, rk.k, 1, &s16, &err), 0);
    assert_int_equal(rf_rr_simulate(&gpu, &d8, rk.k, 1, &s8, &err), 0);
    rf_rr_close(&rk);
    assert_int_equal(s8.banks, 8);
    assert_int_equal(s16.banks, 16);
    assert_true(s8.stolen_reads + s8.stolen_writes > 0);   /* stealing ran */
    double acc = (double)(s8.bank_reads + s8.bank_writes);
    assert_float_equal(s8.bank_util * 8 * (double)s8.cycles, acc, 1e-6 * acc);
    const rf_sim_stats *p8[4] = {&s8, &s8, &s8, &s8};
    double r8[4], load8;
    rf_repro001_figures(&s16, p8, r8, &load8);
    assert_float_equal(load8, s8.bank_util * s16.ipc / s8.ipc, 1e-9);
    assert_float_equal(r8[3], s8.ipc / s16.ipc, 1e-12);
}

/* A bundled kernel that is not there names its spec file. */
static void missing_kernel_names_file(void **state)
{
    (void)state;
    rf_repro_opts o;
    memset(&o, 0, sizeof o);
    o.kernels = "tests/no-such-folder";
    rf_gpu gpu;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_gpu_load("fermi-gtx480", &gpu, NULL, &err), 0);
    rf_rr_kernel rk;
    assert_true(rf_rr_open(&o, &gpu, "bfs", 0, &rk, &err) < 0);
    assert_non_null(strstr(err.msg, "tests/no-such-folder/bfs.spec"));
    assert_null(rk.k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(effect_factor_of_two),
        cmocka_unit_test(effect_flat),
        cmocka_unit_test(level),
        cmocka_unit_test(geomean),
        cmocka_unit_test(figures_by_hand),
        cmocka_unit_test(load_is_bank_utilisation),
        cmocka_unit_test(missing_kernel_names_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
