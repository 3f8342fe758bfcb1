/* test_kchar.c - kernel characteristics (analytic/kchar.c): class runs and
 * the instructions the scheduler repeats across warps, block frequencies
 * on large and irreducible CFGs, the one edge rule both frequency passes
 * (rf_kchar_block_freq, rf_dst_block_freq) follow, the sampler's, the
 * block limit; values counted by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <math.h>

#include "../analytic/dstcount.h"
#include "../common/draw.h"
#include "../analytic/kchar.h"
#include "../analytic/liveness.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"
#include "support/ctaset.h"
#include "support/kirbuild.h"

/* One block, run once per warp:
 *   i0 lds r1 = r0        LD/ST  run 0 (first)
 *   i1 lds r2 = r0        LD/ST  run 1 (independent of i0); i2 reads r2
 *   i2 alu r3 = r1 r2     ALU    run 0 (class changes)
 *   i3 alu r4 = r0        ALU    run 1 (independent of i2)
 *   i4 alu r5 = r0        ALU    run 2
 *   i5 exit               no collector
 * LD/ST (2): run >= 1: i1 -> 1/2; run >= 2: none.  i1's successor waits
 *   for it -> rep 1/2.
 * ALU (3): run >= 1: i3, i4 -> 2/3; run >= 2: i4 -> 1/3; rep 0.
 * SFU: none (run_ge[1][0] = 1 by convention, the rest 0). */
static void runs_and_repeats(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "runs");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "lds r1 = r0");
    kb_i(&b, "lds r2 = r0");
    kb_i(&b, "alu r3 = r1 r2");
    kb_i(&b, "alu r4 = r0");
    kb_i(&b, "alu r5 = r0");
    kb_i(&b, "exit");
    kb_succ(&b, B0, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {0, 0.5, 1, 1, 0, 1};
    rf_ipc_kernel k;
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_float_equal(k.run_ge[2][0], 1.0, 1e-12);
    assert_float_equal(k.run_ge[2][1], 0.5, 1e-12);
    assert_float_equal(k.run_ge[2][2], 0.0, 0.0);
    assert_float_equal(k.rep_share[2], 0.5, 1e-12);
    assert_float_equal(k.run_ge[0][1], 2.0 / 3.0, 1e-12);
    assert_float_equal(k.run_ge[0][2], 1.0 / 3.0, 1e-12);
    assert_float_equal(k.run_ge[0][3], 0.0, 0.0);
    assert_float_equal(k.rep_share[0], 0.0, 0.0);
    assert_float_equal(k.run_ge[1][0], 1.0, 0.0);
    assert_float_equal(k.run_ge[1][1], 0.0, 0.0);
    /* Class shares: 3 ALU, 2 LD/ST, 1 exit of 6. */
    assert_float_equal(k.frac_alu, 0.5, 1e-12);
    assert_float_equal(k.frac_ldst, 1.0 / 3.0, 1e-12);
    /* i0..i4 read 1, 1, 2, 1, 1 registers; exit none: P(0 reads) = 1/6. */
    assert_float_equal(k.read_k[0], 1.0 / 6.0, 1e-12);
    assert_float_equal(k.no_reads, 1.0 / 6.0, 1e-12);
    kb_free(f);
}

/* Barrier regions (the code between barriers, each with its own unit mix):
 *   B0 alu r0 =                          once
 *   B1 lds r2 / lds r3 / lds r6 / bar    loop body, 4 times (trip 3: the
 *   B2 alu r4 / alu r5 / bar             back edge taken 3/4)
 *   B3 @p0 bra -> B1                     4 times
 *   B4 exit                              once
 * B1 and B2 end with barriers, so B2 starts a region and B3 does too; B3
 * joins B1 (its back edge) and B4, B0 joins B1: region A = {B0, B1, B3, B4},
 * region B = {B2}.
 *   A: alu 1 + bra 4 = 5 ALU, lds 3 x 4 = 12 LD/ST, bar 4 + exit 1 = 5
 *      none: 22 instructions;
 *   B: alu 2 x 4 = 8 ALU, bar 4 none: 12.
 * Of 34: A 22/34 (alu 5/22, ldst 12/22, none 5/22), B 12/34 (alu 8/12,
 * none 4/12), the larger first; the kernel's mix is their blend
 * (ldst 12/34). */
static void barrier_regions_split_the_mix(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "regions");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "lds r2 = r0");
    kb_i(&b, "lds r3 = r0");
    kb_i(&b, "lds r6 = r0");
    kb_i(&b, "bar");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "alu r4 = r2 r3");
    kb_i(&b, "alu r5 = r4");
    kb_i(&b, "bar");
    int B3 = kb_block(&b, "B3");
    kb_i(&b, "@p0 bra");
    int B4 = kb_block(&b, "B4");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, -1);
    kb_succ(&b, B2, B3, -1);
    kb_succ(&b, B3, B4, B1);
    kb_succ(&b, B4, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {3, 0.5, 1, 1, 0, 1};
    rf_ipc_kernel k;
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_int_equal(k.nphase, 2);
    assert_float_equal(k.phase[0].share, 22.0 / 34.0, 1e-12);
    assert_float_equal(k.phase[0].frac_alu, 5.0 / 22.0, 1e-12);
    assert_float_equal(k.phase[0].alu_use, 5.0 / 22.0, 1e-12);
    assert_float_equal(k.phase[0].frac_ldst, 12.0 / 22.0, 1e-12);
    assert_float_equal(k.phase[0].frac_none, 5.0 / 22.0, 1e-12);
    assert_float_equal(k.phase[0].frac_sfu, 0.0, 0.0);
    assert_float_equal(k.phase[1].share, 12.0 / 34.0, 1e-12);
    assert_float_equal(k.phase[1].frac_alu, 8.0 / 12.0, 1e-12);
    assert_float_equal(k.phase[1].frac_ldst, 0.0, 0.0);
    assert_float_equal(k.phase[1].frac_none, 4.0 / 12.0, 1e-12);
    assert_float_equal(k.frac_ldst, 12.0 / 34.0, 1e-12);
    kb_free(f);

    /* Without the barriers every instruction is in one region: one mix. */
    kb_begin(&b, "one_region");
    B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    B1 = kb_block(&b, "B1");
    kb_i(&b, "lds r2 = r0");
    kb_i(&b, "alu r4 = r2");
    kb_i(&b, "@p0 bra");
    B2 = kb_block(&b, "B2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    kb_succ(&b, B2, -1, -1);
    f = kb_finish(&b);
    assert_non_null(f);
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_int_equal(k.nphase, 0);
    kb_free(f);
}

/* Live fraction (the warps holding registers) against the active fraction
 * (the warps with work), two warps per CTA.  Phase 0: B0 branches (taken
 * with probability 0.5, drawn per warp) to B1, twenty dependent ALU
 * instructions, so a CTA's two warps often differ in length.
 * Without a barrier there is one phase: live = E[mean_w T] / E[max_w T],
 * the active fraction itself, and below 1.
 * With a barrier before the tail, every warp is held through phase 0
 * (waiting for the slower one) and runs the same independent tail
 * (alu r2 = r0; exit: equal lone times t1), so per CTA
 *   live = max T_0 + (t1 + t1) / 2 = life: live_frac = 1 exactly, while
 * the active fraction stays below 1. */
static rf_func *branchy(bool barrier)
{
    kb_builder b;
    kb_begin(&b, barrier ? "live_bar" : "live");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "@p0 bra");
    int B1 = kb_block(&b, "B1");
    for (int i = 0; i < 20; i++)
        kb_i(&b, "alu r1 = r1");
    int B2 = kb_block(&b, "B2");
    if (barrier)
        kb_i(&b, "bar");
    kb_i(&b, "alu r2 = r0");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B2, B1);
    kb_succ(&b, B1, B2, -1);
    kb_succ(&b, B2, -1, -1);
    return kb_finish(&b);
}

static void live_fraction(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {0, 0.5, 1, 1, 0, 1};
    rf_func *f = branchy(false);
    assert_non_null(f);
    rf_ipc_kernel k;
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_true(k.active_frac < 0.95);
    assert_near(k.live_frac, k.active_frac, 1e-12);
    kb_free(f);
    f = branchy(true);
    assert_non_null(f);
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_true(k.active_frac < 0.95);
    assert_near(k.live_frac, 1.0, 1e-9);
    kb_free(f);
}

/* A slice of a walked CTA set is the set a walk of that range gives: each
 * CTA's walk depends on its index and the seed alone (branchy: a per-warp
 * branch draw and a barrier), and the slice's ratios are summed over its
 * own CTAs in the walk's order. */
