/* test_waves.c - the CTA population model (analytic/waves.c) on hand-made
 * CTA samples, values worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/waves.h"
#include "support/ctaset.h"

static void free_set(rf_ctaset *cs)
{
    rf_kchar_ctaset_free(cs);
}

static const double latency_bound[3] = {0, 1, 2};  /* IPC(a) = a */
static const double issue_bound[3] = {0, 1, 1};    /* IPC(a) = 1 */

static void latency_bound_cta(void **state)
{
    (void)state;
    /* Warps of 10 and 20 lone cycles, each at lone speed: the CTA ends at
     * 20 with 30 instructions: IPC 1.5. */
    const float t[2][2] = {{10, 0}, {20, 0}};
    rf_ctaset *cs = ctaset_two_warps(1, 1, t);
    rf_waves_run run = {.resident = 1, .ctas = 1};
    rf_waves_out o;
    assert_int_equal(rf_waves_sim(cs, latency_bound, 0, &run, &o), 0);
    assert_float_equal(o.cycles, 20, 1e-9);
    assert_float_equal(o.ipc, 1.5, 1e-9);
    /* Window [5, 15): 2 per cycle until 10, then 1: 15 instructions. */
    rf_waves_run win = {.resident = 1, .ctas = 1, .t_start = 5, .t_end = 15};
    assert_int_equal(rf_waves_sim(cs, latency_bound, 0, &win, &o), 0);
    assert_float_equal(o.insts, 15, 1e-9);
    assert_float_equal(o.ipc, 1.5, 1e-9);
    free_set(cs);
}

static void issue_bound_sharing(void **state)
{
    (void)state;
    /* One instruction per cycle for the SM.  Equal share: both warps at
     * half speed until the short one ends at 20, the other then alone:
     * 10 more cycles: 30.  Oldest first: warp 0 alone to 10, warp 1 to 30.
     * Both retire 30 instructions in 30 cycles. */
    const float t[2][2] = {{10, 0}, {20, 0}};
    rf_ctaset *cs = ctaset_two_warps(1, 1, t);
    rf_waves_out o;
    rf_waves_run eq = {.resident = 1, .ctas = 1};
    assert_int_equal(rf_waves_sim(cs, issue_bound, 0, &eq, &o), 0);
    assert_float_equal(o.cycles, 30, 1e-9);
    assert_float_equal(o.ipc, 1.0, 1e-9);
    /* Window [0, 10): equal share retires 10; so does oldest first. */
    rf_waves_run w1 = {.resident = 1, .ctas = 1, .t_end = 10};
    rf_waves_run w2 = {.resident = 1, .ctas = 1, .t_end = 10, .oldest_first = 1.0};
    assert_int_equal(rf_waves_sim(cs, issue_bound, 0, &w1, &o), 0);
    assert_float_equal(o.insts, 10, 1e-9);
    /* Mean issuing warps over [0, 10): 2 with equal share, 2 with oldest
     * first too (the young warp is issuing but gets no slots). */
    assert_float_equal(o.mean_active, 2, 1e-9);
    assert_int_equal(rf_waves_sim(cs, issue_bound, 0, &w2, &o), 0);
    assert_float_equal(o.insts, 10, 1e-9);
    rf_waves_run old = {.resident = 1, .ctas = 1, .oldest_first = 1.0};
    assert_int_equal(rf_waves_sim(cs, issue_bound, 0, &old, &o), 0);
    assert_float_equal(o.cycles, 30, 1e-9);
    free_set(cs);
}

