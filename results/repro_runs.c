/* repro_runs.c - loading, calibrating, estimating and simulating a bundled
 * kernel for the reproduction experiments, and the verdict rules.
 * (Interface and assumptions: repro_runs.h.)
 */
#include "repro_runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../inputs/regalloc.h"

int rf_rr_open(const rf_repro_opts *o, const rf_gpu *gpu, const char *name, int calibrate,
               rf_rr_kernel *rk, rf_err *err)
{
    memset(rk, 0, sizeof *rk);
    int rc = rf_repro_load_kernel(o, name, true, &rk->k, err);
    if (rc)
        return rc;
    rc = rf_kernel_fit_regs(rk->k, gpu, err);
    if (rc == 0)
        rc = rf_kchar_compute(gpu, rk->k, &rk->kc, err);
    rf_calib_init_kernel(&rk->cal, gpu->name, rk->k);
    if (rc == 0 && calibrate) {
        rf_calib_report *rep = malloc(sizeof *rep);
        if (!rep) {
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        } else {
            rf_calib_opts co = {0, o->seed, NULL, false, NULL, 1};
            rc = rf_calib_run(gpu, gpu->name, rk->k, &rk->kc, &co, &rk->cal, rep, err);
            free(rep);
            rk->calibrated = rc == 0;
        }
    }
    if (rc) {
        char path[1024];
        rf_repro_kernel_path(o, name, path, sizeof path);
        rf_err_place(err, path, 0, 0);
        rf_rr_close(rk);
    }
    return rc;
}

void rf_rr_close(rf_rr_kernel *rk)
{
    if (rk->k)
        rf_kernel_destroy(rk->k);
    rk->k = NULL;
}

int rf_rr_estimate(const rf_gpu *gpu, const rf_design *d, const rf_rr_kernel *rk,
                   rf_estimate *e, rf_err *err)
{
    return rf_rr_estimate_on(gpu, d, rk, 1, e, err);
}

int rf_rr_estimate_on(const rf_gpu *gpu, const rf_design *d, const rf_rr_kernel *rk, int sms,
                      rf_estimate *e, rf_err *err)
{
    const rf_kernel *k = rk->k;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), sms};
    return rf_extrap_estimate(gpu, d, &rk->kc, &shape, rk->calibrated ? &rk->cal : NULL, e,
                              err);
}

int rf_rr_simulate(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k, uint64_t seed,
                   rf_sim_stats *st, rf_err *err)
{
    rf_sim_opts so;
    rf_sim_opts_init(&so);
    so.seed = seed;
    so.cycles = 0;   /* the whole grid */
    return rf_sim_run(gpu, d, k, &so, st, err);
}

rf_verdict rf_rr_effect(double measured, double published, double flat)
{
    if (!isfinite(measured))
        return RF_DIFFERS;
    if (fabs(published) <= flat)
        return fabs(measured) <= flat ? RF_REPRODUCED : RF_DIFFERS;
    double lo = published / 2, hi = published * 2;
    if (published < 0) {
        double t = lo;
        lo = hi;
        hi = t;
    }
    return measured >= lo && measured <= hi ? RF_REPRODUCED : RF_DIFFERS;
}

rf_verdict rf_rr_level(double measured, double published, double tol)
{
    return isfinite(measured) && fabs(measured - published) <= tol ? RF_REPRODUCED
                                                                     : RF_DIFFERS;
}

const char *rf_rr_verdict_name(rf_verdict v)
{
    return v == RF_REPRODUCED ? "reproduced" : "differs";
}

double rf_rr_geomean(const double *x, int n)
{
    if (n <= 0)
        return NAN;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += log(x[i]);
    return exp(s / n);
}
