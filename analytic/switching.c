/* switching.c - closed forms of the occupancy-raising designs (seed 000
 * Sections IV-VI, seed 003 Sections 4-5), the closed-form side of
 * sampler/ctaswitch.c, sampler/sharing.c and sampler/regmutex.c.
 *
 * CTA switching (Virtual Thread, Reg+DRAM, FineReg, VT+RegMutex; seed 000
 * Sections IV, V.E, VI.A).  A active places, P pending CTAs behind them.
 * A CTA is switched out when every warp it has waits on global memory.
 *   All-stalled share.  A lone warp waits on memory a share
 *     q = m S_mem / cpi_lone                (cpi_lone = 1 + a S_dep + m S_mem,
 *                                            analytic/kchar.c, ipc.c)
 *   of its time, L = m S_mem / n_mem cycles per wait (n_mem: memory waits
 *   per instruction).  Warps of a CTA run the same code, so their waits
 *   overlap more than independent ones would: with e = 1 + (1 - sync)(w - 1)
 *   (w the CTA's issuing warps, sync a free parameter, 1 = all warps wait
 *   together, 0 = independently)
 *     s = q^e,   L_s = L / e                (an episode of e independent
 *                                            waits ends at the first return)
 *   A CTA issues T_b = L_s (1 - s) / s cycles between episodes.
 *   Slot model.  Each episode that finds a ready pending CTA is cut to the
 *   switch cost c (the incoming CTA's wait before it issues); the others
 *   last L_s.  With a share f switched, a place completes one CTA-episode
 *   every T_b + f c + (1 - f) L_s cycles, so its CTAs issue at
 *     A_eff = A (T_b + L_s) / (T_b + f c + (1 - f) L_s)
 *   times the rate of a CTA that never switches (CTA-equivalents at the
 *   lone rate, the IPC model's warps: A_eff w active_frac).  Pending CTAs
 *   (Little's law): a switched-out CTA is parked at least L_s (until its
 *   loads return), so the pool must hold f A L_s / (T_b + f c + (1 - f) L_s)
 *   CTAs; f = 1 when P covers it, else the f at which it equals P:
 *     f = P (T_b + L_s) / (A L_s - P (c - L_s)).
 *   P = 0 (baseline) gives A_eff = A.
 *   Costs (the sampler's, ctaswitch.c):
 *     VT, RegMutex  c = switch_cycles (pipeline context; registers stay);
 *     Reg+DRAM      VT's, and when the switch takes a CTA from DRAM (its
 *                   share p_dram: pending CTAs in the register file are
 *                   taken first, so p_dram = 1 - P_rf / needed when they do
 *                   not cover the need) plus the transfer of both contexts
 *                   through the DRAM queue, L_dram + 2 B_ctx / BW,
 *                   B_ctx = w R 32 x 4 bytes; that traffic joins the kernel's
 *                   own (DRAM bytes per instruction);
 *     FineReg       c = switch_cycles + 4 + 2 E (one PCRF entry a cycle, out
 *                   and in; Section V.E), E = w (act l_load + (live - act)
 *                   l_bar) the live registers of a stalled CTA's warps at
 *                   their PCs: the issuing share (active_frac) waits at its
 *                   loads (l_load, their live-out), the other live ones
 *                   (live_frac - active_frac) at barriers (l_bar, live-in);
 *                   P = floor(PCRF entries / E) within the CTA limits;
 *                   cost_scale multiplies c.
 *   The prediction's counters: switches = CTAs x (episodes of a lone CTA,
 *   s T_lone / L_s) x f, plus one activation per CTA launched pending (VT
 *   family); switch cycles = switches x c; PCRF-full cycles (FineReg) =
 *   cycles x (1 - f) x P(an active CTA is all-stalled), 1 - (1 - s)^A.
 *   Assumptions: lone-warp figures (contention stretches T_b, not the
 *   memory wait, so s is an upper bound under load); episodes are
 *   independent across CTAs.
 *
 * Register Sharing (seed 003 Section 4, Fig. 4-5).  S shared pairs and U
 * unshared CTAs (Eq. 4).  A non-owner warp runs until its first shared
 * register (phi = the share of its instructions before it, analytic/
 * reorder.c's rf_reorder_reach with the first-use numbering when unroll),
 * then waits until its owner CTA's lock holders have exited (the
 * deadlock-avoidance rule).  In steady state a pair completes one CTA per
 * owner run: a pair is one place that runs its CTAs one after the other,
 * and the IPC model issues from the U + S places (Eq. 1's g) in waves of
 * U + S.  The non-owner's prefix (phi of its run; under 10% of the
 * instructions on the bundled kernels with unrolled declarations) is not
 * counted as issue (its warps rank last under OWF).  A non-owner warp
 * waits (1 - phi) T_own - phi T per CTA, T the CTA run under
 * load (insts_per_warp x W / IPC); with Owner Warp First the owners issue
 * ahead of the others, so their run is at the owners' own rate,
 * T_own = insts_per_warp x max(cpi_lone, W_own / IPC) (W_own their warps).
 * Every warp of a shared CTA takes its pair's lock once.
 *
 * RegMutex's pool (seed 000 Section VI.A, VI.D).  A warp takes a chunk of
 * the pool where its live registers exceed the base set (analytic/
 * liveness.c) and keeps it to the release point (live registers back at
 * the base set) or a barrier, waits on memory included: rho = (rho_i
 * (cpi_lone - m S_mem) + l m S_mem) / cpi_lone, rho_i the share of its
 * executed instructions held, l the share of its loads issued holding.  The resident warps (N) and C chunks (one CTA's warps) form a
 * finite-source queue (machine repairman, M/M/C//N): a warp out of a region
 * asks for a chunk at rate 1 / T_out, holds it T_in, r = T_in / T_out =
 * rho / (1 - rho):
 *   pi_n ~ prod_{i<n} (N - i) r / min(i + 1, C)
 *   Lq = sum_n max(0, n - C) pi_n     (warps waiting for a chunk)
 * A warp waits a share Lq / N of its time, so the issuing warps scale by
 * 1 - Lq / N.  Unused issue slots with a warp waiting for a chunk
 * (srp_stall_cycles): cycles x schedulers x (1 - IPC / issue) x P(n > C).
 *
 * Inputs: the lone-warp stall figures of analytic/kchar.c, the code and
 * profile; outputs: CTA-equivalents for analytic/ipc.c and the counters of
 * `simulate --csv`.  No I/O, no globals.
 */
