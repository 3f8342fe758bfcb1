/* fit.c - bounded nonlinear least squares.
 *
 * Minimises chi^2 = sum_i ((f_i(theta) - y_i) / sigma_i)^2 with GSL's
 * trust-region solver (gsl_multifit_nlinear, Levenberg-Marquardt with
 * geodesic acceleration off, finite-difference Jacobian with step FD_STEP).
 *
 * Bounds: the solver works on unbounded u with
 *     theta = lo + (hi - lo) / (1 + exp(-u))
 * so every trial point is inside [lo, hi].  The covariance of u,
 * C_u = (J^T J)^-1 from gsl_multifit_nlinear_covar, maps to theta by the
 * delta method, C_theta = D C_u D with D = diag(dtheta/du) =
 * diag((hi - lo) s (1 - s)), s the logistic value; it is scaled by
 * chi^2 / dof (the residual variance) when dof > 0.  A parameter pinned at
 * a bound gets a standard error near zero: the interval then reflects the
 * other parameters and the residual scatter only.
 *
 * GSL's default error handler aborts the process; rf_fit_gsl_quiet() turns
 * it off and every GSL return value here is checked.
 */
#include "fit.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <string.h>

/* Finite-difference step of the Jacobian, in the logistic coordinate u
 * (GSL's default is sqrt(DBL_EPSILON), 1.5e-8).  The IPC model solves a
 * fixed point to a relative 1e-6 (analytic/ipc.c), so a step of 1.5e-8 gave
 * derivatives of solver noise: sgemm's fit on bench_accuracy stopped at its
 * start point (chi^2 3.67 -> 3.67 in 19 iterations); with 1e-3 it moved
 * (3.67 -> 2.67), and the derivatives' error is about 1e-3 of their size. */
#define FD_STEP 1e-3
/* Stopping (rf_fit_run): a step under XTOL of the parameters (in u), or a
 * gradient or a chi^2 change under GTOL.  The IPC model's own solver
 * tolerance is 1e-6 relative, so a tighter stop only buys iterations on
 * solver noise. */
#define XTOL 1e-4
#define GTOL 1e-6

void rf_fit_gsl_quiet(void)
{
    gsl_set_error_handler_off();
}

typedef struct cb_ctx {
    const rf_fit_problem *pb;
    int rc;              /* first error a model evaluation returned */
} cb_ctx;

static double to_theta(double u, double lo, double hi)
{
    return lo + (hi - lo) / (1.0 + exp(-u));
}

static double to_u(double theta, double lo, double hi)
{
    double s = (theta - lo) / (hi - lo);
    const double eps = 1e-6;
    if (s < eps)
        s = eps;
    if (s > 1.0 - eps)
        s = 1.0 - eps;
    return log(s / (1.0 - s));
}

static int residuals(const gsl_vector *u, void *data, gsl_vector *f)
{
    cb_ctx *c = data;
    const rf_fit_problem *pb = c->pb;
    double theta[RF_FIT_MAXP];
    for (size_t j = 0; j < pb->p; j++)
        theta[j] = to_theta(gsl_vector_get(u, j), pb->lo[j], pb->hi[j]);
    for (size_t i = 0; i < pb->n; i++) {
        double v;
        int rc = pb->f(theta, i, &v, pb->ctx);
        if (rc) {
            if (!c->rc)
                c->rc = rc;
            return GSL_EBADFUNC;
        }
        double s = pb->sigma ? pb->sigma[i] : 1.0;
        double r = (v - pb->y[i]) / s;
        if (!isfinite(r))
            return GSL_EBADFUNC;
        gsl_vector_set(f, i, r);
    }
    return GSL_SUCCESS;
}

static double sumsq(const gsl_vector *f)
{
    double s;
    if (gsl_blas_ddot(f, f, &s) != GSL_SUCCESS)
        return NAN;
    return s;
}

int rf_fit_run(const rf_fit_problem *pb, rf_fit_result *out, rf_err *err)
{
    return rf_fit_run_tol(pb, XTOL, GTOL, out, err);
}

