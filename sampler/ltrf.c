/* ltrf.c - register-file caches over a slow main register file (seed 004):
 * the hardware register-file cache (RFC, Section 5 comparison point (2))
 * and the latency-tolerant register file (LTRF and LTRF+, Sections 3-4).
 *
 * Main register file.  Technology #K of Table 2 (rf_config) gives the bank
 * count (16 x banks_x) and the access latency L = latency_x x 1 cycle (the
 * banked file's 1-cycle access is configuration #1; design latency_x, when
 * set, replaces the table's multiplier for tolerable-latency sweeps).
 * Fractional latencies are dithered per access (deterministic hash), so the
 * mean access takes exactly L cycles.  The banks are not pipelined (Section
 * 2: CACTI's non-pipelined bank models): an access holds its bank L cycles.
 * Table 2's L is a mean measured under the baseline's load, queueing
 * included; with the 8x banks of configurations #3, #5-#7 that queueing is
 * small (a few accesses per cycle over 128 banks), so L stands for the
 * bank's service time.  A register of warp w lives at bank (reg + w) mod
 * banks; accesses to a busy bank wait (bank conflicts).  Main-file
 * accesses are reserved in time when they are made (no per-cycle
 * arbitration).
 *
 * RFC.  A fully associative cache of 16 KB (gpu rc_entries x subcores warp
 * registers, or design rc_entries) shared by the SM's warps, LRU, allocated
 * on read misses and on writes (write-back, write-allocate), no prefetch.  A
 * hit is read from the cache's banks through the banked arbiter (1 cycle); a
 * miss reads the main file straight into the collector, L cycles plus the
 * bank's queue; an evicted dirty line is written back to the main file.
 *
 * LTRF.  The front end's register-intervals (analytic/intervals.c,
 * Algorithms 1 and 2 with N = interval_regs) give a PREFETCH bit vector at
 * every interval entry.  The two-level scheduler keeps active_warps warps
 * (per SM) in its active pool; each owns a cache partition of N registers
 * on the cache's banks (the banked arbiter, 1 cycle per read).
 *   PREFETCH: when a pool warp's next instruction lies in another interval,
 *     the warp is held until the registers of the new bit vector it does not
 *     hold yet arrive: each is read from its main bank and crosses the fill
 *     crossbar, a quarter of the baseline's bandwidth (rf_banks / 4
 *     registers per cycle) and 4 cycles of traversal instead of 1 (Section
 *     4.2); write-backs use the crossbar's other direction.  Dirty
 *     registers of the old vector that leave the partition are written back
 *     in the background.  LTRF+ fetches only the registers live at the entry.
 *   Pool exit (the warp waits on long-latency memory, a barrier): its
 *     working set is written back (LTRF+: only the live registers) and the
 *     partition freed.  Pool entry in the middle of its interval: the
 *     working set of that interval is fetched again (LTRF+: the live part)
 *     and the warp held until it is in; pool entry at the entry of another
 *     interval (the warp left just after its previous interval's last
 *     instruction): no refetch, the new interval's PREFETCH does the work
 *     (Section 4.2, Warp Stall: refetch "in the middle of a
 *     register-interval").
 *   Results for registers outside the partition go to the main file.
 *
 * Outputs (sim_counts): rc_hits / rc_misses (reads), prefetches and
 * prefetch_regs (PREFETCH operations and registers they moved), activations
 * and refetch_regs, writeback_regs, main_reads / main_writes, hold_cycles
 * (warp-cycles held), and the rc stall cause in the scheduler.
 * Units: cycles are core cycles; registers are warp registers (1024 bits).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/intervals.h"
#include "../analytic/liveness.h"
#include "../common/draw.h"
#include "sim_internal.h"

#define LT_BASE_LAT 1.0      /* cycles, main-file access of configuration #1 */
#define LT_XBAR_DIV 4        /* fill crossbar: 1/4 of the baseline bandwidth */
#define LT_XBAR_LAT 4        /* cycles to cross the narrow fill crossbar (the
                                baseline crossbar's 1 cycle is in L) */