#include "switching.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kchar.h"
#include "liveness.h"
#include "reorder.h"

void rf_sw_stall(double q, double wait, double warps, double sync, double *stall_frac,
                 double *episode)
{
    double w = warps > 1 ? warps : 1.0;
    double e = 1.0 + (1.0 - sync) * (w - 1.0);
    q = q < 0 ? 0 : (q > 1 ? 1 : q);
    *stall_frac = q > 0 ? pow(q, e) : 0.0;
    *episode = wait > 0 ? wait / e : 0.0;
}

void rf_sw_slot_eval(const rf_sw_slot_in *in, rf_sw_slot *out)
{
    memset(out, 0, sizeof *out);
    double a = in->active, s = in->stall_frac, ls = in->episode, c = in->cost;
    out->ctas_eff = a;
    if (!(a > 0) || !(s > 0) || !(ls > 0) || !(in->pending > 0))
        return;
    if (s >= 1)
        s = 1 - 1e-9;
    double tb = ls * (1.0 - s) / s;
    out->busy = tb;
    out->pending_needed = a * ls / (tb + c);
    double f = 1.0;
    if (in->pending < out->pending_needed) {
        double den = a * ls - in->pending * (c - ls);
        f = den > 0 ? in->pending * (tb + ls) / den : 1.0;
        f = f > 1 ? 1.0 : f;
    }
    out->switched = f;
    out->ctas_eff = a * (tb + ls) / (tb + f * c + (1.0 - f) * ls);
}

void rf_sw_pool_eval(int n, int chunks, double rho, rf_sw_pool *out)
{
    memset(out, 0, sizeof *out);
    if (n <= 0 || chunks <= 0 || !(rho > 0))
        return;
    if (rho > 0.999)
        rho = 0.999;
    double r = rho / (1.0 - rho);
    /* Unnormalised weights t_n, rescaled on the way when they grow large;
     * the sums carry the same scale. */
    double t = 1.0, sum = 1.0, wait = 0.0, hold = 0.0, over = 0.0;
    for (int i = 0; i < n; i++) {
        t *= (double)(n - i) * r / (i + 1 < chunks ? i + 1 : chunks);
        int k = i + 1;
        sum += t;
        hold += (k < chunks ? k : chunks) * t;
        if (k > chunks) {
            wait += (k - chunks) * t;
            over += t;
        }
        if (t > 1e250 || sum > 1e250) {
            t *= 1e-250, sum *= 1e-250, wait *= 1e-250, hold *= 1e-250, over *= 1e-250;
        }
    }
    out->waiting = wait / sum;
    out->holding = hold / sum;
    out->p_empty = over / sum;
}

