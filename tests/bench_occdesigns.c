/* bench_occdesigns.c - estimates of the occupancy-raising designs against
 * full runs: Register Sharing on fermi-c2050 (seed 003 Table 1), Virtual
 * Thread, Reg+DRAM, FineReg and VT+RegMutex on maxwell-gtx980 (seed 000
 * Table I), each beside the baseline of its GPU, at the designs' defaults.
 *
 * Every point is a full sampler run of the whole grid on one SM
 * (`simulate --full`), and the estimate describes the same machine
 * (rf_shape.sms = 1, as `estimate --sms 1`).  Sets: the nine bundled
 * kernels (inputs/kernels/, the tuning set) and a handful of validation
 * kernels (inputs/validation/, which only measure).
 *
 * Printed per set and design: the mean and worst |IPC error| of the
 * uncalibrated estimate, |est - sim| / sim, the mean and worst error of
 * the speedup over the GPU's baseline, S = IPC(design) / IPC(baseline),
 * and the mean and worst |IPC error| of the calibrated estimate (the
 * kernel's `rfkit calibrate` record on that GPU, seed 1: its windows run
 * baseline and bank designs, so these designs are points no window ran;
 * the switching parameters keep their priors; a record without samples
 * gives the uncalibrated estimate, as `estimate --calib` does), and
 * (dwin) that of the
 * calibration with two windows of the point's own design besides the
 * ordinary ones within the same budget (rf_calib_opts.design, seed 1;
 * switching designs only): FineReg's fits sw_sync and sw_cost (`rfkit
 * calibrate --design finereg`); VT's, Reg+DRAM's and RegMutex's run their
 * windows and keep the priors (rf_calib_sw_fitted), so their column shows
 * what the shorter ordinary windows alone do.
 * Then one line per kernel and design: simulated and estimated IPC and
 * the design's counters, simulated / estimated (resident and active CTAs,
 * CTA switches, switch cycles, switch DRAM bytes, PCRF-full cycles, locks
 * taken, lock-wait warp-cycles, pool-stall sched-cycles).
 *
 * RF_BENCH_OCCCACHE=FILE keeps the full runs (IPC and counters) in FILE
 * and reuses them (delete it when the sampler or a kernel changes).
 * RF_BENCH_KERNELS=a,b limits the run to the kernels named;
 * RF_BENCH_VALIDATION=a,b names the validation kernels (default below);
 * RF_BENCH_JOBS=N runs N full runs at a time (default 2); RF_BENCH_SW=
 * "sync,cost" scores with those switching parameters (analytic/
 * switching.c) instead of the defaults; RF_BENCH_DWIN_PRIOR=1 scores
 * the dwin records with sw_sync and sw_cost put back to their priors (what
 * the design windows' share of the budget alone does to the estimates).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/extrapolate.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/regalloc.h"
#include "support/benchrun.h"

#define NPT 7
#define MAXK 40
#define NCNT 9
#define VALIDATION_DEFAULT "bfs_pull,conv2d,md_lj,nbody,transpose"

/* The points of one kernel: GPU and design. */
static const struct {
    const char *gpu;
    int kind;
    const char *label;
} points[NPT] = {
    {"fermi-c2050", RF_DESIGN_BASELINE, "baseline@fermi"},
    {"fermi-c2050", RF_DESIGN_SHARING, "sharing"},
    {"maxwell-gtx980", RF_DESIGN_BASELINE, "baseline@maxwell"},
    {"maxwell-gtx980", RF_DESIGN_VT, "vt"},
    {"maxwell-gtx980", RF_DESIGN_REGDRAM, "regdram"},
    {"maxwell-gtx980", RF_DESIGN_FINEREG, "finereg"},
    {"maxwell-gtx980", RF_DESIGN_REGMUTEX, "regmutex"},
};
/* The baseline point of point i. */
static int base_of(int i)
{
    return i < 2 ? 0 : 2;
}

static const char *const cnt_name[NCNT] = {
    "resident_ctas_mean", "active_ctas_mean", "cta_switches", "switch_cycles",
    "switch_dram_bytes", "pcrf_full_stalls", "lock_acquires", "lock_wait_cycles",
    "srp_stall_cycles"};

