/* sim_internal.h - data structures shared by the sampler's hardware blocks.
 *
 * The SM model is split one file per block (dispatcher, warp, scoreboard,
 * scheduler, collector, bank, exec, memory, stealing, sim).  All state lives
 * in flat arrays allocated once per run (no per-cycle allocation); a run is a
 * sim_ctx holding one or more sim_sm sharing a DRAM server.
 *
 * Cycle order (reverse pipeline order, so nothing crosses two stages in one
 * cycle): CTA dispatch, write-back events (execution done), dispatch from
 * collectors to execution units, register-file arbitration (writes and
 * reads), issue.  Timing of one instruction with one operand, no conflicts:
 *   issue at t, bank read at t+1, dispatch at t+2, result write at t+2+L,
 *   dependent instruction issues at t+2+L (scoreboard released in the same
 *   cycle because issue runs after the write stage).
 */
#ifndef RF_SIM_INTERNAL_H
#define RF_SIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../analytic/area.h"
#include "../analytic/design.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/kir.h"
#include "sim.h"

#define SIM_MASK_WORDS 5        /* 256 GPRs + 8 predicates = 264 bits */
#define SIM_MAX_BANKS 64
#define SIM_MAX_COLLECTORS 64
#define SIM_MAX_SCHED 8
#define SIM_MAX_OPS RF_MAX_USES

typedef struct sim_mask {
    uint64_t w[SIM_MASK_WORDS];
} sim_mask;

/* ---- register bit masks (inline: the issue stage tests them every cycle) ---- */
static inline void sim_mask_clear(sim_mask *m)
{
    for (int i = 0; i < SIM_MASK_WORDS; i++)
        m->w[i] = 0;
}

static inline void sim_mask_set(sim_mask *m, int reg)
{
    m->w[reg >> 6] |= UINT64_C(1) << (reg & 63);
}

static inline void sim_mask_reset(sim_mask *m, int reg)
{
    m->w[reg >> 6] &= ~(UINT64_C(1) << (reg & 63));
}

static inline bool sim_mask_test(const sim_mask *m, int reg)
{
    return (m->w[reg >> 6] >> (reg & 63)) & 1;
}

/* a & b != 0 */
static inline bool sim_mask_any(const sim_mask *a, const sim_mask *b)
{
    uint64_t x = 0;
    for (int i = 0; i < SIM_MASK_WORDS; i++)
        x |= a->w[i] & b->w[i];
    return x != 0;
}

/* ---- warp.c: the program as the sampler walks it ---- */
struct sim_warp;
struct sim_inst;
typedef enum sim_unit { SIM_U_ALU, SIM_U_SFU, SIM_U_LDST, SIM_U_NONE, SIM_U_COUNT } sim_unit;
/* SIM_BR_EXIT: a guarded exit with a block after it, drawn as a forward
 * branch whose taken side ends the warp. */
typedef enum sim_br { SIM_BR_NONE, SIM_BR_ALWAYS, SIM_BR_LOOP, SIM_BR_FWD, SIM_BR_EXIT } sim_br;
typedef enum sim_memk {
    SIM_M_NONE, SIM_M_SHARED, SIM_M_CONST, SIM_M_LOAD, SIM_M_STORE, SIM_M_ATOMIC
} sim_memk;

typedef struct sim_inst {
    uint8_t cls;                /* rf_opclass */
    uint8_t unit;               /* sim_unit */
    uint8_t br;                 /* sim_br */
    uint8_t mem;                /* sim_memk */
    uint8_t nreads;             /* distinct general registers read */
    uint8_t nwrites;            /* distinct general registers written */
    uint8_t ii_mult;            /* initiation-interval multiplier (fp64: 4) */
    uint8_t exits;              /* the warp ends after this instruction (SIM_BR_EXIT: when drawn) */
    uint8_t cta_uniform;        /* loop back edge decided once per CTA (body has a barrier) */
    double p_taken;             /* the spec's [branches] probability, < 0 = the profile's
                                   (double: a trip count t of 2^24 or more gives
                                   (t - 1) / t, which a float rounds to 1) */
    int latency;                /* cycles for fixed-latency classes */
    uint32_t bytes;             /* bytes per warp access (memory classes) */
    int next;                   /* instruction after (not taken); -1 = end */
    int taken;                  /* branch target instruction; -1 = none */
    uint16_t reads[SIM_MAX_OPS];
    uint16_t writes[RF_MAX_DEFS];
    sim_mask dep;               /* uses + guard + defs: must not be pending to issue */
    sim_mask def;               /* defs including predicates */
} sim_inst;

