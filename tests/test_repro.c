/* test_repro.c - the plot writer (results/plot.c) and the report collector
 * (results/repro.c): data files laid out as plot.h says, the Pareto front,
 * the worker map's ordering of errors, and the report's claims table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../results/plot.h"
#include "../results/repro.h"

static char dir[64];

static char *slurp(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    static const size_t cap = 1 << 16;
    char *b = calloc(1, cap);
    size_t n = fread(b, 1, cap - 1, fp);
    b[n] = '\0';
    fclose(fp);
    return b;
}

/* Two series over numeric x, given out of order, and the front:
 *   a: (8, 1.0) (4, 0.5)      b: (4, 0.9) (16, 0.95)
 * Sorted by x per series.  Front (lowest x, highest y), points by x then y
 * falling: (4,0.9) first, y rises past 0.9 at (8,1.0); (4,0.5) and
 * (16,0.95) are beaten. */
static void numeric_series_and_front(void **state)
{
    (void)state;
    const char *x[] = {"8", "4", "4", "16"};
    const double y[] = {1.0, 0.5, 0.9, 0.95};
    const char *g[] = {"a", "a", "b", "b"};
    rf_plot p = {.stem = "num", .title = "t", .xlabel = "banks", .ylabel = "ipc",
                 .style = RF_PLOT_LINES, .logx = true, .pareto = true};
    int drawn = 1;
    char why[256];
    rf_err err;
    assert_int_equal(rf_plot_write(dir, &p, 4, x, y, g, &drawn, why, sizeof why, &err), 0);
    assert_int_equal(drawn, 0);   /* PATH holds no gnuplot here */
    assert_non_null(strstr(why, "gnuplot num.gp"));
    char *dat = slurp("num.dat");
    assert_non_null(dat);
    assert_string_equal(dat, "# a\n4 0.5\n8 1\n\n\n# b\n4 0.9\n16 0.95\n\n\n"
                             "# Pareto front: lowest x, highest y\n4 0.9\n8 1\n");
    free(dat);
    char *gp = slurp("num.gp");
    assert_non_null(gp);
    assert_non_null(strstr(gp, "set logscale x 2"));
    assert_non_null(strstr(gp, "'num.dat' index 1 using 1:2 with linespoints pt 7 title 'b'"));
    assert_non_null(strstr(gp, "index 2 using 1:2 with steps"));
    free(gp);
}

/* Text x: one line per category in first-seen order, a column per series,
 * "?" for a missing cell; a quote in a label is doubled in the script. */
static void categorical_bars(void **state)
{
    (void)state;
    const char *x[] = {"sgemm", "bfs", "sgemm"};
    const double y[] = {1.01, 2.5, 0.8};
    const char *g[] = {"vt", "vt", "it's"};
    rf_plot p = {.stem = "bars", .title = "IPC", .ylabel = "IPC / baseline",
                 .style = RF_PLOT_LINES, .has_ref = true, .ref_y = 1.0};
    int drawn;
    char why[256];
    rf_err err;
    assert_int_equal(rf_plot_write(dir, &p, 3, x, y, g, &drawn, why, sizeof why, &err), 0);
    char *dat = slurp("bars.dat");
    assert_string_equal(dat, "# category | vt | it's\n\"sgemm\" 1.01 0.8\n\"bfs\" 2.5 ?\n");
    free(dat);
    char *gp = slurp("bars.gp");
    assert_non_null(strstr(gp, "set style histogram clustered"));
    assert_non_null(strstr(gp, "using 3 title 'it''s'"));
    assert_non_null(strstr(gp, "first 1 to graph 1, first 1 nohead"));
    free(gp);
}

static void bad_stem(void **state)
{
    (void)state;
    const char *x[] = {"1"};
    const double y[] = {1};
    rf_plot p = {.stem = "../escape"};
    int drawn;
    char why[64];
    rf_err err;
    assert_int_equal(rf_plot_write(dir, &p, 1, x, y, NULL, &drawn, why, sizeof why, &err),
                     RF_EUSAGE);
    assert_non_null(strstr(err.msg, "not a plot name"));
}

/* Every index runs once; the error reported is the lowest failing index's
 * whatever the thread that met it. */
static int square_or_fail(int i, void *ctx, rf_err *err)
{
    int *out = ctx;
    out[i] = i * i;
    if (i == 7 || i == 31)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, NULL, "index %d", i);
    return RF_OK;
}

static void map_order(void **state)
{
    (void)state;
    int out[40];
    memset(out, 0xff, sizeof out);
    rf_repro_opts o = {.dir = dir, .jobs = 4};
    rf_err err;
    assert_int_equal(rf_repro_map(&o, 40, square_or_fail, out, &err), RF_ERANGE);
    assert_string_equal(err.msg, "index 7");
    for (int i = 0; i < 40; i++)
        assert_int_equal(out[i], i * i);
}

/* The claims table: counts, verdict words, '|' escaped; an unknown paper is
 * a usage error naming the field. */
static void report_claims(void **state)
{
    (void)state;
    rf_repro *r = rf_repro_new();
    assert_non_null(r);
    assert_int_equal(rf_repro_claim(r, "001", "8 banks | stealing", "within 3% of 16", "5.2%",
                                     RF_DIFFERS, "bank demand", NULL),
                     0);
    assert_int_equal(rf_repro_claim(r, "001", "c2", "p", "m", RF_REPRODUCED, "ok", "num"), 0);
    int claims, repro;
    rf_repro_counts(r, &claims, &repro);
    assert_int_equal(claims, 2);
    assert_int_equal(repro, 1);
    rf_repro_opts o = {.dir = dir, .jobs = 1, .seed = 1};
    rf_err err;
    assert_int_equal(rf_repro_write(r, &o, &err), 0);
    char *md = slurp("report.md");
    assert_non_null(strstr(md, "2 claims: 1 reproduced, 1 differ."));
    assert_non_null(
        strstr(md, "| 001 | 8 banks \\| stealing | within 3% of 16 | 5.2% | **differs** | "
                   "bank demand |\n"));
    assert_non_null(strstr(md, "| **reproduced** | ok ([plot](#num)) |"));
    free(md);
    assert_int_equal(rf_repro_run(r, &o, "009", &err), RF_EUNKNOWN);
    assert_non_null(strstr(err.msg, "paper: '009' is not a paper"));
    rf_repro_free(r);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/rfkit-repro-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    setenv("PATH", "/nonexistent", 1);   /* the files, never a drawing */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numeric_series_and_front),
        cmocka_unit_test(categorical_bars),
        cmocka_unit_test(bad_stem),
        cmocka_unit_test(map_order),
        cmocka_unit_test(report_claims),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "/bin/rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
