/* test_liveness.c - live registers per instruction (seed 000 Section V.A). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/liveness.h"
#include "../inputs/kernel.h"
#include "support/kirbuild.h"

/* Fig. 9 of seed 000 combined: a diverging branch (B0 -> B1 | B2, joining
 * at B3) followed by a loop (B3 -> B3) and an exit block B4.
 *
 *  B0: i0  alu r0 =            tid
 *      i1  alu r3 =            acc = 0
 *      i2  ldg r1 = r0         long-latency load
 *      i3  alu p0 = r1
 *      i4  @p0 bra             -> B1 (fall) | B2 (taken)
 *  B1: i5  alu r2 = r1
 *      i6  bra                 -> B3
 *  B2: i7  alu r2 = r0         -> B3
 *  B3: i8  alu r3 = r3 r2      loop body
 *      i9  alu r2 = r2
 *      i10 alu p1 = r2
 *      i11 @p1 bra             -> B4 (fall) | B3 (taken, back edge)
 *  B4: i12 stg = r0 r3
 *      i13 exit
 */
static rf_func *fig9(void)
{
    kb_builder b;
    kb_begin(&b, "fig9");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "alu r3 =");
    kb_i(&b, "ldg r1 = r0");
    kb_i(&b, "alu p0 = r1");
    kb_i(&b, "@p0 bra");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r2 = r1");
    kb_i(&b, "bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "alu r2 = r0");
    int B3 = kb_block(&b, "B3");
    kb_i(&b, "alu r3 = r3 r2");
    kb_i(&b, "alu r2 = r2");
    kb_i(&b, "alu p1 = r2");
    kb_i(&b, "@p1 bra");
    int B4 = kb_block(&b, "B4");
    kb_i(&b, "stg = r0 r3");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, B2);
    kb_succ(&b, B1, B3, -1);
    kb_succ(&b, B2, B3, -1);
    kb_succ(&b, B3, B4, B3);
    kb_succ(&b, B4, -1, -1);
    return kb_finish(&b);
}

static void test_fig9_sets(void **state)
{
    (void)state;
    rf_func *f = fig9();
    assert_non_null(f);
    rf_live l;
    rf_err err;
    assert_int_equal(rf_live_compute(f, &l, &err), 0);
    /* Backward from B4: in(i12) = {r0, r3}.  Loop B3, first sweep with
     * in(B3) = {}: out = {r0,r3}; i11 reads p1; i10 kills p1, reads r2;
     * i9 reads r2; i8 kills r3 then reads r3, r2 -> in(B3) = {r0,r2,r3};
     * second sweep adds nothing.  B1: i5 kills r2, reads r1 -> {r0,r1,r3};
     * B2: i7 kills r2, reads r0 -> {r0,r3}.  B0: out(i4) = union of both
     * sides = {r0,r1,r3}; i2 kills r1 and reads r0 -> {r0,r3}; i1 kills r3;
     * i0 kills r0.  GPR counts live at each PC: */
    static const int want[14] = {0, 1, 2, 3, 3, 3, 3, 2, 3, 3, 3, 3, 2, 0};
    for (int i = 0; i < 14; i++)
        assert_int_equal(rf_live_count(&l, i), want[i]);
    /* The diverging sides see different sets: r1 live only into B1. */
    assert_true(rf_regset_has(&l.in[5], 1));
    assert_false(rf_regset_has(&l.in[7], 1));
    /* Loop-carried r2 and r3 are live at the back edge. */
    assert_true(rf_regset_has(&l.out[11], 2));
    assert_true(rf_regset_has(&l.out[11], 3));
    /* Predicates: p1 live before the branch, p0 before i4 only. */
    assert_int_equal(l.pred_in[11], 1u << 1);
    assert_int_equal(l.pred_in[4], 1u << 0);
    assert_int_equal(l.pred_in[3], 0);
    char buf[64];
    rf_regset_format(&l.in[8], buf, sizeof buf);
    assert_string_equal(buf, "R0 R2-R3");
    rf_live_free(&l);
    kb_free(f);
}

