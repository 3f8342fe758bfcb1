/* plan.c - sampling plan.
 *
 * Design points (B0, C0: the GPU's banks and collectors), one window each:
 *   baseline, B0 banks                 the level (scheduler share, rate)
 *   baseline, B0/4 banks               bank queueing (conflict_scale)
 *   stealing, B0/2 banks               what stealing removes
 *   baseline, B0 banks, C0/2 collectors  the collector hold (coll_base)
 *   hirf concat and hirf tea, at the   register-cache locality and the
 *   level's position                   NVM write-back stall (GPUs with
 *                                      an NVM main file, seed 002)
 * Every window also measures the level, which is what a short window
 * measures least well: a kmeans window of 1,300 cycles reads 0.81-1.11 at
 * neighbouring grid positions (CTAs 696-728, sampler seed 1) against 1.04-1.11
 * for 20,000-cycle stretches of the same run.  The windows therefore sit at
 * distinct positions, so that their noise on the level averages out.
 * Positions: the m ordinary points kept (baseline and stealing, up to four)
 * stratify the run's CTAs (the run's: the whole grid, or the busiest SM's
 * share of a spread grid, inputs/kernel.h), the j-th at the middle of
 * stratum j, skip_ctas = floor((j + 1/2) ctas / m): 12.5, 37.5, 62.5 and
 * 87.5% for four.  A position is a CTA, not a whole resident wave: the
 * functional walk (rf_plan_warm) starts the window where that CTA is
 * dispatched, so a run of a few waves still gets distinct positions
 * (whole waves would put two to four windows of a 2-5-wave share on one
 * CTA).  On a run of one wave every position is the run's start.
 * Sizing: the samples (warm-up and window) share the budget equally,
 * budget / n cycles each, budget = 4.25% of the estimated full run of the
 * kernel's run unless given (5% with room for the estimate's error).  The
 * windows' length thus follows the run: a short run gets short windows,
 * down to MIN_SAMPLE_LATS DRAM latencies for the sample: a timed warm-up
 * of one latency (rf_plan_warm) and a window of one at least, since a
 * window shorter than the memory round trip sees no warp through a memory
 * wait and says nothing about the level.  Under the default budget a
 * sample of a spread grid's share (the default run) is at least
 * DEFAULT_SAMPLE_LATS DRAM latencies, of the whole grid on one SM
 * MIN_SAMPLE_LATS: a run too short
 * for every point gets as many such samples as fit (the first points of
 * the table: fewer, longer windows), and none when not even one fits
 * (below 4 x 330 / 0.0425 = 31,059 estimated cycles on fermi-gtx480, 2 x
 * 330 / 0.0425 = 15,530 for the whole grid on one SM); a
 * given budget keeps every point at the least sample.  What a window covers of a CTA lifetime
 * (budget / n against the estimated full run x resident / CTAs) sets its
 * noise in the fit (calibrate/calibrate.c, short_factor).
 *
 * Design windows (rf_plan_make_design; calibrate --design finereg): two
 *   windows of the design at the level's and the stealing window's CTAs
 *   (the last ordinary point kept when that one is not), placed right after the level's window so that a short
 *   kernel's budget drops the structure windows first, then moved to the
 *   end of the plan (plan->ndesign); the budget is shared over all points
 *   (4 + 2, or 6 + 2 on an NVM GPU), so the ordinary windows are shorter
 *   than without a design.  Their cost is the same 4.25% of the estimated
 *   full run.
 *
 * Functional warming (rf_plan_warm; the default, calibrate --cold turns it
 * off): after a cold start the CTAs
 * that finish first (the short ones) restart soonest, so for a few CTA
 * lifetimes a window sees more CTA prologues and short paths than a mid-run
 * SM, where a slot holds a CTA with probability proportional to its length
 * (kmeans, geometric loop trips: 1000-cycle windows after 0, 1000 and 5000
 * cycles read IPC 1.29, 1.14 and 1.09 on average over 24 grid positions; a
 * full run's middle reads 1.08).  Each window then starts WARM_TURNS CTA
 * turnovers per slot earlier in the grid (not before CTA 0) and walks them
 * untimed (sampler/dispatcher.c; the window model does the same,
 * analytic/waves.c), which removes that bias (1.09, 1.06 and 1.06 for the
 * same windows); the timed warm-up then only fills the pipeline and the
 * memory queues: one DRAM latency (at most one CTA lifetime, half a
 * sample), the rest of the sample is window.  Its length hardly matters
 * once warmed: kmeans windows of 1312 cycles at the plan's two positions,
 * 12 seeds each, read 1.070 +- 0.015 after 660 timed cycles, 1.097 after
 * 2000, 1.085 after 5000, 1.061 after 8000.  With the windows at four
 * positions, two, one and half a DRAM latency give a six-seed mean / worst
 * of 1.99% / 7.53%, 1.86% / 7.20% and 1.93% / 7.13%: one, which leaves
 * the most cycles to the window without going below the memory round trip.
 * On volta-hirf too: a quarter or half of each sample as timed warm-up
 * (same cost) gave bench_hirf's Table 5 (window seeds 1-20 against full
 * runs averaged over seeds 1-5) 2.63% / 8.59% and 2.80% / 9.60% mean /
 * worst averaged, against 2.33% / 8.39% with one DRAM latency.
 *
 * Limits of this placement.  The functional walk moves every warp alike,
 * so where a kernel's CTAs all have one length they finish together and
 * every window starts where a wave starts, whatever its grid position; and
 * one DRAM latency of timed warm-up does not refill a bandwidth-bound
 * memory queue, so the first wave after it runs unloaded.  transpose on
 * volta-hirf (waves of 8 CTAs, about 6,000 cycles: some 3,000 cycles at
 * IPC 1.1, then some 3,000 near 0.1) reads 0.92-0.99 in 6,094-cycle
 * windows after 400 timed cycles at the four positions, 0.50-0.61 after
 * 5,969 (one CTA lifetime), against 0.616 for the full run.  Where CTA
 * lifetimes exceed the window (reduce on volta-hirf: 9,825-cycle windows,
 * 22,556-cycle lifetimes) every window reads the same early part of its
 * CTAs, so the windows' errors against the window model are common to
 * all of them and do not average out over positions.
 * Settled samples: where each point's window would be shorter than one
 * CTA lifetime and the budget holds at least two samples of a timed
 * warm-up of 1.5 lifetimes and a window of one (after the DRAM latency's
 * fill), the plan takes as many such samples as the budget holds and
 * fewer points (the structure windows go first; the level's window and,
 * on an NVM GPU, the HI-RF windows at its CTAs stay), and the timed
 * warm-up (1.5 lifetimes, at most half a sample) stays after the
 * functional walk (plan->settle): transpose's two samples (baseline and
 * HI-RF concat at CTA 512, 8,117 cycles of warm-up, 8,118 of window)
 * instead of six 5,411-cycle ones.
 * The window model replays the same warm-up, so it sees the same stretch.
 * A kernel whose budget holds fewer than two keeps the ordinary plan
 * (reduce on volta-hirf: 61,350 cycles against 56,790 per settled sample),
 * unless every CTA of its run is one and the same (no branch or cache
 * draw tells them apart, one_state below): the functional walk, which
 * moves every warp alike, then ends with every slot's CTA at the start of
 * its code wherever the window sits, so the ordinary windows are one
 * sample of a cold start's state (bscholes on fermi-gtx480: four 1,320-
 * cycle windows read 0.934 each against a full run of 1.213, whose CTAs
 * drift out of step within a lifetime), and one settled sample, whose
 * timed warm-up lets the run's own timing set the CTAs' phases, takes
 * the budget (bscholes: 1.224 after 3,300 timed cycles).
 */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "../analytic/rcindex.h"
