/* bench_ltrf_calib.c - register-cache calibration from windows (calibrate
 * --design rfc|ltrf, calibrate/pffit.c) against full runs, on the tuning
 * nine (inputs/kernels/) and the validation kernels with >= 20 registers
 * (inputs/validation/), maxwell-ltrf.
 *
 * Per kernel (grids cut to 98304 threads to keep the full runs short) and
 * per pool (rfkit's preferred, 8 per scheduler, and the preset's 8 active
 * warps per SM): full sampler runs (simulate --full, one SM, seed 1) of
 *   baseline, RFC #7, LTRF #7                    (the windows' designs)
 *   LTRF #1, RFC #3, RFC #6, LTRF #3, LTRF #6, LTRF+ #6, LTRF+ #7
 *                                                (never sampled)
 * and rfkit estimate --sms 1 of each, uncalibrated and calibrated with the
 * record of that pool: rf_pffit_calibrate's steps (plan and windows, fit,
 * level, the windows' check of it) at the pool, timed one by one (calibrate --design ltrf
 * [--active-warps -1]; sampler seed 1, or RF_BENCH_SEED).  Reported per set and pool: mean
 * and worst |IPC error|, kernels whose calibrated mean is worse than their
 * uncalibrated one, the error of each design point's IPC over the
 * baseline's ("design/baseline": what the windows calibrate; the level
 * moves every design alike), the share of points inside the calibrated
 * 95% interval and its median width (relative to the estimate; for a
 * record without windows the uncalibrated model's 5.4% and the level's
 * prior, calibrate/extrapolate.c), and
 * the cost of calibrating: its sampled cycles (warm-ups included) over the
 * full run's cycles of the baseline at the pool, and its CPU time (the
 * kernel's characterisation, windows, fit, level; every thread's, on one
 * thread per online CPU as rfkit calibrate runs it) over that full run's
 * and over LTRF #6's (and without the characterisation, rf_kchar_compute,
 * which every estimate pays too), with the medians of its parts (windows,
 * fit, level, the baseline windows' check of the level and the shrink
 * weight, rf_pffit_window_level), and its wall time over the same full
 * runs' CPU time (their wall on simulate's one thread).  The two full runs
 * the costs are divided by are timed again right after each calibration:
 * the cache's times come from another state of a machine whose speed
 * drifts.
 *
 * RF_BENCH_LTRFCACHE=FILE keeps the full runs between runs (delete it
 * when the sampler changes); RF_BENCH_KERNELS=a,b limits the kernels;
 * RF_BENCH_SEED=S calibrates with sampler seed S instead of 1 (the full
 * runs keep seed 1);
 * RF_BENCH_SEEDS=N adds each set's and pool's calibrated figures over
 * calibration seeds 1..N (N more calibrations per kernel and pool);
 * RF_BENCH_RUNS=N adds the kernels' other runs, sampler seeds 2..N (the
 * draws of loop trips, branches and cache hits: another run of each
 * kernel, one no term was chosen on): each run walked with its own draws
 * (rf_profile.seed), calibrated on its own windows (calibrate --seed S)
 * and scored against its own full runs (cached with "|seed=S" after the
 * key): per seed and column, calibrated mean / worst |error| and the
 * share inside the 95% interval, then the seeds' points together;
 * RF_BENCH_VERBOSE=1 prints every kernel's windows and points;
 * RF_BENCH_HITS=1 runs RFC #7 again at both pools with the sampler's
 * counters and prints its register-cache hit rate beside the uncalibrated
 * model's (analytic/prefetch.c), per kernel and as mean |error| per set and
 * pool (44 more full runs, not cached);
 * RF_BENCH_DUMP=FILE writes one line per kernel and pool (set, kernel, pool,
 * positions, points per position, the windows' level check mean and
 * standard error, level, level variance, shrink, the two ratios' noise,
 * the uncalibrated baseline's steady-state IPC; then per point the full
 * run's IPC, the uncalibrated estimate, the calibrated one before the
 * shrinkage and after it), for weighing level and shrinkage rules offline.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analytic/kchar.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/fit.h"
#include "../calibrate/pffit.h"
#include "../calibrate/record.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/regalloc.h"
#include "support/benchrun.h"
#include "support/clirun.h"

#define GPU_NAME "maxwell-ltrf"
#define MAXK 40
#define MAX_THREADS 98304
#define NPOOL 2
#define NPT 10

/* Threads of the calibration, as rfkit calibrate takes them: one per
 * online CPU. */
static int ncpu(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 1 ? (int)n : 1;
}

static const int pools[NPOOL] = {RF_POOL_PREFERRED, 0};
static const char *const pool_name[NPOOL] = {"preferred pool", "8 active warps"};

typedef struct point {
    const char *label;
    int kind, config;
    bool plus;
} point;

