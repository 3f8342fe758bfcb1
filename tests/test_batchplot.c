/* test_batchplot.c - rfkit batch --plot (results/batchplot.c): the spec and
 * OUT's name, the column names against an input header, and the chart data
 * written from a batch output (values by hand; gnuplot kept off the PATH so
 * that the files are the same whether it is installed or not, then drawn
 * when it is). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../results/batchplot.h"
#include "../results/plot.h"

static char dir[64];

static void bad_init(const char *spec, const char *out, const char *want)
{
    rf_batchplot bp;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_batchplot_init(&bp, spec, out, &err), RF_EUSAGE);
    if (!strstr(err.msg, want))
        fail_msg("'%s' -o '%s': got \"%s\", want \"%s\"", spec, out, err.msg, want);
    assert_non_null(strstr(err.msg, "command line: plot: "));
}

static void spec_and_out_names(void **state)
{
    (void)state;
    rf_batchplot bp;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_batchplot_init(&bp, "banks,ipc,design", "runs/sub/out.csv", &err), 0);
    assert_string_equal(bp.x, "banks");
    assert_string_equal(bp.y, "ipc");
    assert_string_equal(bp.group, "design");
    assert_string_equal(bp.dir, "runs/sub");
    assert_string_equal(bp.stem, "out");
    rf_batchplot_free(&bp);

    /* No folder: "."; the last extension only goes; "/" stays a folder. */
    assert_int_equal(rf_batchplot_init(&bp, "energy_nj,ipc", "sweep.v2.csv", &err), 0);
    assert_null(bp.group);
    assert_string_equal(bp.dir, ".");
    assert_string_equal(bp.stem, "sweep.v2");
    rf_batchplot_free(&bp);
    assert_int_equal(rf_batchplot_init(&bp, "energy_nj,ipc", "/results", &err), 0);
    assert_string_equal(bp.dir, "/");
    assert_string_equal(bp.stem, "results");
    rf_batchplot_free(&bp);

    bad_init("banks", "o.csv", "'banks': give X,Y or X,Y,GROUP");
    bad_init("banks,ipc,design,kernel", "o.csv", "give X,Y or X,Y,GROUP");
    bad_init("banks,,design", "o.csv", "give X,Y or X,Y,GROUP");
    bad_init(",ipc", "o.csv", "give X,Y or X,Y,GROUP");
    bad_init("", "o.csv", "give X,Y or X,Y,GROUP");
    bad_init("banks,ipc", "runs/o.dat", "'runs/o.dat' would be replaced");
    bad_init("banks,ipc", "o.png", "would be replaced");
    bad_init("banks,ipc", "o.gp", "would be replaced");
    bad_init("banks,ipc", "my out.csv", "the chart is named after OUT ('my out.csv')");
    bad_init("banks,ipc", ".hidden.csv", "the chart is named after OUT");
    bad_init("banks,ipc", "runs/", "the chart is named after OUT");
    bad_init("banks,ipc", "/dev/null", "'/dev/null' is not a regular file");
}

