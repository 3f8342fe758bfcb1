/* cmd_estimate.c - rfkit estimate: occupancy, IPC, cycles, energy and area of
 * one kernel under one register-file design, from the closed-form models
 * (calibrated when a calibration record for the GPU and kernel exists).
 * The run described is the one rfkit simulate and rfkit calibrate run by
 * default: the grid spread round-robin over the GPU's SMs (--sms N), the
 * busiest SM's share (SM 0: ceil(grid / N) CTAs) giving the IPC and the
 * kernel's cycles, energy summed over the SMs in use; a record applies to
 * the SM count it was made for (calibrate/record.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../analytic/design.h"
#include "../analytic/kchar.h"
#include "../calibrate/extrapolate.h"
#include "../calibrate/record.h"
#include "../common/pool.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/regalloc.h"
#include "../results/csvout.h"
#include "../results/table.h"
#include "cli.h"

#define DEFAULT_CALIB "rfkit-calib.csv"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit estimate --gpu G --kernel K [--design D] [design parameters]\n"
            "                      [--calib FILE] [--csv] [--entry NAME] [--grid X,Y,Z]\n"
            "                      [--block X,Y,Z] [--smem B] [--regs N] [--sms N]\n"
            "                      [--seed S]\n\n"
            "Estimate occupancy, IPC, whole-kernel cycles, register-file energy and area\n"
            "from the closed-form models.\n\n"
            "Which run: by default the GPU's SMs share the grid (CTA c goes to SM c mod\n"
            "SMs, one SM's share of the DRAM bandwidth each) and IPC and cycles are the\n"
            "busiest SM's, SM 0 running ceil(grid / SMs) CTAs: the run rfkit simulate and\n"
            "rfkit calibrate make by default.  --sms N spreads the grid over N SMs; --sms 1\n"
            "is the whole grid on one SM.  Energy counts every SM in use.  The kernel's\n"
            "CTAs are walked on every online CPU: the figures are the same on any number.\n"
            "The walk takes the branch, loop and cache draws of simulate's run with the\n"
            "same --seed (default 1): a kernel whose paths or hits are drawn (a profile's\n"
            "trip and taken, hit rates below 1) is a different run under each seed, and\n"
            "its estimate follows the run named.\n\n"
            "With a calibration record (--calib FILE, default %s when\n"
            "present) the fitted parameters are used and IPC carries a 95%% prediction\n"
            "interval; otherwise the uncalibrated defaults are used.  A record\n"
            "applies to the kernel file, entry, launch (grid, block, smem, registers), SM\n"
            "count and seed it was made for: with none for them the estimate is\n"
            "uncalibrated (calibrated=0), and one made from other code or another spec is\n"
            "refused.\n"
            "Every option but --csv is also a column of rfkit batch, with the same name\n"
            "and values.\n\n"
            "options:\n",
            DEFAULT_CALIB);
    rf_point_help(out, false);
    fprintf(out, "  --csv             one header line and one row\n"
                 RF_CLI_STEAL_HELP
                 "\ndesign parameters:\n");
    rf_param_help(out, rf_design_params, rf_design_nparams);
}

static void print_csv(const char *gpu, const rf_kernel *k, const rf_design *d,
                      const rf_estimate *e)
{
    rf_csvw w;
    rf_csvw_init(&w, stdout);
    static const char *const cols[] = {"gpu", "kernel", "design", "ctas_per_sm", "warps_per_sm",
                                       "occupancy", "limiter", "ipc", "ipc_lo", "ipc_hi",
                                       "cycles", "cycles_lo", "cycles_hi", "energy_nj",
                                       "area_mm2", "bound", "calibrated", "profile_defaults",
                                       "spilled_regs"};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
        rf_csvw_field(&w, cols[i]);
#define SW_NAME_(col, field) rf_csvw_field(&w, #col);
    RF_SW_COUNTER_COLUMNS(SW_NAME_)
    RF_RC_COUNTER_COLUMNS(SW_NAME_)
#undef SW_NAME_
    rf_csvw_field(&w, "seed");      /* the run described, as simulate's column */
    rf_csvw_end(&w);
    rf_csvw_field(&w, gpu);
    rf_csvw_field(&w, k->name);
    rf_csvw_field(&w, rf_design_name(d->kind));
    rf_csvw_int(&w, e->occ.ctas_per_sm);
    rf_csvw_int(&w, e->occ.warps_per_sm);
    rf_csvw_num(&w, e->occ.occupancy);
    rf_csvw_field(&w, rf_occ_limiter_name(e->occ.limiter));
    rf_csvw_num(&w, e->ipc);
    rf_csvw_num(&w, e->ipc_lo);
    rf_csvw_num(&w, e->ipc_hi);
    rf_csvw_round(&w, e->cycles);
    rf_csvw_round(&w, e->cycles_lo);
    rf_csvw_round(&w, e->cycles_hi);
    rf_csvw_num(&w, e->energy_nj);
    rf_csvw_num(&w, e->area_mm2);
    rf_csvw_field(&w, rf_ipc_bound_name(e->steady.bound));
    rf_csvw_int(&w, e->calibrated ? 1 : 0);
    rf_csvw_int(&w, k->psrc.defaults);
    rf_csvw_int(&w, k->func->spill_words);
