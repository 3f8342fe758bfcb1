/* cmd_calibrate.c - rfkit calibrate: run the sampling plan on the sampler,
 * fit the IPC model's free parameters, print the fit and write the
 * calibration record (atomically) for rfkit estimate and rfkit batch. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/pffit.h"
#include "../calibrate/record.h"
#include "../common/param.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../results/table.h"
#include "cli.h"

#define DEFAULT_CALIB "rfkit-calib.csv"

#define PF_SEEDS 5      /* runs averaged per register-cache sample */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit calibrate --gpu G --kernel K [-o FILE] [--budget-cycles N] [--seed S]\n"
            "                       [--entry NAME] [--grid X,Y,Z] [--block X,Y,Z] [--smem B]\n"
            "                       [--regs N] [--quiet] [--cold] [--design rfc|ltrf [--seeds N]]\n\n"
            "Run short sampler windows at a few design points (warm-up, window, several\n"
            "places of the kernel), fit the IPC model's free parameters with GSL, print the\n"
            "parameters, the residuals and the cycles the samples cost against a full run,\n"
            "and write the calibration record for this GPU and kernel into FILE (default\n"
            "%s; other GPU/kernel pairs in it are kept).\n\n"
            "options:\n"
            "  --budget-cycles N  cycles the samples may cost, warm-ups included\n"
            "                     (default: 4.25%% of the estimated full run, so that the\n"
            "                     samples stay under 5%% of the real one)\n"
            "  -o FILE            the calibration record to write (also --output)\n"
            "  --seed S           sampler seed (default 1)\n"
            "  --quiet            no per-sample progress lines\n"
            "  --cold             windows from a cold start.  By default each window\n"
            "                     starts after a few CTA turnovers walked untimed\n"
            "                     (functional warming), so that it sees the mid-run mix\n"
            "                     of CTA ages rather than a cold start's short CTAs, and\n"
            "                     one more rate factor is fitted\n"
            "  --design rfc|ltrf  calibrate the register-cache model instead (seed 004):\n"
            "                     full runs of LTRF #1, #2, #7, LTRF+ #5 and RFC #1, #2, #7\n"
            "                     (calibrate/pffit.c); its record serves rfkit estimate\n"
            "                     for RFC, LTRF and LTRF+ design points (keep it in its\n"
            "                     own file with -o)\n"
            "  --seeds N          with --design: each sample the mean of N runs with seeds\n"
            "                     S..S+N-1 (default %d; one run's branch and cache draws\n"
            "                     can move a point by 10-25%%)\n"
            RF_CLI_KERNEL_HELP,
            DEFAULT_CALIB, PF_SEEDS);
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

/* --design rfc|ltrf: seven full sampler points, each the mean of `seeds`
 * runs, and the register-cache fit. */
static int calibrate_pf(const rf_gpu *gpu, const char *gpu_name, const rf_kernel *k,
                        const rf_ipc_kernel *kc, uint64_t seed, int seeds,
                        const char *out_path, rf_err *err)
{
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    rf_sim_opts o;
    rf_sim_opts_init(&o);
    o.seed = seed;
    rf_pffit_obs obs[RF_PFFIT_N];
    rf_calib cal;
    rf_calib_init_kernel(&cal, gpu_name, k);
    int rc = rf_pffit_sample_seeds(gpu, &d, k, &o, seeds, obs, err);
    if (!rc)
        rc = rf_pffit_fit(gpu, k, kc, obs, &cal, err);
    if (!rc)
        rc = rf_record_save(out_path, &cal, err);
    if (rc)
        return rc;
    printf("calibrate: kernel %s on %s, register-cache model, %d points x %d seeds of full "
           "runs, record %s\n\n", k->name, gpu_name, RF_PFFIT_N, seeds, out_path);
    rf_tbl *t = rf_tbl_new(3, (const char *const[]){"sample", "cycles", "IPC sampled"});
    for (int i = 0; t && i < RF_PFFIT_N; i++)
        rf_tbl_addf(t, "%s%s #%d\t%llu\t%.4f", rf_design_name(obs[i].design.kind),
                    obs[i].design.plus ? "+" : "", obs[i].design.rf_config,
                    (unsigned long long)obs[i].cycles, obs[i].ipc);
    if (t) {
        rf_tbl_print(t, stdout);
        rf_tbl_free(t);
    }
    printf("\n");
    for (int j = 0; j < cal.nfit; j++) {
        const rf_mparam *mp = &rf_ipc_mparams[cal.fit_idx[j]];
        printf("  %-13s %.4g (default %.4g)\n", mp->name, rf_mparam_get(mp, &cal.params), mp->def);
    }
    printf("fit: rms residual %.2f%%, %d dof\n", 100.0 * cal.rms_rel, cal.dof);
    return 0;
}

