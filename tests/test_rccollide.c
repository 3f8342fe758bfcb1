/* test_rccollide.c - closed-form register-cache collisions
 * (analytic/rccollide.c, seed 002) on hand-computed cases. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/area.h"
#include "../analytic/conflict.h"
#include "../analytic/dstcount.h"
#include "../analytic/energy.h"
#include "../analytic/occupancy.h"
#include "../analytic/ipc.h"
#include "../analytic/rccollide.h"
#include "support/kirbuild.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

/* A GPU with 2 sub-cores of 8 register-cache entries and a 4-cycle NVM
 * write, and a kernel of one read and one write per instruction. */
static void tiny_hirf(rf_gpu *gpu, rf_ipc_kernel *k)
{
    memset(gpu, 0, sizeof *gpu);
    gpu->subcores = 2;
    gpu->rc_entries = 8;
    gpu->max_warps_per_sm = 64;
    gpu->nvm_write_latency = 4;
    memset(k, 0, sizeof *k);
    k->reads = 1;
    k->writes = 1;
    k->read_k[1] = 1;
}

/* Two tags on one line, independent writes: one warp writes r0 and r8
 * equally often; with the seed's W3R3 index both use line 0 (register LSBs
 * 000, warp bits 000).  p = 1/2 each on one line, P = 1:
 *   C_ind = 1 - (1/4 + 1/4) / 1 = 1/2  (one warp: the same at any locality).
 * Weights 3 : 1: 1 - (9/16 + 1/16) = 3/8.  r0 and r1 (different lines): 0. */
static void two_tags(void **state)
{
    (void)state;
    rf_rc_geom g;
    rf_rc_geom_default(&g, RF_RC_CONCAT);
    double w[16] = {0};
    w[0] = 1;
    w[8] = 1;
    rf_rcc_flow fl;
    rf_rcc_result r;
    rf_rcc_flow_indep(w, 16, &g, &fl);
    rf_rcc_rates(&g, &fl, 1, 0.0, &r);
    NEAR(r.indep, 0.5);
    NEAR(r.conflict, 0.5);
    assert_int_equal(r.pairs, 2);
    assert_int_equal(r.lines_used, 1);
    rf_rcc_rates(&g, &fl, 1, 0.7, &r);
    NEAR(r.conflict, 0.5);
    w[0] = 3;
    rf_rcc_flow_indep(w, 16, &g, &fl);
    rf_rcc_rates(&g, &fl, 1, 0.0, &r);
    NEAR(r.indep, 3.0 / 8);
    w[8] = 0;
    w[1] = 1;
    rf_rcc_flow_indep(w, 16, &g, &fl);
    rf_rcc_rates(&g, &fl, 1, 0.0, &r);
    NEAR(r.indep, 0.0);
    assert_int_equal(r.lines_used, 2);
}

/* The ping-pong kernel of tests/test_sim_hirf.c (r8 = f(r0); r0 = f(r8);
 * r8 = f(r0); r0 = f(r8)) through the flow, W0R3 on 8 lines per sub-core
 * (r0 and r8 share a line).  Last writer of the line: none, r8, r0, r8,
 * so writes: r8 finds none (no conflict), r0 finds r8, r8 finds r0, r0
 * finds r8: 3 conflicts of 4 writes, c(r8) = 1/2, c(r0) = 1.  Reads: r0
 * finds none then r0 (h = 1/2), r8 finds r8 twice (h = 1): 1 miss of 4
 * reads.  The sampler counts the same: 3 conflicts, 1 NVM read. */
static void ping_pong_flow(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "pingpong");
    kb_block(&b, "B0");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_rcc_writes wr;
    rf_err err = {0};
    assert_int_equal(rf_rcc_writes_of(f, &prof, &wr, &err), 0);
    rf_rc_geom g;
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 8, 2, 64, 3, &err), 0);
    rf_rcc_flow fl;
    assert_int_equal(rf_rcc_flow_of(&wr, &g, RF_ASSIGN_BASE, &fl, &err), 0);
    NEAR(fl.writes[8], 2);
    NEAR(fl.c[8], 0.5);
    NEAR(fl.c[0], 1.0);
    NEAR(fl.h[0], 0.5);
    NEAR(fl.h[8], 1.0);
    rf_rcc_result r;
    rf_rcc_rates(&g, &fl, 1, 0.4, &r);
    NEAR(r.conflict, 0.75);
    NEAR(r.read_miss, 0.25);
    /* CAC renumbers r0 -> 0, r8 -> 1: different lines, no conflict, and
     * only the first read of r0 misses. */
    assert_int_equal(rf_rcc_flow_of(&wr, &g, RF_ASSIGN_CAC, &fl, &err), 0);
    rf_rcc_rates(&g, &fl, 1, 0.4, &r);
    NEAR(r.conflict, 0.0);
    NEAR(r.read_miss, 0.25);
    kb_free(f);
}

/* A loop writing r0 and r8 each iteration (trip 3: four passes) after a
 * preheader writing r8: the line's last writer entering the loop is r8
 * (first pass) or r8 again (back edge, from the loop's last write), so in
 * the loop the write of r0 always conflicts (finds r8) and the write of r8
 * always conflicts (finds r0); the preheader's write finds the line empty.
 * Writes per thread: 1 + 4 + 4 = 9, conflicts 8: C = 8/9. */
static void loop_flow(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "loop");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r8 = ");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "@p0 bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {3, 0.5, 1, 1, 0};
    rf_rcc_writes wr;
    rf_err err = {0};
    assert_int_equal(rf_rcc_writes_of(f, &prof, &wr, &err), 0);
    NEAR(wr.dyn[8], 5);
    rf_rc_geom g;
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 8, 2, 64, 3, &err), 0);
    rf_rcc_flow fl;
    assert_int_equal(rf_rcc_flow_of(&wr, &g, RF_ASSIGN_BASE, &fl, &err), 0);
    rf_rcc_result r;
    rf_rcc_rates(&g, &fl, 1, 0.0, &r);
    assert_true(fabs(r.conflict - 8.0 / 9) < 1e-9);
    kb_free(f);
}

