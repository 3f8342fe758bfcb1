/* test_sim_timing.c - hand-checked cycle counts of the sampler on tiny
 * kernels (fixture: tests/support/simfix.c; ALU latency L = 4, ALU II 1,
 * modulo register-to-bank map unless said otherwise).
 *
 * Pipeline timing (sampler/sim_internal.h): an instruction issued at t reads
 * its first operand at t+1, dispatches at t+2 once all operands are in its
 * collector, writes its result at t+2+L; a dependent instruction issues in
 * that same cycle.  The run ends the cycle after the last retirement.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/simfix.h"

/* Three dependent ALU instructions then EXIT, one warp:
 *   I0 issue 0, read r0 @1, dispatch 2, write r1 @6
 *   I1 issue 6 (RAW on r1), write r2 @12
 *   I2 issue 12, write r3 @18 (retires); EXIT issues @13
 *   cycles = 18 + 1 = 19 = 1 + 3 (L + 2); 4 warp instructions. */
static void dependent_chain(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){2, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 19);
    assert_int_equal(st.warp_insts, 4);
    assert_int_equal(st.bank_reads, 3);
    assert_int_equal(st.bank_writes, 3);
    assert_int_equal(st.read_conflict_cycles, 0);
    /* Scheduler 0 issued 4 times in 19 cycles; the other 15 cycles it waits
     * on the scoreboard (I1, I2: 2 x 5 cycles while the producer runs) or has
     * no warp left (after EXIT at 13: cycles 14..18); scheduler 1 never has
     * a warp: 19 more no-warp cycles. */
    assert_int_equal(st.stall_scoreboard + st.stall_no_warp + st.stall_memory, 2 * 19 - 4);
    assert_int_equal(st.stall_no_warp, 19 + 5);
}

/* Two warps (one per scheduler) each reading r0 then writing r2.
 * Modulo map: both r0 in bank 0.  Warp 0's read @1, warp 1's refused @1
 * (one inter-read conflict cycle) and granted @2; dispatch 2 and 3;
 * writes of r2 (bank 2) @6 and @7; cycles = 8.
 * Swizzle map: warp 1's r0 is in bank 1, no conflict: cycles = 7. */
static void two_warps_one_bank(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.kernel.launch.block[0] = 64;
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){0, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 8);
    assert_int_equal(st.inter_read_cycles, 1);
    assert_int_equal(st.read_conflict_cycles, 1);
    assert_int_equal(st.bank_reads, 2);
    assert_int_equal(st.warp_insts, 4);

    fx.opts.bank_map = RF_BANK_MAP_SWIZZLE;
    st = simfix_run(&fx);
    assert_int_equal(st.cycles, 7);
    assert_int_equal(st.read_conflict_cycles, 0);
}

/* A read loses its bank to a write (inter-write conflict, writes first).
 * One warp: I0 r1 <- r0 (write r1, bank 1, @6); I1 r2 <- r4 (independent,
 * issue 1, read @2, write r2 @7); I2 r3 <- r5, r9 (bank 1 twice), issue 2,
 * reads r5 @3, r9 refused @4..: intra conflict @3 is not an issue because
 * the two reads go @3 and @4; dispatch 5, write r3 (bank 3) @9.
 * No read meets a write here: cycles = 10.  Then I2 reads r5, r9, r13 (bank 1,
 * @3 @4 @5) plus r17 (bank 1) @6 meets the write of r1 @6: one inter-write
 * conflict cycle, r17 @7, dispatch 8, write @12, cycles = 13. */
static void write_beats_read(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){4, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){5, 9, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 10);
    assert_int_equal(st.intra_cycles, 1);
    assert_int_equal(st.inter_write_cycles, 0);

    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){4, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){5, 9, 13, 17, -1});
    simfix_finish(&fx);
    st = simfix_run(&fx);
    assert_int_equal(st.cycles, 13);
    assert_int_equal(st.intra_cycles, 1 + 2 + 3);
    assert_int_equal(st.inter_write_cycles, 1);
}

/* Scheduling order, one scheduler, two warps A (slot 0) and B (slot 1),
 * swizzle map (A's registers in bank 0, B's in bank 1 for r0 and r4):
 * I0 r1 <- r0; I1 r2 <- r4 (independent); EXIT.
 * GTO keeps issuing A: A.I0 @0, A.I1 @1, A.EXIT @2, then B @3 @4 @5;
 *   B.I1 reads @5, dispatches @6, writes @10: 11 cycles.
 * LRR alternates: A.I0 @0, B.I0 @1, A.I1 @2, B.I1 @3 (then the EXITs);
 *   B.I1 dispatches @5, writes @9: 10 cycles.
 * Two-level with an active pool of one warp behaves like GTO here (A stays
 *   active until it exits, then B is promoted): 11 cycles. */