static const point pts[NPT] = {
    {"base", RF_DESIGN_BASELINE, 0, false}, {"RFC#7", RF_DESIGN_RFC, 7, false},
    {"LTRF#7", RF_DESIGN_LTRF, 7, false},   {"LTRF#1", RF_DESIGN_LTRF, 1, false},
    {"RFC#3", RF_DESIGN_RFC, 3, false},     {"RFC#6", RF_DESIGN_RFC, 6, false},
    {"LTRF#3", RF_DESIGN_LTRF, 3, false},   {"LTRF#6", RF_DESIGN_LTRF, 6, false},
    {"LTRF+#6", RF_DESIGN_LTRF, 6, true},   {"LTRF+#7", RF_DESIGN_LTRF, 7, true},
};

typedef struct kjob {
    int set;                    /* 0 tuning, 1 validation */
    uint64_t seed;              /* the calibration's sampler seed (RF_BENCH_SEED, default 1) */
    char name[64];
    rf_kernel *k;
    rf_ipc_kernel kc;
    rf_calib cal[NPOOL];        /* one calibration per pool, its windows at that pool */
    rf_plan plan[NPOOL];
    rf_pffit_win win[NPOOL][RF_PLAN_MAX];
    rf_pffit_wrep rep[NPOOL];
    double cal_cpu_s[NPOOL];    /* rf_kchar_compute + rf_pffit_calibrate, every thread */
    double cal_wall_s[NPOOL];   /* the same, wall clock */
    double kchar_cpu_s, kchar_wall_s;
    double base_cpu_s[NPOOL], ltrf6_cpu_s[NPOOL]; /* full runs timed beside the calibration */
    double part_s[NPOOL][4];    /* plan and windows, fit, level, the windows' level check */
    benchrun_point full[NPOOL][NPT];
    double steady0[NPOOL];      /* uncalibrated baseline steady state */
    double unc[NPOOL][NPT], est[NPOOL][NPT], lo[NPOOL][NPT], hi[NPOOL][NPT];
    double rfc_hit[NPOOL];      /* RFC #7's uncalibrated hit rate (RF_BENCH_HITS) */
} kjob;

static void design_of(int pool, const point *p, rf_design *d)
{
    rf_design_init(d);
    d->active_warps = pool;
    d->kind = p->kind;
    if (p->config)
        d->rf_config = p->config;
    d->plus = p->plus;
}

/* Kernel `name` of set, run `run` (its draws' seed, 1 the default). */
static int load(const rf_gpu *gpu, const char *dir, const char *name, int set, uint64_t run,
                kjob *j)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.spec", dir, name);
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    rf_err err = {0};
    if (rf_kernel_load(path, &ko, &j->k, &err) < 0) {
        fprintf(stderr, "bench_ltrf_calib: %s\n", err.msg);
        return -1;
    }
    j->k->profile.seed = run;
    long cap = MAX_THREADS / (rf_kernel_threads(j->k) > 0 ? rf_kernel_threads(j->k) : 1);
    if (rf_kernel_ctas(j->k) > cap) {       /* a shorter grid, same code */
        j->k->launch.grid[0] = (int)cap;
        j->k->launch.grid[1] = j->k->launch.grid[2] = 1;
    }
    double t0 = benchrun_proc_cpu_s(), w0 = benchrun_wall_s();
    int rc = rf_kernel_fit_regs(j->k, gpu, &err);
    if (!rc)
        rc = rf_kchar_compute_walked_jobs(gpu, j->k, &j->kc, NULL, ncpu(), &err);
    j->kchar_cpu_s = benchrun_proc_cpu_s() - t0;
    j->kchar_wall_s = benchrun_wall_s() - w0;
    if (rc) {
        fprintf(stderr, "bench_ltrf_calib: %s: %s\n", name, err.msg);
        return -1;
    }
    j->set = set;
    snprintf(j->name, sizeof j->name, "%s", name);
    for (int p = 0; p < NPOOL; p++)
        for (int i = 0; i < NPT; i++) {
            benchrun_point *b = &j->full[p][i];
            memset(b, 0, sizeof *b);
            b->gpu = gpu;
            b->k = j->k;
            design_of(pools[p], &pts[i], &b->d);
            snprintf(b->key, sizeof b->key, "%d|%s|%d|%s", set, name, pools[p], pts[i].label);
            benchrun_key_run(b, run);
        }
    return 0;
}

/* timed: the two full runs the costs are divided by timed again beside
 * the calibration (else their earlier times kept). */
