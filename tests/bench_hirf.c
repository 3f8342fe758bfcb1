/* bench_hirf.c - HI-RF + CAC (seed 002) on the bundled kernels, volta-hirf.
 *
 * Table 1 (seed 002 Figs. 5-8): sampler runs of every bundled kernel with
 * the plain SRAM register file (`baseline` on volta-hirf) and HI-RF with
 * the concatenated W3R3 index under the four assignment policies (base,
 * CAC, Best, Worst), the TEA index under the same four, and the fully
 * associative LRU cache (HI_Full), and HI_CACp: CAC on the plain destination
 * counts of seed 002's Algorithm 1 (HI_CAC weights them by loop depth,
 * analytic/dstcount.c).  Columns: IPC, register-cache conflicts
 * (write-backs) per 100 writes, NVM reads and writes per 100 warp
 * instructions, NVM write stall cycles per warp instruction, register-file
 * energy relative to SRAM (sampler access counts priced with seed 002
 * Table 3, leakage over the run's cycles; analytic/energy.c).
 * Kernels with 15 or more registers are the compiler-sensitive group
 * (seed 002 Section 3).
 *
 * Table 2: group means.
 * Table 3 (Section 5.5, Figs. 9 and 10): IPC of CAC over base assignment
 * for W4R2 and W2R4 at 256 entries and W?R3 at 64, 128, 256 and 512
 * entries, compiler-sensitive kernels.
 * Table 4: calibrated closed-form estimates (rfkit estimate's model,
 * calibrate/extrapolate.c with analytic/rccollide.c) against the sampler,
 * calibrated per kernel from four full runs (calibrate/rcfit.c: SRAM, HI,
 * TEA and HI_Worst); the other HI-RF points are predictions of design
 * points not sampled.
 * Table 5: the same points estimated after `rfkit calibrate`'s own plan
 * (calibrate/calibrate.c: short windows, 4.25% of a full run, with the three
 * HI-RF windows the plan adds on an NVM-backed GPU), against the full
 * runs; the last columns set the HI (concat) and TEA windows' IPC beside
 * the full runs'.
 * Tables 1-5 cut the grids to 4 waves of resident CTAs so that every run
 * is a full run of the cut grid and they take seconds; RF_BENCH_WAVES=N
 * cuts them to N waves, 0 runs whole grids.  RF_BENCH_CALSEED=S gives the
 * windows sampler seed S (default 1); RF_BENCH_REFSEEDS=N compares Table 5
 * with the mean of N full runs (sampler seeds 1..N).
 *
 * Table 6 (validation, issue 25): the nine tuning kernels (inputs/kernels/)
 * and the validation kernels (inputs/validation/) side by side, whole
 * grids: `rfkit calibrate` (seed 1, or RF_BENCH_CALSEED) then estimate
 * with rf_shape.sms = 1,
 * against full sampler runs of the whole grid on one SM, at HI, HI_CAC,
 * HI_Worst, TEA and HI_Full (SRAM apart): uncalibrated and calibrated mean
 * and worst |IPC error|, the error of the speedup over SRAM, kernels and
 * points calibration worsens, the share of full runs inside the 95%
 * interval and its median width, the sampled cycles and the calibration's
 * CPU time (kernel characterisation included, every thread's, on one
 * thread per online CPU as rfkit calibrate runs it) and its wall time
 * against the SRAM full run's CPU time (its wall on simulate's one
 * thread), that run timed again right after the calibration (the cache's
 * times come from another state of a machine whose speed drifts).
 * Constants and model terms are chosen on the nine; the validation kernels
 * only measure.
 * Table 7: seed 002's orderings of conflicts per cache write on the same
 * full runs: CAC <= base, base <= Worst, TEA and HI_Full below concat;
 * where CAC loses, whether its static counts concentrate the dynamic
 * writes on fewer lines (sum of squared line shares) or leave their
 * balance as base's, beside the closed form's conflicts.
 * RF_BENCH_HIRFCACHE=FILE keeps Table 6's full runs (IPC, cycles, CPU
 * time, conflicts) and reuses them (delete it when the sampler or a kernel
 * changes); RF_BENCH_KERNELS=a,b limits Tables 6 and 7 to the kernels
 * named; RF_BENCH_VERBOSE=1 prints every point.  RF_BENCH_RUNS=N adds
 * Table 6's summary on the kernels' other runs, sampler seeds 2..N (the
 * draws of loop trips, branches and cache hits: runs no term was chosen
 * on), each walked with its own draws (rf_profile.seed) and calibrated on
 * its own windows (calibrate --seed S), against its own full runs (cached
 * in FILE.seedS).
 *
 * usage: bench_hirf [--validation | KERNEL.spec ...]
 *        (default: Tables 1-5 on inputs/kernels/ *.spec, then Tables 6-7;
 *        --validation: Tables 6 and 7 alone)
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "../analytic/area.h"
#include "../analytic/design.h"
#include "../analytic/energy.h"
#include "../analytic/kchar.h"
#include "../analytic/occupancy.h"
#include "../analytic/rccollide.h"
#include "../analytic/rcindex.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/rcfit.h"
#include "../calibrate/record.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"
#include "support/benchrun.h"
#include "support/clirun.h"

#ifndef WAVES
#define WAVES 4
#endif
#define NCFG 11
#define MAXK 32

typedef struct cfg {
    const char *label;
    int kind, index, assign;
} cfg;

static const cfg cfgs[NCFG] = {
    {"SRAM", RF_DESIGN_BASELINE, 0, 0},
    {"HI", RF_DESIGN_HIRF, RF_RC_CONCAT, RF_ASSIGN_BASE},
    {"HI_CAC", RF_DESIGN_HIRF, RF_RC_CONCAT, RF_ASSIGN_CAC},
    {"HI_Best", RF_DESIGN_HIRF, RF_RC_CONCAT, RF_ASSIGN_BEST},
    {"HI_Worst", RF_DESIGN_HIRF, RF_RC_CONCAT, RF_ASSIGN_WORST},
    {"TEA", RF_DESIGN_HIRF, RF_RC_TEA, RF_ASSIGN_BASE},
    {"TEA_CAC", RF_DESIGN_HIRF, RF_RC_TEA, RF_ASSIGN_CAC},
    {"TEA_Best", RF_DESIGN_HIRF, RF_RC_TEA, RF_ASSIGN_BEST},
    {"TEA_Worst", RF_DESIGN_HIRF, RF_RC_TEA, RF_ASSIGN_WORST},
    {"HI_Full", RF_DESIGN_HIRF, RF_RC_FULL, RF_ASSIGN_BASE},
    {"HI_CACp", RF_DESIGN_HIRF, RF_RC_CONCAT, RF_ASSIGN_CAC_PLAIN},
};

/* Sensitivity (seed 002 Section 5.5, Figs. 9 and 10): concatenated index
 * variants at 256 entries, and W?R3 at 64..512 entries (16..128 lines per
 * sub-core), each under base and CAC assignment. */
