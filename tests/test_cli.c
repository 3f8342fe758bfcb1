/* test_cli.c - what every rfkit command shares (cli/cli.c): an input that
 * cannot be read, a directory among them, is bad input (exit 2, one line
 * naming the path) in every command; options that would silently mean
 * something else are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/clirun.h"

#define SPEC "inputs/kernels/hotspot.spec"

/* A path no file holds: mkstemp's unique name (tmpl ends in XXXXXX), its
 * file removed again, for a command that must create the file itself. */
static void fresh_name(char *tmpl)
{
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    close(fd);
    unlink(tmpl);
}

static void unreadable_inputs_are_bad_input(void **state)
{
    (void)state;
    clirun_expect_bad("analyze tests", "tests: is a directory, not a file");
    clirun_expect_bad("analyze tests/no-such.ptx", "tests/no-such.ptx: cannot open:");
    clirun_expect_bad("estimate --gpu fermi-gtx480 --kernel tests",
                      "tests: is a directory, not a file");
    clirun_expect_bad("estimate --gpu tests --kernel " SPEC, "tests: is a directory, not a file");
    clirun_expect_bad("simulate --gpu tests --kernel " SPEC " --cycles 100",
                      "tests: is a directory, not a file");
    clirun_expect_bad("occupancy --gpu tests --regs 32 --threads 256",
                      "tests: is a directory, not a file");
    clirun_expect_bad("gpus --dump tests", "tests: is a directory, not a file");
    clirun_expect_bad("calibrate --gpu tests --kernel " SPEC " -o /dev/null",
                      "tests: is a directory, not a file");
    clirun_expect_bad("batch tests", "tests: is a directory, not a file");
    clirun_expect_bad("batch tests/no-such.csv", "tests/no-such.csv: cannot open:");
}

/* An empty file name or value gave messages naming nothing ("rfkit:
 * cannot open: No such file or directory"); it is a usage error now. */
static void empty_values_are_refused(void **state)
{
    (void)state;
    clirun_expect_bad("estimate --gpu v100 --kernel=", "--kernel needs a value, got an empty one");
    clirun_expect_bad("simulate --gpu \"\" --kernel " SPEC, "--gpu needs a value, got an empty one");
    clirun_expect_bad("batch tests/fixtures/none.csv -o \"\"", "-o needs a file name");
    clirun_expect_bad("batch \"\"", "an empty IN.csv file name");
    clirun_expect_bad("analyze \"\"", "an empty KERNEL file name");
}

/* Windows that measure nothing were runs printing an all-zero row (exit
 * 0): --cycles 0 ran the whole grid (0 is the library's "no window";
 * calibrate's --budget-cycles 0 likewise meant its default),
 * --skip-ctas past the grid ran nothing, a warm-up longer than the run
 * left an empty window.  small.ptx on 4 CTAs runs about 3000 cycles. */
static void empty_windows_are_refused(void **state)
{
    (void)state;
    clirun_expect_bad("simulate --gpu fermi-gtx480 --kernel " SPEC " --cycles 0",
                      "cycles: a window of 0 cycles");
    clirun_expect_bad("calibrate --gpu fermi-gtx480 --kernel " SPEC " --budget-cycles 0 "
                      "-o /dev/null",
                      "budget-cycles: a budget of 0 cycles");
    clirun_expect_bad("simulate --gpu fermi-gtx480 --kernel tests/fixtures/small.ptx --grid 4 "
                      "--block 128 --skip-ctas 4 --sms 1",
                      "skip_ctas: 4 CTAs skipped leave none of the 4 to run (the grid's)");
    /* By default the busiest SM's share: of 20 CTAs over the 15 SMs, SM 0
     * runs CTAs 0 and 15. */
    clirun_expect_bad("simulate --gpu fermi-gtx480 --kernel tests/fixtures/small.ptx --grid 20 "
                      "--block 128 --skip-ctas 2",
                      "skip_ctas: 2 CTAs skipped leave none of the 2 to run (the busiest SM's "
                      "share of the grid)");
    clirun_expect_bad("simulate --gpu fermi-gtx480 --kernel tests/fixtures/small.ptx --grid 4 "
                      "--block 128 --warmup 999999 --cycles 10",
                      "warmup: the grid finished within the 999999-cycle warm-up");
    clirun r = clirun_run("simulate --gpu fermi-gtx480 --kernel tests/fixtures/small.ptx "
                          "--grid 4 --block 128 --skip-ctas 3 --sms 1 --csv");
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "ctas_done", 1) == 1);   /* the one CTA left */
    free(r.out);
    /* A budget below the plan's minimum windows runs them and says so. */
    char rec[] = "/tmp/rfkit-test-budgetXXXXXX";
    int fd = mkstemp(rec);
    assert_true(fd >= 0);
    close(fd);
    char args[256];
    snprintf(args, sizeof args,
             "calibrate --gpu fermi-gtx480 --kernel " SPEC " --budget-cycles 10 --quiet -o %s", rec);
    r = clirun_run(args);
    unlink(rec);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "more than --budget-cycles 10"));
    free(r.out);
}

