/* bench_lone.c - a CTA alone: the walk's lone cycles against the sampler.
 *
 * The CTA fluid of rf_ipc_kernel_cycles advances each of a run's last CTAs
 * through its lone cycles (analytic/kchar.c: per barrier phase the norm of
 * the slowest warp's lone time and the cycles the CTA's warps hold the SFU
 * pipe, or the issue and the LD/ST pipe, plus the drain).  This bench
 * checks those cycles where the sampler can run the same CTA alone: the
 * grid's last CTA (`rfkit simulate --sms 1 --skip-ctas G-1`, sampler seed
 * 1, the draws the walk takes) against kc.lone of its last entry, on the
 * nine tuning kernels (inputs/kernels/) and the validation kernels
 * (inputs/validation/), whole grid on one SM.  Per kernel: both cycle
 * counts and their ratio; per set: the rms of log(sampler / walk), the
 * figure the norms of analytic/kchar.c were chosen by on fermi-gtx480 (the
 * nine's), and the largest ratio.  RF_BENCH_GPUS=a,b picks the presets
 * (default fermi-gtx480, maxwell-ltrf, volta-hirf); RF_BENCH_KERNELS=a,b
 * the kernels; RF_BENCH_VERBOSE=1 prints every kernel.  Prints figures;
 * asserts nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/ipc.h"
#include "../analytic/kchar.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/regalloc.h"
#include "../sampler/sim.h"
#include "support/benchrun.h"

#define MAXK 64

typedef struct lone_row {
    const char *name;
    double walk, sim;       /* cycles; 0 when either failed */
} lone_row;

/* The last CTA of the kernel's whole grid on one SM: the walk's lone
 * cycles and the sampler's run of it alone.  0 on success. */
static int lone_of(const rf_gpu *gpu, const char *path, lone_row *r)
{
    rf_err err = {0};
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    rf_kernel *k = NULL;
    if (rf_kernel_load(path, &ko, &k, &err)) {
        fprintf(stderr, "bench_lone: %s: %s\n", path, err.msg);
        return -1;
    }
    rf_kernel_spread(k, 1);
    int rc = rf_kernel_fit_regs(k, gpu, &err);
    rf_ipc_kernel kc;
    if (!rc)
        rc = rf_kchar_compute(gpu, k, &kc, &err);
    if (!rc && kc.nlone < 1)
        rc = rf_err_set(&err, RF_EUNSUPPORTED, path, 0, 0, NULL, "no lone CTA walked");
    if (!rc) {
        r->walk = kc.lone[kc.nlone - 1];
        rf_design d;
        rf_design_init(&d);
        rf_sim_opts o;
        rf_sim_opts_init(&o);
        o.sms = 1;
        o.skip_ctas = (uint64_t)(rf_kernel_ctas(k) - 1);
        rf_sim_stats st;
        rc = rf_sim_run(gpu, &d, k, &o, &st, &err);
        if (!rc)
            r->sim = (double)st.cycles;
    }
    if (rc)
        fprintf(stderr, "bench_lone: %s on %s: %s\n", path, gpu->name, err.msg);
    rf_kernel_destroy(k);
    return rc;
}

int main(void)
{
    static const struct {
        const char *label, *dir;
    } sets[2] = {{"tuning", "inputs/kernels"}, {"validation", "inputs/validation"}};
    const char *gpus = getenv("RF_BENCH_GPUS");
    const char *only = getenv("RF_BENCH_KERNELS");
    bool verbose = getenv("RF_BENCH_VERBOSE") && *getenv("RF_BENCH_VERBOSE") == '1';
    static const char *const presets[] = {"fermi-gtx480", "maxwell-ltrf", "volta-hirf"};
    printf("a CTA alone: the walk's lone cycles (analytic/kchar.c) against the sampler's run of\n"
           "the grid's last CTA alone (simulate --sms 1 --skip-ctas G-1, seed 1)\n");
    printf("%-14s %-10s %4s %13s %9s %-22s\n", "gpu", "set", "n", "rms log ratio", "mean", "largest |log| (ratio)");
    int failed = 0;
    for (size_t g = 0; g < sizeof presets / sizeof presets[0]; g++) {
        if (gpus && *gpus && !benchrun_listed(gpus, presets[g]))
            continue;
        rf_gpu gpu;
        rf_err err = {0};
        if (rf_gpu_preset(presets[g], &gpu, &err)) {
            fprintf(stderr, "bench_lone: %s\n", err.msg);
            return 1;
        }
        for (int s = 0; s < 2; s++) {
            char *names[MAXK];
            int n = benchrun_specs(sets[s].dir, names, MAXK);
            if (n < 0) {
                fprintf(stderr, "bench_lone: cannot read %s\n", sets[s].dir);
                return 1;
            }
            lone_row rows[MAXK];
            int m = 0;
            double ss = 0, sum = 0, worst = 0, worst_ratio = 1;
            const char *worst_name = "-";
            for (int i = 0; i < n; i++) {
                if (only && *only && !benchrun_listed(only, names[i]))
                    continue;
                char path[512];
                snprintf(path, sizeof path, "%s/%s.spec", sets[s].dir, names[i]);
                lone_row *r = &rows[m];
                *r = (lone_row){names[i], 0, 0};
                if (lone_of(&gpu, path, r) || !(r->walk > 0) || !(r->sim > 0)) {
                    failed++;
                    continue;
                }
                double l = log(r->sim / r->walk);
                ss += l * l;
                sum += r->sim / r->walk;
                if (fabs(l) > worst) {
                    worst = fabs(l);
                    worst_ratio = r->sim / r->walk;
                    worst_name = r->name;
                }
                m++;
            }
            char big[64];
            snprintf(big, sizeof big, "%s (%.3f)", worst_name, worst_ratio);
            printf("%-14s %-10s %4d %13.4f %9.3f %-22s\n", presets[g], sets[s].label, m,
                   m > 0 ? sqrt(ss / m) : 0.0, m > 0 ? sum / m : 0.0, big);
            if (verbose)
                for (int i = 0; i < m; i++)
                    printf("    %-14s walk %10.0f  sampler %10.0f  ratio %.3f\n", rows[i].name,
                           rows[i].walk, rows[i].sim, rows[i].sim / rows[i].walk);
            for (int i = 0; i < n; i++)
                free(names[i]);
        }
    }
    return failed ? 1 : 0;
}