static int calibrate_and_estimate(const rf_gpu *gpu, kjob *j, bool timed)
{
    rf_err err = {0};
    int rc = 0;
    for (int p = 0; p < NPOOL && !rc; p++) {
        rf_design tmpl;
        rf_design_init(&tmpl);
        tmpl.kind = RF_DESIGN_LTRF;
        tmpl.active_warps = pools[p];
        /* rf_pffit_calibrate's steps, timed one by one. */
        double t0 = benchrun_proc_cpu_s(), w0 = benchrun_wall_s(), cyc = 0;
        rf_calib_init_kernel(&j->cal[p], GPU_NAME, j->k);
        rc = rf_plan_make_pf(gpu, j->k, &j->kc, &tmpl, 0, &j->plan[p], &err);
        if (!rc)
            rc = rf_pffit_run_windows(gpu, j->k, &j->plan[p], j->seed, ncpu(), j->win[p], &cyc,
                                      &err);
        double t1 = benchrun_proc_cpu_s();
        if (!rc)
            rc = rf_pffit_fit_windows(gpu, j->k, &j->kc, &j->plan[p], j->win[p], &j->cal[p],
                                      &j->rep[p], &err);
        double t2 = benchrun_proc_cpu_s();
        rf_design base = tmpl;
        base.kind = RF_DESIGN_BASELINE;
        rf_ctaset *walked = NULL;
        if (!rc)
            rc = rf_pffit_level_walked(gpu, j->k, &j->kc, &base, j->seed, ncpu(), &j->cal[p],
                                       &walked, &err);
        double t3 = benchrun_proc_cpu_s();
        if (!rc)
            rc = rf_pffit_window_level_from(gpu, j->k, &j->kc, &j->plan[p], j->win[p], j->seed,
                                            walked, &j->cal[p], &j->rep[p], &err);
        rf_kchar_ctaset_free(walked);
        double t4 = benchrun_proc_cpu_s(), w4 = benchrun_wall_s();
        j->part_s[p][0] = t1 - t0;
        j->part_s[p][1] = t2 - t1;
        j->part_s[p][2] = t3 - t2;
        j->part_s[p][3] = t4 - t3;
        j->cal_cpu_s[p] = t4 - t0 + j->kchar_cpu_s;
        j->cal_wall_s[p] = w4 - w0 + j->kchar_wall_s;
        if (timed) {
            j->base_cpu_s[p] = benchrun_retime(&j->full[p][0]);
            j->ltrf6_cpu_s[p] = benchrun_retime(&j->full[p][7]);
        }
    }
    rf_shape shape = {j->k->regs, rf_kernel_threads(j->k),
                      j->k->smem_static + j->k->launch.smem, rf_kernel_ctas(j->k), 1};
    for (int p = 0; p < NPOOL && !rc; p++)
        for (int i = 0; i < NPT && !rc; i++) {
            rf_estimate e;
            rc = rf_extrap_estimate(gpu, &j->full[p][i].d, &j->kc, &shape, NULL, &e, &err);
            j->unc[p][i] = e.ipc;
            if (i == 1)
                j->rfc_hit[p] = e.pf.rfc_hit;
            if (i == 0)
                j->steady0[p] = e.steady.ipc;
            if (!rc)
                rc = rf_extrap_estimate(gpu, &j->full[p][i].d, &j->kc, &shape, &j->cal[p], &e,
                                        &err);
            j->est[p][i] = e.ipc;
            j->lo[p][i] = e.ipc_lo;
            j->hi[p][i] = e.ipc_hi;
        }
    if (rc)
        fprintf(stderr, "bench_ltrf_calib: %s: %s\n", j->name, err.msg);
    return rc;
}

typedef struct setsum {
    int kernels, n, in, worse, nr;
    double unc_sum, unc_max, cal_sum, cal_max;
    double runc_sum, rcal_sum, rcal_max;      /* design / baseline ratio errors */
    double width[MAXK * NPT];
    double cyc[MAXK], cpu[MAXK], cpu6[MAXK], cpu6k[MAXK], part[4][MAXK];
    double wall[MAXK], wall6[MAXK];
} setsum;

static void summarise(const kjob *jobs, int nk, int set, int p, setsum *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < nk; i++) {
        const kjob *j = &jobs[i];
        if (j->set != set)
            continue;
        double ku = 0, kc = 0;
        for (int t = 0; t < NPT; t++) {
            double y = j->full[p][t].ipc;
            double eu = fabs(j->unc[p][t] - y) / y, ec = fabs(j->est[p][t] - y) / y;
            ku += eu;
            kc += ec;
            s->unc_max = fmax(s->unc_max, eu);
            if (t > 0) {
                double r = y / j->full[p][0].ipc;
                double ru = fabs(j->unc[p][t] / j->unc[p][0] / r - 1);
                double rc = fabs(j->est[p][t] / j->est[p][0] / r - 1);
                s->runc_sum += ru;
                s->rcal_sum += rc;
                s->rcal_max = fmax(s->rcal_max, rc);
                s->nr++;
            }
            s->cal_max = fmax(s->cal_max, ec);
            if (isfinite(j->lo[p][t])) {
                s->in += y >= j->lo[p][t] && y <= j->hi[p][t];
                s->width[s->n] = (j->hi[p][t] - j->lo[p][t]) / j->est[p][t];
            } else {
                s->in += fabs(j->unc[p][t] - y) <= 1.96 * 0.054 * j->unc[p][t];
                s->width[s->n] = 2 * 1.96 * 0.054;
            }
            s->n++;
        }
        s->unc_sum += ku;
        s->cal_sum += kc;
        s->worse += kc > ku + 1e-9;
        const benchrun_point *b = &j->full[p][0];
        double tb = j->base_cpu_s[p], t6 = j->ltrf6_cpu_s[p];
        s->cyc[s->kernels] = j->rep[p].sim_cycles / (double)b->cycles;
        s->cpu[s->kernels] = j->cal_cpu_s[p] / tb;
        s->cpu6[s->kernels] = j->cal_cpu_s[p] / t6;
        s->cpu6k[s->kernels] = (j->cal_cpu_s[p] - j->kchar_cpu_s) / t6;
        s->wall[s->kernels] = j->cal_wall_s[p] / tb;
        s->wall6[s->kernels] = j->cal_wall_s[p] / t6;
        for (int q = 0; q < 4; q++)
            s->part[q][s->kernels] = j->part_s[p][q] / t6;
        s->kernels++;
    }
}

