/* test_dstcount.c - destination counts, block frequencies, CAC / Best /
 * Worst renumbering (seed 002 Sections 3 and 4). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/dstcount.h"
#include "support/kirbuild.h"

/*  B0: i0 alu r0 =;  i1 alu r1 =;  i2 alu r2 r3 = r0 (64-bit pair);
 *      i3 @p0 bra                    -> B1 (fall) | B2 (taken)
 *  B1: i4 alu r1 = r1                -> B2
 *  B2: i5 alu r2 = r2;  i6 alu r1 = r2;  i7 alu p1 = r2;
 *      i8 @p1 bra                    -> B3 (fall) | B2 (taken, loop)
 *  B3: i9 exit */
static rf_func *loop_fixture(void)
{
    kb_builder b;
    kb_begin(&b, "dst");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "alu r1 =");
    kb_i(&b, "alu r2 r3 = r0");
    kb_i(&b, "@p0 bra");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r1 = r1");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "alu r2 = r2");
    kb_i(&b, "alu r1 = r2");
    kb_i(&b, "alu p1 = r2");
    kb_i(&b, "@p1 bra");
    int B3 = kb_block(&b, "B3");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, B2);
    kb_succ(&b, B1, B2, -1);
    kb_succ(&b, B2, B3, B2);
    kb_succ(&b, B3, -1, -1);
    return kb_finish(&b);
}

/* Seed 004 Fig. 6 shape: A -> B | X, B -> C, C -> A (outer) | B (inner). */
static rf_func *nested_fixture(void)
{
    kb_builder b;
    kb_begin(&b, "nested");
    int A = kb_block(&b, "A");
    kb_i(&b, "alu r0 = r0");
    kb_i(&b, "@p0 bra");
    int B = kb_block(&b, "B");
    kb_i(&b, "alu r1 = r0");
    int C = kb_block(&b, "C");
    kb_i(&b, "alu r2 = r1");
    kb_i(&b, "@p1 bra");
    int X = kb_block(&b, "X");
    kb_i(&b, "exit");
    kb_succ(&b, A, B, X);
    kb_succ(&b, B, C, -1);
    kb_succ(&b, C, A, B);
    kb_succ(&b, X, -1, -1);
    return kb_finish(&b);
}

static void test_static_and_weighted(void **state)
{
    (void)state;
    rf_func *f = loop_fixture();
    double c[RF_MAX_GPR];
    assert_int_equal(rf_dst_static(f, c, NULL), 0);
    /* r0: i0; r1: i1, i4, i6; r2: i2, i5; r3: i2 (high half of the pair). */
    assert_near(c[0], 1, 0);
    assert_near(c[1], 3, 0);
    assert_near(c[2], 2, 0);
    assert_near(c[3], 1, 0);
    assert_near(c[4], 0, 0);
    /* trip 3, taken .25: B0 once; its branch is a forward one, so B1 gets
     * .75; B2 is a self-loop left with probability 1/(3+1):
     * f(B2) = 1 + .75 f(B2) = 4; B3 = 1. */
    double fq[4];
    assert_int_equal(rf_dst_block_freq(f, 3, 0.25, NULL, fq, NULL, NULL), 0);
    assert_near(fq[0], 1, 1e-12);
    assert_near(fq[1], 0.75, 1e-12);
    assert_near(fq[2], 4, 1e-12);
    assert_near(fq[3], 1, 1e-12);
    /* Weighted: r1 = 1 + .75 + 4 = 5.75, r2 = 1 + 4 = 5. */
    assert_int_equal(rf_dst_weighted(f, fq, c, NULL), 0);
    assert_near(c[0], 1, 1e-12);
    assert_near(c[1], 5.75, 1e-12);
    assert_near(c[2], 5, 1e-12);
    assert_near(c[3], 1, 1e-12);
    kb_free(f);
}

