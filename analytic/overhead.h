/* overhead.h - storage each register-file design adds to an SM, in bits,
 * from its seed's formula (implementation and formulas: analytic/overhead.c).
 */
#ifndef RF_OVERHEAD_H
#define RF_OVERHEAD_H

#include "../inputs/gpu.h"
#include "design.h"

#define RF_OVERHEAD_MAX_PARTS 8

typedef struct rf_overhead_part {
    const char *name;   /* component, e.g. "PCRF tags" */
    double bits;        /* bits per SM */
} rf_overhead_part;

typedef struct rf_overhead {
    double bits;        /* total, bits per SM */
    int nparts;
    rf_overhead_part part[RF_OVERHEAD_MAX_PARTS];
} rf_overhead;

/* Storage overhead of design d on gpu (kernel-independent). */
void rf_overhead_compute(const rf_gpu *gpu, const rf_design *d, rf_overhead *out);

/* Smallest b with 2^b >= n (0 for n <= 1). */
int rf_overhead_ceil_log2(long n);

#endif /* RF_OVERHEAD_H */