/* RF_BENCH_SEEDS=N: every kernel calibrated again at both pools with
 * sampler seeds 1..N, scored against the same full runs: how much of a
 * figure is the paths the windows drew.  Per seed and column (set and
 * pool): calibrated mean / worst |error|, the share of points in the 95%
 * interval @ its median width, and the kernels calibration makes worse;
 * then each column's range of means and worsts and its interval over all
 * seeds' points together.  The jobs keep the last seed's calibrations. */
static void seed_spread(const rf_gpu *gpu, kjob *jobs, int nk, int nseeds)
{
    setsum sum;
    double(*all)[NPOOL][16 * MAXK * NPT] = malloc(sizeof *all * 2);
    if (!all) {
        fprintf(stderr, "bench_ltrf_calib: out of memory\n");
        return;
    }
    double mean_lo[2][NPOOL], mean_hi[2][NPOOL], worst_lo[2][NPOOL], worst_hi[2][NPOOL];
    double cal_all[2][NPOOL] = {{0}};
    int n_all[2][NPOOL] = {{0}}, in_all[2][NPOOL] = {{0}};
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < NPOOL; p++) {
            mean_lo[s][p] = worst_lo[s][p] = INFINITY;
            mean_hi[s][p] = worst_hi[s][p] = 0;
        }
    printf("\ncalibrated mean / worst |error|, in 95%% interval @ median width, kernels worse, "
           "over calibration seeds 1-%d:\n", nseeds);
    for (int seed = 1; seed <= nseeds; seed++) {
        for (int i = 0; i < nk; i++) {
            if (jobs[i].seed == (uint64_t)seed)
                continue;   /* its calibration at this seed is the one it holds */
            jobs[i].seed = (uint64_t)seed;
            if (calibrate_and_estimate(gpu, &jobs[i], false)) {
                free(all);
                return;
            }
        }
        printf("  seed %-3d", seed);
        for (int s = 0; s < 2; s++)
            for (int p = 0; p < NPOOL; p++) {
                summarise(jobs, nk, s, p, &sum);
                double mean = sum.n ? sum.cal_sum / sum.n : 0;
                printf("  %5.2f/%5.2f%% %3.0f%%@%4.1f%% %d", 100 * mean, 100 * sum.cal_max,
                       sum.n ? 100.0 * sum.in / sum.n : 0,
                       100 * benchrun_median(sum.width, sum.n), sum.worse);
                mean_lo[s][p] = fmin(mean_lo[s][p], mean);
                mean_hi[s][p] = fmax(mean_hi[s][p], mean);
                worst_lo[s][p] = fmin(worst_lo[s][p], sum.cal_max);
                worst_hi[s][p] = fmax(worst_hi[s][p], sum.cal_max);
                memcpy(all[s][p] + n_all[s][p], sum.width, sizeof sum.width[0] * (size_t)sum.n);
                n_all[s][p] += sum.n;
                in_all[s][p] += sum.in;
                cal_all[s][p] += sum.cal_sum;
            }
        printf("\n");
    }
    const char *col[2][NPOOL] = {{"tuning, preferred pool", "tuning, 8 active warps"},
                                 {"validation, preferred pool", "validation, 8 active warps"}};
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < NPOOL; p++)
            printf("  %-27s mean %.2f-%.2f%% (all seeds %.2f%%), worst %.2f-%.2f%%, in 95%% "
                   "interval %.1f%% of %d @ median width %.2f%%\n", col[s][p],
                   100 * mean_lo[s][p], 100 * mean_hi[s][p],
                   n_all[s][p] ? 100 * cal_all[s][p] / n_all[s][p] : 0, 100 * worst_lo[s][p],
                   100 * worst_hi[s][p], n_all[s][p] ? 100.0 * in_all[s][p] / n_all[s][p] : 0,
                   n_all[s][p], 100 * benchrun_median(all[s][p], n_all[s][p]));
    free(all);
}

