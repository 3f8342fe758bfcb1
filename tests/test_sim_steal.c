/* test_sim_steal.c - bank stealing (seed 001 Sec. IV) on hand-checked tiny
 * kernels.  Fixture: tests/support/simfix.c (ALU latency 4, shared-memory
 * latency 4, ALU II 1, 4 banks); one scheduler so one warp slot order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/simfix.h"

static rf_sim_stats run(simfix *fx)
{
    rf_sim_stats st;
    rf_err err = {0};
    int rc = rf_sim_run(&fx->gpu, &fx->design, &fx->kernel, &fx->opts, &st, &err);
    if (rc != 0)
        print_error("rf_sim_run: %s\n", err.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(st.chk_issued, st.chk_retired);
    assert_int_equal(st.chk_bank_overuse, 0);
    return st;
}

static void one_scheduler(simfix *fx)
{
    fx->gpu.schedulers = 1;
    fx->gpu.alu_lanes = 64;          /* one ALU pipe, II 1 */
}

static void steal(simfix *fx, bool rd, bool wr)
{
    fx->design.kind = RF_DESIGN_STEALING;
    fx->design.read_steal = rd;
    fx->design.write_steal = wr;
}

/* Two warps A (slot 0), B (slot 1) on one GTO scheduler, swizzle map:
 * I0 r2 <- r0, r4 (A: bank 0 twice; B: bank 1 twice), then EXIT.
 * Straight: A issues @0, reads r0 @1, r4 @2; EXIT @1; B issues @2, reads @3,
 *   @4, dispatch 5, write @9: cycles 10.
 * Read stealing: @1 A's r4 is refused; candidate B (second in GTO order)
 *   has a conflict coming (its two operands share bank 1), bank 1 is idle:
 *   B's r0 is read ahead @1 and B issues @1 (override); @2 A r4, B r4;
 *   both ready @3, one ALU pipe: A dispatches @3, B @4, B writes @8:
 *   cycles 9, one stolen read, one override. */
static void stolen_read(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    one_scheduler(&fx);
    fx.opts.bank_map = RF_BANK_MAP_SWIZZLE;
    fx.kernel.launch.block[0] = 64;
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){0, 4, -1});
    simfix_finish(&fx);
    rf_sim_stats st = run(&fx);
    assert_int_equal(st.cycles, 10);
    assert_int_equal(st.stolen_reads, 0);

    steal(&fx, true, false);
    st = run(&fx);
    assert_int_equal(st.cycles, 9);
    assert_int_equal(st.stolen_reads, 1);
    assert_int_equal(st.steal_overrides, 1);
    assert_int_equal(st.bank_reads, 4);
}

/* One warp, modulo map, regs 32 (r28..r31 never used: dead everywhere).
 * I0 r1 <- [r0] (shared load, issue 0, write r1 @6 into bank 1)
 * I1 r2 <- r5, r9, r13 (bank 1), issue 1, reads @2 @3 @4, dispatch 5
 * I2 r6 <- r17, r21, r25 (bank 1), issue 2, reads wait for I1: @5 @6 @7
 * Straight: the write of r1 @6 beats r21 (two inter-write cycles: r21 and
 *   r25 both wanted bank 1), reads @5 @7 @8, dispatch 9, write @13: 14 cycles.
 * Write stealing: @6 r1 is parked in bank 0's Rfree (r28), r21 proceeds;
 *   @7 bank 0 is idle: second-chance read of the temporary (within one
 *   cycle), @8 forced write of r1 into bank 1; I2 dispatches @8, writes @12:
 *   13 cycles. */
static void stolen_write_fast(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    one_scheduler(&fx);
    simfix_add(&fx, RF_OC_LD_SHARED, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){5, 9, 13, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){6, -1}, (int[]){17, 21, 25, -1});
    simfix_finish(&fx);
    rf_sim_stats st = run(&fx);
    assert_int_equal(st.cycles, 14);
    assert_int_equal(st.inter_write_cycles, 2);
    assert_int_equal(st.wb_normal, 3);

    steal(&fx, false, true);
    st = run(&fx);
    assert_int_equal(st.cycles, 13);
    assert_int_equal(st.inter_write_cycles, 0);
    assert_int_equal(st.stolen_writes, 1);
    assert_int_equal(st.wb_stolen_fast, 1);
    assert_int_equal(st.wb_stolen_late, 0);
    assert_int_equal(st.wb_normal, 2);
    assert_int_equal(st.bank_writes, 4);     /* 3 results + the temporary */
    assert_int_equal(st.bank_reads, 7 + 1);  /* 7 operands + the temporary */
}

