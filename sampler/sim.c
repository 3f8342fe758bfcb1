/* sim.c - rf_sim_run: the cycle loop, windows, event skipping, statistics.
 *
 * Each cycle every simulated SM steps its blocks in reverse pipeline order:
 * CTA dispatch (dispatcher.c), results due (exec.c), dispatch from operand
 * collectors to execution pipes (collector.c), register-file arbitration of
 * writes and reads (bank.c, stealing.c), issue (scheduler.c).
 *
 * Window: cycles [warmup, warmup + cycles) are measured (cycles = 0: up to
 * the end of the grid); counters are snapshot at the window start and
 * subtracted at its end, so the stats are exact for the window.  skip_ctas
 * starts the grid at that CTA index (a cold start mid-kernel; use a warm-up,
 * or functional warming: warm_ctas, sampler/dispatcher.c).
 *
 * Event skipping: when no SM can change state before its next completion
 * event (nothing issued, no collector busy, no write pending, no CTA to
 * launch), the loop jumps to that event, charging the skipped cycles to the
 * same stall causes.  Results are identical to stepping every cycle.
 *
 * Watchdog: when no instruction retires for `watchdog` cycles the run stops
 * with RF_EWATCHDOG and says where it stood.
 *
 * Outputs: rf_sim_stats (units in sim.h); ipc is warp instructions per cycle
 * per SM (the mean over the simulated SMs).
 */
#include <stdlib.h>
#include <string.h>

#include "../analytic/energy.h"
#include "../analytic/occupancy.h"
#include "sim_internal.h"

void rf_sim_opts_init(rf_sim_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->watchdog = 1000000;
    o->sms = 1;
    o->bank_map = RF_BANK_MAP_SWIZZLE;
    o->xbar_ports = 0;
    o->typed_collectors = true;
}

/* ---- CSV columns ---- */
#define COL_U(name, unit) static double get_##name(const rf_sim_stats *s) { return (double)s->name; }
#define SIM_COLS(X)                                                            \
    X(ipc, "warp insts/cycle")  X(cycles, "cycles") X(warp_insts, "warp insts") \
    X(ctas_done, "CTAs") X(mean_resident_warps, "warps")                        \
    X(stall_no_warp, "sched-cycles") X(stall_scoreboard, "sched-cycles")        \
    X(stall_collector, "sched-cycles") X(stall_bank, "sched-cycles")            \
    X(stall_memory, "sched-cycles")                                             \
    X(inter_read_penalty, "cycles/read") X(inter_write_penalty, "cycles/read")  \
    X(inter_read_cycles, "cycles") X(inter_write_cycles, "cycles")              \
    X(intra_cycles, "cycles") X(read_conflict_cycles, "cycles")                 \
    X(write_conflict_cycles, "cycles") X(bank_util, "fraction")                 \
    X(bank_reads, "accesses") X(bank_writes, "accesses")                        \
    X(xbar_transfers, "transfers") X(collector_fills, "operands")               \
    X(operand_reads, "operands")                                                \
    X(stolen_reads, "operands") X(stolen_writes, "writes")                      \
    X(steal_overrides, "issues")                                                \
    X(wb_normal, "writes") X(wb_stolen_fast, "writes") X(wb_stolen_late, "writes") \
    X(wb_forced, "writes") X(mem_insts, "warp insts") X(dram_bytes, "bytes")   \
    X(rc_hits, "reads") X(rc_misses, "reads") X(rc_writes, "writes")            \
    X(rc_conflicts, "write-backs") X(nvm_reads, "accesses") X(nvm_writes, "accesses") \
    X(nvm_stall_cycles, "cycles")                                               \
    X(stall_rc, "sched-cycles")                                                 \
    X(prefetches, "PREFETCH ops") X(prefetch_regs, "registers")                 \
    X(activations, "warps") X(refetch_regs, "registers")                        \
    X(writeback_regs, "registers") X(main_reads, "accesses")                    \
    X(main_writes, "accesses") X(prefetch_stall_cycles, "warp-cycles")         \
    X(resident_ctas_mean, "CTAs") X(active_ctas_mean, "CTAs")                   \
    X(stall_lock, "sched-cycles") X(lock_acquires, "locks")                     \
    X(lock_wait_cycles, "warp-cycles") X(nonowner_mem_issue_prob, "probability") \
    X(cta_switches, "CTAs") X(switch_cycles, "cycles") X(switch_dram_bytes, "bytes") \
    X(pcrf_full_stalls, "cycles") X(srp_stall_cycles, "sched-cycles") X(srp_acquires, "chunks") \
    X(rf_energy_nj, "nJ") X(rf_dynamic_nj, "nJ") X(rf_leakage_nj, "nJ")           \
    X(rf_main_nj, "nJ") X(rf_cache_nj, "nJ") X(rf_xbar_nj, "nJ")