static void columns_of_the_output(void **state)
{
    (void)state;
    rf_batchplot bp;
    rf_err err;
    rf_err_clear(&err);
    const char *const head[] = {"gpu", "kernel", "design", "banks"};
    assert_int_equal(rf_batchplot_init(&bp, "banks,ipc,design", "o.csv", &err), 0);
    assert_int_equal(rf_batchplot_check(&bp, head, 4, &err), 0);
    /* Without the design column the group is not in the output. */
    assert_int_equal(rf_batchplot_check(&bp, head, 2, &err), RF_EUSAGE);
    assert_string_equal(err.msg,
                        "command line: plot: no column 'banks' in the output (its columns: "
                        "gpu,kernel,ctas_per_sm,warps_per_sm,occupancy,ipc,ipc_lo,ipc_hi,cycles,"
                        "energy_nj,area_mm2,resident_ctas_mean,active_ctas_mean,cta_switches,"
                        "switch_cycles,switch_dram_bytes,pcrf_full_stalls,lock_acquires,"
                        "lock_wait_cycles,stall_lock,srp_stall_cycles,srp_acquires,"
                        "nonowner_mem_issue_prob,rc_hits,rc_misses,rc_writes,rc_conflicts,"
                        "calibrated,error)");
    rf_batchplot_free(&bp);
    /* Result columns are always there; names are matched exactly. */
    assert_int_equal(rf_batchplot_init(&bp, "energy_nj,area_mm2,calibrated", "o.csv", &err), 0);
    assert_int_equal(rf_batchplot_check(&bp, head, 4, &err), 0);
    rf_batchplot_free(&bp);
    assert_int_equal(rf_batchplot_init(&bp, "banks,rc_conflicts", "o.csv", &err), 0);
    assert_int_equal(rf_batchplot_check(&bp, head, 4, &err), 0);
    rf_batchplot_free(&bp);
    assert_int_equal(rf_batchplot_init(&bp, "Banks,ipc", "o.csv", &err), 0);
    assert_int_equal(rf_batchplot_check(&bp, head, 4, &err), RF_EUSAGE);
    assert_non_null(strstr(err.msg, "no column 'Banks'"));
    rf_batchplot_free(&bp);
    assert_int_equal(rf_batchplot_init(&bp, "banks,ipcx", "o.csv", &err), 0);
    assert_int_equal(rf_batchplot_check(&bp, head, 4, &err), RF_EUSAGE);
    assert_non_null(strstr(err.msg, "no column 'ipcx'"));
    rf_batchplot_free(&bp);
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[1 << 14];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return buf;
}

/* A batch output by hand: the columns the chart reads, seven rows, one with
 * an error and one whose ipc is not a number. */
static const char output[] =
    "design,banks,ipc,energy_nj,error\n"
    "baseline,8,1.5,200,\n"
    "stealing,8,1.7,260,\n"
    "baseline,4,1.2,150,\n"
    "stealing,4,1.6,180,\n"
    "baseline,16,,,\"in.csv:6:2: banks: 'x' is not a whole number\"\n"
    "stealing,16,1.75,400,\n"
    "baseline,32,n/a,100,\n";

static rf_batchplot_result draw(const char *spec, const char *out)
{
    rf_batchplot bp;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_batchplot_init(&bp, spec, out, &err), 0);
    rf_batchplot_result res;
    int rc = rf_batchplot_draw(&bp, out, &res, &err);
    if (rc)
        fail_msg("%s", err.msg);
    rf_batchplot_free(&bp);
    return res;
}

