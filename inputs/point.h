/* point.h - one design point to estimate, as `rfkit estimate` takes it on
 * the command line and `rfkit batch` takes it as a CSV row.
 *
 * One table (rf_point_opts) names every option of a point other than the
 * design parameters (those are rf_design_params): the GPU, the kernel and
 * its entry, the launch (grid, block, dynamic shared memory, registers per
 * thread), the SMs the grid is spread over, the calibration record and the
 * design.  The same name is the option (--name) and the batch column, and
 * rf_point_set parses a value the same way for both, so the two cannot
 * drift apart.  grid and block are X[,Y[,Z]] triples read by
 * rf_launch_parse_dim3, smem and regs by the launch parameter table
 * (rf_launch_params): exactly as a kernel spec's [launch] section.  param
 * (kernel parameter values for exact trip counts, as --param and a spec's
 * [params]) may repeat on the command line; a batch cell holds
 * NAME=V;NAME=V.  Two aliases are kept: threads (block) and ctas (grid).
 */
#ifndef RF_POINT_H
#define RF_POINT_H

#include <stdbool.h>
#include <stdio.h>

#include "../common/error.h"
#include "../common/param.h"
#include "kernel.h"

typedef enum rf_point_field {
    RF_PF_GPU,      /* preset name or GPU file */
    RF_PF_KERNEL,   /* kernel spec, PTX, SASS or dot file */
    RF_PF_DESIGN,   /* design name (rf_design_set_kind) */
    RF_PF_CALIB,    /* calibration record file */
    RF_PF_ENTRY,    /* kernel entry function */
    RF_PF_GRID,     /* CTAs, X[,Y[,Z]] */
    RF_PF_BLOCK,    /* threads per CTA, X[,Y[,Z]] */
    RF_PF_SMEM,     /* bytes of dynamic shared memory per CTA */
    RF_PF_REGS,     /* registers per thread (0 = ptxas -v or rfkit's) */
    RF_PF_SMS,      /* SMs the grid is spread over */
    RF_PF_PARAM,    /* kernel parameter values, NAME=V[;NAME=V...] (repeatable) */
    RF_PF_SEED,     /* the draws' seed: which run of the kernel (rf_profile.seed) */
    RF_PF_COUNT
} rf_point_field;

typedef struct rf_point_opt {
    const char *name;        /* option (--name) and batch column */
    rf_point_field field;
    const char *arg;         /* the value's form in help texts */
    const char *help;        /* one line; an alias names its option */
} rf_point_opt;

extern const rf_point_opt rf_point_opts[];
extern const size_t rf_point_nopts;

/* A point as given.  text[f] is the text given for field f (NULL = not
 * given); it points into the caller's text (argv, a CSV cell), which must
 * outlive the point.  The launch fields given are also parsed into launch
 * (the others keep rf_point_init's zeros), sms into sms and seed into
 * seed. */
typedef struct rf_point {
    const char *text[RF_PF_COUNT];
    rf_launch launch;
    int sms;                 /* 0 = the GPU's SM count */
    long seed;               /* the draws' seed, given or not (text[RF_PF_SEED]) */
    const char *params[RF_KERNEL_MAX_PARAMS];  /* each param given, in order */
    int nparams;
} rf_point;

void rf_point_init(rf_point *pt);

/* Names equal with '-' and '_' alike (an option and its column). */
bool rf_point_name_eq(const char *a, const char *b);

/* The option named name ('-' and '_' alike), or NULL. */
const rf_point_opt *rf_point_find(const char *name);

/* Parse text as option o's value into pt.  Errors name where (file, line),
 * col (0 = none) and the option's name: RF_EUSAGE for an empty value,
 * RF_ENUMBER / RF_ERANGE for a bad number or triple. */
int rf_point_set(rf_point *pt, const rf_point_opt *o, const char *text, rf_where where,
                 int col, rf_err *err);

/* The kernel-loading options of pt (entry, grid, block, smem, regs as
 * given; NULL where not given): what `rfkit estimate` passes to
 * rf_kernel_load. */
void rf_point_kernel_opts(const rf_point *pt, rf_kernel_opts *ko);

/* Help lines for the table: "  --name ARG   help" (columns false) or
 * "  name ARG   help" (columns true), the design names listed on design's
 * line. */
void rf_point_help(FILE *out, bool columns);

#endif /* RF_POINT_H */
