/* cmd_simulate.c - `rfkit simulate`: run the cycle-level SM model.
 *
 *   rfkit simulate --gpu G --kernel K --design baseline|stealing [--banks N]
 *       [--collectors N] [--scheduler lrr|gto|two-level] [--read-steal]
 *       [--write-steal] [--cycles N [--warmup N] | --full]
 *       [--sms N [--side-by-side]] [--seed S] [--csv]
 *
 *   rfkit simulate --gpu G --kernel K --design rfc|ltrf [--plus] --tolerable
 *       [--loss F] [--step X] [--max-x X] [run options] [--csv]
 *
 * Which run: the GPU's SMs sharing the grid (--sms N, default the GPU's
 * count), CTAs dealt round-robin, and the busiest SM's share simulated:
 * SM 0 running ceil(grid / N) CTAs, grid indices 0, N, 2N, ... (inputs/
 * kernel.h rf_kernel_spread), with one SM's share of the DRAM bandwidth.
 * This is the run `estimate` and `calibrate` describe by default; --sms 1
 * is the whole grid on one SM.  --side-by-side simulates the N SMs
 * together instead, sharing N SMs' DRAM bandwidth and each taking the
 * grid's next CTA when a slot frees (at most 64).
 * Design parameters are the rf_design_params table (any of them may be
 * given); --design stealing without --read-steal/--write-steal turns both
 * on.  --tolerable sweeps the main-RF latency multiplier (latency_x) and
 * prints the maximum tolerable latency (sampler/tolerable.c).  Default run
 * length: --full (every CTA of the grid).  When stderr is a terminal a
 * progress line (cli/progress.h) counts the CTAs done of the grid's, or
 * the cycles of the warm-up and window with --cycles, with the rate and the
 * time left; piped, the command prints its results only.  SIGINT ends a
 * run with exit status 130 (cli/main.c).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/design.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/regalloc.h"
#include "../sampler/sim.h"
#include "../sampler/tolerable.h"
#include "../results/csvout.h"
#include "cli.h"
#include "progress.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit simulate --gpu G --kernel K [--design D] [design options]\n"
            "                      [--cycles N [--warmup N] | --full] [--sms N [--side-by-side]]\n"
            "                      [--seed S] [--csv]\n\n"
            "Cycle-level model of one SM running its share of the kernel's grid: warps\n"
            "walking the CFG, scoreboard, warp schedulers, operand collectors,\n"
            "single-ported banks with an arbiter (writes first), execution units,\n"
            "L1/L2/DRAM latencies, and bank stealing (seed 001).  Prints IPC, stalls,\n"
            "conflict penalties, bank utilisation, write-back breakdown and access counts.\n\n"
            "Which run: by default the GPU's SMs share the grid (CTA c goes to SM c mod\n"
            "SMs) and the busiest one, SM 0, is simulated: ceil(grid / SMs) CTAs, grid\n"
            "indices 0, SMs, 2 SMs, ..., with one SM's share of the DRAM bandwidth.\n"
            "Its cycles are the kernel's, as rfkit estimate and rfkit calibrate give them\n"
            "by default; counters and energy are that SM's.  --sms 1 runs the whole grid\n"
            "on one SM.\n\n");
    fprintf(out,
            "options:\n"
            "  --gpu G          GPU preset or file (rfkit gpus)\n"
            "  --kernel K       kernel spec (.spec), PTX or SASS file\n"
            RF_CLI_KERNEL_HELP
            "  --design D       baseline (default), stealing, hirf (register cache over an\n"
            "                   NVM file: --index, --wbits/--rbits, --rc-entries, --assign),\n"
            "                   rfc (16 KB LRU register cache over main file --rf-config K),\n"
            "                   ltrf (register-interval PREFETCH, two-level pool\n"
            "                   --active-warps, --interval-regs, --plus for LTRF+; main\n"
            "                   file --rf-config K, --latency-x X overrides its latency),\n"
            "                   ideal, or another design's name (run on the banked file)\n"
            RF_CLI_STEAL_HELP
            "  --full           run every CTA of the run to completion (default)\n"
            "  --cycles N       measure a window of N cycles after the warm-up\n"
            "  --warmup N       cycles simulated before the window (default 0)\n"
            "  --skip-ctas N    start as if N CTAs of the simulated share had completed\n"
            "  --warm-ctas N    functional warming: walk N CTAs before --skip-ctas untimed\n"
            "                   (paths, no timing), so the window starts with the CTA ages\n"
            "                   of a run in progress (as calibrate's windows; at most\n"
            "                   --skip-ctas)\n"
            "  --sms N          SMs the grid is spread over (default: the GPU's); the busiest\n"
            "                   SM's share is simulated (1: the whole grid on one SM)\n"
            "  --side-by-side   simulate the --sms N SMs together instead (at most 64),\n"
            "                   sharing N SMs' DRAM bandwidth, each taking the grid's next\n"
            "                   CTA when a slot frees; IPC and counters are per SM mean\n"
            "                   and sum (Register Sharing's --dyn acts on SMs 1..N-1)\n"
            "  --bank-map M     swizzle (bank = reg + warp mod banks, default) or modulo\n"
            "  --collector-pool P  typed (per unit class 6 ALU : 8 SFU : 2 LD/ST, default)\n"
            "                   or shared (one pool)\n"
            "  --xbar-ports N   operands a collector receives per cycle (0 = any, default)\n"
            "  --seed S         seed of branch and cache decisions (default 1)\n"
            "  --watchdog N     stop when nothing retires for N cycles (default 1000000;\n"
            "                   0 = never)\n"
            "  --csv            one header line and one row\n"
            "  --tolerable      rfc/ltrf: sweep the main-RF latency multiplier latency_x\n"
            "                   from 1 by --step (0.5) to --max-x (12) and report the\n"
            "                   largest with at most --loss (0.05) IPC loss against the\n"
            "                   design at 1x (tolerable_x) and against a banked file of\n"
            "                   the same capacity at 1x (tolerable_x_ref; seed 004 Sec. 6.3)\n\n"
            "When standard error is a terminal, a progress line shows the CTAs done of\n"
            "the grid's (the cycles of warm-up and window with --cycles), their rate and\n"
            "the time left; piped, only the results are printed.  Interrupted (SIGINT,\n"
            "SIGTERM), rfkit exits with status 130 (143) and prints nothing.\n\n"
            "design parameters:\n");
    rf_param_help(out, rf_design_params, rf_design_nparams);
}

static int parse_u64(const char *opt, const char *text, uint64_t *out, rf_err *err)
{
    long v;
    int rc = rf_parse_long_in(text, 0, LONG_MAX, RF_CLI_WHERE, 0, opt, &v, err);
    if (rc)
        return rc;
    *out = (uint64_t)v;
    return 0;
}

static void print_value(double v, char *buf, size_t cap)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, cap, "%.0f", v);
    else
        snprintf(buf, cap, "%.6g", v);
}

/* --loss, --step, --max-x: 1 when taken (or a negative code), 0 when not. */
static int tol_option(int argc, char **argv, int *i, rf_tol_opts *to, rf_err *err)
{
    static const char *const names[] = {"loss", "step", "max-x"};
    double *fields[] = {&to->loss, &to->step, &to->max_x};
    for (int n = 0; n < 3; n++) {
        const char *v = NULL;
        int rc = rf_cli_value(argc, argv, i, names[n], &v, err);
        if (rc == 0)
            continue;
        if (rc < 0)
            return rc;
        rc = rf_parse_double_in(v, -HUGE_VAL, HUGE_VAL, RF_CLI_WHERE, 0, names[n], fields[n], err);
        return rc ? rc : 1;
    }
    return 0;
}