#define SW_VALUE_(col, field) rf_csvw_num(&w, e->occc.field);
    RF_SW_COUNTER_COLUMNS(SW_VALUE_)
#undef SW_VALUE_
#define RC_VALUE_(col, field) rf_csvw_num(&w, e->rcc.field);
    RF_RC_COUNTER_COLUMNS(RC_VALUE_)
#undef RC_VALUE_
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)k->profile.seed);
    rf_csvw_field(&w, seed);
    rf_csvw_end(&w);
    rf_csvw_flush(&w);
    rf_csvw_free(&w);
}

static void print_human(const char *gpu, const rf_kernel *k, const rf_design *d,
                        const rf_estimate *e, const char *calib_note)
{
    char a[64], b[64], c[64];
    printf("estimate: kernel %s on %s, design %s", k->name, gpu, rf_design_name(d->kind));
    if (k->profile.seed != 1)
        printf(", seed %llu", (unsigned long long)k->profile.seed);
    printf("\n\n");
    rf_tbl *t = rf_tbl_new(2, (const char *const[]){"quantity", "value"});
    if (!t)
        return;
    rf_tbl_addf(t, "occupancy\t%d CTAs, %d warps per SM (%.0f%%), limited by %s",
                  e->occ.ctas_per_sm, e->occ.warps_per_sm, 100.0 * e->occ.occupancy,
                  rf_occ_limiter_name(e->occ.limiter));
    a[rf_fmt_num(a, e->ipc, 4)] = '\0';
    if (e->calibrated && isfinite(e->ipc_lo)) {
        b[rf_fmt_num(b, e->ipc_lo, 4)] = '\0';
        c[rf_fmt_num(c, e->ipc_hi, 4)] = '\0';
        rf_tbl_addf(t, "IPC (warp insts/cycle/SM)\t%s  [%s, %s] 95%% prediction interval", a, b, c);
    } else {
        rf_tbl_addf(t, "IPC (warp insts/cycle/SM)\t%s  (uncalibrated)", a);
    }
    rf_tbl_addf(t, "steady-state bound\t%s (bank utilisation %.2f, read wait %.2f cycles)",
                  rf_ipc_bound_name(e->steady.bound), e->steady.rho, e->steady.read_wait);
    if (e->pool_warps > 0)
        rf_tbl_addf(t, "two-level pool\t%.0f warps; %.0f%% of its places hold an issuing warp "
                       "of their own scheduler (pool balance), limit %.3f",
                    e->pool_warps, 100.0 * e->pool_balance, e->steady.lim_pool);
    if (e->calibrated && isfinite(e->cycles_lo))
        rf_tbl_addf(t, "cycles\t%.0f  [%.0f, %.0f]", e->cycles, e->cycles_lo, e->cycles_hi);
    else
        rf_tbl_addf(t, "cycles\t%.0f", e->cycles);
    rf_tbl_addf(t, "CTAs on the busiest SM\t%ld", e->ctas_per_sm);
    if (k->func->spill_words > 0)
        rf_tbl_addf(t, "spilled registers\t%d (capped at the GPU's %d per thread; local "
                       "memory)", k->func->spill_words, k->regs);
    rf_tbl_addf(t, "RF energy (nJ)\t%.6g  (dynamic %.6g, leakage %.6g)", e->energy_nj,
                  e->energy.dynamic_nj, e->energy.leakage_nj);
    rf_tbl_addf(t, "RF area per SM (mm^2)\t%.4f  (array %.4f, periphery %.4f, crossbar %.4f, "
                     "cache %.4f, overhead %.5f)",
                  e->area_mm2, e->area.array_mm2, e->area.periph_mm2, e->area.xbar_mm2,
                  e->area.cache_mm2, e->area.overhead_mm2);
    if (d->kind == RF_DESIGN_HIRF)
        rf_tbl_addf(t, "register cache\t%.1f%% of writes evict (write-backs), %.1f%% of reads "
                       "from NVM (%d pairs on %d lines)", 100.0 * e->rc.conflict,
                      100.0 * e->rc.read_miss, e->rc.pairs, e->rc.lines_used);
    if (d->kind == RF_DESIGN_RFC)
        rf_tbl_addf(t, "register cache\t%.1f%% of reads hit, %.1f%% of results written back "
                       "(miss stall %.3f cycles per instruction)",
                    100.0 * e->pf.rfc_hit, 100.0 * e->pf.rfc_wb, e->pf.stall_rfc);
    if (d->kind == RF_DESIGN_LTRF)
        rf_tbl_addf(t, "register cache\tPREFETCH stall %.3f, activation stall %.3f cycles per "
                       "instruction; %.1f%% of results land in the cache",
                    e->pf.stall_pf, e->pf.stall_act, 100.0 * e->pf.cache_writes);
    rf_tbl_addf(t, "calibration\t%s", calib_note);
    rf_tbl_print(t, stdout);
    rf_tbl_free(t);
    char line[512];
    rf_kernel_profile_line(k, line, sizeof line);
    printf("%s\n", line);
}