/* Loop-weighted destination counts (rfkit's CAC input): a destination in n
 * nested loops counts W^n.  Loop fixture, W = 10: B2 is a self-loop
 * (depth 1), B0, B1 are outside: r0 = 1 (i0); r1 = 1 (i1) + 1 (i4) + 10
 * (i6) = 12; r2 = 1 (i2) + 10 (i5) = 11; r3 = 1 (i2's high half).  Nested
 * fixture (A depth 1, B and C depth 2), W = 3: r0 = 3, r1 = r2 = 9; W = 1
 * gives the plain counts. */
static void test_loop_weighted(void **state)
{
    (void)state;
    double c[RF_MAX_GPR];
    rf_func *f = loop_fixture();
    assert_int_equal(rf_dst_loop_weighted(f, 10, c, NULL), 0);
    assert_near(c[0], 1, 0);
    assert_near(c[1], 12, 1e-12);
    assert_near(c[2], 11, 1e-12);
    assert_near(c[3], 1, 0);
    assert_near(c[4], 0, 0);
    kb_free(f);
    f = nested_fixture();
    assert_int_equal(rf_dst_loop_weighted(f, 3, c, NULL), 0);
    assert_near(c[0], 3, 1e-12);
    assert_near(c[1], 9, 1e-12);
    assert_near(c[2], 9, 1e-12);
    assert_int_equal(rf_dst_loop_weighted(f, 1, c, NULL), 0);
    assert_near(c[0], 1, 0);
    assert_near(c[1], 1, 0);
    assert_near(c[2], 1, 0);
    /* CAC on the weighted counts: r1 (9) -> 0, r2 (9, tie: lower ID
     * first) -> 1, r0 (3) -> 2. */
    int map[3];
    rf_dst_cac(c, 3, map);   /* plain: all 1, the identity */
    assert_int_equal(map[0], 0);
    assert_int_equal(map[1], 1);
    assert_int_equal(map[2], 2);
    assert_int_equal(rf_dst_loop_weighted(f, 3, c, NULL), 0);
    rf_dst_cac(c, 3, map);
    assert_int_equal(map[1], 0);
    assert_int_equal(map[2], 1);
    assert_int_equal(map[0], 2);
    kb_free(f);
}

static void test_nested_frequencies(void **state)
{
    (void)state;
    rf_func *f = nested_fixture();
    int depth[4];
    /* Back edges C->A and C->B: outer loop {A,B,C}, inner {B,C}. */
    assert_int_equal(rf_dst_loop_depth(f, depth), 2);
    assert_int_equal(depth[0], 1);
    assert_int_equal(depth[1], 2);
    assert_int_equal(depth[2], 2);
    assert_int_equal(depth[3], 0);
    /* trip 3, taken 0.5, the sampler's edges: A's branch to X is a forward
     * branch, taken 0.5; C's branch to B is a back edge, taken 3/4, else C
     * falls into A.  f(A) = 1 + .25 f(C), f(B) = .5 f(A) + .75 f(C),
     * f(C) = f(B) so f(B) = 2 f(A); f(A) = 1 + .5 f(A) = 2; f(B) = f(C) = 4;
     * f(X) = .5 x 2 = 1. */
    double fq[4];
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, NULL, fq, NULL, NULL), 0);
    assert_near(fq[0], 2, 1e-12);
    assert_near(fq[1], 4, 1e-12);
    assert_near(fq[2], 4, 1e-12);
    assert_near(fq[3], 1, 1e-12);
    /* Absorbing B: the walk stops at B the first time: A once, B .5. */
    bool stop[4] = {false, true, false, false};
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, stop, fq, NULL, NULL), 0);
    assert_near(fq[0], 1, 1e-12);
    assert_near(fq[1], 0.5, 1e-12);
    assert_near(fq[2], 0, 1e-12);
    assert_near(fq[3], 0.5, 1e-12);
    kb_free(f);
}

/* Algorithm 1 on the fixture: counts (r0..r3) = 1, 3, 2, 1 sort to
 * r1, r2, r0, r3, so r1 -> 0, r2 -> 1, r0 -> 2, r3 -> 3.  Renaming the
 * function accordingly makes the counts descending in register order. */
