/* bench_validation.c - estimates against full runs on the nine tuning
 * kernels (inputs/kernels/) and, side by side, on the validation set
 * (inputs/validation/): kernels the models' constants and terms were not
 * chosen on, which only measure.
 *
 * Every kernel runs on fermi-gtx480 (16 banks, 16 collectors) at 7 design
 * points: the default design (the baseline of the speedups), banks 4, 8 and
 * 32, read stealing and read+write stealing at 8 banks, and 8 collectors.
 * Two runs, each scored on its own (both by default):
 *   --sms 1     each point against a full sampler run of the whole grid on
 *               one SM, the estimates describing the same machine
 *               (rf_shape.sms = 1, as `estimate --sms 1`);
 *   default     the GPU's 15 SMs sharing the grid (inputs/kernel.h
 *               rf_kernel_spread): calibration, estimates and full runs all
 *               of the busiest SM's share, as `calibrate`, `estimate` and
 *               `simulate --full` run with no --sms.
 * RF_BENCH_SMS=N runs one of them: 1 the whole grid on one SM, 0 the
 * GPU's count (the default run), another N the grid over N SMs.  Every
 * point is scored, the ones the calibration's windows ran included: a
 * window is a short sample, the score is on the whole-kernel IPC.
 *
 * Columns per set:
 *   unc, cal     mean and worst |IPC error| of the uncalibrated and the
 *                calibrated estimate, |est - sim| / sim;
 *   worsens      kernels whose calibrated mean |error| exceeds the
 *                uncalibrated one;
 *   speedup      mean and worst |S_est - S_sim| / S_sim over the six
 *                non-default points, S = IPC(design) / IPC(default), both
 *                from calibrated estimates resp. from full runs;
 *   in 95% PI    share of full runs inside the calibrated 95% interval, and
 *                the median interval width (hi - lo) / estimate;
 *   cal/full     CPU time of calibration (rf_kchar_compute_walked + rf_calib_run_walked,
 *                every thread's) over the CPU time of the default design's
 *                full run, median and max over the set's kernels (CPU time,
 *                so the ratio holds on a machine shared with other jobs; the
 *                full run timed again right after the calibration, not
 *                taken from the cache: a machine's speed drifts between
 *                sessions);
 *   cal/full wall  the same calibration's wall-clock time, on the default
 *                thread count (one per online CPU, as `rfkit calibrate`),
 *                over the full run's CPU time, which is its wall time on
 *                the one thread `simulate` runs (the measure; on a
 *                loaded machine it reads high);
 *   est ms       the most CPU time one calibrated estimate took (the
 *                closed form on a characterised kernel);
 *   est command  the `rfkit estimate` command on the kernel's run as a
 *                user runs it (a process: start, load, characterise,
 *                estimate), the least wall time of EST_CMD_REPS runs,
 *                median and max over the set's kernels.
 * Then one line per kernel, worst calibrated error first, with its cost
 * (calibrate/full CPU, and wall), the cycles the calibration's windows simulated
 * (warm-ups included) as a share of the default design's full run, and
 * that run's cycles.
 *
 * Full runs go to all cores.  RF_BENCH_VALCACHE=FILE keeps the full runs
 * (IPC, cycles, CPU time) in FILE and reuses them on the next run (delete
 * it when the sampler or a kernel changes; the runs of a spread grid are
 * keyed "sms=N|set|kernel|design", those of --sms 1 without the prefix).  RF_BENCH_KERNELS=a,b limits the
 * run to the kernels named; RF_BENCH_VERBOSE=1 prints every point;
 * RF_BENCH_SEEDS=N adds each set's calibrated figures over calibration
 * seeds 1..N (N more calibrations per kernel: windows of seed S on seed
 * 1's walk, the record applied to seed 1's run, a measure of the windows'
 * noise on one run; `calibrate --seed S` instead samples and walks run S,
 * RF_BENCH_RUNS below); with RF_BENCH_DUMP=FILE,
 * every point of those calibrations goes to FILE, a tab-separated line
 * each (set, kernel, design, seed, the record's samples, full-run IPC,
 * estimate, interval), for a constant's rule to be re-scanned offline.
 * RF_BENCH_RUNS=N adds the kernels' other runs: sampler seeds 2..N (the
 * draws of branches, loop trips and cache hits: another run of each
 * kernel, one the models were not chosen on), each estimated with its own
 * draws (rf_profile.seed, `estimate --seed`), uncalibrated and with its
 * own record (`calibrate --seed S`: the run's walk and windows), against
 * its full runs (cached with "|seed=S" after the key).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/extrapolate.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "support/benchrun.h"
#include "support/clirun.h"

#define GPU_NAME "fermi-gtx480"
#define NDESIGN 7
#define MAXK 64

typedef struct kjob {
    const char *set;
    int sms;                /* SMs the grid is spread over (1: the whole grid) */
    char *name;
    rf_gpu gpu;
    rf_kernel *k;
    rf_ipc_kernel kc;
    rf_calib cal;
    rf_calib_report *rep;
    double cal_cpu_s;       /* rf_kchar_compute_walked + rf_calib_run_walked, all threads */
    double cal_wall_s;      /* the same, wall clock */
    double full_cpu_s;      /* the default design's full run, CPU, timed beside them */
    benchrun_point *pts;    /* NDESIGN full runs; pts[0] is the default design */
    /* scores */
    int n, nspd, in;
    double unc_sum, unc_max, cal_sum, cal_max, spd_sum, spd_max;
    double width[NDESIGN];
    double est_ms_max;
    char spec[512];         /* the kernel spec's path */
    double cmd_ms;          /* the `rfkit estimate` command (benchrun_cmd_ms; -1: not run) */
} kjob;

