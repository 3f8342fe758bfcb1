/* bank.c - single-ported register-file banks and their arbiter.
 *
 * Model (seed 001 Sec. II-B and IV-D): the register file of an SM is
 * `banks` single-ported banks; one warp register (warp_size x 32 bits) is
 * one bank entry.  Register r of hardware warp w lives in bank
 *   swizzle: (r + w) mod banks   (default; GPGPU-Sim style, spreads the same
 *                                 register of different warps)
 *   modulo:  r mod banks.
 * Every cycle the arbiter grants each bank at most one access.  Without
 * write stealing writes go first (seed 001: "write operations usually take
 * higher priority over reads"), then reads of the operand collectors, oldest
 * collector first.  With bank stealing the order is seed 001's
 *   forced write > normal read > stealing read > normal write > stealing write:
 *   1. forced writes: write-backs of stolen values demanded by a RAW/WAW
 *      hazard, and the destination half of every second-chance write-back;
 *   2. normal reads;  3. stealing reads (read stealing, stealing.c);
 *   4. normal writes: granted when no read (normal or stealing) took the
 *      bank this cycle; otherwise parked in a dead register of a bank
 *      still idle (stealing write); when no bank qualifies the write is
 *      forced and takes the bank from the read that had it (the read is
 *      refused, an inter-write conflict);
 *   5. second-chance write-backs read the parked value from an idle bank
 *      (the destination write follows next cycle as a forced write).
 *
 * Counters: a read refused a bank charges one cycle to inter-write (the bank
 * went to a write), intra (to an operand of the same instruction) or
 * inter-read (to another instruction's read); a write refused charges one
 * write-conflict cycle.  bank_util = granted accesses / (banks x cycles).
 *
 * Organisation hook: sim_bank_of() is the register-to-bank map; a register
 * cache or a two-level file (HI-RF, RFC, LTRF) routes accesses here.
 */
#include <stdlib.h>

#include "sim_internal.h"

int sim_bank_of(const sim_ctx *x, int slot, int reg)
{
    if (x->bank_map == RF_BANK_MAP_MODULO)
        return reg % x->nbanks;
    return (reg + slot) % x->nbanks;
}

static int banked_read(sim_ctx *x, sim_sm *sm, int slot, int reg, int *extra)
{
    (void)sm;
    *extra = 0;
    return sim_bank_of(x, slot, reg);
}

static int banked_write(sim_ctx *x, sim_sm *sm, int slot, int reg)
{
    (void)sm;
    return sim_bank_of(x, slot, reg);
}

static void banked_issue(sim_ctx *x, sim_sm *sm, int slot, int inst)
{
    if (x->write_steal)
        sim_rfree_update(x, sm, slot, inst);
}

static const sim_rforg banked = {.name = "banked", .read_route = banked_read,
                                 .write_route = banked_write, .on_issue = banked_issue};

/* HI-RF has its register cache (regcache.c), RFC and LTRF theirs (ltrf.c),
 * Register Sharing its locks (sharing.c) and VT, Reg+DRAM and FineReg their
 * VT+RegMutex their CTA switching (ctaswitch.c, regmutex.c) on the banked
 * file; every other design runs on the banked file. */
const sim_rforg *sim_rforg_for(const rf_design *d)
{
    if (d->kind == RF_DESIGN_HIRF)
        return &sim_rforg_hirf;
    if (d->kind == RF_DESIGN_SHARING)
        return &sim_rforg_sharing;
    if (d->kind == RF_DESIGN_VT || d->kind == RF_DESIGN_REGDRAM || d->kind == RF_DESIGN_FINEREG ||
        d->kind == RF_DESIGN_REGMUTEX)
        return &sim_rforg_switch;
    const sim_rforg *o = sim_ltrf_org(d);
    if (o)
        return o;
    return &banked;
}

int sim_wq_push(sim_sm *sm, sim_wreq r)
{
    if (sm->nwq == sm->capwq) {
        int cap = sm->capwq ? 2 * sm->capwq : 64;
        sim_wreq *q = realloc(sm->wq, (size_t)cap * sizeof *q);
        if (!q)
            return RF_ENOMEM;
        sm->wq = q;
        sm->capwq = cap;
    }
    sm->wq[sm->nwq++] = r;
    return 0;
}