/* RF_BENCH_RUNS=N (header): the kernels of jobs again as the runs of
 * seeds 2..N, each calibrated on its own windows. */
static int other_runs(const rf_gpu *gpu, const kjob *jobs, int nk, int nruns)
{
    static kjob oj[MAXK];
    static benchrun_point all[MAXK * NPOOL * NPT];
    const char *dirs[2] = {"inputs/kernels", "inputs/validation"};
    const char *cache = getenv("RF_BENCH_LTRFCACHE");
    double cal[2][NPOOL] = {{0}}, worst[2][NPOOL] = {{0}};
    int n[2][NPOOL] = {{0}}, in[2][NPOOL] = {{0}};
    printf("\nthe kernels' other runs (sampler seeds 2-%d, each walked with its own draws and "
           "calibrated on its own windows,\ncalibrate --seed): calibrated mean / worst |error|, "
           "in 95%% interval\n", nruns);
    printf("  %-8s %22s %22s %22s %22s\n", "seed", "tuning, pref.", "tuning, 8 warps",
           "valid., pref.", "valid., 8 warps");
    for (int run = 2; run <= nruns; run++) {
        for (int i = 0; i < nk; i++)
            if (load(gpu, dirs[jobs[i].set], jobs[i].name, jobs[i].set, (uint64_t)run, &oj[i]))
                return 1;
        for (int i = 0; i < nk; i++)
            memcpy(&all[i * NPOOL * NPT], oj[i].full, sizeof oj[i].full);
        if (cache)
            benchrun_cache_load(cache, all, nk * NPOOL * NPT);
        benchrun_full(all, nk * NPOOL * NPT, 2);
        if (cache && benchrun_cache_save(cache, all, nk * NPOOL * NPT))
            fprintf(stderr, "bench_ltrf_calib: %s: cannot write the cache\n", cache);
        for (int i = 0; i < nk; i++) {
            memcpy(oj[i].full, &all[i * NPOOL * NPT], sizeof oj[i].full);
            oj[i].seed = (uint64_t)run;
            if (calibrate_and_estimate(gpu, &oj[i], false))
                return 1;
        }
        printf("  %-8d", run);
        for (int s = 0; s < 2; s++)
            for (int p = 0; p < NPOOL; p++) {
                static setsum sum;
                summarise(oj, nk, s, p, &sum);
                printf(" %6.2f/%6.2f%% %6.1f%%", sum.n ? 100 * sum.cal_sum / sum.n : 0,
                       100 * sum.cal_max, sum.n ? 100.0 * sum.in / sum.n : 0);
                cal[s][p] += sum.cal_sum;
                worst[s][p] = fmax(worst[s][p], sum.cal_max);
                n[s][p] += sum.n;
                in[s][p] += sum.in;
            }
        printf("\n");
        for (int i = 0; i < nk; i++)
            rf_kernel_destroy(oj[i].k);
    }
    printf("  2-%-6d", nruns);
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < NPOOL; p++)
            printf(" %6.2f/%6.2f%% %6.1f%%", n[s][p] ? 100 * cal[s][p] / n[s][p] : 0,
                   100 * worst[s][p], n[s][p] ? 100.0 * in[s][p] / n[s][p] : 0);
    printf("\n");
    return 0;
}

static void verbose_kernel(const kjob *j)
{
    printf("  %s\n", j->name);
    for (int p = 0; p < NPOOL; p++) {
        const rf_pffit_wrep *r = &j->rep[p];
        const rf_calib *c = &j->cal[p];
        printf("    %-15s windows %d x %d, %.0f cycles (%.2f%% of base full), CPU %.3f s (%.1f%% of "
               "LTRF#6 full);", pool_name[p], r->npos, r->per, r->sim_cycles,
               100 * r->sim_cycles / (double)j->full[p][0].cycles, j->cal_cpu_s[p],
               100 * j->cal_cpu_s[p] / j->ltrf6_cpu_s[p]);
        for (int q = 0; q < c->nfit; q++)
            printf(" %s=%.3g", rf_ipc_mparams[c->fit_idx[q]].name,
                   rf_mparam_get(&rf_ipc_mparams[c->fit_idx[q]], &c->params));
        printf("\n      baseline: full run / model's steady state %.4f; windows / population "
               "model %+.2f%% +- %.2f%%, level %.4f, level sd %.2f%%, its weight %.3f, shrink %.3f "
               "(corrections beside the level %.2f%% rms)\n",
               j->full[p][0].ipc / j->steady0[p], 100 * r->lv_mean, 100 * r->lv_noise, c->level,
               100 * sqrt(c->level_var), c->level_apart ? c->level_shrink : c->shrink, c->shrink,
               100 * r->corr_rms);
        for (int q = 1; q < r->per; q++)
            printf("      ratio %-7s windows %.4f +- %.3f  model %.4f -> %.4f  full runs %.4f\n",
                   pts[q].label, r->ratio[q], r->noise[q], r->model0[q], r->model[q],
                   j->full[p][q].ipc / j->full[p][0].ipc);
        printf("     ");
        for (int t = 0; t < NPT; t++)
            printf(" %s %.3f/%+.1f/%+.1f", pts[t].label, j->full[p][t].ipc,
                   100 * (j->unc[p][t] / j->full[p][t].ipc - 1),
                   100 * (j->est[p][t] / j->full[p][t].ipc - 1));
        printf("\n");
    }
}

