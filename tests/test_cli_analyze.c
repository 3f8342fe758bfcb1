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
    assert_true(!strncmp(buf, "kernel,entry,functions,blocks,insts,regs_rfkit,regs_ptxas,"
                              "max_live,mean_live,", 64));
    char *row = strchr(buf, '\n');
    assert_non_null(row);
    row++;
    assert_true(!strncmp(row, "hotspot,hotspot,", 16));
    long blocks = field(row, 3), insts = field(row, 4), regs = field(row, 5);
    assert_true(blocks > 1);
    assert_true(insts > blocks);
    assert_int_equal(field(row, 6), 26);
    long max_live = field(row, 7);
    assert_true(max_live > 0 && max_live <= regs);
    assert_true(field(row, 10) >= 1);
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
    long insts = field(strchr(buf, '\n') + 1, 4);
    long nint = field(strchr(buf, '\n') + 1, 10);
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
    assert_true(field(strchr(buf, '\n') + 1, 10) >= nint);
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
        cmocka_unit_test(test_passes_run),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("cli_analyze", tests, NULL, NULL);
}
