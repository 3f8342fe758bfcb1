/* point.c - the options of one design point (see point.h). */
#include "point.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "../analytic/design.h"

const rf_point_opt rf_point_opts[] = {
    {"gpu", RF_PF_GPU, "G", "preset name or GPU file"},
    {"kernel", RF_PF_KERNEL, "K", "kernel spec, PTX or SASS file"},
    {"design", RF_PF_DESIGN, "D", NULL},   /* the design names */
    {"calib", RF_PF_CALIB, "FILE", "calibration record (rfkit calibrate -o FILE)"},
    {"entry", RF_PF_ENTRY, "NAME", "kernel entry (default: the spec's, else the first .entry)"},
    {"grid", RF_PF_GRID, "X[,Y,Z]", "CTAs in the grid (overrides the spec; needed for bare code)"},
    {"block", RF_PF_BLOCK, "X[,Y,Z]",
     "threads per CTA (overrides the spec; needed for bare code)"},
    {"smem", RF_PF_SMEM, "B", "dynamic shared memory per CTA in bytes (overrides the spec)"},
    {"regs", RF_PF_REGS, "N", "registers per thread (default: the spec's, ptxas -v, rfkit's)"},
    {"sms", RF_PF_SMS, "N",
     "SMs sharing the grid, the busiest one's share estimated (default: the GPU's; 1: the "
     "whole grid on one SM)"},
    {"param", RF_PF_PARAM, "NAME=V",
     "kernel parameter value for exact loop trip counts (repeatable; NAME=V;NAME=V in one batch cell)"},
    {"seed", RF_PF_SEED, "S",
     "which run of the kernel: the seed of its branch, loop and cache draws, simulate's "
     "seed (default 1)"},
    {"threads", RF_PF_BLOCK, "X[,Y,Z]", NULL},   /* aliases: help names the option */
    {"ctas", RF_PF_GRID, "X[,Y,Z]", NULL},
};
const size_t rf_point_nopts = sizeof rf_point_opts / sizeof rf_point_opts[0];

/* SMs: a grid spread over more SMs than any GPU has is a typing error. */
static const rf_param sms_param = {"sms", RF_PT_INT, offsetof(rf_point, sms), 1, 65536, 0,
                                   NULL, "SMs", "SMs the grid is spread over"};

void rf_point_init(rf_point *pt)
{
    memset(pt, 0, sizeof *pt);
}

bool rf_point_name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

const rf_point_opt *rf_point_find(const char *name)
{
    for (size_t i = 0; i < rf_point_nopts; i++)
        if (rf_point_name_eq(name, rf_point_opts[i].name))
            return &rf_point_opts[i];
    return NULL;
}

int rf_point_set(rf_point *pt, const rf_point_opt *o, const char *text, rf_where where,
                 int col, rf_err *err)
{
    if (!text || !*text)
        return rf_err_set(err, RF_EUSAGE, where.file, where.line, col, o->name,
                          "needs a value, got an empty one");
    int rc = RF_OK;
    switch (o->field) {
    case RF_PF_GRID:
    case RF_PF_BLOCK: {
        bool grid = o->field == RF_PF_GRID;
        rc = rf_launch_parse_dim3(text, grid, grid ? pt->launch.grid : pt->launch.block,
                                  where.file, where.line, col, o->name, err);
        break;
    }
    case RF_PF_SMEM:
    case RF_PF_REGS:
        rc = rf_param_parse_at(rf_param_find(rf_launch_params, rf_launch_nparams,
                                             o->field == RF_PF_SMEM ? "smem" : "regs"),
                               &pt->launch, text, where, col, err);
        break;
    case RF_PF_SMS:
        rc = rf_param_parse_at(&sms_param, pt, text, where, col, err);
        break;
    case RF_PF_SEED:
        rc = rf_parse_long_in(text, 0, LONG_MAX, where, col, o->name, &pt->seed, err);
        break;
    case RF_PF_PARAM:
        if (!strchr(text, '='))
            rc = rf_err_set(err, RF_EUSAGE, where.file, where.line, col, o->name,
                            "'%s' is not NAME=VALUE", text);
        else if (pt->nparams >= RF_KERNEL_MAX_PARAMS)
            rc = rf_err_set(err, RF_EUSAGE, where.file, where.line, col, o->name,
                            "more than %d values", RF_KERNEL_MAX_PARAMS);
        else
            pt->params[pt->nparams++] = text;
        break;
    default:
        break;
    }
    if (rc == RF_OK)
        pt->text[o->field] = text;
    return rc;
}

void rf_point_kernel_opts(const rf_point *pt, rf_kernel_opts *ko)
{
    memset(ko, 0, sizeof *ko);
    ko->entry = pt->text[RF_PF_ENTRY];
    ko->grid = pt->text[RF_PF_GRID];
    ko->block = pt->text[RF_PF_BLOCK];
    ko->smem = pt->text[RF_PF_SMEM];
    ko->regs = pt->text[RF_PF_REGS];
    ko->seed = pt->text[RF_PF_SEED];
    for (int i = 0; i < pt->nparams; i++)
        ko->params[i] = pt->params[i];
    ko->nparams = pt->nparams;
}

void rf_point_help(FILE *out, bool columns)
{
    const char *lead = columns ? "" : "--";
    for (size_t i = 0; i < rf_point_nopts; i++) {
        const rf_point_opt *o = &rf_point_opts[i];
        char arg[64];
        snprintf(arg, sizeof arg, "%s%s %s", lead, o->name, o->arg);
        fprintf(out, "  %-17s ", arg);
        if (o->help) {
            fprintf(out, "%s\n", o->help);
            continue;
        }
        if (o->field != RF_PF_DESIGN) {
            for (size_t j = 0; j < i; j++)
                if (rf_point_opts[j].field == o->field) {
                    fprintf(out, "another name for %s%s\n", lead, rf_point_opts[j].name);
                    break;
                }
            continue;
        }
        int at = 20;   /* the design names, wrapped under the help column */
        for (int k = 0; rf_design_names[k]; k++) {
            int n = (int)strlen(rf_design_names[k]) + 2;
            if (k && at + n > 80) {
                fprintf(out, ",\n%20s", "");
                at = 20;
            } else if (k) {
                fputs(", ", out);
            }
            fputs(rf_design_names[k], out);
            at += n;
        }
        fputc('\n', out);
    }
}
