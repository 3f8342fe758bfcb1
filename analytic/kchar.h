/* kchar.h - kernel characteristics for the IPC model, from the kernel IR
 * weighted by the profile.  (Formulas and assumptions: analytic/kchar.c.)
 */
#ifndef RF_KCHAR_H
#define RF_KCHAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "ipc.h"

/* Expected executions of each block when f runs once (entry block = 1)
 * for edge probabilities prob[2b + s] of block b's successor s (s <
 * nsucc; what a block's edges leave of 1 stops there: an exit or an
 * absorbing block).  Blocks the entry does not reach run 0 times.  An
 * exact structural solve (Gaussian elimination along the loop nest), linear
 * in the blocks for a fixed nesting depth.  freq has f->nblocks entries.
 * RF_EUNSUPPORTED for a loop that never exits, RF_ELIMIT beyond
 * RF_KIR_MAX_BLOCKS blocks. */
int rf_kchar_flow(const rf_func *f, const double *prob, double *freq, rf_err *err);

/* How a warp leaves block b: the sampler's rule (sampler/warp.c), the one
 * edge rule of every block frequency in rfkit (analytic/kchar.c states it).
 *   RF_KE_STOP  the warp ends there (an unguarded exit instruction, or no
 *               successor);
 *   RF_KE_EXIT  a guarded exit ending a block with a successor: the warp
 *               ends with probability *p_taken (the spec's exit@LABEL
 *               when given, else taken, as a forward branch), else goes
 *               on to succ[0];
 *   RF_KE_FALL  to succ[0] (no branch, a branch to the next block, or a
 *               block ending in an instruction that is not a branch);
 *   RF_KE_JUMP  to succ[1] (an unguarded branch with two successors);
 *   RF_KE_DRAW  a conditional branch: to succ[1] with probability *p_taken
 *               (the spec's [branches] or a constant trip count when the
 *               block has one, else trip / (trip + 1) for a back edge and
 *               taken for a forward branch), else succ[0].
 * *p_taken is set for RF_KE_DRAW and RF_KE_EXIT only. */
enum { RF_KE_STOP, RF_KE_FALL, RF_KE_JUMP, RF_KE_DRAW, RF_KE_EXIT };
int rf_kchar_edge(const rf_func *f, int b, double trip, double taken, double *p_taken);

/* Expected executions of each block per warp when f runs once (entry block
 * = 1) under rf_kchar_edge with the profile's trip and taken: the one block
 * frequency of rfkit (the IPC model's instruction mix, the HI-RF write
 * counts, LTRF's intervals and prefetches).  absorb (may be NULL): blocks
 * whose outgoing edges are cut (the walk stops there).  freq has
 * f->nblocks entries; edge_freq (may be NULL) 2 f->nblocks: expected
 * traversals of edge s of block b at [2b + s].  RF_EUNSUPPORTED for a loop
 * that never exits, RF_ELIMIT beyond RF_KIR_MAX_BLOCKS blocks. */
int rf_kchar_freq(const rf_func *f, double trip, double taken, const bool *absorb,
                  double *freq, double *edge_freq, rf_err *err);

/* rf_kchar_freq with the profile's trip and taken, no absorbing blocks. */
int rf_kchar_block_freq(const rf_func *f, const rf_profile *prof, double *freq,
                        rf_err *err);

/* Mean latency of a global load under the profile's hit rates, cycles. */
double rf_kchar_mem_latency(const rf_gpu *gpu, const rf_profile *prof);

/* Unit class of an instruction of operation class cls as the sampler's
 * collectors are split: 0 ALU, 1 SFU, 2 LD/ST; -1 barrier and exit (no
 * collector). */
int rf_kchar_unit_of(int cls);

/* Fill *out for kernel k on gpu (physical function k->func); its
 * instructions per warp are those of k's run (the whole grid, or SM 0's
 * share of a spread grid: inputs/kernel.h rf_kernel_spread), and its lone-
 * warp figures (stalls, turns, drain, active and live fractions) those of
 * the run's own first CTAs (at most RF_KCHAR_MC_CTAS of them, kchar.c). */
int rf_kchar_compute(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out,
                     rf_err *err);

/* A Monte Carlo sample of CTAs: for each warp and barrier phase, its warp
 * instructions and the cycles it takes alone (lone-warp time), walked with
 * the sampler's branch rules and latencies drawn with the profile's hit
 * rates (deterministic seed). */
