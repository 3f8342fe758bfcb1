/* test_repro_000.c - seed 000's reproduction (results/repro_000.c and the
 * runs of results/repro_occ.c): the calibrated estimates' CTA counts of
 * the four designs against hand-computed ones, the issue slots the stall
 * shares divide by, and the verdict rule of the depletion-stall claims. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../results/repro_occ.h"
#include "../results/repro_runs.h"

/* sfu (13 registers, 256 threads, no shared memory) on maxwell-gtx980
 * (65536 registers, 128-register allocation unit, 2048 threads, 32 CTAs):
 *   a warp takes ceil(13 x 32 = 416, 128) = 512 registers, a CTA 8 x 512 =
 *   4096;
 *   baseline: threads 2048 / 256 = 8 CTAs (registers allow 16);
 *   VT: CTAs until the register file is full, 65536 / 4096 = 16;
 *   FineReg 128/128 KB: ACRF 32768 / 4096 = 8 active; PCRF 131072 / 128 =
 *     1024 entries, a pending CTA 8 warps x ceil(0.553 x 13 = 7.19) = 8
 *     live = 64 entries: 16 pending, 24 in all;
 *   VT+RegMutex: base set ceil(0.5 x 13) = 7, pool one CTA's extended sets
 *     8 x ceil(6 x 32, 128) = 2048, base per CTA 8 x ceil(7 x 32, 128) =
 *     2048: (65536 - 2048) / 2048 = 31 CTAs. */
static void estimate_counts(void **state)
{
    (void)state;
    rf_repro_opts o;
    memset(&o, 0, sizeof o);
    o.jobs = 1;
    o.seed = 1;
    o.kernels = "inputs/kernels";
    rf_design d[4];
    for (int i = 0; i < 4; i++)
        rf_design_init(&d[i]);
    d[1].kind = RF_DESIGN_VT;
    d[2].kind = RF_DESIGN_FINEREG;
    d[2].acrf_kb = d[2].pcrf_kb = 128;
    d[3].kind = RF_DESIGN_REGMUTEX;
    rf_estimate e[4];
    rf_err err;
    assert_int_equal(rf_repro_occ_estimate(&o, "maxwell-gtx980", "sfu", d, 4, 1, e, &err), 0);
    assert_int_equal(e[0].occ.ctas_per_sm, 8);
    assert_int_equal(e[1].occ.ctas_per_sm, 16);
    assert_int_equal(e[1].occ.active_ctas, 8);
    assert_int_equal(e[2].occ.active_ctas, 8);
    assert_int_equal(e[2].occ.pending_ctas, 16);
    assert_int_equal(e[2].occ.ctas_per_sm, 24);
    assert_int_equal(e[3].occ.srp_regs, 2048);
    assert_int_equal(e[3].occ.ctas_per_sm, 31);
    for (int i = 0; i < 4; i++)
        assert_true(e[i].calibrated);
}

/* A 1000-cycle run on one SM of maxwell-gtx980 (4 schedulers issuing one
 * instruction each) has 1000 x 1 x 4 x 1 = 4000 issue slots; on two SMs
 * 8000. */
static void issue_slots(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err;
    assert_int_equal(rf_gpu_load("maxwell-gtx980", &gpu, NULL, &err), 0);
    rf_sim_stats st;
    memset(&st, 0, sizeof st);
    st.cycles = 1000;
    assert_true(rf_repro_occ_slots(&gpu, &st, 1) == 4000.0);
    assert_true(rf_repro_occ_slots(&gpu, &st, 2) == 8000.0);
    const double x[] = {1, 2, 6};
    assert_true(rf_repro_occ_mean(x, 3) == 3.0);
    assert_true(rf_repro_occ_mean(x, 0) == 0.0);
}

/* Fig. 14's claims: pool stalls of 87.4% against the seed's 7.5% with 3.75
 * points of tolerance differ; PCRF-full stalls of 1.6% against 1.3% with
 * 1 point reproduce (|1.6 - 1.3| = 0.3). */
static void depletion_verdicts(void **state)
{
    (void)state;
    assert_int_equal(rf_rr_level(87.4, 7.5, 3.75), RF_DIFFERS);
    assert_int_equal(rf_rr_level(1.6, 1.3, 1.0), RF_REPRODUCED);
    assert_int_equal(rf_rr_level(2.4, 1.3, 1.0), RF_DIFFERS);
}

/* A bad kernel name fails with the spec's path in the message, no crash. */
static void missing_kernel(void **state)
{
    (void)state;
    rf_repro_opts o;
    memset(&o, 0, sizeof o);
    o.jobs = 1;
    o.kernels = "inputs/kernels";
    rf_design d;
    rf_design_init(&d);
    rf_sim_stats st;
    rf_err err;
    rf_err_clear(&err);
    assert_true(rf_repro_occ_sim(&o, "maxwell-gtx980", "nosuch", &d, 1, &st, &err) < 0);
    assert_non_null(strstr(err.msg, "inputs/kernels/nosuch.spec"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(estimate_counts),
        cmocka_unit_test(issue_slots),
        cmocka_unit_test(depletion_verdicts),
        cmocka_unit_test(missing_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