#include "extrapolate.h"

/* The shortest sample: a timed warm-up and a window of one DRAM latency
 * each (a window shorter than the memory round trip sees a warp through
 * no memory wait at all: it says nothing about the level), or MIN_SAMPLE
 * cycles on a GPU without a DRAM latency. */
#define MIN_SAMPLE 1000
#define MIN_SAMPLE_LATS 2
/* Under the default budget, a grid spread over the GPU's SMs (the default
 * run: SM 0's share, inputs/kernel.h) takes samples of at least
 * DEFAULT_SAMPLE_LATS DRAM latencies (a timed warm-up of one and a window
 * of three): a short share's
 * windows of 1.6-2 latencies read its level far off (conv_row's share on
 * fermi-gtx480: 518-cycle windows 1.05-1.69 IPC at warm-ups of 0.3-16k
 * cycles, 5,000-cycle windows 1.20-1.25, the full share 1.21), so fewer,
 * longer windows.  Chosen on the nine tuning kernels' default runs (the
 * busiest SM of 15, shares of 9,800-260,000 cycles; bench_validation,
 * calibration seeds 1-4, calibrated mean |error|): 2 latencies 4.67%, 3
 * 4.59%, 4 4.39%, 5 4.50%, 6 4.62%, 8 4.47%.  The whole grid on one SM
 * keeps MIN_SAMPLE_LATS: its samples on fermi-gtx480 are longer than
 * either, and the HI-RF points of short kernels on volta-hirf (kmeans'
 * 677-cycle windows) were sized on it (calibrate/pffit.c, bench_hirf). */
