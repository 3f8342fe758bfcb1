/* stealing.c - bank stealing (seed 001 Sec. IV-B to IV-D).
 *
 * Read stealing (Sec. IV-B): each scheduler latches a candidate warp, the
 * second-best ready warp of its selection.  In the next cycle, after the
 * normal reads have been granted, the arbiter reads ahead the candidate's
 * operands whose banks are still idle, provided that
 *   (1) a free operand collector can hold them, and
 *   (2) stealing resolves a conflict expected in the next cycle: an operand's
 *       bank is still wanted by a refused read, by a pending write, by the
 *       warps another scheduler is expected to issue (its candidate and its
 *       last issued warp, when ready), or by another operand of the same
 *       instruction.
 * The scheduler is then overridden to issue the candidate in that cycle
 * (scheduler.c), into the collector already holding the stolen operands.
 *
 * Write stealing (Sec. IV-C): every bank b has Rfree[b] (valid bit f and a
 * dead register of some warp living in b), refreshed whenever a warp issues
 * an instruction from the compile-time hint "dead register of this residue
 * class after this instruction" (warp.c).  A normal write that meets a read
 * on its bank is parked in Rfree of an idle bank (round robin over the
 * banks that qualify) and the link (valid bit m, Rdest) is recorded in the
 * bank's link table entry; its scoreboard entry clears at once.  The parked
 * value goes back by a second-chance write-back: the temporary is read when
 * its bank is idle (the seed's two conditions are "the result bus is free
 * and the bank holding the temporary register is free"; the result bus is
 * not a modelled resource) and written to Rdest in the next cycle as a
 * forced write; a read of Rdest's bank then waits ("we will not steal again
 * but complete the write by stalling the read").
 * A read or write of Rdest (RAW, WAW), or a write of the temporary register
 * itself (the dead register becomes live), forces the write-back first:
 * temporary read at forced priority, destination write the cycle after, the
 * dependent access waiting until the link clears.
 *
 * Write-back classes (Fig. 14): normal; stolen and written back within one
 * cycle (temporary read in the cycle right after the steal); stolen and
 * written back later; forced (hazard write-backs, and writes that took the
 * bank from a read because no bank qualified for stealing).
 */
#include "sim_internal.h"

#define BIT(b) (UINT64_C(1) << (b))

static bool cand_ok(sim_ctx *x, sim_sm *sm, const sim_sched *S)
{
    if (S->cand < 0 || S->override >= 0)
        return false;
    const sim_warp *w = &sm->warps[S->cand];
    if (w->state != SIM_W_ACTIVE || w->pc != S->cand_pc || w->pc < 0)
        return false;
    const sim_inst *in = &x->prog.insts[w->pc];
    return in->unit != SIM_U_NONE && in->nreads > 0 && sim_sb_ready(w, in);
}