/* A register value reached its bank (or a parked place): scoreboard and
 * retirement bookkeeping. */
void sim_write_done(sim_ctx *x, sim_sm *sm, int slot, int reg, int flight)
{
    sim_sb_release(&sm->warps[slot], reg);
    if (--sm->fl[flight].writes_left == 0)
        sim_flight_retire(x, sm, flight);
}

void sim_bank_grant(sim_ctx *x, sim_sm *sm, int b)
{
    if (sm->bank_grant[b] == x->now + 1)
        sm->chk_overuse++;
    sm->bank_grant[b] = x->now + 1;
    sm->c.bank_busy++;
}

#define BIT(b) (UINT64_C(1) << (b))
#define HOLD_NONE (-2)
#define HOLD_WRITE (-1)

/* A forced write takes the bank of the read granted to operand j of
 * collector c this cycle: the read is refused after all (an inter-write
 * conflict) and tries again. */
static void revoke_read(sim_sm *sm, int c, int j)
{
    sim_collector *k = &sm->coll[c];
    k->got[j] = 0;
    k->ngot--;
    k->conflicted = true;
    sm->c.bank_reads--;
    sm->c.xbar--;
    sm->c.fills--;
    if (!k->issued)
        sm->c.stolen_reads--;
    sm->c.read_conflict++;
    sm->c.inter_write++;
}