static void sim_counts(const rf_sim_stats *s, double c[NCNT])
{
    c[0] = s->resident_ctas_mean;
    c[1] = s->active_ctas_mean;
    c[2] = (double)s->cta_switches;
    c[3] = (double)s->switch_cycles;
    c[4] = (double)s->switch_dram_bytes;
    c[5] = (double)s->pcrf_full_stalls;
    c[6] = (double)s->lock_acquires;
    c[7] = (double)s->lock_wait_cycles;
    c[8] = (double)s->srp_stall_cycles;
}

static void est_counts(const rf_estimate *e, double c[NCNT])
{
    const rf_sw_counters *s = &e->occc;
    c[0] = s->resident_ctas_mean;
    c[1] = s->active_ctas_mean;
    c[2] = s->cta_switches;
    c[3] = s->switch_cycles;
    c[4] = s->switch_dram_bytes;
    c[5] = s->pcrf_full_stalls;
    c[6] = s->lock_acquires;
    c[7] = s->lock_wait_cycles;
    c[8] = s->srp_stall_cycles;
}

typedef struct kjob {
    const char *set;
    char *name;
    rf_gpu gpu[2];              /* fermi-c2050, maxwell-gtx980 */
    rf_kernel *k[2];            /* loaded per GPU (registers fitted to each) */
    rf_ipc_kernel kc[2];
    rf_calib cal[2];            /* `rfkit calibrate` of the kernel on each GPU */
    bool has_cal[2];
    benchrun_point pts[NPT];
    rf_sim_stats st[NPT];
    double sim_c[NPT][NCNT];
    bool ok[NPT];
    double est_ipc[NPT];
    double cal_ipc[NPT];        /* calibrated estimate (0: none) */
    rf_calib dcal[NPT];         /* `rfkit calibrate --design D` of a switching point */
    bool has_dcal[NPT];
    double dcal_ipc[NPT];       /* estimate from it (0: none) */
    double est_c[NPT][NCNT];
} kjob;

static int setup(kjob *kj, const char *set, const char *dir, char *name)
{
    rf_err err;
    char path[512];
    snprintf(path, sizeof path, "%s/%s.spec", dir, name);
    kj->set = set;
    kj->name = name;
    for (int g = 0; g < 2; g++) {
        const char *gn = points[g ? 2 : 0].gpu;
        rf_kernel_opts ko;
        memset(&ko, 0, sizeof ko);
        if (rf_gpu_load(gn, &kj->gpu[g], NULL, &err) || rf_kernel_load(path, &ko, &kj->k[g], &err)
            || rf_kernel_fit_regs(kj->k[g], &kj->gpu[g], &err)
            || rf_kchar_compute(&kj->gpu[g], kj->k[g], &kj->kc[g], &err)) {
            fprintf(stderr, "bench_occdesigns: %s on %s: %s\n", path, gn, err.msg);
            return -1;
        }
        /* The kernel's calibration (seed 1): its windows run the baseline
         * and bank designs only, so every point scored here is one no
         * window ran. */
        rf_calib_opts co = {0, 1, NULL, false, NULL, 1};
        rf_calib_report *rep = malloc(sizeof *rep);
        kj->has_cal[g] = rep && rf_calib_run(&kj->gpu[g], gn, kj->k[g], &kj->kc[g], &co,
                                             &kj->cal[g], rep, &err) == RF_OK;
        if (!kj->has_cal[g])
            fprintf(stderr, "bench_occdesigns: calibrate %s on %s: %s\n", path, gn,
                    rep ? err.msg : "out of memory");
        free(rep);
    }
    for (int i = 0; i < NPT; i++) {
        int g = i < 2 ? 0 : 1;
        benchrun_point *p = &kj->pts[i];
        p->gpu = &kj->gpu[g];
        p->k = kj->k[g];
        rf_design_init(&p->d);
        p->d.kind = points[i].kind;
        p->stats = &kj->st[i];
        snprintf(p->key, sizeof p->key, "%s|%s|%s", set, name, points[i].label);
        /* The kernel's calibration with windows of the point's design
         * (seed 1; switching designs only: sharing has no free parameter). */
        kj->has_dcal[i] = false;
        if (rf_sw_is_switching(points[i].kind)) {
            rf_calib_opts dco = {0, 1, NULL, false, &p->d, 1};
            rf_calib_report *rep = malloc(sizeof *rep);
            kj->has_dcal[i] = rep && rf_calib_run(p->gpu, points[i].gpu, p->k, &kj->kc[g], &dco,
                                                  &kj->dcal[i], rep, &err) == RF_OK;
            if (!kj->has_dcal[i])
                fprintf(stderr, "bench_occdesigns: calibrate --design %s %s: %s\n",
                        points[i].label, path, rep ? err.msg : "out of memory");
            free(rep);
        }
    }
    return 0;
}

