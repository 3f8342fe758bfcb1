/* prefetch.h - closed-form stall terms of register-file caches over a slow
 * main register file (seed 004): LTRF/LTRF+ PREFETCH and activation stalls,
 * RFC miss stalls.  (Formulas, assumptions and units: analytic/prefetch.c.)
 */
#ifndef RF_PREFETCH_H
#define RF_PREFETCH_H

#include <stdbool.h>

#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/kir.h"
#include "design.h"
#include "modelparam.h"

#define RF_PF_NBANKS 10       /* main-file bank counts 2^0 .. 2^9 characterised */
#define RF_PF_RACE_K 16       /* write races: instructions left in the interval, 0 .. K - 1 */
#define RF_PF_NLAT 3          /* result latency classes: ALU, SFU, shared/constant */
#define RF_PF_REUSE 256       /* LRU stack distances tracked (general registers) */

/* What the code does, per thread, for one interval size N (static analysis
 * weighted by the profile's block and edge frequencies). */
typedef struct rf_pf_kernel {
    int regs;             /* N, registers per register-interval */
    bool plus;            /* LTRF+ figures (live registers only) */
    double insts;         /* dynamic instructions */
    double pf_ops;        /* PREFETCH operations that fetch at least one register */
    double pf_regs;       /* registers those operations fetch */
    double act;           /* active-pool exits: first uses of pending long-latency
                             results (loads issued back to back leave once),
                             barriers */
    double act_regs;      /* registers refetched at those re-entries */
    double act_ops;       /* re-entries that refetch at least one register */
    double pf_depth[RF_PF_NBANKS];  /* sum over the PREFETCH operations of the
                             registers on the busiest main bank, for 2^k banks
                             (bank = register mod 2^k, the sampler's map for
                             one warp) */
    double act_depth[RF_PF_NBANKS]; /* ... over the activation refetches */
    double bar_act, bar_regs, bar_ops, bar_wb; /* the barriers' part of act, act_regs,
                             act_ops and act_wb (every warp taken to wait there) */
    double bar_depth[RF_PF_NBANKS]; /* ... of act_depth */
    double reads;         /* register reads per instruction */
    double mean_live;     /* registers live per instruction (dynamic mean) */
    double mean_len;      /* instructions per PREFETCH operation */
    double writes;        /* register results (general registers) */
    double wr_safe;       /* ... that land in the partition whatever their timing
                             (the register is in the next interval's set too, or
                             RF_PF_RACE_K or more instructions of the interval follow) */
    double wr_race[RF_PF_NLAT][RF_PF_RACE_K]; /* ... that must land before the warp
                             issues k more instructions (k: the index) to stay in
                             the partition, by result latency class */
    double wr_race_pf[RF_PF_NLAT][RF_PF_RACE_K]; /* ... of which at a PREFETCH (the
                             interval left, not the pool) */
    double act_wb;        /* registers written back at pool exits (the partition;
                             LTRF+: its live part) */
    double pf_wb;         /* registers written in an interval that leave the partition
                             at the next PREFETCH (dirty evictions) */
    double reuse[RF_PF_REUSE + 1]; /* RFC: share of register reads whose register the
                             warp touched (read or wrote) with fewer than c other
                             distinct registers since (c: the index; an own-warp
                             LRU stack distance below c), along sampled paths;
                             rf_pf_reuse fills it (RFC only) */
    double reuse_w[RF_PF_REUSE + 1]; /* ... the same for register writes */
    double reuse_span[RF_PF_REUSE + 1]; /* ... share of register reads below c whose
                             warp left the active pool since the register's last
                             touch (the reuse spans a pool exit) */
    double reuse_u[3][RF_PF_REUSE + 1]; /* ... reuse, read by an instruction of unit
                             class u (ALU, SFU, LD/ST; analytic/kchar.c
                             rf_kchar_unit_of) */
    double reuse_span_u[3][RF_PF_REUSE + 1]; /* ... reuse_span, by class */
    double reads_u[3];    /* register reads per instruction of class u */
    double pool_in;       /* RFC under a two-level pool: the warps in the pool (0: none) */
    double miss_delay;    /* RFC: cycles a missing operand arrives late (L - 1) for
                             miss_dep; 0 when rf_pf_rfc_walks has not run */
    double miss_dep;      /* RFC: stall cycles per instruction on other producers
                             that a lone warp adds when every instruction's results
                             come miss_delay cycles late (rf_pf_rfc_walks) */
} rf_pf_kernel;

