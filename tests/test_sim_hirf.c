/* test_sim_hirf.c - the sampler's HI-RF organisation (sampler/regcache.c,
 * seed 002) on tiny kernels with hand-counted register-cache events.
 *
 * Fixture (tests/support/simfix.c): ALU latency L = 4, modulo bank map,
 * 4 banks, one warp.  Here: 2 sub-cores (one per scheduler), 8 lines per
 * sub-core, concatenated index W0R3 (line = register mod 8 for warp 0),
 * NVM write latency 4.
 *
 * Timing without conflicts is the banked file's: an instruction issued at
 * t reads at t+1 (cache or NVM bank), dispatches at t+2, writes at t+2+L,
 * and a dependant issues in that cycle.  A conflicting write evicts the
 * line's pair to its NVM bank, holding the bank 4 cycles; the write is done
 * in the last of them, 3 cycles late.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/simfix.h"

static void hirf_fixture(simfix *fx, int index, int assign)
{
    simfix_init(fx);
    fx->gpu.subcores = 2;
    fx->gpu.rc_entries = 8;
    fx->gpu.rc_line_bits = 1024;
    fx->gpu.max_warps_per_sm = 64;
    fx->gpu.nvm_read_latency = 1;
    fx->gpu.nvm_write_latency = 4;
    fx->design.kind = RF_DESIGN_HIRF;
    fx->design.index = index;
    fx->design.wbits = 0;
    fx->design.rbits = 3;
    fx->design.assign = assign;
}

/* Ping-pong between r0 and r8, which share line 0 (W0R3: 8 mod 8 = 0):
 *   I0 r8 = f(r0); I1 r0 = f(r8); I2 r8 = f(r0); I3 r0 = f(r8); EXIT. */
static void ping_pong(simfix *fx)
{
    simfix_add(fx, RF_OC_ALU, (int[]){8, -1}, (int[]){0, -1});
    simfix_add(fx, RF_OC_ALU, (int[]){0, -1}, (int[]){8, -1});
    simfix_add(fx, RF_OC_ALU, (int[]){8, -1}, (int[]){0, -1});
    simfix_add(fx, RF_OC_ALU, (int[]){0, -1}, (int[]){8, -1});
    simfix_finish(fx);
}

/* Hand count, baseline assignment:
 *   I0 issue 0, r0 not cached: NVM read @1 (bank 0), write r8 @6 into the
 *      empty line 0 (absorbed).
 *   I1 issue 6, r8 hit, write r0 @12: line 0 holds r8 -> conflict, r8 to
 *      NVM bank 0 @12..15, r0 done @15 (3 stall cycles).
 *   I2 issue 15, r0 hit, write r8 @21: conflict (victim r0; bank 0 free
 *      since 16), done @24.
 *   I3 issue 24, r8 hit, write r0 @30: conflict, done @33; EXIT @25.
 *   cycles = 33 + 1 = 34 = the banked file's 25 + 3 x 3.
 * Reads: 3 hits, 1 miss (one NVM read, one bank read); writes: 4 into the
 * cache, 3 conflicts, 3 NVM writes (bank writes), 9 stall cycles. */
static void ping_pong_counts(void **state)
{
    (void)state;
    simfix fx;
    hirf_fixture(&fx, RF_RC_CONCAT, RF_ASSIGN_BASE);
    ping_pong(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 34);
    assert_int_equal(st.warp_insts, 5);
    assert_int_equal(st.rc_hits, 3);
    assert_int_equal(st.rc_misses, 1);
    assert_int_equal(st.nvm_reads, 1);
    assert_int_equal(st.bank_reads, 1);
    assert_int_equal(st.rc_writes, 4);
    assert_int_equal(st.rc_conflicts, 3);
    assert_int_equal(st.nvm_writes, 3);
    assert_int_equal(st.bank_writes, 3);
    assert_int_equal(st.nvm_stall_cycles, 9);
    assert_int_equal(st.xbar_transfers, 1);

    /* The same code on the plain SRAM file: 1 + 4 x (L + 2) = 25 cycles. */
    fx.design.kind = RF_DESIGN_BASELINE;
    st = simfix_run(&fx);
    assert_int_equal(st.cycles, 25);
    assert_int_equal(st.rc_writes, 0);
    assert_int_equal(st.bank_writes, 4);
}