/* The cache: "key|ipc|cycles|cpu_s|c0|...|c8" per point. */
static int cache_load(const char *path, kjob *jobs, int nk)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int found = 0;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *bar = strchr(line, '|');
        bar = bar ? strchr(bar + 1, '|') : NULL;
        bar = bar ? strchr(bar + 1, '|') : NULL;
        if (!bar)
            continue;
        *bar = '\0';
        char *s = bar + 1, *end;
        double v[3 + NCNT];
        int nv = 0;
        for (; nv < 3 + NCNT; nv++) {
            v[nv] = strtod(s, &end);
            if (end == s)
                break;
            s = *end == '|' ? end + 1 : end;
        }
        if (nv < 3 + NCNT || !(v[0] > 0))
            continue;
        for (int j = 0; j < nk; j++)
            for (int i = 0; i < NPT; i++)
                if (!strcmp(jobs[j].pts[i].key, line)) {
                    jobs[j].pts[i].ipc = v[0];
                    jobs[j].pts[i].cycles = (uint64_t)v[1];
                    jobs[j].pts[i].cpu_s = v[2];
                    memcpy(jobs[j].sim_c[i], v + 3, sizeof jobs[j].sim_c[i]);
                    found++;
                }
    }
    fclose(f);
    return found;
}

static int cache_save(const char *path, const kjob *jobs, int nk)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (int j = 0; j < nk; j++)
        for (int i = 0; i < NPT; i++) {
            const benchrun_point *p = &jobs[j].pts[i];
            if (p->rc || !(p->ipc > 0))
                continue;
            fprintf(f, "%s|%.17g|%llu|%.6g", p->key, p->ipc, (unsigned long long)p->cycles,
                    p->cpu_s);
            for (int c = 0; c < NCNT; c++)
                fprintf(f, "|%.17g", jobs[j].sim_c[i][c]);
            fputc('\n', f);
        }
    return fclose(f) ? -1 : 0;
}

/* RF_BENCH_SW="sync,cost": the switching parameters to score with
 * (default: the uncalibrated defaults). */
static const rf_calib *sw_params(void)
{
    static rf_calib cal;
    const char *v = getenv("RF_BENCH_SW");
    if (!v)
        return NULL;
    memset(&cal, 0, sizeof cal);
    rf_ipc_params_default(&cal.params);
    char *end;
    cal.params.sw.sync = strtod(v, &end);
    if (*end == ',')
        cal.params.sw.cost_scale = strtod(end + 1, NULL);
    return &cal;
}

static void score(kjob *kj)
{
    for (int i = 0; i < NPT; i++) {
        const benchrun_point *p = &kj->pts[i];
        int g = i < 2 ? 0 : 1;
        kj->ok[i] = false;
        if (p->rc || !(p->ipc > 0))
            continue;
        const rf_kernel *k = kj->k[g];
        rf_shape sh = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                       rf_kernel_ctas(k), 1};
        rf_estimate e;
        rf_err err;
        if (rf_extrap_estimate(&kj->gpu[g], &p->d, &kj->kc[g], &sh, sw_params(), &e, &err)) {
            fprintf(stderr, "bench_occdesigns: %s: %s\n", p->key, err.msg);
            continue;
        }
        kj->ok[i] = true;
        kj->est_ipc[i] = e.ipc;
        est_counts(&e, kj->est_c[i]);
        rf_estimate ec;
        kj->cal_ipc[i] = 0;
        /* The record's estimate, as `estimate --calib` gives it: the
         * uncalibrated one where the record holds no samples. */
        if (kj->has_cal[g] && !sw_params()
            && rf_extrap_estimate(&kj->gpu[g], &p->d, &kj->kc[g], &sh, &kj->cal[g], &ec, &err) == 0)
            kj->cal_ipc[i] = ec.ipc;
        kj->dcal_ipc[i] = 0;
        if (kj->has_dcal[i] && getenv("RF_BENCH_DWIN_PRIOR")) {
            /* The design windows' record with the switching parameters at
             * their priors: what the shorter ordinary windows alone do. */
            kj->dcal[i].params.sw.sync = 0.75;
            kj->dcal[i].params.sw.cost_scale = 1.0;
        }
        if (kj->has_dcal[i] && !sw_params()
            && rf_extrap_estimate(&kj->gpu[g], &p->d, &kj->kc[g], &sh, &kj->dcal[i], &ec, &err) == 0)
            kj->dcal_ipc[i] = ec.ipc;
    }
}

