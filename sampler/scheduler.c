/* scheduler.c - warp schedulers and the issue stage.
 *
 * Model: `schedulers` warp schedulers per SM, warp slot s belonging to
 * scheduler s mod schedulers, each issuing at most issue_width warp
 * instructions per cycle.  A warp is ready when its instruction-buffer entry is valid (active,
 * not at a barrier), and the scoreboard shows no pending write to any
 * register it reads or writes.  An instruction other than EXIT and BAR needs
 * a free operand collector (seed 001 Sec. II-B: "it first reserves a free
 * operand collector ... if running out of collectors, the instruction
 * waits").  Policies order the ready warps:
 *   LRR        loose round robin starting after the last issued warp;
 *   GTO        greedy: the last issued warp while ready, else the oldest;
 *   two-level  round robin over an active pool of N warps; a warp waiting on
 *              long-latency memory leaves the pool for the tail of the
 *              pending queue and the oldest pending warp takes its place.
 *              The register-file organisation hears of every pool change
 *              and may hold a pool warp (LTRF's PREFETCH and activation,
 *              seed 004 Section 3.2; stall cause rc).
 * Every warp also has a priority class (0 first) compared before the policy
 * order: the hook for owner-warp-first scheduling (seed 003).  A ready warp
 * the register-file organisation refuses (may_issue: Register Sharing's
 * locks) is not ranked; a slot left unused only for such warps is a lock
 * stall.
 *
 * Read stealing (seed 001 Sec. IV-B2, Fig. 7): the best ready warp issues;
 * the second best is latched as the candidate whose operands the arbiter may
 * read ahead in the next cycle.  When it did, the scheduler is overridden in
 * that cycle to issue the candidate, and the warp the policy picked becomes
 * the next candidate.
 *
 * Stalls: an issue slot left unused is charged to one cause: a ready
 * warp without a free collector (bank when some collector is waiting on a
 * bank conflict, else collector); else no ready warp: scoreboard when some
 * warp waits on a short-latency result, bank when it waits on a write held
 * up at a bank, memory when every waiting warp waits on memory; no_warp when
 * no warp has an instruction to issue (none resident, barrier, exited).
 */
#include <assert.h>

#include "sim_internal.h"

/* Policy order of warp `slot` (index idx among the scheduler's n warps);
 * smaller issues first. */
static inline uint64_t policy_key(int policy, const sim_sched *S, const sim_warp *w, int slot,
                                  int idx, int last_idx, int n)
{
    uint64_t key;
    if (policy == RF_SCHED_GTO) {
        key = slot == S->last ? 0 : 1 + w->age;
    } else {          /* LRR, and round robin inside the two-level active pool */
        int d = idx - last_idx - 1;
        key = (uint64_t)(d < 0 ? d + n : d);
    }
    return key | ((uint64_t)w->prio_class << 56);
}

static bool mem_blocked(const sim_warp *w, const sim_inst *in)
{
    return sim_mask_any(&w->pend_mem, &in->dep);
}

/* Two-level scheduler: refresh the active pool of scheduler s. */
static void two_level_pool(sim_ctx *x, sim_sm *sm, int s)
{
    sim_sched *S = &sm->sched[s];
    int nactive = 0;
    for (int slot = s; slot < sm->nslots; slot += x->nsched) {
        sim_warp *w = &sm->warps[slot];
        if (!w->tl_active)
            continue;
        if (w->state != SIM_W_ACTIVE || w->pc < 0 ||
            mem_blocked(w, &x->prog.insts[w->pc])) {
            w->tl_active = 0;
            w->tl_seq = S->tl_counter++;
            if (x->org->on_pool)
                x->org->on_pool(x, sm, slot, false);
        } else {
            nactive++;
        }
    }
    while (nactive < x->tl_active) {
        int best = -1;
        for (int slot = s; slot < sm->nslots; slot += x->nsched) {
            sim_warp *w = &sm->warps[slot];
            if (w->tl_active || w->state != SIM_W_ACTIVE || w->pc < 0 || w->parked ||
                mem_blocked(w, &x->prog.insts[w->pc]))
                continue;
            if (best < 0 || w->tl_seq < sm->warps[best].tl_seq)
                best = slot;
        }
        if (best < 0)
            break;
        sm->warps[best].tl_active = 1;
        if (x->org->on_pool)
            x->org->on_pool(x, sm, best, true);
        nactive++;
    }
}

static void barrier_release(sim_sm *sm, int c, int wpc)
{
    sim_cta *ct = &sm->ctas[c];
    if (ct->live <= 0 || ct->at_bar < ct->live)
        return;
    for (int i = 0; i < wpc; i++) {
        sim_warp *w = &sm->warps[c * wpc + i];
        if (w->state == SIM_W_BARRIER)
            w->state = SIM_W_ACTIVE;
    }
    ct->at_bar = 0;
}