int rf_cmd_calibrate(int argc, char **argv)
{
    rf_err err;
    rf_err_clear(&err);
    const char *gpu_name = NULL, *kernel_path = NULL, *out_path = DEFAULT_CALIB;
    const char *budget_s = NULL, *seed_s = NULL, *seeds_s = NULL, *design_s = NULL;
    bool quiet = false, cold = false;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
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
                                   {"seed", &seed_s},         {"seeds", &seeds_s},
                                   {"design", &design_s}};
        int rc = rf_cli_values(argc, argv, &i, opts, sizeof opts / sizeof opts[0], &err);
        if (rc == 0)
            rc = rf_cli_kernel_opt(argc, argv, &i, &ko, &err);
        if (rc < 0)
            return rf_cli_fail(&err);
        if (rc == 1)
            continue;
        rf_cli_unknown("calibrate", argv[i], &err);
        return rf_cli_fail(&err);
    }
    if (!gpu_name || !kernel_path) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, gpu_name ? "kernel" : "gpu",
                   "required (rfkit calibrate --help)");
        return rf_cli_fail(&err);
    }
    rf_calib_opts co = {0, 1, quiet ? NULL : stderr, cold};
    if (budget_s && parse_u64("budget-cycles", budget_s, &co.budget_cycles, &err))
        return rf_cli_fail(&err);
    if (budget_s && co.budget_cycles == 0) {   /* 0 would silently mean the default */
        rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "budget-cycles",
                   "a budget of 0 cycles (give N >= 1, or leave it out for the default)");
        return rf_cli_fail(&err);
    }
    if (seed_s && parse_u64("seed", seed_s, &co.seed, &err))
        return rf_cli_fail(&err);
    long seeds = PF_SEEDS;
    if (seeds_s && !design_s) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "seeds",
                   "goes with --design rfc|ltrf (got '%s' without it)", seeds_s);
        return rf_cli_fail(&err);
    }
    if (seeds_s && rf_parse_long_in(seeds_s, 1, 64, RF_CLI_WHERE, 0, "seeds", &seeds, &err))
        return rf_cli_fail(&err);
    if (design_s && strcmp(design_s, "rfc") && strcmp(design_s, "ltrf")) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "design",
                   "calibrate takes --design rfc or ltrf (got '%s')", design_s);
        return rf_cli_fail(&err);
    }

    rf_gpu gpu;
    rf_kernel *k;
    if (rf_cli_load(gpu_name, kernel_path, &ko, &gpu, &k, &err))
        return rf_cli_fail(&err);
    rf_ipc_kernel kc;
    rf_calib cal;
    rf_calib_report *rep = calloc(1, sizeof *rep);   /* large: not on the stack */
    int rc = rep ? rf_kchar_compute(&gpu, k, &kc, &err)
                 : rf_err_set(&err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    if (!rc && design_s) {
        rc = calibrate_pf(&gpu, gpu_name, k, &kc, co.seed, (int)seeds, out_path, &err);
        rf_kernel_destroy(k);
        free(rep);
        if (rc)
            rf_cli_place_kernel(&err, &ko, kernel_path);
        return rc ? rf_cli_fail(&err) : 0;
    }
    if (!rc)
        rc = rf_calib_run(&gpu, gpu_name, k, &kc, &co, &cal, rep, &err);
    if (rc)
        rf_cli_place_kernel(&err, &ko, kernel_path);
    if (!rc)
        rc = rf_record_save(out_path, &cal, &err);
    if (rc) {
        rf_kernel_destroy(k);
        free(rep);
        return rf_cli_fail(&err);
    }

    printf("calibrate: kernel %s on %s, %d samples, record %s\n\n", k->name, gpu_name, rep->n,
           out_path);
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
    /* HI-RF windows: their conflict rates and the localities set from them. */
    double cf[2] = {-1, -1};
    for (int i = 0; i < rep->n; i++)
        if (rep->plan.pt[i].design.kind == RF_DESIGN_HIRF)
            cf[rep->plan.pt[i].design.index != RF_RC_CONCAT] = rep->s[i].conflict;
    if (cf[0] >= 0 || cf[1] >= 0) {
        printf("\nregister cache: conflicts sampled");
        if (cf[0] >= 0)
            printf(" concat %.1f%%", 100.0 * cf[0]);
        if (cf[1] >= 0)
            printf("%s tea %.1f%%", cf[0] >= 0 ? "," : "", 100.0 * cf[1]);
        printf("; locality rc_locality %.3f", cal.params.rc_locality);
        if (cal.params.rc_locality_tea >= 0)
            printf(", rc_locality_tea %.3f (TEA, fully associative)", cal.params.rc_locality_tea);
        if (cal.params.rc_rloc >= 0 || cal.params.rc_rloc_tea >= 0) {
            printf("; reads (from the windows' read misses)");
            if (cal.params.rc_rloc >= 0)
                printf(" rc_rloc %.3f", cal.params.rc_rloc);
            if (cal.params.rc_rloc_tea >= 0)
                printf("%s rc_rloc_tea %.3f", cal.params.rc_rloc >= 0 ? "," : "",
                       cal.params.rc_rloc_tea);
        }
        if (cal.meas_live > 0)
            printf("; warps not exited %.0f%% of resident (the cache's population)",
                   100.0 * cal.meas_live);
        printf("\n");
    }
    printf("\nfit: chi^2 %.3g -> %.3g (relative), rms residual %.2f%%, %d dof, %zu iterations\n",
           rep->fit.chisq0, rep->fit.chisq, 100.0 * cal.rms_rel, cal.dof, rep->fit.iters);
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