typedef struct sim_prog {
    sim_inst *insts;
    int ninsts;
    int entry;                  /* first instruction */
    int regs_alloc;             /* registers per thread held in the RF */
    int nbanks;
    int16_t *dead;              /* [ninsts * nbanks]: a register of residue class c
                                   (reg mod nbanks == c) dead after the instruction, -1 none */
} sim_prog;

int sim_prog_build(sim_prog *p, const rf_func *f, const rf_gpu *gpu, int regs_alloc,
                   int nbanks, rf_err *err);
void sim_prog_free(sim_prog *p);

/* Counter-based hash giving a uniform double in [0,1): deterministic and
 * independent of the order in which warps run. */

/* ---- per-warp and per-CTA state ---- */
typedef enum sim_wstate { SIM_W_EMPTY, SIM_W_ACTIVE, SIM_W_BARRIER, SIM_W_DONE } sim_wstate;

typedef struct sim_warp {
    uint8_t state;              /* sim_wstate */
    uint8_t prio_class;         /* scheduler priority class, 0 = highest (OWF hook) */
    uint8_t tl_active;          /* two-level scheduler: in the active pool */
    uint8_t sbst;               /* cached scoreboard verdict (sim_sbst), 0 = recompute */
    uint8_t parked;             /* its CTA is pending or switching in (ctaswitch.c) */
    uint64_t hold_until;        /* the RF organisation holds the warp until this cycle
                                   (register prefetch or activation, seed 004) */
    int pc;                     /* next instruction (the instruction buffer) */
    int cta;                    /* CTA slot */
    int sched;                  /* scheduler the warp belongs to */
    uint64_t age;               /* launch order, for GTO's "oldest" */
    uint64_t tl_seq;            /* two-level pending-queue order */
    uint64_t gid;               /* global warp id: cta id * warps per CTA + index */
    uint64_t nbr;               /* dynamic branch counter (RNG stream) */
    uint64_t nloop;             /* dynamic CTA-uniform loop branch counter */
    uint64_t cta_id;            /* CTA index in the grid */
    uint64_t nmem;              /* dynamic memory-instruction counter (RNG stream) */
    int inflight;               /* issued and not yet retired */
    sim_mask pend;              /* registers with a write in flight */
    sim_mask pend_mem;          /* ... of which from long-latency memory */
    sim_mask pend_wq;           /* ... of which waiting for a bank write */
} sim_warp;

/* Scoreboard verdict of a warp's next instruction, cached until the warp's
 * pending registers or its PC change. */
typedef enum sim_sbst {
    SIM_SB_DIRTY, SIM_SB_READY, SIM_SB_SHORT, SIM_SB_BANK, SIM_SB_MEM
} sim_sbst;

typedef struct sim_cta {
    bool used;
    long id;                    /* CTA index in the grid */
    int live;                   /* warps not yet exited */
    int at_bar;                 /* warps waiting at the barrier */
    int inflight;               /* instructions of its warps not retired */
} sim_cta;

/* ---- exec.c: instructions in flight, completion events ---- */
typedef struct sim_flight {
    int slot;                   /* warp slot */
    int inst;
    int writes_left;            /* bank writes still to do */
    bool mem;                   /* long-latency memory result */
    int next_free;              /* free-list link */
} sim_flight;

typedef struct sim_event {
    uint64_t time;              /* cycle */
    uint64_t seq;               /* tie-break for determinism */
    int flight;
} sim_event;

typedef struct sim_heap {
    sim_event *a;
    int n, cap;
} sim_heap;

int sim_heap_push(sim_heap *h, sim_event e);
sim_event sim_heap_pop(sim_heap *h);

/* ---- collector.c ---- */
typedef struct sim_collector {
    bool busy;
    bool issued;                /* holds an issued instruction (else: stolen operands only) */
    int slot, inst, flight;
    uint8_t nops, ngot;
    bool conflicted;            /* an operand lost arbitration in the last cycle */
    uint64_t ready_at;          /* cycle all operands are in the collector */
    uint16_t reg[SIM_MAX_OPS];
    uint8_t bank[SIM_MAX_OPS];
    uint8_t got[SIM_MAX_OPS];
} sim_collector;

