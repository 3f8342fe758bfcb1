/* test_intervals.c - LTRF register-intervals (seed 004 Section 3.3,
 * Algorithms 1 and 2, Fig. 6) and strands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/dstcount.h"
#include "../analytic/intervals.h"
#include "../inputs/kernel.h"
#include "support/kirbuild.h"

/* Fig. 6: two nested loops.  A is the outer loop header (and leaves to X),
 * B the inner loop header, C the latch of both loops.
 *   A: i0 alu r0 = r0 r1; i1 @p0 bra   -> B | X      regs {0,1}
 *   B: i2 alu r2 = r0 r3               -> C          regs {0,2,3}
 *   C: i3 alu r1 = r2; i4 @p1 bra      -> A | B      regs {1,2}
 *   X: i5 stg = r6; i6 exit                          regs {6}        */
static rf_func *fig6(void)
{
    kb_builder b;
    kb_begin(&b, "fig6");
    int A = kb_block(&b, "A");
    kb_i(&b, "alu r0 = r0 r1");
    kb_i(&b, "@p0 bra");
    int B = kb_block(&b, "B");
    kb_i(&b, "alu r2 = r0 r3");
    int C = kb_block(&b, "C");
    kb_i(&b, "alu r1 = r2");
    kb_i(&b, "@p1 bra");
    int X = kb_block(&b, "X");
    kb_i(&b, "stg = r6");
    kb_i(&b, "exit");
    kb_succ(&b, A, B, X);
    kb_succ(&b, B, C, -1);
    kb_succ(&b, C, A, B);
    kb_succ(&b, X, -1, -1);
    return kb_finish(&b);
}

static int form(const rf_func *f, int regs, int kind, rf_intervals *iv)
{
    rf_iv_opts o;
    rf_iv_opts_default(&o);
    o.regs = regs;
    o.kind = kind;
    return rf_iv_form(f, &o, iv, NULL);
}

/* N = 16 (everything fits).  Pass 1: interval {A}; B cannot join (its
 * other predecessor C is unassigned); X can (only predecessor A): I0 =
 * {A, X}.  B heads I1, C joins it (only predecessor B): the inner loop is
 * one interval but cannot join the outer one -> 2 intervals.  Pass 2:
 * I1's only predecessor other than itself is I0 and {0,1,6} + {0,1,2,3}
 * = 5 registers <= 16, so the whole outer loop becomes one interval. */
static void test_fig6_merges(void **state)
{
    (void)state;
    rf_func *f = fig6();
    rf_intervals iv;
    assert_int_equal(form(f, 16, RF_IV_REGISTER, &iv), 0);
    assert_int_equal(iv.pass1, 2);
    assert_int_equal(iv.pass2_rounds, 1);
    assert_int_equal(iv.n, 1);
    assert_int_equal(iv.iv[0].entry_block, 0);
    assert_int_equal(iv.iv[0].ninsts, 7);
    assert_int_equal(iv.iv[0].nregs, 5);
    assert_int_equal(iv.iv[0].npreds, 0);
    /* PREFETCH vector {R0,R1,R2,R3,R6} = 0b1001111 = 0x4f. */
    char hex[65];
    rf_regset_hex(&iv.iv[0].regs, hex);
    assert_string_equal(hex + 48, "000000000000004f");
    /* LTRF+: live at A's entry are r0, r1 (read by i0), r3 and r6 (read
     * later, never written): 4 of the 5 registers are fetched. */
    rf_live l;
    assert_int_equal(rf_live_compute(f, &l, NULL), 0);
    int live_at[1];
    rf_iv_live_prefetch(&iv, &l, live_at);
    assert_int_equal(live_at[0], 4);
    rf_live_free(&l);
    rf_iv_free(&iv);
    /* Without pass 2 the two pass-1 intervals remain. */
    rf_iv_opts o;
    rf_iv_opts_default(&o);
    o.pass2 = false;
    assert_int_equal(rf_iv_form(f, &o, &iv, NULL), 0);
    assert_int_equal(iv.n, 2);
    assert_int_equal(iv.iv[0].ninsts, 4);   /* A + X */
    assert_int_equal(iv.iv[1].ninsts, 3);   /* B + C */
    assert_int_equal(iv.iv[1].entry_block, 1);
    assert_int_equal(iv.of_inst[5], 0);
    assert_int_equal(iv.of_inst[3], 1);
    rf_iv_free(&iv);
    kb_free(f);
}

/* N = 4: pass 1 as above, I0 = {A, X} regs {0,1,6}, I1 = {B, C} regs
 * {0,1,2,3} (4 <= 4); pass 2 would need 5 > 4 registers: 2 intervals,
 * each the other's predecessor (A->B and C->A).
 * N = 3: C's first instruction brings I1 to {0,1,2,3} > 3, so C heads
 * I2: three intervals with predecessors I0 <- {I2}, I1 <- {I0, I2},
 * I2 <- {I1}; pass 2 merges nothing ({0,2,3} + {1,2} = 4 > 3). */