static void test_fig9_summary(void **state)
{
    (void)state;
    rf_func *f = fig9();
    rf_live l;
    assert_int_equal(rf_live_compute(f, &l, NULL), 0);
    /* nregs = 4 (R0..R3); max live 3 first reached after the load i2
     * (out(i2) = {r0,r1,r3}); mean = (0+1+2+3+3+3+3+2+3+3+3+3+2+0)/14
     * = 31/14.  One long-latency load (i2) with 3 live after it, so a warp
     * stalled there keeps 3 of 4 registers in the PCRF. */
    assert_int_equal(l.nregs, 4);
    assert_int_equal(l.max_live, 3);
    assert_int_equal(l.max_pc, 2);
    assert_near(l.mean_live, 31.0 / 14.0, 1e-12);
    assert_int_equal(l.nloads, 1);
    assert_int_equal(l.max_live_load, 3);
    assert_near(l.mean_live_load, 3.0, 1e-12);
    assert_near(rf_live_frac(&l, 3), 0.75, 1e-12);
    rf_live_free(&l);
    kb_free(f);
}

/* A guarded definition may not execute, so it does not kill:
 *   i0 alu r0 =;  i1 @p0 alu r0 =;  i2 stg = r0
 * r0 is live before i1 (the old value survives when p0 is false), but
 * an unguarded i1 would make it dead there. */
static void test_guarded_def(void **state)
{
    (void)state;
    for (int guarded = 0; guarded < 2; guarded++) {
        kb_builder b;
        kb_begin(&b, "guard");
        kb_block(&b, "B0");
        kb_i(&b, "alu r0 =");
        kb_i(&b, guarded ? "@p0 alu r0 =" : "alu r0 =");
        kb_i(&b, "stg = r0");
        kb_i(&b, "exit");
        rf_func *f = kb_finish(&b);
        rf_live l;
        assert_int_equal(rf_live_compute(f, &l, NULL), 0);
        assert_int_equal(rf_regset_has(&l.in[1], 0), guarded);
        assert_int_equal(l.pred_in[1], guarded ? 1 : 0);
        assert_int_equal(rf_live_count(&l, 2), 1);
        rf_live_free(&l);
        kb_free(f);
    }
}

/* 256-bit sets: registers in every word, and the hex layout. */
static void test_regset(void **state)
{
    (void)state;
    rf_regset s = {{0}};
    rf_regset_add(&s, 0);
    rf_regset_add(&s, 63);
    rf_regset_add(&s, 64);
    rf_regset_add(&s, 255);
    assert_int_equal(rf_regset_count(&s), 4);
    char hex[65];
    rf_regset_hex(&s, hex);
    assert_string_equal(hex, "8000000000000000" "0000000000000000"
                             "0000000000000001" "8000000000000001");
    rf_regset_del(&s, 63);
    char buf[64];
    rf_regset_format(&s, buf, sizeof buf);
    assert_string_equal(buf, "R0 R64 R255");
}

static void test_virtual_rejected(void **state)
{
    (void)state;
    rf_func *f = fig9();
    f->physical = false;
    rf_live l;
    rf_err err;
    assert_int_equal(rf_live_compute(f, &l, &err), RF_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "fig9"));
    f->physical = true;
    f->insts[3].defs[0] = 300; /* neither a GPR nor a predicate */
    assert_int_equal(rf_live_compute(f, &l, &err), RF_EINTERNAL);
    kb_free(f);
}

/* Bundled kernels after register allocation: nothing is live at the
 * kernel entry (every register is written before it is read), live counts
 * stay within the allocation, and a long-latency load's destination is
 * live after it whenever the loaded value is used. */
static void test_bundled_kernels(void **state)
{
    (void)state;
    static const char *const names[] = {"sgemm", "hotspot", "libor", "bfs", "kmeans",
                                        "stream", "spmv", "sfu", "reduce"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[128];
        snprintf(path, sizeof path, "inputs/kernels/%s.spec", names[k]);
        rf_kernel_opts ko;
        memset(&ko, 0, sizeof ko);
        ko.no_ptxas = true;
        rf_kernel *kern;
        assert_int_equal(rf_kernel_load(path, &ko, &kern, NULL), 0);
        rf_live l;
        assert_int_equal(rf_live_compute(kern->func, &l, NULL), 0);
        assert_int_equal(rf_live_count(&l, 0), 0);
        assert_int_equal(l.pred_in[0], 0);
        assert_true(l.max_live <= kern->regs_rfkit);
        assert_true(l.mean_live > 0 && l.mean_live <= l.max_live);
        assert_true(l.nloads > 0);
        rf_live_free(&l);
        rf_kernel_destroy(kern);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig9_sets),
        cmocka_unit_test(test_fig9_summary),
        cmocka_unit_test(test_guarded_def),
        cmocka_unit_test(test_regset),
        cmocka_unit_test(test_virtual_rejected),
        cmocka_unit_test(test_bundled_kernels),
    };
    return cmocka_run_group_tests_name("liveness", tests, NULL, NULL);
}