static const char *design_label[NDESIGN] = {
    "default b16 c16", "b4", "b8", "b32", "stealing(r) b8", "stealing(rw) b8", "c8"};

static void design_point(int i, rf_design *d)
{
    rf_design_init(d);
    d->read_steal = d->write_steal = false;
    switch (i) {
    case 1: d->banks = 4; break;
    case 2: d->banks = 8; break;
    case 3: d->banks = 32; break;
    case 4:
    case 5:
        d->kind = RF_DESIGN_STEALING;
        d->banks = 8;
        d->read_steal = true;
        d->write_steal = i == 5;
        break;
    case 6: d->collectors = 8; break;
    default: break;
    }
}

/* The estimates' machine: the grid over kj->sms SMs (the share's CTAs per
 * SM, as `estimate` describes it). */
static rf_shape job_shape(const kjob *kj)
{
    rf_shape sh = {kj->k->regs, rf_kernel_threads(kj->k), kj->k->smem_static + kj->k->launch.smem,
                   rf_kernel_grid_ctas(kj->k), kj->sms};
    return sh;
}

/* Kernel `name` of set, its run (the grid over sms SMs, 0: the GPU's
 * count; the draws of seed `run`, 1 the default) calibrated as `rfkit
 * calibrate --seed run` does, and its design points.  The default run's
 * full run is timed again beside the calibration (run 1 only: the other
 * runs report no cost). */
static int setup(kjob *kj, const char *set, const char *dir, char *name, int sms, uint64_t run)
{
    rf_err err;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.spec", dir, name);
    snprintf(kj->spec, sizeof kj->spec, "%s", path);
    kj->cmd_ms = -1;
    kj->set = set;
    kj->name = name;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    kj->rep = malloc(sizeof *kj->rep);
    kj->pts = calloc(NDESIGN, sizeof *kj->pts);
    if (!kj->rep || !kj->pts) {
        fprintf(stderr, "bench_validation: out of memory\n");
        return -1;
    }
    if (rf_gpu_load(GPU_NAME, &kj->gpu, NULL, &err) || rf_kernel_load(path, &ko, &kj->k, &err)) {
        fprintf(stderr, "bench_validation: %s: %s\n", path, err.msg);
        return -1;
    }
    kj->k->profile.seed = run;
    kj->sms = sms > 0 ? sms : (kj->gpu.sms > 0 ? kj->gpu.sms : 1);
    rf_kernel_spread(kj->k, kj->sms);
    double t0 = benchrun_proc_cpu_s(), w0 = benchrun_wall_s();
    /* The default thread count of `rfkit calibrate`: one per online CPU. */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    rf_calib_opts co = {0, run, NULL, false, NULL, ncpu > 1 ? (int)ncpu : 1};
    rf_ctaset *walked = NULL;
    int rc = rf_kchar_compute_walked_jobs(&kj->gpu, kj->k, &kj->kc, &walked, co.jobs, &err);
    if (!rc)
        rc = rf_calib_run_walked(&kj->gpu, GPU_NAME, kj->k, &kj->kc, walked, &co, &kj->cal,
                                 kj->rep, &err);
    rf_kchar_ctaset_free(walked);
    if (rc) {
        fprintf(stderr, "bench_validation: calibrate %s: %s\n", path, err.msg);
        return -1;
    }
    kj->cal_cpu_s = benchrun_proc_cpu_s() - t0;
    kj->cal_wall_s = benchrun_wall_s() - w0;
    if (run == 1 && getenv("RF_BENCH_VERBOSE")) {
        const rf_plan *pl = &kj->rep->plan;
        long ctas = rf_kernel_ctas(kj->k);
        printf("  plan %-12s %ld CTAs, %d resident, est %.0f cycles (CTA life %.0f), "
               "%d windows:", name, ctas, pl->resident, pl->full_cycles,
               rf_plan_cta_life(pl, ctas), pl->n);
        for (int i = 0; i < pl->n; i++)
            printf(" %llu@%llu", (unsigned long long)pl->pt[i].cycles,
                   (unsigned long long)pl->pt[i].skip_ctas);
        printf(" rms %.1f%% w %.2f\n", 100 * kj->cal.rms_rel, kj->cal.shrink);
    }
    for (int i = 0; i < NDESIGN; i++) {
        benchrun_point *p = &kj->pts[i];
        p->gpu = &kj->gpu;
        p->k = kj->k;
        design_point(i, &p->d);
        if (kj->sms > 1)
            snprintf(p->key, sizeof p->key, "sms=%d|%s|%s|%s", kj->sms, set, name,
                     design_label[i]);
        else
            snprintf(p->key, sizeof p->key, "%s|%s|%s", set, name, design_label[i]);
        benchrun_key_run(p, run);
    }
    /* The default design's full run timed now, beside the calibration. */
    if (run == 1)
        kj->full_cpu_s = benchrun_retime(&kj->pts[0]);
    return 0;
}

