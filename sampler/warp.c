/* warp.c - warps walking the kernel's control-flow graph.
 *
 * Model: a warp is one SIMT unit following one path (no per-thread
 * divergence).  Its instruction buffer holds the instruction at its PC
 * (fetch and decode are ideal: no instruction-cache misses).  Branch
 * outcomes come from the kernel profile through a counter-based hash of
 * (seed, global warp id, dynamic branch number), so a warp's path does not
 * depend on timing or on which other warps run:
 *   backward conditional branch (loop back edge)  taken with p = trip/(trip+1),
 *     so the back edge is taken `trip` times on average (geometric); decided
 *     once per CTA (hash of the CTA id) when the loop body holds a barrier,
 *     as CUDA requires such loops to be uniform across the CTA;
 *   forward conditional branch                     taken with p = taken;
 *   unconditional branch                           always taken.
 *
 * The static side (sim_prog) decodes the physical rf_func once per run:
 * execution unit, fixed latency, distinct register operands, scoreboard
 * masks, successor instructions, and for bank stealing (seed 001 Sec. IV-C2)
 * a dead register per residue class modulo the bank count after every
 * instruction (the compile-time Rfree hint, analytic/deadreg.c).
 *
 * Inputs: rf_func (physical registers), rf_gpu latencies and lanes.
 * Units: latencies in core cycles, sizes in bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "../analytic/deadreg.h"
#include "../common/draw.h"
#include "../analytic/liveness.h"
#include "sim_internal.h"

/* First instruction reached from block b (skipping empty blocks); -1 = end. */
static int block_entry(const rf_func *f, int b)
{
    for (int hops = 0; b >= 0 && b < f->nblocks && hops <= f->nblocks; hops++) {
        if (f->blocks[b].ninsts > 0)
            return f->blocks[b].first;
        if (f->blocks[b].nsucc == 0)
            return -1;
        b = f->blocks[b].succ[0];
    }
    return -1;
}

static void decode_class(sim_inst *si, const rf_inst *in, const rf_gpu *g)
{
    int ws = g->warp_size > 0 ? g->warp_size : 32;
    si->ii_mult = 1;
    si->mem = SIM_M_NONE;
    si->unit = SIM_U_ALU;
    si->latency = g->alu_latency;
    switch (in->cls) {
    case RF_OC_ALU64:
        si->ii_mult = 4;                    /* fp64 at a quarter of fp32 rate */
        break;
    case RF_OC_SFU:
        si->unit = SIM_U_SFU;
        si->latency = g->sfu_latency;
        break;
    case RF_OC_LD_SHARED:
    case RF_OC_ST_SHARED:
        si->unit = SIM_U_LDST;
        si->mem = SIM_M_SHARED;
        si->latency = g->smem_latency;
        break;
    case RF_OC_LD_CONST:
        si->unit = SIM_U_LDST;
        si->mem = SIM_M_CONST;
        si->latency = g->smem_latency;      /* constant cache hit */
        break;
    case RF_OC_LD_GLOBAL:
    case RF_OC_LD_LOCAL:
        si->unit = SIM_U_LDST;
        si->mem = SIM_M_LOAD;
        si->latency = g->l1_latency;
        break;
    case RF_OC_ST_GLOBAL:
    case RF_OC_ST_LOCAL:
        si->unit = SIM_U_LDST;
        si->mem = SIM_M_STORE;
        si->latency = 1;                    /* fire and forget after the operand read */
        break;
    case RF_OC_ATOMIC:
        si->unit = SIM_U_LDST;
        si->mem = SIM_M_ATOMIC;
        si->latency = g->l2_latency;
        break;
    case RF_OC_BARRIER:
    case RF_OC_EXIT:
        si->unit = SIM_U_NONE;              /* handled by the scheduler at issue */
        si->latency = 0;
        break;
    default:                                /* ALU, BRANCH, CALL, NOP */
        break;
    }
    if (si->latency < 1)
        si->latency = 1;
    if (si->mem == SIM_M_STORE) {
        /* Data words: the operands besides a 64-bit address. */
        int words = si->nreads > 2 ? si->nreads - 2 : 1;
        si->bytes = (uint32_t)(ws * 4 * words);
    } else if (si->mem == SIM_M_LOAD) {
        si->bytes = (uint32_t)(ws * 4 * (si->nwrites > 0 ? si->nwrites : 1));
    } else if (si->mem == SIM_M_ATOMIC) {
        si->bytes = (uint32_t)(ws * 4);
    }
}