typedef struct rf_ctaset {
    int nctas;             /* CTAs sampled */
    int wpc;               /* warps per CTA */
    int maxph;             /* the most phases a CTA has (barriers + 1, capped: a
                            * warp's later phases summed into its last, every
                            * warp's time there padded by the folded barriers'
                            * waits, so that its slowest warp's time is the sum
                            * of the folded phases' slowest) */
    int *nph;              /* [nctas] phases of each CTA, 1 .. maxph */
    size_t *off;           /* [nctas] where each CTA's rows start in insts and time:
                            * its warps' rows one after another, nph[c] phases
                            * each (rf_ctaset_insts) */
    float *insts;          /* warp instructions per phase */
    float *time;           /* same layout: lone-warp cycles */
    float *mem_cyc;        /* same layout: the lone warp's cycles stalled there on
                            * loads (NULL in a hand-built set: none) */
    float *mem_n;          /* same layout: those stalls' count */
    double active_frac;    /* E[sum_p mean_w T] / E[sum_p max_w T] */
    double cpi_lone;       /* sum T / sum I (over the rows) */
    double live_frac;      /* share of resident warps not exited (barrier waits count) */
    double s_mem, s_dep;   /* stall cycles per instruction on memory / other producers */
    double mem_waits;      /* waits on global memory per instruction (s_mem / mem_waits:
                            * the mean wait) */
    double turn_insts;     /* instructions per wait of more than a cycle: a warp's
                            * turn at a greedy scheduler */
    double wait_share;     /* waits of more than a cycle per instruction (exits apart) */
    double drain;          /* mean cycles from a warp's exit to its last retirement */
    uint64_t seed;         /* the walk: its c-th CTA is grid CTA (first_cta + c) * stride */
    long first_cta, stride;/* under the sampler's streams for seed */
    double *cta_drain;     /* [nctas] each CTA's drain (its warps' longest) */
    double *cta_crit;      /* [3 nctas] each CTA's work (sum over its phases of the
                            * mean warp's lone time), critical time (of the slowest
                            * warp's) and live time, over every phase, also those
                            * folded into a row's last (maxph); NULL: from the rows */
    double *cta_step;      /* [2 nctas] each CTA alone on the SM, its warps
                            * leaving each barrier together: the sum over
                            * every phase of the norm (kchar.c phase_alone)
                            * of its slowest warp's lone time and the cycles
                            * its warps together hold the SM's shared
                            * resources (kchar.c phase_hold: the SFU pipe, or
                            * the issue and the LD/ST pipe together, each
                            * class at least by its collectors; a pipe's
                            * instruction its initiation interval, as the
                            * sampler's), then the sum of the larger of the
                            * slowest warp's time and the longest of the
                            * issue's and the pipes' holds alone; NULL: the
                            * critical time of cta_crit */
    double *run;           /* [4 nctas] the walk's running sums of memory stall cycles,
                            * other stall cycles, waits ending a turn and memory waits
                            * after each CTA (NULL in a slice) */
    bool view;             /* nph, off, insts, time, cta_drain, cta_crit and run are
                            * another set's (rf_kchar_ctaset_view, a walk taken
                            * whole from the set it was given): freed with it */
} rf_ctaset;

/* Warp w of CTA c of cs: its nph[c] phases' warp instructions, and their
 * lone-warp cycles. */
static inline const float *rf_ctaset_insts(const rf_ctaset *cs, long c, int w)
{
    return cs->insts + cs->off[c] + (size_t)w * (size_t)cs->nph[c];
}

static inline const float *rf_ctaset_time(const rf_ctaset *cs, long c, int w)
{
    return cs->time + cs->off[c] + (size_t)w * (size_t)cs->nph[c];
}

/* Where CTA c's rows end in insts and time. */
static inline size_t rf_ctaset_end(const rf_ctaset *cs, long c)
{
    return cs->off[c] + (size_t)cs->wpc * (size_t)cs->nph[c];
}

/* The warp instructions of CTA c of cs, all its warps' (a whole number). */
static inline double rf_ctaset_cta_insts(const rf_ctaset *cs, long c)
{
    const float *in = rf_ctaset_insts(cs, c, 0);
    double t = 0;
    for (size_t q = 0; q < (size_t)cs->wpc * (size_t)cs->nph[c]; q++)
        t += in[q];
    return t;
}

/* The floats of cs's rows, from its first CTA's to its last's end (a
 * walked set's and a slice's from insts[0]). */
static inline size_t rf_ctaset_nrows(const rf_ctaset *cs)
{
    return rf_ctaset_end(cs, cs->nctas - 1) - cs->off[0];
}

/* The active-warp distribution of cs (rf_ipc_kernel.act_hist): in each
 * stored barrier phase of each CTA, j warps issue until the j-th longest
 * lone time ends; h[j] is the share of the summed phase lengths (the CTAs'
 * critical times) with j warps issuing, j = 1 .. wpc, so that
 * sum_j j h[j] = active_frac x wpc over the stored rows.  All 0 for CTAs
 * of more than RF_IPC_MAXWPC warps, or no time at all. */
