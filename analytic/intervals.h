/* intervals.h - LTRF register-intervals and SHRF-style strands (seed 004
 * Section 3.3, Algorithms 1 and 2).  (Model notes: analytic/intervals.c.)
 */
#ifndef RF_INTERVALS_H
#define RF_INTERVALS_H

#include <stdbool.h>

#include "../common/error.h"
#include "../inputs/kir.h"
#include "liveness.h"

#define RF_IV_DEFAULT_REGS 16

typedef enum rf_iv_kind {
    RF_IV_REGISTER = 0,   /* register-intervals: pass 1, then pass 2 repeated */
    RF_IV_STRAND = 1      /* strands: also cut at long-latency ops and backward branches */
} rf_iv_kind;

typedef struct rf_iv_opts {
    int regs;             /* N: registers per interval (cache partition), >= 1 */
    int kind;             /* rf_iv_kind */
    bool pass2;           /* run Algorithm 2 (register-intervals only) */
} rf_iv_opts;

void rf_iv_opts_default(rf_iv_opts *o);

typedef struct rf_interval {
    int entry_block;      /* block holding the entry instruction */
    int entry_inst;       /* entry instruction (where PREFETCH goes) */
    int ninsts;           /* static instructions */
    int nregs;            /* registers in the working set */
    rf_regset regs;       /* PREFETCH bit vector */
    int npreds;           /* predecessor intervals (control enters from them) */
    int *preds;           /* their ids, ascending */
    bool over;            /* a single instruction needs more than N registers */
} rf_interval;

typedef struct rf_intervals {
    int n;                /* intervals */
    rf_interval *iv;      /* [n], id order: entry interval is 0 */
    int ninsts;
    int *of_inst;         /* [ninsts] interval of each instruction */
    int nblocks;
    int *block_in;        /* [nblocks] interval holding the block's start */
    int *block_out;       /* [nblocks] interval holding the block's end */
    int *splits;          /* [nblocks] interval changes inside the block */
    int pass1;            /* intervals after pass 1 */
    int pass2_rounds;     /* repetitions of pass 2 that merged something */
    int regs;             /* N used */
    int kind;             /* rf_iv_kind */
} rf_intervals;

/* Partition f (physical) into intervals.  0 or a negative rf code. */
int rf_iv_form(const rf_func *f, const rf_iv_opts *o, rf_intervals *out, rf_err *err);
void rf_iv_free(rf_intervals *iv);

/* Mean static instructions per interval. */
double rf_iv_mean_len(const rf_intervals *iv);

/* Expected PREFETCH operations per thread (entries into an interval from
 * another interval, plus the kernel start) and dynamic instructions, from
 * block and edge frequencies (rf_dst_block_freq); *mean_len = insts /
 * entries (the seed's "real register-interval length").  A strand ends at
 * a backward branch, so for strands every edge into a strand's entry
 * counts, the loop's own back edge included. */
void rf_iv_dynamic(const rf_func *f, const rf_intervals *iv, const double *block_freq,
                   const double *edge_freq, double *entries, double *insts, double *mean_len);

/* Registers live at each interval's entry that are in its PREFETCH set
 * (LTRF+ moves only these).  live_at has iv->n entries. */
void rf_iv_live_prefetch(const rf_intervals *iv, const rf_live *live, int *live_at);

#endif /* RF_INTERVALS_H */