#define LT_GPR_WORDS 4       /* sim_mask words holding R0..R255 */

typedef struct lt_warp {
    int iv;                  /* interval the warp is in, -1 before its first PREFETCH */
    sim_mask rc;             /* registers allocated in its partition */
    sim_mask dirty;          /* ... written since they were fetched */
} lt_warp;

typedef struct rfc_line {
    int slot, reg;           /* -1 slot: invalid */
    bool dirty;
    uint64_t used;           /* LRU stamp */
} rfc_line;

typedef struct lt_state {
    bool ltrf, plus;
    double lat;              /* cycles, mean main-file access */
    int mbanks;              /* main-file banks */
    uint64_t *mfree;         /* [mbanks] cycle each main bank is free again */
    double xfree;            /* cycle the fill crossbar takes its next register */
    double wfree;            /* ... the write-back direction */
    double xgap;             /* cycles per register on the fill crossbar */
    uint64_t draws;          /* latency draws so far (dither stream) */
    lt_warp *w;              /* [nslots] */
    int ninsts;
    int *of_inst;            /* [ninsts] interval of each instruction */
    sim_mask *set;           /* [intervals] PREFETCH bit vectors */
    sim_mask *live;          /* [ninsts] registers live at each PC (LTRF+) */
    rfc_line *line;          /* [nlines] RFC */
    int nlines;
    uint64_t tick;
} lt_state;

/* ---- main register file ---- */

static uint64_t lat_draw(const sim_ctx *x, lt_state *st, int slot, int reg)
{
    double base = floor(st->lat);
    uint64_t l = (uint64_t)base;
    double frac = st->lat - base;
    if (frac > 1e-12 &&
        rf_draw_uniform(x->o->seed ^ UINT64_C(0x6c747266), (uint64_t)slot, (uint64_t)reg,
                    st->draws++) < frac)
        l++;
    return l < 1 ? 1 : l;
}

/* One main-file access of (slot, reg) starting no earlier than t0; returns
 * the cycle its data leaves (or enters) the bank. */
static uint64_t main_access(const sim_ctx *x, lt_state *st, int slot, int reg, uint64_t t0)
{
    int b = (reg + slot) % st->mbanks;
    uint64_t start = t0 > st->mfree[b] ? t0 : st->mfree[b];
    uint64_t l = lat_draw(x, st, slot, reg);
    st->mfree[b] = start + l;           /* not pipelined (Section 2) */
    return start + l;
}

/* One register over the narrow crossbar (free: its direction's next free
 * cycle), ready to go at t: arrival cycle. */
static uint64_t xbar_move(lt_state *st, double *free, uint64_t t)
{
    double s = (double)t > *free ? (double)t : *free;
    *free = s + st->xgap;
    return (uint64_t)ceil(s) + LT_XBAR_LAT - 1;
}

static int next_reg(const sim_mask *m, int from)
{
    for (int r = from; r < 64 * LT_GPR_WORDS;) {
        uint64_t word = m->w[r >> 6] >> (r & 63);
        if (word)
            return r + __builtin_ctzll(word);
        r = (r | 63) + 1;
    }
    return -1;
}

/* Fetch the registers of m into warp slot's partition; returns the cycle the
 * last one arrives (now when m is empty) and adds their count to *n. */
static uint64_t fetch_set(sim_ctx *x, sim_sm *sm, lt_state *st, int slot, const sim_mask *m,
                          uint64_t *n)
{
    uint64_t done = x->now;
    for (int r = next_reg(m, 0); r >= 0; r = next_reg(m, r + 1)) {
        uint64_t t = xbar_move(st, &st->xfree, main_access(x, st, slot, r, x->now));
        if (t > done)
            done = t;
        (*n)++;
        sm->c.main_reads++;
    }
    return done;
}

