/* ipc.h - IPC of one SM from latency hiding, register-file conflicts and
 * issue limits, and whole-kernel cycles over waves of CTAs.
 * (Formulas, assumptions and seed sections: analytic/ipc.c.)
 */
#ifndef RF_IPC_H
#define RF_IPC_H

#include <stdbool.h>
#include <stddef.h>

#include "conflict.h"
#include "modelparam.h"
#include "rccollide.h"
#include "prefetch.h"
#include "switching.h"

/* Operand-count histogram bound: instructions reading more registers are
 * counted in the last bin. */
#define RF_IPC_MAXK 8
/* Bank counts 1..RF_IPC_MAXB have their own intra-instruction conflict figure. */
#define RF_IPC_MAXB 64
/* Longest run of same-class instructions tracked (collectors per class). */
#define RF_IPC_MAXRUN 8
/* Critical CTAs of a run kept (rf_ipc_kernel.crit_pos). */
#define RF_IPC_NCRIT 32
/* Runs of at most this many CTAs keep every CTA's lone cycles
 * (rf_ipc_kernel.lone). */
#define RF_IPC_NLONE 256

/* Warps per CTA whose active-warp distribution is kept (rf_ipc_kernel.act_hist). */
#define RF_IPC_MAXWPC 32
/* Issuing warps below this many take the spread over CTAs (analytic/ipc.c). */
#define RF_IPC_NSPREAD 257

/* Two-level pool balance (rf_ipc_kernel.pool_eff): places per scheduler
 * 1, 2, 4, 8, at up to RF_IPC_NPOOLN resident CTA counts. */
#define RF_IPC_NPOOLP 4
#define RF_IPC_NPOOLN 4

/* Barrier regions kept with their own unit mix (rf_ipc_kernel.phase). */
#define RF_IPC_NPHASE 8

/* The unit mix of a share of the kernel's instructions (the whole kernel,
 * or one barrier region: code between barriers, analytic/kchar.c). */
typedef struct rf_ipc_mix {
    double share;           /* share of the kernel's warp instructions */
    double frac_alu, alu_use, frac_sfu, frac_ldst, frac_none; /* as rf_ipc_kernel's */
} rf_ipc_mix;

typedef struct rf_ipc_cycles_memo rf_ipc_cycles_memo;

/* What the kernel does per warp instruction (static IR analysis weighted by
 * the profile, or measured in samples; analytic/kchar.c fills it). */
