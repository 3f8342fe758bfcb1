/* simfix.h - hand-built inputs for the sampler's tests: a small Fermi-like
 * rf_gpu with round-number latencies and tiny physical kernels. */
#ifndef RF_SIMFIX_H
#define RF_SIMFIX_H

#include "../../analytic/design.h"
#include "../../inputs/gpu.h"
#include "../../inputs/kernel.h"
#include "../../sampler/sim.h"

#define SIMFIX_MAX_INSTS 64
#define SIMFIX_MAX_BLOCKS 8

typedef struct simfix {
    rf_gpu gpu;
    rf_design design;
    rf_sim_opts opts;
    rf_kernel kernel;
    rf_func func;
    rf_inst insts[SIMFIX_MAX_INSTS];
    rf_block blocks[SIMFIX_MAX_BLOCKS];
} simfix;

/* GPU: warp 32, 2 schedulers, 4 banks, 8 collectors, ALU II 1 (64 lanes),
 * latencies ALU 4, SFU 8, shared 4, L1 10, L2 50, DRAM 200 cycles.
 * Kernel: empty, grid 1, block 32, regs 32; opts: modulo bank map, 1 CTA/SM,
 * one shared collector pool. */
void simfix_init(simfix *fx);

/* Fill in the occupancy rules the fixture GPU leaves out, for tests that
 * let rf_occ_compute size the SM (opts.ctas_per_sm = 0, or a design whose
 * residency it decides): whole warps of registers rounded to 64, 48 KB of
 * shared memory per SM and per CTA in 128-byte units, 64 K registers per
 * CTA. */
void simfix_occupancy_rules(simfix *fx);

/* Append an instruction: defs/uses are -1-terminated lists given inline,
 * e.g. simfix_add(fx, RF_OC_ALU, (int[]){2, -1}, (int[]){0, 4, -1}). */
int simfix_add(simfix *fx, int cls, const int *defs, const int *uses);

/* Close the code as one basic block ending in EXIT (appended). */
void simfix_finish(simfix *fx);

/* Loop kernel: body instructions [0, n) form block 1, a guarded backward
 * branch ends it; block 0 is empty preheader; block 2 holds EXIT. */
void simfix_finish_loop(simfix *fx, int guard_pred);

/* Run the sampler on the fixture; fails the test on an error or a broken
 * invariant (every issued instruction retires, no bank granted twice in a
 * cycle). */
rf_sim_stats simfix_run(simfix *fx);

#endif /* RF_SIMFIX_H */
