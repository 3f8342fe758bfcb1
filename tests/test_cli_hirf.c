/* test_cli_hirf.c - HI-RF (seed 002) end to end: rfkit simulate, estimate
 * and batch with --design hirf on volta-hirf. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/clirun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HIRF "--gpu volta-hirf --kernel inputs/kernels/reduce.spec"

/* simulate --design hirf: the register-cache columns, the SRAM baseline of
 * the same machine has none, and the assignment and index options reach
 * the organisation (Worst groups the hot registers: more conflicts). */
static void simulate_columns(void **state)
{
    (void)state;
    clirun a = clirun_run("simulate " HIRF " --design hirf --cycles 20000 --csv");
    assert_int_equal(a.status, 0);
    assert_int_equal(a.lines, 2);
    assert_non_null(strstr(a.out, "rc_conflicts,nvm_reads,nvm_writes"));
    double wr = clirun_csv_get(a.out, "rc_writes", 1), cf = clirun_csv_get(a.out, "rc_conflicts", 1);
    assert_true(wr > 0);
    assert_true(cf > 0 && cf < wr);
    assert_true(clirun_csv_get(a.out, "nvm_writes", 1) <= cf);
    assert_true(clirun_csv_get(a.out, "rc_hits", 1) > 0);
    clirun w = clirun_run("simulate " HIRF " --design hirf --assign worst --cycles 20000 --csv");
    assert_int_equal(w.status, 0);
    assert_true(clirun_csv_get(w.out, "rc_conflicts", 1) > cf);
    clirun f = clirun_run("simulate " HIRF " --design hirf --index full --cycles 20000 --csv");
    assert_int_equal(f.status, 0);
    assert_true(clirun_csv_get(f.out, "rc_conflicts", 1) < cf);
    clirun s = clirun_run("simulate " HIRF " --cycles 20000 --csv");
    assert_int_equal(s.status, 0);
    assert_true(clirun_csv_get(s.out, "rc_writes", 1) == 0);
    assert_true(clirun_csv_get(s.out, "bank_writes", 1) > 0);
    free(a.out), free(w.out), free(f.out), free(s.out);
}

/* estimate --design hirf reports the register cache; batch takes index and
 * assign columns. */
static void estimate_and_batch(void **state)
{
    (void)state;
    clirun e = clirun_run("estimate " HIRF " --design hirf --index tea --assign cac");
    assert_int_equal(e.status, 0);
    assert_non_null(strstr(e.out, "register cache"));
    assert_non_null(strstr(e.out, "of writes evict"));
    free(e.out);
    /* The CSV's counts (the sampler's columns) carry the rates the text
     * prints: conflicts per write, NVM reads per read. */
    e = clirun_run("estimate " HIRF " --sms 1 --design hirf --index tea --assign cac");
    clirun c = clirun_run("estimate " HIRF " --sms 1 --design hirf --index tea --assign cac --csv");
    assert_int_equal(e.status, 0);
    assert_int_equal(c.status, 0);
    const char *at = strstr(e.out, "register cache");
    assert_non_null(at);
    double evict = 0, nvm = 0;
    assert_int_equal(sscanf(at, "register cache %lf%% of writes evict (write-backs), %lf%%", &evict,
                            &nvm), 2);
    double hits = clirun_csv_get(c.out, "rc_hits", 1), miss = clirun_csv_get(c.out, "rc_misses", 1);
    double wr = clirun_csv_get(c.out, "rc_writes", 1), cf = clirun_csv_get(c.out, "rc_conflicts", 1);
    assert_true(wr > 0 && hits > 0);
    assert_true(fabs(100.0 * cf / wr - evict) <= 0.051);
    assert_true(fabs(100.0 * miss / (hits + miss) - nvm) <= 0.051);
    free(e.out), free(c.out);
    char path[] = "/tmp/rfkit_hirf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("gpu,kernel,design,index,assign,rbits,wbits\n"
          "volta-hirf,inputs/kernels/reduce.spec,hirf,concat,worst,3,3\n"
          "volta-hirf,inputs/kernels/reduce.spec,hirf,concat,base,2,4\n"
          "volta-hirf,inputs/kernels/reduce.spec,hirf,concat,cac-plain,3,3\n"
          "volta-hirf,inputs/kernels/reduce.spec,baseline,,,,\n", f);
    fclose(f);
    char args[128];
    snprintf(args, sizeof args, "batch %s", path);
    clirun b = clirun_run(args);
    unlink(path);
    assert_int_equal(b.status, 0);
    assert_int_equal(b.lines, 5);
    assert_null(strstr(b.out, "rfkit:"));
    free(b.out);
}

/* calibrate on an NVM-backed GPU runs the three HI-RF windows, prints their
 * conflict rates and the locality set from the concat and TEA ones, and
 * records it (rc_locality, one for every index); estimate reads it. */
static void calibrate_localities(void **state)
{
    (void)state;
    char rec[] = "/tmp/rfkit_hirf_cal_XXXXXX";
    int fd = mkstemp(rec);
    assert_true(fd >= 0);
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "calibrate " HIRF " --sms 1 --quiet -o %s", rec);
    clirun c = clirun_run(args);
    assert_int_equal(c.status, 0);
    assert_non_null(strstr(c.out, "hirf index=concat"));
    assert_non_null(strstr(c.out, "hirf index=tea"));
    assert_non_null(strstr(c.out, "hirf index=full"));
    const char *rl = strstr(c.out, "register cache: conflicts sampled concat ");
    assert_non_null(rl);
    assert_non_null(strstr(rl, ", tea "));
    assert_non_null(strstr(rl, ", full "));
    assert_non_null(strstr(rl, "rc_locality "));
    assert_non_null(strstr(rl, "warps not exited "));
    FILE *f = fopen(rec, "r");
    assert_non_null(f);
    char line[256];
    double lt = -2, live = -2;
    /* Rows are gpu,"KEY",key,value (the key holds spaces and commas, so it
     * is quoted): read the value after the record key's column. */
    while (fgets(line, sizeof line, f)) {
        const char *kcol = strstr(line, "\",param:rc_locality,");
        const char *lcol = strstr(line, "\",meas_live,");
        if (strncmp(line, "volta-hirf,\"reduce.spec:", 24) != 0)
            continue;
        if (kcol)
            lt = atof(kcol + strlen("\",param:rc_locality,"));
        if (lcol)
            live = atof(lcol + strlen("\",meas_live,"));
    }
    fclose(f);
    assert_true(lt >= 0 && lt <= 0.95);
    assert_true(live > 0 && live <= 1);
    snprintf(args, sizeof args, "estimate " HIRF " --design hirf --index tea --calib %s", rec);
    clirun e = clirun_run(args);
    unlink(rec);
    assert_int_equal(e.status, 0);
    assert_non_null(strstr(e.out, "register cache"));
    free(c.out), free(e.out);
}

/* W2R3 does not make the 6-bit index of 64 lines; unknown policy. */
static void bad_input(void **state)
{
    (void)state;
    clirun_expect_bad("simulate " HIRF " --design hirf --wbits 2 --rbits 3", "wbits");
    clirun_expect_bad("estimate " HIRF " --design hirf --wbits 2 --rbits 3", "wbits");
    clirun_expect_bad("simulate " HIRF " --design hirf --assign random", "assign");
    clirun_expect_bad("simulate " HIRF " --design hirf --index hash", "index");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(simulate_columns),
        cmocka_unit_test(estimate_and_batch),
        cmocka_unit_test(calibrate_localities),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests_name("cli_hirf", tests, NULL, NULL);
}
