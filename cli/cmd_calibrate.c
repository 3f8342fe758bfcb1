/* cmd_calibrate.c - rfkit calibrate: run the sampling plan on the sampler,
 * fit the IPC model's free parameters, print the fit and write the
 * calibration record (atomically) for rfkit estimate and rfkit batch.
 * --kernels LIST calibrates many kernels into one record file written once;
 * under an MPI launcher the ranks take the kernels round-robin (kernel i on
 * rank i mod N: calibrations differ in cost more than batch rows do) and
 * rank 0 gathers the records (cli/mpi.h).  On a terminal a progress line
 * counts the samples (one kernel) or the kernels (a list); piped, the
 * command prints only its results.  SIGINT leaves the record file as it
 * was: it is rewritten only at the end, through a temporary file (and
 * rfkit exits with 130; cli/main.c).
 * The run sampled is the one rfkit simulate and rfkit estimate describe by
 * default: the grid spread round-robin over the GPU's SMs (--sms N), SM 0's
 * share of it (inputs/kernel.h rf_kernel_spread); the record is keyed by
 * that SM count (calibrate/record.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analytic/kchar.h"
#include "../analytic/switching.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/pffit.h"
#include "../calibrate/record.h"
#include "../common/file.h"
#include "../common/param.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/regalloc.h"
#include "../results/table.h"
#include "cli.h"
#include "mpi.h"
#include "progress.h"

#define DEFAULT_CALIB "rfkit-calib.csv"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit calibrate --gpu G (--kernel K | --kernels LIST) [-o FILE]\n"
            "                       [--budget-cycles N] [--seed S]\n"
            "                       [--entry NAME] [--grid X,Y,Z] [--block X,Y,Z] [--smem B]\n"
            "                       [--regs N] [--sms N] [--jobs N] [--quiet] [--cold]\n"
            "                       [--design D [--active-warps N]]\n\n"
            "Run short sampler windows at a few design points (warm-up, window, several\n"
            "places of the kernel), fit the IPC model's free parameters with GSL, print the\n"
            "parameters, the residuals and the cycles the samples cost against a full run,\n"
            "and write the calibration record for this GPU and kernel into FILE (default\n"
            "%s; other GPU/kernel pairs in it are kept).\n\n"
            "Which run: by default the GPU's SMs share the grid (CTA c goes to SM c mod\n"
            "SMs, one SM's share of the DRAM bandwidth each) and the windows sample the\n"
            "busiest SM, SM 0 running ceil(grid / SMs) CTAs: the run rfkit simulate and\n"
            "rfkit estimate describe by default.  --sms N spreads the grid over N SMs,\n"
            "--sms 1 samples the whole grid on one SM.  The record holds the SM count:\n"
            "rfkit estimate applies it only with the same --sms.\n\n"
            "Windows worth their cost: under the default budget, windows that would\n"
            "weigh under 0.5 on the estimates (shorter than the kernel's CTA lifetimes,\n"
            "they would know its level less well than the uncalibrated model does; the\n"
            "default run's share of a few CTAs is the usual case) are not run: the record\n"
            "holds no samples and estimates from it are uncalibrated.  --budget-cycles N\n"
            "runs them.\n\n"
            "FILE is rewritten at the end only: interrupted (SIGINT, SIGTERM), rfkit\n"
            "leaves it as it was and exits with status 130 (143).\n\n",
            DEFAULT_CALIB);
    fprintf(out,
            "options:\n"
            "  --kernels LIST     calibrate every kernel of LIST (comma-separated kernel\n"
            "                     files, or @FILE naming a file with one per line; blank\n"
            "                     lines and lines starting with # are skipped) and write\n"
            "                     their records into FILE once, with a table of the fits.\n"
            "                     Under mpirun -np N or srun the ranks share the kernels\n"
            "                     and rank 0 writes the same file one process would\n"
            "  --budget-cycles N  cycles the samples may cost, warm-ups included\n"
            "                     (default: 4.25%% of the estimated full run, so that the\n"
            "                     samples stay under 5%% of the real one; 3%% with\n"
            "                     --design rfc|ltrf, whose windows cost more per cycle)\n"
            "  -o FILE            the calibration record to write (also --output)\n"
            "  --sms N            SMs the grid is spread over (default: the GPU's); the\n"
            "                     busiest SM's share is sampled (1: the whole grid on one SM)\n"
            "  --seed S           the run sampled (default 1): the windows' branch, loop\n"
            "                     and cache draws, walked alike by the closed forms;\n"
            "                     the record serves estimate --seed S\n"
            "  --jobs N           threads running the windows, the fit's window models,\n"
            "                     the level's draws and the CTA walks of the kernel's\n"
            "                     characterisation at once (default: all cores;\n"
            "                     under mpirun, the cores over the ranks of each\n"
            "                     machine); the record is the same whatever N\n"
            "  --quiet            no per-sample progress lines (shown only on a terminal)\n"
            "  --cold             windows from a cold start.  By default each window\n"
            "                     starts after a few CTA turnovers walked untimed\n"
            "                     (functional warming), so that it sees the mid-run mix\n"
            "                     of CTA ages rather than a cold start's short CTAs, and\n"
            "                     one more rate factor is fitted\n");
    fprintf(out,
            "  --design rfc|ltrf  calibrate the register-cache model instead (seed 004):\n"
            "                     windows of the baseline, RFC #7 and LTRF #7 on the same\n"
            "                     CTAs at up to four grid positions, within the same\n"
            "                     budget; the designs' ratios to their baseline window\n"
            "                     fit rfc_scale and pf_scale, each held near its default\n"
            "                     by the windows' measured noise, and the level from the\n"
            "                     CTA population model of the whole grid\n"
            "                     (calibrate/pffit.c); windows within 3%% of a full run.  Its\n"
            "                     record serves rfkit estimate for RFC, LTRF and LTRF+\n"
            "                     design points at the pool it was made at (keep it in\n"
            "                     its own file with -o)\n"
            "  --active-warps N   with --design rfc|ltrf: the two-level pool the windows\n"
            "                     run at (default 0, the GPU's; -1 rfkit's preferred,\n"
            "                     8 per scheduler): calibrate at the pool you estimate at\n"
            "  --design hirf      the plain plan, whose HI-RF windows set the register\n"
            "                     cache's terms (a GPU with an NVM main file only)\n"
            "  --design finereg   also run two FineReg windows (on the CTAs of the level's\n"
            "                     and the stealing window, the budget shared with them) and\n"
            "                     fit the CTA-switching parameters sw_sync and sw_cost on\n"
            "                     them; estimate and batch use them.  Register Sharing has\n"
            "                     no free parameter; VT, Reg+DRAM and RegMutex keep their\n"
            "                     priors (their windows did not improve the estimates).\n"
            "                     Keep its record in its own file with -o: its ordinary\n"
            "                     windows are shorter, and its sw_sync is FineReg's\n"
            RF_CLI_KERNEL_HELP);
}

static int parse_u64(const char *name, const char *v, uint64_t *out, rf_err *err)
{
    long x;
    int rc = rf_parse_long_in(v, 0, LONG_MAX, RF_CLI_WHERE, 0, name, &x, err);
    if (rc)
        return rc;
    *out = (uint64_t)x;
    return RF_OK;
}

/* The run sampled, and a blank line. */
static void print_run(const rf_kernel *k)
{
    long grid = rf_kernel_grid_ctas(k), run = rf_kernel_ctas(k);
    if (rf_kernel_sms(k) > 1)
        printf("run: the busiest SM's share of the grid spread over %d SMs, %ld of %ld CTAs "
               "(record for sms=%d)\n\n", rf_kernel_sms(k), run, grid, rf_kernel_sms(k));
    else
        printf("run: the whole grid (%ld CTAs) on one SM (record for sms=1)\n\n", grid);
}