/* Warps sharing lines: one register, 64 warps, W3R3.  Warp ID bits 0-1
 * pick the sub-core, bits 2-4 the line: warps w and w + 32 share a line
 * (bit 5 is in the tag).  32 lines used, two equal pairs each, s = 1/2,
 * c = 0: independent interleaving 1/2, locality 1 gives 0 and locality
 * 0.2 gives 0.8 x 1/2 = 0.4.  32 warps: one pair per line, 0.  TEA: 4
 * reversed warp bits XOR into the index top, so all 16 warps of a sub-core
 * have their own line: 0. */
static void warps_share_lines(void **state)
{
    (void)state;
    rf_rc_geom g;
    rf_rc_geom_default(&g, RF_RC_CONCAT);
    double w[1] = {1};
    rf_rcc_flow fl;
    rf_rcc_result r;
    rf_rcc_flow_indep(w, 1, &g, &fl);
    rf_rcc_rates(&g, &fl, 64, 0.0, &r);
    NEAR(r.indep, 0.5);
    NEAR(r.intra, 0.0);
    assert_int_equal(r.lines_used, 32);
    rf_rcc_rates(&g, &fl, 64, 0.2, &r);
    NEAR(r.conflict, 0.4);
    rf_rcc_rates(&g, &fl, 32, 0.0, &r);
    NEAR(r.indep, 0.0);
    rf_rc_geom_default(&g, RF_RC_TEA);
    rf_rcc_flow_indep(w, 1, &g, &fl);
    rf_rcc_rates(&g, &fl, 64, 0.0, &r);
    NEAR(r.indep, 0.0);
    assert_int_equal(r.lines_used, 64);
    /* Fitting the locality back from the measured 0.4. */
    rf_rc_geom_default(&g, RF_RC_CONCAT);
    rf_rcc_flow_indep(w, 1, &g, &fl);
    rf_rcc_rates(&g, &fl, 64, 0.0, &r);
    double meas = 0.4;
    NEAR(rf_rcc_fit_locality(&r, &meas, 1), 0.2);
    /* Half the warps live, which ones unknown: the other pair on a line
     * competes half the time, s = 1 / (1 + 1/2) = 2/3, conflict 1/3. */
    rf_rcc_rates_live(&g, &fl, 64, 0.5, 0.0, &r);
    NEAR(r.indep, 1.0 / 3.0);
    rf_rcc_rates_live(&g, &fl, 64, 1.0, 0.0, &r);
    NEAR(r.indep, 0.5);
}

/* Fully associative LRU, 64 lines per sub-core, 64 warps (16 per
 * sub-core).  4 equal registers: 64 pairs per sub-core fit: 0.  5 equal
 * registers: 80 pairs, q = 1/80; 80 (1 - e^{-T/80}) = 64 gives
 * e^{-T/80} = 0.2, miss = sum q e^{-qT} = 0.2. */
static void full_lru(void **state)
{
    (void)state;
    rf_rc_geom g;
    rf_rc_geom_default(&g, RF_RC_FULL);
    double w[5] = {1, 1, 1, 1, 1};
    rf_rcc_flow fl;
    rf_rcc_result r;
    rf_rcc_flow_indep(w, 4, &g, &fl);
    rf_rcc_rates(&g, &fl, 64, 0.0, &r);
    NEAR(r.indep, 0.0);
    rf_rcc_flow_indep(w, 5, &g, &fl);
    rf_rcc_rates(&g, &fl, 64, 0.0, &r);
    assert_true(fabs(r.indep - 0.2) < 1e-6);
    assert_int_equal(r.pairs, 320);
    /* 8 equal registers with 40 of the 64 warps live (0.625): 10 per
     * sub-core, again 80 pairs on 64 lines: 0.2; with 32 live, 64 pairs
     * fit: 0. */
    double w8[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    rf_rcc_flow_indep(w8, 8, &g, &fl);
    rf_rcc_rates_live(&g, &fl, 64, 0.625, 0.0, &r);
    assert_true(fabs(r.indep - 0.2) < 1e-6);
    assert_int_equal(r.pairs, 320);
    rf_rcc_rates_live(&g, &fl, 64, 0.5, 0.0, &r);
    NEAR(r.indep, 0.0);
}

/* Stall: 1.5 writes per instruction, conflict 0.4, NVM write 4 cycles:
 * 1.5 x 0.4 x 3 = 1.8 cycles per instruction; a 1-cycle file: 0. */
static void stall_term(void **state)
{
    (void)state;
    NEAR(rf_rcc_stall(1.5, 0.4, 4), 1.8);
    NEAR(rf_rcc_stall(1.5, 0.4, 1), 0.0);
}

/* Assignment maps on a straight-line function run once: r0 written 3
 * times, r1 once, r2 twice.  Base: identity.  CAC (static counts,
 * descending): r0 -> 0, r2 -> 1, r1 -> 2; Best (dynamic counts, the same
 * here): writes per new ID 3, 2, 1. */
/* CAC against CAC-plain: r0 written twice before a loop, r1 once in its
 * body (B1 -> B1).  Plain counts r0 2, r1 1: cac-plain keeps the identity.
 * Loop-weighted (x10 per loop): r0 2, r1 10: cac puts r1 first (r1 -> 0,
 * r0 -> 1). */
static void cac_loop_weight(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "loopw");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 = ");
    kb_i(&b, "alu r0 = r0");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "@p0 bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    kb_succ(&b, B2, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {3, 0.5, 1, 1, 0};
    rf_rcc_writes wr;
    rf_err err = {0};
    assert_int_equal(rf_rcc_writes_of(f, &prof, &wr, &err), 0);
    NEAR(wr.stat[0], 2);
    NEAR(wr.stat[1], 1);
    NEAR(wr.stat_loop[0], 2);
    NEAR(wr.stat_loop[1], 10);
    rf_rc_geom g;
    rf_rc_geom_default(&g, RF_RC_CONCAT);
    int map[RF_MAX_GPR];
    rf_rcc_assign_map(&wr, &g, RF_ASSIGN_CAC_PLAIN, map);
    assert_int_equal(map[0], 0);
    assert_int_equal(map[1], 1);
    rf_rcc_assign_map(&wr, &g, RF_ASSIGN_CAC, map);
    assert_int_equal(map[0], 1);
    assert_int_equal(map[1], 0);
    kb_free(f);
}

