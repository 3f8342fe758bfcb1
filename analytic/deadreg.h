/* deadreg.h - a dead (free) register per bank after every instruction, for
 * write stealing (seed 001).  (Model notes: analytic/deadreg.c.)
 */
#ifndef RF_DEADREG_H
#define RF_DEADREG_H

#include <stdint.h>

#include "../common/error.h"
#include "../inputs/kir.h"
#include "liveness.h"

typedef struct rf_deadreg {
    int ninsts;
    int banks;            /* bank of register r is r % banks */
    int alloc;            /* registers allocated per thread (candidates 0..alloc-1) */
    int16_t *free;        /* [ninsts * banks]: Rfree of bank b after instruction i, -1 none */
    double coverage;      /* fraction of (instruction, bank) pairs with a free register */
    int never_used;       /* allocated registers the code never touches */
} rf_deadreg;

/* alloc: registers per thread as allocated (0 = f->nregs); at least the
 * highest register used + 1.  banks 1..64.  0 or a negative rf code. */
int rf_dead_compute(const rf_func *f, const rf_live *live, int banks, int alloc,
                    rf_deadreg *out, rf_err *err);
void rf_dead_free(rf_deadreg *d);

/* Rfree of bank b after instruction i (-1 = every register of the bank is
 * live).  With a warp-skewed bank mapping (bank = (r + w) % banks), warp w
 * uses entry (b - w) mod banks. */
int rf_dead_reg(const rf_deadreg *d, int inst, int bank);

#endif /* RF_DEADREG_H */
