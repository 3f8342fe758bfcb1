/* dispatcher.c - CTA dispatch onto the SM, wave by wave.
 *
 * Model: the SM holds ctas_per_sm CTAs at once (occupancy from
 * rf_occ_compute, analytic/occupancy.c, or rf_sim_opts.ctas_per_sm).  The
 * grid's CTAs are issued in index order; whenever a CTA slot frees (all its
 * warps exited and all their instructions retired) the next CTA takes it in
 * the following cycle, so the grid runs as successive, overlapping waves.
 * With several SMs simulated, free slots are filled SM by SM in order.
 * CTA numbers (next_cta, skip_ctas, warm_ctas) count the CTAs of the
 * kernel's run: of a grid spread over S SMs (rf_kernel_spread), SM 0's
 * round-robin share, whose j-th CTA is grid CTA j*S
 * (rf_kernel_cta_index): its warps take that CTA's branch and cache draws
 * (gid = grid CTA x warps per CTA + warp), so the share runs the very CTAs
 * SM 0 of the GPU would.
 * CTA slot c holds warp slots c*W .. c*W+W-1 (W warps per CTA); a warp slot
 * is the hardware warp id used by the bank mapping and the schedulers
 * (scheduler = slot mod schedulers).
 *
 * Functional warming (rf_sim_opts.warm_ctas = C > 0, off by default): a
 * window after a cold start sees every CTA start at once, and the CTAs that
 * finish first (the short ones) restart soonest, so for a few CTA lifetimes
 * the SM runs more CTA prologues and short paths than in mid-run, where a
 * slot is held by a CTA with probability proportional to its length.  With
 * warming, the grid starts C CTAs before skip_ctas (sim.c; not before CTA
 * 0, the full run's own cold start), and the first dispatch (cycle 0) fills
 * the slots and walks them without timing until CTA skip_ctas is
 * dispatched: each step moves every warp not at a barrier one instruction
 * along its path (the branch and cache random streams a timed walk draws,
 * so the remaining paths are unchanged), releases a barrier all live warps
 * of a CTA reached, and gives a slot whose warps all exited to the grid's
 * next CTA.  The timed run then starts from that population.  Walked
 * instructions are not executed, counted or timed; launch order (GTO age)
 * is kept.  Equal progress per warp is the fluid model's assumption
 * (analytic/waves.c warms the same way).  With several SMs the first one
 * walks; calibration samples run one.
 * Warmed windows still read a little above a full run's middle on
 * volta-hirf (three seeds, the plan's four positions: sgemm +1.2%, hotspot
 * +3%, libor +3..12%; libor's windows hold 14-15 live warps against 12 in
 * mid-run).  Two other walks measured worse or no better: the oldest warp
 * of each scheduler alone moving per step (GTO order; libor +4..17%,
 * kmeans +21..46%), and walking on past CTA skip_ctas's dispatch to half
 * the mean spacing of dispatches (no change: the excess of live warps is
 * not the fresh CTA of the dispatch moment).
 */
#include <string.h>

#include "sim_internal.h"

static void launch(sim_ctx *x, sim_sm *sm, int c, long id)
{
    sim_cta *ct = &sm->ctas[c];
    ct->used = true;
    ct->id = id;
    ct->live = x->warps_per_cta;
    ct->at_bar = 0;
    ct->inflight = 0;
    for (int i = 0; i < x->warps_per_cta; i++) {
        int s = c * x->warps_per_cta + i;
        sim_warp *w = &sm->warps[s];
        memset(w, 0, sizeof *w);
        w->state = x->prog.entry >= 0 ? SIM_W_ACTIVE : SIM_W_DONE;
        w->pc = x->prog.entry;
        w->cta = c;
        w->sched = s % x->nsched;
        w->age = sm->seq++;
        w->cta_id = (uint64_t)rf_kernel_cta_index(x->k, id);
        w->gid = w->cta_id * (uint64_t)x->warps_per_cta + (uint64_t)i;
        w->tl_seq = sm->sched[w->sched].tl_counter++;
        if (w->state == SIM_W_DONE)
            ct->live--;
    }
    sm->active_warps += ct->live;
    sm->ctas_used++;
    if (x->org->on_launch)
        x->org->on_launch(x, sm, c);
}

