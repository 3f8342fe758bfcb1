/* bench_ltrf_calib.c - accuracy of the calibrated closed form for RFC, LTRF
 * and LTRF+ on design points that were not sampled.
 *
 * Per bundled kernel on maxwell-ltrf (grids cut to 98304 threads, e.g. 384
 * CTAs of 256, to keep the run short; cut to 24576, kmeans spent about 40%
 * of its run in a tail of a few long warps, which the wave model of a whole
 * launch does not describe, and its points were 5-11% off, now 0.7-5.3%):
 * full sampler runs (the whole grid on one SM) of seven training design
 * points
 *   LTRF #1, LTRF #2, LTRF #7, LTRF+ #5, RFC #1, RFC #2, RFC #7
 * calibrate lat_scale and mem_scale (IPC model), pf_scale, pf_reg, rfc_hit,
 * rfc_scale and ltrf_conflict (analytic/prefetch.c) with calibrate/pffit.c.  The fitted
 * model (rf_extrap_estimate with sms = 1, the sampler's single-SM full run)
 * then predicts nine other design points
 *   LTRF #6, LTRF+ #6, LTRF+ #7, LTRF #3, LTRF latency_x 4, LTRF+ N = 24,
 *   RFC #6, RFC #3, RFC #5
 * compared with their own full sampler runs: mean and worst absolute IPC
 * error, per kernel and over all, and the uncalibrated error for contrast.
 * Every sampler figure (training and truth) is the mean IPC of --seeds S
 * runs (default 5, seeds --seed N, N + 1, ...; default N = 1); "spread" is
 * the mean over the test points of (max - min) / mean of those runs, the
 * sampler's own seed-to-seed noise.
 *
 * usage: bench_ltrf_calib [-v] [--seeds S] [--seed N] [KERNEL.spec ...]
 *        (default: inputs/kernels/ *.spec; -v: every point's sampler and
 *        model IPC)
 */
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../analytic/design.h"
#include "../analytic/kchar.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/fit.h"
#include "../calibrate/pffit.h"
#include "../calibrate/record.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"

#define MAXK 32
#define NTEST 9
/* Every design point at rfkit's preferred active pool, 8 per scheduler (32
 * per SM; the pool docs/measurements.md reports), not the preset's 8 per SM. */
#define POOL RF_POOL_PREFERRED
#define MAX_THREADS 98304 /* grids are cut to this many threads (run time) */

typedef struct point {
    const char *label;
    int kind, config;
    bool plus;
    double latency_x;
    int interval_regs;
} point;

static const char *const train_label[RF_PFFIT_N] = {"LTRF #1", "LTRF #2", "LTRF #7", "LTRF+ #5",
                                                    "RFC #1", "RFC #2", "RFC #7"};
static const point test[NTEST] = {
    {"LTRF #6", RF_DESIGN_LTRF, 6, false, 0, 0},
    {"LTRF+ #6", RF_DESIGN_LTRF, 6, true, 0, 0},
    {"LTRF+ #7", RF_DESIGN_LTRF, 7, true, 0, 0},
    {"LTRF #3", RF_DESIGN_LTRF, 3, false, 0, 0},
    {"LTRF 4x", RF_DESIGN_LTRF, 6, false, 4, 0},
    {"LTRF+ N24", RF_DESIGN_LTRF, 6, true, 0, 24},
    {"RFC #6", RF_DESIGN_RFC, 6, false, 0, 0},
    {"RFC #3", RF_DESIGN_RFC, 3, false, 0, 0},
    {"RFC #5", RF_DESIGN_RFC, 5, false, 0, 0},
};

typedef struct job {
    const char *path;
    uint64_t seed;           /* first sampler seed */
    int seeds;               /* runs per design point (seeds seed, seed + 1, ...) */
    char name[128];
    rf_pffit_obs obs[RF_PFFIT_N];
    double y_test[NTEST];    /* mean sampler IPC over the seeds */
    double spread[NTEST];    /* (max - min) / mean of the seeds' IPC */
    double e_test[NTEST], e_default[NTEST];
    double f_train[RF_PFFIT_N], f_test[NTEST];   /* fitted model's IPC */
    rf_calib cal;
    int rc;
    char msg[512];
} job;

static void design_of(const point *pt, rf_design *d)
{
    rf_design_init(d);
    d->active_warps = POOL;
    d->kind = pt->kind;
    d->rf_config = pt->config;
    d->plus = pt->plus;
    d->latency_x = pt->latency_x;
    if (pt->interval_regs > 0)
        d->interval_regs = pt->interval_regs;
}