void sim_arbitrate(sim_ctx *x, sim_sm *sm)
{
    uint64_t busy = 0;
    int holder[SIM_MAX_BANKS];          /* collector reading the bank, or HOLD_* */
    uint8_t hold_op[SIM_MAX_BANKS];     /* ... and which of its operands */
    for (int b = 0; b < x->nbanks; b++)
        holder[b] = HOLD_NONE;
    bool ws = x->write_steal;

    /* Banks still busy with a multi-cycle write (NVM write-backs). */
    if (x->write_hold > 1)
        for (int b = 0; b < x->nbanks; b++)
            if (sm->bank_free_at[b] > x->now) {
                busy |= BIT(b);
                holder[b] = HOLD_WRITE;
                sm->c.bank_busy++;
            }

    /* 0. Hazards on parked values: a read or write of a linked register
     * forces that link's write-back (seed 001 Sec. IV-C2). */
    if (ws && sm->nlinks > 0) {
        for (int i = 0; i < sm->ncoll_busy; i++) {
            sim_collector *k = &sm->coll[sm->coll_order[i]];
            if (!k->issued)
                continue;
            for (int j = 0; j < k->nops; j++)
                if (!k->got[j])
                    (void)sim_steal_hazard(x, sm, k->slot, k->reg[j]);
        }
        for (int i = 0; i < sm->nwq; i++)
            if (sm->wq[i].link < 0)
                (void)sim_steal_hazard(x, sm, sm->wq[i].slot, sm->wq[i].reg);
    }

    /* 1. Forced writes. */
    if (ws && sm->nlinks > 0)
        sim_steal_writebacks(x, sm, &busy, true);
    for (int b = 0; b < x->nbanks; b++)
        if (busy & BIT(b))
            holder[b] = HOLD_WRITE;
    for (int i = 0; i < sm->nwq; i++) {
        sim_wreq *r = &sm->wq[i];
        if (r->kind != SIM_WR_FORCED)
            continue;
        if (r->done_at > 0) {           /* multi-cycle write in progress */
            if (r->done_at <= x->now) {
                sm->c.nvm_stall += r->done_at - r->since;
                sim_write_done(x, sm, r->slot, r->reg, r->flight);
                r->slot = -1;
            }
            continue;
        }
        if (r->since > x->now)
            continue;
        if (r->link < 0 && ws && sm->nlinks > 0 && sim_steal_hazard(x, sm, r->slot, r->reg)) {
            sm->c.write_conflict++;
            continue;
        }
        if (busy & BIT(r->bank)) {
            sm->c.write_conflict++;
            continue;
        }
        sim_bank_grant(x, sm, r->bank);
        busy |= BIT(r->bank);
        holder[r->bank] = HOLD_WRITE;
        sm->c.bank_writes++;
        if (r->link < 0 && x->write_hold > 1) {
            /* Held for write_hold cycles; done in the last of them. */
            sm->bank_free_at[r->bank] = x->now + (uint64_t)x->write_hold;
            r->done_at = x->now + (uint64_t)x->write_hold - 1;
            sm->c.nvm_writes++;
            continue;
        }
        if (r->link >= 0) {
            sim_link_done(x, sm, r->link);
        } else {
            sm->c.wb_normal++;
            sim_write_done(x, sm, r->slot, r->reg, r->flight);
        }
        r->slot = -1;                   /* served */
    }

    /* Banks of the normal writes waiting (read stealing's conflict check,
     * and no write parks in a bank another write needs). */
    uint64_t wbanks = 0;
    if (ws)
        for (int i = 0; i < sm->nwq; i++)
            if (sm->wq[i].slot >= 0 && sm->wq[i].kind == SIM_WR_NORMAL)
                wbanks |= BIT(sm->wq[i].bank);

    /* 2. Normal reads, oldest collector first. */
    uint64_t unserved = 0;
    for (int i = 0; i < sm->ncoll_busy; i++) {
        int c = sm->coll_order[i];
        sim_collector *k = &sm->coll[c];
        if (!k->issued)
            continue;
        k->conflicted = false;
        int ports = x->xbar_ports;
        for (int j = 0; j < k->nops; j++) {
            if (k->got[j])
                continue;
            int b = k->bank[j];
            if (ports == 0) {               /* the collector's crossbar ports are taken */
                unserved |= BIT(b);
                continue;
            }
            bool hazard = ws && sm->nlinks > 0 && sim_mask_test(&sm->linked[k->slot], k->reg[j]);
            if (hazard || (busy & BIT(b))) {
                sm->c.read_conflict++;
                if (hazard || holder[b] == HOLD_WRITE)
                    sm->c.inter_write++;
                else if (holder[b] == c)
                    sm->c.intra++;
                else
                    sm->c.inter_read++;
                k->conflicted = true;
                unserved |= BIT(b);
                continue;
            }
            sim_bank_grant(x, sm, b);
            busy |= BIT(b);
            holder[b] = c;
            hold_op[b] = (uint8_t)j;
            ports--;
            k->got[j] = 1;
            k->ngot++;
            sm->c.bank_reads++;
            sm->c.xbar++;
            sm->c.fills++;
            if (k->ready_at < x->now + 1)
                k->ready_at = x->now + 1;
        }
    }

    /* 3. Stealing reads. */
    if (x->read_steal)
        sim_steal_reads(x, sm, &busy, holder, hold_op, unserved, wbanks);

    /* 4. Normal writes: into their own bank when no read took it; else
     * parked in a dead register of a bank still idle (stealing write);
     * else forced, taking the bank from the read that had it. */
    if (ws) {
        for (int i = 0; i < sm->nwq; i++) {
            sim_wreq *r = &sm->wq[i];
            if (r->slot < 0 || r->kind != SIM_WR_NORMAL)
                continue;
            if (sm->nlinks > 0 && sim_steal_hazard(x, sm, r->slot, r->reg)) {
                sm->c.write_conflict++;
                continue;
            }
            bool own = !(busy & BIT(r->bank));
            if (!own && sim_steal_write(x, sm, r, wbanks, &busy) >= 0) {
                r->slot = -1;
                continue;
            }
            if (!own && holder[r->bank] < 0) {
                sm->c.write_conflict++;     /* another write has the bank */
                continue;
            }
            if (own) {
                sim_bank_grant(x, sm, r->bank);
                busy |= BIT(r->bank);
                sm->c.wb_normal++;
            } else {
                revoke_read(sm, holder[r->bank], hold_op[r->bank]);
                sm->c.wb_forced++;
            }
            holder[r->bank] = HOLD_WRITE;
            sm->c.bank_writes++;
            sim_write_done(x, sm, r->slot, r->reg, r->flight);
            r->slot = -1;
        }
    }

    /* 5. Second-chance write-backs of parked values into idle banks. */
    if (ws && sm->nlinks > 0)
        sim_steal_writebacks(x, sm, &busy, false);

    /* Drop served requests, keeping the order of the others. */
    int j = 0;
    for (int i = 0; i < sm->nwq; i++)
        if (sm->wq[i].slot >= 0)
            sm->wq[j++] = sm->wq[i];
    sm->nwq = j;
}