static void ctaset_slice_is_the_walk(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {0, 0.5, 1, 1, 0, 1};
    rf_func *f = branchy(true);
    assert_non_null(f);
    rf_ctaset *all = NULL, *direct = NULL, *slice = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 0, 16, 1, 7, &all, &err), 0);
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 3, 8, 1, 7, &direct, &err), 0);
    assert_int_equal(rf_kchar_ctaset_slice(all, 3, 8, &slice, &err), 0);
    assert_int_equal(slice->nctas, 8);
    assert_int_equal(slice->wpc, 2);
    size_t rows = rf_ctaset_nrows(direct);
    assert_memory_equal(slice->nph, direct->nph, sizeof *slice->nph * 8);
    assert_memory_equal(slice->off, direct->off, sizeof *slice->off * 8);
    assert_int_equal(rf_ctaset_nrows(slice), rows);
    assert_memory_equal(slice->insts, direct->insts, sizeof *slice->insts * rows);
    assert_memory_equal(slice->time, direct->time, sizeof *slice->time * rows);
    assert_memory_equal(slice->mem_cyc, direct->mem_cyc, sizeof *slice->mem_cyc * rows);
    assert_memory_equal(slice->mem_n, direct->mem_n, sizeof *slice->mem_n * rows);
    assert_memory_equal(slice->cta_step, direct->cta_step, sizeof *slice->cta_step * 8);
    assert_true(slice->cpi_lone == direct->cpi_lone);
    assert_true(slice->active_frac == direct->active_frac);
    assert_true(slice->live_frac == direct->live_frac);
    /* The draws differ between CTAs: the slice is not the set's start. */
    assert_memory_not_equal(slice->time, all->time, sizeof *slice->time * rows);
    assert_false(slice->view);
    /* A view of the same range reads all's rows in place (CTA 3 of
     * rows start at all's off[3]), with the slice's figures; a view of the view
     * still reads all's rows.  Freeing the views leaves all's rows alone
     * (ASan would report a double free). */
    rf_ctaset *view = NULL, *inner = NULL;
    assert_int_equal(rf_kchar_ctaset_view(all, 3, 8, &view, &err), 0);
    assert_true(view->view);
    assert_ptr_equal(rf_ctaset_insts(view, 0, 0), rf_ctaset_insts(all, 3, 0));
    assert_ptr_equal(rf_ctaset_time(view, 0, 0), rf_ctaset_time(all, 3, 0));
    assert_ptr_equal(view->nph, all->nph + 3);
    assert_int_equal(view->first_cta, 3);
    assert_null(view->run);
    assert_true(view->cpi_lone == slice->cpi_lone);
    assert_true(view->active_frac == slice->active_frac);
    assert_true(view->live_frac == slice->live_frac);
    assert_int_equal(rf_kchar_ctaset_view(view, 2, 4, &inner, &err), 0);
    assert_ptr_equal(rf_ctaset_insts(inner, 0, 0), rf_ctaset_insts(all, 5, 0));
    assert_int_equal(inner->first_cta, 5);
    rf_kchar_ctaset_free(inner);
    rf_kchar_ctaset_free(view);
    assert_int_equal(rf_kchar_ctaset_view(all, 10, 8, &view, &err), RF_EINTERNAL);
    assert_null(view);
    rf_kchar_ctaset_free(slice);
    slice = NULL;
    /* A range past the set's end is refused. */
    assert_int_equal(rf_kchar_ctaset_slice(all, 10, 8, &slice, &err), RF_EINTERNAL);
    assert_null(slice);
    rf_kchar_ctaset_free(all);
    rf_kchar_ctaset_free(direct);
    kb_free(f);
}

/* A CTA whose barrier loop runs past the rows' MC_MAXPH (64) phases: a
 * loop (mean trip 150, drawn per CTA as the sampler does for a loop
 * holding a barrier) of branchy's phase (B0 skips B1's twenty dependent
 * ALU instructions with probability 0.5, per warp) and a barrier.  Two
 * warps per CTA.  The walk's work, critical and live times (cta_crit)
 * count every phase.  The rows fold the phases past the 63rd into the
 * last: summed, the slowest warp's sum falls short of the sum of each
 * phase's slowest by the waits at the folded barriers, so every warp's
 * folded time is padded by that difference.  Then the rows' critical time
 * (the sum over phases of the slower warp) is the walk's, in every CTA;
 * the rows' work (mean warp) is the walk's where nothing was folded, and
 * above it by the pad in some folded CTA (of 16). */
static rf_func *barrier_loop(void)
{
    kb_builder b;
    kb_begin(&b, "bar_loop");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "@p0 bra");
    int B1 = kb_block(&b, "B1");
    for (int i = 0; i < 20; i++)
        kb_i(&b, "alu r1 = r1");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "bar");
    kb_i(&b, "@p1 bra");
    int B3 = kb_block(&b, "B3");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, B2);
    kb_succ(&b, B1, B2, -1);
    kb_succ(&b, B2, B3, B0);
    kb_succ(&b, B3, -1, -1);
    return kb_finish(&b);
}

static void critical_time_counts_every_phase(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {150, 0.5, 1, 1, 0, 1};
    rf_func *f = barrier_loop();
    assert_non_null(f);
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 0, 16, 1, 1, &cs, &err), 0);
    assert_non_null(cs->cta_crit);
    assert_true(cs->maxph <= 64);
    int folded = 0, whole = 0;
    for (int c = 0; c < cs->nctas; c++) {
        const float *T0 = rf_ctaset_time(cs, c, 0), *T1 = rf_ctaset_time(cs, c, 1);
        double work = 0, crit = 0;
        for (int ph = 0; ph < cs->nph[c]; ph++) {
            double a = T0[ph], bb = T1[ph];
            work += (a + bb) / 2;
            crit += a > bb ? a : bb;
        }
        assert_float_equal(cs->cta_crit[3 * c + 1], crit, 1e-3 * crit);
        if (cs->nph[c] == 64) {
            assert_true(work >= cs->cta_crit[3 * c] - 1e-3 * work);
            folded += work > cs->cta_crit[3 * c] + 1.0;
        } else {
            whole++;
            assert_float_equal(cs->cta_crit[3 * c], work, 1e-3 * work);
        }
        /* Never below the mean warp nor above both warps' sum. */
        assert_true(cs->cta_crit[3 * c + 1] >= cs->cta_crit[3 * c]);
        assert_true(cs->cta_crit[3 * c + 1] <= 2 * cs->cta_crit[3 * c] + 1e-6);
    }
    assert_true(folded > 0);
    assert_true(whole > 0);
    rf_kchar_ctaset_free(cs);
    kb_free(f);
}

/* A CTA set's rows lie CTA after CTA, each of a CTA's warps nph[c] phases
 * long, and maxph is the most phases a CTA has.  barrier_loop with a trip
 * count of 10 draws each CTA's phases, so CTAs differ in length and a
 * later CTA is longer than the first (the rows then grow past the room the
 * first CTA's length asked for, the earlier CTAs' rows kept). */
static void rows_lie_cta_after_cta(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {10, 0.5, 1, 1, 0, 1};
    rf_func *f = barrier_loop();
    assert_non_null(f);
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 0, 32, 1, 1, &cs, &err), 0);
    assert_true(cs->nph[0] < cs->maxph);
    int most = 0;
    size_t at = 0;
    for (int c = 0; c < cs->nctas; c++) {
        assert_true(cs->off[c] == at);
        at += (size_t)cs->wpc * (size_t)cs->nph[c];
        most = cs->nph[c] > most ? cs->nph[c] : most;
        for (int w = 0; w < cs->wpc; w++) {
            assert_true(rf_ctaset_insts(cs, c, w) == cs->insts + cs->off[c] + w * cs->nph[c]);
            assert_true(rf_ctaset_insts(cs, c, w)[0] > 0);
        }
    }
    assert_int_equal(most, cs->maxph);
    assert_true(rf_ctaset_nrows(cs) == at);
    /* The first CTA's rows are its own walk's (kept through the growth). */
    rf_ctaset *one = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 0, 1, 1, 1, &one, &err), 0);
    assert_int_equal(one->nph[0], cs->nph[0]);
    assert_memory_equal(one->insts, cs->insts, sizeof *one->insts * 2 * (size_t)one->nph[0]);
    assert_memory_equal(one->time, cs->time, sizeof *one->time * 2 * (size_t)one->nph[0]);
    rf_kchar_ctaset_free(one);
    rf_kchar_ctaset_free(cs);
    kb_free(f);
}

/* rf_kchar_ctaset_reuse: a range the held set walked (same seed, stride
 * and warps per CTA) is its slice, the very rows a walk gives; under
 * another seed it is walked (different draws). */
static void ctaset_reuse_is_the_walk(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {0, 0.5, 1, 1, 0, 1};
    rf_func *f = branchy(true);
    assert_non_null(f);
    rf_ctaset *all = NULL, *direct = NULL, *reused = NULL, *other = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 4, 16, 3, 7, &all, &err), 0);
    assert_int_equal(all->first_cta, 4);
    assert_int_equal(all->stride, 3);
    assert_true(all->seed == 7);
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 9, 6, 3, 7, &direct, &err), 0);
    const rf_ctaset *have[2] = {NULL, all};
    assert_int_equal(rf_kchar_ctaset_reuse(have, 2, &gpu, f, &prof, 2, 9, 6, 3, 7, &reused, &err),
                     0);
    assert_int_equal(reused->first_cta, 9);
    /* Held: a view of all's rows (CTA 9 is all's fifth, first_cta 4). */
    assert_true(reused->view);
    assert_ptr_equal(rf_ctaset_time(reused, 0, 0), rf_ctaset_time(all, 5, 0));
    size_t rows = rf_ctaset_nrows(direct);
    assert_memory_equal(reused->nph, direct->nph, sizeof *direct->nph * 6);
    assert_int_equal(rf_ctaset_nrows(reused), rows);
    assert_memory_equal(rf_ctaset_insts(reused, 0, 0), direct->insts,
                        sizeof *direct->insts * rows);
    assert_memory_equal(rf_ctaset_time(reused, 0, 0), direct->time, sizeof *direct->time * rows);
    assert_memory_equal(reused->mem_cyc + reused->off[0], direct->mem_cyc,
                        sizeof *direct->mem_cyc * rows);
    assert_memory_equal(reused->mem_n + reused->off[0], direct->mem_n,
                        sizeof *direct->mem_n * rows);
    assert_memory_equal(reused->cta_drain, direct->cta_drain, sizeof *direct->cta_drain * 6);
    /* Seed 8: not held, walked: other draws. */
    assert_int_equal(rf_kchar_ctaset_reuse(have, 2, &gpu, f, &prof, 2, 9, 6, 3, 8, &other, &err),
                     0);
    assert_true(other->seed == 8);
    assert_false(other->view);
    assert_memory_not_equal(other->time, direct->time,
                            sizeof *direct->time
                                * (rows < rf_ctaset_nrows(other) ? rows : rf_ctaset_nrows(other)));
    rf_kchar_ctaset_free(reused);
    rf_kchar_ctaset_free(all);
    rf_kchar_ctaset_free(direct);
    rf_kchar_ctaset_free(other);
    kb_free(f);
}