#define NSENS 6
static const struct {
    const char *label;
    int lines, wbits, rbits;
} sens_cfgs[NSENS] = {
    {"W4R2", 64, 4, 2}, {"W2R4", 64, 2, 4}, {"64e", 16, 1, 3},
    {"128e", 32, 2, 3}, {"256e", 64, 3, 3}, {"512e", 128, 4, 3},
};

typedef struct row {
    double ipc, conf, nvm_r, nvm_w, stall, energy;
    double rmiss;           /* register-cache read misses per read (-1: SRAM) */
    double est, est_conf;   /* calibrate/rcfit.c from four full runs */
    double est_own;         /* the estimate's own-backlog waits, cycles per instruction
                             * (reads + write-backs, rf_rcc_own_walk) */
    double est_win;         /* rfkit calibrate's windowed plan (calibrate/calibrate.c) */
    double win_lo, win_hi;  /* its 95% prediction interval */
    double ipc_ref;         /* Table 5's reference: full-run IPC averaged over the
                             * sampler seeds 1..RF_BENCH_REFSEEDS (default 1) */
} row;

static void design_of(const cfg *c, rf_design *d)
{
    rf_design_init(d);
    d->kind = c->kind;
    d->index = c->index;
    d->assign = c->assign;
}

/* Register-file energy of one sampler run, nJ. */
static double sim_energy(const rf_gpu *gpu, const rf_design *d, const rf_sim_stats *st)
{
    rf_rf_org org;
    rf_err err = {0};
    if (rf_area_org(gpu, d, NULL, &org, &err))
        return NAN;
    rf_energy_rates r;
    rf_energy_rates_of(&org, &r);
    rf_energy_counts c = {0};
    c.cycles = (double)st->cycles;
    c.xbar = (double)st->xbar_transfers;
    if (d->kind == RF_DESIGN_HIRF) {
        c.cache_reads = (double)st->rc_hits;
        c.cache_writes = (double)st->rc_writes;
        c.main_reads = (double)st->nvm_reads;
        c.main_writes = (double)st->nvm_writes;
    } else {
        c.main_reads = (double)st->bank_reads;
        c.main_writes = (double)st->bank_writes;
    }
    rf_energy e;
    rf_energy_compute(&r, &c, gpu->clock_mhz, &e);
    return e.total_nj;
}

static int estimate(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                    const rf_ipc_kernel *kc, const rf_calib *cal, rf_estimate *e)
{
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_ctas(k), 1};
    rf_err err = {0};
    int rc = rf_extrap_estimate(gpu, d, kc, &shape, cal, e, &err);
    if (rc)
        fprintf(stderr, "bench_hirf: %s: %s\n", k->name, err.msg);
    return rc;
}

static int run_kernel(const rf_gpu *gpu, const char *path, row rows[NCFG], int *regs,
                      double *locality, double params[3], double sens[NSENS][2], double win[2],
                      char *name, size_t cap)
{
    rf_err err = {0};
    rf_kernel *k = NULL;
    if (rf_kernel_load(path, NULL, &k, &err)) {
        fprintf(stderr, "bench_hirf: %s\n", err.msg);
        return -1;
    }
    snprintf(name, cap, "%s", k->name);
    *regs = k->regs;
    /* Cut the grid to WAVES waves of the SRAM file's resident CTAs. */
    rf_design d;
    design_of(&cfgs[0], &d);
    rf_occ_input in = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem};
    rf_occ occ;
    if (rf_occ_compute(gpu, &d, &in, &occ, &err) || occ.ctas_per_sm < 1) {
        rf_kernel_destroy(k);
        return -1;
    }
    /* RF_BENCH_WAVES=N: N waves instead (0: the whole grid, as a user's
     * run; minutes instead of seconds). */
    const char *wenv = getenv("RF_BENCH_WAVES");
    long waves = wenv ? atol(wenv) : WAVES;
    long want = (long)occ.ctas_per_sm * waves;
    if (waves > 0 && rf_kernel_ctas(k) > want) {
        k->launch.grid[0] = (int)want;
        k->launch.grid[1] = k->launch.grid[2] = 1;
    }
    rf_ipc_kernel kc;
    if (rf_kchar_compute(gpu, k, &kc, &err)) {
        fprintf(stderr, "bench_hirf: %s\n", err.msg);
        rf_kernel_destroy(k);
        return -1;
    }
    rf_sim_opts o;
    rf_sim_opts_init(&o);
    /* RF_BENCH_REFSEEDS=N: Table 5 against the mean of N full runs (sampler
     * seeds 1..N): a full run's CTA paths and cache draws move kmeans'
     * TEA / SRAM ratio over 1.056-1.153 between seeds 1-4. */
    const char *renv = getenv("RF_BENCH_REFSEEDS");
    long refseeds = renv ? atol(renv) : 1;
    if (refseeds < 1)
        refseeds = 1;
    double sram_energy = 1;
    for (int i = 0; i < NCFG; i++) {
        design_of(&cfgs[i], &d);
        rf_sim_stats st;
        if (rf_sim_run(gpu, &d, k, &o, &st, &err)) {
            fprintf(stderr, "bench_hirf: %s %s: %s\n", k->name, cfgs[i].label, err.msg);
            rf_kernel_destroy(k);
            return -1;
        }
        double insts = st.warp_insts > 0 ? (double)st.warp_insts : 1;
        row *r = &rows[i];
        r->ipc = st.ipc;
        r->ipc_ref = st.ipc;
        for (long rs = 2; rs <= refseeds; rs++) {
            rf_sim_opts ro = o;
            ro.seed = (uint64_t)rs;
            rf_sim_stats rst;
            if (rf_sim_run(gpu, &d, k, &ro, &rst, &err)) {
                fprintf(stderr, "bench_hirf: %s %s seed %ld: %s\n", k->name, cfgs[i].label, rs,
                        err.msg);
                rf_kernel_destroy(k);
                return -1;
            }
            r->ipc_ref += rst.ipc;
        }
        r->ipc_ref /= (double)refseeds;
        r->conf = st.rc_writes ? 100.0 * st.rc_conflicts / st.rc_writes : 0;
        r->rmiss = st.rc_hits + st.rc_misses > 0
                       ? (double)st.rc_misses / (double)(st.rc_hits + st.rc_misses) : -1.0;
        r->nvm_r = 100.0 * st.nvm_reads / insts;
        r->nvm_w = 100.0 * st.nvm_writes / insts;
        r->stall = st.nvm_stall_cycles / insts;
        r->energy = sim_energy(gpu, &d, &st);
        if (i == 0)
            sram_energy = r->energy;
        r->energy /= sram_energy;
    }

    for (int i = 0; i < NSENS; i++)
        for (int a = 0; a < 2; a++) {
            design_of(&cfgs[1], &d);
            d.rc_entries = sens_cfgs[i].lines;
            d.wbits = sens_cfgs[i].wbits;
            d.rbits = sens_cfgs[i].rbits;
            d.assign = a ? RF_ASSIGN_CAC : RF_ASSIGN_BASE;
            rf_sim_stats st;
            sens[i][a] = rf_sim_run(gpu, &d, k, &o, &st, &err) == 0 ? st.ipc : NAN;
        }

    /* Calibration from the SRAM, HI, TEA and HI_Worst samples
     * (calibrate/rcfit.c). */
    rf_calib cal;
    rf_calib_init(&cal, gpu->name, k->name);
    rf_rcfit_obs obs[RF_RCFIT_N];
    const int samp[RF_RCFIT_N] = {0, 1, 5, 4};
    for (int j = 0; j < RF_RCFIT_N; j++) {
        design_of(&cfgs[samp[j]], &obs[j].design);
        obs[j].ipc = rows[samp[j]].ipc;
        obs[j].conflict = rows[samp[j]].conf / 100.0;
        obs[j].cycles = 0;
    }
    if (rf_rcfit_fit(gpu, k, &kc, obs, &cal, &err))
        fprintf(stderr, "bench_hirf: %s: %s\n", k->name, err.msg);
    *locality = cal.params.rc_locality;
    rf_estimate e;
    params[0] = cal.params.lat_scale;
    params[1] = cal.params.conflict.scale;
    params[2] = cal.params.rc_stall;
    *locality = cal.params.rc_locality;
    for (int i = 0; i < NCFG; i++) {
        design_of(&cfgs[i], &d);
        if (estimate(gpu, &d, k, &kc, &cal, &e) == 0) {
            rows[i].est = e.ipc;
            rows[i].est_conf = 100.0 * e.rc.conflict;
            rows[i].est_own = e.rc.own_read_stall + e.rc.own_wb_wait;
        } else {
            rows[i].est = rows[i].est_conf = rows[i].est_own = NAN;
        }
    }

    /* rfkit calibrate's plan (windows of 4.25% of a full run, HI-RF
     * windows included on this NVM GPU), then the estimates. */
    rf_calib wc;
    rf_calib_report *rep = malloc(sizeof *rep);
    /* RF_BENCH_CALSEED=S: the windows' sampler seed (default 1; the full
     * runs keep theirs), to see how much one seed's windows move Table 5. */
    const char *senv = getenv("RF_BENCH_CALSEED");
    rf_calib_opts co = {0, senv ? strtoull(senv, NULL, 10) : 1, NULL, false, NULL, 1};
    int wrc = rep ? rf_calib_run(gpu, gpu->name, k, &kc, &co, &wc, rep, &err) : RF_ENOMEM;
    if (wrc)
        fprintf(stderr, "bench_hirf: %s: calibrate: %s\n", k->name, err.msg);
    /* The HI-RF windows' own IPCs (cold start at the plan's place). */
    win[0] = win[1] = NAN;
    for (int j = 0; !wrc && j < rep->n; j++)
        if (rep->plan.pt[j].design.kind == RF_DESIGN_HIRF)
            win[rep->plan.pt[j].design.index == RF_RC_TEA] = rep->s[j].ipc;
    for (int i = 0; i < NCFG; i++) {
        design_of(&cfgs[i], &d);
        rows[i].est_win = !wrc && estimate(gpu, &d, k, &kc, &wc, &e) == 0 ? e.ipc : NAN;
        rows[i].win_lo = isfinite(rows[i].est_win) ? e.ipc_lo : NAN;
        rows[i].win_hi = isfinite(rows[i].est_win) ? e.ipc_hi : NAN;
    }
    free(rep);
    rf_kernel_destroy(k);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Table 6 and 7: whole grids, the nine tuning kernels and the validation
 * kernels (inputs/validation/) side by side. */
