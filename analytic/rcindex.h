/* rcindex.h - register-cache index functions and critical sets (seed 002).
 * (Formulas and the seed's worked examples: analytic/rcindex.c.)
 *
 * A geometry says how a (warp ID, register ID) pair picks a line of the
 * register cache: rf_rc_slot() gives the line (sub-core cache included) and
 * a tag that tells apart the pairs sharing the line.  Used by the
 * conflict-aware assignment (dstcount.h) and by register-cache models.
 */
#ifndef RF_RCINDEX_H
#define RF_RCINDEX_H

#include <stdint.h>

#include "../common/error.h"
#include "../inputs/gpu.h"
#include "design.h"   /* rf_rc_index: RF_RC_CONCAT, RF_RC_TEA, RF_RC_FULL */

#define RF_RC_REG_BITS 8   /* register IDs R0..R255 */

typedef struct rf_rc_geom {
    int index;           /* rf_rc_index */
    int warp_bits;       /* bits of a warp ID within the SM (6: 64 warps) */
    int subcore_bits;    /* warp-ID LSBs choosing the sub-core (2: 4 sub-cores) */
    int index_bits;      /* log2(lines per sub-core cache) */
    int wbits, rbits;    /* concat: warp-ID bits and register-ID bits (wbits + rbits = index_bits) */
    int tea_wbits;       /* TEA: reversed warp-ID bits XORed into the register's top index bits */
    int crit_bits;       /* register-ID LSBs used unmodified: critical sets = 2^crit_bits */
    int tag_bits;        /* bits of the tag stored per line */
} rf_rc_geom;

typedef struct rf_rc_slot {
    int line;            /* sub-core * lines_per_subcore + index (full: the sub-core) */
    uint32_t tag;        /* unique among the (warp, reg) pairs sharing line */
} rf_rc_slot;

/* Build a geometry.  lines: lines of one sub-core's cache (power of two,
 * e.g. 64 = 256 entries over 4 sub-cores); subcores: 1, 2, 4, ... (warp-ID
 * LSBs select one); max_warps: warps per SM (rounded up to a power of two,
 * e.g. 64); rbits: concat register bits (R of WxRy; the warp bits are
 * index_bits - rbits).  Returns 0 or RF_ERANGE with the field named. */
int rf_rc_geom_init(rf_rc_geom *g, int index, int lines, int subcores,
                    int max_warps, int rbits, rf_err *err);

/* The seed's configuration: 64 lines x 4 sub-cores, 64 warps, W3R3. */
void rf_rc_geom_default(rf_rc_geom *g, int index);

/* From a design point (index, wbits, rbits, rc_entries; 0 = the GPU's) and
 * a GPU (subcores, rc_entries, max_warps_per_sm).  A concat index needs
 * wbits + rbits = log2(lines); wbits -1 takes what rbits leaves. */
int rf_rc_geom_for(const rf_design *d, const rf_gpu *gpu, rf_rc_geom *g, rf_err *err);

/* Line and tag of warp's register reg. */
rf_rc_slot rf_rc_slot_of(const rf_rc_geom *g, int warp, int reg);
/* Lines in all sub-cores, and ways per line (1, or lines of a sub-core for FULL). */
int rf_rc_lines(const rf_rc_geom *g);
int rf_rc_ways(const rf_rc_geom *g);
/* Index within one sub-core's cache (the bits of Fig. 3). */
int rf_rc_local_index(const rf_rc_geom *g, int warp, int reg);

/* Critical sets: registers sharing the crit_bits LSBs (seed 002 Section 3). */
int rf_rc_nsets(const rf_rc_geom *g);
int rf_rc_set_of(const rf_rc_geom *g, int reg);
/* Members of set s among registers 0..nregs-1, ascending; returns count. */
int rf_rc_set_members(const rf_rc_geom *g, int s, int nregs, int *members);

/* Write distribution over critical sets for registers 0..nregs-1 with
 * writes[r] (any non-negative weights): the largest set's share of all
 * writes, and the same-line conflict proxy of one warp,
 *     1 - sum_s sum_{x in s} p_x^2 / P_s,   p_x = writes[x] / total,
 * the probability that a write finds its line holding another register
 * (independent interleaving of writes).  Zero writes give 0. */
typedef struct rf_rc_balance {
    int nsets;           /* critical sets */
    int used_sets;       /* sets with at least one write */
    double max_share;    /* largest set's fraction of writes */
    double conflict;     /* same-line conflict proxy, 0..1 */
} rf_rc_balance;
void rf_rc_balance_of(const rf_rc_geom *g, const double *writes, int nregs, rf_rc_balance *out);

#endif /* RF_RCINDEX_H */