static void score(kjob *kj)
{
    rf_shape sh = job_shape(kj);
    rf_estimate ec[NDESIGN], eu[NDESIGN];
    bool ok[NDESIGN];
    rf_err err;
    for (int i = 0; i < NDESIGN; i++) {
        const benchrun_point *p = &kj->pts[i];
        ok[i] = false;
        if (p->rc || !(p->ipc > 0))
            continue;
        double t0 = benchrun_cpu_s();
        int rc = rf_extrap_estimate(&kj->gpu, &p->d, &kj->kc, &sh, &kj->cal, &ec[i], &err);
        kj->est_ms_max = fmax(kj->est_ms_max, 1e3 * (benchrun_cpu_s() - t0));
        if (rc || rf_extrap_estimate(&kj->gpu, &p->d, &kj->kc, &sh, NULL, &eu[i], &err)) {
            fprintf(stderr, "bench_validation: %s: %s\n", p->key, err.msg);
            continue;
        }
        ok[i] = true;
        double e_cal = fabs(ec[i].ipc - p->ipc) / p->ipc;
        double e_unc = fabs(eu[i].ipc - p->ipc) / p->ipc;
        kj->cal_sum += e_cal, kj->cal_max = fmax(kj->cal_max, e_cal);
        kj->unc_sum += e_unc, kj->unc_max = fmax(kj->unc_max, e_unc);
        kj->in += p->ipc >= ec[i].ipc_lo && p->ipc <= ec[i].ipc_hi;
        kj->width[kj->n++] = (ec[i].ipc_hi - ec[i].ipc_lo) / ec[i].ipc;
        if (getenv("RF_BENCH_VERBOSE"))
            printf("    %-12s %-16s sim %.4f cal %.4f [%.4f, %.4f] unc %.4f\n", kj->name,
                   design_label[i], p->ipc, ec[i].ipc, ec[i].ipc_lo, ec[i].ipc_hi, eu[i].ipc);
    }
    for (int i = 1; ok[0] && i < NDESIGN; i++) {
        if (!ok[i])
            continue;
        double s_sim = kj->pts[i].ipc / kj->pts[0].ipc;
        double s_est = ec[i].ipc / ec[0].ipc;
        double e = fabs(s_est - s_sim) / s_sim;
        kj->spd_sum += e, kj->spd_max = fmax(kj->spd_max, e);
        kj->nspd++;
    }
}

/* RF_BENCH_RUNS=N (header): per set, the uncalibrated and calibrated
 * mean / worst |IPC error|, the speedup error and the interval's cover on
 * the runs of seeds 2..N, beside seed 1's (the main table's). */