/* RF_BENCH_HITS: RFC #7's hit rate, the sampler's full run against the
 * uncalibrated model's, per kernel and pool; mean |error| per set and pool. */
static void hit_rates(kjob *jobs, int nk)
{
    static benchrun_point runs[MAXK * NPOOL];
    static rf_sim_stats st[MAXK * NPOOL];
    for (int i = 0; i < nk; i++)
        for (int p = 0; p < NPOOL; p++) {
            benchrun_point *b = &runs[i * NPOOL + p];
            *b = jobs[i].full[p][1];            /* RFC #7 */
            b->ipc = 0;
            b->stats = &st[i * NPOOL + p];
        }
    benchrun_full(runs, nk * NPOOL, 2);
    printf("\nRFC #7 register-cache hit rate, sampler (full run) / uncalibrated model:\n");
    printf("  %-10s %-12s %15s %15s\n", "set", "kernel", "preferred pool", "8 active warps");
    double sum[2][NPOOL] = {{0}};
    int n[2] = {0, 0};
    for (int i = 0; i < nk; i++) {
        const kjob *j = &jobs[i];
        printf("  %-10s %-12s", j->set ? "validation" : "tuning", j->name);
        bool ok = true;
        for (int p = 0; p < NPOOL; p++) {
            const rf_sim_stats *s = &st[i * NPOOL + p];
            double reads = (double)(s->rc_hits + s->rc_misses);
            if (runs[i * NPOOL + p].rc || !(reads > 0)) {
                printf(" %15s", "-");
                ok = false;
                continue;
            }
            double h = s->rc_hits / reads;
            printf("   %5.3f / %5.3f", h, j->rfc_hit[p]);
            sum[j->set][p] += fabs(j->rfc_hit[p] - h);
        }
        printf("\n");
        n[j->set] += ok;
    }
    for (int s = 0; s < 2; s++)
        if (n[s] > 0)
            printf("  %-10s mean |error| %15.3f %15.3f\n", s ? "validation" : "tuning",
                   sum[s][0] / n[s], sum[s][1] / n[s]);
}

/* `rfkit estimate` as a user runs it on the kernel's default run (the
 * GPU's SMs share the grid): RFC and LTRF on configuration #6 at the GPU's
 * pool, the least wall time of EST_CMD_REPS runs each (loading,
 * characterising and the register-cache walks included), ms; -1 where
 * the binary is not built. */
#define EST_CMD_REPS 5