/* rf_kchar_compute_walked gives rf_kchar_compute's figures to the bit (its
 * sample and critical CTAs taken from the one walk of the run's first
 * CTAs), and so does the walk on two threads; it hands back the run's CTAs
 * from the first under seed 1: nbody (16 CTAs) on one SM, its sample the
 * run's 16 CTAs (not 128: the run holds no more); spread over 15 SMs
 * (stride 15: the run's 2 CTAs, the sample's too); reduce (512 CTAs) and
 * sgemm (128) on one SM. */
static void compute_walked_is_compute(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    /* nbody on one SM and spread (16 and 2 CTAs: a run of at most 256 CTAs is
     * walked whole either way), reduce on one SM (512 CTAs: without a walk to
     * hand back, the sample and the last 256 CTAs are walked apart and the
     * instructions counted along the paths; with one, all from the walk, the
     * sample's figures summed over its first CTAs' rows in place, its
     * stopping rule included),
     * sgemm on one SM (128 CTAs of 8 warps, 1.6M warp-instructions: the walk
     * takes its threads when given two). */
    const char *spec[4] = {"inputs/validation/nbody.spec", "inputs/validation/nbody.spec",
                           "inputs/kernels/reduce.spec", "inputs/kernels/sgemm.spec"};
    const int sms[4] = {1, 15, 1, 1};
    for (int i = 0; i < 4; i++) {
        rf_kernel_opts o;
        memset(&o, 0, sizeof o);
        o.no_ptxas = true;
        rf_kernel *k = NULL;
        assert_int_equal(rf_kernel_load(spec[i], &o, &k, &err), 0);
        rf_kernel_spread(k, sms[i]);
        rf_ipc_kernel a, b;
        rf_ctaset *walked = NULL;
        assert_int_equal(rf_kchar_compute(&gpu, k, &a, &err), 0);
        assert_int_equal(rf_kchar_compute_walked(&gpu, k, &b, &walked, &err), 0);
        assert_memory_equal(&a, &b, sizeof a);
        rf_ipc_kernel c;
        assert_int_equal(rf_kchar_compute_walked_jobs(&gpu, k, &c, NULL, 2, &err), 0);
        assert_memory_equal(&a, &c, sizeof a);
        assert_non_null(walked);
        assert_true(walked->seed == 1);
        assert_int_equal(walked->first_cta, 0);
        assert_int_equal(walked->stride, sms[i]);
        assert_int_equal(walked->nctas, rf_kernel_ctas(k));
        rf_kchar_ctaset_free(walked);
        rf_kernel_destroy(k);
    }
}

static rf_kernel *load_spec(const char *path);

/* A CTA alone (rf_ctaset.cta_step), fermi-gtx480: 4 SFU lanes and 16
 * LD/ST lanes, so an SFU instruction holds its pipe 32 / 4 = 8 cycles and
 * a load or store 32 / 16 = 2; 2 schedulers issue 2 a cycle.  Each of 4
 * warps walks alone (an instruction issues a cycle after the one before,
 * when its operands are ready; result 2 + latency cycles after issue; SFU
 * 20, ALU 4, shared 24, an L1 hit 32):
 *   phase 0: sfu r1 at 0 (ready 22), sfu r2 at 1 (23), alu at 23, lds at
 *            24 (ready 50), bar at 25: 26 cycles; the 4 warps hold the SFU
 *            pipe 4 x 2 x 8 = 64, LD/ST 4 x 2 = 8, issue 4 x 5 / 2 = 10;
 *   phase 1: ldg at 26 (ready 60), sts waits for it: 60, exit 61: 62 - 26
 *            = 36 cycles; LD/ST 4 x 2 x 2 = 16, issue 4 x 3 / 2 = 6.
 * Memory stalls per phase (rf_ctaset.mem_cyc, mem_n): none in phase 0 (the
 * alu waits on the SFU, a shared load is no memory wait), one in phase 1,
 * the sts issuing at 60 instead of 27: 33 cycles.
 * Critical time 26 + 36 = 62.  Alone (cta_step, phase_alone, p = 2) each
 * phase takes (mx^2 + h^2)^(1/2) of its slowest warp mx and its hold h,
 * the larger of the SFU pipe's and the and LD/ST pipe's together
 * (phase_hold: (is^2 + ldst^2)^(1/2), the collectors split per
 * class): phase 0 h = max(64, (10^2 + 8^2)^(1/2) = 12.81) = 64,
 * (26^2 + 64^2)^(1/2) = 4772^(1/2) = 69.080; phase 1 h = (6^2 +
 * 16^2)^(1/2) = 292^(1/2), (36^2 + 292)^(1/2) = 1588^(1/2) = 39.850;
 * together 108.929.  The larger of the two alone, each hold apart: 64 + 36
 * = 100.  With 32 SFU lanes the SFU pipe holds 4 x 2 x 1 = 8 and phase
 * 0's hold is the and LD/ST's, 164^(1/2): (676 + 164)^(1/2) =
 * 28.983, with phase 1 68.832; the larger alone 26 + 36 = 62, the
 * critical time.  With 8 collectors, split 3 ALU : 4 SFU : 1 LD/ST, each
 * held RF_KCHAR_COLL_HOLD = 2.75 cycles an instruction (the rest of a
 * phase's instructions, the barrier and the exit among them, counted
 * ALU): phase 0's 4 shared loads hold the one LD/ST collector 4 x 2.75 =
 * 11 cycles, longer than their pipe's 8, its 8 ALU-side instructions the
 * three ALU collectors 8 x 2.75 / 3 = 7.33, under the 10, so its
 * issue and LD/ST side is (10^2 + 11^2)^(1/2) = 14.87, still under the
 * SFU pipe's 64: 69.080 again; phase 1's 8 loads and stores hold the LD/ST
 * collector 22 cycles: (6^2 + 22^2)^(1/2) = 520^(1/2), (36^2 + 520)^(1/2)
 * = 42.614; together 111.694, the larger alone 100 as before. */
static rf_func *pipe_phases(void)
{
    kb_builder b;
    kb_begin(&b, "pipes");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "sfu r1 = r0");
    kb_i(&b, "sfu r2 = r0");
    kb_i(&b, "alu r3 = r1 r2");
    kb_i(&b, "lds r4 = r0");
    kb_i(&b, "bar");
    kb_i(&b, "ldg r5 = r0");
    kb_i(&b, "sts = r4 r5");
    kb_i(&b, "exit");
    kb_succ(&b, B0, -1, -1);
    return kb_finish(&b);
}

/* CTA 0 of pipe_phases walked on gpu: its time alone, the phases' norm
 * (step) and their larger bound alone (step0). */
static void one_cta_alone(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                          double step, double step0)
{
    rf_err err = {0};
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(gpu, f, prof, 4, 0, 1, 1, 1, &cs, &err), 0);
    assert_float_equal(cs->cta_step[0], step, 1e-3);
    assert_float_equal(cs->cta_step[1], step0, 1e-9);
    rf_kchar_ctaset_free(cs);
}

static void cta_alone_holds_the_pipes(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_profile prof = {0, 0.5, 1, 1, 0, 1};
    rf_func *f = pipe_phases();
    assert_non_null(f);
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 4, 0, 2, 1, 1, &cs, &err), 0);
    assert_non_null(cs->cta_step);
    for (int c = 0; c < 2; c++) {
        assert_int_equal(cs->nph[c], 2);
        assert_float_equal(rf_ctaset_time(cs, c, 3)[0], 26.0, 1e-9);
        assert_float_equal(rf_ctaset_time(cs, c, 3)[1], 36.0, 1e-9);
        size_t row = cs->off[c] + 3 * (size_t)cs->nph[c];
        assert_float_equal(cs->mem_cyc[row], 0.0, 0);
        assert_float_equal(cs->mem_n[row], 0.0, 0);
        assert_float_equal(cs->mem_cyc[row + 1], 33.0, 1e-9);
        assert_float_equal(cs->mem_n[row + 1], 1.0, 0);
        assert_float_equal(cs->cta_crit[3 * c + 1], 62.0, 1e-9);
        assert_float_equal(cs->cta_step[2 * c], 108.9294, 1e-3);
        assert_float_equal(cs->cta_step[2 * c + 1], 100.0, 1e-9);
    }
    gpu.sfu_lanes = 32;
    one_cta_alone(&gpu, f, &prof, 68.8325, 62.0);
    gpu.sfu_lanes = 4;
    gpu.collectors = 8;
    one_cta_alone(&gpu, f, &prof, 111.6942, 100.0);
    rf_kchar_ctaset_free(cs);
    kb_free(f);
}

/* A CTA's lone cycles (rf_ipc_kernel.lone) are its time alone
 * (rf_ctaset.cta_step) plus the drain, and lone0 the same with each
 * phase's larger bound alone.  softmax_row's CTAs, 8 warps, the
 * default run's share (35 CTAs, every one walked): the phase of four ex2
 * per warp holds the SFU pipe 8 x 4 x 8 = 256 cycles, well over its
 * slowest warp's lone time, so every CTA alone takes over 100 cycles more
 * than its critical time (cta_crit). */
