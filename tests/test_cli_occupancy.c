/* test_cli_occupancy.c - rfkit gpus and rfkit occupancy end to end: the
 * built binary is run for its output, exit code and error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/clirun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../analytic/design.h"
#include "../common/param.h"
#include "../inputs/gpu.h"

static void test_gpus(void **state)
{
    (void)state;
    clirun r = clirun_run("gpus");
    assert_int_equal(r.status, 0);
    for (int i = 0; rf_gpu_preset_names[i]; i++)
        assert_non_null(strstr(r.out, rf_gpu_preset_names[i]));
    assert_non_null(strstr(r.out, "seed 003 Table 1"));
    free(r.out);
    r = clirun_run("gpus --csv");
    assert_int_equal(r.status, 0);
    assert_int_equal(strncmp(r.out, "gpu,cc,sms,regs_per_sm,", 23), 0);
    assert_int_equal(r.lines, 9);
    assert_non_null(strstr(r.out, "\nv100,7.0,80,65536,255,2048,64,32,98304,"));
    free(r.out);
    r = clirun_run("gpus --keys");
    assert_int_equal(r.status, 0);
    for (size_t k = 0; k < rf_gpu_nparams; k++)
        assert_non_null(strstr(r.out, rf_gpu_params[k].name));
    free(r.out);
    clirun_expect_bad("gpus --fast", "unknown option '--fast'");
}

/* CSV: the fixed header, one row per design. */
static void test_csv(void **state)
{
    (void)state;
    clirun r = clirun_run("occupancy --gpu fermi-c2050 --regs 36 --threads 256 --design baseline "
                      "--design sharing --sharing 0.5 --csv");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.lines, 3);
    const char *head = "gpu,design,regs,threads,smem,ctas_per_sm,warps_per_sm,occupancy,limiter,"
                       "overhead_bits,active_ctas,pending_ctas,active_warps,sharing_m,"
                       "shared_pairs,unshared,";
    assert_int_equal(strncmp(r.out, head, strlen(head)), 0);
    /* hotspot at 50%: g = 3, M = 4, S = 1, U = 2; 273 bits. */
    assert_non_null(strstr(r.out, "\nfermi-c2050,baseline,36,256,0,3,24,0.5,regs,0,3,0,24,"));
    assert_non_null(strstr(r.out, "\nfermi-c2050,sharing,36,256,0,4,32,0.666667,regs,273,4,0,32,4,1,2,"));
    /* Design parameters are columns too. */
    assert_non_null(strstr(r.out, ",live_frac,"));
    free(r.out);
    r = clirun_run("occupancy --gpu maxwell-gtx980 --regs 32 --threads 256 --design all --csv");
    assert_int_equal(r.status, 0);
    assert_int_equal(r.lines, 1 + RF_DESIGN_COUNT);
    /* FineReg: 4 active + 7 pending (see test_occupancy.c). */
    assert_non_null(strstr(r.out, "\nmaxwell-gtx980,finereg,32,256,0,11,88,1.375,regs,46796.8,4,7,"));
    free(r.out);
}

static void test_readable(void **state)
{
    (void)state;
    clirun r = clirun_run("occupancy --gpu fermi-c2050 --regs 36 --threads 256 --design all");
    assert_int_equal(r.status, 0);
    for (int k = 0; rf_design_names[k]; k++)
        assert_non_null(strstr(r.out, rf_design_names[k]));
    assert_non_null(strstr(r.out, "# gpu fermi-c2050"));
    assert_non_null(strstr(r.out, "M=6 from g=3; 3 shared pairs, 0 unshared"));
    assert_non_null(strstr(r.out, "# sharing overhead:"));
    assert_non_null(strstr(r.out, "= 273 bits"));
    free(r.out);
}

