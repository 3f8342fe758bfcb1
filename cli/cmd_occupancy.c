/* cmd_occupancy.c - rfkit occupancy: CTAs and warps per SM of one kernel
 * shape under each register-file design, with the limit that binds. */
#include <stdio.h>
#include <string.h>

#include "../analytic/design.h"
#include "../analytic/occupancy.h"
#include "../analytic/overhead.h"
#include "../inputs/gpu.h"
#include "cli.h"
#include "../results/table.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit occupancy --gpu G --regs N --threads N [--smem BYTES]\n"
            "                       [--design D ...] [design parameters] [--csv] [--dump]\n\n"
            "  --gpu G          preset (rfkit gpus), GPU file or gpgpusim.config\n"
            "  --regs N         registers per thread (0, everywhere the count ptxas -v\n"
            "                   gives or else rfkit's own allocation, needs a kernel:\n"
            "                   use rfkit estimate, or a batch row with a kernel)\n"
            "  --threads N      threads per CTA\n"
            "  --smem BYTES     shared memory per CTA (default 0)\n"
            "  --design D       a design below, or 'all'; may repeat (default baseline)\n"
            "  --csv            one header line, then one row per design\n"
            "  --dump           print the effective GPU configuration (a GPU file) and the\n"
            "                   design parameters, then exit\n\n"
            "Occupancy is the resident warps (active and pending) over the SM's warp\n"
            "slots; designs that park CTAs outside the scheduler (finereg, vt, regdram,\n"
            "regmutex) can exceed 100%%, and the active/pending columns split them.\n\n"
            "designs:\n");
#define RF_DESIGN_HELP_(id, name, help) fprintf(out, "  %-10s %s\n", name, help);
    RF_DESIGN_LIST(RF_DESIGN_HELP_)
#undef RF_DESIGN_HELP_
    fprintf(out, "\ndesign parameters (given once, they apply to every design that uses them):\n");
    rf_param_help(out, rf_design_params, rf_design_nparams);
    fprintf(out, "\nGPU presets:");
    for (int i = 0; rf_gpu_preset_names[i]; i++)
        fprintf(out, " %s", rf_gpu_preset_names[i]);
    fprintf(out, "\n");
}

/* Result columns (CSV names and readable headers), then the design parameters. */
enum {
    C_GPU, C_DESIGN, C_REGS, C_THREADS, C_SMEM, C_CTAS, C_WARPS, C_OCC, C_LIMITER,
    C_OVERHEAD, C_ACTIVE, C_PENDING, C_ACTIVE_WARPS, C_M, C_PAIRS, C_UNSHARED, C_PCRF,
    C_PCRF_CTA, C_BRS, C_SRP, C_RFREGS, C_CAPX, C_LATX, C_AREAX, C_POWX, C_LREGS, C_LSMEM,
    C_LTHREADS, C_LCTAS, C_NRESULT
};
static const char *const csv_names[C_NRESULT] = {
    "gpu", "design", "regs", "threads", "smem", "ctas_per_sm", "warps_per_sm", "occupancy",
    "limiter", "overhead_bits", "active_ctas", "pending_ctas", "active_warps", "sharing_m",
    "shared_pairs", "unshared", "pcrf_entries", "pcrf_entries_per_cta", "brs_regs",
    "srp_regs", "rf_regs", "rf_capacity_x", "rf_latency_x", "rf_area_x", "rf_power_x",
    "lim_regs", "lim_smem", "lim_threads", "lim_ctas"};

static void lim_text(char *buf, size_t cap, int v)
{
    if (v < 0)
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%d", v);
}