static void assign_maps(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "writes");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 = ");
    kb_i(&b, "alu r0 = r0");
    kb_i(&b, "alu r2 = r0");
    kb_i(&b, "alu r0 = r2");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "alu r2 = r1");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_rcc_writes wr;
    rf_err err = {0};
    assert_int_equal(rf_rcc_writes_of(f, &prof, &wr, &err), 0);
    assert_int_equal(wr.nregs, 3);
    NEAR(wr.stat[0], 3);
    NEAR(wr.stat[1], 1);
    NEAR(wr.stat[2], 2);
    NEAR(wr.dyn[0], 3);
    rf_rc_geom g;
    rf_rc_geom_default(&g, RF_RC_CONCAT);
    int map[RF_MAX_GPR];
    rf_rcc_assign_map(&wr, &g, RF_ASSIGN_BASE, map);
    assert_int_equal(map[1], 1);
    rf_rcc_assign_map(&wr, &g, RF_ASSIGN_CAC, map);
    assert_int_equal(map[0], 0);
    assert_int_equal(map[2], 1);
    assert_int_equal(map[1], 2);
    /* No loops: the loop-weighted counts are the plain ones. */
    rf_rcc_assign_map(&wr, &g, RF_ASSIGN_CAC_PLAIN, map);
    assert_int_equal(map[0], 0);
    assert_int_equal(map[2], 1);
    assert_int_equal(map[1], 2);
    double out[RF_MAX_GPR];
    rf_rcc_assigned_writes(&wr, &g, RF_ASSIGN_BEST, out);
    NEAR(out[0], 3);
    NEAR(out[1], 2);
    NEAR(out[2], 1);
    kb_free(f);
}

/* Best (rf_rcc_assign_map, RF_ASSIGN_BEST): of Algorithm 1 on the dynamic
 * and on the loop-weighted counts, the ordering with fewer expected
 * write-backs.  Two lines (concat W0R1: line = new ID mod 2), one
 * warp.  B0 writes r1 r1 r1 r3 r0 r0, the loop B1 (trip 1: two passes)
 * writes r2 r0.  Counts: dynamic r0 4, r1 3, r2 2, r3 1 (Algorithm 1 keeps
 * the IDs: {r0, r2} and {r1, r3}); loop-weighted 12, 3, 10, 1 (r0 -> 0, r2 -> 1, r1 -> 2, r3 -> 3:
 * {r0, r1} and {r2, r3}).  The writes: r1 r1 r1 r3 r0 r0 (r2 r0) x 2.
 * A line costs sum_r (c_r + w_r (1 - q_r) + q_r c_r) / 2 (c_r: its
 * write-backs, w_r: writes, q_r = w_r / the line's writes):
 *   {r0,r2}: r0 r0 r2 r0 r2 r0, write-backs r0 2, r2 2:
 *            (2 + 4/3 + 4/3)/2 + (2 + 4/3 + 2/3)/2 = 13/3
 *   {r1,r3}: r1 r1 r1 r3, r3 1: 3/8 + 1 = 11/8; total 137/24 = 5.71
 *   {r0,r1}: r1 r1 r1 r0 r0 r0 r0, r0 1: 23/14 + 12/14 = 5/2
 *   {r2,r3}: r3 r2 r2, r2 1: 7/6 + 1/3 = 3/2; total 4.
 * So Best takes the loop-weighted ordering: 2 write-backs per run instead
 * of 5. */
static void best_choice(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "turns");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r1 = ");
    kb_i(&b, "alu r1 = r1");
    kb_i(&b, "alu r1 = r1");
    kb_i(&b, "alu r3 = r1");
    kb_i(&b, "alu r0 = r3");
    kb_i(&b, "alu r0 = r0");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r2 = r0");
    kb_i(&b, "alu r0 = r2");
    kb_i(&b, "@p0 bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    kb_succ(&b, B2, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {1, 0.5, 1, 1, 0};
    rf_rcc_writes wr;
    rf_err err = {0};
    assert_int_equal(rf_rcc_writes_of(f, &prof, &wr, &err), 0);
    NEAR(wr.dyn[0], 4);
    NEAR(wr.dyn[1], 3);
    NEAR(wr.dyn[2], 2);
    NEAR(wr.dyn[3], 1);
    NEAR(wr.stat_loop[0], 12);
    NEAR(wr.stat_loop[2], 10);
    rf_rc_geom g;
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 2, 1, 1, 1, &err), 0);
    int map[RF_MAX_GPR];
    rf_dst_cac_aligned(wr.dyn, wr.width, wr.nregs, map);
    for (int r = 0; r < 4; r++)
        assert_int_equal(map[r], r);
    rf_rcc_flow fl;
    assert_int_equal(rf_rcc_flow_of(&wr, &g, RF_ASSIGN_BASE, &fl, &err), 0);
    double wb = 0;
    for (int r = 0; r < 4; r++)
        wb += fl.writes[r] * fl.c[r];
    NEAR(wb, 5);
    assert_int_equal(rf_rcc_assign_map(&wr, &g, RF_ASSIGN_BEST, map), 4);
    assert_int_equal(map[0], 0);
    assert_int_equal(map[1], 2);
    assert_int_equal(map[2], 1);
    assert_int_equal(map[3], 3);
    assert_int_equal(rf_rcc_flow_of(&wr, &g, RF_ASSIGN_BEST, &fl, &err), 0);
    wb = 0;
    for (int r = 0; r < 4; r++)
        wb += fl.writes[r] * fl.c[r];
    NEAR(wb, 2);
    /* A two-slot memo gives the same maps, each for its own policy, and
     * replaces its slots in turn. */
    rf_rcc_memo memo;
    assert_int_equal(rf_rcc_memo_init(&memo, 2, &err), 0);
    wr.memo = &memo;
    rf_rcc_memo_slot *sb = rf_rcc_memo_get(&wr, &g, RF_ASSIGN_BEST);
    assert_non_null(sb);
    assert_int_equal(sb->span, 4);
    assert_false(sb->flow_ok);
    int again[RF_MAX_GPR];
    rf_rcc_assign_map(&wr, &g, RF_ASSIGN_BEST, again);
    assert_memory_equal(again, map, sizeof map);
    assert_ptr_equal(rf_rcc_memo_get(&wr, &g, RF_ASSIGN_BEST), sb);
    rf_rcc_memo_slot *s0 = rf_rcc_memo_get(&wr, &g, RF_ASSIGN_BASE);
    assert_ptr_not_equal(s0, sb);
    assert_int_equal(s0->map[1], 1);
    rf_rcc_assign_map(&wr, &g, RF_ASSIGN_BASE, again);
    assert_int_equal(again[1], 1);
    /* A third policy takes the first slot (Best's). */
    assert_ptr_equal(rf_rcc_memo_get(&wr, &g, RF_ASSIGN_WORST), sb);
    rf_rcc_assign_map(&wr, &g, RF_ASSIGN_BEST, again);
    assert_memory_equal(again, map, sizeof map);
    wr.memo = NULL;
    rf_rcc_memo_free(&memo);
    kb_free(f);
}