/* A calibration record applies only to the launch and content it was made
 * for: estimate with another grid runs uncalibrated (calibrated=0) and says
 * why; the same spec edited (same key, other digest) is refused, exit 2.
 * (A budget given, so that the record holds samples: the default budget's
 * windows on reduce's default-run share would not run, calibrate/
 * calibrate.c step 0.) */
static void records_are_not_misapplied(void **state)
{
    (void)state;
    char dir[] = "/tmp/rfkit-test-recapXXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[512];
    snprintf(args, sizeof args,
             "sh -c 'cp inputs/kernels/reduce.spec inputs/kernels/reduce.ptx %s/'", dir);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args,
             "calibrate --gpu fermi-gtx480 --kernel %s/reduce.spec --budget-cycles 6000 --quiet "
             "-o %s/r.csv", dir, dir);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 0);
    free(r.out);
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel %s/reduce.spec --calib %s/r.csv --csv", dir, dir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "calibrated", 1) == 1);
    free(r.out);
    /* Another seed is another run, with its own record beside seed 1's:
     * estimate --seed 2 takes it, --seed 3 has none and says so. */
    snprintf(args, sizeof args,
             "calibrate --gpu fermi-gtx480 --kernel %s/reduce.spec --budget-cycles 6000 --quiet "
             "--seed 2 -o %s/r.csv", dir, dir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    free(r.out);
    for (int s = 1; s <= 3; s++) {
        for (int csv = 0; csv < 2; csv++) {
            snprintf(args, sizeof args,
                     "estimate --gpu fermi-gtx480 --kernel %s/reduce.spec --seed %d --calib "
                     "%s/r.csv%s", dir, s, dir, csv ? " --csv" : "");
            r = clirun_run(args);
            assert_int_equal(r.status, 0);
            if (csv)
                assert_true(clirun_csv_get(r.out, "calibrated", 1) == (s <= 2));
            else if (s == 3)
                assert_non_null(strstr(r.out, "regs=12 sms=15 seed=3 in "));
            free(r.out);
        }
    }
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel %s/reduce.spec --grid 64 --calib %s/r.csv --csv",
             dir, dir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "calibrated", 1) == 0);
    free(r.out);
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel %s/reduce.spec --grid 64 --calib %s/r.csv", dir,
             dir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "no record for fermi-gtx480, reduce.spec:reduce grid=64,1,1"));
    free(r.out);
    /* The record describes the grid over the GTX480's 15 SMs (calibrate's
     * default): the one-SM run is another, uncalibrated and said so. */
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel %s/reduce.spec --sms 1 --calib %s/r.csv", dir,
             dir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "block=256,1,1 smem=0 regs=12 sms=1 in "));
    assert_non_null(strstr(r.out, "run rfkit calibrate with the same --sms"));
    free(r.out);
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel %s/reduce.spec --sms 15 --calib %s/r.csv --csv",
             dir, dir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "calibrated", 1) == 1);
    free(r.out);
    /* batch rows alike: the row's sms (empty: the GPU's) picks the record. */
    snprintf(args, sizeof args,
             "sh -c 'printf \"gpu,kernel,sms\\nfermi-gtx480,%s/reduce.spec,\\n"
             "fermi-gtx480,%s/reduce.spec,1\\nfermi-gtx480,%s/reduce.spec,15\\n\" > %s/p.csv'",
             dir, dir, dir, dir);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args, "batch %s/p.csv --calib %s/r.csv", dir, dir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "calibrated", 1) == 1);
    assert_true(clirun_csv_get(r.out, "calibrated", 2) == 0);
    assert_true(clirun_csv_get(r.out, "calibrated", 3) == 1);
    free(r.out);
    snprintf(args, sizeof args, "sh -c 'echo \"; edited\" >> %s/reduce.spec'", dir);
    assert_int_equal(system(args), 0);
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel %s/reduce.spec --calib %s/r.csv", dir, dir);
    clirun_expect_bad(args, "calibrated on other code or another spec");
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