static void lone_cta_holds_the_pipes(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_kernel *k = load_spec("inputs/validation/softmax_row.spec");
    rf_kernel_spread(k, 15);
    rf_ipc_kernel kc;
    rf_ctaset *walked = NULL;
    assert_int_equal(rf_kchar_compute_walked(&gpu, k, &kc, &walked, &err), 0);
    assert_int_equal(kc.nlone, 35);
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, k->func, &k->profile, 8, 0, 35, 15, 1, &cs, &err), 0);
    double drain = 0;
    for (int c = 0; c < 35; c++)
        drain += cs->cta_drain[c];
    drain /= 35;
    for (int c = 0; c < 35; c++) {
        assert_float_equal(kc.lone[c], cs->cta_step[2 * c] + drain, 1e-3 * kc.lone[c]);
        assert_float_equal(kc.lone0[c], cs->cta_step[2 * c + 1] + drain, 1e-3 * kc.lone0[c]);
        assert_true(cs->cta_step[2 * c + 1] > cs->cta_crit[3 * c + 1] + 100);
        assert_true(cs->cta_step[2 * c] > cs->cta_step[2 * c + 1]);
    }
    rf_kchar_ctaset_free(cs);
    rf_kchar_ctaset_free(walked);
    rf_kernel_destroy(k);
}

/* A bundled kernel spec, loaded without ptxas. */
static rf_kernel *load_spec(const char *path)
{
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    rf_err err = {0};
    assert_int_equal(rf_kernel_load(path, &o, &k, &err), 0);
    return k;
}

/* The walk's memo (runs of fixed-latency instructions taken from their
 * earlier walks from the same entry state) changes no result: each CTA of
 * a walk of sgemm's CTAs 0..11, where the runs of the later CTAs come
 * mostly from the memo the earlier ones filled, has the rows, drain and
 * times of that CTA walked alone with an empty memo. */
static void memo_changes_no_walk(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_kernel *k = load_spec("inputs/kernels/sgemm.spec");
    int wpc = (rf_kernel_threads(k) + 31) / 32;
    rf_ctaset *all = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, k->func, &k->profile, wpc, 0, 12, 1, 1, &all, &err),
                     0);
    for (int c = 0; c < 12; c++) {
        rf_ctaset *one = NULL;
        assert_int_equal(rf_kchar_ctaset(&gpu, k->func, &k->profile, wpc, c, 1, 1, 1, &one, &err),
                         0);
        assert_int_equal(one->nph[0], all->nph[c]);
        for (int w = 0; w < wpc; w++)
            for (int ph = 0; ph < one->nph[0]; ph++) {
                assert_true(rf_ctaset_insts(one, 0, w)[ph] == rf_ctaset_insts(all, c, w)[ph]);
                assert_true(rf_ctaset_time(one, 0, w)[ph] == rf_ctaset_time(all, c, w)[ph]);
            }
        assert_true(one->cta_drain[0] == all->cta_drain[c]);
        for (int q = 0; q < 3; q++)
            assert_true(one->cta_crit[q] == all->cta_crit[3 * c + q]);
        assert_true(one->cta_step[0] == all->cta_step[2 * c]);
        assert_true(one->cta_step[1] == all->cta_step[2 * c + 1]);
        rf_kchar_ctaset_free(one);
    }
    rf_kchar_ctaset_free(all);
    rf_kernel_destroy(k);
}

/* A memoised run goes on through a fall-through.  fermi-gtx480 (ALU
 * latency 4, L1 32: a result is ready 2 + latency after issue, one issue
 * per cycle), every load an L1 hit, one warp per CTA, 4 CTAs:
 *   B0  alu r1 = r0    issues  0, ready  6   (2 instructions: no run of
 *       alu r2 = r1            6,       12    its own; falls into B1)
 *   B1  alu r3 = r2           12,       18   the run B0..B1 ends here:
 *       alu r4 = r3           18,       24   five instructions
 *       alu r5 = r4           24,       30
 *       ldg r6 = r5           30,       64   (2 + 32)
 *       alu r7 = r6           64,       70   B1's own run after the load
 *       alu r8 = r7           70,       76
 *       alu r9 = r8           76,       82
 *       alu r10 = r9          82,       88
 *       exit                  83 (it waits on no register): the warp's
 *                             time 84, 11 instructions, one phase; its
 *                             drain 88 - 84 = 4, to its last result.
 * The first CTA walks both runs and keeps them, the others take them from
 * the memo: every CTA reads the same. */
static void memo_run_through_fall_through(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    assert_int_equal(gpu.alu_latency, 4);
    assert_int_equal(gpu.l1_latency, 32);
    kb_builder b;
    kb_begin(&b, "fall");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "alu r2 = r1");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r3 = r2");
    kb_i(&b, "alu r4 = r3");
    kb_i(&b, "alu r5 = r4");
    kb_i(&b, "ldg r6 = r5");
    kb_i(&b, "alu r7 = r6");
    kb_i(&b, "alu r8 = r7");
    kb_i(&b, "alu r9 = r8");
    kb_i(&b, "alu r10 = r9");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {1, 0.5, 1, 1, 0, 1};
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 1, 0, 4, 1, 1, &cs, &err), 0);
    for (int c = 0; c < 4; c++) {
        assert_int_equal(cs->nph[c], 1);
        assert_float_equal(rf_ctaset_insts(cs, c, 0)[0], 11.0, 0.0);
        assert_float_equal(rf_ctaset_time(cs, c, 0)[0], 84.0, 0.0);
        assert_float_equal(cs->cta_drain[c], 4.0, 0.0);
    }
    rf_kchar_ctaset_free(cs);
    kb_free(f);
}

/* A block that is one memoised run and branches back to itself reaches a
 * fixed point, after which the walk adds its passes without a lookup
 * (walk_warp): the figures are those of the passes walked one by one.
 * fermi-gtx480 (ALU latency 4: a result is ready 2 + 4 after issue, one
 * issue a cycle), one phase, the loop's exit drawn per warp:
 *   B0  alu r1 = r0    issues 0, r1 ready 6; the warp's time 1
 *   B1  alu r1 = r1    pass 1 from 1: waits for r1, issues 6 (ready 12)
 *       alu r2 = r0                    7 (r2 ready 13)
 *       alu r3 = r0                    8 (r3 ready 14)
 *       @p0 bra                        9; the warp's time 10
 *       pass 2 from 10: r1 at 12, r2 at 13, r3 at 14, bra 15: time 16,
 *       and its registers ready 2, 3 and 4 cycles after its end, as
 *       pass 2's were after its start, so every later pass is the same
 *       6 cycles: a fixed point from pass 2 on
 *   B2  exit           the warp's time 11 + 6 k
 * for 1 + k passes, k the draws under p = 400 / 401 (trip 400) before the
 * first that is not, draw n of warp g being rf_draw_uniform(1, g, n,
 * RF_DRAW_BRANCH); its instructions 1 + 4 (1 + k) + 1 = 6 + 4 k. */
static void memo_fixed_point_loop(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    assert_int_equal(gpu.alu_latency, 4);
    kb_builder b;
    kb_begin(&b, "fixedloop");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r1 = r1");
    kb_i(&b, "alu r2 = r0");
    kb_i(&b, "alu r3 = r0");
    kb_i(&b, "@p0 bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    kb_succ(&b, B2, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {400, 0.5, 1, 1, 0, 1};
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 0, 4, 1, 1, &cs, &err), 0);
    int kmax = 0;
    for (int c = 0; c < 4; c++)
        for (int w = 0; w < 2; w++) {
            int k = 0;
            while (rf_draw_uniform(1, (uint64_t)(2 * c + w), (uint64_t)k, RF_DRAW_BRANCH)
                   < 400.0 / 401.0)
                k++;
            kmax = k > kmax ? k : kmax;
            assert_int_equal(cs->nph[c], 1);
            assert_float_equal(rf_ctaset_insts(cs, c, w)[0], 6.0 + 4.0 * k, 0.0);
            assert_float_equal(rf_ctaset_time(cs, c, w)[0], 11.0 + 6.0 * k, 0.0);
        }
    assert_true(kmax > 100);    /* many passes at the fixed point */
    rf_kchar_ctaset_free(cs);
    /* A trip count no draw ends (trip 1e12): the walk stops at its cap of
     * 2,000,000 instructions between passes, as pass by pass: after B0 and
     * n passes it holds 1 + 4 n instructions, so it stops after the pass
     * that reaches the cap, n = 500,000 (2,000,001 instructions), before
     * the exit; its time 10 + 6 (n - 1) = 3,000,004. */
    prof.trip = 1e12;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 1, 0, 1, 1, 1, &cs, &err), 0);
    assert_float_equal(rf_ctaset_insts(cs, 0, 0)[0], 2000001.0, 0.0);
    assert_float_equal(rf_ctaset_time(cs, 0, 0)[0], 3000004.0, 0.0);
    rf_kchar_ctaset_free(cs);
    kb_free(f);
}

/* A loop that holds a barrier is decided once per CTA: loop draw q of CTA
 * c is rf_draw_uniform(seed, c, q, RF_DRAW_LOOP), the same for all the
 * CTA's warps (the walk keeps the first warp's for the others, up to 256 a
 * CTA, and draws the rest again).  With trip 400 the back edge is taken
 * with p = 400 / 401, so CTA c runs the body 1 + k_c times, k_c the number
 * of draws u_0, u_1, ... under p before the first that is not.  A warp's
 * instructions: B0's one, 3 per body (bar, alu, bra), the exit's one:
 * 2 + 3 (1 + k_c); seed 1, CTAs 0..5 of stride 1, three warps each
 * (k_c = 6, 508, 220, 1070, 49, 445: three past the 256 kept). */
