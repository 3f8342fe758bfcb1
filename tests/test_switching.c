/* test_switching.c - the closed forms of the occupancy-raising designs
 * (analytic/switching.c): all-stalled share, the slot model with its
 * pending pool, the shared register pool's queue, a FineReg switch's cost,
 * a Reg+DRAM switch's bytes and Register Sharing's lock waits; values
 * worked out by hand in the comments.  Then the estimates' counters and
 * IPC on a bundled kernel against their definitions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/kchar.h"
#include "../analytic/switching.h"
#include "../calibrate/extrapolate.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "support/kirbuild.h"

/* |a - b| within 1e-6 relative (both printed on failure). */
static void near(double a, double b, int line)
{
    if (!(fabs(a - b) <= 1e-6 * (1.0 + fabs(b))))
        fail_msg("line %d: %.9g != %.9g", line, a, b);
}
#define NEAR(a, b) near((a), (b), __LINE__)

static rf_sw_params params(double sync)
{
    rf_sw_params p = {sync, 1.0};
    return p;
}

/* q = 0.5, L = 100 cycles, 3 warps, sync 0.5: e = 1 + 0.5 x 2 = 2,
 * s = 0.5^2 = 0.25, L_s = 100 / 2 = 50.  sync 1: s = q, L_s = L. */
static void stall_share(void **state)
{
    (void)state;
    double s, ls;
    rf_sw_stall(0.5, 100, 3, 0.5, &s, &ls);
    NEAR(s, 0.25);
    NEAR(ls, 50);
    rf_sw_stall(0.5, 100, 3, 1.0, &s, &ls);
    NEAR(s, 0.5);
    NEAR(ls, 100);
}

/* A = 4, s = 0.25, L_s = 50, c = 20: T_b = 50 x 0.75 / 0.25 = 150; the pool
 * needs 4 x 50 / (150 + 20) = 1.17647 CTAs.
 *   P = 8 covers it: f = 1, A_eff = 4 x 200 / 170 = 4.70588.
 *   P = 0.5: f = 0.5 x 200 / (4 x 50 - 0.5 (20 - 50)) = 100 / 215 = 0.465116,
 *   A_eff = 800 / (150 + 20 f + 50 (1 - f)) = 800 / 186.046512 = 4.3, and the
 *   parked CTAs f A L_s / 186.05 = 0.5 = P (Little).
 *   P = 0 (no contexts beyond the active ones): A_eff = A. */
static void slot_model(void **state)
{
    (void)state;
    rf_sw_slot_in in = {4, 8, 0.25, 50, 20};
    rf_sw_slot o;
    rf_sw_slot_eval(&in, &o);
    NEAR(o.busy, 150);
    NEAR(o.pending_needed, 200.0 / 170.0);
    NEAR(o.switched, 1.0);
    NEAR(o.ctas_eff, 800.0 / 170.0);
    in.pending = 0.5;
    rf_sw_slot_eval(&in, &o);
    NEAR(o.switched, 100.0 / 215.0);
    NEAR(o.ctas_eff, 4.3);
    in.pending = 0;
    rf_sw_slot_eval(&in, &o);
    NEAR(o.ctas_eff, 4.0);
}

/* The pool as a machine-repairman queue.
 *   2 warps, 1 chunk, rho = 0.5 (r = 1): weights 1, 2 x 1 / 1 = 2,
 *   2 x 1 x 1 / 1 = 2, sum 5: pi = 0.2, 0.4, 0.4.  Waiting 1 x 0.4 = 0.4,
 *   holding 0.4 + 0.4 = 0.8, pool empty with a warp waiting 0.4: a
 *   depletion stall 40% of the time.
 *   3 warps, 2 chunks, rho = 1/3 (r = 0.5): weights 1, 3 x 0.5 = 1.5,
 *   1.5 x 2 x 0.5 / 2 = 0.75, 0.75 x 1 x 0.5 / 2 = 0.1875, sum 3.4375:
 *   waiting 0.1875 / 3.4375, holding (1.5 + 1.5 + 0.375) / 3.4375. */