/* ---- bank.c: pending writes and the register-file organisation ---- */
typedef struct sim_wreq {
    int slot, reg, bank, flight;
    uint64_t since;             /* cycle the request was made */
    uint8_t kind;               /* sim_wkind */
    int link;                   /* second-chance write-back: link bank, else -1 */
    uint64_t done_at;           /* multi-cycle write (x->write_hold > 1) granted:
                                   cycle it completes; 0 = not granted yet */
} sim_wreq;

typedef enum sim_wkind { SIM_WR_NORMAL, SIM_WR_FORCED } sim_wkind;

/* ---- stealing.c: link table and Rfree per bank (seed 001 Fig. 9) ---- */
typedef struct sim_link {
    bool valid;                 /* m: a stolen value sits in this bank's Rfree */
    bool reading;               /* temp read done, destination write queued */
    bool forced;                /* write-back forced by a hazard */
    int dslot, dreg, dbank;     /* Rdest */
    int tslot, treg;            /* the temporary register (Rfree) */
    uint64_t t_steal;           /* cycle of the stealing write */
    uint8_t wb_class;           /* 0 fast, 1 late, 2 forced: decided at the temporary read */
} sim_link;

typedef struct sim_rfree {
    bool valid;                 /* f */
    int slot, reg;
} sim_rfree;

/* ---- scheduler.c ---- */
typedef struct sim_sched {
    int last;                   /* last issued warp slot (LRR, GTO), -1 none */
    int cand;                   /* read-stealing candidate latched last cycle, -1 none */
    int cand_pc;                /* its instruction when latched */
    int override;               /* issue this warp now (its operands were stolen), -1 none */
    int override_coll;          /* collector already holding its stolen operands */
    uint64_t tl_counter;
} sim_sched;

/* Why a scheduler did not issue in a cycle. */
typedef enum sim_stall {
    SIM_ST_NONE, SIM_ST_NO_WARP, SIM_ST_SCOREBOARD, SIM_ST_COLLECTOR,
    SIM_ST_BANK, SIM_ST_MEMORY, SIM_ST_RC, SIM_ST_LOCK
} sim_stall;

/* Raw counters: every integer statistic, windowed by subtraction. */
typedef struct sim_counts {
    uint64_t warp_insts, ctas_done, resident_warp_cycles;
    uint64_t st_no_warp, st_scoreboard, st_collector, st_bank, st_memory;
    uint64_t bank_reads, bank_writes, read_conflict, write_conflict;
    uint64_t inter_read, inter_write, intra, operand_reads;
    uint64_t xbar, fills, bank_busy;
    uint64_t stolen_reads, stolen_writes, overrides;
    uint64_t wb_normal, wb_fast, wb_late, wb_forced;
    uint64_t by_class[RF_OC_COUNT], mem_insts, dram_bytes, skipped;
    /* register cache and NVM file (regcache.c) */
    uint64_t rc_hits, rc_misses, rc_writes, rc_conflicts, nvm_reads, nvm_writes, nvm_stall;
    /* RFC and LTRF (ltrf.c) */
    uint64_t st_rc, prefetches, prefetch_regs, activations;
    uint64_t refetch_regs, writeback_regs, main_reads, main_writes, hold_cycles;
    /* occupancy, and Register Sharing (sharing.c) */
    uint64_t resident_cta_cycles;
    uint64_t st_lock, lock_acquires, lock_wait, dyn_p_tenths, dyn_cycles;
    /* CTA switching (ctaswitch.c) */
    uint64_t active_cta_cycles, cta_switches, switch_cycles, switch_dram_bytes, pcrf_full_stalls;
    /* RegMutex's shared register pool (regmutex.c) */
    uint64_t srp_acquires;
} sim_counts;

/* DRAM: one server per run shared by every simulated SM. */
typedef struct sim_dram {
    double bytes_per_cycle;     /* bandwidth of all simulated SMs together */
    double free_at;             /* cycle the server is next free */
} sim_dram;

struct sim_ctx;
struct sim_sm;

