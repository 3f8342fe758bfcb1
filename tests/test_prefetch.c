/* test_prefetch.c - closed-form RFC/LTRF stall terms (analytic/prefetch.c)
 * on hand-built functions (tests/support/simfix.c: 4 register banks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>

#include "../analytic/kchar.h"
#include "../analytic/prefetch.h"
#include "../calibrate/extrapolate.h"
#include "support/simfix.h"

static rf_pf_kernel characterise(simfix *fx, int regs, bool plus)
{
    rf_pf_kernel pk;
    rf_err err = {0};
    int rc = rf_pf_characterise(&fx->func, &fx->kernel.profile, regs, plus, &pk, &err);
    if (rc != 0)
        print_error("rf_pf_characterise: %s\n", err.msg);
    assert_int_equal(rc, 0);
    return pk;
}

/* r1 = f(r0); r2 = f(r1); EXIT: one interval {r0 r1 r2} fetched at the start
 * (LTRF: 3 registers; LTRF+: only r0 is live there).  3 instructions, 2 reads,
 * live registers 1, 1, 0.
 * Terms on 4 banks (g = 4/4 = 1 cycle per register), latency_x 3 (L = 3):
 * per operation L + 4 - 1 = 6, per register g = 1:
 *   LTRF  (1 x 6 + 3 x 1) / 3 = 3 cycles per instruction
 *   LTRF+ (1 x 6 + 1 x 1) / 3 = 7/3. */
static void straight_line(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = characterise(&fx, 16, false);
    assert_float_equal(pk.insts, 3, 1e-12);
    assert_float_equal(pk.pf_ops, 1, 1e-12);
    assert_float_equal(pk.pf_regs, 3, 1e-12);
    assert_float_equal(pk.act, 0, 1e-12);
    assert_float_equal(pk.reads, 2.0 / 3.0, 1e-12);
    assert_float_equal(pk.mean_live, 2.0 / 3.0, 1e-12);

    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    d.rf_config = 1;
    d.latency_x = 3;
    rf_pf_params p;
    rf_pf_params_default(&p);
    p.pf_reg = 1.0;     /* k_reg 1: the unloaded time (the default is 2) */
    rf_pf_terms t;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.latency, 3, 1e-12);
    assert_float_equal(t.stall_pf, 3, 1e-12);
    assert_float_equal(t.t_fetch, 9, 1e-12);    /* 6 + 3 registers x 1 */
    assert_float_equal(t.extra_stall, 3, 1e-12);
    assert_float_equal(t.extra_hold, 0, 1e-12);
    /* The default k_reg 2 (queueing on the fill crossbar):
     * (1 x 6 + 3 x 2) / 3 = 4. */
    rf_pf_params_default(&p);
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.stall_pf, 4, 1e-12);
    p.pf_reg = 1.0;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);

    pk = characterise(&fx, 16, true);
    assert_float_equal(pk.pf_regs, 1, 1e-12);
    d.plus = true;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.stall_pf, 7.0 / 3.0, 1e-12);

    /* Configuration #7's own latency (6.3x): (6.3 + 3) + 1 = 10.3 / 3. */
    d.latency_x = 0;
    d.rf_config = 7;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.stall_pf, 10.3 / 3.0, 1e-12);

    /* Designs without a register cache get nothing. */
    d.kind = RF_DESIGN_BASELINE;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.extra_stall, 0, 1e-12);
}

/* N = 2 cuts the code: interval 0 = I0 {r0 r1}, interval 1 = I1 and EXIT
 * {r1 r2}.  LTRF: the start fetches 2, the cut fetches r2 only (r1 stays):
 * 2 operations, 3 registers.  LTRF+: the start fetches r0 (live), the cut
 * nothing (r2 is written before it is read): 1 operation, 1 register. */
static void split_interval(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = characterise(&fx, 2, false);
    assert_float_equal(pk.pf_ops, 2, 1e-12);
    assert_float_equal(pk.pf_regs, 3, 1e-12);
    assert_float_equal(pk.mean_len, 1.5, 1e-12);   /* 3 instructions / 2 entries */
    pk = characterise(&fx, 2, true);
    assert_float_equal(pk.pf_ops, 1, 1e-12);
    assert_float_equal(pk.pf_regs, 1, 1e-12);
}