static int other_runs(const kjob *jobs, const int *first, int nruns)
{
    printf("\nthe kernels' other runs (sampler seeds 2-%d, each estimated with its own draws, "
           "estimate --seed;\ncalibrated: each run's own record, calibrate --seed):\n", nruns);
    printf("  %-10s %5s %16s %16s %16s %9s\n", "set", "seed", "unc mean/worst", "cal mean/worst",
           "speedup mean", "in 95% PI");
    const char *cache = getenv("RF_BENCH_VALCACHE");
    for (int s = 0; s < 2; s++) {
        double all_u = 0, all_c = 0, all_sp = 0, all_max = 0;
        int all_n = 0, all_nsp = 0, all_in = 0;
        for (int seed = 2; seed <= nruns; seed++) {
            int nk = first[s + 1] - first[s];
            kjob *sj = calloc((size_t)(nk > 0 ? nk : 1), sizeof *sj);
            benchrun_point *pts = calloc((size_t)nk * NDESIGN + 1, sizeof *pts);
            if (!sj || !pts) {
                free(sj);
                free(pts);
                return 1;
            }
            const char *dir = s ? "inputs/validation" : "inputs/kernels";
            for (int i = 0; i < nk; i++) {
                const kjob *kj = &jobs[first[s] + i];
                kjob *o = &sj[i];
                char *name = strdup(kj->name);
                if (!name || setup(o, kj->set, dir, name, kj->sms, (uint64_t)seed))
                    return 1;
                memcpy(&pts[i * NDESIGN], o->pts, NDESIGN * sizeof *pts);
            }
            if (cache)
                benchrun_cache_load(cache, pts, nk * NDESIGN);
            benchrun_full(pts, nk * NDESIGN, 0);
            if (cache && benchrun_cache_save(cache, pts, nk * NDESIGN))
                fprintf(stderr, "bench_validation: %s: cannot write the cache\n", cache);
            double su = 0, sc = 0, mu = 0, mc = 0, ssp = 0;
            int n = 0, nsp = 0, in = 0;
            for (int i = 0; i < nk; i++) {
                kjob *o = &sj[i];
                rf_shape sh = job_shape(o);
                rf_estimate ec[NDESIGN], eu[NDESIGN];
                bool ok[NDESIGN];
                for (int d = 0; d < NDESIGN; d++) {
                    const benchrun_point *p = &pts[i * NDESIGN + d];
                    rf_err err;
                    ok[d] = !p->rc && p->ipc > 0
                         && !rf_extrap_estimate(&o->gpu, &p->d, &o->kc, &sh, &o->cal, &ec[d], &err)
                         && !rf_extrap_estimate(&o->gpu, &p->d, &o->kc, &sh, NULL, &eu[d], &err);
                    if (!ok[d])
                        continue;
                    double eU = fabs(eu[d].ipc - p->ipc) / p->ipc;
                    double eC = fabs(ec[d].ipc - p->ipc) / p->ipc;
                    su += eU, sc += eC, mu = fmax(mu, eU), mc = fmax(mc, eC), n++;
                    in += p->ipc >= ec[d].ipc_lo && p->ipc <= ec[d].ipc_hi;
                    if (getenv("RF_BENCH_VERBOSE"))
                        printf("    %-12s %-16s seed %d sim %.4f cal %.4f [%.4f, %.4f] unc %.4f\n",
                               o->name, design_label[d], seed, p->ipc, ec[d].ipc, ec[d].ipc_lo,
                               ec[d].ipc_hi, eu[d].ipc);
                }
                for (int d = 1; ok[0] && d < NDESIGN; d++)
                    if (ok[d]) {
                        double ss = pts[i * NDESIGN + d].ipc / pts[i * NDESIGN].ipc;
                        ssp += fabs(ec[d].ipc / ec[0].ipc - ss) / ss;
                        nsp++;
                    }
                rf_kernel_destroy(o->k);
                free(o->rep);
                free(o->pts);
                free(o->name);
            }
            printf("  %-10s %5d %7.2f/%6.2f%% %7.2f/%6.2f%% %15.2f%% %8.1f%%\n", jobs[first[s]].set,
                   seed, n ? 100 * su / n : 0, 100 * mu, n ? 100 * sc / n : 0, 100 * mc,
                   nsp ? 100 * ssp / nsp : 0, n ? 100.0 * in / n : 0);
            all_u += su, all_c += sc, all_sp += ssp, all_n += n, all_nsp += nsp, all_in += in;
            all_max = fmax(all_max, mc);
            free(pts);
            free(sj);
        }
        if (all_n)
            printf("  %-10s  2-%-2d %7.2f%%         %7.2f/%6.2f%% %15.2f%% %8.1f%%\n",
                   jobs[first[s]].set, nruns, 100 * all_u / all_n, 100 * all_c / all_n,
                   100 * all_max, all_nsp ? 100 * all_sp / all_nsp : 0, 100.0 * all_in / all_n);
    }
    return 0;
}

