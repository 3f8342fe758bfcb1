/* test_sim_run.c - whole-run properties of the sampler on a synthetic loop
 * kernel (global/shared loads, SFU, store, barrier, loop back edge):
 * invariants for every scheduler and stealing mode, determinism, event
 * skipping equivalence, exact windows, skip_ctas, several SMs, watchdog. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/kchar.h"
#include "../sampler/sim_internal.h"
#include "support/simfix.h"

/* 12 CTAs of 256 threads (8 warps), 3 resident; loop taken 5 times on average. */
static void loop_kernel(simfix *fx)
{
    simfix_init(fx);
    fx->gpu.rf_banks = 8;
    fx->kernel.launch.grid[0] = 12;
    fx->kernel.launch.block[0] = 256;
    fx->kernel.profile.trip = 5;
    fx->kernel.profile.l1_hit = 0.3;
    fx->kernel.profile.l2_hit = 0.5;
    fx->opts.ctas_per_sm = 3;
    fx->opts.bank_map = RF_BANK_MAP_SWIZZLE;
    simfix_add(fx, RF_OC_LD_GLOBAL, (int[]){1, -1}, (int[]){2, 3, -1});
    simfix_add(fx, RF_OC_ALU, (int[]){4, -1}, (int[]){1, 5, -1});
    simfix_add(fx, RF_OC_SFU, (int[]){6, -1}, (int[]){4, -1});
    simfix_add(fx, RF_OC_LD_SHARED, (int[]){7, -1}, (int[]){8, -1});
    simfix_add(fx, RF_OC_ALU, (int[]){9, -1}, (int[]){7, 6, 10, -1});
    simfix_add(fx, RF_OC_ALU, (int[]){11, -1}, (int[]){9, 11, 12, -1});
    simfix_add(fx, RF_OC_ST_GLOBAL, NULL, (int[]){2, 3, 9, -1});
    simfix_add(fx, RF_OC_BARRIER, NULL, NULL);
    simfix_add(fx, RF_OC_ALU, (int[]){RF_PRED_BASE, -1}, (int[]){11, 13, -1});
    simfix_finish_loop(fx, RF_PRED_BASE);
}

static int run_rc(simfix *fx, rf_sim_stats *st, rf_err *err)
{
    return rf_sim_run(&fx->gpu, &fx->design, &fx->kernel, &fx->opts, st, err);
}

static rf_sim_stats run(simfix *fx)
{
    rf_sim_stats st;
    rf_err err = {0};
    int rc = run_rc(fx, &st, &err);
    if (rc != 0)
        print_error("rf_sim_run: %s\n", err.msg);
    assert_int_equal(rc, 0);
    return st;
}

static void invariants(void **state)
{
    (void)state;
    for (int pol = 0; pol < 3; pol++)
        for (int mode = 0; mode < 8; mode++) {
            simfix fx;
            loop_kernel(&fx);
            fx.opts.typed_collectors = mode & 4;
            fx.design.scheduler = pol + 1;
            fx.design.kind = mode & 3 ? RF_DESIGN_STEALING : RF_DESIGN_BASELINE;
            fx.design.read_steal = mode & 1;
            fx.design.write_steal = mode & 2;
            fx.opts.active_warps = 4;
            rf_sim_stats st = run(&fx);
            assert_int_equal(st.chk_issued, st.chk_retired);
            assert_int_equal(st.chk_issued, st.warp_insts);
            assert_int_equal(st.chk_bank_overuse, 0);
            assert_int_equal(st.ctas_done, 12);
            /* Every scheduler-cycle either issued or is charged one stall. */
            uint64_t stalls = st.stall_no_warp + st.stall_scoreboard + st.stall_collector +
                              st.stall_bank + st.stall_memory;
            assert_int_equal(stalls + st.chk_issued, 2 * st.cycles);
            /* Every register result is written back exactly once (3 of the 4 ALU
             * instructions per iteration write a general register). */
            uint64_t results = st.insts_by_class[RF_OC_LD_GLOBAL] + st.insts_by_class[RF_OC_SFU] +
                               st.insts_by_class[RF_OC_LD_SHARED] +
                               st.insts_by_class[RF_OC_ALU] - st.insts_by_class[RF_OC_ALU] / 4;
            assert_int_equal(st.wb_normal + st.wb_stolen_fast + st.wb_stolen_late + st.wb_forced,
                             results);
            assert_int_equal(st.bank_writes, results + st.stolen_writes);
            assert_int_equal(st.bank_reads, st.operand_reads + st.stolen_writes);
            assert_true(st.bank_util > 0 && st.bank_util < 1);
            if (mode & 2)
                assert_true(st.stolen_writes > 0);
            if (mode & 1)
                assert_true(st.stolen_reads > 0);
        }
}