static void estimate_commands(const char *bin, const kjob *jobs, int nk)
{
    static const char *const designs[2] = {"rfc", "ltrf"};
    double ms[2][2][MAXK];  /* [set][design][kernel] */
    int n[2] = {0, 0};
    for (int i = 0; i < nk; i++) {
        char spec[600];
        snprintf(spec, sizeof spec, "%s/%s.spec",
                 jobs[i].set ? "inputs/validation" : "inputs/kernels", jobs[i].name);
        for (int d = 0; d < 2; d++) {
            char *argv[] = {(char *)bin, "estimate", "--gpu", GPU_NAME, "--kernel", spec,
                            "--design", (char *)designs[d], "--rf-config", "6", NULL};
            ms[jobs[i].set][d][n[jobs[i].set]] = benchrun_cmd_ms(argv, EST_CMD_REPS);
        }
        n[jobs[i].set]++;
    }
    printf("\nrfkit estimate on %s's default run (the GPU's SMs share the grid), #6 at the "
           "GPU's pool, least of %d runs:\n", GPU_NAME, EST_CMD_REPS);
    printf("%-30s %15s %15s %15s %15s\n", "", "tuning, RFC", "tuning, LTRF", "valid., RFC",
           "valid., LTRF");
    const char *what[2] = {"estimate command ms median", "estimate command ms max"};
    for (int r = 0; r < 2; r++) {
        printf("%-30s", what[r]);
        for (int s = 0; s < 2; s++)
            for (int d = 0; d < 2; d++) {
                double v = -1;
                if (n[s] > 0 && r == 0) {
                    v = benchrun_median(ms[s][d], n[s]);
                } else {
                    for (int i = 0; i < n[s]; i++)
                        v = fmax(v, ms[s][d][i]);
                }
                printf(" %15.1f", v);
            }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    rf_fit_gsl_quiet();
    rf_gpu gpu;
    rf_err err = {0};
    if (rf_gpu_preset(GPU_NAME, &gpu, &err) < 0) {
        fprintf(stderr, "bench_ltrf_calib: %s\n", err.msg);
        return 1;
    }
    static kjob jobs[MAXK];
    int nk = 0;
    const char *only = getenv("RF_BENCH_KERNELS");
    const char *seed_env = getenv("RF_BENCH_SEED");
    uint64_t seed = seed_env ? strtoull(seed_env, NULL, 10) : 0;
    if (seed == 0)
        seed = 1;
    const char *dirs[2] = {"inputs/kernels", "inputs/validation"};
    for (int s = 0; s < 2; s++) {
        char *names[MAXK * 2];
        int n = benchrun_specs(dirs[s], names, MAXK * 2);
        if (n < 0) {
            fprintf(stderr, "bench_ltrf_calib: cannot read %s (run from the repository root)\n",
                    dirs[s]);
            return 1;
        }
        for (int i = 0; i < n; i++) {
            if (nk < MAXK && (!only || benchrun_listed(only, names[i]))
                && load(&gpu, dirs[s], names[i], s, 1, &jobs[nk]) == 0) {
                jobs[nk].seed = seed;
                if (s == 1 && jobs[nk].k->regs < 20)
                    rf_kernel_destroy(jobs[nk].k);
                else
                    nk++;
            }
            free(names[i]);
        }
    }
    static benchrun_point all[MAXK * NPOOL * NPT];
    for (int i = 0; i < nk; i++)
        memcpy(&all[i * NPOOL * NPT], jobs[i].full, sizeof jobs[i].full);
    const char *cache = getenv("RF_BENCH_LTRFCACHE");
    int cached = cache ? benchrun_cache_load(cache, all, nk * NPOOL * NPT) : 0;
    benchrun_full(all, nk * NPOOL * NPT, 2);
    if (cache && benchrun_cache_save(cache, all, nk * NPOOL * NPT))
        fprintf(stderr, "bench_ltrf_calib: %s: cannot write the cache\n", cache);
    int bad = 0;
    for (int i = 0; i < nk; i++) {
        memcpy(jobs[i].full, &all[i * NPOOL * NPT], sizeof jobs[i].full);
        for (int p = 0; p < NPOOL; p++)
            for (int t = 0; t < NPT; t++)
                bad |= jobs[i].full[p][t].rc != 0 || !(jobs[i].full[p][t].ipc > 0);
        bad |= calibrate_and_estimate(&gpu, &jobs[i], true) != 0;
    }
    if (bad) {
        fprintf(stderr, "bench_ltrf_calib: a run failed\n");
        return 1;
    }
    bool verbose = getenv("RF_BENCH_VERBOSE") != NULL;
    printf("register-cache calibration from windows (calibrate --design ltrf) on %s: "
           "estimate --sms 1 vs simulate --full,\n%d points per kernel and pool (3 sampled, 7 "
           "not), grids <= %d threads, one calibration per pool\n", GPU_NAME, NPT,
           MAX_THREADS);
    static setsum sum[2][NPOOL];
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < NPOOL; p++)
            summarise(jobs, nk, s, p, &sum[s][p]);
    printf("%-30s %15s %15s %15s %15s\n", "", "tuning, pref.", "tuning, 8 warps",
           "valid., pref.", "valid., 8 warps");
#define ROW(label, expr)                                                                   \
    do {                                                                                   \
        printf("%-30s", label);                                                            \
        for (int s = 0; s < 2; s++)                                                        \
            for (int p = 0; p < NPOOL; p++) {                                              \
                const setsum *S = &sum[s][p];                                              \
                (void)S;                                                                   \
                printf(" %14.2f%%", 100 * (expr));                                         \
            }                                                                              \
        printf("\n");                                                                      \
    } while (0)
    printf("%-30s", "kernels / points");
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < NPOOL; p++)
            printf(" %8d / %4d", sum[s][p].kernels, sum[s][p].n);
    printf("\n");
    ROW("uncalibrated mean |error|", S->n ? S->unc_sum / S->n : 0);
    ROW("uncalibrated worst", S->unc_max);
    ROW("calibrated mean |error|", S->n ? S->cal_sum / S->n : 0);
    ROW("calibrated worst", S->cal_max);
    printf("%-30s", "kernels calibration worsens");
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < NPOOL; p++)
            printf(" %15d", sum[s][p].worse);
    printf("\n");
    ROW("design/baseline: unc. mean", S->nr ? S->runc_sum / S->nr : 0);
    ROW("design/baseline: cal. mean", S->nr ? S->rcal_sum / S->nr : 0);
    ROW("design/baseline: cal. worst", S->rcal_max);
    ROW("in 95% interval", S->n ? (double)S->in / S->n : 0);
    double med[2][NPOOL][5], mx[2][NPOOL][4];
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < NPOOL; p++) {
            setsum *S = &sum[s][p];
            mx[s][p][0] = mx[s][p][1] = mx[s][p][2] = mx[s][p][3] = 0;
            for (int i = 0; i < S->kernels; i++) {
                mx[s][p][0] = fmax(mx[s][p][0], S->cyc[i]);
                mx[s][p][1] = fmax(mx[s][p][1], S->cpu[i]);
                mx[s][p][2] = fmax(mx[s][p][2], S->cpu6[i]);
                mx[s][p][3] = fmax(mx[s][p][3], S->cpu6k[i]);
            }
            med[s][p][0] = benchrun_median(S->width, S->n);
            med[s][p][1] = benchrun_median(S->cyc, S->kernels);
            med[s][p][2] = benchrun_median(S->cpu, S->kernels);
            med[s][p][3] = benchrun_median(S->cpu6, S->kernels);
            med[s][p][4] = benchrun_median(S->cpu6k, S->kernels);
        }
    ROW("interval median width", med[s][p][0]);
    ROW("sampled cycles / base full, med", med[s][p][1]);
    ROW("sampled cycles / base full, max", mx[s][p][0]);
    ROW("calibrate CPU / base full, med", med[s][p][2]);
    ROW("calibrate CPU / base full, max", mx[s][p][1]);
    ROW("calibrate CPU / LTRF#6 full, med", med[s][p][3]);
    ROW("calibrate CPU / LTRF#6 full, max", mx[s][p][2]);
    ROW("calibrate wall / base full, med", benchrun_median(((setsum *)S)->wall, S->kernels));
    ROW("calibrate wall / LTRF#6 full, med", benchrun_median(((setsum *)S)->wall6, S->kernels));
    ROW("  without kchar, median", med[s][p][4]);
    ROW("  without kchar, max", mx[s][p][3]);
    ROW("  windows, median", benchrun_median(((setsum *)S)->part[0], S->kernels));
    ROW("  fit, median", benchrun_median(((setsum *)S)->part[1], S->kernels));
    ROW("  level, median", benchrun_median(((setsum *)S)->part[2], S->kernels));
    ROW("  windows' level check, median", benchrun_median(((setsum *)S)->part[3], S->kernels));