static void issue_stretch_where_throughput_bound(void **state)
{
    (void)state;
    /* Warp 0: 10 instructions over 10 lone cycles (ipt 1); warp 1: 2 over
     * 10 (ipt 0.2, waiting most of its time); cpi_lone = 20 / 12.  IPC(2)
     * = 0.6, IPC(1) = 1.
     * Equal share of lone time: v = 0.6 (20 / 12) / 2 = 0.5 for both, both
     * end at 20: 12 instructions in 20 cycles, IPC 0.6.
     * Issue stretch (stretch[2] = 1): with u = c - 1,
     *   1 / (1 + u) + 0.2 / (1 + 0.2 u) = 0.6
     *   => 0.12 u^2 + 0.32 u - 0.6 = 0 => u = (-0.32 + sqrt(0.3904)) / 0.24
     *   = 1.2700833;
     * v0 = 1 / 2.2700833 = 0.4405125, v1 = 1 / 1.2540167 = 0.7974376.
     * Warp 1 ends at 10 / v1 = 12.540167, warp 0 has 10 - 12.540167 v0 =
     * 4.4759 lone cycles left, alone at IPC(1) = 1 >= its ipt: lone speed,
     * ends at 17.016067: IPC 12 / 17.016067 = 0.705216. */
    const float t[2][2] = {{10, 0}, {10, 0}};
    rf_ctaset *cs = ctaset_two_warps(1, 1, t);
    cs->insts[cs->off[0] + 1] = 2;         /* warp 1, phase 0 (one phase) */
    cs->cpi_lone = 20.0 / 12.0;
    const double tab[3] = {0, 1, 0.6};
    const double stretch[3] = {0, 1, 1};
    rf_waves_out o;
    rf_waves_run eq = {.resident = 1, .ctas = 1};
    assert_int_equal(rf_waves_sim(cs, tab, 0, &eq, &o), 0);
    assert_float_equal(o.cycles, 20, 1e-9);
    assert_float_equal(o.ipc, 0.6, 1e-9);
    rf_waves_run st = {.resident = 1, .ctas = 1, .stretch = stretch};
    assert_int_equal(rf_waves_sim(cs, tab, 0, &st, &o), 0);
    assert_float_equal(o.cycles, 17.016067, 1e-5);
    assert_float_equal(o.ipc, 0.705216, 1e-6);
    /* While both issue the SM retires IPC(2): window [0, 10) holds 6. */
    rf_waves_run w = {.resident = 1, .ctas = 1, .t_end = 10, .stretch = stretch};
    assert_int_equal(rf_waves_sim(cs, tab, 0, &w, &o), 0);
    assert_float_equal(o.insts, 6.0, 1e-6);
    free_set(cs);
}

static void barrier_waits_for_the_slowest(void **state)
{
    (void)state;
    /* Phase 0: 10 and 20 cycles, phase 1: 10 each.  Warp 0 waits at the
     * barrier from 10 to 20, then both run to 30: 50 instructions / 30. */
    const float t[2][2] = {{10, 10}, {20, 10}};
    rf_ctaset *cs = ctaset_two_warps(1, 2, t);
    rf_waves_run run = {.resident = 1, .ctas = 1};
    rf_waves_out o;
    assert_int_equal(rf_waves_sim(cs, latency_bound, 0, &run, &o), 0);
    assert_float_equal(o.cycles, 30, 1e-9);
    assert_float_equal(o.ipc, 50.0 / 30.0, 1e-9);
    free_set(cs);
}

static void slots_drain_before_the_next_cta(void **state)
{
    (void)state;
    /* Two CTAs through one slot, each 20 cycles, a drain of 5 after each:
     * 20 + 5 + 20 + 5 = 50 cycles for 2 x 2 x 20 = 80 instructions. */
    const float t[2][2] = {{20, 0}, {20, 0}};
    rf_ctaset *cs = ctaset_two_warps(2, 1, t);
    rf_waves_run run = {.resident = 1, .ctas = 2};
    rf_waves_out o;
    assert_int_equal(rf_waves_sim(cs, latency_bound, 5, &run, &o), 0);
    assert_float_equal(o.cycles, 50, 1e-9);
    assert_float_equal(o.ipc, 80.0 / 50.0, 1e-9);
    /* Without drain, two slots run both at once: 20 cycles. */
    rf_waves_run two = {.resident = 2, .ctas = 2};
    double tab4[5] = {0, 1, 2, 3, 4};
    assert_int_equal(rf_waves_sim(cs, tab4, 0, &two, &o), 0);
    assert_float_equal(o.cycles, 20, 1e-9);
    free_set(cs);
}

/* CTAs of two one-phase warps, warp lone times t[c] (both warps alike),
 * one instruction per lone cycle. */
static rf_ctaset *make_lengths(int nctas, const float *t)
{
    const float t0[2][2] = {{1, 0}, {1, 0}};
    rf_ctaset *cs = ctaset_two_warps(nctas, 1, t0);
    for (int c = 0; c < nctas; c++)
        for (int w = 0; w < 2; w++)
            cs->time[cs->off[c] + w] = cs->insts[cs->off[c] + w] = t[c];
    return cs;
}

