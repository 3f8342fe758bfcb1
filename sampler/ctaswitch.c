/* ctaswitch.c - CTA switching beyond the scheduling limit: Virtual Thread,
 * Reg+DRAM (Zorua-like), FineReg (seed 000 Sections IV-V and VI.A) and
 * VT+RegMutex (VT with the shared register pool of regmutex.c, whose waits
 * count as stalls here like a load's) as register-file organisations of the
 * sampler.
 *
 * Contexts: the SM holds more CTAs than it schedules.  A CTA is active
 * (its warps may issue) or pending (parked: its warps keep their state and
 * their loads in flight complete, but they do not issue).  At most A CTAs
 * are active, A = the scheduling limit (rf_occ_compute's active_ctas).
 *   VT        every CTA's registers stay in the register file: resident
 *             CTAs are those the register file and shared memory hold
 *             (occupancy's ctas_per_sm); CTAs launched beyond A start
 *             pending.
 *   Reg+DRAM  VT plus dram_ctas CTAs whose context lives in DRAM: a fresh
 *             CTA beyond the register file starts there.  Switching one in
 *             moves the stalled CTA's registers out and its own in through
 *             the DRAM queue, competing with the kernel's loads.
 *   FineReg   the register file is an ACRF (active CTAs, all registers)
 *             and a PCRF of acrf/pcrf_kb holding only the live registers of
 *             pending CTAs (one 128-byte entry per live warp register, the
 *             live set at each warp's PC from analytic/liveness.c).  A new
 *             CTA launches only into ACRF space.
 * Stalled: an active CTA none of whose live warps can issue for a reason
 * other than long-latency memory (every warp not exited waits on a global
 * or local load, or at a barrier, and one at least on a load).  Ready: a
 * pending CTA with a warp whose next instruction waits on no load.
 *
 * Each cycle (before dispatch): CTAs whose switch completed resume; free
 * active places take ready pending CTAs; then each stalled active CTA, in
 * slot order, is swapped with a ready pending CTA (VT: one in the register
 * file; Reg+DRAM: else one in DRAM; FineReg: one in the PCRF, if the PCRF
 * holds the stalled CTA's live registers once the other's have left, Section
 * V.E), or, FineReg only, moved to the PCRF alone when it fits and the grid
 * has CTAs left, a new CTA then launching into its ACRF space (Fig. 6a).
 * A stalled CTA that cannot move for lack of PCRF space while a CTA waits
 * to run counts a PCRF-full cycle (Section VI.D).
 *
 * Costs, cycles until the incoming CTA may issue:
 *   all designs  switch_cycles for the pipeline context (warp PCs and
 *                reconvergence stacks, saved and restored through shared
 *                memory; Virtual Thread's switching logic, which FineReg
 *                adopts; seed 000 gives no figure: a design parameter);
 *   Reg+DRAM     plus the DRAM transfers: W x regs x 32 x 4 bytes out, the
 *                same in when the incoming CTA had started (queued behind
 *                the kernel's traffic, then the DRAM latency);
 *   FineReg      plus 4 cycles to the first PCRF entry and one cycle per
 *                entry moved (the chain walk is pipelined, one 128-byte
 *                entry per cycle through the RMU's buffer; entries out and
 *                in share that port), plus one DRAM latency when a warp's PC
 *                misses the 32-entry direct-mapped live-register bit-vector
 *                cache (indexed by the PC's low 5 bits, Section V.C).
 * A CTA moved out alone frees its ACRF space after the same cost.
 * Counters: cta_switches (CTAs switched in), switch_cycles (their costs),
 * switch_dram_bytes, pcrf_full_stalls (cycles), and the active-CTA cycles.
 */
#include <stdlib.h>
#include <string.h>

#include "../analytic/liveness.h"
#include "../analytic/occupancy.h"
#include "sim_internal.h"

#define PCRF_FIRST 4         /* cycles to the first PCRF tag and register (Section V.E) */
#define BV_LINES 32          /* live-register bit-vector cache lines (Section V.C) */

enum { SW_FREE, SW_ACTIVE, SW_PEND, SW_PCRF, SW_DRAM };

