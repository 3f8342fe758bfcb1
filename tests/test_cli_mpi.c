/* test_cli_mpi.c - rfkit batch and calibrate over MPI ranks (cli/mpi.c):
 * `mpirun -np 2` writes the same bytes as one process, for a batch whose
 * rows name several kernels and include bad rows (their error column names
 * the line in the whole file), for calibrate --kernels, and for the chart
 * data of batch --plot (rank 0 draws).  Skipped, with
 * a message, where rfkit is built without MPI or mpirun is not installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/clirun.h"

static char dir[64];
static char mpirun[128];   /* the launcher and its options, "" when absent */
static const char *mpirun_no_stdin = "";   /* its option to forward no stdin */

static char *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 1 << 16, len = 0, got;
    char *b = malloc(cap);
    while (b && (got = fread(b + len, 1, cap - len, fp)) > 0) {
        len += got;
        if (len == cap)
            b = realloc(b, cap *= 2);
    }
    fclose(fp);
    *n = len;
    return b;
}

static void assert_same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    assert_non_null(x);
    assert_non_null(y);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, na);
    free(x);
    free(y);
}

/* Exit status of a shell command, -1 when it did not exit. */
static int sh(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int have_mpi(void)
{
#ifndef RF_HAVE_MPI
    fprintf(stderr, "skipped: rfkit is built without MPI (no mpicc at build time)\n");
    return 0;
#else
    if (!mpirun[0])
        fprintf(stderr, "skipped: no mpirun on the PATH\n");
    return mpirun[0] != 0;
#endif
}

static void batch_two_ranks_same_bytes(void **state)
{
    (void)state;
    if (!have_mpi()) {
        skip();
        return;
    }
    /* 3000 rows: five kernels in runs of rows (each rank characterises only
     * its own), four designs, four bank counts; a bad value at row 1500
     * (line 1501) and a row without a kernel. */
    char in[128], one[128], two[128], cmd[1024];
    snprintf(in, sizeof in, "%s/in.csv", dir);
    snprintf(one, sizeof one, "%s/one.csv", dir);
    snprintf(two, sizeof two, "%s/two.csv", dir);
    FILE *fp = fopen(in, "w");
    assert_non_null(fp);
    static const char *const kernels[] = {"hotspot", "bfs", "reduce", "kmeans", "stream"};
    static const char *const designs[] = {"baseline", "stealing", "sharing", "finereg"};
    fprintf(fp, "gpu,kernel,design,banks,regs\n");
    for (int i = 0; i < 3000; i++) {
        if (i == 1499)
            fprintf(fp, "fermi-gtx480,inputs/kernels/bfs.spec,stealing,eight,\n");
        else if (i == 2000)
            fprintf(fp, "fermi-gtx480,,baseline,8,32\n");
        else
            fprintf(fp, "fermi-gtx480,inputs/kernels/%s.spec,%s,%d,\n", kernels[i / 600],
                    designs[i % 4], 4 << (i / 4 % 4));
    }
    fclose(fp);
    snprintf(cmd, sizeof cmd, "%s batch %s -o %s --jobs 1 2>/dev/null", clirun_binary(), in, one);
    assert_int_equal(sh(cmd), 2);   /* one bad row */
    snprintf(cmd, sizeof cmd, "%s -np 2 %s batch %s -o %s --jobs 1 >/dev/null 2>&1", mpirun,
             clirun_binary(), in, two);
    assert_int_equal(sh(cmd), 2);
    assert_same_file(one, two);
    size_t n;
    char *out = slurp(two, &n);
    assert_non_null(out);
    out = realloc(out, n + 1);
    out[n] = '\0';
    assert_non_null(strstr(out, "in.csv:1501:4: banks: 'eight' is not a whole number"));
    free(out);

    /* Standard input in, standard output out: the same bytes too.  Each
     * rank's standard input is the file itself (rank 0 reads it, the others
     * never do), so mpirun forwards none: Open MPI 4.1's mpirun can crash
     * in its own stdin forwarding (orte_iof_hnp_read_local_handler) when a
     * rank exits while it still polls the input. */
    snprintf(cmd, sizeof cmd, "%s%s -np 2 sh -c 'exec %s batch - --jobs 1 < %s' > %s 2>/dev/null",
             mpirun, mpirun_no_stdin, clirun_binary(), in, two);
    assert_int_equal(sh(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s batch - --jobs 1 < %s > %s 2>/dev/null", clirun_binary(), in,
             one);
    assert_int_equal(sh(cmd), 2);
    assert_same_file(one, two);
}

static void calibrate_kernels_two_ranks_same_bytes(void **state)
{
    (void)state;
    if (!have_mpi()) {
        skip();
        return;
    }
    char one[128], two[128], o1[128], o2[128], cmd[1024];
    snprintf(one, sizeof one, "%s/calib1.csv", dir);
    snprintf(two, sizeof two, "%s/calib2.csv", dir);
    snprintf(o1, sizeof o1, "%s/calib1.txt", dir);
    snprintf(o2, sizeof o2, "%s/calib2.txt", dir);
    const char *list = "inputs/kernels/hotspot.spec,inputs/kernels/bfs.spec,"
                       "inputs/kernels/reduce.spec";
    snprintf(cmd, sizeof cmd, "%s calibrate --gpu fermi-gtx480 --kernels %s -o %s > %s",
             clirun_binary(), list, one, o1);
    assert_int_equal(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s -np 2 %s calibrate --gpu fermi-gtx480 --kernels %s -o %s > %s",
             mpirun, clirun_binary(), list, two, o2);
    assert_int_equal(sh(cmd), 0);
    assert_same_file(one, two);
    /* The printed table names the file given, which differs: compare the
     * lines after the first. */
    size_t n1, n2;
    char *a = slurp(o1, &n1), *b = slurp(o2, &n2);
    assert_non_null(a);
    assert_non_null(b);
    const char *ta = memchr(a, '\n', n1), *tb = memchr(b, '\n', n2);
    assert_non_null(ta);
    assert_non_null(tb);
    assert_int_equal(n1 - (size_t)(ta - a), n2 - (size_t)(tb - b));
    assert_memory_equal(ta, tb, n1 - (size_t)(ta - a));
    free(a);
    free(b);
}

/* batch --plot under two ranks: rank 0 draws from the output it wrote,
 * the same chart data and script as one process; a column not in the
 * output stops every rank before any row runs. */
static void plot_two_ranks_same_chart(void **state)
{
    (void)state;
    if (!have_mpi()) {
        skip();
        return;
    }
    char in[128], cmd[1024], a[128], b[128];
    snprintf(in, sizeof in, "%s/plot-in.csv", dir);
    FILE *fp = fopen(in, "w");
    assert_non_null(fp);
    static const char *const kernels[] = {"hotspot", "bfs"};
    static const char *const designs[] = {"baseline", "stealing"};
    fprintf(fp, "gpu,kernel,design,banks\n");
    for (int i = 0; i < 32; i++)
        fprintf(fp, "fermi-gtx480,inputs/kernels/%s.spec,%s,%d\n", kernels[i / 16],
                designs[i / 4 % 2], 4 << (i % 4));
    fclose(fp);
    snprintf(cmd, sizeof cmd, "%s batch %s -o %s/p1.csv --plot energy_nj,ipc,design --jobs 1 "
             "2>/dev/null", clirun_binary(), in, dir);
    assert_int_equal(sh(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s -np 2 %s batch %s -o %s/p2.csv --plot energy_nj,ipc,design "
             "--jobs 1 >/dev/null 2>&1", mpirun, clirun_binary(), in, dir);
    assert_int_equal(sh(cmd), 0);
    snprintf(a, sizeof a, "%s/p1.dat", dir);
    snprintf(b, sizeof b, "%s/p2.dat", dir);
    assert_same_file(a, b);
    /* The scripts differ only in the file names they hold: p1 against p2. */
    size_t n1, n2;
    snprintf(a, sizeof a, "%s/p1.gp", dir);
    snprintf(b, sizeof b, "%s/p2.gp", dir);
    char *ga = slurp(a, &n1), *gb = slurp(b, &n2);
    assert_non_null(ga);
    assert_non_null(gb);
    assert_int_equal(n1, n2);
    for (size_t i = 0; i + 1 < n1; i++)
        if (ga[i] == 'p' && ga[i + 1] == '1' && gb[i] == 'p' && gb[i + 1] == '2')
            ga[i + 1] = '2';
    assert_memory_equal(ga, gb, n1);
    free(ga);
    free(gb);

    snprintf(cmd, sizeof cmd, "%s -np 2 %s batch %s -o %s/p3.csv --plot energy_nj,ipcq "
             "--jobs 1 >/dev/null 2>&1", mpirun, clirun_binary(), in, dir);
    assert_int_equal(sh(cmd), 2);
    snprintf(a, sizeof a, "%s/p3.csv", dir);
    assert_null(fopen(a, "r"));
}

static void find_mpirun(void)
{
    if (sh("command -v mpirun >/dev/null 2>&1") != 0)
        return;
    /* Open MPI refuses root without --allow-run-as-root and more ranks than
     * cores without --oversubscribe; under AddressSanitizer, its libraries'
     * allocations kept until exit are not this program's leaks. */
    if (sh("mpirun --version 2>&1 | grep -q 'Open MPI'") == 0) {
        setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
        snprintf(mpirun, sizeof mpirun, "mpirun --allow-run-as-root --oversubscribe -x ASAN_OPTIONS");
        mpirun_no_stdin = " --stdin none";
    } else {
        snprintf(mpirun, sizeof mpirun, "mpirun");
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    snprintf(dir, sizeof dir, "/tmp/rfkit-mpi-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    find_mpirun();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_two_ranks_same_bytes),
        cmocka_unit_test(calibrate_kernels_two_ranks_same_bytes),
        cmocka_unit_test(plot_two_ranks_same_chart),
    };
    int rc = cmocka_run_group_tests_name("cli_mpi", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
    return rc;
}
