/* regcache.c - HI-RF: SRAM register cache over an NVM register file
 * (seed 002 Sections 2.3-2.4, Table 2, Table 3).
 *
 * Model.  Each sub-core (warp slot mod subcores, the two warp-ID LSBs on
 * volta-hirf) has a register cache of rc_entries lines of one warp register
 * each (1,024 bits), indexed by analytic/rcindex.c: concatenated WxRy or
 * thread-context-aware (TEA) direct-mapped, or fully associative with LRU
 * (HI_Full).  The warp ID is the hardware warp slot.  The cache is the
 * write buffer of the NVM file (the sampler's banks, rf_banks of them):
 *   - every result is written into the cache; when its line holds another
 *     valid (warp, register) pair that pair is evicted and written back to
 *     its NVM bank (a conflict); every valid line is dirty, so each
 *     eviction is one NVM write;
 *   - an NVM write holds its bank for nvm_write_latency cycles (4 on
 *     volta-hirf); the result that caused it is in the cache only when the
 *     victim has left the line, i.e. in the last of those cycles, so the
 *     writing warp's dependants wait nvm_write_latency - 1 cycles more than
 *     after an absorbed write (plus any wait for the bank);
 *   - a read is served by the cache when its line holds the pair (no bank,
 *     no crossbar; one cycle, the operand in the collector when a bank read
 *     would have put it there), else by the NVM bank (one-cycle read, as the
 *     banked file's; nvm_read_latency above 1 is not modelled; read misses
 *     do not allocate);
 *   - when a CTA takes a slot its warps' stale lines are dropped without
 *     write-back (the registers of a finished CTA are dead).
 * Register assignment (design `assign`): the program's registers are
 * renumbered before the run with analytic/rccollide.c's map (baseline,
 * CAC from loop-weighted static destination counts (cac-plain: the plain
 * counts), Best and Worst from the expected
 * dynamic write counts of the kernel under its profile, which are the mean
 * write counts of the sampler's own branch model, Best refined against the
 * order of the writes); 64- and 128-bit tuples
 * keep aligned IDs, as in SASS (analytic/dstcount.c).
 *
 * Counters: rc_hits / rc_misses (reads), rc_writes, rc_conflicts
 * (write-backs decided), nvm_reads (read misses), nvm_writes (write-backs
 * done, bank.c), nvm_stall_cycles (cycles conflicting writes took from
 * result to completion).
 */
#include <stdlib.h>
#include <string.h>

#include "../analytic/rccollide.h"
#include "../analytic/rcindex.h"
#include "sim_internal.h"

#define RC_REGS RF_MAX_GPR

typedef struct rc_state {
    rf_rc_geom geom;
    int nent;                   /* lines x ways */
    int ways;
    int16_t *own_slot;          /* [nent] owner warp slot, -1 = invalid */
    int16_t *own_reg;           /* [nent] owner register */
    uint64_t *stamp;            /* [nent] last use (LRU, fully associative) */
    int32_t *where;             /* [nslots * RC_REGS] entry holding the pair, -1 */
    int32_t *line;              /* [nslots * RC_REGS] line (set) of the pair */
    uint64_t clock;
} rc_state;

static int hirf_prepare(sim_ctx *x, rf_err *err)
{
    x->write_hold = x->gpu->nvm_write_latency > 1 ? x->gpu->nvm_write_latency : 1;
    rf_rc_geom g;
    int rc = rf_rc_geom_for(x->d, x->gpu, &g, err);
    if (rc)
        return rc;
    if (x->d->assign == RF_ASSIGN_BASE)
        return 0;
    rf_rcc_writes w;
    rc = rf_rcc_writes_of(x->k->func, &x->k->profile, &w, err);
    if (rc)
        return rc;
    int map[RC_REGS];
    for (int r = 0; r < RC_REGS; r++)
        map[r] = r;
    rf_rcc_assign_map(&w, &g, x->d->assign, map);
    for (int i = 0; i < x->prog.ninsts; i++) {
        sim_inst *in = &x->prog.insts[i];
        for (int j = 0; j < in->nreads; j++)
            in->reads[j] = (uint16_t)map[in->reads[j]];
        for (int j = 0; j < in->nwrites; j++)
            in->writes[j] = (uint16_t)map[in->writes[j]];
        sim_mask dep = in->dep, def = in->def;
        for (int wd = 0; wd < RC_REGS / 64; wd++)
            in->dep.w[wd] = in->def.w[wd] = 0;
        for (int r = 0; r < RC_REGS; r++) {
            if (sim_mask_test(&dep, r))
                sim_mask_set(&in->dep, map[r]);
            if (sim_mask_test(&def, r))
                sim_mask_set(&in->def, map[r]);
        }
    }
    return 0;
}