/* Dirty registers leaving at a PREFETCH: r1 = f(r0); r3 = f(r2); EXIT with
 * N = 2: interval 0 = I0 {r0 r1} (writes r1), interval 1 = I1 and EXIT
 * {r2 r3}.  The cut fetches r2 and r3 and evicts r0 and r1, of which r1 was
 * written in interval 0: pf_wb 1 (sampler/ltrf.c lt_gate's evict set).
 * Fetches: 2 at the start, 2 at the cut.  No pool exit: act_wb 0.  But
 * r1's result races the cut with no instruction of its interval left
 * (k = 0: never in time): it lands in the main file and leaves no dirty
 * copy, so pf_wb_late = 1 per 3 instructions and no write-back remains. */
static void dirty_evictions(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){2, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = characterise(&fx, 2, false);
    assert_float_equal(pk.pf_ops, 2, 1e-12);
    assert_float_equal(pk.pf_regs, 4, 1e-12);
    assert_float_equal(pk.pf_wb, 1, 1e-12);
    assert_float_equal(pk.act_wb, 0, 1e-12);
    assert_float_equal(pk.wr_race_pf[0][0], 1, 1e-12);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    d.rf_config = 1;
    rf_pf_params p;
    rf_pf_params_default(&p);
    rf_pf_terms t;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.pf_wb_late, 1.0 / 3.0, 1e-12);
}

/* r1 = load(r0); r2 = f(r1); EXIT: the load takes the warp out of the
 * active pool once; its re-entry refetches the working set {r0 r1 r2}
 * (LTRF+: r1, the only register live after the load).
 * LTRF at latency 1 on 4 banks: per operation 1 + 3 = 4, per register 1:
 *   (1 x 4 + 3) start + (1 x 4 + 3) activation = 14 / 3 per instruction. */
static void activation(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = characterise(&fx, 16, false);
    assert_float_equal(pk.act, 1, 1e-12);
    assert_float_equal(pk.act_regs, 3, 1e-12);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    d.rf_config = 1;
    rf_pf_params p;
    rf_pf_params_default(&p);
    p.pf_reg = 1.0;     /* k_reg 1: the unloaded time (the default is 2) */
    rf_pf_terms t;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.stall_act, 7.0 / 3.0, 1e-12);
    assert_float_equal(t.extra_stall, 14.0 / 3.0, 1e-12);
    /* Leaving the pool writes the partition back: {r0 r1 r2}, 3 registers
     * (LTRF+: the live r1). */
    assert_float_equal(pk.act_wb, 3, 1e-12);
    assert_float_equal(pk.pf_wb, 0, 1e-12);
    pk = characterise(&fx, 16, true);
    assert_float_equal(pk.act_regs, 1, 1e-12);
    assert_float_equal(pk.act_wb, 1, 1e-12);
    /* Two registers per interval: the load ends interval {r0 r1} and
     * r2 = f(r1) starts {r1 r2}; the warp resumes at that entry, whose
     * PREFETCH brings the registers: one activation, none refetched. */
    pk = characterise(&fx, 2, false);
    assert_float_equal(pk.act, 1, 1e-12);
    assert_float_equal(pk.act_regs, 0, 1e-12);
}

/* r8 = f(r0, r4); EXIT: the start fetches {r0 r4 r8}, all three on bank 0
 * of 4 (register mod 4): depth D = 3; on 32 banks (configuration #3,
 * 8 x 4) D = 1; on 2 banks D = 3 too (r0, r4, r8 are all even).
 * T = (D L + X - 1) + g n with L = 2, X = 4, g = 4/4 = 1, n = 3:
 *   #1 (4 banks):  (3 x 2 + 3) + 3 = 12 cycles; per instruction 12 / 2 = 6;
 *   #3 (32 banks): (1 x 2 + 3) + 3 = 8; per instruction 4. */