int rf_fit_run_tol(const rf_fit_problem *pb, double xtol, double gtol, rf_fit_result *out,
                   rf_err *err)
{
    rf_fit_gsl_quiet();
    memset(out, 0, sizeof *out);
    if (pb->p < 1 || pb->p > RF_FIT_MAXP)
        return rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL, "fit: %zu parameters (1..%d allowed)",
                          pb->p, RF_FIT_MAXP);
    if (pb->n < pb->p)
        return rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL,
                          "fit: %zu observations for %zu parameters", pb->n, pb->p);
    for (size_t j = 0; j < pb->p; j++)
        if (!(pb->lo[j] < pb->hi[j]))
            return rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL, "fit: empty bounds for parameter %zu", j);

    cb_ctx c = {pb, 0};
    gsl_multifit_nlinear_fdf fdf;
    memset(&fdf, 0, sizeof fdf);
    fdf.f = residuals;
    fdf.df = NULL;    /* finite differences */
    fdf.fvv = NULL;
    fdf.n = pb->n;
    fdf.p = pb->p;
    fdf.params = &c;

    gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
    params.trs = gsl_multifit_nlinear_trs_lm;
    params.scale = gsl_multifit_nlinear_scale_more;
    params.h_df = FD_STEP;

    int rc = RF_OK;
    gsl_vector *u0 = gsl_vector_alloc(pb->p);
    gsl_matrix *cov = gsl_matrix_alloc(pb->p, pb->p);
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params, pb->n, pb->p);
    if (!u0 || !cov || !w) {
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "fit: out of memory");
        goto done;
    }
    for (size_t j = 0; j < pb->p; j++)
        gsl_vector_set(u0, j, to_u(pb->start[j], pb->lo[j], pb->hi[j]));

    int st = gsl_multifit_nlinear_init(u0, &fdf, w);
    if (st != GSL_SUCCESS) {
        rc = c.rc ? rf_err_set(err, c.rc, NULL, 0, 0, NULL, "fit: model failed at the start point")
                  : rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL, "fit: cannot start: %s", gsl_strerror(st));
        goto done;
    }
    out->chisq0 = sumsq(gsl_multifit_nlinear_residual(w));

    int info = 0;
    size_t max_iter = pb->max_iter ? pb->max_iter : 200;
    st = gsl_multifit_nlinear_driver(max_iter, xtol, gtol, gtol, NULL, NULL, &info, w);
    if (c.rc) {
        rc = rf_err_set(err, c.rc, NULL, 0, 0, NULL, "fit: model evaluation failed");
        goto done;
    }
    if (st == GSL_SUCCESS) {
        out->stop = info;
    } else if (st == GSL_EMAXITER || st == GSL_ENOPROG) {
        out->stop = 0;   /* best point found is still usable */
    } else {
        rc = rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL, "fit: %s", gsl_strerror(st));
        goto done;
    }
    out->iters = gsl_multifit_nlinear_niter(w);
    out->chisq = sumsq(gsl_multifit_nlinear_residual(w));
    if (!isfinite(out->chisq)) {
        rc = rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL, "fit: residuals are not finite");
        goto done;
    }
    st = gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, cov);
    if (st != GSL_SUCCESS) {
        rc = rf_err_set(err, RF_EFIT, NULL, 0, 0, NULL, "fit: covariance: %s", gsl_strerror(st));
        goto done;
    }
    out->dof = (int)(pb->n - pb->p);
    double scale = out->dof > 0 ? out->chisq / out->dof : 1.0;
    const gsl_vector *u = gsl_multifit_nlinear_position(w);
    double d[RF_FIT_MAXP];
    for (size_t j = 0; j < pb->p; j++) {
        double uj = gsl_vector_get(u, j);
        double s = 1.0 / (1.0 + exp(-uj));
        out->theta[j] = to_theta(uj, pb->lo[j], pb->hi[j]);
        d[j] = (pb->hi[j] - pb->lo[j]) * s * (1.0 - s);
    }
    for (size_t a = 0; a < pb->p; a++)
        for (size_t b = 0; b < pb->p; b++) {
            double v = d[a] * gsl_matrix_get(cov, a, b) * d[b] * scale;
            out->cov[a][b] = isfinite(v) ? v : 0.0;
        }
    for (size_t j = 0; j < pb->p; j++)
        out->se[j] = out->cov[j][j] > 0 ? sqrt(out->cov[j][j]) : 0.0;

done:
    if (w)
        gsl_multifit_nlinear_free(w);
    gsl_matrix_free(cov);
    gsl_vector_free(u0);
    return rc;
}