/* Issue warp `slot`'s instruction, into collector `c` when it needs one.
 * `greedy`: the issue moves the policy's last-issued pointer (an issue
 * forced by read stealing does not, so GTO returns to its greedy warp:
 * seed 001's Wa, Wa, Wb, Wb becoming Wa, Wb, Wa, Wb). */
static void issue(sim_ctx *x, sim_sm *sm, int slot, int c, bool greedy)
{
    sim_warp *w = &sm->warps[slot];
    const sim_inst *in = &x->prog.insts[w->pc];
    int pc = w->pc;
    sm->chk_issued++;
    sm->issued_now++;
    if (greedy)
        sm->sched[w->sched].last = slot;
    if (x->org->on_issue)
        x->org->on_issue(x, sm, slot, pc);
    sim_warp_advance(x, w, in);
    w->sbst = SIM_SB_DIRTY;
    sim_cta *ct = &sm->ctas[w->cta];
    if (in->unit == SIM_U_NONE) {
        /* BAR and EXIT take effect at issue and retire at once. */
        int f = sim_flight_new(sm, slot, pc);
        w->inflight++;
        ct->inflight++;
        if (in->cls == RF_OC_BARRIER && w->pc >= 0) {
            w->state = SIM_W_BARRIER;
            ct->at_bar++;
        }
        if (w->pc < 0) {
            w->state = SIM_W_DONE;
            ct->live--;
            sm->active_warps--;
            if (x->org->on_exit)
                x->org->on_exit(x, sm, slot);
        }
        barrier_release(sm, w->cta, x->warps_per_cta);
        sim_flight_retire(x, sm, f);
        return;
    }
    if (w->pc < 0) {                   /* fell off the end of the code */
        w->state = SIM_W_DONE;
        ct->live--;
        sm->active_warps--;
        if (x->org->on_exit)
            x->org->on_exit(x, sm, slot);
        barrier_release(sm, w->cta, x->warps_per_cta);
    }
    int f = sim_flight_new(sm, slot, pc);
    w->inflight++;
    ct->inflight++;
    bool longlat = in->mem == SIM_M_LOAD || in->mem == SIM_M_ATOMIC;
    sim_sb_reserve(w, in, longlat);
    sm->fl[f].mem = longlat;
    sim_coll_fill(x, sm, c, slot, pc);
    sm->coll[c].flight = f;
}

/* One issue slot of scheduler s: true when an instruction issued, else the
 * stall cause is in sm->sched_stall[s].  `first`: the cycle's first slot,
 * where a read-stealing override takes effect. */