static void summary(const kjob *jobs, int n, const char *set)
{
    printf("%-10s %-17s %4s %9s %9s %9s %9s %4s %9s %9s %9s %9s\n", set, "design", "n",
           "mean|err|", "worst", "spd mean", "spd worst", "ncal", "cal mean", "cal worst",
           "dwin mean", "dwin wrst");
    for (int i = 0; i < NPT; i++) {
        double sum = 0, worst = 0, ssum = 0, sworst = 0, csum = 0, cworst = 0;
        double dsum = 0, dworst = 0, csh = 0, cshmax = 0;
        int cnt = 0, scnt = 0, ccnt = 0, dcnt = 0;
        for (int j = 0; j < n; j++) {
            const kjob *kj = &jobs[j];
            if (!kj->ok[i])
                continue;
            double e = fabs(kj->est_ipc[i] - kj->pts[i].ipc) / kj->pts[i].ipc;
            sum += e, cnt++;
            worst = fmax(worst, e);
            if (kj->cal_ipc[i] > 0) {
                double ce = fabs(kj->cal_ipc[i] - kj->pts[i].ipc) / kj->pts[i].ipc;
                csum += ce, ccnt++;
                cworst = fmax(cworst, ce);
            }
            if (kj->dcal_ipc[i] > 0) {
                double de = fabs(kj->dcal_ipc[i] - kj->pts[i].ipc) / kj->pts[i].ipc;
                dsum += de, dcnt++;
                dworst = fmax(dworst, de);
                /* Cost: the calibration's sampled cycles (warm-ups in) over
                 * the full run of the GPU's baseline. */
                int b = base_of(i);
                double sh = kj->pts[b].cycles > 0
                                ? kj->dcal[i].sample_cycles / (double)kj->pts[b].cycles : 0;
                csh += sh;
                cshmax = fmax(cshmax, sh);
            }
            int b = base_of(i);
            if (b != i && kj->ok[b]) {
                double s_sim = kj->pts[i].ipc / kj->pts[b].ipc;
                double s_est = kj->est_ipc[i] / kj->est_ipc[b];
                double se = fabs(s_est - s_sim) / s_sim;
                ssum += se, scnt++;
                sworst = fmax(sworst, se);
            }
        }
        printf("%-10s %-17s %4d %8.2f%% %8.2f%%", "", points[i].label, cnt,
               cnt ? 100 * sum / cnt : 0, 100 * worst);
        if (scnt)
            printf(" %8.2f%% %8.2f%%", 100 * ssum / scnt, 100 * sworst);
        else
            printf(" %9s %9s", "", "");
        if (ccnt)
            printf(" %4d %8.2f%% %8.2f%%", ccnt, 100 * csum / ccnt, 100 * cworst);
        if (dcnt)
            printf(" %8.2f%% %8.2f%%  cost %.2f%% (max %.2f%%)", 100 * dsum / dcnt, 100 * dworst,
                   100 * csh / dcnt, 100 * cshmax);
        printf("\n");
    }
}