static int estimate(const rf_gpu *gpu, const rf_kernel *k, const rf_ipc_kernel *kc,
                    const rf_design *d, const rf_calib *cal, double *ipc)
{
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_estimate e;
    rf_err err = {0};
    int rc = rf_extrap_estimate(gpu, d, kc, &shape, cal, &e, &err);
    *ipc = rc == 0 ? e.ipc : NAN;
    return rc;
}

static void run_job(const rf_gpu *gpu, job *j)
{
    rf_err err = {0};
    rf_kernel *k = NULL;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    if ((j->rc = rf_kernel_load(j->path, &ko, &k, &err)) < 0) {
        snprintf(j->msg, sizeof j->msg, "%s", err.msg);
        return;
    }
    snprintf(j->name, sizeof j->name, "%s", k->name);
    long cap = MAX_THREADS / (rf_kernel_threads(k) > 0 ? rf_kernel_threads(k) : 1);
    if (rf_kernel_ctas(k) > cap) {              /* a shorter grid, same code */
        k->launch.grid[0] = (int)cap;
        k->launch.grid[1] = k->launch.grid[2] = 1;
    }
    rf_sim_opts o;
    rf_sim_opts_init(&o);
    if (j->seed > 0)
        o.seed = j->seed;
    rf_design tmpl;
    rf_design_init(&tmpl);
    tmpl.kind = RF_DESIGN_LTRF;
    tmpl.active_warps = POOL;
    j->rc = rf_pffit_sample_seeds(gpu, &tmpl, k, &o, j->seeds, j->obs, &err);
    rf_sim_stats st;
    for (int i = 0; i < NTEST && j->rc == 0; i++) {
        rf_design d;
        design_of(&test[i], &d);
        double sum = 0, lo = INFINITY, hi = 0;
        for (int r = 0; r < j->seeds && j->rc == 0; r++) {
            rf_sim_opts os = o;
            os.seed = o.seed + (uint64_t)r;
            j->rc = rf_sim_run(gpu, &d, k, &os, &st, &err);
            sum += st.ipc;
            lo = fmin(lo, st.ipc);
            hi = fmax(hi, st.ipc);
        }
        j->y_test[i] = sum / j->seeds;
        j->spread[i] = j->y_test[i] > 0 ? (hi - lo) / j->y_test[i] : 0.0;
    }
    rf_ipc_kernel kc;
    if (j->rc == 0)
        j->rc = rf_kchar_compute(gpu, k, &kc, &err);
    for (int t = 0; t < NTEST && j->rc == 0; t++) {
        rf_design d;
        design_of(&test[t], &d);
        double v;
        j->rc = estimate(gpu, k, &kc, &d, NULL, &v);
        j->e_default[t] = fabs(v - j->y_test[t]) / j->y_test[t];
    }
    rf_calib_init(&j->cal, gpu->name, k->name);
    if (j->rc == 0)
        j->rc = rf_pffit_fit(gpu, k, &kc, j->obs, &j->cal, &err);
    for (int t = 0; t < NTEST && j->rc == 0; t++) {
        rf_design d;
        design_of(&test[t], &d);
        j->rc = estimate(gpu, k, &kc, &d, &j->cal, &j->f_test[t]);
        j->e_test[t] = fabs(j->f_test[t] - j->y_test[t]) / j->y_test[t];
    }
    for (int i = 0; i < RF_PFFIT_N && j->rc == 0; i++)
        j->rc = estimate(gpu, k, &kc, &j->obs[i].design, &j->cal, &j->f_train[i]);
    if (j->rc < 0 && !j->msg[0])
        snprintf(j->msg, sizeof j->msg, "%s", err.msg);
    rf_kernel_destroy(k);
}

typedef struct queue {
    job *jobs;
    int n, next;
    pthread_mutex_t lock;
    const rf_gpu *gpu;
} queue;

static void *worker(void *arg)
{
    queue *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        int i = q->next < q->n ? q->next++ : -1;
        pthread_mutex_unlock(&q->lock);
        if (i < 0)
            return NULL;
        run_job(q->gpu, &q->jobs[i]);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int list_specs(char **paths, int cap)
{
    const char *dir = "inputs/kernels";
    DIR *dp = opendir(dir);
    if (!dp)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) && n < cap) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".spec") == 0) {
            paths[n] = malloc(strlen(dir) + len + 2);
            if (!paths[n])
                break;
            sprintf(paths[n], "%s/%s", dir, e->d_name);
            n++;
        }
    }
    closedir(dp);
    qsort(paths, (size_t)n, sizeof *paths, cmp_str);
    return n;
}

