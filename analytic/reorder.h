/* reorder.h - first-use renumbering of registers and how far a non-owner
 * warp gets before its first shared register (seed 003 Section 5.2).
 * (Model notes: analytic/reorder.c.)
 */
#ifndef RF_REORDER_H
#define RF_REORDER_H

#include "../common/error.h"
#include "../inputs/kir.h"

/* map[old] = new for registers 0..nregs-1: numbered in order of first
 * appearance in the code (instruction order; within an instruction
 * destinations, then sources, left to right); registers never used follow
 * in their old order.  0 or a negative rf code. */
int rf_reorder_first_use(const rf_func *f, int nregs, int *map, rf_err *err);

typedef struct rf_share_reach {
    int nregs;               /* R_w: registers per thread */
    int unshared;            /* floor(R_w * (1 - F)): registers 0..unshared-1 are private */
    int first_pc;            /* first instruction (code order) touching a shared register, -1 none */
    int static_before;       /* instructions before it in code order (all if none) */
    double expected_before;  /* expected instructions issued before the first shared access (profile) */
} rf_share_reach;

/* For sharing fraction F (0..1) and numbering map (NULL = as is): how many
 * instructions a non-owner warp can issue before it needs a shared
 * register.  Profile trip/taken as for rf_dst_block_freq. */
int rf_reorder_reach(const rf_func *f, const int *map, int nregs, double sharing,
                     double trip, double taken, rf_share_reach *out, rf_err *err);

#endif /* RF_REORDER_H */