static void test_help_dump(void **state)
{
    (void)state;
    clirun r = clirun_run("occupancy --help");
    assert_int_equal(r.status, 0);
    for (size_t k = 0; k < rf_design_nparams; k++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", rf_design_params[k].name);
        assert_non_null(strstr(r.out, opt));
    }
    for (int k = 0; rf_design_names[k]; k++)
        assert_non_null(strstr(r.out, rf_design_names[k]));
    free(r.out);

    /* --dump writes a GPU file that reads back to the same part. */
    char path[] = "/tmp/rfkit-dump-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char args[256];
    snprintf(args, sizeof args, "occupancy --gpu a100 --dump > %s", path);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    free(r.out);
    snprintf(args, sizeof args,
             "occupancy --gpu %s --regs 32 --threads 128 --smem 32768 --csv", path);
    clirun a = clirun_run(args);
    clirun b = clirun_run("occupancy --gpu a100 --regs 32 --threads 128 --smem 32768 --csv");
    unlink(path);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_string_equal(a.out, b.out); /* the dump keeps the name "a100" */
    assert_non_null(strstr(a.out, "\na100,baseline,32,128,32768,4,16,0.25,smem,"));
    free(a.out);
    free(b.out);
}

static void test_config_files(void **state)
{
    (void)state;
    clirun r = clirun_run("occupancy --gpu tests/fixtures/gpgpusim.config --regs 36 --threads 256 "
                      "--design sharing --sharing 0.5 --csv");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "rfkit: note: tests/fixtures/gpgpusim.config: 5 GPGPU-Sim "
                                  "options not modelled, ignored"));
    assert_non_null(strstr(r.out, ",sharing,36,256,0,4,32,"));
    free(r.out);
    r = clirun_run("occupancy --gpu tests/fixtures/v100-half.ini --regs 33 --threads 256 --csv");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nv100-half,baseline,33,256,0,6,48,"));
    free(r.out);

    char path[] = "/tmp/rfkit-bad-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *bad = "preset = v100\nwarps = 12\n";
    assert_int_equal(write(fd, bad, strlen(bad)), (ssize_t)strlen(bad));
    close(fd);
    char args[256], want[128];
    snprintf(args, sizeof args, "occupancy --gpu %s --regs 32 --threads 64", path);
    snprintf(want, sizeof want, "%s:2:1: warps: unknown parameter", path);
    clirun_expect_bad(args, want);
    unlink(path);
}

static void test_bad_input(void **state)
{
    (void)state;
    clirun_expect_bad("occupancy --gpu gtx9000 --regs 32 --threads 64", "unknown GPU preset 'gtx9000'");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 64 --design magic",
               "unknown design 'magic'");
    clirun_expect_bad("occupancy --gpu v100 --regs many --threads 64", "regs: 'many' is not a whole number");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads -64", "threads: -64 is outside");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 64 --smem -1", "smem: -1 is outside");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 64 --sharing x", "sharing: 'x' is not a number");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 64 --sharing 1", "sharing: 1 is outside");
    clirun_expect_bad("occupancy --gpu fermi-c2050 --regs 64 --threads 64",
               "regs: 64 registers per thread exceed the 63 that fermi-c2050 allows");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 2048",
               "threads: 2048 threads per CTA exceed the 1024");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 64 --smem 98305",
               "smem: 98305 bytes of shared memory per CTA exceed the 98304");
    clirun_expect_bad("occupancy --gpu v100 --regs 255 --threads 1024", "regs: a CTA of 1024 threads");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 64 --turbo", "unknown option '--turbo'");
    clirun_expect_bad("occupancy --regs 32 --threads 64", "needs --gpu");
    clirun_expect_bad("occupancy --gpu v100 --threads 64", "needs --regs N and --threads N");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 64 --design", "--design needs a value");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 64 --design ltrf --rf-config 8",
               "rf_config: 8 is outside [1, 7]");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpus),        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_readable),    cmocka_unit_test(test_help_dump),
        cmocka_unit_test(test_config_files), cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("cli_occupancy", tests, NULL, NULL);
}
