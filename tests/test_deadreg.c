/* test_deadreg.c - a free (dead) register per bank for write stealing
 * (seed 001). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/deadreg.h"
#include "support/kirbuild.h"

/*   i0 alu r0 =;  i1 alu r1 = r0;  i2 alu r2 = r1 r0;  i3 stg = r2 r0;
 *   i4 exit
 * Static accesses: r0 4, r1 2, r2 2, r3.. 0.  Live after: i0 {r0},
 * i1 {r0,r1}, i2 {r0,r2}, i3 {}, i4 {}.  Two banks: even / odd. */
static rf_func *chain(void)
{
    kb_builder b;
    kb_begin(&b, "dead");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "alu r2 = r1 r0");
    kb_i(&b, "stg = r2 r0");
    kb_i(&b, "exit");
    return kb_finish(&b);
}

/* alloc 6: never-used r4 (bank 0) and r3, r5 (bank 1) are always free;
 * the least-used rule picks r4 and r3 (lowest of r3, r5). */
static void test_spare_registers(void **state)
{
    (void)state;
    rf_func *f = chain();
    rf_live l;
    rf_deadreg d;
    assert_int_equal(rf_live_compute(f, &l, NULL), 0);
    assert_int_equal(rf_dead_compute(f, &l, 2, 6, &d, NULL), 0);
    assert_int_equal(d.never_used, 3);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(rf_dead_reg(&d, i, 0), 4);
        assert_int_equal(rf_dead_reg(&d, i, 1), 3);
    }
    assert_near(d.coverage, 1.0, 1e-12);
    rf_dead_free(&d);
    rf_live_free(&l);
    kb_free(f);
}

/* alloc 4 (no spares in bank 0): bank 0 holds r0 (4 accesses) and r2
 * (2), so r2 is preferred when dead: i0 -> r2, i1 -> r2, i2 writes r2 and
 * r0 is live -> none, i3 -> r2, i4 -> r2.  Bank 1: r3 never used.
 * Coverage 9 of 10 pairs. */
static void test_register_limited(void **state)
{
    (void)state;
    rf_func *f = chain();
    rf_live l;
    rf_deadreg d;
    assert_int_equal(rf_live_compute(f, &l, NULL), 0);
    assert_int_equal(rf_dead_compute(f, &l, 2, 4, &d, NULL), 0);
    static const int bank0[5] = {2, 2, -1, 2, 2};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(rf_dead_reg(&d, i, 0), bank0[i]);
        assert_int_equal(rf_dead_reg(&d, i, 1), 3);
    }
    assert_near(d.coverage, 0.9, 1e-12);
    rf_dead_free(&d);
    rf_err err;
    assert_int_equal(rf_dead_compute(f, &l, 0, 4, &d, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "banks"));
    rf_live_free(&l);
    kb_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spare_registers),
        cmocka_unit_test(test_register_limited),
    };
    return cmocka_run_group_tests_name("deadreg", tests, NULL, NULL);
}