/* ---- code figures -------------------------------------------------------- */

static int sharing_code(const rf_func *f, const rf_profile *prof, const rf_design *d, int regs,
                        rf_sw_code *out, rf_err *err)
{
    int code_regs = f->nregs > 0 ? f->nregs : 1;
    int n = code_regs > regs ? code_regs : regs;
    int *map = malloc((size_t)n * sizeof *map);
    if (!map)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory");
    for (int r = 0; r < n; r++)
        map[r] = r;
    int rc = d->unroll ? rf_reorder_first_use(f, code_regs, map, err) : 0;
    rf_share_reach reach;
    if (rc == 0)
        rc = rf_reorder_reach(f, map, regs, d->sharing, prof->trip, prof->taken, &reach, err);
    free(map);
    if (rc < 0)
        return rc;
    out->prefix = reach.expected_before;
    return 0;
}

/* A set of base-set sizes 0..RF_SW_MAXBASE-1: bit b of w[b / 64]. */
typedef struct base_set {
    uint64_t w[RF_SW_MAXBASE / 64];
} base_set;
_Static_assert(RF_SW_MAXBASE % 64 == 0, "base_set holds whole words");

/* The bases lo <= b < hi. */
static base_set base_range(int lo, int hi)
{
    base_set s;
    memset(&s, 0, sizeof s);
    if (lo < 0)
        lo = 0;
    if (hi > RF_SW_MAXBASE)
        hi = RF_SW_MAXBASE;
    for (int b = lo; b < hi; b++)
        s.w[b >> 6] |= (uint64_t)1 << (b & 63);
    return s;
}

/* One instruction of RegMutex's chunk protocol, srp_step's rule, for
 * every base at once: the warp needs a chunk at a non-barrier instruction
 * whose live-in or live-out exceeds the base (bases below
 * mx = max(live-in, live-out)); it gives it back at a barrier, or at a
 * needing one whose live-out fits the base (lo <= base < mx). */
typedef struct srp_inst {
    base_set need, release;
} srp_inst;

/* The hold after the instruction given the hold before it (all bases);
 * *held: the bases at which the warp holds a chunk while issuing it;
 * *exit: those at which it gives one back. */
static base_set srp_step_all(const srp_inst *x, base_set hold, base_set *held, base_set *exit)
{
    base_set h, after;
    for (int j = 0; j < RF_SW_MAXBASE / 64; j++) {
        h.w[j] = hold.w[j] | x->need.w[j];
        exit->w[j] = h.w[j] & x->release.w[j];
        after.w[j] = h.w[j] & ~x->release.w[j];
    }
    *held = h;
    return after;
}

/* RegMutex's hold for every base set 1 <= base < top over the executed
 * instructions: region[base] the share held, acquires[base] chunks given
 * back per warp, region_loads[base] the share of instructions that are
 * loads issued holding.
 * A warp takes a chunk at an instruction that needs one and keeps it
 * until one that needs it leaves its live registers at the base set or
 * fewer, or at a barrier (sampler/regmutex.c).  Whether a warp may hold
 * one entering a block is a forward dataflow over the CFG (held at the
 * end of any predecessor), to its least fixed point.  Each base's
 * dataflow is independent of the others', so all bases run together as
 * bit sets; each base's sums add the same terms in the same order as a
 * pass of its own. */
