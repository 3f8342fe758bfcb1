/* fit.h - bounded nonlinear least squares with GSL gsl_multifit_nlinear.
 * (Method and transforms: calibrate/fit.c.)
 */
#ifndef RF_FIT_H
#define RF_FIT_H

#include <stddef.h>

#include "../common/error.h"

#define RF_FIT_MAXP 12

/* Model value for observation i at parameters theta (length p).
 * Returns 0, or a negative rf code to abort the fit. */
typedef int (*rf_fit_fn)(const double *theta, size_t i, double *value, void *ctx);

typedef struct rf_fit_problem {
    size_t n;            /* observations */
    size_t p;            /* parameters, 1..RF_FIT_MAXP */
    const double *y;     /* observed values */
    const double *sigma; /* per-observation scale (residual = (f - y) / sigma); NULL = 1 */
    const double *lo;    /* bounds, lo[j] < hi[j] */
    const double *hi;
    const double *start; /* start point (clamped inside the bounds) */
    rf_fit_fn f;
    void *ctx;
    size_t max_iter;     /* 0 = 200 */
} rf_fit_problem;

typedef struct rf_fit_result {
    double theta[RF_FIT_MAXP];
    double se[RF_FIT_MAXP];                 /* standard errors */
    double cov[RF_FIT_MAXP][RF_FIT_MAXP];   /* covariance, scaled by chisq / dof */
    double chisq0;       /* sum of squared scaled residuals at the start */
    double chisq;        /* ... at the solution */
    int dof;             /* n - p */
    size_t iters;
    int stop;            /* 1 small step, 2 small gradient, 0 iteration limit / no progress */
} rf_fit_result;

/* Turn GSL's abort-on-error handler off (every GSL status is checked). */
void rf_fit_gsl_quiet(void);

/* Fit; RF_EFIT (err says why) when GSL fails or the residuals are not finite. */
int rf_fit_run(const rf_fit_problem *pb, rf_fit_result *out, rf_err *err);

/* Same, stopping at a step under xtol (in the logistic coordinate of
 * calibrate/fit.c) or a gradient or relative chi^2 change under gtol;
 * rf_fit_run uses 1e-4 and 1e-6. */
int rf_fit_run_tol(const rf_fit_problem *pb, double xtol, double gtol, rf_fit_result *out,
                   rf_err *err);

#endif /* RF_FIT_H */
