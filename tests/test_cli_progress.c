/* test_cli_progress.c - long runs of rfkit batch, calibrate and simulate:
 * on a terminal a progress line with the rate and the time left goes to
 * stderr; piped, the commands print their results only; SIGINT stops them
 * with exit status 130 (SIGTERM 143) without leaving an output file or a
 * temporary file, and leaves an existing calibration record as it was. */
#define _XOPEN_SOURCE 700   /* posix_openpt, grantpt, unlockpt, ptsname */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/clirun.h"

static char dir[64];

/* A batch input of n rows over three kernels. */
static void write_input(const char *path, int n)
{
    static const char *const kernels[] = {"hotspot", "bfs", "reduce"};
    static const char *const designs[] = {"baseline", "stealing", "sharing", "finereg"};
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "gpu,kernel,design,banks\n");
    for (int i = 0; i < n; i++)
        fprintf(fp, "fermi-gtx480,inputs/kernels/%s.spec,%s,%d\n", kernels[i * 3 / n],
                designs[i % 4], 4 << (i / 4 % 4));
    fclose(fp);
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* Does dir hold an rf_outfile temporary (.rfkitXXXXXX)? */
static int has_temporary(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int found = 0;
    while ((e = readdir(d)))
        found |= !strncmp(e->d_name, ".rfkit", 6);
    closedir(d);
    return found;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Start rfkit with argv (NULL-terminated after the binary), stdout to
 * /dev/null and stderr to fd err_fd (-1: /dev/null), SIGINT at its default
 * action whatever this process does with it. */
static pid_t start(char *const args[], int err_fd)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(err_fd >= 0 ? err_fd : null, 2);
        execv(clirun_binary(), args);
        _exit(127);
    }
    return pid;
}

static void piped_runs_are_quiet(void **state)
{
    (void)state;
    char in[128], out[128], args[512];
    snprintf(in, sizeof in, "%s/quiet.csv", dir);
    snprintf(out, sizeof out, "%s/quiet.out.csv", dir);
    write_input(in, 300);
    snprintf(args, sizeof args, "batch %s -o %s", in, out);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");   /* nothing on stdout or stderr */
    free(r.out);

    snprintf(args, sizeof args, "calibrate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec "
             "-o %s/quiet-calib.csv", dir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "calibrate: sample"));
    assert_null(strchr(r.out, '\r'));
    free(r.out);

    /* simulate --full: its results, and no progress line on the pipe. */
    r = clirun_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec --full");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "simulate reduce on fermi-gtx480"));
    assert_null(strstr(r.out, "simulate: "));
    assert_null(strstr(r.out, "CTAs/s"));
    assert_null(strchr(r.out, '\r'));
    free(r.out);
}

/* Start rfkit with its stderr on a pseudo-terminal: its pid, and in *master
 * the terminal's other side, where what it draws is read. */
static pid_t start_on_terminal(char *const args[], int *master)
{
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(m >= 0);
    assert_int_equal(grantpt(m), 0);
    assert_int_equal(unlockpt(m), 0);
    int s = open(ptsname(m), O_RDWR | O_NOCTTY);
    assert_true(s >= 0);
    pid_t pid = start(args, s);
    close(s);
    *master = m;
    return pid;
}

/* Read the terminal m into a growing buffer until `until` appears in it
 * (NULL: until the child has closed the terminal, EIO on Linux). */
static char *read_terminal(int m, const char *until)
{
    size_t len = 0, cap = 1 << 14;
    char *buf = malloc(cap);
    assert_non_null(buf);
    buf[0] = '\0';
    ssize_t got;
    while ((got = read(m, buf + len, cap - len - 1)) > 0 || (got < 0 && errno == EINTR)) {
        if (got > 0)
            len += (size_t)got;
        buf[len] = '\0';
        if (until && strstr(buf, until))
            break;
        if (len + 1 == cap)
            buf = realloc(buf, cap *= 2);
        assert_non_null(buf);
    }
    buf[len] = '\0';
    return buf;
}

/* Run rfkit with its stderr on a pseudo-terminal; what it drew there. */
static char *run_on_terminal(char *const args[])
{
    int m;
    pid_t pid = start_on_terminal(args, &m);
    char *buf = read_terminal(m, NULL);
    close(m);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    return buf;
}

static void terminal_shows_rate_and_eta(void **state)
{
    (void)state;
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/tty.csv", dir);
    snprintf(out, sizeof out, "%s/tty.out.csv", dir);
    write_input(in, 300);
    char *bargs[] = {(char *)clirun_binary(), "batch", in, "-o", out, NULL};
    char *t = run_on_terminal(bargs);
    assert_non_null(strstr(t, "\rbatch: 300/300 rows (100%), "));
    assert_non_null(strstr(t, " rows/s, took "));
    free(t);

    char calib[128], list[256];
    snprintf(calib, sizeof calib, "%s/tty-calib.csv", dir);
    snprintf(list, sizeof list, "inputs/kernels/reduce.spec,inputs/kernels/bfs.spec");
    char *cargs[] = {(char *)clirun_binary(), "calibrate", "--gpu", "fermi-gtx480", "--kernels",
                     list, "-o", calib, NULL};
    t = run_on_terminal(cargs);
    assert_non_null(strstr(t, "\rcalibrate: 0/2 kernels (0%)"));
    assert_non_null(strstr(t, "\rcalibrate: 1/2 kernels (50%), "));
    assert_non_null(strstr(t, " kernels/s, ETA "));
    assert_non_null(strstr(t, "\rcalibrate: 2/2 kernels (100%), "));
    free(t);

    /* simulate --full: CTAs of the run (reduce.spec: grid 512 over the
     * GTX480's 15 SMs, the busiest SM's share ceil(512 / 15) = 35 CTAs),
     * drawn at the start and at the end. */
    char *sargs[] = {(char *)clirun_binary(), "simulate", "--gpu", "fermi-gtx480", "--kernel",
                     "inputs/kernels/reduce.spec", "--full", NULL};
    t = run_on_terminal(sargs);
    assert_non_null(strstr(t, "\rsimulate: 0/35 CTAs (0%), "));
    assert_non_null(strstr(t, "\rsimulate: 35/35 CTAs (100%), "));
    assert_non_null(strstr(t, " CTAs/s, took "));
    free(t);

    /* simulate --cycles: the cycles of warm-up and window (1000 + 3000). */
    char *wargs[] = {(char *)clirun_binary(), "simulate", "--gpu", "fermi-gtx480", "--kernel",
                     "inputs/kernels/hotspot.spec", "--warmup", "1000", "--cycles", "3000", NULL};
    t = run_on_terminal(wargs);
    assert_non_null(strstr(t, "\rsimulate: 0/4000 cycles (0%), "));
    assert_non_null(strstr(t, "\rsimulate: 4000/4000 cycles (100%), "));
    assert_non_null(strstr(t, " cycles/s, took "));
    free(t);
}

