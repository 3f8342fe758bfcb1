/* rccollide.h - register-cache collisions of HI-RF (seed 002): register
 * assignment maps, per-register write frequencies, the last-writer flow of
 * one warp through the kernel, and the closed-form conflict (write-back)
 * and read-miss rates of a register cache.
 * (Formulas, assumptions, seed sections: analytic/rccollide.c.)
 */
#ifndef RF_RCCOLLIDE_H
#define RF_RCCOLLIDE_H

#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/kir.h"
#include "design.h"
#include "rcindex.h"

/* Write counts of a kernel, before renumbering (per thread, one run). */
typedef struct rf_rcc_writes {
    int nregs;                     /* registers 0..nregs-1 in use; 0 = unknown */
    double stat[RF_MAX_GPR];       /* static destination counts (cac-plain's input:
                                    * seed 002 Algorithm 1 as published) */
    double stat_loop[RF_MAX_GPR];  /* the same, each destination weighted
                                    * RF_CAC_LOOP_WEIGHT^(loop depth) (cac's input) */
    double dyn[RF_MAX_GPR];        /* expected dynamic writes per thread under the
                                    * profile (Best/Worst input and the model's) */
    uint8_t width[RF_MAX_GPR];     /* aligned tuples (rf_dst_tuples): 4, 2, 1 at a
                                    * unit's first register, 0 inside */
    const rf_func *func;           /* borrowed: the code (valid while its kernel
                                    * lives), for the flow; NULL = independent writes */
    rf_profile prof;               /* branch profile of the flow */
    double lat[RF_OC_COUNT];       /* cycles from a result's issue to its write
                                    * into the cache, per class (rf_rcc_writes_timing);
                                    * all 0: writes land in program order */
    double gap[RF_OC_COUNT];       /* least cycles from a warp's issue of the class
                                    * to its next issue (rf_rcc_writes_timing) */
    struct rf_rcc_memo *memo;      /* borrowed, may be NULL: renumberings and
                                    * flows already computed (rf_rcc_memo) */
} rf_rcc_writes;

/* Destination counts (plain and loop-weighted) and profile-weighted writes
 * of f under prof; keeps a pointer to f. */
int rf_rcc_writes_of(const rf_func *f, const rf_profile *prof, rf_rcc_writes *out, rf_err *err);

/* Cycles an operand collector is held at least (a read from the cache and
 * the collector's cycle before dispatch, sampler/collector.c). */
#define RF_RCC_COLL_HOLD 2.0

/* The write timing of the flow (rccollide.c): lat[class] = 2 + the
 * class's latency on gpu (a bank read and the collector, then the unit;
 * global and local loads at the profile's mean memory latency,
 * rf_kchar_mem_latency; atomics L2 plus DRAM on an L2 miss; stores and
 * the rest 1); gap[class] = schedulers x RF_RCC_COLL_HOLD / the class's
 * collectors (the sampler's split of gpu->collectors), at least 1. */
void rf_rcc_writes_timing(rf_rcc_writes *w, const rf_gpu *gpu);

/* Renumbering map[old] = new of registers 0..w->nregs-1 for an assignment
 * policy (rf_rc_assign): base = identity, cac = Algorithm 1 on loop-weighted
 * destination counts, cac-plain = Algorithm 1 on plain destination counts,
 * best = Algorithm 1 on the dynamic writes (Section 3), or on the
 * loop-weighted counts where the flow gives that fewer write-backs (an
 * oracle that knows the order of the writes too); worst = the dynamic
 * writes grouped by the critical sets of g (Section 3);
 * 64- and 128-bit tuples stay aligned.  Returns the new IDs' span. */
int rf_rcc_assign_map(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, int *map);

/* Dynamic writes per register after renumbering with the design's policy:
 * out[new] = w->dyn[old].  Returns the new IDs' span. */
int rf_rcc_assigned_writes(const rf_rcc_writes *w, const rf_rc_geom *g, int assign,
                            double out[RF_MAX_GPR]);

/* One warp alone on the cache, per register (after renumbering): expected
 * writes and reads per thread, the chance a write finds its line last
 * written by another register of the warp (c), and the chance a read finds
 * the register in its line (h). */
typedef struct rf_rcc_flow {
    int nregs;
    double writes[RF_MAX_GPR];
    double reads[RF_MAX_GPR];
    double c[RF_MAX_GPR];
    double h[RF_MAX_GPR];
} rf_rcc_flow;