void rf_kchar_act_hist(const rf_ctaset *cs, double h[RF_IPC_MAXWPC + 1]);

/* The two-level pool's balance (rf_ipc_kernel.pool_eff, kchar.c) of the
 * CTAs of cs, n resident, `per` pool places on each of nsched schedulers:
 * the share of the places that hold an issuing warp of their scheduler
 * while the SM's issuing warps would fill them, over the steady state of
 * a fluid of the resident warps.  1 where each scheduler's places hold
 * all its warps; -1 when out of memory. */
double rf_kchar_pool_eff(const rf_ctaset *cs, int nsched, int per, int n);

/* CTAs first_cta .. first_cta + nctas - 1 of the kernel's run, with the
 * sampler's random streams for `seed`: the c-th is grid CTA
 * (first_cta + c) * stride, as the sampler runs SM 0's share of a grid
 * spread over `stride` SMs (rf_kernel_cta_index; 1: the whole grid). */
int rf_kchar_ctaset(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof, int wpc,
                    long first_cta, int nctas, long stride, uint64_t seed, rf_ctaset **out,
                    rf_err *err);
void rf_kchar_ctaset_free(rf_ctaset *cs);

/* CTAs first .. first + nctas - 1 of src as a set of their own: the same
 * CTAs as rf_kchar_ctaset would walk for that range (a CTA's walk depends on
 * its index and the seed alone), active_frac, cpi_lone and live_frac over
 * the slice; the stall, turn and drain figures are src's.  Errors: a range
 * outside src (RF_EINTERNAL), out of memory. */
int rf_kchar_ctaset_slice(const rf_ctaset *src, int first, int nctas, rf_ctaset **out,
                          rf_err *err);
/* The same slice reading src's rows in place: valid while the set that
 * owns them lives (src, or the set src is itself a view of). */
int rf_kchar_ctaset_view(const rf_ctaset *src, int first, int nctas, rf_ctaset **out,
                         rf_err *err);

/* rf_kchar_ctaset that takes the CTAs from one of the nhave sets in have
 * (entries may be NULL) when it holds them all (the same seed, stride and
 * warps per CTA, the range inside its walk): a view, the same CTAs, the
 * stall, turn and drain figures the holder's (rf_kchar_ctaset_view; free
 * it before the holder); else walks them. */
int rf_kchar_ctaset_reuse(const rf_ctaset *const *have, int nhave, const rf_gpu *gpu,
                          const rf_func *f, const rf_profile *prof, int wpc, long first_cta,
                          int nctas, long stride, uint64_t seed, rf_ctaset **out, rf_err *err);
/* The same, the CTAs it walks walked on up to jobs threads (the same set to
 * the bit whatever jobs; 1: on the calling thread). */
int rf_kchar_ctaset_reuse_jobs(const rf_ctaset *const *have, int nhave, const rf_gpu *gpu,
                               const rf_func *f, const rf_profile *prof, int wpc,
                               long first_cta, int nctas, long stride, uint64_t seed, int jobs,
                               rf_ctaset **out, rf_err *err);

/* rf_kchar_compute that also hands back the CTAs it walked for the
 * calibration's walks to reuse (rf_calib_run_walked; the caller frees
 * them): the run's first RF_KCHAR_WALK_CTAS CTAs (at most) under seed 1,
 * from which the characterisation's sample (the run's first CTAs) and the
 * critical CTAs are taken where they lie among them (the same figures as
 * rf_kchar_compute). */
#define RF_KCHAR_WALK_CTAS 4096
int rf_kchar_compute_walked(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out,
                            rf_ctaset **walked, rf_err *err);
/* The same, its CTA walks on up to jobs threads (the same figures and
 * walked set to the bit whatever jobs; 1: on the calling thread). */
int rf_kchar_compute_walked_jobs(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out,
                                 rf_ctaset **walked, int jobs, rf_err *err);

/* rf_kchar_compute_walked_jobs (no walked set) that fills only the rows of
 * the two-level pool's balance table (rf_ipc_kernel.pool_eff) in
 * pool_rows (bit i: row i; rf_ipc_pool_rows gives the rows an estimate at
 * a pool reads, none without a pool), the others left 0. */
int rf_kchar_compute_rows(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out, int jobs,
                          unsigned pool_rows, rf_err *err);

/* Same from a bare function, profile and CTA shape (tests, tools). */
int rf_kchar_func(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                  int threads_per_cta, rf_ipc_kernel *out, rf_err *err);

#endif /* RF_KCHAR_H */
