/* test_sim_ltrf.c - the sampler's RFC and LTRF organisations (sampler/ltrf.c)
 * and the tolerable-latency sweep (sampler/tolerable.c) on tiny kernels.
 *
 * Fixture (tests/support/simfix.c): ALU latency 4, 4 register banks,
 * 2 schedulers.  Design: configuration #1 (main file of 4 x 1 banks, 1-cycle
 * access at latency_x 1), so the fill crossbar carries 4 / 4 = 1 register
 * per cycle and takes 4 cycles to cross (3 beyond the bank's cycle).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../sampler/tolerable.h"
#include "support/simfix.h"

static void design(simfix *fx, int kind)
{
    rf_design_init(&fx->design);
    fx->design.kind = kind;
    fx->design.rf_config = 1;
}

/* r1 = f(r0); r2 = f(r1); EXIT: one register-interval {r0, r1, r2}.
 * Baseline: I0 issues at 0, I1 at 6, writes r2 at 12: 13 cycles.
 * LTRF, latency_x 3: the PREFETCH at cycle 0 reads r0, r1, r2 from main
 * banks 0, 1, 2 (no conflict) ready at 3; the crossbar takes them at 3, 4
 * and 5 and they arrive 3 cycles later: 6, 7, 8.  The warp is held 8
 * cycles, then runs as the baseline: 8 + 13 = 21 cycles, 8 rc-stall cycles.
 * LTRF+: only r0 is live at the entry: arrives at 6: 19 cycles. */
static void prefetch_stall(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    design(&fx, RF_DESIGN_BASELINE);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.cycles, 13);

    design(&fx, RF_DESIGN_LTRF);
    fx.design.latency_x = 3;
    st = simfix_run(&fx);
    assert_int_equal(st.cycles, 21);
    assert_int_equal(st.prefetches, 1);
    assert_int_equal(st.prefetch_regs, 3);
    assert_int_equal(st.prefetch_stall_cycles, 8);
    assert_int_equal(st.stall_rc, 8);
    assert_int_equal(st.rc_hits, 2);     /* every operand from the cache */
    assert_int_equal(st.rc_misses, 0);
    assert_int_equal(st.main_reads, 3);

    fx.design.plus = true;
    st = simfix_run(&fx);
    assert_int_equal(st.cycles, 19);
    assert_int_equal(st.prefetch_regs, 1);
    assert_int_equal(st.prefetch_stall_cycles, 6);
}

/* RFC with 2 lines, one warp: r1 = f(r0); r2 = f(r1); r3 = f(r0, r2).
 *   I0 reads r0: miss, allocate [r0];       writes r1: [r0 r1]
 *   I1 reads r1: hit;                       writes r2: evict r0 (LRU, clean) [r1 r2]
 *   I2 reads r0: miss, evict r1 (dirty: written back) [r2 r0]; reads r2: hit
 *      writes r3: evict r0 (clean)
 * hits 2, misses 2, main reads 2, write-backs 1.  With 3 lines r0 stays
 * (I1's write evicts nothing): hits 3, misses 1; r3's allocation evicts
 * the least recently used line, r1 (read by I1, dirty): one write-back. */
static void rfc_lru(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){0, 2, -1});
    simfix_finish(&fx);
    design(&fx, RF_DESIGN_RFC);
    fx.design.rc_entries = 2;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.rc_hits, 2);
    assert_int_equal(st.rc_misses, 2);
    assert_int_equal(st.main_reads, 2);
    assert_int_equal(st.writeback_regs, 1);
    assert_int_equal(st.main_writes, 1);

    fx.design.rc_entries = 3;
    st = simfix_run(&fx);
    assert_int_equal(st.rc_hits, 3);
    assert_int_equal(st.rc_misses, 1);
    assert_int_equal(st.writeback_regs, 1);

    /* A miss reads the main file: at latency_x 5 the first operand costs
     * 4 more cycles than a cache-bank read. */
    fx.design.rc_entries = 2;
    st = simfix_run(&fx);
    uint64_t fast = st.cycles;
    fx.design.latency_x = 5;
    st = simfix_run(&fx);
    assert_true(st.cycles >= fast + 4 * 2);
}