static void chart_data_by_hand(void **state)
{
    (void)state;
    char out[128], path[160];
    snprintf(out, sizeof out, "%s/out.csv", dir);
    write_text(out, output);
    const char *saved = getenv("PATH");
    char *path_env = saved ? strcpy(malloc(strlen(saved) + 1), saved) : NULL;
    setenv("PATH", "/nonexistent", 1);   /* no gnuplot */

    /* banks,ipc,design: rows 5 (error) and 7 (ipc "n/a") left out; one line
     * per design, each design one ipc per banks value, x ascending. */
    rf_batchplot_result r = draw("banks,ipc,design", out);
    assert_int_equal(r.points, 5);
    assert_int_equal(r.left_out, 2);
    assert_int_equal(r.drawn, 0);
    assert_non_null(strstr(r.why, "`gnuplot out.gp`"));
    snprintf(path, sizeof path, "%s/out.dat", dir);
    assert_string_equal(slurp(path), "# baseline\n4 1.2\n8 1.5\n\n\n"
                                     "# stealing\n4 1.6\n8 1.7\n16 1.75\n");
    snprintf(path, sizeof path, "%s/out.gp", dir);
    assert_non_null(strstr(slurp(path), "index 1 using 1:2 with linespoints pt 7 title 'stealing'"));

    /* energy_nj,ipc: one scatter sorted by energy, and its Pareto front:
     * from the lowest energy up, each point with a higher ipc than all
     * before it: 150 (1.2), 180 (1.6 > 1.2), not 200 (1.5 < 1.6),
     * 260 (1.7), 400 (1.75). */
    r = draw("energy_nj,ipc", out);
    assert_int_equal(r.points, 5);
    assert_int_equal(r.left_out, 2);
    snprintf(path, sizeof path, "%s/out.dat", dir);
    assert_string_equal(slurp(path), "# ipc\n150 1.2\n180 1.6\n200 1.5\n260 1.7\n400 1.75\n\n\n"
                                     "# Pareto front: lowest x, highest y\n"
                                     "150 1.2\n180 1.6\n260 1.7\n400 1.75\n");
    snprintf(path, sizeof path, "%s/out.gp", dir);
    assert_non_null(strstr(slurp(path), "with points pt 7 ps 0.8 title 'ipc'"));
    assert_non_null(strstr(slurp(path), "title 'Pareto front'"));

    /* design,ipc,banks: a text x, clustered bars; banks 8, 4, 16 as first
     * seen; no baseline bar at 16 (its row has an error): '?'. */
    r = draw("design,ipc,banks", out);
    assert_int_equal(r.points, 5);
    snprintf(path, sizeof path, "%s/out.dat", dir);
    assert_string_equal(slurp(path),
                        "# category | 8 | 4 | 16\n"
                        "\"baseline\" 1.5 1.2 ?\n"
                        "\"stealing\" 1.7 1.6 1.75\n");

    /* Group by design over energy with a repeated x: two baseline rows at
     * banks 8 make points, not a zigzag line. */
    char out2[128];
    snprintf(out2, sizeof out2, "%s/rep.csv", dir);
    write_text(out2, "design,banks,ipc,error\nbaseline,8,1.5,\nbaseline,8,1.4,\nbaseline,4,1.2,\n");
    r = draw("banks,ipc,design", out2);
    assert_int_equal(r.points, 3);
    snprintf(path, sizeof path, "%s/rep.dat", dir);
    assert_string_equal(slurp(path), "# baseline\n4 1.2\n8 1.4\n8 1.5\n");
    snprintf(path, sizeof path, "%s/rep.gp", dir);
    assert_non_null(strstr(slurp(path), "with points pt 7 ps 0.8 title 'baseline'"));

    /* No row to chart: nothing written. */
    snprintf(out2, sizeof out2, "%s/none.csv", dir);
    write_text(out2, "design,banks,ipc,error\nbaseline,8,,bad\n");
    r = draw("banks,ipc", out2);
    assert_int_equal(r.points, 0);
    assert_int_equal(r.left_out, 1);
    struct stat sb;
    snprintf(path, sizeof path, "%s/none.dat", dir);
    assert_int_not_equal(stat(path, &sb), 0);

    if (path_env) {
        setenv("PATH", path_env, 1);
        free(path_env);
    }
    /* With gnuplot installed the same call draws out.png. */
    if (rf_plot_available()) {
        r = draw("energy_nj,ipc", out);
        assert_int_equal(r.drawn, 1);
        snprintf(path, sizeof path, "%s/out.png", dir);
        assert_int_equal(stat(path, &sb), 0);
        assert_true(sb.st_size > 1000);
    } else {
        fprintf(stderr, "note: gnuplot is not installed; out.png not drawn\n");
    }
}

/* An output that is not a batch output (no error column) is refused. */
static void not_a_batch_output(void **state)
{
    (void)state;
    char out[128];
    snprintf(out, sizeof out, "%s/other.csv", dir);
    write_text(out, "banks,ipc\n8,1.5\n");
    rf_batchplot bp;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_batchplot_init(&bp, "banks,ipc", out, &err), 0);
    rf_batchplot_result res;
    assert_int_equal(rf_batchplot_draw(&bp, out, &res, &err), RF_EPARSE);
    assert_non_null(strstr(err.msg, "other.csv:1: plot: not a batch output with columns banks, "
                                    "ipc and error"));
    rf_batchplot_free(&bp);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/rfkit-batchplot-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_and_out_names),
        cmocka_unit_test(columns_of_the_output),
        cmocka_unit_test(chart_data_by_hand),
        cmocka_unit_test(not_a_batch_output),
    };
    int rc = cmocka_run_group_tests_name("batchplot", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
