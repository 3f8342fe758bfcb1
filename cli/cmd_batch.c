/* cmd_batch.c - rfkit batch: estimate every design point of a CSV file.
 * The output file appears complete or not at all: rows go to a temporary
 * file next to it, renamed over OUT when everything succeeded (a device or
 * FIFO given as OUT is written straight; see rf_outfile_open).  SIGINT,
 * SIGTERM or SIGHUP remove the temporary file, and rfkit exits with 128 +
 * the signal's number (130 for SIGINT; cli/main.c).
 * Under an MPI launcher (mpirun -np N, srun) the rows are split over the
 * ranks and rank 0 writes the one output (cli/mpi.h).  On a terminal a
 * progress line shows the rows done, their rate and the time left. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/file.h"
#include "../common/param.h"
#include "../results/batch.h"
#include "../results/batchplot.h"
#include "../results/shard.h"
#include "cli.h"
#include "mpi.h"
#include "progress.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit batch IN.csv [-o OUT.csv [--plot X,Y[,GROUP]]] [--jobs N]\n"
            "                   [--calib FILE]\n\n"
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
            "is the calibration record of rows with an empty calib cell.\n\n"
            "--plot X,Y[,GROUP] charts output column Y against column X (input or result\n"
            "columns; GROUP's values are the series) into OUT's folder, named after OUT\n"
            "less its extension: STEM.dat and STEM.gp, and STEM.png drawn by gnuplot when\n"
            "it is installed (else `gnuplot STEM.gp` there draws it).  Rows with an error\n"
            "or an empty X, Y or GROUP are left out.  With GROUP, a line per group\n"
            "(banks,ipc,design); without, a scatter with its Pareto front marked, lowest\n"
            "X and highest Y (energy_nj,ipc); a text X gives clustered bars.\n\n"
            "Started by mpirun -np N or srun (rfkit built with MPI), the ranks take\n"
            "chunks of rows in turn and rank 0 writes the one output, the same bytes as\n"
            "one process writes; --jobs then defaults to the cores over the ranks of\n"
            "each machine.  On a terminal a progress line with the rate and the time\n"
            "left goes to standard error.  Interrupted (SIGINT, SIGTERM), rfkit leaves\n"
            "no output file and exits with status 130 (143).\n",
            RF_BATCH_RESULT_COLUMNS);
}

/* Only rank 0 reports (every rank sees the same command line). */
static int fail(const rf_mpi *m, const rf_err *err)
{
    return m->rank == 0 ? rf_cli_fail(err) : (err->code == RF_EUSAGE ? 2 : 1);
}

static void on_rows(long done, void *arg)
{
    rf_progress_update(arg, done);
}

/* Rows of a regular input file, for the progress line's total and ETA
 * (-1: unknown, e.g. standard input). */
static long count_rows(FILE *in)
{
    struct stat sb;
    if (fstat(fileno(in), &sb) != 0 || !S_ISREG(sb.st_mode))
        return -1;
    long n = rf_shard_count_rows(in);
    rewind(in);
    return n;
}

static int batch_main(const rf_mpi *m, int argc, char **argv);

/* --plot's columns, checked when the header has been read (before any row). */
static int check_plot(const char *const *names, int n, void *arg, rf_err *err)
{
    return rf_batchplot_check(arg, names, n, err);
}

/* One process: stream the input through rf_batch_run into the output. */
static int batch_local(const char *in_path, const char *in_name, const char *out_path,
                       const rf_batch_opts *opts, FILE *progress, const rf_batchplot *plot,
                       rf_batch_stats *st, rf_err *err)
{
    FILE *in = stdin;
    if (strcmp(in_path, "-") != 0 && rf_file_open(in_path, &in, err)) {
        err->code = RF_EUSAGE;   /* an unreadable input is bad input */
        return err->code;
    }
    FILE *out = stdout;
    rf_outfile of;
    if (out_path) {
        if (rf_outfile_open(&of, out_path, err)) {
            if (in != stdin)
                fclose(in);
            return err->code;
        }
        out = of.fp;
    }
    rf_progress pg;
    rf_progress_start(&pg, progress, "batch", "rows", progress ? count_rows(in) : -1);
    rf_batch_drive drive = {0, progress ? on_rows : NULL, &pg, plot ? check_plot : NULL,
                            (void *)plot};
    int rc = rf_batch_run_drive(in, in_name, out, opts, &drive, st, err);
    rf_progress_end(&pg);
    if (in != stdin)
        fclose(in);
    if (rc == RF_EIO && out_path && ferror(of.fp)) {
        char why[RF_ERR_MSG_MAX];   /* the output's failure, named by its file */
        snprintf(why, sizeof why, "%s", err->msg);
        rf_err_set(err, RF_EIO, out_path, 0, 0, NULL, "%s", why);
    }
    if (out_path) {
        int crc = rf_outfile_close(&of, !rc, rc ? NULL : err);
        if (!rc)
            rc = crc;
    } else if (fflush(stdout) != 0 && !rc) {
        rc = rf_err_set(err, RF_EIO, NULL, 0, 0, NULL, "cannot write the output: %s",
                        strerror(errno));
    }
    return rc;
}


/* The chart of --plot from the finished output, and a line saying where it
 * is (or how to draw it without gnuplot). */