int sim_prog_build(sim_prog *p, const rf_func *f, const rf_gpu *gpu, int regs_alloc,
                   int nbanks, rf_err *err)
{
    memset(p, 0, sizeof *p);
    if (!f || f->ninsts <= 0 || f->nblocks <= 0)
        return rf_err_set(err, RF_EUSAGE, NULL, 0, 0, "kernel", "kernel has no instructions");
    if (!f->physical)
        return rf_err_set(err, RF_EUSAGE, NULL, 0, 0, "kernel",
                          "kernel code is not register-allocated (virtual registers)");
    int n = f->ninsts;
    p->ninsts = n;
    p->nbanks = nbanks;
    p->regs_alloc = regs_alloc < RF_MAX_GPR ? regs_alloc : RF_MAX_GPR;
    p->insts = calloc((size_t)n, sizeof *p->insts);
    p->dead = malloc((size_t)n * (size_t)nbanks * sizeof *p->dead);
    int *blk = malloc((size_t)n * sizeof *blk);
    if (!p->insts || !p->dead || !blk) {
        free(blk), sim_prog_free(p);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory decoding the kernel");
    }
    for (int i = 0; i < n; i++)
        blk[i] = -1;
    for (int b = 0; b < f->nblocks; b++)
        for (int i = f->blocks[b].first; i < f->blocks[b].first + f->blocks[b].ninsts; i++)
            if (i >= 0 && i < n)
                blk[i] = b;
    p->entry = block_entry(f, 0);

    for (int i = 0; i < n; i++) {
        const rf_inst *ri = &f->insts[i];
        sim_inst *si = &p->insts[i];
        si->cls = ri->cls;
        for (int u = 0; u < ri->nuses; u++) {
            int r = ri->uses[u];
            sim_mask_set(&si->dep, r);
            if (r >= RF_MAX_GPR)
                continue;
            bool dup = false;
            for (int k = 0; k < si->nreads; k++)
                dup |= si->reads[k] == r;
            if (!dup)
                si->reads[si->nreads++] = (uint16_t)r;
        }
        if (ri->guard >= 0)
            sim_mask_set(&si->dep, ri->guard);
        for (int d = 0; d < ri->ndefs; d++) {
            int r = ri->defs[d];
            sim_mask_set(&si->dep, r);
            sim_mask_set(&si->def, r);
            if (r >= RF_MAX_GPR)
                continue;
            bool dup = false;
            for (int k = 0; k < si->nwrites; k++)
                dup |= si->writes[k] == r;
            if (!dup)
                si->writes[si->nwrites++] = (uint16_t)r;
        }
        decode_class(si, ri, gpu);

        /* Successors. */
        int b = blk[i];
        si->next = -1;
        si->taken = -1;
        si->br = SIM_BR_NONE;
        si->p_taken = -1.0;
        if (b < 0) {
            si->next = i + 1 < n ? i + 1 : -1;
        } else {
            const rf_block *bl = &f->blocks[b];
            bool last = i == bl->first + bl->ninsts - 1;
            if (!last)
                si->next = i + 1;
            else if (bl->nsucc > 0)
                si->next = block_entry(f, bl->succ[0]);
            if (ri->cls == RF_OC_BRANCH && last) {
                int tb = bl->nsucc == 2 ? bl->succ[1] : ri->target;
                if (tb < 0 && bl->nsucc == 1)
                    tb = bl->succ[0];
                si->taken = tb >= 0 ? block_entry(f, tb) : -1;
                if (ri->guard < 0 || bl->nsucc < 2)
                    si->br = SIM_BR_ALWAYS;
                else if ((ri->flags & RF_IF_LOOPBACK) || tb <= b)
                    si->br = SIM_BR_LOOP;
                else
                    si->br = SIM_BR_FWD;
                if (si->br != SIM_BR_ALWAYS && bl->has_taken)
                    si->p_taken = bl->taken_p;
                if (si->br == SIM_BR_ALWAYS)
                    si->next = si->taken;
            }
        }
        si->exits = ri->cls == RF_OC_EXIT;
        /* A guarded exit ending a block that has a successor (SASS's
         * `@P0 EXIT`, PTX's `@%p ret`) ends the warp only where its guard
         * holds: drawn as a forward branch (rf_kchar_edge). */
        if (si->exits && ri->guard >= 0 && b >= 0 && f->blocks[b].nsucc > 0 &&
            i == f->blocks[b].first + f->blocks[b].ninsts - 1) {
            si->br = SIM_BR_EXIT;
            if (f->blocks[b].has_taken)
                si->p_taken = f->blocks[b].taken_p;
        }
    }

    /* A loop whose body holds a barrier must run the same number of times
     * in every warp of a CTA (CUDA leaves __syncthreads in divergent code
     * undefined): its back edge is decided once per CTA.  Body: the
     * instructions from the loop head to the back edge (the layout nvcc
     * gives a natural loop). */
    for (int i = 0; i < n; i++) {
        sim_inst *si = &p->insts[i];
        if (si->br != SIM_BR_LOOP || si->taken < 0 || si->taken > i)
            continue;
        for (int j = si->taken; j <= i && !si->cta_uniform; j++)
            si->cta_uniform = p->insts[j].cls == RF_OC_BARRIER;
    }

    /* Dead register per residue class after every instruction (the
     * compile-time Rfree hint, analytic/deadreg.c: registers the code never
     * touches first, then the least accessed dead one). */
    rf_live live;
    rf_deadreg dr;
    int rc = rf_live_compute(f, &live, err);
    if (rc == 0) {
        rc = rf_dead_compute(f, &live, nbanks, p->regs_alloc, &dr, err);
        rf_live_free(&live);
    }
    if (rc < 0) {
        free(blk), sim_prog_free(p);
        return rc;
    }
    for (int i = 0; i < n; i++)
        for (int c = 0; c < nbanks; c++)
            p->dead[(size_t)i * (size_t)nbanks + c] = (int16_t)rf_dead_reg(&dr, i, c);
    rf_dead_free(&dr);
    free(blk);
    return 0;
}

void sim_prog_free(sim_prog *p)
{
    free(p->insts);
    free(p->dead);
    p->insts = NULL;
    p->dead = NULL;
}

/* Move the warp past the instruction it just issued. */
void sim_warp_advance(sim_ctx *x, sim_warp *w, const sim_inst *in)
{
    int pc = in->next;
    switch (in->br) {
    case SIM_BR_ALWAYS:
        pc = in->taken;
        break;
    case SIM_BR_LOOP:
    case SIM_BR_FWD:
    case SIM_BR_EXIT: {
        double p = in->p_taken >= 0 ? in->p_taken
                 : in->br == SIM_BR_LOOP ? x->p_loop : x->p_fwd;
        double u = in->cta_uniform ? rf_draw_uniform(x->o->seed, w->cta_id, w->nloop++, RF_DRAW_LOOP)
                                   : rf_draw_uniform(x->o->seed, w->gid, w->nbr++, RF_DRAW_BRANCH);
        if (in->br == SIM_BR_EXIT) {
            w->pc = u < p ? -1 : pc;
            return;
        }
        if (u < p)
            pc = in->taken;
        break;
    }
    default:
        break;
    }
    w->pc = in->exits ? -1 : pc;
}