static void bank_depth(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){8, -1}, (int[]){0, 4, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = characterise(&fx, 16, false);
    assert_float_equal(pk.pf_ops, 1, 1e-12);
    assert_float_equal(pk.pf_regs, 3, 1e-12);
    assert_float_equal(pk.pf_depth[0], 3, 1e-12);    /* 1 bank */
    assert_float_equal(pk.pf_depth[1], 3, 1e-12);    /* 2 banks */
    assert_float_equal(pk.pf_depth[2], 3, 1e-12);    /* 4 banks */
    assert_float_equal(pk.pf_depth[3], 2, 1e-12);    /* 8: r0 r8 on 0, r4 on 4 */
    assert_float_equal(pk.pf_depth[4], 1, 1e-12);    /* 16 */
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    d.rf_config = 1;
    d.latency_x = 2;
    rf_pf_params p;
    rf_pf_params_default(&p);
    p.pf_reg = 1.0;     /* k_reg 1: the unloaded time (the default is 2) */
    rf_pf_terms t;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.t_fetch, 12, 1e-12);
    assert_float_equal(t.stall_pf, 6, 1e-12);
    d.rf_config = 3;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.t_fetch, 8, 1e-12);
    assert_float_equal(t.stall_pf, 4, 1e-12);
}

/* r2 = load(r0); r3 = load(r1); r4 = f(r2, r3); EXIT: the two loads issue
 * back to back and the warp leaves the pool once, at the first use (I2),
 * resuming there inside its interval: one exit, refetching {r0 .. r4}
 * (5 registers; LTRF+: r2 and r3, live at I2).  On 4 banks: r0 and r4 share
 * bank 0, depth 2.  At L = 1 the refetch holds (2 x 1 + 3) + 5 x 1 = 10
 * cycles: 10 / 4 per instruction.  A barrier is an exit resuming after it. */
static void grouped_exits(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){2, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){3, -1}, (int[]){1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){4, -1}, (int[]){2, 3, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = characterise(&fx, 16, false);
    assert_float_equal(pk.insts, 4, 1e-12);
    assert_float_equal(pk.act, 1, 1e-12);
    assert_float_equal(pk.act_ops, 1, 1e-12);
    assert_float_equal(pk.act_regs, 5, 1e-12);
    assert_float_equal(pk.act_depth[2], 2, 1e-12);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    d.rf_config = 1;
    rf_pf_params p;
    rf_pf_params_default(&p);
    p.pf_reg = 1.0;     /* k_reg 1: the unloaded time (the default is 2) */
    rf_pf_terms t;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.stall_act, 10.0 / 4.0, 1e-12);
    pk = characterise(&fx, 16, true);
    assert_float_equal(pk.act_regs, 2, 1e-12);

    /* r1 = f(r0); BAR; r2 = f(r1); EXIT: the barrier is the only exit;
     * the warp resumes after it in the same interval and refetches
     * {r0 r1 r2} (LTRF+: r1). */
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_BARRIER, (int[]){-1}, (int[]){-1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    pk = characterise(&fx, 16, false);
    assert_float_equal(pk.act, 1, 1e-12);
    assert_float_equal(pk.act_regs, 3, 1e-12);
    /* Leaving the pool writes the partition back: {r0 r1 r2}, 3 registers
     * (LTRF+: the live r1). */
    assert_float_equal(pk.act_wb, 3, 1e-12);
    assert_float_equal(pk.pf_wb, 0, 1e-12);
    pk = characterise(&fx, 16, true);
    assert_float_equal(pk.act_regs, 1, 1e-12);
    assert_float_equal(pk.act_wb, 1, 1e-12);
    /* CTAs of 4 warps: the last of the 4 to arrive passes the barrier in
     * the pool, so 3/4 of the exits happen: act 0.75, act_ops 0.75,
     * act_regs 3 x 0.75 = 2.25, act_wb 2.25, act_depth[2] (4 banks: r0,
     * r1, r2 on banks 0, 1, 2, one each) 0.75.  A second call changes
     * nothing; a 1-warp CTA never leaves at the barrier. */
    pk = characterise(&fx, 16, false);
    rf_pf_cta_warps(&pk, 4);
    assert_float_equal(pk.act, 0.75, 1e-12);
    assert_float_equal(pk.act_ops, 0.75, 1e-12);
    assert_float_equal(pk.act_regs, 2.25, 1e-12);
    assert_float_equal(pk.act_wb, 2.25, 1e-12);
    assert_float_equal(pk.act_depth[2], 0.75, 1e-12);
    rf_pf_cta_warps(&pk, 4);
    assert_float_equal(pk.act, 0.75, 1e-12);
    pk = characterise(&fx, 16, false);
    rf_pf_cta_warps(&pk, 1);
    assert_float_equal(pk.act, 0, 1e-12);
    assert_float_equal(pk.act_regs, 0, 1e-12);
    assert_float_equal(pk.act_wb, 0, 1e-12);
}