/* The "why" column of the readable table. */
static void details(char *buf, size_t cap, const rf_gpu *g, const rf_design *d,
                    const rf_occ_input *in, const rf_occ *o)
{
    double acrf, pcrf;
    const rf_rf_tech *tech;
    switch (d->kind) {
    case RF_DESIGN_SHARING:
        snprintf(buf, cap, "F=%g (t=%g): M=%d from g=%d; %d shared pairs, %d unshared",
                 d->sharing, 1 - d->sharing, o->sharing_m, o->lim_regs, o->shared_pairs,
                 o->unshared);
        break;
    case RF_DESIGN_FINEREG:
        rf_occ_finereg_split(g, d, &acrf, &pcrf);
        snprintf(buf, cap,
                 "ACRF %gK holds %d active; PCRF %gK = %d entries, %d per pending CTA at L=%g",
                 acrf / 1024, o->active_ctas, pcrf / 1024, o->pcrf_entries,
                 o->pcrf_entries_per_cta, d->live_frac);
        break;
    case RF_DESIGN_VT:
        snprintf(buf, cap, "RF/smem hold %d CTAs; slots let %d issue", o->ctas_per_sm,
                 o->active_ctas);
        break;
    case RF_DESIGN_REGDRAM:
        snprintf(buf, cap, "VT %d CTAs + %d in DRAM; slots let %d issue",
                 o->ctas_per_sm - (d->dram_ctas < 0 ? o->ctas_per_sm / 2 : d->dram_ctas),
                 d->dram_ctas < 0 ? o->ctas_per_sm / 2 : d->dram_ctas, o->active_ctas);
        break;
    case RF_DESIGN_REGMUTEX:
        snprintf(buf, cap, "base set %d of %d regs/thread; pool %d regs (one CTA's rest)",
                 o->brs_regs, in->regs, o->srp_regs);
        break;
    case RF_DESIGN_LTRF:
        tech = rf_design_rf_tech(d->rf_config);
        snprintf(buf, cap,
                 "#%d %s: %gx capacity (%d regs), %gx latency, %gx area, %gx power; "
                 "%d-warp active pool",
                 d->rf_config, tech ? tech->cell : "?", o->rf_capacity_x, o->rf_regs,
                 o->rf_latency_x, o->rf_area_x, o->rf_power_x, rf_design_pool(d, g));
        break;
    case RF_DESIGN_RFC:
        tech = rf_design_rf_tech(d->rf_config);
        snprintf(buf, cap, "LRU register cache over #%d %s: %gx capacity (%d regs), %gx latency",
                 d->rf_config, tech ? tech->cell : "?", o->rf_capacity_x, o->rf_regs,
                 o->rf_latency_x);
        break;
    case RF_DESIGN_IDEAL:
        snprintf(buf, cap, "%gx capacity (%d regs) at %gx latency", o->rf_capacity_x,
                 o->rf_regs, o->rf_latency_x);
        break;
    case RF_DESIGN_STEALING:
        snprintf(buf, cap, "%d banks; read stealing %s, write stealing %s",
                 d->banks > 0 ? d->banks : g->rf_banks, d->read_steal ? "on" : "off",
                 d->write_steal ? "on" : "off");
        break;
    case RF_DESIGN_HIRF:
        snprintf(buf, cap, "SRAM cache over NVM RF (NVM write latency %d), %gx area",
                 g->nvm_write_latency, o->rf_area_x);
        break;
    default:
        snprintf(buf, cap, "%d registers per CTA", o->regs_per_cta);
        break;
    }
}

static void fill_row(rf_tbl *t, bool csv, const rf_gpu *g, const rf_design *d,
                     const rf_occ_input *in, const rf_occ *o)
{
    char buf[160];
    rf_tbl_set(t, C_GPU, "%s", g->name);
    rf_tbl_set(t, C_DESIGN, "%s", rf_design_name(d->kind));
    rf_tbl_set(t, C_REGS, "%d", in->regs);
    rf_tbl_set(t, C_THREADS, "%d", in->threads);
    rf_tbl_set(t, C_SMEM, "%d", in->smem);
    rf_tbl_set(t, C_CTAS, "%d", o->ctas_per_sm);
    rf_tbl_set(t, C_WARPS, "%d", o->warps_per_sm);
    if (csv)
        rf_tbl_set(t, C_OCC, "%.6g", o->occupancy);
    else
        rf_tbl_set(t, C_OCC, "%.1f%%", 100 * o->occupancy);
    rf_tbl_set(t, C_LIMITER, "%s", rf_occ_limiter_name(o->limiter));
    rf_tbl_set(t, C_OVERHEAD, "%.10g", o->overhead_bits);
    rf_tbl_set(t, C_ACTIVE, "%d", o->active_ctas);
    rf_tbl_set(t, C_PENDING, "%d", o->pending_ctas);
    rf_tbl_set(t, C_ACTIVE_WARPS, "%d", o->active_warps);
    rf_tbl_set(t, C_M, "%d", o->sharing_m);
    rf_tbl_set(t, C_PAIRS, "%d", o->shared_pairs);
    rf_tbl_set(t, C_UNSHARED, "%d", o->unshared);
    rf_tbl_set(t, C_PCRF, "%d", o->pcrf_entries);
    rf_tbl_set(t, C_PCRF_CTA, "%d", o->pcrf_entries_per_cta);
    rf_tbl_set(t, C_BRS, "%d", o->brs_regs);
    rf_tbl_set(t, C_SRP, "%d", o->srp_regs);
    rf_tbl_set(t, C_RFREGS, "%d", o->rf_regs);
    rf_tbl_set(t, C_CAPX, "%g", o->rf_capacity_x);
    rf_tbl_set(t, C_LATX, "%g", o->rf_latency_x);
    rf_tbl_set(t, C_AREAX, "%g", o->rf_area_x);
    rf_tbl_set(t, C_POWX, "%g", o->rf_power_x);
    lim_text(buf, sizeof buf, o->lim_regs);
    rf_tbl_set(t, C_LREGS, "%s", buf);
    lim_text(buf, sizeof buf, o->lim_smem);
    rf_tbl_set(t, C_LSMEM, "%s", buf);
    rf_tbl_set(t, C_LTHREADS, "%d", o->lim_threads);
    rf_tbl_set(t, C_LCTAS, "%d", o->lim_ctas);
    if (csv) {
        for (size_t k = 0; k < rf_design_nparams; k++) {
            rf_param_format(&rf_design_params[k], d, buf, sizeof buf);
            rf_tbl_set(t, C_NRESULT + (int)k, "%s", buf);
        }
    }
}

