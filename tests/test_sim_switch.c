/* test_sim_switch.c - CTA switching in the sampler (seed 000, sampler/
 * ctaswitch.c): a FineReg switch whose cost is computed from the live
 * registers moved, and a Reg+DRAM switch's bytes.  Fixture:
 * tests/support/simfix.c (ALU latency 4, DRAM latency 200, 64 bytes per
 * cycle, no cache hits), with the occupancy rules it leaves out filled in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/simfix.h"

/* Two CTAs of one warp at 32 registers (1024 registers, 4 KB a CTA):
 * I0 r2 <- load [r0]; I1 r3 <- r2; EXIT.  Occupancy from the design
 * (opts.ctas_per_sm = 0). */
static void fixture(simfix *fx, int kind)
{
    simfix_init(fx);
    simfix_occupancy_rules(fx);
    fx->gpu.max_ctas_per_sm = 1;          /* the scheduling limit: one active CTA */
    fx->kernel.launch.grid[0] = 2;
    fx->kernel.profile.l1_hit = 0;
    fx->kernel.profile.l2_hit = 0;
    fx->opts.ctas_per_sm = 0;
    fx->design.kind = kind;
    fx->design.switch_cycles = 20;
    simfix_add(fx, RF_OC_LD_GLOBAL, (int[]){2, -1}, (int[]){0, -1});
    simfix_add(fx, RF_OC_ALU, (int[]){3, -1}, (int[]){2, -1});
    simfix_finish(fx);
}

/* FineReg, ACRF 4 KB (one CTA), PCRF 4 KB (32 entries).  The live set at
 * I1 is {r2}: one entry per warp.
 * Cycle 1: CTA 0 waits on its load; no CTA is pending, CTA 1 is left: CTA 0
 *   moves to the PCRF alone (the bit vector of I1 misses: one DRAM latency)
 *   and CTA 1 launches into its ACRF space after 20 + 200 + 4 + 1 cycles
 *   (not a switch-in: no count).
 * CTA 1 issues its load and waits; CTA 0, its load back, is ready: swap,
 *   the bit vector now hits: 20 + 4 + (1 out + 1 in) = 26 cycles.
 * CTA 0 finishes; CTA 1, ready when its load is back, takes the free ACRF
 *   place: 20 + 4 + 1 = 25 cycles.
 * Two switch-ins, 26 + 25 = 51 cycles. */
static void finereg_switch_cost(void **state)
{
    (void)state;
    simfix fx;
    fixture(&fx, RF_DESIGN_FINEREG);
    fx.design.acrf_kb = 4;
    fx.design.pcrf_kb = 4;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.ctas_done, 2);
    assert_int_equal(st.cta_switches, 2);
    assert_int_equal(st.switch_cycles, 51);
    assert_int_equal(st.switch_dram_bytes, 0);
    assert_int_equal(st.pcrf_full_stalls, 0);
}

/* The same with a PCRF too small for one entry (0 KB is the default half:
 * 0.1 KB holds 0 entries of 128 bytes): CTA 0 cannot move while CTA 1
 * waits to run, every cycle until its load is back; no switch. */
static void finereg_pcrf_full(void **state)
{
    (void)state;
    simfix fx;
    fixture(&fx, RF_DESIGN_FINEREG);
    fx.design.acrf_kb = 4;
    fx.design.pcrf_kb = 0.1;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.ctas_done, 2);
    assert_int_equal(st.cta_switches, 0);
    assert_true(st.pcrf_full_stalls > 100);    /* the loads' DRAM latency, twice */
}

/* Reg+DRAM: the register file holds one CTA (1024 registers), one more
 * context in DRAM (dram_ctas 1).  A CTA's registers: 1 warp x 32 registers
 * x 32 threads x 4 bytes = 4096 bytes.
 * Cycle 1: CTA 0 waits; CTA 1 (fresh, in DRAM, nothing to bring in) swaps
 *   in: 4096 bytes out.
 * CTA 1 waits on its load; CTA 0, back from its load, swaps in: 4096 out
 *   and 4096 in.
 * CTA 0 finishes; CTA 1 comes in from DRAM to the free place: 4096 in.
 * Three switch-ins, 16384 bytes, all counted in dram_bytes too (with the
 * two loads' 128 bytes each). */