/* Register-file organisation: how operand reads and result writes reach
 * storage.  The banked file (bank.c) is the only one so far; register caches
 * and two-level files (HI-RF, RFC, LTRF) and FineReg's split file plug in
 * here: a read routed to -1 is served without a bank access (`extra` cycles
 * later, still through the collector), a write routed to -1 is absorbed.
 * Bank stealing is part of the banked organisation's arbiter. */
typedef struct sim_rforg {
    const char *name;
    int (*read_route)(struct sim_ctx *x, struct sim_sm *sm, int slot, int reg, int *extra);
    int (*write_route)(struct sim_ctx *x, struct sim_sm *sm, int slot, int reg);
    void (*on_issue)(struct sim_ctx *x, struct sim_sm *sm, int slot, int inst);  /* or NULL */
    /* A CTA took slot `cta`: the organisation may set its warps' scheduler
     * priority classes (owner-warp-first) or reserve storage.  Or NULL. */
    void (*on_launch)(struct sim_ctx *x, struct sim_sm *sm, int cta);
    /* Once per run after the program is built (e.g. renumber its
     * registers); per SM state in sm->org_state.  Each may be NULL. */
    int (*prepare)(struct sim_ctx *x, rf_err *err);
    int (*init)(struct sim_ctx *x, struct sim_sm *sm, rf_err *err);
    void (*fini)(struct sim_sm *sm);
    /* Two-level organisations (seed 004), or NULL: gate: may warp `slot` of
     * the active pool issue now (false: held, e.g. it just started a
     * PREFETCH; the organisation sets the warp's hold_until); on_pool: the
     * warp entered or left the active pool. */
    bool (*gate)(struct sim_ctx *x, struct sim_sm *sm, int slot);
    void (*on_pool)(struct sim_ctx *x, struct sim_sm *sm, int slot, bool active);
    /* Any policy, or NULL: may warp `slot`, ready by the scoreboard, issue
     * its next instruction now (false: it waits, stall cause lock; Register
     * Sharing's locks and dynamic warp execution).  Also asked by the
     * functional-warming walk, followed by on_issue when it moves. */
    bool (*may_issue)(struct sim_ctx *x, struct sim_sm *sm, int slot);
    /* Warp `slot` exited, or NULL. */
    void (*on_exit)(struct sim_ctx *x, struct sim_sm *sm, int slot);
    /* Once per simulated cycle before CTA dispatch, or NULL. */
    void (*on_cycle)(struct sim_ctx *x, struct sim_sm *sm);
    /* CTA slot `cta` retired, or NULL. */
    void (*on_retire)(struct sim_ctx *x, struct sim_sm *sm, int cta);
    /* May the dispatcher launch a CTA into a free slot now?  NULL: yes. */
    bool (*launch_ok)(struct sim_ctx *x, struct sim_sm *sm);
    /* Has the organisation work for the next cycle (the run must not skip
     * idle cycles)?  NULL: no. */
    bool (*busy)(struct sim_ctx *x, struct sim_sm *sm);
} sim_rforg;

const sim_rforg *sim_rforg_for(const rf_design *d);
extern const sim_rforg sim_rforg_hirf;      /* regcache.c: HI-RF (seed 002) */
extern const sim_rforg sim_rforg_sharing;   /* sharing.c: Register Sharing (seed 003) */
extern const sim_rforg sim_rforg_switch;    /* ctaswitch.c: VT, Reg+DRAM, FineReg (seed 000) */

/* sharing.c's lock table on its own (seed 003 Section 4, Fig. 5).  CTA
 * slots 0..unshared-1 are unshared, U+2i and U+2i+1 pairs; warp i of a
 * shared CTA pairs with warp i of its partner. */
typedef struct rf_share_locks {
    int nctas, unshared, wpc;
    int *lock;                  /* [pairs * wpc]: warp slot holding the lock, -1 free */
    int *held;                  /* [nctas]: locks held by the CTA's warps */
    bool rule;                  /* deadlock avoidance on (always in the sampler;
                                   off only to show the deadlock it prevents) */
} rf_share_locks;
enum { RF_SHARE_HAVE, RF_SHARE_FREE, RF_SHARE_WAIT };
int rf_share_locks_init(rf_share_locks *l, int nctas, int unshared, int wpc);
void rf_share_locks_free(rf_share_locks *l);
/* RF_SHARE_HAVE: unshared warp or lock already held; RF_SHARE_FREE: the
 * warp may take it now; RF_SHARE_WAIT: it must wait (held by the partner
 * warp, or the partner CTA holds a lock and the rule is on). */