/* One calibration seed's figures over a set: calibrated |IPC error| sum,
 * points and worst, full runs inside the 95% interval and the intervals'
 * widths, kernels whose calibrated mean error exceeds the uncalibrated. */
typedef struct seedsum {
    double sum, worst;
    int n, in, worse;
    double *width;          /* n widths (hi - lo) / estimate, room for the set's points */
} seedsum;

/* Kernel kj under calibration cal (seed `seed`), added to *s; with dump,
 * one line a design point: set, kernel, design, seed, the record's
 * samples, full-run IPC, the estimate and its interval. */
static void score_cal(const kjob *kj, const rf_calib *cal, seedsum *s, int seed, FILE *dump)
{
    rf_shape sh = job_shape(kj);
    rf_err err;
    double ksum = 0, usum = 0;
    for (int i = 0; i < NDESIGN; i++) {
        const benchrun_point *p = &kj->pts[i];
        rf_estimate e, u;
        if (p->rc || !(p->ipc > 0)
            || rf_extrap_estimate(&kj->gpu, &p->d, &kj->kc, &sh, cal, &e, &err)
            || rf_extrap_estimate(&kj->gpu, &p->d, &kj->kc, &sh, NULL, &u, &err))
            continue;
        double x = fabs(e.ipc - p->ipc) / p->ipc;
        ksum += x;
        usum += fabs(u.ipc - p->ipc) / p->ipc;
        s->worst = fmax(s->worst, x);
        s->in += p->ipc >= e.ipc_lo && p->ipc <= e.ipc_hi;
        s->width[s->n++] = (e.ipc_hi - e.ipc_lo) / e.ipc;
        if (dump)
            fprintf(dump, "%s\t%s\t%s\t%d\t%d\t%.17g\t%.17g\t%.17g\t%.17g\n", kj->set, kj->name,
                    design_label[i], seed, cal->samples, p->ipc, e.ipc, e.ipc_lo, e.ipc_hi);
    }
    s->sum += ksum;
    s->worse += ksum > usum;
}

/* RF_BENCH_SEEDS=N: every kernel calibrated again with sampler seeds 1..N,
 * each set scored against the same full runs: how much of a figure is the
 * paths the windows drew (a model change smaller than this spread is not
 * measured by one seed).  Per seed: calibrated mean / worst |error|, the
 * share of full runs in the 95% interval @ the median width, and the
 * kernels calibration makes worse; then the range of the means and worsts
 * and the interval's figures over all seeds' points together. */
static void seed_spread(const kjob *jobs, const int *first, int nseeds, FILE *dump)
{
    rf_calib_report *rep = malloc(sizeof *rep);
    double *all = malloc(sizeof *all * (size_t)(nseeds * (first[2] + 1) * NDESIGN));
    double *width = malloc(sizeof *width * (size_t)((first[2] + 1) * NDESIGN));
    if (!rep || !all || !width) {
        free(rep);
        free(all);
        free(width);
        return;
    }
    printf("\ncalibrated mean / worst |error|, in 95%% interval @ median width, kernels worse, "
           "over calibration seeds 1-%d:\n", nseeds);
    for (int s = 0; s < 2; s++) {
        double mean_lo = INFINITY, mean_hi = 0, worst_lo = INFINITY, worst_hi = 0;
        int nall = 0, inall = 0;
        double sumall = 0;
        printf("  %-10s", s ? "validation" : "tuning");
        for (int seed = 1; seed <= nseeds; seed++) {
            seedsum ss = {0, 0, 0, 0, 0, width};
            for (int i = first[s]; i < first[s + 1]; i++) {
                rf_calib_opts co = {0, (uint64_t)seed, NULL, false, NULL, 1};
                rf_calib cal;
                rf_err err;
                if (rf_calib_run(&jobs[i].gpu, GPU_NAME, jobs[i].k, &jobs[i].kc, &co, &cal, rep,
                                 &err) == RF_OK)
                    score_cal(&jobs[i], &cal, &ss, seed, dump);
                else
                    fprintf(stderr, "bench_validation: %s seed %d: %s\n", jobs[i].name, seed,
                            err.msg);
            }
            double mean = ss.n ? ss.sum / ss.n : 0;
            printf(" %5.2f/%5.2f%% %3.0f%%@%4.1f%% %d", 100 * mean, 100 * ss.worst,
                   ss.n ? 100.0 * ss.in / ss.n : 0, 100 * benchrun_median(width, ss.n), ss.worse);
            mean_lo = fmin(mean_lo, mean), mean_hi = fmax(mean_hi, mean);
            worst_lo = fmin(worst_lo, ss.worst), worst_hi = fmax(worst_hi, ss.worst);
            memcpy(all + nall, width, sizeof *all * (size_t)ss.n);
            nall += ss.n;
            inall += ss.in;
            sumall += ss.sum;
        }
        printf("\n  %-10s mean %.2f-%.2f%% (all seeds %.2f%%), worst %.2f-%.2f%%, in 95%% "
               "interval %.1f%% of %d @ median width %.2f%%\n", "", 100 * mean_lo, 100 * mean_hi,
               nall ? 100 * sumall / nall : 0, 100 * worst_lo, 100 * worst_hi,
               nall ? 100.0 * inall / nall : 0, nall, 100 * benchrun_median(all, nall));
    }
    free(rep);
    free(all);
    free(width);
}

