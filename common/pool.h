/* pool.h - independent jobs 0 .. n-1 run on worker threads, their results
 * taken in index order by the caller.
 *
 * The caller releases jobs up to an index (rf_pool_release) and waits for
 * one job at a time (rf_pool_wait); the workers take the released jobs in
 * index order.  Each job writes its own result slot only, so what the
 * caller reads in index order does not depend on the number of threads or
 * on which thread ran which job.  With jobs <= 1 no thread is started:
 * rf_pool_wait runs the released jobs up to its index on the calling
 * thread, as a plain loop would.  The caller can stop early (a stopping
 * rule, an error): rf_pool_finish lets the jobs already running end and
 * starts no other.
 *
 *   rf_pool p;
 *   rf_pool_start(&p, jobs, n, fn, ctx);
 *   rf_pool_release(&p, n);
 *   for (int i = 0; i < n; i++) { rf_pool_wait(&p, i); ...slot i... }
 *   rf_pool_finish(&p);
 */
#ifndef RF_POOL_H
#define RF_POOL_H

#include <pthread.h>
#include <stdbool.h>

#include "error.h"

/* Job i; its return value is kept for rf_pool_wait. */
typedef int (*rf_pool_fn)(int i, void *ctx);

typedef struct rf_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    rf_pool_fn fn;
    void *ctx;
    int n;                  /* jobs */
    int released;           /* jobs 0 .. released-1 may run */
    int next;               /* the next job a worker (or the caller) takes */
    int nthreads;           /* workers started (0: the caller runs the jobs) */
    bool stop;
    unsigned char *done;    /* done[i]: job i has ended */
    int *rc;                /* rc[i]: job i's return value */
    pthread_t *th;
} rf_pool;

/* Prepares n jobs (none released) on min(jobs, n) worker threads; jobs <= 1,
 * or threads that cannot be started: the caller runs them.  Returns 0, or
 * RF_ENOMEM (err filled; nothing to finish). */
int rf_pool_start(rf_pool *p, int jobs, int n, rf_pool_fn fn, void *ctx, rf_err *err);

/* Lets jobs 0 .. upto-1 run (upto beyond n: all). */
void rf_pool_release(rf_pool *p, int upto);

/* Waits until job i (released) has ended and returns its value. */
int rf_pool_wait(rf_pool *p, int i);

/* Starts no further job, waits for the running ones, stops the workers and
 * frees the pool. */
void rf_pool_finish(rf_pool *p);

/* Runs jobs 0 .. n-1 on up to `jobs` threads (rf_pool_start, every job
 * released) and waits for all of them.  Returns 0, the start's error, or
 * the first failing job's value in job order; then, where errs is given,
 * *err = errs[i] of that job i (each job fills its own). */
int rf_pool_run(int jobs, int n, rf_pool_fn fn, void *ctx, const rf_err *errs, rf_err *err);

#endif /* RF_POOL_H */