static void pool_depletion(void **state)
{
    (void)state;
    rf_sw_pool o;
    rf_sw_pool_eval(2, 1, 0.5, &o);
    NEAR(o.waiting, 0.4);
    NEAR(o.holding, 0.8);
    NEAR(o.p_empty, 0.4);
    rf_sw_pool_eval(3, 2, 1.0 / 3.0, &o);
    NEAR(o.waiting, 0.1875 / 3.4375);
    NEAR(o.p_empty, 0.1875 / 3.4375);
    NEAR(o.holding, 3.375 / 3.4375);
    /* No region: nobody waits. */
    rf_sw_pool_eval(8, 2, 0.0, &o);
    NEAR(o.waiting, 0.0);
}

/* FineReg: 4 warps of a stalled CTA with 6 live registers each at their
 * PCs are 24 PCRF entries; a switch moves 24 out and 24 in, one entry a
 * cycle, after 4 cycles to the first entry and the 20-cycle pipeline
 * context: 20 + 4 + 48 = 72 cycles.  A PCRF of 64 entries holds floor(64 /
 * 24) = 2 pending CTAs.  q = 5 / 10, L = 5 / 0.02 = 250, sync 1: s = 0.5,
 * L_s = 250, T_b = 250; the pool needs 2 x 250 / (250 + 72) = 1.55 <= 2:
 * f = 1, A_eff = 2 x 500 / 322.  Counters over 20 CTAs of 100 instructions
 * per warp: a lone CTA runs 100 x 10 = 1000 cycles, 0.5 x 1000 / 250 = 2
 * episodes, 40 switches of 72 cycles = 2880 cycles. */
static void finereg_switch_cost(void **state)
{
    (void)state;
    rf_sw_input in;
    memset(&in, 0, sizeof in);
    in.kind = RF_DESIGN_FINEREG;
    in.active = 2;
    in.resident = 10;
    in.pcrf_entries = 64;
    in.warps_per_cta = 4;
    in.act = in.live = 1.0;
    in.insts_per_warp = 100;
    in.cpi_lone = 10;
    in.mem_stall = 5;
    in.mem_waits = 0.02;
    in.switch_cycles = 20;
    in.code.live_stall = 6;
    rf_sw_params p = params(1.0);
    rf_sw_state st;
    rf_sw_apply(&in, &p, &st);
    NEAR(st.entries, 24);
    NEAR(st.cost, 72);
    NEAR(st.pending, 2);
    assert_int_equal(st.resident, 4);
    NEAR(st.slot.switched, 1.0);
    NEAR(st.ctas_eff, 1000.0 / 322.0);
    rf_sw_counters c;
    rf_sw_count(&in, &st, 20, 1e5, 1.0, 4, 1, &c);
    NEAR(c.cta_switches, 40);
    NEAR(c.switch_cycles, 2880);
    NEAR(c.switch_dram_bytes, 0);
    NEAR(c.lock_acquires, 0);
}

/* Reg+DRAM: a CTA of 2 warps at 18 registers holds 2 x 18 x 32 x 4 = 4608
 * bytes; a switch through DRAM moves the stalled CTA's out and the other's
 * in, 9216 bytes, 576 cycles at 16 bytes a cycle.  A = 4 with 2 pending in
 * the register file: the first stalls find no ready context there and go
 * to DRAM; the transfers keep 4 x 576 = 2304 cycles queued ahead of the
 * loads, while a CTA reaches its next memory wait after (10 - 8) / 0.04 = 50
 * cycles: the queue never drains (thrash).  Every memory wait is then a
 * DRAM switch: 0.04 x 9216 / 2 = 184.32 bytes per warp instruction.  8 CTAs
 * of 100 instructions per warp: 100 x 0.04 = 4 switches each, 32 in all,
 * 32 x 9216 = 294912 bytes; the 4 CTAs launched beyond the active places
 * are switched in once more at the 20-cycle base cost: 36 switches,
 * 32 x (20 + 100 + 2304) + 4 x 20 = 77648 cycles. */