static void deterministic(void **state)
{
    (void)state;
    simfix fx;
    loop_kernel(&fx);
    fx.design.kind = RF_DESIGN_STEALING;
    fx.design.read_steal = fx.design.write_steal = true;
    rf_sim_stats a = run(&fx), b = run(&fx);
    assert_memory_equal(&a, &b, sizeof a);
    fx.opts.seed = 99;
    rf_sim_stats c = run(&fx);
    assert_true(c.cycles != a.cycles || c.warp_insts != a.warp_insts);
}

/* Jumping over idle stretches gives the same statistics as stepping. */
static void skipping_is_exact(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        simfix fx;
        loop_kernel(&fx);
        fx.design.kind = mode ? RF_DESIGN_STEALING : RF_DESIGN_BASELINE;
        fx.design.read_steal = fx.design.write_steal = true;
        fx.kernel.profile.l1_hit = 0;
        fx.kernel.profile.l2_hit = 0;
        rf_sim_stats a = run(&fx);
        fx.opts.no_skip = true;
        rf_sim_stats b = run(&fx);
        assert_true(a.skipped_cycles > 0);
        assert_int_equal(b.skipped_cycles, 0);
        a.skipped_cycles = 0;
        assert_memory_equal(&a, &b, sizeof a);
    }
}

/* Window [0, X) plus window [X, end) add up to the whole run. */
static void windows_add_up(void **state)
{
    (void)state;
    simfix fx;
    loop_kernel(&fx);
    rf_sim_stats all = run(&fx);
    uint64_t x = all.cycles / 3;
    fx.opts.cycles = x;
    rf_sim_stats w1 = run(&fx);
    fx.opts.cycles = 0;
    fx.opts.warmup = x;
    rf_sim_stats w2 = run(&fx);
    assert_int_equal(w1.cycles, x);
    assert_int_equal(w2.cycles, all.cycles - x);
    assert_int_equal(w1.warp_insts + w2.warp_insts, all.warp_insts);
    assert_int_equal(w1.bank_reads + w2.bank_reads, all.bank_reads);
    assert_int_equal(w1.stall_memory + w2.stall_memory, all.stall_memory);
    assert_int_equal(w1.ctas_done + w2.ctas_done, 12);
    /* A window past the end of the grid is cut at the end. */
    fx.opts.warmup = 0;
    fx.opts.cycles = all.cycles * 2;
    rf_sim_stats w3 = run(&fx);
    assert_int_equal(w3.cycles, all.cycles);
}

static void skip_ctas_and_sms(void **state)
{
    (void)state;
    simfix fx;
    loop_kernel(&fx);
    rf_sim_stats all = run(&fx);
    fx.opts.skip_ctas = 6;
    rf_sim_stats half = run(&fx);
    assert_int_equal(half.ctas_done, 6);
    assert_true(half.warp_insts < all.warp_insts);
    fx.opts.skip_ctas = 0;
    fx.opts.sms = 2;
    rf_sim_stats two = run(&fx);
    assert_int_equal(two.ctas_done, 12);
    assert_int_equal(two.chk_issued, two.chk_retired);
    assert_true(two.cycles < all.cycles);
}

/* Warp instructions of grid CTA c walked alone with the sampler's draws of
 * seed 1 (analytic/kchar.c, the walk calibration replays windows with). */