static int hold_stats(const rf_func *f, const rf_live *lv, const double *freq, int top,
                      rf_sw_liveprof *out, rf_err *err)
{
    size_t nb = (size_t)(f->nblocks > 0 ? f->nblocks : 1);
    size_t ni = (size_t)(lv->ninsts > 0 ? lv->ninsts : 1);
    base_set *hold_in = calloc(nb, sizeof *hold_in);
    srp_inst *xs = malloc(ni * sizeof *xs);
    double *sums = calloc(3 * (size_t)RF_SW_MAXBASE, sizeof *sums);
    if (!hold_in || !xs || !sums) {
        free(hold_in);
        free(xs);
        free(sums);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory");
    }
    for (int i = 0; i < lv->ninsts; i++) {
        int li = rf_regset_count(&lv->in[i]), lo = rf_regset_count(&lv->out[i]);
        int mx = li > lo ? li : lo;
        if (f->insts[i].cls == RF_OC_BARRIER) {
            xs[i].need = base_range(0, 0);
            xs[i].release = base_range(0, RF_SW_MAXBASE);
        } else {
            xs[i].need = base_range(0, mx);
            xs[i].release = base_range(lo, mx);
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int b = 0; b < f->nblocks; b++) {
            const rf_block *blk = &f->blocks[b];
            base_set hold = hold_in[b], held, exit;
            for (int i = blk->first; i < blk->first + blk->ninsts && i < lv->ninsts; i++)
                hold = srp_step_all(&xs[i], hold, &held, &exit);
            for (int j = 0; j < blk->nsucc; j++) {
                int t = blk->succ[j];
                if (t < 0 || t >= f->nblocks)
                    continue;
                for (int q = 0; q < RF_SW_MAXBASE / 64; q++) {
                    uint64_t add = hold.w[q] & ~hold_in[t].w[q];
                    if (add) {
                        hold_in[t].w[q] |= add;
                        changed = true;
                    }
                }
            }
        }
    }
    double *held_n = sums, *exits = sums + RF_SW_MAXBASE, *held_loads = sums + 2 * RF_SW_MAXBASE;
    base_set want = base_range(1, top);
    double total = 0;
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *blk = &f->blocks[b];
        double w = freq[b];
        if (!(w > 0))
            continue;
        base_set hold = hold_in[b], held, exit;
        for (int i = blk->first; i < blk->first + blk->ninsts && i < lv->ninsts; i++) {
            hold = srp_step_all(&xs[i], hold, &held, &exit);
            total += w;
            bool load = rf_live_long_latency(&f->insts[i]);
            for (int q = 0; q < RF_SW_MAXBASE / 64; q++) {
                uint64_t m[3] = {held.w[q] & want.w[q], exit.w[q] & want.w[q],
                                 load ? hold.w[q] & want.w[q] : 0};
                for (int s = 0; s < 3; s++)
                    for (uint64_t bits = m[s]; bits; bits &= bits - 1)
                        sums[s * RF_SW_MAXBASE + 64 * q + __builtin_ctzll(bits)] += w;
            }
        }
    }
    for (int base = 1; base < top; base++) {
        out->region[base] = (float)(total > 0 ? held_n[base] / total : 0.0);
        out->acquires[base] = (float)exits[base];
        out->region_loads[base] = (float)(total > 0 ? held_loads[base] / total : 0.0);
    }
    free(hold_in);
    free(xs);
    free(sums);
    return 0;
}

int rf_sw_liveprof_of(const rf_func *f, const double *freq, rf_sw_liveprof *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    rf_live lv;
    int rc = rf_live_compute(f, &lv, err);
    if (rc < 0)
        return rc;
    double total = 0, loads = 0, live_loads = 0, bars = 0, live_bars = 0;
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *blk = &f->blocks[b];
        double w = freq[b];
        if (!(w > 0))
            continue;
        for (int i = blk->first; i < blk->first + blk->ninsts && i < lv.ninsts; i++) {
            total += w;
            if (rf_live_long_latency(&f->insts[i])) {
                loads += w;
                live_loads += w * rf_regset_count(&lv.out[i]);
            }
            if (f->insts[i].cls == RF_OC_BARRIER) {
                bars += w;
                live_bars += w * rf_regset_count(&lv.in[i]);
            }
        }
    }
    out->loads = total > 0 ? loads / total : 0.0;
    out->live_stall = loads > 0 ? live_loads / loads : -1.0;
    out->live_barrier = bars > 0 ? live_bars / bars : -1.0;
    /* Base sets at or above the most live registers need no chunk. */
    int top = lv.max_live < RF_SW_MAXBASE ? lv.max_live : RF_SW_MAXBASE - 1;
    rc = hold_stats(f, &lv, freq, top, out, err);
    out->valid = rc == 0;
    rf_live_free(&lv);
    return rc;
}

/* RegMutex's and FineReg's figures from the kernel's live-register
 * profile (computed here when the caller has none). */