static void test_cac_fixture(void **state)
{
    (void)state;
    rf_func *f = loop_fixture();
    double c[RF_MAX_GPR], after[RF_MAX_GPR];
    rf_dst_static(f, c, NULL);
    int map[4];
    rf_dst_cac(c, 4, map);
    assert_int_equal(map[0], 2);
    assert_int_equal(map[1], 0);
    assert_int_equal(map[2], 1);
    assert_int_equal(map[3], 3);
    rf_dst_rename(f, map, 4);
    rf_dst_static(f, after, NULL);
    assert_near(after[0], 3, 0);
    assert_near(after[1], 2, 0);
    assert_near(after[2], 1, 0);
    assert_near(after[3], 1, 0);
    double perm[4];
    rf_dst_permute(c, 4, map, perm);
    for (int r = 0; r < 4; r++)
        assert_near(perm[r], after[r], 0);
    kb_free(f);
}

/* Aligned tuples (SASS: a 64-bit operand is an aligned pair).  The
 * fixture writes r2 r3 as one operand: width = 1, 1, 2, 0.  Static counts
 * r0..r3 = 1, 3, 2, 1; units r1 (3), {r2, r3} (mean 1.5), r0 (1):
 * r1 -> 0, the pair takes the first free even block, 2..3, r0 fills the
 * hole at 1.  A quad written as one 128-bit operand at r4 gives width 4. */
static void test_cac_tuples(void **state)
{
    (void)state;
    rf_func *f = loop_fixture();
    uint8_t width[RF_MAX_GPR];
    rf_dst_tuples(f, width);
    assert_int_equal(width[0], 1);
    assert_int_equal(width[1], 1);
    assert_int_equal(width[2], 2);
    assert_int_equal(width[3], 0);
    double c[RF_MAX_GPR];
    rf_dst_static(f, c, NULL);
    int map[4];
    assert_int_equal(rf_dst_cac_aligned(c, width, 4, map), 4);
    assert_int_equal(map[0], 1);
    assert_int_equal(map[1], 0);
    assert_int_equal(map[2], 2);
    assert_int_equal(map[3], 3);
    kb_free(f);

    kb_builder b;
    kb_begin(&b, "quad");
    kb_block(&b, "B0");
    kb_i(&b, "alu r4 r5 r6 r7 = r0");
    kb_i(&b, "alu r8 r9 = r0");
    kb_i(&b, "alu r1 r2 = r0");
    kb_i(&b, "exit");
    f = kb_finish(&b);
    assert_non_null(f);
    rf_dst_tuples(f, width);
    assert_int_equal(width[4], 4);
    assert_int_equal(width[5], 0);
    assert_int_equal(width[7], 0);
    assert_int_equal(width[8], 2);
    /* r1 r2 is not aligned: two singles. */
    assert_int_equal(width[1], 1);
    assert_int_equal(width[2], 1);
    kb_free(f);
}

/* Worst with a pair, 2 critical sets, writes r0..r5 = 1, 6, 5, 5, 4, 2
 * and {r2, r3} a pair.  Set-major ID order 0 2 4 1 3 5: r1 (6) -> 0, the
 * pair (5) -> 2..3, r4 (4) -> 4, r5 (2) -> 1, r0 (1) -> 5: set 0 (even
 * IDs) holds the three heaviest units' registers 6, 5, 4. */
static void test_worst_tuples(void **state)
{
    (void)state;
    double w[6] = {1, 6, 5, 5, 4, 2};
    uint8_t width[6] = {1, 1, 2, 0, 1, 1};
    int map[6];
    assert_int_equal(rf_dst_worst_aligned(w, width, 6, 2, map), 6);
    const int want[6] = {5, 0, 2, 3, 4, 1};
    for (int r = 0; r < 6; r++)
        assert_int_equal(map[r], want[r]);
}

/* 27 registers with writes 27 - r (r0 most written), concat W3R3 (8
 * critical sets).  Total = 27*28/2 = 378.
 * Best/CAC keep the order (identity): set 0 = {0,8,16,24} has writes
 * 27+19+11+3 = 60, the largest share 60/378.
 * Worst fills set 0 = ids {0,8,16,24} with r0..r3, set 1 = {1,9,17,25}
 * with r4..r7, set 2 = {2,10,18,26} with r8..r11, set 3 = {3,11,19} with
 * r12..r14, ...: r1 -> 8, r4 -> 1, r12 -> 3; set 0 then holds
 * 27+26+25+24 = 102 writes, share 102/378. */
