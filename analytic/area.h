/* area.h - register-file organisation and its silicon area.
 * (Formulas, assumptions and seed sections: analytic/area.c.)
 */
#ifndef RF_AREA_H
#define RF_AREA_H

#include <stdbool.h>

#include "../common/error.h"
#include "../inputs/gpu.h"
#include "design.h"
#include "occupancy.h"

/* What a design builds: the inputs of the area and energy models. */
typedef struct rf_rf_org {
    double main_bits;     /* main register file, bits per SM */
    int banks;            /* banks of the main register file */
    int collectors;       /* operand collector units */
    int config;           /* seed 004 Table 2 configuration, 1 = HP SRAM */
    bool nvm;             /* STT-MRAM main file (seed 002) instead of config */
    double cache_bits;    /* SRAM register-cache bits per SM (HI-RF, RFC, LTRF) */
    double overhead_bits; /* bookkeeping storage the design adds, bits per SM */
} rf_rf_org;

/* Organisation of design d on gpu (occ gives the design's storage overhead
 * and capacity multiplier; may be NULL).  RF_ERANGE on impossible values. */
int rf_area_org(const rf_gpu *gpu, const rf_design *d, const rf_occ *occ,
                rf_rf_org *org, rf_err *err);

typedef struct rf_area {
    double array_mm2;     /* storage cells of the main file */
    double periph_mm2;    /* decoders, sense amplifiers, drivers (per bank) */
    double xbar_mm2;      /* bank-to-collector crossbar */
    double cache_mm2;     /* register cache */
    double overhead_mm2;  /* design bookkeeping storage */
    double total_mm2;     /* per SM */
} rf_area;

void rf_area_compute(const rf_rf_org *org, rf_area *out);

/* Fractions of a 16-bank SRAM register file's area (seed 001 III-A.2 fit);
 * exported for the energy model, whose leakage follows the same split. */
#define RF_AREA_ARRAY_FRAC 0.5
#define RF_AREA_PERIPH_FRAC 0.3
#define RF_AREA_XBAR_FRAC 0.2
#define RF_AREA_REF_BANKS 16
#define RF_AREA_REF_COLLECTORS 16

#endif /* RF_AREA_H */
