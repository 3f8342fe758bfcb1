/* test_fit.c - GSL fitting (calibrate/fit.c) recovers known parameters from
 * synthetic samples; calibration records round-trip (calibrate/record.c). */
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../analytic/ipc.h"
#include "../calibrate/fit.h"
#include "../calibrate/record.h"

#define N 24

typedef struct expo {
    double x[N];
} expo;

/* y = a exp(-b x) + c */
static int expo_fn(const double *th, size_t i, double *v, void *ctx)
{
    const expo *e = ctx;
    *v = th[0] * exp(-th[1] * e->x[i]) + th[2];
    return 0;
}

static void recovers_exact_parameters(void **state)
{
    (void)state;
    expo e;
    double y[N];
    for (int i = 0; i < N; i++) {
        e.x[i] = 0.25 * i;
        y[i] = 5.0 * exp(-0.4 * e.x[i]) + 1.0;
    }
    double lo[3] = {0, 0, -10}, hi[3] = {20, 5, 10}, start[3] = {1, 1, 0};
    rf_fit_problem pb = {N, 3, y, NULL, lo, hi, start, expo_fn, &e, 0};
    rf_fit_result r;
    rf_err err;
    assert_int_equal(rf_fit_run(&pb, &r, &err), RF_OK);
    assert_float_equal(r.theta[0], 5.0, 1e-5);
    assert_float_equal(r.theta[1], 0.4, 1e-6);
    assert_float_equal(r.theta[2], 1.0, 1e-5);
    assert_true(r.chisq < 1e-12);
    assert_true(r.chisq0 > r.chisq);
    assert_int_equal(r.dof, N - 3);
}

static void noisy_samples_within_errors(void **state)
{
    (void)state;
    expo e;
    double y[N], sigma[N];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 12345);
    for (int i = 0; i < N; i++) {
        e.x[i] = 0.25 * i;
        sigma[i] = 0.05;
        y[i] = 5.0 * exp(-0.4 * e.x[i]) + 1.0 + gsl_ran_gaussian(rng, sigma[i]);
    }
    gsl_rng_free(rng);
    double lo[3] = {0, 0, -10}, hi[3] = {20, 5, 10}, start[3] = {2, 2, 0};
    rf_fit_problem pb = {N, 3, y, sigma, lo, hi, start, expo_fn, &e, 0};
    rf_fit_result r;
    rf_err err;
    assert_int_equal(rf_fit_run(&pb, &r, &err), RF_OK);
    double truth[3] = {5.0, 0.4, 1.0};
    for (int j = 0; j < 3; j++) {
        assert_true(r.se[j] > 0.0);
        assert_true(fabs(r.theta[j] - truth[j]) < 4.0 * r.se[j]);
    }
    /* Covariance is symmetric. */
    assert_float_equal(r.cov[0][1], r.cov[1][0], 1e-12 + 1e-9 * fabs(r.cov[0][1]));
}

static void bounds_are_respected(void **state)
{
    (void)state;
    /* The best unbounded c is 1; bound it to [2, 3]: the fit stops at the
     * bound and stays inside. */
    expo e;
    double y[N];
    for (int i = 0; i < N; i++) {
        e.x[i] = 0.25 * i;
        y[i] = 5.0 * exp(-0.4 * e.x[i]) + 1.0;
    }
    double lo[3] = {0, 0, 2}, hi[3] = {20, 5, 3}, start[3] = {1, 1, 100};
    rf_fit_problem pb = {N, 3, y, NULL, lo, hi, start, expo_fn, &e, 0};
    rf_fit_result r;
    rf_err err;
    assert_int_equal(rf_fit_run(&pb, &r, &err), RF_OK);
    assert_true(r.theta[2] >= 2.0 && r.theta[2] <= 3.0);
    assert_float_equal(r.theta[2], 2.0, 1e-3);
}

static int failing_fn(const double *th, size_t i, double *v, void *ctx)
{
    (void)th, (void)ctx;
    *v = 0;
    return i == 2 ? RF_EUNSUPPORTED : 0;
}

static void errors_are_values(void **state)
{
    (void)state;
    double y[4] = {1, 2, 3, 4}, lo[1] = {0}, hi[1] = {1}, start[1] = {0.5};
    rf_fit_problem pb = {4, 1, y, NULL, lo, hi, start, failing_fn, NULL, 0};
    rf_fit_result r;
    rf_err err;
    assert_int_equal(rf_fit_run(&pb, &r, &err), RF_EUNSUPPORTED);
    /* Fewer observations than parameters. */
    double lo2[2] = {0, 0}, hi2[2] = {1, 1}, st2[2] = {0.5, 0.5};
    rf_fit_problem pb2 = {1, 2, y, NULL, lo2, hi2, st2, failing_fn, NULL, 0};
    assert_int_equal(rf_fit_run(&pb2, &r, &err), RF_EFIT);
    assert_non_null(strstr(err.msg, "observations"));
}

/* The IPC model's own parameters recovered from synthetic "samples": IPC at
 * several bank counts and warp counts generated with known lat_scale,
 * conflict_scale and coll_base. */
typedef struct ipc_ctx {
    rf_ipc_kernel k;
    rf_ipc_machine m[N];
    int idx[3];
} ipc_ctx;

static int ipc_fn(const double *th, size_t i, double *v, void *ctx)
{
    ipc_ctx *c = ctx;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    for (int j = 0; j < 3; j++)
        rf_mparam_put(&rf_ipc_mparams[c->idx[j]], &p, th[j]);
    rf_ipc_result r;
    rf_ipc_steady(&c->k, &c->m[i], &p, &r);
    *v = r.ipc;
    return 0;
}

