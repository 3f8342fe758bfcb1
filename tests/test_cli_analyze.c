/* test_cli_analyze.c - rfkit analyze end to end on the bundled kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

/* The rfkit binary next to this test's build folder (build/tests/x ->
 * build/rfkit). */
static char rfkit[512];

/* Run "rfkit ARGS" capturing stdout (and stderr when merge); returns the
 * exit status. */
static int run(const char *args, char *out, size_t cap, int merge)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s %s", rfkit, args, merge ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Field k (0-based) of a comma-separated line without quoted fields. */
static long field(const char *line, int k)
{
    for (int i = 0; i < k; i++) {
        line = strchr(line, ',');
        assert_non_null(line);
        line++;
    }
    return strtol(line, NULL, 10);
}

static char buf[1 << 20];

/* Summary CSV of hotspot: ptxas's 26 registers from the spec, rfkit's own
 * allocation, live registers within the allocation, intervals present. */
static void test_summary_csv(void **state)
{
    (void)state;
    assert_int_equal(run("analyze inputs/kernels/hotspot.spec --csv", buf, sizeof buf, 0), 0);
    assert_true(!strncmp(buf, "kernel,entry,functions,blocks,reachable_blocks,insts,regs_rfkit,"
                              "regs_ptxas,max_live,mean_live,", 90));
    char *row = strchr(buf, '\n');
    assert_non_null(row);
    row++;
    assert_true(!strncmp(row, "hotspot,hotspot,", 16));
    long blocks = field(row, 3), insts = field(row, 5), regs = field(row, 6);
    assert_true(blocks > 1);
    assert_true(field(row, 4) >= 1 && field(row, 4) <= blocks);
    assert_true(insts > blocks);
    assert_int_equal(field(row, 7), 26);
    long max_live = field(row, 8);
    assert_true(max_live > 0 && max_live <= regs);
    assert_true(field(row, 11) >= 1);
    /* Exactly one data row. */
    assert_null(strchr(strchr(row, '\n') + 1, '\n'));
}

/* Several kernels, one row each. */
static void test_summary_many(void **state)
{
    (void)state;
    assert_int_equal(run("analyze inputs/kernels/stream.spec inputs/kernels/bfs.spec --csv",
                         buf, sizeof buf, 0), 0);
    int lines = 0;
    for (char *p = buf; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, 3);
    assert_non_null(strstr(buf, "\nstream,"));
    assert_non_null(strstr(buf, "\nbfs,"));
}

/* Intervals cover every instruction once and respect N. */
static void test_intervals_csv(void **state)
{
    (void)state;
    assert_int_equal(run("analyze inputs/kernels/sgemm.spec --csv", buf, sizeof buf, 0), 0);
    long insts = field(strchr(buf, '\n') + 1, 5);
    long nint = field(strchr(buf, '\n') + 1, 11);
    assert_int_equal(run("analyze inputs/kernels/sgemm.spec --pass intervals --csv",
                         buf, sizeof buf, 0), 0);
    assert_true(!strncmp(buf, "id,entry_block,insts,regs,preds,", 32));
    long sum = 0, rows = 0;
    for (char *line = strchr(buf, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        assert_int_equal(field(line, 0), rows);
        sum += field(line, 2);
        long r = field(line, 3);
        assert_true(r <= 16 || field(line, 2) == 1);
        rows++;
    }
    assert_int_equal(sum, insts);
    assert_int_equal(rows, nint);
    /* A smaller partition gives at least as many intervals. */
    assert_int_equal(run("analyze inputs/kernels/sgemm.spec --interval-regs 8 --csv",
                         buf, sizeof buf, 0), 0);
    assert_true(field(strchr(buf, '\n') + 1, 11) >= nint);
}

/* Row of the summary CSV whose first fields are "KERNEL,FUNC,". */
static const char *row_of(const char *csv, const char *kernel_func)
{
    char key[256];
    snprintf(key, sizeof key, "\n%s,", kernel_func);
    const char *r = strstr(csv, key);
    if (!r)
        fail_msg("no row %s in %s", kernel_func, csv);
    return r + 1;
}

/* --entry all: one row per function, each covering its own blocks (the
 * counts test_sass checks by hand on these fixtures): functions, blocks,
 * reachable blocks, instructions, intervals (N = 16), strands. */
static void test_summary_per_function(void **state)
{
    (void)state;
    static const struct {
        const char *row;
        long funcs, blocks, reach, insts, intervals, strands;
    } want[] = {
        {"kepler_ssy,_Z8clampsumPf", 2, 5, 4, 14, 2, 3},
        {"kepler_ssy,_Z7findkeyPKiiiPi", 2, 9, 8, 26, 2, 6},
        {"longcall,_Z21normalise_rows_by_meanPdPKdS1_i", 2, 4, 3, 34, 4, 7},
        {"longcall,$_Z21normalise_rows_by_meanPdPKdS1_i$__cuda_sm20_div_f64_slowpath_v2",
         2, 4, 3, 8, 2, 2},
    };
    static const char *const files[] = {
        "tests/fixtures/kepler_ssy.sass tests/fixtures/longcall.sass",
        "tests/fixtures/kepler_ssy.dot tests/fixtures/longcall.dot"};
    for (int k = 0; k < 2; k++) {
        char args[256];
        snprintf(args, sizeof args, "analyze %s --entry all --csv", files[k]);
        assert_int_equal(run(args, buf, sizeof buf, 0), 0);
        int lines = 0;
        for (char *p = buf; (p = strchr(p, '\n')); p++)
            lines++;
        assert_int_equal(lines, 5);
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            const char *r = row_of(buf, want[i].row);
            assert_int_equal(field(r, 2), want[i].funcs);
            assert_int_equal(field(r, 3), want[i].blocks);
            assert_int_equal(field(r, 4), want[i].reach);
            assert_int_equal(field(r, 5), want[i].insts);
            assert_int_equal(field(r, 11), want[i].intervals);
            assert_int_equal(field(r, 14), want[i].strands);
        }
    }
    /* Without it: the first entry only; SHI_REGISTERS is ptxas's count. */
    assert_int_equal(run("analyze tests/fixtures/longcall.sass --csv", buf, sizeof buf, 0), 0);
    const char *r = row_of(buf, "longcall,_Z21normalise_rows_by_meanPdPKdS1_i");
    assert_int_equal(field(r, 7), 16);
    assert_null(strchr(r, '\n') ? strchr(strchr(r, '\n') + 1, '\n') : NULL);
    assert_int_equal(run("analyze tests/fixtures/longcall.sass --entry all --pass liveness",
                         buf, sizeof buf, 1), 2);
    assert_non_null(strstr(buf, "--entry all gives the summary only"));
    /* A spec's [branches] name its entry's blocks: the file's other
     * functions (devcall's two device functions) are summarised without
     * them, not refused. */
    assert_int_equal(run("analyze inputs/validation/devcall.spec --entry all --csv --no-ptxas",
                         buf, sizeof buf, 0), 0);
    row_of(buf, "devcall,_Z3cndf");
    row_of(buf, "devcall,_Z9step_ratefff");
    row_of(buf, "devcall,devcall");
}