static void test_fig6_limited(void **state)
{
    (void)state;
    rf_func *f = fig6();
    rf_intervals iv;
    assert_int_equal(form(f, 4, RF_IV_REGISTER, &iv), 0);
    assert_int_equal(iv.n, 2);
    assert_int_equal(iv.iv[0].nregs, 3);
    assert_int_equal(iv.iv[1].nregs, 4);
    assert_int_equal(iv.iv[0].npreds, 1);
    assert_int_equal(iv.iv[0].preds[0], 1);
    assert_int_equal(iv.iv[1].npreds, 1);
    assert_int_equal(iv.iv[1].preds[0], 0);
    rf_iv_free(&iv);

    assert_int_equal(form(f, 3, RF_IV_REGISTER, &iv), 0);
    assert_int_equal(iv.pass1, 3);
    assert_int_equal(iv.n, 3);
    assert_int_equal(iv.iv[2].entry_block, 2);
    assert_int_equal(iv.iv[2].ninsts, 2);
    assert_int_equal(iv.iv[0].npreds, 1);
    assert_int_equal(iv.iv[0].preds[0], 2);
    assert_int_equal(iv.iv[1].npreds, 2);
    assert_int_equal(iv.iv[1].preds[0], 0);
    assert_int_equal(iv.iv[1].preds[1], 2);
    assert_int_equal(iv.iv[2].npreds, 1);
    assert_int_equal(iv.iv[2].preds[0], 1);
    for (int i = 0; i < iv.n; i++)
        assert_true(iv.iv[i].nregs <= 3);
    assert_near(rf_iv_mean_len(&iv), 7.0 / 3.0, 1e-12);
    rf_iv_free(&iv);
    kb_free(f);
}

/* A straight-line block, each instruction adding a register (N = 4):
 * i0..i3 gather {0,1,2,3}; i4 would make 5, so TRAVERSE cuts the block
 * there and i4..i6 ({3,4,5}) form a second interval.  Dynamic: one
 * PREFETCH at the start and one at the cut: 7 instructions / 2 = 3.5. */
static void test_block_split(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "chain");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "alu r2 = r1");
    kb_i(&b, "alu r3 = r2");
    kb_i(&b, "alu r4 = r3");
    kb_i(&b, "alu r5 = r4");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    rf_intervals iv;
    assert_int_equal(form(f, 4, RF_IV_REGISTER, &iv), 0);
    assert_int_equal(iv.n, 2);
    assert_int_equal(iv.iv[0].ninsts, 4);
    assert_int_equal(iv.iv[1].ninsts, 3);
    assert_int_equal(iv.iv[1].entry_inst, 4);
    assert_int_equal(iv.iv[1].entry_block, 0);
    assert_int_equal(iv.iv[1].nregs, 3);
    double fq[1], ef[2], entries, insts, len;
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, NULL, fq, ef, NULL), 0);
    rf_iv_dynamic(f, &iv, fq, ef, &entries, &insts, &len);
    assert_near(entries, 2, 1e-12);
    assert_near(insts, 7, 1e-12);
    assert_near(len, 3.5, 1e-12);
    rf_iv_free(&iv);
    /* N = 1: i2 reads r1 and writes r2, more than one register on its
     * own, so it forms an interval by itself, flagged over. */
    assert_int_equal(form(f, 1, RF_IV_REGISTER, &iv), 0);
    assert_true(iv.iv[iv.of_inst[2]].over);
    assert_false(iv.iv[iv.of_inst[0]].over);
    rf_iv_free(&iv);
    kb_free(f);
}

/*  B0: i0 alu r0 =; i1 ldg r1 = r0; i2 alu r2 = r1      -> B1
 *  B1: i3 alu r2 = r2; i4 @p0 bra                       -> B2 | B1
 *  B2: i5 stg = r0 r2; i6 exit
 * Register-intervals (N = 16): {B0}, then B1 (a loop header) heads an
 * interval that B2 joins; pass 2 merges both: 1 interval.
 * Strands: the load ends a strand ([i0,i1] | [i2]); B1 heads a strand
 * (loop header); B2 follows a backward branch and heads its own:
 * 4 strands of 2, 1, 2, 2 instructions, mean 7/4.
 * Dynamic (trip 3: B1 runs 4 times): 13 instructions.  The interval is
 * entered once (mean 13).  Strands are entered at the start, after the
 * load, on B0->B1, on each of the 3 back edges and on B1->B2: 7 entries. */
