/* test_cli_ltrf.c - rfkit's RFC/LTRF options end to end: simulate's counters
 * and tolerable sweep, estimate and batch on register-cache designs, and bad
 * input. */
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

#define K "--gpu maxwell-ltrf --kernel inputs/kernels/kmeans.spec"
#define SGEMM "--gpu maxwell-ltrf --kernel inputs/kernels/sgemm.spec"

/* simulate --csv: LTRF moves registers and holds warps; LTRF+ moves fewer;
 * RFC counts hits and misses; the baseline none of them. */
static void simulate_counters(void **state)
{
    (void)state;
    clirun r = clirun_run("simulate " K " --design ltrf --csv");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.lines, 2);
    double pf = clirun_csv_get(r.out, "prefetches", 1), regs = clirun_csv_get(r.out, "prefetch_regs", 1);
    assert_true(pf > 0 && regs >= pf);
    assert_true(clirun_csv_get(r.out, "prefetch_stall_cycles", 1) > 0);
    assert_true(clirun_csv_get(r.out, "rc_misses", 1) == 0);
    free(r.out);
    r = clirun_run("simulate " K " --design ltrf --plus --csv");
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "prefetch_regs", 1) < regs);
    free(r.out);
    r = clirun_run("simulate " K " --design rfc --rf-config 7 --csv");
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "rc_hits", 1) > 0 && clirun_csv_get(r.out, "rc_misses", 1) > 0);
    free(r.out);
    r = clirun_run("simulate " K " --csv");
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "prefetches", 1) == 0);
    free(r.out);
}

/* --tolerable --csv: one row per latency point from 1 by the step. */
static void tolerable_csv(void **state)
{
    (void)state;
    clirun r = clirun_run("simulate " K " --design rfc --tolerable --step 2 --max-x 7 --csv");
    assert_int_equal(r.status, 0);
    assert_true(r.lines >= 2 && r.lines <= 5);
    assert_true(clirun_csv_get(r.out, "latency_x", 1) == 1);
    if (r.lines >= 3)
        assert_true(clirun_csv_get(r.out, "latency_x", 2) == 3);
    double tol = clirun_csv_get(r.out, "tolerable_x", 1);
    assert_true(tol >= 0 && tol <= 7);
    free(r.out);
    r = clirun_run("simulate " K " --design baseline --tolerable");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "rfc and ltrf"));
    free(r.out);
    r = clirun_run("simulate " K " --design ltrf --tolerable --loss x");
    assert_int_equal(r.status, 2);
    free(r.out);
    /* A bad sweep option is named as itself. */
    r = clirun_run("simulate " K " --design ltrf --tolerable --step -1");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "step:"));
    free(r.out);
    r = clirun_run("simulate " K " --design ltrf --tolerable --max-x 0.5");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "max-x:"));
    free(r.out);
}

/* estimate and batch: a slower main file costs LTRF IPC; occupancy follows
 * the configuration's capacity. */