static bool issue_slot(sim_ctx *x, sim_sm *sm, int s, bool first)
{
    sim_sched *S = &sm->sched[s];
    int forced = first ? S->override : -1;
    if (first)
        S->override = -1;

    /* Rank the ready warps; note why the others wait. */
    int best = -1, second = -1;
    uint64_t kbest = UINT64_MAX, ksecond = UINT64_MAX;
    bool short_wait = false, bank_wait = false, mem_wait = false, rc_wait = false;
    bool lock_wait = false;
    bool gated = x->policy == RF_SCHED_TWO_LEVEL && x->org->gate;
    int ns = x->nsched;
    int n = (sm->nslots - s + ns - 1) / ns;
    int last_idx = S->last >= 0 ? S->last / ns : n - 1;
    for (int idx = 0, slot = s; slot < sm->nslots; idx++, slot += ns) {
        sim_warp *w = &sm->warps[slot];
        if (w->state != SIM_W_ACTIVE || w->pc < 0 || slot == forced || w->parked)
            continue;
        if (gated && w->tl_active && !x->org->gate(x, sm, slot)) {
            rc_wait = true;             /* register prefetch in progress */
            continue;
        }
        if (w->sbst == SIM_SB_DIRTY) {
            const sim_inst *in = &x->prog.insts[w->pc];
            if (sim_sb_ready(w, in)) {
                w->sbst = SIM_SB_READY;
            } else {
                sim_mask blk;
                for (int i = 0; i < SIM_MASK_WORDS; i++)
                    blk.w[i] = w->pend.w[i] & in->dep.w[i];
                w->sbst = sim_mask_any(&blk, &w->pend_wq)    ? SIM_SB_BANK
                          : sim_mask_any(&blk, &w->pend_mem) ? SIM_SB_MEM
                                                              : SIM_SB_SHORT;
            }
        }
        if (w->sbst != SIM_SB_READY) {
            bank_wait |= w->sbst == SIM_SB_BANK;
            mem_wait |= w->sbst == SIM_SB_MEM;
            short_wait |= w->sbst == SIM_SB_SHORT;
            continue;
        }
        if (x->policy == RF_SCHED_TWO_LEVEL && !w->tl_active)
            continue;
        if (x->org->may_issue && !x->org->may_issue(x, sm, slot)) {
            lock_wait = true;           /* shared registers held by the partner */
            continue;
        }
        uint64_t k = policy_key(x->policy, S, w, slot, idx, last_idx, n);
        if (k < kbest) {
            second = best, ksecond = kbest;
            best = slot, kbest = k;
        } else if (k < ksecond) {
            second = slot, ksecond = k;
        }
    }

    if (forced >= 0) {
        /* Operands were read ahead: the candidate issues now. */
        sim_warp *w = &sm->warps[forced];
        assert(w->state == SIM_W_ACTIVE && w->pc == S->cand_pc &&
               sim_sb_ready(w, &x->prog.insts[w->pc]));
        issue(x, sm, forced, S->override_coll, false);
        sm->c.overrides++;
        S->cand = best;
        S->cand_pc = best >= 0 ? sm->warps[best].pc : -1;
        return true;
    }
    S->cand = -1;
    if (best >= 0) {
        const sim_inst *in = &x->prog.insts[sm->warps[best].pc];
        int c = -1;
        if (in->unit != SIM_U_NONE)
            c = sim_coll_alloc(sm, in->unit);
        if (in->unit == SIM_U_NONE || c >= 0) {
            issue(x, sm, best, c, true);
            if (second >= 0 && sm->warps[second].state == SIM_W_ACTIVE) {
                S->cand = second;
                S->cand_pc = sm->warps[second].pc;
            }
            return true;
        }
        bool conflicted = false;
        for (int i = 0; i < sm->ncoll_busy; i++)
            conflicted |= sm->coll[sm->coll_order[i]].conflicted;
        sm->sched_stall[s] = conflicted ? SIM_ST_BANK : SIM_ST_COLLECTOR;
    } else if (rc_wait) {
        sm->sched_stall[s] = SIM_ST_RC;
    } else if (lock_wait) {
        sm->sched_stall[s] = SIM_ST_LOCK;
    } else if (short_wait) {
        sm->sched_stall[s] = SIM_ST_SCOREBOARD;
    } else if (bank_wait) {
        sm->sched_stall[s] = SIM_ST_BANK;
    } else if (mem_wait) {
        sm->sched_stall[s] = SIM_ST_MEMORY;
    } else {
        sm->sched_stall[s] = SIM_ST_NO_WARP;
    }
    return false;
}

/* Issue stage: each scheduler fills up to issue_width slots (the same warp
 * may issue consecutive independent instructions); every unused slot is
 * charged to the stall cause found when it failed.  The schedulers take
 * their turn in an order that rotates every cycle, scheduler (now + i) mod
 * S i-th, as GPGPU-Sim's shader core does ("fair round robin issue between
 * schedulers"): they share the collectors, and a fixed order would give
 * the first scheduler every freed collector, leaving the last one's warps
 * behind at each barrier. */
void sim_issue(sim_ctx *x, sim_sm *sm)
{
    sm->issued_now = 0;
    int first = (int)(x->now % (uint64_t)x->nsched);
    for (int i = 0; i < x->nsched; i++) {
        int s = first + i < x->nsched ? first + i : first + i - x->nsched;
        if (x->policy == RF_SCHED_TWO_LEVEL)
            two_level_pool(x, sm, s);
        int used = 0;
        while (used < x->issue_width && issue_slot(x, sm, s, used == 0))
            used++;
        sm->sched_unused[s] = (uint8_t)(x->issue_width - used);
    }
}

/* Charge `n` cycles of the stalls recorded in the last cycle (unused
 * issue slots). */
void sim_stall_account(sim_sm *sm, int nsched, uint64_t n)
{
    for (int s = 0; s < nsched; s++) {
        uint64_t m = n * sm->sched_unused[s];
        switch (sm->sched_stall[s]) {
        case SIM_ST_NO_WARP: sm->c.st_no_warp += m; break;
        case SIM_ST_SCOREBOARD: sm->c.st_scoreboard += m; break;
        case SIM_ST_COLLECTOR: sm->c.st_collector += m; break;
        case SIM_ST_BANK: sm->c.st_bank += m; break;
        case SIM_ST_MEMORY: sm->c.st_memory += m; break;
        case SIM_ST_RC: sm->c.st_rc += m; break;
        case SIM_ST_LOCK: sm->c.st_lock += m; break;
        default: break;
        }
    }
}