static void test_strands(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "strand");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "ldg r1 = r0");
    kb_i(&b, "alu r2 = r1");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r2 = r2");
    kb_i(&b, "@p0 bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "stg = r0 r2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    kb_succ(&b, B2, -1, -1);
    rf_func *f = kb_finish(&b);
    double fq[3], ef[6], entries, insts, len;
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, NULL, fq, ef, NULL), 0);

    rf_intervals iv;
    assert_int_equal(form(f, 16, RF_IV_REGISTER, &iv), 0);
    assert_int_equal(iv.pass1, 2);
    assert_int_equal(iv.n, 1);
    rf_iv_dynamic(f, &iv, fq, ef, &entries, &insts, &len);
    assert_near(entries, 1, 1e-9);
    assert_near(insts, 13, 1e-9);
    rf_iv_free(&iv);

    assert_int_equal(form(f, 16, RF_IV_STRAND, &iv), 0);
    assert_int_equal(iv.n, 4);
    assert_int_equal(iv.iv[0].ninsts, 2);
    assert_int_equal(iv.iv[1].ninsts, 1);
    assert_int_equal(iv.iv[1].entry_inst, 2);
    assert_int_equal(iv.iv[2].ninsts, 2);
    assert_int_equal(iv.iv[3].ninsts, 2);
    assert_near(rf_iv_mean_len(&iv), 1.75, 1e-12);
    rf_iv_dynamic(f, &iv, fq, ef, &entries, &insts, &len);
    assert_near(entries, 7, 1e-9);
    assert_near(len, 13.0 / 7.0, 1e-9);
    rf_iv_free(&iv);
    kb_free(f);
}

/* A call is an interval of its own: i0 | call | i2. */
static void test_call_split(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "calls");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "call = r0");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    rf_intervals iv;
    assert_int_equal(form(f, 16, RF_IV_REGISTER, &iv), 0);
    assert_int_equal(iv.n, 3);
    assert_int_equal(iv.iv[1].entry_inst, 1);
    assert_int_equal(iv.iv[1].ninsts, 1);
    assert_int_equal(iv.iv[2].ninsts, 2);
    rf_iv_free(&iv);
    rf_err err;
    assert_int_equal(form(f, 0, RF_IV_REGISTER, &iv), RF_ERANGE);
    rf_iv_opts o;
    rf_iv_opts_default(&o);
    o.regs = 0;
    assert_int_equal(rf_iv_form(f, &o, &iv, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "interval_regs"));
    kb_free(f);
}

/* Invariants on every bundled kernel, for register-intervals (N = 16, 8,
 * 4; pass 2 never adds intervals) and strands: the intervals partition the instructions, each fits N
 * registers (unless one instruction alone does not), and control enters
 * an interval only at its entry instruction. */
static void check_partition(const rf_func *f, const rf_intervals *iv)
{
    long sum = 0;
    for (int i = 0; i < iv->n; i++) {
        sum += iv->iv[i].ninsts;
        assert_true(iv->iv[i].nregs <= iv->regs || iv->iv[i].over);
    }
    assert_int_equal(sum, f->ninsts);
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *bb = &f->blocks[b];
        for (int k = bb->first + 1; k < bb->first + bb->ninsts; k++) {
            int v = iv->of_inst[k];
            assert_in_range(v, 0, iv->n - 1);
            if (v != iv->of_inst[k - 1])
                assert_int_equal(iv->iv[v].entry_inst, k);
        }
        if (!bb->ninsts)
            continue;
        int from = iv->of_inst[bb->first + bb->ninsts - 1];
        for (int s = 0; s < bb->nsucc; s++) {
            const rf_block *t = &f->blocks[bb->succ[s]];
            if (!t->ninsts)
                continue;
            int to = iv->of_inst[t->first];
            if (to != from)
                assert_int_equal(iv->iv[to].entry_inst, t->first);
        }
    }
}

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
        rf_err err;
        assert_int_equal(rf_kernel_load(path, &ko, &kern, &err), 0);
        const rf_func *f = kern->func;
        static const int regs[] = {16, 8, 4};
        for (size_t r = 0; r < 3; r++) {
            rf_intervals iv;
            assert_int_equal(form(f, regs[r], RF_IV_REGISTER, &iv), 0);
            check_partition(f, &iv);
            assert_true(iv.n <= iv.pass1);
            rf_iv_free(&iv);
        }
        rf_intervals st;
        assert_int_equal(form(f, 16, RF_IV_STRAND, &st), 0);
        check_partition(f, &st);
        rf_iv_free(&st);
        rf_kernel_destroy(kern);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig6_merges),
        cmocka_unit_test(test_fig6_limited),
        cmocka_unit_test(test_block_split),
        cmocka_unit_test(test_strands),
        cmocka_unit_test(test_call_split),
        cmocka_unit_test(test_bundled_kernels),
    };
    return cmocka_run_group_tests_name("intervals", tests, NULL, NULL);
}