/* Renumberings and flows of one kernel, by (geometry, assignment): they
 * depend on nothing else, and the flow's LU solves are most of an HI-RF
 * estimate (batch rows that vary banks, warps or calibration reuse them).
 * Attached to rf_rcc_writes.memo, rf_rcc_assign_map and rf_rcc_apply use
 * it; slots are replaced in turn.  Not thread-safe, unless frozen: a frozen
 * memo is only read (threads may share it), and a (geometry, assignment)
 * it lacks is computed apart and left out of it. */
typedef struct rf_rcc_memo_slot {
    bool used, flow_ok;
    int assign, span;
    rf_rc_geom geom;
    int map[RF_MAX_GPR];
    rf_rcc_flow flow;
} rf_rcc_memo_slot;

typedef struct rf_rcc_memo {
    int nslots, next;
    bool frozen;
    rf_rcc_memo_slot *slot;
} rf_rcc_memo;

int rf_rcc_memo_init(rf_rcc_memo *m, int nslots, rf_err *err);
void rf_rcc_memo_free(rf_rcc_memo *m);
/* The slot of (g, assign) in w->memo, filled with its renumbering (a new
 * slot has flow_ok false); NULL without a memo, or where a frozen memo
 * holds no flow of (g, assign). */
rf_rcc_memo_slot *rf_rcc_memo_get(rf_rcc_writes *w, const rf_rc_geom *g, int assign);
/* Fills w->memo (unfrozen) with the renumbering and flow of HI-RF design d
 * on gpu, as rf_rcc_apply would; nothing for other designs, without a memo
 * or without the kernel's write counts.  Setting w->memo->frozen after
 * that lets threads share it (calibrate's window models). */
int rf_rcc_memo_prepare(rf_rcc_writes *w, const rf_gpu *gpu, const rf_design *d, rf_err *err);

/* The flow from the code (last-writer distributions per line along the
 * CFG under the profile), or, without code, from independent writes:
 * c_r = 1 - p_r / P_line, h_r = p_r / P_line within the warp. */
int rf_rcc_flow_of(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, rf_rcc_flow *out,
                   rf_err *err);
void rf_rcc_flow_indep(const double *writes, int nregs, const rf_rc_geom *g, rf_rcc_flow *out);

/* Read locality: the chance that no other warp has written a read's line
 * since the reading warp's own last write there, in place of the write
 * locality lambda (analytic/rccollide.c).  A read mostly follows its
 * producer within the warp's own run of issues, so it sees the line's own
 * writer more often than a write does.  Chosen on the nine tuning kernels:
 * the least-squares fit of the model's read-miss rate, linear in it, to
 * the sampler's NVM reads per operand read (volta-hirf, concat base, full
 * runs on one SM). */
#define RF_RCC_READ_LOCALITY 0.75

/* Closed-form collision figures for `warps` resident warps (warp IDs
 * 0..warps-1) running the same flow. */
typedef struct rf_rcc_result {
    double indep;        /* conflict per write, warps interleaved independently
                          * (locality 0) */
    double intra;        /* conflict per write, each line's last writer the
                          * writing warp (locality 1) */
    double conflict;     /* at the given locality */
    double miss_indep;   /* reads served by the NVM file, warps interleaved
                          * independently (locality 0) */
    double miss_intra;   /* ... each line's last writer the reading warp
                          * (locality 1) */
    double read_miss;    /* at the read locality RF_RCC_READ_LOCALITY */
    double own_read_stall; /* cycles per instruction a warp's operand reads wait
                          * for its own write-backs' bank backlog (rf_rcc_own_walk) */
    double own_wb_wait;  /* cycles per instruction its write-backs wait behind
                          * that backlog */
    double wb_own_share; /* the warp's own share of the write-backs at the banks
                          * it reads (rf_rcc_wb_dispersion), 0..1 */
    double wb_turn;      /* index of dispersion added by the warps' turns at the
                          * scheduler, each turn on the issuing warp's banks */
    int pairs;           /* (warp, register) pairs written */
    int lines_used;      /* lines they map to */
} rf_rcc_result;

void rf_rcc_rates(const rf_rc_geom *g, const rf_rcc_flow *fl, int warps, double locality,
                  rf_rcc_result *out);