SIM_COLS(COL_U)
#define COL_ROW(name, unit) {#name, unit, get_##name},
const rf_sim_column rf_sim_columns[] = {SIM_COLS(COL_ROW)};
const size_t rf_sim_ncolumns = sizeof rf_sim_columns / sizeof rf_sim_columns[0];

/* ---- setup ---- */
static long prod3(const int v[3])
{
    long n = 1;
    for (int i = 0; i < 3; i++)
        n *= v[i] > 0 ? v[i] : 1;
    return n;
}

static int ceil_div(int a, int b)
{
    return b > 0 ? (a + b - 1) / b : a;
}

static int resolve(sim_ctx *x, const rf_gpu *g, const rf_design *d, const rf_kernel *k,
                   const rf_sim_opts *o, rf_err *err)
{
    x->nbanks = d->banks > 0 ? d->banks : g->rf_banks;
    x->ncoll = d->collectors > 0 ? d->collectors : g->collectors;
    x->nsched = g->schedulers > 0 ? g->schedulers : 1;
    x->issue_width = g->issue_width > 0 ? g->issue_width : 1;
    if (x->issue_width > 8)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "issue_width",
                          "issue width %d: the sampler models 1 to 8", x->issue_width);
    x->policy = d->scheduler > 0 ? d->scheduler - 1 : g->sched_policy;
    x->read_steal = d->kind == RF_DESIGN_STEALING && d->read_steal;
    x->write_steal = d->kind == RF_DESIGN_STEALING && d->write_steal;
    x->org = sim_rforg_for(d);
    x->write_hold = 1;
    if (d->kind == RF_DESIGN_LTRF && d->scheduler == 0)
        x->policy = RF_SCHED_TWO_LEVEL;     /* seed 004 Section 3.2 */
    if (o->typed_collectors && x->ncoll >= 3) {
        /* GPGPU-Sim Fermi proportions: 6 SP, 8 SFU, 2 MEM of 16. */
        int split[3];
        rf_gpu_coll_split(x->ncoll, split);
        int alu = split[0], sfu = split[1], mem = split[2];
        x->coll_split[SIM_U_ALU] = alu;
        x->coll_split[SIM_U_SFU] = sfu;
        x->coll_split[SIM_U_LDST] = mem;
        x->coll_first[SIM_U_ALU] = 0;
        x->coll_first[SIM_U_SFU] = alu;
        x->coll_first[SIM_U_LDST] = alu + sfu;
    }
    x->bank_map = o->bank_map;
    x->xbar_ports = o->xbar_ports > 0 ? o->xbar_ports : -1;
    x->nsm = o->sms > 0 ? o->sms : 1;
    if (x->nbanks < 1 || x->nbanks > SIM_MAX_BANKS)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "banks",
                          "%d banks: the sampler models 1 to %d", x->nbanks, SIM_MAX_BANKS);
    if (x->ncoll < 1 || x->ncoll > SIM_MAX_COLLECTORS)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "collectors",
                          "%d collectors: the sampler models 1 to %d", x->ncoll,
                          SIM_MAX_COLLECTORS);
    if (x->nsched > SIM_MAX_SCHED)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "schedulers",
                          "%d schedulers: the sampler models 1 to %d", x->nsched, SIM_MAX_SCHED);
    if (x->policy < RF_SCHED_LRR || x->policy > RF_SCHED_TWO_LEVEL)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "scheduler", "unknown policy %d", x->policy);
    if (x->nsm > 64)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "sms", "%d SMs: at most 64", x->nsm);
    /* Two-level active pool per scheduler: opts (per scheduler), else the
     * design's pool per SM shared among the schedulers (rf_design_pool). */
    x->tl_active = o->active_warps > 0 ? o->active_warps
                                       : ceil_div(rf_design_pool(d, g), x->nsched);

    int ws = g->warp_size > 0 ? g->warp_size : 32;
    int threads = (int)prod3(k->launch.block);
    x->warps_per_cta = ceil_div(threads, ws);
    x->ctas_total = rf_kernel_ctas(k);     /* SM 0's share of a spread grid */
    long skip = (long)(o->skip_ctas < (uint64_t)x->ctas_total ? o->skip_ctas : (uint64_t)x->ctas_total);
    /* Functional warming starts earlier in the grid (dispatcher.c). */
    uint64_t back = o->warm_ctas < (uint64_t)skip ? o->warm_ctas : (uint64_t)skip;
    x->next_cta = skip - (long)back;

    rf_occ occ;
    memset(&occ, 0, sizeof occ);
    occ.lim_regs = -1;
    rf_occ_input in = {k->regs, threads, k->smem_static + k->launch.smem};
    if (o->ctas_per_sm <= 0 || d->kind == RF_DESIGN_SHARING) {
        int orc = rf_occ_compute(g, d, &in, &occ, err);
        if (orc < 0)
            return orc;
    }
    x->ctas_per_sm = o->ctas_per_sm > 0 ? o->ctas_per_sm
                     : occ.active_ctas > 0 ? occ.active_ctas : occ.ctas_per_sm;
    x->active_limit = x->ctas_per_sm;
    x->rf_ctxs = x->ctas_per_sm;
    /* CTA switching (ctaswitch.c): contexts beyond the active ones. */
    if (d->kind == RF_DESIGN_REGMUTEX && occ.srp_regs > 0)
        x->srp_chunks = occ.warps_per_cta;     /* one CTA's warps' registers beyond the BRS */
    if (o->ctas_per_sm <= 0 && (d->kind == RF_DESIGN_VT || d->kind == RF_DESIGN_REGDRAM ||
                                d->kind == RF_DESIGN_REGMUTEX)) {
        x->ctas_per_sm = occ.ctas_per_sm;
        x->rf_ctxs = occ.ctas_per_sm;
        if (d->kind == RF_DESIGN_REGDRAM)
            x->rf_ctxs -= d->dram_ctas < 0 ? occ.ctas_per_sm / 2 : d->dram_ctas;
    } else if (o->ctas_per_sm <= 0 && d->kind == RF_DESIGN_FINEREG) {
        /* As many pending contexts as the other limits allow with live
         * registers taking no room; the PCRF's own limit is kept by
         * ctaswitch.c at the warps' actual live registers. */
        rf_design dz = *d;
        dz.live_frac = 0;
        rf_occ oz;
        int zrc = rf_occ_compute(g, &dz, &in, &oz, err);
        if (zrc < 0)
            return zrc;
        x->ctas_per_sm = oz.ctas_per_sm;
        x->pcrf_entries = occ.pcrf_entries;
    }
    /* Register Sharing: CTAs beyond the g that fit without sharing pair up
     * (seed 003 Eq. 1-3: S = M - g pairs, U = M - 2S unshared). */
    x->unshared_ctas = x->ctas_per_sm;
    if (d->kind == RF_DESIGN_SHARING && occ.lim_regs >= 0 && x->ctas_per_sm > occ.lim_regs) {
        int pairs = x->ctas_per_sm - occ.lim_regs;
        if (pairs > x->ctas_per_sm / 2)
            pairs = x->ctas_per_sm / 2;
        x->unshared_ctas = x->ctas_per_sm - 2 * pairs;
    }
    /* The organisation the energy stats price (analytic/area.c).  Its
     * bookkeeping storage (overhead_bits) comes from the design's
     * occupancy, which a forced ctas_per_sm does not compute: such runs
     * price the arrays only. */
    int arc = rf_area_org(g, d, &occ, &x->energy_org, err);
    if (arc < 0)
        return arc;
    if (x->ctas_per_sm < 1)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "ctas_per_sm",
                          "no CTA of %s fits on one SM of %s", k->name, g->name);
    if (x->ctas_per_sm * x->warps_per_cta > 4096)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "ctas_per_sm",
                          "%d CTAs x %d warps per SM is beyond the sampler's 4096 warp slots",
                          x->ctas_per_sm, x->warps_per_cta);

    int alu_lanes = g->alu_lanes > 0 ? g->alu_lanes : ws;
    x->alu_pipes = x->nsched;
    x->alu_ii = ceil_div(ws, ceil_div(alu_lanes, x->alu_pipes));
    x->sfu_ii = ceil_div(ws, g->sfu_lanes > 0 ? g->sfu_lanes : ws);
    x->ldst_ii = ceil_div(ws, g->ldst_lanes > 0 ? g->ldst_lanes : ws);
    if (x->alu_ii < 1) x->alu_ii = 1;
    if (x->sfu_ii < 1) x->sfu_ii = 1;
    if (x->ldst_ii < 1) x->ldst_ii = 1;

    double trip = k->profile.trip > 0 ? k->profile.trip : 0;
    x->p_loop = trip / (trip + 1.0);
    x->p_fwd = k->profile.taken;
    x->l1_hit = k->profile.l1_hit;
    x->l2_hit = k->profile.l2_hit;
    double bw = g->dram_bytes_per_cycle * x->nsm;
    if (k->profile.dram_share > 0)
        bw = k->profile.dram_share * g->dram_bytes_per_cycle * (g->sms > 0 ? g->sms : 1);
    x->dram.bytes_per_cycle = bw;
    x->dram.free_at = 0;
    return 0;
}