/* --design rfc|ltrf: the register-cache windows (calibrate/plan.c
 * rf_plan_make_pf) at the two-level pool `pool` (design active_warps: 0
 * the preset's, -1 rfkit's preferred) and their fit into *cal. */
typedef struct pf_run {
    rf_plan plan;
    rf_pffit_win w[RF_PLAN_MAX];
    rf_pffit_wrep rep;
} pf_run;

static int calibrate_pf(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                        const rf_ipc_kernel *kc, uint64_t budget, uint64_t seed, int pool,
                        int jobs, pf_run *pr, rf_calib *cal, rf_err *err)
{
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    d.active_warps = pool;
    rf_calib_init_kernel(cal, gpu_name, k);
    return rf_pffit_calibrate(gpu, k, kc, &d, budget, seed ? seed : k->profile.seed, jobs, &pr->plan, pr->w, cal,
                              &pr->rep, err);
}

static void print_pf(const rf_kernel *k, const char *gpu_name, const char *out_path,
                     const pf_run *pr, const rf_calib *cal)
{
    const rf_plan *pl = &pr->plan;
    printf("calibrate: kernel %s on %s, register-cache model, %d windows at %d positions, "
           "record %s\n", k->name, gpu_name, pl->n, pr->rep.npos, out_path);
    print_run(k);
    if (pl->n == 0) {
        long ctas = rf_kernel_ctas(k);
        if (rf_plan_pf_few_waves(ctas, pl->resident))
            printf("the run's %ld CTAs are under %d waves of %d resident: no mid-run for "
                   "windows (each would read the start-up or the tail)", ctas,
                   RF_PLAN_PF_MIN_WAVES, pl->resident);
        else
            printf("the kernel's estimated %.0f cycles leave no pair of windows within the "
                   "budget", pl->full_cycles);
        printf(": no samples, estimates are uncalibrated but for the level %.4f (population "
               "model over the wave formula)\n", cal->level);
        return;
    }
    rf_tbl *t = rf_tbl_new(6, (const char *const[]){"sample", "skip CTAs", "warm-up", "window",
                                                    "IPC sampled", "over baseline"});
    int per = pr->rep.per;
    for (int i = 0; t && i < pl->n; i++)
        rf_tbl_addf(t, "%s\t%llu\t%llu\t%llu\t%.4f\t%.4f", pl->pt[i].label,
                    (unsigned long long)pl->pt[i].skip_ctas, (unsigned long long)pr->w[i].warmup,
                    (unsigned long long)pr->w[i].cycles, pr->w[i].ipc,
                    pr->w[i].ipc / pr->w[i - i % per].ipc);
    if (t) {
        rf_tbl_print(t, stdout);
        rf_tbl_free(t);
    }
    printf("\n");
    t = rf_tbl_new(5, (const char *const[]){"ratio to baseline", "windows", "noise", "model default",
                                            "model fit"});
    for (int j = 1; t && j < per; j++) {
        const rf_design *d = &pl->pt[j].design;
        rf_tbl_addf(t, "%s%s #%d\t%.4f\t%.1f%%\t%.4f\t%.4f", rf_design_name(d->kind),
                    d->plus ? "+" : "", d->rf_config, pr->rep.ratio[j], 100 * pr->rep.noise[j],
                    pr->rep.model0[j], pr->rep.model[j]);
    }
    if (t) {
        rf_tbl_print(t, stdout);
        rf_tbl_free(t);
    }
    printf("\n");
    t = rf_tbl_new(4, (const char *const[]){"parameter", "value", "std. error", "default"});
    for (int j = 0; t && j < cal->nfit; j++) {
        const rf_mparam *mp = &rf_ipc_mparams[cal->fit_idx[j]];
        rf_tbl_addf(t, "%s\t%.4g\t%.3g\t%.4g", mp->name, rf_mparam_get(mp, &cal->params),
                    cal->cov[j][j] > 0 ? sqrt(cal->cov[j][j]) : 0.0, mp->def);
    }
    if (t) {
        rf_tbl_print(t, stdout);
        rf_tbl_free(t);
    }
    printf("\nfit: rms residual %.2f%% (log ratio), %d dof; level %.4f (population model over "
           "the wave formula)\n", 100.0 * cal->rms_rel, cal->dof, cal->level);
    if (cal->level_apart)
        printf("level: +-%.1f%% (1 sd, from the baseline windows against the population model), "
               "not applied (its distance from the wave formula is in the interval); "
               "shrink: w = %.3f on the correction beside the level\n",
               100.0 * sqrt(cal->level_var > 0 ? cal->level_var : 0.0), cal->shrink);
    else
        printf("level: +-%.1f%% (1 sd, from the baseline windows against the population model); "
               "shrink: w = %.3f on the correction\n",
               100.0 * sqrt(cal->level_var > 0 ? cal->level_var : 0.0), cal->shrink);
    printf("cost: %.0f cycles sampled vs %.0f for a full run of the baseline (estimate): %.2f%%\n",
           pr->rep.sim_cycles, pl->full_cycles, 100.0 * pr->rep.sim_cycles / pl->full_cycles);
}