#define NVP 6
#define VALMAX 64
static const int val_cfg[NVP] = {0, 1, 2, 4, 5, 9}; /* SRAM, HI, HI_CAC, HI_Worst, TEA, HI_Full */

typedef struct vjob {
    const char *set;
    char name[64];
    int regs;
    rf_kernel *k;
    rf_ipc_kernel kc;
    rf_calib cal;
    double cal_cpu_s, cal_wall_s, sample_cycles;
    double full_cpu_s;          /* the SRAM full run, CPU, timed beside the calibration */
    double hwin;            /* the plan's HI-RF window, cycles (0: none) */
    benchrun_point pts[NVP];
    rf_sim_stats st[NVP];
    double conf[NVP];       /* sampler conflicts per register-cache write */
    double unc[NVP], est[NVP], lo[NVP], hi[NVP];
    bool ok;
} vjob;

/* The cache: "key|ipc|cycles|cpu_s|conflict" per full run. */
static void vcache_load(const char *path, vjob *jobs, int n)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *bar = strrchr(line, '|');
        for (int b = 0; bar && b < 3; b++) {
            *bar = 0;
            bar = strrchr(line, '|');
        }
        if (!bar)
            continue;
        *bar = 0;
        char *rest = bar + 1;
        double ipc, cpu, cf;
        unsigned long long cyc;
        if (sscanf(rest, "%lf", &ipc) != 1)
            continue;
        rest += strlen(rest) + 1;
        if (sscanf(rest, "%llu", &cyc) != 1)
            continue;
        rest += strlen(rest) + 1;
        if (sscanf(rest, "%lf", &cpu) != 1)
            continue;
        rest += strlen(rest) + 1;
        if (sscanf(rest, "%lf", &cf) != 1)
            continue;
        for (int i = 0; i < n; i++)
            for (int c = 0; c < NVP; c++)
                if (!strcmp(jobs[i].pts[c].key, line)) {
                    jobs[i].pts[c].ipc = ipc;
                    jobs[i].pts[c].cycles = cyc;
                    jobs[i].pts[c].cpu_s = cpu;
                    jobs[i].conf[c] = cf;
                }
    }
    if (f)
        fclose(f);
}

static void vcache_save(const char *path, const vjob *jobs, int n)
{
    FILE *f = path ? fopen(path, "w") : NULL;
    for (int i = 0; f && i < n; i++)
        for (int c = 0; c < NVP; c++)
            if (jobs[i].pts[c].ipc > 0)
                fprintf(f, "%s|%.17g|%llu|%.6g|%.17g\n", jobs[i].pts[c].key, jobs[i].pts[c].ipc,
                        (unsigned long long)jobs[i].pts[c].cycles, jobs[i].pts[c].cpu_s,
                        jobs[i].conf[c]);
    if (f)
        fclose(f);
}

