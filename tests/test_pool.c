/* test_pool.c - jobs on worker threads, taken in index order (common/pool.c):
 * every released job runs once and its slot holds its own result, on no
 * thread or several; a stop after a partial release runs no job beyond it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../common/pool.h"

#define NJOBS 40

typedef struct ctx {
    long out[NJOBS];
    int runs[NJOBS];   /* each written by its own job only */
} ctx;

/* Job i: a sum whose value names i, and a count of its runs; job 7 fails. */
static int job(int i, void *arg)
{
    ctx *c = arg;
    long v = 0;
    for (long t = 0; t <= 1000L * (i % 5 + 1); t++)
        v += t % (i + 2);
    c->out[i] = v * 100 + i;
    c->runs[i]++;
    return i == 7 ? RF_EFIT : RF_OK;
}

static void all_jobs_in_order(void **state)
{
    (void)state;
    ctx want;
    memset(&want, 0, sizeof want);
    for (int i = 0; i < NJOBS; i++)
        job(i, &want);
    for (int threads = 0; threads <= 4; threads++) {
        ctx c;
        memset(&c, 0, sizeof c);
        rf_pool p;
        rf_err err;
        assert_int_equal(rf_pool_start(&p, threads, NJOBS, job, &c, &err), RF_OK);
        rf_pool_release(&p, NJOBS + 5);   /* beyond n: all */
        for (int i = 0; i < NJOBS; i++) {
            assert_int_equal(rf_pool_wait(&p, i), i == 7 ? RF_EFIT : RF_OK);
            assert_int_equal(c.out[i], want.out[i]);
        }
        rf_pool_finish(&p);
        for (int i = 0; i < NJOBS; i++)
            assert_int_equal(c.runs[i], 1);
    }
}

static void stops_at_the_release(void **state)
{
    (void)state;
    for (int threads = 1; threads <= 3; threads += 2) {
        ctx c;
        memset(&c, 0, sizeof c);
        rf_pool p;
        rf_err err;
        assert_int_equal(rf_pool_start(&p, threads, NJOBS, job, &c, &err), RF_OK);
        rf_pool_release(&p, 3);
        assert_int_equal(rf_pool_wait(&p, 0), RF_OK);
        rf_pool_release(&p, 6);
        assert_int_equal(rf_pool_wait(&p, 5), RF_OK);
        rf_pool_finish(&p);
        /* Jobs 0-5 ran once (on one thread: in order, each when waited
         * for or before), none after. */
        for (int i = 0; i < NJOBS; i++)
            assert_int_equal(c.runs[i], i < 6 ? 1 : 0);
    }
}

/* rf_pool_run: every job runs once whatever the threads; the value is the
 * first failing job's in job order (jobs 7 and 13 fail: 7's RF_EFIT, not
 * 13's RF_ENOMEM) and *err that job's own message. */
typedef struct run_ctx {
    int runs[NJOBS];
    rf_err errs[NJOBS];
} run_ctx;

static int run_job(int i, void *arg)
{
    run_ctx *c = arg;
    c->runs[i]++;
    if (i == 7)
        return rf_err_set(&c->errs[i], RF_EFIT, NULL, 0, 0, NULL, "job %d", i);
    if (i == 13)
        return rf_err_set(&c->errs[i], RF_ENOMEM, NULL, 0, 0, NULL, "job %d", i);
    return RF_OK;
}

static void run_reports_the_first_failure(void **state)
{
    (void)state;
    for (int threads = 0; threads <= 4; threads++) {
        run_ctx c;
        memset(&c, 0, sizeof c);
        rf_err err;
        rf_err_clear(&err);
        assert_int_equal(rf_pool_run(threads, NJOBS, run_job, &c, c.errs, &err), RF_EFIT);
        assert_string_equal(err.msg, "job 7");
        for (int i = 0; i < NJOBS; i++)
            assert_int_equal(c.runs[i], 1);
        memset(&c, 0, sizeof c);
        assert_int_equal(rf_pool_run(threads, 5, run_job, &c, NULL, &err), RF_OK);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_jobs_in_order),
        cmocka_unit_test(stops_at_the_release),
        cmocka_unit_test(run_reports_the_first_failure),
    };
    return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
