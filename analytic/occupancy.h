/* occupancy.h - CTAs and warps per SM under each register-file design.
 * (Implementation: analytic/occupancy.c; formulas and seed sections there.)
 */
#ifndef RF_OCCUPANCY_H
#define RF_OCCUPANCY_H

#include "../common/error.h"
#include "../inputs/gpu.h"
#include "design.h"

typedef enum rf_occ_limiter {
    RF_LIMIT_REGS,
    RF_LIMIT_SMEM,
    RF_LIMIT_THREADS,   /* threads or warps per SM */
    RF_LIMIT_CTAS,      /* CTA slots per SM */
    RF_LIMIT_GRID       /* not enough CTAs in the grid (set by callers) */
} rf_occ_limiter;

const char *rf_occ_limiter_name(int limiter);

typedef struct rf_occ_input {
    int regs;           /* registers per thread */
    int threads;        /* threads per CTA */
    int smem;           /* bytes of shared memory per CTA (static + dynamic) */
} rf_occ_input;

typedef struct rf_occ {
    int ctas_per_sm;    /* resident CTAs (active + pending for FineReg-like) */
    int warps_per_sm;   /* resident warps */
    double occupancy;   /* warps_per_sm / max_warps_per_sm (may exceed 1 for pending) */
    int limiter;        /* rf_occ_limiter binding ctas_per_sm */
    int active_ctas;    /* CTAs that may issue (= ctas_per_sm when no split) */
    int pending_ctas;   /* FineReg / VT / Reg+DRAM: CTAs parked */
    int active_warps;   /* warps that may issue */
    /* Register Sharing (seed 003 Eq. 1-4). */
    int sharing_m;      /* M: CTAs by registers with sharing */
    int shared_pairs;   /* S = M - g */
    int unshared;       /* U = 2g - M */
    /* Design storage overhead and main-RF properties. */
    double overhead_bits;   /* storage the design adds, bits per SM */
    double rf_capacity_x;   /* main register file capacity multiplier (LTRF configs) */
    double rf_latency_x;    /* main register file latency multiplier */
    double rf_area_x;       /* area multiplier */
    double rf_power_x;      /* power multiplier */
    /* Why: the shape and what each resource alone allows. */
    int warps_per_cta;      /* warps of one CTA */
    int regs_per_cta;       /* registers allocated to one CTA (with granularity) */
    int rf_regs;            /* registers the residency count used (ACRF for FineReg,
                             * the scaled main RF for LTRF/ideal) */
    int lim_regs;           /* CTAs the registers alone allow (-1 = no limit) */
    int lim_smem;           /* CTAs shared memory alone allows (-1 = no limit) */
    int lim_threads;        /* CTAs the thread/warp slots allow */
    int lim_ctas;           /* CTA slots */
    /* FineReg (seed 000 IV-V). */
    int pcrf_entries;       /* PCRF entries (one warp register each) */
    int pcrf_entries_per_cta; /* entries one pending CTA needs at live_frac */
    /* RegMutex. */
    int brs_regs;           /* base register set, registers per thread */
    int srp_regs;           /* shared register pool, registers */
} rf_occ;

/* The kernel-shape parameters (regs, threads, smem) as a parameter table, so
 * command-line and batch readers check them the same way. */
extern const rf_param rf_occ_input_params[];
extern const size_t rf_occ_input_nparams;

/* Bytes of the FineReg ACRF and PCRF for design d on gpu (acrf_kb/pcrf_kb,
 * or their defaults: PCRF = half the register file, ACRF = the rest). */
void rf_occ_finereg_split(const rf_gpu *gpu, const rf_design *d, double *acrf_bytes,
                          double *pcrf_bytes);

/* Occupancy of one kernel shape under design d on gpu.  Checks the input
 * against the part's limits (RF_ELIMIT with the field named). */
int rf_occ_compute(const rf_gpu *gpu, const rf_design *d, const rf_occ_input *in,
                   rf_occ *out, rf_err *err);

#endif /* RF_OCCUPANCY_H */