static int run_tolerable(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
                         const rf_sim_opts *o, const rf_tol_opts *to, bool csv, rf_err *err)
{
    rf_tolerable t;
    int rc = rf_sim_tolerable(gpu, d, k, o, to, &t, err);
    if (rc < 0)
        return rc;
    const char *name = d->kind == RF_DESIGN_LTRF ? (d->plus ? "ltrf+" : "ltrf") : "rfc";
    if (csv) {
        printf("gpu,kernel,design,rf_config,latency_x,ipc,self_ipc,ref_ipc,tolerable_x,"
               "tolerable_x_ref,capped,capped_ref\n");
        for (int i = 0; i < t.n; i++)
            printf("%s,%s,%s,%d,%g,%.6g,%.6g,%.6g,%.4g,%.4g,%d,%d\n", gpu->name, k->name, name,
                   d->rf_config, t.pt[i].latency_x, t.pt[i].ipc, t.self_ipc, t.ref_ipc,
                   t.tol_self, t.tol_ref, t.capped_self, t.capped_ref);
        return 0;
    }
    printf("tolerable main-RF latency of %s on %s, design %s, configuration #%d capacity, "
           "%.0f%% IPC loss\n", k->name, gpu->name, name, d->rf_config, to->loss * 100);
    printf("  reference (banked file, same capacity, 1x): ipc %.4f\n", t.ref_ipc);
    printf("  %-10s %10s %10s %10s\n", "latency_x", "ipc", "vs 1x", "vs ref");
    for (int i = 0; i < t.n; i++)
        printf("  %-10g %10.4f %10.3f %10.3f\n", t.pt[i].latency_x, t.pt[i].ipc,
               t.pt[i].ipc / t.self_ipc, t.pt[i].ipc / t.ref_ipc);
    printf("  tolerable_x      %s%.2f  (against the design at 1x)\n", t.capped_self ? ">= " : "",
           t.tol_self);
    printf("  tolerable_x_ref  %s%.2f  (against the banked reference)\n",
           t.capped_ref ? ">= " : "", t.tol_ref);
    return 0;
}