/* NVM write-backs in the bank queueing (analytic/conflict.c): reads at
 * 0.1 and write-backs at 0.2 bank-cycles per bank per cycle, each holding
 * the bank 4 cycles: residual R0 = (0.1 + 0.2 x 4) / 2 = 0.45, a write
 * waits R0 / (1 - 0.2) = 0.5625, a read R0 / (0.8 x 0.7) = 0.80357...
 * Unit writes: R0 = 0.15, write wait 0.1875. */
static void write_service_queueing(void **state)
{
    (void)state;
    rf_conflict_params cp = {1.0, 0.85, 0.95, 0.15, 1.0};
    rf_bank_load nvm = {0.1, 0.2, 8, false, false, 4.0, 0, 0};
    rf_bank_wait w;
    rf_bank_waits(&nvm, &cp, &w);
    NEAR(w.write_wait, 0.5625);
    NEAR(w.read_wait, 0.45 / (0.8 * 0.7));
    rf_bank_load sram = {0.1, 0.2, 8, false, false, 0, 0, 0};
    rf_bank_waits(&sram, &cp, &w);
    NEAR(w.write_wait, 0.1875);
}

/* The ping-pong kernel (r8 = r0, r0 = r8, twice) on tiny_hirf's GPU, with
 * its write counts in k->rcw, and a W0R3 HI-RF design with the base
 * assignment. */
static rf_func *pingpong_hirf(rf_gpu *gpu, rf_ipc_kernel *k, rf_design *d)
{
    kb_builder b;
    kb_begin(&b, "pingpong");
    kb_block(&b, "B0");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    tiny_hirf(gpu, k);
    rf_design_init(d);
    d->kind = RF_DESIGN_HIRF;
    d->wbits = 0;
    d->rbits = 3;
    d->assign = RF_ASSIGN_BASE;
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_err err = {0};
    assert_int_equal(rf_rcc_writes_of(f, &prof, &k->rcw, &err), 0);
    return f;
}

/* rf_rcc_apply on the ping-pong kernel (one warp; W0R3 on 8 lines per
 * sub-core; NVM write 4 cycles): conflict 3/4, read miss 1/4.  One read
 * and one write per instruction become 1/4 bank read and 3/4 x 4 = 3
 * bank-cycles of writes; write-backs per instruction 3/4 on the warp's
 * path with service 4; one-operand instructions read a bank with
 * probability 1/4.  Other designs are left alone. */
static void apply_terms(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_ipc_kernel k;
    rf_design d;
    rf_err err = {0};
    rf_func *f = pingpong_hirf(&gpu, &k, &d);
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    rf_ipc_machine m;
    memset(&m, 0, sizeof m);
    rf_rcc_result r;
    assert_int_equal(rf_rcc_apply(&gpu, &d, 1, &p, &m, &k, &r, &err), 0);
    NEAR(r.conflict, 0.75);
    NEAR(r.read_miss, 0.25);
    NEAR(k.reads, 0.25);
    NEAR(k.writes, 3.0);
    NEAR(m.wb_rate, 0.75);
    NEAR(m.write_service, 4.0);
    NEAR(k.read_k[1], 0.25);
    NEAR(k.read_k[0], 0.75);
    /* The IPC model slows down with the write-backs. */
    rf_ipc_machine m0;
    memset(&m0, 0, sizeof m0);
    m0.warps = 8;
    m0.schedulers = 2;
    m0.issue_width = 1;
    m0.banks = 8;
    m0.collectors = 8;
    m0.alu_pipes = 2;
    m0.alu_ii = 1;
    m0.sfu_ii = 1;
    m0.ldst_ii = 1;
    m0.rf_latency = 1;
    rf_ipc_machine m1 = m0;
    m1.wb_rate = m.wb_rate;
    m1.write_service = m.write_service;
    k.frac_alu = 1;
    k.alu_use = 1;
    rf_ipc_result r0, r1;
    rf_ipc_steady(&k, &m0, &p, &r0);
    rf_ipc_steady(&k, &m1, &p, &r1);
    assert_true(r1.cpi_warp > r0.cpi_warp + 0.75 * 3 - 1e-9);
    assert_true(r1.ipc < r0.ipc);
    d.kind = RF_DESIGN_BASELINE;
    memset(&m, 0, sizeof m);
    assert_int_equal(rf_rcc_apply(&gpu, &d, 1, &p, &m, &k, &r, &err), 0);
    NEAR(m.wb_rate, 0.0);
    NEAR(r.conflict, 0.0);
    kb_free(f);
}

