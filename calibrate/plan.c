/* plan.c - sampling plan.
 *
 * Design points (B0: the GPU's banks), each one window from a cold start:
 *   baseline, B0 banks, at 30% of the grid   the latency level
 *   baseline, B0/4 banks, at 30%             bank queueing (conflict_scale)
 *   stealing, B0/2 banks, at 30%             what stealing removes
 *   baseline, B0 banks, at 60%               the level again, other CTAs
 * The first three run the same CTAs over the same span (paired: their
 * differences are the designs', not the kernel's).  skip_ctas is rounded to
 * whole resident waves.  The window model (analytic/waves.c) replays the
 * cold start, but reproduces its lock-step start least well, so each window
 * follows a warm-up of one estimated CTA lifetime (at most half the sample).
 * Cost: 4 samples of budget / 4 cycles, budget = 4.25% of the estimated full
 * single-SM run unless given (5% with room for the estimate's error), each
 * window at least 1000 cycles.
 */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "extrapolate.h"

#define MIN_WINDOW 1000
/* Share of the estimated full run the samples may cost: 4.25%, so that the
 * 5% target holds when the estimate is up to 15% long. */
#define BUDGET_SHARE 0.0425

int rf_plan_make(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                 uint64_t budget_cycles, rf_plan *plan, rf_err *err)
{
    memset(plan, 0, sizeof *plan);
    rf_design base;
    rf_design_init(&base);
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_estimate e;
    int rc = rf_extrap_estimate(gpu, &base, kc, &shape, NULL, &e, err);
    if (rc)
        return rc;
    plan->full_cycles = e.cycles;
    plan->budget = budget_cycles > 0 ? (double)budget_cycles : BUDGET_SHARE * e.cycles;

    int b0 = gpu->rf_banks > 0 ? gpu->rf_banks : 16;
    int bq = b0 / 4 >= 2 ? b0 / 4 : 2;
    int bh = b0 / 2 >= 2 ? b0 / 2 : 2;
    struct {
        int kind, banks;
        double where;
    } pts[4] = {
        {RF_DESIGN_BASELINE, b0, 0.3},
        {RF_DESIGN_BASELINE, bq, 0.3},
        {RF_DESIGN_STEALING, bh, 0.3},
        {RF_DESIGN_BASELINE, b0, 0.6},
    };
    long ctas = rf_kernel_ctas(k);
    int resident = e.occ.active_ctas > 0 ? e.occ.active_ctas : e.occ.ctas_per_sm;
    int n = 0;
    /* Warm-up: one CTA lifetime (the cold start's lock step is the part the
     * window model reproduces least well), at most half of a sample. */
    double per = plan->budget / 4.0;
    double life = ctas > 0 && resident > 0 ? plan->full_cycles * resident / (double)ctas : 0.0;
    uint64_t warm = (uint64_t)(life < 0.5 * per ? life : 0.5 * per);
    uint64_t window = (uint64_t)(per - (double)warm);
    if (window < MIN_WINDOW)
        window = MIN_WINDOW;
    for (int i = 0; i < 4; i++) {
        rf_plan_point *p = &plan->pt[n++];
        rf_design_init(&p->design);
        p->design.kind = pts[i].kind;
        p->design.banks = pts[i].banks;
        if (pts[i].kind == RF_DESIGN_STEALING)
            p->design.read_steal = p->design.write_steal = true;
        long skip = (long)(pts[i].where * ctas);
        if (resident > 0)
            skip -= skip % resident;
        p->skip_ctas = (uint64_t)(skip > 0 ? skip : 0);
        p->warmup = warm;
        p->cycles = window;
        snprintf(p->label, sizeof p->label, "%s banks=%d", rf_design_name(pts[i].kind),
                 pts[i].banks);
        plan->cost += (double)(warm + window);
    }
    plan->n = n;
    return RF_OK;
}