typedef struct sw_sm {
    uint8_t *where;          /* [nctas]: SW_* */
    bool *started;           /* [nctas]: the CTA has issued (has registers to move) */
    int *entries;            /* [nctas]: PCRF entries held (FineReg) */
    uint64_t *wake;          /* [nctas]: cycle an incoming CTA may issue */
    int nactive;             /* CTAs active, waking included */
    int in_rf;               /* CTAs whose registers are in the register file (VT) */
    int pcrf_cap, pcrf_used;   /* FineReg: PCRF entries in all, and held */
    uint64_t acrf_free_at;   /* FineReg: a CTA moved out alone drains the ACRF until then */
    int bv_tag[BV_LINES];    /* bit-vector cache: PC held, -1 none */
    int *live;               /* [ninsts]: live registers at each PC (FineReg) */
    bool blocked;            /* FineReg: a stalled CTA waits for PCRF space (the run steps
                              * cycle by cycle to count them) */
    bool has_srp;            /* RegMutex: the shared register pool below */
    sim_srp srp;
} sw_sm;

/* ---- warps and CTAs --------------------------------------------------- */

static bool mem_blocked(const sim_ctx *x, const sim_warp *w)
{
    return sim_mask_any(&w->pend_mem, &x->prog.insts[w->pc].dep);
}

/* RegMutex: the warp in `slot` needs a pool chunk the empty pool lacks. */
static bool srp_blocked(const sim_sm *sm, int slot)
{
    const sw_sm *s = sm->org_state;
    if (!s->has_srp)
        return false;
    return !sim_srp_may_issue(sm, &s->srp, slot);
}

/* Waiting on a long-latency load, or (RegMutex) on the pool. */
static bool warp_waits(const sim_ctx *x, const sim_sm *sm, int slot)
{
    return mem_blocked(x, &sm->warps[slot]) || srp_blocked(sm, slot);
}

static bool cta_stalled(const sim_ctx *x, const sim_sm *sm, int c)
{
    bool waiting = false;
    for (int i = 0; i < x->warps_per_cta; i++) {
        int slot = c * x->warps_per_cta + i;
        const sim_warp *w = &sm->warps[slot];
        if (w->state == SIM_W_ACTIVE && w->pc >= 0) {
            if (!warp_waits(x, sm, slot))
                return false;
            waiting = true;
        }
    }
    return waiting;
}

static bool cta_ready(const sim_ctx *x, const sim_sm *sm, int c)
{
    for (int i = 0; i < x->warps_per_cta; i++) {
        int slot = c * x->warps_per_cta + i;
        const sim_warp *w = &sm->warps[slot];
        if (w->state == SIM_W_ACTIVE && w->pc >= 0 && !warp_waits(x, sm, slot))
            return true;
    }
    return false;
}

static void park(sim_ctx *x, sim_sm *sm, int c, bool parked, uint64_t until)
{
    for (int i = 0; i < x->warps_per_cta; i++) {
        sim_warp *w = &sm->warps[c * x->warps_per_cta + i];
        w->parked = parked;
        w->hold_until = until;
    }
}

/* Live registers of CTA c's warps at their PCs (PCRF entries), and whether
 * a PC missed the bit-vector cache (filled on the way). */
static int live_entries(const sim_ctx *x, sim_sm *sm, sw_sm *s, int c, bool *miss)
{
    int n = 0;
    for (int i = 0; i < x->warps_per_cta; i++) {
        const sim_warp *w = &sm->warps[c * x->warps_per_cta + i];
        if (w->state == SIM_W_DONE || w->pc < 0)
            continue;
        n += s->live[w->pc];
        int line = w->pc % BV_LINES;
        if (s->bv_tag[line] != w->pc) {
            *miss = true;
            s->bv_tag[line] = w->pc;
        }
    }
    return n;
}

static uint32_t cta_reg_bytes(const sim_ctx *x)
{
    return (uint32_t)x->warps_per_cta * (uint32_t)x->prog.regs_alloc *
           (uint32_t)(x->gpu->warp_size > 0 ? x->gpu->warp_size : 32) * 4u;
}

