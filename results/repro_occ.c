/* repro_occ.c - a full sampler run and a calibrated estimate of one bundled
 * kernel, for the occupancy seeds' experiments (repro_occ.h).
 *
 * Both load the preset and the kernel spec themselves and spill a kernel
 * over the GPU's register limit as `simulate` and `estimate` do
 * (rf_kernel_fit_regs), so a figure here is the figure those commands print
 * for the same kernel, design and seed.
 */
#include "repro_occ.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../inputs/kernel.h"
#include "../inputs/regalloc.h"

/* Preset and kernel, the kernel fitted to the GPU's register limit. */
static int load(const rf_repro_opts *o, const char *gpu_name, const char *name, rf_gpu *gpu,
                rf_kernel **k, rf_err *err)
{
    *k = NULL;
    int rc = rf_gpu_load(gpu_name, gpu, NULL, err);
    if (rc)
        return rc;
    char path[1024];
    rf_repro_kernel_path(o, name, path, sizeof path);
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    if ((rc = rf_kernel_load(path, &ko, k, err)) != 0)
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
    rf_kernel *k;
    int rc = load(o, gpu_name, name, &gpu, &k, err);
    if (rc)
        return rc;
    rf_ipc_kernel kc;
    rf_calib cal;
    rf_calib_report *rep = calloc(1, sizeof *rep);   /* large: not on the stack */
    if (!rep)
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    if (!rc)
        rc = rf_kchar_compute(&gpu, k, &kc, err);
    rf_calib_opts co = {0, o->seed, NULL, false, NULL};
    if (!rc)
        rc = rf_calib_run(&gpu, gpu_name, k, &kc, &co, &cal, rep, err);
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), sms};
    for (int i = 0; i < nd && !rc; i++)
        rc = rf_extrap_estimate(&gpu, &d[i], &kc, &shape, &cal, &est[i], err);
    if (rc)
        place(o, name, err);
    free(rep);
    rf_kernel_destroy(k);
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