/* A warp's own NVM bank backlog, 8 banks, write-back service 4 cycles,
 * one instruction per cycle, every access missing (miss = 1) and every
 * write evicting the warp's own pair (own = 1); concat W0R3 (a line fixes
 * 3 register bits: a write-back stays in its register's bank).
 * (a) Ping-pong r8 = r0; r0 = r8; r8 = r0; r0 = r8; exit (all bank 0):
 *     i0: r0's read finds nothing; r8's write-back: backlog 4.
 *     i1: r8's read after the issue cycle finds 4 - 1 = 3 left: waits 3,
 *         the backlog drains to 0; r0's write-back: backlog 4.
 *     i2, i3: the same, 3 each.  Reads waited 9 over 5 instructions:
 *     1.8 per instruction; the write-backs never waited.
 * (b) r0 =; r8 =; r16 =; exit: write-backs wait 0, 4 - 1 = 3 and
 *     7 - 1 = 6: 9 / 4 = 2.25 per instruction.
 * (c) (b) with W4R2 (2 register bits): each write-back half on bank 0,
 *     half on bank 4: waits 0, 0.5 x 1 + 0.5 x 1 = 1, 0.5 x 2 + 0.5 x 2
 *     = 2: 3 / 4 = 0.75 per instruction. */
static void own_walk(void **state)
{
    (void)state;
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_err err = {0};
    double one[RF_MAX_GPR];
    for (int r = 0; r < RF_MAX_GPR; r++)
        one[r] = 1;
    rf_rc_geom g;
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 8, 2, 64, 3, NULL), 0);
    kb_builder b;
    kb_begin(&b, "pingpong");
    kb_block(&b, "B0");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_rcc_writes w;
    assert_int_equal(rf_rcc_writes_of(f, &prof, &w, &err), 0);
    double rs, ww;
    assert_int_equal(rf_rcc_own_walk(&w, &g, RF_ASSIGN_BASE, one, one, 8, 4, &rs, &ww, &err), 0);
    NEAR(rs, 1.8);
    NEAR(ww, 0.0);
    kb_free(f);

    kb_begin(&b, "burst");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "alu r8 =");
    kb_i(&b, "alu r16 =");
    kb_i(&b, "exit");
    f = kb_finish(&b);
    assert_non_null(f);
    assert_int_equal(rf_rcc_writes_of(f, &prof, &w, &err), 0);
    assert_int_equal(rf_rcc_own_walk(&w, &g, RF_ASSIGN_BASE, one, one, 8, 4, &rs, &ww, &err), 0);
    NEAR(rs, 0.0);
    NEAR(ww, 2.25);
    rf_rc_geom g42;
    assert_int_equal(rf_rc_geom_init(&g42, RF_RC_CONCAT, 64, 4, 64, 2, NULL), 0);
    assert_int_equal(rf_rcc_own_walk(&w, &g42, RF_ASSIGN_BASE, one, one, 8, 4, &rs, &ww, &err),
                     0);
    NEAR(ww, 0.75);
    /* An SRAM-speed write (service 1) leaves no backlog. */
    assert_int_equal(rf_rcc_own_walk(&w, &g, RF_ASSIGN_BASE, one, one, 8, 1, &rs, &ww, &err), 0);
    NEAR(ww, 0.0);
    kb_free(f);
}

/* The other warps' write-backs (rf_rcc_wb_dispersion), 8 banks, concat
 * W0R3 (a write-back stays in its register's bank).
 * Own share, code r8 = r0; r1 = r9; exit, every read missing (miss = 1),
 * 4 warps issuing: reads on banks 0 (r0) and 1 (r9), M_0 = M_1 = 1.
 * (d) own = any = 1: own write-backs O_0 = 1 (r8), O_1 = 1 (r1), mean
 *     over the banks O = 2/8, S = 0: u = (1 + 1) / (2 (1 + 3 x 2/8)) = 4/7.
 * (e) own = 1/2, any = 1: O_0 = O_1 = 1/2, O = 1/8, S = 2 x (1/2) / 8 =
 *     1/8: u = 2 (1/2) / (2 (1/2 + 1/8 + 3 (1/8 + 1/8))) = 1 / 2.75 = 4/11.
 * Turn variance ratio (turn_vr), the "runs" block r0 =; r8 =; r1 =; r2 =;
 * exit: own write-backs per bank over the code O = (2, 1, 1, 0, 0, 0, 0, 0)
 * (r0 and r8 on bank 0), 5 instructions.
 * (f) own = any = 1: mean O = 4/8 = 1/2, S = 0; Var = ((3/2)^2 + 2 (1/2)^2
 *     + 5 (1/2)^2) / 8 = 4 / 8 = 1/2; turn_vr = (1/2) / 5 / (1/2) = 1/5.
 * (g) own = 1/2, any = 1: O = (1, 1/2, 1/2, 0, ...), mean 1/4; S = 4
 *     writes x (1/2) / 8 = 1/4; Var = (9/16 + 2/16 + 5/16) / 8 = 1/8;
 *     turn_vr = (1/8) / 5 / (1/2) = 1/20.
 * (h) own = 0: no own write-backs, nothing turns: 0.
 * And the bank queue: a write factor of 2 doubles the write wait and the
 * reads' wait behind writes (write_service_queueing's load: write wait
 * 2 x 0.5625; inter-read 0.1 / 2 / 0.9 = 0.0556, the read wait
 * 0.0556 + 2 x (0.80357 - 0.0556)). */