static void test_passes_run(void **state)
{
    (void)state;
    static const char *const passes[] = {"regalloc", "liveness", "dstcount", "cac",
                                         "strands", "reorder", "deadreg"};
    for (size_t k = 0; k < sizeof passes / sizeof passes[0]; k++) {
        char args[256];
        snprintf(args, sizeof args, "analyze inputs/kernels/kmeans.spec --pass %s", passes[k]);
        assert_int_equal(run(args, buf, sizeof buf, 0), 0);
        assert_true(strlen(buf) > 100);
    }
    assert_int_equal(run("analyze --help", buf, sizeof buf, 0), 0);
    assert_non_null(strstr(buf, "--interval-regs"));
}

/* Bad input: exit 2 and a file:line:col message. */
static void test_bad_input(void **state)
{
    (void)state;
    char dir[] = "/tmp/rfkit_analyze_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/bad.ptx", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    static const char bad[] =
        ".version 8.0\n"
        ".target sm_75\n"
        ".address_size 64\n"
        "\n"
        ".visible .entry bad(\n"
        "\t.param .u64 bad_param_0\n"
        ")\n"
        "{\n"
        "\t.reg .b32 %r<4>;\n"
        "\tmov.u32 %r1, %r9;\n"
        "\tret;\n"
        "}\n";
    assert_int_equal(fwrite(bad, 1, sizeof bad - 1, fp), sizeof bad - 1);
    fclose(fp);
    char args[600];
    snprintf(args, sizeof args, "analyze %s", path);
    assert_int_equal(run(args, buf, sizeof buf, 1), 2);
    char want[600];
    snprintf(want, sizeof want, "%s:10:", path);
    assert_non_null(strstr(buf, want));
    unlink(path);
    rmdir(dir);
    assert_int_equal(run("analyze inputs/kernels/bfs.spec --pass nope", buf, sizeof buf, 1), 2);
    assert_non_null(strstr(buf, "pass"));
    assert_int_equal(run("analyze inputs/kernels/bfs.spec --interval-regs 0", buf, sizeof buf, 1), 2);
    assert_non_null(strstr(buf, "interval-regs"));
    assert_int_equal(run("analyze", buf, sizeof buf, 1), 2);
}

int main(int argc, char **argv)
{
    (void)argc;
    /* argv[0] = BUILD/tests/test_cli_analyze */
    snprintf(rfkit, sizeof rfkit, "%s", argv[0]);
    char *slash = strrchr(rfkit, '/');
    if (slash)
        *slash = '\0';
    slash = strrchr(rfkit, '/');
    if (slash)
        snprintf(slash, sizeof rfkit - (size_t)(slash - rfkit), "/rfkit");
    else
        snprintf(rfkit, sizeof rfkit, "build/rfkit");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_csv),
        cmocka_unit_test(test_summary_many),
        cmocka_unit_test(test_intervals_csv),
        cmocka_unit_test(test_summary_per_function),
        cmocka_unit_test(test_passes_run),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("cli_analyze", tests, NULL, NULL);
}