/* Readable output: a short table, one row per design. */
static int print_readable(const char *gpu_arg, const rf_gpu *g, const rf_design *ds, int nd,
                          const rf_occ_input *in, const rf_occ *os)
{
    static const char *const header[] = {"design", "CTAs/SM", "warps/SM", "occupancy",
                                         "limiter", "active", "pending", "CTAs by regs/smem/thr/slots",
                                         "overhead bits", "why"};
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(10, header)))
        return RF_ENOMEM;
    for (int i = 0; i < nd; i++) {
        const rf_occ *o = &os[i];
        char a[16], b[16], why[160];
        if (rf_tbl_row(t)) {
            rf_tbl_free(t);
            return RF_ENOMEM;
        }
        lim_text(a, sizeof a, o->lim_regs);
        lim_text(b, sizeof b, o->lim_smem);
        details(why, sizeof why, g, &ds[i], in, o);
        rf_tbl_set(t, 0, "%s", rf_design_name(ds[i].kind));
        rf_tbl_set(t, 1, "%d", o->ctas_per_sm);
        rf_tbl_set(t, 2, "%d", o->warps_per_sm);
        rf_tbl_set(t, 3, "%.1f%%", 100 * o->occupancy);
        rf_tbl_set(t, 4, "%s", rf_occ_limiter_name(o->limiter));
        rf_tbl_set(t, 5, "%d", o->active_ctas);
        rf_tbl_set(t, 6, "%d", o->pending_ctas);
        rf_tbl_set(t, 7, "%s/%s/%d/%d", a, b, o->lim_threads, o->lim_ctas);
        rf_tbl_set(t, 8, "%.10g", o->overhead_bits);
        rf_tbl_set(t, 9, "%s", why);
    }
    const char *src = rf_gpu_preset_source(gpu_arg);
    if (src)
        printf("# gpu %s: %s\n", g->name, src);
    else
        printf("# gpu %s: from %s\n", g->name, gpu_arg);
    printf("# kernel: %d registers/thread, %d threads/CTA (%d warps), %d B shared memory/CTA; "
           "%d registers allocated per CTA\n",
           in->regs, in->threads, os[0].warps_per_cta, in->smem, os[0].regs_per_cta);
    rf_tbl_print(t, stdout);
    rf_tbl_free(t);
    for (int i = 0; i < nd; i++) {
        rf_overhead ov;
        rf_overhead_compute(g, &ds[i], &ov);
        if (ov.nparts < 2)
            continue;
        printf("# %s overhead:", rf_design_name(ds[i].kind));
        for (int k = 0; k < ov.nparts; k++)
            printf("%s %s %.10g", k ? " +" : "", ov.part[k].name, ov.part[k].bits);
        printf(" = %.10g bits (%.2f KB)\n", ov.bits, ov.bits / 8192);
    }
    return RF_OK;
}

static int print_csv(const rf_gpu *g, const rf_design *ds, int nd, const rf_occ_input *in,
                     const rf_occ *os)
{
    int ncols = C_NRESULT + (int)rf_design_nparams;
    const char *header[C_NRESULT + 64];
    if (rf_design_nparams > 64)
        return RF_EINTERNAL;
    for (int c = 0; c < C_NRESULT; c++)
        header[c] = csv_names[c];
    for (size_t k = 0; k < rf_design_nparams; k++)
        header[C_NRESULT + k] = rf_design_params[k].name;
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(ncols, header)))
        return RF_ENOMEM;
    for (int i = 0; i < nd; i++) {
        if (rf_tbl_row(t)) {
            rf_tbl_free(t);
            return RF_ENOMEM;
        }
        fill_row(t, true, g, &ds[i], in, &os[i]);
    }
    rf_tbl_csv(t, stdout);
    rf_tbl_free(t);
    return RF_OK;
}