#define DEFAULT_SAMPLE_LATS 4
/* Share of the estimated full run the samples may cost: 4.25%, so that the
 * 5% target holds when the estimate is up to 15% long. */
#define BUDGET_SHARE 0.0425
/* Functional warming: CTA turnovers per slot walked before a window (the
 * age mix of a renewal process with lengths of coefficient of variation
 * near 1 settles within a few turnovers). */
#define WARM_TURNS 4
/* Settled samples: a timed warm-up of SETTLE_WARM CTA lifetimes (chosen on
 * the nine tuning kernels, bench_hirf Table 6, calibration seeds 1-3: 1
 * and 1.5 lifetimes both 3.31% mean, coverage 88.9% and 91.9%, median
 * width 21.1% and 20.5%; 2 leaves no kernel settled), at least SETTLE_MIN
 * of them (their scatter is the level's noise), or one where every window
 * would start from one state (one_state: n windows there are one sample of
 * the level, however placed), or none; points dropped
 * for them in this order (indices of rf_plan_make_design's table: the
 * collector window, the B0/4 window, stealing, HI-RF fully associative,
 * TEA, concat). */
#define SETTLE_WARM 1.5
#define SETTLE_MIN 2
static const int SETTLE_DROP[] = {3, 1, 2, 6, 5, 4};

/* The HI-RF design sampled on an NVM-backed GPU: base assignment, a
 * concatenated index with up to three register bits (the TEA and fully
 * associative windows take its geometry with their own index).  False
 * when the GPU has no NVM main file or register cache.  The fully
 * associative cache has a window of its own because its closed form
 * misses its conflicts both ways (sampler / model, write-backs per 100
 * writes: stream 59 / 1, nbody 12 / 38); with it, bench_hirf's Table 6
 * over calibration seeds 1-3, validation worst 15.7% -> 11.6% at the same
 * mean (3.53%).  Other assignments in the HI-RF windows measured worse on
 * bench_hirf's Table 5 (window seeds 1-20 against full runs averaged over
 * seeds 1-5, worst averaged; 8.39% with base): concat CAC (the CLI's
 * default) 12.75%, concat Worst 9.25%, TEA Worst 9.60%, both Worst
 * 11.47%. */