/* One sub-core's register cache of 16 lines. */
static void rfc_fixture(simfix *fx)
{
    simfix_init(fx);
    fx->gpu.rc_entries = 16;
    fx->gpu.subcores = 1;
}

/* The fixture's code characterised, with its RFC reuse profile. */
static rf_pf_kernel rfc_reuse(simfix *fx)
{
    rf_pf_kernel pk = characterise(fx, 16, false);
    rf_err err = {0};
    assert_int_equal(rf_pf_reuse(&fx->func, &fx->kernel.profile, &pk, &err), 0);
    return pk;
}

/* RFC of 16 lines, latency 3, on r1 = f(r0); r2 = f(r1); EXIT (2/3 reads
 * per instruction).  Reuse profile (one path, every walk alike): r0 is a
 * first touch (never a hit); r1 is read at LRU position 0 (r1 written just
 * before): reuse[0] = 0, reuse[c] = 1/2 for c >= 1; both writes are first
 * touches: reuse_w[c] = 0, so every result starts a dirty line (rfc_wb 1).
 *   pool 8:  per-warp share 16 / 8 = 2 lines, h = reuse[2] = 0.5;
 *            1 - 0.5^(2/3) = 0.3700395, collector hold x (3 - 1) = 0.740079
 *            (also the path's without the miss walk);
 *   pool 32: share 0.5, h = (reuse[0] + reuse[1]) / 2 = 0.25;
 *            1 - 0.25^(2/3) = 0.6031497, x 2 = 1.206299.
 * Miss walk (one warp alone, ALU latency 4: a result is ready 2 + 4 cycles
 * after issue): r1 = f(r0) issues at 0, r1 ready at 6; r2 = f(r1) at 1 waits
 * 5; EXIT reads nothing.  S_dep = 5 / 3; with results 2 cycles late (L - 1)
 * 7 / 3: dS_dep = 2/3.  Path at pool 8: 0.3700395 x 2/3 = 0.246693.  At
 * latency_x 3.5 the delay 2.5 mixes delays 2 and 3 half and half:
 * (7/3 + 8/3) / 2 - 5/3 = 2.5/3. */
static void rfc_terms(void **state)
{
    (void)state;
    simfix fx;
    rfc_fixture(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = rfc_reuse(&fx);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_RFC;
    d.rf_config = 1;
    d.latency_x = 3;
    rf_pf_params p;
    rf_pf_params_default(&p);
    rf_pf_terms t;
    assert_float_equal(pk.reuse[0], 0.0, 1e-12);
    assert_float_equal(pk.reuse[1], 0.5, 1e-12);
    assert_float_equal(pk.reuse[RF_PF_REUSE], 0.5, 1e-12);
    assert_float_equal(pk.reuse_w[RF_PF_REUSE], 0.0, 1e-12);
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.rfc_hit, 0.5, 1e-12);
    assert_float_equal(t.rfc_wb, 1.0, 1e-12);
    assert_float_equal(t.extra_hold, 0.740079, 1e-6);
    assert_float_equal(t.stall_rfc, t.extra_hold, 1e-12);
    rf_pf_terms_of(&fx.gpu, &d, &pk, 32, &p, &t);
    assert_float_equal(t.rfc_hit, 0.25, 1e-12);
    assert_float_equal(t.extra_hold, 1.206299, 1e-6);
    /* The miss walk: only the late results' dependants wait on the path. */
    rf_err err = {0};
    assert_int_equal(rf_pf_rfc_walks(&fx.gpu, &d, &fx.func, &fx.kernel.profile, 1, 1, &pk, &err),
                     0);
    assert_float_equal(pk.miss_delay, 2.0, 1e-12);
    assert_float_equal(pk.miss_dep, 2.0 / 3.0, 1e-9);
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.extra_hold, 0.740079, 1e-6);
    assert_float_equal(t.stall_rfc, 0.246693, 1e-6);
    assert_float_equal(t.extra_stall, t.stall_rfc, 1e-12);
    d.latency_x = 3.5;
    assert_int_equal(rf_pf_rfc_walks(&fx.gpu, &d, &fx.func, &fx.kernel.profile, 1, 1, &pk, &err),
                     0);
    assert_float_equal(pk.miss_delay, 2.5, 1e-12);
    assert_float_equal(pk.miss_dep, 2.5 / 3.0, 1e-9);
    /* At 1x a miss costs what a bank read costs. */
    d.latency_x = 1;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 32, &p, &t);
    assert_float_equal(t.extra_stall, 0, 1e-12);
}