void sim_steal_reads(sim_ctx *x, sim_sm *sm, uint64_t *busy, int *holder, uint8_t *hold_op,
                     uint64_t unserved, uint64_t wbanks)
{
    /* Banks each scheduler is expected to read next cycle: those of its
     * candidate and of the warp it issued last (GTO issues it again). */
    uint64_t cbanks[SIM_MAX_SCHED] = {0};
    for (int s = 0; s < x->nsched; s++) {
        const sim_sched *S = &sm->sched[s];
        if (cand_ok(x, sm, S)) {
            const sim_inst *in = &x->prog.insts[sm->warps[S->cand].pc];
            for (int j = 0; j < in->nreads; j++)
                cbanks[s] |= BIT(sim_bank_of(x, S->cand, in->reads[j]));
        }
        int l = S->last;
        if (l >= 0 && sm->warps[l].state == SIM_W_ACTIVE && sm->warps[l].pc >= 0) {
            const sim_inst *in = &x->prog.insts[sm->warps[l].pc];
            if (sim_sb_ready(&sm->warps[l], in))
                for (int j = 0; j < in->nreads; j++)
                    cbanks[s] |= BIT(sim_bank_of(x, l, in->reads[j]));
        }
    }
    for (int s = 0; s < x->nsched; s++) {
        sim_sched *S = &sm->sched[s];
        if (!cand_ok(x, sm, S))
            continue;
        int slot = S->cand;
        const sim_inst *in = &x->prog.insts[sm->warps[slot].pc];
        uint64_t others = 0;
        for (int t = 0; t < x->nsched; t++)
            if (t != s)
                others |= cbanks[t];
        uint8_t bank[SIM_MAX_OPS];
        uint64_t seen = 0, dup = 0;
        for (int j = 0; j < in->nreads; j++) {
            bank[j] = (uint8_t)sim_bank_of(x, slot, in->reads[j]);
            if (seen & BIT(bank[j]))
                dup |= BIT(bank[j]);
            seen |= BIT(bank[j]);
        }
        uint64_t contended = unserved | wbanks | others | dup;
        bool conflict = false;
        int nsteal = 0;
        uint64_t take = 0;
        for (int j = 0; j < in->nreads && (x->xbar_ports < 0 || nsteal < x->xbar_ports); j++) {
            uint64_t bb = BIT(bank[j]);
            conflict |= (contended & bb) != 0;
            bool linked = x->write_steal && sm->nlinks > 0 &&
                          sim_mask_test(&sm->linked[slot], in->reads[j]);
            if (!((*busy | take) & bb) && !linked) {
                take |= bb;
                nsteal++;
            }
        }
        if (!conflict || nsteal == 0)
            continue;
        int c = sim_coll_alloc(sm, in->unit);
        if (c < 0)
            continue;
        sim_collector *k = &sm->coll[c];
        k->slot = slot;
        k->inst = sm->warps[slot].pc;
        k->nops = in->nreads;
        k->ngot = 0;
        k->ready_at = x->now + 1;
        uint64_t granted = 0;
        for (int j = 0; j < in->nreads; j++) {
            k->reg[j] = in->reads[j];
            k->bank[j] = bank[j];
            k->got[j] = 0;
            if ((take & BIT(bank[j])) && !(granted & BIT(bank[j]))) {
                granted |= BIT(bank[j]);
                sim_bank_grant(x, sm, bank[j]);
                holder[bank[j]] = c;
                hold_op[bank[j]] = (uint8_t)j;
                k->got[j] = 1;
                k->ngot++;
                sm->c.bank_reads++;
                sm->c.xbar++;
                sm->c.fills++;
                sm->c.stolen_reads++;
            }
        }
        *busy |= granted;
        S->override = slot;
        S->override_coll = c;
    }
}

static void link_set_masks(sim_sm *sm, const sim_link *l, bool on)
{
    if (on) {
        sim_mask_set(&sm->linked[l->dslot], l->dreg);
        sim_mask_set(&sm->linked[l->tslot], l->treg);
    } else {
        sim_mask_reset(&sm->linked[l->dslot], l->dreg);
        sim_mask_reset(&sm->linked[l->tslot], l->treg);
    }
}

/* Does a collector still have to read (slot, reg)?  A register that died
 * at an instruction still collecting its operands cannot take a parked
 * value yet (write-after-read on the temporary). */
static bool read_pending(const sim_sm *sm, int slot, int reg)
{
    for (int i = 0; i < sm->ncoll_busy; i++) {
        const sim_collector *k = &sm->coll[sm->coll_order[i]];
        if (k->slot != slot)
            continue;
        for (int j = 0; j < k->nops; j++)
            if (!k->got[j] && k->reg[j] == reg)
                return true;
    }
    return false;
}

int sim_steal_write(sim_ctx *x, sim_sm *sm, const sim_wreq *r, uint64_t requested,
                    uint64_t *busy)
{
    int nb = x->nbanks;
    for (int i = 0; i < nb; i++) {
        int t = (sm->steal_rr + i) % nb;
        if (t == r->bank || ((requested | *busy) & BIT(t)))
            continue;
        sim_rfree *rf = &sm->rfree[t];
        if (!rf->valid || sm->link[t].valid)
            continue;
        if ((rf->slot == r->slot && rf->reg == r->reg) || read_pending(sm, rf->slot, rf->reg))
            continue;
        sim_bank_grant(x, sm, t);
        *busy |= BIT(t);
        sm->c.bank_writes++;
        sm->c.stolen_writes++;
        sim_link *l = &sm->link[t];
        l->valid = true;
        l->reading = false;
        l->forced = false;
        l->dslot = r->slot;
        l->dreg = r->reg;
        l->dbank = r->bank;
        l->tslot = rf->slot;
        l->treg = rf->reg;
        l->t_steal = x->now;
        l->wb_class = 1;
        sm->nlinks++;
        link_set_masks(sm, l, true);
        sm->steal_rr = (t + 1) % nb;
        sim_write_done(x, sm, r->slot, r->reg, r->flight);
        return t;
    }
    return -1;
}