static int sm_init(sim_ctx *x, sim_sm *sm, int id, rf_err *err)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->ctx = x;
    sm->nctas = x->ctas_per_sm;
    sm->nslots = x->ctas_per_sm * x->warps_per_cta;
    sm->warps = calloc((size_t)sm->nslots, sizeof *sm->warps);
    sm->ctas = calloc((size_t)sm->nctas, sizeof *sm->ctas);
    sm->linked = calloc((size_t)sm->nslots, sizeof *sm->linked);
    sm->fl_free = -1;
    for (int s = 0; s < SIM_MAX_SCHED; s++) {
        sm->sched[s].last = -1;
        sm->sched[s].cand = -1;
        sm->sched[s].override = -1;
    }
    if (!sm->warps || !sm->ctas || !sm->linked)
        return RF_ENOMEM;
    return x->org->init ? x->org->init(x, sm, err) : 0;
}

/* Earliest cycle after now at which the organisation releases a held warp. */
static uint64_t sm_wake(const sim_ctx *x, const sim_sm *sm)
{
    uint64_t t = UINT64_MAX;
    if (!x->org->gate && !x->org->on_cycle)
        return t;
    for (int i = 0; i < sm->nslots; i++)
        if (sm->warps[i].hold_until > x->now && sm->warps[i].hold_until < t)
            t = sm->warps[i].hold_until;
    return t;
}