/* The progress line of one run (cli/progress.h). */
typedef struct sim_line {
    rf_progress pg;
    bool window;      /* counts cycles (--cycles), else CTAs */
} sim_line;

static void on_progress(uint64_t cycle, long ctas_done, long ctas_total, void *arg)
{
    (void)ctas_total;
    sim_line *l = arg;
    rf_progress_update(&l->pg, l->window ? (long)cycle : ctas_done);
}

int rf_cmd_simulate(int argc, char **argv)
{
    rf_err err = {0};
    rf_design d;
    rf_design_init(&d);
    rf_sim_opts o;
    rf_sim_opts_init(&o);
    rf_kernel_opts kopts;
    memset(&kopts, 0, sizeof kopts);
    const char *gpu_name = NULL, *kernel_path = NULL, *design_name = "baseline";
    bool csv = false, full = false, tolerable = false, side = false;
    int sms = 0;                     /* --sms: 0 = the GPU's */
    rf_tol_opts to;
    rf_tol_opts_init(&to);
    int steal[2] = {-1, -1};
    int rc = 0;

    for (int i = 1; i < argc && rc == 0; i++) {
        const char *v = NULL;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (rf_cli_flag(argv, i, "csv")) { csv = true; continue; }
        if (rf_cli_flag(argv, i, "full")) { full = true; continue; }
        if (rf_cli_flag(argv, i, "tolerable")) { tolerable = true; continue; }
        if (rf_cli_flag(argv, i, "side-by-side")) { side = true; continue; }
        if ((rc = tol_option(argc, argv, &i, &to, &err)) != 0) { if (rc > 0) rc = 0; continue; }
        if ((rc = rf_cli_value(argc, argv, &i, "gpu", &gpu_name, &err)) != 0) { if (rc > 0) rc = 0; continue; }
        if ((rc = rf_cli_value(argc, argv, &i, "kernel", &kernel_path, &err)) != 0) { if (rc > 0) rc = 0; continue; }
        if ((rc = rf_cli_value(argc, argv, &i, "design", &design_name, &err)) != 0) { if (rc > 0) rc = 0; continue; }
        if ((rc = rf_cli_kernel_opt(argc, argv, &i, &kopts, &err)) != 0) { if (rc > 0) rc = 0; continue; }
        if ((rc = rf_cli_value(argc, argv, &i, "cycles", &v, &err)) != 0) {
            if (rc > 0) rc = parse_u64("cycles", v, &o.cycles, &err);
            if (rc == 0 && o.cycles == 0)   /* 0 would silently mean the whole grid */
                rc = rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "cycles",
                                "a window of 0 cycles (give N >= 1, or --full)");
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "warmup", &v, &err)) != 0) {
            if (rc > 0) rc = parse_u64("warmup", v, &o.warmup, &err);
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "skip-ctas", &v, &err)) != 0) {
            if (rc > 0) rc = parse_u64("skip_ctas", v, &o.skip_ctas, &err);
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "warm-ctas", &v, &err)) != 0) {
            if (rc > 0) rc = parse_u64("warm_ctas", v, &o.warm_ctas, &err);
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "seed", &v, &err)) != 0) {
            if (rc > 0) rc = parse_u64("seed", v, &o.seed, &err);
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "watchdog", &v, &err)) != 0) {
            if (rc > 0) rc = parse_u64("watchdog", v, &o.watchdog, &err);
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "sms", &v, &err)) != 0) {
            uint64_t n = 0;
            if (rc > 0 && (rc = parse_u64("sms", v, &n, &err)) == 0) {
                if (n < 1 || n > 65536)   /* rfkit estimate's range */
                    rc = rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "sms",
                                    "%s SMs: give 1 to 65536", v);
                sms = (int)n;
            }
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "xbar-ports", &v, &err)) != 0) {
            uint64_t n = 0;
            if (rc > 0 && (rc = parse_u64("xbar_ports", v, &n, &err)) == 0) {
                if (n > 16)
                    rc = rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "xbar_ports",
                                    "%s ports: give 0 to 16", v);
                o.xbar_ports = (int)n;
            }
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "bank-map", &v, &err)) != 0) {
            if (rc > 0) {
                rc = 0;
                if (!strcmp(v, "swizzle"))
                    o.bank_map = RF_BANK_MAP_SWIZZLE;
                else if (!strcmp(v, "modulo"))
                    o.bank_map = RF_BANK_MAP_MODULO;
                else
                    rc = rf_err_set(&err, RF_EUNKNOWN, "command line", 0, 0, "bank_map",
                                    "unknown bank map '%s' (swizzle, modulo)", v);
            }
            continue;
        }
        if ((rc = rf_cli_value(argc, argv, &i, "collector-pool", &v, &err)) != 0) {
            if (rc > 0) {
                rc = 0;
                if (!strcmp(v, "typed"))
                    o.typed_collectors = true;
                else if (!strcmp(v, "shared"))
                    o.typed_collectors = false;
                else
                    rc = rf_err_set(&err, RF_EUNKNOWN, "command line", 0, 0, "collector_pool",
                                    "unknown collector pool '%s' (typed, shared)", v);
            }
            continue;
        }
        rc = rf_cli_design_param(argc, argv, &i, &d, steal, &err);
        if (rc > 0) {
            rc = 0;
            continue;
        }
        if (rc == 0)
            rc = rf_cli_unknown("simulate", argv[i], &err);
    }
    if (rc == 0 && (!gpu_name || !kernel_path))
        rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, gpu_name ? "kernel" : "gpu",
                        "rfkit simulate needs --gpu and --kernel (see rfkit simulate --help)");
    if (rc == 0 && full && o.cycles > 0)
        rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "cycles",
                        "--cycles and --full exclude each other");
    if (rc == 0)
        rc = rf_cli_design_kind(&d, design_name, &err);
    if (rc < 0)
        return rf_cli_fail(&err);
    rf_design_steal_flags(&d, steal[0], steal[1]);

    rf_gpu gpu;
    rf_kernel *k;
    if (rf_cli_load(gpu_name, kernel_path, &kopts, &gpu, &k, &err))
        return rf_cli_fail(&err);
    if (rf_kernel_fit_regs(k, &gpu, &err)) {   /* over the limit: spill */
        rf_kernel_destroy(k);
        return rf_cli_fail(&err);
    }
    if (sms == 0)
        sms = gpu.sms > 0 ? gpu.sms : 1;
    if (side && sms > 64) {
        rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "sms",
                   "%d SMs side by side: the sampler models 1 to 64 (give --sms N)", sms);
        rf_kernel_destroy(k);
        return rf_cli_fail(&err);
    }
    if (side)
        o.sms = sms;                 /* the whole grid over sms SMs */
    else
        rf_kernel_spread(k, sms);    /* SM 0's share, one SM */
    if (o.skip_ctas >= (uint64_t)rf_kernel_ctas(k)) {
        rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "skip_ctas",
                   "%llu CTAs skipped leave none of the %ld to run (%s)",
                   (unsigned long long)o.skip_ctas, rf_kernel_ctas(k),
                   rf_kernel_sms(k) > 1 ? "the busiest SM's share of the grid" : "the grid's");
        rf_kernel_destroy(k);
        return rf_cli_fail(&err);
    }
    if (o.warm_ctas > o.skip_ctas) {
        rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "warm_ctas",
                   "%llu CTAs to warm with but only %llu skipped (--skip-ctas)",
                   (unsigned long long)o.warm_ctas, (unsigned long long)o.skip_ctas);
        rf_kernel_destroy(k);
        return rf_cli_fail(&err);
    }
    if (tolerable) {   /* many short runs: no progress line */
        rc = run_tolerable(&gpu, &d, k, &o, &to, csv, &err);
        rf_kernel_destroy(k);
        if (rc < 0)
            rf_cli_place_kernel(&err, &kopts, kernel_path);
        return rc < 0 ? rf_cli_fail(&err) : 0;
    }

    /* On a terminal, the progress line: CTAs of the grid done, or cycles of
     * the warm-up and window with --cycles. */
    sim_line line = {.window = o.cycles > 0};
    FILE *tty = rf_progress_stream();
    if (line.window)
        rf_progress_start(&line.pg, tty, "simulate", "cycles", (long)(o.warmup + o.cycles));
    else
        rf_progress_start(&line.pg, tty, "simulate", "CTAs",
                          rf_kernel_ctas(k) - (long)o.skip_ctas);
    if (tty) {
        o.progress = on_progress;
        o.progress_arg = &line;
    }
    rf_sim_stats st;
    rc = rf_sim_run(&gpu, &d, k, &o, &st, &err);
    rf_progress_end(&line.pg);
    if (rc == 0 && o.warmup > 0 && st.cycles == 0)   /* an all-zero row is no result */
        rc = rf_err_set(&err, RF_ERANGE, "command line", 0, 0, "warmup",
                        "the grid finished within the %llu-cycle warm-up: nothing was measured",
                        (unsigned long long)o.warmup);
    if (rc < 0) {
        rf_kernel_destroy(k);
        rf_cli_place_kernel(&err, &kopts, kernel_path);
        return rf_cli_fail(&err);
    }

    static const char *const policies[] = {"lrr", "gto", "two-level"};
    const char *pol = st.sched_policy >= 0 && st.sched_policy < 3 ? policies[st.sched_policy] : "?";
    bool rs = d.kind == RF_DESIGN_STEALING && d.read_steal;
    bool ws = d.kind == RF_DESIGN_STEALING && d.write_steal;
    char buf[64], buf2[512];
    if (csv) {
        const char *head[] = {"gpu", "kernel", "design", "banks", "collectors", "scheduler",
                              "read_steal", "write_steal", "seed", "warmup", "ctas_per_sm",
                              "sms", "side_by_side", "ctas"};
        rf_csvw w;
        rf_csvw_init(&w, stdout);
        for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
            rf_csvw_field(&w, head[i]);
        for (size_t i = 0; i < rf_sim_ncolumns; i++)
            rf_csvw_field(&w, rf_sim_columns[i].name);
        rf_csvw_field(&w, "profile_defaults");
        rf_csvw_field(&w, "spilled_regs");
        rf_csvw_end(&w);
        rf_csvw_field(&w, gpu.name);
        rf_csvw_field(&w, k->name);
        rf_csvw_field(&w, rf_design_name(d.kind));
        rf_csvw_int(&w, st.banks);
        rf_csvw_int(&w, st.collectors);
        rf_csvw_field(&w, pol);
        rf_csvw_int(&w, rs);
        rf_csvw_int(&w, ws);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)o.seed);
        rf_csvw_field(&w, buf);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)o.warmup);
        rf_csvw_field(&w, buf);
        rf_csvw_int(&w, st.ctas_per_sm);
        rf_csvw_int(&w, sms);
        rf_csvw_int(&w, side);
        rf_csvw_int(&w, rf_kernel_ctas(k));
        for (size_t i = 0; i < rf_sim_ncolumns; i++) {
            print_value(rf_sim_columns[i].get(&st), buf, sizeof buf);
            rf_csvw_field(&w, buf);
        }
        rf_csvw_int(&w, k->psrc.defaults);
        rf_csvw_int(&w, k->func->spill_words);
        rf_csvw_end(&w);
        rf_csvw_flush(&w);
        rf_csvw_free(&w);
    } else {
        printf("simulate %s on %s, design %s: %d banks, %d collectors, %s scheduler%s%s, "
               "%d CTAs/SM, seed %llu\n",
               k->name, gpu.name, rf_design_name(d.kind), st.banks, st.collectors, pol,
               rs ? ", read stealing" : "", ws ? ", write stealing" : "", st.ctas_per_sm,
               (unsigned long long)o.seed);
        long grid = rf_kernel_grid_ctas(k), run = rf_kernel_ctas(k);
        if (side)
            printf("  run: the whole grid (%ld CTAs) on %d SMs side by side, sharing %d SMs' "
                   "DRAM bandwidth\n", grid, sms, sms);
        else if (sms > 1 && run > 2)
            printf("  run: the busiest SM's share of the grid spread over %d SMs: %ld of %ld "
                   "CTAs (grid indices 0, %d, ..., %ld), one SM's DRAM bandwidth\n", sms, run,
                   grid, sms, rf_kernel_cta_index(k, run - 1));
        else if (sms > 1)
            printf("  run: the busiest SM's share of the grid spread over %d SMs: %ld of %ld "
                   "CTAs, one SM's DRAM bandwidth\n", sms, run, grid);
        else
            printf("  run: the whole grid (%ld CTAs) on one SM\n", grid);
        if (k->func->spill_words > 0)
            printf("  registers capped at %d (the GPU's limit): %d spilled to local memory\n",
                   k->regs, k->func->spill_words);
        for (size_t i = 0; i < rf_sim_ncolumns; i++) {
            print_value(rf_sim_columns[i].get(&st), buf, sizeof buf);
            printf("  %-22s %14s  %s\n", rf_sim_columns[i].name, buf, rf_sim_columns[i].unit);
        }
        rf_kernel_profile_line(k, buf2, sizeof buf2);
        printf("%s\n", buf2);
    }
    rf_kernel_destroy(k);
    return 0;
}
