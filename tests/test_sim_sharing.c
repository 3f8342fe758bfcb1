/* test_sim_sharing.c - Register Sharing in the sampler (seed 003 Sections
 * 4-5, sampler/sharing.c): the warp-pair lock handed over at exit, the
 * deadlock-avoidance rule against Fig. 5's cycle, unrolled declarations,
 * owner-warp-first and sharing 0 as the baseline.  Fixture:
 * tests/support/simfix.c (ALU latency 4, 2 schedulers, GTO). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim_internal.h"
#include "support/simfix.h"

/* One shared pair: 2 CTAs of one warp, 32 registers per thread.  R = 1536
 * registers per SM, R_tb = 32 x 32 = 1024: g = floor(1536 / 1024) = 1;
 * F = 0.5 (t = 0.5): Eq. 4 M = (1536 - 1 x 1024 x 0.5) / (0.5 x 1024) = 2,
 * S = M - g = 1 pair, U = 0.  Private registers R_w t = 32 x 0.5 = 16:
 * r0..r15; r16.. are shared. */
static void pair_fixture(simfix *fx)
{
    simfix_init(fx);
    simfix_occupancy_rules(fx);
    fx->gpu.regs_per_sm = 1536;
    fx->kernel.launch.grid[0] = 2;
    fx->opts.ctas_per_sm = 2;
    fx->opts.bank_map = RF_BANK_MAP_SWIZZLE;  /* the pair's same registers on other banks */
    fx->design.kind = RF_DESIGN_SHARING;
    fx->design.sharing = 0.5;
    fx->design.owf = true;
    fx->design.unroll = false;
    fx->design.dyn = false;
}

/* A: warp of CTA 0 (slot 0, scheduler 0); B: warp of CTA 1 (slot 1,
 * scheduler 1).  Code: I0 r20 <- r0; I1 r1 <- r20; EXIT.
 * Cycle 0: A issues I0 and takes the pair's lock (r20 is shared); B, ready,
 *   is refused (the lock is A's): waits from cycle 0.
 * A's I1 needs r20: issues at 0 + 2 + 4 = 6; EXIT at 7 releases the lock.
 * Cycle 7: the schedulers' turn rotates every cycle (cycle t starts with
 *   scheduler t mod 2), so scheduler 1 looks first and B is refused again;
 *   then A's EXIT releases the lock.
 * Cycle 8: B takes the lock and issues I0: lock wait 8 - 0 = 8 warp-cycles;
 *   I1 at 14, whose result is written at 14 + 2 + 4 = 20, the last cycle:
 *   21 cycles.
 * Two acquisitions; scheduler 1 idle 0..7 only for the lock: 8 lock-stall
 * slots. */
static void lock_handoff(void **state)
{
    (void)state;
    simfix fx;
    pair_fixture(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){20, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){20, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.ctas_per_sm, 2);
    assert_int_equal(st.lock_acquires, 2);
    assert_int_equal(st.lock_wait_cycles, 8);
    assert_int_equal(st.stall_lock, 8);
    assert_int_equal(st.warp_insts, 6);
    assert_int_equal(st.cycles, 21);

    /* Unrolled declarations number registers by first use (destinations,
     * then sources): r20 -> 0, r0 -> 1, r1 -> 2, all private: no lock, both
     * warps run side by side (I0 at 0, I1 at 6 written at 12): 13 cycles. */
    fx.design.unroll = true;
    st = simfix_run(&fx);
    assert_int_equal(st.lock_acquires, 0);
    assert_int_equal(st.lock_wait_cycles, 0);
    assert_int_equal(st.stall_lock, 0);
    assert_int_equal(st.cycles, 13);
}

/* Seed 003 Fig. 5.  TB1 = CTA slot 0 with warps W1 (slot 0), W2 (slot 1);
 * TB2 = CTA slot 1 with W3 (slot 2), W4 (slot 3); pairs W1-W3 and W2-W4.
 * Without the rule: W3 takes pair 0's lock, W2 pair 1's; W1 then waits for
 * W3 and W4 for W2, while W2 and W3 wait at their barriers for W1 and W4:
 * W1 -> W3 -> W4 -> W2 -> W1, a cycle.  With the rule, once W2 holds a lock
 * no warp of TB2 may take one: W3 is refused, W1 takes pair 0, TB1 reaches
 * its barrier and runs on. */