/* A kernel over the GPU's register limit (tests/fixtures/regalloc/
 * over63.ptx: 74 registers uncapped, 14 spilled at fermi-gtx480's 63) is
 * calibrated as estimate models it: spilled, and filed under regs=63, so
 * estimate finds the record (calibrated=1, spilled_regs=14). */
static void calibrate_spills_over_the_limit(void **state)
{
    (void)state;
    char rec[] = "/tmp/rfkit-test-spillXXXXXX";
    fresh_name(rec);
    char args[512];
    snprintf(args, sizeof args,
             "calibrate --gpu fermi-gtx480 --kernel tests/fixtures/regalloc/over63.ptx --grid 120 "
             "--block 256 --budget-cycles 6000 --quiet -o %s", rec);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 0);
    free(r.out);
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel tests/fixtures/regalloc/over63.ptx --grid 120 "
             "--block 256 --calib %s --csv", rec);
    r = clirun_run(args);
    unlink(rec);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "calibrated", 1) == 1);
    assert_true(clirun_csv_get(r.out, "spilled_regs", 1) == 14);
    free(r.out);
}

/* Every --option a command's --help names is one it accepts: given alone
 * it may be refused for a missing value or argument, never as unknown.
 * (simulate did not take the --grid and --block a bare code file needs.) */
static void help_names_only_accepted_options(void **state)
{
    (void)state;
    static const char *const cmds[] = {"gpus", "occupancy", "analyze", "simulate",
                                       "estimate", "calibrate", "batch"};
    int checked = 0;
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char args[512];
        snprintf(args, sizeof args, "%s --help", cmds[c]);
        clirun h = clirun_run(args);
        assert_int_equal(h.status, 0);
        for (const char *p = strstr(h.out, "--"); p; p = strstr(p + 2, "--")) {
            size_t n = 2;
            while (islower((unsigned char)p[n]) || isdigit((unsigned char)p[n]) ||
                   p[n] == '-' || p[n] == '_')
                n++;
            if (n == 2 || !strncmp(p, "--help", 6))
                continue;
            snprintf(args, sizeof args, "%s %.*s </dev/null", cmds[c], (int)n, p);
            clirun r = clirun_run(args);
            if (strstr(r.out, "unknown option") || strstr(r.out, "unexpected argument"))
                fail_msg("rfkit %s --help names %.*s, which it refuses: %s", cmds[c], (int)n, p,
                         r.out);
            free(r.out);
            checked++;
        }
        free(h.out);
    }
    assert_true(checked > 100);   /* the design parameters appear in four helps */
}

/* A bare PTX file runs in simulate with its launch on the command line:
 * small.ptx, 4 CTAs of 128 threads (4 warps each). */
static void simulate_takes_bare_code_launch(void **state)
{
    (void)state;
    clirun r = clirun_run("simulate --gpu fermi-gtx480 --kernel tests/fixtures/small.ptx "
                          "--grid 4 --block 128 --csv");
    if (r.status != 0)
        fail_msg("%s", r.out);
    assert_int_equal(r.lines, 2);
    assert_true(clirun_csv_get(r.out, "ipc", 1) > 0);
    free(r.out);
    clirun_expect_bad("simulate --gpu fermi-gtx480 --kernel tests/fixtures/small.ptx",
                      "a bare code file needs --grid");
}

/* estimate's launch options are the point table's (inputs/point.h): each
 * error names the option as given, and the aliases --threads and --ctas
 * are --block and --grid under other names. */
