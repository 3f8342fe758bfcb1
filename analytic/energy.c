/* energy.c - register-file energy of one SM.
 *
 *   E = sum_s n_s e_s + P_leak t,        t = cycles / (f_MHz 1e6)
 *
 * Per-access energies (a warp register is 1024 bits, seed 001 footnote 1):
 *   SRAM read 0.203, write 0.191 pJ/bit; NVM (STT-MRAM) read 0.239, write
 *   0.300 pJ/bit; leakage 248.7 mW (SRAM) and 16.2 mW (NVM) for the 256 KB
 *   file of seed 002 (Table 2: 65,536 registers; Table 3: the figures).
 * Bank scaling (seed 001 Section III-A.4, Fig. 3(c)(d)), taking Table 3 as
 * a 256 KB file of 16 banks (16 KB banks, seed 004 Table 2 #1):
 *   e_bank(B) = e (1 - b + b * rows(B) / rows_ref)     bitline share b = 0.15:
 *               shorter bitlines with more banks make the array slightly
 *               cheaper per access (assumption for b);
 *   e_xbar(B) = x_ref sqrt((B / 16) (C / 16))          transfer energy grows
 *               with the crossbar's side; x_ref = 0.1 pJ/bit (assumption,
 *               about half a bank read);
 *   P_leak(B) = P (0.5 bits / bits_ref + 0.5 B / 16)   leakage follows the
 *               area split of area.c (half cells, half per-bank periphery).
 * Technologies (seed 004 Table 2): a main file of configuration k has
 * power_x times the dynamic energy and leakage of configuration #1 of the
 * same organisation (the table's power column, relative to #1 under the same
 * workload).  The register cache (HI-RF, RFC, LTRF) is SRAM at the Table 3
 * per-bit figures, its leakage per bit that of the 256 KB SRAM file; the
 * design's bookkeeping storage leaks the same per bit.
 * Outputs in nJ for one SM; callers multiply by the SMs in use.
 */
#include "energy.h"

#include <math.h>

#define WORD_BITS 1024.0
#define REF_BITS (256.0 * 1024 * 8)
#define REF_ROWS (16.0 * 1024 * 8 / WORD_BITS)   /* rows of a 16 KB bank */
#define BITLINE_SHARE 0.15
#define XBAR_PJ_BIT 0.1

const rf_cell_energy rf_energy_sram = {0.203, 0.191, 248.7};
const rf_cell_energy rf_energy_nvm = {0.239, 0.300, 16.2};

void rf_energy_rates_of(const rf_rf_org *org, rf_energy_rates *out)
{
    const rf_cell_energy *cell = org->nvm ? &rf_energy_nvm : &rf_energy_sram;
    double tech = 1.0;
    if (!org->nvm) {
        const rf_rf_tech *t = rf_design_rf_tech(org->config);
        if (t)
            tech = t->power_x;
    }
    int banks = org->banks > 0 ? org->banks : 1;
    /* Configuration k holds cap_x times the bits; its power column already
     * covers that, so bank scaling uses the capacity of configuration #1. */
    const rf_rf_tech *t = org->nvm ? NULL : rf_design_rf_tech(org->config);
    double main_bits_ref = t ? org->main_bits / t->capacity_x : org->main_bits;
    double rows = main_bits_ref / banks / WORD_BITS;
    double bank_x = 1.0 - BITLINE_SHARE + BITLINE_SHARE * rows / REF_ROWS;
    out->read_pj = cell->read_pj_bit * WORD_BITS * bank_x * tech;
    out->write_pj = cell->write_pj_bit * WORD_BITS * bank_x * tech;
    out->xbar_pj = XBAR_PJ_BIT * WORD_BITS
                 * sqrt((double)banks / RF_AREA_REF_BANKS * org->collectors / RF_AREA_REF_COLLECTORS);
    out->cache_read_pj = rf_energy_sram.read_pj_bit * WORD_BITS;
    out->cache_write_pj = rf_energy_sram.write_pj_bit * WORD_BITS;

    double leak = cell->leak_mw * (RF_AREA_ARRAY_FRAC * main_bits_ref / REF_BITS
                                   + (1.0 - RF_AREA_ARRAY_FRAC) * banks / RF_AREA_REF_BANKS);
    leak *= tech;
    double sram_bit_mw = rf_energy_sram.leak_mw / REF_BITS;
    out->leak_mw = leak + (org->cache_bits + org->overhead_bits) * sram_bit_mw;
}

void rf_energy_compute(const rf_energy_rates *r, const rf_energy_counts *c,
                       double clock_mhz, rf_energy *out)
{
    double pj = c->main_reads * r->read_pj + c->main_writes * r->write_pj
              + c->xbar * r->xbar_pj + c->cache_reads * r->cache_read_pj
              + c->cache_writes * r->cache_write_pj;
    out->dynamic_nj = pj * 1e-3;
    double seconds = clock_mhz > 0 ? c->cycles / (clock_mhz * 1e6) : 0.0;
    out->leakage_nj = r->leak_mw * 1e-3 * seconds * 1e9;
    out->total_nj = out->dynamic_nj + out->leakage_nj;
}
