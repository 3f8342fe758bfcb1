/* dstcount.h - destination counts per register, expected block
 * frequencies from the profile, and register renumbering policies of
 * seed 002 (CAC, Best, Worst).  (Model notes: analytic/dstcount.c.)
 */
#ifndef RF_DSTCOUNT_H
#define RF_DSTCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../inputs/kir.h"
#include "rcindex.h"

/* Expected executions of each block per thread when the function runs
 * once: rf_kchar_freq (analytic/kchar.h, the one block frequency) after
 * checking the profile.  absorb (may be NULL): blocks whose outgoing edges
 * are cut (the walk stops there).  freq has f->nblocks entries; edge_freq
 * (may be NULL) has 2 * f->nblocks: expected traversals of edge s of block
 * b at [2b + s].  0, or RF_ERANGE for a bad profile, RF_EUNSUPPORTED for a
 * loop that can never exit. */
int rf_dst_block_freq(const rf_func *f, double trip, double taken,
                      const bool *absorb, double *freq, double *edge_freq, rf_err *err);

/* Loop nesting depth of each block (natural loops of back edges; 0 outside
 * loops).  depth has f->nblocks entries.  Returns the number of loops. */
int rf_dst_loop_depth(const rf_func *f, int *depth);

/* Writes per register R0..R255: static destination counts (instructions
 * writing it; a 64-bit result counts for both halves), and, with block
 * frequencies, expected dynamic writes per thread.  f must be physical. */
int rf_dst_static(const rf_func *f, double count[RF_MAX_GPR], rf_err *err);
int rf_dst_weighted(const rf_func *f, const double *block_freq,
                    double count[RF_MAX_GPR], rf_err *err);

/* Static destination counts with each destination inside n nested loops
 * counted weight^n times: a compiler's execution-count estimate without a
 * profile (weight 10 is the classic spill-cost weight of graph-colouring
 * allocators; weight 1 gives rf_dst_static). */
int rf_dst_loop_weighted(const rf_func *f, double weight, double count[RF_MAX_GPR],
                         rf_err *err);
/* The weight of rfkit's CAC (design assign cac; cac-plain uses weight 1). */
#define RF_CAC_LOOP_WEIGHT 10.0

/* Renumberings of registers 0..nregs-1: map[old] = new (a permutation).
 * CAC (seed 002 Algorithm 1): sort by destination count, descending (ties
 *   by register number), new ID = position in the sorted list, so the most
 *   written registers land in different critical sets.
 * Best (Section 3): the same ordering from dynamic write counts.
 * Worst (Section 3): the sorted registers fill the critical sets one after
 *   another (set 0 gets the most written ones), grouping similar counts.
 * nsets = rf_rc_nsets() of the index function. */
void rf_dst_cac(const double *count, int nregs, int *map);

/* Aligned tuples of f (physical): width[r] = 4 or 2 when r starts an
 * aligned block some instruction writes as one 128- or 64-bit operand, 0 for
 * the other registers of such a block, 1 for a single register.  Returns
 * the number of units over R0..R255. */
int rf_dst_tuples(const rf_func *f, uint8_t width[RF_MAX_GPR]);

/* The same policies keeping tuples aligned (width from rf_dst_tuples, NULL
 * = all single, the functions above): units sorted by mean count, each put
 * in the first free aligned block in the policy's ID order.  map[old] = new
 * for 0..nregs-1; returns the new IDs' span (highest + 1, >= nregs). */
int rf_dst_cac_aligned(const double *count, const uint8_t *width, int nregs, int *map);
int rf_dst_worst_aligned(const double *writes, const uint8_t *width, int nregs, int nsets,
                         int *map);
void rf_dst_best(const double *writes, int nregs, int *map);
void rf_dst_worst(const double *writes, int nregs, int nsets, int *map);

/* Counts after renumbering: out[map[r]] = in[r]. */
void rf_dst_permute(const double *in, int nregs, const int *map, double *out);

/* Rename the general registers of f in place (registers >= nregs and
 * predicates are kept). */
void rf_dst_rename(rf_func *f, const int *map, int nregs);

#endif /* RF_DSTCOUNT_H */