#undef ROW
    printf("targets (issue 25, validation): calibrated mean <= 3%%, worst <= 10%% at both pools;"
           " calibrate <= 10%% of a full run\n");
    printf("(%d of %d full runs from the cache)\n", cached, nk * NPOOL * NPT);
    /* $RFKIT, else BUILD/rfkit beside BUILD/tests (tests/support/clirun). */
    if (clirun_init(argv[0]) == 0)
        estimate_commands(clirun_binary(), jobs, nk);
    if (verbose) {
        printf("\nper kernel: windows' ratio to their baseline window against the model's "
               "(defaults -> fit) and the full runs';\nper point: full-run IPC / "
               "uncalibrated error %% / calibrated error %%\n");
        for (int i = 0; i < nk; i++)
            verbose_kernel(&jobs[i]);
    }
    const char *dump = getenv("RF_BENCH_DUMP");
    FILE *df = dump ? fopen(dump, "w") : NULL;
    for (int i = 0; df && i < nk; i++) {
        kjob *j = &jobs[i];
        rf_shape shape = {j->k->regs, rf_kernel_threads(j->k),
                          j->k->smem_static + j->k->launch.smem, rf_kernel_ctas(j->k), 1};
        for (int p = 0; p < NPOOL; p++) {
            const rf_pffit_wrep *r = &j->rep[p];
            rf_calib c1 = j->cal[p];
            c1.shrink = 1.0;
            c1.level_apart = false;
            fprintf(df, "%d %s %d %d %d %.6g %.6g %.6g %.6g %.6g %.6g %.6g %.6g", j->set, j->name, p,
                    r->npos, r->per, r->lv_mean, r->lv_noise, c1.level, c1.level_var,
                    j->cal[p].shrink, r->noise[1], r->noise[2], j->steady0[p]);
            for (int t = 0; t < NPT; t++) {
                rf_estimate e;
                rf_extrap_estimate(&gpu, &j->full[p][t].d, &j->kc, &shape, &c1, &e, &err);
                fprintf(df, " %.6g %.6g %.6g %.6g", j->full[p][t].ipc, j->unc[p][t], e.ipc, j->est[p][t]);
            }
            fprintf(df, "\n");
        }
    }
    if (df)
        fclose(df);
    const char *seeds = getenv("RF_BENCH_SEEDS");
    if (seeds && atoi(seeds) > 1)
        seed_spread(&gpu, jobs, nk, atoi(seeds) > 16 ? 16 : atoi(seeds));
    const char *runs = getenv("RF_BENCH_RUNS");
    if (runs && atoi(runs) > 1
        && other_runs(&gpu, jobs, nk, atoi(runs) > 16 ? 16 : atoi(runs)))
        fprintf(stderr, "bench_ltrf_calib: the other runs could not be measured\n");
    if (getenv("RF_BENCH_HITS"))
        hit_rates(jobs, nk);
    for (int i = 0; i < nk; i++)
        rf_kernel_destroy(jobs[i].k);
    return 0;
}