static void loop_draws_are_the_ctas(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    kb_builder b;
    kb_begin(&b, "ctaloop");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "bar");
    kb_i(&b, "alu r1 = r1");
    kb_i(&b, "@p0 bra");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, -1);
    kb_succ(&b, B1, B2, B1);
    kb_succ(&b, B2, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {400, 0.5, 1, 1, 0, 1};
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 3, 0, 6, 1, 1, &cs, &err), 0);
    int kmax = 0, kmin = 1 << 30;
    for (int c = 0; c < 6; c++) {
        int k = 0;
        while (rf_draw_uniform(1, (uint64_t)c, (uint64_t)k, RF_DRAW_LOOP) < 400.0 / 401.0)
            k++;
        kmax = k > kmax ? k : kmax;
        kmin = k < kmin ? k : kmin;
        for (int w = 0; w < 3; w++) {
            double n = 0;
            for (int ph = 0; ph < cs->nph[c]; ph++)
                n += rf_ctaset_insts(cs, c, w)[ph];
            assert_float_equal(n, 2.0 + 3.0 * (1 + k), 0.0);
        }
    }
    assert_true(kmax > 256);    /* past the draws a CTA keeps */
    assert_true(kmin < kmax);   /* the CTAs draw apart */
    rf_kchar_ctaset_free(cs);
    kb_free(f);
}

/* The characterisation's sample is the run's own CTAs: nbody spread over
 * 15 SMs runs grid CTAs 0 and 15 on SM 0, so rf_kchar_compute's walked
 * figures are those of rf_kchar_ctaset over those two CTAs (first 0, two
 * CTAs, stride 15, seed 1; two CTAs are under RF_KCHAR_MC_MIN_CTAS, so the
 * sample cannot stop early), not those of CTAs 0..127 of the whole grid. */
static void sample_is_the_runs_ctas(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_kernel *k = load_spec("inputs/validation/nbody.spec");
    rf_kernel_spread(k, 15);
    assert_int_equal(rf_kernel_ctas(k), 2);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), 0);
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, k->func, &k->profile, kc.warps_per_cta, 0, 2, 15, 1,
                                     &cs, &err), 0);
    assert_int_equal(cs->nctas, 2);
    assert_true(kc.active_frac == cs->active_frac);
    assert_true(kc.live_frac == cs->live_frac);
    assert_true(kc.stall_mem == cs->s_mem);
    assert_true(kc.stall_dep == cs->s_dep);
    assert_true(kc.turn_insts == cs->turn_insts);
    assert_true(kc.wait_share == cs->wait_share);
    assert_true(kc.drain == cs->drain);
    rf_kchar_ctaset_free(cs);
    rf_kernel_destroy(k);
}

/* Turns (rf_ipc_kernel.turn_insts): one block per warp,
 *   i0 alu r1 = r0   issues at 0, r1 ready at 2 + L (L: the ALU latency)
 *   i1 alu r2 = r0   at 1
 *   i2 alu r3 = r1   at 2, waits L > 1 cycles for r1: the turn ends
 *   i3 alu r4 = r0   no wait
 *   i4 exit          the warp's exit ends its second turn
 * 5 instructions in 2 turns: 2.5.  With i2 reading r0 instead, nothing
 * waits: one turn of 5.  Waits per instruction (rf_ipc_kernel.wait_share,
 * the exit's end of a turn apart): 1 of 5 = 0.2, then 0. */
static rf_func *turns_kernel(bool dep)
{
    kb_builder b;
    kb_begin(&b, "turns");
    kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "alu r2 = r0");
    kb_i(&b, dep ? "alu r3 = r1" : "alu r3 = r0");
    kb_i(&b, "alu r4 = r0");
    kb_i(&b, "exit");
    return kb_finish(&b);
}

/* The active-warp distribution of a hand-made set: one CTA of 3 warps, two
 * phases with lone times {10, 4, 6} and {2, 2, 8}.  Phase 0, longest
 * first 10, 6, 4: 1 warp issues for 10 - 6 = 4 cycles, 2 for 6 - 4 = 2,
 * all 3 for 4.  Phase 1, 8, 2, 2: 1 warp for 6, 2 for 0, 3 for 2.  Of the
 * 10 + 8 = 18 cycles: h[1] = 10/18, h[2] = 2/18, h[3] = 6/18, mean
 * (10 + 4 + 18) / 18 = 32/18 = 3 x active_frac (32/3 work over 18).  A CTA
 * wider than RF_IPC_MAXWPC warps gives none. */
static void active_warp_distribution(void **state)
{
    (void)state;
    int nph[1] = {2};
    float t[6] = {10, 2, 4, 2, 6, 8};         /* [warp][phase] */
    float ins[6] = {0};
    size_t off[1] = {0};
    rf_ctaset cs;
    memset(&cs, 0, sizeof cs);
    cs.nctas = 1;
    cs.wpc = 3;
    cs.maxph = 2;
    cs.nph = nph;
    cs.off = off;
    cs.time = t;
    cs.insts = ins;
    double h[RF_IPC_MAXWPC + 1];
    rf_kchar_act_hist(&cs, h);
    assert_float_equal(h[0], 0.0, 0.0);
    assert_float_equal(h[1], 10.0 / 18.0, 1e-12);
    assert_float_equal(h[2], 2.0 / 18.0, 1e-12);
    assert_float_equal(h[3], 6.0 / 18.0, 1e-12);
    assert_float_equal(h[4], 0.0, 0.0);
    assert_float_equal(h[1] + 2 * h[2] + 3 * h[3], 32.0 / 18.0, 1e-12);
    cs.wpc = RF_IPC_MAXWPC + 1;
    rf_kchar_act_hist(&cs, h);
    for (int j = 0; j <= RF_IPC_MAXWPC; j++)
        assert_float_equal(h[j], 0.0, 0.0);
}

static void turn_length(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    assert_true(gpu.alu_latency > 1);
    rf_profile prof = {0, 0.5, 1, 1, 0, 1};
    rf_ipc_kernel k;
    rf_func *f = turns_kernel(true);
    assert_non_null(f);
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_near(k.turn_insts, 2.5, 1e-12);
    assert_near(k.wait_share, 0.2, 1e-12);
    kb_free(f);
    f = turns_kernel(false);
    assert_non_null(f);
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_near(k.turn_insts, 5.0, 1e-12);
    assert_near(k.wait_share, 0.0, 0.0);
    kb_free(f);
}


/* The DRAM stream's ends (rf_ipc_kernel.dram_lead, dram_trail) on one
 * warp that misses both caches, fermi-gtx480 (ALU latency 4, DRAM 330; a
 * result is ready 2 + latency after issue, one issue per cycle):
 *   alu r1 = r0      issues 0, ready 6
 *   ldg r2 = r1      issues 6 (waits for r1): the first DRAM access, the
 *                    lead 6; data at 6 + 2 + 330 = 338
 *   alu r3 = r2      issues 338, ready 344
 *   stg = r1 r3      issues 344, retires 344 + 2 + 1 = 347
 *   exit             issues 345
 * trail: 347 - 338 = 9.  With every load hitting L1 nothing reaches DRAM:
 * both 0. */
static void dram_stream_ends(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    assert_int_equal(gpu.alu_latency, 4);
    assert_int_equal(gpu.dram_latency, 330);
    kb_builder b;
    kb_begin(&b, "ends");
    kb_block(&b, "B0");
    kb_i(&b, "alu r1 = r0");
    kb_i(&b, "ldg r2 = r1");
    kb_i(&b, "alu r3 = r2");
    kb_i(&b, "stg = r1 r3");
    kb_i(&b, "exit");
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {1, 0.5, 0, 0, 0, 1};
    rf_ipc_kernel k;
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 32, &k, &err), 0);
    assert_near(k.dram_lead, 6.0, 1e-12);
    assert_near(k.dram_trail, 9.0, 1e-12);
    prof.l1_hit = 1.0;
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 32, &k, &err), 0);
    assert_near(k.dram_lead, 0.0, 0);
    assert_near(k.dram_trail, 0.0, 0);
    kb_free(f);
}

/* Whether a short run reaches DRAM at all (rf_ipc_kernel.dram_none) as the
 * sampler's run of it does with the default seed: the walk draws the
 * sampler's paths and cache outcomes, CTA by CTA.  One warp of sfu and of
 * kmeans exits at its bounds check (the spec's taken, drawn) before any
 * load, although the paths' expected traffic (dram_load_bytes) is not 0:
 * no DRAM byte in the sampler's run, dram_none.  So with bfs's one CTA at
 * 15 SMs (grid 15: grid CTA 0 alone on SM 0).  stream's warp loads and
 * misses both caches: DRAM bytes, and no dram_none.  A run too long for
 * every CTA to be walked (sfu's 480 CTAs on one SM reach DRAM anyway)
 * never has it. */
static void dram_none_as_the_sampler(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    const struct {
        const char *spec, *grid, *block;
        int sms;
        bool none;
    } cases[] = {
        {"inputs/kernels/sfu.spec", "1", "32", 1, true},
        {"inputs/kernels/kmeans.spec", "1", "32", 1, true},
        {"inputs/kernels/bfs.spec", "15", NULL, 15, true},
        {"inputs/kernels/stream.spec", "1", "32", 1, false},
        {"inputs/kernels/sfu.spec", NULL, NULL, 1, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rf_kernel_opts o;
        memset(&o, 0, sizeof o);
        o.no_ptxas = true;
        o.grid = cases[i].grid;
        o.block = cases[i].block;
        rf_kernel *k = NULL;
        assert_int_equal(rf_kernel_load(cases[i].spec, &o, &k, &err), 0);
        rf_kernel_spread(k, cases[i].sms);
        rf_ipc_kernel kc;
        assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), 0);
        assert_true(kc.dram_load_bytes > 0);
        assert_int_equal(kc.dram_none, cases[i].none);
        if (cases[i].grid) {
            rf_design d;
            rf_design_init(&d);
            rf_sim_opts so;
            rf_sim_opts_init(&so);
            so.sms = 1;
            rf_sim_stats st;
            assert_int_equal(rf_sim_run(&gpu, &d, k, &so, &st, &err), 0);
            assert_int_equal(st.dram_bytes == 0, cases[i].none);
        }
        rf_kernel_destroy(k);
    }
}