static void wb_dispersion(void **state)
{
    (void)state;
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_err err = {0};
    double one[RF_MAX_GPR], zero[RF_MAX_GPR], half[RF_MAX_GPR];
    for (int r = 0; r < RF_MAX_GPR; r++) {
        one[r] = 1;
        zero[r] = 0;
        half[r] = 0.5;
    }
    rf_rc_geom g;
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 8, 2, 64, 3, NULL), 0);
    kb_builder b;
    kb_begin(&b, "runs");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "alu r8 =");
    kb_i(&b, "alu r1 =");
    kb_i(&b, "alu r2 =");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_rcc_writes w;
    assert_int_equal(rf_rcc_writes_of(f, &prof, &w, &err), 0);
    double u, tv;
    assert_int_equal(rf_rcc_wb_dispersion(&w, &g, RF_ASSIGN_BASE, one, one, NULL, 4, 8, &u, &tv,
                                          &err),
                     0);
    NEAR(u, 0.0);
    NEAR(tv, 1.0 / 5.0);
    assert_int_equal(rf_rcc_wb_dispersion(&w, &g, RF_ASSIGN_BASE, half, one, NULL, 4, 8, &u, &tv,
                                          &err),
                     0);
    NEAR(tv, 1.0 / 20.0);
    assert_int_equal(rf_rcc_wb_dispersion(&w, &g, RF_ASSIGN_BASE, zero, one, NULL, 4, 8, &u, &tv,
                                          &err),
                     0);
    NEAR(tv, 0.0);
    kb_free(f);

    kb_begin(&b, "share");
    kb_block(&b, "B0");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r1 = r9");
    kb_i(&b, "exit");
    f = kb_finish(&b);
    assert_non_null(f);
    assert_int_equal(rf_rcc_writes_of(f, &prof, &w, &err), 0);
    assert_int_equal(rf_rcc_wb_dispersion(&w, &g, RF_ASSIGN_BASE, one, one, one, 4, 8, &u, NULL,
                                          &err),
                     0);
    NEAR(u, 4.0 / 7.0);
    assert_int_equal(rf_rcc_wb_dispersion(&w, &g, RF_ASSIGN_BASE, half, one, one, 4, 8, &u, NULL,
                                          &err),
                     0);
    NEAR(u, 4.0 / 11.0);
    /* One warp: all the write-backs at its banks are its own. */
    assert_int_equal(rf_rcc_wb_dispersion(&w, &g, RF_ASSIGN_BASE, one, one, one, 1, 8, &u, NULL,
                                          &err),
                     0);
    NEAR(u, 1.0);
    kb_free(f);
    rf_conflict_params cp = {1.0, 0.85, 0.95, 0.15, 1.0};
    rf_bank_load nvm = {0.1, 0.2, 8, false, false, 4.0, 0, 2.0};
    rf_bank_wait wt;
    rf_bank_waits(&nvm, &cp, &wt);
    NEAR(wt.write_wait, 2 * 0.5625);
    double rr = 0.05 / 0.9;
    NEAR(wt.read_wait, rr + 2 * (0.45 / (0.8 * 0.7) - rr));
}

/* rf_rcc_apply puts the walk's waits into the IPC model: reads on the
 * warp's path and in the collector hold, write-backs on the path with the
 * share sigma (rc_stall). */
static void apply_own_walk(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_ipc_kernel k;
    rf_design d;
    rf_err err = {0};
    rf_func *f = pingpong_hirf(&gpu, &k, &d);
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.rc_stall = 0.5;
    rf_ipc_machine m;
    memset(&m, 0, sizeof m);
    m.banks = 8;
    rf_rcc_result r;
    assert_int_equal(rf_rcc_apply(&gpu, &d, 1, &p, &m, &k, &r, &err), 0);
    assert_true(r.own_read_stall > 0);
    NEAR(m.extra_stall, r.own_read_stall + 0.5 * r.own_wb_wait);
    NEAR(m.extra_hold, r.own_read_stall);
    kb_free(f);
}

/* A frozen memo is only read: rf_rcc_apply with one prepared for the
 * design (rf_rcc_memo_prepare, then frozen) gives the result it gives
 * without a memo, and with one frozen empty it computes the flow apart and
 * leaves the memo as it was (no slot taken), so threads may share it. */
static void frozen_memo_is_read_only(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_ipc_kernel k;
    rf_design d;
    rf_err err = {0};
    rf_func *f = pingpong_hirf(&gpu, &k, &d);
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    rf_rcc_result want, got;
    rf_ipc_machine m0, m1;
    memset(&m0, 0, sizeof m0);
    m0.banks = 8;
    m1 = m0;
    rf_ipc_kernel k0 = k;
    assert_int_equal(rf_rcc_apply(&gpu, &d, 1, &p, &m0, &k0, &want, &err), 0);

    rf_rcc_memo memo;
    assert_int_equal(rf_rcc_memo_init(&memo, 2, &err), 0);
    rf_ipc_kernel k1 = k;
    k1.rcw.memo = &memo;
    assert_int_equal(rf_rcc_memo_prepare(&k1.rcw, &gpu, &d, &err), 0);
    assert_true(memo.slot[0].used && memo.slot[0].flow_ok);
    memo.frozen = true;
    assert_int_equal(rf_rcc_apply(&gpu, &d, 1, &p, &m1, &k1, &got, &err), 0);
    assert_memory_equal(&got, &want, sizeof got);
    NEAR(m1.extra_stall, m0.extra_stall);
    assert_ptr_equal(k1.rcw.memo, &memo);

    rf_rcc_memo_free(&memo);
    assert_int_equal(rf_rcc_memo_init(&memo, 2, &err), 0);
    memo.frozen = true;
    rf_ipc_kernel k2 = k;
    k2.rcw.memo = &memo;
    rf_ipc_machine m2;
    memset(&m2, 0, sizeof m2);
    m2.banks = 8;
    assert_int_equal(rf_rcc_apply(&gpu, &d, 1, &p, &m2, &k2, &got, &err), 0);
    assert_memory_equal(&got, &want, sizeof got);
    assert_false(memo.slot[0].used || memo.slot[1].used);
    assert_int_equal(memo.next, 0);
    assert_int_equal(rf_rcc_memo_prepare(&k2.rcw, &gpu, &d, &err), 0);
    assert_false(memo.slot[0].used);
    rf_rcc_memo_free(&memo);
    kb_free(f);
}

/* rc_burst scales the write-backs' index of dispersion in the NVM queue:
 * without code (rcw.nregs = 0) there are no turns and the own share u = 0,
 * so write_idc = rc_burst (1 - 0) (1 + 0): 1.0 at the default and 1.5 at
 * rc_burst = 1.5.  The write service is the NVM write latency, 4. */
