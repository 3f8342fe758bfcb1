/* rccollide.h - register-cache collisions of HI-RF (seed 002): register
 * assignment maps, per-register write frequencies, and the closed-form
 * conflict (write-back) and read-miss rates of a register cache.
 * (Formulas, assumptions, seed sections: analytic/rccollide.c.)
 */
#ifndef RF_RCCOLLIDE_H
#define RF_RCCOLLIDE_H

#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/kir.h"
#include "design.h"
#include "rcindex.h"

/* Write counts of a kernel, before renumbering (per thread, one run). */
typedef struct rf_rcc_writes {
    int nregs;                     /* registers 0..nregs-1 in use */
    double stat[RF_MAX_GPR];       /* static destination counts (CAC's input) */
    double dyn[RF_MAX_GPR];        /* expected dynamic writes per thread under the
                                    * profile (Best/Worst input and the model's) */
} rf_rcc_writes;

/* Destination counts and profile-weighted writes of f under prof. */
int rf_rcc_writes_of(const rf_func *f, const rf_profile *prof, rf_rcc_writes *out, rf_err *err);

/* Renumbering map[old] = new of registers 0..w->nregs-1 for an assignment
 * policy (rf_rc_assign): base = identity, cac = static counts (Algorithm 1),
 * best / worst = dynamic writes (Section 3) with the critical sets of g. */
void rf_rcc_assign_map(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, int *map);

/* Dynamic writes per register after renumbering with the design's policy:
 * out[new] = w->dyn[old]. */
void rf_rcc_assigned_writes(const rf_rcc_writes *w, const rf_rc_geom *g, int assign,
                            double out[RF_MAX_GPR]);

/* Closed-form collision figures for `warps` resident warps (warp IDs
 * 0..warps-1, identical write mixes `writes` over registers 0..nregs-1). */
typedef struct rf_rcc_result {
    double indep;        /* conflict probability per write under independent
                          * interleaving: 1 - sum_l sum_{x on l} p_x^2 / P_l
                          * (fully associative: LRU characteristic time) */
    double conflict;     /* with locality: (1 - locality) * indep */
    double read_miss;    /* reads served by the NVM file: the same fraction */
    int pairs;           /* (warp, register) pairs written */
    int lines_used;      /* lines they map to */
} rf_rcc_result;

void rf_rcc_rates(const rf_rc_geom *g, const double *writes, int nregs, int warps,
                  double locality, rf_rcc_result *out);

/* The stall an instruction's own warp sees from NVM write-backs, cycles per
 * instruction: writes per instruction x conflict x (nvm_write_latency - 1)
 * (a write into the cache completes in the cycle it arrives; a conflicting
 * one waits for the victim's NVM write). */
double rf_rcc_stall(double writes_per_inst, double conflict, int nvm_write_latency);

#endif /* RF_RCCOLLIDE_H */