typedef struct rf_ipc_kernel {
    double frac_mem;        /* global/local/atomic memory instructions */
    double frac_alu;        /* instructions on the ALU pipes (incl. fp64, branches) */
    double alu_use;         /* ALU pipe slots per instruction (fp64 counts 4) */
    double frac_sfu;        /* special-function instructions */
    double frac_ldst;       /* LD/ST-unit instructions (shared, constant, global, local, atomic) */
    double frac_none;       /* barriers and exits: no collector, no unit */
    double reads;           /* register (bank) reads per instruction */
    double writes;          /* register (bank) writes per instruction */
    double read_k[RF_IPC_MAXK + 1]; /* P(instruction reads k registers) */
    double no_reads;        /* share of instructions reading no register at all (their
                             * collector skips the read cycle; unlike read_k[0] not
                             * thinned by register-cache hits, which take a cycle too) */
    double stall_mem;       /* cycles/inst a lone warp waits on global memory, at mem_latency */
    double stall_dep;       /* cycles/inst a lone warp waits on other producers */
    double mem_waits;       /* waits on global memory per instruction of a lone warp
                             * (stall_mem / mem_waits: the mean wait, cycles) */
    double turn_insts;      /* instructions a lone warp issues between waits of more
                             * than a cycle (its turn at a GTO scheduler; 0 = unknown) */
    double wait_share;      /* share of a lone warp's instructions that wait more than a
                             * cycle for a register (0 = unknown: all of them) */
    double mem_latency;     /* cycles, mean global access latency from hit rates */
    double drain;           /* cycles a CTA slot stays held after its last warp
                             * exits (its last instructions retiring) */
    double dram_bytes;      /* DRAM bytes per instruction */
    double dram_load_bytes; /* of them, the loads' and atomics' (a warp waits for them) */
    double dram_latency;    /* cycles, a DRAM access's latency past its queue */
    double dram_lead;       /* cycles before the run's first DRAM access issues */
    double dram_trail;      /* cycles a warp runs after its last DRAM access returns */
    bool dram_none;         /* the run's CTAs, every one walked with the sampler's
                             * default draws (a run of at most RF_IPC_NLONE), reach
                             * DRAM nowhere: no DRAM drain (rf_ipc_kernel_cycles) */
    double intra[RF_IPC_MAXB + 1]; /* extra read cycles/inst from same-bank operands, by B */
    double run_ge[3][RF_IPC_MAXRUN + 1]; /* ALU, SFU, LD/ST: share of the class's instructions
                             * right behind at least C independent instructions of the
                             * same class in the warp's stream ([u][0] = 1) */
    double rep_share[3];    /* share of the class's instructions whose successor
                             * waits for them (the scheduler turns to the other
                             * warps, which are at the same instruction) */
    double insts_per_warp;  /* warp instructions per warp (whole kernel) */
    double live_frac;       /* share of resident warps not exited (holding registers;
                             * analytic/kchar.c), or measured by calibration */
    double active_frac;     /* mean warp work / CTA critical work (barrier phases,
                             * slowest warp): share of resident warps still issuing */
    double act_hist[RF_IPC_MAXWPC + 1]; /* [j]: share of a CTA's critical time with j of its
                             * warps issuing (j = 1 .. warps_per_cta; its mean is
                             * active_frac x warps_per_cta); all 0: unknown, the
                             * mean alone (analytic/kchar.c) */
    float pool_eff[RF_IPC_NPOOLP][RF_IPC_NPOOLN]; /* [i][j]: share of a two-level
                             * scheduler's pool places that hold an issuing warp of
                             * their own scheduler, with 2^i places per scheduler and
                             * pool_n[j] CTAs resident, while the SM's issuing warps
                             * would fill them (analytic/kchar.c, GPUs whose warp
                             * scheduler is two-level) */
    int pool_n[RF_IPC_NPOOLN]; /* ascending; 0 past the last (none: unknown) */
    int warps_per_cta;
    /* Barrier regions (analytic/kchar.c): the code between barriers, each
     * with the unit mix of its instructions, the largest RF_IPC_NPHASE - 1
     * kept and the rest merged into the last; nphase < 2: the kernel's
     * one mix (no barrier, or every region alike). */
    int nphase;
    rf_ipc_mix phase[RF_IPC_NPHASE];
    /* The run's critical CTAs (analytic/kchar.c): of the crit_ctas CTAs of
     * the run the figures describe, those that no later CTA outlasts, by
     * position in the run (crit_pos, increasing) and the cycles each takes
     * alone (crit_cycles: over its barrier phases the norm of the slowest
     * warp's lone-warp time and the cycles its warps hold the SM's shared
     * resources there, analytic/kchar.c phase_alone and phase_hold, plus its
     * own drain).
     * ncrit 0: none known. */
    long crit_ctas;
    int ncrit;
    long crit_pos[RF_IPC_NCRIT];
    double crit_cycles[RF_IPC_NCRIT];
    /* The lone cycles (as crit_cycles) of the run's last nlone CTAs, in run
     * order: every CTA of a run of at most RF_IPC_NLONE (nlone = crit_ctas),
     * the last RF_IPC_NLONE of a longer one; 0: none known. */
    int nlone;
    float lone[RF_IPC_NLONE];
    float lone0[RF_IPC_NLONE];      /* the same with each phase's larger bound alone
                             * (rf_ctaset.cta_step; 0: unknown, taken as lone) */
    float lone_insts[RF_IPC_NLONE]; /* each one's warp instructions (0: unknown, the
                             * mean CTA's insts_per_warp x warps_per_cta) */
    float lone_drain[RF_IPC_NLONE]; /* each one's drain, part of its lone cycles (0:
                             * none apart) */
    rf_rcc_writes rcw;      /* writes per register (HI-RF collisions); nregs 0 = unknown */
    rf_sw_liveprof swp;     /* live registers for RegMutex and FineReg (analytic/switching.c) */
    /* The code and profile, for designs characterised per design point
     * (register-intervals of size N: analytic/prefetch.c); may be NULL. */
    const rf_func *func;
    const rf_profile *prof;
    /* rf_ipc_kernel_cycles' memo (below), owned by the caller; NULL: none. */
    rf_ipc_cycles_memo *cycles_memo;
} rf_ipc_kernel;