/* What every kernel of a list shares. */
typedef struct many_opts {
    const rf_gpu *gpu;
    const char *gpu_name;
    const rf_kernel_opts *ko;
    rf_calib_opts co;          /* progress NULL: a list shows kernels, not samples */
    bool pf;                   /* --design rfc|ltrf */
    int pool;                  /* --active-warps with --design rfc|ltrf */
    int sms;                   /* SMs the grid is spread over (>= 1) */
} many_opts;

/* One kernel of a list: its outcome travels between ranks as bytes. */
typedef struct kernel_cal {
    int rc;
    rf_err err;
    rf_calib cal;
} kernel_cal;

static void calibrate_item(const many_opts *mo, const char *path, kernel_cal *it)
{
    rf_kernel *k;
    rf_ipc_kernel kc;
    it->rc = rf_cli_load_kernel(path, mo->ko, &k, &it->err);
    if (it->rc)
        return;
    rf_calib_report *rep = calloc(1, sizeof *rep);   /* large: not on the stack */
    pf_run *pr = calloc(1, sizeof *pr);
    /* Over the GPU's register limit: spilled as estimate and simulate do. */
    it->rc = !rep || !pr ? rf_err_set(&it->err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory")
                  : rf_kernel_fit_regs(k, mo->gpu, &it->err);
    rf_kernel_spread(k, mo->sms);
    /* The characterisation's CTA walks (the run's draws, those of the
     * windows) serve the calibration's too. */
    rf_ctaset *walked = NULL;
    bool share = !mo->pf;
    if (!it->rc)
        it->rc = rf_kchar_compute_walked_jobs(mo->gpu, k, &kc, share ? &walked : NULL,
                                              mo->co.jobs, &it->err);
    if (!it->rc && mo->pf)
        it->rc = calibrate_pf(mo->gpu, mo->gpu_name, k, &kc, mo->co.budget_cycles, mo->co.seed,
                              mo->pool, mo->co.jobs, pr, &it->cal, &it->err);
    else if (!it->rc)
        it->rc = rf_calib_run_walked(mo->gpu, mo->gpu_name, k, &kc, walked, &mo->co, &it->cal,
                                     rep, &it->err);
    rf_kchar_ctaset_free(walked);
    free(pr);
    free(rep);
    rf_kernel_destroy(k);
}

/* The kernel files of LIST: "a,b,c" or "@FILE" (one per line).  *paths
 * points into *buf; 0 or RF_EUSAGE / RF_ENOMEM. */
static int parse_list(const char *list, char **buf, char ***paths, int *n, rf_err *err)
{
    *buf = NULL;
    *paths = NULL;
    *n = 0;
    char sep = ',';
    if (list[0] == '@') {
        FILE *fp;
        if (rf_file_open(list + 1, &fp, err)) {
            err->code = RF_EUSAGE;
            return RF_EUSAGE;
        }
        size_t cap = 4096, len = 0, got;
        char *b = malloc(cap + 1);
        int nomem = b == NULL;
        while (!nomem && (got = fread(b + len, 1, cap - len, fp)) > 0) {
            len += got;
            if (len == cap && len < RF_TEXT_MAX) {
                char *nb = realloc(b, 2 * cap + 1);
                nomem = nb == NULL;
                if (nb) {
                    b = nb;
                    cap *= 2;
                }
            }
        }
        int bad = nomem || ferror(fp) || len >= RF_TEXT_MAX;
        fclose(fp);
        if (bad) {
            free(b);
            return rf_err_set(err, nomem ? RF_ENOMEM : RF_EUSAGE, list + 1, 0, 0, NULL,
                              nomem ? "out of memory" : "cannot read the kernel list");
        }
        b[len] = '\0';
        *buf = b;
        sep = '\n';
    } else {
        *buf = strdup(list);
        if (!*buf)
            return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    size_t count = 1;
    for (const char *c = *buf; *c; c++)
        count += *c == sep;
    *paths = calloc(count, sizeof **paths);
    if (!*paths) {
        free(*buf);
        *buf = NULL;
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    int line = 0;
    for (char *p = *buf; p;) {
        char *next = strchr(p, sep);
        if (next)
            *next++ = '\0';
        line++;
        size_t l = strlen(p);
        while (l && (p[l - 1] == '\r' || p[l - 1] == ' ' || p[l - 1] == '\t'))
            p[--l] = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        if (sep == '\n' && (!*p || *p == '#')) {
            p = next;
            continue;
        }
        if (!*p) {
            free(*paths);
            free(*buf);
            *paths = NULL;
            *buf = NULL;
            return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, "kernels",
                              "an empty kernel name in '%s'", list);
        }
        (*paths)[(*n)++] = p;
        p = next;
    }
    if (*n == 0) {
        free(*paths);
        free(*buf);
        *paths = NULL;
        *buf = NULL;
        return rf_err_set(err, RF_EUSAGE, list[0] == '@' ? list + 1 : "command line", 0, 0,
                          list[0] == '@' ? NULL : "kernels", "no kernel files listed");
    }
    return RF_OK;
}

/* --kernels: calibrate each kernel (this rank's share under MPI), gather
 * on rank 0, write the records once and print one line per kernel. */
static int calibrate_many(const rf_mpi *m, const many_opts *mo, char **paths, int n,
                          const char *out_path, rf_err *err)
{
    kernel_cal *items = calloc((size_t)n, sizeof *items);
    int mine = 0;
    for (int i = m->rank; i < n; i += m->size)
        mine++;
    int rc = items ? RF_OK : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    rf_progress pg;
    rf_progress_start(&pg, m->rank == 0 ? rf_progress_stream() : NULL,
                      m->size > 1 ? "calibrate (rank 0's kernels)" : "calibrate", "kernels",
                      mine);
    pg.every = 0;   /* a kernel takes long: every one is shown */
    rf_progress_update(&pg, 0);
    int done = 0;
    for (int i = m->rank; items && i < n; i += m->size) {
        calibrate_item(mo, paths[i], &items[i]);
        rf_progress_update(&pg, ++done);
    }
    rf_progress_end(&pg);
    /* Every rank takes part in the exchange, also one that ran out of memory. */
    int grc = rf_mpi_gather_items(m, items, sizeof *items, n, items != NULL, err);
    if (!rc)
        rc = grc;
    if (rc || m->rank != 0) {
        free(items);
        return rc;
    }
    for (int i = 0; i < n; i++)
        if (items[i].rc) {
            *err = items[i].err;
            rc = items[i].rc;
            free(items);
            return rc;
        }
    rf_calib *cals = malloc((size_t)n * sizeof *cals);
    if (!cals) {
        free(items);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    for (int i = 0; i < n; i++)
        cals[i] = items[i].cal;
    free(items);
    rc = rf_record_save_n(out_path, cals, (size_t)n, err);
    if (rc) {
        free(cals);
        return rc;
    }
    printf("calibrate: %d kernels on %s%s, records %s\n\n", n, mo->gpu_name,
           mo->pf ? ", register-cache model" : "", out_path);
    rf_tbl *t = rf_tbl_new(7, (const char *const[]){"kernel", "samples", "cycles sampled",
                                                    "of a full run", "rms residual", "dof",
                                                    "shrink w"});
    for (int i = 0; t && i < n; i++) {
        const rf_calib *c = &cals[i];
        char share[32] = "-";
        if (c->full_cycles > 0)
            snprintf(share, sizeof share, "%.2f%%", 100.0 * c->sample_cycles / c->full_cycles);
        rf_tbl_addf(t, "%s\t%d\t%.0f\t%s\t%.2f%%\t%d\t%.3f", c->kernel, c->samples,
                    c->sample_cycles, share, 100.0 * c->rms_rel, c->dof, c->shrink);
    }
    if (t) {
        rf_tbl_print(t, stdout);
        rf_tbl_free(t);
    }
    bool none = false;
    for (int i = 0; i < n; i++)
        none = none || cals[i].samples == 0;
    if (none && !mo->pf)
        printf("\n0 samples: a kernel too short for one window, or windows that would weigh "
               "under %.2f on the estimates (calibrate it alone for which); its estimates stay "
               "uncalibrated\n", RF_CALIB_WEIGHT_MIN);
    free(cals);
    return RF_OK;
}

/* --design hirf: the plain plan runs HI-RF windows only on a GPU with an
 * NVM main file under a register cache (calibrate/plan.c). */
static int need_hirf(const rf_gpu *gpu, const char *gpu_name, rf_err *err)
{
    if (rf_plan_has_hirf(gpu))
        return RF_OK;
    return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, "design",
                      "hirf: GPU %s has no NVM main register file under a register cache, so "
                      "its plan runs no HI-RF windows (use an NVM GPU such as volta-hirf)",
                      gpu_name);
}

/* Only rank 0 reports (every rank sees the same command line). */
static int fail(const rf_mpi *m, const rf_err *err)
{
    return m->rank == 0 ? rf_cli_fail(err) : (err->code == RF_EUSAGE ? 2 : 1);
}

static int calibrate_main(const rf_mpi *m, int argc, char **argv);

int rf_cmd_calibrate(int argc, char **argv)
{
    rf_err err;
    rf_err_clear(&err);
    rf_mpi m;
    if (rf_mpi_begin(&m, &err))
        return rf_cli_fail(&err);
    int status = rf_mpi_status(&m, calibrate_main(&m, argc, argv));
    rf_mpi_end(&m);
    return status;
}

static int calibrate_main(const rf_mpi *m, int argc, char **argv)
{
    rf_err err;
    rf_err_clear(&err);
    const char *gpu_name = NULL, *kernel_path = NULL, *out_path = DEFAULT_CALIB, *list = NULL;
    const char *budget_s = NULL, *seed_s = NULL, *design_s = NULL, *pool_s = NULL;
    const char *sms_s = NULL, *jobs_s = NULL;
    bool quiet = false, cold = false;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            if (m->rank == 0)
                usage(stdout);
            return 0;
        }
        if (rf_cli_flag(argv, i, "quiet")) {
            quiet = true;
            continue;
        }
        if (rf_cli_flag(argv, i, "cold")) {
            cold = true;
            continue;
        }
        const rf_cli_opt opts[] = {{"gpu", &gpu_name},        {"kernel", &kernel_path},
                                   {"output", &out_path},     {"budget-cycles", &budget_s},
                                   {"seed", &seed_s},         {"active-warps", &pool_s},
                                   {"design", &design_s},     {"kernels", &list},
                                   {"sms", &sms_s},           {"jobs", &jobs_s}};
        int rc = rf_cli_values(argc, argv, &i, opts, sizeof opts / sizeof opts[0], &err);
        if (rc == 0)
            rc = rf_cli_kernel_opt(argc, argv, &i, &ko, &err);
        if (rc < 0)
            return fail(m, &err);
        if (rc == 1)
            continue;
        rf_cli_unknown("calibrate", argv[i], &err);
        return fail(m, &err);
    }
    if (!gpu_name || (!kernel_path && !list)) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, gpu_name ? "kernel" : "gpu",
                   "required (rfkit calibrate --help)");
        return fail(m, &err);
    }
    if (kernel_path && list) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "kernels",
                   "give --kernel K or --kernels LIST, not both");
        return fail(m, &err);
    }
    /* The per-sample lines are progress: on a terminal only. */
    long jobs = sysconf(_SC_NPROCESSORS_ONLN) / m->local_size;
    if (jobs < 1)
        jobs = 1;
    if (jobs_s && rf_parse_long_in(jobs_s, 1, 1024, RF_CLI_WHERE, 0, "jobs", &jobs, &err))
        return fail(m, &err);
    rf_calib_opts co = {0, 1, quiet || list ? NULL : rf_progress_stream(), cold, NULL,
                        (int)jobs};
    if (budget_s && parse_u64("budget-cycles", budget_s, &co.budget_cycles, &err))
        return fail(m, &err);
    if (budget_s && co.budget_cycles == 0) {   /* 0 would silently mean the default */
        rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "budget-cycles",
                   "a budget of 0 cycles (give N >= 1, or leave it out for the default)");
        return fail(m, &err);
    }
    if (seed_s && parse_u64("seed", seed_s, &co.seed, &err))
        return fail(m, &err);
    ko.seed = seed_s;   /* the run sampled: its walk takes the windows' draws */
    long sms = 0;   /* 0: the GPU's */
    if (sms_s && rf_parse_long_in(sms_s, 1, 65536, RF_CLI_WHERE, 0, "sms", &sms, &err))
        return fail(m, &err);
    bool pf = design_s && (!strcmp(design_s, "rfc") || !strcmp(design_s, "ltrf"));
    /* hirf: the plain plan, which runs the HI-RF windows on an NVM GPU
     * (checked once the GPU is read, need_hirf below). */
    bool hirf = design_s && !strcmp(design_s, "hirf");
    long pool = 0;
    if (pool_s && !pf) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "active-warps",
                   "goes with --design rfc|ltrf (the register-cache windows' pool)");
        return fail(m, &err);
    }
    if (pool_s && rf_parse_long_in(pool_s, -1, 1024, RF_CLI_WHERE, 0, "active-warps", &pool, &err))
        return fail(m, &err);
    if (pf && cold) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "cold",
                   "the register-cache windows are always functionally warmed (--design %s)",
                   design_s);
        return fail(m, &err);
    }
    rf_design sw_design;
    if (design_s && !pf && !hirf) {
        /* A switching design: its windows join the ordinary plan. */
        rf_design_init(&sw_design);
        if (!strcmp(design_s, "sharing")) {
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "design",
                       "sharing has no free parameter to fit (its lock waits follow from the "
                       "code and Eq. 4): calibrate without --design");
            return fail(m, &err);
        }
        if (rf_design_set_kind(&sw_design, design_s, &err) < 0
            || !rf_sw_is_switching(sw_design.kind)) {
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "design",
                       "calibrate takes --design hirf, rfc, ltrf or finereg (got '%s')", design_s);
            return fail(m, &err);
        }
        if (!rf_calib_sw_fitted(sw_design.kind)) {
            /* Their windows fitted nothing that helped (calibrate/calibrate.c,
             * PRIOR_SW_SYNC), and they take budget from the ordinary ones. */
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "design",
                       "%s keeps its switching parameters at their priors (its windows did "
                       "not improve the estimates): calibrate without --design", design_s);
            return fail(m, &err);
        }
        co.design = &sw_design;
    }
    if (list) {
        char *buf;
        char **paths;
        int n;
        rf_gpu lgpu;
        int rc = parse_list(list, &buf, &paths, &n, &err);
        if (!rc)
            rc = rf_cli_load_gpu(gpu_name, &lgpu, &err);
        if (!rc && hirf)
            rc = need_hirf(&lgpu, gpu_name, &err);
        /* Every rank reads the list and the GPU: all go on, or none. */
        if (!rf_mpi_agree(m, !rc) && !rc)
            rc = rf_err_set(&err, RF_EUSAGE, list[0] == '@' ? list + 1 : "command line", 0, 0,
                            NULL, "another rank could not read the kernel list or the GPU "
                            "(do all ranks see the same files?)");
        if (!rc) {
            int n_sms = sms > 0 ? (int)sms : (lgpu.sms > 0 ? lgpu.sms : 1);
            many_opts mo = {&lgpu, gpu_name, &ko, co, pf, (int)pool, n_sms};
            rc = calibrate_many(m, &mo, paths, n, out_path, &err);
        }
        free(paths);
        free(buf);
        return rc ? fail(m, &err) : 0;
    }
    if (m->rank != 0)
        return 0;   /* one kernel: rank 0 calibrates it alone */

    rf_gpu gpu;
    rf_kernel *k;
    if (rf_cli_load(gpu_name, kernel_path, &ko, &gpu, &k, &err))
        return fail(m, &err);
    if (hirf && need_hirf(&gpu, gpu_name, &err)) {
        rf_kernel_destroy(k);
        return fail(m, &err);
    }
    rf_ipc_kernel kc;
    rf_calib cal;
    rf_calib_report *rep = calloc(1, sizeof *rep);   /* large: not on the stack */
    /* Over the GPU's register limit: spilled as estimate and simulate do. */
    int rc = !rep ? rf_err_set(&err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory")
                  : rf_kernel_fit_regs(k, &gpu, &err);
    rf_kernel_spread(k, sms > 0 ? (int)sms : (gpu.sms > 0 ? gpu.sms : 1));
    /* The characterisation's CTA walks (the run's draws, those of the
     * windows) serve the calibration's too. */
    rf_ctaset *walked = NULL;
    if (!rc)
        rc = rf_kchar_compute_walked_jobs(&gpu, k, &kc, !pf ? &walked : NULL,
                                          co.jobs, &err);
    if (!rc && pf) {
        pf_run *pr = calloc(1, sizeof *pr);
        rc = pr ? calibrate_pf(&gpu, gpu_name, k, &kc, co.budget_cycles, co.seed, (int)pool,
                               co.jobs, pr, &cal, &err)
                : rf_err_set(&err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        if (!rc)
            rc = rf_record_save(out_path, &cal, &err);
        if (!rc)
            print_pf(k, gpu_name, out_path, pr, &cal);
        free(pr);
        rf_kernel_destroy(k);
        free(rep);
        if (rc)
            rf_cli_place_kernel(&err, &ko, kernel_path);
        return rc ? fail(m, &err) : 0;
    }
    if (!rc)
        rc = rf_calib_run_walked(&gpu, gpu_name, k, &kc, walked, &co, &cal, rep, &err);
    rf_kchar_ctaset_free(walked);
    if (rc)
        rf_cli_place_kernel(&err, &ko, kernel_path);
    if (!rc)
        rc = rf_record_save(out_path, &cal, &err);
    if (rc) {
        rf_kernel_destroy(k);
        free(rep);
        return fail(m, &err);
    }

    printf("calibrate: kernel %s on %s, %d sample%s, record %s\n", k->name, gpu_name, rep->n,
           rep->n == 1 ? "" : "s", out_path);
    print_run(k);
    if (rep->n == 0) {
        /* No windows: say why, and what the record holds. */
        if (rep->not_run > 0)
            printf("no samples: the budget's %d window%s would weigh %.2f on the estimates, "
                   "under %.2f (CTA lifetimes of %.0f cycles against windows of %llu: they "
                   "would know the level less well than the uncalibrated model does); "
                   "--budget-cycles N runs them\n",
                   rep->not_run, rep->not_run == 1 ? "" : "s", rep->plan_weight,
                   RF_CALIB_WEIGHT_MIN,
                   rf_plan_cta_life(&rep->plan, rf_kernel_ctas(k)),
                   (unsigned long long)rep->plan.pt[0].cycles);
        else
            printf("no samples: the kernel's estimated %.0f cycles leave no window within the "
                   "budget\n", rep->plan.full_cycles);
        printf("record: no fitted parameters; estimates from it are uncalibrated, with the "
               "uncalibrated model's interval\n");
        printf("cost: 0 cycles sampled vs %.0f for a full run (estimate)\n",
               rep->plan.full_cycles);
        free(rep);
        rf_kernel_destroy(k);
        return 0;
    }
    rf_tbl *t = rf_tbl_new(7, (const char *const[]){"sample", "skip CTAs", "warm-up", "window",
                                                    "IPC sampled", "IPC fit", "residual"});
    for (int i = 0; t && i < rep->n; i++) {
        const rf_calib_sample *s = &rep->s[i];
        rf_tbl_addf(t, "%s\t%llu\t%llu\t%llu\t%.4f\t%.4f\t%+.2f%%", s->label,
                    (unsigned long long)s->skip_ctas, (unsigned long long)s->warmup,
                    (unsigned long long)s->cycles, s->ipc, s->ipc_fit,
                    100.0 * (s->ipc_fit - s->ipc) / s->ipc);
    }
    if (t) {
        rf_tbl_print(t, stdout);
        rf_tbl_free(t);
    }
    if (rep->plan.settle > 0)
        printf("settled: windows shorter than a CTA lifetime (%.0f cycles) traded for %d "
               "sample%s after a timed warm-up%s\n",
               rf_plan_cta_life(&rep->plan, rf_kernel_ctas(k)), rep->n, rep->n == 1 ? "" : "s",
               rep->plan.one_state ? "; one, as every CTA of the run runs one path and "
                                     "windows anywhere would read one state" : "");
    printf("\n");
    t = rf_tbl_new(5, (const char *const[]){"parameter", "value", "std. error", "default", "bounds"});
    for (int j = 0; t && j < cal.nfit; j++) {
        const rf_mparam *mp = &rf_ipc_mparams[cal.fit_idx[j]];
        rf_tbl_addf(t, "%s\t%.4g\t%.3g\t%.4g\t[%g, %g]", mp->name, rf_mparam_get(mp, &cal.params),
                    cal.cov[j][j] > 0 ? sqrt(cal.cov[j][j]) : 0.0, mp->def, mp->lo, mp->hi);
    }
    if (t) {
        rf_tbl_print(t, stdout);
        rf_tbl_free(t);
    }
    /* HI-RF windows: their conflict rates and the locality set from the
     * concatenated and TEA ones. */
    static const char *const ixname[RF_NRCINDEX] = {"concat", "tea", "full"};
    double cf[RF_NRCINDEX] = {-1, -1, -1};
    bool any = false;
    for (int i = 0; i < rep->n; i++) {
        int ix = rep->plan.pt[i].design.index;
        if (rep->plan.pt[i].design.kind == RF_DESIGN_HIRF && ix >= 0 && ix < RF_NRCINDEX) {
            cf[ix] = rep->s[i].conflict;
            any = true;
        }
    }
    if (any) {
        printf("\nregister cache: conflicts sampled");
        for (int ix = 0, n = 0; ix < RF_NRCINDEX; ix++)
            if (cf[ix] >= 0)
                printf("%s %s %.1f%%", n++ ? "," : "", ixname[ix], 100.0 * cf[ix]);
        printf("; locality rc_locality %.3f", cal.params.rc_locality);
        if (cal.meas_live > 0)
            printf("; warps not exited %.0f%% of resident (the cache's population)",
                   100.0 * cal.meas_live);
        printf("\n");
    }
    printf("\nfit: chi^2 %.3g -> %.3g (relative), rms residual %.2f%%, %d dof, %zu iterations\n",
           rep->fit.chisq0, rep->fit.chisq, 100.0 * cal.rms_rel, cal.dof, rep->fit.iters);
    if (cal.samples > 0)
        printf("shrink: w = %.3f (correction %+.2f%% at the default design; the windows' "
               "mean residual about the fit %+.2f%% +- %.2f%%%s): estimate = uncalibrated x "
               "(calibrated / uncalibrated)^w\n",
               cal.shrink, 100.0 * rep->corr_default, 100.0 * cal.win_bias, 100.0 * cal.win_se,
               rep->hirf_bias != 0 ? ", a bias of the level: the fit at a bound" : "");
    if (rep->level_draws == 1 && rep->level_run_ctas < rep->level_ctas)
        printf("level: %.4f (population model over the wave formula) from the run's %s%ld CTAs, "
               "%ld of them run (the first and the last; the steady middle at the first's "
               "rate)\n",
               cal.level, rep->level_ctas < rf_kernel_ctas(k) ? "first " : "", rep->level_ctas,
               rep->level_run_ctas);
    else if (rep->level_draws == 1)
        printf("level: %.4f (population model over the wave formula) from the run's %s%ld CTAs\n",
               cal.level, rep->level_ctas < rf_kernel_ctas(k) ? "first " : "", rep->level_ctas);
    else if (rep->level_draws > 1)
        printf("level: %.4f (population model over the wave formula), the mean of %d draws of "
               "%ld CTAs\n", cal.level, rep->level_draws, rep->level_ctas);
    if (cal.level_var > 0)
        printf("interval: %.2f%% (sd) joins every estimate's relative error (HI-RF "
               "windows: their register-cache ratios against the estimates' %.2f%% rms)\n",
               100.0 * sqrt(cal.level_var), 100.0 * sqrt(rep->hirf_ratio_var));
    printf("cost: %.0f cycles sampled vs %.0f for a full run (estimate): %.2f%%\n", rep->sim_cycles,
           rep->plan.full_cycles, 100.0 * rep->sim_cycles / rep->plan.full_cycles);
    if (co.budget_cycles > 0 && rep->sim_cycles > (double)co.budget_cycles)
        fprintf(stderr, "rfkit: note: the samples cost %.0f cycles, more than --budget-cycles %llu: "
                "every window runs at least its minimum length\n",
                rep->sim_cycles, (unsigned long long)co.budget_cycles);
    free(rep);
    rf_kernel_destroy(k);
    return 0;
}
