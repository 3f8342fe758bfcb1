/* repro_ltrf.h - the verdict rules of the seed 004 (LTRF) and overhead
 * sections of the reproduction report (results/repro_004.c,
 * results/repro_overhead.c), kept apart so tests can check them.
 */
#ifndef RF_REPRO_LTRF_H
#define RF_REPRO_LTRF_H

#include "repro.h"

/* Geometric mean of v[0..n) (values > 0); 0 when n is 0 or a value is
 * not above 0. */
double rf_repro_geomean(const double *v, int n);

/* RF_REPRODUCED when v[0] < v[1] < ... < v[n-1] (the order a claim states),
 * else RF_DIFFERS. */
rf_verdict rf_repro_ordered(const double *v, int n);

/* The tolerance of an overhead figure: RF_REPRODUCED when rfkit's bits are
 * within rel (a fraction) of the paper's, else RF_DIFFERS. */
rf_verdict rf_repro_within_rel(double measured, double published, double rel);

#endif /* RF_REPRO_LTRF_H */
