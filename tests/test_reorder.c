/* test_reorder.c - first-use register renumbering and instructions before
 * the first shared register (seed 003 Section 5.2, Fig. 7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/reorder.h"
#include "support/kirbuild.h"

/* Like Fig. 7: the first instructions use the highest-numbered registers.
 *   i0 alu r7 = r6;  i1 alu r5 = r7;  i2 alu r4 = r7;  i3 alu r0 = r5 r4;
 *   i4 alu r1 = r0;  i5 alu r2 = r1;  i6 alu r3 = r2;  i7 stg = r3 r6;
 *   i8 exit                                                (R_w = 8) */
static rf_func *fig7(void)
{
    kb_builder b;
    kb_begin(&b, "fig7");
    kb_block(&b, "B0");
    kb_i(&b, "alu r7 = r6");
    kb_i(&b, "alu r5 = r7");
    kb_i(&b, "alu r4 = r7");
    kb_i(&b, "alu r0 = r5 r4");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "alu r2 = r1");
    kb_i(&b, "alu r3 = r2");
    kb_i(&b, "stg = r3 r6");
    kb_i(&b, "exit");
    return kb_finish(&b);
}

/* First-use order r7, r6 (i0: destination then source), r5, r4, r0, r1,
 * r2, r3: map r7->0, r6->1, r5->2, r4->3, r0->4, r1->5, r2->6, r3->7. */
static void test_first_use_map(void **state)
{
    (void)state;
    rf_func *f = fig7();
    int map[8];
    assert_int_equal(rf_reorder_first_use(f, 8, map, NULL), 0);
    static const int want[8] = {4, 5, 6, 7, 3, 2, 1, 0};
    for (int r = 0; r < 8; r++)
        assert_int_equal(map[r], want[r]);
    /* A register never used goes after all used ones: R_w = 10 adds r8,
     * r9 as 8, 9. */
    int map10[10];
    assert_int_equal(rf_reorder_first_use(f, 10, map10, NULL), 0);
    assert_int_equal(map10[8], 8);
    assert_int_equal(map10[9], 9);
    kb_free(f);
}

/* F = 0.5: unshared = floor(8 * 0.5) = 4, registers 4..7 are shared.
 * As numbered, i0 already touches r7: 0 instructions before stalling.
 * Reordered, i0..i2 use new 0..3 and i3 writes r0 -> 4: 3 instructions.
 * F = 0.25: unshared = 6; reordered the first access to >= 6 is i5
 * (r2 -> 6): 5 instructions.  One block, so the expected count equals
 * the static one. */
static void test_reach(void **state)
{
    (void)state;
    rf_func *f = fig7();
    int map[8];
    rf_reorder_first_use(f, 8, map, NULL);
    rf_share_reach r;
    assert_int_equal(rf_reorder_reach(f, NULL, 8, 0.5, 3, 0.5, &r, NULL), 0);
    assert_int_equal(r.unshared, 4);
    assert_int_equal(r.first_pc, 0);
    assert_int_equal(r.static_before, 0);
    assert_near(r.expected_before, 0, 1e-12);
    assert_int_equal(rf_reorder_reach(f, map, 8, 0.5, 3, 0.5, &r, NULL), 0);
    assert_int_equal(r.first_pc, 3);
    assert_int_equal(r.static_before, 3);
    assert_near(r.expected_before, 3, 1e-12);
    assert_int_equal(rf_reorder_reach(f, map, 8, 0.25, 3, 0.5, &r, NULL), 0);
    assert_int_equal(r.unshared, 6);
    assert_int_equal(r.static_before, 5);
    /* F = 0: nothing shared; all 9 instructions run. */
    assert_int_equal(rf_reorder_reach(f, map, 8, 0, 3, 0.5, &r, NULL), 0);
    assert_int_equal(r.first_pc, -1);
    assert_int_equal(r.static_before, 9);
    assert_near(r.expected_before, 9, 1e-12);
    rf_err err;
    assert_int_equal(rf_reorder_reach(f, map, 8, 1.5, 3, 0.5, &r, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "sharing"));
    kb_free(f);
}

/* A loop before the first shared access (R_w = 2, F = 0.5: r1 shared):
 *   B0: i0 alu r0 =                    -> B1
 *   B1: i1 alu r0 = r0; i2 @p0 bra     -> B2 | B1
 *   B2: i3 alu r1 = r0; i4 exit
 * Static: 3 instructions precede i3.  Expected with trip 3 (B1 runs 4
 * times): 1 + 4 * 2 + 0 = 9. */
static void test_reach_loop(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "loop");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r0 = r0");
    kb_i(&b, "@p0 bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    kb_succ(&b, B2, -1, -1);
    rf_func *f = kb_finish(&b);
    rf_share_reach r;
    assert_int_equal(rf_reorder_reach(f, NULL, 2, 0.5, 3, 0.5, &r, NULL), 0);
    assert_int_equal(r.unshared, 1);
    assert_int_equal(r.static_before, 3);
    assert_near(r.expected_before, 9, 1e-9);
    kb_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_use_map),
        cmocka_unit_test(test_reach),
        cmocka_unit_test(test_reach_loop),
    };
    return cmocka_run_group_tests_name("reorder", tests, NULL, NULL);
}