static void hirf_fini(sim_sm *sm)
{
    rc_state *s = sm->org_state;
    if (!s)
        return;
    free(s->own_slot);
    free(s->own_reg);
    free(s->stamp);
    free(s->where);
    free(s->line);
    free(s);
    sm->org_state = NULL;
}

static int hirf_init(sim_ctx *x, sim_sm *sm, rf_err *err)
{
    rc_state *s = calloc(1, sizeof *s);
    if (!s)
        return RF_ENOMEM;
    sm->org_state = s;
    int rc = rf_rc_geom_for(x->d, x->gpu, &s->geom, err);
    if (rc)
        return rc;
    s->ways = rf_rc_ways(&s->geom);
    s->nent = rf_rc_lines(&s->geom) * s->ways;
    size_t pairs = (size_t)sm->nslots * RC_REGS;
    s->own_slot = malloc((size_t)s->nent * sizeof *s->own_slot);
    s->own_reg = malloc((size_t)s->nent * sizeof *s->own_reg);
    s->stamp = calloc((size_t)s->nent, sizeof *s->stamp);
    s->where = malloc(pairs * sizeof *s->where);
    s->line = malloc(pairs * sizeof *s->line);
    if (!s->own_slot || !s->own_reg || !s->stamp || !s->where || !s->line)
        return RF_ENOMEM;
    for (int e = 0; e < s->nent; e++)
        s->own_slot[e] = -1;
    for (int w = 0; w < sm->nslots; w++)
        for (int r = 0; r < RC_REGS; r++) {
            s->where[(size_t)w * RC_REGS + r] = -1;
            s->line[(size_t)w * RC_REGS + r] = rf_rc_slot_of(&s->geom, w, r).line;
        }
    return 0;
}

static void drop(rc_state *s, int e)
{
    if (s->own_slot[e] >= 0)
        s->where[(size_t)s->own_slot[e] * RC_REGS + s->own_reg[e]] = -1;
    s->own_slot[e] = -1;
}

static int hirf_read(sim_ctx *x, sim_sm *sm, int slot, int reg, int *extra)
{
    rc_state *s = sm->org_state;
    *extra = 1;                         /* SRAM read: one cycle, as a bank read */
    int e = s->where[(size_t)slot * RC_REGS + reg];
    if (e >= 0) {
        s->stamp[e] = ++s->clock;
        sm->c.rc_hits++;
        return -1;
    }
    sm->c.rc_misses++;
    sm->c.nvm_reads++;
    return sim_bank_of(x, slot, reg);
}

/* Entry a new pair of `line` goes to: the line itself (direct-mapped), or
 * an invalid way, else the least recently used one. */
static int victim_entry(const rc_state *s, int line)
{
    if (s->ways == 1)
        return line;
    int base = line * s->ways, best = base;
    for (int e = base; e < base + s->ways; e++) {
        if (s->own_slot[e] < 0)
            return e;
        if (s->stamp[e] < s->stamp[best])
            best = e;
    }
    return best;
}

static int hirf_write(sim_ctx *x, sim_sm *sm, int slot, int reg)
{
    rc_state *s = sm->org_state;
    size_t p = (size_t)slot * RC_REGS + reg;
    sm->c.rc_writes++;
    int e = s->where[p];
    if (e >= 0) {                       /* the pair is cached: overwrite */
        s->stamp[e] = ++s->clock;
        return -1;
    }
    e = victim_entry(s, s->line[p]);
    int bank = -1;
    if (s->own_slot[e] >= 0) {          /* conflict: write the victim back */
        sm->c.rc_conflicts++;
        bank = sim_bank_of(x, s->own_slot[e], s->own_reg[e]);
        drop(s, e);
    }
    s->own_slot[e] = (int16_t)slot;
    s->own_reg[e] = (int16_t)reg;
    s->stamp[e] = ++s->clock;
    s->where[p] = e;
    return bank;
}

static void hirf_launch(sim_ctx *x, sim_sm *sm, int cta)
{
    rc_state *s = sm->org_state;
    for (int i = 0; i < x->warps_per_cta; i++) {
        size_t w = (size_t)(cta * x->warps_per_cta + i);
        for (int r = 0; r < RC_REGS; r++) {
            int e = s->where[w * RC_REGS + r];
            if (e >= 0)
                drop(s, e);
        }
    }
}

const sim_rforg sim_rforg_hirf = {.name = "hirf", .read_route = hirf_read,
                                  .write_route = hirf_write, .on_launch = hirf_launch,
                                  .prepare = hirf_prepare, .init = hirf_init,
                                  .fini = hirf_fini};