/* A 10,000-block CFG: entry B0, 1999 units of five blocks, three straight
 * blocks and the exit.  Unit u:
 *   H  @p0 bra -> L      forward branch: taken 0.25 (to L), else T
 *   T  alu               falls into L
 *   L  alu               outer loop header
 *   I  alu; @p1 bra -> I inner loop: back edge taken 3/4 (trip 3)
 *   E  @p1 bra -> L      outer latch: back edge taken 3/4, else next unit
 * Per entry of a unit (both rules: the back edges leave their loops):
 *   f(H) = 1, f(T) = 0.75, f(L) = 1 / (1 - 3/4) = 4,
 *   f(I) = f(L) x 4 = 16, f(E) = f(L) = 4, and E passes 4 x 1/4 = 1 on,
 * so every unit is entered once; B0, the tail and the exit run once.
 * Instructions per warp: 1999 x (1 + 0.75 + 4 + 16 x 2 + 4) + 1 + 3 + 1
 *   = 1999 x 41.75 + 5 = 83463.25. */
#define BIG_UNITS 1999

static rf_func *big_cfg(void)
{
    kb_builder b;
    kb_begin(&b, "big");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 = r0");
    int prev = B0;
    for (int u = 0; u < BIG_UNITS; u++) {
        int H = kb_block(&b, "H");
        kb_i(&b, "@p0 bra");
        int T = kb_block(&b, "T");
        kb_i(&b, "alu r2 = r2");
        int L = kb_block(&b, "L");
        kb_i(&b, "alu r3 = r3");
        int I = kb_block(&b, "I");
        kb_i(&b, "alu r1 = r1");
        kb_i(&b, "@p1 bra");
        int E = kb_block(&b, "E");
        kb_i(&b, "@p1 bra");
        kb_succ(&b, prev, H, -1);
        kb_succ(&b, H, T, L);
        kb_succ(&b, T, L, -1);
        kb_succ(&b, L, I, -1);
        kb_succ(&b, I, E, I);
        prev = E;
    }
    int tail = prev;
    for (int z = 0; z < 3; z++) {
        int Z = kb_block(&b, "Z");
        kb_i(&b, "alu r4 = r4");
        if (tail == prev)
            kb_succ(&b, prev, Z, prev - 2);   /* E: next, back to its L */
        else
            kb_succ(&b, tail, Z, -1);
        tail = Z;
    }
    int X = kb_block(&b, "X");
    kb_i(&b, "exit");
    kb_succ(&b, tail, X, -1);
    kb_succ(&b, X, -1, -1);
    /* Each E but the last falls into the next unit's H. */
    for (int u = 0; u + 1 < BIG_UNITS; u++) {
        int E = 1 + 5 * u + 4;
        kb_succ(&b, E, E + 1, E - 2);
    }
    return kb_finish(&b);
}

static void big_cfg_frequencies(void **state)
{
    (void)state;
    rf_func *f = big_cfg();
    assert_non_null(f);
    assert_int_equal(f->nblocks, 10000);
    double *fk = malloc(sizeof *fk * 10000), *fd = malloc(sizeof *fd * 10000);
    assert_non_null(fk);
    assert_non_null(fd);
    rf_err err = {0};
    rf_profile prof = {3, 0.25, 1, 1, 0, 1};
    assert_int_equal(rf_kchar_block_freq(f, &prof, fk, &err), 0);
    assert_int_equal(rf_dst_block_freq(f, 3, 0.25, NULL, fd, NULL, &err), 0);
    const double unit[5] = {1, 0.75, 4, 16, 4};
    for (int b = 0; b < 10000; b++) {
        double want = b >= 1 && b < 1 + 5 * BIG_UNITS ? unit[(b - 1) % 5] : 1.0;
        assert_near(fk[b], want, 1e-12 * want);
        assert_near(fd[b], want, 1e-12 * want);
    }
    /* The characterisation runs on it too: instructions per warp from the
     * frequencies. */
    rf_gpu gpu;
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_ipc_kernel k;
    assert_int_equal(rf_kchar_func(&gpu, f, &prof, 64, &k, &err), 0);
    assert_near(k.insts_per_warp, 83463.25, 1e-12 * 83463.25);
    free(fk);
    free(fd);
    kb_free(f);
}

/* An irreducible cycle: B0 enters both A and B.
 *   B0 @p0 bra -> B   taken 0.5, else A
 *   A  @p0 bra -> B   forward: taken 0.5, else X
 *   B  @p1 bra -> A   back edge (A before B): taken 3/4 (trip 3), else X
 *   X  exit
 *   f(A) = 0.5 + 0.75 f(B), f(B) = 0.5 + 0.5 f(A)
 *   => 0.625 f(A) = 0.875: f(A) = 1.4, f(B) = 1.2,
 *   f(X) = 0.5 x 1.4 + 0.25 x 1.2 = 1.
 * With the back edge always taken (the spec's branch probability 1) the
 * cycle never ends: refused. */
static void irreducible_and_unbounded(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "irreducible");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "@p0 bra");
    int A = kb_block(&b, "A");
    kb_i(&b, "@p0 bra");
    int B = kb_block(&b, "B");
    kb_i(&b, "@p1 bra");
    int X = kb_block(&b, "X");
    kb_i(&b, "exit");
    kb_succ(&b, B0, A, B);
    kb_succ(&b, A, X, B);
    kb_succ(&b, B, X, A);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    rf_profile prof = {3, 0.5, 1, 1, 0, 1};
    double fq[4];
    rf_err err = {0};
    assert_int_equal(rf_kchar_block_freq(f, &prof, fq, &err), 0);
    assert_near(fq[0], 1.0, 1e-12);
    assert_near(fq[1], 1.4, 1e-12);
    assert_near(fq[2], 1.2, 1e-12);
    assert_near(fq[3], 1.0, 1e-12);
    double fd[4];
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, NULL, fd, NULL, &err), 0);
    for (int i = 0; i < 4; i++)
        assert_near(fd[i], fq[i], 0);
    f->blocks[B].has_taken = true;
    f->blocks[B].taken_p = 1.0;
    f->blocks[A].has_taken = true;
    f->blocks[A].taken_p = 1.0;
    assert_int_equal(rf_kchar_block_freq(f, &prof, fq, &err), RF_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "unbounded"));
    kb_free(f);
}

/* The edge rule on a kernel read from PTX (tests/fixtures/edges.ptx and
 * .spec: trip 3, taken 0.5, [branches] $L__BB0_2 = 0.2), blocks
 *   0 entry (8 insts)  @p1 bra $L__BB0_2    the spec: 0.2 to block 2
 *   1 (2)              bra.uni -> 3
 *   2 $L__BB0_2 (1)    -> 3
 *   3 $L__BB0_3 (1)    -> 4
 *   4 $L__BB0_4 (4)    @p2 bra $L__BB0_4    constant trip 4: P = 3/4
 *   5 (1)              -> 6
 *   6 $L__BB0_6 (3)    @p3 bra $L__BB0_8    forward out of the loop: taken 0.5
 *   7 (3)              @p4 bra $L__BB0_6    back edge, default: 3 / (3 + 1)
 *   8 $L__BB0_8 (3)    @p5 ret              a guarded exit: ends the warp
 *                                           with taken 0.5, else on to 9
 *   9 (2)              ret
 * f0 = 1, f1 = 0.8, f2 = 0.2, f3 = 1, f4 = 1 / (1 - 3/4) = 4, f5 = 1;
 * f6 = 1 + 0.75 f7, f7 = 0.5 f6 => f6 = 1 / 0.625 = 1.6, f7 = 0.8;
 * f8 = 0.5 x 1.6 + 0.25 x 0.8 = 1; f9 = 0.5 x 1 = 0.5.
 * Instructions per warp: 8 + 2 x 0.8 + 0.2 + 1 + 4 x 4 + 1 + 3 x 1.6
 * + 3 x 0.8 + 3 + 2 x 0.5 = 39.  The sampler, walking 2000 CTAs x 2
 * warps, retires 39 per warp within its sampling error (0.3%). */
static void one_rule_on_a_kernel(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    o.grid = "2000";
    rf_kernel *k = NULL;
    rf_err err = {0};
    assert_int_equal(rf_kernel_load("tests/fixtures/edges.spec", &o, &k, &err), 0);
    const rf_func *f = k->func;
    assert_int_equal(f->nblocks, 10);
    assert_true(f->blocks[0].has_taken);
    assert_near(f->blocks[0].taken_p, 0.2, 0);
    assert_true(f->blocks[4].has_taken);
    assert_near(f->blocks[4].taken_p, 0.75, 0);
    assert_false(f->blocks[6].has_taken);
    assert_false(f->blocks[7].has_taken);
    double fk[10], fd[10], ef[20];
    assert_int_equal(rf_kchar_block_freq(f, &k->profile, fk, &err), 0);
    assert_int_equal(rf_dst_block_freq(f, k->profile.trip, k->profile.taken, NULL, fd, ef, &err), 0);
    const double want[10] = {1, 0.8, 0.2, 1, 4, 1, 1.6, 0.8, 1, 0.5};
    double insts = 0;
    for (int b = 0; b < 10; b++) {
        assert_near(fk[b], want[b], 1e-12);
        assert_near(fd[b], fk[b], 0);
        insts += fk[b] * f->blocks[b].ninsts;
    }
    assert_near(insts, 39.0, 1e-12);
    /* Edges: the break leaves block 6 for 8 0.5 x 1.6 = 0.8 times, the
     * guarded exit passes on (1 - 0.5) x 1 = 0.5. */
    assert_near(ef[2 * 6 + 1], 0.8, 1e-12);
    assert_near(ef[2 * 8], 0.5, 1e-12);

    rf_gpu gpu;
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_design d;
    rf_design_init(&d);
    rf_sim_opts so;
    rf_sim_opts_init(&so);
    rf_sim_stats st;
    assert_int_equal(rf_sim_run(&gpu, &d, k, &so, &st, &err), 0);
    double per_warp = (double)st.warp_insts / (2000.0 * 2);
    assert_near(per_warp, 39.0, 0.01 * 39.0);
    rf_kernel_destroy(k);
}