int rf_cmd_occupancy(int argc, char **argv)
{
    const char *gpu_name = NULL;
    bool csv = false, dump = false;
    rf_occ_input in = {-1, 0, 0};   /* regs -1: not given (0 is a value) */
    rf_design tmpl;
    rf_design_init(&tmpl);
    int steal[2] = {-1, -1};
    int kinds[RF_DESIGN_COUNT], nk = 0;
    rf_err err;
    rf_err_clear(&err);

    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        if (rf_cli_flag(argv, i, "help") || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (rf_cli_flag(argv, i, "csv")) {
            csv = true;
        } else if (rf_cli_flag(argv, i, "dump")) {
            dump = true;
        } else if ((rc = rf_cli_value(argc, argv, &i, "gpu", &v, &err)) != 0) {
            if (rc < 0)
                return rf_cli_fail(&err);
            gpu_name = v;
        } else if ((rc = rf_cli_value(argc, argv, &i, "design", &v, &err)) != 0) {
            if (rc < 0)
                return rf_cli_fail(&err);
            if (strcmp(v, "all") == 0) {
                nk = 0;
                for (int k = 0; k < RF_DESIGN_COUNT; k++)
                    kinds[nk++] = k;
                continue;
            }
            rf_design probe = tmpl;
            if (rf_cli_design_kind(&probe, v, &err))
                return rf_cli_fail(&err);
            bool dup = false;
            for (int k = 0; k < nk; k++)
                dup |= kinds[k] == probe.kind;
            if (!dup && nk < RF_DESIGN_COUNT)
                kinds[nk++] = probe.kind;
        } else if ((rc = rf_cli_param(argc, argv, &i, rf_occ_input_params,
                                      rf_occ_input_nparams, &in, &err)) != 0) {
            if (rc < 0)
                return rf_cli_fail(&err);
        } else if ((rc = rf_cli_design_param(argc, argv, &i, &tmpl, steal, &err)) != 0) {
            if (rc < 0)
                return rf_cli_fail(&err);
        } else {
            rf_cli_unknown("occupancy", argv[i], &err);
            return rf_cli_fail(&err);
        }
    }
    if (!gpu_name) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                   "rfkit occupancy needs --gpu G (see rfkit occupancy --help)");
        return rf_cli_fail(&err);
    }
    rf_design_steal_flags(&tmpl, steal[0], steal[1]);
    rf_gpu g;
    if (rf_cli_load_gpu(gpu_name, &g, &err))
        return rf_cli_fail(&err);
    if (dump) {
        const char *src = rf_gpu_preset_source(g.name);
        printf("# effective GPU configuration of %s%s%s\n", gpu_name, src ? ": " : "",
               src ? src : "");
        rf_param_dump(stdout, rf_gpu_params, rf_gpu_nparams, &g, NULL);
        printf("# design parameters\n");
        rf_param_dump(stdout, rf_design_params, rf_design_nparams, &tmpl, "# ");
        return 0;
    }
    /* threads is at least 1 when given (its table minimum); regs 0 is the
     * kernel's own count (rf_launch_params), and there is no kernel here. */
    if (in.regs == 0) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "regs",
                   "0 means a kernel's own register count, and occupancy takes no kernel "
                   "(give 1..%d, or use rfkit estimate --kernel)", g.max_regs_per_thread);
        return rf_cli_fail(&err);
    }
    if (in.regs < 0 || in.threads == 0) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                   "rfkit occupancy needs --regs N and --threads N (see rfkit occupancy --help)");
        return rf_cli_fail(&err);
    }
    if (nk == 0)
        kinds[nk++] = RF_DESIGN_BASELINE;

    rf_design ds[RF_DESIGN_COUNT];
    rf_occ os[RF_DESIGN_COUNT];
    for (int k = 0; k < nk; k++) {
        ds[k] = tmpl;
        ds[k].kind = kinds[k];
        if (rf_occ_compute(&g, &ds[k], &in, &os[k], &err)) {
            rf_err_place(&err, "command line", 0, 0);   /* every input is an option */
            return rf_cli_fail(&err);
        }
    }
    int rc = csv ? print_csv(&g, ds, nk, &in, os) : print_readable(gpu_name, &g, ds, nk, &in, os);
    if (rc) {
        rf_err_set(&err, rc, NULL, 0, 0, NULL, "%s", rf_strerror(rc));
        return rf_cli_fail(&err);
    }
    return 0;
}