typedef struct vsum {
    int kernels, pts, in, worse, worse_pts;
    double unc_mean, unc_max, cal_mean, cal_max, sram_unc, sram_cal;
    double spu_mean, spu_max, spc_mean, spc_max; /* speedup over SRAM, unc / cal */
    double width_med, cost_med, cost_max, wall_med, cyc_med, cyc_max;
    char unc_at[96], cal_at[96];
} vsum;

static vsum vsummarise(vjob *jobs, int n)
{
    vsum s;
    memset(&s, 0, sizeof s);
    double w[VALMAX * NVP], cost[VALMAX], wall[VALMAX], cyc[VALMAX];
    int nw = 0, nc = 0, nsram = 0;
    for (int i = 0; i < n; i++) {
        vjob *j = &jobs[i];
        if (!j->ok)
            continue;
        s.kernels++;
        double us = 0, cs = 0;
        for (int c = 0; c < NVP; c++) {
            double sim = j->pts[c].ipc;
            double eu = fabs(j->unc[c] - sim) / sim, ec = fabs(j->est[c] - sim) / sim;
            if (c == 0) {
                s.sram_unc += eu, s.sram_cal += ec, nsram++;
                continue;
            }
            us += eu, cs += ec;
            double ssim = sim / j->pts[0].ipc;
            double su = fabs(j->unc[c] / j->unc[0] - ssim) / ssim;
            double sc = fabs(j->est[c] / j->est[0] - ssim) / ssim;
            s.spu_mean += su, s.spc_mean += sc;
            s.spu_max = fmax(s.spu_max, su), s.spc_max = fmax(s.spc_max, sc);
            s.pts++;
            s.worse_pts += ec > eu;
            s.in += sim >= j->lo[c] && sim <= j->hi[c];
            w[nw++] = (j->hi[c] - j->lo[c]) / j->est[c];
            if (eu > s.unc_max) {
                s.unc_max = eu;
                snprintf(s.unc_at, sizeof s.unc_at, "%s %s", j->name, cfgs[val_cfg[c]].label);
            }
            if (ec > s.cal_max) {
                s.cal_max = ec;
                snprintf(s.cal_at, sizeof s.cal_at, "%s %s", j->name, cfgs[val_cfg[c]].label);
            }
        }
        s.unc_mean += us, s.cal_mean += cs;
        s.worse += cs > us + 1e-12;
        cost[nc] = j->full_cpu_s > 0 ? j->cal_cpu_s / j->full_cpu_s : 0;
        wall[nc] = j->full_cpu_s > 0 ? j->cal_wall_s / j->full_cpu_s : 0;
        cyc[nc] = j->pts[0].cycles ? j->sample_cycles / (double)j->pts[0].cycles : 0;
        s.cost_max = fmax(s.cost_max, cost[nc]);
        s.cyc_max = fmax(s.cyc_max, cyc[nc]);
        nc++;
    }
    if (s.pts) {
        s.unc_mean /= s.pts;
        s.cal_mean /= s.pts;
        s.spu_mean /= s.pts;
        s.spc_mean /= s.pts;
    }
    if (nsram) {
        s.sram_unc /= nsram;
        s.sram_cal /= nsram;
    }
    s.width_med = benchrun_median(w, nw);
    s.cost_med = benchrun_median(cost, nc);
    s.wall_med = benchrun_median(wall, nc);
    s.cyc_med = benchrun_median(cyc, nc);
    return s;
}

/* Kernel `name` of set, run `run` (its draws' seed, 1 the default). */
static int vsetup(vjob *j, const rf_gpu *gpu, const char *set, const char *dir, const char *name,
                  uint64_t run)
{
    char path[512];
    rf_err err = {0};
    snprintf(path, sizeof path, "%s/%s.spec", dir, name);
    j->set = set;
    snprintf(j->name, sizeof j->name, "%s", name);
    if (rf_kernel_load(path, NULL, &j->k, &err)) {
        fprintf(stderr, "bench_hirf: %s\n", err.msg);
        return -1;
    }
    j->k->profile.seed = run;
    j->regs = j->k->regs;
    for (int c = 0; c < NVP; c++) {
        benchrun_point *p = &j->pts[c];
        p->gpu = gpu;
        p->k = j->k;
        design_of(&cfgs[val_cfg[c]], &p->d);
        p->stats = &j->st[c];
        j->conf[c] = -1;
        snprintf(p->key, sizeof p->key, "%.32s|%.16s|%.60s|%s", gpu->name, set, name,
                 cfgs[val_cfg[c]].label);
        benchrun_key_run(p, run);
    }
    return 0;
}

/* Calibrate (timed, kernel characterisation included) with the windows'
 * sampler seed `seed`, and estimate. */
static void vscore(vjob *j, const rf_gpu *gpu, uint64_t seed)
{
    rf_err err = {0};
    rf_calib_report *rep = malloc(sizeof *rep);
    double t0 = benchrun_proc_cpu_s(), w0 = benchrun_wall_s();
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = ncpu > 1 ? (int)ncpu : 1;
    rf_calib_opts co = {0, seed, NULL, false, NULL, jobs};
    /* As rfkit calibrate runs it: the characterisation's CTA walks serve
     * the calibration's where both take the run's draws. */
    rf_ctaset *walked = NULL;
    if (!rep || rf_kchar_compute_walked_jobs(gpu, j->k, &j->kc,
                                             seed == j->k->profile.seed ? &walked : NULL, jobs,
                                             &err)
        || rf_calib_run_walked(gpu, gpu->name, j->k, &j->kc, walked, &co, &j->cal, rep, &err)) {
        fprintf(stderr, "bench_hirf: calibrate %s: %s\n", j->name, err.msg);
        rf_kchar_ctaset_free(walked);
        free(rep);
        return;
    }
    rf_kchar_ctaset_free(walked);
    j->cal_cpu_s = benchrun_proc_cpu_s() - t0;
    j->cal_wall_s = benchrun_wall_s() - w0;
    /* The SRAM full run timed now, beside the calibration (the cache's
     * time may come from another state of the machine). */
    j->full_cpu_s = benchrun_retime(&j->pts[0]);
    j->sample_cycles = rep->sim_cycles;
    for (int i = 0; i < rep->n; i++)
        if (rep->plan.pt[i].design.kind == RF_DESIGN_HIRF)
            j->hwin = (double)rep->s[i].cycles;
    free(rep);
    j->ok = true;
    for (int c = 0; c < NVP; c++) {
        rf_estimate e;
        if (!(j->pts[c].ipc > 0) || estimate(gpu, &j->pts[c].d, j->k, &j->kc, NULL, &e)) {
            j->ok = false;
            return;
        }
        j->unc[c] = e.ipc;
        if (estimate(gpu, &j->pts[c].d, j->k, &j->kc, &j->cal, &e)) {
            j->ok = false;
            return;
        }
        j->est[c] = e.ipc;
        j->lo[c] = e.ipc_lo;
        j->hi[c] = e.ipc_hi;
    }
}