static void apply_burst_factor(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_ipc_kernel k;
    tiny_hirf(&gpu, &k);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_HIRF;
    d.wbits = 0;
    d.rbits = 3;
    d.assign = RF_ASSIGN_BASE;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    rf_err err = {0};
    double want[2] = {1.0, 1.5};
    for (int i = 0; i < 2; i++) {
        p.rc_burst = want[i];
        rf_ipc_kernel kk = k;
        rf_ipc_machine m;
        memset(&m, 0, sizeof m);
        m.banks = 8;
        rf_rcc_result r;
        assert_int_equal(rf_rcc_apply(&gpu, &d, 4, &p, &m, &kk, &r, &err), 0);
        NEAR(r.wb_own_share, 0.0);
        NEAR(m.write_idc, want[i]);
        NEAR(m.write_service, 4.0);
    }
}

/* Turns in the queue's factor: write_idc = rc_burst (1 - u) (1 + T),
 * T = 2 x 0.25 x V x n with n the turn length (V from the code, above):
 * T doubles with n, is 0 without turns, and write_idc composes so. */
static void apply_turns(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "turns");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 = r1");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_gpu gpu;
    rf_ipc_kernel k;
    tiny_hirf(&gpu, &k);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_HIRF;
    d.wbits = 0;
    d.rbits = 3;
    d.assign = RF_ASSIGN_BASE;
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_err err = {0};
    assert_int_equal(rf_rcc_writes_of(f, &prof, &k.rcw, &err), 0);
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.rc_burst = 1.5;
    double turn[3];
    const double n[3] = {0, 10, 20};
    for (int i = 0; i < 3; i++) {
        rf_ipc_kernel kk = k;
        kk.turn_insts = n[i];
        rf_ipc_machine m;
        memset(&m, 0, sizeof m);
        m.banks = 8;
        rf_rcc_result r;
        assert_int_equal(rf_rcc_apply(&gpu, &d, 1, &p, &m, &kk, &r, &err), 0);
        turn[i] = r.wb_turn;
        NEAR(m.write_idc, 1.5 * (1 - r.wb_own_share) * (1 + r.wb_turn));
    }
    NEAR(turn[0], 0.0);
    assert_true(turn[1] > 1e-3);
    NEAR(turn[2], 2 * turn[1]);
    kb_free(f);
}

/* Write timing.  r0 and r8 share line 0 (W0R3).  A global load of r8
 * lands long after the ALU read of r0 that follows it, so with the
 * timing the read finds r0 (h = 1) and the load then evicts it (c = 1
 * for r8, which lands last); in program order the load has already
 * replaced r0 (h = 0).  The ALU read of r8 waits for the load (the
 * scoreboard) and finds it either way. */
static void writes_land_late(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "late");
    kb_block(&b, "B0");
    kb_i(&b, "alu r0 = r1");
    kb_i(&b, "ldg r8 = r2");
    kb_i(&b, "alu r3 = r0");
    kb_i(&b, "alu r4 = r8");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_err err = {0};
    rf_rcc_writes wr;
    assert_int_equal(rf_rcc_writes_of(f, &prof, &wr, &err), 0);
    rf_rc_geom g;
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 8, 1, 64, 3, &err), 0);
    rf_rcc_flow fl;
    assert_int_equal(rf_rcc_flow_of(&wr, &g, RF_ASSIGN_BASE, &fl, &err), 0);
    NEAR(fl.h[0], 0.0);
    NEAR(fl.h[8], 1.0);
    rf_gpu gpu;
    memset(&gpu, 0, sizeof gpu);
    gpu.alu_latency = 4;
    gpu.l1_latency = 28;
    gpu.schedulers = 4;
    gpu.collectors = 8;
    rf_rcc_writes_timing(&wr, &gpu);
    NEAR(wr.lat[RF_OC_ALU], 6.0);
    NEAR(wr.lat[RF_OC_LD_GLOBAL], 30.0);
    NEAR(wr.gap[RF_OC_ALU], 4 * RF_RCC_COLL_HOLD / 3);
    NEAR(wr.gap[RF_OC_LD_GLOBAL], 4 * RF_RCC_COLL_HOLD / 1);
    assert_int_equal(rf_rcc_flow_of(&wr, &g, RF_ASSIGN_BASE, &fl, &err), 0);
    NEAR(fl.h[0], 1.0);
    NEAR(fl.h[8], 1.0);
    NEAR(fl.c[8], 1.0);
    kb_free(f);
}

/* Read locality by hand.  One register r0, written and read once per
 * instruction; its own warp alone always finds it (c = 0, h = 1).  Two
 * warps on one sub-core with a concat W0R3 index (8 lines): both warps' r0
 * share line 0, so p_x = q_x = 1/2, P_l = 1, s_x = 1/2.
 *   miss_indep = sum_x q_x (1 - s_x h) = 1/2,  miss_intra = sum q (1 - h) = 0
 *   read_miss  = (1 - RF_RCC_READ_LOCALITY) x 1/2, whatever the write
 *   locality;
 *   conflict: indep = sum p ((1 - s) + s c) = 1/2, intra = 0, so at
 *   lambda = 0.4: 0.6 x 1/2 = 0.3. */
static void read_locality_by_hand(void **state)
{
    (void)state;
    rf_rc_geom g;
    rf_err err = {0};
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 8, 1, 64, 3, &err), 0);
    rf_rcc_flow fl;
    memset(&fl, 0, sizeof fl);
    fl.nregs = 1;
    fl.writes[0] = 1;
    fl.reads[0] = 1;
    fl.c[0] = 0;
    fl.h[0] = 1;
    rf_rcc_result r;
    rf_rcc_rates(&g, &fl, 2, 0.4, &r);
    NEAR(r.miss_indep, 0.5);
    NEAR(r.miss_intra, 0.0);
    NEAR(r.read_miss, (1.0 - RF_RCC_READ_LOCALITY) * 0.5);
    NEAR(r.conflict, 0.3);
    rf_rcc_rates(&g, &fl, 2, 0.9, &r);
    NEAR(r.read_miss, (1.0 - RF_RCC_READ_LOCALITY) * 0.5);
    NEAR(r.conflict, 0.05);
}

