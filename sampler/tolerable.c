/* tolerable.c - maximum tolerable main-register-file latency (seed 004
 * Section 6.3: "the relative latency of the main register file that leads
 * to at most 5% performance (IPC) loss"), measured with the sampler.
 *
 * The main file keeps its capacity and banks (design rf_config) while its
 * latency multiplier latency_x (relative to configuration #1) grows by
 * `step` from 1.  Two references for the loss:
 *   self  the design itself at 1x: the latency the design absorbs;
 *   ref   a conventional banked file of the same capacity at 1x (baseline
 *         for configuration #1, ideal for the 8x configurations): the
 *         paper's comparison against a register file without caching.
 * For threshold T = (1 - loss) x reference the tolerable multiplier is
 * interpolated linearly between the last point at or above T and the first
 * point below it; 0 when the first point (1x) is already below T, max_x
 * (flagged capped) when no point falls below T.
 * Each IPC is the mean of `seeds` runs (seeds opts->seed, +1, ...): a
 * window's IPC moves with the seed by several percent on some kernels,
 * as much as the 5% threshold.
 * Cost: `seeds` sampler runs per point plus as many for the reference.
 */
#include "tolerable.h"

#include <string.h>

void rf_tol_opts_init(rf_tol_opts *o)
{
    o->loss = 0.05;
    o->step = 0.5;
    o->max_x = 12.0;
    o->seeds = 1;
}

/* Mean IPC of design d over `seeds` runs. */
static int mean_ipc(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                    const rf_sim_opts *opts, int seeds, double *ipc, rf_err *err)
{
    *ipc = 0;
    for (int s = 0; s < seeds; s++) {
        rf_sim_opts o = *opts;
        o.seed = opts->seed + (uint64_t)s;
        rf_sim_stats st;
        int rc = rf_sim_run(gpu, d, k, &o, &st, err);
        if (rc < 0)
            return rc;
        *ipc += st.ipc / seeds;
    }
    return 0;
}

static double crossing(const rf_tolerable *t, double thr, bool *capped)
{
    *capped = false;
    for (int i = 0; i < t->n; i++) {
        if (t->pt[i].ipc >= thr)
            continue;
        if (i == 0)
            return 0.0;
        const rf_tol_point *a = &t->pt[i - 1], *b = &t->pt[i];
        double f = (a->ipc - thr) / (a->ipc - b->ipc);
        return a->latency_x + f * (b->latency_x - a->latency_x);
    }
    *capped = true;
    return t->n > 0 ? t->pt[t->n - 1].latency_x : 0.0;
}

int rf_sim_tolerable(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                     const rf_sim_opts *opts, const rf_tol_opts *to, rf_tolerable *out,
                     rf_err *err)
{
    memset(out, 0, sizeof *out);
    if (d->kind != RF_DESIGN_RFC && d->kind != RF_DESIGN_LTRF)
        return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, "design",
                          "the tolerable latency is measured for rfc and ltrf (got %s)",
                          rf_design_name(d->kind));
    const rf_rf_tech *tech = rf_design_rf_tech(d->rf_config);
    if (!tech)
        return rf_err_set(err, RF_ERANGE, "command line", 0, 0, "rf_config",
                          "%d is not a configuration of seed 004 Table 2 (1..7)", d->rf_config);
    if (!(to->loss > 0 && to->loss < 1))
        return rf_err_set(err, RF_ERANGE, "command line", 0, 0, "loss",
                          "expected 0 < loss < 1, got %g", to->loss);
    if (!(to->step > 0))
        return rf_err_set(err, RF_ERANGE, "command line", 0, 0, "step",
                          "expected a step above 0, got %g", to->step);
    if (!(to->max_x >= 1))
        return rf_err_set(err, RF_ERANGE, "command line", 0, 0, "max-x",
                          "expected a largest multiplier of at least 1, got %g", to->max_x);
    int seeds = to->seeds > 0 ? to->seeds : 1;
    rf_design ref = *d;
    ref.kind = tech->capacity_x > 1 ? RF_DESIGN_IDEAL : RF_DESIGN_BASELINE;
    double ipc;
    int rc = mean_ipc(gpu, &ref, k, opts, seeds, &out->ref_ipc, err);
    if (rc < 0)
        return rc;

    rf_design p = *d;
    double thr_self = 0, thr_ref = (1.0 - to->loss) * out->ref_ipc;
    bool self_out = false, ref_out = false;
    for (int i = 0; i < RF_TOL_MAXPTS && !(self_out && ref_out); i++) {
        double x = 1.0 + i * to->step;
        if (x > to->max_x + 1e-9)
            break;
        p.latency_x = x;
        if ((rc = mean_ipc(gpu, &p, k, opts, seeds, &ipc, err)) < 0)
            return rc;
        out->pt[out->n].latency_x = x;
        out->pt[out->n].ipc = ipc;
        out->n++;
        if (i == 0) {
            out->self_ipc = ipc;
            thr_self = (1.0 - to->loss) * ipc;
        }
        self_out |= ipc < thr_self;
        ref_out |= ipc < thr_ref;
    }
    out->tol_self = crossing(out, thr_self, &out->capped_self);
    out->tol_ref = crossing(out, thr_ref, &out->capped_ref);
    return 0;
}