/* Two warps on one scheduler with an active pool of one; each runs
 * r1 = load(r0) (L2 hit, 50 cycles); r2 = f(r1); EXIT (one interval,
 * {r0, r1, r2}).  Warp 0 prefetches, issues its load and leaves the pool
 * (writing back its three registers); warp 1 enters, prefetches, loads and
 * leaves the same way.  When warp 0's load returns it re-enters: the
 * activation refetches its working set; warp 1 after it.
 *   LTRF:  2 PREFETCHes of 3, 2 activations of 3, 6 registers written back.
 *   LTRF+: at the load's successor only r1 is live, at the entry only r0:
 *          PREFETCHes of 1, activations of 1, 2 registers written back. */
static void pool_swap(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.schedulers = 1;
    fx.kernel.launch.block[0] = 64;
    fx.kernel.profile.l1_hit = 0;
    fx.kernel.profile.l2_hit = 1;
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    design(&fx, RF_DESIGN_LTRF);
    fx.design.active_warps = 1;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.warp_insts, 6);
    assert_int_equal(st.prefetches, 2);
    assert_int_equal(st.prefetch_regs, 6);
    assert_int_equal(st.activations, 2);
    assert_int_equal(st.refetch_regs, 6);
    assert_int_equal(st.writeback_regs, 6);
    assert_true(st.stall_rc > 0);

    fx.design.plus = true;
    st = simfix_run(&fx);
    assert_int_equal(st.prefetches, 2);
    assert_int_equal(st.prefetch_regs, 2);
    assert_int_equal(st.activations, 2);
    assert_int_equal(st.refetch_regs, 2);
    assert_int_equal(st.writeback_regs, 2);

    /* A pool of two: a warp waiting on memory still leaves it (two-level
     * scheduling), so the swaps are the same. */
    fx.design.active_warps = 2;
    fx.design.plus = false;
    st = simfix_run(&fx);
    assert_int_equal(st.activations, 2);
    assert_int_equal(st.writeback_regs, 6);
}

/* Main-file banks are not pipelined (seed 004 Section 2: CACTI's
 * non-pipelined bank models): r4 = f(r0); r0 and r4 of warp 0 share main
 * bank 0 of 4.  LTRF, latency_x 3: the PREFETCH at cycle 0 reads r0 from 0
 * to 3; r4 waits for the bank, 3 to 6; the crossbar takes them at 3 and 6
 * and they arrive 3 cycles later, at 6 and 9: the warp is held 9 cycles
 * (a pipelined bank would start r4 at 1 and hold the warp 7). */
static void main_bank_busy(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){4, -1}, (int[]){0, -1});
    simfix_finish(&fx);
    design(&fx, RF_DESIGN_LTRF);
    fx.design.latency_x = 3;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.prefetches, 1);
    assert_int_equal(st.prefetch_regs, 2);
    assert_int_equal(st.prefetch_stall_cycles, 9);
}

/* A warp that leaves the pool at the end of an interval resumes at the
 * entry of the next one: its PREFETCH brings the new working set and
 * nothing of the old one is refetched (seed 004 Section 4.2: refetch when
 * it "finds itself in the middle of a register-interval").
 * r1 = load(r0); r2 = f(r1); EXIT with 2 registers per interval:
 * interval 0 = {r0, r1} (the load), interval 1 = {r1, r2} from r2 = f(r1).
 * Two warps, one scheduler, pool of one.  Each warp: PREFETCH {r0, r1} (2),
 * load, leaves at the entry of interval 1 writing back {r0, r1} (2); on its
 * return an activation with no refetch, then PREFETCH {r1, r2} (2).
 *   LTRF:  4 PREFETCHes of 8 registers, 2 activations, 0 refetched,
 *          4 written back (4 PREFETCHes of 6 and 4 refetched when the old
 *          interval was fetched again on activation).
 *   LTRF+: r0 is live at the entry, r1 at r2 = f(r1): PREFETCHes
 *          1 + 1 + 1 + 1 = 4 registers; written back at the exit only the
 *          live r1: 2. */
static void resume_at_interval_entry(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.schedulers = 1;
    fx.kernel.launch.block[0] = 64;
    fx.kernel.profile.l1_hit = 0;
    fx.kernel.profile.l2_hit = 1;
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    design(&fx, RF_DESIGN_LTRF);
    fx.design.active_warps = 1;
    fx.design.interval_regs = 2;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.warp_insts, 6);
    assert_int_equal(st.prefetches, 4);
    assert_int_equal(st.prefetch_regs, 8);
    assert_int_equal(st.activations, 2);
    assert_int_equal(st.refetch_regs, 0);
    assert_int_equal(st.writeback_regs, 4);

    fx.design.plus = true;
    st = simfix_run(&fx);
    assert_int_equal(st.prefetches, 4);
    assert_int_equal(st.prefetch_regs, 4);
    assert_int_equal(st.activations, 2);
    assert_int_equal(st.refetch_regs, 0);
    assert_int_equal(st.writeback_regs, 2);
}