static void sm_free(sim_sm *sm)
{
    if (sm->ctx && sm->ctx->org->fini)
        sm->ctx->org->fini(sm);
    free(sm->warps);
    free(sm->ctas);
    free(sm->linked);
    free(sm->fl);
    free(sm->events.a);
    free(sm->wq);
}

static bool sm_idle(const sim_ctx *x, const sim_sm *sm)
{
    if (sm->issued_now || sm->ncoll_busy || sm->nwq || sm->nlinks)
        return false;
    for (int s = 0; s < x->nsched; s++)
        if (sm->sched[s].override >= 0 || sm->sched[s].cand >= 0)
            return false;
    if (x->org->busy && x->org->busy((sim_ctx *)x, (sim_sm *)sm))
        return false;
    return !(x->next_cta < x->ctas_total && sm->ctas_used < sm->nctas);
}

static void counts_add(sim_counts *acc, const sim_counts *c, int sign)
{
    const uint64_t *src = (const uint64_t *)c;
    uint64_t *dst = (uint64_t *)acc;
    for (size_t i = 0; i < sizeof *c / sizeof(uint64_t); i++)
        dst[i] += sign > 0 ? src[i] : (uint64_t)0 - src[i];
}

/* Register-file events of the window (analytic/energy.h), from the
 * counters of the organisation that ran:
 *   banked file (baseline, stealing and the other designs): every bank
 *     read and write, stealing's parking writes and read-backs included,
 *     is a main-file access;
 *   HI-RF (regcache.c): reads are cache hits plus misses (NVM bank reads),
 *     every result is a cache write, each NVM write a write-back; only the
 *     misses cross the crossbar;
 *   RFC and LTRF (ltrf.c): the cache's banks hold the hits (bank reads)
 *     and the results written into the cache (bank writes); main-file
 *     writes other than write-backs are results that bypassed the cache;
 *     PREFETCH and activation refetches are fills, RFC's read misses are
 *     allocated; a miss's operand crosses to the collector like a hit's. */