static int live_code(const rf_func *f, const rf_profile *prof, const rf_sw_liveprof *lp,
                     const rf_design *d, int regs, rf_sw_code *out, rf_err *err)
{
    rf_sw_liveprof *own = NULL;
    if (!lp || !lp->valid) {
        double *freq = malloc((size_t)(f->nblocks > 0 ? f->nblocks : 1) * sizeof *freq);
        own = malloc(sizeof *own);
        int rc = freq && own ? rf_kchar_block_freq(f, prof, freq, err)
                             : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory");
        if (rc == 0)
            rc = rf_sw_liveprof_of(f, freq, own, err);
        free(freq);
        if (rc < 0) {
            free(own);
            return rc;
        }
        lp = own;
    }
    /* The sampler's base set (sampler/regmutex.c): ceil(brs_frac x R). */
    int base = (int)(d->brs_frac * regs + 1.0 - 1e-9);
    if (base < 1)
        base = 1;
    if (d->kind == RF_DESIGN_REGMUTEX && base < regs && base < RF_SW_MAXBASE) {
        out->region = lp->region[base];
        out->acquires = lp->acquires[base];
        out->loads = lp->loads;
        out->region_loads = lp->region_loads[base];
    }
    if (d->kind == RF_DESIGN_FINEREG) {
        out->live_stall = lp->live_stall >= 0 ? lp->live_stall : d->live_frac * regs;
        out->live_barrier = lp->live_barrier >= 0 ? lp->live_barrier : out->live_stall;
    }
    free(own);
    return 0;
}

int rf_sw_code_of(const rf_func *f, const rf_profile *prof, const rf_sw_liveprof *lp,
                  const rf_design *d, int regs, rf_sw_code *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    if (!f || !prof)
        return 0;
    switch (d->kind) {
    case RF_DESIGN_SHARING:
        return sharing_code(f, prof, d, regs, out, err);
    case RF_DESIGN_REGMUTEX:
    case RF_DESIGN_FINEREG:
        return live_code(f, prof, lp, d, regs, out, err);
    default:
        return 0;
    }
}

/* ---- one design point ---------------------------------------------------- */

bool rf_sw_is_switching(int kind)
{
    return kind == RF_DESIGN_VT || kind == RF_DESIGN_REGDRAM || kind == RF_DESIGN_FINEREG ||
           kind == RF_DESIGN_REGMUTEX;
}

/* Pending CTAs a slot model with pool P keeps parked: f A L_s / cycle. */
static double pending_used(const rf_sw_slot_in *si, const rf_sw_slot *sl)
{
    double f = sl->switched, cyc = sl->busy + f * si->cost + (1.0 - f) * si->episode;
    return cyc > 0 ? f * si->active * si->episode / cyc : 0.0;
}

/* Reg+DRAM (header): the DRAM share of the switches, by bisection on
 * p_dram = 1 - P_rf / used(c(p_dram)) (used falls as the cost grows), and
 * the thrash test; fills st and si (its cost). */
static void regdram(const rf_sw_input *in, const rf_sw_params *p, double cost, rf_sw_slot_in *si,
                    rf_sw_state *st)
{
    int w = in->warps_per_cta > 0 ? in->warps_per_cta : 1;
    int ws = in->warp_size > 0 ? in->warp_size : 32;
    double a = in->active;
    st->ctx_bytes = (double)w * in->regs * ws * 4.0;
    double move = in->dram_bw > 0 ? 2.0 * st->ctx_bytes / in->dram_bw : 0.0;
    double xfer = in->dram_latency + move;
    double prf = in->rf_ctas - a > 0 ? in->rf_ctas - a : 0.0;
    double lo = 0.0, hi = 1.0;
    for (int it = 0; it < 40; it++) {
        double mid = 0.5 * (lo + hi);
        si->cost = (cost + mid * xfer) * p->cost_scale;
        rf_sw_slot_eval(si, &st->slot);
        double used = pending_used(si, &st->slot);
        double want = used > prf ? 1.0 - prf / used : 0.0;
        if (want > mid)
            lo = mid;
        else
            hi = mid;
    }
    st->p_dram = 0.5 * (lo + hi);
    si->cost = (cost + st->p_dram * xfer) * p->cost_scale;
    rf_sw_slot_eval(si, &st->slot);
    double ep = st->episode > 0 ? st->stall_frac * in->cpi_lone / st->episode : 0.0;
    st->dram_per_inst = ep * st->slot.switched * st->p_dram * 2.0 * st->ctx_bytes / w;
    /* Thrash: a DRAM switch queues the kernel's loads behind A x 2 B_ctx /
     * BW cycles of transfers; when the active CTAs reach their next memory
     * wait sooner (T_gap = (cpi_lone - m S_mem) / n_mem lone cycles), they
     * all stall behind it and take DRAM CTAs in turn, so the queue never
     * drains: every memory wait of a CTA becomes a DRAM switch, and the
     * transfers bound the IPC through the DRAM cap. */
    double gap = in->mem_waits > 0 ? (in->cpi_lone - in->mem_stall) / in->mem_waits : INFINITY;
    bool trigger = st->p_dram > 0 || (a > prf && st->stall_frac > 0);
    if (trigger && in->rf_ctas < in->resident && a * move > gap) {
        st->thrash = true;
        st->p_dram = 1.0;
        st->slot.switched = 1.0;
        st->slot.ctas_eff = a;
        st->stall_frac = 1.0;
        st->episode = in->mem_waits > 0 ? 1.0 / in->mem_waits : 0.0;  /* per instruction */
        si->cost = (cost + in->dram_latency + a * move) * p->cost_scale;
        st->dram_per_inst = in->mem_waits * 2.0 * st->ctx_bytes / w;
    }
}

