/* repro_002.h - the critical-set figures of seed 002's reproduction
 * (results/repro_002.c), open to tests. */
#ifndef RF_REPRO_002_H
#define RF_REPRO_002_H

#include "../analytic/rcindex.h"
#include "../common/error.h"
#include "../inputs/kernel.h"

/* The critical sets of the seed's concat W3R3 index (64 lines x 4
 * sub-cores, 64 warps) over the profile's expected writes per register of
 * k (physical), out[0] as compiled, out[1] after CAC (loop-weighted
 * destination counts, the numbering `--assign cac` runs), out[2] after
 * Best (the same sort on the expected writes): the largest set's share of
 * the writes and the same-line conflict proxy, as `rfkit analyze` reports
 * them (cset columns). */
int rf_repro002_critical_sets(const rf_kernel *k, rf_rc_balance out[3], rf_err *err);

#endif /* RF_REPRO_002_H */