static void recovers_ipc_parameters(void **state)
{
    (void)state;
    ipc_ctx c;
    memset(&c, 0, sizeof c);
    c.k.reads = 2.2;
    c.k.writes = 0.9;
    c.k.read_k[1] = 0.3;
    c.k.read_k[2] = 0.3;
    c.k.read_k[3] = 0.4;
    c.k.stall_dep = 3.0;
    c.k.stall_mem = 2.0;
    c.k.insts_per_warp = 1000;
    c.k.warps_per_cta = 8;
    c.idx[0] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "lat_scale");
    c.idx[1] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "conflict_scale");
    c.idx[2] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "coll_base");
    double truth[3] = {1.7, 2.5, 4.0};
    const int banks[4] = {4, 8, 16, 32};
    double y[N];
    size_t n = 0;
    for (int b = 0; b < 4; b++)
        for (int w = 8; w <= 48; w += 20, n++) {
            rf_ipc_machine *m = &c.m[n];
            m->warps = w;
            m->schedulers = 2;
            m->issue_width = 1;
            m->alu_pipes = 2;
            m->banks = banks[b];
            m->collectors = 8;
            m->rf_latency = 1;
            ipc_fn(truth, n, &y[n], &c);
        }
    double lo[3], hi[3], start[3];
    for (int j = 0; j < 3; j++) {
        lo[j] = rf_ipc_mparams[c.idx[j]].lo;
        hi[j] = rf_ipc_mparams[c.idx[j]].hi;
        start[j] = rf_ipc_mparams[c.idx[j]].def;
    }
    rf_fit_problem pb = {n, 3, y, NULL, lo, hi, start, ipc_fn, &c, 0};
    rf_fit_result r;
    rf_err err;
    assert_int_equal(rf_fit_run(&pb, &r, &err), RF_OK);
    for (int j = 0; j < 3; j++)
        assert_float_equal(r.theta[j], truth[j], 1e-3 * truth[j]);
}

static void record_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/rfkit-test-recordXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);   /* start from no file */

    rf_calib a, b, got;
    rf_calib_init(&a, "fermi-gtx480", "hotspot");
    a.params.lat_scale = 1.25;
    a.params.conflict.scale = 3.5;
    a.nfit = 2;
    a.fit_idx[0] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "lat_scale");
    a.fit_idx[1] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "conflict_scale");
    a.cov[0][0] = 0.01;
    a.cov[0][1] = a.cov[1][0] = -0.002;
    a.cov[1][1] = 0.3;
    a.rms_rel = 0.012;
    a.dof = 4;
    a.samples = 6;
    a.sample_cycles = 12345;
    a.full_cycles = 987654;
    a.has_meas = true;
    a.meas_reads = 2.1;
    a.meas_writes = 0.8;
    rf_err err;
    assert_int_equal(rf_record_save(path, &a, &err), RF_OK);

    rf_calib_init(&b, "fermi-gtx480", "sgemm, \"tiled\"");   /* needs quoting */
    b.params.mem_scale = 0.5;
    assert_int_equal(rf_record_save(path, &b, &err), RF_OK);

    /* Re-saving a replaces its rows and keeps b's. */
    a.params.lat_scale = 1.5;
    assert_int_equal(rf_record_save(path, &a, &err), RF_OK);

    assert_int_equal(rf_record_load(path, "fermi-gtx480", "hotspot", &got, &err), RF_OK);
    assert_float_equal(got.params.lat_scale, 1.5, 0.0);
    assert_float_equal(got.params.conflict.scale, 3.5, 0.0);
    assert_int_equal(got.nfit, 2);
    assert_int_equal(got.fit_idx[1], a.fit_idx[1]);
    assert_float_equal(got.cov[0][1], -0.002, 0.0);
    assert_float_equal(got.rms_rel, 0.012, 0.0);
    assert_int_equal(got.dof, 4);
    assert_int_equal(got.samples, 6);
    assert_true(got.has_meas);
    assert_float_equal(got.meas_reads, 2.1, 0.0);

    assert_int_equal(rf_record_load(path, "fermi-gtx480", "sgemm, \"tiled\"", &got, &err), RF_OK);
    assert_float_equal(got.params.mem_scale, 0.5, 0.0);
    assert_int_equal(rf_record_load(path, "v100", "hotspot", &got, &err), RF_EUNKNOWN);
    assert_int_equal(rf_record_load("/nonexistent/rec.csv", "a", "b", &got, &err), RF_EIO);

    /* A bad value names the file, line and key. */
    FILE *fp = fopen(path, "a");
    fputs("x,y,param:lat_scale,abc\n", fp);
    fclose(fp);
    assert_int_equal(rf_record_load(path, "x", "y", &got, &err), RF_ENUMBER);
    assert_non_null(strstr(err.msg, "param:lat_scale"));
    /* A parameter this build does not know is a malformed record (file,
     * line, key), not a missing one (RF_EUNKNOWN). */
    fp = fopen(path, "a");
    fputs("u,v,param:no_such_param,1\n", fp);
    fclose(fp);
    assert_int_equal(rf_record_load(path, "u", "v", &got, &err), RF_EPARSE);
    assert_non_null(strstr(err.msg, "param:no_such_param: unknown model parameter"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recovers_exact_parameters),
        cmocka_unit_test(noisy_samples_within_errors),
        cmocka_unit_test(bounds_are_respected),
        cmocka_unit_test(errors_are_values),
        cmocka_unit_test(recovers_ipc_parameters),
        cmocka_unit_test(record_round_trip),
    };
    return cmocka_run_group_tests_name("fit", tests, NULL, NULL);
}