/* Reads take the read locality RF_RCC_READ_LOCALITY, not the write
 * locality lambda (rc_locality): the conflict rate is linear in lambda
 * between its independent (0) and own-warp (1) ends, so at 0.3 it is 0.7
 * of the first plus 0.3 of the second, while the miss rate stays at
 * (1 - lambda_r) miss_indep + lambda_r miss_intra for every lambda, for either
 * index; the NVM reads per instruction are the misses (one read per
 * instruction here). */
static void reads_keep_their_locality(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "rw");
    kb_block(&b, "B0");
    kb_i(&b, "alu r8 = r0");
    kb_i(&b, "alu r0 = r8");
    kb_i(&b, "alu r1 = r8");
    kb_i(&b, "alu r9 = r1 r0");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_gpu gpu;
    rf_ipc_kernel k;
    tiny_hirf(&gpu, &k);
    rf_profile prof = {0, 0.5, 1, 1, 0};
    rf_err err = {0};
    assert_int_equal(rf_rcc_writes_of(f, &prof, &k.rcw, &err), 0);
    for (int ix = 0; ix < 2; ix++) {
        rf_design d;
        rf_design_init(&d);
        d.kind = RF_DESIGN_HIRF;
        d.index = ix ? RF_RC_TEA : RF_RC_CONCAT;
        d.wbits = 0;
        d.rbits = 3;
        d.assign = RF_ASSIGN_BASE;
        rf_rcc_result r[3];
        double reads[3];
        const double lam[3] = {0.0, 1.0, 0.3};
        for (int i = 0; i < 3; i++) {
            rf_ipc_params p;
            rf_ipc_params_default(&p);
            p.rc_locality = lam[i];
            rf_ipc_kernel kk = k;
            rf_ipc_machine m;
            memset(&m, 0, sizeof m);
            m.banks = 8;
            assert_int_equal(rf_rcc_apply(&gpu, &d, 16, &p, &m, &kk, &r[i], &err), 0);
            reads[i] = kk.reads;
        }
        assert_true(r[0].miss_indep > r[0].miss_intra + 1e-3);
        for (int i = 0; i < 3; i++) {
            NEAR(r[i].read_miss, (1.0 - RF_RCC_READ_LOCALITY) * r[0].miss_indep +
                                     RF_RCC_READ_LOCALITY * r[0].miss_intra);
            NEAR(reads[i], r[i].read_miss);
        }
        assert_true(r[0].conflict > r[1].conflict + 1e-3);
        NEAR(r[2].conflict, 0.7 * r[0].conflict + 0.3 * r[1].conflict);
    }
    kb_free(f);
}

/* Seed 002 Table 1 on volta-hirf: HI-RF (NVM file + SRAM cache) is 0.945x
 * the SRAM file's area; with this preset's 8 collectors (a smaller
 * crossbar than the reference's 16) the ratio is 0.965, and the cache's
 * data is counted once (not again as the design's storage overhead).
 * Leakage (Table 3, per 32 KB bank): 8 NVM banks, 8 * 16.2 = 129.6 mW,
 * plus the 32 KB cache at the SRAM rate, 248.7 mW, against 8 * 248.7 =
 * 1989.6 mW: HI-RF leaks 378.3 / 1989.6 = 19% of the SRAM file. */
static void area_and_leakage(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_load("volta-hirf", &gpu, NULL, &err), 0);
    rf_design sram, hirf;
    rf_design_init(&sram);
    rf_design_init(&hirf);
    hirf.kind = RF_DESIGN_HIRF;
    rf_occ_input in = {32, 256, 0};
    rf_occ o1, o2;
    assert_int_equal(rf_occ_compute(&gpu, &sram, &in, &o1, &err), 0);
    assert_int_equal(rf_occ_compute(&gpu, &hirf, &in, &o2, &err), 0);
    rf_rf_org g1, g2;
    assert_int_equal(rf_area_org(&gpu, &sram, &o1, &g1, &err), 0);
    assert_int_equal(rf_area_org(&gpu, &hirf, &o2, &g2, &err), 0);
    assert_true(g2.overhead_bits < 4096);       /* tags, valid, dirty only */
    rf_area a1, a2;
    rf_area_compute(&g1, &a1);
    rf_area_compute(&g2, &a2);
    double ratio = a2.total_mm2 / a1.total_mm2;
    assert_true(ratio > 0.94 && ratio < 0.97);
    rf_energy_rates r1, r2;
    rf_energy_rates_of(&g1, &r1);
    rf_energy_rates_of(&g2, &r2);
    assert_float_equal(r1.leak_mw, 1989.6, 1e-9);
    assert_float_equal(r2.leak_mw - g2.overhead_bits * 248.7 / (4096.0 * 64), 378.3, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_tags),
        cmocka_unit_test(ping_pong_flow),
        cmocka_unit_test(loop_flow),
        cmocka_unit_test(cac_loop_weight),
        cmocka_unit_test(warps_share_lines),
        cmocka_unit_test(full_lru),
        cmocka_unit_test(stall_term),
        cmocka_unit_test(assign_maps),
        cmocka_unit_test(best_choice),
        cmocka_unit_test(write_service_queueing),
        cmocka_unit_test(apply_terms),
        cmocka_unit_test(own_walk),
        cmocka_unit_test(wb_dispersion),
        cmocka_unit_test(apply_own_walk),
        cmocka_unit_test(apply_burst_factor),
        cmocka_unit_test(apply_turns),
        cmocka_unit_test(frozen_memo_is_read_only),
        cmocka_unit_test(writes_land_late),
        cmocka_unit_test(read_locality_by_hand),
        cmocka_unit_test(reads_keep_their_locality),
        cmocka_unit_test(area_and_leakage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