static void test_best_worst_27(void **state)
{
    (void)state;
    double w[27];
    for (int r = 0; r < 27; r++)
        w[r] = 27 - r;
    rf_rc_geom g;
    rf_rc_geom_default(&g, RF_RC_CONCAT);
    int best[27], worst[27], cac[27];
    rf_dst_best(w, 27, best);
    rf_dst_cac(w, 27, cac);
    rf_dst_worst(w, 27, rf_rc_nsets(&g), worst);
    for (int r = 0; r < 27; r++) {
        assert_int_equal(best[r], r);
        assert_int_equal(cac[r], r);
    }
    assert_int_equal(worst[0], 0);
    assert_int_equal(worst[1], 8);
    assert_int_equal(worst[3], 24);
    assert_int_equal(worst[4], 1);
    assert_int_equal(worst[11], 26);
    assert_int_equal(worst[12], 3);
    assert_int_equal(worst[26], 23);
    double wb[27], ww[27];
    rf_dst_permute(w, 27, best, wb);
    rf_dst_permute(w, 27, worst, ww);
    rf_rc_balance bb, bw;
    rf_rc_balance_of(&g, wb, 27, &bb);
    rf_rc_balance_of(&g, ww, 27, &bw);
    assert_near(bb.max_share, 60.0 / 378, 1e-12);
    assert_near(bw.max_share, 102.0 / 378, 1e-12);
    /* Similar counts in one set maximise same-line conflicts. */
    assert_true(bw.conflict > bb.conflict);
    /* Worst is a permutation of 0..26. */
    int seen[27] = {0};
    for (int r = 0; r < 27; r++)
        seen[worst[r]]++;
    for (int r = 0; r < 27; r++)
        assert_int_equal(seen[r], 1);
}

static void test_bad_profile(void **state)
{
    (void)state;
    rf_func *f = loop_fixture();
    double fq[4];
    rf_err err;
    assert_int_equal(rf_dst_block_freq(f, -1, 0.5, NULL, fq, NULL, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "trip"));
    assert_int_equal(rf_dst_block_freq(f, 3, 1.5, NULL, fq, NULL, &err), RF_ERANGE);
    kb_free(f);
    /* B0 -> B1, B1 -> B1 unconditionally: never exits. */
    kb_builder b;
    kb_begin(&b, "spin");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_block(&b, "B1");
    kb_i(&b, "bra");
    kb_succ(&b, 0, 1, -1);
    kb_succ(&b, 1, 1, -1);
    f = kb_finish(&b);
    double fq2[2];
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, NULL, fq2, NULL, &err), RF_EUNSUPPORTED);
    kb_free(f);
}

/* SASS listings end with a trap loop after EXIT (BRA to itself); it is
 * unreachable, so it runs 0 times instead of making the system singular:
 *   B0: i0 alu r0 =; i1 exit      B1: i2 bra -> B1 */
static void test_unreachable_trap(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "trap");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "exit");
    kb_block(&b, "B1");
    kb_i(&b, "bra");
    kb_succ(&b, 1, 1, -1);
    rf_func *f = kb_finish(&b);
    double fq[2];
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, NULL, fq, NULL, NULL), 0);
    assert_near(fq[0], 1, 1e-12);
    assert_near(fq[1], 0, 1e-12);
    kb_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_and_weighted),
        cmocka_unit_test(test_nested_frequencies),
        cmocka_unit_test(test_loop_weighted),
        cmocka_unit_test(test_cac_fixture),
        cmocka_unit_test(test_cac_tuples),
        cmocka_unit_test(test_worst_tuples),
        cmocka_unit_test(test_best_worst_27),
        cmocka_unit_test(test_bad_profile),
        cmocka_unit_test(test_unreachable_trap),
    };
    return cmocka_run_group_tests_name("dstcount", tests, NULL, NULL);
}