/* One untimed step of warp w: true when it moved. */
static bool walk_step(sim_ctx *x, sim_sm *sm, sim_warp *w)
{
    if (w->state != SIM_W_ACTIVE || w->pc < 0 || w->parked)
        return false;
    const sim_inst *in = &x->prog.insts[w->pc];
    sim_cta *ct = &sm->ctas[w->cta];
    if (in->cls == RF_OC_BARRIER) {
        w->state = SIM_W_BARRIER;
        ct->at_bar++;
        return true;
    }
    int slot = (int)(w - sm->warps);
    if (x->org->may_issue) {       /* Register Sharing's locks hold in the walk too */
        if (!x->org->may_issue(x, sm, slot))
            return false;
        x->org->on_issue(x, sm, slot, w->pc);
    }
    if (in->mem == SIM_M_LOAD || in->mem == SIM_M_STORE || in->mem == SIM_M_ATOMIC)
        w->nmem++;                 /* the cache outcome this access draws */
    sim_warp_advance(x, w, in);
    if (w->pc < 0) {
        w->state = SIM_W_DONE;
        ct->live--;
        sm->active_warps--;
        if (x->org->on_exit)
            x->org->on_exit(x, sm, slot);
    }
    return true;
}

/* Functional warming of sm's slots until CTA `until` is dispatched (see
 * the top). */
static void warm(sim_ctx *x, sim_sm *sm, long until)
{
    int wpc = x->warps_per_cta;
    while (x->next_cta <= until) {
        bool moved = false;
        for (int c = 0; c < sm->nctas; c++) {
            sim_cta *ct = &sm->ctas[c];
            if (!ct->used)
                continue;
            for (int i = 0; i < wpc; i++)
                moved |= walk_step(x, sm, &sm->warps[c * wpc + i]);
            if (ct->live > 0 && ct->at_bar >= ct->live) {
                /* Barrier release: every live warp moves past it. */
                for (int i = 0; i < wpc; i++) {
                    sim_warp *w = &sm->warps[c * wpc + i];
                    if (w->state != SIM_W_BARRIER)
                        continue;
                    w->state = SIM_W_ACTIVE;
                    sim_warp_advance(x, w, &x->prog.insts[w->pc]);
                    if (w->pc < 0) {
                        w->state = SIM_W_DONE;
                        ct->live--;
                        sm->active_warps--;
                        if (x->org->on_exit)
                            x->org->on_exit(x, sm, c * wpc + i);
                    }
                }
                ct->at_bar = 0;
            }
            if (ct->live == 0) {
                ct->used = false;
                sm->ctas_used--;
                if (x->org->on_retire)
                    x->org->on_retire(x, sm, c);
                if (x->next_cta < x->ctas_total &&
                    (!x->org->launch_ok || x->org->launch_ok(x, sm)))
                    launch(x, sm, c, x->next_cta++);
            }
        }
        if (!moved)
            break;
    }
}

void sim_dispatch_ctas(sim_ctx *x, sim_sm *sm)
{
    if (x->next_cta >= x->ctas_total || sm->ctas_used >= sm->nctas)
        return;
    bool first = x->now == 0 && sm->ctas_used == 0;
    for (int c = 0; c < sm->nctas && x->next_cta < x->ctas_total; c++)
        if (!sm->ctas[c].used && (!x->org->launch_ok || x->org->launch_ok(x, sm)))
            launch(x, sm, c, x->next_cta++);
    long until = x->o->skip_ctas < (uint64_t)x->ctas_total ? (long)x->o->skip_ctas : x->ctas_total - 1;
    if (first && x->o->warm_ctas > 0)
        warm(x, sm, until);
}

/* Free the CTA slot once every warp exited and every instruction retired. */
void sim_cta_retire_check(sim_sm *sm, int c)
{
    sim_cta *ct = &sm->ctas[c];
    if (!ct->used || ct->live > 0 || ct->inflight > 0)
        return;
    ct->used = false;
    sm->ctas_used--;
    sm->c.ctas_done++;
    if (sm->ctx->org->on_retire)
        sm->ctx->org->on_retire(sm->ctx, sm, c);
}