static void regdram_switch_bytes(void **state)
{
    (void)state;
    rf_sw_input in;
    memset(&in, 0, sizeof in);
    in.kind = RF_DESIGN_REGDRAM;
    in.active = 4;
    in.resident = 12;
    in.rf_ctas = 6;
    in.warps_per_cta = 2;
    in.regs = 18;
    in.warp_size = 32;
    in.act = in.live = 1.0;
    in.insts_per_warp = 100;
    in.cpi_lone = 10;
    in.mem_stall = 8;
    in.mem_waits = 0.04;
    in.switch_cycles = 20;
    in.dram_latency = 100;
    in.dram_bw = 16;
    rf_sw_params p = params(1.0);
    rf_sw_state st;
    rf_sw_apply(&in, &p, &st);
    NEAR(st.ctx_bytes, 4608);
    assert_true(st.thrash);
    NEAR(st.p_dram, 1.0);
    NEAR(st.dram_per_inst, 184.32);
    NEAR(st.cost, 2424);
    rf_sw_counters c;
    rf_sw_count(&in, &st, 8, 1e5, 0.5, 4, 1, &c);
    NEAR(c.cta_switches, 36);
    NEAR(c.switch_dram_bytes, 294912);
    NEAR(c.switch_cycles, 77648);
    /* A DRAM a hundred times faster (9216 / 1600 = 5.76 cycles a switch,
     * x 4 = 23 < 50) drains between waits: no thrash, and only the
     * switches the register file's contexts do not cover go through
     * DRAM, fewer bytes per instruction. */
    in.dram_bw = 1600;
    rf_sw_apply(&in, &p, &st);
    assert_false(st.thrash);
    assert_true(st.dram_per_inst < 184.32);
}

/* Register Sharing, S = 2 pairs and U = 1 unshared CTA of 2 warps, a
 * non-owner reaching its first shared register after 25 of its 100
 * instructions: phi = 0.25.  A pair runs its CTAs one after the other: 3
 * places (U + S) issue, of the M = 5 CTAs resident.  The lock handoff at
 * IPC 1: a CTA runs T = 100 x 6 / 1 = 600 cycles (6 warps issuing); the
 * non-owner runs its 25% (150) and waits for the owner's remaining 75%
 * (450): 300 cycles per warp.  10 CTAs: 10 x 4 / 5 = 8 in shared slots, 16
 * locks; all but the first 2 owners wait: 6 x 2 x 300 = 3600.  With Owner
 * Warp First the owners (2 CTAs, 4 warps) issue first: T_own = max(100 x 4
 * / 1, 100 x 4 lone) = 400, the wait 0.75 x 400 - 150 = 150, 6 x 2 x 150 =
 * 1800 warp-cycles. */
static void sharing_lock_wait(void **state)
{
    (void)state;
    rf_sw_input in;
    memset(&in, 0, sizeof in);
    in.kind = RF_DESIGN_SHARING;
    in.shared_pairs = 2;
    in.unshared = 1;
    in.active = 5;
    in.resident = 5;
    in.warps_per_cta = 2;
    in.act = in.live = 1.0;
    in.insts_per_warp = 100;
    in.cpi_lone = 4;
    in.code.prefix = 25;
    rf_sw_params p = params(0.5);
    rf_sw_state st;
    rf_sw_apply(&in, &p, &st);
    NEAR(st.phi, 0.25);
    assert_int_equal(st.resident, 3);
    NEAR(st.ctas_eff, 3.0);
    rf_sw_counters c;
    rf_sw_count(&in, &st, 10, 1e4, 1.0, 2, 1, &c);
    NEAR(c.lock_acquires, 16);
    NEAR(c.lock_wait_cycles, 3600);
    NEAR(c.resident_ctas_mean, 5);
    in.owf = true;
    rf_sw_count(&in, &st, 10, 1e4, 1.0, 2, 1, &c);
    NEAR(c.lock_wait_cycles, 1800);
    /* No prefix: the non-owner waits the owner's whole run, 400 cycles. */
    in.code.prefix = 0;
    rf_sw_apply(&in, &p, &st);
    rf_sw_count(&in, &st, 10, 1e4, 1.0, 2, 1, &c);
    NEAR(c.lock_wait_cycles, 6 * 2 * 400.0);
}