/* SIGINT once pid's output temporary exists (or after at most 20 s). */
static int interrupt(pid_t pid, long after_ms)
{
    for (int i = 0; i < 2000 && !has_temporary(); i++)
        sleep_ms(10);
    sleep_ms(after_ms);
    kill(pid, SIGINT);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return st;
}

static void sigint_leaves_no_batch_output(void **state)
{
    (void)state;
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/big.csv", dir);
    snprintf(out, sizeof out, "%s/big.out.csv", dir);
    write_input(in, 100000);   /* seconds of work on one thread */
    char *args[] = {(char *)clirun_binary(), "batch", in, "-o", out, "--jobs", "1", NULL};
    int st = interrupt(start(args, -1), 100);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 130);
    assert_false(exists(out));
    assert_false(has_temporary());
}

/* Send sig to a run drawing on a terminal once `drawn` is on it; its wait
 * status. */
static int interrupt_on_terminal(char *const args[], const char *drawn, int sig)
{
    int m;
    pid_t pid = start_on_terminal(args, &m);
    char *t = read_terminal(m, drawn);
    assert_non_null(strstr(t, drawn));
    free(t);
    kill(pid, sig);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    close(m);
    return st;
}

/* simulate --full of a 256x256 grid of hotspot on one SM (65536 CTAs, about a minute)
 * stopped once it has drawn its first progress line: 130 for SIGINT, 143
 * for SIGTERM. */
static void interrupted_simulate_exits_130(void **state)
{
    (void)state;
    static const int sigs[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        char *args[] = {(char *)clirun_binary(), "simulate", "--gpu", "fermi-gtx480", "--kernel",
                        "inputs/kernels/hotspot.spec", "--grid", "256,256", "--full", "--sms", "1",
                        NULL};
        int st = interrupt_on_terminal(args, "\rsimulate: 0/65536 CTAs (0%)", sigs[i]);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 128 + sigs[i]);
    }
}

/* calibrate -o NEW stopped while it samples (the whole grid on one SM and a
 * budget of 40 million cycles are seconds of sampling; the signal comes
 * 300 ms after the start): exit 130, no record file, no temporary. */
static void interrupted_calibrate_writes_nothing(void **state)
{
    (void)state;
    char calib[128];
    snprintf(calib, sizeof calib, "%s/new-calib.csv", dir);
    char *args[] = {(char *)clirun_binary(), "calibrate", "--gpu", "fermi-gtx480", "--kernel",
                    "inputs/kernels/hotspot.spec", "--sms", "1", "--budget-cycles", "40000000",
                    "-o", calib, NULL};
    pid_t pid = start(args, -1);
    sleep_ms(300);
    kill(pid, SIGINT);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 130);
    assert_false(exists(calib));
    assert_false(has_temporary());
}

static void sigint_keeps_the_calibration_record(void **state)
{
    (void)state;
    char calib[128], list[1024] = "";
    snprintf(calib, sizeof calib, "%s/keep-calib.csv", dir);
    const char *before = "gpu,kernel,key,value\n";
    FILE *fp = fopen(calib, "w");
    assert_non_null(fp);
    fputs(before, fp);
    fclose(fp);
    for (int i = 0; i < 30; i++)   /* ten seconds and more of sampling (whole grids) */
        strcat(list, i ? ",inputs/kernels/hotspot.spec" : "inputs/kernels/hotspot.spec");
    char *args[] = {(char *)clirun_binary(), "calibrate", "--gpu", "fermi-gtx480", "--kernels",
                    list, "--sms", "1", "-o", calib, NULL};
    pid_t pid = start(args, -1);
    sleep_ms(300);
    kill(pid, SIGINT);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 130);
    char buf[64] = "";
    fp = fopen(calib, "r");
    assert_non_null(fp);
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    assert_string_equal(buf, before);
    assert_false(has_temporary());
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    snprintf(dir, sizeof dir, "/tmp/rfkit-progress-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(piped_runs_are_quiet),
        cmocka_unit_test(terminal_shows_rate_and_eta),
        cmocka_unit_test(sigint_leaves_no_batch_output),
        cmocka_unit_test(sigint_keeps_the_calibration_record),
        cmocka_unit_test(interrupted_simulate_exits_130),
        cmocka_unit_test(interrupted_calibrate_writes_nothing),
    };
    int rc = cmocka_run_group_tests_name("cli_progress", tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return rc;
}