/* The figures of one set (kernels jobs[0..n)). */
typedef struct setsum {
    int kernels, pts, in;
    int worse;              /* kernels whose calibrated mean error exceeds the uncalibrated */
    double unc_mean, unc_max, cal_mean, cal_max, spd_mean, spd_max;
    double cover, width_med, cost_med, cost_max, wall_med, wall_max, est_ms_max;
    double cmd_med, cmd_max;    /* the estimate command, ms (-1: not timed) */
} setsum;

static setsum summarise(const kjob *jobs, int n)
{
    setsum s;
    memset(&s, 0, sizeof s);
    double *w = malloc(sizeof *w * (size_t)(n * NDESIGN + 1));
    double *c = malloc(sizeof *c * (size_t)(n + 1));
    double *cw = malloc(sizeof *cw * (size_t)(n + 1));
    double *cm = malloc(sizeof *cm * (size_t)(n + 1));
    int nw = 0, nc = 0, nspd = 0, ncm = 0;
    s.cmd_max = -1;
    for (int i = 0; w && c && cw && cm && i < n; i++) {
        const kjob *kj = &jobs[i];
        s.kernels++;
        s.pts += kj->n, s.in += kj->in;
        s.worse += kj->cal_sum > kj->unc_sum;
        s.unc_mean += kj->unc_sum, s.cal_mean += kj->cal_sum, s.spd_mean += kj->spd_sum;
        nspd += kj->nspd;
        s.unc_max = fmax(s.unc_max, kj->unc_max);
        s.cal_max = fmax(s.cal_max, kj->cal_max);
        s.spd_max = fmax(s.spd_max, kj->spd_max);
        s.est_ms_max = fmax(s.est_ms_max, kj->est_ms_max);
        if (kj->cmd_ms >= 0) {
            cm[ncm++] = kj->cmd_ms;
            s.cmd_max = fmax(s.cmd_max, kj->cmd_ms);
        }
        for (int j = 0; j < kj->n; j++)
            w[nw++] = kj->width[j];
        if (kj->full_cpu_s > 0) {
            cw[nc] = kj->cal_wall_s / kj->full_cpu_s;
            s.wall_max = fmax(s.wall_max, cw[nc]);
            c[nc++] = kj->cal_cpu_s / kj->full_cpu_s;
            s.cost_max = fmax(s.cost_max, c[nc - 1]);
        }
    }
    if (s.pts) {
        s.unc_mean /= s.pts, s.cal_mean /= s.pts;
        s.cover = (double)s.in / s.pts;
    }
    if (nspd)
        s.spd_mean /= nspd;
    if (w)
        s.width_med = benchrun_median(w, nw);
    if (c && cw) {
        s.cost_med = benchrun_median(c, nc);
        s.wall_med = benchrun_median(cw, nc);
    }
    s.cmd_med = cm && ncm ? benchrun_median(cm, ncm) : -1;
    free(w);
    free(c);
    free(cw);
    free(cm);
    return s;
}

static int by_cal_max(const void *a, const void *b)
{
    double x = ((const kjob *)a)->cal_max, y = ((const kjob *)b)->cal_max;
    return (x < y) - (x > y);
}