/* rf_pf_rfc_walks on 1 and 3 threads: the same figures to the bit, at
 * latency_x 3.5 (three miss walks: delays 0, 2, 3) and at 3 (two); its
 * reuse profile is rf_pf_reuse's.  Values as rfc_terms: miss_dep 2.5 / 3
 * and 2 / 3, reuse[1] 0.5. */
static void rfc_walks_threads(void **state)
{
    (void)state;
    simfix fx;
    rfc_fixture(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_RFC;
    d.rf_config = 1;
    const double lat[2] = {3.5, 3}, dep[2] = {2.5 / 3.0, 2.0 / 3.0};
    rf_pf_kernel reuse = characterise(&fx, 16, false);
    rf_err err = {0};
    assert_int_equal(rf_pf_reuse(&fx.func, &fx.kernel.profile, &reuse, &err), 0);
    for (int l = 0; l < 2; l++) {
        d.latency_x = lat[l];
        rf_pf_kernel one = characterise(&fx, 16, false), three = one;
        assert_int_equal(rf_pf_rfc_walks(&fx.gpu, &d, &fx.func, &fx.kernel.profile, 1, 1, &one,
                                         &err),
                         0);
        assert_int_equal(rf_pf_rfc_walks(&fx.gpu, &d, &fx.func, &fx.kernel.profile, 1, 3, &three,
                                         &err),
                         0);
        assert_memory_equal(&one, &three, sizeof one);
        assert_memory_equal(one.reuse, reuse.reuse, sizeof one.reuse);
        assert_float_equal(one.reuse[1], 0.5, 1e-12);
        assert_float_equal(one.miss_dep, dep[l], 1e-9);
    }
}

/* RFC reuses across a pool exit.  r1 = ld [r0]; r2 = f(r1, r0); r3 = f(r2);
 * EXIT: the first use of r1 takes the warp out of the pool before the
 * second instruction.  Reads: r0 (first touch), then r1 at LRU position 0
 * and r0 at 1 (both touched before the exit: spanning), then r2 at 0
 * (written after it).  4 reads: reuse[1] = 2/4, reuse[2] = 3/4;
 * reuse_span[1] = 1/4, reuse_span[2] = 2/4.
 * 16 lines, W = 16 (pool argument), W_pool = 8: C / W = 1, C / W_pool = 2:
 *   h = reuse[2] - span[2] + span[1] = 3/4 - 2/4 + 1/4 = 1/2
 * (single W: reuse[1] = 1/2 too; with W = 32, C / W = 0.5: span 1/8,
 * reuse 1/4: h = 1/4 + 1/8 = 3/8 against the single W's 1/4). */
static void rfc_span(void **state)
{
    (void)state;
    simfix fx;
    rfc_fixture(&fx);
    simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){1, 0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){3, -1}, (int[]){2, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = rfc_reuse(&fx);
    assert_float_equal(pk.reuse[1], 0.5, 1e-12);
    assert_float_equal(pk.reuse[2], 0.75, 1e-12);
    assert_float_equal(pk.reuse_span[1], 0.25, 1e-12);
    assert_float_equal(pk.reuse_span[2], 0.5, 1e-12);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_RFC;
    d.rf_config = 1;
    d.latency_x = 3;
    rf_pf_params p;
    rf_pf_params_default(&p);
    rf_pf_terms t;
    pk.pool_in = 8;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 16, &p, &t);
    assert_float_equal(t.rfc_hit, 0.5, 1e-12);
    rf_pf_terms_of(&fx.gpu, &d, &pk, 32, &p, &t);
    assert_float_equal(t.rfc_hit, 0.375, 1e-12);
    pk.pool_in = 0;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 32, &p, &t);
    assert_float_equal(t.rfc_hit, 0.25, 1e-12);
}