/* CTA c becomes active at now + cost. */
static void activate(sim_ctx *x, sim_sm *sm, sw_sm *s, int c, uint64_t cost)
{
    if (s->where[c] == SW_PCRF)
        s->pcrf_used -= s->entries[c];
    if (s->where[c] == SW_DRAM)
        s->in_rf++;
    s->entries[c] = 0;
    s->where[c] = SW_ACTIVE;
    s->wake[c] = x->now + cost;
    s->nactive++;
    sm->parked_ctas--;
    park(x, sm, c, true, s->wake[c]);
    sm->c.cta_switches++;
    sm->c.switch_cycles += cost;
}

/* Active CTA c leaves for `to`. */
static void deactivate(sim_ctx *x, sim_sm *sm, sw_sm *s, int c, int to, int entries)
{
    s->where[c] = (uint8_t)to;
    s->nactive--;
    sm->parked_ctas++;
    if (to == SW_PCRF) {
        s->entries[c] = entries;
        s->pcrf_used += entries;
    }
    if (to == SW_DRAM)
        s->in_rf--;
    park(x, sm, c, true, 0);
}

/* A ready pending CTA at `where` (-1 none), slot order. */
static int find_ready(const sim_ctx *x, const sim_sm *sm, const sw_sm *s, int where)
{
    for (int c = 0; c < sm->nctas; c++)
        if (sm->ctas[c].used && s->where[c] == where && cta_ready(x, sm, c))
            return c;
    return -1;
}

static uint64_t base_cost(const sim_ctx *x)
{
    return (uint64_t)x->d->switch_cycles;
}

/* Reg+DRAM: cycles to move CTA `out`'s registers to DRAM and `in`'s back. */
static uint64_t dram_cost(sim_ctx *x, sim_sm *sm, const sw_sm *s, int out, int in)
{
    uint64_t t = 0;
    uint32_t bytes = cta_reg_bytes(x);
    if (out >= 0) {
        t = sim_mem_dram(x, sm, bytes);
        sm->c.switch_dram_bytes += bytes;
    }
    if (in >= 0 && s->started[in]) {
        uint64_t u = sim_mem_dram(x, sm, bytes);
        sm->c.switch_dram_bytes += bytes;
        if (u > t)
            t = u;
    }
    return t;
}

/* ---- organisation hooks ----------------------------------------------- */

static void sw_launch(sim_ctx *x, sim_sm *sm, int c)
{
    sw_sm *s = sm->org_state;
    s->started[c] = false;
    s->entries[c] = 0;
    if (s->nactive < x->active_limit) {
        s->where[c] = SW_ACTIVE;
        s->nactive++;
        s->in_rf++;
        s->wake[c] = s->acrf_free_at > x->now ? s->acrf_free_at : x->now;
        park(x, sm, c, s->wake[c] > x->now, s->wake[c]);
        return;
    }
    /* VT and Reg+DRAM only (FineReg launches into the ACRF alone). */
    if (s->in_rf < x->rf_ctxs) {
        s->where[c] = SW_PEND;
        s->in_rf++;
    } else {
        s->where[c] = SW_DRAM;
    }
    sm->parked_ctas++;
    park(x, sm, c, true, 0);
}

static void sw_retire(sim_ctx *x, sim_sm *sm, int c)
{
    sw_sm *s = sm->org_state;
    (void)x;
    if (s->where[c] == SW_ACTIVE) {
        s->nactive--;
        s->in_rf--;
    }
    s->where[c] = SW_FREE;
}

/* FineReg launches a fresh CTA only into free ACRF space, and only when no
 * pending CTA is ready to take it (the pending ones hold PCRF space). */
static bool sw_launch_ok(sim_ctx *x, sim_sm *sm)
{
    sw_sm *s = sm->org_state;
    if (x->d->kind != RF_DESIGN_FINEREG)
        return true;
    return s->nactive < x->active_limit && find_ready(x, sm, s, SW_PCRF) < 0;
}