/* Characterise physical function f under profile prof for interval size
 * regs (LTRF+ figures when plus).  0 or a negative rf code. */
int rf_pf_characterise(const rf_func *f, const rf_profile *prof, int regs, bool plus,
                       rf_pf_kernel *out, rf_err *err);

/* RFC: fill out->reuse and out->reuse_w (the reuse profile of f's warp
 * paths under prof; the rest of *out is kept).  0 or a negative rf code. */
int rf_pf_reuse(const rf_func *f, const rf_profile *prof, rf_pf_kernel *out, rf_err *err);

/* LTRF: CTAs of wpc warps.  The last warp to reach a barrier passes it
 * without leaving the pool, so only (wpc - 1) / wpc of the barrier exits
 * rf_pf_characterise counted (every warp waiting) happen: the barrier parts
 * of act, act_regs, act_ops, act_depth and act_wb are scaled by it (once;
 * the bar_ fields are then cleared). */
void rf_pf_cta_warps(rf_pf_kernel *pk, int wpc);

/* RFC: rf_pf_reuse, and out->miss_delay and out->miss_dep for design d's
 * main file (the lone-warp walk of analytic/kchar.c on CTAs of wpc warps,
 * with and without the miss delay), the walks on up to jobs threads (the
 * same figures whatever jobs; the rest of *out is kept).  0 or a negative
 * rf code. */
int rf_pf_rfc_walks(const rf_gpu *gpu, const rf_design *d, const rf_func *f,
                    const rf_profile *prof, int wpc, int jobs, rf_pf_kernel *out, rf_err *err);

/* Free parameters (calibrated; rf_pf_mparams lists them). */
typedef struct rf_pf_params {
    double pf_scale;      /* multiplier on the per-operation PREFETCH/activation time */
    double pf_reg;        /* multiplier on the per-register time (crossbar, bank queues) */
    double rfc_hit;       /* multiplier on the RFC hit rate of the reuse model */
    double rfc_scale;     /* multiplier on RFC miss stalls */
    double ltrf_conflict; /* LTRF: multiplier on the queueing waits at the register
                             cache's banks (on top of conflict_scale) */
} rf_pf_params;

extern const rf_mparam rf_pf_mparams[];
extern const size_t rf_pf_nmparams;

void rf_pf_params_default(rf_pf_params *p);

typedef struct rf_pf_terms {
    double latency;       /* cycles, main-file access */
    double t_fetch;       /* cycles, one PREFETCH of the mean size */
    double stall_pf;      /* cycles per instruction on a warp's path: PREFETCH */
    double stall_act;     /* ... activations */
    double rfc_hit;       /* RFC read hit rate */
    double rfc_wb;        /* RFC write-backs per result: results whose register is not
                             in the cache (a new dirty line, evicted dirty later) */
    double stall_rfc;     /* ... RFC misses (the late results' dependants) */
    double extra_stall;   /* sum for the IPC model (rf_ipc_machine.extra_stall) */
    double extra_hold;    /* cycles a collector is held longer (RFC misses), the
                             mean over the instructions */
    double class_hold[3]; /* ... for an instruction of unit class u (ALU, SFU, LD/ST):
                             the misses of its own operands */
    double pf_wb_late;    /* LTRF: per instruction, PREFETCH dirty evictions replaced by
                             a result that landed in the main file (pf_wb's late part) */
    double cache_writes;  /* LTRF: share of the results written into the cache's banks
                             (the rest go to the main file); 1 otherwise */
} rf_pf_terms;

/* Stall terms of design d (rfc or ltrf; others give zeros) on gpu; pool:
 * warps sharing an RFC (the two-level active pool, else all resident). */
void rf_pf_terms_of(const rf_gpu *gpu, const rf_design *d, const rf_pf_kernel *pk,
                    double pool, const rf_pf_params *p, rf_pf_terms *out);

#endif /* RF_PREFETCH_H */