int rf_share_try(const rf_share_locks *l, int slot);
void rf_share_take(rf_share_locks *l, int slot);
/* Release the lock warp `slot` holds; true when it held one. */
bool rf_share_release(rf_share_locks *l, int slot);
/* ltrf.c: the RFC and LTRF organisations, NULL for other designs. */
const sim_rforg *sim_ltrf_org(const rf_design *d);

typedef struct sim_sm {
    int id;
    struct sim_ctx *ctx;
    sim_warp *warps;            /* [nslots] */
    int nslots;
    sim_cta *ctas;              /* [nctas] */
    int nctas;
    int ctas_used;
    sim_sched sched[SIM_MAX_SCHED];
    uint8_t sched_stall[SIM_MAX_SCHED];  /* this cycle's stall cause per scheduler */
    uint8_t sched_unused[SIM_MAX_SCHED]; /* issue slots it left unused this cycle */
    sim_collector coll[SIM_MAX_COLLECTORS];
    int coll_order[SIM_MAX_COLLECTORS];  /* busy collectors, oldest first */
    int ncoll_busy;
    uint64_t unit_free[SIM_U_COUNT][SIM_MAX_SCHED];  /* cycle each pipe accepts again */
    sim_heap events;
    sim_flight *fl;
    int nfl, fl_free;
    sim_wreq *wq;               /* pending write requests (normal and forced) */
    int nwq, capwq;
    sim_link link[SIM_MAX_BANKS];   /* indexed by the bank holding the temporary */
    sim_mask *linked;           /* [nslots]: registers that are a link's Rdest or temporary */
    sim_rfree rfree[SIM_MAX_BANKS];
    int nlinks;
    int steal_rr;               /* round-robin pointer over banks for stealing writes */
    uint64_t bank_grant[SIM_MAX_BANKS];  /* last cycle each bank was granted (+1) */
    int issued_now;             /* instructions issued this cycle */
    int active_warps;           /* resident warps */
    int parked_ctas;            /* resident CTAs that may not issue (pending, switching in) */
    void *org_state;            /* register-file organisation's per-SM state */
    uint64_t bank_free_at[SIM_MAX_BANKS]; /* cycle a multi-cycle write frees the bank */
    sim_counts c;
    uint64_t chk_issued, chk_retired, chk_overuse, chk_sb;
    uint64_t seq;
    bool oom;                   /* an internal array could not grow */
} sim_sm;

typedef struct sim_ctx {
    const sim_rforg *org;
    const rf_gpu *gpu;
    const rf_design *d;
    const rf_kernel *k;
    const rf_sim_opts *o;
    sim_prog prog;
    int nbanks, ncoll, nsched, policy, tl_active, issue_width;
    int coll_split[SIM_U_NONE];  /* collectors per unit class (0: one shared pool) */
    int coll_first[SIM_U_NONE];
    bool read_steal, write_steal;
    int bank_map;
    int xbar_ports;             /* operands a collector receives per cycle; -1 = any */
    rf_rf_org energy_org;       /* register-file organisation priced by the energy stats */
    int write_hold;             /* cycles a routed write holds its bank and takes
                                   (NVM write latency of HI-RF); 1 = one cycle */
    int warps_per_cta, ctas_per_sm;
    int unshared_ctas;          /* Register Sharing: CTA slots 0..U-1 unshared, the
                                   rest shared pairs (= ctas_per_sm otherwise) */
    int active_limit;           /* CTA switching: CTAs that may be active at once
                                   (ctas_per_sm contexts in all) */
    int rf_ctxs;                /* VT, Reg+DRAM: contexts whose registers the file holds */
    int pcrf_entries;           /* FineReg: PCRF entries (warp registers) */
    int srp_chunks;             /* RegMutex: warps' extra register sets the pool holds */
    int alu_ii, sfu_ii, ldst_ii, alu_pipes;
    long ctas_total, next_cta;  /* grid CTAs; next CTA index to dispatch */
    double p_loop, p_fwd, l1_hit, l2_hit;
    sim_dram dram;
    uint64_t now;
    sim_sm *sm;
    int nsm;
} sim_ctx;