static void warming_walks_to_the_window_cta(void **state)
{
    (void)state;
    double tab4[5] = {0, 1, 2, 3, 4};     /* IPC(a) = a: every warp at lone speed */
    rf_waves_out o;
    /* One slot, CTAs of 10 and 20: warming 1 CTA walks the first to its end,
     * the second starts at t = 0 as if cold: 20 cycles, 40 instructions. */
    const float one[2] = {10, 20};
    rf_ctaset *cs = make_lengths(2, one);
    rf_waves_run w1 = {.resident = 1, .ctas = 2, .warm_ctas = 1};
    assert_int_equal(rf_waves_sim(cs, tab4, 0, &w1, &o), 0);
    assert_float_equal(o.cycles, 20, 1e-9);
    assert_float_equal(o.insts, 40, 1e-9);
    free_set(cs);
    /* Two slots, CTAs A 10, B 30, C 20 instructions per warp, warming 2:
     * A and B move one instruction per step; A ends at step 10 and C takes
     * its slot (the run's CTA 2 started: stop).  Timed: B's 20 left and C's
     * 20, all four warps at lone speed: 20 cycles, 2 x 20 + 2 x 20 = 80
     * instructions (cold, A and B alone would take 30 cycles for 80). */
    const float three[3] = {10, 30, 20};
    cs = make_lengths(3, three);
    rf_waves_run w2 = {.resident = 2, .ctas = 3, .warm_ctas = 2};
    assert_int_equal(rf_waves_sim(cs, tab4, 0, &w2, &o), 0);
    assert_float_equal(o.cycles, 20, 1e-9);
    assert_float_equal(o.insts, 80, 1e-9);
    assert_float_equal(o.ipc, 4, 1e-9);
    /* No warming: the same grid from a cold start, A, B then C: C starts
     * at 10 in A's slot and ends at 30 with B: 120 instructions / 30. */
    rf_waves_run cold = {.resident = 2, .ctas = 3};
    assert_int_equal(rf_waves_sim(cs, tab4, 0, &cold, &o), 0);
    assert_float_equal(o.cycles, 30, 1e-9);
    assert_float_equal(o.insts, 120, 1e-9);
    free_set(cs);
}

/* A prepared start (rf_waves_prepare) serves several timed runs, each the
 * run rf_waves_sim gives from scratch. */
static void prepared_start_serves_many_runs(void **state)
{
    (void)state;
    double tab4[5] = {0, 1, 2, 3, 4};     /* IPC(a) = a */
    double tab1[5] = {0, 1, 1, 1, 1};     /* IPC(a) = 1 */
    const float three[3] = {10, 30, 20};
    rf_ctaset *cs = make_lengths(3, three);
    rf_waves_run w2 = {.resident = 2, .ctas = 3, .warm_ctas = 2};
    rf_waves_state *st = NULL;
    assert_int_equal(rf_waves_prepare(cs, 0, &w2, &st), 0);
    assert_true(rf_waves_state_matches(st, cs, 0, &w2));
    rf_waves_run other = w2;
    other.warm_ctas = 1;
    assert_false(rf_waves_state_matches(st, cs, 0, &other));
    assert_false(rf_waves_state_matches(st, cs, 5, &w2));
    rf_waves_out o, ref;
    /* As warming_walks_to_the_window_cta: 20 cycles, 80 instructions. */
    assert_int_equal(rf_waves_sim_from(st, tab4, &w2, &o), 0);
    assert_float_equal(o.cycles, 20, 1e-9);
    assert_float_equal(o.insts, 80, 1e-9);
    /* Again from the same start, at one instruction a cycle for the SM:
     * B's 20 and C's 20 per warp, 80 instructions at 1 a cycle: 80 cycles. */
    assert_int_equal(rf_waves_sim_from(st, tab1, &w2, &o), 0);
    assert_int_equal(rf_waves_sim(cs, tab1, 0, &w2, &ref), 0);
    assert_float_equal(o.cycles, 80, 1e-9);
    assert_float_equal(o.insts, 80, 1e-9);
    assert_memory_equal(&o, &ref, sizeof o);
    /* A window [5, 15) of the first rates: 4 a cycle, 40 instructions. */
    rf_waves_run win = w2;
    win.t_start = 5;
    win.t_end = 15;
    assert_int_equal(rf_waves_sim_from(st, tab4, &win, &o), 0);
    assert_float_equal(o.insts, 40, 1e-9);
    assert_float_equal(o.ipc, 4, 1e-9);
    rf_waves_state_free(st);
    free_set(cs);
}

/* Batches of a whole run (rf_waves_run.batches): one slot, IPC(a) = a
 * (every warp at lone speed), CTAs 0 and 1 of two 10-cycle warps, CTAs 2
 * and 3 of a 10- and a 30-cycle warp.  CTA 0 runs 0-10, 1 10-20 (20
 * instructions each), 2 20-50 and 3 50-80 (40 each).  Two batches cut at
 * the launch of CTA 4 * 1 / 2 = 2 (t = 20):
 *   batch 0: 40 instructions over 20 cycles = 2,
 *   batch 1: 80 over 60 = 4/3;  the run: 120 / 80 = 1.5. */