/* RegMutex's chunk protocol on a straight line run once:
 *   0 alu r0 =            live in/out 0/1
 *   1 alu r1 = r0                     1/2
 *   2 ldg r2 = r1                     2/3   (a load)
 *   3 alu r3 = r2 r0 r1               3/2
 *   4 stg = r3 r1                     2/0
 *   5 exit                            0/0
 * Base set 2: instructions 2 and 3 exceed it; the warp takes a chunk at 2
 * and gives it back after 3 (live-out 2): 2 of 6 instructions held, one
 * chunk taken, the load issued holding (1 of 6).  Base set 1: 1 takes it,
 * 4 gives it back (live-out 0): 4 of 6 held.  Base set 3 and above: no
 * chunk.  FineReg: the load's live-out, 3 registers.  Through the design
 * (regs 4, brs_frac 0.5: base ceil(2) = 2) and the hold time at cpi_lone
 * 10 with 6 cycles on memory: rho = (1/3 x 4 + 1 x 6) / 10 = 0.73333. */
static void regmutex_hold(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "line");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "ldg r2 = r1");
    kb_i(&b, "alu r3 = r2 r0 r1");
    kb_i(&b, "stg = r3 r1");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    double freq[1] = {1.0};
    rf_sw_liveprof *lp = malloc(sizeof *lp);
    assert_non_null(lp);
    assert_int_equal(rf_sw_liveprof_of(f, freq, lp, NULL), 0);
    assert_true(lp->valid);
    NEAR(lp->loads, 1.0 / 6.0);
    NEAR(lp->live_stall, 3);
    NEAR(lp->region[2], 2.0 / 6.0);
    NEAR(lp->acquires[2], 1);
    NEAR(lp->region_loads[2], 1.0 / 6.0);
    NEAR(lp->region[1], 4.0 / 6.0);
    NEAR(lp->acquires[1], 1);
    NEAR(lp->region[3], 0);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_REGMUTEX;
    d.brs_frac = 0.5;
    rf_profile prof = {0, 0.5, 0, 0, 0, 1};
    rf_sw_code c;
    assert_int_equal(rf_sw_code_of(f, &prof, lp, &d, 4, &c, NULL), 0);
    NEAR(c.region, 2.0 / 6.0);
    NEAR(c.region_loads, 1.0 / 6.0);
    /* Without the profile the same figures come from the code. */
    rf_sw_code c2;
    assert_int_equal(rf_sw_code_of(f, &prof, NULL, &d, 4, &c2, NULL), 0);
    NEAR(c2.region, c.region);
    NEAR(c2.acquires, 1);
    rf_sw_input in;
    memset(&in, 0, sizeof in);
    in.kind = RF_DESIGN_REGMUTEX;
    in.active = 2;
    in.resident = 2;
    in.chunks = 1;
    in.warps_per_cta = 1;
    in.act = in.live = 1.0;
    in.cpi_lone = 10;
    in.mem_stall = 6;
    in.code = c;
    rf_sw_params p = params(1.0);
    rf_sw_state st;
    rf_sw_apply(&in, &p, &st);
    NEAR(st.region_time, 0.22 / 0.3);
    assert_int_equal(st.pool_warps, 2);
    /* Two warps, one chunk (the pool example above at rho 0.7333). */
    rf_sw_pool pool;
    rf_sw_pool_eval(2, 1, 0.22 / 0.3, &pool);
    NEAR(st.pool.waiting, pool.waiting);
    NEAR(st.ctas_eff, 2 - pool.waiting);
    d.kind = RF_DESIGN_FINEREG;
    assert_int_equal(rf_sw_code_of(f, &prof, lp, &d, 4, &c, NULL), 0);
    NEAR(c.live_stall, 3);
    free(lp);
    kb_free(f);
}

