/* test_sim_energy.c - the sampler's register-file energy (sampler/sim.c
 * energy_stats): its counted accesses priced by analytic/energy.c, checked
 * against the energy model applied by hand to tiny kernels.
 *
 * Fixture (tests/support/simfix.c): 32,768 registers per SM (1,048,576
 * bits), 4 banks, 8 collectors, 1,400 MHz.  Rates by hand (energy.c):
 *   rows per bank = 1,048,576 / 4 / 1,024 = 256 = the reference's: no
 *   bank scaling; read 0.203 x 1,024 = 207.872 pJ, write 0.191 x 1,024 =
 *   195.584 pJ (SRAM, configuration #1: power_x 1);
 *   crossbar 0.1 x 1,024 x sqrt(4/16 x 8/16) = 36.2038672 pJ;
 *   leakage 8 x 248.7 x (0.5 x 1,048,576 / 2,097,152 + 0.5 x 4 / 8)
 *   = 1,989.6 x 0.5 = 994.8 mW, i.e. 994.8 / 1,400 = 0.710571429 nJ per
 *   cycle (mW x cycles / MHz = nJ x 1e-3 x 1e3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "support/simfix.h"

#define READ_PJ 207.872
#define WRITE_PJ 195.584
#define XBAR_PJ 36.2038672
#define LEAK_NJ_PER_CYCLE (994.8 / 1400.0)

/* r2 = f(r0, r1); r3 = f(r2); EXIT, one warp on the banked file: 3 bank
 * reads, 2 bank writes, 3 crossbar transfers.
 *   main  = 3 x 207.872 + 2 x 195.584 = 1,014.784 pJ
 *   xbar  = 3 x 36.2038672           =   108.6116 pJ
 * leakage = cycles x 0.710571429 nJ. */
static void baseline_energy(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){0, 1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){2, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.bank_reads, 3);
    assert_int_equal(st.bank_writes, 2);
    assert_int_equal(st.xbar_transfers, 3);
    assert_float_equal(st.rf_main_nj, 1.014784, 1e-9);
    assert_float_equal(st.rf_xbar_nj, 0.1086116, 1e-7);
    assert_float_equal(st.rf_cache_nj, 0.0, 0.0);
    assert_float_equal(st.rf_dynamic_nj, 1.014784 + 0.1086116, 1e-7);
    assert_float_equal(st.rf_leakage_nj, st.cycles * LEAK_NJ_PER_CYCLE, 1e-9);
    assert_float_equal(st.rf_energy_nj, st.rf_dynamic_nj + st.rf_leakage_nj, 1e-9);
}

/* RFC of 2 lines (test_sim_ltrf.c rfc_lru): r1 = f(r0); r2 = f(r1);
 * r3 = f(r0, r2).  Counted: hits 2, misses 2 (main reads 2, each allocated
 * in the cache), 3 results written into the cache's banks, 1 dirty line
 * written back; every operand crosses: 2 hits + 2 misses = 4 transfers.
 * Structure accesses (energy.c, events to accesses):
 *   cache reads 2, cache writes 3 + 2 fills of misses = 5,
 *   main reads 2, main writes 1.
 *   main  = 2 x 207.872 + 195.584     =   611.328 pJ
 *   cache = 2 x 207.872 + 5 x 195.584 = 1,393.664 pJ
 *   xbar  = 4 x 36.2038672            =   144.8155 pJ
 * The cache is 2 lines x 1,024 bits: leakage 994.8 + 2,048 x 248.7 /
 * 262,144 = 996.742969 mW (a forced ctas_per_sm, as the fixture's, prices
 * no bookkeeping bits), 0.711959264 nJ per cycle. */
static void rfc_energy(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.rc_line_bits = 1024;
    fx.gpu.subcores = 1;
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){0, 2, -1});
    simfix_finish(&fx);
    rf_design_init(&fx.design);
    fx.design.kind = RF_DESIGN_RFC;
    fx.design.rf_config = 1;
    fx.design.rc_entries = 2;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.rc_hits, 2);
    assert_int_equal(st.rc_misses, 2);
    assert_int_equal(st.bank_writes, 3);
    assert_int_equal(st.main_reads, 2);
    assert_int_equal(st.main_writes, 1);
    assert_int_equal(st.writeback_regs, 1);
    assert_float_equal(st.rf_main_nj, 0.611328, 1e-9);
    assert_float_equal(st.rf_cache_nj, 1.393664, 1e-9);
    assert_float_equal(st.rf_xbar_nj, 0.1448155, 1e-7);
    assert_float_equal(st.rf_leakage_nj, st.cycles * (996.742969 / 1400.0), 1e-6);
    assert_float_equal(st.rf_energy_nj, 0.611328 + 1.393664 + 0.1448155 + st.rf_leakage_nj,
                       1e-7);
}

/* LTRF with 2-register intervals on r1 = f(r0); r3 = f(r2); EXIT:
 * interval 0 = {r0 r1}, interval 1 = {r2 r3} (test_prefetch.c
 * dirty_evictions).  PREFETCHes fetch r0, r1 then r2, r3: 4 fills (main
 * reads, cache writes).  r1's result lands after the cut (no instruction of
 * interval 0 follows I0) and r3's after the warp exited (its partition is
 * freed at the exit): both are main-file writes that bypass the cache, and
 * the cut evicts nothing dirty.  Reads r0, r2 hit the partition.
 *   events: reads 2, hits 2, fills 4, writes 2, bypass 2, write-backs 0;
 *   cache reads 2, cache writes (2 - 2) + 4 = 4, main reads 4, main writes 2;
 *   crossbar 2 (the hits, from the cache's banks).
 *   main  = 4 x 207.872 + 2 x 195.584 = 1,222.656 pJ
 *   cache = 2 x 207.872 + 4 x 195.584 = 1,198.080 pJ
 *   xbar  = 2 x 36.2038672 = 72.4077 pJ */
static void ltrf_energy(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.rc_line_bits = 1024;
    fx.gpu.subcores = 1;
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){2, -1});
    simfix_finish(&fx);
    rf_design_init(&fx.design);
    fx.design.kind = RF_DESIGN_LTRF;
    fx.design.rf_config = 1;
    fx.design.interval_regs = 2;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.prefetch_regs, 4);
    assert_int_equal(st.rc_hits, 2);
    assert_int_equal(st.rc_misses, 0);
    assert_int_equal(st.writeback_regs, 0);
    assert_int_equal(st.main_writes, 2);
    assert_int_equal(st.bank_writes, 0);
    assert_int_equal(st.xbar_transfers, 2);
    assert_float_equal(st.rf_main_nj, 1.222656, 1e-9);
    assert_float_equal(st.rf_cache_nj, 1.198080, 1e-9);
    assert_float_equal(st.rf_xbar_nj, 0.0724077, 1e-7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(baseline_energy),
        cmocka_unit_test(rfc_energy),
        cmocka_unit_test(ltrf_energy),
    };
    return cmocka_run_group_tests_name("sim_energy", tests, NULL, NULL);
}
