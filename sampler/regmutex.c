/* regmutex.c - RegMutex's shared register pool (seed 000 Sections VI.A and
 * VI.D, the VT+RegMutex comparison point), used by ctaswitch.c for design
 * regmutex on top of Virtual Thread's CTA switching.
 *
 * Each warp always holds its base register set (BRS): b = ceil(brs_frac x
 * R) registers per thread, R the registers allocated.  Where the code's live
 * registers exceed b the compiler brackets a region: the warp acquires one
 * chunk of the shared register pool (SRP) before the region's first
 * instruction and releases it after the instruction at which its live
 * registers fall back to b or fewer (or at exit).  An instruction is in a
 * region when its live-in or live-out set (analytic/liveness.c) exceeds b.
 * A barrier closes a region: a warp gives its chunk back as it arrives and
 * takes one again after it where its live registers still exceed b (else a
 * holder waiting at the barrier for a warp waiting for its chunk would
 * deadlock the CTA).
 * A chunk is the R - b registers per thread of one warp; the pool holds the
 * chunks of one CTA's warps (rf_occ_compute's srp_regs).  A warp whose
 * next instruction needs a chunk waits while the pool is empty; the pool is
 * not given back while the warp waits on memory inside its region, which is
 * RegMutex's weakness on memory-bound kernels (Section VI.D).
 * Counters: srp_acquires; the scheduler's lock stalls (issue slots whose
 * only ready warps waited for a chunk) are srp_stall_cycles.
 */
#include <stdlib.h>
#include <string.h>

#include "../analytic/liveness.h"
#include "sim_internal.h"

int sim_srp_init(sim_ctx *x, sim_sm *sm, sim_srp *p, rf_err *err)
{
    memset(p, 0, sizeof *p);
    p->free = x->srp_chunks;
    int n = x->prog.ninsts > 0 ? x->prog.ninsts : 1;
    p->holds = calloc((size_t)sm->nslots, sizeof *p->holds);
    p->need = calloc((size_t)n, sizeof *p->need);
    p->release_after = calloc((size_t)n, sizeof *p->release_after);
    if (!p->holds || !p->need || !p->release_after)
        return RF_ENOMEM;
    int regs = x->prog.regs_alloc;
    int base = (int)(x->d->brs_frac * regs + 1.0 - 1e-9);   /* ceil(brs_frac x R) */
    if (base < 1)
        base = 1;
    if (base >= regs)
        return 0;                           /* no region: the BRS holds every register */
    rf_live lv;
    int rc = rf_live_compute(x->k->func, &lv, err);
    if (rc < 0)
        return rc;
    for (int i = 0; i < lv.ninsts && i < n; i++) {
        int in = rf_regset_count(&lv.in[i]), out = rf_regset_count(&lv.out[i]);
        bool bar = x->k->func->insts[i].cls == RF_OC_BARRIER;
        p->need[i] = !bar && (in > base || out > base);
        p->release_after[i] = bar || (p->need[i] && out <= base);
    }
    rf_live_free(&lv);
    return 0;
}

void sim_srp_free(sim_srp *p)
{
    free(p->holds);
    free(p->need);
    free(p->release_after);
    memset(p, 0, sizeof *p);
}

bool sim_srp_may_issue(const sim_sm *sm, const sim_srp *p, int slot)
{
    int pc = sm->warps[slot].pc;
    return !p->need[pc] || p->holds[slot] || p->free > 0;
}

void sim_srp_issue(sim_ctx *x, sim_sm *sm, sim_srp *p, int slot, int inst)
{
    (void)x;
    if (p->need[inst] && !p->holds[slot]) {
        p->holds[slot] = 1;
        p->free--;
        sm->c.srp_acquires++;
    }
    if (p->release_after[inst] && p->holds[slot]) {
        p->holds[slot] = 0;
        p->free++;
    }
}

void sim_srp_exit(sim_srp *p, int slot)
{
    if (p->holds[slot]) {
        p->holds[slot] = 0;
        p->free++;
    }
}