static bool hirf_default(const rf_gpu *gpu, rf_design *d)
{
    if (gpu->nvm_write_latency <= 1 || gpu->rc_entries < 2)
        return false;
    rf_design_init(d);
    d->kind = RF_DESIGN_HIRF;
    d->assign = RF_ASSIGN_BASE;
    int ib = 0;
    while ((1 << (ib + 1)) <= gpu->rc_entries)
        ib++;
    d->rbits = ib < 3 ? ib : 3;
    d->wbits = ib - d->rbits;
    rf_rc_geom g;
    return rf_rc_geom_for(d, gpu, &g, NULL) == 0;
}

/* A plan's start: the uncalibrated estimate of the whole run (one SM, as
 * the sampler's run) at design base, its cycles, and the budget (the given
 * cycles, or share of them). */
static int plan_begin(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                      const rf_design *base, uint64_t budget_cycles, double share,
                      rf_plan *plan, rf_estimate *e, rf_err *err)
{
    memset(plan, 0, sizeof *plan);
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    int rc = rf_extrap_estimate(gpu, base, kc, &shape, NULL, e, err);
    if (rc)
        return rc;
    plan->full_cycles = e->cycles;
    plan->budget = budget_cycles > 0 ? (double)budget_cycles : share * e->cycles;
    return RF_OK;
}

/* Whether every CTA of the run is one and the same: the run's last CTAs
 * (kc->lone, every CTA of a run of at most RF_IPC_NLONE) all take the same
 * lone cycles for the same instructions, as where no branch or cache draw
 * tells the warps' paths and waits apart.  The functional walk then starts
 * every window from one state, wherever it sits. */
static bool one_state(const rf_ipc_kernel *kc)
{
    if (kc->nlone < 2)
        return false;
    for (int i = 1; i < kc->nlone; i++)
        if (kc->lone[i] != kc->lone[0] || kc->lone_insts[i] != kc->lone_insts[0])
            return false;
    return true;
}

double rf_plan_cta_life(const rf_plan *plan, long ctas)
{
    return ctas > 0 && plan->resident > 0 ? plan->full_cycles * plan->resident / (double)ctas
                                          : 0.0;
}

int rf_plan_make(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                 uint64_t budget_cycles, rf_plan *plan, rf_err *err)
{
    return rf_plan_make_design(gpu, k, kc, budget_cycles, NULL, plan, err);
}

