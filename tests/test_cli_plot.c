/* test_cli_plot.c - rfkit batch --plot end to end: argument errors stop the
 * command before any row runs and leave no output; a run writes the chart
 * data of its output's columns (the .dat lines are the output's values),
 * says where the chart is, and without gnuplot says how to draw it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/clirun.h"

static char dir[64];
static char in[128];

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Files in dir other than in.csv. */
static int others(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "in.csv");
    closedir(d);
    return n;
}

static void bad(const char *fmt, const char *want)
{
    char args[512];
    snprintf(args, sizeof args, fmt, in, dir);
    clirun_expect_bad(args, want);
    assert_int_equal(others(), 0);   /* no output, no temporary, no chart */
}

static void argument_errors(void **state)
{
    (void)state;
    bad("batch %s -o %s/o.csv --plot banks", "plot: 'banks': give X,Y or X,Y,GROUP");
    bad("batch %s -o %s/o.csv --plot a,b,c,d", "give X,Y or X,Y,GROUP");
    bad("batch %s -o %s/o.csv --plot banks,ipcx",
        "command line: plot: no column 'ipcx' in the output (its columns: gpu,kernel,design,"
        "banks,ctas_per_sm,");
    bad("batch %s -o %s/o.csv --plot banks,ipc,desgn", "no column 'desgn' in the output");
    bad("batch %s -o %s/o.dat --plot banks,ipc", "would be replaced by them");
    bad("batch %s --plot banks,ipc", "--plot needs -o OUT.csv");
    bad("batch %s -o /dev/null --plot banks,ipc", "'/dev/null' is not a regular file");
    bad("batch %s -o %s/o.csv --plot", "--plot needs a value");
    /* Standard input: the header is checked as it is read. */
    char args[512];
    snprintf(args, sizeof args, "batch - -o %s/o.csv --plot banks,ipcz < %s", dir, in);
    clirun_expect_bad(args, "no column 'ipcz' in the output");
    assert_int_equal(others(), 0);
}

/* The lines of a .dat block "# NAME\n" up to the next blank line. */
static const char *block(const char *dat, const char *name)
{
    char head[64];
    snprintf(head, sizeof head, "# %s\n", name);
    const char *b = strstr(dat, head);
    assert_non_null(b);
    return b + strlen(head);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return buf;
}

/* banks,ipc,design over hotspot's four bank counts and two designs: a line
 * per design whose points are the output's (banks, ipc) in banks order. */
static void chart_of_a_run(void **state)
{
    (void)state;
    char args[512], out[128], dat[128];
    snprintf(out, sizeof out, "%s/sweep.csv", dir);
    snprintf(dat, sizeof dat, "%s/sweep.dat", dir);
    const char *saved = getenv("PATH");
    char *path_env = strcpy(malloc(strlen(saved) + 1), saved);
    setenv("PATH", "/nonexistent", 1);   /* no gnuplot */
    snprintf(args, sizeof args, "batch %s -o %s --plot banks,ipc,design", in, out);
    clirun r = clirun_run(args);
    setenv("PATH", path_env, 1);
    free(path_env);
    assert_int_equal(r.status, 0);
    char want[512];
    snprintf(want, sizeof want,
             "rfkit: batch: chart data %s/sweep.dat and .gp (8 points); gnuplot is not "
             "installed: `gnuplot sweep.gp` in %s draws it\n", dir, dir);
    assert_string_equal(r.out, want);
    free(r.out);
    assert_true(exists(dat));
    snprintf(dat, sizeof dat, "%s/sweep.gp", dir);
    assert_true(exists(dat));
    snprintf(dat, sizeof dat, "%s/sweep.png", dir);
    assert_false(exists(dat));

    /* The output's rows 1-4 are baseline at banks 4, 8, 16, 32, rows 5-8
     * stealing: each block line is "banks ipc" of its row, %.10g of the
     * output's 6-digit value. */
    char *text = slurp(out);
    char *csv = strcpy(malloc(strlen(text) + 1), text);
    snprintf(dat, sizeof dat, "%s/sweep.dat", dir);
    const char *d = slurp(dat);
    static const char *const designs[] = {"baseline", "stealing"};
    for (int s = 0; s < 2; s++) {
        const char *b = block(d, designs[s]);
        for (int i = 0; i < 4; i++) {
            char line[64];
            snprintf(line, sizeof line, "%d %.10g\n", 4 << i,
                     clirun_csv_get(csv, "ipc", 4 * s + i + 1));
            assert_memory_equal(b, line, strlen(line));
            b += strlen(line);
        }
    }
    free(csv);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    snprintf(dir, sizeof dir, "/tmp/rfkit-cliplot-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(in, sizeof in, "%s/in.csv", dir);
    FILE *fp = fopen(in, "w");
    if (!fp)
        return 1;
    fputs("gpu,kernel,design,banks\n", fp);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 4; i++)
            fprintf(fp, "fermi-gtx480,inputs/kernels/hotspot.spec,%s,%d\n",
                    s ? "stealing" : "baseline", 4 << i);
    fclose(fp);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(argument_errors),
        cmocka_unit_test(chart_of_a_run),
    };
    int rc = cmocka_run_group_tests_name("cli_plot", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
