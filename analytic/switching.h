/* switching.h - closed forms of the occupancy-raising designs: CTA
 * switching (Virtual Thread, Reg+DRAM, FineReg, VT+RegMutex), Register
 * Sharing's lock waits and RegMutex's shared-pool depletion.
 * (Formulas, assumptions and seed sections: analytic/switching.c.)
 */
#ifndef RF_SWITCHING_H
#define RF_SWITCHING_H

#include <stdbool.h>

#include "../common/error.h"
#include "../inputs/kernel.h"
#include "../inputs/kir.h"
#include "design.h"

/* The designs' counters as `simulate --csv` names them, predicted for one
 * SM over the whole kernel (0 where meaningless for a design). */
typedef struct rf_sw_counters {
    double resident_ctas_mean;  /* CTAs resident, per cycle */
    double active_ctas_mean;    /* ... of which active (may issue) */
    double cta_switches;        /* CTAs switched in */
    double switch_cycles;       /* their switch costs, cycles */
    double switch_dram_bytes;   /* Reg+DRAM: context bytes to and from DRAM */
    double pcrf_full_stalls;    /* FineReg: cycles a stalled CTA found the PCRF full */
    double lock_acquires;       /* Register Sharing: warp-pair locks taken */
    double lock_wait_cycles;    /* ... warp-cycles waiting for one */
    double stall_lock;          /* sched-cycles lost to lock or pool waits */
    double srp_stall_cycles;    /* VT+RegMutex: sched-cycles lost to the empty pool */
    double srp_acquires;        /* ... pool chunks taken */
    double nonowner_mem_issue_prob; /* dynamic warp execution (one SM: 0) */
} rf_sw_counters;

/* Free parameters (listed in rf_ipc_mparams). */
typedef struct rf_sw_params {
    double sync;        /* how far a CTA's warps wait on memory together: 1 all at
                         * once, 0 independently */
    double cost_scale;  /* multiplier on a switch's cost */
} rf_sw_params;

/* The counters' CSV columns, in output order (the names of `simulate
 * --csv`): X(column, field). */
#define RF_SW_COUNTER_COLUMNS(X)                                              \
    X(resident_ctas_mean, resident_ctas_mean) X(active_ctas_mean, active_ctas_mean) \
    X(cta_switches, cta_switches) X(switch_cycles, switch_cycles)              \
    X(switch_dram_bytes, switch_dram_bytes) X(pcrf_full_stalls, pcrf_full_stalls) \
    X(lock_acquires, lock_acquires) X(lock_wait_cycles, lock_wait_cycles)      \
    X(stall_lock, stall_lock) X(srp_stall_cycles, srp_stall_cycles)            \
    X(srp_acquires, srp_acquires) X(nonowner_mem_issue_prob, nonowner_mem_issue_prob)
#define RF_SW_NCOUNTERS 12

/* ---- CTA switching ------------------------------------------------------ */

/* One active place (slot) and the pool of pending CTAs behind it. */
typedef struct rf_sw_slot_in {
    double active;      /* A: CTAs that may issue */
    double pending;     /* P: pending CTAs (contexts held beside the active ones) */
    double stall_frac;  /* s: share of a lone CTA's time with every warp on memory */
    double episode;     /* L_s: cycles one such all-stalled episode lasts */
    double cost;        /* c: cycles until a switched-in CTA issues */
} rf_sw_slot_in;

typedef struct rf_sw_slot {
    double busy;        /* T_b: cycles a CTA issues between episodes, L_s (1 - s) / s */
    double switched;    /* f: share of episodes that find a ready pending CTA */
    double ctas_eff;    /* CTA-equivalents at the lone rate, A (T_b + L_s) / (T_b + f c + (1 - f) L_s) */
    double pending_needed; /* pending CTAs for f = 1: A L_s / (T_b + c) */
} rf_sw_slot;

/* The slot model (analytic/switching.c). */
void rf_sw_slot_eval(const rf_sw_slot_in *in, rf_sw_slot *out);

/* All-stalled share and episode length of a CTA of w warps each waiting on
 * memory a share q of its time, mean wait L (cycles), synchrony sync:
 * e = 1 + (1 - sync)(w - 1), s = q^e, L_s = L / e. */
void rf_sw_stall(double q, double wait, double warps, double sync, double *stall_frac,
                 double *episode);

/* ---- RegMutex's shared register pool ------------------------------------ */

typedef struct rf_sw_pool {
    double waiting;     /* Lq: mean warps waiting for a chunk */
    double holding;     /* mean warps holding a chunk */
    double p_empty;     /* P(n > chunks): some warp waits (the pool is exhausted) */
} rf_sw_pool;

/* Finite-source queue (machine repairman, M/M/c//N): n warps, each inside
 * a region (holding a chunk) a share rho of the time it is not waiting,
 * `chunks` chunks.  rho in [0, 1); n up to 4096. */
void rf_sw_pool_eval(int n, int chunks, double rho, rf_sw_pool *out);

/* ---- static figures of the code ----------------------------------------- */

typedef struct rf_sw_code {
    double prefix;      /* sharing: expected instructions of a warp before its first
                         * shared register (rf_reorder_reach) */
    double region;      /* regmutex: share of a warp's instructions inside a region
                         * (live registers above the base set) */
    double acquires;    /* regmutex: chunks a warp takes (region exits executed) */
    double loads;       /* regmutex: share of a warp's instructions that are global or
                         * local loads */
    double region_loads; /* ... that are such loads inside a region (the warp waits
                         * for them holding its chunk) */
    double live_stall;  /* finereg: live registers of a warp waiting on a load (mean
                         * over executed long-latency loads of their live-out set) */
    double live_barrier; /* finereg: live registers of a warp waiting at a barrier */
} rf_sw_code;