/* Concentration of a warp's dynamic writes over its register-cache lines
 * under assignment `assign` (concat index of the design): sum_l P_l^2 /
 * (sum_l P_l)^2, what the assignment policies balance (1 / lines when
 * even); -1 when the kernel has no write counts. */
static double write_concentration(const rf_gpu *gpu, const rf_ipc_kernel *kc, int assign)
{
    rf_design d;
    design_of(&cfgs[1], &d);
    d.assign = assign;
    rf_rc_geom g;
    if (kc->rcw.nregs <= 0 || rf_rc_geom_for(&d, gpu, &g, NULL))
        return -1;
    double wr[RF_MAX_GPR], pl[2 * RF_MAX_GPR] = {0}, tot = 0, sq = 0;
    int span = rf_rcc_assigned_writes(&kc->rcw, &g, assign, wr);
    for (int r = 0; r < span && r < RF_MAX_GPR; r++) {
        int l = rf_rc_slot_of(&g, 0, r).line % (2 * RF_MAX_GPR);
        pl[l] += wr[r];
        tot += wr[r];
    }
    for (int l = 0; l < 2 * RF_MAX_GPR; l++)
        sq += pl[l] * pl[l];
    return tot > 0 ? sq / (tot * tot) : -1;
}

/* `rfkit estimate --design hirf` as a user runs it on the kernel's default
 * run (the GPU's SMs share the grid): the least wall time of EST_CMD_REPS
 * runs, loading and characterising included, ms; -1 where rfkit is not
 * built. */
#define EST_CMD_REPS 5

static double estimate_command_ms(const char *argv0, const char *dir, const char *name)
{
    if (clirun_init(argv0) != 0)
        return -1;
    char spec[600];
    snprintf(spec, sizeof spec, "%s/%s.spec", dir, name);
    char *argv[] = {(char *)clirun_binary(), "estimate", "--gpu", "volta-hirf", "--kernel", spec,
                    "--design", "hirf", NULL};
    return benchrun_cmd_ms(argv, EST_CMD_REPS);
}

/* RF_BENCH_RUNS=N (header): Table 6's kernels again as the runs of seeds
 * 2..N, each walked with its own draws and calibrated on its own windows;
 * per seed and set the calibrated mean / worst, the uncalibrated mean, the
 * share inside the 95% interval and its median width. */
static int other_runs(const rf_gpu *gpu, const vjob *jobs, int nk, const int *first, int nruns)
{
    static vjob oj[2 * VALMAX];
    static benchrun_point all[2 * VALMAX * NVP];
    const char *dirs[2] = {"inputs/kernels", "inputs/validation"};
    const char *cache = getenv("RF_BENCH_HIRFCACHE");
    printf("\nTable 6 on the kernels' other runs (sampler seeds 2-%d, each walked with its own "
           "draws and calibrated\non its own windows, calibrate --seed): HI-RF points, "
           "calibrated mean / worst, uncalibrated mean, in 95%% interval @ median width\n",
           nruns);
    for (int run = 2; run <= nruns; run++) {
        for (int i = 0; i < nk; i++)
            if (vsetup(&oj[i], gpu, jobs[i].set, dirs[i >= first[1]], jobs[i].name,
                       (uint64_t)run))
                return -1;
        char path[600];
        if (cache)
            snprintf(path, sizeof path, "%s.seed%d", cache, run);
        vcache_load(cache ? path : NULL, oj, nk);
        int na = 0;
        for (int i = 0; i < nk; i++)
            for (int c = 0; c < NVP; c++)
                all[na++] = oj[i].pts[c];
        benchrun_full(all, na, 2);
        for (int i = 0; i < nk; i++)
            for (int c = 0; c < NVP; c++) {
                oj[i].pts[c] = all[i * NVP + c];
                oj[i].pts[c].stats = &oj[i].st[c];
            }
        if (cache)
            vcache_save(path, oj, nk);
        for (int i = 0; i < nk; i++)
            vscore(&oj[i], gpu, (uint64_t)run);
        printf("  seed %-3d", run);
        for (int s = 0; s < 2; s++) {
            vsum v = vsummarise(&oj[first[s]], first[s + 1] - first[s]);
            printf("   %s %5.2f/%6.2f%% unc %5.2f%% %5.1f%%@%5.2f%%", s ? "validation" : "nine",
                   100 * v.cal_mean, 100 * v.cal_max, 100 * v.unc_mean,
                   v.pts ? 100.0 * v.in / v.pts : 0, 100 * v.width_med);
        }
        printf("\n");
        if (getenv("RF_BENCH_VERBOSE"))
            for (int i = 0; i < nk; i++) {
                vsum v = vsummarise(&oj[i], 1);
                printf("    %-10s %-12s cal %5.2f/%6.2f%% unc %5.2f%% in %d/%d\n", oj[i].set,
                       oj[i].name, 100 * v.cal_mean, 100 * v.cal_max, 100 * v.unc_mean, v.in,
                       v.pts);
            }
        for (int i = 0; i < nk; i++)
            rf_kernel_destroy(oj[i].k);
    }
    return 0;
}