static void sw_issue(sim_ctx *x, sim_sm *sm, int slot, int inst)
{
    sw_sm *s = sm->org_state;
    s->started[slot / x->warps_per_cta] = true;
    if (s->has_srp)
        sim_srp_issue(x, sm, &s->srp, slot, inst);
}

static bool sw_may_issue(sim_ctx *x, sim_sm *sm, int slot)
{
    sw_sm *s = sm->org_state;
    (void)x;
    return !s->has_srp || sim_srp_may_issue(sm, &s->srp, slot);
}

static void sw_exit(sim_ctx *x, sim_sm *sm, int slot)
{
    sw_sm *s = sm->org_state;
    (void)x;
    if (s->has_srp)
        sim_srp_exit(&s->srp, slot);
}

/* Switch stalled CTA c (FineReg): true when it moved. */
static bool finereg_switch(sim_ctx *x, sim_sm *sm, sw_sm *s, int c, bool *blocked)
{
    bool miss = false;
    int out = live_entries(x, sm, s, c, &miss);
    uint64_t lookup = miss ? (uint64_t)x->gpu->dram_latency : 0;
    int free = s->pcrf_cap - s->pcrf_used;
    int p = find_ready(x, sm, s, SW_PCRF);
    if (p >= 0 && free + s->entries[p] >= out) {
        uint64_t cost = base_cost(x) + lookup + PCRF_FIRST + (uint64_t)(out + s->entries[p]);
        deactivate(x, sm, s, c, SW_PCRF, out);
        activate(x, sm, s, p, cost);
        return true;
    }
    bool grid_left = x->next_cta < x->ctas_total;
    bool slot_free = sm->ctas_used < sm->nctas;
    if (p < 0 && grid_left && slot_free && free >= out) {
        /* Fig. 6a: the stalled CTA's live registers go to the PCRF and a new
         * CTA takes its ACRF space once they have left. */
        uint64_t drain = x->now + base_cost(x) + lookup + PCRF_FIRST + (uint64_t)out;
        deactivate(x, sm, s, c, SW_PCRF, out);
        if (drain > s->acrf_free_at)
            s->acrf_free_at = drain;
        return true;
    }
    if ((p >= 0 || (grid_left && slot_free)) && free < out + (p >= 0 ? s->entries[p] : 0))
        *blocked = true;
    return false;
}

static void sw_cycle(sim_ctx *x, sim_sm *sm)
{
    sw_sm *s = sm->org_state;
    bool fr = x->d->kind == RF_DESIGN_FINEREG;
    /* Switches that completed. */
    for (int c = 0; c < sm->nctas; c++)
        if (sm->ctas[c].used && s->where[c] == SW_ACTIVE && s->wake[c] <= x->now &&
            sm->warps[c * x->warps_per_cta].parked)
            park(x, sm, c, false, 0);
    /* Free active places take ready pending CTAs. */
    while (s->nactive < x->active_limit) {
        int p = find_ready(x, sm, s, fr ? SW_PCRF : SW_PEND);
        uint64_t cost = base_cost(x);
        if (p >= 0 && fr) {
            cost += PCRF_FIRST + (uint64_t)s->entries[p];
        } else if (p < 0 && x->d->kind == RF_DESIGN_REGDRAM && s->in_rf < x->rf_ctxs) {
            p = find_ready(x, sm, s, SW_DRAM);
            if (p >= 0)
                cost += dram_cost(x, sm, s, -1, p);
        }
        if (p < 0)
            break;
        activate(x, sm, s, p, cost);
    }
    /* Stalled active CTAs. */
    bool blocked = false;
    for (int c = 0; c < sm->nctas; c++) {
        if (!sm->ctas[c].used || s->where[c] != SW_ACTIVE || s->wake[c] > x->now ||
            !cta_stalled(x, sm, c))
            continue;
        if (fr) {
            finereg_switch(x, sm, s, c, &blocked);
            continue;
        }
        int p = find_ready(x, sm, s, SW_PEND);
        if (p >= 0) {
            deactivate(x, sm, s, c, SW_PEND, 0);
            activate(x, sm, s, p, base_cost(x));
            continue;
        }
        if (x->d->kind != RF_DESIGN_REGDRAM || (p = find_ready(x, sm, s, SW_DRAM)) < 0)
            continue;
        uint64_t cost = base_cost(x) + dram_cost(x, sm, s, c, p);
        deactivate(x, sm, s, c, SW_DRAM, 0);
        activate(x, sm, s, p, cost);
    }
    s->blocked = blocked;
    if (blocked)
        sm->c.pcrf_full_stalls++;
}