/* Loads issued back to back take the warp out of the pool once, at the
 * first use (the closed form's pool exits, analytic/prefetch.c):
 * r2 = load(r0); r3 = load(r1); r4 = f(r2, r3); EXIT, one interval
 * {r0 .. r4}; two warps, one scheduler, pool of one.  Each warp: PREFETCH
 * of 5, both loads, leaves at r4 = f(r2, r3) writing back 5, re-enters
 * refetching 5 (LTRF+: r2 and r3, live there; PREFETCH r0 and r1).
 *   LTRF:  2 PREFETCHes of 10, 2 activations of 10, 10 written back.
 *   LTRF+: PREFETCHes of 4, activations of 4, 4 written back. */
static void back_to_back_loads(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.schedulers = 1;
    fx.kernel.launch.block[0] = 64;
    fx.kernel.profile.l1_hit = 0;
    fx.kernel.profile.l2_hit = 1;
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){2, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){3, -1}, (int[]){1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){4, -1}, (int[]){2, 3, -1});
    simfix_finish(&fx);
    design(&fx, RF_DESIGN_LTRF);
    fx.design.active_warps = 1;
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.warp_insts, 8);
    assert_int_equal(st.prefetches, 2);
    assert_int_equal(st.prefetch_regs, 10);
    assert_int_equal(st.activations, 2);
    assert_int_equal(st.refetch_regs, 10);
    assert_int_equal(st.writeback_regs, 10);

    fx.design.plus = true;
    st = simfix_run(&fx);
    assert_int_equal(st.prefetch_regs, 4);
    assert_int_equal(st.activations, 2);
    assert_int_equal(st.refetch_regs, 4);
    assert_int_equal(st.writeback_regs, 4);
}

/* The sweep: a dependent chain on RFC loses IPC as the main file slows (every
 * first read misses), so the tolerable latency is finite and above 1; the
 * points start at 1x and step by 1. */
static void tolerable_sweep(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.kernel.launch.block[0] = 128;
    fx.kernel.launch.grid[0] = 4;
    for (int i = 0; i < 8; i++)
        simfix_add(&fx, RF_OC_ALU, (int[]){8 + i, -1}, (int[]){i, -1});
    simfix_finish(&fx);
    design(&fx, RF_DESIGN_RFC);
    rf_tol_opts to;
    rf_tol_opts_init(&to);
    to.step = 1;
    to.max_x = 8;
    rf_tolerable t;
    rf_err err = {0};
    assert_int_equal(rf_sim_tolerable(&fx.gpu, &fx.design, &fx.kernel, &fx.opts, &to, &t, &err), 0);
    assert_true(t.n >= 2);
    assert_true(t.pt[0].latency_x == 1 && t.pt[1].latency_x == 2);
    assert_true(t.self_ipc == t.pt[0].ipc && t.ref_ipc > 0);
    assert_true(t.pt[t.n - 1].ipc < t.pt[0].ipc);
    assert_true(t.tol_self >= 1 && t.tol_self < 8 && !t.capped_self);

    /* No branch or memory draw and whole latencies (nothing dithered): every
     * seed gives the same run, so the mean of three seeds is the single
     * run's IPC at every point. */
    rf_tolerable t3;
    to.seeds = 3;
    assert_int_equal(rf_sim_tolerable(&fx.gpu, &fx.design, &fx.kernel, &fx.opts, &to, &t3, &err),
                     0);
    assert_int_equal(t3.n, t.n);
    for (int i = 0; i < t.n; i++)
        assert_float_equal(t3.pt[i].ipc, t.pt[i].ipc, 1e-12);
    assert_float_equal(t3.tol_self, t.tol_self, 1e-12);
    assert_float_equal(t3.ref_ipc, t.ref_ipc, 1e-12);

    design(&fx, RF_DESIGN_BASELINE);
    assert_int_equal(rf_sim_tolerable(&fx.gpu, &fx.design, &fx.kernel, &fx.opts, &to, &t, &err),
                     RF_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(prefetch_stall),
        cmocka_unit_test(rfc_lru),
        cmocka_unit_test(pool_swap),
        cmocka_unit_test(main_bank_busy),
        cmocka_unit_test(resume_at_interval_entry),
        cmocka_unit_test(back_to_back_loads),
        cmocka_unit_test(tolerable_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
