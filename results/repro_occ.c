/* repro_occ.c - a full sampler run and a calibrated estimate of one bundled
 * kernel, for the occupancy seeds' experiments (repro_occ.h).
 *
 * Both load the preset and the kernel spec (the estimate through
 * repro_runs.h, calibrated as there) and spill a kernel
 * over the GPU's register limit as `simulate` and `estimate` do
 * (rf_kernel_fit_regs), so a figure here is the figure those commands print
 * for the same kernel, design and seed.
 */
#include "repro_occ.h"

#include <string.h>

#include "../inputs/kernel.h"
#include "../inputs/regalloc.h"
#include "repro_runs.h"

/* Preset and kernel, the kernel fitted to the GPU's register limit. */
static int load(const rf_repro_opts *o, const char *gpu_name, const char *name, rf_gpu *gpu,
                rf_kernel **k, rf_err *err)
{
    *k = NULL;
    int rc = rf_gpu_load(gpu_name, gpu, NULL, err);
    if (rc)
        return rc;
    if ((rc = rf_repro_load_kernel(o, name, false, k, err)) != 0)
        return rc;
    if ((rc = rf_kernel_fit_regs(*k, gpu, err)) != 0) {
        rf_kernel_destroy(*k);
        *k = NULL;
    }
    return rc;
}

/* A failed run names the kernel's spec (a message without a place). */
static void place(const rf_repro_opts *o, const char *name, rf_err *err)
{
    char path[1024];
    rf_repro_kernel_path(o, name, path, sizeof path);
    rf_err_place(err, path, 0, 0);
}

int rf_repro_occ_sim(const rf_repro_opts *o, const char *gpu_name, const char *name,
                     const rf_design *d, int sms, rf_sim_stats *st, rf_err *err)
{
    rf_gpu gpu;
    rf_kernel *k;
    int rc = load(o, gpu_name, name, &gpu, &k, err);
    if (rc)
        return rc;
    rf_sim_opts so;
    rf_sim_opts_init(&so);
    so.seed = o->seed;
    so.sms = sms;
    rc = rf_sim_run(&gpu, d, k, &so, st, err);
    if (rc)
        place(o, name, err);
    rf_kernel_destroy(k);
    return rc;
}

int rf_repro_occ_estimate(const rf_repro_opts *o, const char *gpu_name, const char *name,
                          const rf_design *d, int nd, int sms, rf_estimate *est, rf_err *err)
{
    rf_gpu gpu;
    int rc = rf_gpu_load(gpu_name, &gpu, NULL, err);
    if (rc)
        return rc;
    rf_rr_kernel rk;
    if ((rc = rf_rr_open(o, &gpu, name, 1, &rk, err)) != 0)
        return rc;   /* the message names the spec */
    for (int i = 0; i < nd && !rc; i++)
        rc = rf_rr_estimate_on(&gpu, &d[i], &rk, sms, &est[i], err);
    if (rc)
        place(o, name, err);
    rf_rr_close(&rk);
    return rc;
}

double rf_repro_occ_slots(const rf_gpu *gpu, const rf_sim_stats *st, int sms)
{
    return (double)st->cycles * sms * gpu->schedulers * gpu->issue_width;
}

double rf_repro_occ_mean(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return n > 0 ? s / n : 0;
}