/* RegMutex's hold over a loop and a barrier, base sets 1 and 2 (each
 * base's dataflow is its own, computed for all bases at once).
 *   B0: i0 alu r0 =           live in/out 0/1
 *       i1 alu r1 = r0                    1/2
 *       i2 alu r2 = r0                    2/3
 *   B1: i3 ldg r1 = r1 r2                 3/3   (loop body, 4 times)
 *       i4 @p0 bra B1                     3/3
 *   B2: i5 bar                            3/3
 *       i6 stg = r0 r1 r2                 3/0
 *       i7 exit                           0/0
 * Block frequencies 1, 4, 1: 3 + 8 + 3 = 14 executed instructions.
 * Base 1: i1 takes a chunk (2 live > 1) and nothing before the barrier
 * gives it back (no live-out of 1 or fewer), so the warp enters the loop
 * and B2 holding; the barrier gives it back (exit 1), i6 takes one and
 * gives it back (live-out 0: exit 2).  Held: i1, i2 (2), the loop (8),
 * i5 and i6 (2): 12 of 14; acquires 2; the load i3 issued holding 4
 * times: 4 of 14.  Base 2: i1 needs none (2 live), i2 takes it: held 11
 * of 14, acquires 2, loads 4 of 14.  Base 3 and above: no chunk (the
 * most live registers are 3). */
static void regmutex_hold_loop(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "loop");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "alu r2 = r0");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "ldg r1 = r1 r2");
    kb_i(&b, "@p0 bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "bar");
    kb_i(&b, "stg = r0 r1 r2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    double freq[3] = {1.0, 4.0, 1.0};
    rf_sw_liveprof *lp = malloc(sizeof *lp);
    assert_non_null(lp);
    assert_int_equal(rf_sw_liveprof_of(f, freq, lp, NULL), 0);
    assert_true(lp->valid);
    NEAR(lp->loads, 4.0 / 14.0);
    NEAR(lp->region[1], 12.0 / 14.0);
    NEAR(lp->acquires[1], 2);
    NEAR(lp->region_loads[1], 4.0 / 14.0);
    NEAR(lp->region[2], 11.0 / 14.0);
    NEAR(lp->acquires[2], 2);
    NEAR(lp->region_loads[2], 4.0 / 14.0);
    NEAR(lp->region[3], 0);
    NEAR(lp->acquires[3], 0);
    free(lp);
    kb_free(f);
}

/* The estimate on a bundled kernel: the baseline and sharing with F = 0
 * have no design counters and the same IPC; VT's counters are those of
 * the closed forms (resident = the register file's CTAs). */
static void estimate_counters(void **state)
{
    (void)state;
    rf_err err;
    rf_gpu g;
    rf_kernel *k;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    assert_int_equal(rf_gpu_load("maxwell-gtx980", &g, NULL, &err), 0);
    assert_int_equal(rf_kernel_load("inputs/kernels/stream.spec", &ko, &k, &err), 0);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&g, k, &kc, &err), 0);
    rf_shape sh = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                   rf_kernel_ctas(k), 1};
    rf_design d;
    rf_design_init(&d);
    rf_estimate base, e;
    assert_int_equal(rf_extrap_estimate(&g, &d, &kc, &sh, NULL, &base, &err), 0);
    assert_true(base.occc.cta_switches == 0 && base.occc.lock_acquires == 0);
    NEAR(base.occc.resident_ctas_mean, base.occ.ctas_per_sm);
    d.kind = RF_DESIGN_SHARING;
    d.sharing = 0;
    assert_int_equal(rf_extrap_estimate(&g, &d, &kc, &sh, NULL, &e, &err), 0);
    assert_true(e.ipc == base.ipc);
    assert_true(e.occc.lock_acquires == 0);
    rf_design_init(&d);
    d.kind = RF_DESIGN_VT;
    assert_int_equal(rf_extrap_estimate(&g, &d, &kc, &sh, NULL, &e, &err), 0);
    NEAR(e.occc.resident_ctas_mean, e.occ.ctas_per_sm);
    assert_true(e.occc.active_ctas_mean <= e.occ.active_ctas);
    assert_true(e.occc.cta_switches >= (double)(sh.ctas - e.occ.active_ctas));
    assert_true(e.occc.switch_dram_bytes == 0);
    rf_kernel_destroy(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stall_share),
        cmocka_unit_test(slot_model),
        cmocka_unit_test(pool_depletion),
        cmocka_unit_test(finereg_switch_cost),
        cmocka_unit_test(regdram_switch_bytes),
        cmocka_unit_test(sharing_lock_wait),
        cmocka_unit_test(regmutex_hold),
        cmocka_unit_test(regmutex_hold_loop),
        cmocka_unit_test(estimate_counters),
    };
    return cmocka_run_group_tests_name("switching", tests, NULL, NULL);
}
