/* benchrun.h - what the accuracy benches share: the kernel specs of a
 * folder, full sampler runs of many (kernel, design) points on all cores,
 * a file cache of those runs, and the order statistics of a table. */
#ifndef RF_BENCHRUN_H
#define RF_BENCHRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../analytic/design.h"
#include "../../inputs/gpu.h"
#include "../../inputs/kernel.h"
#include "../../sampler/sim.h"

/* One full run: the whole grid on one SM (rf_sim_opts.sms = 1), or the
 * share of a spread kernel, with the kernel's draws (rf_sim_opts.seed =
 * k->profile.seed, 1 as loaded), as `rfkit simulate --full` and `estimate`
 * describe it. */
typedef struct benchrun_point {
    const rf_gpu *gpu;
    const rf_kernel *k;
    rf_design d;
    char key[160];          /* "set|kernel|label": names the point in the cache */
    double ipc;             /* warp instructions per cycle; 0 = not run yet */
    uint64_t cycles;
    double cpu_s;           /* thread CPU time of the run, seconds */
    int rc;                 /* rf_sim_run's return code */
    rf_sim_stats *stats;    /* when set, the run's stats are copied here */
} benchrun_point;

/* The cache key of p's run with the draws of seed `run`: "|seed=S" after
 * the key, nothing for seed 1 (the keys of every cache before seeds). */
void benchrun_key_run(benchrun_point *p, uint64_t run);

/* The thread CPU time of one more full run of p (p itself left as it
 * is): the denominator of a cost ratio, timed beside the cost it divides,
 * where p's own time may come from a cache filled in another state of a
 * shared machine.  -1 when the run fails. */
double benchrun_retime(const benchrun_point *p);

/* Whether name is one of the comma-separated names in list (a bench's
 * RF_BENCH_KERNELS selection). */
bool benchrun_listed(const char *list, const char *name);

/* Names (without ".spec") of the *.spec files in dir, sorted, at most max;
 * each is malloc'ed.  Returns the count, or -1 when dir cannot be read. */
int benchrun_specs(const char *dir, char **names, int max);

/* Runs every point with ipc == 0 on nthreads threads (<= 0: one per online
 * CPU).  Errors are printed with the point's key and left in rc. */
void benchrun_full(benchrun_point *pts, int n, int nthreads);

/* The cache file: one "key|ipc|cycles|cpu_s" line per point.  load fills the
 * points whose key it finds and returns how many; save writes every point
 * run without error and keeps the file's lines for keys not among pts.  A
 * missing file loads nothing. */
int benchrun_cache_load(const char *path, benchrun_point *pts, int n);
int benchrun_cache_save(const char *path, const benchrun_point *pts, int n);

/* Median of x[0..n) (mean of the two middle values for even n), sorting x
 * in place; 0 for n == 0. */
double benchrun_median(double *x, int n);

/* Thread CPU time in seconds (CLOCK_THREAD_CPUTIME_ID): a cost measure that
 * holds on a machine shared with other jobs. */
double benchrun_cpu_s(void);

/* CPU time of every thread of the process (CLOCK_PROCESS_CPUTIME_ID): the
 * cost of a call that runs its own threads, measured while no other thread
 * of the process works. */
double benchrun_proc_cpu_s(void);

/* Wall-clock seconds (CLOCK_MONOTONIC). */
double benchrun_wall_s(void);

/* The least wall-clock milliseconds of reps runs of the command argv
 * (argv[0] a path, NULL-terminated; its output to /dev/null), process
 * start included, as a user's shell would see it; -1 when a run could not
 * start or did not exit 0. */
double benchrun_cmd_ms(char *const argv[], int reps);

#endif /* RF_BENCHRUN_H */