int main(int argc, char **argv)
{
    char *paths[MAXK];
    int n = 0;
    bool own = false, verbose = false;
    uint64_t seed = 0;
    int seeds = 5;
    for (int i = 1; i < argc && n < MAXK; i++) {
        if (!strcmp(argv[i], "-v")) {
            verbose = true;
            continue;
        }
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 10);
            continue;
        }
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
            seeds = atoi(argv[++i]);
            if (seeds < 1)
                seeds = 1;
            continue;
        }
        paths[n++] = argv[i];
        own = true;
    }
    if (!own)
        n = list_specs(paths, MAXK);
    if (n == 0) {
        fprintf(stderr, "bench_ltrf_calib: no kernels (run from the repository root)\n");
        return 1;
    }
    rf_fit_gsl_quiet();
    rf_gpu gpu;
    rf_err err = {0};
    if (rf_gpu_preset("maxwell-ltrf", &gpu, &err) < 0) {
        fprintf(stderr, "bench_ltrf_calib: %s\n", err.msg);
        return 1;
    }
    job *jobs = calloc((size_t)n, sizeof *jobs);
    if (!jobs)
        return 1;
    for (int i = 0; i < n; i++) {
        jobs[i].path = paths[i];
        jobs[i].seed = seed;
        jobs[i].seeds = seeds;
    }
    queue q = {jobs, n, 0, PTHREAD_MUTEX_INITIALIZER, &gpu};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, worker, &q);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    printf("Calibrated closed form vs sampler (full runs, one SM, mean of %d seeds), "
           "maxwell-ltrf: |IPC error| on design points not sampled\n", seeds);
    printf("%-9s", "kernel");
    for (int t = 0; t < NTEST; t++)
        printf(" %9s", test[t].label);
    printf(" %7s %7s %7s %7s  %s\n", "mean", "worst", "uncal", "spread",
           "lat_scale mem_scale pf_scale pf_reg rfc_hit rfc_scale ltrf_conflict");
    double sum = 0, worst = 0, sum0 = 0, spread = 0;
    int m = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        job *j = &jobs[i];
        if (j->rc < 0) {
            fprintf(stderr, "bench_ltrf_calib: %s: %s\n", j->path, j->msg);
            bad++;
            continue;
        }
        double s = 0, w = 0, s0 = 0, sp = 0;
        printf("%-9s", j->name);
        for (int t = 0; t < NTEST; t++) {
            printf(" %8.1f%%", 100 * j->e_test[t]);
            s += j->e_test[t];
            s0 += j->e_default[t];
            sp += j->spread[t];
            if (j->e_test[t] > w)
                w = j->e_test[t];
        }
        printf(" %6.1f%% %6.1f%% %6.1f%% %6.1f%% ", 100 * s / NTEST, 100 * w, 100 * s0 / NTEST,
               100 * sp / NTEST);
        spread += sp;
        for (int p = 0; p < j->cal.nfit; p++)
            printf(" %.3g", rf_mparam_get(&rf_ipc_mparams[j->cal.fit_idx[p]], &j->cal.params));
        printf("\n");
        if (verbose) {
            for (int t = 0; t < RF_PFFIT_N; t++)
                printf("    train %-9s sampler %.4f model %.4f\n", train_label[t], j->obs[t].ipc,
                       j->f_train[t]);
            for (int t = 0; t < NTEST; t++)
                printf("    test  %-9s sampler %.4f model %.4f\n", test[t].label, j->y_test[t],
                       j->f_test[t]);
        }
        sum += s;
        sum0 += s0;
        if (w > worst)
            worst = w;
        m += NTEST;
    }
    printf("all: mean |error| %.2f%%, worst %.2f%% over %d points (uncalibrated mean %.2f%%); "
           "target mean <= 3%%, worst <= 8%%\n", m ? 100 * sum / m : 0.0, 100 * worst, m,
           m ? 100 * sum0 / m : 0.0);
    printf("sampler seed-to-seed spread (max - min) / mean over %d seeds: mean %.2f%% per point\n",
           seeds, m ? 100 * spread / m : 0.0);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%d kernels in %.1f s (two threads)\n", n, secs);
    if (!own)
        for (int i = 0; i < n; i++)
            free(paths[i]);
    free(jobs);
    return bad ? 1 : 0;
}