int rf_plan_make_design(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                        uint64_t budget_cycles, const rf_design *dd, rf_plan *plan,
                        rf_err *err)
{
    rf_design base;
    rf_design_init(&base);
    rf_estimate e;
    int rc = plan_begin(gpu, k, kc, &base, budget_cycles, BUDGET_SHARE, plan, &e, err);
    if (rc)
        return rc;

    int b0 = gpu->rf_banks > 0 ? gpu->rf_banks : 16;
    int bq = b0 / 4 >= 2 ? b0 / 4 : 2;
    int bh = b0 / 2 >= 2 ? b0 / 2 : 2;
    int c0 = gpu->collectors > 0 ? gpu->collectors : 16;
    int ch = c0 / 2 >= 3 ? c0 / 2 : 3;
    /* at: the ordinary point whose position a HI-RF or design window
     * shares (the level's, or the stealing window's). */
    struct {
        int kind, banks, colls, index, at;
        double where;
    } pts[RF_PLAN_ORD + RF_PLAN_DESIGN] = {
        {RF_DESIGN_BASELINE, b0, 0, 0, -1, 0},
        {RF_DESIGN_BASELINE, bq, 0, 0, -1, 0},
        {RF_DESIGN_STEALING, bh, 0, 0, -1, 0},
        {RF_DESIGN_BASELINE, b0, ch, 0, -1, 0},
        {RF_DESIGN_HIRF, 0, 0, RF_RC_CONCAT, 0, 0},
        {RF_DESIGN_HIRF, 0, 0, RF_RC_TEA, 0, 0},
        {RF_DESIGN_HIRF, 0, 0, RF_RC_FULL, 0, 0},
    };
    /* HI-RF points when the main file is NVM (seed 002): the register cache
     * with the concatenated, the TEA and the fully associative index, base
     * assignment. */
    rf_design hirf;
    int npts = hirf_default(gpu, &hirf) ? 7 : 4;
    /* Design windows (dd): RF_PLAN_DESIGN windows of dd right after the
     * level's window, at the positions of the level's and the stealing
     * window (the same CTAs as those), so that a budget too small for every
     * point drops the structure windows first. */
    if (dd) {
        for (int i = npts - 1; i >= 1; i--)
            pts[i + RF_PLAN_DESIGN] = pts[i];
        for (int j = 0; j < RF_PLAN_DESIGN; j++) {
            pts[1 + j].kind = -1;
            pts[1 + j].at = 2 * j;
        }
        npts += RF_PLAN_DESIGN;
    }
    long ctas = rf_kernel_ctas(k);
    int resident = e.occ.active_ctas > 0 ? e.occ.active_ctas : e.occ.ctas_per_sm;
    plan->resident = resident;
    int n = 0;
    /* Warm-up: one CTA lifetime (the cold start's lock step is the part the
     * window model reproduces least well), at most half of a sample. */
    /* A sample (warm-up and window) spans its share of the budget, at
     * least `least` cycles (MIN_SAMPLE_LATS DRAM latencies).  (A minimum on
     * the window alone put the warm-up on top: kmeans on maxwell-gtx980,
     * budget 3,974 cycles, cost 5.9% of its full run.) */
    /* A default budget is a ceiling: a kernel too short for npts samples
     * (of DEFAULT_SAMPLE_LATS latencies on a spread grid, `least` on the
     * whole grid) within it gets as many as fit, in the table's
     * order (the level's window first), and none when not even one fits
     * (the estimates then stay uncalibrated).  A budget the caller gives
     * keeps every point at `least` cycles at least. */
    double lat = gpu->dram_latency > 0 ? (double)gpu->dram_latency : 0.0;
    double least = lat > 0 ? MIN_SAMPLE_LATS * lat : MIN_SAMPLE;
    if (budget_cycles == 0) {
        double want = lat > 0 ? (rf_kernel_sms(k) > 1 ? DEFAULT_SAMPLE_LATS : MIN_SAMPLE_LATS) * lat
                              : MIN_SAMPLE;
        int fit = (int)(plan->budget / want);
        npts = fit < npts ? fit : npts;
    }
    double life = rf_plan_cta_life(plan, ctas);
    /* Settled samples (the top: limits of this placement): where the
     * default budget leaves each point a window shorter than one CTA
     * lifetime but holds at least SETTLE_MIN samples of a timed warm-up of
     * SETTLE_WARM lifetimes and a window of one (after the fill of one
     * DRAM latency), the plan keeps that many points and gives each such a
     * sample: the points dropped in SETTLE_DROP's order (the structure
     * windows first, the level's window never). */
    int smin = one_state(kc) ? 1 : SETTLE_MIN;
    if (budget_cycles == 0 && !dd && life > 0 && npts > smin) {
        int whole = (int)(plan->budget / (lat + (SETTLE_WARM + 1) * life));
        if (plan->budget / npts - lat < life && whole >= smin && whole < npts) {
            bool keep[RF_PLAN_ORD + RF_PLAN_DESIGN];
            for (int i = 0; i < npts; i++)
                keep[i] = true;
            for (int q = 0, left = npts; q < (int)(sizeof SETTLE_DROP / sizeof SETTLE_DROP[0])
                                         && left > whole; q++)
                if (SETTLE_DROP[q] < npts) {
                    keep[SETTLE_DROP[q]] = false;
                    left--;
                }
            int o = 0;
            for (int i = 0; i < npts; i++)
                if (keep[i])
                    pts[o++] = pts[i];
            npts = o;
            plan->settle = SETTLE_WARM * life;
            plan->one_state = whole < SETTLE_MIN;
        }
    }
    if (npts <= 0)
        return RF_OK;
    double per = plan->budget / npts;
    if (per < least)
        per = least;
    /* Positions: the m ordinary points kept (baseline and stealing) stratify
     * the run's CTAs, the j-th at the middle of stratum j, CTA floor((j +
     * 1/2) ctas / m); a HI-RF or design window takes the position of the
     * ordinary point it names (at; the last kept one when that one was
     * dropped). */
    int m = 0;
    for (int i = 0; i < npts; i++)
        m += pts[i].at < 0;
    for (int i = 0, j = 0; i < npts; i++)
        if (pts[i].at < 0)
            pts[i].where = (j++ + 0.5) / m;
    for (int i = 0; i < npts; i++) {
        if (pts[i].at < 0)
            continue;
        int want = pts[i].at < m ? pts[i].at : m - 1;
        for (int q = 0, j = 0; q < npts; q++)
            if (pts[q].at < 0 && j++ == want)
                pts[i].where = pts[q].where;
    }
    double lw = plan->settle > 0 ? plan->settle : life;
    uint64_t warm = (uint64_t)(lw < 0.5 * per ? lw : 0.5 * per);
    uint64_t window = (uint64_t)per - warm;
    for (int i = 0; i < npts; i++) {
        rf_plan_point *p = &plan->pt[n++];
        rf_design_init(&p->design);
        if (pts[i].kind < 0) {
            p->design = *dd;
            p->skip_ctas = (uint64_t)(pts[i].where * (double)ctas);
            p->warmup = warm;
            p->cycles = window;
            snprintf(p->label, sizeof p->label, "%s at %.0f%%", rf_design_name(dd->kind),
                     100 * pts[i].where);
            plan->cost += (double)(warm + window);
            continue;
        }
        if (pts[i].kind == RF_DESIGN_HIRF) {
            p->design = hirf;
            p->design.index = pts[i].index;
        }
        p->design.kind = pts[i].kind;
        p->design.banks = pts[i].banks;
        p->design.collectors = pts[i].colls;
        if (pts[i].kind == RF_DESIGN_STEALING)
            p->design.read_steal = p->design.write_steal = true;
        p->skip_ctas = (uint64_t)(pts[i].where * (double)ctas);
        p->warmup = warm;
        p->cycles = window;
        if (pts[i].kind == RF_DESIGN_HIRF)
            snprintf(p->label, sizeof p->label, "hirf index=%s",
                     pts[i].index == RF_RC_TEA    ? "tea"
                     : pts[i].index == RF_RC_FULL ? "full"
                                                  : "concat");
        else if (pts[i].colls)
            snprintf(p->label, sizeof p->label, "%s banks=%d coll=%d", rf_design_name(pts[i].kind),
                     pts[i].banks, pts[i].colls);
        else
            snprintf(p->label, sizeof p->label, "%s banks=%d", rf_design_name(pts[i].kind),
                     pts[i].banks);
        plan->cost += (double)(warm + window);
    }
    plan->n = n;
    /* The design windows last (the calibration fits the ordinary points
     * first, then the design's parameters on its windows). */
    if (dd) {
        rf_plan_point ord[RF_PLAN_MAX], des[RF_PLAN_MAX];
        int no = 0, nd = 0;
        for (int i = 0; i < n; i++) {
            if (plan->pt[i].design.kind == dd->kind && plan->pt[i].design.kind != RF_DESIGN_BASELINE)
                des[nd++] = plan->pt[i];
            else
                ord[no++] = plan->pt[i];
        }
        memcpy(plan->pt, ord, sizeof ord[0] * (size_t)no);
        memcpy(plan->pt + no, des, sizeof des[0] * (size_t)nd);
        plan->ndesign = nd;
    }
    return RF_OK;
}

