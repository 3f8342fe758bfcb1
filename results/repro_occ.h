/* repro_occ.h - runs shared by the occupancy seeds' experiments (seed 000
 * FineReg, results/repro_000.c; seed 003 Register Sharing, repro_003.c):
 * one full sampler run of a bundled kernel under a design, and one
 * calibration of a bundled kernel followed by closed-form estimates of
 * several designs.  Each call loads its own GPU and kernel, so the calls of
 * an rf_repro_map run side by side without sharing state.
 */
#ifndef RF_REPRO_OCC_H
#define RF_REPRO_OCC_H

#include "../analytic/design.h"
#include "../analytic/occupancy.h"
#include "../calibrate/extrapolate.h"
#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../sampler/sim.h"
#include "repro.h"

/* One full run (`simulate --full`): kernel `name` of the bundled set on
 * preset gpu_name under design d, sms SMs side by side, seed o->seed.
 * RF_OK with *st filled, else a negative code with err naming the kernel. */
int rf_repro_occ_sim(const rf_repro_opts *o, const char *gpu_name, const char *name,
                     const rf_design *d, int sms, rf_sim_stats *st, rf_err *err);

/* Calibrate kernel `name` on gpu_name (as `rfkit calibrate`, seed o->seed),
 * then estimate each of the nd designs (as `rfkit estimate` with that
 * record) over sms SMs (the sampler's layout: 1 is one SM running the whole
 * grid).  est[0..nd) filled. */
int rf_repro_occ_estimate(const rf_repro_opts *o, const char *gpu_name, const char *name,
                          const rf_design *d, int nd, int sms, rf_estimate *est, rf_err *err);

/* Issue slots of a run: cycles x SMs x schedulers x issue width; the
 * denominator of the scheduler's stall counters (stall_lock,
 * srp_stall_cycles). */
double rf_repro_occ_slots(const rf_gpu *gpu, const rf_sim_stats *st, int sms);

/* Arithmetic mean of x[0..n) (0 when n = 0). */
double rf_repro_occ_mean(const double *x, int n);

/* Seed 003's Set-1 applications: Table 2 (block size, registers per
 * thread) and Table 5 (resident thread blocks at 0, 10, 30, 50, 70 and 90%
 * sharing). */
#define RF_REPRO003_NAPPS 8
#define RF_REPRO003_NLEVELS 6
typedef struct rf_repro003_app {
    const char *name;
    int block, regs;
    int t5[RF_REPRO003_NLEVELS];
} rf_repro003_app;
extern const rf_repro003_app rf_repro003_apps[RF_REPRO003_NAPPS];
extern const double rf_repro003_levels[RF_REPRO003_NLEVELS];

/* Table 5 by rfkit's occupancy model on gpu: cells[a][l] resident blocks of
 * application a at level l, occ90[a] its occupancy at 90%. */
int rf_repro003_table5(const rf_gpu *gpu, int cells[][RF_REPRO003_NLEVELS], rf_occ *occ90,
                       rf_err *err);

/* 1 when ipc[n - 1] (90%) is at least every other level's IPC: the
 * application performs best at 90% sharing, a tie included. */
int rf_repro003_best_at90(const double *ipc, int n);

/* The limits that bind a count (each limit equal to it: "regs, threads"),
 * registers meaning Eq. 4's M for design sharing. */
void rf_repro003_binding(const rf_occ *occ, char *buf, size_t cap);

#endif /* RF_REPRO_OCC_H */
