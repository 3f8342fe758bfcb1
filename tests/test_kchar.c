/* test_kchar.c - kernel characteristics (analytic/kchar.c): class runs and
 * the instructions the scheduler repeats across warps, values counted by
 * hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/kchar.h"
#include "support/kirbuild.h"

/* One block, run once per warp:
 *   i0 lds r1 = r0        LD/ST  run 0 (first)
 *   i1 lds r2 = r0        LD/ST  run 1 (independent of i0); i2 reads r2
 *   i2 alu r3 = r1 r2     ALU    run 0 (class changes)
 *   i3 alu r4 = r0        ALU    run 1 (independent of i2)
 *   i4 alu r5 = r0        ALU    run 2
 *   i5 exit               no collector
 * LD/ST (2): run >= 1: i1 -> 1/2; run >= 2: none.  i1's successor waits
 *   for it -> rep 1/2.
 * ALU (3): run >= 1: i3, i4 -> 2/3; run >= 2: i4 -> 1/3; rep 0.
 * SFU: none (run_ge[1][0] = 1 by convention, the rest 0). */
static void runs_and_repeats(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "runs");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "lds r1 = r0");
    kb_i(&b, "lds r2 = r0");
    kb_i(&b, "alu r3 = r1 r2");
    kb_i(&b, "alu r4 = r0");
    kb_i(&b, "alu r5 = r0");
    kb_i(&b, "exit");
    kb_succ(&b, B0, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_ipc_kernel k;
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_float_equal(k.run_ge[2][0], 1.0, 1e-12);
    assert_float_equal(k.run_ge[2][1], 0.5, 1e-12);
    assert_float_equal(k.run_ge[2][2], 0.0, 0.0);
    assert_float_equal(k.rep_share[2], 0.5, 1e-12);
    assert_float_equal(k.run_ge[0][1], 2.0 / 3.0, 1e-12);
    assert_float_equal(k.run_ge[0][2], 1.0 / 3.0, 1e-12);
    assert_float_equal(k.run_ge[0][3], 0.0, 0.0);
    assert_float_equal(k.rep_share[0], 0.0, 0.0);
    assert_float_equal(k.run_ge[1][0], 1.0, 0.0);
    assert_float_equal(k.run_ge[1][1], 0.0, 0.0);
    /* Class shares: 3 ALU, 2 LD/ST, 1 exit of 6. */
    assert_float_equal(k.frac_alu, 0.5, 1e-12);
    assert_float_equal(k.frac_ldst, 1.0 / 3.0, 1e-12);
    /* i0..i4 read 1, 1, 2, 1, 1 registers; exit none: P(0 reads) = 1/6. */
    assert_float_equal(k.read_k[0], 1.0 / 6.0, 1e-12);
    assert_float_equal(k.no_reads, 1.0 / 6.0, 1e-12);
    kb_free(f);
}

/* Live fraction (the warps holding registers) against the active fraction
 * (the warps with work), two warps per CTA.  Phase 0: B0 branches (taken
 * with probability 0.5, drawn per warp) to B1, twenty dependent ALU
 * instructions, so a CTA's two warps often differ in length.
 * Without a barrier there is one phase: live = E[mean_w T] / E[max_w T],
 * the active fraction itself, and below 1.
 * With a barrier before the tail, every warp is held through phase 0
 * (waiting for the slower one) and runs the same independent tail
 * (alu r2 = r0; exit: equal lone times t1), so per CTA
 *   live = max T_0 + (t1 + t1) / 2 = life: live_frac = 1 exactly, while
 * the active fraction stays below 1. */
static rf_func *branchy(bool barrier)
{
    kb_builder b;
    kb_begin(&b, barrier ? "live_bar" : "live");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "@p0 bra");
    int B1 = kb_block(&b, "B1");
    for (int i = 0; i < 20; i++)
        kb_i(&b, "alu r1 = r1");
    int B2 = kb_block(&b, "B2");
    if (barrier)
        kb_i(&b, "bar");
    kb_i(&b, "alu r2 = r0");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B2, B1);
    kb_succ(&b, B1, B2, -1);
    kb_succ(&b, B2, -1, -1);
    return kb_finish(&b);
}

static void live_fraction(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_func *f = branchy(false);
    assert_non_null(f);
    rf_ipc_kernel k;
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_true(k.active_frac < 0.95);
    assert_near(k.live_frac, k.active_frac, 1e-12);
    kb_free(f);
    f = branchy(true);
    assert_non_null(f);
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_true(k.active_frac < 0.95);
    assert_near(k.live_frac, 1.0, 1e-9);
    kb_free(f);
}

/* Turns (rf_ipc_kernel.turn_insts): one block per warp,
 *   i0 alu r1 = r0   issues at 0, r1 ready at 2 + L (L: the ALU latency)
 *   i1 alu r2 = r0   at 1
 *   i2 alu r3 = r1   at 2, waits L > 1 cycles for r1: the turn ends
 *   i3 alu r4 = r0   no wait
 *   i4 exit          the warp's exit ends its second turn
 * 5 instructions in 2 turns: 2.5.  With i2 reading r0 instead, nothing
 * waits: one turn of 5. */
static rf_func *turns_kernel(bool dep)
{
    kb_builder b;
    kb_begin(&b, "turns");
    kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "alu r2 = r0");
    kb_i(&b, dep ? "alu r3 = r1" : "alu r3 = r0");
    kb_i(&b, "alu r4 = r0");
    kb_i(&b, "exit");
    return kb_finish(&b);
}

static void turn_length(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    assert_true(gpu.alu_latency > 1);
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_ipc_kernel k;
    rf_func *f = turns_kernel(true);
    assert_non_null(f);
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_near(k.turn_insts, 2.5, 1e-12);
    kb_free(f);
    f = turns_kernel(false);
    assert_non_null(f);
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_near(k.turn_insts, 5.0, 1e-12);
    kb_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_and_repeats),
        cmocka_unit_test(live_fraction),
        cmocka_unit_test(turn_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