/* Base sets a live-register profile covers (registers per thread). */
#define RF_SW_MAXBASE 256

/* What RegMutex and FineReg need of a kernel's live registers, once per
 * kernel (analytic/kchar.c fills it into rf_ipc_kernel.swp), so that an
 * estimate reads it instead of running the liveness pass. */
typedef struct rf_sw_liveprof {
    bool valid;
    double live_stall;          /* mean live-out at executed loads (-1: no load) */
    double live_barrier;        /* mean live-in at executed barriers (-1: none) */
    double loads;               /* share of executed instructions that are loads */
    float region[RF_SW_MAXBASE];       /* [b]: share of executed instructions a warp
                                        * issues holding a chunk, base set b */
    float region_loads[RF_SW_MAXBASE]; /* [b]: share that are loads issued holding */
    float acquires[RF_SW_MAXBASE];     /* [b]: chunks a warp takes */
} rf_sw_liveprof;

/* The profile of physical function f with block frequencies freq. */
int rf_sw_liveprof_of(const rf_func *f, const double *freq, rf_sw_liveprof *out, rf_err *err);

/* The figures design d needs of physical function f run with `regs`
 * registers per thread under profile prof (the others are 0); lp: the
 * kernel's live-register profile, or NULL (computed then). */
int rf_sw_code_of(const rf_func *f, const rf_profile *prof, const rf_sw_liveprof *lp,
                  const rf_design *d, int regs, rf_sw_code *out, rf_err *err);

/* ---- one design point --------------------------------------------------- */

/* What the closed forms need of the SM, the design's occupancy and the
 * kernel. */
typedef struct rf_sw_input {
    int kind;               /* rf_design_kind */
    bool owf;               /* sharing: owner-warp-first scheduling */
    int active;             /* A: CTAs that may issue (VT family: the scheduling limit;
                             * FineReg: the ACRF's) */
    int resident;           /* CTAs held: VT, RegMutex: the register file's; Reg+DRAM:
                             * the register file's plus DRAM's; FineReg: the CTA slots
                             * with live registers taking no room; sharing: M */
    int rf_ctas;            /* Reg+DRAM: CTAs whose context is in the register file */
    int pcrf_entries;       /* FineReg: PCRF entries (one warp register each) */
    int shared_pairs, unshared; /* sharing: S, U (Eq. 4) */
    int chunks;             /* RegMutex: pool chunks (one CTA's warps) */
    int warps_per_cta;
    int regs;               /* registers per thread */
    int warp_size;
    double act;             /* share of a CTA's warps issuing (kchar active_frac) */
    double live;            /* share of a CTA's warps not exited (kchar live_frac) */
    double insts_per_warp;
    double cpi_lone;        /* cycles per instruction of a lone warp, 1 + a S_dep + m S_mem */
    double mem_stall;       /* m S_mem, cycles per instruction on global memory */
    double mem_waits;       /* memory waits per instruction */
    double mem_latency;     /* cycles (a wait's length when mem_waits is unknown) */
    double switch_cycles;   /* design: pipeline-context switch cost */
    double dram_latency;    /* cycles */
    double dram_bw;         /* bytes per cycle of the SM */
    rf_sw_code code;
} rf_sw_input;

/* The closed forms' state at one design point. */
typedef struct rf_sw_state {
    int resident;           /* CTAs per wave for analytic/ipc.c */
    double ctas_eff;        /* CTA-equivalents issuing (active_frac scales by
                             * ctas_eff / resident) */
    double stall_frac, episode; /* s, L_s */
    double cost;            /* cycles per switch */
    double pending;         /* P */
    double parked;          /* pending CTAs in use, f A L_s / (T_b + f c + (1 - f) L_s) */
    double p_dram;          /* Reg+DRAM: share of switches through DRAM */
    double ctx_bytes;       /* Reg+DRAM: bytes of one CTA's registers */
    double dram_per_inst;   /* Reg+DRAM: switch bytes per warp instruction */
    bool thrash;            /* Reg+DRAM: the DRAM queue never drains (switching.c) */
    double entries;         /* FineReg: PCRF entries of one stalled CTA */
    double phi;             /* sharing: share of a warp's run before its first shared register */
    rf_sw_slot slot;
    rf_sw_pool pool;
    int pool_warps;         /* RegMutex: warps competing for the pool */
    double region_time;     /* RegMutex: share of a warp's time holding a chunk */
} rf_sw_state;

/* Whether design kind switches CTAs (VT, Reg+DRAM, FineReg, VT+RegMutex):
 * the designs the free parameters sw_sync and sw_cost act on. */
bool rf_sw_is_switching(int kind);

/* The design's effective CTAs (and Reg+DRAM's extra DRAM bytes). */
void rf_sw_apply(const rf_sw_input *in, const rf_sw_params *p, rf_sw_state *st);

/* The counters over a kernel of `ctas` CTAs on one SM that the IPC model
 * ran in `cycles` at `ipc` (warp instructions per cycle), with
 * `schedulers` x `issue` issue slots per cycle. */
void rf_sw_count(const rf_sw_input *in, const rf_sw_state *st, long ctas, double cycles,
                 double ipc, int schedulers, int issue, rf_sw_counters *out);

#endif /* RF_SWITCHING_H */