static int draw_plot(const rf_batchplot *pl, const char *out_path, rf_err *err)
{
    rf_batchplot_result res;
    int rc = rf_batchplot_draw(pl, out_path, &res, err);
    if (rc)
        return rc;
    char left[96] = "";
    if (res.left_out)
        snprintf(left, sizeof left, "; %d row%s with an error or an empty cell left out",
                 res.left_out, res.left_out == 1 ? "" : "s");
    /* OUT's folder as OUT names it: none for a bare file name. */
    const char *dir = strcmp(pl->dir, ".") || !strncmp(out_path, "./", 2) ? pl->dir : "";
    const char *sep = !*dir || !strcmp(dir, "/") ? "" : "/";
    if (res.points == 0)
        fprintf(stderr, "rfkit: batch: no chart: no row has values of %s and %s%s\n", pl->x,
                pl->y, left);
    else if (res.drawn)
        fprintf(stderr, "rfkit: batch: chart %s%s%s.png (%d points%s)\n", dir, sep, pl->stem,
                res.points, left);
    else
        fprintf(stderr, "rfkit: batch: chart data %s%s%s.dat and .gp (%d points%s); %s\n", dir,
                sep, pl->stem, res.points, left, res.why);
    return RF_OK;
}

int rf_cmd_batch(int argc, char **argv)
{
    rf_err err;
    rf_err_clear(&err);
    rf_mpi m;
    if (rf_mpi_begin(&m, &err))
        return rf_cli_fail(&err);
    int status = rf_mpi_status(&m, batch_main(&m, argc, argv));
    rf_mpi_end(&m);
    return status;
}

static int batch_main(const rf_mpi *m, int argc, char **argv)
{
    rf_err err;
    rf_err_clear(&err);
    const char *in_path = NULL, *out_path = NULL, *jobs_s = NULL, *calib = NULL,
               *plot_spec = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            if (m->rank == 0)
                usage(stdout);
            return 0;
        }
        const rf_cli_opt opts[] = {{"output", &out_path}, {"jobs", &jobs_s}, {"calib", &calib},
                                   {"plot", &plot_spec}};
        int rc = rf_cli_values(argc, argv, &i, opts, sizeof opts / sizeof opts[0], &err);
        if (rc < 0)
            return fail(m, &err);
        if (rc == 1)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            rf_cli_unknown("batch", argv[i], &err);
            return fail(m, &err);
        }
        if (!argv[i][0]) {
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL, "an empty IN.csv file name");
            return fail(m, &err);
        }
        if (in_path) {
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL, "one input file only ('%s')",
                       argv[i]);
            return fail(m, &err);
        }
        in_path = argv[i];
    }
    if (!in_path) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                   "no input file (rfkit batch IN.csv [-o OUT.csv])");
        return fail(m, &err);
    }
    long jobs = sysconf(_SC_NPROCESSORS_ONLN) / m->local_size;
    if (jobs < 1)
        jobs = 1;
    if (jobs_s && rf_parse_long_in(jobs_s, 1, 1024, RF_CLI_WHERE, 0, "jobs", &jobs, &err))
        return fail(m, &err);

    /* --plot: its names and OUT checked now, its columns once the input's
     * header is read (under MPI every rank reads the header of IN.csv
     * itself, so all stop alike), the chart drawn from OUT at the end. */
    rf_batchplot plot, *pl = NULL;
    if (plot_spec) {
        if (!out_path) {
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "plot",
                       "--plot needs -o OUT.csv: the chart is drawn from OUT, next to it");
            return fail(m, &err);
        }
        if (m->size > 1 && !strcmp(in_path, "-")) {
            rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "plot",
                       "--plot under MPI needs IN.csv as a file (its header is checked on "
                       "every rank), not standard input");
            return fail(m, &err);
        }
        if (rf_batchplot_init(&plot, plot_spec, out_path, &err))
            return fail(m, &err);
        pl = &plot;
        if (m->size > 1 && rf_batchplot_check_file(pl, in_path, &err)) {
            if (err.code != RF_ENOMEM)
                err.code = RF_EUSAGE;   /* a bad or unreadable IN.csv is bad input */
            rf_batchplot_free(pl);
            return fail(m, &err);
        }
    }

    rf_batch_opts opts = {(int)jobs, 0, calib, stderr};
    rf_batch_stats st;
    const char *in_name = strcmp(in_path, "-") ? in_path : "stdin";
    /* No progress line between rows written to the same terminal. */
    FILE *progress = out_path || !isatty(STDOUT_FILENO) ? rf_progress_stream() : NULL;
    int rc;
    if (m->size > 1) {
        rc = rf_mpi_batch(m, in_path, in_name, out_path, &opts, m->rank == 0 ? progress : NULL,
                          &st, &err);
        if (rc || m->rank != 0) {
            if (pl)
                rf_batchplot_free(pl);
            /* rank 0 reports; rf_mpi_status gives its status to all */
            return rc ? fail(m, &err) : 0;
        }
    } else {
        rc = batch_local(in_path, in_name, out_path, &opts, progress, pl, &st, &err);
        if (rc) {
            if (pl)
                rf_batchplot_free(pl);
            return fail(m, &err);
        }
    }
    if (pl) {
        rc = draw_plot(pl, out_path, &err);
        rf_batchplot_free(pl);
        if (rc)
            return fail(m, &err);
    }
    /* Rows with bad values are still written (with their error column), and
     * the exit status says that some input was bad. */
    if (st.errors) {
        fprintf(stderr, "rfkit: batch: %ld of %ld rows had errors (see the error column)\n",
                st.errors, st.rows);
        return 2;
    }
    return 0;
}