static void kernel_lines(kjob *jobs, int n)
{
    qsort(jobs, (size_t)n, sizeof *jobs, by_cal_max);
    for (int i = 0; i < n; i++) {
        const kjob *kj = &jobs[i];
        printf("  %-10s %-12s %3d %7.2f%% %7.2f%% %7.2f%% %7.2f%% %7.2f%% %7.2f%% %3d/%-3d %6.3f %6.3f %6.1f%% %8.0f\n",
               kj->set, kj->name, kj->n, kj->n ? 100 * kj->unc_sum / kj->n : 0, 100 * kj->unc_max,
               kj->n ? 100 * kj->cal_sum / kj->n : 0, 100 * kj->cal_max,
               kj->nspd ? 100 * kj->spd_sum / kj->nspd : 0, 100 * kj->spd_max, kj->in, kj->n,
               kj->full_cpu_s > 0 ? kj->cal_cpu_s / kj->full_cpu_s : 0,
               kj->full_cpu_s > 0 ? kj->cal_wall_s / kj->full_cpu_s : 0,
               kj->pts[0].cycles ? 100 * kj->rep->sim_cycles / (double)kj->pts[0].cycles : 0,
               (double)kj->pts[0].cycles);
    }
}

/* The rfkit binary (clirun_init), "" when it is not built: the command is
 * then not timed. */
static char rfkit_bin[600];

/* The `rfkit estimate` command on the kernel's run, as a user runs it:
 * the least wall time of EST_CMD_REPS runs, loading, characterising and
 * estimating included. */
#define EST_CMD_REPS 5

static void time_command(kjob *kj)
{
    if (!rfkit_bin[0])
        return;
    char sms[16];
    snprintf(sms, sizeof sms, "%d", kj->sms);
    char *argv[] = {rfkit_bin, "estimate", "--gpu", GPU_NAME, "--kernel", kj->spec,
                    "--sms", sms, NULL};
    kj->cmd_ms = benchrun_cmd_ms(argv, EST_CMD_REPS);
}

/* One run (the grid over sms SMs, 0: the GPU's count): calibration, full
 * runs and the table of both sets.  Returns 0, or 1 on a setup error. */