static void batches_of_a_whole_run(void **state)
{
    (void)state;
    double tab4[5] = {0, 1, 2, 3, 4};
    const float t[2][2] = {{10, 0}, {10, 0}};
    rf_ctaset *cs = ctaset_two_warps(4, 1, t);
    for (int c = 2; c < 4; c++)
        cs->time[cs->off[c] + 1] = cs->insts[cs->off[c] + 1] = 30;   /* warp 1 */
    rf_waves_run run = {.resident = 1, .ctas = 4, .batches = 2};
    rf_waves_out o;
    assert_int_equal(rf_waves_sim(cs, tab4, 0, &run, &o), 0);
    assert_float_equal(o.cycles, 80, 1e-9);
    assert_float_equal(o.ipc, 1.5, 1e-9);
    assert_int_equal(o.nbatch, 2);
    assert_float_equal(o.batch_ipc[0], 2.0, 1e-9);
    assert_float_equal(o.batch_ipc[1], 4.0 / 3.0, 1e-9);
    /* A window reports none. */
    rf_waves_run win = run;
    win.t_end = 40;
    assert_int_equal(rf_waves_sim(cs, tab4, 0, &win, &o), 0);
    assert_int_equal(o.nbatch, 0);
    free_set(cs);
}

static void head_stops_at_a_steady_batch(void **state)
{
    (void)state;
    /* Ten CTAs of two 10-cycle warps (20 instructions each) through one
     * slot, latency-bound at lone speed: CTA c starts at 10 c.  Mark at
     * CTA 2 (t 20, 40 retired); batches of 2 CTAs end at the launches of
     * CTAs 4 (t 40, 80 retired) and 6 (t 60, 120): IPC 2 and 2, standard
     * error 0 after the 2 batches asked, CTA 7 not launched (7 launched <
     * stop_before 10): the run stops at 60 with 120 retired. */
    const float t[2][2] = {{10, 0}, {10, 0}};
    rf_ctaset *cs = ctaset_two_warps(10, 1, t);
    rf_waves_run run = {.resident = 1, .ctas = 10, .mark_cta = 2, .batch_ctas = 2,
                        .min_batches = 2, .stop_se = 0.01, .stop_drift = 0.01, .stop_before = 10};
    rf_waves_out o;
    assert_int_equal(rf_waves_sim(cs, latency_bound, 0, &run, &o), 0);
    assert_true(o.stopped);
    assert_float_equal(o.cycles, 60, 1e-9);
    assert_float_equal(o.insts, 120, 1e-9);
    assert_float_equal(o.mark_t, 20, 1e-9);
    assert_float_equal(o.mark_insts, 40, 1e-9);
    assert_int_equal(o.launched, 7);
    /* stop_before 6: CTA 6 has launched at the second batch's end, so the
     * run goes on to the end: 100 cycles, 200 instructions, IPC 2. */
    rf_waves_run late = run;
    late.stop_before = 6;
    assert_int_equal(rf_waves_sim(cs, latency_bound, 0, &late, &o), 0);
    assert_false(o.stopped);
    assert_float_equal(o.cycles, 100, 1e-9);
    assert_float_equal(o.ipc, 2.0, 1e-9);
    assert_int_equal(o.launched, 10);
    free_set(cs);
}

static void split_runs_the_middle_at_the_steady_rate(void **state)
{
    (void)state;
    /* Head: stopped at 60 cycles with 120 retired, steady from its mark
     * (20 cycles, 40 retired): (120 - 40) / 40 = 2 a cycle.  Tail: 30
     * cycles, 50 retired.  Of 1000 instructions, 1000 - 120 - 50 = 830 run
     * at 2: 415 cycles; 60 + 415 + 30 = 505 in all: IPC 1000 / 505. */
    rf_waves_out h = {.cycles = 60, .insts = 120, .mark_t = 20, .mark_insts = 40,
                      .stopped = true, .ipc = 2};
    rf_waves_out tl = {.cycles = 30, .insts = 50};
    assert_float_equal(rf_waves_split_ipc(1000, &h, &tl), 1000.0 / 505.0, 1e-12);
    /* A head that ran to the end is the run: its own IPC. */
    h.stopped = false;
    assert_float_equal(rf_waves_split_ipc(1000, &h, &tl), 2.0, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(warming_walks_to_the_window_cta),
        cmocka_unit_test(prepared_start_serves_many_runs),
        cmocka_unit_test(batches_of_a_whole_run),
        cmocka_unit_test(latency_bound_cta),
        cmocka_unit_test(issue_bound_sharing),
        cmocka_unit_test(issue_stretch_where_throughput_bound),
        cmocka_unit_test(barrier_waits_for_the_slowest),
        cmocka_unit_test(slots_drain_before_the_next_cta),
        cmocka_unit_test(head_stops_at_a_steady_batch),
        cmocka_unit_test(split_runs_the_middle_at_the_steady_rate),
    };
    return cmocka_run_group_tests_name("waves", tests, NULL, NULL);
}