/* RFC results land at write-back, not at issue (analytic/prefetch.c,
 * PF_LAND = 3 of the warp's instructions, or before a reader).  Six ALU
 * instructions: r1 = f(r0); r2 = f(r3); r4 = f(r1); r5 = f(r3);
 * r6 = f(r3); r7 = f(r2).  Stack (top first) before each read:
 *   i0 reads r0, i1 reads r3: first touches; r1 and r2 pending (due 3, 4);
 *   i2 reads r1: r1 lands first (its reader), [r1 r3 r0]: position 0;
 *   i3 reads r3: [r1 r3 r0], position 1 (r2 not due until 4);
 *   i4: r2 lands (due 4), [r2 r3 r1 r0]; r3 at position 1;
 *   i5: r4 lands (due 5), [r4 r3 r2 r1 r0]; r2 at position 2.
 * 6 reads: reuse[1] = 1/6, reuse[2] = 3/6, reuse[3] = reuse[max] = 4/6.
 * (Writes at issue would give r1 position 2, r3 3 and 1, r2 5: reuse[2]
 * = 1/6.)  Every result lands on a first touch: reuse_w = 0. */
static void rfc_results_land_late(void **state)
{
    (void)state;
    simfix fx;
    rfc_fixture(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){3, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){4, -1}, (int[]){1, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){5, -1}, (int[]){3, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){6, -1}, (int[]){3, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){7, -1}, (int[]){2, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = rfc_reuse(&fx);
    assert_float_equal(pk.reuse[1], 1.0 / 6, 1e-12);
    assert_float_equal(pk.reuse[2], 3.0 / 6, 1e-12);
    assert_float_equal(pk.reuse[3], 4.0 / 6, 1e-12);
    assert_float_equal(pk.reuse[RF_PF_REUSE], 4.0 / 6, 1e-12);
    assert_float_equal(pk.reuse_w[RF_PF_REUSE], 0.0, 1e-12);
}

/* RFC collector hold per unit class.  r1 = f(r0) (ALU); r2 = ld.shared
 * [r1] (LD/ST); EXIT.  The ALU reads r0, a first touch: reuse_u[ALU][c] = 0;
 * the load reads r1, written just before (LRU position 0): reuse_u[LD/ST]
 * [c] = 1 for c >= 1; one read per instruction of each; no SFU
 * instruction (profile 1: no reads to miss).  Overall reuse[c >= 1] = 1/2
 * over 2 reads in 3 instructions, as in rfc_terms.
 * 16 lines, pool 8: 2 lines per warp; L - 1 = 2 at latency_x 3:
 *   ALU:   2 x (1 - 0^1) = 2
 *   LD/ST: 2 x (1 - 1^1) = 0
 *   SFU:   0
 *   mean (extra_hold): 2 x (1 - 0.5^(2/3)) = 0.740079.
 * At pool 32 (0.5 lines per warp) the load's reuse is 1/2:
 *   LD/ST: 2 x (1 - 0.5) = 1. */
static void rfc_class_hold(void **state)
{
    (void)state;
    simfix fx;
    rfc_fixture(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_LD_SHARED, (int[]){2, -1}, (int[]){1, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = rfc_reuse(&fx);
    assert_float_equal(pk.reuse_u[0][RF_PF_REUSE], 0.0, 1e-12);
    assert_float_equal(pk.reuse_u[2][1], 1.0, 1e-12);
    assert_float_equal(pk.reads_u[0], 1.0, 1e-12);
    assert_float_equal(pk.reads_u[1], 0.0, 1e-12);
    assert_float_equal(pk.reads_u[2], 1.0, 1e-12);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_RFC;
    d.rf_config = 1;
    d.latency_x = 3;
    rf_pf_params p;
    rf_pf_params_default(&p);
    rf_pf_terms t;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.class_hold[0], 2.0, 1e-12);
    assert_float_equal(t.class_hold[1], 0.0, 1e-12);
    assert_float_equal(t.class_hold[2], 0.0, 1e-12);
    assert_float_equal(t.extra_hold, 0.740079, 1e-6);
    rf_pf_terms_of(&fx.gpu, &d, &pk, 32, &p, &t);
    assert_float_equal(t.class_hold[2], 1.0, 1e-12);
}

/* Eight ALU instructions, r8..r15 written from r0..r7 and the previous
 * result, in 64 CTAs of 256 threads, characterised on GPU `name`. */
static void eight_alu(simfix *fx, const char *name, rf_gpu *gpu, rf_ipc_kernel *kc)
{
    simfix_init(fx);
    fx->kernel.launch.grid[0] = 64;
    fx->kernel.launch.block[0] = 256;
    for (int i = 0; i < 8; i++)
        simfix_add(fx, RF_OC_ALU, (int[]){8 + i, -1}, (int[]){i, 8 + (i + 7) % 8, -1});
    simfix_finish(fx);
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset(name, gpu, &err), 0);
    assert_int_equal(rf_kchar_func(gpu, &fx->func, &fx->kernel.profile, 256, kc, &err), 0);
}

/* The estimate uses the terms: LTRF's IPC falls as the main file slows, RFC
 * at 1x equals its no-miss-cost estimate, and a kernel without code is an
 * error for these designs. */
static void estimate_hook(void **state)
{
    (void)state;
    simfix fx;
    rf_gpu gpu;
    rf_ipc_kernel kc;
    rf_err err = {0};
    eight_alu(&fx, "maxwell-ltrf", &gpu, &kc);
    rf_shape shape = {32, 256, 0, 64, 1};
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    d.rf_config = 1;
    rf_estimate e1, e8;
    d.latency_x = 1;
    assert_int_equal(rf_extrap_estimate(&gpu, &d, &kc, &shape, NULL, &e1, &err), 0);
    d.latency_x = 8;
    assert_int_equal(rf_extrap_estimate(&gpu, &d, &kc, &shape, NULL, &e8, &err), 0);
    assert_true(e8.ipc < e1.ipc && e8.ipc > 0);
    kc.func = NULL;
    assert_int_equal(rf_extrap_estimate(&gpu, &d, &kc, &shape, NULL, &e8, &err), RF_EUSAGE);
}

/* The warps that share a register cache are the run's resident ones: a
 * grid of one CTA (256 threads, 8 warps) on an SM that holds 8 such CTAs
 * shares it among 8 warps, not 64.  HI-RF, fully associative (volta-hirf),
 * on a characterisation without per-register write counts (rf_kchar_func:
 * the model's 16 registers of equal writes, analytic/rccollide.c): the
 * cache's pairs are 8 warps x 16 = 128 for one CTA and 64 x 16 = 1024 for
 * 64 CTAs (8 resident). */
static void sharing_warps_of_a_small_grid(void **state)
{
    (void)state;
    simfix fx;
    rf_gpu gpu;
    rf_ipc_kernel kc;
    rf_err err = {0};
    eight_alu(&fx, "volta-hirf", &gpu, &kc);
    kc.live_frac = 1.0;
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_HIRF;
    d.index = RF_RC_FULL;
    rf_shape one = {32, 256, 0, 1, 1}, many = {32, 256, 0, 64, 1};
    rf_estimate e1, e64;
    assert_int_equal(rf_extrap_estimate(&gpu, &d, &kc, &one, NULL, &e1, &err), 0);
    assert_int_equal(rf_extrap_estimate(&gpu, &d, &kc, &many, NULL, &e64, &err), 0);
    assert_int_equal(e1.occ.ctas_per_sm, 8);
    assert_int_equal(e1.rc.pairs, 128);
    assert_int_equal(e64.rc.pairs, 1024);
}

/* LTRF write race (analytic/prefetch.c header).  r1 = f(r0); r2 = f(r0)
 * (ALU); r3 = sfu(r2); EXIT with N = 2 gives the intervals {r0 r1} (I0),
 * {r0 r2} (I1), {r2 r3} (I2 and EXIT).  Results:
 *   I0's r1: the next instruction opens {r0 r2}, which lacks r1, and no
 *     instruction of I0's interval is left: k = 0, always late;
 *   I1's r2: the next interval {r2 r3} holds r2: safe;
 *   I2's r3 (SFU): EXIT is left in the interval: k = 1, in time when no
 *     issue falls in its 2 + 8 cycles (simfix: sfu_latency 8), g = 5:
 *     P(X <= 0) = exp(-10 / 5) = exp(-2).
 * The cache's share: (1 + 0 + exp(-2)) / 3 = 0.378445094412204; RFC and
 * other designs keep 1. */
static void write_race(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    simfix_add(&fx, RF_OC_ALU, (int[]){1, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){2, -1}, (int[]){0, -1});
    simfix_add(&fx, RF_OC_SFU, (int[]){3, -1}, (int[]){2, -1});
    simfix_finish(&fx);
    rf_pf_kernel pk = characterise(&fx, 2, false);
    assert_float_equal(pk.writes, 3, 1e-12);
    assert_float_equal(pk.wr_safe, 1, 1e-12);
    assert_float_equal(pk.wr_race[0][0], 1, 1e-12);     /* ALU, k = 0 */
    assert_float_equal(pk.wr_race[1][1], 1, 1e-12);     /* SFU, k = 1 */
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    d.rf_config = 1;
    d.interval_regs = 2;
    rf_pf_params p;
    rf_pf_params_default(&p);
    rf_pf_terms t;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.cache_writes, (1.0 + exp(-2.0)) / 3.0, 1e-12);
    assert_float_equal(t.cache_writes, 0.378445094412204, 1e-12);
    d.kind = RF_DESIGN_RFC;
    rf_pf_terms_of(&fx.gpu, &d, &pk, 8, &p, &t);
    assert_float_equal(t.cache_writes, 1, 1e-12);
}

