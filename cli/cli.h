/* cli.h - small helpers shared by the subcommands: option matching with
 * values, parameter-table options, error reporting. */
#ifndef RF_CLI_H
#define RF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"
#include "../analytic/design.h"
#include "../common/param.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/point.h"

#define RF_CLI_WHERE ((rf_where){"command line", 0})

/* Declarations of every subcommand (commands.h). */
#include "commands.h"
#define RF_CMD_DECL_(name, fn, help) int fn(int argc, char **argv);
RF_COMMAND_LIST(RF_CMD_DECL_)
#undef RF_CMD_DECL_

/* Print "rfkit: <msg>" to stderr and return exit code 2 (bad input) or 1
 * (a run that failed for another reason: I/O, watchdog, fit). */
int rf_cli_fail(const rf_err *err);

/* Does argv[*i] name option `name` ("--name VALUE" or "--name=VALUE"; '-' and
 * '_' are the same in names)?  Returns 1 and sets *value (advancing *i past a
 * separate value), 0 when it is another option, or RF_EUSAGE (err filled)
 * when the value is missing or empty. */
int rf_cli_value(int argc, char **argv, int *i, const char *name,
                 const char **value, rf_err *err);

/* An option that takes a value, and where the value goes. */
typedef struct rf_cli_opt {
    const char *name;
    const char **value;
} rf_cli_opt;

/* rf_cli_value over a list of options; "-o" is the short form of an
 * option named "output".  1 when one took argv[*i], 0 when none did,
 * RF_EUSAGE (err filled) when its value is missing. */
int rf_cli_values(int argc, char **argv, int *i, const rf_cli_opt *opts, size_t n,
                  rf_err *err);

/* The kernel options of every command that loads one kernel (--entry,
 * --grid, --block, --smem, --regs) into *ko; returns like rf_cli_values. */
int rf_cli_kernel_opt(int argc, char **argv, int *i, rf_kernel_opts *ko, rf_err *err);

/* The options of a design point (inputs/point.h: rf_point_opts, estimate's
 * options and batch's columns) into *pt, parsed by rf_point_set; returns
 * like rf_cli_values. */
int rf_cli_point_opt(int argc, char **argv, int *i, rf_point *pt, rf_err *err);

/* --param NAME=VALUE (repeatable) into ko->params; returns like
 * rf_cli_values. */
int rf_cli_param_opt(int argc, char **argv, int *i, rf_kernel_opts *ko, rf_err *err);

/* The --help lines of rf_cli_kernel_opt's and rf_cli_param_opt's options. */
#define RF_CLI_KERNEL_HELP                                                                 \
    "  --entry NAME     kernel entry (default: the spec's, else the first .entry)\n"        \
    "  --grid X[,Y,Z]   CTAs in the grid (overrides the spec; needed for bare code)\n"      \
    "  --block X[,Y,Z]  threads per CTA (overrides the spec; needed for bare code)\n"       \
    "  --smem B         dynamic shared memory per CTA in bytes (overrides the spec)\n"      \
    "  --regs N         registers per thread (default or 0: the spec's, ptxas -v, rfkit's)\n"      \
    "  --param NAME=V   integer kernel parameter (PTX name or position; repeatable):\n"      \
    "                   counted loops bounded by it get their exact trip count\n"

/* The bank-stealing flags' rule (rf_design_steal_flags), for --help. */
#define RF_CLI_STEAL_HELP                                                                  \
    "  --design stealing turns on read and write stealing; --read-steal or\n"              \
    "  --write-steal keeps only the ones given on; --read-steal=0 or\n"                   \
    "  --write-steal=0 turns one off (batch columns read_steal, write_steal alike)\n"

/* Is argv[*i] the flag --name (no value)? */
bool rf_cli_flag(char **argv, int i, const char *name);

/* Try argv[*i] against a parameter table (bool parameters are flags and also
 * take "--name=0/1").  Returns 1 when consumed (value parsed into obj), 0 when
 * not a parameter of the table, negative on a bad value. */
int rf_cli_param(int argc, char **argv, int *i, const rf_param *tab, size_t n,
                 void *obj, rf_err *err);

/* rf_cli_param over the design table, noting the bank-stealing flags given
 * (steal[0] read, steal[1] write: -1 until given, then the value given),
 * for rf_design_steal_flags once the command line is read. */
int rf_cli_design_param(int argc, char **argv, int *i, rf_design *d, int steal[2],
                        rf_err *err);

/* Standard error for an option nobody recognised. */
int rf_cli_unknown(const char *cmd, const char *arg, rf_err *err);

/* Load the GPU (preset or file) and the kernel named on the command line.
 * A file that cannot be read is bad input like any other (RF_EUSAGE, exit
 * 2); an unknown preset name is placed on the command line.  On failure *k
 * is NULL and nothing stays allocated. */
int rf_cli_load(const char *gpu_name, const char *kernel_path, const rf_kernel_opts *ko,
                rf_gpu *gpu, rf_kernel **k, rf_err *err);

/* The GPU alone and the kernel alone, with the same rule. */
int rf_cli_load_gpu(const char *name, rf_gpu *gpu, rf_err *err);
int rf_cli_load_kernel(const char *path, const rf_kernel_opts *ko, rf_kernel **k, rf_err *err);

/* --design NAME: rf_design_set_kind, an unknown name placed on the
 * command line. */
int rf_cli_design_kind(rf_design *d, const char *name, rf_err *err);

/* Where an error of a kernel's estimate or run comes from.  The models and
 * passes know no file: a launch value (regs, threads, smem, grid) comes
 * from its option when one was given (ko), else from the kernel file, as
 * does everything about the code (a block limit, a pass refusing the
 * function, memory a large kernel exhausts).  A failed run (I/O, watchdog,
 * fit) is not placed.  Places err (rf_err_place) and returns its code. */
int rf_cli_place_kernel(rf_err *err, const rf_kernel_opts *ko, const char *kernel_path);

/* Compare option names treating '-' and '_' alike. */
bool rf_cli_name_eq(const char *a, const char *b);

#endif /* RF_CLI_H */
