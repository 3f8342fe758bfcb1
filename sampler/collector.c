/* collector.c - operand collectors and dispatch to the execution units.
 *
 * Model (seed 001 Sec. II-B, Fig. 1): an issued instruction occupies one
 * operand collector (`collectors` per SM, shared by all schedulers; by
 * default split among the unit classes as GPGPU-Sim's Fermi 6 ALU : 8 SFU :
 * 2 LD/ST, rf_sim_opts.typed_collectors, else one pool) while its
 * source registers are read from the banks; each granted read crosses the
 * crossbar and is in the collector the next cycle.  When every operand is
 * there the instruction is dispatched, oldest collector first, to a free
 * execution pipe of its class, and the collector is released.  Operands read
 * ahead by read stealing arrive in a collector reserved for the candidate
 * warp before that warp issues into it.
 *
 * Counters: collector_fills counts operands written into collectors (one per
 * distinct source register per instruction), xbar_transfers the operands that
 * crossed the bank-to-collector crossbar (the same in this organisation; a
 * register cache would fill collectors without crossing it).
 */
#include <assert.h>

#include "sim_internal.h"

int sim_coll_alloc(sim_sm *sm, int unit)
{
    const sim_ctx *x = sm->ctx;
    int lo = 0, hi = x->ncoll;
    if (x->coll_split[0] > 0 && unit >= 0 && unit < SIM_U_NONE) {
        lo = x->coll_first[unit];
        hi = lo + x->coll_split[unit];
    }
    for (int c = lo; c < hi; c++)
        if (!sm->coll[c].busy) {
            sim_collector *k = &sm->coll[c];
            k->busy = true;
            k->issued = false;
            k->nops = k->ngot = 0;
            k->conflicted = false;
            k->ready_at = 0;
            k->slot = k->inst = k->flight = -1;
            sm->coll_order[sm->ncoll_busy++] = c;
            return c;
        }
    return -1;
}

void sim_coll_release(sim_sm *sm, int c)
{
    sm->coll[c].busy = false;
    int j = 0;
    for (int i = 0; i < sm->ncoll_busy; i++)
        if (sm->coll_order[i] != c)
            sm->coll_order[j++] = sm->coll_order[i];
    sm->ncoll_busy = j;
}

/* Put issued instruction `inst` of warp `slot` into collector c; operands
 * already read ahead for the same instruction are kept. */
void sim_coll_fill(sim_ctx *x, sim_sm *sm, int c, int slot, int inst)
{
    sim_collector *k = &sm->coll[c];
    const sim_inst *in = &x->prog.insts[inst];
    bool stolen = k->slot == slot && k->inst == inst && k->nops == in->nreads;
    if (!stolen) {
        k->nops = in->nreads;
        k->ngot = 0;
        k->ready_at = x->now + 1;
        for (int i = 0; i < in->nreads; i++) {
            int extra = 0;
            int b = x->org->read_route(x, sm, slot, in->reads[i], &extra);
            k->reg[i] = in->reads[i];
            k->bank[i] = (uint8_t)(b >= 0 ? b : 0);
            k->got[i] = b < 0;
            if (b < 0) {                /* supplied without a bank access */
                k->ngot++;
                sm->c.fills++;
                if (k->ready_at < x->now + 1 + (uint64_t)extra)
                    k->ready_at = x->now + 1 + (uint64_t)extra;
            }
        }
    }
    k->slot = slot;
    k->inst = inst;
    k->issued = true;
    sm->c.operand_reads += in->nreads;
}

void sim_coll_dispatch(sim_ctx *x, sim_sm *sm)
{
    for (int i = 0; i < sm->ncoll_busy; i++) {
        int c = sm->coll_order[i];
        sim_collector *k = &sm->coll[c];
        if (!k->issued || k->ngot < k->nops || k->ready_at > x->now)
            continue;
        const sim_inst *in = &x->prog.insts[k->inst];
        if (!sim_unit_take(x, sm, in))
            continue;
        uint64_t done;
        if (in->mem != SIM_M_NONE) {
            bool longlat;
            done = x->now + sim_mem_latency(x, sm, &sm->warps[k->slot], in, &longlat);
        } else {
            done = x->now + (uint64_t)in->latency;
        }
        sim_exec_start(x, sm, k->flight, done);
        sim_coll_release(sm, c);
        i--;
    }
}