static int validation_tables(const rf_gpu *gpu, const char *argv0)
{
    const struct {
        const char *set, *dir;
    } sets[2] = {{"tuning", "inputs/kernels"}, {"validation", "inputs/validation"}};
    static vjob jobs[2 * VALMAX];
    int first[3] = {0, 0, 0}, nk = 0;
    const char *only = getenv("RF_BENCH_KERNELS");
    for (int s = 0; s < 2; s++) {
        char *names[VALMAX];
        int n = benchrun_specs(sets[s].dir, names, VALMAX);
        if (n < 0) {
            fprintf(stderr, "bench_hirf: %s: cannot list the folder\n", sets[s].dir);
            return -1;
        }
        first[s] = nk;
        for (int i = 0; i < n; i++) {
            if ((!only || benchrun_listed(only, names[i]))
                && vsetup(&jobs[nk], gpu, sets[s].set, sets[s].dir, names[i], 1) == 0)
                nk++;
            free(names[i]);
        }
        first[s + 1] = nk;
    }
    const char *cache = getenv("RF_BENCH_HIRFCACHE");
    vcache_load(cache, jobs, nk);
    static benchrun_point all[2 * VALMAX * NVP];
    int na = 0;
    for (int i = 0; i < nk; i++)
        for (int c = 0; c < NVP; c++)
            all[na++] = jobs[i].pts[c];
    benchrun_full(all, na, 2);
    for (int i = 0; i < nk; i++)
        for (int c = 0; c < NVP; c++) {
            const benchrun_point *p = &all[i * NVP + c];
            if (jobs[i].conf[c] < 0 && p->ipc > 0) {
                const rf_sim_stats *st = p->stats;
                jobs[i].conf[c] = st->rc_writes ? (double)st->rc_conflicts / (double)st->rc_writes
                                                : 0.0;
            }
            jobs[i].pts[c] = *p;
        }
    if (cache)
        vcache_save(cache, jobs, nk);
    /* Calibrations one after another, each on every core as rfkit
     * calibrate runs it (its CPU time every thread's, and its wall). */
    /* RF_BENCH_CALSEED=S: the windows' sampler seed (default 1), against
     * the same full runs (seed 1). */
    const char *senv = getenv("RF_BENCH_CALSEED");
    uint64_t calseed = senv && atoll(senv) > 0 ? (uint64_t)atoll(senv) : 1;
    for (int i = 0; i < nk; i++)
        vscore(&jobs[i], gpu, calseed);

    vsum sum[2];
    for (int s = 0; s < 2; s++)
        sum[s] = vsummarise(&jobs[first[s]], first[s + 1] - first[s]);
    printf("\nTable 6. Validation: rfkit calibrate then estimate (rf_shape.sms = 1) against\n"
           "full runs of the whole grid on one SM; HI-RF points HI, HI_CAC, HI_Worst, TEA,\n"
           "HI_Full per kernel (SRAM apart).  Constants and terms are chosen on the nine;\n"
           "the validation kernels only measure.\n\n");
    printf("  %-32s %15s %15s\n", "", "tuning (nine)", "validation");
    printf("  %-32s %15d %15d\n", "kernels", sum[0].kernels, sum[1].kernels);
    printf("  %-32s %15d %15d\n", "HI-RF points", sum[0].pts, sum[1].pts);
#define VROW(label, field) \
    printf("  %-32s %14.2f%% %14.2f%%\n", label, 100 * sum[0].field, 100 * sum[1].field)
    VROW("uncalibrated mean |IPC error|", unc_mean);
    VROW("uncalibrated worst", unc_max);
    VROW("calibrated mean |IPC error|", cal_mean);
    VROW("calibrated worst", cal_max);
    printf("  %-32s %15d %15d\n", "kernels calibration worsens", sum[0].worse, sum[1].worse);
    printf("  %-32s %15d %15d\n", "points calibration worsens", sum[0].worse_pts,
           sum[1].worse_pts);
    printf("  %-32s %14.2f%% %14.2f%%\n", "in 95% interval",
           sum[0].pts ? 100.0 * sum[0].in / sum[0].pts : 0,
           sum[1].pts ? 100.0 * sum[1].in / sum[1].pts : 0);
    VROW("interval median width", width_med);
    VROW("speedup over SRAM: unc mean", spu_mean);
    VROW("  unc worst", spu_max);
    VROW("  cal mean", spc_mean);
    VROW("  cal worst", spc_max);
    VROW("SRAM unc / cal mean", sram_unc);
    VROW("", sram_cal);
    VROW("sampled cycles / full run, median", cyc_med);
    VROW("sampled cycles / full run, max", cyc_max);
#undef VROW
    printf("  %-32s %15.3f %15.3f\n", "calibrate / full CPU, median", sum[0].cost_med,
           sum[1].cost_med);
    printf("  %-32s %15.3f %15.3f\n", "calibrate / full CPU, max", sum[0].cost_max,
           sum[1].cost_max);
    printf("  %-32s %15.3f %15.3f\n", "calibrate / full wall, median", sum[0].wall_med,
           sum[1].wall_med);
    double cmd[2][2 * VALMAX], cmax[2] = {-1, -1};
    int ncmd[2] = {0, 0};
    for (int q = 0; q < 2; q++)
        for (int i = first[q]; i < first[q + 1]; i++) {
            double ms = estimate_command_ms(argv0, sets[q].dir, jobs[i].name);
            if (ms < 0)
                continue;
            cmd[q][ncmd[q]++] = ms;
            cmax[q] = fmax(cmax[q], ms);
        }
    printf("  %-32s %15.1f %15.1f\n", "estimate command ms, median",
           ncmd[0] ? benchrun_median(cmd[0], ncmd[0]) : -1,
           ncmd[1] ? benchrun_median(cmd[1], ncmd[1]) : -1);
    printf("  %-32s %15.1f %15.1f\n", "estimate command ms, max", cmax[0], cmax[1]);
    printf("  worst uncalibrated: %s / %s; worst calibrated: %s / %s\n", sum[0].unc_at,
           sum[1].unc_at, sum[0].cal_at, sum[1].cal_at);
    printf("  targets (issue 25, validation): calibrated mean <= 4%%, worst <= 12%%, never\n"
           "  worse than uncalibrated on average, coverage >= 90%% at median width <= 12%%\n\n");
    printf("  %-10s %-12s %4s %8s %8s %8s %8s %6s %7s %6s\n", "set", "kernel", "regs", "unc mean",
           "unc max", "cal mean", "cal max", "in PI", "sample", "HI win");
    for (int i = 0; i < nk; i++) {
        const vjob *j = &jobs[i];
        if (!j->ok)
            continue;
        double us = 0, um = 0, cs = 0, cm = 0;
        int in = 0;
        for (int c = 1; c < NVP; c++) {
            double sim = j->pts[c].ipc;
            double eu = fabs(j->unc[c] - sim) / sim, ec = fabs(j->est[c] - sim) / sim;
            us += eu, cs += ec;
            um = fmax(um, eu), cm = fmax(cm, ec);
            in += sim >= j->lo[c] && sim <= j->hi[c];
        }
        printf("  %-10s %-12s %4d %7.2f%% %7.2f%% %7.2f%% %7.2f%% %3d/%-2d %6.2f%% %6.0f%s\n",
               j->set, j->name, j->regs, 100 * us / (NVP - 1), 100 * um, 100 * cs / (NVP - 1),
               100 * cm, in, NVP - 1,
               j->pts[0].cycles ? 100 * j->sample_cycles / (double)j->pts[0].cycles : 0, j->hwin,
               cs > us ? "  worse" : "");
        if (getenv("RF_BENCH_VERBOSE"))
            for (int c = 0; c < NVP; c++)
                printf("      %-9s sim %.4f unc %.4f cal %.4f [%.4f, %.4f]\n",
                       cfgs[val_cfg[c]].label, j->pts[c].ipc, j->unc[c], j->est[c], j->lo[c],
                       j->hi[c]);
    }

    /* Table 7: seed 002's orderings of conflicts per cache write. */
    printf("\nTable 7. Seed 002's orderings on the sampler's full runs (register-cache\n"
           "conflicts per 100 writes): CAC <= base, base <= Worst, TEA and HI_Full below\n"
           "concat (base assignment).\n\n");
    printf("  conc: concentration of the dynamic writes over a warp's lines (sum of squared\n"
           "  line shares), base / CAC assignment; model: the uncalibrated closed form's\n"
           "  conflicts per 100 writes, HI / CAC / TEA / Full.\n\n");
    printf("  %-10s %-12s %4s %7s %7s %7s %7s %7s %11s %27s  %s\n", "set", "kernel", "regs", "HI",
           "CAC", "Worst", "TEA", "Full", "conc", "model", "fails");
    for (int s = 0; s < 2; s++) {
        int okc = 0, okw = 0, okt = 0, n = 0, nwhy[3] = {0, 0, 0};
        for (int i = first[s]; i < first[s + 1]; i++) {
            const vjob *j = &jobs[i];
            const double *cf = j->conf;
            if (cf[1] < 0 || cf[2] < 0 || cf[3] < 0 || cf[4] < 0 || cf[5] < 0)
                continue;
            bool a = cf[2] <= cf[1], b = cf[1] <= cf[3], t = cf[4] < cf[1] && cf[5] < cf[1];
            okc += a, okw += b, okt += t, n++;
            static const int mpt[4] = {1, 2, 4, 5}; /* HI, HI_CAC, TEA, HI_Full */
            double mc[4] = {NAN, NAN, NAN, NAN};
            for (int q = 0; q < 4; q++) {
                rf_estimate e;
                if (j->ok && estimate(gpu, &j->pts[mpt[q]].d, j->k, &j->kc, NULL, &e) == 0)
                    mc[q] = 100 * e.rc.conflict;
            }
            double cb = write_concentration(gpu, &j->kc, RF_ASSIGN_BASE);
            double cc = write_concentration(gpu, &j->kc, RF_ASSIGN_CAC);
            /* Why CAC loses: its static counts gather the dynamic writes
             * (concentration up), or it leaves their balance as base's and
             * the difference is the order of the writes. */
            const char *why = a ? "" : cc > cb + 0.002 ? "CAC>base (static counts concentrate) "
                                     : cc >= cb - 0.002 ? "CAC>base (same balance) "
                                                        : "CAC>base (write order) ";
            if (!a)
                nwhy[cc > cb + 0.002 ? 0 : cc >= cb - 0.002 ? 1 : 2]++;
            printf("  %-10s %-12s %4d %7.2f %7.2f %7.2f %7.2f %7.2f %5.3f/%5.3f "
                   "%6.2f/%6.2f/%6.2f/%6.2f  %s%s%s\n",
                   j->set, j->name, j->regs, 100 * cf[1], 100 * cf[2], 100 * cf[3], 100 * cf[4],
                   100 * cf[5], cb, cc, mc[0], mc[1], mc[2], mc[3], why, b ? "" : "base>Worst ",
                   t ? "" : "TEA/Full>=concat");
        }
        printf("  %s: CAC <= base %d of %d, base <= Worst %d of %d, TEA and Full below concat "
               "%d of %d\n", sets[s].set, okc, n, okw, n, okt, n);
        printf("  CAC > base: static counts concentrate the writes %d, same balance %d, write "
               "order %d\n\n", nwhy[0], nwhy[1], nwhy[2]);
    }
    const char *runs = getenv("RF_BENCH_RUNS");
    if (runs && atoi(runs) > 1
        && other_runs(gpu, jobs, nk, first, atoi(runs) > 16 ? 16 : atoi(runs)))
        fprintf(stderr, "bench_hirf: the other runs could not be measured\n");
    for (int i = 0; i < nk; i++)
        rf_kernel_destroy(jobs[i].k);
    return 0;
}