/* ---- regmutex.c: RegMutex's shared register pool ---- */
typedef struct sim_srp {
    int free;                   /* chunks not held */
    uint8_t *holds;             /* [nslots]: the warp holds a chunk */
    uint8_t *need;              /* [ninsts]: the instruction runs in a region over the BRS */
    uint8_t *release_after;     /* [ninsts]: the region ends after it */
} sim_srp;
int sim_srp_init(sim_ctx *x, sim_sm *sm, sim_srp *p, rf_err *err);
void sim_srp_free(sim_srp *p);
/* False when warp `slot`'s next instruction needs a chunk the empty pool
 * cannot give. */
bool sim_srp_may_issue(const sim_sm *sm, const sim_srp *p, int slot);
void sim_srp_issue(sim_ctx *x, sim_sm *sm, sim_srp *p, int slot, int inst);
void sim_srp_exit(sim_srp *p, int slot);

/* ---- scoreboard.c ---- */
static inline bool sim_sb_ready(const sim_warp *w, const sim_inst *in)
{
    return !sim_mask_any(&w->pend, &in->dep);
}
void sim_sb_reserve(sim_warp *w, const sim_inst *in, bool longlat);
void sim_sb_release(sim_warp *w, int reg);

/* ---- dispatcher.c ---- */
void sim_dispatch_ctas(sim_ctx *x, sim_sm *sm);
void sim_cta_retire_check(sim_sm *sm, int cta);

/* ---- warp.c ---- */
void sim_warp_advance(sim_ctx *x, sim_warp *w, const sim_inst *in);

/* ---- scheduler.c ---- */
void sim_issue(sim_ctx *x, sim_sm *sm);

void sim_stall_account(sim_sm *sm, int nsched, uint64_t n);

/* ---- collector.c ---- */
int sim_coll_alloc(sim_sm *sm, int unit);
void sim_coll_release(sim_sm *sm, int c);
void sim_coll_dispatch(sim_ctx *x, sim_sm *sm);
void sim_coll_fill(sim_ctx *x, sim_sm *sm, int c, int slot, int inst);

/* ---- bank.c ---- */
int sim_bank_of(const sim_ctx *x, int slot, int reg);
void sim_arbitrate(sim_ctx *x, sim_sm *sm);
int sim_wq_push(sim_sm *sm, sim_wreq r);
void sim_write_done(sim_ctx *x, sim_sm *sm, int slot, int reg, int flight);

/* ---- exec.c ---- */
int sim_flight_new(sim_sm *sm, int slot, int inst);
void sim_flight_retire(sim_ctx *x, sim_sm *sm, int f);
void sim_exec_complete(sim_ctx *x, sim_sm *sm);
void sim_exec_start(sim_ctx *x, sim_sm *sm, int flight, uint64_t done_at);
bool sim_unit_take(sim_ctx *x, sim_sm *sm, const sim_inst *in);

/* ---- memory.c ---- */
uint64_t sim_mem_latency(sim_ctx *x, sim_sm *sm, sim_warp *w, const sim_inst *in, bool *longlat);
/* Move `bytes` through the DRAM server now (counted in dram_bytes, queued
 * behind the kernel's own traffic): cycles until they have arrived. */
uint64_t sim_mem_dram(sim_ctx *x, sim_sm *sm, uint32_t bytes);

/* ---- stealing.c ---- */
void sim_bank_grant(sim_ctx *x, sim_sm *sm, int bank);
/* Read ahead the candidates' operands into idle banks; a granted bank's
 * holder[] / hold_op[] become the collector and operand. */
void sim_steal_reads(sim_ctx *x, sim_sm *sm, uint64_t *busy, int *holder, uint8_t *hold_op,
                     uint64_t unserved, uint64_t wbanks);
int sim_steal_write(sim_ctx *x, sim_sm *sm, const sim_wreq *r, uint64_t requested,
                    uint64_t *busy);
void sim_steal_writebacks(sim_ctx *x, sim_sm *sm, uint64_t *busy, bool forced);
void sim_link_done(sim_ctx *x, sim_sm *sm, int t);
bool sim_steal_hazard(sim_ctx *x, sim_sm *sm, int slot, int reg);
void sim_rfree_update(sim_ctx *x, sim_sm *sm, int slot, int inst);
void sim_rfree_on_write(sim_ctx *x, sim_sm *sm, int slot, int reg);

#endif /* RF_SIM_INTERNAL_H */