/* ltrf_conflict scales LTRF's cache-bank queue only: an RFC estimate does
 * not move with it, an LTRF estimate falls as it grows (the kernel of
 * estimate_hook reads two registers per instruction on 16 banks). */
static void ltrf_conflict_scope(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.kernel.launch.grid[0] = 64;
    fx.kernel.launch.block[0] = 256;
    for (int i = 0; i < 8; i++)
        simfix_add(&fx, RF_OC_ALU, (int[]){8 + i, -1}, (int[]){i, 8 + (i + 7) % 8, -1});
    simfix_finish(&fx);
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("maxwell-ltrf", &gpu, &err), 0);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_func(&gpu, &fx.func, &fx.kernel.profile, 256, &kc, &err), 0);
    rf_shape shape = {32, 256, 0, 64, 1};
    rf_calib cal;
    rf_calib_init(&cal, gpu.name, "k");
    rf_design d;
    rf_design_init(&d);
    d.rf_config = 1;
    rf_estimate a, b;
    for (int kind = 0; kind < 2; kind++) {
        d.kind = kind ? RF_DESIGN_LTRF : RF_DESIGN_RFC;
        cal.params.pf.ltrf_conflict = 1.0;
        assert_int_equal(rf_extrap_estimate(&gpu, &d, &kc, &shape, &cal, &a, &err), 0);
        cal.params.pf.ltrf_conflict = 4.0;
        assert_int_equal(rf_extrap_estimate(&gpu, &d, &kc, &shape, &cal, &b, &err), 0);
        if (kind)
            assert_true(b.ipc < a.ipc);
        else
            assert_float_equal(b.ipc, a.ipc, 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(straight_line),
        cmocka_unit_test(split_interval),
        cmocka_unit_test(dirty_evictions),
        cmocka_unit_test(activation),
        cmocka_unit_test(bank_depth),
        cmocka_unit_test(grouped_exits),
        cmocka_unit_test(rfc_terms),
        cmocka_unit_test(rfc_span),
        cmocka_unit_test(rfc_results_land_late),
        cmocka_unit_test(rfc_class_hold),
        cmocka_unit_test(rfc_walks_threads),
        cmocka_unit_test(estimate_hook),
        cmocka_unit_test(sharing_warps_of_a_small_grid),
        cmocka_unit_test(write_race),
        cmocka_unit_test(ltrf_conflict_scope),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