int main(int argc, char **argv)
{
    rf_gpu gpu;
    rf_err err = {0};
    if (rf_gpu_load("volta-hirf", &gpu, stderr, &err)) {
        fprintf(stderr, "bench_hirf: %s\n", err.msg);
        return 1;
    }
    /* --validation: Tables 6 and 7 alone. */
    if (argc > 1 && !strcmp(argv[1], "--validation"))
        return validation_tables(&gpu, argv[0]) ? 1 : 0;
    char *paths[MAXK];
    int n = 0;
    for (int i = 1; i < argc && n < MAXK; i++)
        paths[n++] = strdup(argv[i]);
    if (n == 0) {
        DIR *dir = opendir("inputs/kernels");
        struct dirent *de;
        while (dir && (de = readdir(dir)) && n < MAXK) {
            size_t l = strlen(de->d_name);
            if (l > 5 && !strcmp(de->d_name + l - 5, ".spec")) {
                char buf[512];
                snprintf(buf, sizeof buf, "inputs/kernels/%s", de->d_name);
                paths[n++] = strdup(buf);
            }
        }
        if (dir)
            closedir(dir);
        qsort(paths, (size_t)n, sizeof *paths, cmp_str);
    }

    static row rows[MAXK][NCFG];
    char names[MAXK][128];
    int regs[MAXK], ok[MAXK];
    double lams[MAXK], prm[MAXK][3], sens[MAXK][NSENS][2], win[MAXK][2];
    clock_t t0 = clock();
    for (int i = 0; i < n; i++)
        ok[i] = run_kernel(&gpu, paths[i], rows[i], &regs[i], &lams[i], prm[i], sens[i], win[i],
                           names[i], sizeof names[i]) == 0;
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;

    const char *wenv = getenv("RF_BENCH_WAVES");
    long waves = wenv ? atol(wenv) : WAVES;
    char cut[48] = "whole grids";
    if (waves > 0)
        snprintf(cut, sizeof cut, "grids cut to %ld waves", waves);
    printf("HI-RF + CAC (seed 002) on volta-hirf: 256 x 1024-bit register-cache entries "
           "(64 per sub-core), 8 NVM banks, NVM write 4 cycles; %s\n\n", cut);
    printf("Table 1. Sampler.  IPC; conflicts (write-backs) per 100 register writes;\n"
           "NVM reads / writes per 100 warp instructions; NVM write stall cycles per warp\n"
           "instruction; register-file energy relative to SRAM (Table 3 figures).\n\n");
    for (int i = 0; i < n; i++) {
        if (!ok[i])
            continue;
        printf("%s (%d registers, %s; fitted rc_locality %.2f, lat_scale %.2f, "
               "conflict_scale %.2f, rc_stall %.2f)\n", names[i], regs[i],
               regs[i] >= 15 ? "compiler-sensitive" : "compiler-insensitive", lams[i],
               prm[i][0], prm[i][1], prm[i][2]);
        printf("  %-10s %7s %7s %8s %8s %7s %7s | %7s %7s %6s\n", "config", "IPC", "conf%",
               "nvmR%", "nvmW%", "stall", "energy", "est.IPC", "est.cf%", "est.own");
        for (int c = 0; c < NCFG; c++) {
            const row *r = &rows[i][c];
            printf("  %-10s %7.4f %7.2f %8.2f %8.2f %7.3f %7.3f | %7.4f %7.2f %6.2f\n",
                   cfgs[c].label, r->ipc, r->conf, r->nvm_r, r->nvm_w, r->stall, r->energy,
                   r->est, r->est_conf, r->est_own);
        }
        printf("\n");
    }

    /* Summary: compiler-sensitive group means relative to HI (concat, base). */
    printf("Table 2. Means over the compiler-sensitive kernels (>= 15 registers):\n"
           "IPC and conflicts relative to HI (concat W3R3, base assignment); energy\n"
           "relative to SRAM.\n\n");
    printf("  %-10s %9s %11s %9s\n", "config", "IPC/HI", "conf/HI", "E/SRAM");
    for (int c = 0; c < NCFG; c++) {
        double si = 0, sc = 0, se = 0;
        int m = 0, mc = 0;
        for (int i = 0; i < n; i++) {
            if (!ok[i] || regs[i] < 15)
                continue;
            si += rows[i][c].ipc / rows[i][1].ipc;
            se += rows[i][c].energy;
            m++;
            if (rows[i][1].conf > 0) {
                sc += rows[i][c].conf / rows[i][1].conf;
                mc++;
            }
        }
        if (m > 0)
            printf("  %-10s %9.4f %11.4f %9.4f\n", cfgs[c].label, si / m,
                   c > 0 && mc > 0 ? sc / mc : NAN, se / m);
    }

    printf("\nTable 3. Sensitivity (Figs. 9, 10): IPC of CAC over base assignment, concat\n"
           "index; W4R2 / W2R4 at 256 entries; W?R3 at 64..512 entries.\n\n  %-8s", "kernel");
    for (int c = 0; c < NSENS; c++)
        printf(" %7s", sens_cfgs[c].label);
    printf("\n");
    for (int i = 0; i < n; i++) {
        if (!ok[i] || regs[i] < 15)
            continue;
        printf("  %-8s", names[i]);
        for (int c = 0; c < NSENS; c++)
            printf(" %7.3f", sens[i][c][1] / sens[i][c][0]);
        printf("\n");
    }
    printf("  %-8s", "IPC/256e");
    for (int c = 0; c < NSENS; c++) {
        double g = 0;
        int m = 0;
        for (int i = 0; i < n; i++)
            if (ok[i] && regs[i] >= 15) {
                g += sens[i][c][0] / sens[i][4][0];
                m++;
            }
        printf(" %7.3f", m ? g / m : NAN);
    }
    printf("   (base assignment, mean over the group)\n");

    printf("\nTable 4. Calibrated estimates vs the sampler on HI-RF points not sampled\n"
           "(calibration samples: SRAM, HI, TEA and HI_Worst per kernel).\n\n");
    double sum = 0, worst = 0, sum_in = 0;
    int cnt = 0, cnt_in = 0;
    const char *worst_at = "";
    static char worst_buf[96];
    for (int i = 0; i < n; i++) {
        if (!ok[i])
            continue;
        for (int c = 0; c < NCFG; c++) {
            double e = fabs(rows[i][c].est - rows[i][c].ipc) / rows[i][c].ipc;
            if (c <= 1 || c == 5 || c == 4) {
                sum_in += e;
                cnt_in++;
                continue;
            }
            sum += e;
            cnt++;
            if (e > worst) {
                worst = e;
                snprintf(worst_buf, sizeof worst_buf, "%s %s", names[i], cfgs[c].label);
                worst_at = worst_buf;
            }
        }
    }
    if (cnt > 0)
        printf("  unsampled points: %d, mean |IPC error| %.2f%%, worst %.2f%% (%s)\n", cnt,
               100.0 * sum / cnt, 100.0 * worst, worst_at);
    if (cnt_in > 0)
        printf("  sampled points:   %d, mean |IPC error| %.2f%%\n", cnt_in, 100.0 * sum_in / cnt_in);
    const char *renv = getenv("RF_BENCH_REFSEEDS");
    long refseeds = renv && atol(renv) > 1 ? atol(renv) : 1;
    printf("\nTable 5. rfkit calibrate (windowed plan, 4.25%% of a full run, with the three\n"
           "HI-RF windows) then estimate, vs the sampler's full runs (mean of sampler\n"
           "seeds 1..%ld): HI-RF points, and the SRAM point.\n\n  %-8s",
           refseeds, "kernel");
    for (int c = 0; c < NCFG; c++)
        printf(" %9s", cfgs[c].label);
    printf("  %s\n", "HI win/full  TEA win/full");
    /* The plan's HI-RF windows run HI (concat, base assignment), TEA and
     * HI_Full: the other seven HI-RF points are design points no sample
     * ran. */
    double wsum = 0, wworst = 0, usum = 0, uworst = 0;
    int wcnt = 0, ucnt = 0, covered = 0;
    char wat[64] = "", uat[64] = "";
    for (int i = 0; i < n; i++) {
        if (!ok[i])
            continue;
        printf("  %-8s", names[i]);
        for (int c = 0; c < NCFG; c++) {
            double e = (rows[i][c].est_win - rows[i][c].ipc_ref) / rows[i][c].ipc_ref;
            printf(" %+8.1f%%", 100.0 * e);
            if (c > 0 && isfinite(e)) {
                wsum += fabs(e);
                wcnt++;
                covered += rows[i][c].ipc_ref >= rows[i][c].win_lo
                        && rows[i][c].ipc_ref <= rows[i][c].win_hi;
                if (fabs(e) > wworst) {
                    wworst = fabs(e);
                    snprintf(wat, sizeof wat, "%s %s", names[i], cfgs[c].label);
                }
                if (c != 1 && c != 5) {
                    usum += fabs(e);
                    ucnt++;
                    if (fabs(e) > uworst) {
                        uworst = fabs(e);
                        snprintf(uat, sizeof uat, "%s %s", names[i], cfgs[c].label);
                    }
                }
            }
        }
        printf("  %5.3f/%5.3f %5.3f/%5.3f\n", win[i][0], rows[i][1].ipc, win[i][1], rows[i][5].ipc);
    }
    if (wcnt > 0)
        printf("  HI-RF points: %d, mean |IPC error| %.2f%%, worst %.2f%% (%s); the full run "
               "inside the estimate's 95%% interval at %d\n",
               wcnt, 100.0 * wsum / wcnt, 100.0 * wworst, wat, covered);
    if (ucnt > 0)
        printf("  of them unsampled (no window ran the design): %d, mean %.2f%%, worst %.2f%% "
               "(%s)\n",
               ucnt, 100.0 * usum / ucnt, 100.0 * uworst, uat);
    printf("\n%d kernels x %d configurations in %.1f s\n", n, NCFG + 2 * NSENS, secs);
    if (argc == 1 && validation_tables(&gpu, argv[0]))
        return 1;
    for (int i = 0; i < n; i++)
        free(paths[i]);
    return 0;
}