static void kernel_lines(const kjob *jobs, int n)
{
    for (int j = 0; j < n; j++) {
        const kjob *kj = &jobs[j];
        for (int i = 0; i < NPT; i++) {
            if (!kj->ok[i])
                continue;
            int b = base_of(i);
            printf("  %-10s %-12s %-16s sim %.4f est %.4f (%+6.1f%%) cal %.4f", kj->set,
                   kj->name, points[i].label, kj->pts[i].ipc, kj->est_ipc[i],
                   100 * (kj->est_ipc[i] - kj->pts[i].ipc) / kj->pts[i].ipc, kj->cal_ipc[i]);
            if (kj->has_dcal[i])
                printf(" dwin %.4f (sync %.3f cost %.3f)", kj->dcal_ipc[i],
                       kj->dcal[i].params.sw.sync, kj->dcal[i].params.sw.cost_scale);
            printf(" x%.3f/%.3f",
                   kj->ok[b] ? kj->pts[i].ipc / kj->pts[b].ipc : 0,
                   kj->ok[b] ? kj->est_ipc[i] / kj->est_ipc[b] : 0);
            for (int c = 0; c < NCNT; c++)
                if (kj->sim_c[i][c] != 0 || kj->est_c[i][c] != 0)
                    printf(" %s %.4g/%.4g", cnt_name[c], kj->sim_c[i][c], kj->est_c[i][c]);
            printf("\n");
        }
    }
}

int main(void)
{
    const struct { const char *set, *dir; } sets[2] = {{"tuning", "inputs/kernels"},
                                                      {"validation", "inputs/validation"}};
    const char *only = getenv("RF_BENCH_KERNELS");
    const char *val = getenv("RF_BENCH_VALIDATION");
    if (!val)
        val = VALIDATION_DEFAULT;
    kjob *jobs = calloc(2 * MAXK, sizeof *jobs);
    int first[3] = {0, 0, 0};
    int nk = 0;
    if (!jobs)
        return 1;
    for (int s = 0; s < 2; s++) {
        char *names[MAXK];
        int n = benchrun_specs(sets[s].dir, names, MAXK);
        if (n < 0) {
            fprintf(stderr, "bench_occdesigns: %s: cannot list the folder\n", sets[s].dir);
            return 1;
        }
        first[s] = nk;
        for (int i = 0; i < n; i++) {
            if ((only && !benchrun_listed(only, names[i])) || (s == 1 && !benchrun_listed(val, names[i]))) {
                free(names[i]);
                continue;
            }
            if (setup(&jobs[nk], sets[s].set, sets[s].dir, names[i]))
                return 1;
            nk++;
        }
        first[s + 1] = nk;
    }

    const char *cache = getenv("RF_BENCH_OCCCACHE");
    int cached = cache ? cache_load(cache, jobs, nk) : 0;
    benchrun_point *all = calloc((size_t)nk * NPT + 1, sizeof *all);
    if (!all)
        return 1;
    for (int j = 0; j < nk; j++)
        memcpy(&all[j * NPT], jobs[j].pts, sizeof jobs[j].pts);
    const char *js = getenv("RF_BENCH_JOBS");
    benchrun_full(all, nk * NPT, js ? atoi(js) : 2);
    for (int j = 0; j < nk; j++)
        for (int i = 0; i < NPT; i++) {
            benchrun_point *p = &all[j * NPT + i];
            if (!(jobs[j].pts[i].ipc > 0) && p->ipc > 0)
                sim_counts(&jobs[j].st[i], jobs[j].sim_c[i]);
            jobs[j].pts[i] = *p;
        }
    if (cache && cache_save(cache, jobs, nk))
        fprintf(stderr, "bench_occdesigns: %s: cannot write the cache\n", cache);
    for (int j = 0; j < nk; j++)
        score(&jobs[j]);

    printf("occupancy-raising designs: whole-kernel IPC of estimate (--sms 1, uncalibrated) vs "
           "simulate --full\n(sharing on fermi-c2050, the FineReg family on maxwell-gtx980; "
           "spd: speedup over the GPU's baseline)\n");
    for (int s = 0; s < 2; s++)
        summary(&jobs[first[s]], first[s + 1] - first[s], sets[s].set);
    printf("\nper kernel: IPC sim/est (error), speedup over baseline sim/est, counters sim/est\n");
    kernel_lines(jobs, nk);
    printf("(%d of %d full runs from the cache)\n", cached, nk * NPT);
    for (int j = 0; j < nk; j++) {
        rf_kernel_destroy(jobs[j].k[0]);
        rf_kernel_destroy(jobs[j].k[1]);
        free(jobs[j].name);
    }
    free(all);
    free(jobs);
    return 0;
}