static void estimate_batch(void **state)
{
    (void)state;
    clirun a = clirun_run("estimate " K " --design ltrf --latency-x 1 --csv");
    clirun b = clirun_run("estimate " K " --design ltrf --latency-x 8 --csv");
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_true(clirun_csv_get(b.out, "ipc", 1) < clirun_csv_get(a.out, "ipc", 1));
    free(a.out);
    free(b.out);
    FILE *f = fopen("build/test_cli_ltrf.csv", "w");
    assert_non_null(f);
    fprintf(f, "gpu,kernel,design,rf_config,plus,latency_x\n"
               "maxwell-ltrf,inputs/kernels/kmeans.spec,ltrf,6,0,\n"
               "maxwell-ltrf,inputs/kernels/kmeans.spec,ltrf,6,1,\n"
               "maxwell-ltrf,inputs/kernels/kmeans.spec,rfc,1,0,3\n");
    fclose(f);
    clirun r = clirun_run("batch build/test_cli_ltrf.csv --jobs 1");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.lines, 4);
    for (int i = 1; i <= 3; i++)
        assert_true(clirun_csv_get(r.out, "ipc", i) > 0);
    free(r.out);
    remove("build/test_cli_ltrf.csv");
    r = clirun_run("calibrate " K " --design hirf");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "no NVM main register file"));
    free(r.out);
    /* The text report names the two-level pool and its balance where the
     * GPU's scheduler has one (maxwell-ltrf's 8 warps), not elsewhere. */
    r = clirun_run("estimate " K " --sms 1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "two-level pool             8 warps; "));
    assert_non_null(strstr(r.out, "of its places hold an issuing warp"));
    assert_null(strstr(r.out, "register cache"));
    free(r.out);
    /* ... and the register cache's rates for RFC and LTRF. */
    r = clirun_run("estimate " K " --sms 1 --design rfc");
    assert_int_equal(r.status, 0);
    const char *at = strstr(r.out, "register cache");
    assert_non_null(at);
    double hit = 0;
    assert_int_equal(sscanf(at, "register cache %lf%% of reads hit", &hit), 1);
    free(r.out);
    /* The CSV's counts (the sampler's columns): the same hit rate; RFC
     * counts no cache writes or evictions, as the sampler. */
    r = clirun_run("estimate " K " --sms 1 --design rfc --csv");
    assert_int_equal(r.status, 0);
    double h = clirun_csv_get(r.out, "rc_hits", 1), m = clirun_csv_get(r.out, "rc_misses", 1);
    assert_true(h > 0 && m > 0);
    assert_true(fabs(100.0 * h / (h + m) - hit) <= 0.051);
    assert_true(clirun_csv_get(r.out, "rc_writes", 1) == 0);
    free(r.out);
    r = clirun_run("estimate " K " --sms 1 --design ltrf");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "PREFETCH stall"));
    free(r.out);
    /* LTRF: every operand in the warp's partition. */
    r = clirun_run("estimate " K " --sms 1 --design ltrf --csv");
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "rc_hits", 1) > 0);
    assert_true(clirun_csv_get(r.out, "rc_misses", 1) == 0);
    free(r.out);
    r = clirun_run("estimate --gpu fermi-gtx480 --kernel inputs/kernels/kmeans.spec --sms 1");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "two-level pool"));
    free(r.out);
}

/* calibrate takes --design hirf, rfc and ltrf alike: rfc and ltrf run the
 * register-cache windows (sgemm: 4.25% of its estimated 1.25 M cycles holds
 * the baseline, RFC #7 and LTRF #7 windows at four grid positions) and
 * write a record that estimate applies; hirf on an NVM GPU is the plain
 * plan with its HI-RF windows. */
static void calibrate_designs(void **state)
{
    (void)state;
    const char *rec = "build/test_cli_ltrf_calib.csv";
    const char *designs[2] = {"rfc", "ltrf"};
    for (int i = 0; i < 2; i++) {
        remove(rec);
        char args[512];
        snprintf(args, sizeof args, "calibrate " SGEMM " --sms 1 --design %s -o %s", designs[i],
                 rec);
        clirun r = clirun_run(args);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "register-cache model"));
        assert_non_null(strstr(r.out, "baseline at 30%"));
        assert_non_null(strstr(r.out, "rfc #7 at 30%"));
        assert_non_null(strstr(r.out, "ltrf #7 at 40%"));
        assert_non_null(strstr(r.out, "pf_scale"));
        free(r.out);
        snprintf(args, sizeof args, "estimate " SGEMM " --sms 1 --design %s --calib %s --csv",
                 designs[i], rec);
        r = clirun_run(args);
        assert_int_equal(r.status, 0);
        assert_true(clirun_csv_get(r.out, "calibrated", 1) == 1);
        free(r.out);
    }
    remove(rec);
    char args[512];
    snprintf(args, sizeof args, "calibrate --gpu volta-hirf --kernel inputs/kernels/kmeans.spec "
             "--sms 1 --design hirf -o %s", rec);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "hirf index=concat"));
    free(r.out);
    remove(rec);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(simulate_counters),
        cmocka_unit_test(tolerable_csv),
        cmocka_unit_test(estimate_batch),
        cmocka_unit_test(calibrate_designs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
