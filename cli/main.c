/* main.c - the rfkit command: dispatch to a subcommand. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "../common/file.h"
#include "cli.h"
#include "mpi.h"

#define RFKIT_VERSION "0.1.0"

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
} command;

static const command commands[] = {
#define RF_CMD_ROW_(name, fn, help) {#name, fn, help},
    RF_COMMAND_LIST(RF_CMD_ROW_)
#undef RF_CMD_ROW_
};

static void usage(FILE *out)
{
    fprintf(out,
            "rfkit %s - what a GPU register-file design does to a kernel's IPC,\n"
            "energy and area, from closed-form models calibrated on a cycle-level SM model.\n\n"
            "usage: rfkit COMMAND [options]     (rfkit COMMAND --help for its options)\n\n"
            "commands:\n",
            RFKIT_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
}

/* A result that did not reach standard output (a full disk, a closed
 * file) is a failed run, not a success with a cut-off table. */
static int finish(int rc)
{
    bool flush_failed = fflush(stdout) != 0;
    int e = errno;
    if ((flush_failed || ferror(stdout)) && rc == 0) {
        fprintf(stderr, "rfkit: cannot write the output%s%s\n", flush_failed ? ": " : "",
                flush_failed ? strerror(e) : "");
        return 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    /* GSL's default handler aborts; every GSL status is checked instead. */
    gsl_set_error_handler_off();
    /* An interrupted command (SIGINT, SIGTERM, SIGHUP) removes its
     * temporary output files and exits with 128 + the signal's number:
     * 130 for Ctrl-C, 143 for kill. */
    rf_file_exit_on_signal();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return finish(0);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("rfkit %s\n", RFKIT_VERSION);
        return finish(0);
    }
    /* batch and calibrate run over MPI ranks in rfkit-mpi (cli/mpi.h). */
    if (!strcmp(argv[1], "batch") || !strcmp(argv[1], "calibrate"))
        rf_mpi_reexec(argv);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return finish(commands[i].fn(argc - 1, argv + 1));
    rf_err err;
    rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
               "unknown command '%s' (see rfkit --help)", argv[1]);
    return rf_cli_fail(&err);
}
