/* area.c - silicon area of a banked register file, its crossbar, register
 * cache and design bookkeeping storage.
 *
 * Model (per SM, mm^2):
 *   A_array  = bits * a_cell                              (cells)
 *   A_periph = p_bank * B                                 (per-bank circuitry)
 *   A_xbar   = x_ref * (B / 16) * (C / 16)                (bit-sliced crossbar,
 *                                                          wire-dominated: B x C)
 *   A_main   = (A_array + A_periph + A_xbar) * t
 *   A_cache  = cache_bits * a_cache
 *   A_over   = overhead_bits * a_cell / 0.5               (small SRAM, same
 *                                                          array efficiency)
 * Seed 001 Section III-A.2 / VI-A: with the capacity fixed at 128 KB the
 * array area is constant while periphery and crossbar grow with B; an 8-bank
 * file is 25% smaller than a 16-bank one and 50% smaller than a 32-bank one,
 * i.e. A(8) : A(16) : A(32) = 0.75 : 1 : 1.5.  A form a + b (B / 16) meets
 * all three with a = b = 0.5: half the 16-bank area is cells, half scales
 * with B.  The scaling half is split 0.3 periphery / 0.2 crossbar
 * (assumption; the seed gives the sum).  a_cell = 0.171 um^2 (a 32 nm 6T
 * SRAM cell, the node of seed 001 Table III; absolute mm^2 are indicative,
 * ratios are the seed's).  p_bank and x_ref are set from the 128 KB,
 * 16-bank reference: A_ref = 2 * 2^20 * a_cell, p_bank = 0.3 A_ref / 16,
 * x_ref = 0.2 A_ref.
 *
 * Technology t: seed 004 Table 2 (rf_design_rf_tech) gives area per capacity of each main-file
 * configuration relative to #1, so t = area_x / cap_x.  An STT-MRAM main file
 * (seed 002 Table 1) is 0.499 of the SRAM file; HI-RF (NVM file + SRAM
 * cache) is 0.945, so a register-cache bit costs
 *   a_cache = (0.945 - 0.499) * A_sram(256 KB, 8 banks) / (256 * 1024 bits)
 * (the cache of seed 002 Table 2: 256 entries of 1024 bits per SM, over a
 * 256 KB file of 8 banks).
 */
#include "area.h"

#include <math.h>
#include <stdio.h>

#define CELL_UM2 0.171
#define REF_BITS (128.0 * 1024 * 8)
#define NVM_AREA_X 0.499
#define HIRF_AREA_X 0.945

static double ref_total_mm2(void)
{
    return REF_BITS * CELL_UM2 * 1e-6 / RF_AREA_ARRAY_FRAC;
}

/* SRAM array + periphery + crossbar, before technology scaling. */
static void sram_parts(double bits, int banks, int collectors, double *array,
                       double *periph, double *xbar)
{
    double ref = ref_total_mm2();
    *array = bits * CELL_UM2 * 1e-6;
    *periph = RF_AREA_PERIPH_FRAC * ref / RF_AREA_REF_BANKS * banks;
    *xbar = RF_AREA_XBAR_FRAC * ref * ((double)banks / RF_AREA_REF_BANKS)
          * ((double)collectors / RF_AREA_REF_COLLECTORS);
}

void rf_area_compute(const rf_rf_org *org, rf_area *out)
{
    double a, p, x;
    sram_parts(org->main_bits, org->banks, org->collectors, &a, &p, &x);
    double t = 1.0;
    if (org->nvm) {
        t = NVM_AREA_X;
    } else {
        const rf_rf_tech *tech = rf_design_rf_tech(org->config);
        if (tech)
            t = tech->area_x / tech->capacity_x;
    }
    out->array_mm2 = a * t;
    out->periph_mm2 = p * t;
    out->xbar_mm2 = x * t;

    double ca, cp, cx;
    sram_parts(256.0 * 1024 * 8, 8, RF_AREA_REF_COLLECTORS, &ca, &cp, &cx);
    double cache_bit = (HIRF_AREA_X - NVM_AREA_X) * (ca + cp + cx) / (256.0 * 1024);
    out->cache_mm2 = org->cache_bits * cache_bit;
    out->overhead_mm2 = org->overhead_bits * CELL_UM2 * 1e-6 / RF_AREA_ARRAY_FRAC;
    out->total_mm2 = out->array_mm2 + out->periph_mm2 + out->xbar_mm2 + out->cache_mm2
                   + out->overhead_mm2;
}

int rf_area_org(const rf_gpu *gpu, const rf_design *d, const rf_occ *occ,
                rf_rf_org *org, rf_err *err)
{
    org->main_bits = (double)gpu->regs_per_sm * 32.0;
    org->banks = d->banks > 0 ? d->banks : gpu->rf_banks;
    org->collectors = d->collectors > 0 ? d->collectors : gpu->collectors;
    org->config = 1;
    org->nvm = false;
    org->cache_bits = 0;
    org->overhead_bits = occ ? occ->overhead_bits : 0.0;
    if (org->banks < 1)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "banks", "must be at least 1 (got %d)",
                          org->banks);
    if (org->collectors < 1)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "collectors",
                          "must be at least 1 (got %d)", org->collectors);

    double rc_bits = (double)(d->rc_entries > 0 ? d->rc_entries : gpu->rc_entries)
                   * gpu->rc_line_bits * (gpu->subcores > 0 ? gpu->subcores : 1);
    switch (d->kind) {
    case RF_DESIGN_HIRF:
        org->nvm = true;
        org->cache_bits = rc_bits;
        /* The design's storage overhead (analytic/overhead.c) lists the
         * cache's data, counted here as cache_bits: keep its tags only. */
        org->overhead_bits = org->overhead_bits > rc_bits ? org->overhead_bits - rc_bits : 0.0;
        break;
    case RF_DESIGN_RFC:
    case RF_DESIGN_LTRF: {
        const rf_rf_tech *t = rf_design_rf_tech(d->rf_config);
        if (!t)
            return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "rf_config",
                              "must be 1..7 (got %d)", d->rf_config);
        org->config = d->rf_config;
        org->main_bits *= t->capacity_x;
        /* RFC: the GPU's (or design's) cache; LTRF: a partition of
         * interval_regs warp registers per active-pool warp (16 KB for seed
         * 004's 8 warps x 16 registers). */
        org->cache_bits = d->kind == RF_DESIGN_RFC || d->rc_entries > 0
                              ? rc_bits
                              : (double)rf_design_pool(d, gpu)
                                    * d->interval_regs
                                    * gpu->rc_line_bits;
        if (d->kind == RF_DESIGN_RFC)     /* as HI-RF: data counted once */
            org->overhead_bits = org->overhead_bits > rc_bits ? org->overhead_bits - rc_bits
                                                              : 0.0;
        break;
    }
    case RF_DESIGN_IDEAL:
        org->main_bits *= 8.0;
        break;
    case RF_DESIGN_STEALING:
        /* Seed 001 IV-C.2: a 19-bit status entry per bank (Rfree, Rdest). */
        if (org->overhead_bits <= 0)
            org->overhead_bits = 19.0 * org->banks;
        break;
    case RF_DESIGN_FINEREG:
        if (d->acrf_kb + d->pcrf_kb > 0)
            org->main_bits = (d->acrf_kb + d->pcrf_kb) * 1024.0 * 8.0;
        break;
    default:
        break;
    }
    return RF_OK;
}