static void scheduling_order(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.schedulers = 1;
    fx.gpu.alu_lanes = 64;
    fx.opts.bank_map = RF_BANK_MAP_SWIZZLE;
    fx.kernel.launch.block[0] = 64;
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){4, -1});
    simfix_finish(&fx);
    fx.design.scheduler = 1 + RF_SCHED_GTO;
    assert_int_equal(simfix_run(&fx).cycles, 11);
    fx.design.scheduler = 1 + RF_SCHED_LRR;
    assert_int_equal(simfix_run(&fx).cycles, 10);
    fx.design.scheduler = 1 + RF_SCHED_TWO_LEVEL;
    fx.opts.active_warps = 1;
    assert_int_equal(simfix_run(&fx).cycles, 11);
}

/* Execution-unit initiation interval: four independent SFU instructions of
 * one warp (II = 32 / 4 lanes = 8, latency 8).  Issue @0..@3, reads @1..@4,
 * dispatch @2, @10, @18, @26 (one SFU pipe), last write @34: 35 cycles. */
static void sfu_initiation_interval(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    for (int i = 0; i < 4; i++)
        simfix_add(&fx, RF_OC_SFU, (int[]){4 + i, -1}, (int[]){i, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 35);
    assert_int_equal(st.insts_by_class[RF_OC_SFU], 4);
}

/* DRAM queue: two independent global loads missing L1 and L2 (128 bytes
 * each at 64 bytes/cycle: 2 cycles of DRAM each, latency 200), then an ALU
 * instruction using both.
 * I0 dispatches @2: DRAM busy 2..4, result @204.  I1 dispatches @3, waits
 * for the DRAM until 4, busy 4..6, result @206.  I2 issues @206, reads @207,
 * dispatches @208, writes @212: 213 cycles.  Scheduler 0 waits on memory
 * from @2 to @205: 204 memory-stall cycles; 256 bytes from DRAM. */
static void dram_queue(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){2, -1}, (int[]){4, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){1, 2, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 213);
    assert_int_equal(st.stall_memory, 204);
    assert_int_equal(st.dram_bytes, 256);
    assert_int_equal(st.mem_insts, 2);
    assert_true(st.skipped_cycles > 150);
}

/* Collectors dedicated per unit class: 3 collectors split 6:8:2 give one
 * ALU collector (3*6/16 rounds to 1).  Two independent ALU instructions:
 * pooled, I0 issues @0 and I1 @1, dispatch @2 and @3, last write @7: 8 cycles.
 * Typed, I1 waits for the only ALU collector, freed when I0 dispatches @2:
 * I1 issues @2, reads @3, dispatches @4, writes @8: 9 cycles, and the
 * scheduler charges cycle 1 to a full collector. */
static void typed_collectors(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.collectors = 3;
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){4, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 8);
    assert_int_equal(st.stall_collector, 0);
    fx.opts.typed_collectors = true;
    st = simfix_run(&fx);
    assert_int_equal(st.cycles, 9);
    assert_int_equal(st.stall_collector, 1);
}

/* Issue width 2: one warp issues I0 r1 <- r0 and I1 r2 <- r5 (independent,
 * banks 0 and 1) in cycle 0 and EXIT in cycle 1; both read @1, dispatch @2
 * on the two ALU pipes, write @6: 7 cycles.  Unused issue slots: 2
 * schedulers x 2 slots x 7 cycles - 3 issued = 25. */
static void dual_issue(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.issue_width = 2;
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){5, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 7);
    assert_int_equal(st.stall_no_warp + st.stall_scoreboard + st.stall_collector +
                     st.stall_bank + st.stall_memory, 25);
    fx.gpu.issue_width = 1;
    assert_int_equal(simfix_run(&fx).cycles, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dependent_chain),
        cmocka_unit_test(two_warps_one_bank),
        cmocka_unit_test(write_beats_read),
        cmocka_unit_test(scheduling_order),
        cmocka_unit_test(sfu_initiation_interval),
        cmocka_unit_test(dram_queue),
        cmocka_unit_test(typed_collectors),
        cmocka_unit_test(dual_issue),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
