/* exec.c - execution units, instructions in flight and their completion.
 *
 * Model: ALU work goes to one of `schedulers` ALU pipes, each
 * alu_lanes/schedulers threads wide, so a warp instruction occupies a pipe
 * for II = warp_size / (alu_lanes / schedulers) cycles (fp64 four times
 * that); SFU and LD/ST are one pipe each with II = warp_size / lanes.  A pipe
 * accepts a new instruction when its initiation interval has passed; the
 * result is ready `latency` cycles after dispatch (ALU, SFU and shared
 * memory from the GPU description; global memory from memory.c).  At that
 * cycle every general register the instruction writes becomes a bank write
 * request; predicate results need no bank and clear the scoreboard at once.
 * An instruction retires when its last register write is done (or at
 * completion when it writes no general register).
 *
 * Completion events sit in a binary heap ordered by (cycle, sequence), so
 * equal-cycle completions are handled in dispatch order and runs are
 * deterministic.  Flight records come from a free list grown by doubling
 * (amortised, no allocation in the steady state).
 */
#include <stdlib.h>

#include "sim_internal.h"

static bool ev_less(const sim_event *a, const sim_event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int sim_heap_push(sim_heap *h, sim_event e)
{
    if (h->n == h->cap) {
        int cap = h->cap ? 2 * h->cap : 256;
        sim_event *a = realloc(h->a, (size_t)cap * sizeof *a);
        if (!a)
            return RF_ENOMEM;
        h->a = a;
        h->cap = cap;
    }
    int i = h->n++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!ev_less(&e, &h->a[p]))
            break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = e;
    return 0;
}

sim_event sim_heap_pop(sim_heap *h)
{
    sim_event top = h->a[0];
    sim_event last = h->a[--h->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        const sim_event *mv = &last;
        if (l < h->n && ev_less(&h->a[l], mv))
            m = l, mv = &h->a[l];
        if (r < h->n && ev_less(&h->a[r], mv))
            m = r;
        if (m == i)
            break;
        h->a[i] = h->a[m];
        i = m;
    }
    if (h->n > 0)
        h->a[i] = last;
    return top;
}

int sim_flight_new(sim_sm *sm, int slot, int inst)
{
    if (sm->fl_free < 0) {
        int n = sm->nfl ? 2 * sm->nfl : 256;
        sim_flight *fl = realloc(sm->fl, (size_t)n * sizeof *fl);
        if (!fl)
            return -1;
        for (int i = sm->nfl; i < n; i++)
            fl[i].next_free = i + 1 < n ? i + 1 : -1;
        sm->fl = fl;
        sm->fl_free = sm->nfl;
        sm->nfl = n;
    }
    int f = sm->fl_free;
    sm->fl_free = sm->fl[f].next_free;
    sm->fl[f].slot = slot;
    sm->fl[f].inst = inst;
    sm->fl[f].writes_left = -1;
    sm->fl[f].mem = false;
    return f;
}

void sim_flight_retire(sim_ctx *x, sim_sm *sm, int f)
{
    sim_flight *fl = &sm->fl[f];
    sim_warp *w = &sm->warps[fl->slot];
    const sim_inst *in = &x->prog.insts[fl->inst];
    sm->c.warp_insts++;
    sm->c.by_class[in->cls]++;
    if (in->mem == SIM_M_LOAD || in->mem == SIM_M_STORE)
        sm->c.mem_insts++;
    sm->chk_retired++;
    w->inflight--;
    sm->ctas[w->cta].inflight--;
    sim_cta_retire_check(sm, w->cta);
    fl->next_free = sm->fl_free;
    sm->fl_free = f;
}

bool sim_unit_take(sim_ctx *x, sim_sm *sm, const sim_inst *in)
{
    int pipes = 1, ii;
    switch (in->unit) {
    case SIM_U_ALU: pipes = x->alu_pipes; ii = x->alu_ii * in->ii_mult; break;
    case SIM_U_SFU: ii = x->sfu_ii; break;
    default: ii = x->ldst_ii; break;
    }
    uint64_t *free_at = sm->unit_free[in->unit];
    for (int p = 0; p < pipes; p++)
        if (free_at[p] <= x->now) {
            free_at[p] = x->now + (uint64_t)ii;
            return true;
        }
    return false;
}

void sim_exec_start(sim_ctx *x, sim_sm *sm, int flight, uint64_t done_at)
{
    sim_event e = {done_at, sm->seq++, flight};
    if (sim_heap_push(&sm->events, e) < 0)
        sm->oom = true;
    (void)x;
}

/* Results due this cycle become bank write requests. */
void sim_exec_complete(sim_ctx *x, sim_sm *sm)
{
    while (sm->events.n > 0 && sm->events.a[0].time <= x->now) {
        sim_event e = sim_heap_pop(&sm->events);
        sim_flight *fl = &sm->fl[e.flight];
        sim_warp *w = &sm->warps[fl->slot];
        const sim_inst *in = &x->prog.insts[fl->inst];
        for (int r = RF_PRED_BASE; r < RF_PRED_BASE + RF_MAX_PRED; r++)
            if (sim_mask_test(&in->def, r))
                sim_sb_release(w, r);
        fl->writes_left = in->nwrites;
        if (in->nwrites == 0) {
            sim_flight_retire(x, sm, e.flight);
            continue;
        }
        for (int i = 0; i < in->nwrites; i++) {
            int reg = in->writes[i];
            int bank = x->org->write_route(x, sm, fl->slot, reg);
            if (bank < 0) {             /* absorbed by the organisation */
                sim_write_done(x, sm, fl->slot, reg, e.flight);
                continue;
            }
            sim_wreq q = {fl->slot, reg, bank, e.flight,
                          x->now, x->write_steal ? SIM_WR_NORMAL : SIM_WR_FORCED, -1, 0};
            sim_mask_set(&w->pend_wq, reg);
            w->sbst = SIM_SB_DIRTY;
            if (x->write_steal)
                sim_rfree_on_write(x, sm, fl->slot, reg);
            if (sim_wq_push(sm, q) < 0)
                sm->oom = true;
        }
    }
}
