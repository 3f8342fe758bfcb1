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
    double steal_boost;  /* extra read stealing with write stealing on (share of s_c) */
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
    double ahead_max;    /* finite source: reads that can queue ahead of a read
                          * besides the access in service (operand collectors
                          * per bank); 0 = no bound (the open queue) */
    double write_idc;    /* factor on the waits writes cause, for non-Poisson
                          * write arrivals (Kingman: their index of dispersion
                          * times the share charged here; HI-RF write-backs,
                          * analytic/rccollide.c); 0 = Poisson (1) */
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

/* Largest utilisation the queueing forms use (keeps waits finite). */
#define RF_BANK_RHO_MAX 0.985

/* The same forms (analytic/conflict.c states them), inline for the IPC
 * model's fixed-point loop. */
static inline void rf_bank_waits_inline(const rf_bank_load *load, const rf_conflict_params *p,
                                        rf_bank_wait *out)
{
    double rr = load->rho_read > 0 ? load->rho_read : 0.0;
    double rw = load->rho_write > 0 ? load->rho_write : 0.0;
    double rho = rr + rw;
    if (rho > RF_BANK_RHO_MAX) {
        rr *= RF_BANK_RHO_MAX / rho;
        rw *= RF_BANK_RHO_MAX / rho;
        rho = RF_BANK_RHO_MAX;
    }
    double c = p->scale;
    double sw = load->write_service > 1 ? load->write_service : 1.0;
    double r0 = (rr + rw * sw) / 2.0;
    /* One division for the three queue factors 1/(1-rw), 1/(1-rho), 1/(1-rr). */
    double dw = 1.0 - rw, dh = 1.0 - rho, dr = 1.0 - rr;
    double inv = 1.0 / (dw * dh * dr);
    double inv_w = inv * dh * dr;
    out->write_wait = c * r0 * inv_w;
    double read_wait = c * r0 * inv * dr;
    if (load->ahead_max > 0 && read_wait > c * (r0 + load->ahead_max))
        read_wait = c * (r0 + load->ahead_max);
    out->inter_read = c * (rr / 2.0) * (inv * dw * dh);
    out->inter_write = read_wait - out->inter_read;
    if (out->inter_write < 0)
        out->inter_write = 0;
    if (load->write_idc > 0) {
        /* Non-Poisson writes: the waits they cause scale with their
         * arrival variability (Kingman, deterministic service). */
        out->write_wait *= load->write_idc;
        out->inter_write *= load->write_idc;
    }
    double other_idle = 0.0;
    if (load->write_steal) {
        /* 1 - rho^(B-1), by repeated squaring */
        double r = 1.0, b = rho;
        for (int e = (load->banks > 1 ? load->banks : 1) - 1; e; e >>= 1) {
            if (e & 1)
                r *= b;
            b *= b;
        }
        other_idle = 1.0 - r;
    }
    double idle = 1.0 - rho;
    double ra = p->steal_cand * idle * (load->write_steal ? 1.0 + p->steal_boost : 1.0);
    out->read_removed = load->read_steal ? (ra < 1.0 ? ra : 1.0) : 0.0;
    out->write_removed = load->write_steal ? p->dead_reg * other_idle * (1.0 - p->forced) : 0.0;
    out->stolen_writes = load->write_steal ? rr * p->dead_reg * other_idle : 0.0;
    /* A read stolen ahead dodges whatever it would have waited for; a
     * write parked elsewhere no longer blocks the read it met. */
    out->read_wait = (1.0 - out->read_removed)
                   * (out->inter_read + out->inter_write * (1.0 - out->write_removed));
}

#endif /* RF_CONFLICT_H */