static void energy_stats(const sim_ctx *x, const sim_counts *c, uint64_t cycles,
                         rf_sim_stats *st)
{
    rf_energy_events ev;
    memset(&ev, 0, sizeof ev);
    ev.cycles = (double)cycles;
    ev.xbar = (double)c->xbar;
    switch (x->d->kind) {
    case RF_DESIGN_HIRF:
        ev.reads = (double)(c->rc_hits + c->rc_misses);
        ev.cache_hits = (double)c->rc_hits;
        ev.writes = (double)c->rc_writes;
        ev.writebacks = (double)c->nvm_writes;
        break;
    case RF_DESIGN_RFC:
    case RF_DESIGN_LTRF:
        ev.reads = (double)(c->rc_hits + c->rc_misses);
        ev.cache_hits = (double)c->rc_hits;
        ev.fills = (double)(c->prefetch_regs + c->refetch_regs);
        ev.miss_fills = x->d->kind == RF_DESIGN_RFC ? (double)c->rc_misses : 0.0;
        ev.writebacks = (double)c->writeback_regs;
        ev.bypass_writes = (double)(c->main_writes - c->writeback_regs);
        ev.writes = (double)c->bank_writes + ev.bypass_writes;
        ev.xbar += (double)c->rc_misses;
        break;
    default:
        ev.reads = (double)c->bank_reads;
        ev.writes = (double)c->bank_writes;
        break;
    }
    rf_energy e;
    rf_energy_of_events(&x->energy_org, &ev, x->gpu->clock_mhz, x->nsm, &e);
    st->rf_energy_nj = e.total_nj;
    st->rf_dynamic_nj = e.dynamic_nj;
    st->rf_leakage_nj = e.leakage_nj;
    st->rf_main_nj = e.main_nj;
    st->rf_cache_nj = e.cache_nj;
    st->rf_xbar_nj = e.xbar_nj;
}

static void fill_stats(const sim_ctx *x, const sim_counts *c, uint64_t cycles, rf_sim_stats *st)
{
    memset(st, 0, sizeof *st);
    st->cycles = cycles;
    st->warp_insts = c->warp_insts;
    double cyc = cycles > 0 ? (double)cycles : 1.0;
    st->ipc = (double)c->warp_insts / cyc / x->nsm;
    st->ctas_done = c->ctas_done;
    st->mean_resident_warps = (double)c->resident_warp_cycles / cyc / x->nsm;
    st->stall_no_warp = c->st_no_warp;
    st->stall_scoreboard = c->st_scoreboard;
    st->stall_collector = c->st_collector;
    st->stall_bank = c->st_bank;
    st->stall_memory = c->st_memory;
    st->bank_reads = c->bank_reads;
    st->bank_writes = c->bank_writes;
    st->read_conflict_cycles = c->read_conflict;
    st->write_conflict_cycles = c->write_conflict;
    st->xbar_transfers = c->xbar;
    st->collector_fills = c->fills;
    st->bank_util = (double)c->bank_busy / (cyc * x->nbanks * x->nsm);
    st->inter_read_cycles = c->inter_read;
    st->inter_write_cycles = c->inter_write;
    st->intra_cycles = c->intra;
    st->operand_reads = c->operand_reads;
    double reads = c->operand_reads > 0 ? (double)c->operand_reads : 1.0;
    st->inter_read_penalty = (double)c->inter_read / reads;
    st->inter_write_penalty = (double)c->inter_write / reads;
    st->stolen_reads = c->stolen_reads;
    st->stolen_writes = c->stolen_writes;
    st->steal_overrides = c->overrides;
    st->wb_normal = c->wb_normal;
    st->wb_stolen_fast = c->wb_fast;
    st->wb_stolen_late = c->wb_late;
    st->wb_forced = c->wb_forced;
    for (int i = 0; i < RF_OC_COUNT && i < 16; i++)
        st->insts_by_class[i] = c->by_class[i];
    st->mem_insts = c->mem_insts;
    st->dram_bytes = c->dram_bytes;
    st->skipped_cycles = c->skipped;
    st->rc_hits = c->rc_hits;
    st->rc_misses = c->rc_misses;
    st->rc_writes = c->rc_writes;
    st->rc_conflicts = c->rc_conflicts;
    st->nvm_reads = c->nvm_reads;
    st->nvm_writes = c->nvm_writes;
    st->nvm_stall_cycles = c->nvm_stall;
    st->stall_rc = c->st_rc;
    st->prefetches = c->prefetches;
    st->prefetch_regs = c->prefetch_regs;
    st->activations = c->activations;
    st->refetch_regs = c->refetch_regs;
    st->writeback_regs = c->writeback_regs;
    st->main_reads = c->main_reads;
    st->main_writes = c->main_writes;
    st->prefetch_stall_cycles = c->hold_cycles;
    st->resident_ctas_mean = (double)c->resident_cta_cycles / cyc / x->nsm;
    st->active_ctas_mean = (double)c->active_cta_cycles / cyc / x->nsm;
    st->cta_switches = c->cta_switches;
    st->switch_cycles = c->switch_cycles;
    st->switch_dram_bytes = c->switch_dram_bytes;
    st->pcrf_full_stalls = c->pcrf_full_stalls;
    st->srp_stall_cycles = x->d->kind == RF_DESIGN_REGMUTEX ? c->st_lock : 0;
    st->srp_acquires = c->srp_acquires;
    st->stall_lock = c->st_lock;
    st->lock_acquires = c->lock_acquires;
    st->lock_wait_cycles = c->lock_wait;
    st->nonowner_mem_issue_prob =
        c->dyn_cycles > 0 ? (double)c->dyn_p_tenths / (10.0 * (double)c->dyn_cycles) : 0.0;
    energy_stats(x, c, cycles, st);
    st->ctas_per_sm = x->ctas_per_sm;
    st->banks = x->nbanks;
    st->collectors = x->ncoll;
    st->sched_policy = x->policy;
}

