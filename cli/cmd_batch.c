/* cmd_batch.c - rfkit batch: estimate every design point of a CSV file.
 * The output file appears complete or not at all: rows go to a temporary
 * file next to it, renamed over OUT when everything succeeded (a device or
 * FIFO given as OUT is written straight; see rf_outfile_open). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/file.h"
#include "../common/param.h"
#include "../results/batch.h"
#include "cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit batch IN.csv [-o OUT.csv] [--jobs N] [--calib FILE]\n\n"
            "Estimate each row of IN.csv (a header, then one design point per row).  The\n"
            "columns are the options of rfkit estimate, with the same names and values\n"
            "(grid and block as X[,Y,Z], quoted in CSV when they hold commas; regs 0 or\n"
            "empty: the kernel's own count):\n");
    rf_point_help(out, true);
    fprintf(out,
            "  and every design parameter (banks, collectors, read_steal, ...; rfkit\n"
            "  estimate --help lists them).\n"
            "gpu is required; a row without a kernel gets the occupancy and area of its\n"
            "regs, block and smem.  Empty cells take the defaults (a row giving\n"
            "read_steal = 1 alone has read stealing only, as estimate's read-steal flag).\n"
            "Rows naming the same kernel, entry and launch share one characterisation.\n"
            "The output has each input row's columns, then\n  %s\n"
            "one row per input row in input order; a bad row gets its message in `error`\n"
            "(IN.csv:LINE:COLUMN, LINE the physical line where the row starts).\n"
            "IN.csv may be - for standard input; without -o the output goes to standard\n"
            "output.  --jobs N estimates with N threads (default: all cores); --calib FILE\n"
            "is the calibration record of rows with an empty calib cell.\n",
            RF_BATCH_RESULT_COLUMNS);
}

int rf_cmd_batch(int argc, char **argv)
{
    rf_err err;
    rf_err_clear(&err);
    const char *in_path = NULL, *out_path = NULL, *jobs_s = NULL, *calib = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        const rf_cli_opt opts[] = {{"output", &out_path}, {"jobs", &jobs_s}, {"calib", &calib}};
        int rc = rf_cli_values(argc, argv, &i, opts, sizeof opts / sizeof opts[0], &err);
        if (rc < 0)
            return rf_cli_fail(&err);
        if (rc == 1)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            rf_cli_unknown("batch", argv[i], &err);
            return rf_cli_fail(&err);
        }
        if (!argv[i][0]) {
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL, "an empty IN.csv file name");
            return rf_cli_fail(&err);
        }
        if (in_path) {
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL, "one input file only ('%s')",
                       argv[i]);
            return rf_cli_fail(&err);
        }
        in_path = argv[i];
    }
    if (!in_path) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                   "no input file (rfkit batch IN.csv [-o OUT.csv])");
        return rf_cli_fail(&err);
    }
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1)
        jobs = 1;
    if (jobs_s && rf_parse_long_in(jobs_s, 1, 1024, RF_CLI_WHERE, 0, "jobs", &jobs, &err))
        return rf_cli_fail(&err);

    FILE *in = stdin;
    if (strcmp(in_path, "-") != 0 && rf_file_open(in_path, &in, &err)) {
        err.code = RF_EUSAGE;   /* an unreadable input is bad input */
        return rf_cli_fail(&err);
    }
    FILE *out = stdout;
    rf_outfile of;
    if (out_path) {
        if (rf_outfile_open(&of, out_path, &err)) {
            if (in != stdin)
                fclose(in);
            return rf_cli_fail(&err);
        }
        out = of.fp;
    }
    rf_batch_opts opts = {(int)jobs, 0, calib, stderr};
    rf_batch_stats st;
    int rc = rf_batch_run(in, strcmp(in_path, "-") ? in_path : "stdin", out, &opts, &st, &err);
    if (in != stdin)
        fclose(in);
    if (rc == RF_EIO && out_path && ferror(of.fp)) {
        char why[RF_ERR_MSG_MAX];   /* the output's failure, named by its file */
        snprintf(why, sizeof why, "%s", err.msg);
        rf_err_set(&err, RF_EIO, out_path, 0, 0, NULL, "%s", why);
    }
    if (out_path) {
        int crc = rf_outfile_close(&of, !rc, rc ? NULL : &err);
        if (!rc)
            rc = crc;
    } else if (fflush(stdout) != 0 && !rc) {
        rc = rf_err_set(&err, RF_EIO, NULL, 0, 0, NULL, "cannot write the output: %s",
                        strerror(errno));
    }
    if (rc)
        return rf_cli_fail(&err);
    /* Rows with bad values are still written (with their error column), and
     * the exit status says that some input was bad. */
    if (st.errors) {
        fprintf(stderr, "rfkit: batch: %ld of %ld rows had errors (see the error column)\n",
                st.errors, st.rows);
        return 2;
    }
    return 0;
}