/* Write the registers of m back to the main file (in the background). */
static void write_back_set(sim_ctx *x, sim_sm *sm, lt_state *st, int slot, const sim_mask *m)
{
    for (int r = next_reg(m, 0); r >= 0; r = next_reg(m, r + 1)) {
        main_access(x, st, slot, r, xbar_move(st, &st->wfree, x->now));
        sm->c.main_writes++;
        sm->c.writeback_regs++;
    }
}

/* Hold warp w until `done`; true when it may issue now. */
static bool hold(sim_ctx *x, sim_sm *sm, sim_warp *w, uint64_t done)
{
    if (done <= x->now)
        return true;
    w->hold_until = done;
    sm->c.hold_cycles += done - x->now;
    return false;
}

/* ---- LTRF ---- */

static int lt_read(sim_ctx *x, sim_sm *sm, int slot, int reg, int *extra)
{
    lt_state *st = sm->org_state;
    *extra = 0;
    if (sim_mask_test(&st->w[slot].rc, reg)) {
        sm->c.rc_hits++;
        return sim_bank_of(x, slot, reg);
    }
    /* Outside the partition (an instruction wider than N registers). */
    sm->c.rc_misses++;
    sm->c.main_reads++;
    uint64_t t = main_access(x, st, slot, reg, x->now + 1);
    *extra = (int)(t - (x->now + 1));
    return -1;
}

static int lt_write(sim_ctx *x, sim_sm *sm, int slot, int reg)
{
    lt_state *st = sm->org_state;
    lt_warp *lw = &st->w[slot];
    if (sim_mask_test(&lw->rc, reg)) {
        sim_mask_set(&lw->dirty, reg);
        return sim_bank_of(x, slot, reg);
    }
    sm->c.main_writes++;
    main_access(x, st, slot, reg, x->now);
    return -1;
}

static bool lt_gate(sim_ctx *x, sim_sm *sm, int slot)
{
    lt_state *st = sm->org_state;
    sim_warp *w = &sm->warps[slot];
    if (w->hold_until > x->now)
        return false;
    lt_warp *lw = &st->w[slot];
    int iv = w->pc < st->ninsts ? st->of_inst[w->pc] : -1;
    if (iv < 0 || iv == lw->iv)
        return true;
    /* PREFETCH at the entry of interval iv. */
    const sim_mask *s = &st->set[iv];
    sim_mask evict, fetch;
    sim_mask_clear(&evict);
    sim_mask_clear(&fetch);
    for (int i = 0; i < LT_GPR_WORDS; i++) {
        evict.w[i] = lw->rc.w[i] & ~s->w[i] & lw->dirty.w[i];
        fetch.w[i] = s->w[i] & ~lw->rc.w[i];
        if (st->plus)
            fetch.w[i] &= st->live[w->pc].w[i];
        lw->dirty.w[i] &= s->w[i];
    }
    write_back_set(x, sm, st, slot, &evict);
    uint64_t n = 0;
    uint64_t done = fetch_set(x, sm, st, slot, &fetch, &n);
    lw->rc = *s;
    lw->iv = iv;
    sm->c.prefetches++;
    sm->c.prefetch_regs += n;
    return hold(x, sm, w, done);
}