static void total_counts(const sim_ctx *x, sim_counts *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < x->nsm; i++)
        counts_add(out, &x->sm[i].c, 1);
}

static void report_progress(const sim_ctx *x, uint64_t now)
{
    long done = 0;
    for (int i = 0; i < x->nsm; i++)
        done += (long)x->sm[i].c.ctas_done;
    x->o->progress(now, done, x->ctas_total - (long)x->o->skip_ctas, x->o->progress_arg);
}

int rf_sim_run(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
               const rf_sim_opts *opts, rf_sim_stats *st, rf_err *err)
{
    rf_sim_opts defaults;
    if (!opts) {
        rf_sim_opts_init(&defaults);
        opts = &defaults;
    }
    if (!gpu || !d || !k || !st)
        return rf_err_set(err, RF_EUSAGE, NULL, 0, 0, NULL, "rf_sim_run: missing argument");
    if (!k->func)
        return rf_err_set(err, RF_EUSAGE, k->spec_path[0] ? k->spec_path : NULL, 0, 0,
                          "code", "kernel %s has no register-allocated code", k->name);
    sim_ctx x;
    memset(&x, 0, sizeof x);
    x.gpu = gpu;
    x.d = d;
    x.k = k;
    x.o = opts;
    int rc = resolve(&x, gpu, d, k, opts, err);
    if (rc < 0)
        return rc;
    int regs = k->regs > k->func->nregs ? k->regs : k->func->nregs;
    rc = sim_prog_build(&x.prog, k->func, gpu, regs, x.nbanks, err);
    if (rc < 0)
        return rc;
    if (x.prog.entry < 0) {
        sim_prog_free(&x.prog);
        return rf_err_set(err, RF_EUSAGE, NULL, 0, 0, "kernel", "kernel %s has no entry instruction",
                          k->name);
    }
    if (x.org->prepare && (rc = x.org->prepare(&x, err)) < 0) {
        sim_prog_free(&x.prog);
        return rc;
    }
    x.sm = calloc((size_t)x.nsm, sizeof *x.sm);
    rc = x.sm ? 0 : RF_ENOMEM;
    for (int i = 0; i < x.nsm && rc == 0; i++)
        rc = sm_init(&x, &x.sm[i], i, err);

    uint64_t start = opts->warmup;
    uint64_t end = opts->cycles > 0 ? opts->warmup + opts->cycles : UINT64_MAX;
    uint64_t watchdog = opts->watchdog > 0 ? opts->watchdog : UINT64_MAX / 4;
    uint64_t last_retire = 0;
    uint64_t next_progress = 0;
    sim_counts snap;
    memset(&snap, 0, sizeof snap);
    bool snapped = start == 0, finished = false;
    uint64_t now = 0;

    while (rc == 0) {
        if (now == start && !snapped) {
            total_counts(&x, &snap);
            snapped = true;
        }
        if (now >= end)
            break;
        x.now = now;
        bool idle = true;
        uint64_t ret_before = 0, ret_after = 0;
        for (int i = 0; i < x.nsm; i++) {
            sim_sm *sm = &x.sm[i];
            ret_before += sm->chk_retired;
            if (x.org->on_cycle)
                x.org->on_cycle(&x, sm);
            sim_dispatch_ctas(&x, sm);
            sim_exec_complete(&x, sm);
            sim_coll_dispatch(&x, sm);
            sim_arbitrate(&x, sm);
            sim_issue(&x, sm);
            sim_stall_account(sm, x.nsched, 1);
            sm->c.resident_warp_cycles += (uint64_t)sm->active_warps;
            sm->c.resident_cta_cycles += (uint64_t)sm->ctas_used;
            sm->c.active_cta_cycles += (uint64_t)(sm->ctas_used - sm->parked_ctas);
            ret_after += sm->chk_retired;
            idle &= sm_idle(&x, sm);
            if (sm->oom)
                rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory in the sampler");
        }
        if (ret_after != ret_before)
            last_retire = now;
        bool busy = x.next_cta < x.ctas_total;
        for (int i = 0; i < x.nsm && !busy; i++)
            busy = x.sm[i].ctas_used > 0;
        if (!busy) {
            now++;
            finished = true;
            break;
        }
        if (now - last_retire >= watchdog) {
            long done = 0;
            for (int i = 0; i < x.nsm; i++)
                done += (long)x.sm[i].c.ctas_done;
            rc = rf_err_set(err, RF_EWATCHDOG, k->spec_path[0] ? k->spec_path : NULL, 0, 0,
                            NULL, "simulation of %s stalled: no instruction retired for %llu "
                            "cycles (cycle %llu, %ld of %ld CTAs done)", k->name,
                            (unsigned long long)watchdog, (unsigned long long)now, done,
                            x.ctas_total - (long)opts->skip_ctas);
            break;
        }
        if (opts->progress && now >= next_progress) {
            report_progress(&x, now);
            next_progress = now + RF_SIM_PROGRESS_CYCLES;
        }
        if (idle && !opts->no_skip) {
            /* Jump to the next completion event. */
            uint64_t next = UINT64_MAX;
            for (int i = 0; i < x.nsm; i++) {
                if (x.sm[i].events.n > 0 && x.sm[i].events.a[0].time < next)
                    next = x.sm[i].events.a[0].time;
                uint64_t wake = sm_wake(&x, &x.sm[i]);
                if (wake < next)
                    next = wake;
            }
            if (now < start && next > start)
                next = start;
            if (next > end)
                next = end;
            if (next > last_retire + watchdog)
                next = last_retire + watchdog;
            if (next > now + 1) {
                uint64_t n = next - now - 1;
                for (int i = 0; i < x.nsm; i++) {
                    sim_sm *sm = &x.sm[i];
                    sim_stall_account(sm, x.nsched, n);
                    sm->c.resident_warp_cycles += n * (uint64_t)sm->active_warps;
                    sm->c.resident_cta_cycles += n * (uint64_t)sm->ctas_used;
                    sm->c.active_cta_cycles += n * (uint64_t)(sm->ctas_used - sm->parked_ctas);
                    sm->c.skipped += n;
                }
                now += n;
            }
        }
        now++;
    }
    if (rc == 0 && opts->progress)
        report_progress(&x, now);
    if (rc == 0) {
        sim_counts tot;
        total_counts(&x, &tot);
        if (!snapped)              /* the grid ended before the window opened */
            snap = tot;
        counts_add(&tot, &snap, -1);
        uint64_t wend = now < end ? now : end;
        uint64_t cycles = wend > start ? wend - start : 0;
        fill_stats(&x, &tot, cycles, st);
        for (int i = 0; i < x.nsm; i++) {
            st->chk_issued += x.sm[i].chk_issued;
            st->chk_retired += x.sm[i].chk_retired;
            st->chk_bank_overuse += x.sm[i].chk_overuse;
        }
        (void)finished;
    }
    for (int i = 0; x.sm && i < x.nsm; i++)
        sm_free(&x.sm[i]);
    free(x.sm);
    sim_prog_free(&x.prog);
    return rc;
}
