/* test_conflict.c - bank conflict closed forms (analytic/conflict.c), values
 * computed by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../analytic/conflict.h"

static rf_conflict_params defaults(void)
{
    rf_conflict_params p;
    rf_mparam_defaults(rf_conflict_mparams, rf_conflict_nmparams, &p);
    return p;
}

static void no_conflict_with_one_access(void **state)
{
    (void)state;
    /* One access never conflicts and takes one cycle on any bank count. */
    for (int b = 1; b <= 32; b *= 2) {
        assert_float_equal(rf_bank_p_noconflict(1, b), 1.0, 1e-15);
        assert_float_equal(rf_bank_expected_cycles(1, b), 1.0, 1e-12);
        assert_float_equal(rf_bank_expected_distinct(1, b), 1.0, 1e-12);
    }
    assert_float_equal(rf_bank_expected_cycles(0, 8), 0.0, 0.0);
}

static void birthday_probability(void **state)
{
    (void)state;
    /* k = 2 over 4 banks: 3/4.  k = 3: (3/4)(2/4) = 0.375.
     * k = 4 over 16 banks: (15/16)(14/16)(13/16) = 2730/4096 = 0.66650390625.
     * More accesses than banks: certain conflict. */
    assert_float_equal(rf_bank_p_noconflict(2, 4), 0.75, 1e-15);
    assert_float_equal(rf_bank_p_noconflict(3, 4), 0.375, 1e-15);
    assert_float_equal(rf_bank_p_noconflict(4, 16), 0.66650390625, 1e-15);
    assert_float_equal(rf_bank_p_noconflict(5, 4), 0.0, 0.0);
}

static void distinct_banks(void **state)
{
    (void)state;
    /* 2 accesses over 4 banks: 4 (1 - (3/4)^2) = 4 * 7/16 = 1.75. */
    assert_float_equal(rf_bank_expected_distinct(2, 4), 1.75, 1e-12);
    /* 3 over 8: 8 (1 - (7/8)^3) = 8 * 169/512 = 2.640625. */
    assert_float_equal(rf_bank_expected_distinct(3, 8), 2.640625, 1e-12);
}

static void serialization_cycles(void **state)
{
    (void)state;
    /* k = 2: the two collide with probability 1/B: E = 1 + 1/B. */
    assert_float_equal(rf_bank_expected_cycles(2, 4), 1.25, 1e-12);
    assert_float_equal(rf_bank_expected_cycles(2, 16), 1.0625, 1e-12);
    /* k = 3 over 4: all distinct 24/64 (1 cycle), all on one bank 4/64
     * (3 cycles), otherwise 36/64 (2 cycles): E = (24 + 72 + 12) / 64
     * = 108/64 = 1.6875. */
    assert_float_equal(rf_bank_expected_cycles(3, 4), 1.6875, 1e-12);
    /* One bank serialises everything. */
    assert_float_equal(rf_bank_expected_cycles(5, 1), 5.0, 0.0);
    /* More banks never serialise more. */
    for (int b = 2; b < 64; b *= 2)
        assert_true(rf_bank_expected_cycles(4, 2 * b) <= rf_bank_expected_cycles(4, b));
}

static void queueing_with_write_priority(void **state)
{
    (void)state;
    rf_conflict_params p = defaults();
    /* rho_r = 0.3, rho_w = 0.2: rho = 0.5, R0 = 0.25.
     * W_write = 0.25 / 0.8 = 0.3125; W_read = 0.25 / (0.8 * 0.5) = 0.625;
     * inter-read = 0.15 / 0.7 = 0.2142857; inter-write = 0.625 - 0.2142857. */
    rf_bank_load load = {.rho_read = 0.3, .rho_write = 0.2, .banks = 8};
    rf_bank_wait w;
    rf_bank_waits(&load, &p, &w);
    assert_float_equal(w.write_wait, 0.3125, 1e-12);
    assert_float_equal(w.inter_read, 0.15 / 0.7, 1e-12);
    assert_float_equal(w.inter_write, 0.625 - 0.15 / 0.7, 1e-12);
    assert_float_equal(w.read_wait, 0.625, 1e-12);
    assert_float_equal(w.read_removed, 0.0, 0.0);
    assert_float_equal(w.stolen_writes, 0.0, 0.0);

    /* Idle banks: no wait. */
    rf_bank_load idle = {.banks = 8, .read_steal = true, .write_steal = true};
    rf_bank_waits(&idle, &p, &w);
    assert_float_equal(w.read_wait, 0.0, 0.0);
    assert_float_equal(w.write_wait, 0.0, 0.0);

    /* Scale doubles every wait. */
    p.scale = 2.0;
    rf_bank_waits(&load, &p, &w);
    assert_float_equal(w.read_wait, 1.25, 1e-12);
}