/* Would sw_cycle act next cycle (a pending CTA became ready while a place
 * is free or an active CTA is stalled)?  Then the run must not skip ahead. */
static bool sw_busy(sim_ctx *x, sim_sm *sm)
{
    sw_sm *s = sm->org_state;
    if (s->blocked)
        return true;
    int want = x->d->kind == RF_DESIGN_FINEREG ? SW_PCRF : SW_PEND;
    bool ready = find_ready(x, sm, s, want) >= 0 ||
                 (x->d->kind == RF_DESIGN_REGDRAM && find_ready(x, sm, s, SW_DRAM) >= 0);
    if (!ready)
        return false;
    if (s->nactive < x->active_limit)
        return true;
    for (int c = 0; c < sm->nctas; c++)
        if (sm->ctas[c].used && s->where[c] == SW_ACTIVE && s->wake[c] <= x->now &&
            cta_stalled(x, sm, c))
            return true;
    return false;
}

static void sw_fini(sim_sm *sm)
{
    sw_sm *s = sm->org_state;
    if (!s)
        return;
    free(s->where);
    free(s->started);
    free(s->entries);
    free(s->wake);
    free(s->live);
    if (s->has_srp)
        sim_srp_free(&s->srp);
    free(s);
    sm->org_state = NULL;
}

static int sw_init(sim_ctx *x, sim_sm *sm, rf_err *err)
{
    sw_sm *s = calloc(1, sizeof *s);
    if (!s)
        return RF_ENOMEM;
    sm->org_state = s;
    size_t n = (size_t)sm->nctas;
    s->where = calloc(n, sizeof *s->where);
    s->started = calloc(n, sizeof *s->started);
    s->entries = calloc(n, sizeof *s->entries);
    s->wake = calloc(n, sizeof *s->wake);
    if (!s->where || !s->started || !s->entries || !s->wake)
        return RF_ENOMEM;
    for (int i = 0; i < BV_LINES; i++)
        s->bv_tag[i] = -1;
    s->pcrf_cap = x->pcrf_entries;
    if (x->d->kind == RF_DESIGN_REGMUTEX) {
        s->has_srp = true;
        return sim_srp_init(x, sm, &s->srp, err);
    }
    if (x->d->kind != RF_DESIGN_FINEREG)
        return 0;
    rf_live lv;
    int rc = rf_live_compute(x->k->func, &lv, err);
    if (rc < 0)
        return rc;
    s->live = malloc((size_t)(lv.ninsts > 0 ? lv.ninsts : 1) * sizeof *s->live);
    if (s->live)
        for (int i = 0; i < lv.ninsts; i++)
            s->live[i] = rf_live_count(&lv, i);
    rf_live_free(&lv);
    return s->live ? 0 : RF_ENOMEM;
}

static int sw_read(sim_ctx *x, sim_sm *sm, int slot, int reg, int *extra)
{
    (void)sm;
    *extra = 0;
    return sim_bank_of(x, slot, reg);
}

static int sw_write(sim_ctx *x, sim_sm *sm, int slot, int reg)
{
    (void)sm;
    return sim_bank_of(x, slot, reg);
}

const sim_rforg sim_rforg_switch = {.name = "ctaswitch",
                                    .read_route = sw_read,
                                    .write_route = sw_write,
                                    .on_issue = sw_issue,
                                    .on_launch = sw_launch,
                                    .init = sw_init,
                                    .fini = sw_fini,
                                    .on_cycle = sw_cycle,
                                    .on_retire = sw_retire,
                                    .launch_ok = sw_launch_ok,
                                    .busy = sw_busy,
                                    .may_issue = sw_may_issue,
                                    .on_exit = sw_exit};
