/* conflict.h - register-file bank conflicts over B single-ported banks.
 * (Formulas, assumptions and seed sections: analytic/conflict.c.)
 */
#ifndef RF_CONFLICT_H
#define RF_CONFLICT_H

#include <stdbool.h>
#include <stddef.h>

#include "modelparam.h"

/* Largest number of simultaneous accesses the exact occupancy forms take. */
#define RF_BANK_MAX_K 64

/* Probability that k accesses, each to a uniformly random one of B banks,
 * all hit different banks (the birthday form B!/((B-k)! B^k)). */
double rf_bank_p_noconflict(int k, int banks);

/* Expected number of distinct banks touched: B (1 - (1 - 1/B)^k). */
double rf_bank_expected_distinct(int k, int banks);

/* Expected cycles to serve k simultaneous accesses on B single-ported banks
 * (the expected largest number of accesses to one bank); 0 when k = 0. */
double rf_bank_expected_cycles(int k, int banks);

/* Free parameters of the queueing and stealing forms. */
typedef struct rf_conflict_params {
    double scale;        /* multiplier on the queueing waits (1 = M/D/1) */
    double steal_cand;   /* chance a candidate warp's read can be moved ahead */
    double dead_reg;     /* chance a bank holds a dead register (Rfree valid) */
    double forced;       /* fraction of stolen writes forced back by a RAW/WAW */
} rf_conflict_params;

extern const rf_mparam rf_conflict_mparams[];
extern const size_t rf_conflict_nmparams;

/* Per-bank load: accesses per bank per cycle (utilisations). */
typedef struct rf_bank_load {
    double rho_read;     /* reads per bank per cycle */
    double rho_write;    /* writes per bank per cycle */
    int banks;           /* B */
    bool read_steal;     /* seed 001 Section IV-B */
    bool write_steal;    /* seed 001 Section IV-C */
    double write_service;/* cycles a write holds its bank (NVM write-back: 4); 0 = 1 */
} rf_bank_load;

typedef struct rf_bank_wait {
    double inter_read;   /* cycles a read waits behind other reads */
    double inter_write;  /* cycles a read waits behind writes (write priority) */
    double read_wait;    /* inter_read + inter_write after stealing, cycles */
    double write_wait;   /* cycles a write waits (writes only queue behind writes) */
    double read_removed; /* fraction of the inter-read penalty read stealing removes */
    double write_removed;/* fraction of the inter-write penalty write stealing removes */
    double stolen_writes;/* fraction of writes that are stolen (each adds one read and one write) */
} rf_bank_wait;

/* Queueing waits at one bank with write priority, and what stealing removes.
 * Utilisations at or above 1 are clamped just below 1 (the wait is then
 * large but finite, so fixed-point solvers stay continuous). */
void rf_bank_waits(const rf_bank_load *load, const rf_conflict_params *p,
                   rf_bank_wait *out);

#endif /* RF_CONFLICT_H */