void rf_plan_warm(const rf_gpu *gpu, rf_plan *plan)
{
    if (plan->n <= 0)
        return;
    uint64_t turns = (uint64_t)WARM_TURNS * (uint64_t)(plan->resident > 0 ? plan->resident : 1);
    double fill = gpu->dram_latency > 0 ? gpu->dram_latency : 0;
    plan->cost = 0;
    for (int i = 0; i < plan->n; i++) {
        rf_plan_point *p = &plan->pt[i];
        p->warm_ctas = turns < p->skip_ctas ? turns : p->skip_ctas;
        /* The old warm-up was one CTA lifetime (a settled sample's
         * SETTLE_WARM), at most half a sample; a settled sample keeps it. */
        double life = (double)p->warmup;
        double w = fill < life && !(plan->settle > 0) ? fill : life;
        uint64_t span = p->warmup + p->cycles;
        p->warmup = (uint64_t)w;
        p->cycles = span - p->warmup;
        plan->cost += (double)span;
    }
}

bool rf_plan_has_hirf(const rf_gpu *gpu)
{
    rf_design d;
    return hirf_default(gpu, &d);
}

/* Register-cache plan (rf_plan_make_pf; calibrate/pffit.c fits it).
 *
 * Per position: the baseline, then RFC on configuration #7 (the slowest
 * main file, 6.3x: a read miss costs most there, so RFC's miss stall
 * shows) and LTRF on #7 (PREFETCH and activation stalls at their largest).
 * Each register-cache window runs the baseline window's CTAs from the same
 * place after the same functional warming, with the same sampler seed and
 * the template's pool, so that its ratio to that baseline window is the
 * design's effect, the position's own level (which CTAs, at what age:
 * several percent from one position to the next) the same in both.  (A
 * fourth point, LTRF on #1 for the cache banks' queue, measured no better
 * on bench_ltrf_calib and took a quarter of the budget.)
 * Positions: PF_WHERE, in that order, as many as the budget holds
 * RF_PLAN_PF_PTS samples of at least a PF_TIMED_WARM warm-up and a
 * MIN_SAMPLE window, up to RF_PLAN_PF_POS; each rounded down to whole
 * resident waves of the baseline, and one pair per distinct position (a
 * grid of few waves rounds several to the same CTA).  A budget for less
 * than one whole position keeps the first points of one position (a pair
 * at least: the baseline and RFC #7); less than a pair, none.
 * Warming: WARM_TURNS CTA turnovers per slot walked untimed (not before
 * CTA 0), as rf_plan_warm, then a timed warm-up of PF_TIMED_WARM cycles
 * (at least one DRAM latency): the windows start with the register cache
 * empty, and the caches' warps all fetch at once.  nbody (16 CTAs on
 * maxwell-ltrf) reads LTRF #7 at 0.54, 0.57, 0.70 and 0.86 of the
 * baseline after 700, 1000, 1400 and 2000 timed cycles, its full runs
 * 0.82; jacobi9 0.90, 0.94, 0.99 after 700, 1000, 1400 (full runs 0.92).
 * A window that still starts at CTA 0 (a grid of a few waves) reads the
 * kernel's start-up: it is at least MIN_SAMPLE cycles long like every
 * other.  Cost: the samples (warm-ups and windows) share the budget
 * equally, PF_BUDGET_SHARE = 3% of the estimated full run of the baseline
 * unless given: the calibration's level (calibrate/pffit.c) takes another
 * 2.5-3% of a full run's CPU time, the fit 1.5-2%, and the windows
 * (RFC's and LTRF's cycles cost more than the baseline's) 3.5-3.9% at 3%
 * of its cycles (bench_ltrf_calib, medians: 8.5-9.9% in all of a full
 * LTRF #6 run; 4.25% of the cycles made it 13-15%). */