static void estimate_point_options(void **state)
{
    (void)state;
    clirun_expect_bad("estimate --gpu v100 --kernel " SPEC " --sms 0",
                      "command line: sms: 0 is outside [1, 65536]");
    clirun_expect_bad("estimate --gpu v100 --kernel " SPEC " --block 2048",
                      "command line: block: 2048 is outside [1, 1024]");
    clirun_expect_bad("estimate --gpu v100 --kernel " SPEC " --threads 32,32,2",
                      "command line: threads: 2048 threads per block exceed 1024");
    clirun_expect_bad("estimate --gpu v100 --kernel " SPEC " --ctas 0",
                      "command line: ctas: 0 is outside [1, 2147483647]");
    clirun_expect_bad("estimate --gpu v100 --kernel " SPEC " --regs 256",
                      "command line: regs: 256 is outside [0, 255]");
    clirun_expect_bad("estimate --gpu v100 --kernel " SPEC " --entry=",
                      "--entry needs a value, got an empty one");
    clirun a = clirun_run("estimate --gpu v100 --kernel " SPEC " --block 128 --grid 64 --csv");
    clirun b = clirun_run("estimate --gpu v100 --kernel " SPEC " --threads 128 --ctas 64 --csv");
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    free(b.out);
    b = clirun_run("estimate --gpu v100 --kernel " SPEC " --csv");
    assert_string_not_equal(a.out, b.out);   /* the spec's launch is 32,32 x 16,16 */
    free(a.out);
    free(b.out);
}

/* --seed names the run an estimate describes (the sampler's draws):
 * seed 1 is the default's run, byte for byte; kmeans's loop trips are
 * drawn (the profile's trip), so seed 3 is another run with another IPC;
 * a batch row's seed cell gives the same estimate as the option; a
 * negative seed is refused with its field. */
static void estimate_seed_names_the_run(void **state)
{
    (void)state;
#define KM "inputs/kernels/kmeans.spec"
    clirun_expect_bad("estimate --gpu fermi-gtx480 --kernel " KM " --seed -1",
                      "command line: seed: -1 is outside [0, 9223372036854775807]");
    clirun a = clirun_run("estimate --gpu fermi-gtx480 --kernel " KM " --csv");
    clirun b = clirun_run("estimate --gpu fermi-gtx480 --kernel " KM " --seed 1 --csv");
    clirun c = clirun_run("estimate --gpu fermi-gtx480 --kernel " KM " --seed 3 --csv");
    assert_int_equal(a.status, 0);
    assert_int_equal(c.status, 0);
    assert_string_equal(a.out, b.out);
    double ipc1 = clirun_csv_get(a.out, "ipc", 1), ipc3 = clirun_csv_get(c.out, "ipc", 1);
    assert_true(clirun_csv_get(a.out, "seed", 1) == 1);
    assert_true(clirun_csv_get(c.out, "seed", 1) == 3);
    assert_true(ipc1 > 0 && ipc3 > 0);
    assert_true(fabs(ipc1 - ipc3) > 0.01 * ipc1);
    FILE *f = fopen("build/test_cli_seed.csv", "w");
    assert_non_null(f);
    fprintf(f, "gpu,kernel,seed\nfermi-gtx480," KM ",3\nfermi-gtx480," KM ",\n");
    fclose(f);
    clirun r = clirun_run("batch build/test_cli_seed.csv --jobs 1");
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "ipc", 1) == ipc3);
    assert_true(clirun_csv_get(r.out, "ipc", 2) == ipc1);
    free(a.out);
    free(b.out);
    free(c.out);
    free(r.out);
    remove("build/test_cli_seed.csv");
#undef KM
}

/* Output that cannot be written (here /dev/full) fails the run (exit 1,
 * one message on stderr) instead of passing a cut-off table as success. */