static void regdram_switch_bytes(void **state)
{
    (void)state;
    simfix fx;
    fixture(&fx, RF_DESIGN_REGDRAM);
    fx.gpu.regs_per_sm = 1024;
    fx.design.dram_ctas = 1;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.ctas_done, 2);
    assert_int_equal(st.cta_switches, 3);
    assert_int_equal(st.switch_dram_bytes, 16384);
    assert_int_equal(st.dram_bytes, 16384 + 2 * 128);
}

/* Virtual Thread: both CTAs' registers stay in the file (2048 registers);
 * the second starts pending and swaps in when the first waits: one switch
 * of 20 cycles at cycle 1, one more when CTA 0 is back and CTA 1 waits, and
 * CTA 1 returns to the place CTA 0 leaves: three switch-ins of 20 cycles,
 * no DRAM traffic beyond the loads. */
static void vt_switches(void **state)
{
    (void)state;
    simfix fx;
    fixture(&fx, RF_DESIGN_VT);
    fx.gpu.regs_per_sm = 2048;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.ctas_done, 2);
    assert_int_equal(st.cta_switches, 3);
    assert_int_equal(st.switch_cycles, 60);
    assert_int_equal(st.switch_dram_bytes, 0);
    assert_int_equal(st.dram_bytes, 2 * 128);
}

/* VT+RegMutex: two CTAs of two warps active at once (2 CTA slots), 32
 * registers allocated, BRS 1 register (brs_frac 0.03: ceil(0.96) = 1), so
 * the pool holds one CTA's two chunks.  Code: I0 r1 <- r0; I1 r2 <- load
 * [r1]; I2 r3 <- r2, r0; EXIT.  Live registers: out of I0 {r0, r1}, into I1
 * {r0, r1}, into I2 {r0, r2}, out of I2 none: I0..I2 is a region over the
 * BRS, released after I2.
 * Cycle 0: warps 0 and 1 (CTA 0, schedulers 0 and 1) take both chunks;
 * warps 2 and 3 (CTA 1) wait.  Warp 0's I1 issues at 0 + 2 + 4 = 6, its
 * load dispatches at 8 and returns after 128 / 64 = 2 cycles of transfer and
 * 200 of latency, at 210, where I2 issues and gives the chunk back; warp 1's
 * load queues 2 cycles behind: its I2 at 212.  Until then each scheduler's
 * slots go unused for the pool (a refused ready warp outranks the others'
 * waits as the cause) except where its CTA 0 warp issues (0, 6, 210 or
 * 212): 211 - 3 + 213 - 3 = 418 slots, less one where the order of the two
 * warps of scheduler 0 after the release leaves a slot to the exit; at
 * least the 2 x 200 cycles of DRAM latency.  Four chunks taken, no switch
 * (no CTA is pending). */
static void regmutex_pool_stall(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_occupancy_rules(&fx);
    fx.gpu.max_ctas_per_sm = 2;
    fx.kernel.launch.grid[0] = 2;
    fx.kernel.launch.block[0] = 64;
    fx.kernel.profile.l1_hit = 0;
    fx.kernel.profile.l2_hit = 0;
    fx.opts.ctas_per_sm = 0;
    fx.opts.bank_map = RF_BANK_MAP_SWIZZLE;
    fx.design.kind = RF_DESIGN_REGMUTEX;
    fx.design.brs_frac = 0.03;
    fx.design.switch_cycles = 20;
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){2, -1}, (int[]){1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){2, 0, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.ctas_done, 2);
    assert_int_equal(st.srp_acquires, 4);
    assert_int_equal(st.srp_stall_cycles, st.stall_lock);
    assert_true(st.srp_stall_cycles >= 400 && st.srp_stall_cycles <= 418);
    assert_int_equal(st.cta_switches, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finereg_switch_cost),
        cmocka_unit_test(finereg_pcrf_full),
        cmocka_unit_test(regdram_switch_bytes),
        cmocka_unit_test(vt_switches),
        cmocka_unit_test(regmutex_pool_stall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