/* One warp, modulo map:
 * I0 r1, r2 <- r0   (ALU, issue 0, read @1, writes r1 (bank 1), r2 (bank 2) @6)
 * I1 r3 <- r5, r9, r13, r17, r21 (bank 1 x5), issue 1, reads @2..@6
 * I2 r12 <- r2, r4  (waits for r2; issues @6; reads r2 (bank 2), r4 (bank 0) @7)
 * Straight: @6 both writes first, r21 refused, read @7, I1 dispatch 8;
 *   I2 reads @7, dispatch 9 (one ALU pipe), write @13: 14 cycles.
 * Write stealing: @6 r1 is parked in bank 0 (r21 proceeds, I1 dispatches @7);
 *   @7 bank 0 is read by I2, so the second-chance read of the temporary
 *   waits to @8 (a later write-back), destination write @9; I2 dispatches
 *   @8 and writes @12: 13 cycles. */
static void stolen_write_late(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    one_scheduler(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, 2, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){5, 9, 13, 17, 21, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){12, -1}, (int[]){2, 4, -1});
    simfix_finish(&fx);
    rf_sim_stats st = run(&fx);
    assert_int_equal(st.cycles, 14);

    steal(&fx, false, true);
    st = run(&fx);
    assert_int_equal(st.cycles, 13);
    assert_int_equal(st.stolen_writes, 1);
    assert_int_equal(st.wb_stolen_late, 1);
    assert_int_equal(st.wb_stolen_fast, 0);
    assert_int_equal(st.wb_forced, 0);
}

/* As stolen_write_late but I2 r12 <- r1, r4 reads the parked value (RAW):
 * @6 r1 parked in bank 0, scoreboard cleared, I2 issues @6.
 * @7 the hazard forces the write-back: temporary read in bank 0 at forced
 *   priority (r4 of bank 0 waits), r1 waits for the link: two inter-write
 *   cycles; @8 forced destination write into bank 1, so I2 reads r4
 *   (bank 0) @8 but r1 (bank 1) only @9 (a third inter-write cycle);
 *   dispatch @10, write @14: 15 cycles against 14 for the straight file
 *   (straight: r1 read @8 after I1's r21 @7): the forced write-back stalls. */
static void forced_write(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    one_scheduler(&fx);
    steal(&fx, false, true);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, 2, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){5, 9, 13, 17, 21, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){12, -1}, (int[]){1, 4, -1});
    simfix_finish(&fx);
    rf_sim_stats st = run(&fx);
    assert_int_equal(st.cycles, 15);
    assert_int_equal(st.stolen_writes, 1);
    assert_int_equal(st.wb_forced, 1);
    assert_int_equal(st.wb_stolen_fast + st.wb_stolen_late, 0);
    assert_int_equal(st.inter_write_cycles, 3);

    fx.design.kind = RF_DESIGN_BASELINE;
    st = run(&fx);
    assert_int_equal(st.cycles, 14);
    assert_int_equal(st.wb_forced, 0);
}

/* Second chance regardless of reads waiting on the destination bank (seed
 * 001 Sec. IV-C2: write back when "the result bus is free and the bank
 * holding the temporary register is free"; a read meeting the destination
 * write "we will not steal again but complete the write by stalling the
 * read").  One warp, modulo map, as stolen_write_fast but I2 reads four
 * operands of bank 1:
 * I0 r1 <- [r0] (shared load, issue 0, write r1 @6 into bank 1)
 * I1 r2 <- r5, r9, r13 (bank 1), issue 1, reads @2 @3 @4, dispatch 5
 * I2 r6 <- r17, r21, r25, r29 (bank 1), issue 2, reads wait for I1: r17 @5
 * Straight: @6 the write of r1 takes bank 1; r21 @7, r25 @8, r29 @9,
 *   dispatch 10, write @14: 15 cycles.
 * Write stealing: @6 r1 is parked in bank 0, r21 read; @7 r25 read, r29 is
 *   refused (same bank), bank 0 is idle: the temporary is read (written back
 *   within one cycle); @8 the destination write of r1 takes bank 1 at forced
 *   priority and r29 waits (one inter-write cycle); r29 @9, dispatch 10,
 *   write @14: 15 cycles.  Bank accesses: 8 operand reads + the temporary,
 *   3 results + the temporary. */
