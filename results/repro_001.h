/* repro_001.h - the per-kernel figures of seed 001's 8-bank case study
 * (results/repro_001.c), open to tests. */
#ifndef RF_REPRO_001_H
#define RF_REPRO_001_H

#include "../sampler/sim.h"

/* From the straight 16-bank full run s16 and the 8-bank runs s8[0..4)
 * (straight, read stealing, write stealing, read+write stealing):
 *   r8[m]  = IPC of s8[m] / IPC of s16;
 *   *load8 = (bank_reads + bank_writes) / warp_insts of s8[3] x IPC of s16 / 8,
 * the share of 8 single-ported banks' peak (one access per bank per
 * cycle) a kernel would use running at the 16-bank IPC with stealing's
 * accesses.  NaN where a run retired nothing. */
void rf_repro001_figures(const rf_sim_stats *s16, const rf_sim_stats *const s8[4],
                         double r8[4], double *load8);

#endif /* RF_REPRO_001_H */