static double cta_insts(simfix *fx, long c)
{
    rf_ctaset *cs = NULL;
    rf_err err = {0};
    assert_int_equal(rf_kchar_ctaset(&fx->gpu, &fx->func, &fx->kernel.profile, 8, c, 1, 1, 1,
                                     &cs, &err),
                     RF_OK);
    double n = 0;
    for (size_t i = 0; i < rf_ctaset_nrows(cs); i++)
        n += cs->insts[i];
    rf_kchar_ctaset_free(cs);
    return n;
}

/* The busiest SM's share of a grid spread over SMs (inputs/kernel.h):
 * 12 CTAs over 5 SMs deal CTAs 0, 5, 10 to SM 0 (ceil(12 / 5) = 3), so the
 * share runs 3 CTAs whose loop trips (drawn per CTA: the body holds a
 * barrier) are those of grid CTAs 0, 5 and 10, the CTAs the strided walk
 * replays. */
static void busiest_sm_share(void **state)
{
    (void)state;
    simfix fx;
    loop_kernel(&fx);
    fx.opts.seed = 1;
    rf_kernel_spread(&fx.kernel, 5);
    assert_int_equal(rf_kernel_ctas(&fx.kernel), 3);
    assert_int_equal(rf_kernel_grid_ctas(&fx.kernel), 12);
    rf_sim_stats st = run(&fx);
    assert_int_equal(st.ctas_done, 3);
    double want = cta_insts(&fx, 0) + cta_insts(&fx, 5) + cta_insts(&fx, 10);
    assert_float_equal((double)st.warp_insts, want, 0.0);
    /* Not the grid's first three CTAs: their trips differ. */
    double first3 = cta_insts(&fx, 0) + cta_insts(&fx, 1) + cta_insts(&fx, 2);
    assert_true(first3 != want);
    rf_ctaset *cs = NULL;
    rf_err err = {0};
    assert_int_equal(rf_kchar_ctaset(&fx.gpu, &fx.func, &fx.kernel.profile, 8, 0, 3, 5, 1, &cs,
                                     &err),
                     RF_OK);
    double strided = 0;
    for (size_t i = 0; i < rf_ctaset_nrows(cs); i++)
        strided += cs->insts[i];
    rf_kchar_ctaset_free(cs);
    assert_float_equal(strided, want, 0.0);
    /* The share's critical CTAs (analytic/kchar.c): found from the end, so
     * the last CTA (position 2) always, and each earlier one kept longer
     * than every later one. */
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&fx.gpu, &fx.kernel, &kc, &err), RF_OK);
    assert_int_equal(kc.crit_ctas, 3);
    assert_true(kc.ncrit >= 1 && kc.ncrit <= 3);
    assert_int_equal(kc.crit_pos[kc.ncrit - 1], 2);
    for (int i = 1; i < kc.ncrit; i++) {
        assert_true(kc.crit_pos[i] > kc.crit_pos[i - 1]);
        assert_true(kc.crit_cycles[i] < kc.crit_cycles[i - 1]);
    }
    /* Spread over 1 SM: the whole grid. */
    rf_kernel_spread(&fx.kernel, 1);
    assert_int_equal(run(&fx).ctas_done, 12);
}

static void watchdog(void **state)
{
    (void)state;
    simfix fx;
    loop_kernel(&fx);
    fx.kernel.profile.l1_hit = 0;
    fx.kernel.profile.l2_hit = 0;
    fx.opts.watchdog = 20;              /* DRAM latency is 200 cycles */
    rf_sim_stats st;
    rf_err err = {0};
    assert_int_equal(run_rc(&fx, &st, &err), RF_EWATCHDOG);
    assert_non_null(strstr(err.msg, "no instruction retired for 20 cycles"));
}