static void stealing_fractions(void **state)
{
    (void)state;
    rf_conflict_params p = defaults();
    /* Same load with both kinds of stealing on 8 banks, rho = 0.5.
     * Read stealing, write stealing on: s_c (1 - rho) (1 + k)
     *   = 0.4 * 0.5 * 2 = 0.4 of every read wait.
     * Write stealing: another bank idle 1 - 0.5^7 = 0.9921875;
     *   removed = 0.5 * 0.9921875 * (1 - 0.15) = 0.421679688;
     *   stolen = 0.3 * 0.5 * 0.9921875 = 0.148828125.
     * read wait = (1 - 0.4) (0.2142857 + 0.4107143 (1 - 0.421679688)). */
    rf_bank_load load = {.rho_read = 0.3, .rho_write = 0.2, .banks = 8, .read_steal = true, .write_steal = true};
    rf_bank_wait w;
    rf_bank_waits(&load, &p, &w);
    assert_float_equal(w.read_removed, 0.4, 1e-12);
    assert_float_equal(w.write_removed, 0.5 * 0.9921875 * 0.85, 1e-12);
    assert_float_equal(w.stolen_writes, 0.148828125, 1e-12);
    double ir = 0.15 / 0.7, iw = 0.625 - ir;
    assert_float_equal(w.read_wait, 0.6 * (ir + iw * (1 - 0.5 * 0.9921875 * 0.85)), 1e-12);
    /* Read stealing alone: s_c (1 - rho) = 0.2 of both waits. */
    load.write_steal = false;
    rf_bank_waits(&load, &p, &w);
    assert_float_equal(w.write_removed, 0.0, 0.0);
    assert_float_equal(w.read_removed, 0.2, 1e-12);
    assert_float_equal(w.read_wait, 0.8 * 0.625, 1e-12);
    assert_true(w.read_wait < 0.625);
    /* The boost is capped: s_c = 1, k = 4 removes every read wait. */
    p.steal_cand = 1.0;
    p.steal_boost = 4.0;
    load.write_steal = true;
    rf_bank_waits(&load, &p, &w);
    assert_float_equal(w.read_removed, 1.0, 0.0);
    assert_float_equal(w.read_wait, 0.0, 0.0);
}

static void finite_source_bounds_the_read_wait(void **state)
{
    (void)state;
    rf_conflict_params p = defaults();
    /* rho_r = 0.1, rho_w = 0.5 bank-cycles of 4-cycle writes, 8 banks:
     * R0 = (0.1 + 0.5 * 4) / 2 = 1.05, rho = 0.6;
     * open queue W_read = 1.05 / ((1 - 0.5) (1 - 0.6)) = 5.25.
     * With one collector per bank the bound is R0 + 1 = 2.05. */
    rf_bank_load load = {.rho_read = 0.1, .rho_write = 0.5, .banks = 8, .write_service = 4.0};
    rf_bank_wait w;
    rf_bank_waits(&load, &p, &w);
    assert_float_equal(w.read_wait, 5.25, 1e-12);
    load.ahead_max = 1.0;
    rf_bank_waits(&load, &p, &w);
    assert_float_equal(w.read_wait, 2.05, 1e-12);
    /* Below the bound the open queue stands: rho_w = 0.05 (S = 1),
     * rho_r = 0.1: R0 = 0.075, W = 0.075 / (0.95 * 0.85) = 0.0928793. */
    rf_bank_load light = {.rho_read = 0.1, .rho_write = 0.05, .banks = 8, .ahead_max = 1.0};
    rf_bank_waits(&light, &p, &w);
    assert_float_equal(w.read_wait, 0.075 / (0.95 * 0.85), 1e-12);
}

static void saturation_is_finite(void **state)
{
    (void)state;
    rf_conflict_params p = defaults();
    rf_bank_load load = {.rho_read = 0.9, .rho_write = 0.5, .banks = 4};
    rf_bank_wait w;
    rf_bank_waits(&load, &p, &w);
    assert_true(w.read_wait > 10.0);
    assert_true(w.read_wait < 1e6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_conflict_with_one_access),
        cmocka_unit_test(birthday_probability),
        cmocka_unit_test(distinct_banks),
        cmocka_unit_test(serialization_cycles),
        cmocka_unit_test(queueing_with_write_priority),
        cmocka_unit_test(stealing_fractions),
        cmocka_unit_test(finite_source_bounds_the_read_wait),
        cmocka_unit_test(saturation_is_finite),
    };
    return cmocka_run_group_tests_name("conflict", tests, NULL, NULL);
}
