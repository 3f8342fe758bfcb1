/* dispatcher.c - CTA dispatch onto the SM, wave by wave.
 *
 * Model: the SM holds ctas_per_sm CTAs at once (occupancy from
 * rf_occ_compute, analytic/occupancy.c, or rf_sim_opts.ctas_per_sm).  The
 * grid's CTAs are issued in index order; whenever a CTA slot frees (all its
 * warps exited and all their instructions retired) the next CTA takes it in
 * the following cycle, so the grid runs as successive, overlapping waves.
 * With several SMs simulated, free slots are filled SM by SM in order.
 * CTA slot c holds warp slots c*W .. c*W+W-1 (W warps per CTA); a warp slot
 * is the hardware warp id used by the bank mapping and the schedulers
 * (scheduler = slot mod schedulers).
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
        w->gid = (uint64_t)id * (uint64_t)x->warps_per_cta + (uint64_t)i;
        w->cta_id = (uint64_t)id;
        w->tl_seq = sm->sched[w->sched].tl_counter++;
        if (w->state == SIM_W_DONE)
            ct->live--;
    }
    sm->active_warps += ct->live;
    sm->ctas_used++;
    if (x->org->on_launch)
        x->org->on_launch(x, sm, c);
}

void sim_dispatch_ctas(sim_ctx *x, sim_sm *sm)
{
    if (x->next_cta >= x->ctas_total || sm->ctas_used >= sm->nctas)
        return;
    for (int c = 0; c < sm->nctas && x->next_cta < x->ctas_total; c++)
        if (!sm->ctas[c].used)
            launch(x, sm, c, x->next_cta++);
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
}
