/* design.h - a register-file design point: which organisation, and its
 * parameters.  One flat struct so one parameter table (rf_design_params[])
 * maps command-line options, batch CSV columns and the configuration dump to
 * fields; each design reads the fields that concern it.
 */
#ifndef RF_DESIGN_H
#define RF_DESIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "../common/param.h"

#define RF_DESIGN_LIST(X)                                                   \
    X(BASELINE, "baseline", "conventional banked register file")            \
    X(SHARING,  "sharing",  "Register Sharing (seed 003)")                   \
    X(FINEREG,  "finereg",  "FineReg active/pending register files (seed 000)") \
    X(VT,       "vt",       "Virtual Thread (seed 000 comparison point)")   \
    X(REGDRAM,  "regdram",  "Reg+DRAM, Zorua-like (seed 000 comparison point)") \
    X(REGMUTEX, "regmutex", "VT+RegMutex, BRS/SRP (seed 000 comparison point)") \
    X(STEALING, "stealing", "bank stealing (seed 001)")                      \
    X(HIRF,     "hirf",     "SRAM register cache over NVM RF, CAC (seed 002)") \
    X(RFC,      "rfc",      "hardware register-file cache (seed 004)")       \
    X(LTRF,     "ltrf",     "latency-tolerant register file (seed 004)")     \
    X(IDEAL,    "ideal",    "8x register file at baseline latency (seed 004)")

typedef enum rf_design_kind {
#define RF_DESIGN_ENUM_(id, name, help) RF_DESIGN_##id,
    RF_DESIGN_LIST(RF_DESIGN_ENUM_)
#undef RF_DESIGN_ENUM_
    RF_DESIGN_COUNT
} rf_design_kind;

/* NULL-terminated design names in enum order ("baseline", ...). */
extern const char *const rf_design_names[];

typedef enum rf_rc_index { RF_RC_CONCAT = 0, RF_RC_TEA = 1, RF_RC_FULL = 2 } rf_rc_index;
#define RF_NRCINDEX 3   /* index functions */
typedef enum rf_rc_assign { RF_ASSIGN_BASE = 0, RF_ASSIGN_CAC = 1, RF_ASSIGN_BEST = 2, RF_ASSIGN_WORST = 3,
                               RF_ASSIGN_CAC_PLAIN = 4 } rf_rc_assign;

typedef struct rf_design {
    int kind;            /* rf_design_kind */

    /* Register Sharing (seed 003). */
    double sharing;      /* F = 1 - t, fraction of a CTA's registers shared */
    bool owf;            /* owner-warp-first scheduling */
    bool unroll;         /* unrolled, first-use-ordered register declarations */
    bool dyn;            /* dynamic warp execution (non-owner memory instructions) */

    /* FineReg and comparison points (seed 000). */
    double acrf_kb;      /* KB, active-CTA register file */
    double pcrf_kb;      /* KB, pending-CTA register file */
    double live_frac;    /* live fraction of a stalled CTA's registers */
    int dram_ctas;       /* Reg+DRAM: pending CTAs whose context is in DRAM */
    double brs_frac;     /* RegMutex: base register set fraction */
    int switch_cycles;   /* VT, Reg+DRAM, FineReg: cycles to switch a CTA's pipeline context */

    /* Banked register file and bank stealing (seed 001). */
    int banks;           /* 0 = the GPU's rf_banks */
    int collectors;      /* 0 = the GPU's collectors */
    int scheduler;       /* 0 = the GPU's policy, else 1 + rf_sched_policy (lrr, gto, two-level) */
    bool read_steal;
    bool write_steal;

    /* HI-RF + CAC (seed 002). */
    int index;           /* rf_rc_index */
    int wbits, rbits;    /* concat index: warp and register bits (wbits -1: what rbits leaves) */
    int rc_entries;      /* 0 = the GPU's rc_entries */
    int assign;          /* rf_rc_assign */

    /* RFC, LTRF, ideal (seed 004). */
    int rf_config;       /* main-RF technology #1..#7 of seed 004 Table 2 */
    int active_warps;    /* two-level active pool per SM; 0 = the GPU's
                          * active_warps_per_sm, RF_POOL_PREFERRED = rfkit's
                          * RF_POOL_PER_SCHED per scheduler (rf_design_pool) */
    int interval_regs;   /* registers per register-interval */
    bool plus;           /* LTRF+: only live registers are moved */
    double latency_x;    /* main-RF latency multiplier over configuration #1;
                            0 = the technology's (Table 2); tolerable-latency sweeps */
} rf_design;

extern const rf_param rf_design_params[];
extern const size_t rf_design_nparams;

/* Defaults of every parameter and kind = BASELINE. */
void rf_design_init(rf_design *d);

/* Bank stealing's two flags as a command line or batch row gives them
 * (read, write: -1 not given, 0 off, 1 on), one rule for every command:
 * when a flag is given on, exactly the flags given on are on
 * ("--read-steal": read stealing only); otherwise each flag not given is
 * on, as design stealing's default ("--write-steal=0": read stealing
 * only). */
void rf_design_steal_flags(rf_design *d, int read, int write);

/* Set kind from a name; RF_EUNKNOWN with the list of names otherwise. */
int rf_design_set_kind(rf_design *d, const char *name, rf_err *err);

const char *rf_design_name(int kind);

/* One main-register-file technology of seed 004 Table 2 (multipliers relative
 * to configuration #1, a 256 KB HP-SRAM file with 16 banks of 16 KB). */
typedef struct rf_rf_tech {
    int config;            /* #1..#7 */
    const char *cell;      /* cell technology */
    double banks_x;        /* number of banks (1x = 16) */
    double bank_size_x;    /* bank size (1x = 16 KB) */
    const char *network;   /* bank interconnect */
    double capacity_x, area_x, power_x, cap_per_area_x, cap_per_power_x, latency_x;
} rf_rf_tech;

/* Warps in the two-level scheduler's active pool per SM: the design's
 * active_warps when above 0; RF_POOL_PER_SCHED per warp scheduler for
 * RF_POOL_PREFERRED; else the GPU's active_warps_per_sm, and
 * RF_POOL_PER_SCHED per scheduler when the GPU sets none.
 * Two values matter.  The seed's: 8 per SM (seed 004 Table 3, preset
 * maxwell-ltrf); on a 4-scheduler SM that is 2 per scheduler, and the pool
 * then limits the warps that hide short-latency dependences (BL on
 * maxwell-ltrf loses 23-42% against GTO on hotspot, libor, kmeans), which
 * the seed's design rests on not happening (Section 3.2: the pool "does not
 * limit TLP").  rfkit's preferred: 8 per scheduler, which keeps that premise
 * (within 1% of GTO/LRR); ask for it with active_warps = -1. */
#define RF_POOL_PER_SCHED 8
#define RF_POOL_PREFERRED (-1)
struct rf_gpu;
int rf_design_pool(const rf_design *d, const struct rf_gpu *gpu);

/* Row `config` (1..7) of seed 004 Table 2; NULL when out of range. */

const rf_rf_tech *rf_design_rf_tech(int config);

/* Main-register-file latency multiplier of an RFC or LTRF design point:
 * latency_x when set, else its technology's (Table 2); 1 for other designs. */
double rf_design_latency_x(const rf_design *d);

/* The "ideal" design of seed 004 Section 5: configuration #1 technology at
 * 8x capacity and 1x latency. */
const rf_rf_tech *rf_design_ideal_tech(void);

#endif /* RF_DESIGN_H */