static int run_mode(int sms)
{
    const struct { const char *set, *dir; } sets[2] = {{"tuning", "inputs/kernels"},
                                                      {"validation", "inputs/validation"}};
    const char *only = getenv("RF_BENCH_KERNELS");
    kjob *jobs = calloc(2 * MAXK, sizeof *jobs);
    int first[3] = {0, 0, 0};
    int nk = 0;
    if (!jobs)
        return 1;
    for (int s = 0; s < 2; s++) {
        char *names[MAXK];
        int n = benchrun_specs(sets[s].dir, names, MAXK);
        if (n < 0) {
            fprintf(stderr, "bench_validation: %s: cannot list the folder\n", sets[s].dir);
            return 1;
        }
        first[s] = nk;
        for (int i = 0; i < n; i++) {
            if (only && !benchrun_listed(only, names[i])) {
                free(names[i]);
                continue;
            }
            if (setup(&jobs[nk], sets[s].set, sets[s].dir, names[i], sms, 1))
                return 1;
            nk++;
        }
        first[s + 1] = nk;
    }

    benchrun_point *all = calloc((size_t)nk * NDESIGN + 1, sizeof *all);
    if (!all)
        return 1;
    for (int i = 0; i < nk; i++)
        memcpy(&all[i * NDESIGN], jobs[i].pts, NDESIGN * sizeof *all);
    const char *cache = getenv("RF_BENCH_VALCACHE");
    int cached = cache ? benchrun_cache_load(cache, all, nk * NDESIGN) : 0;
    benchrun_full(all, nk * NDESIGN, 0);
    if (cache && benchrun_cache_save(cache, all, nk * NDESIGN))
        fprintf(stderr, "bench_validation: %s: cannot write the cache\n", cache);
    for (int i = 0; i < nk; i++) {
        memcpy(jobs[i].pts, &all[i * NDESIGN], NDESIGN * sizeof *all);
        score(&jobs[i]);
        time_command(&jobs[i]);
    }

    setsum sum[2];
    for (int s = 0; s < 2; s++)
        sum[s] = summarise(&jobs[first[s]], first[s + 1] - first[s]);
    int used = nk > 0 ? jobs[0].sms : (sms > 0 ? sms : 1);
    if (used > 1)
        printf("validation, default run (%d SMs share the grid, the busiest SM's share): "
               "whole-share IPC of estimate vs simulate --full on %s, %d design points per "
               "kernel\n", used, GPU_NAME, NDESIGN);
    else
        printf("validation, --sms 1 (the whole grid on one SM): whole-kernel IPC of estimate "
               "vs simulate --full on %s, %d design points per kernel\n", GPU_NAME, NDESIGN);
    printf("%-28s %14s %14s\n", "", "tuning (nine)", "validation");
    printf("%-28s %14d %14d\n", "kernels", sum[0].kernels, sum[1].kernels);
    printf("%-28s %14d %14d\n", "points", sum[0].pts, sum[1].pts);
#define ROW(label, field) printf("%-28s %13.2f%% %13.2f%%\n", label, 100 * sum[0].field, 100 * sum[1].field)
    ROW("uncalibrated mean |error|", unc_mean);
    ROW("uncalibrated worst", unc_max);
    ROW("calibrated mean |error|", cal_mean);
    ROW("calibrated worst", cal_max);
    printf("%-28s %14d %14d\n", "kernels calibration worsens", sum[0].worse, sum[1].worse);
    ROW("speedup error mean", spd_mean);
    ROW("speedup error worst", spd_max);
    ROW("in 95% interval", cover);
    ROW("interval median width", width_med);
#undef ROW
    printf("%-28s %14.3f %14.3f\n", "calibrate/full CPU median", sum[0].cost_med, sum[1].cost_med);
    printf("%-28s %14.3f %14.3f\n", "calibrate/full CPU max", sum[0].cost_max, sum[1].cost_max);
    printf("%-28s %14.3f %14.3f\n", "calibrate/full wall median", sum[0].wall_med,
           sum[1].wall_med);
    printf("%-28s %14.3f %14.3f\n", "calibrate/full wall max", sum[0].wall_max, sum[1].wall_max);
    printf("%-28s %14.2f %14.2f\n", "estimate CPU ms max", sum[0].est_ms_max, sum[1].est_ms_max);
    printf("%-28s %14.1f %14.1f\n", "estimate command ms median", sum[0].cmd_med, sum[1].cmd_med);
    printf("%-28s %14.1f %14.1f\n", "estimate command ms max", sum[0].cmd_max, sum[1].cmd_max);
    printf("targets (issue 21, validation set): cal mean <= 3%%, cal worst <= 10%%, speedup mean <= 2%%,\n"
           "  unc mean <= 8%%, coverage >= 90%% at median width <= 10%%, calibrate <= 0.1 of a full run,\n"
           "  estimate <= 10 ms\n");
    printf("\nper kernel, worst calibrated error first:\n");
    printf("  %-10s %-12s %3s %8s %8s %8s %8s %8s %8s %7s %6s %6s %7s %8s\n", "set", "kernel", "pts",
           "unc mean", "unc max", "cal mean", "cal max", "spd mean", "spd max", "in PI", "cost", "wall",
           "sample", "cycles");
    for (int s = 0; s < 2; s++)
        kernel_lines(&jobs[first[s]], first[s + 1] - first[s]);
    printf("(%d of %d full runs from the cache)\n", cached, nk * NDESIGN);
    const char *seeds = getenv("RF_BENCH_SEEDS");
    const char *dump_path = getenv("RF_BENCH_DUMP");
    FILE *dump = dump_path && *dump_path ? fopen(dump_path, "w") : NULL;
    if (dump_path && *dump_path && !dump)
        fprintf(stderr, "bench_validation: %s: cannot write the dump\n", dump_path);
    if (seeds && atoi(seeds) > 1)
        seed_spread(jobs, first, atoi(seeds) > 16 ? 16 : atoi(seeds), dump);
    const char *runs = getenv("RF_BENCH_RUNS");
    if (runs && atoi(runs) > 1 && other_runs(jobs, first, atoi(runs) > 16 ? 16 : atoi(runs)))
        fprintf(stderr, "bench_validation: the other runs could not be measured\n");
    if (dump)
        fclose(dump);
    for (int i = 0; i < nk; i++) {
        rf_kernel_destroy(jobs[i].k);
        free(jobs[i].rep);
        free(jobs[i].pts);
        free(jobs[i].name);
    }
    free(all);
    free(jobs);
    return 0;
}

int main(int argc, char **argv)
{
    (void)argc;
    /* $RFKIT, else BUILD/rfkit beside BUILD/tests (tests/support/clirun). */
    if (clirun_init(argv[0]) == 0)
        snprintf(rfkit_bin, sizeof rfkit_bin, "%s", clirun_binary());
    else
        fprintf(stderr, "bench_validation: the estimate command is not timed\n");
    const char *sms = getenv("RF_BENCH_SMS");
    if (sms && *sms) {
        char *end;
        long n = strtol(sms, &end, 10);
        if (*end || n < 0 || n > 1024) {
            fprintf(stderr, "bench_validation: RF_BENCH_SMS: '%s' is not an SM count (0: the GPU's)\n",
                    sms);
            return 1;
        }
        return run_mode((int)n);
    }
    if (run_mode(1))
        return 1;
    printf("\n");
    return run_mode(0);
}