static void deadlock_rule(void **state)
{
    (void)state;
    rf_share_locks l;
    assert_int_equal(rf_share_locks_init(&l, 2, 0, 2), 0);
    enum { W1 = 0, W2 = 1, W3 = 2, W4 = 3 };

    l.rule = false;
    assert_int_equal(rf_share_try(&l, W3), RF_SHARE_FREE);
    rf_share_take(&l, W3);
    assert_int_equal(rf_share_try(&l, W2), RF_SHARE_FREE);
    rf_share_take(&l, W2);
    assert_int_equal(rf_share_try(&l, W1), RF_SHARE_WAIT);   /* W1 -> W3 */
    assert_int_equal(rf_share_try(&l, W4), RF_SHARE_WAIT);   /* W4 -> W2 */
    /* With W2 and W3 at barriers waiting for W1 and W4, every warp waits:
     * the Fig. 5 deadlock. */
    assert_true(rf_share_release(&l, W3));
    assert_true(rf_share_release(&l, W2));

    l.rule = true;
    rf_share_take(&l, W2);
    assert_int_equal(l.held[0], 1);
    assert_int_equal(rf_share_try(&l, W3), RF_SHARE_WAIT);   /* TB1 holds a lock */
    assert_int_equal(rf_share_try(&l, W4), RF_SHARE_WAIT);
    assert_int_equal(rf_share_try(&l, W1), RF_SHARE_FREE);   /* TB2 holds none */
    rf_share_take(&l, W1);
    assert_int_equal(rf_share_try(&l, W2), RF_SHARE_HAVE);
    /* TB1's holders exit: TB2 may take locks again. */
    assert_true(rf_share_release(&l, W1));
    assert_int_equal(rf_share_try(&l, W3), RF_SHARE_WAIT);   /* W2 still holds */
    assert_true(rf_share_release(&l, W2));
    assert_false(rf_share_release(&l, W2));
    assert_int_equal(rf_share_try(&l, W3), RF_SHARE_FREE);
    rf_share_locks_free(&l);
}

/* Fig. 5's shape in the sampler: two warps per CTA, a shared register
 * before and after a barrier.  With the rule every lock is taken and the
 * grid finishes (no watchdog); each of the 4 warps takes its pair's lock
 * once. */
static void barrier_pair_finishes(void **state)
{
    (void)state;
    simfix fx;
    pair_fixture(&fx);
    fx.gpu.regs_per_sm = 3072;       /* R_tb = 2 warps x 1024 = 2048: g = 1, M = 2 */
    fx.kernel.launch.block[0] = 64;
    simfix_add(&fx, RF_OC_ALU, (int[]){20, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_BARRIER, NULL, NULL);
    simfix_add(&fx, RF_OC_ALU, (int[]){21, -1}, (int[]){20, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.ctas_done, 2);
    assert_int_equal(st.lock_acquires, 4);
    assert_true(st.lock_wait_cycles > 0);
}

/* An unshared CTA beside a pair never locks.  Three CTAs
 * of one warp: R = 2560, R_tb = 1024, g = 2, F = 0.5: M = (2560 - 2 x 1024 x
 * 0.5) / 512 = 3, S = 1, U = 1: slot 0 unshared, slots 1-2 a pair. */
static void unshared_cta_takes_no_lock(void **state)
{
    (void)state;
    simfix fx;
    pair_fixture(&fx);
    fx.gpu.regs_per_sm = 2560;
    fx.kernel.launch.grid[0] = 3;
    fx.opts.ctas_per_sm = 3;
    simfix_add(&fx, RF_OC_ALU, (int[]){20, -1}, (int[]){0, -1});
    simfix_finish(&fx);
    rf_sim_stats st = simfix_run(&fx);
    assert_int_equal(st.ctas_done, 3);
    assert_int_equal(st.lock_acquires, 2);   /* the pair's two warps; slot 0 needs none */
}

/* sharing = 0 (t = 1): no shared registers, M = g: every counter the same
 * as the baseline's. */
static void sharing_zero_is_baseline(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_load("fermi-c2050", &gpu, NULL, &err), 0);
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    ko.no_ptxas = true;
    rf_kernel *k = NULL;
    assert_int_equal(rf_kernel_load("inputs/kernels/libor.spec", &ko, &k, &err), 0);
    rf_sim_opts o;
    rf_sim_opts_init(&o);
    o.cycles = 20000;
    rf_design base, sh;
    rf_design_init(&base);
    rf_design_init(&sh);
    sh.kind = RF_DESIGN_SHARING;
    sh.sharing = 0;
    rf_sim_stats a, b;
    assert_int_equal(rf_sim_run(&gpu, &base, k, &o, &a, &err), 0);
    assert_int_equal(rf_sim_run(&gpu, &sh, k, &o, &b, &err), 0);
    /* Every column but the register file's leakage (and so its total
     * energy): sharing's lock storage (analytic/overhead.c) leaks even at
     * threshold 0. */
    for (size_t i = 0; i < rf_sim_ncolumns; i++)
        if (strcmp(rf_sim_columns[i].name, "rf_leakage_nj") != 0
            && strcmp(rf_sim_columns[i].name, "rf_energy_nj") != 0
            && rf_sim_columns[i].get(&a) != rf_sim_columns[i].get(&b))
            fail_msg("%s: baseline %.17g, sharing 0 %.17g", rf_sim_columns[i].name,
                     rf_sim_columns[i].get(&a), rf_sim_columns[i].get(&b));
    assert_true(b.rf_leakage_nj >= a.rf_leakage_nj);
    assert_int_equal(a.ctas_per_sm, b.ctas_per_sm);

    /* The default sharing (F = 0.9) raises libor's CTAs and takes locks. */
    rf_design_init(&sh);
    sh.kind = RF_DESIGN_SHARING;
    assert_int_equal(rf_sim_run(&gpu, &sh, k, &o, &b, &err), 0);
    assert_true(b.ctas_per_sm > a.ctas_per_sm);
    assert_true(b.lock_acquires > 0);
    rf_kernel_destroy(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lock_handoff),
        cmocka_unit_test(deadlock_rule),
        cmocka_unit_test(barrier_pair_finishes),
        cmocka_unit_test(unshared_cta_takes_no_lock),
        cmocka_unit_test(sharing_zero_is_baseline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