static void second_chance_over_reads(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    one_scheduler(&fx);
    simfix_add(&fx, RF_OC_LD_SHARED, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){5, 9, 13, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){6, -1}, (int[]){17, 21, 25, 29, -1});
    simfix_finish(&fx);
    rf_sim_stats st = run(&fx);
    assert_int_equal(st.cycles, 15);

    steal(&fx, false, true);
    st = run(&fx);
    assert_int_equal(st.cycles, 15);
    assert_int_equal(st.stolen_writes, 1);
    assert_int_equal(st.wb_stolen_fast, 1);
    assert_int_equal(st.wb_stolen_late, 0);
    assert_int_equal(st.wb_forced, 0);
    assert_int_equal(st.inter_write_cycles, 1);
    assert_int_equal(st.bank_writes, 4);
    assert_int_equal(st.bank_reads, 8 + 1);
}

/* No idle bank to park in: the write is forced and takes its bank from the
 * read that had it (seed 001 Sec. IV-D: a write that "cannot borrow a
 * vacant place for a stealing write" is forced; "all other conflicting
 * accesses have to yield").  One warp, modulo map (bank = reg mod 4):
 * I0 r1 <- [r0]  shared load: issue 0, read @1, result r1 (bank 1) @6
 * I1 r2 <- r4 r8 r12, r5 r9 r13, r6 r10 r14, r3 r7 r11 (3 per bank):
 *    issue 1, reads @2 @3 @4, dispatch 5
 * I2 r15 <- r16 r17 r18 r19 (one per bank): issue 2, reads @5 (after I1),
 *    dispatch 6
 * I3 r20 <- r24 r21 r22 r23 (one per bank): issue 3, reads @6 (after I2)
 * @6 the write of r1 meets I3's read of r21 on bank 1 and every other bank
 *   is read by I3 too: nowhere to park, so the write is forced: r21's read
 *   is refused (one inter-write cycle) and done @7; I3 dispatches @8
 *   (I1 @5, I2 @6 on the one ALU pipe), writes @12: 13 cycles, the same as
 *   the straight file (its write takes bank 1 first).  Bank reads
 *   1 + 12 + 4 + 4 = 21 (the refused read counted once), writes 4. */
static void forced_over_a_granted_read(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    one_scheduler(&fx);
    simfix_add(&fx, RF_OC_LD_SHARED, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1},
               (int[]){4, 8, 12, 5, 9, 13, 6, 10, 14, 3, 7, 11, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){15, -1}, (int[]){16, 17, 18, 19, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){20, -1}, (int[]){24, 21, 22, 23, -1});
    simfix_finish(&fx);
    rf_sim_stats st = run(&fx);
    assert_int_equal(st.cycles, 13);
    assert_int_equal(st.inter_write_cycles, 1);

    steal(&fx, false, true);
    st = run(&fx);
    assert_int_equal(st.cycles, 13);
    assert_int_equal(st.stolen_writes, 0);
    assert_int_equal(st.wb_forced, 1);
    assert_int_equal(st.wb_normal, 3);
    assert_int_equal(st.inter_write_cycles, 1);
    assert_int_equal(st.bank_reads, 21);
    assert_int_equal(st.bank_writes, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stolen_read),
        cmocka_unit_test(stolen_write_fast),
        cmocka_unit_test(stolen_write_late),
        cmocka_unit_test(forced_write),
        cmocka_unit_test(second_chance_over_reads),
        cmocka_unit_test(forced_over_a_granted_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
