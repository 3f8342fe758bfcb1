/* energy.h - register-file energy: accesses times per-access energies plus
 * leakage times runtime.  (Formulas, assumptions, seed sections: energy.c.)
 */
#ifndef RF_ENERGY_H
#define RF_ENERGY_H

#include "area.h"

/* Per-bit figures of seed 002 Table 3. */
typedef struct rf_cell_energy {
    double read_pj_bit;   /* pJ per bit read */
    double write_pj_bit;  /* pJ per bit written */
    double leak_mw;       /* mW for one 32 KB bank (4096 rows x 64 bits) */
} rf_cell_energy;

extern const rf_cell_energy rf_energy_sram;   /* 0.203, 0.191, 248.7 */
extern const rf_cell_energy rf_energy_nvm;    /* 0.239, 0.300, 16.2 */

/* Access counts of one SM over the time being costed. */
typedef struct rf_energy_counts {
    double main_reads;    /* warp-register reads of the main file */
    double main_writes;   /* warp-register writes of the main file */
    double xbar;          /* operand transfers through the crossbar */
    double cache_reads;   /* register-cache reads */
    double cache_writes;  /* register-cache writes */
    double cycles;        /* runtime, cycles */
} rf_energy_counts;

/* Per-access figures of an organisation (pJ per warp register, 1024 bits). */
typedef struct rf_energy_rates {
    double read_pj, write_pj;             /* main file */
    double xbar_pj;                       /* one operand transfer */
    double cache_read_pj, cache_write_pj; /* register cache */
    double leak_mw;                       /* main file + cache + overhead storage */
} rf_energy_rates;

void rf_energy_rates_of(const rf_rf_org *org, rf_energy_rates *out);

typedef struct rf_energy {
    double dynamic_nj;    /* access energy */
    double leakage_nj;    /* leakage over the runtime */
    double total_nj;
} rf_energy;

/* Energy of one SM for the given counts; clock_mhz converts cycles to time. */
void rf_energy_compute(const rf_energy_rates *r, const rf_energy_counts *c,
                       double clock_mhz, rf_energy *out);

#endif /* RF_ENERGY_H */