void rf_sw_apply(const rf_sw_input *in, const rf_sw_params *p, rf_sw_state *st)
{
    memset(st, 0, sizeof *st);
    int w = in->warps_per_cta > 0 ? in->warps_per_cta : 1;
    double act = in->act > 0 ? in->act : 1.0;
    st->resident = in->resident > 0 ? in->resident : in->active;
    st->ctas_eff = st->resident;
    if (in->kind == RF_DESIGN_SHARING) {
        double phi = in->insts_per_warp > 0 ? in->code.prefix / in->insts_per_warp : 0.0;
        phi = phi < 0 ? 0 : (phi > 1 ? 1 : phi);
        st->phi = phi;
        st->resident = in->unshared + in->shared_pairs;
        st->ctas_eff = st->resident;
        return;
    }
    if (!rf_sw_is_switching(in->kind) || in->active <= 0)
        return;
    double q = in->cpi_lone > 0 ? in->mem_stall / in->cpi_lone : 0.0;
    double wait = in->mem_waits > 0 ? in->mem_stall / in->mem_waits : in->mem_latency;
    rf_sw_stall(q, wait, w * act, p->sync, &st->stall_frac, &st->episode);
    double a = in->active, pend = st->resident - a, cost = in->switch_cycles;
    if (in->kind == RF_DESIGN_FINEREG) {
        /* Of a stalled CTA's warps, the issuing share (act) waits at its
         * loads, the rest of the live ones (live - act) at barriers. */
        double live = in->live > 0 ? in->live : 1.0;
        double at_bar = live > act ? live - act : 0.0;
        double per = (live < act ? live : act) * in->code.live_stall + at_bar * in->code.live_barrier;
        st->entries = ceil(w * per - 1e-9);
        double by_pcrf = st->entries > 0 ? floor(in->pcrf_entries / st->entries) : pend;
        pend = by_pcrf < pend ? by_pcrf : pend;
        cost += 4.0 + 2.0 * st->entries;
        st->resident = in->active + (int)(pend > 0 ? pend : 0);
    }
    pend = pend > 0 ? pend : 0.0;
    st->pending = pend;
    rf_sw_slot_in si = {a, pend, st->stall_frac, st->episode, cost * p->cost_scale};
    rf_sw_slot_eval(&si, &st->slot);
    if (in->kind == RF_DESIGN_REGDRAM)
        regdram(in, p, cost, &si, st);
    st->cost = si.cost;
    st->ctas_eff = st->slot.ctas_eff < st->resident ? st->slot.ctas_eff : st->resident;
    st->parked = st->thrash ? pend : pending_used(&si, &st->slot);
    if (in->kind == RF_DESIGN_REGMUTEX && in->code.region > 0) {
        /* Every resident warp holds or asks for chunks; those not waiting
         * for one bound the warps that issue.  The time a warp holds one:
         * its region's instructions at the time of instructions without
         * memory waits, plus the waits on the loads inside regions. */
        double ms = in->mem_stall, cpi = in->cpi_lone > 0 ? in->cpi_lone : 1.0;
        double lr = in->code.loads > 0 ? in->code.region_loads / in->code.loads : 0.0;
        st->region_time = (in->code.region * (cpi - ms) + lr * ms) / cpi;
        st->pool_warps = (int)lround(st->resident * w * act);
        if (st->pool_warps > 4096)
            st->pool_warps = 4096;
        rf_sw_pool_eval(st->pool_warps, in->chunks, st->region_time, &st->pool);
        double free_ctas = (st->pool_warps - st->pool.waiting) / (w * act);
        if (free_ctas < st->ctas_eff)
            st->ctas_eff = free_ctas;
    }
}

