/* cmd_gpus.c - rfkit gpus: the bundled GPU presets and their key figures. */
#include <stdio.h>
#include <string.h>

#include "../inputs/gpu.h"
#include "cli.h"
#include "../results/table.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit gpus [--csv]          list the bundled GPU presets\n"
            "       rfkit gpus --dump G         print the effective configuration of G\n"
            "                                   (a preset, INI file or gpgpusim.config) as a\n"
            "                                   GPU file\n"
            "       rfkit gpus --keys           list the keys of a GPU file\n\n"
            "A GPU file is 'key = value' lines; 'preset = NAME' first starts from a preset.\n"
            "A GPGPU-Sim gpgpusim.config is read too (options rfkit does not model are\n"
            "listed once and ignored).\n");
}

static int list(bool csv)
{
    static const char *const header[] = {
        "gpu", "cc", "sms", "regs_per_sm", "max_regs_per_thread", "max_threads_per_sm",
        "max_warps_per_sm", "max_ctas_per_sm", "smem_per_sm", "rf_banks", "schedulers",
        "sched_policy", "clock_mhz", "source"};
    static const char *const pretty[] = {
        "gpu", "cc", "SMs", "regs/SM", "regs/thread", "threads/SM", "warps/SM", "CTAs/SM",
        "smem/SM", "banks", "sched", "policy", "MHz", "source"};
    rf_tbl *t = NULL;
    rf_err err;
    if (!(t = rf_tbl_new(14, csv ? header : pretty))) {
        rf_err_set(&err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        return rf_cli_fail(&err);
    }
    const rf_param *pol = rf_param_find(rf_gpu_params, rf_gpu_nparams, "sched_policy");
    for (int i = 0; rf_gpu_preset_names[i]; i++) {
        rf_gpu g;
        if (rf_gpu_preset(rf_gpu_preset_names[i], &g, &err) || rf_tbl_row(t)) {
            rf_tbl_free(t);
            return rf_cli_fail(&err);
        }
        char policy[32];
        rf_param_format(pol, &g, policy, sizeof policy);
        rf_tbl_set(t, 0, "%s", g.name);
        if (g.cc)
            rf_tbl_set(t, 1, "%d.%d", g.cc / 10, g.cc % 10);
        else
            rf_tbl_set(t, 1, "%s", csv ? "0" : "sim");
        rf_tbl_set(t, 2, "%d", g.sms);
        rf_tbl_set(t, 3, "%d", g.regs_per_sm);
        rf_tbl_set(t, 4, "%d", g.max_regs_per_thread);
        rf_tbl_set(t, 5, "%d", g.max_threads_per_sm);
        rf_tbl_set(t, 6, "%d", g.max_warps_per_sm);
        rf_tbl_set(t, 7, "%d", g.max_ctas_per_sm);
        if (csv)
            rf_tbl_set(t, 8, "%d", g.smem_per_sm);
        else
            rf_tbl_set(t, 8, "%gK", g.smem_per_sm / 1024.0);
        rf_tbl_set(t, 9, "%d", g.rf_banks);
        rf_tbl_set(t, 10, "%d", g.schedulers);
        rf_tbl_set(t, 11, "%s", policy);
        rf_tbl_set(t, 12, "%g", g.clock_mhz);
        rf_tbl_set(t, 13, "%s", rf_gpu_preset_source(g.name));
    }
    if (csv)
        rf_tbl_csv(t, stdout);
    else
        rf_tbl_print(t, stdout);
    rf_tbl_free(t);
    return 0;
}

int rf_cmd_gpus(int argc, char **argv)
{
    bool csv = false, keys = false;
    const char *dump = NULL;
    rf_err err;
    rf_err_clear(&err);
    for (int i = 1; i < argc; i++) {
        int rc;
        if (rf_cli_flag(argv, i, "help") || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (rf_cli_flag(argv, i, "csv")) {
            csv = true;
        } else if (rf_cli_flag(argv, i, "keys")) {
            keys = true;
        } else if ((rc = rf_cli_value(argc, argv, &i, "dump", &dump, &err)) != 0) {
            if (rc < 0)
                return rf_cli_fail(&err);
        } else {
            rf_cli_unknown("gpus", argv[i], &err);
            return rf_cli_fail(&err);
        }
    }
    if (keys) {
        printf("keys of a GPU file (written 'key = value'; 'preset = NAME' first):\n");
        rf_param_keys(stdout, rf_gpu_params, rf_gpu_nparams);
        return 0;
    }
    if (dump) {
        rf_gpu g;
        if (rf_cli_load_gpu(dump, &g, &err))
            return rf_cli_fail(&err);
        const char *src = rf_gpu_preset_source(g.name);
        printf("# effective GPU configuration of %s%s%s\n", dump, src ? ": " : "", src ? src : "");
        rf_param_dump(stdout, rf_gpu_params, rf_gpu_nparams, &g, NULL);
        return 0;
    }
    return list(csv);
}