/* The walk takes the draws of the run it describes (rf_profile.seed, the
 * sampler's --seed): edges.spec's loop (the profile's trip 3, a break
 * taken 0.5) and its branches drawn per warp, 4 CTAs x 2 warps.  Under
 * each seed the run's instructions per warp are a count, not a mean: the
 * sampler's warp_insts / 8 exactly, and two seeds whose counts differ show
 * that the count is that run's and not the flow's 39. */
static void walk_counts_the_run_of_its_seed(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_design d;
    rf_design_init(&d);
    double per[3];
    const uint64_t seeds[3] = {1, 2, 7};
    for (int i = 0; i < 3; i++) {
        rf_kernel_opts o;
        memset(&o, 0, sizeof o);
        o.no_ptxas = true;
        char text[8];
        snprintf(text, sizeof text, "%d", (int)seeds[i]);
        o.seed = text;
        rf_kernel *k = NULL;
        assert_int_equal(rf_kernel_load("tests/fixtures/edges.spec", &o, &k, &err), 0);
        assert_int_equal(k->profile.seed, seeds[i]);
        rf_ipc_kernel kc;
        assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), 0);
        rf_sim_opts so;
        rf_sim_opts_init(&so);
        so.seed = seeds[i];
        rf_sim_stats st;
        assert_int_equal(rf_sim_run(&gpu, &d, k, &so, &st, &err), 0);
        per[i] = kc.insts_per_warp;
        assert_near(per[i] * 4 * 2, (double)st.warp_insts, 1e-6);
        rf_kernel_destroy(k);
    }
    assert_true(per[0] != per[1] || per[0] != per[2]);
}

/* The sampler's rule where the CFG is not a plain if or loop:
 *   B0 alu r0 =; bra        unguarded, two successors (B1, B2): always B2,
 *                           whatever probability the block carries
 *   B1 alu r1 = r0          -> B2
 *   B2 alu r2 = r0; alu p0 = r2
 *                           two successors (B3, B4) without a branch: B3
 *   B3 @p0 exit             a guarded exit falling into B4: the warp ends
 *                           with taken (0.5), else goes on to B4
 *   B4 alu r3 = r2; exit
 * f = 1, 0, 1, 1, 0.5 in both passes; cutting B2 (absorbing) leaves
 * 1, 0, 1, 0, 0. */
static void one_rule_edge_kinds(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "kinds");
    int B0 = kb_block(&b, "B0");
    kb_i(&b, "alu r0 =");
    kb_i(&b, "bra");
    int B1 = kb_block(&b, "B1");
    kb_i(&b, "alu r1 = r0");
    int B2 = kb_block(&b, "B2");
    kb_i(&b, "alu r2 = r0");
    kb_i(&b, "alu p0 = r2");
    int B3 = kb_block(&b, "B3");
    kb_i(&b, "@p0 exit");
    int B4 = kb_block(&b, "B4");
    kb_i(&b, "alu r3 = r2");
    kb_i(&b, "exit");
    kb_succ(&b, B0, B1, B2);
    kb_succ(&b, B1, B2, -1);
    kb_succ(&b, B2, B3, B4);
    kb_succ(&b, B3, B4, -1);
    kb_succ(&b, B4, -1, -1);
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    f->blocks[B0].has_taken = true;
    f->blocks[B0].taken_p = 0.3;
    double p = -1;
    assert_int_equal(rf_kchar_edge(f, B0, 3, 0.5, &p), RF_KE_JUMP);
    assert_int_equal(rf_kchar_edge(f, B1, 3, 0.5, &p), RF_KE_FALL);
    assert_int_equal(rf_kchar_edge(f, B2, 3, 0.5, &p), RF_KE_FALL);
    assert_near(p, -1, 0);
    assert_int_equal(rf_kchar_edge(f, B3, 3, 0.5, &p), RF_KE_EXIT);
    assert_near(p, 0.5, 0);
    p = -1;
    assert_int_equal(rf_kchar_edge(f, B4, 3, 0.5, &p), RF_KE_STOP);
    assert_near(p, -1, 0);
    rf_profile prof = {3, 0.5, 1, 1, 0, 1};
    double fk[5], fd[5];
    rf_err err = {0};
    assert_int_equal(rf_kchar_block_freq(f, &prof, fk, &err), 0);
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, NULL, fd, NULL, &err), 0);
    const double want[5] = {1, 0, 1, 1, 0.5};
    for (int i = 0; i < 5; i++) {
        assert_near(fk[i], want[i], 0);
        assert_near(fd[i], want[i], 0);
    }
    bool cut[5] = {false, false, true, false, false};
    assert_int_equal(rf_kchar_freq(f, 3, 0.5, cut, fk, NULL, &err), 0);
    const double want_cut[5] = {1, 0, 1, 0, 0};
    for (int i = 0; i < 5; i++)
        assert_near(fk[i], want_cut[i], 0);
    kb_free(f);
}

/* One block past RF_KIR_MAX_BLOCKS: every analysis refuses the function by
 * name, and loading a file with such a function names the file and the
 * line of the first block past the limit. */
static void block_limit(void **state)
{
    (void)state;
    kb_builder b;
    kb_begin(&b, "huge");
    for (int i = 0; i <= RF_KIR_MAX_BLOCKS; i++) {
        int x = kb_block(&b, "B");
        kb_i(&b, i == RF_KIR_MAX_BLOCKS ? "exit" : "alu r0 = r0");
        if (i > 0)
            kb_succ(&b, x - 1, x, -1);
    }
    rf_func *f = kb_finish(&b);
    assert_non_null(f);
    char want[128];
    snprintf(want, sizeof want, "function huge has %d basic blocks, more than rfkit's limit of %d",
             RF_KIR_MAX_BLOCKS + 1, RF_KIR_MAX_BLOCKS);
    double *fq = malloc(sizeof *fq * (size_t)f->nblocks);
    assert_non_null(fq);
    rf_err err = {0};
    rf_profile prof = {3, 0.5, 1, 1, 0, 1};
    assert_int_equal(rf_kchar_block_freq(f, &prof, fq, &err), RF_ELIMIT);
    assert_string_equal(err.msg, want);
    assert_int_equal(rf_dst_block_freq(f, 3, 0.5, NULL, fq, NULL, &err), RF_ELIMIT);
    assert_string_equal(err.msg, want);
    rf_live l;
    assert_int_equal(rf_live_compute(f, &l, &err), RF_ELIMIT);
    assert_string_equal(err.msg, want);
    rf_gpu gpu;
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_ctaset *cs = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, f, &prof, 2, 0, 1, 1, 1, &cs, &err), RF_ELIMIT);
    assert_null(cs);
    assert_string_equal(err.msg, want);
    free(fq);
    kb_free(f);

    /* A PTX file: lines 1-7 are the header and the first instruction
     * (block 0), then label i on line 8 + 2i and its instruction on
     * 9 + 2i opens block i + 1.  Block RF_KIR_MAX_BLOCKS (label
     * RF_KIR_MAX_BLOCKS - 1) is the first past the limit. */
    char path[] = "/tmp/rfkit-test-kchar-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    assert_non_null(fp);
    fprintf(fp, ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry lim()\n{\n"
                "\t.reg .b32 \t%%r<4>;\n\tmov.u32 \t%%r1, 0;\n");
    for (int i = 0; i < RF_KIR_MAX_BLOCKS; i++)
        fprintf(fp, "$L%d:\n\tadd.s32 \t%%r1, %%r1, 1;\n", i);
    fprintf(fp, "\tret;\n}\n");
    assert_int_equal(fclose(fp), 0);
    rf_module *m = NULL;
    assert_int_equal(rf_module_load(path, &m, &err), RF_ELIMIT);
    assert_null(m);
    snprintf(want, sizeof want, "%s:%d: function lim has %d basic blocks, more than rfkit's limit of %d",
             path, 9 + 2 * (RF_KIR_MAX_BLOCKS - 1), RF_KIR_MAX_BLOCKS + 1, RF_KIR_MAX_BLOCKS);
    assert_string_equal(err.msg, want);
    unlink(path);
}

