/* pool.c - independent jobs on worker threads, results in index order
 * (common/pool.h).  One mutex and one condition variable guard the job
 * counters and the done flags; a job runs outside the lock. */
#include "pool.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The next released job not yet taken, or -1 (stopped, or none released
 * yet: then a worker waits).  Called with the lock held. */
static int take(rf_pool *p)
{
    if (p->stop || p->next >= p->released)
        return -1;
    return p->next++;
}

static void run_one(rf_pool *p, int i)
{
    int rc = p->fn(i, p->ctx);
    pthread_mutex_lock(&p->mu);
    p->rc[i] = rc;
    p->done[i] = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

static void *worker(void *arg)
{
    rf_pool *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        int i = take(p);
        if (i >= 0) {
            pthread_mutex_unlock(&p->mu);
            run_one(p, i);
            pthread_mutex_lock(&p->mu);
            continue;
        }
        if (p->stop || p->next >= p->n)
            break;
        pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int rf_pool_start(rf_pool *p, int jobs, int n, rf_pool_fn fn, void *ctx, rf_err *err)
{
    memset(p, 0, sizeof *p);
    p->fn = fn;
    p->ctx = ctx;
    p->n = n > 0 ? n : 0;
    p->done = calloc((size_t)p->n + 1, sizeof *p->done);
    p->rc = calloc((size_t)p->n + 1, sizeof *p->rc);
    int want = jobs < p->n ? jobs : p->n;
    if (want > 1)
        p->th = calloc((size_t)want, sizeof *p->th);
    if (!p->done || !p->rc || (want > 1 && !p->th)) {
        free(p->done);
        free(p->rc);
        free(p->th);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    /* Workers that cannot be started leave their share to the others, or
     * to the caller when none started. */
    for (int t = 0; want > 1 && t < want; t++) {
        if (pthread_create(&p->th[t], NULL, worker, p) != 0)
            break;
        p->nthreads++;
    }
    return RF_OK;
}

void rf_pool_release(rf_pool *p, int upto)
{
    if (upto > p->n)
        upto = p->n;
    pthread_mutex_lock(&p->mu);
    if (upto > p->released) {
        p->released = upto;
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
}

int rf_pool_wait(rf_pool *p, int i)
{
    pthread_mutex_lock(&p->mu);
    assert(i >= 0 && i < p->released);
    if (p->nthreads == 0) {
        /* No worker: the caller runs the released jobs up to i in order. */
        while (!p->done[i]) {
            int j = take(p);
            if (j < 0)
                break;
            pthread_mutex_unlock(&p->mu);
            run_one(p, j);
            pthread_mutex_lock(&p->mu);
        }
    } else {
        while (!p->done[i])
            pthread_cond_wait(&p->cv, &p->mu);
    }
    int rc = p->rc[i];
    pthread_mutex_unlock(&p->mu);
    return rc;
}

void rf_pool_finish(rf_pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int t = 0; t < p->nthreads; t++)
        pthread_join(p->th[t], NULL);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->th);
    free(p->done);
    free(p->rc);
    memset(p, 0, sizeof *p);
}

int rf_pool_run(int jobs, int n, rf_pool_fn fn, void *ctx, const rf_err *errs, rf_err *err)
{
    rf_pool p;
    int rc = rf_pool_start(&p, jobs, n, fn, ctx, err);
    if (rc)
        return rc;
    rf_pool_release(&p, n);
    for (int i = 0; i < n; i++) {
        int r = rf_pool_wait(&p, i);
        if (r && !rc) {
            rc = r;
            if (errs && err)
                *err = errs[i];
        }
    }
    rf_pool_finish(&p);
    return rc;
}