void rf_sw_count(const rf_sw_input *in, const rf_sw_state *st, long ctas, double cycles,
                 double ipc, int schedulers, int issue, rf_sw_counters *out)
{
    memset(out, 0, sizeof *out);
    if (ctas <= 0 || !(cycles > 0))
        return;
    int w = in->warps_per_cta > 0 ? in->warps_per_cta : 1;
    double act = in->act > 0 ? in->act : 1.0;
    /* Waves of equal length: the mean residency over the kernel. */
    long r = st->resident > 0 ? st->resident : 1;
    if (in->kind == RF_DESIGN_SHARING)
        r = in->unshared + 2 * in->shared_pairs;    /* both CTAs of a pair reside */
    r = r > 0 ? r : 1;
    long waves = (ctas + r - 1) / r;
    double res = (double)ctas / waves;
    out->resident_ctas_mean = res;
    out->active_ctas_mean = res;
    double slots = (double)schedulers * issue;
    double idle = slots > 0 && ipc < slots ? 1.0 - ipc / slots : 0.0;
    if (in->kind == RF_DESIGN_SHARING) {
        double s = in->shared_pairs, m = in->unshared + 2.0 * in->shared_pairs;
        double nw = st->ctas_eff * w * act;
        double t = ipc > 0 ? in->insts_per_warp * nw / ipc : 0.0;
        double t_own = t;
        if (in->owf && ipc > 0) {
            double own = in->insts_per_warp * s * w * act / ipc, lone = in->insts_per_warp * in->cpi_lone;
            t_own = own > lone ? own : lone;
        }
        double wait = (1.0 - st->phi) * t_own - st->phi * t;
        wait = wait > 0 ? wait : 0.0;
        double shared = m > 0 ? ctas * 2.0 * s / m : 0.0;
        out->lock_acquires = shared * w;
        out->lock_wait_cycles = (shared > s ? shared - s : 0.0) * w * wait;
        double pair = (1.0 - st->phi) * t_own;
        double x = pair > 0 ? wait / pair : 0.0;
        x = x > 1 ? 1.0 : x;
        out->stall_lock = cycles * schedulers * idle * (1.0 - pow(1.0 - x, s));
        return;
    }
    if (!rf_sw_is_switching(in->kind))
        return;
    double a = in->active < res ? in->active : res;
    if (st->pending > 0) {
        double lone = in->insts_per_warp * in->cpi_lone;
        double episodes = st->thrash ? in->insts_per_warp * in->mem_waits
                        : st->episode > 0 ? st->stall_frac * lone / st->episode : 0.0;
        double moved = ctas * episodes * st->slot.switched;
        /* VT family: every CTA launched beyond the active places starts
         * pending and is switched in once (FineReg launches into the ACRF). */
        double launched = in->kind != RF_DESIGN_FINEREG && ctas > in->active
                        ? (double)(ctas - in->active) : 0.0;
        out->cta_switches = moved + launched;
        out->switch_cycles = moved * st->cost + launched * in->switch_cycles;
        out->switch_dram_bytes = moved * st->p_dram * 2.0 * st->ctx_bytes;
        if (in->kind == RF_DESIGN_FINEREG)
            out->pcrf_full_stalls = cycles * (1.0 - st->slot.switched)
                                  * (1.0 - pow(1.0 - st->stall_frac, in->active));
    }
    out->active_ctas_mean = a;
    /* FineReg holds the CTAs parked in the PCRF beside the active ones;
     * the VT family holds every resident CTA. */
    if (in->kind == RF_DESIGN_FINEREG && a + st->parked < res)
        out->resident_ctas_mean = a + st->parked;
    if (in->kind == RF_DESIGN_REGMUTEX) {
        out->srp_acquires = (double)ctas * w * in->code.acquires;
        out->srp_stall_cycles = cycles * schedulers * idle * st->pool.p_empty;
        out->stall_lock = out->srp_stall_cycles;
    }
}
