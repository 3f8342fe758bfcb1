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
    long mark_cta;       /* > 0: out->mark_t and out->mark_insts at the launch of
                          * the run's CTA mark_cta (0 and 0 if it never launches) */
    long batch_ctas;     /* > 0, a whole run (t_end <= 0) with mark_cta: the
                          * steady rate's batches, B CTAs each from mark_cta; the
                          * run stops at a batch's end once at least min_batches
                          * have run, their IPCs' standard error is at most
                          * stop_se of their mean, the rates of the first and
                          * the second half of the batches differ by at most
                          * stop_drift of their mean, and the run's CTA
                          * stop_before has not launched: out->stopped,
                          * out->cycles its time, out->insts the instructions
                          * retired before it */
    int min_batches;
    double stop_se, stop_drift;
    long stop_before;
} rf_waves_run;

typedef struct rf_waves_out {
    double cycles;       /* cycles simulated (t_end, or completion time) */
    double insts;        /* warp instructions retired inside the window */
    double ipc;          /* insts / window length (whole run when t_end <= 0) */
    double mean_active;  /* mean issuing warps over the window */
    double mark_t, mark_insts; /* run->mark_cta's launch: time, instructions
                                * retired before it */
    bool stopped;        /* the run stopped at a steady batch (run->batch_ctas) */
    long launched;       /* the run's CTAs launched (warming included) */
    int nbatch;          /* batches reported (run->batches, or 0) */
    double batch_ipc[RF_WAVES_MAXB];
} rf_waves_out;

/* A whole run's IPC from its head (a run from its start that stopped at a
 * steady batch, run->batch_ctas) and its tail (the run's last CTAs to the
 * end): the insts_all instructions of its CTAs less those the two retired
 * run at the head's steady rate (from its mark to its stop),
 *     cycles = t_head + (I - I_head - I_tail) / IPC_steady + t_tail.
 * A head that ran to the end is the run itself: its IPC. */
double rf_waves_split_ipc(double insts_all, const rf_waves_out *head, const rf_waves_out *tail);

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
