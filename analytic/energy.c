/* energy.c - register-file energy of one SM.
 *
 *   E = sum_s n_s e_s + P_leak t,        t = cycles / (f_MHz 1e6)
 *
 * Reference: seed 002 Table 3 (NVSim, 22 nm), read with its Table 2 and
 * Section 2.2.  The register file of one SM holds 65,536 32-bit registers
 * (256 KB) in 8 banks; each bank is a cell array of 4096 rows of 64 bits
 * (32 KB, Fig. 2).  NVSim models one such bank: its per-access energies
 * over the 64-bit word give Table 3's pJ/bit, and its leakage is Table 3's
 * leakage.  So:
 *   - one warp-register access moves 32 threads x 32 bits = 1,024 bits
 *     (seed 001 footnote 1; also one register-cache entry, Table 2), priced
 *     at 1,024 x the per-bit figure: SRAM read 0.203, write 0.191 pJ/bit;
 *     NVM (STT-MRAM) read 0.239, write 0.300 pJ/bit;
 *   - leakage is per bank: the reference file (256 KB, 8 banks) leaks
 *     8 x 248.7 = 1,989.6 mW (SRAM) or 8 x 16.2 = 129.6 mW (NVM) per SM;
 *   - the SRAM register cache (256 entries x 1,024 bits = 32 KB per SM,
 *     64 per sub-core) leaks at the SRAM bank's rate per bit: one bank's
 *     worth, 248.7 mW per SM.
 * Why per bank and not per 256 KB file: the seed attributes NVM's 63.3%
 * and HI-RF's 70.6% energy savings to SRAM leakage (Sections 2.2 and 5.4),
 * which needs leakage to be roughly three quarters of the SRAM file's
 * energy (NVM's per-bit access energies are higher than SRAM's, and NVM
 * runs longer); seed 001 Section IV-C likewise puts leakage at up to 70%
 * of register-file energy.  At 1,132 MHz a 248.7 mW file would leak
 * 220 pJ per cycle against 200-1,000 pJ per cycle of 1,024-bit accesses
 * (dynamic energy dominating); 8 banks' leakage (1,758 pJ per cycle)
 * gives the seeds' share.  Clock: the GPU preset's (volta-hirf: 1,132 MHz).
 * The choice is general: every design prices its storage with Table 3.
 * Bank scaling (seed 001 Section III-A.4, Fig. 3(c)(d)), relative to the
 * reference organisation (256 KB in 8 banks of 32 KB: 256 rows of
 * 1,024-bit words per bank):
 *   e_bank(B) = e (1 - b + b * rows(B) / rows_ref)     bitline share b = 0.15:
 *               shorter bitlines with more banks make the array slightly
 *               cheaper per access (assumption for b);
 *   e_xbar(B) = x_ref sqrt((B / 16) (C / 16))          transfer energy grows
 *               with the crossbar's side; x_ref = 0.1 pJ/bit (assumption,
 *               about half a bank read; not part of seed 002's register
 *               energy, which holds the cache and the file only);
 *   P_leak(B) = P_ref (0.5 bits / bits_ref + 0.5 B / 8)   leakage follows
 *               the area split of area.c (half cells, half per-bank
 *               periphery).
 * Technologies (seed 004 Table 2): a main file of configuration k has
 * power_x times the dynamic energy and leakage of configuration #1 of the
 * same organisation (the table's power column, relative to #1 under the same
 * workload).  The register cache (HI-RF, RFC, LTRF) is SRAM at the Table 3
 * per-bit figures, its leakage per bit that of the SRAM bank; the design's
 * bookkeeping storage leaks the same per bit.
 * Events to accesses (rf_energy_counts_of), shared by the closed form and
 * the sampler.  Without a register cache every operand read is a main-file
 * read and every write a main-file write.  With one:
 *   cache reads  = hits
 *   main reads   = (reads - hits) + fills     misses read the main file;
 *                                             PREFETCH/refetch copy into the cache
 *   cache writes = (writes - bypass) + fills + miss_fills
 *   main writes  = writebacks + bypass
 * Crossbar transfers are counted by the caller: operands that leave a bank
 * for a collector (HI-RF's cache sits at the collectors, so its hits do not
 * cross; RFC's and LTRF's cache is banked behind the crossbar, so they
 * do).  The fill path between main file and cache is priced by the two
 * arrays' access energies only.
 * Outputs in nJ for one SM; callers multiply by the SMs in use.
 */
#include "energy.h"

#include <math.h>

#define WORD_BITS 1024.0
#define BANK_BITS (4096.0 * 64)                 /* seed 002 Table 3's bank: 32 KB */
#define REF_BANKS 8                             /* seed 002 Table 2 */
#define REF_BITS (REF_BANKS * BANK_BITS)        /* 256 KB */
#define REF_ROWS (BANK_BITS / WORD_BITS)        /* 256 rows of 1,024-bit words */
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

    double leak = cell->leak_mw * REF_BANKS
                * (RF_AREA_ARRAY_FRAC * main_bits_ref / REF_BITS
                   + (1.0 - RF_AREA_ARRAY_FRAC) * banks / REF_BANKS);
    leak *= tech;
    double sram_bit_mw = rf_energy_sram.leak_mw / BANK_BITS;
    out->leak_mw = leak + (org->cache_bits + org->overhead_bits) * sram_bit_mw;
}

void rf_energy_counts_of(bool cache, const rf_energy_events *ev, rf_energy_counts *out)
{
    out->xbar = ev->xbar;
    out->cycles = ev->cycles;
    if (!cache) {
        out->main_reads = ev->reads;
        out->main_writes = ev->writes;
        out->cache_reads = out->cache_writes = 0;
        return;
    }
    out->cache_reads = ev->cache_hits;
    out->main_reads = ev->reads - ev->cache_hits + ev->fills;
    out->cache_writes = ev->writes - ev->bypass_writes + ev->fills + ev->miss_fills;
    out->main_writes = ev->writebacks + ev->bypass_writes;
}

void rf_energy_compute(const rf_energy_rates *r, const rf_energy_counts *c,
                       double clock_mhz, rf_energy *out)
{
    out->main_nj = (c->main_reads * r->read_pj + c->main_writes * r->write_pj) * 1e-3;
    out->cache_nj = (c->cache_reads * r->cache_read_pj + c->cache_writes * r->cache_write_pj) * 1e-3;
    out->xbar_nj = c->xbar * r->xbar_pj * 1e-3;
    out->dynamic_nj = out->main_nj + out->cache_nj + out->xbar_nj;
    double seconds = clock_mhz > 0 ? c->cycles / (clock_mhz * 1e6) : 0.0;
    out->leakage_nj = r->leak_mw * 1e-3 * seconds * 1e9;
    out->total_nj = out->dynamic_nj + out->leakage_nj;
}

void rf_energy_of_events(const rf_rf_org *org, const rf_energy_events *ev, double clock_mhz,
                         double files, rf_energy *out)
{
    rf_energy_rates r;
    rf_energy_rates_of(org, &r);
    rf_energy_counts c;
    rf_energy_counts_of(org->cache_bits > 0, ev, &c);
    rf_energy_compute(&r, &c, clock_mhz, out);
    out->leakage_nj *= files;
    out->total_nj = out->dynamic_nj + out->leakage_nj;
}
