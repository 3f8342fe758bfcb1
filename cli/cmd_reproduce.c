/* cmd_reproduce.c - rfkit reproduce: re-run the seeds' headline experiments
 * on the bundled kernels and write DIR/report.md with its plots.
 *
 *   rfkit reproduce [--paper ID[,ID...]|all] [-o DIR] [--full] [--jobs N]
 *                   [--seed S] [--kernels DIR]
 *
 * The report (results/repro.c) is byte-identical for the same inputs and
 * seed; the run time goes to stdout with the summary, never into it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/param.h"
#include "../results/repro.h"
#include "cli.h"
#include "progress.h"

static void usage(FILE *out)
{
    char ids[128];
    rf_repro_ids(ids, sizeof ids);
    fprintf(out,
            "usage: rfkit reproduce [--paper ID[,ID...]|all] [-o DIR] [--full] [--jobs N]\n"
            "                       [--seed S] [--kernels DIR]\n\n"
            "Re-runs the headline experiments of the papers rfkit's designs come from on\n"
            "the bundled kernels, each with its paper's GPU preset, and writes DIR/report.md:\n"
            "every claim with the paper's figure, rfkit's figure, a verdict (reproduced or\n"
            "differs, a difference with its measured reason), the tables behind them and\n"
            "plots (DIR/*.png, drawn by gnuplot when it is installed; without it the data\n"
            "DIR/*.dat and scripts DIR/*.gp are written and `gnuplot NAME.gp` in DIR draws\n"
            "them).\n\n"
            "  --paper ID     which papers: %s, or all (default all)\n"
            "  -o DIR         output folder, created when missing (default reproduce)\n"
            "  --full         full sampler runs for every figure (default: calibrated\n"
            "                 estimates, full runs where a claim needs ground truth)\n"
            "  --jobs N       worker threads (default: the cores of this machine)\n"
            "  --seed S       the runs' seed (default 1): the sampler's draws, which the\n"
            "                 closed forms walk alike\n"
            "  --kernels DIR  the bundled kernels' folder (default inputs/kernels)\n\n"
            "Same inputs and seed, same report bytes (the plots are gnuplot's). A progress\n"
            "line is shown on a terminal. Exit 0 when the report is written, whatever the\n"
            "verdicts; 2 on bad usage; 1 when a run fails.\n",
            ids);
}

typedef struct runs_line {
    rf_progress pg;
    int started;
} runs_line;

static void on_runs(void *arg, long done, long total)
{
    runs_line *l = arg;
    if (!l->started || l->pg.total != total) {
        if (l->started)
            rf_progress_end(&l->pg);
        rf_progress_start(&l->pg, l->pg.f, "reproduce", "runs", total);
        l->started = 1;
    }
    rf_progress_update(&l->pg, done);
    if (done == total) {
        rf_progress_end(&l->pg);
        l->started = 0;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Create dir when missing; an existing non-folder is an error. */
static int make_dir(const char *dir, rf_err *err)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            return rf_err_set(err, RF_EIO, dir, 0, 0, NULL, "exists and is not a folder");
        return RF_OK;
    }
    if (mkdir(dir, 0777) != 0)
        return rf_err_set(err, RF_EIO, dir, 0, 0, NULL, "cannot create the folder: %s",
                          strerror(errno));
    return RF_OK;
}

int rf_cmd_reproduce(int argc, char **argv)
{
    rf_err err;
    rf_err_clear(&err);
    const char *paper = "all", *dir = "reproduce", *jobs_s = NULL, *seed_s = NULL,
               *kernels = "inputs/kernels";
    int full = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (rf_cli_flag(argv, i, "full")) {
            full = 1;
            continue;
        }
        const rf_cli_opt opts[] = {{"paper", &paper}, {"output", &dir}, {"jobs", &jobs_s},
                                   {"seed", &seed_s}, {"kernels", &kernels}};
        int rc = rf_cli_values(argc, argv, &i, opts, sizeof opts / sizeof opts[0], &err);
        if (rc < 0)
            return rf_cli_fail(&err);
        if (rc == 1)
            continue;
        if (argv[i][0] == '-') {
            rf_cli_unknown("reproduce", argv[i], &err);
            return rf_cli_fail(&err);
        }
        paper = argv[i];   /* `rfkit reproduce 003` as DESIGN.md writes it */
    }
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    if (jobs < 1)
        jobs = 1;
    if (jobs_s && rf_parse_long_in(jobs_s, 1, 1024, RF_CLI_WHERE, 0, "jobs", &jobs, &err))
        return rf_cli_fail(&err);
    long seed = 1;
    if (seed_s && rf_parse_long_in(seed_s, 0, 0x7fffffffL, RF_CLI_WHERE, 0, "seed", &seed, &err))
        return rf_cli_fail(&err);
    struct stat st;
    if (stat(kernels, &st) != 0 || !S_ISDIR(st.st_mode)) {
        rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "kernels",
                   "'%s' is not a folder of kernels (run from rfkit's checkout, or give "
                   "--kernels DIR)", kernels);
        return rf_cli_fail(&err);
    }

    rf_repro *r = rf_repro_new();
    if (!r) {
        rf_err_set(&err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        return rf_cli_fail(&err);
    }
    FILE *progress = rf_progress_stream();
    runs_line line;
    memset(&line, 0, sizeof line);
    line.pg.f = progress;
    rf_repro_opts o = {.dir = dir, .full = full, .jobs = (int)jobs, .seed = (uint64_t)seed,
                       .progress = progress, .runs_done = progress ? on_runs : NULL,
                       .runs_arg = &line, .kernels = kernels};
    double t0 = now();
    int rc = make_dir(dir, &err);
    if (!rc)
        rc = rf_repro_run(r, &o, paper, &err);
    if (!rc)
        rc = rf_repro_write(r, &o, &err);
    if (rc) {
        rf_repro_free(r);
        return rf_cli_fail(&err);
    }
    int claims, repro;
    rf_repro_counts(r, &claims, &repro);
    printf("reproduce: %d claims, %d reproduced, %d differ; %.1f s; report in %s/report.md\n",
           claims, repro, claims - repro, now() - t0, dir);
    rf_repro_free(r);
    return 0;
}