/* The estimate's two walks of the kernel, jobs of one pool: 0 its
 * characteristics (kc), 1 the register-cache figures of its code (pk). */
typedef struct walks {
    const rf_gpu *gpu;
    const rf_kernel *k;
    const rf_design *d;
    const rf_shape *shape;
    int jobs;
    unsigned rows;
    rf_ipc_kernel kc;
    rf_pf_kernel pk;
    rf_err err[2];
} walks;

static int walk_job(int i, void *ctx)
{
    walks *w = ctx;
    if (i == 0)
        return rf_kchar_compute_rows(w->gpu, w->k, &w->kc, w->jobs, w->rows, &w->err[0]);
    return rf_extrap_pf_code(w->gpu, w->d, w->k->func, &w->k->profile, w->shape, w->jobs, &w->pk,
                             &w->err[1]);
}

/* Both walks, side by side where there are CPUs for it; the first error
 * (in job order) into *err. */
static int run_walks(walks *w, rf_err *err)
{
    rf_err_clear(&w->err[0]);
    rf_err_clear(&w->err[1]);
    return rf_pool_run(w->jobs, 2, walk_job, w, w->err, err);
}

int rf_cmd_estimate(int argc, char **argv)
{
    rf_err err;
    rf_err_clear(&err);
    bool csv = false;
    rf_point pt;
    rf_point_init(&pt);
    rf_design d;
    rf_design_init(&d);
    int steal[2] = {-1, -1};

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (rf_cli_flag(argv, i, "csv")) {
            csv = true;
            continue;
        }
        int rc = rf_cli_point_opt(argc, argv, &i, &pt, &err);
        if (rc < 0)
            return rf_cli_fail(&err);
        if (rc == 1)
            continue;
        rc = rf_cli_design_param(argc, argv, &i, &d, steal, &err);
        if (rc < 0)
            return rf_cli_fail(&err);
        if (rc == 1)
            continue;
        rf_cli_unknown("estimate", argv[i], &err);
        return rf_cli_fail(&err);
    }
    const char *gpu_name = pt.text[RF_PF_GPU], *kernel_path = pt.text[RF_PF_KERNEL];
    const char *design = pt.text[RF_PF_DESIGN], *calib = pt.text[RF_PF_CALIB];
    if (!gpu_name || !kernel_path) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, gpu_name ? "kernel" : "gpu",
                   "required (rfkit estimate --help)");
        return rf_cli_fail(&err);
    }
    if (design && rf_cli_design_kind(&d, design, &err))
        return rf_cli_fail(&err);
    rf_design_steal_flags(&d, steal[0], steal[1]);
    rf_kernel_opts ko;
    rf_point_kernel_opts(&pt, &ko);

    rf_gpu gpu;
    rf_kernel *k;
    if (rf_cli_load(gpu_name, kernel_path, &ko, &gpu, &k, &err))
        return rf_cli_fail(&err);
    if (rf_kernel_fit_regs(k, &gpu, &err)) {   /* over the limit: spill */
        rf_kernel_destroy(k);
        return rf_cli_fail(&err);
    }
    /* The run described: the grid spread over the GPU's SMs (or --sms N),
     * the busiest SM's share; its instructions are those of its CTAs. */
    int sms = pt.sms > 0 ? pt.sms : (gpu.sms > 0 ? gpu.sms : 1);
    rf_kernel_spread(k, sms);
    /* The kernel's walks on every online CPU (the same figures on any
     * number of threads): its characteristics, with the pool balance of
     * this design's pool alone (the rows the estimate reads), beside the
     * register-cache figures of its code (RFC, LTRF). */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    rf_shape shape = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem,
                      rf_kernel_grid_ctas(k), sms};
    walks w = {.gpu = &gpu, .k = k, .d = &d, .shape = &shape, .jobs = ncpu > 1 ? (int)ncpu : 1,
               .rows = rf_ipc_pool_rows(rf_extrap_pool_per_sched(&gpu, &d))};
    int rc = run_walks(&w, &err);
    if (rc) {
        rf_kernel_destroy(k);
        rf_cli_place_kernel(&err, &ko, kernel_path);
        return rf_cli_fail(&err);
    }

    rf_calib cal;
    const rf_calib *use = NULL;
    char note[RF_ERR_MSG_MAX + 128];
    const char *cfile = calib ? calib : DEFAULT_CALIB;
    rf_err cerr;
    rf_err_clear(&cerr);
    rc = rf_record_load_kernel(cfile, gpu_name, k, &cal, &cerr);
    if (rc == RF_OK) {
        use = &cal;
        if (cal.samples == 0 && cal.nfit == 0)
            snprintf(note, sizeof note,
                     "%s (no samples: the kernel too short for a window, or its windows not "
                     "worth running; estimates uncalibrated)", cfile);
        else if (cal.level_apart)
            snprintf(note, sizeof note,
                     "%s (%d samples, %d dof, rms %.2f%%, shrink w %.3f, level's weight %.3f)",
                     cfile, cal.samples, cal.dof, 100.0 * cal.rms_rel, cal.shrink,
                     cal.level_shrink);
        else
            snprintf(note, sizeof note, "%s (%d samples, %d dof, rms %.2f%%, shrink w %.3f)",
                     cfile, cal.samples, cal.dof, 100.0 * cal.rms_rel, cal.shrink);
    } else if (rc == RF_EUNKNOWN || (rc == RF_EIO && !calib)) {
        char key[RF_CALIB_NAME_MAX];
        rf_calib_key(k, key, sizeof key);
        snprintf(note, sizeof note, "none (no record for %s, %s in %s; run rfkit calibrate%s)",
                 gpu_name, key, cfile, pt.sms > 0 ? " with the same --sms" : "");
    } else {
        rf_kernel_destroy(k);
        /* An unreadable or malformed record named on the command line is
         * bad input. */
        if (rc == RF_EIO)
            cerr.code = RF_EUSAGE;
        return rf_cli_fail(&cerr);
    }

    rf_estimate e;
    rc = rf_extrap_estimate_pk(&gpu, &d, &w.kc, &shape, use, &w.pk, &e, &err);
    if (rc) {
        rf_kernel_destroy(k);
        rf_cli_place_kernel(&err, &ko, kernel_path);
        return rf_cli_fail(&err);
    }
    if (csv)
        print_csv(gpu_name, k, &d, &e);
    else
        print_human(gpu_name, k, &d, &e, note);
    rf_kernel_destroy(k);
    return 0;
}