/* The SM as the IPC model sees it for one design point. */
typedef struct rf_ipc_machine {
    double warps;           /* warps that may issue (active) */
    int schedulers;
    int issue_width;        /* per scheduler per cycle */
    int banks;
    int collectors;
    int coll_split[3];      /* collectors dedicated to ALU, SFU and LD/ST instructions
                             * (all 0: one pool shared by every class) */
    bool read_steal, write_steal;
    int alu_pipes;          /* ALU pipes (one per scheduler) */
    double alu_ii;          /* cycles an ALU pipe is busy per warp instruction */
    double sfu_ii;          /* ... the SFU pipe */
    double ldst_ii;         /* ... the LD/ST pipe */
    double dram_bytes_per_cycle;
    double rf_latency;      /* cycles per main-file access (1 = baseline) */
    /* Design terms added per instruction (register-cache misses, NVM
     * write-backs, prefetch, CTA switching): */
    double extra_stall;     /* cycles on a warp's own path */
    double extra_hold;      /* cycles a collector is held */
    double class_hold[3];   /* ... and more for an instruction of unit class u (ALU,
                             * SFU, LD/ST): RFC misses of that class's operands */
    double write_service;   /* cycles a bank write holds its bank (0 = 1; k->writes
                             * then counts bank-cycles) */
    double pool;            /* two-level scheduler: warps in the active pool
                             * (0 = no pool) */
    bool oldest_first;      /* the schedulers hand issue out oldest warp first
                             * (GTO, two-level): the CTA fluid blends age
                             * priority in by gto_share */
    bool switching;         /* CTAs are switched out and back in (pending CTAs
                             * beside the active ones: VT, Reg+DRAM, FineReg,
                             * RegMutex): not every resident CTA advances */
    double wb_rate;         /* HI-RF: write-backs per instruction whose bank time
                             * (write_service - 1 + queueing) is on the warp's path */
    double write_idc;       /* HI-RF: factor on the bank queue's write wait and
                             * reads' wait behind writes, (1 - u) I: the other
                             * warps' share of the write-backs times their index
                             * of dispersion (analytic/rccollide.c); 0 = Poisson (1) */
} rf_ipc_machine;

/* Free parameters; rf_ipc_mparams lists them (with the conflict model's). */
typedef struct rf_ipc_params {
    double lat_scale;       /* multiplier on lone-warp dependence stalls */
    double mem_scale;       /* multiplier on memory stalls */
    double coll_base;       /* cycles a collector is held without conflicts */
    double rf_path;         /* multiplier on the share of a warp's instructions that
                             * wait for a register (k->wait_share): the collection and
                             * bank-write waits on the warp's path */
    double smooth;          /* exponent of the soft minimum */
    double unit_hold;       /* share of the pipe wait that holds collectors */
    double tail;            /* extra per-wave drain, in lone-warp CTA times */
    double rc_locality;     /* HI-RF: chance a line's last writer is the writing
                             * warp itself (GTO bursts), analytic/rccollide.c */
    double rc_stall;        /* HI-RF: share of the NVM write-back wait on a warp's path */
    double rc_burst;        /* HI-RF: multiplier on the write-backs' index of dispersion
                             * in the NVM bank queue (analytic/rccollide.c) */
    double gto_share;       /* CTA population model and the run's CTA fluid:
                             * share of issue handed out oldest first (GTO)
                             * rather than equally */
    rf_conflict_params conflict;
    rf_pf_params pf;        /* RFC/LTRF stall terms (analytic/prefetch.c) */
    rf_sw_params sw;        /* CTA switching (analytic/switching.c) */
} rf_ipc_params;

