/* rcfit.c - calibration of the HI-RF closed form (seed 002; model in
 * analytic/rccollide.c and analytic/ipc.c).
 *
 * Samples: the sampler runs the kernel on the plain SRAM file (`baseline`
 * on the same GPU), on HI-RF with the concatenated index and on HI-RF with
 * the TEA index, base assignment, and on HI-RF concatenated with the Worst
 * assignment.  The two indexes share lines differently (concat: a warp's
 * own critical sets; TEA: other warps' registers), which separates the
 * write locality from the rest; Worst, the most write-backs the kernel can
 * make, pins their cost.
 *
 * 1. Locality.  The conflict rate is linear in lambda (rc_locality)
 *    between the model's independent-interleaving and own-warp rates;
 *    lambda is the least-squares fit to the HI-RF conflict rates
 *    (rf_rcc_fit_locality; 0.5 when none depends on it).
 * 2. IPC.  theta = (lat_scale with mem_scale moved by the same factor,
 *    conflict_scale, rc_stall) minimises
 *      sum_i ((IPC_model_i - IPC_i) / (0.02 IPC_i))^2 + sum_j ((theta_j - d_j) / w_j)^2
 *    over the samples (2% noise per sample) with a prior keeping
 *    each parameter near its default d within w = (0.5, 2, 0.5), in the
 *    bounds of rf_ipc_mparams (calibrate/fit.c, GSL).  The model of a
 *    sample is rfkit estimate's whole-kernel IPC of the same launch on one
 *    SM (calibrate/extrapolate.c), so samples should be full runs.
 * Output: an rf_calib whose parameters rfkit estimate uses for any HI-RF
 * design point (other assignments, indexes, cache sizes) of the kernel.
 */
#include "rcfit.h"

#include <math.h>
#include <string.h>

#include "extrapolate.h"
#include "fit.h"

#define NOISE 0.02
#define NPAR 3

void rf_rcfit_points(const rf_design *hirf, rf_design pts[RF_RCFIT_N])
{
    rf_design_init(&pts[0]);
    pts[1] = *hirf;
    pts[1].kind = RF_DESIGN_HIRF;
    pts[1].index = RF_RC_CONCAT;
    pts[1].assign = RF_ASSIGN_BASE;
    pts[2] = pts[1];
    pts[2].index = RF_RC_TEA;
    pts[3] = pts[1];
    pts[3].assign = RF_ASSIGN_WORST;
}

int rf_rcfit_sample(const rf_gpu *gpu, const rf_design *hirf, const rf_kernel *k,
                    const rf_sim_opts *opts, rf_rcfit_obs obs[RF_RCFIT_N], rf_err *err)
{
    rf_design pts[RF_RCFIT_N];
    rf_rcfit_points(hirf, pts);
    for (int i = 0; i < RF_RCFIT_N; i++) {
        rf_sim_stats st;
        int rc = rf_sim_run(gpu, &pts[i], k, opts, &st, err);
        if (rc)
            return rc;
        obs[i].design = pts[i];
        obs[i].ipc = st.ipc;
        obs[i].conflict = st.rc_writes ? (double)st.rc_conflicts / (double)st.rc_writes : 0;
        obs[i].cycles = st.cycles;
    }
    return 0;
}

typedef struct fit_ctx {
    const rf_gpu *gpu;
    const rf_kernel *k;
    const rf_ipc_kernel *kc;
    const rf_rcfit_obs *obs;
    rf_calib cal;
} fit_ctx;

static int model(const fit_ctx *c, const rf_design *d, rf_estimate *e, rf_err *err)
{
    const rf_kernel *k = c->k;
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    return rf_extrap_estimate(c->gpu, d, c->kc, &shape, &c->cal, e, err);
}

static void put_theta(fit_ctx *c, const double *th)
{
    c->cal.params.lat_scale = th[0];
    c->cal.params.mem_scale = th[0];
    c->cal.params.conflict.scale = th[1];
    c->cal.params.rc_stall = th[2];
}

static int fit_fn(const double *th, size_t i, double *v, void *ctx)
{
    fit_ctx *c = ctx;
    if (i >= RF_RCFIT_N) {          /* prior pseudo-observation */
        *v = th[i - RF_RCFIT_N];
        return 0;
    }
    put_theta(c, th);
    rf_estimate e;
    if (model(c, &c->obs[i].design, &e, NULL))
        return RF_EFIT;
    *v = e.ipc;
    return 0;
}

int rf_rcfit_fit(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                 const rf_rcfit_obs obs[RF_RCFIT_N], rf_calib *cal, rf_err *err)
{
    fit_ctx c = {gpu, k, kc, obs, *cal};
    /* 1. Locality from the three HI-RF conflict rates. */
    c.cal.params.rc_locality = 0;
    rf_rcc_result res[RF_RCFIT_N];
    double meas[RF_RCFIT_N];
    for (int i = 1; i < RF_RCFIT_N; i++) {
        rf_estimate e;
        int rc = model(&c, &obs[i].design, &e, err);
        if (rc)
            return rc;
        res[i - 1] = e.rc;
        meas[i - 1] = obs[i].conflict;
    }
    double lam = rf_rcc_fit_locality(res, meas, RF_RCFIT_N - 1);
    c.cal.params.rc_locality = lam >= 0 ? lam : 0.5;

    /* 2. IPC parameters. */
    double y[RF_RCFIT_N + NPAR], sig[RF_RCFIT_N + NPAR];
    static const double prior[NPAR] = {0.5, 2.0, 0.5};
    double start[NPAR] = {1, 1, 1};
    for (int i = 0; i < RF_RCFIT_N; i++) {
        if (!(obs[i].ipc > 0))
            return rf_err_set(err, RF_EFIT, NULL, 0, 0, k->name, "sample %d has no IPC", i);
        y[i] = obs[i].ipc;
        sig[i] = NOISE * obs[i].ipc;
    }
    const char *names[NPAR] = {"lat_scale", "conflict_scale", "rc_stall"};
    double lo[NPAR], hi[NPAR];
    int idx[NPAR];
    for (int j = 0; j < NPAR; j++) {
        idx[j] = rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, names[j]);
        if (idx[j] < 0)
            return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, names[j], "no such model parameter");
        lo[j] = rf_ipc_mparams[idx[j]].lo;
        hi[j] = rf_ipc_mparams[idx[j]].hi;
        y[RF_RCFIT_N + j] = start[j];
        sig[RF_RCFIT_N + j] = prior[j];
    }
    rf_fit_problem pb = {RF_RCFIT_N + NPAR, NPAR, y, sig, lo, hi, start, fit_fn, &c, 0};
    rf_fit_result fr;
    int rc = rf_fit_run(&pb, &fr, err);
    if (rc)
        return rc;
    put_theta(&c, fr.theta);
    c.cal.nfit = NPAR;
    for (int a = 0; a < NPAR; a++) {
        c.cal.fit_idx[a] = idx[a];
        for (int b = 0; b < NPAR; b++)
            c.cal.cov[a][b] = fr.cov[a][b];
    }
    c.cal.dof = fr.dof;
    c.cal.rms_rel = NOISE * sqrt(fr.chisq / (double)(RF_RCFIT_N + NPAR));
    c.cal.samples = RF_RCFIT_N;
    c.cal.sample_cycles = 0;
    for (int i = 0; i < RF_RCFIT_N; i++)
        c.cal.sample_cycles += (double)obs[i].cycles;
    *cal = c.cal;
    return 0;
}