/* rf_rcc_rates with only the share `live` (0 < live < 1; else 1) of the
 * warps holding registers, which warps unknown: under a direct-mapped index
 * each other warp's pairs compete for a line with probability `live`
 * (s = own / (own + live x others)); fully associative, a sub-core's LRU
 * holds the pairs of round(warps x live) warps. */
void rf_rcc_rates_live(const rf_rc_geom *g, const rf_rcc_flow *fl, int warps, double live,
                       double locality, rf_rcc_result *out);

#define RF_RCC_MAX_BANKS 64

/* A warp's own NVM bank backlog along its code (sampler: register r of
 * warp slot w is in bank (r + w) mod banks, so the warp's accesses to
 * registers equal mod banks share a bank): each block in program
 * order (blocks that loop on themselves from the backlog of their previous
 * pass), one instruction per cycle; every bank's backlog drains one cycle
 * per cycle; a read of register r (renumbered) misses with miss[r] and
 * then waits for its bank's backlog (writes go first), the warp with it;
 * a write of r is a write-back of the warp's own pair with own[r], which
 * waits behind the backlog of the victim's bank and adds `service` cycles
 * to it (the victim shares r's line, so it agrees with r on the register
 * bits the line fixes: concat R bits, TEA all index bits; with fewer than
 * log2 banks of them the write-back is spread over the banks it can
 * have).  Outputs per instruction (block frequencies of the profile):
 * read_stall, the cycles reads waited; wb_wait, the cycles write-backs
 * waited.  0 without code. */
int rf_rcc_own_walk(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, const double *own,
                    const double *miss, int banks, int service, double *read_stall,
                    double *wb_wait, rf_err *err);

/* The other warps' write-backs at the NVM banks a warp reads, from its
 * code: a write of register r (renumbered) evicts the warp's own pair with
 * own[r], a write-back to r's bank (or spread over the banks r's line
 * allows, as in rf_rcc_own_walk); another warp's pair with any[r] - own[r],
 * spread evenly over the banks.
 * *own_share: the warp's own write-backs' share of the write-backs at the
 *   banks it reads (each bank weighted by the warp's missing reads there,
 *   miss[r]), with conc warps issuing at the same rate, the others' spread
 *   evenly over the banks; 0 without code or with miss NULL.
 * *turn_vr (may be NULL): over the warps taking turns at a scheduler, the
 *   variance over mean of a bank's arrival rate per instruction, the
 *   issuing warp's own write-backs at its code's bank shares (rotated by
 *   its slot) and the others' victims spread evenly: sum_j (O_j - O)^2 / B
 *   / (O + S) / instructions; a turn of n instructions adds about 2 n
 *   turn_vr to the index of dispersion over long windows. */
int rf_rcc_wb_dispersion(const rf_rcc_writes *w, const rf_rc_geom *g, int assign,
                         const double *own, const double *any, const double *miss, int conc,
                         int banks, double *own_share, double *turn_vr, rf_err *err);

/* Locality that best fits measured conflict rates meas[i] of n results
 * (conflict is linear in it): least squares, clamped to [0, 0.95]; -1 when
 * no result depends on it. */
double rf_rcc_fit_locality(const rf_rcc_result *res, const double *meas, int n);

/* The stall an instruction's own warp sees from NVM write-backs, cycles per
 * instruction: writes per instruction x conflict x (nvm_write_latency - 1)
 * (a write into the cache completes in the cycle it arrives; a conflicting
 * one waits for the victim's NVM write). */
double rf_rcc_stall(double writes_per_inst, double conflict, int nvm_write_latency);

/* HI-RF terms of the IPC model (no-op for other designs): with `warps`
 * resident warps, of which the share k->live_frac has not exited (0: all;
 * rf_rcc_rates_live), and the flow of k->rcw under d at p->rc_locality, sets
 * the write-back rate and service of m (the stall term of analytic/ipc.c)
 * and turns k's register reads and writes into what the
 * NVM banks see (read misses; write-backs times the NVM write latency, the
 * cycles each holds its bank).  out (may be NULL) gets the rates. */
struct rf_ipc_kernel;
struct rf_ipc_machine;
struct rf_ipc_params;
int rf_rcc_apply(const rf_gpu *gpu, const rf_design *d, int warps,
                 const struct rf_ipc_params *p, struct rf_ipc_machine *m,
                 struct rf_ipc_kernel *k, rf_rcc_result *out, rf_err *err);

#endif /* RF_RCCOLLIDE_H */