static void lt_pool(sim_ctx *x, sim_sm *sm, int slot, bool active)
{
    lt_state *st = sm->org_state;
    lt_warp *lw = &st->w[slot];
    sim_warp *w = &sm->warps[slot];
    bool live_pc = w->pc >= 0 && w->pc < st->ninsts;
    if (!active) {
        if (w->state != SIM_W_DONE && live_pc) {
            sim_mask wb = lw->rc;
            if (st->plus)
                for (int i = 0; i < LT_GPR_WORDS; i++)
                    wb.w[i] &= st->live[w->pc].w[i];
            write_back_set(x, sm, st, slot, &wb);
        }
        sim_mask_clear(&lw->rc);
        sim_mask_clear(&lw->dirty);
        return;
    }
    if (lw->iv < 0 || !live_pc)
        return;
    if (st->of_inst[w->pc] != lw->iv) {
        /* The warp left at the end of its interval: it resumes at the entry
         * of another one, whose PREFETCH (the gate) brings its registers;
         * nothing of the old working set is refetched. */
        sm->c.activations++;
        return;
    }
    sim_mask f = st->set[lw->iv];
    if (st->plus)
        for (int i = 0; i < LT_GPR_WORDS; i++)
            f.w[i] &= st->live[w->pc].w[i];
    uint64_t n = 0;
    uint64_t done = fetch_set(x, sm, st, slot, &f, &n);
    lw->rc = st->set[lw->iv];
    sim_mask_clear(&lw->dirty);
    sm->c.activations++;
    sm->c.refetch_regs += n;
    (void)hold(x, sm, w, done);
}

static void lt_launch(sim_ctx *x, sim_sm *sm, int cta)
{
    lt_state *st = sm->org_state;
    for (int i = 0; i < x->warps_per_cta; i++) {
        int slot = cta * x->warps_per_cta + i;
        st->w[slot].iv = -1;
        sim_mask_clear(&st->w[slot].rc);
        sim_mask_clear(&st->w[slot].dirty);
        for (int l = 0; l < st->nlines; l++)
            if (st->line[l].slot == slot)
                st->line[l].slot = -1;
    }
}

/* ---- RFC ---- */

static rfc_line *rfc_find(lt_state *st, int slot, int reg)
{
    for (int l = 0; l < st->nlines; l++)
        if (st->line[l].slot == slot && st->line[l].reg == reg)
            return &st->line[l];
    return NULL;
}

static rfc_line *rfc_insert(sim_ctx *x, sim_sm *sm, lt_state *st, int slot, int reg)
{
    rfc_line *v = &st->line[0];
    for (int l = 0; l < st->nlines && v->slot >= 0; l++)
        if (st->line[l].slot < 0 || st->line[l].used < v->used)
            v = &st->line[l];
    if (v->slot >= 0 && v->dirty) {
        main_access(x, st, v->slot, v->reg, x->now);
        sm->c.main_writes++;
        sm->c.writeback_regs++;
    }
    v->slot = slot;
    v->reg = reg;
    v->dirty = false;
    v->used = ++st->tick;
    return v;
}

static int rfc_read(sim_ctx *x, sim_sm *sm, int slot, int reg, int *extra)
{
    lt_state *st = sm->org_state;
    *extra = 0;
    rfc_line *l = rfc_find(st, slot, reg);
    if (l) {
        l->used = ++st->tick;
        sm->c.rc_hits++;
        return sim_bank_of(x, slot, reg);
    }
    sm->c.rc_misses++;
    sm->c.main_reads++;
    uint64_t t = main_access(x, st, slot, reg, x->now + 1);
    *extra = (int)(t - (x->now + 1));
    rfc_insert(x, sm, st, slot, reg);
    return -1;
}

static int rfc_write(sim_ctx *x, sim_sm *sm, int slot, int reg)
{
    lt_state *st = sm->org_state;
    rfc_line *l = rfc_find(st, slot, reg);
    if (l)
        l->used = ++st->tick;
    else
        l = rfc_insert(x, sm, st, slot, reg);
    l->dirty = true;
    return sim_bank_of(x, slot, reg);
}

/* ---- setup ---- */

static void to_mask(const rf_regset *r, sim_mask *m)
{
    sim_mask_clear(m);
    for (int i = 0; i < LT_GPR_WORDS; i++)
        m->w[i] = r->w[i];
}

static int oom(rf_err *err)
{
    return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory setting up the register cache");
}

