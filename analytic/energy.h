/* energy.h - register-file energy: accesses times per-access energies plus
 * leakage times runtime.  (Formulas, assumptions, seed sections: energy.c.)
 */
#ifndef RF_ENERGY_H
#define RF_ENERGY_H

#include <stdbool.h>

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
    double dynamic_nj;    /* access energy: main_nj + cache_nj + xbar_nj */
    double leakage_nj;    /* leakage over the runtime */
    double total_nj;
    double main_nj;       /* ... of which main-file reads and writes */
    double cache_nj;      /* ... register-cache reads and writes */
    double xbar_nj;       /* ... crossbar transfers */
} rf_energy;

/* Register-file events, the common input of the closed form (estimate)
 * and the sampler (simulate): both count what happens and
 * rf_energy_counts_of maps it onto the structures, so the two price the
 * same mechanisms the same way.  Registers are warp registers (1,024 bits).
 * Without a register cache only reads, writes, xbar and cycles count. */
typedef struct rf_energy_events {
    double reads;         /* operands read for instructions, plus bank stealing's
                             read-backs of parked values */
    double writes;        /* results written, plus bank stealing's parking writes */
    double xbar;          /* operand transfers bank -> collector */
    double cache_hits;    /* reads the register cache served */
    double fills;         /* registers copied main file -> cache besides operand reads
                             (LTRF PREFETCH and activation refetches) */
    double miss_fills;    /* read misses also written into the cache (RFC allocation) */
    double writebacks;    /* registers the cache wrote back to the main file */
    double bypass_writes; /* results written straight to the main file (LTRF: outside
                             the warp's partition) */
    double cycles;        /* runtime, cycles (one SM) */
} rf_energy_events;

/* Access counts of the structures for events ev; cache: the organisation
 * has a register cache (rf_rf_org.cache_bits > 0). */
void rf_energy_counts_of(bool cache, const rf_energy_events *ev, rf_energy_counts *out);

/* Energy of events ev on organisation org: the accesses of
 * rf_energy_counts_of at org's rates, and the leakage of `files` register
 * files (the SMs in use) over ev->cycles.  The common path of estimate and
 * simulate. */
void rf_energy_of_events(const rf_rf_org *org, const rf_energy_events *ev, double clock_mhz,
                         double files, rf_energy *out);

/* Energy of one SM for the given counts; clock_mhz converts cycles to time. */
void rf_energy_compute(const rf_energy_rates *r, const rf_energy_counts *c,
                       double clock_mhz, rf_energy *out);

#endif /* RF_ENERGY_H */