static void unwritable_output_fails(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "gpus",
        "gpus --csv",
        "occupancy --gpu v100 --regs 32 --threads 256",
        "estimate --gpu v100 --kernel " SPEC " --csv",
        "analyze " SPEC " --no-ptxas",
        "simulate --help",
    };
    if (access("/dev/full", W_OK) != 0)
        skip();
    char errf[64];
    snprintf(errf, sizeof errf, "/tmp/rfkit-full-%ld.err", (long)getpid());
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char cmd[1024], msg[512] = "";
        snprintf(cmd, sizeof cmd, "%s %s >/dev/full 2>%s", clirun_binary(), runs[i], errf);
        int st = system(cmd);
        FILE *f = fopen(errf, "r");
        assert_non_null(f);
        size_t n = fread(msg, 1, sizeof msg - 1, f);
        msg[n] = '\0';
        fclose(f);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 ||
            strcmp(msg, "rfkit: cannot write the output: No space left on device\n") != 0)
            fail_msg("rfkit %s: status %d: %s", runs[i], st, msg);
    }
    unlink(errf);
    clirun ok = clirun_run("gpus >/dev/null");
    assert_int_equal(ok.status, 0);
    free(ok.out);
}

/* A kernel whose CTAs all run one path (bscholes, the whole grid on one
 * SM of fermi-gtx480): calibrate takes one settled sample
 * (calibrate/plan.c one_state; its plan by hand in test_plan.c) and says
 * why. */
static void one_path_kernel_settles_once(void **state)
{
    (void)state;
    char rec[] = "/tmp/rfkit-test-onepathXXXXXX";
    fresh_name(rec);
    char args[512];
    snprintf(args, sizeof args,
             "calibrate --gpu fermi-gtx480 --kernel inputs/validation/bscholes.spec --sms 1 "
             "--quiet -o %s", rec);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ", 1 sample, record "));
    assert_non_null(strstr(r.out, "settled: windows shorter than a CTA lifetime (2427 cycles) "
                                  "traded for 1 sample after a timed warm-up; one, as every CTA "
                                  "of the run runs one path"));
    free(r.out);
    unlink(rec);
}

/* Windows not worth running (calibrate/calibrate.c, step 0): libor's
 * default-run share (18 CTAs, lifetimes of about 12,700 cycles against
 * one window of about 2,100) gets a record without samples; calibrate
 * says why, estimate says the record holds none and gives calibrated=0;
 * with --budget-cycles the windows run and the record applies. */
static void windows_not_worth_running_are_said(void **state)
{
    (void)state;
    char rec[] = "/tmp/rfkit-test-worthXXXXXX";
    fresh_name(rec);
    char args[512];
    snprintf(args, sizeof args,
             "calibrate --gpu fermi-gtx480 --kernel inputs/kernels/libor.spec --quiet -o %s", rec);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ", 0 samples, record "));
    assert_non_null(strstr(r.out, "no samples: the budget's 1 window would weigh "));
    assert_non_null(strstr(r.out, "--budget-cycles N runs them"));
    free(r.out);
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel inputs/kernels/libor.spec --calib %s", rec);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "(no samples: the kernel too short for a window, or its "
                                  "windows not worth running; estimates uncalibrated)"));
    free(r.out);
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel inputs/kernels/libor.spec --calib %s --csv",
             rec);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "calibrated", 1) == 0);
    free(r.out);
    snprintf(args, sizeof args,
             "calibrate --gpu fermi-gtx480 --kernel inputs/kernels/libor.spec --budget-cycles 2400 "
             "--quiet -o %s", rec);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "no samples"));
    free(r.out);
    snprintf(args, sizeof args,
             "estimate --gpu fermi-gtx480 --kernel inputs/kernels/libor.spec --calib %s --csv",
             rec);
    r = clirun_run(args);
    unlink(rec);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "calibrated", 1) == 1);
    free(r.out);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unreadable_inputs_are_bad_input),
        cmocka_unit_test(empty_windows_are_refused),
        cmocka_unit_test(empty_values_are_refused),
        cmocka_unit_test(help_names_only_accepted_options),
        cmocka_unit_test(simulate_takes_bare_code_launch),
        cmocka_unit_test(estimate_point_options),
        cmocka_unit_test(estimate_seed_names_the_run),
        cmocka_unit_test(unwritable_output_fails),
        cmocka_unit_test(records_are_not_misapplied),
        cmocka_unit_test(calibrate_spills_over_the_limit),
        cmocka_unit_test(windows_not_worth_running_are_said),
        cmocka_unit_test(one_path_kernel_settles_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
