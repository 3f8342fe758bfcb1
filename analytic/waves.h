/* waves.h - CTA population over time: resident CTAs run their warps' barrier
 * phases at the per-warp rate the IPC model gives for the number of warps
 * issuing, finished CTAs are replaced by the next ones of the grid.  Gives
 * the IPC of a window after a cold start (a calibration sample) and the
 * cycles of a whole grid with its partial last wave and tail.
 * (Formulas and assumptions: analytic/waves.c.)
 */
#ifndef RF_WAVES_H
#define RF_WAVES_H

#include <stdbool.h>

#include "kchar.h"

/* Largest number of warps per SM the callers tabulate. */
#define RF_WAVES_MAXW 4096
/* Most batches a run reports (rf_waves_run.batches). */
#define RF_WAVES_MAXB 16

typedef struct rf_waves_run {
    int resident;        /* CTA slots of the SM */
    long first_cta;      /* CTA sample the run starts with (index into the set, wraps) */
    long ctas;           /* CTAs to run */
    double t_start;      /* window start, cycles after the cold start */
    double t_end;        /* window end; <= 0: run every CTA to completion */
    double oldest_first; /* 0..1: share of issue slots handed out oldest CTA first
                          * (GTO); the rest is shared equally */
    long warm_ctas;      /* functional warming before t = 0: the run's first
                          * warm_ctas CTAs start untimed, every warp moving at one
                          * instruction per step, finished CTAs replaced at once,
                          * until the run's CTA warm_ctas starts (the sampler's
                          * rf_sim_opts.warm_ctas); 0 = cold start */
    const double *stretch; /* [a] != 0: IPC(a) is throughput-bound, contention
                            * stretches issue cycles (analytic/waves.c); else and
                            * when NULL lone time is shared equally */
    int batches;         /* 0, or 2..RF_WAVES_MAXB: the whole run (t_end <= 0, no
                          * warming) cut at the launches of CTAs b ctas / batches,
                          * b = 1 .. batches - 1; out->batch_ipc[b] is batch b's
                          * IPC (instructions retired from its first launch to the
                          * next batch's, the last to the end, over that time) */
} rf_waves_run;

typedef struct rf_waves_out {
    double cycles;       /* cycles simulated (t_end, or completion time) */
    double insts;        /* warp instructions retired inside the window */
    double ipc;          /* insts / window length (whole run when t_end <= 0) */
    double mean_active;  /* mean issuing warps over the window */
    int nbatch;          /* batches reported (run->batches, or 0) */
    double batch_ipc[RF_WAVES_MAXB];
} rf_waves_out;

/* ipc_tab[a] is the SM's IPC with a warps issuing, a = 0..resident * wpc;
 * drain: cycles a slot stays held after its CTA's warps are done.
 * Returns 0 or RF_ENOMEM. */
int rf_waves_sim(const rf_ctaset *cs, const double *ipc_tab, double drain,
                 const rf_waves_run *run, rf_waves_out *out);

/* The start of a run held for many timed runs.  The start (every slot
 * given a fresh CTA, then the functional warming of run->warm_ctas CTAs)
 * depends only on the CTA sample, the drain and run's resident, first_cta,
 * ctas and warm_ctas, not on the rates: a calibration fit evaluates a
 * window's model at many parameter values from one start.
 * rf_waves_prepare returns 0 or RF_ENOMEM; rf_waves_sim_from is
 * rf_waves_sim(cs, ipc_tab, drain, run, out) for the cs, drain and start
 * fields the state was prepared with (rf_waves_state_matches says whether
 * run agrees), the same result to the last bit. */
typedef struct rf_waves_state rf_waves_state;
int rf_waves_prepare(const rf_ctaset *cs, double drain, const rf_waves_run *run,
                     rf_waves_state **out);
bool rf_waves_state_matches(const rf_waves_state *st, const rf_ctaset *cs, double drain,
                            const rf_waves_run *run);
int rf_waves_sim_from(const rf_waves_state *st, const double *ipc_tab, const rf_waves_run *run,
                      rf_waves_out *out);
void rf_waves_state_free(rf_waves_state *st);

#endif /* RF_WAVES_H */