/* Throughput bounds.  ALU: 2 schedulers x 1 issue, two ALU pipes of II 1:
 * a loop of independent ALU instructions over many warps approaches 2 warp
 * instructions per cycle.  DRAM: a loop of coalesced loads that all miss
 * (128 bytes each at 64 bytes/cycle) cannot exceed 0.5 loads per cycle; with
 * eight independent loads per iteration and 32 warps, enough are in flight
 * (200 cycles x 64 bytes/cycle = 100 loads) to come close to that bound. */
static void throughput_bounds(void **state)
{
    (void)state;
    simfix fx;
    simfix_init(&fx);
    fx.gpu.rf_banks = 16;
    fx.kernel.launch.grid[0] = 16;
    fx.kernel.launch.block[0] = 256;
    fx.kernel.profile.trip = 200;
    fx.opts.ctas_per_sm = 4;
    fx.opts.bank_map = RF_BANK_MAP_SWIZZLE;
    for (int i = 0; i < 6; i++)
        simfix_add(&fx, RF_OC_ALU, (int[]){10 + i, -1}, (int[]){i, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){RF_PRED_BASE, -1}, (int[]){20, -1});
    simfix_finish_loop(&fx, RF_PRED_BASE);
    rf_sim_stats st = run(&fx);
    assert_true(st.ipc > 1.9 && st.ipc <= 2.0);

    simfix_init(&fx);
    fx.kernel.launch.grid[0] = 16;
    fx.kernel.launch.block[0] = 256;
    fx.kernel.profile.trip = 50;
    fx.opts.ctas_per_sm = 4;
    fx.opts.warmup = 2000;            /* steady state, before CTAs drain */
    fx.opts.cycles = 10000;
    for (int i = 0; i < 8; i++)
        simfix_add(&fx, RF_OC_LD_GLOBAL, (int[]){30 + i, -1}, (int[]){2, 3, -1});
    simfix_add(&fx, RF_OC_ALU, (int[]){RF_PRED_BASE, -1}, (int[]){20, -1});
    simfix_finish_loop(&fx, RF_PRED_BASE);
    st = run(&fx);
    double loads = (double)st.insts_by_class[RF_OC_LD_GLOBAL] / (double)st.cycles;
    assert_true(loads <= 0.5 + 1e-9 && loads > 0.45);
    assert_true(st.stall_memory > st.stall_scoreboard);
}

static void bad_input(void **state)
{
    (void)state;
    simfix fx;
    loop_kernel(&fx);
    fx.design.banks = 100;
    rf_sim_stats st;
    rf_err err = {0};
    assert_int_equal(run_rc(&fx, &st, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "banks"));
    loop_kernel(&fx);
    fx.func.physical = false;
    assert_int_equal(run_rc(&fx, &st, &err), RF_EUSAGE);
}

/* A loop of trip count t = 2^25 takes its back edge with p = (t - 1) / t
 * (inputs/tripcount.c).  As a float, 1 - 2^-25 rounds to 1 (24-bit
 * significand), and the loop would never exit; the prepared branch keeps
 * the probability as given, below 1. */
static void long_trip_probability(void **state)
{
    (void)state;
    simfix fx;
    loop_kernel(&fx);
    double t = 33554432.0;              /* 2^25 */
    fx.blocks[1].has_taken = true;
    fx.blocks[1].taken_p = (t - 1) / t;
    sim_prog p;
    rf_err err = {0};
    assert_int_equal(sim_prog_build(&p, &fx.func, &fx.gpu, 32, fx.gpu.rf_banks, &err), 0);
    int br = fx.blocks[1].first + fx.blocks[1].ninsts - 1;
    assert_int_equal(p.insts[br].br, SIM_BR_LOOP);
    assert_true(p.insts[br].p_taken < 1.0);
    assert_true(p.insts[br].p_taken == (t - 1) / t);
    sim_prog_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_trip_probability),
        cmocka_unit_test(invariants),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(skipping_is_exact),
        cmocka_unit_test(windows_add_up),
        cmocka_unit_test(skip_ctas_and_sms),
        cmocka_unit_test(busiest_sm_share),
        cmocka_unit_test(watchdog),
        cmocka_unit_test(throughput_bounds),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