/* With a slower NVM write (8 cycles) each conflict costs 7: 25 + 3 x 7. */
static void ping_pong_latency(void **state)
{
    (void)state;
    simfix fx;
    hirf_fixture(&fx, RF_RC_CONCAT, RF_ASSIGN_BASE);
    fx.gpu.nvm_write_latency = 8;
    ping_pong(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 46);
    assert_int_equal(st.nvm_stall_cycles, 21);
    assert_int_equal(st.rc_conflicts, 3);
}

/* Fully associative (8 ways per sub-core, LRU): r0 and r8 both fit, no
 * conflict, banked timing.  CAC: static destination counts r0 = 2, r8 = 2,
 * others 0; sorted (ties by number) r0, r8, r1, ... so r0 -> 0 and r8 -> 1,
 * different lines: no conflict either.  Worst fills critical set 0 first:
 * r0 -> 0, r8 -> 8, the same line again: 3 conflicts. */
static void ping_pong_policies(void **state)
{
    (void)state;
    simfix fx;
    hirf_fixture(&fx, RF_RC_FULL, RF_ASSIGN_BASE);
    ping_pong(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.rc_conflicts, 0);
    assert_int_equal(st.nvm_writes, 0);
    assert_int_equal(st.cycles, 25);

    hirf_fixture(&fx, RF_RC_CONCAT, RF_ASSIGN_CAC);
    ping_pong(&fx);
    st = simfix_run(&fx);
    assert_int_equal(st.rc_conflicts, 0);
    assert_int_equal(st.rc_hits, 3);
    assert_int_equal(st.cycles, 25);

    hirf_fixture(&fx, RF_RC_CONCAT, RF_ASSIGN_WORST);
    ping_pong(&fx);
    st = simfix_run(&fx);
    assert_int_equal(st.rc_conflicts, 3);
    assert_int_equal(st.cycles, 34);
}

/* Two warps (slots 0 and 1, sub-cores 0 and 1) write r8: separate caches,
 * no conflict.  Two back-to-back evictions to one NVM bank: warp 0 writes
 * r8 then r16 (both line 0, r16 evicts r8 to bank 0), then r24 (evicts r16,
 * bank 0 again), independent instructions:
 *   I0 r8 = f(r1) issue 0, r1 miss read @1 (bank 1), write @6 (absorbed);
 *   I1 r16 = f(r2) issue 1, read @2 (bank 2), write @7: conflict, bank 0
 *      @7..10, done @10;
 *   I2 r24 = f(r3) issue 2, read @3 (bank 3), write @8: conflict, bank 0
 *      busy until 10 -> granted @11, done @14 (stall 14 - 8 = 6).
 *   EXIT @3; cycles = 15; stall = 3 + 6 = 9. */
static void nvm_bank_busy(void **state)
{
    (void)state;
    simfix fx;
    hirf_fixture(&fx, RF_RC_CONCAT, RF_ASSIGN_BASE);
    simfix_add(&fx, RF_OC_ALU, (int[]){8, -1}, (int[]){1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){16, -1}, (int[]){2, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){24, -1}, (int[]){3, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.rc_conflicts, 2);
    assert_int_equal(st.nvm_writes, 2);
    assert_int_equal(st.nvm_stall_cycles, 9);
    assert_int_equal(st.cycles, 15);

    hirf_fixture(&fx, RF_RC_CONCAT, RF_ASSIGN_BASE);
    fx.kernel.launch.block[0] = 64;
    simfix_add(&fx, RF_OC_ALU, (int[]){8, -1}, (int[]){0, -1});
    simfix_finish(&fx);
    st = simfix_run(&fx);
    assert_int_equal(st.rc_writes, 2);
    assert_int_equal(st.rc_conflicts, 0);
}

/* A bad concatenation (W2R3 does not make the 3-bit index) is refused. */
static void bad_geometry(void **state)
{
    (void)state;
    simfix fx;
    hirf_fixture(&fx, RF_RC_CONCAT, RF_ASSIGN_BASE);
    fx.design.wbits = 2;
    ping_pong(&fx);
    rf_sim_stats st;
    rf_err err = {0};
    assert_int_equal(rf_sim_run(&fx.gpu, &fx.design, &fx.kernel, &fx.opts, &st, &err), RF_ERANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ping_pong_counts),
        cmocka_unit_test(ping_pong_latency),
        cmocka_unit_test(ping_pong_policies),
        cmocka_unit_test(nvm_bank_busy),
        cmocka_unit_test(bad_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