extern const rf_mparam rf_ipc_mparams[];
extern const size_t rf_ipc_nmparams;

void rf_ipc_params_default(rf_ipc_params *p);

/* Everything the model worked out at its fixed point. */
typedef struct rf_ipc_result {
    double ipc;             /* warp instructions per cycle per SM */
    double cpi_warp;        /* cycles between a warp's instructions */
    double t_collect;       /* cycles a collector is held */
    double unit_wait;       /* cycles an instruction waits for its execution pipe */
    double rho;             /* bank utilisation (accesses per bank per cycle) */
    double read_wait;       /* cycles a read waits for its bank */
    double stolen_writes;   /* fraction of writes stolen */
    double lim_latency;     /* W / cpi_warp */
    double lim_issue, lim_collect, lim_unit, lim_dram; /* throughput caps */
    double lim_pool;        /* two-level pool / short-latency cpi (inf: no pool) */
    int bound;              /* 0 latency, 1 issue, 2 collectors, 3 units, 4 dram, 5 pool */
} rf_ipc_result;

const char *rf_ipc_bound_name(int bound);

/* The two-level pool's balance (rf_ipc_kernel.pool_eff) at `per_sched`
 * places per scheduler and `ctas` CTAs resident: linear in log2 places
 * and in CTAs between the table's, the nearest outside it; 1 where the
 * table is empty. */
double rf_ipc_pool_eff(const rf_ipc_kernel *k, double per_sched, int ctas);
/* The table's rows rf_ipc_pool_eff reads at `per_sched` places per
 * scheduler with a weight other than 0 (bit i: row i, 2^i places); the
 * rows it leaves at 0 give the same balance whatever they hold. */
unsigned rf_ipc_pool_rows(double per_sched);

/* Steady-state IPC for m->warps active warps. */
void rf_ipc_steady(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                   const rf_ipc_params *p, rf_ipc_result *out);

/* Whole-kernel cycles of one SM running `ctas` CTAs with at most
 * `resident` at a time (active warps per CTA from k->warps_per_cta; m->warps
 * is overwritten per wave), and no fewer than a critical CTA needs: when
 * k's critical CTAs are those of a run of `ctas` CTAs, the one at position
 * j starts with wave floor(j / resident) and runs at least its lone cycles
 * (a kernel ends no earlier than its longest CTA started late, which a
 * short run or a few long CTAs make the critical path), or, with every
 * CTA's lone cycles known (k->nlone), the run's CTAs advance as a fluid
 * through the slots at the pace of the CTAs resident (analytic/ipc.c), nor than its DRAM loads take to pass the SM's share of
 * the bandwidth and return (k->dram_load_bytes, k->dram_latency).  Returns cycles; *ipc_out (may be NULL) gets the kernel's IPC,
 * *steady (may be NULL) the full-wave steady state. */
double rf_ipc_kernel_cycles(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                            const rf_ipc_params *p, long ctas, int resident,
                            double *ipc_out, rf_ipc_result *steady);

/* The last RF_IPC_MEMO calls of rf_ipc_kernel_cycles through a kernel whose
 * cycles_memo points here: a call whose kernel, machine and parameters are
 * an entry's to the byte, with its CTAs and resident count, returns that
 * entry's results (the least recently used entry takes a new call).  A
 * batch of design points of one kernel evaluates the GPU's own file for
 * every design of the banked family (calibrate/extrapolate.c); the memo
 * serves those from one evaluation.  One memo per thread. */
#define RF_IPC_MEMO 2
typedef struct rf_ipc_cycles_entry {
    bool used;
    unsigned long stamp;
    long ctas;
    int resident;
    rf_ipc_kernel k;
    rf_ipc_machine m;
    rf_ipc_params p;
    double cycles, ipc;
    rf_ipc_result steady;
} rf_ipc_cycles_entry;
struct rf_ipc_cycles_memo {
    unsigned long clock;
    rf_ipc_cycles_entry e[RF_IPC_MEMO];
};

#endif /* RF_IPC_H */