static int lt_init(sim_ctx *x, sim_sm *sm, rf_err *err)
{
    const rf_design *d = x->d;
    const rf_rf_tech *t = rf_design_rf_tech(d->rf_config);
    if (!t)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "rf_config",
                          "%d is not a configuration of seed 004 Table 2 (1..7)", d->rf_config);
    lt_state *st = calloc(1, sizeof *st);
    if (!st)
        return oom(err);
    sm->org_state = st;
    st->ltrf = d->kind == RF_DESIGN_LTRF;
    st->plus = st->ltrf && d->plus;
    st->lat = rf_design_latency_x(d) * LT_BASE_LAT;
    int base_banks = x->gpu->rf_banks > 0 ? x->gpu->rf_banks : 16;
    st->mbanks = (int)lround(base_banks * t->banks_x);
    if (st->mbanks < 1)
        st->mbanks = 1;
    st->xgap = (double)LT_XBAR_DIV / base_banks;
    st->mfree = calloc((size_t)st->mbanks, sizeof *st->mfree);
    st->w = calloc((size_t)sm->nslots, sizeof *st->w);
    if (!st->mfree || !st->w)
        return oom(err);
    for (int i = 0; i < sm->nslots; i++)
        st->w[i].iv = -1;
    const rf_func *f = x->k->func;
    if (!st->ltrf) {
        int lines = d->rc_entries > 0 ? d->rc_entries : x->gpu->rc_entries;
        lines *= x->gpu->subcores > 0 ? x->gpu->subcores : 1;
        st->nlines = lines > 0 ? lines : 128;
        st->line = calloc((size_t)st->nlines, sizeof *st->line);
        if (!st->line)
            return oom(err);
        for (int l = 0; l < st->nlines; l++)
            st->line[l].slot = -1;
        return 0;
    }
    rf_iv_opts io;
    rf_iv_opts_default(&io);
    io.regs = d->interval_regs > 0 ? d->interval_regs : RF_IV_DEFAULT_REGS;
    rf_intervals iv;
    int rc = rf_iv_form(f, &io, &iv, err);
    if (rc < 0)
        return rc;
    st->ninsts = f->ninsts;
    st->of_inst = malloc((size_t)f->ninsts * sizeof *st->of_inst);
    st->set = calloc((size_t)(iv.n > 0 ? iv.n : 1), sizeof *st->set);
    if (!st->of_inst || !st->set) {
        rf_iv_free(&iv);
        return oom(err);
    }
    for (int i = 0; i < f->ninsts; i++)
        st->of_inst[i] = i < iv.ninsts ? iv.of_inst[i] : -1;
    for (int j = 0; j < iv.n; j++)
        to_mask(&iv.iv[j].regs, &st->set[j]);
    rf_iv_free(&iv);
    if (st->plus) {
        rf_live live;
        if ((rc = rf_live_compute(f, &live, err)) < 0)
            return rc;
        st->live = calloc((size_t)f->ninsts, sizeof *st->live);
        if (!st->live) {
            rf_live_free(&live);
            return oom(err);
        }
        for (int i = 0; i < f->ninsts; i++)
            to_mask(&live.in[i], &st->live[i]);
        rf_live_free(&live);
    }
    return 0;
}

static void lt_fini(sim_sm *sm)
{
    lt_state *st = sm->org_state;
    if (!st)
        return;
    free(st->mfree);
    free(st->w);
    free(st->of_inst);
    free(st->set);
    free(st->live);
    free(st->line);
    free(st);
    sm->org_state = NULL;
}

static const sim_rforg rfc_org = {
    .name = "rfc", .read_route = rfc_read, .write_route = rfc_write, .on_launch = lt_launch,
    .init = lt_init, .fini = lt_fini};
static const sim_rforg ltrf_org = {
    .name = "ltrf", .read_route = lt_read, .write_route = lt_write, .on_launch = lt_launch,
    .init = lt_init, .fini = lt_fini, .gate = lt_gate, .on_pool = lt_pool};

const sim_rforg *sim_ltrf_org(const rf_design *d)
{
    if (d->kind == RF_DESIGN_RFC)
        return &rfc_org;
    if (d->kind == RF_DESIGN_LTRF)
        return &ltrf_org;
    return NULL;
}