/* Read parked values back.  forced: the forced links, at forced priority.
 * Otherwise the second chance of the others, whenever the temporary's bank
 * is idle from the cycle after the steal on (seed 001 Sec. IV-C2: no
 * condition on the destination bank; a read meeting the destination write
 * next cycle is stalled).  The destination write follows next cycle. */
void sim_steal_writebacks(sim_ctx *x, sim_sm *sm, uint64_t *busy, bool forced)
{
    for (int t = 0; t < x->nbanks; t++) {
        sim_link *l = &sm->link[t];
        if (!l->valid || l->reading || l->forced != forced || (*busy & BIT(t)))
            continue;
        if (!forced && l->t_steal >= x->now)
            continue;               /* parked this very cycle */
        sim_bank_grant(x, sm, t);
        *busy |= BIT(t);
        sm->c.bank_reads++;
        l->reading = true;
        l->wb_class = forced ? 2 : (x->now == l->t_steal + 1 ? 0 : 1);
        sim_wreq q = {l->dslot, l->dreg, l->dbank, -1, x->now + 1, SIM_WR_FORCED, t, 0};
        if (sim_wq_push(sm, q) < 0)
            sm->oom = true;
    }
}

/* The destination write of link t is done. */
void sim_link_done(sim_ctx *x, sim_sm *sm, int t)
{
    sim_link *l = &sm->link[t];
    (void)x;
    switch (l->wb_class) {
    case 0: sm->c.wb_fast++; break;
    case 1: sm->c.wb_late++; break;
    default: sm->c.wb_forced++; break;
    }
    link_set_masks(sm, l, false);
    l->valid = false;
    sm->nlinks--;
    sm->rfree[t].valid = false;     /* refreshed by the next issue */
}

/* Is (slot, reg) a parked value's destination or temporary?  If so its
 * write-back becomes forced. */
bool sim_steal_hazard(sim_ctx *x, sim_sm *sm, int slot, int reg)
{
    if (!sim_mask_test(&sm->linked[slot], reg))
        return false;
    for (int t = 0; t < x->nbanks; t++) {
        sim_link *l = &sm->link[t];
        if (l->valid && ((l->dslot == slot && l->dreg == reg) ||
                         (l->tslot == slot && l->treg == reg))) {
            if (!l->reading)
                l->forced = true;
            return true;
        }
    }
    return true;
}

void sim_rfree_update(sim_ctx *x, sim_sm *sm, int slot, int inst)
{
    int nb = x->nbanks;
    const int16_t *dead = &x->prog.dead[(size_t)inst * (size_t)nb];
    int shift = x->bank_map == RF_BANK_MAP_MODULO ? 0 : slot % nb;
    for (int b = 0; b < nb; b++) {
        if (sm->link[b].valid)
            continue;
        int c = (b - shift + nb) % nb;
        if (dead[c] >= 0) {
            sm->rfree[b].valid = true;
            sm->rfree[b].slot = slot;
            sm->rfree[b].reg = dead[c];
        }
    }
}

/* A write of (slot, reg) is coming: a dead register that stops being dead
 * can no longer serve as Rfree. */
void sim_rfree_on_write(sim_ctx *x, sim_sm *sm, int slot, int reg)
{
    int b = sim_bank_of(x, slot, reg);
    sim_rfree *rf = &sm->rfree[b];
    if (rf->valid && rf->slot == slot && rf->reg == reg && !sm->link[b].valid)
        rf->valid = false;
}