/* The pool balance (kchar.c): 2 schedulers, 1 pool place each, 2 CTAs
 * resident of 2 warps; warp 0 of every CTA lands on scheduler 0, warp 1 on
 * scheduler 1 (slot mod 2).  64 CTAs: the fluid's 2 + max(12, 48) = 50
 * never cycle the set.  A place keeps its warp to the warp's next stop
 * (barrier, end, memory wait); the freed place takes the warp that left
 * one longest ago.  Ratios in the steady state (after 4 CTAs end):
 *   Warps of 1 and 3 instructions: scheduler 1 is the bottleneck, a CTA
 *   ends every 3 units, scheduler 0 works 1 of them; scheduler 1 always
 *   holds 2 ready warps (its running one and the next CTA's): per 3 units,
 *   1 with both places used, 2 with scheduler 1's alone, min(2, ready) = 2
 *   throughout: (2 + 1 x 2) / (2 x 3) = 2/3.
 *   Warps of 2 and 2: both places busy throughout: 1.
 *   Phases (1, 3) and (3, 1) behind a barrier: the two CTAs settle a phase
 *   apart (one CTA's long phase on scheduler 0 while the other's is on
 *   scheduler 1), so each scheduler always holds a ready warp: 1 (a
 *   place shared by its scheduler's warps at once would idle: 2/3).
 *   The same totals without the barrier, (4) and (4): 1.
 *   2 places per scheduler hold both its warps: 1 without a fluid.
 *   Warps of 4 and 2 instructions: scheduler 0 the bottleneck, a CTA ends
 *   every 4 units, scheduler 1 works 2 of them while scheduler 0 holds 2
 *   ready warps: (2 x 2 + 1 x 2) / (2 x 4) = 3/4.  The same warp 0 with
 *   one memory stall of 2 cycles in its lone walk (s_dep 0, so a pace of
 *   a cycle an instruction: one wait of 2 units halfway through its 4
 *   instructions): per period of 8 units (2
 *   CTAs), 4 with 2 ready warps on scheduler 0 and 1 on scheduler 1, 4
 *   with scheduler 1 empty and scheduler 0's other warp away on memory
 *   (1 ready): (2 x 4 + 1 x 4) / (2 x 4 + 1 x 4) = 1. */
static void pool_balance_by_hand(void **state)
{
    (void)state;
    const float a[2][2] = {{1, 0}, {3, 0}}, b[2][2] = {{2, 0}, {2, 0}};
    const float c[2][2] = {{1, 3}, {3, 1}}, d[2][2] = {{4, 0}, {4, 0}};
    const float e[2][2] = {{4, 0}, {2, 0}};
    rf_ctaset *cs = ctaset_two_warps(64, 1, a);
    assert_float_equal(rf_kchar_pool_eff(cs, 2, 1, 2), 2.0 / 3.0, 1e-9);
    assert_float_equal(rf_kchar_pool_eff(cs, 2, 2, 2), 1.0, 0);
    rf_kchar_ctaset_free(cs);
    cs = ctaset_two_warps(64, 1, b);
    assert_float_equal(rf_kchar_pool_eff(cs, 2, 1, 2), 1.0, 1e-9);
    rf_kchar_ctaset_free(cs);
    cs = ctaset_two_warps(64, 2, c);
    assert_float_equal(rf_kchar_pool_eff(cs, 2, 1, 2), 1.0, 1e-9);
    rf_kchar_ctaset_free(cs);
    cs = ctaset_two_warps(64, 1, d);
    assert_float_equal(rf_kchar_pool_eff(cs, 2, 1, 2), 1.0, 1e-9);
    rf_kchar_ctaset_free(cs);
    cs = ctaset_two_warps(64, 1, e);
    assert_float_equal(rf_kchar_pool_eff(cs, 2, 1, 2), 0.75, 1e-9);
    for (int k = 0; k < 64; k++) {
        cs->time[cs->off[k]] = 6;           /* warp 0's phase 0 */
        cs->mem_cyc[cs->off[k]] = 2;
        cs->mem_n[cs->off[k]] = 1;
    }
    assert_float_equal(rf_kchar_pool_eff(cs, 2, 1, 2), 1.0, 1e-9);
    rf_kchar_ctaset_free(cs);
}

/* A run of more CTAs than the critical walk takes (trsv: 512 CTAs of 2
 * warps on one SM; loop trips and branches drawn per warp): its
 * instructions per warp come from the sample's CTAs (0 .. 127), the
 * critical walk's (256 .. 511) and the paths of the rest (128 .. 255),
 * and are exactly those of a walk of all 512 CTAs with the same draws:
 * whole numbers, each CTA's the same whichever way it is counted. */
static void run_count_from_walks_and_paths(void **state)
{
    (void)state;
    rf_err err = {0};
    rf_gpu gpu;
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    assert_int_equal(rf_kernel_load("inputs/validation/trsv.spec", &o, &k, &err), 0);
    assert_int_equal(rf_kernel_ctas(k), 512);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute_walked_jobs(&gpu, k, &kc, NULL, 2, &err), 0);
    rf_ctaset *all = NULL;
    assert_int_equal(rf_kchar_ctaset(&gpu, k->func, &k->profile, kc.warps_per_cta, 0, 512, 1, 1,
                                     &all, &err),
                     0);
    double total = 0;
    for (int c = 0; c < all->nctas; c++)
        for (int q = 0; q < all->wpc * all->nph[c]; q++)
            total += rf_ctaset_insts(all, c, 0)[q];
    assert_true(kc.insts_per_warp == total / (512.0 * kc.warps_per_cta));
    rf_kchar_ctaset_free(all);
    rf_kernel_destroy(k);
}

/* A GPU whose scheduler is two-level gets the table, at the baseline's
 * resident CTAs first (sfu on maxwell-ltrf: 8 CTAs of 8 warps, thread
 * bound, the most the SM holds); others none.  sfu's trip counts, drawn
 * per warp, leave places empty at 2 a scheduler (the sampler's own full
 * run: 0.736 of them issue, kchar.c). */
static void pool_balance_table(void **state)
{
    (void)state;
    rf_err err = {0};
    rf_gpu gpu;
    assert_int_equal(rf_gpu_preset("maxwell-ltrf", &gpu, &err), 0);
    assert_int_equal(gpu.sched_policy, RF_SCHED_TWO_LEVEL);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    assert_int_equal(rf_kernel_load("inputs/kernels/sfu.spec", &o, &k, &err), 0);
    rf_ipc_kernel kc;
    assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), 0);
    assert_int_equal(kc.pool_n[0], 8);
    assert_int_equal(kc.pool_n[1], 0);
    for (int i = 0; i < RF_IPC_NPOOLP; i++)
        assert_true(kc.pool_eff[i][0] > 0 && kc.pool_eff[i][0] <= 1);
    assert_true(kc.pool_eff[1][0] < 0.9);
    assert_float_equal(rf_ipc_pool_eff(&kc, 2, 8), kc.pool_eff[1][0], 1e-6);
    /* The table's entries are pool jobs, each its own: the same bytes on
     * two threads. */
    rf_ipc_kernel k2;
    assert_int_equal(rf_kchar_compute_walked_jobs(&gpu, k, &k2, NULL, 2, &err), 0);
    assert_memory_equal(kc.pool_eff, k2.pool_eff, sizeof kc.pool_eff);
    assert_memory_equal(kc.pool_n, k2.pool_n, sizeof kc.pool_n);
    /* Row 1 alone (2 places a scheduler): that row's bytes, the others 0. */
    assert_int_equal(rf_kchar_compute_rows(&gpu, k, &k2, 2, 0x2, &err), 0);
    for (int i = 0; i < RF_IPC_NPOOLP; i++)
        for (int j = 0; j < RF_IPC_NPOOLN; j++)
            assert_float_equal(k2.pool_eff[i][j], i == 1 ? kc.pool_eff[i][j] : 0.0f, 0);
    assert_float_equal(rf_ipc_pool_eff(&k2, 2, 8), rf_ipc_pool_eff(&kc, 2, 8), 0);
    /* No row (a design without a pool): an empty table, balance 1. */
    assert_int_equal(rf_kchar_compute_rows(&gpu, k, &k2, 2, 0, &err), 0);
    for (int i = 0; i < RF_IPC_NPOOLP; i++)
        for (int j = 0; j < RF_IPC_NPOOLN; j++)
            assert_float_equal(k2.pool_eff[i][j], 0.0f, 0);
    assert_float_equal(rf_ipc_pool_eff(&k2, 2, 8), 1.0, 0);
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    assert_int_equal(rf_kchar_compute(&gpu, k, &kc, &err), 0);
    assert_int_equal(kc.pool_n[0], 0);
    assert_float_equal(rf_ipc_pool_eff(&kc, 2, 8), 1.0, 0);
    rf_kernel_destroy(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_and_repeats),
        cmocka_unit_test(barrier_regions_split_the_mix),
        cmocka_unit_test(live_fraction),
        cmocka_unit_test(ctaset_slice_is_the_walk),
        cmocka_unit_test(critical_time_counts_every_phase),
        cmocka_unit_test(rows_lie_cta_after_cta),
        cmocka_unit_test(ctaset_reuse_is_the_walk),
        cmocka_unit_test(compute_walked_is_compute),
        cmocka_unit_test(sample_is_the_runs_ctas),
        cmocka_unit_test(active_warp_distribution),
        cmocka_unit_test(turn_length),
        cmocka_unit_test(dram_stream_ends),
        cmocka_unit_test(dram_none_as_the_sampler),
        cmocka_unit_test(big_cfg_frequencies),
        cmocka_unit_test(irreducible_and_unbounded),
        cmocka_unit_test(one_rule_on_a_kernel),
        cmocka_unit_test(one_rule_edge_kinds),
        cmocka_unit_test(block_limit),
        cmocka_unit_test(pool_balance_by_hand),
        cmocka_unit_test(pool_balance_table),
        cmocka_unit_test(run_count_from_walks_and_paths),
        cmocka_unit_test(memo_changes_no_walk),
        cmocka_unit_test(cta_alone_holds_the_pipes),
        cmocka_unit_test(lone_cta_holds_the_pipes),
        cmocka_unit_test(memo_run_through_fall_through),
        cmocka_unit_test(memo_fixed_point_loop),
        cmocka_unit_test(loop_draws_are_the_ctas),
        cmocka_unit_test(walk_counts_the_run_of_its_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