static const double PF_WHERE[RF_PLAN_PF_POS] = {0.3, 0.5, 0.7, 0.4};
#define PF_TIMED_WARM 1000
#define PF_BUDGET_SHARE 0.03
static const struct {
    int kind, config;
    bool plus;
} PF_PTS[RF_PLAN_PF_PTS] = {
    {RF_DESIGN_BASELINE, 0, false},
    {RF_DESIGN_RFC, 7, false},
    {RF_DESIGN_LTRF, 7, false},
};

bool rf_plan_pf_few_waves(long ctas, int resident)
{
    return resident > 0 && ctas < RF_PLAN_PF_MIN_WAVES * (long)resident;
}

int rf_plan_make_pf(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                    const rf_design *tmpl, uint64_t budget_cycles, rf_plan *plan, rf_err *err)
{
    rf_design base = *tmpl;
    base.kind = RF_DESIGN_BASELINE;
    rf_estimate e;
    int rc = plan_begin(gpu, k, kc, &base, budget_cycles, PF_BUDGET_SHARE, plan, &e, err);
    if (rc)
        return rc;
    long ctas = rf_kernel_ctas(k);
    int resident = e.occ.active_ctas > 0 ? e.occ.active_ctas : e.occ.ctas_per_sm;
    plan->resident = resident;
    double fill = gpu->dram_latency > 0 ? gpu->dram_latency : 0;
    uint64_t warmup = (uint64_t)(fill > PF_TIMED_WARM ? fill : PF_TIMED_WARM);
    double least = (double)(warmup + MIN_SAMPLE);
    int slots = (int)(plan->budget / least);
    int npos = slots / RF_PLAN_PF_PTS, per = RF_PLAN_PF_PTS;
    if (npos > RF_PLAN_PF_POS)
        npos = RF_PLAN_PF_POS;
    if (npos == 0 && slots >= 2) {
        npos = 1;
        per = slots;
    }
    if (npos == 0)
        return RF_OK;
    /* A run of fewer than RF_PLAN_PF_MIN_WAVES waves has no mid-run: every
     * window would read the start-up or the tail. */
    if (rf_plan_pf_few_waves(ctas, resident))
        return RF_OK;
    /* A grid of few waves rounds two positions to the same CTA: one
     * window pair there, not two copies of one measurement. */
    long skips[RF_PLAN_PF_POS];
    int at[RF_PLAN_PF_POS], used = 0;
    for (int g = 0; g < npos; g++) {
        long skip = (long)(PF_WHERE[g] * ctas);
        if (resident > 0)
            skip -= skip % resident;
        bool seen = false;
        for (int q = 0; q < used; q++)
            seen |= skips[q] == skip;
        if (!seen) {
            at[used] = g;
            skips[used++] = skip;
        }
    }
    npos = used;
    double span = plan->budget / (npos * per);
    uint64_t turns = (uint64_t)WARM_TURNS * (uint64_t)(resident > 0 ? resident : 1);
    for (int q = 0; q < npos; q++) {
        long skip = skips[q];
        int g = at[q];
        for (int j = 0; j < per; j++) {
            rf_plan_point *p = &plan->pt[plan->n++];
            p->design = *tmpl;
            p->design.kind = PF_PTS[j].kind;
            p->design.rf_config = PF_PTS[j].config ? PF_PTS[j].config : tmpl->rf_config;
            p->design.plus = PF_PTS[j].plus;
            p->design.latency_x = 0;
            p->skip_ctas = (uint64_t)(skip > 0 ? skip : 0);
            p->warm_ctas = turns < p->skip_ctas ? turns : p->skip_ctas;
            p->warmup = warmup;
            p->cycles = (uint64_t)span - warmup;
            if (PF_PTS[j].kind == RF_DESIGN_BASELINE)
                snprintf(p->label, sizeof p->label, "baseline at %.0f%%", 100 * PF_WHERE[g]);
            else
                snprintf(p->label, sizeof p->label, "%s%s #%d at %.0f%%",
                         rf_design_name(PF_PTS[j].kind), PF_PTS[j].plus ? "+" : "",
                         PF_PTS[j].config, 100 * PF_WHERE[g]);
            plan->cost += (double)(p->warmup + p->cycles);
        }
    }
    plan->ndesign = per - 1;
    return RF_OK;
}
